"""Read and write TREC runs and qrels: open the sources, build checked Run and Qrels objects.

The text of one file is parsed into tables by :mod:`irnb.parsing`; string columns become
keys and runs take trec_eval's order in :mod:`irnb.ordering`. This module opens the
sources (files, compressed or not, folders, archives, DataFrames), checks the tables
(repeated docnos, grades) into :class:`Run` and :class:`Qrels`, and writes them back.

Sources: a path to a plain, gzip-, bzip2- or xz-compressed file, a directory of run files,
a ``.tar``/``.tar.gz``/``.tar.xz``/``.tar.bz2`` archive (every regular member is a run), or
a pandas DataFrame. Inputs are never modified: files are only read, DataFrames are copied.

Rules (trec_eval's, unless marked *irnb*):

* A run line is ``qid Q0 docno rank score tag``. Column 2 may be any token (``Q0``, ``0``);
  the rank column is ignored. Text after the sixth column is ignored, as trec_eval ignores
  it (``results.trunc`` in its test suite relies on it).
* Ranking: by score descending, ties broken by docno descending (byte order), exactly as
  trec_eval sorts. Scores are *compared* as 32-bit floats because trec_eval stores them in a
  C ``float``: two scores that differ only after about the 7th significant digit tie and are
  ordered by docno. ``Run.table["score"]`` keeps the exact 64-bit value read from the file.
* A qrels line is exactly ``qid iteration docno grade`` (trec_eval rejects a fifth column as
  a malformed line; so does irnb). The iteration column is ignored, whatever it holds
  (TREC-COVID writes ``0.5`` there). The grade must be an integer (``-1``, ``+2`` and ``007``
  are integers; ``1.0`` and ``0x1`` are not) in [MIN_GRADE, MAX_GRADE] = [-126, 127]
  (*irnb*: grades are stored as 8-bit integers whose two lowest values are markers;
  trec_eval documents -127 to 127); negative grades mean "pooled but not judged".
* Fields are separated by any run of ASCII whitespace (space, tab, ``\\v``, ``\\f``),
  C's ``isspace`` as in trec_eval. Lines end with ``\\n`` or ``\\r\\n`` (Windows).
  *irnb*: a carriage return not followed by ``\\n`` is an error naming its line (trec_eval
  reads it as a space, so a file with old Mac line ends becomes one line, silently).
* *irnb*: a line longer than MAX_LINE_BYTES (10,000 bytes, trec_eval's own limit for
  standard input) and a NUL byte (binary data; trec_eval would cut strings there) are
  errors naming the line. Input echoed in a message is cut to SHOWN_CHARS (60) characters.
* Lines whose first non-blank character is ``#`` are comments and blank lines are skipped
  in both runs and qrels (trec_eval ≥ 10 skips comments in both and blank lines in runs;
  *irnb* also skips blank lines in qrels). *irnb* keeps a run file's comments on the Run
  (``Run.comments``, and an ir_metadata block parsed into ``Run.metadata``; see
  :mod:`irnb.runmeta`). A ``#`` later on a line is ordinary text
  (docnos such as ``msmarco_v2.1_doc_00_880019750#4_1633802806``).
* *irnb*: a UTF-8 byte-order mark at the start of a file is dropped (trec_eval would make
  it part of the first topic id, so that topic would silently match nothing). Text must
  be UTF-8; a UTF-16 file is rejected with a message saying so.
* A docno repeated within a topic is an error (trec_eval: "duplicate docs"), in runs and in
  qrels. ``on_duplicate="keep_first"`` keeps the first occurrence in file order (row order
  for DataFrames) and drops the others, whatever their scores or grades.
* A path that cannot be read — missing, permission denied, a symlink loop, a directory
  where a file is expected, a device or pipe (never read: it could block or never end) — is
  a :class:`FileReadError` (a ``ValueError``) naming the path and the cause in the operating
  system's words. A broken link or special file inside a runs folder is one too, not skipped.
* Errors are ``ValueError`` naming ``file:line`` (``archive::member:line`` inside an
  archive, ``DataFrame 'name': row LABEL`` with the row's index label for frames) and
  saying what was expected: fewer than the required columns, a score that is not a finite
  number, a grade that is not an integer or out of range, a repeated docno, an empty
  file (no data lines).
  A DataFrame's topic and docno values must be non-empty and free of whitespace (so that
  the run can be written as TREC text).

Parsing (:mod:`irnb.parsing`) has two paths that give identical tables (a property test checks it): a fast one
(pyarrow's CSV reader) for files with one kind of separator (all single spaces or all
single tabs) and no comments, blank lines or trailing columns, and an exact line-by-line
one for everything else and for every error. A file is always tried on the fast path
first; any surprise sends it to the line-by-line path, which reports the line.
``read_runs`` parses files on up to four threads while it reads the next ones; the runs and
the error raised are those of reading the files one after the other.

Memory pages (*irnb*, speed only): numpy asks Linux for 2 MB pages for every array of
4 MB or more (``madvise(MADV_HUGEPAGE)``), and where transparent huge pages are "madvise"
(the common default) the kernel may compact memory to find one at each first touch. The
parse allocates many such short-lived arrays, and that advice cost it up to half its CPU
time on this project's 2-core machine. So while a file is read (:func:`_small_pages`),
numpy's advice is off; it is back to what it was when the read returns, values are
unchanged. The :class:`~irnb.Experiment` build leaves it on: its temporaries are now few and
large enough that 2 MB pages cost less than the 4 KB page faults they save.
"""

