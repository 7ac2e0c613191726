"""Read TREC runs and qrels: the reading entry point, from sources to checked Run and Qrels.

The modules behind it, each with one job: :mod:`irnb.sources` opens the sources (files,
compressed or not, folders, archives) into bytes, :mod:`irnb.parsing` parses the text of
one file into tables, and :mod:`irnb.trecdata` checks the tables (repeated docnos, grades)
into :class:`Run` and :class:`Qrels` (trec_eval's order from :mod:`irnb.ordering`).
Writing them back is :mod:`irnb.writing`'s job; both stand on :mod:`irnb.trecdata`,
neither imports the other, and both are importable from :mod:`irnb`.

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
single tabs) and no comments, blank lines, empty fields, control bytes or trailing columns,
and an exact line-by-line one for everything else and for every error. A file is always tried on the fast path
first; any surprise sends it to the line-by-line path, which reports the line.
``read_runs`` parses files on up to four threads while it reads the next ones, and small
files a batch at a time (one fast-path parse and one ordering for the batch; any file that
needs more sends the batch file by file); the runs and the error raised are those of reading
the files one after the other. A read of a single file is parsed on the calling thread. A very
large qrels file (tens of MiB: :mod:`irnb.parsing` sets the size) is parsed on pyarrow's own
threads. Plain files of 1 MiB or more are mapped rather than copied into memory
(:func:`irnb.sources.read_text`).

Memory (*irnb*): small inputs and single files are read in the C allocator's memory, larger
ones in Arrow's pool (:mod:`irnb.arrow_pool`); the memory Arrow's pool holds after a parse is
handed back to the system when the read returns (:func:`pyarrow.MemoryPool.release_unused`);
values are unchanged.
"""

from __future__ import annotations

import collections
import dataclasses
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa

from .arrow_pool import allocating_from, return_freed_memory
from .lines import empty_file_message
from .parsing import parse_joined_runs, parse_qrels_bytes, parse_run_bytes
from .runmeta import read_comments
from .sources import FileReadError, file_kind, is_archive, read_text, run_files
from .trecdata import Qrels, Run, check_duplicate_policy, qrels_from_frame, qrels_from_table
from .trecdata import run_from_frame, run_from_table, runs_from_joined_table
from .params import ON_DUPLICATE

__all__ = ["read_run", "read_runs", "read_qrels"]

Source = str | os.PathLike | pd.DataFrame


def _run_from_bytes(text: list[bytes], name: str, label: str, on_duplicate: str) -> Run:
    """The run in a file's bytes, handed over as a one-item list that this empties: when the
    fast path parsed the file (no comment lines to keep), its text is freed before the run
    is checked and sorted — the text is a third of what a large file's parse holds."""
    data = text.pop()
    table, numbers, tag = parse_run_bytes(data, label)
    if numbers is None:  # pyarrow's path: every line is a data line, no comments to read
        data = None
    if table.num_rows == 0:
        raise ValueError(empty_file_message(label, "run"))
    run = run_from_table(table, numbers, name, tag, label, on_duplicate)
    if data is None:
        return run
    comments, metadata = read_comments(bytes(data), label)  # a mapped file read as bytes (bytes stay as they are)
    return dataclasses.replace(run, comments=comments, metadata=metadata) if comments else run


def _runs_from_batch(texts: list[bytes], names: list[str], labels: list[str], on_duplicate: str) -> list[Run]:
    """The runs of several small files (their bytes handed over in a list that this
    empties), parsed and ordered together (:func:`irnb.parsing.parse_joined_runs`); when
    that does not apply (comments, a repeated docno, an error), each file as
    :func:`_run_from_bytes` reads it, in order, so the first error is the first file's."""
    datas = texts[:]
    texts.clear()
    joined = parse_joined_runs(datas, labels)
    if joined is not None:
        table, sizes, tags = joined
        runs = runs_from_joined_table(table, sizes, names, tags, labels)
        if runs is not None:
            return runs
    return [_run_from_bytes([data], name, label, on_duplicate)
            for data, name, label in zip(datas, names, labels, strict=True)]


# --------------------------------------------------------------------------- public readers


def read_run(source: Source, *, name: str | None = None, on_duplicate: str = ON_DUPLICATE.default) -> Run:
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
        return run_from_frame(source, name or "run", on_duplicate)
    path = Path(source)
    if file_kind(path, "run file") == "dir" or is_archive(path):
        raise ValueError(f"{path}: holds several runs; use read_runs() for directories and archives")
    text = [read_text(path, "run file")]
    with allocating_from(_lone_pool(len(text[0]))):
        run = _run_from_bytes(text, name or path.name, str(path), on_duplicate)
    return_freed_memory()
    return run


