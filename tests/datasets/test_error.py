"""irnb.datasets.error: an estimator's error against the simulated truth — aggregated as the
measure is, GMAP per run a geometric mean, point estimates with an estimator letter, and
errors that teach."""

from __future__ import annotations

import numpy as np
import pandas as pd
import re
import pytest

from irnb import Experiment, evaluate
from irnb.datasets import (
    Collection,
    estimator_error,
    simulate,
)

from sim_collections import SMALL


@pytest.fixture(scope="module")
def small() -> Collection:
    return simulate(7, **SMALL)


def test_truth_evaluation_and_estimator_error(small):
    exp = small.experiment
    true = evaluate(exp, ["P@10"], truth=True)
    values = true["P@10"]
    exact = estimator_error(small, "P@10", values)
    assert exact.bias == 0 and exact.rmse == 0 and exact.kendall_tau == pytest.approx(1.0)
    shifted = estimator_error(small, "P@10", values + 0.1)
    assert shifted.level == "topic"
    assert shifted.bias == pytest.approx(0.1) and shifted.rmse == pytest.approx(0.1)
    assert shifted.max_abs_error == pytest.approx(0.1)
    per_run = estimator_error(exp, "P@10", true.aggregate("P@10") - 0.05)
    assert per_run.level == "run" and per_run.bias == pytest.approx(-0.05) and per_run.rmse == pytest.approx(0.05)
    assert list(per_run.per_run.columns) == ["run", "estimate", "truth", "error"]
    # the official (pooled) P@10 underestimates the truth: unjudged documents count as non-relevant
    pooled = estimator_error(small, "P@10", evaluate(exp, ["P@10"])["P@10"])
    assert pooled.bias <= 0


@pytest.mark.parametrize("measure", ["GMAP", "NumRel"])
def test_estimator_error_aggregates_as_the_measure_does(small, measure):
    # GMAP averages geometrically, NumRel sums: the truth's own per-topic values as the
    # estimate must give zero error for every run, and the per-run estimate is the truth's aggregate
    true = evaluate(small.experiment, [measure], truth=True)
    exact = estimator_error(small, measure, true[measure])
    assert exact.bias == 0 and exact.rmse == 0 and exact.max_abs_error == 0
    assert np.allclose(exact.per_run["error"], 0.0, rtol=0, atol=1e-12)
    assert np.allclose(exact.per_run["estimate"], true.aggregate(measure), rtol=1e-12, atol=0)


def test_estimator_error_gmap_per_run_is_the_geometric_mean():
    # one run, two topics with AP 1 and 1/2: GMAP = √(1 · 1/2) = 0.7071 (the arithmetic mean is 0.75)
    run = pd.DataFrame({"run": "a", "qid": ["1", "1", "2", "2"], "docno": ["x", "y", "x", "y"],
                        "score": [2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["x", "y", "x", "y"], "grade": [1, 0, 0, 1]})
    exp = Experiment(run, qrels, truth=qrels)
    err = estimator_error(exp, "GMAP", np.array([[1.0, 0.5]]))
    assert err.per_run["estimate"].tolist() == pytest.approx([0.5 ** 0.5])
    assert err.per_run["truth"].tolist() == pytest.approx([0.5 ** 0.5])
    assert err.per_run["error"].tolist() == pytest.approx([0.0], abs=1e-12)


def test_estimator_error_teaches(small):
    with pytest.raises(ValueError, match=r"shape \(S, T\) = \(8, 4\) or \(S,\) = \(8,\).*got \(3,\)"):
        estimator_error(small, "AP", np.zeros(3))
    with pytest.raises(ValueError, match="finite numbers, got nan"):
        estimator_error(small, "AP", np.full(8, np.nan))
    with pytest.raises(ValueError, match="has no truth"):
        estimator_error(Experiment(dict(small.runs), small.qrels), "AP", np.zeros(8))
    with pytest.raises(TypeError, match="expected a simulated Collection or an Experiment"):
        estimator_error("x", "AP", np.zeros(8))


def test_estimator_error_takes_point_estimates_and_an_estimator():
    import irnb
    from irnb.datasets import default, estimator_error

    collection = default()
    exp = collection.experiment
    est = irnb.point_estimates(irnb.score_intervals(exp, "P@10", pool=irnb.depth_pool(exp, depth=20)))
    for letter in "SBIM":
        assert estimator_error(collection, "P@10", est, estimator=letter).rmse == \
            estimator_error(collection, "P@10", est.get(letter)).rmse
    with pytest.raises(ValueError, match=re.escape("name one with estimator='S', 'B', 'I' or 'M'")):
        estimator_error(collection, "P@10", est)
    with pytest.raises(ValueError, match=re.escape("the PointEstimates are of P@10, the measure asked for is P@20")):
        estimator_error(collection, "P@20", est, estimator="M")
    with pytest.raises(ValueError, match=re.escape("estimates is a ndarray, drop estimator='M'")):
        estimator_error(collection, "P@10", est.get("M"), estimator="M")
