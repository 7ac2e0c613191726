"""Reading and writing TREC runs and qrels: every rule of irnb.io's docstring, every error
message (file name and line number), fast path = exact path, inputs never modified."""

from __future__ import annotations

import bz2
import copy
import gzip
import io
import lzma
import os
import re
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_path
from irnb import Run, read_qrels, read_run, read_runs, write_qrels, write_run
from irnb._text import clean_text
from irnb.parsing import (QRELS_FAST, RUN_FAST, fast_table, parse_qrels_bytes, parse_qrels_exact, parse_run_bytes,
                          parse_run_exact)

RUN = """\
1 Q0 d1 1 3.0 tagA
1 Q0 d2 2 5.0 tagA
1 Q0 d3 3 5.0 tagA
2 Q0 d1 1 1.5 tagA
"""


def _write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def _ranking(run: Run) -> list[tuple[str, str, float]]:
    return list(zip(run.table["topic"].to_pylist(), run.table["docno"].to_pylist(),
                    run.table["score"].to_pylist(), strict=True))


# --------------------------------------------------------------------------- ranking rules


def test_ranking_is_score_descending_then_docno_descending_and_rank_column_is_ignored(tmp_path):
    # d2 and d3 tie on 5.0: docno descending puts d3 first; the file's rank column says the opposite.
    run = read_run(_write(tmp_path / "r.txt", RUN))
    assert _ranking(run) == [("1", "d3", 5.0), ("1", "d2", 5.0), ("1", "d1", 3.0), ("2", "d1", 1.5)]
    assert run.to_frame()["rank"].tolist() == [1, 2, 3, 1]
    assert run.name == "r.txt" and run.tag == "tagA" and run.source == str(tmp_path / "r.txt")


def test_topics_sort_as_strings_like_trec_eval(tmp_path):
    run = read_run(_write(tmp_path / "r", "10 Q0 a 1 1 t\n9 Q0 b 1 1 t\n2 Q0 c 1 1 t\n"))
    assert run.table["topic"].to_pylist() == ["10", "2", "9"]


def test_scores_compare_as_float32_like_trec_eval(tmp_path):
    # 0.48203300482 and 0.48203352618 (the BERT run of TREC-COVID) are one float32 apart at most:
    # trec_eval stores scores in a C float, so they tie and docno decides (descending).
    text = "1 Q0 aaa 1 0.4820330048251339 t\n1 Q0 zzz 2 0.4820330048251338 t\n"
    assert np.float32(0.4820330048251339) == np.float32(0.4820330048251338)
    run = read_run(_write(tmp_path / "r", text))
    assert run.table["docno"].to_pylist() == ["zzz", "aaa"]
    # the exact 64-bit values are kept
    assert run.table["score"].to_pylist() == [0.4820330048251338, 0.4820330048251339]
    # distinct in float32 → score order
    run = read_run(_write(tmp_path / "s", "1 Q0 aaa 1 0.5 t\n1 Q0 zzz 2 0.25 t\n"))
    assert run.table["docno"].to_pylist() == ["aaa", "zzz"]


def test_negative_zero_ties_with_zero(tmp_path):
    run = read_run(_write(tmp_path / "r", "1 Q0 a 1 -0.0 t\n1 Q0 b 2 0 t\n1 Q0 c 3 -1 t\n"))
    assert run.table["docno"].to_pylist() == ["b", "a", "c"]


def test_column_two_may_be_any_token_and_trailing_columns_are_ignored(tmp_path):
    text = "1 0 a 1 2.0 t junk after\n1 Q0 b 2 1.0 t\n1 whatever c 3 0.5 t more junk here\n"
    run = read_run(_write(tmp_path / "r", text))
    assert _ranking(run) == [("1", "a", 2.0), ("1", "b", 1.0), ("1", "c", 0.5)]


def test_whitespace_comments_blank_lines_crlf_and_bom(tmp_path):
    text = (
        "\ufeff# a comment line\r\n"
        "1\tQ0  a   1 \t 2.0 t\r\n"
        "\r\n"
        "   # indented comment\n"
        "1 Q0 b#1 2 1.0 t\n"  # '#' inside a docno is text
        "\n"
    )
    run = read_run(_write(tmp_path / "r", text))
    assert _ranking(run) == [("1", "a", 2.0), ("1", "b#1", 1.0)]




