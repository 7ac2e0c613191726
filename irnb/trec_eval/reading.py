"""The drop-in's two files as trec_eval holds them: qrels as topic → {docno: grade}, a run
as topic → {docno: score} and its run id. Bytes come from :mod:`irnb.sources` (gzip, xz
or bzip2 recognised by their magic bytes), text through :func:`irnb._text.clean_text`,
every line through :mod:`irnb.lines` — the rules :mod:`irnb.io` reads by — in plain Python,
so that a call loads no pyarrow.
"""

from __future__ import annotations

import sys

from .._text import clean_text
from ..lines import check_utf8, data_lines, empty_file_message, qrels_fields, repeated_docno_message, run_fields

__all__ = ["RepeatedDocno", "read_bytes", "read_qrels", "read_run"]


class RepeatedDocno(ValueError):
    """A docno given twice for a topic: trec_eval stops with exit status 4 ("duplicate docs")."""


def read_bytes(path: str) -> bytes:
    """The bytes of a file (``-``: standard input), read and decompressed by
    :mod:`irnb.sources`. A path that cannot be read — missing, permission denied, a
    directory, a device or pipe (never read: it could block) — is an error naming the path
    and the cause in the operating system's words."""
    if path == "-":
        return sys.stdin.buffer.read()
    from ..sources import file_kind, read_bytes as source_bytes

    if file_kind(path, "file") == "dir":
        raise ValueError(f"{path}: cannot read file: a directory")
    return source_bytes(path)


def _repeated(text: bytes, label: str, number: int, topic: bytes, docno: bytes, what: str) -> RepeatedDocno:
    first = next(n for n, parts in data_lines(text) if parts[0] == topic and parts[2] == docno)
    return RepeatedDocno(repeated_docno_message(f"{label}:{number}", docno.decode(errors="replace"),
                                                topic.decode(errors="replace"), f"line {first}", what))


def _utf8_ids(topic: bytes, docno: bytes, label: str, number: int) -> None:
    check_utf8(topic, label, number, "qid (column 1)")
    check_utf8(docno, label, number, "docno (column 3)")


def _read(data: bytes, label: str, what: str, fields) -> tuple[dict, list[bytes] | None]:
    """topic → {docno: value} in file order from ``fields(parts, label, number)`` (the line
    rules of a run or a qrels line), and the last data line's fields; errors name ``label:line``."""
    table: dict[bytes, dict] = {}
    parts = None
    check_utf8_ids = not data.isascii()
    text = clean_text(data, label)
    for number, parts in data_lines(text):
        topic, docno, value = fields(parts, label, number)
        docs = table.get(topic)
        if docs is None:
            docs = table[topic] = {}
        elif docno in docs:
            raise _repeated(text, label, number, topic, docno, what)
        if check_utf8_ids:
            _utf8_ids(topic, docno, label, number)
        docs[docno] = value
    if not table:
        raise ValueError(empty_file_message(label, what))
    return table, parts


def read_qrels(data: bytes, label: str) -> dict[bytes, dict[bytes, int]]:
    """topic → {docno: grade}; errors name ``label:line``.

    >>> read_qrels(b"1 0 d1 2\\n# a comment\\n1 0 d2 -1\\n", "q.txt")
    {b'1': {b'd1': 2, b'd2': -1}}
    """
    return _read(data, label, "qrels", qrels_fields)[0]


def read_run(data: bytes, label: str) -> tuple[dict[bytes, dict[bytes, float]], bytes]:
    """topic → {docno: score} in file order, and the run id (trec_eval's: the last line's
    6th column).

    >>> read_run(b"1 Q0 d1 1 2.5 tag\\n1 Q0 d2 2 2.5 tag\\n", "r.txt")
    ({b'1': {b'd1': 2.5, b'd2': 2.5}}, b'tag')
    """
    run, last = _read(data, label, "run", run_fields)
    return run, last[5]
