"""Reading runs and qrels (irnb.io): trec_eval's ranking rules on what is read, run sets and their
names, DataFrames as sources, inputs never modified. The text rules are tests/test_parsing.py's,
the sources' tests/test_sources.py's, the checked tables' tests/test_trecdata.py's."""

from __future__ import annotations

import copy
import os
import re

import numpy as np
import pandas as pd
import pytest

from trec_text import RUN, ranking_of, write_file
from irnb import read_qrels, read_run, read_runs, write_qrels

# --------------------------------------------------------------------------- ranking rules


def test_ranking_is_score_descending_then_docno_descending_and_rank_column_is_ignored(tmp_path):
    # d2 and d3 tie on 5.0: docno descending puts d3 first; the file's rank column says the opposite.
    run = read_run(write_file(tmp_path / "r.txt", RUN))
    assert ranking_of(run) == [("1", "d3", 5.0), ("1", "d2", 5.0), ("1", "d1", 3.0), ("2", "d1", 1.5)]
    assert run.to_frame()["rank"].tolist() == [1, 2, 3, 1]
    assert run.name == "r.txt" and run.tag == "tagA" and run.source == str(tmp_path / "r.txt")


def test_topics_sort_as_strings_like_trec_eval(tmp_path):
    run = read_run(write_file(tmp_path / "r", "10 Q0 a 1 1 t\n9 Q0 b 1 1 t\n2 Q0 c 1 1 t\n"))
    assert run.table["topic"].to_pylist() == ["10", "2", "9"]


def test_scores_compare_as_float32_like_trec_eval(tmp_path):
    # 0.48203300482 and 0.48203352618 (the BERT run of TREC-COVID) are one float32 apart at most:
    # trec_eval stores scores in a C float, so they tie and docno decides (descending).
    text = "1 Q0 aaa 1 0.4820330048251339 t\n1 Q0 zzz 2 0.4820330048251338 t\n"
    assert np.float32(0.4820330048251339) == np.float32(0.4820330048251338)
    run = read_run(write_file(tmp_path / "r", text))
    assert run.table["docno"].to_pylist() == ["zzz", "aaa"]
    # the exact 64-bit values are kept
    assert run.table["score"].to_pylist() == [0.4820330048251338, 0.4820330048251339]
    # distinct in float32 → score order
    run = read_run(write_file(tmp_path / "s", "1 Q0 aaa 1 0.5 t\n1 Q0 zzz 2 0.25 t\n"))
    assert run.table["docno"].to_pylist() == ["aaa", "zzz"]


def test_negative_zero_ties_with_zero(tmp_path):
    run = read_run(write_file(tmp_path / "r", "1 Q0 a 1 -0.0 t\n1 Q0 b 2 0 t\n1 Q0 c 3 -1 t\n"))
    assert run.table["docno"].to_pylist() == ["b", "a", "c"]


# --------------------------------------------------------------------------- run sets and DataFrames


def test_read_runs_sources_and_names(tmp_path):
    a = write_file(tmp_path / "a", "1 Q0 a 1 1 x\n")
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
    assert ranking_of(run) == [("1", "b", 2.0), ("1", "a", 1.0), ("2", "a", 0.5)]
    assert run.tag == "t" and run.source == "DataFrame 'f'"


# --------------------------------------------------------------------------- inputs untouched


def test_files_are_not_modified(tmp_path):
    (tmp_path / "runs").mkdir()
    run_path = write_file(tmp_path / "runs" / "r.txt", "\ufeff" + RUN.replace("\n", "\r\n"))
    qrels_path = write_file(tmp_path / "q.txt", "1 0 d1 1\n1 0 d2 0\n")
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