from __future__ import annotations

import bz2
import collections
import contextlib
import dataclasses
import errno
import functools
import gzip
import lzma
import os
import re
import stat
import tarfile
import threading
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._grades import MAX_GRADE, MIN_GRADE  # noqa: F401 (read as irnb.io.MIN_GRADE)
from ._text import MAX_LINE_BYTES, SHOWN_CHARS, clean_text, shorten, show_token  # noqa: F401
from .nested import looks_nested, nested_frame
from .ordering import COMPAT_VERSIONS, check_compat, remember_blocks, sorted_blocks, topic_blocks  # noqa: F401
from .ordering import StringBytes as _StringBytes
from .ordering import encode_topics as _topic_codes  # called through this module's name (a test spies on it)
from .ordering import raw_offsets as _raw_offsets
from .ordering import repeated_rows as _repeated_rows
from .ordering import string_bytes as _string_bytes
from .ordering import string_hash as _string_hash  # noqa: F401
from .ordering import strings_equal as _strings_equal  # noqa: F401
from .ordering import topic_docno_order as _topic_docno_order
from .parsing import QRELS_COLUMNS, RUN_COLUMNS, qrels_frame_table, run_frame_table
from .parsing import QRELS_FAST as _QRELS_FAST  # noqa: F401
from .parsing import RUN_FAST as _RUN_FAST  # noqa: F401
from .parsing import check_grades as _check_grades
from .parsing import fast_table as _fast_table  # noqa: F401
from .parsing import parse_qrels_bytes as _parse_qrels_bytes
from .parsing import parse_qrels_exact as _parse_qrels_exact  # noqa: F401
from .parsing import parse_run_bytes as _parse_run_bytes
from .parsing import parse_run_exact as _parse_run_exact  # noqa: F401
from .parsing import position as _position
from .parsing import where as _where
from .runmeta import read_comments

__all__ = [
    "FileReadError",
    "Run",
    "Qrels",
    "read_run",
    "read_runs",
    "read_qrels",
    "write_run",
    "write_qrels",
    "DUPLICATE_POLICIES",
]

DUPLICATE_POLICIES = ("error", "keep_first")

Source = str | os.PathLike | pd.DataFrame

# Grades are stored as int8 (irnb.experiment), whose two lowest values mark "not in the
# qrels" (-128) and "no document" (-127): a grade read must lie in [MIN_GRADE, MAX_GRADE]
# (declared in irnb._grades beside those markers, which the lean trec_eval reader shares).