# File text parsed at once on the reading threads, beyond a single file (see _InOrder).
_BYTES_IN_FLIGHT = 256 << 20
# The first files are parsed on the calling thread, into the C allocator's memory, until their
# text passes this size: a thread pool's start (threads, and a memory arena per thread) costs
# more CPU than it saves on small inputs, which parse in a few milliseconds, and so does the
# large arena Arrow's pool (mimalloc) commits on its first use. Later files use Arrow's pool,
# which holds many parsed runs in less memory.
_INLINE_BYTES = 4 << 20
# A read of one file (read_run, read_qrels, read_runs given one file) has nothing to parse beside
# it, so no thread buys any time: up to this size, the file is parsed on the calling thread into
# the C allocator's memory too. Larger lone files keep Arrow's pool, which holds them in less memory.
_LONE_FILE_BYTES = 64 << 20


def _lone_pool(text_bytes: int) -> pa.MemoryPool | None:
    """The pool that reading one file's text of this size allocates from (see
    :mod:`irnb.arrow_pool`): the C allocator's up to :data:`_LONE_FILE_BYTES`, else Arrow's
    default (None)."""
    return pa.system_memory_pool() if text_bytes <= _LONE_FILE_BYTES else None


def _one_file(items: list[tuple[str | None, Source]]) -> bool:
    """Whether a read's sources are a single regular file (not a directory or an archive;
    a path that cannot be read is not one, and its error comes from reading it)."""
    if len(items) != 1 or not isinstance(items[0][1], (str, os.PathLike)):
        return False
    path = Path(items[0][1])
    return path.is_file() and not is_archive(path)


