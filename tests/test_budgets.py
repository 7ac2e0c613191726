"""Judgment budgets (irnb.budgets): separability and recanting by hand, against a direct
computation from budget_pool + score_intervals + t_test, and properties on a simulated
collection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irnb import Experiment
from irnb.budgets import BudgetTests, budget_tests, default_budgets
from irnb.intervals import point_estimates, score_intervals
from irnb.pooling import budget_pool
from irnb.stats import t_test

# Two topics. Contributors a and b, non-contributors c (= a) and d (= b):
#   a: x y z   (x relevant, y z not)        b: u v w   (u not, v w relevant)
# Judgment order: rank-1 entries x, u of both topics (4), then rank 2 (4 more), then 3.
# X_S = lower bound of P@3:
#   budget 4:  a 1/3, b 0    → difference 1/3 on both topics: constant, p = 0, a higher
#   budget 8:  a 1/3, b 1/3  → no difference, p = 1 (no longer significant)
#   budget 12: a 1/3, b 2/3  → constant −1/3, p = 0, b higher (reversed)
A = ["x", "y", "z"]
B = ["u", "v", "w"]
GRADES = {"x": 1, "y": 0, "z": 0, "u": 0, "v": 1, "w": 1}


@pytest.fixture
def flip() -> Experiment:
    rows = []
    for run, docs in (("a", A), ("b", B), ("c", A), ("d", B)):
        for topic in ("1", "2"):
            rows += [(run, topic, doc, float(3 - i)) for i, doc in enumerate(docs)]
    runs = pd.DataFrame(rows, columns=["run", "qid", "docno", "score"])
    qrels = pd.DataFrame([(t, d, g) for t in ("1", "2") for d, g in GRADES.items()], columns=["qid", "docno", "grade"])
    return Experiment(runs, qrels, contributors=["a", "b"])


def test_separability_by_hand(flip):
    tests = budget_tests(flip, ["P@3"], seed=3, budgets=[4, 8, 12], estimators="S")
    assert tests.run_sets == ("contributing", "non-contributing")
    sep = tests.separability().set_index(["run_set", "budget"])
    for run_set in tests.run_sets:  # c and d rank what a and b rank: same outcome
        assert sep.loc[run_set]["significant"].tolist() == [1, 0, 1]
        assert sep.loc[run_set]["fraction"].tolist() == [1.0, 0.0, 1.0]
        assert sep.loc[run_set]["pairs"].tolist() == [1, 1, 1]
    assert tests.p_value("P@3", "contributing")[0, :, 0].tolist() == [0.0, 1.0, 0.0]
    assert tests.direction("P@3", "contributing")[0, :, 0].tolist() == [1, 0, -1]
    assert tests.pairs("P@3", "non-contributing").values.tolist() == [["c", "d"]]


def test_recanting_by_hand(flip):
    tests = budget_tests(flip, ["P@3"], seed=3, budgets=[4, 8, 12], estimators="S")
    rec = tests.recanting().query("run_set == 'contributing'").set_index(["budget_from", "budget_to"])
    assert rec.loc[(4, 4), ["significant_from", "recanted", "share"]].tolist() == [1, 0, 0.0]
    assert rec.loc[(4, 8), ["no_longer_significant", "reversed", "share"]].tolist() == [1, 0, 1.0]
    assert rec.loc[(4, 12), ["no_longer_significant", "reversed", "share"]].tolist() == [0, 1, 1.0]
    assert rec.loc[(8, 12), "significant_from"] == 0 and np.isnan(rec.loc[(8, 12), "share"])
    assert rec.loc[(12, 12), "share"] == 0.0
    assert len(rec) == 6  # budget_from ≤ budget_to
    table = tests.recanting_table("contributing")
    assert table.loc[("P@3", "X_S", 4), 12] == 1.0


def test_budgets_equal_budget_pool(flip):
    # every budget is budget_pool(judgments=N, seed=seed); the p-values are the t-tests of
    # the point estimates on that pool
    from irnb.datasets import simulate

    exp = simulate(seed=4, num_topics=12, num_runs=10, num_groups=5, docs_per_topic=800, run_depth=100,
                   pool_depth=20, median_relevant=30, novel_runs=1, keyword_runs=2).experiment
    budgets = [150, 600, exp.judgments.num_judgments]
    tests = budget_tests(exp, ["P@10", "RBP(p=0.8)"], seed=9, budgets=budgets)
    noncontrib = np.flatnonzero(~exp.contributors)
    for b, n in enumerate(budgets):
        pool = budget_pool(exp, judgments=n, seed=9)
        for measure in ("P@10", "RBP(p=0.8)"):
            iv = score_intervals(exp, measure, pool=pool)
            est = point_estimates(iv)
            for e, key in enumerate("SBIM"):
                values = np.where(iv.evaluated, est.get(key), np.nan)[noncontrib]
                expected = t_test(values).p_value
                got = tests.p_value(measure, "non-contributing")[e, b]
                np.testing.assert_allclose(got, expected, rtol=0, atol=0, equal_nan=True)


@pytest.fixture(scope="module")
def sim_tests() -> BudgetTests:
    from irnb.datasets import simulate

    exp = simulate(seed=8, num_topics=20, num_runs=14, num_groups=5, docs_per_topic=1000, run_depth=150,
                   pool_depth=30, median_relevant=30, novel_runs=2, keyword_runs=2).experiment
    return budget_tests(exp, seed=2)


def test_shares_and_fractions_lie_in_unit_interval(sim_tests):
    rec = sim_tests.recanting()
    counted = rec[rec["significant_from"] > 0]
    assert len(counted) > 0
    assert ((counted["share"] >= 0) & (counted["share"] <= 1)).all()
    assert rec[rec["significant_from"] == 0]["share"].isna().all()
    same = rec[rec["budget_from"] == rec["budget_to"]]
    assert (same.loc[same["significant_from"] > 0, "share"] == 0).all()
    assert (rec["recanted"] == rec["no_longer_significant"] + rec["reversed"]).all()
    sep = sim_tests.separability()
    assert ((sep["fraction"] >= 0) & (sep["fraction"] <= 1)).all()
    assert set(sep["estimator"]) == {"X_S", "X_B", "X_I", "X_M"}
    assert set(sep["measure"]) == {"P@10", "SDCG@100", "RBP(p=0.95)"}
    # a stricter level never separates more pairs
    strict = sim_tests.separability(alpha=0.001)
    assert (strict["significant"].to_numpy() <= sep["significant"].to_numpy()).all()


def test_full_budget_makes_estimators_agree_for_contributors(sim_tests):
    # with every judgment and P@10 inside the pool depth (30), contributing runs have no
    # unjudged document in their top 10: Δ = 0, so X_S = X_B = X_I = X_M
    sep = sim_tests.separability()
    full = sep[(sep["budget"] == sim_tests.total_judgments) & (sep["run_set"] == "contributing")
               & (sep["measure"] == "P@10")]
    assert full["fraction"].nunique() == 1


def test_default_budgets_and_errors(flip):
    # ⌈12 × (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1)⌉ = 1, 1, 1, 2, 3, 4, 6, 9, 12
    assert default_budgets(12) == (1, 2, 3, 4, 6, 9, 12)
    assert default_budgets(1000)[-1] == 1000
    with pytest.raises(ValueError, match="every budget must be an integer with 1 ≤ budget ≤ 12.*got 13"):
        budget_tests(flip, ["P@3"], seed=0, budgets=[13])
    with pytest.raises(ValueError, match="AP has no monotone bounds"):
        budget_tests(flip, ["AP"], seed=0)
    with pytest.raises(ValueError, match="estimator must be one of 'S' \\(simplistic\\).*got 'Q'"):
        budget_tests(flip, ["P@3"], seed=0, estimators="SQ")
    with pytest.raises(ValueError, match="background_rate \\(E\\) must be a number with 0 ≤ background_rate ≤ 1"):
        budget_tests(flip, ["P@3"], seed=0, background_rate=2.0)
    tests = budget_tests(flip, ["P@3"], seed=0, budgets=[12], estimators="smoothed")
    assert tests.estimators == ("M",)
    with pytest.raises(ValueError, match="alpha must be a number with 0 < alpha < 1"):
        tests.separability(alpha=0)
    with pytest.raises(KeyError, match="no tests for measure 'P@10'"):
        tests.p_value("P@10", "contributing")