@dataclass(frozen=True)
class Run:
    """One ranked run: per topic, documents in trec_eval order.

    ``table`` has the columns ``topic`` (string), ``docno`` (string), ``score`` (float64),
    sorted by topic (string order), then score descending (compared as float32, see the
    module docstring), then docno descending; ``rank`` is implied by the position within
    the topic (1-based).
    """

    name: str
    table: pa.Table = field(repr=False)
    tag: str = ""
    source: str = ""
    #: the file's ``#`` comment lines (text after ``#``) and its ir_metadata block (irnb.runmeta)
    comments: tuple[str, ...] = field(default=(), repr=False)
    metadata: Mapping = field(default_factory=dict, repr=False, compare=False)

    @property
    def num_lines(self) -> int:
        return self.table.num_rows

    @property
    def topics(self) -> list[str]:
        return pc.unique(self.table["topic"]).to_pylist()

    @classmethod
    def from_dict(cls, scores: Mapping, *, name: str = "run") -> "Run":
        """A run from the pytrec_eval/ranx shape ``{qid: {docno: score}}`` (see
        :mod:`irnb.adapters`, which also reads ranx and ir_datasets objects)."""
        if not isinstance(scores, Mapping) or (scores and not looks_nested(scores, 1)):
            raise TypeError(f"Run.from_dict: expected a dict {{qid: {{docno: score}}}}, got {type(scores).__name__}"
                            + (" whose values are not {docno: score} dicts" if isinstance(scores, Mapping) else ""))
        return read_run(nested_frame(scores, f"run {name!r}", "score"), name=name)

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, rank, score`` (rank 1-based, trec_eval order)."""
        frame = self.table.select(["topic", "docno", "score"]).to_pandas()
        frame.insert(2, "rank", frame.groupby("topic", sort=False).cumcount().to_numpy() + 1)
        return frame


@dataclass(frozen=True)
class Qrels:
    """Relevance judgments: ``table`` has ``topic``, ``docno`` (strings) and ``grade`` (int64),
    sorted by topic then docno."""

    table: pa.Table = field(repr=False)
    source: str = ""

    @property
    def num_judgments(self) -> int:
        return self.table.num_rows

    @property
    def topics(self) -> list[str]:
        return pc.unique(self.table["topic"]).to_pylist()

    @classmethod
    def from_dict(cls, grades: Mapping) -> "Qrels":
        """Qrels from the pytrec_eval/ranx shape ``{qid: {docno: grade}}`` (see :mod:`irnb.adapters`)."""
        if not isinstance(grades, Mapping) or (grades and not looks_nested(grades, 1)):
            raise TypeError(f"Qrels.from_dict: expected a dict {{qid: {{docno: grade}}}}, got {type(grades).__name__}"
                            + (" whose values are not {docno: grade} dicts" if isinstance(grades, Mapping) else ""))
        if not grades:
            raise ValueError("qrels dict: expected at least one judgment, got an empty dict")
        return read_qrels(nested_frame(grades, "qrels dict", "grade"))

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, grade``."""
        return self.table.select(["topic", "docno", "grade"]).to_pandas()


# --------------------------------------------------------------------------- reading bytes


_CORRUPT = (EOFError, OSError, zlib.error, lzma.LZMAError, tarfile.TarError)


def _decompress(data: bytes, label: str = "input") -> bytes:
    """gzip, xz or bzip2 data (recognised by their magic bytes) decompressed; other data as is.
    Truncated or corrupt data raises ValueError naming ``label``."""
    for kind, magic, decompress in (("gzip", data[:2] == b"\x1f\x8b", gzip.decompress),
                                    ("xz", data[:6] == b"\xfd7zXZ\x00", lzma.decompress),
                                    ("bzip2", data[:3] == b"BZh" and data[4:10] == b"\x31\x41\x59\x26\x53\x59",
                                     bz2.decompress)):
        if magic:
            try:
                return decompress(data)
            except _CORRUPT as err:
                raise ValueError(f"{label}: corrupt or truncated {kind} data: {err}") from None
    return data