# Files smaller than this are parsed together, a batch of them at a time, until the batch's
# text passes _BATCH_BYTES: the reader's setup and the ordering's steps cost a fixed time per
# call, which a file of a few thousand lines spends more on than on its lines.
_SMALL_FILE_BYTES = 1 << 20
_BATCH_BYTES = 4 << 20


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
    first; with one thread, everything runs inline, and so do the first files until their
    text passes ``inline_bytes`` (the pool starts with the first file it parses); those
    first files are read (parsed and ordered) in the C allocator's memory (see
    :mod:`irnb.arrow_pool`).

    In flight means at most two files per thread and, beyond one file, at most
    :data:`_BYTES_IN_FLIGHT` bytes of file text: a parse holds several times its file's
    size in temporaries, so large files (millions of lines each) are read and parsed one
    at a time, and peak memory stays near what the parsed runs keep."""

    def __init__(self, threads: int, inline_bytes: int):
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None  # started by the first file parsed on a thread
        self._inline_left = inline_bytes  # text still to parse inline, into the C allocator's memory
        self._window: collections.deque[tuple[Future, int]] = collections.deque()
        self._limit = 2 * threads
        self._bytes = 0

    def submit(self, fn, text: list[bytes], *args) -> Future:
        """``fn(text, *args)`` on a thread; ``text`` holds the files' bytes (see :func:`_run_from_bytes`)."""
        size = sum(len(data) for data in text)
        small = self._pool is None and size <= self._inline_left
        if small or self._threads == 1:
            if small:
                self._inline_left -= size
            done: Future = Future()
            with allocating_from(pa.system_memory_pool() if small else None):
                done.set_result(fn(text, *args))  # raises here, as a plain loop would
            return done
        if self._pool is None:  # no file is in flight yet: every earlier one was parsed inline
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="irnb-read")
        while self._window and (len(self._window) >= self._limit or self._bytes + size > _BYTES_IN_FLIGHT):
            self._wait_oldest()  # the oldest first: its error comes first
        future = self._pool.submit(fn, text, *args)
        self._window.append((future, size))
        self._bytes += size
        return future

    def make_room(self) -> None:
        """Before the next file is read: wait while the files in flight hold the budget
        already (a large file is parsed before the next one is read into memory)."""
        while self._window and self._bytes >= _BYTES_IN_FLIGHT:
            self._wait_oldest()

    def _wait_oldest(self) -> None:
        future, size = self._window.popleft()
        self._bytes -= size
        future.result()

    def drain(self) -> None:
        """Wait for every submitted file, raising the first error in submission order."""
        while self._window:
            self._wait_oldest()

    def __enter__(self) -> _InOrder:
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def read_runs(
    sources: Source | Iterable[Source] | Mapping[str, Source], *, on_duplicate: str = ON_DUPLICATE.default
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
    # per source, in order: a Run (DataFrames) or (given name, [(relative name, future, place)]): the
    # future gives a Run (place None) or a batch's runs (the run at place)
    slots: list = []
    lone = _one_file(items)
    with _InOrder(1 if lone else _parse_threads(), _LONE_FILE_BYTES if lone else _INLINE_BYTES) as parsing:
        batch: list[tuple[str, str, bytes, list]] = []  # small files not yet submitted, and their entries

        def flush() -> None:
            if len(batch) == 1:
                rel, label, data, entry = batch[0]
                entry.append((rel, parsing.submit(_run_from_bytes, [data], rel, label, on_duplicate), None))
            elif batch:
                future = parsing.submit(_runs_from_batch, [data for _, _, data, _ in batch],
                                        [rel for rel, _, _, _ in batch], [label for _, label, _, _ in batch],
                                        on_duplicate)
                for place, (rel, _, _, entry) in enumerate(batch):
                    entry.append((rel, future, place))
            batch.clear()

        for given, source in items:
            if isinstance(source, pd.DataFrame):
                flush()
                parsing.drain()  # errors of the files before it come first
                if given is None and "run" in source.columns:
                    missing = source["run"].isna().to_numpy()
                    if missing.any():
                        label = source.index[int(np.flatnonzero(missing)[0])]
                        raise ValueError(f"DataFrame: row {label!r}: expected a run name in column 'run', "
                                         f"got {source['run'].iloc[int(np.flatnonzero(missing)[0])]!r}")
                    for run_name, part in source.groupby("run", sort=True):
                        slots.append(run_from_frame(part, str(run_name), on_duplicate))
                else:
                    slots.append(run_from_frame(source, given or "run", on_duplicate))
                continue
            parsed, files = [], run_files(Path(source))
            while True:
                parsing.make_room()
                try:
                    rel, label, data = next(files)
                except StopIteration:
                    break
                except Exception:
                    flush()
                    parsing.drain()  # a file read before this one may hold the first error
                    raise
                if len(data) < _SMALL_FILE_BYTES:
                    batch.append((rel, label, data, parsed))
                    if sum(len(item[2]) for item in batch) >= _BATCH_BYTES:
                        flush()
                else:
                    flush()
                    parsed.append((rel, parsing.submit(_run_from_bytes, [data], rel, label, on_duplicate), None))
                del data  # the parse holds the file's text, and frees it as soon as it can
            slots.append((given, parsed))
        flush()
        parsing.drain()
    found: list[Run] = []
    for slot in slots:
        if isinstance(slot, Run):
            found.append(slot)
            continue
        given, parsed = slot
        parsed = sorted(((rel, future.result() if place is None else future.result()[place])
                         for rel, future, place in parsed), key=lambda item: item[0])
        base_names = [rel.rsplit("/", 1)[-1] for rel, _ in parsed]
        base_count = collections.Counter(base_names)
        for (rel, run), base in zip(parsed, base_names, strict=True):
            if given and len(parsed) == 1:
                run_name = given
            else:
                run_name = base if base_count[base] == 1 else rel
            found.append(dataclasses.replace(run, name=run_name))
    return_freed_memory()
    runs: dict[str, Run] = {}
    for run in found:
        if run.name in runs:
            raise ValueError(
                f"two runs are named {run.name!r} ({runs[run.name].source} and {run.source}); "
                "expected unique run names: pass a mapping {name: source}"
            )
        runs[run.name] = run
    return runs


def read_qrels(source: Source, *, on_duplicate: str = ON_DUPLICATE.default) -> Qrels:
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
        return qrels_from_frame(source, on_duplicate)
    path = Path(source)
    if file_kind(path, "qrels file") == "dir":
        raise FileReadError(path, "Is a directory (EISDIR); expected a qrels file (qid iteration docno grade)",
                            "qrels file")
    data = read_text(path, "qrels file")
    with allocating_from(_lone_pool(len(data))):
        table, numbers = parse_qrels_bytes(data, str(path))
        del data
        tables = [table]
        del table  # so that qrels_from_table can free each column once its reordered copy is made
        qrels = qrels_from_table(tables, numbers, str(path), on_duplicate)
    return_freed_memory()
    return qrels
