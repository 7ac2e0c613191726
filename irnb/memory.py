"""Memory while reading (*irnb*, speed only; values never change): numpy's huge-page advice
switched off during a parse, and the memory a parse freed handed back to the system.

Memory pages: numpy asks Linux for 2 MB pages for every array of 4 MB or more
(``madvise(MADV_HUGEPAGE)``), and where transparent huge pages are "madvise" (the common
default) the kernel may compact memory to find one at each first touch. The parse
allocates many such short-lived arrays, and that advice cost it up to half its CPU time on
this project's 2-core machine. So while a file is read (:func:`small_pages`, applied to
:mod:`irnb.io`'s readers by :func:`with_small_pages`), numpy's advice is off; it is back to
what it was when the read returns, values are unchanged. The :class:`~irnb.Experiment`
build leaves it on: its temporaries are now few and large enough that 2 MB pages cost less
than the 4 KB page faults they save.

Freed memory: a parse's temporaries are larger than the table it keeps, and the allocators
(Arrow's pool, glibc's malloc) keep some of what was freed; :func:`return_freed_memory`
hands it back (see benchmarks/bench_memory.py).
"""

from __future__ import annotations

import contextlib
import functools
import threading

import numpy as np
import pyarrow as pa

__all__ = ["small_pages", "with_small_pages", "hugepage_setter", "return_freed_memory"]

_PAGES_LOCK = threading.Lock()
_PAGES_USERS = 0  # calls inside small_pages (threads, nesting)
_PAGES_SAVED = True  # numpy's setting before the first of them


def hugepage_setter():
    """numpy's switch for its huge-page advice (``_set_madvise_hugepage``), or None."""
    core = getattr(np, "_core", None) or getattr(np, "core", None)
    return getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)


@contextlib.contextmanager
def small_pages():
    """Turn numpy's huge-page advice off for the duration (see the module docstring) and
    restore it after the last overlapping call returns (safe across threads and nesting)."""
    global _PAGES_USERS, _PAGES_SAVED
    setter = hugepage_setter()
    if setter is None:
        yield
        return
    with _PAGES_LOCK:
        if _PAGES_USERS == 0:
            _PAGES_SAVED = bool(setter(False))
        _PAGES_USERS += 1
    try:
        yield
    finally:
        with _PAGES_LOCK:
            _PAGES_USERS -= 1
            if _PAGES_USERS == 0:
                setter(_PAGES_SAVED)


def with_small_pages(function):
    """``function`` run inside :func:`small_pages` (a wrapper defined here, so that doctest
    and Sphinx still find the function's docstring)."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with small_pages():
            return function(*args, **kwargs)
    return wrapper


def return_freed_memory() -> None:
    """Hand the memory freed while parsing back to the operating system — Arrow's pool and,
    with glibc, malloc's heap — rather than leave it to the allocators, which keep some of
    it: a parse's temporaries are larger than the table it keeps (see benchmarks/bench_memory.py)."""
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    """glibc's ``malloc_trim``, or None elsewhere (macOS, Windows, musl)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    except OSError:
        return None
