"""Expected measures from relevance probabilities (irnb.predict.expected): exactly the score
interval's ends at probabilities 0 and 1, inside it otherwise, by hand on the toy topic, and
errors naming what was passed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from predict_toy import toy_experiment
from irnb.datasets import simulate
from irnb.intervals import score_intervals
from irnb.predict import expected_precision, expected_rbp


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.floats(0.1, 0.95))
def test_expected_measures_span_exactly_the_interval(seed, k, p):
    exp = _SMALL_EXP()
    rng = np.random.default_rng(seed)
    pool = rng.random(exp.judgments.num_judgments) < 0.5
    S, T, D = exp.shape
    zeros, ones = np.zeros((S, T, D)), np.ones((S, T, D))
    probs = rng.random((S, T, D))
    iv = score_intervals(exp, f"P@{k}", pool=pool)
    np.testing.assert_allclose(expected_precision(exp, zeros, k, pool), iv.lower, atol=1e-12)
    np.testing.assert_allclose(expected_precision(exp, ones, k, pool), iv.upper, atol=1e-12)
    x = expected_precision(exp, probs, k, pool)
    assert np.all(iv.lower - 1e-12 <= x) and np.all(x <= iv.upper + 1e-12)
    rbp = score_intervals(exp, f"RBP(p={p})", pool=pool)
    np.testing.assert_allclose(expected_rbp(exp, zeros, p, pool), rbp.lower, atol=1e-12)
    y = expected_rbp(exp, probs, p, pool)
    assert np.all(rbp.lower - 1e-12 <= y) and np.all(y <= rbp.upper + 1e-12)


_CACHE: dict = {}


def _SMALL_EXP():
    if "exp" not in _CACHE:
        _CACHE["exp"] = simulate(seed=4, num_topics=3, num_runs=5, num_groups=3, docs_per_topic=300, run_depth=40,
                                 pool_depth=10, median_relevant=10, novel_runs=1, keyword_runs=1).experiment
    return _CACHE["exp"]


def test_expected_measure_errors():
    exp, _ = toy_experiment()
    with pytest.raises(ValueError, match=r"probabilities must lie in \[0, 1\]"):
        expected_precision(exp, pd.DataFrame({"topic": ["1"], "docno": ["u"], "probability": [1.5]}), 2)
    with pytest.raises(ValueError, match="needs columns topic, docno, probability"):
        expected_precision(exp, pd.DataFrame({"topic": ["1"], "docno": ["u"]}), 2)
    with pytest.raises(ValueError, match=r"an array of shape \(2, 1, 4\)"):
        expected_precision(exp, np.zeros((2, 1, 3)), 2)
    with pytest.raises(ValueError, match="depth must be an integer ≥ 1, got 0"):
        expected_precision(exp, np.zeros((2, 1, 4)), 0)


def test_expected_precision_with_a_document_outside_the_qrels():
    # v (not in the qrels) at rank 4 of r1 and rank 1 of r2, probability 0.5; u judged relevant
    exp, _ = toy_experiment()
    probs = pd.DataFrame({"topic": ["1"], "docno": ["v"], "probability": [0.5]})
    assert expected_precision(exp, probs, 4).tolist() == [[(1 + 1 + 0 + 0.5) / 4], [(0.5 + 0 + 1 + 1) / 4]]
    # background_rate fills unjudged documents without a prediction
    assert expected_precision(exp, probs.iloc[:0], 1, background_rate=0.25).tolist() == [[1.0], [0.25]]
