"""TREC run and qrels text parsed into Arrow tables, with errors that name file and line.

The rules are :mod:`irnb.lines`' (:mod:`irnb.io`'s docstring lists them for users); this
module applies them to the bytes of one file, already read and decompressed. Two paths give identical tables: a fast
one (pyarrow's CSV reader, :func:`fast_table`) for files with one kind of separator and no
comments, blank lines, empty fields, control bytes or trailing columns, and an exact line-by-line one
(:func:`parse_run_exact`, :func:`parse_qrels_exact`) for everything else and for every
error. :func:`parse_run_bytes` and :func:`parse_qrels_bytes` try the fast path first.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ._text import clean_text
from .arrow_pool import arrow_pool
from .lines import check_utf8, data_lines, qrels_fields, run_fields
from .ordering import as_arrow, raw_offsets
from .params import PARSE_THREADS

__all__ = ["RUN_FAST", "QRELS_FAST", "fast_table", "parse_run_exact", "parse_qrels_exact", "parse_run_bytes",
           "parse_qrels_bytes", "parse_joined_runs"]


# Bytes of the text scanned at a time by _low_bytes and _line_count: their temporaries (a byte
# or two per byte) stay small enough to reuse the same memory from one piece to the next.
_SCAN_BYTES = 1 << 18
_LOW = ord("!")  # bytes below this are whitespace or control bytes


def _low_bytes(data: bytes, delimiter: bytes) -> int | None:
    """How many bytes below ``!`` the text holds (separators, line ends and any other
    whitespace or control byte), or None when some field of some line would be empty, split
    by ``delimiter`` alone, or some line starts with ``#``: two such bytes next to each
    other (a doubled, leading or trailing separator, a blank line), one at the text's start,
    a separator at its end, or a ``#`` after a line end. A check of the raw bytes, a piece
    at a time: the columns whose content is ignored need not be converted to be seen empty.

    The count tells the rest: a text whose every line has exactly ``k`` fields (pyarrow's
    reader checks that) holds ``k - 1`` separators and a line end per line, so any other
    byte below ``!`` (whitespace that would split differently in the exact parser, a
    control byte) makes the count larger than that (see :func:`fast_table`)."""
    if not data or data[:1] in (delimiter, b"\n", b"#") or data[-len(delimiter):] == delimiter:
        return None
    text = np.frombuffer(data, dtype=np.uint8)
    hashes = data.find(b"#") >= 0  # one fast byte search; most texts hold none, and skip the pairs' check
    count = 0
    for lo in range(0, text.size, _SCAN_BYTES):
        piece = text[lo:lo + _SCAN_BYTES + 1]  # one byte shared with the next piece: pairs across the cut
        low = piece < _LOW
        if np.logical_and(low[1:], low[:-1]).any():
            return None
        count += int(np.count_nonzero(low[:_SCAN_BYTES]))  # the shared byte counted in its own piece
        if hashes and np.logical_and(piece[:-1] == ord("\n"), piece[1:] == ord("#")).any():
            return None
    return count


def _is_ascii(data: bytes) -> bool:
    """Whether every byte is below 0x80: ``bytes.isascii``, or one reduction over a mapped
    file's bytes (no temporary as long as the text)."""
    if isinstance(data, bytes):
        return data.isascii()
    return not len(data) or int(np.frombuffer(data, dtype=np.uint8).max()) < 0x80


def _first_line_field(data: bytes, index: int) -> bytes:
    """Field ``index`` of the text's first line (a fast-path text: fields non-empty)."""
    end = data.find(b"\n")
    return data[:len(data) if end < 0 else end].split()[index]


def _only_decimal_integers(column: pa.ChunkedArray) -> bool:
    """Whether every (non-empty) value is digits with an optional leading minus — what the
    exact parser and pyarrow's cast read alike ('+1' and friends go to the exact parser);
    a check of the bytes themselves, without a regular expression."""
    for chunk in column.chunks:
        if not len(chunk):
            continue
        offsets = raw_offsets(chunk)
        values = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
        minus = values == ord("-")
        bad = ((values < ord("0")) | (values > ord("9"))) & ~minus
        first = np.zeros(values.size, dtype=bool)
        first[offsets[:-1] - offsets[0]] = True
        if bad.any() or (minus & ~first).any():
            return False
    return True