def test_score_formats(tmp_path):
    text = "1 Q0 a 1 +1.5 t\n1 Q0 b 2 1e1 t\n1 Q0 c 3 .25 t\n1 Q0 d 4 -3 t\n1 Q0 e 5 5. t\n"
    run = read_run(_write(tmp_path / "r", text))
    assert dict(zip(run.table["docno"].to_pylist(), run.table["score"].to_pylist(), strict=True)) == {
        "a": 1.5, "b": 10.0, "c": 0.25, "d": -3.0, "e": 5.0}


# --------------------------------------------------------------------------- qrels rules


def test_qrels_grades_iteration_column_and_order(tmp_path):
    text = "2 0 x 1\n1 0.5 b -1\n1 1  a +2\n1 Q0 c 007\n"
    q = read_qrels(_write(tmp_path / "q", text))
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


# --------------------------------------------------------------------------- sources


def test_compressed_files(tmp_path):
    for name, data in [("r.gz", gzip.compress(RUN.encode())), ("r.bz2", bz2.compress(RUN.encode())),
                       ("r.xz", lzma.compress(RUN.encode()))]:
        assert _ranking(read_run(_write(tmp_path / name, data))) == _ranking(read_run(_write(tmp_path / "p", RUN)))
    q = read_qrels(_write(tmp_path / "q.gz", gzip.compress(b"1 0 a 1\n")))
    assert q.to_frame().values.tolist() == [["1", "a", 1]]


def _make_folder(root: Path) -> Path:
    (root / "g1").mkdir(parents=True)
    (root / "g2").mkdir()
    _write(root / "g1" / "run.txt", "1 Q0 a 1 1 x\n")
    _write(root / "g2" / "run.txt", "1 Q0 b 1 1 y\n")
    _write(root / "solo", "1 Q0 c 1 1 z\n")
    _write(root / ".hidden", "not a run\n")
    return root


def test_directory_of_runs(tmp_path):
    runs = read_runs(_make_folder(tmp_path / "runs"))
    # base names that repeat are qualified by their folder; hidden files are skipped
    assert list(runs) == ["g1/run.txt", "g2/run.txt", "solo"]
    assert runs["g2/run.txt"].table["docno"].to_pylist() == ["b"]


@pytest.mark.parametrize("suffix,mode", [(".tar", "w"), (".tar.xz", "w:xz"), (".tar.gz", "w:gz")])
def test_tar_archives(tmp_path, suffix, mode):
    folder = _make_folder(tmp_path / "runs")
    archive = tmp_path / f"runs{suffix}"
    with tarfile.open(archive, mode) as tar:
        for name in ["solo", "g2/run.txt", "g1/run.txt", ".hidden"]:  # not in name order
            tar.add(folder / name, arcname=f"./{name}")
    runs = read_runs(archive)
    assert list(runs) == ["g1/run.txt", "g2/run.txt", "solo"]
    assert runs["solo"].source == f"{archive}::solo"
    assert {n: r.tag for n, r in runs.items()} == {"g1/run.txt": "x", "g2/run.txt": "y", "solo": "z"}
    with pytest.raises(ValueError, match=re.escape(f"{archive}: holds several runs; use read_runs()")):
        read_run(archive)


def test_read_runs_sources_and_names(tmp_path):
    a = _write(tmp_path / "a", "1 Q0 a 1 1 x\n")
    runs = read_runs({"mine": a, "frame": pd.DataFrame({"qid": [1], "docno": ["z"], "score": [1.0]})})
    assert list(runs) == ["mine", "frame"]
    runs = read_runs(pd.DataFrame({"run": ["r2", "r1", "r2"], "qid": [1, 1, 1], "docno": ["a", "b", "c"],
                                   "score": [1, 2, 3]}))
    assert list(runs) == ["r1", "r2"] and runs["r2"].table["docno"].to_pylist() == ["c", "a"]
    with pytest.raises(ValueError, match=r"two runs are named 'a' .*expected unique run names"):
        read_runs([a, a])
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'nope'}: cannot read runs: No such file or directory "
                                                   "(ENOENT)")):
        read_runs(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'empty'}: directory holds no run files")):
        read_runs(tmp_path / "empty")


