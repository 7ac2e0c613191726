"""Pool bias on real data: TREC-COVID round 1.

Truth: the complete TREC-COVID qrels (topics 1–30, after all five rounds) plus the round-1
judgments they lack. A shallow pool is simulated over that truth from the runs that
contributed to the official round-1 pool (leaderboard: "contributed judgments" = yes, one
run per team); groups are the teams. Büttcher et al. report, for runs left out of the
pool: AP moves them down the ranking, bpref moves them up. What the data shows (depth 10
and 20, ranking the 56 pooled runs as the paper ranks its 42; see the report in
``benchmarks/bench_bias.py --covid``): AP moves 40 (depth 10) / 34 (depth 20) of 56
left-out runs down and none up; bpref moves 28 / 29 up and 2 / 2 down; the mean AP of a
left-out run falls, its mean bpref rises; P@20(j) overestimates even more than bpref
and RankEff is the most stable — all as in the paper's Table 2.
"""

from __future__ import annotations

import pytest

from irnb.datasets.real import trec_covid_round1
from irnb.bias import leave_one_group_out_bias

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def covid(covid_dir):
    folder = covid_dir
    # the deep truth is the Experiment's qrels: the shallow pools are simulated over it
    exp = trec_covid_round1(folder, qrels="deep")
    pooled = [n for n, c in zip(exp.run_names, exp.contributors, strict=True) if c]
    return exp, pooled


@pytest.fixture(scope="module", params=[10, 20])
def table(request, covid):
    exp, pooled = covid
    res = leave_one_group_out_bias(exp, depth=request.param, reference="pool", ranked=pooled)
    return request.param, res, res.summary()


def test_setting(covid, table):
    exp, pooled = covid
    depth, res, summary = table
    assert exp.shape[:2] == (143, 30) and len(pooled) == 56
    assert len(set(res.groups)) == 56  # one pooled run per team: every ranked run is left out once
    assert (summary["left_out"] == 56).all()


def test_ap_moves_left_out_runs_down(table):
    depth, _, summary = table
    ap = summary.loc["AP"]
    assert ap["moved_down"] > ap["moved_up"], f"depth {depth}: AP moved {ap['moved_down']} down, {ap['moved_up']} up"
    assert ap["moved_down"] >= 0.5 * ap["left_out"]
    assert ap["mean_rank_change"] < 0 and ap["mean_score_change"] < 0


def test_bpref_moves_left_out_runs_up_more_often_than_ap(table):
    depth, _, summary = table
    ap, bpref = summary.loc["AP"], summary.loc["Bpref"]
    assert bpref["moved_up"] > ap["moved_up"]
    assert bpref["moved_up"] > bpref["moved_down"]  # the paper's "bpref overestimates"
    assert bpref["mean_rank_change"] > 0 and bpref["mean_score_change"] > 0


def test_other_measures_as_in_the_paper(table):
    depth, _, summary = table
    # early-precision measures lose more places than AP; P@20(j) overestimates like
    # bpref; RankEff is the most stable measure (smallest mean absolute rank change)
    for m in ("P@10", "P@20", "nDCG@20"):
        assert summary.loc[m, "mean_rank_change"] < 0
    assert summary.loc["P@20(j)", "mean_rank_change"] > 0
    assert summary["mean_abs_rank_change"].idxmin() == "RankEff"
