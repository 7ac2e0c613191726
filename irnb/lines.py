"""The rules of a TREC run or qrels line, without pyarrow.

Every reader applies these rules: :mod:`irnb.parsing` (whose fast pyarrow path hands any
line it cannot take as it is to the rules here) and the ``irnb trec_eval`` drop-in, which
must start without pyarrow. Before a line is split, :func:`irnb._text.clean_text` has
dropped a UTF-8 BOM, turned CRLF into LF and refused NUL bytes, lone carriage returns and
over-long lines.

* A line is split at ASCII whitespace (C's ``isspace``); a blank line, or one whose first
  field starts with ``#``, is skipped (:func:`data_lines`).
* A run line has at least 6 fields (``qid Q0 docno rank score tag``; more are ignored), a
  qrels line exactly 4 (``qid iteration docno grade``).
* A score is a finite number as C's ``atof`` reads it in full (no ``_``: Python's
  ``float("1_0")`` is 10) (:func:`parse_score`); a grade an integer, decimal digits with an
  optional sign, in :data:`irnb._grades.MIN_GRADE`..:data:`irnb._grades.MAX_GRADE`
  (:func:`parse_grade`).
* qid and docno are UTF-8 text (:func:`check_utf8`).
* A docno appears once per topic (:func:`repeated_docno_message` words the error), and a
  file holds at least one data line (:func:`empty_file_message`).
* A grade read from a file or a DataFrame lies in the range an int8 array holds besides the
  sentinels (:func:`check_grades`).

trec_eval's ranking order, which every reader applies next, is :mod:`irnb.ranking`'s.

Every error names ``file:line``, says what was expected and shows what was found.

>>> list(data_lines(b"# a comment\\n\\n1 Q0 d1 1 2.5 tag\\n"))
[(3, [b'1', b'Q0', b'd1', b'1', b'2.5', b'tag'])]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from ._grades import MAX_GRADE, MIN_GRADE
from ._text import QRELS_COLUMNS, RUN_COLUMNS, shorten, show_token, where

__all__ = ["RUN_FIELDS", "QRELS_FIELDS", "data_lines", "run_fields", "qrels_fields", "parse_score", "parse_grade",
           "check_grades", "check_utf8", "repeated_docno_message", "empty_file_message"]

RUN_FIELDS = 6  # at least: qid Q0 docno rank score tag
QRELS_FIELDS = 4  # exactly: qid iteration docno grade
_INTEGER = re.compile(rb"[+-]?[0-9]+")


def data_lines(data: bytes) -> Iterator[tuple[int, list[bytes]]]:
    """(1-based line number, fields) of every line that is neither blank nor a comment, of
    text already through :func:`irnb._text.clean_text`."""
    for number, line in enumerate(data.split(b"\n"), start=1):
        parts = line.split()
        if parts and parts[0][:1] != b"#":
            yield number, parts


def run_fields(parts: list[bytes], label: str, number: int) -> tuple[bytes, bytes, float]:
    """(qid, docno, score) of a run line's fields.

    >>> run_fields([b"1", b"Q0", b"d1", b"1", b"2.5"], "r.txt", 7)
    Traceback (most recent call last):
    ValueError: r.txt:7: expected 6 columns (qid Q0 docno rank score tag), got 5: '1 Q0 d1 1 2.5'
    """
    if len(parts) < RUN_FIELDS:
        raise ValueError(f"{label}:{number}: expected {RUN_FIELDS} columns ({RUN_COLUMNS}), got {len(parts)}: "
                         f"{show_token(b' '.join(parts))}")
    return parts[0], parts[2], parse_score(parts[4], label, number)


def qrels_fields(parts: list[bytes], label: str, number: int) -> tuple[bytes, bytes, int]:
    """(qid, docno, grade) of a qrels line's fields.

    >>> qrels_fields([b"1", b"0", b"d1", b"2"], "q.txt", 3)
    (b'1', b'd1', 2)
    """
    if len(parts) != QRELS_FIELDS:
        raise ValueError(f"{label}:{number}: expected {QRELS_FIELDS} columns ({QRELS_COLUMNS}), got {len(parts)}: "
                         f"{show_token(b' '.join(parts))}")
    return parts[0], parts[2], parse_grade(parts[3], label, number)


def parse_score(token: bytes, label: str, number: int) -> float:
    """A score field as a finite float.

    >>> parse_score(b"1_0", "r.txt", 2)
    Traceback (most recent call last):
    ValueError: r.txt:2: expected a number in column 5 (score), got '1_0'
    """
    try:
        if b"_" in token:  # Python's float() accepts 1_000; C's atof stops at the underscore
            raise ValueError
        score = float(token)
    except ValueError:
        raise ValueError(f"{label}:{number}: expected a number in column 5 (score), got {show_token(token)}") from None
    if score - score != 0:  # inf or nan
        raise ValueError(f"{label}:{number}: expected a finite number in column 5 (score), got {show_token(token)}")
    return score


def parse_grade(token: bytes, label: str, number: int) -> int:
    """A grade field as an integer in [MIN_GRADE, MAX_GRADE] (the range's error is
    :func:`check_grades`'s).

    >>> parse_grade(b"+2", "q.txt", 1)
    2
    >>> parse_grade(b"1.0", "q.txt", 4)
    Traceback (most recent call last):
    ValueError: q.txt:4: expected an integer grade in column 4, got '1.0'
    """
    if not _INTEGER.fullmatch(token):
        raise ValueError(f"{label}:{number}: expected an integer grade in column 4, got {show_token(token)}")
    grade = int(token)
    if not MIN_GRADE <= grade <= MAX_GRADE:
        check_grades(np.array([grade], dtype=object), np.array([number]), label, "line")
    return grade


def check_utf8(token: bytes, label: str, number: int, what: str) -> bytes:
    """``token`` when it is UTF-8 text, else an error naming the first bad byte; ``what``
    names the field (``qid (column 1)``)."""
    try:
        token.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{label}:{number}: expected UTF-8 text in the {what}, got byte {token[err.start]:#04x}") \
            from None
    return token


def repeated_docno_message(at: str, docno: str, topic: str, first_at: str, what: str) -> str:
    """The error for a docno given twice for a topic: ``at`` where the second one is
    (``run.txt:4``), ``first_at`` where the first one was (``line 2``), ``what`` the file's
    kind (``run``, ``qrels``).

    >>> repeated_docno_message("r.txt:4", "d1", "301", "line 2", "run")
    "r.txt:4: docno 'd1' repeated for topic '301' (first at line 2); expected each docno once per topic in a run"
    """
    return (f"{at}: docno {shorten(docno)} repeated for topic {shorten(topic)} (first at {first_at}); "
            f"expected each docno once per topic in a {what}")


def empty_file_message(label: str, what: str) -> str:
    """The error for a run or qrels file (``what``) without a data line.

    >>> empty_file_message("q.txt", "qrels")
    "q.txt: empty qrels: expected lines of 'qid iteration docno grade', found none"
    """
    columns = RUN_COLUMNS if what == "run" else QRELS_COLUMNS
    return f"{label}: empty {what}: expected lines of '{columns}', found none"


def check_grades(grades: np.ndarray, numbers: np.ndarray | None, label: str, unit: str) -> None:
    """Every grade in [MIN_GRADE, MAX_GRADE], or an error naming the first line (row) outside."""
    bad = np.flatnonzero((grades < MIN_GRADE) | (grades > MAX_GRADE))
    if bad.size:
        row = int(bad[0])
        raise ValueError(
            f"{where(label, numbers, row, unit)}: expected a grade in [{MIN_GRADE}, {MAX_GRADE}] (irnb stores "
            f"grades as 8-bit integers and keeps -127 and -128 as markers), got {int(grades[row])}"
        )