def test_dataframe_sources(tmp_path):
    frame = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": ["a", "b", "a"], "score": [1.0, 2.0, 0.5],
                          "tag": ["t", "t", "t"]})
    run = read_run(frame, name="f")
    assert _ranking(run) == [("1", "b", 2.0), ("1", "a", 1.0), ("2", "a", 0.5)]
    assert run.tag == "t" and run.source == "DataFrame 'f'"


# --------------------------------------------------------------------------- errors


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
    path = _write(tmp_path / "bad.run", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}:{line}: {expected}")):
        read_run(path)


def test_invalid_utf8_and_utf16(tmp_path):
    path = _write(tmp_path / "bad", b"1 Q0 a 1 1 t\n1 Q0 b 1 1 t\n1 Q0 c 1 1 t\n1 Q0 d\xff 1 1 t\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:4: expected UTF-8 text in the docno (column 3), got byte "
                                                   "0xff")):
        read_run(path)
    path = _write(tmp_path / "u16", "1 Q0 a 1 1 t\n".encode("utf-16"))
    with pytest.raises(ValueError, match=re.escape(f"{path}:1: expected UTF-8 text, got a UTF-16 byte-order mark")):
        read_run(path)


def test_empty_files(tmp_path):
    for text in ["", "\n\n", "# only a comment\n"]:
        path = _write(tmp_path / "empty.run", text)
        with pytest.raises(ValueError, match=re.escape(f"{path}: empty run: expected lines of 'qid Q0 docno rank score "
                                                       "tag', found none")):
            read_run(path)
        qpath = _write(tmp_path / "empty.qrels", text)
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
    path = _write(tmp_path / "bad.qrels", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}:{line}: {expected}")):
        read_qrels(path)


def test_on_duplicate_keep_first(tmp_path):
    path = _write(tmp_path / "dup", "1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n1 Q0 a 3 9 t\n2 Q0 a 1 1 t\n")
    run = read_run(path, on_duplicate="keep_first")
    # the second 'a' of topic 1 (score 9) is dropped although its score is higher; topic 2's 'a' stays
    assert _ranking(run) == [("1", "b", 2.0), ("1", "a", 1.0), ("2", "a", 1.0)]
    q = read_qrels(_write(tmp_path / "q", "1 0 a 2\n1 0 a 0\n"), on_duplicate="keep_first")
    assert q.to_frame().values.tolist() == [["1", "a", 2]]
    with pytest.raises(ValueError, match=r"on_duplicate must be one of 'error' or 'keep_first', got 'last'"):
        read_run(path, on_duplicate="last")


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
    path = _write(tmp_path / "big.run", "\n".join(lines) + "\n")
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
    path = _write(tmp_path / "dup.run", data)
    with pytest.raises(ValueError, match=re.escape(f"{path}:57: docno 'doc0050' repeated for topic '3' (first at line "
                                                   "51)")):
        read_run(path)
    # the same with CRLF line ends and a BOM (both cleaned without shifting line numbers)
    path = _write(tmp_path / "dup_crlf.run", b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n"))
    with pytest.raises(ValueError, match=re.escape(f"{path}:57: docno 'doc0050' repeated")):
        read_run(path)


def test_errors_inside_an_archive_name_the_member(tmp_path):
    archive = tmp_path / "runs.tar.gz"
    data = b"1 Q0 a 1 1 t\n1 Q0 b 2 oops t\n"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("team/bad.run")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(ValueError, match=re.escape(f"{archive}::team/bad.run:2: expected a number in column 5")):
        read_runs(archive)


def test_dataframe_errors_name_the_row():
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 1: expected a finite number in column 'score', "
                                                   "got nan")):
        read_run(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [1.0, np.nan]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 2: docno 'a' repeated for topic '1' (first at "
                                                   "row 0)")):
        read_run(pd.DataFrame({"qid": [1, 1, 1], "docno": ["a", "b", "a"], "score": [1, 2, 3]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 0: expected a non-empty 'docno' without "
                                                   "whitespace, got 'a b'")):
        read_run(pd.DataFrame({"qid": [1], "docno": ["a b"], "score": [1]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 0: expected a value in column 'qid', got None")):
        read_run(pd.DataFrame({"qid": [None], "docno": ["a"], "score": [1]}), name="f")
    with pytest.raises(ValueError, match=r"DataFrame 'f': expected a column for score \(one of score, sim\), got "
                                         r"columns \['qid', 'docno'\]"):
        read_run(pd.DataFrame({"qid": [1], "docno": ["a"]}), name="f")
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 1: expected an integer grade in column 'rel', "
                                                   "got 0.5")):
        read_qrels(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "rel": [1, 0.5]}))


