"""TREC run and qrels text into tables (irnb.parsing): the text rules (columns, whitespace, comments,
score formats, grades), every error naming file and line, and the fast path giving the exact path's tables."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_path
from strategies import TREC_TOKEN, run_frames
from trec_text import ranking_of, write_file
from irnb import parsing, read_qrels, read_run
from irnb._text import clean_text
from irnb.parsing import (QRELS_FAST, RUN_FAST, fast_table, parse_qrels_bytes, parse_qrels_exact, parse_run_bytes,
                          parse_run_exact)


def test_column_two_may_be_any_token_and_trailing_columns_are_ignored(tmp_path):
    text = "1 0 a 1 2.0 t junk after\n1 Q0 b 2 1.0 t\n1 whatever c 3 0.5 t more junk here\n"
    run = read_run(write_file(tmp_path / "r", text))
    assert ranking_of(run) == [("1", "a", 2.0), ("1", "b", 1.0), ("1", "c", 0.5)]


def test_whitespace_comments_blank_lines_crlf_and_bom(tmp_path):
    text = (
        "\ufeff# a comment line\r\n"
        "1\tQ0  a   1 \t 2.0 t\r\n"
        "\r\n"
        "   # indented comment\n"
        "1 Q0 b#1 2 1.0 t\n"  # '#' inside a docno is text
        "\n"
    )
    run = read_run(write_file(tmp_path / "r", text))
    assert ranking_of(run) == [("1", "a", 2.0), ("1", "b#1", 1.0)]


def test_score_formats(tmp_path):
    text = "1 Q0 a 1 +1.5 t\n1 Q0 b 2 1e1 t\n1 Q0 c 3 .25 t\n1 Q0 d 4 -3 t\n1 Q0 e 5 5. t\n"
    run = read_run(write_file(tmp_path / "r", text))
    assert dict(zip(run.table["docno"].to_pylist(), run.table["score"].to_pylist(), strict=True)) == {
        "a": 1.5, "b": 10.0, "c": 0.25, "d": -3.0, "e": 5.0}


def test_qrels_grades_iteration_column_and_order(tmp_path):
    text = "2 0 x 1\n1 0.5 b -1\n1 1  a +2\n1 Q0 c 007\n"
    q = read_qrels(write_file(tmp_path / "q", text))
    assert q.to_frame().values.tolist() == [["1", "a", 2], ["1", "b", -1], ["1", "c", 7], ["2", "x", 1]]
    assert q.num_judgments == 4 and q.topics == ["1", "2"]


def test_trec_eval_comment_test_files_read_as_trec_eval_reads_them():
    folder = shared_path("reference", "trec_eval")
    plain = read_qrels(folder / "qrels.test")
    commented = read_qrels(folder / "qrels.test.with-comments")
    # the commented copy differs in one docno only: "CR#93E-1860" ('#' inside a docno is text)
    expected = plain.to_frame().replace({"docno": {"CR93E-1860": "CR#93E-1860"}})
    expected = expected.sort_values(["topic", "docno"], ignore_index=True)
    pd.testing.assert_frame_equal(commented.to_frame(), expected)
    # results.test: tab then padded spaces (exact path); 1500 lines, 3 topics (trec_eval's out.test: num_ret 1500)
    run = read_run(folder / "results.test")
    assert run.num_lines == 1500 and sorted(run.topics) == ["301", "302", "303"] and run.tag == "STANDARD"
    # results.trunc: extra text after the tag on some lines
    trunc = read_run(folder / "results.trunc")
    assert trunc.num_lines == sum(1 for line in (folder / "results.trunc").read_text().splitlines() if line.strip())


@pytest.mark.parametrize(
    "text,line,expected",
    [
        ("1 Q0 a 1 1 t\n1 Q0 b 2 1\n", 2, "expected 6 columns (qid Q0 docno rank score tag), got 5: '1 Q0 b 2 1'"),
        ("1 Q0 a 1 1 t\n\n# c\n1 Q0 b 2 x t\n", 4, "expected a number in column 5 (score), got 'x'"),
        ("1 Q0 a 1 nan t\n", 1, "expected a finite number in column 5 (score), got 'nan'"),
        ("1 Q0 a 1 1 t\n1 Q0 b 1 -inf t\n", 2, "expected a finite number in column 5 (score), got '-inf'"),
        ("1 Q0 a 1 1e999 t\n", 1, "expected a finite number in column 5 (score), got '1e999'"),
        ("1 Q0 a 1 1_000 t\n", 1, "expected a number in column 5 (score), got '1_000'"),
        ("1 Q0 a 1 NA t\n", 1, "expected a number in column 5 (score), got 'NA'"),
        ("1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n", 3,
         "docno 'a' repeated for topic '1' (first at line 1); expected each docno once per topic in a run; "
         "pass on_duplicate='keep_first' (irnb evaluate: --keep-first) to keep the first occurrence"),
    ],
)
def test_run_errors_name_file_and_line(tmp_path, text, line, expected):
    path = write_file(tmp_path / "bad.run", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}:{line}: {expected}")):
        read_run(path)


def test_invalid_utf8_and_utf16(tmp_path):
    path = write_file(tmp_path / "bad", b"1 Q0 a 1 1 t\n1 Q0 b 1 1 t\n1 Q0 c 1 1 t\n1 Q0 d\xff 1 1 t\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:4: expected UTF-8 text in the docno (column 3), got byte "
                                                   "0xff")):
        read_run(path)
    path = write_file(tmp_path / "u16", "1 Q0 a 1 1 t\n".encode("utf-16"))
    with pytest.raises(ValueError, match=re.escape(f"{path}:1: expected UTF-8 text, got a UTF-16 byte-order mark")):
        read_run(path)


def test_empty_files(tmp_path):
    for text in ["", "\n\n", "# only a comment\n"]:
        path = write_file(tmp_path / "empty.run", text)
        with pytest.raises(ValueError, match=re.escape(f"{path}: empty run: expected lines of 'qid Q0 docno rank score "
                                                       "tag', found none")):
            read_run(path)
        qpath = write_file(tmp_path / "empty.qrels", text)
        with pytest.raises(ValueError, match=re.escape(f"{qpath}: empty qrels: expected lines of 'qid iteration docno "
                                                       "grade', found none")):
            read_qrels(qpath)


@pytest.mark.parametrize(
    "text,line,expected",
    [
        ("1 0 a 1\n1 0 b 1.5\n", 2, "expected an integer grade in column 4, got '1.5'"),
        ("1 0 a 0x1\n", 1, "expected an integer grade in column 4, got '0x1'"),
        ("1 0 a 99999999999999999999\n", 1, "expected a grade in [-126, 127] (irnb stores grades as 8-bit integers "
         "and keeps -127 and -128 as markers), got 99999999999999999999"),
        ("1 0 a 1\n1 0 b 1 extra\n", 2, "expected 4 columns (qid iteration docno grade), got 5: '1 0 b 1 extra'"),
        ("# c\n1 0 a\n", 2, "expected 4 columns (qid iteration docno grade), got 3: '1 0 a'"),
        ("1 0 a 1\n2 0 a 1\n1 0 a 0\n", 3, "docno 'a' repeated for topic '1' (first at line 1); expected each docno "
         "once per topic in a qrels"),
    ],
)
def test_qrels_errors_name_file_and_line(tmp_path, text, line, expected):
    path = write_file(tmp_path / "bad.qrels", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}:{line}: {expected}")):
        read_qrels(path)


def _clean_lines(n: int) -> list[str]:
    return [f"{1 + i // 25} Q0 doc{i:04d} {i % 25 + 1} {100 - i * 0.5:.4f} fast" for i in range(n)]


@pytest.mark.parametrize("bad,expected", [
    ("7 Q0 docX 1 abc fast", "expected a number in column 5 (score), got 'abc'"),
    ("7 Q0 docX 1 NaN fast", "expected a finite number in column 5 (score), got 'NaN'"),
    ("7 Q0 docX 1 1.0", "expected 6 columns (qid Q0 docno rank score tag), got 5"),
    ("7 Q0 docX  1 1.0 fast", None),  # a doubled space is valid: parsed on the exact path
])
def test_error_on_line_57_of_a_fast_path_file(tmp_path, bad, expected):
    lines = _clean_lines(100)
    lines[56] = bad
    path = write_file(tmp_path / "big.run", "\n".join(lines) + "\n")
    if expected is None:
        assert read_run(path).num_lines == 100
        return
    with pytest.raises(ValueError, match=re.escape(f"{path}:57: {expected}")):
        read_run(path)


def test_duplicate_on_line_57_of_a_fast_path_file(tmp_path):
    lines = _clean_lines(100)
    lines[56] = "3 Q0 doc0050 9 1.0 fast"  # line 51 holds doc0050 of topic 3
    data = ("\n".join(lines) + "\n").encode()
    assert fast_table(data, RUN_FAST) is not None  # the fast path parses it
    path = write_file(tmp_path / "dup.run", data)
    with pytest.raises(ValueError, match=re.escape(f"{path}:57: docno 'doc0050' repeated for topic '3' (first at line "
                                                   "51)")):
        read_run(path)
    # the same with CRLF line ends and a BOM (both cleaned without shifting line numbers)
    path = write_file(tmp_path / "dup_crlf.run", b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n"))
    with pytest.raises(ValueError, match=re.escape(f"{path}:57: docno 'doc0050' repeated")):
        read_run(path)


def _score_text(value: float, style: str) -> str:
    if style == "repr":
        return repr(value)
    if style == "fixed":
        return f"{value:.6f}"
    if style == "exp":
        return f"{value:.10e}"
    text = repr(value)
    return text if text.startswith("-") else "+" + text  # explicit sign


@st.composite
def _run_files(draw):
    frame = draw(run_frames())
    style = draw(st.sampled_from(["repr", "fixed", "exp", "sign"]))
    layout = draw(st.sampled_from(["spaces", "tabs", "mixed"]))
    crlf, bom, comments, blanks, extra = (draw(st.booleans()) for _ in range(5))
    lines = []
    for i, (qid, docno, score) in enumerate(frame.itertuples(index=False)):
        fields = [qid, draw(st.sampled_from(["Q0", "0", "q"])), docno, str(i + 1), _score_text(score, style), "tag"]
        if extra and draw(st.booleans()):
            fields += ["more", "text"]
        if layout == "spaces":
            line = " ".join(fields)
        elif layout == "tabs":
            line = "\t".join(fields)
        else:
            line = "".join(f + draw(st.sampled_from([" ", "\t", "  ", " \t "])) for f in fields).rstrip()
            line = draw(st.sampled_from(["", " ", "\t"])) + line
        lines.append(line)
        if comments and draw(st.booleans()):
            lines.append("# a comment 1 Q0 x 1 1 t")
        if blanks and draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "  ", "\t"])))
    text = ("\r\n" if crlf else "\n").join(lines) + draw(st.sampled_from(["", "\n"]))
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(data=_run_files())
def test_fast_and_exact_paths_give_identical_run_tables(data):
    cleaned = clean_text(data, "x")
    exact, numbers, tag = parse_run_exact(cleaned, "x")
    fast = fast_table(cleaned, RUN_FAST)
    if fast is not None:
        assert fast.select(["topic", "docno", "score"]).equals(exact)
        assert parse_run_bytes(data, "x")[2] == tag  # the fast path's tag: the first line's
        assert numbers.tolist() == list(range(1, exact.num_rows + 1))  # fast path: row i is line i + 1
    table, _, _ = parse_run_bytes(data, "x")
    assert table.equals(exact)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(TREC_TOKEN, TREC_TOKEN, TREC_TOKEN, st.integers(-126, 127)), min_size=1, max_size=20),
       grade_style=st.sampled_from(["plain", "sign", "zeros"]), sep=st.sampled_from([" ", "\t", "  "]),
       crlf=st.booleans())
def test_fast_and_exact_paths_give_identical_qrels_tables(rows, grade_style, sep, crlf):
    def grade(g):
        return {"plain": str(g), "sign": f"{g:+d}", "zeros": f"{g:03d}"}[grade_style]

    text = ("\r\n" if crlf else "\n").join(sep.join([t, it, d, grade(g)]) for t, it, d, g in rows) + "\n"
    cleaned = clean_text(text.encode(), "x")
    exact, _ = parse_qrels_exact(cleaned, "x")
    fast = fast_table(cleaned, QRELS_FAST)
    if fast is not None:
        assert fast.select(["topic", "docno", "grade"]).equals(exact)
    assert parse_qrels_bytes(text.encode(), "x")[0].equals(exact)


@pytest.mark.parametrize("data,fast", [
    (b"1 Q0 a 1 1.5 t\n1 Q0 b 2 1 t\n", True),          # single spaces
    (b"1\tQ0\ta\t1\t1.5\tt\n", True),                   # single tabs
    (b"1 Q0 a 1 1.5 t\r\n1 Q0 b 2 1 t\r\n", True),      # CRLF (cleaned to LF)
    (b"\xef\xbb\xbf1 Q0 a 1 1.5 t\n", True),            # BOM (dropped)
    (b"1 Q0 a 1 1.5 t", True),                          # no final newline
    (b"1 Q0 a 1 1.5 t\n\n1 Q0 b 2 1 t\n", False),       # blank line
    (b"# c\n1 Q0 a 1 1.5 t\n", False),                  # comment
    (b"#c Q0 a 1 1.5 t\n1 Q0 a 1 1.5 t\n", False),      # comment with six fields
    (b"1 Q0 a 1 1.5 t\n#c Q0 b 1 1.5 t\n", False),      # the same on line 2
    (b"1 Q0 a#1 1 1.5 t\n1 Q0 b# 2 1 t\n", True),        # a '#' later on a line is text
    (b"1 Q0 a 1 1.5 t x\n", False),                     # trailing column
    (b"1\tQ0 a 1 1.5 t\n", False),                      # mixed separators
    (b"1  Q0 a 1 1.5 t\n", False),                      # doubled separator
    (b" 1 Q0 a 1 1.5 t\n", False),                      # leading separator
    (b"1 Q0 a 1 1.5 t \n", False),                      # trailing separator
    (b"1 Q0 a 1 1_5 t\n", False),                       # not a number for either path
    # five tokens and a doubled separator: six fields for pyarrow, one of them (an unread
    # column) empty; the exact parser sees five and reports the line
    (b"1 Q0 a 1 1.5 t\n1  b 2 1 t\n", False),           # empty Q0
    (b"1 Q0 a 1 1.5 t\n1 Q0 b  1 t\n", False),          # empty rank
    (b"1 Q0 a 1 1.5 t\n1 Q0 b 2 1 \n", False),          # empty tag (trailing separator)
    (b"1 Q0 a 1 1.5 t\n1 Q0 b 2 1 ", False),            # the same at the end of the text
    (b"1\tQ0\ta\t1\t1.5\tt\n1\t\tb\t2\t1\tt\n", False),  # doubled tab
    (b"1 Q0 a 1 1.5 t\n\n", False),                     # blank last line
    (b"1 Q0 a\x0b1 1.5 t\n", False),                    # a vertical tab splits for the exact parser
    (b"1 Q0 a 1\x0c1.5 t\n", False),                    # so does a form feed
    (b"1 Q0 a\x01b 1 1.5 t\n", False),                  # a control byte: read by the exact parser
    # six fields for pyarrow (a space-separated text), seven tokens for the exact parser: only
    # the count of bytes below '!' tells
    (b"1 Q0 a\tb 1 1.5 t\n", False),                    # a tab inside a field
    (b"1 Q0 a 1 1.5 t\n1 Q0 b\x0bc 2 1 t\n", False),     # a vertical tab inside a field, line 2
    (b"1 Q0 a 1 1.5 t\x0cx", False),                    # a form feed in the last field, no final newline
])
@pytest.mark.parametrize("scan_bytes", [1, 3, 1 << 18])
def test_routing(data, fast, scan_bytes, monkeypatch):
    """The same routing whatever the size of the pieces the raw bytes are scanned in
    (pairs of bytes and the count across the cuts)."""
    monkeypatch.setattr(parsing, "_SCAN_BYTES", scan_bytes)
    cleaned = clean_text(data, "x")
    assert (fast_table(cleaned, RUN_FAST) is not None) is fast


def test_qrels_routing():
    assert fast_table(b"1 0 a 1\n1 0 b -2\n", QRELS_FAST) is not None
    for data in [b"1 0 a +1\n", b"1 0 a 0x1\n", b"1 0.5  a 1\n", b"1 0 a 1 x\n",
                 b"2 0 b 1\n1  a 1\n", b"2 0 b 1\n1 0 a 1 \n", b"#2 0 b 1\n",  # an empty iteration, grade; a comment
                 b"1 0 a\tb 1\n"]:  # four fields for pyarrow, five tokens for the exact parser
        assert fast_table(data, QRELS_FAST) is None


def test_an_empty_iteration_is_an_error_naming_its_line(tmp_path):
    """'1  a 1' holds four fields for pyarrow (the iteration empty) but three tokens: the
    exact parser reports it, as on a file that the fast path never saw."""
    path = write_file(tmp_path / "q.txt", b"2 0 b 1\n1  a 1\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:2: ")):
        read_qrels(path)


@pytest.mark.parametrize("scan_bytes", [1, 5, 1 << 16])
def test_joined_runs_count_each_files_lines(scan_bytes, monkeypatch):
    """Each file's lines, a last line without its line end included, whatever the pieces
    the text is counted in: 2 lines, 1 line (no final newline), 3 lines."""
    monkeypatch.setattr(parsing, "_SCAN_BYTES", scan_bytes)
    texts = [b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n", b"2 Q0 c 1 3 u", b"1 Q0 d 1 1 v\n2 Q0 d 1 1 v\n3 Q0 d 1 1 v\n"]
    table, sizes, tags = parsing.parse_joined_runs(texts, ["x", "y", "z"])
    assert sizes.tolist() == [2, 1, 3]
    assert tags == ["t", "u", "v"]
    assert table["docno"].to_pylist() == ["a", "b", "c", "d", "d", "d"]


def test_qrels_parsed_on_pyarrow_threads_give_the_same_qrels(tmp_path, monkeypatch):
    """A qrels text of several of pyarrow's blocks (1 MiB each) read on its threads (the
    size limit lowered to every text) gives the table, grades and topic blocks the one-thread
    parse gives; an error line past the first block is still named."""
    lines = [f"{topic} 0 doc{(7 * i) % 9973:05d}x{topic} {i % 3}\n" for topic in range(600, 0, -1)
             for i in range(250)]
    path = write_file(tmp_path / "deep.qrels", "".join(lines))
    assert path.stat().st_size > 2 << 20
    one = read_qrels(path)
    monkeypatch.setattr(parsing, "_THREADED_QRELS_BYTES", 0)
    asked = []
    monkeypatch.setattr(parsing, "fast_table", lambda *a, threads=False, **k: asked.append(threads) or fast_table(
        *a, threads=threads, **k))
    threaded = read_qrels(path)
    assert asked == [True]
    assert threaded.table.equals(one.table) and threaded.num_judgments == len(lines)
    assert threaded.topics == one.topics
    bad = lines[:]
    bad[70_000] = "7 0 doc7 x\n"
    path = write_file(tmp_path / "bad.qrels", "".join(bad))
    with pytest.raises(ValueError, match=r"bad\.qrels:70001: .*grade"):
        read_qrels(path)
