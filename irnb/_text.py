"""The text rules every irnb reader applies to TREC files (no pyarrow), the column names the
messages quote and where a message points (``file:line``, a DataFrame's row):
:mod:`irnb.io` and the lean reader of ``irnb trec_eval`` (:mod:`irnb.trec_eval`) share them.

See :mod:`irnb.io` for the whole list of input rules.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_LINE_BYTES", "SHOWN_CHARS", "RUN_COLUMNS", "QRELS_COLUMNS", "clean_text", "shorten", "show_token",
           "position", "where"]

_BOM = b"\xef\xbb\xbf"
MAX_LINE_BYTES = 10_000  # trec_eval's own line limit (MAXLINE) when it reads standard input
SHOWN_CHARS = 60  # input echoed in an error message is cut to this many characters
RUN_COLUMNS = "qid Q0 docno rank score tag"
QRELS_COLUMNS = "qid iteration docno grade"


def _line_of(data: bytes, position: int) -> int:
    """1-based number of the line holding byte ``position`` (``data``: bytes, or any text
    with the buffer protocol, such as a mapped file)."""
    return int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8, count=position) == ord("\n"))) + 1


def _check_line_lengths(data: bytes, label: str) -> None:
    """Every line (without its line end) is at most MAX_LINE_BYTES long, checked in jumps
    of about MAX_LINE_BYTES (one ``rfind`` per jump, not a loop over lines): when the
    window after a line start holds no newline, that line is too long."""
    start, n = 0, len(data)
    while n - start > MAX_LINE_BYTES:
        last = data.rfind(b"\n", start, start + MAX_LINE_BYTES + 1)
        if last < 0:
            end = data.find(b"\n", start)
            length = (n if end < 0 else end) - start
            raise ValueError(
                f"{label}:{_line_of(data, start)}: line of {length:,} bytes, expected at most "
                f"{MAX_LINE_BYTES:,} (is this a TREC file? it starts {show_token(data[start:start + SHOWN_CHARS])})"
            )
        start = last + 1


def clean_text(data: bytes, label: str) -> bytes:
    """Check that the bytes are line-oriented text, drop a UTF-8 BOM and turn CRLF line
    ends into LF (line numbers are unchanged). ``data`` may be a mapped file
    (:func:`irnb.sources.read_text`): it is returned as it is when nothing needs changing,
    as bytes otherwise.

    Refused, naming the line: UTF-16 (a byte-order mark), a NUL byte (binary data;
    trec_eval would cut the string there), a carriage return not followed by a line feed
    (old Mac line ends would make the whole file one line), a line longer than
    MAX_LINE_BYTES."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError(f"{label}:1: expected UTF-8 text, got a UTF-16 byte-order mark; save the file as UTF-8")
    if data[:len(_BOM)] == _BOM:
        data = data[len(_BOM):]
    nul = data.find(b"\0")
    if nul >= 0:
        raise ValueError(f"{label}:{_line_of(data, nul)}: expected text, got a NUL byte (\\x00); "
                         "is this a binary or UTF-16 file?")
    if data.find(b"\r") >= 0:
        crlf = bytes(data).replace(b"\r\n", b"\n")
        lone = crlf.find(b"\r")
        if lone >= 0:
            raise ValueError(
                f"{label}:{_line_of(crlf, lone)}: expected line ends \\n or \\r\\n, got a carriage return "
                f"(\\r) not followed by \\n (old Mac line ends?); convert the file to \\n line ends"
            )
        data = crlf
    _check_line_lengths(data, label)
    return data


def shorten(value, limit: int = SHOWN_CHARS) -> str:
    """repr of a value from the input, a long string cut to ``limit`` characters saying
    how long it was.

    >>> print(shorten("abcdef", 3))
    'abc'… (6 characters)
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}… ({len(text):,} characters)"


def show_token(token: bytes) -> str:
    return shorten(token.decode("utf-8", errors="replace"))


def position(numbers: np.ndarray | None, row: int, unit: str) -> str:
    """Line number (``numbers[row]``, or row + 1 when every row is a line) or, for
    DataFrames, the row's index label (``numbers`` holds the labels)."""
    if numbers is None:
        return str(row + 1) if unit == "line" else str(row)
    value = numbers[row]
    value = value.item() if isinstance(value, np.generic) else value
    return str(value) if unit == "line" else repr(value)


def where(label: str, numbers: np.ndarray | None, row: int, unit: str) -> str:
    """``file:line`` for files, ``DataFrame 'x': row LABEL`` (the index label) for frames."""
    if unit == "row":
        return f"{label}: row {position(numbers, row, unit)}"
    return f"{label}:{position(numbers, row, unit)}"