class FileReadError(ValueError):
    """A file that cannot be read: missing, permission denied, a symlink loop, a directory
    where a file is expected, a device or pipe. A ``ValueError`` like every input error;
    ``path`` is the file and ``reason`` the cause in the operating system's words
    (``strerror`` and the errno name, e.g. ``Permission denied (EACCES)``, ``Too many levels
    of symbolic links (ELOOP)``) or the kind of special file.

    >>> try:
    ...     read_qrels("no/such/qrels.txt")
    ... except FileReadError as err:
    ...     print(err.reason)
    No such file or directory (ENOENT)
    """

    def __init__(self, path, reason: str, what: str = "file"):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{path}: cannot read {what}: {reason}")


def _os_reason(err: OSError) -> str:
    """The operating system's own words for an OSError, with the errno name."""
    name = errno.errorcode.get(err.errno or 0)
    text = err.strerror or str(err)
    return f"{text} ({name})" if name else text


_NOT_REGULAR = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def _file_kind(path: Path, what: str) -> str:
    """``"dir"`` or ``"file"`` (a regular file) for an existing path that can be statted
    (symlinks followed); every other case is a :class:`FileReadError` naming the path and
    the cause: the OS's own words, or which kind of special file it is (reading a device
    or pipe could block or never end)."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise FileReadError(path, _os_reason(err), what) from None
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    if stat.S_ISREG(info.st_mode):
        return "file"
    kind = next((name for test, name in _NOT_REGULAR if test(info.st_mode)), "an unknown kind of file")
    raise FileReadError(path, f"not a regular file ({kind})", what)


def _read_bytes(path: Path, what: str = "file") -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise FileReadError(path, _os_reason(err), what) from None
    return _decompress(data, str(path))


_ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2")


def _is_archive(path: Path) -> bool:
    return path.name.lower().endswith(_ARCHIVE_SUFFIXES) and _file_kind(path, "run archive") == "file"


def _walk_files(path: Path) -> list[Path]:
    """Every non-hidden regular file under a directory (symlinks to files followed, to
    folders not); an unreadable folder or entry (a broken link, a loop, a device) is a
    :class:`FileReadError`, never silently skipped."""
    def fail(err: OSError):
        raise FileReadError(err.filename or path, _os_reason(err), "runs folder")

    files = []
    for folder, subfolders, names in os.walk(path, onerror=fail):
        here = Path(folder)
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        for name in names:
            file = here / name
            if _hidden(file.relative_to(path).as_posix()):
                continue
            if _file_kind(file, "run file") == "file":
                files.append(file)
    return sorted(files)


def _hidden(relative: str) -> bool:
    """A hidden file, or a file inside a hidden folder (``.ipynb_checkpoints/``, ``.git/``)."""
    parts = [p for p in relative.split("/") if p not in ("", ".")]
    return any(part.startswith(".") for part in parts)


def _iter_sources(path: Path) -> Iterator[tuple[str, str, bytes]]:
    """Yield (relative name, label for errors, bytes) for every run file under ``path``.

    Archives are read as a stream, member by member in archive order (a compressed tar
    cannot seek backwards cheaply); callers order the results by name."""
    kind = _file_kind(path, "runs")
    if kind == "dir":
        files = _walk_files(path)
        if not files:
            raise ValueError(f"{path}: directory holds no run files")
        for file in files:
            yield file.relative_to(path).as_posix(), str(file), _read_bytes(file, "run file")
    elif _is_archive(path):
        found = False
        try:
            handle = open(path, "rb")
        except OSError as err:
            raise FileReadError(path, _os_reason(err), "run archive") from None
        try:
            with handle, tarfile.open(fileobj=handle, mode="r|*") as archive:
                for member in archive:
                    if not member.isfile() or _hidden(member.name):
                        continue
                    handle = archive.extractfile(member)
                    name = member.name[2:] if member.name.startswith("./") else member.name
                    data = _decompress(handle.read(), f"{path}::{name}") if handle is not None else b""
                    found = True
                    yield name, f"{path}::{name}", data
        except _CORRUPT as err:
            raise ValueError(f"{path}: corrupt or truncated archive: {err}") from None
        if not found:
            raise ValueError(f"{path}: archive holds no run files")
    else:
        yield path.name, str(path), _read_bytes(path, "run file")


# --------------------------------------------------------------------------- text clean-up


# The pure-text rules (line ends, NUL bytes, line length, BOM/UTF-16, echo length) live in
# irnb._text, without pyarrow, so that the `irnb trec_eval` drop-in applies the same ones.


# --------------------------------------------------------------------------- memory pages


_PAGES_LOCK = threading.Lock()
_PAGES_USERS = 0  # calls inside _small_pages (threads, nesting)
_PAGES_SAVED = True  # numpy's setting before the first of them


def _hugepage_setter():
    """numpy's switch for its huge-page advice (``_set_madvise_hugepage``), or None."""
    core = getattr(np, "_core", None) or getattr(np, "core", None)
    return getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)