# --------------------------------------------------------------------------- inputs untouched


def test_files_are_not_modified(tmp_path):
    (tmp_path / "runs").mkdir()
    run_path = _write(tmp_path / "runs" / "r.txt", "\ufeff" + RUN.replace("\n", "\r\n"))
    qrels_path = _write(tmp_path / "q.txt", "1 0 d1 1\n1 0 d2 0\n")
    os.utime(run_path, ns=(1_000_000_000, 1_000_000_000))
    os.utime(qrels_path, ns=(2_000_000_000, 2_000_000_000))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (run_path, qrels_path)}
    read_run(run_path)
    read_runs(tmp_path / "runs")
    read_qrels(qrels_path)
    from irnb import Experiment

    Experiment([run_path], qrels_path)
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (run_path, qrels_path)} == before


def test_dataframes_are_not_modified():
    run_frame = pd.DataFrame({"run": ["r", "r", "s"], "qid": [2, 1, 1], "docno": ["a", "b", "a"],
                              "score": ["1.5", 2, 3], "tag": ["x", "x", "y"]}, index=[10, 20, 30])
    qrels_frame = pd.DataFrame({"qid": [1, 1, 2], "docno": ["a", "b", "a"], "rel": [1.0, 0.0, 2.0]})
    run_copy, qrels_copy = copy.deepcopy(run_frame), copy.deepcopy(qrels_frame)
    read_run(run_frame[run_frame["run"] == "r"])
    read_runs(run_frame)
    read_qrels(qrels_frame)
    write_qrels(qrels_frame, os.devnull)
    from irnb import Experiment

    Experiment(run_frame, qrels_frame)
    pd.testing.assert_frame_equal(run_frame, run_copy)
    pd.testing.assert_frame_equal(qrels_frame, qrels_copy)
    assert list(run_frame.dtypes) == list(run_copy.dtypes)


# --------------------------------------------------------------------------- writing


def test_write_run_format(tmp_path):
    run = read_run(_write(tmp_path / "r", RUN))
    write_run(run, tmp_path / "out")
    assert (tmp_path / "out").read_text() == (
        "1 Q0 d3 1 5 tagA\n1 Q0 d2 2 5 tagA\n1 Q0 d1 3 3 tagA\n2 Q0 d1 1 1.5 tagA\n")
    write_run(run, tmp_path / "out2", tag="other")
    assert (tmp_path / "out2").read_text().splitlines()[0] == "1 Q0 d3 1 5 other"
    with pytest.raises(ValueError, match=r"tag must be a non-empty token without whitespace, got 'a b'"):
        write_run(run, tmp_path / "out3", tag="a b")


def test_write_qrels_format(tmp_path):
    write_qrels(pd.DataFrame({"qid": ["2", "1"], "docno": ["x", "y"], "grade": [-1, 3]}), tmp_path / "q")
    assert (tmp_path / "q").read_text() == "1 0 y 3\n2 0 x -1\n"


_token = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789-_.:#é", min_size=1, max_size=8).filter(
    lambda s: not s.startswith("#"))
_score = st.one_of(
    st.floats(min_value=-1e300, max_value=1e300, allow_nan=False),
    st.integers(-10**6, 10**6).map(float),
    st.sampled_from([0.1, 1 / 3, 1e-300, -0.0, 5e-324, 0.4820330048251339, 0.4820330048251338]),
)


