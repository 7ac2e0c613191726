"""The drop-in's scores (irnb.trec_eval.compute): the marked measures' rows in trec_eval's
order and their values, by hand on one topic."""

from __future__ import annotations

import pytest

from irnb.trec_eval.compute import score
from irnb.trec_eval.options import parse_args

# one topic: the run ranks a x c; a has grade 1, c grade 2, b grade 0 (not retrieved)
QRELS = {b"1": {b"a": 1, b"b": 0, b"c": 2}}
RUN = {b"1": {b"a": 3.0, b"x": 2.0, b"c": 1.0}}


def test_values_by_hand():
    scores = score(QRELS, RUN, parse_args(["-m", "P.5,10", "-m", "map"])[0])
    assert scores.totals == pytest.approx({"map": (1 / 1 + 2 / 3) / 2, "P_5": 2 / 5, "P_10": 2 / 10})
    # rows in trec_eval's measure table order (map before P), not in the command's
    assert [row.name for row in scores.rows] == ["map", "P_5", "P_10"]


def test_the_relevance_level_turns_grade_one_non_relevant():
    """-l 2: only c counts, at rank 3."""
    scores = score(QRELS, RUN, parse_args(["-l", "2", "-m", "map", "-m", "P.5"])[0])
    assert scores.totals == pytest.approx({"map": 1 / 3, "P_5": 1 / 5})


def test_an_unanswered_qrels_topic_stops_version_10_and_is_skipped_by_version_9():
    qrels = {**QRELS, b"2": {b"d": 1}}
    ten = score(qrels, RUN, parse_args(["-m", "num_q"])[0])
    assert (ten.topics, ten.stop) == ([b"1", b"2"], 1)
    nine = score(qrels, RUN, parse_args(["--compat", "9", "-m", "num_q"])[0])
    assert (nine.topics, nine.stop, nine.totals) == ([b"1"], None, {"num_q": 1})