def _single_digits(column: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """The column as int64 when every value is one digit (grades usually are):
    the digit's byte minus ``'0'``, without the string-to-integer cast; None otherwise."""
    chunks = []
    for chunk in column.chunks:
        if not len(chunk):
            continue
        if not (np.diff(raw_offsets(chunk)) == 1).all():  # some value is not one byte long
            return None
        offsets = raw_offsets(chunk)
        digits = np.frombuffer(chunk.buffers()[2], dtype=np.uint8, count=len(chunk), offset=int(offsets[0]))
        if int(digits.min()) < ord("0") or int(digits.max()) > ord("9"):
            return None
        values = digits.astype(np.int64)
        values -= ord("0")  # in place: a deep file's grades are 8 bytes a line, one array of them is enough
        chunks.append(as_arrow(values))
    return pa.chunked_array(chunks, pa.int64())


_FAST_TYPES = {"string": pa.string(), "binary": pa.binary(), "float": pa.float64(), "int": pa.string()}


def fast_table(data: bytes, columns: dict[str, str], *, threads: bool = False) -> pa.Table | None:
    """pyarrow's CSV reader, for files whose every line is exactly ``len(columns)`` fields
    separated by single spaces (or single tabs), without comments or blank lines. Returns
    None whenever the file needs the exact line-by-line parser (which also reports errors).

    ``columns`` maps name → kind: ``string`` (UTF-8 checked), ``binary`` (ignored content,
    must be non-empty; not converted, so not in the table), ``float`` (finite float64),
    ``int`` (decimal integer, int64). ``data`` is bytes or a mapped file
    (:func:`irnb.sources.read_text`), read in place. The table's buffers come from
    :func:`irnb.arrow_pool.arrow_pool`; with ``threads``, pyarrow parses blocks of the text on
    its own threads.
    """
    threads = PARSE_THREADS.validate(threads, "fast_table")
    if not data:
        return None
    end = data.find(b"\n")
    delimiter = b"\t" if b"\t" in data[:len(data) if end < 0 else end] else b" "
    # Empty fields (doubled, leading or trailing separators, blank lines), other whitespace
    # and comment lines need the exact parser; so does a line of the wrong field count,
    # which pyarrow rejects.
    low = _low_bytes(data, delimiter)
    if low is None:
        return None
    try:
        table = pacsv.read_csv(
            pa.BufferReader(pa.py_buffer(data)),  # read in place (a Python file object would be copied from)
            read_options=pacsv.ReadOptions(column_names=list(columns), use_threads=threads),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter.decode(), quote_char=False, double_quote=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=False,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={name: _FAST_TYPES[kind] for name, kind in columns.items()},
                include_columns=[name for name, kind in columns.items() if kind != "binary"],
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                check_utf8=not _is_ascii(data),  # ASCII is UTF-8: no need to check every field
            ),
            memory_pool=arrow_pool(),
        )
    except pa.ArrowException:
        return None
    # every line holds len(columns) - 1 separators and a line end (the last one may lack it):
    # any more bytes below '!' are other whitespace or control bytes, for the exact parser
    if low != table.num_rows * len(columns) - (data[-1:] != b"\n"):
        return None
    for name, kind in columns.items():
        if kind not in ("float", "int"):
            continue
        column = table[name]
        if kind == "float":
            pool = arrow_pool()
            if column.null_count or pc.any(pc.invert(pc.is_finite(column, memory_pool=pool), memory_pool=pool),
                                           memory_pool=pool).as_py():
                return None
        elif kind == "int":
            column = _single_digits(column)
            if column is None:
                if not _only_decimal_integers(table[name]):
                    return None  # '+1' and friends: the exact parser accepts them
                try:
                    column = pc.cast(table[name], pa.int64(), memory_pool=arrow_pool())
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    return None
            table = table.set_column(table.schema.get_field_index(name), name, column)
    return table


def _utf8_array(tokens: list[bytes], numbers: list[int], label: str, what: str) -> pa.Array:
    try:
        return pa.array(tokens, pa.binary()).cast(pa.string())
    except pa.ArrowInvalid:
        for token, number in zip(tokens, numbers, strict=True):
            check_utf8(token, label, number, what)
        raise


def parse_run_exact(data: bytes, label: str) -> tuple[pa.Table, np.ndarray, str]:
    topics: list[bytes] = []
    docnos: list[bytes] = []
    scores: list[float] = []
    numbers: list[int] = []
    tag = b""
    for number, parts in data_lines(data):
        topic, docno, score = run_fields(parts, label, number)
        scores.append(score)
        topics.append(topic)
        docnos.append(docno)
        numbers.append(number)
        if not tag:
            tag = parts[5]
    table = pa.table(
        {
            "topic": _utf8_array(topics, numbers, label, "qid (column 1)"),
            "docno": _utf8_array(docnos, numbers, label, "docno (column 3)"),
            "score": pa.array(scores, pa.float64()),
        }
    )
    return table, np.asarray(numbers, dtype=np.int64), tag.decode("utf-8", errors="replace")


