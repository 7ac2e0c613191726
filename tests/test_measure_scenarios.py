"""Optimistic and pessimistic scenarios of AP, nDCG and bpref (irnb.measure_scenarios): hand-computed
values, the refusal of the measures that have intervals instead, and trec_eval's rules on random runs
and qrels (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import build_experiment, ranked_collections

from irnb import Experiment, evaluate
from irnb.measure_scenarios import scenarios
from irnb.pooling import depth_pool

TOL = 1e-12


def _exp(ranking: list[str], qrels: dict[str, int], **kwargs) -> Experiment:
    run = pd.DataFrame({"qid": "1", "docno": ranking, "score": np.arange(len(ranking), 0, -1, dtype=float)})
    q = pd.DataFrame({"qid": "1", "docno": list(qrels), "grade": list(qrels.values())})
    return Experiment(run, q, **kwargs)


# ranking a b c d e f g h i j: a c e relevant, b d non-relevant, f..j unjudged
TEN = [f"{c}" for c in "abcdefghij"]
TEN_QRELS = {"a": 1, "b": 0, "c": 2, "d": 0, "e": 1}


def test_ap_scenarios_by_hand():
    # ranking x (unjudged) a (rel) y (unjudged) b (non-rel); R = 2 (a and z)
    e = _exp(["x", "a", "y", "b"], {"a": 1, "b": 0, "z": 1})
    sc = scenarios(e, "AP")
    # pessimistic = official: (1/2) / 2 = 0.25. optimistic: x a y relevant, R = 4:
    # (1/1 + 2/2 + 3/3) / 4 = 0.75
    assert [float(sc.pessimistic[0, 0]), float(sc.official[0, 0]), float(sc.optimistic[0, 0])] == pytest.approx(
        [0.25, 0.25, 0.75])
    assert set(sc.to_frame()["scenario"]) == {"pessimistic", "official", "optimistic"}


def test_bpref_scenarios_by_hand():
    # ranking a (rel) x (unjudged) n (non-rel) b (rel); R = 2, N = 1.
    e = _exp(["a", "x", "n", "b"], {"a": 1, "b": 1, "n": 0})
    sc = scenarios(e, "Bpref")
    # official: a: 1; b: 1 − min(1, 2)/min(1, 2) = 0 → 1/2.
    # pessimistic: x judged non-relevant, N = 2: a 1; b 1 − min(2,2)/min(2,2) = 0 → 1/2.
    # optimistic: x relevant, R = 3, N = 1: a 1, x 1, b 1 − 1/1 = 0 → 2/3.
    assert float(sc.official[0, 0]) == pytest.approx(0.5)
    assert float(sc.pessimistic[0, 0]) == pytest.approx(0.5)
    assert float(sc.optimistic[0, 0]) == pytest.approx(2 / 3)


def test_bpref_pessimistic_counts_unjudged_as_nonrelevant():
    # ranking x (unjudged) a (rel); R = 1, N = 1 (n unretrieved).
    # official: x skipped → 1. pessimistic: x non-rel, N = 2: 1 − min(1,1)/min(2,1) = 0.
    sc = scenarios(_exp(["x", "a"], {"a": 1, "n": 0}), "Bpref")
    assert [float(sc.pessimistic[0, 0]), float(sc.official[0, 0])] == [0.0, 1.0]


def test_ndcg_scenarios_by_hand():
    # ranking x (unjudged) a (grade 1); qrels a 1, z 2 (top grade 2).
    e = _exp(["x", "a"], {"a": 1, "z": 2})
    sc = scenarios(e, "nDCG")
    ideal = 2 + 1 / math.log2(3)
    assert float(sc.official[0, 0]) == pytest.approx((1 / math.log2(3)) / ideal)
    # optimistic: x gains 2; ideal list 2, 2, 1
    opt_ideal = 2 + 2 / math.log2(3) + 1 / 2
    assert float(sc.optimistic[0, 0]) == pytest.approx((2 + 1 / math.log2(3)) / opt_ideal)


def test_scenarios_refuse_interval_measures():
    with pytest.raises(ValueError, match=r"scenarios exist for AP, nDCG and Bpref, got P@10; P@k, RBP and SDCG@k"):
        scenarios(_exp(TEN, TEN_QRELS), "P@10")


@settings(max_examples=40, deadline=None)
@given(ranked_collections(), st.sampled_from(["AP", "AP@5", "nDCG", "nDCG@5", "Bpref"]), st.integers(1, 5))
def test_scenarios_agree_with_trec_eval_rules(collection, measure, depth):
    runs, qrels, contributors = collection
    e = build_experiment(runs, qrels, contributors)
    pool = depth_pool(e, depth=depth)
    sc = scenarios(e, measure, pool=pool)
    official = evaluate(e, measure, judged=pool.judged)[measure]
    np.testing.assert_allclose(sc.official, official, atol=1e-12)
    if not measure.startswith("Bpref"):  # unjudged already count as non-relevant in AP and nDCG
        np.testing.assert_allclose(sc.pessimistic, official, atol=1e-12)
    # (pessimistic bpref can exceed the official value: more non-relevant documents raise
    # min(N, R) in its denominator — one reason these are scenarios, not bounds)
    # with nothing unjudged in a ranking, every scenario is the official value
    pooled = {(t, d) for c in contributors for t, docs in runs[c] for d in docs[:depth]}
    for s, name in enumerate(e.run_names):
        for t, docs in runs[name]:
            ti = e.topics.index(t)
            if all(qrels.get((t, d), -1) >= 0 and (t, d) in pooled for d in docs):
                assert sc.optimistic[s, ti] == pytest.approx(official[s, ti], abs=1e-12)
                assert sc.pessimistic[s, ti] == pytest.approx(official[s, ti], abs=1e-12)
    assert np.all((sc.optimistic >= 0) & (sc.optimistic <= 1 + TOL))
