"""Runs and qrels written as TREC text (irnb.writing): the exact lines, and a round trip through
the readers that gives the same tables back."""

from __future__ import annotations


import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import TREC_TOKEN, run_frames
from trec_text import RUN, write_file
from irnb import read_qrels, read_run, write_qrels, write_run


def test_write_run_format(tmp_path):
    run = read_run(write_file(tmp_path / "r", RUN))
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=run_frames(), gz=st.booleans())
def test_round_trip_run(tmp_path, frame, gz):
    run = read_run(frame, name="r")
    path = tmp_path / ("rt.txt.gz" if gz else "rt.txt")
    write_run(run, path)
    again = read_run(path)
    assert again.table.equals(run.table)  # same ranking, same 64-bit scores
    assert again.tag == "r"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(TREC_TOKEN, TREC_TOKEN, st.integers(-126, 127)), min_size=1, max_size=30,
                     unique_by=lambda r: (r[0], r[1])))
def test_round_trip_qrels(tmp_path, rows):
    qrels = read_qrels(pd.DataFrame(rows, columns=["qid", "docno", "grade"]))
    write_qrels(qrels, tmp_path / "q.txt")
    assert read_qrels(tmp_path / "q.txt").table.equals(qrels.table)
