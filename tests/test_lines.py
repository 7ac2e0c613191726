"""irnb.lines: each rule of a TREC line on a hand-made counter-example, the error text naming
file and line (a grade out of range too). The rules are stated once: both readers (irnb.io
through irnb.parsing, and the drop-in) refuse the same line with the same message."""

from __future__ import annotations

import re

import numpy as np
import pytest

from irnb._text import clean_text
from irnb.io import read_qrels as io_read_qrels, read_run as io_read_run
from irnb._grades import MAX_GRADE, MIN_GRADE, NO_DOC
from irnb.lines import (check_grades, data_lines, parse_grade, parse_score, qrels_fields, repeated_docno_message,
                        run_fields)
from irnb.trec_eval.reading import read_qrels as dropin_read_qrels, read_run as dropin_read_run


def _lines(text: bytes) -> list[tuple[int, list[bytes]]]:
    return list(data_lines(clean_text(text, "f")))


# ------------------------------------------------------------------ splitting
def test_comments_and_blank_lines_are_skipped_and_numbers_kept():
    text = b"# header\n\n   \n1 0 d1 1\n\t# indented comment\n2 0 d2 0\n"
    assert _lines(text) == [(4, [b"1", b"0", b"d1", b"1"]), (6, [b"2", b"0", b"d2", b"0"])]


def test_a_hash_inside_a_field_is_no_comment():
    assert _lines(b"1 0 d#1 1\n") == [(1, [b"1", b"0", b"d#1", b"1"])]


def test_crlf_and_bom_do_not_change_fields_or_line_numbers():
    assert _lines(b"\xef\xbb\xbf1 0 d1 1\r\n\r\n2 0 d2 0\r\n") == [(1, [b"1", b"0", b"d1", b"1"]),
                                                                  (3, [b"2", b"0", b"d2", b"0"])]


def test_fields_split_at_any_ascii_whitespace():
    assert _lines(b"1\t0 \x0bd1\x0c  1\n") == [(1, [b"1", b"0", b"d1", b"1"])]


# ------------------------------------------------------------------ columns
def test_a_run_line_needs_six_columns_and_may_have_more():
    assert run_fields(b"1 Q0 d1 1 2.5 tag extra".split(), "r", 1) == (b"1", b"d1", 2.5)
    with pytest.raises(ValueError, match=re.escape("r:9: expected 6 columns (qid Q0 docno rank score tag), got 5: "
                                                   "'1 Q0 d1 1 2.5'")):
        run_fields(b"1 Q0 d1 1 2.5".split(), "r", 9)


@pytest.mark.parametrize("line", [b"1 0 d1", b"1 0 d1 1 extra"])
def test_a_qrels_line_needs_exactly_four_columns(line):
    with pytest.raises(ValueError, match=re.escape(f"q:2: expected 4 columns (qid iteration docno grade), got "
                                                   f"{len(line.split())}")):
        qrels_fields(line.split(), "q", 2)


# ------------------------------------------------------------------ grade and score
@pytest.mark.parametrize("token,grade", [(b"0", 0), (b"+2", 2), (b"-1", -1), (b"007", 7)])
def test_integer_grades_are_read(token, grade):
    assert parse_grade(token, "q", 1) == grade


@pytest.mark.parametrize("token", [b"1.0", b"0x1", b"1e2", b"one", b"1_0"])
def test_a_grade_that_is_not_a_decimal_integer_is_refused(token):
    with pytest.raises(ValueError, match=re.escape(f"q:3: expected an integer grade in column 4, got "
                                                   f"'{token.decode()}'")):
        parse_grade(token, "q", 3)


@pytest.mark.parametrize("token", [b"128", b"-127", b"99999999999999999999"])
def test_a_grade_outside_int8_less_the_markers_is_refused(token):
    with pytest.raises(ValueError, match=re.escape(f"q:4: expected a grade in [-126, 127] (irnb stores grades as "
                                                   f"8-bit integers and keeps -127 and -128 as markers), got "
                                                   f"{int(token)}")):
        parse_grade(token, "q", 4)


@pytest.mark.parametrize("token,score", [(b"2.5", 2.5), (b"-1e3", -1000.0), (b".5", 0.5), (b"7", 7.0)])
def test_finite_scores_are_read(token, score):
    assert parse_score(token, "r", 1) == score


@pytest.mark.parametrize("token", [b"nan", b"inf", b"-Infinity", b"1e999"])
def test_a_score_that_is_not_finite_is_refused(token):
    with pytest.raises(ValueError, match=re.escape(f"r:5: expected a finite number in column 5 (score), got "
                                                   f"'{token.decode()}'")):
        parse_score(token, "r", 5)