@contextlib.contextmanager
def _small_pages():
    """Turn numpy's huge-page advice off for the duration (see the module docstring) and
    restore it after the last overlapping call returns (safe across threads and nesting)."""
    global _PAGES_USERS, _PAGES_SAVED
    setter = _hugepage_setter()
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


def _with_small_pages(function):
    """``function`` run inside :func:`_small_pages` (a wrapper defined here, so that doctest
    and Sphinx still find the function's docstring)."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with _small_pages():
            return function(*args, **kwargs)
    return wrapper


# --------------------------------------------------------------------------- duplicates


def _drop_duplicates(
    table: pa.Table, topic_codes: np.ndarray, numbers: np.ndarray | None, label: str,
    on_duplicate: str, what: str, unit: str, docno: _StringBytes | None = None,
) -> tuple[pa.Table, np.ndarray]:
    """Detect a docno repeated within a topic; error, or keep the first in file order."""
    rows, firsts = _repeated_rows(table, topic_codes, docno)
    if rows.size == 0:
        return table, topic_codes
    if on_duplicate == "error":
        row, first = int(rows.min()), int(firsts[np.argmin(rows)])
        topic = table["topic"][row].as_py()
        docno = table["docno"][row].as_py()
        first_at = f"{'row' if unit == 'row' else 'line'} {_position(numbers, first, unit)}"
        raise ValueError(
            f"{_where(label, numbers, row, unit)}: docno {shorten(docno)} repeated for topic {shorten(topic)} "
            f"(first at {first_at}); expected each docno once per topic in a {what}; "
            f"pass on_duplicate='keep_first' (irnb evaluate: --keep-first) to keep the first occurrence"
        )
    keep = np.ones(table.num_rows, dtype=bool)
    keep[rows] = False
    return table.filter(pa.array(keep)), topic_codes[keep]


def check_duplicate_policy(on_duplicate: str) -> None:
    if on_duplicate not in DUPLICATE_POLICIES:
        raise ValueError(f"on_duplicate must be one of {DUPLICATE_POLICIES}, got {on_duplicate!r}")


# --------------------------------------------------------------------------- runs


def _run_from_table(
    table: pa.Table, numbers: np.ndarray | None, name: str, tag: str, label: str, on_duplicate: str,
    unit: str = "line",
) -> Run:
    codes, dictionary = _topic_codes(table["topic"])
    table, codes = _drop_duplicates(table, codes, numbers, label, on_duplicate, "run", unit)
    ordered, starts, topics = sorted_blocks(table, codes, dictionary)
    remember_blocks(ordered, starts, topics)
    return Run(name=name, table=ordered, tag=tag, source=label)


def _run_from_bytes(data: bytes, name: str, label: str, on_duplicate: str) -> Run:
    table, numbers, tag = _parse_run_bytes(data, label)
    if table.num_rows == 0:
        raise ValueError(f"{label}: empty run: expected lines of '{RUN_COLUMNS}', found none")
    run = _run_from_table(table, numbers, name, tag, label, on_duplicate)
    comments, metadata = read_comments(data, label)
    return dataclasses.replace(run, comments=comments, metadata=metadata) if comments else run


def _run_from_frame(frame: pd.DataFrame, name: str, on_duplicate: str) -> Run:
    label = f"DataFrame {name!r}"
    table = run_frame_table(frame, label)
    tag = str(frame["tag"].iloc[0]) if "tag" in frame.columns else name
    return _run_from_table(table, frame.index.to_numpy(), name, tag, label, on_duplicate, unit="row")


# --------------------------------------------------------------------------- public readers


@_with_small_pages
def read_run(source: Source, *, name: str | None = None, on_duplicate: str = "error") -> Run:
    """Read one run from a file (plain or compressed) or a DataFrame.

    A DataFrame needs columns for topic (``topic``/``qid``/``query_id``), docno
    (``docno``/``doc_id``) and ``score``; it is copied, never modified. The run's name is
    ``name``, else the file's name. ``on_duplicate`` is ``"error"`` (default) or
    ``"keep_first"`` (keep the first line of a docno repeated within a topic).

    >>> import pandas as pd
    >>> run = read_run(pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, 1.0]}), name="r")
    >>> run.to_frame()["docno"].tolist()   # tie on score: docno descending, as trec_eval
    ['b', 'a']
    """
    check_duplicate_policy(on_duplicate)
    if isinstance(source, pd.DataFrame):
        return _run_from_frame(source, name or "run", on_duplicate)
    path = Path(source)
    if _file_kind(path, "run file") == "dir" or _is_archive(path):
        raise ValueError(f"{path}: holds several runs; use read_runs() for directories and archives")
    ((file_name, label, data),) = list(_iter_sources(path))
    return _run_from_bytes(data, name or file_name, label, on_duplicate)


def _return_freed_memory() -> None:
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


def _parse_threads() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


class _InOrder:
    """Run files parsed on a few threads (pyarrow and numpy release the GIL) while the next
    files are read. Results and errors are taken in submission order, and at most a few
    files are in flight, so the error raised is the one a file-by-file loop would raise
    first; with one thread, everything runs inline."""

    def __init__(self, threads: int):
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="irnb-read") if threads > 1 else None
        self._window: collections.deque[Future] = collections.deque()
        self._limit = 2 * threads

    def submit(self, fn, *args) -> Future:
        if self._pool is None:
            done: Future = Future()
            done.set_result(fn(*args))  # raises here, as a plain loop would
            return done
        future = self._pool.submit(fn, *args)
        self._window.append(future)
        while len(self._window) > self._limit:
            self._window.popleft().result()  # the oldest first: its error comes first
        return future

    def drain(self) -> None:
        """Wait for every submitted file, raising the first error in submission order."""
        while self._window:
            self._window.popleft().result()

    def __enter__(self) -> "_InOrder":
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


@_with_small_pages
def read_runs(
    sources: Source | Iterable[Source] | Mapping[str, Source], *, on_duplicate: str = "error"
) -> dict[str, Run]:
    """Read runs from files, directories, tar archives or DataFrames; return ``{name: Run}``.

    Names are file names (paths inside a directory or archive when two files there share
    a name); the runs of a directory or archive come in name order. A DataFrame with a
    ``run`` column yields one run per distinct value; a mapping ``{name: source}`` names
    its runs explicitly. Two runs with the same name are an error. ``on_duplicate`` as in
    :func:`read_run`.
    """
    check_duplicate_policy(on_duplicate)
    if isinstance(sources, Mapping):
        items = [(str(k), v) for k, v in sources.items()]
    elif isinstance(sources, (str, os.PathLike, pd.DataFrame)):
        items = [(None, sources)]
    else:
        items = [(None, s) for s in sources]
    # per source, in order: a Run (DataFrames) or (given name, [(relative name, future Run)])
    slots: list = []
    with _InOrder(_parse_threads()) as parsing:
        for given, source in items:
            if isinstance(source, pd.DataFrame):
                parsing.drain()  # errors of the files before it come first
                if given is None and "run" in source.columns:
                    missing = source["run"].isna().to_numpy()
                    if missing.any():
                        label = source.index[int(np.flatnonzero(missing)[0])]
                        raise ValueError(f"DataFrame: row {label!r}: expected a run name in column 'run', "
                                         f"got {source['run'].iloc[int(np.flatnonzero(missing)[0])]!r}")
                    for run_name, part in source.groupby("run", sort=True):
                        slots.append(_run_from_frame(part, str(run_name), on_duplicate))
                else:
                    slots.append(_run_from_frame(source, given or "run", on_duplicate))
                continue
            parsed, files = [], _iter_sources(Path(source))
            while True:
                try:
                    rel, label, data = next(files)
                except StopIteration:
                    break
                except Exception:
                    parsing.drain()  # a file read before this one may hold the first error
                    raise
                parsed.append((rel, parsing.submit(_run_from_bytes, data, rel, label, on_duplicate)))
            slots.append((given, parsed))
        parsing.drain()
    found: list[Run] = []
    for slot in slots:
        if isinstance(slot, Run):
            found.append(slot)
            continue
        given, parsed = slot
        parsed = sorted(((rel, future.result()) for rel, future in parsed), key=lambda item: item[0])
        base_names = [rel.rsplit("/", 1)[-1] for rel, _ in parsed]
        base_count = collections.Counter(base_names)
        for (rel, run), base in zip(parsed, base_names, strict=True):
            if given and len(parsed) == 1:
                run_name = given
            else:
                run_name = base if base_count[base] == 1 else rel
            found.append(dataclasses.replace(run, name=run_name))
    _return_freed_memory()
    runs: dict[str, Run] = {}
    for run in found:
        if run.name in runs:
            raise ValueError(
                f"two runs are named {run.name!r} ({runs[run.name].source} and {run.source}); "
                "expected unique run names: pass a mapping {name: source}"
            )
        runs[run.name] = run
    return runs


def _qrels_from_table(
    table: pa.Table, numbers: np.ndarray | None, label: str, on_duplicate: str, unit: str = "line"
) -> Qrels:
    if table.num_rows == 0:
        raise ValueError(f"{label}: empty qrels: expected lines of '{QRELS_COLUMNS}', found none")
    _check_grades(table["grade"].to_numpy(), numbers, label, unit)
    codes, dictionary = _topic_codes(table["topic"])
    docno = _string_bytes(table["docno"])  # for the duplicate check and the order
    rows = table.num_rows
    table, codes = _drop_duplicates(table, codes, numbers, label, on_duplicate, "qrels", unit, docno)
    table = table.select(["topic", "docno", "grade"])
    if table.num_rows < rows:  # duplicates dropped: other rows
        docno = _string_bytes(table["docno"])
    order = _topic_docno_order(table["docno"], codes, dictionary, docno)
    return Qrels(table=table if order is None else table.take(pa.array(order)), source=label)


@_with_small_pages
def read_qrels(source: Source, *, on_duplicate: str = "error") -> Qrels:
    """Read qrels (``qid iteration docno grade``) from a file (plain or compressed) or a
    DataFrame (columns ``topic``/``qid``/``query_id``, ``docno``/``doc_id``,
    ``grade``/``relevance``/``rel``/``label``). ``on_duplicate`` as in :func:`read_run`.

    >>> import pandas as pd
    >>> q = read_qrels(pd.DataFrame({"query_id": [1, 1], "doc_id": ["a", "b"], "relevance": [2, 0]}))
    >>> q.to_frame().values.tolist()
    [['1', 'a', 2], ['1', 'b', 0]]
    """
    check_duplicate_policy(on_duplicate)
    if isinstance(source, pd.DataFrame):
        label = "qrels DataFrame"
        table = qrels_frame_table(source, label)
        return _qrels_from_table(table, source.index.to_numpy(), label, on_duplicate, unit="row")
    path = Path(source)
    if _file_kind(path, "qrels file") == "dir":
        raise FileReadError(path, "Is a directory (EISDIR); expected a qrels file (qid iteration docno grade)",
                            "qrels file")
    table, numbers = _parse_qrels_bytes(_read_bytes(path, "qrels file"), str(path))
    return _qrels_from_table(table, numbers, str(path), on_duplicate)


# --------------------------------------------------------------------------- writing


def _open_for_writing(path: str | os.PathLike):
    if str(path).lower().endswith(".gz"):
        return gzip.open(path, "wb")
    return open(path, "wb")


def _lines_buffer(columns: list[pa.Array]) -> memoryview:
    """The bytes of ``' '.join(columns) + '\\n'`` for every row, built without a Python
    loop over rows (the joined strings lie back to back in one Arrow buffer)."""
    last = pc.binary_join_element_wise(columns[-1], "\n", "")
    joined = pc.binary_join_element_wise(*columns[:-1], last, " ")
    if isinstance(joined, pa.ChunkedArray):
        joined = joined.combine_chunks()
    offsets = _raw_offsets(joined)  # only the first and the last are needed
    data = joined.buffers()[2]
    return memoryview(data)[int(offsets[0]): int(offsets[-1])] if data is not None else memoryview(b"")


def _check_token(value: str, what: str) -> None:
    if not value or re.search(r"\s", value):
        raise ValueError(f"{what} must be a non-empty token without whitespace, got {value!r}")


def write_run(run: Run, path: str | os.PathLike, *, tag: str | None = None) -> None:
    """Write a run as ``qid Q0 docno rank score tag`` in trec_eval order (rank from 1).

    Scores are written in the shortest form that reads back as the same 64-bit float, so
    ``read_run(path)`` gives back the same table. A path ending in ``.gz`` is gzip-compressed.
    """
    label = tag or run.tag or run.name
    _check_token(label, "tag")
    known = topic_blocks(run.table)
    table, starts = (run.table, known[0]) if known is not None else sorted_blocks(run.table)[:2]
    n = table.num_rows
    rank = np.arange(n) - np.repeat(starts[:-1], np.diff(starts)) + 1
    columns = [
        table["topic"].combine_chunks(),
        pa.array(np.full(n, "Q0", dtype=object), pa.string()),
        table["docno"].combine_chunks(),
        pc.cast(pa.array(rank, pa.int64()), pa.string()),
        pc.cast(table["score"].combine_chunks(), pa.string()),
        pa.array(np.full(n, label, dtype=object), pa.string()),
    ]
    with _open_for_writing(path) as out:
        out.write(_lines_buffer(columns))


def write_qrels(qrels: Qrels | pd.DataFrame, path: str | os.PathLike) -> None:
    """Write qrels as ``qid 0 docno grade`` (topic then docno order). A DataFrame is read
    with :func:`read_qrels` first (and so checked). A path ending in ``.gz`` is gzip-compressed."""
    table = (qrels if isinstance(qrels, Qrels) else read_qrels(qrels)).table
    n = table.num_rows
    columns = [
        table["topic"].combine_chunks(),
        pa.array(np.full(n, "0", dtype=object), pa.string()),
        table["docno"].combine_chunks(),
        pc.cast(table["grade"].combine_chunks(), pa.string()),
    ]
    with _open_for_writing(path) as out:
        out.write(_lines_buffer(columns))


# the public spellings irnb.experiment once read here (their owner is irnb.ordering)
StringBytes, string_bytes, string_hash, strings_equal = _StringBytes, _string_bytes, _string_hash, _strings_equal
encode_topics, with_small_pages = _topic_codes, _with_small_pages
# the spellings tests read (test_io.py, test_build_paths.py): the private names of this module before the split
_clean = clean_text
