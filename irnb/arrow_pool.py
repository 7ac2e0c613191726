"""Which memory pool irnb's own Arrow calls allocate from.

Arrow's default pool (mimalloc in pyarrow's wheels) reserves a large arena on its first use in
a process and asks the kernel for huge pages in it, so the first megabytes it hands out cost
the zeroing (and at times the compaction) of whole 2 MiB pages. Small inputs and single files
(:mod:`irnb.io` sets the sizes) are read, and every Experiment is built, with the C allocator
instead, whose pages the process already holds. Files parsed on the reading threads keep
Arrow's pool, which holds many parsed runs in less memory; so does a large lone file's parse,
but a large qrels file's columns, copied in topic and docno order, go to the C allocator, which
maps and unmaps blocks that large whole, while Arrow's pool would keep each freed source
column's memory without handing it to the next copy (:mod:`irnb.trecdata`).

The choice is scoped, never process-wide: :func:`allocating_from` sets it for the code inside
a ``with`` block on the calling thread (a context variable; other threads and other callers
keep Arrow's default), and irnb's Arrow calls pass :func:`arrow_pool` as their
``memory_pool``.

>>> import pyarrow as pa, pyarrow.compute as pc
>>> arrow_pool() is None  # Arrow's default pool
True
>>> with allocating_from(pa.system_memory_pool()):
...     pc.add(pa.array([1, 2]), 1, memory_pool=arrow_pool()).to_pylist(), arrow_pool().backend_name
([2, 3], 'system')
>>> arrow_pool() is None
True
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

import pyarrow as pa

__all__ = ["arrow_pool", "allocating_from", "return_freed_memory"]

_POOL: contextvars.ContextVar[pa.MemoryPool | None] = contextvars.ContextVar("irnb_arrow_pool", default=None)


def arrow_pool() -> pa.MemoryPool | None:
    """The pool for irnb's Arrow calls here: None (Arrow's default) unless inside :func:`allocating_from`."""
    return _POOL.get()


@contextlib.contextmanager
def allocating_from(pool: pa.MemoryPool | None) -> Iterator[None]:
    """irnb's Arrow calls inside the block (on this thread) allocate from ``pool``."""
    token = _POOL.set(pool)
    try:
        yield
    finally:
        _POOL.reset(token)


def return_freed_memory() -> None:
    """Hand what Arrow's default pool keeps of freed memory (a parse's temporaries, a column
    just dropped) back to the system now, rather than bit by bit inside whatever runs next,
    and so that the next large allocation can use those pages."""
    pa.default_memory_pool().release_unused()