@pytest.mark.parametrize("token", [b"1_000", b"high", b"1,5"])
def test_a_score_c_atof_would_not_read_whole_is_refused(token):
    # Python's float("1_000") is 1000.0; trec_eval's atof stops at the underscore
    with pytest.raises(ValueError, match=re.escape(f"r:6: expected a number in column 5 (score), got "
                                                   f"'{token.decode()}'")):
        parse_score(token, "r", 6)


# ------------------------------------------------------------------ repeated docno, the same in both readers
def test_the_repeated_docno_message():
    assert repeated_docno_message("r:4", "d1", "301", "line 2", "run") == (
        "r:4: docno 'd1' repeated for topic '301' (first at line 2); expected each docno once per topic in a run")


@pytest.mark.parametrize("text,what", [(b"1 Q0 a 1 2 t\n2 Q0 a 1 2 t\n1 Q0 a 2 1 t\n", "run"),
                                       (b"1 0 a 1\n2 0 a 1\n1 0 a 0\n", "qrels")])
def test_both_readers_refuse_a_repeated_docno_with_one_message(tmp_path, text, what):
    path = tmp_path / what
    path.write_bytes(text)
    expected = repeated_docno_message(f"{path}:3", "a", "1", "line 1", what)
    io_reader, dropin_reader = (io_read_run, dropin_read_run) if what == "run" else (io_read_qrels, dropin_read_qrels)
    with pytest.raises(ValueError) as io_error:
        io_reader(path)
    with pytest.raises(ValueError) as dropin_error:
        dropin_reader(text, str(path))
    assert str(io_error.value).startswith(expected)
    assert str(dropin_error.value) == expected


@pytest.mark.parametrize("text,what", [
    (b"1 Q0 a 1 2 t\n1 Q0 b 2 1\n", "run"),  # 5 columns
    (b"1 Q0 a 1 2 t\n1 Q0 b 2 nan t\n", "run"),
    (b"1 Q0 a 1 2 t\n1 Q0 b 2 1_0 t\n", "run"),
    (b"1 0 a 1\n1 0 b 1.5\n", "qrels"),
    (b"1 0 a 1\n1 0 b 200\n", "qrels"),
    (b"1 0 a 1\n1 0 b\n", "qrels"),
])
def test_both_readers_refuse_a_bad_line_with_one_message(tmp_path, text, what):
    path = tmp_path / what
    path.write_bytes(text)
    io_reader, dropin_reader = (io_read_run, dropin_read_run) if what == "run" else (io_read_qrels, dropin_read_qrels)
    with pytest.raises(ValueError) as io_error:
        io_reader(path)
    with pytest.raises(ValueError) as dropin_error:
        dropin_reader(text, str(path))
    assert str(io_error.value) == str(dropin_error.value)
    assert str(io_error.value).startswith(f"{path}:2: expected ")


def test_ids_must_be_utf8_in_both_readers(tmp_path):
    text = b"1 Q0 a 1 2 t\n1 Q0 b\xff 2 1 t\n"
    path = tmp_path / "run"
    path.write_bytes(text)
    message = f"{path}:2: expected UTF-8 text in the docno (column 3), got byte 0xff"
    with pytest.raises(ValueError, match=re.escape(message)):
        io_read_run(path)
    with pytest.raises(ValueError, match=re.escape(message)):
        dropin_read_run(text, str(path))


@pytest.mark.parametrize("what", ["run", "qrels"])
def test_both_readers_refuse_a_file_without_data_lines_with_one_message(tmp_path, what):
    text = b"# only a comment\n\n"
    path = tmp_path / what
    path.write_bytes(text)
    io_reader, dropin_reader = (io_read_run, dropin_read_run) if what == "run" else (io_read_qrels, dropin_read_qrels)
    with pytest.raises(ValueError) as io_error:
        io_reader(path)
    with pytest.raises(ValueError) as dropin_error:
        dropin_reader(text, str(path))
    assert str(io_error.value) == str(dropin_error.value) == f"{path}: empty {what}: expected lines of '" + (
        "qid Q0 docno rank score tag" if what == "run" else "qid iteration docno grade") + "', found none"


def test_a_grade_outside_the_range_names_its_line_or_row():
    check_grades(np.array([MIN_GRADE, 0, MAX_GRADE]), None, "q.txt", "line")  # the bounds themselves pass
    with pytest.raises(ValueError, match=r"^q\.txt:2: expected a grade in \[-126, 127\] .* got 200$"):
        check_grades(np.array([1, 200, 3]), None, "q.txt", "line")
    with pytest.raises(ValueError, match=r"^qrels DataFrame: row 'y': expected a grade in \[-126, 127\] .* got -127$"):
        check_grades(np.array([1, NO_DOC]), np.array(["x", "y"], dtype=object), "qrels DataFrame", "row")