def parse_qrels_exact(data: bytes, label: str) -> tuple[pa.Table, np.ndarray]:
    topics: list[bytes] = []
    docnos: list[bytes] = []
    grades: list[int] = []
    numbers: list[int] = []
    for number, parts in data_lines(data):
        topic, docno, grade = qrels_fields(parts, label, number)
        topics.append(topic)
        docnos.append(docno)
        grades.append(grade)
        numbers.append(number)
    table = pa.table(
        {
            "topic": _utf8_array(topics, numbers, label, "qid (column 1)"),
            "docno": _utf8_array(docnos, numbers, label, "docno (column 3)"),
            "grade": pa.array(grades, pa.int64()),
        }
    )
    return table, np.asarray(numbers, dtype=np.int64)


RUN_FAST = {"topic": "string", "q0": "binary", "docno": "string", "rank": "binary", "score": "float", "tag": "binary"}
_TAG_FIELD = list(RUN_FAST).index("tag")  # the run's tag: this field of its first line


QRELS_FAST = {"topic": "string", "iteration": "binary", "docno": "string", "grade": "int"}


def parse_run_bytes(data: bytes, label: str) -> tuple[pa.Table, np.ndarray | None, str]:
    """(topic, docno, score) table in file order, line numbers (None: row i is line i+1), tag."""
    data = clean_text(data, label)
    table = fast_table(data, RUN_FAST)
    if table is not None:
        tag = _first_line_field(data, _TAG_FIELD).decode("utf-8", errors="replace")
        return table.select(["topic", "docno", "score"]), None, tag
    return parse_run_exact(bytes(data), label)  # a mapped file's text as bytes: the exact parser splits it


def _line_count(data: bytes) -> int:
    """Lines in a text: its line ends, and one more when it does not end with one (a
    vectorised count a piece at a time, as :func:`_low_bytes` scans; ``bytes.count``
    compares one byte at a time)."""
    text = np.frombuffer(data, dtype=np.uint8)
    ends = sum(int(np.count_nonzero(text[lo:lo + _SCAN_BYTES] == ord("\n"))) for lo in range(0, text.size, _SCAN_BYTES))
    return ends + (data[-1:] != b"\n")


def parse_joined_runs(texts: list[bytes], labels: list[str]) -> tuple[pa.Table, np.ndarray, list[str]] | None:
    """Several run files' bytes parsed as one text on the fast path (one reader call, not
    one per file: a small file costs the reader's setup more than its lines): the (topic,
    docno, score) table of their lines end to end, each file's number of lines (row i of a
    file's rows is its line i+1) and each file's tag. None when some file needs more than
    the fast path (a file of its own, an empty file, an error anywhere): each file is then
    parsed alone, which reports the first error in file order."""
    try:
        cleaned = [clean_text(data, label) for data, label in zip(texts, labels, strict=True)]
    except ValueError:
        return None
    if not cleaned or any(not data for data in cleaned):
        return None
    sizes = np.array([_line_count(data) for data in cleaned], dtype=np.int64)
    pieces = [piece for data in cleaned for piece in ((data,) if data[-1:] == b"\n" else (data, b"\n"))]
    table = fast_table(b"".join(pieces), RUN_FAST)
    if table is None or table.num_rows != int(sizes.sum()):
        return None
    tags = [_first_line_field(data, _TAG_FIELD).decode("utf-8", errors="replace") for data in cleaned]
    return table.select(["topic", "docno", "score"]), sizes, tags


# Qrels texts at least this large are parsed by pyarrow's threads: a qrels file is read alone
# (nothing else to parse beside it), and only very deep judgments reach this size.
_THREADED_QRELS_BYTES = 64 << 20


def parse_qrels_bytes(data: bytes, label: str) -> tuple[pa.Table, np.ndarray | None]:
    data = clean_text(data, label)
    table = fast_table(data, QRELS_FAST, threads=len(data) >= _THREADED_QRELS_BYTES)
    if table is not None:
        return table.select(["topic", "docno", "grade"]), None
    return parse_qrels_exact(bytes(data), label)