@st.composite
def _runs(draw, min_topics=1):
    topics = draw(st.lists(_token, min_size=min_topics, max_size=4, unique=True))
    rows = []
    for topic in topics:
        docnos = draw(st.lists(_token, min_size=1, max_size=8, unique=True))
        rows += [(topic, d, draw(_score)) for d in docnos]
    return pd.DataFrame(rows, columns=["qid", "docno", "score"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=_runs(), gz=st.booleans())
def test_round_trip_run(tmp_path, frame, gz):
    run = read_run(frame, name="r")
    path = tmp_path / ("rt.txt.gz" if gz else "rt.txt")
    write_run(run, path)
    again = read_run(path)
    assert again.table.equals(run.table)  # same ranking, same 64-bit scores
    assert again.tag == "r"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(_token, _token, st.integers(-126, 127)), min_size=1, max_size=30,
                     unique_by=lambda r: (r[0], r[1])))
def test_round_trip_qrels(tmp_path, rows):
    qrels = read_qrels(pd.DataFrame(rows, columns=["qid", "docno", "grade"]))
    write_qrels(qrels, tmp_path / "q.txt")
    assert read_qrels(tmp_path / "q.txt").table.equals(qrels.table)


# --------------------------------------------------------------------------- fast path = exact path


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
    frame = draw(_runs())
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
        assert fast["tag"][0].as_py().decode() == tag
        assert numbers.tolist() == list(range(1, exact.num_rows + 1))  # fast path: row i is line i + 1
    table, _, _ = parse_run_bytes(data, "x")
    assert table.equals(exact)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(_token, _token, _token, st.integers(-126, 127)), min_size=1, max_size=20),
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
    (b"1 Q0 a 1 1.5 t x\n", False),                     # trailing column
    (b"1\tQ0 a 1 1.5 t\n", False),                      # mixed separators
    (b"1  Q0 a 1 1.5 t\n", False),                      # doubled separator
    (b" 1 Q0 a 1 1.5 t\n", False),                      # leading separator
    (b"1 Q0 a 1 1.5 t \n", False),                      # trailing separator
    (b"1 Q0 a 1 1_5 t\n", False),                       # not a number for either path
])
def test_routing(data, fast):
    cleaned = clean_text(data, "x")
    assert (fast_table(cleaned, RUN_FAST) is not None) is fast


def test_qrels_routing():
    assert fast_table(b"1 0 a 1\n1 0 b -2\n", QRELS_FAST) is not None
    for data in [b"1 0 a +1\n", b"1 0 a 0x1\n", b"1 0.5  a 1\n", b"1 0 a 1 x\n"]:
        assert fast_table(data, QRELS_FAST) is None


def test_dataframe_errors_use_index_labels():
    frame = pd.DataFrame({"run": ["r", "s", "s"], "qid": [1, 1, 1], "docno": ["a", "a", "a"],
                          "score": [1.0, 2.0, 3.0]}, index=[10, 20, 30])
    # run 's' holds rows 20 and 30: the message names the labels, usable with frame.loc
    with pytest.raises(ValueError, match=re.escape("DataFrame 's': row 30: docno 'a' repeated for topic '1' (first at "
                                                   "row 20)")):
        read_runs(frame)
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 'y': expected an integer grade in column "
                                                   "'grade', got 'high'")):
        read_qrels(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "grade": [1, "high"]}, index=["x", "y"]))


def test_files_in_hidden_folders_are_not_runs(tmp_path):
    from irnb import read_runs

    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / "sub").mkdir()
    line = "1 Q0 a 1 1.0 r\n"
    (tmp_path / "sub" / "r1").write_text(line)
    (tmp_path / ".ipynb_checkpoints" / "r1-checkpoint").write_text(line)
    (tmp_path / ".hidden-run").write_text(line)
    assert sorted(read_runs(tmp_path)) == ["r1"]


def test_dataframe_row_without_a_run_name_is_an_error():
    import pandas as pd

    from irnb import read_runs

    frame = pd.DataFrame({"run": ["a", "a", None], "qid": "1", "docno": ["x", "y", "z"], "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match=r"DataFrame: row 2: expected a run name in column 'run', got nan"):
        read_runs(frame)


def test_a_directory_given_as_qrels_is_named_as_such(tmp_path):
    from irnb import read_qrels

    with pytest.raises(ValueError, match="cannot read qrels file: Is a directory \\(EISDIR\\); expected a qrels file"):
        read_qrels(tmp_path)
