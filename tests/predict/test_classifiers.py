"""The relevance classifiers (irnb.predict.classifiers): the KLD score by hand and against its dense
formula, the threshold that passes exactly R training documents, the SVM's sign and count rules,
and Platt's calibration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb.predict.classifiers import decide, neg_kld, platt_fit, relevance_threshold
from irnb.predict import term_counts


def test_kld_by_hand():
    """Corpus r = "a a" (relevant), n = "b b", u = "a b": background (0.5, 0.5), λ = 0.2.
    M_R = 0.8·(1, 0) + 0.2·(0.5, 0.5) = (0.9, 0.1); M_u = (0.5, 0.5), M_n = (0.1, 0.9).
    KLD(u ‖ R) = 0.5 ln(0.5/0.9) + 0.5 ln(0.5/0.1) = ln(5/3) = 0.5108;
    KLD(n ‖ R) = 0.1 ln(1/9) + 0.9 ln 9 = 0.8 ln 9 = 1.7578; KLD(r ‖ R) = 0."""
    tc = term_counts({"r": "a a", "n": "b b", "u": "a b"}, ["r", "n", "u"])
    scores = neg_kld(tc.counts, tc.lengths, tc.background, np.array([0, 1]), np.array([True, False]),
                      np.array([0, 1, 2]), 0.2)
    np.testing.assert_allclose(-scores, [0.0, 0.8 * math.log(9), math.log(5 / 3)], atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.05, 0.95))
def test_kld_matches_the_dense_formula(seed, lam):
    rng = np.random.default_rng(seed)
    words = ["w0", "w1", "w2", "w3", "w4"]
    texts = {f"d{i}": " ".join(rng.choice(words, size=rng.integers(0, 8))) for i in range(6)}
    texts["d0"] = "w0 w1"  # at least one relevant document with text
    tc = term_counts(texts, list(texts))
    counts = tc.counts.toarray()
    train, labels = np.array([0, 1, 2]), np.array([True, rng.random() < 0.5, False])
    rows = np.arange(6)
    got = -neg_kld(tc.counts, tc.lengths, tc.background, train, labels, rows, lam)
    bg = counts.sum(0) / counts.sum()
    rel = counts[train[labels]].sum(0)
    p_r = (1 - lam) * rel / rel.sum() + lam * bg
    for i in rows:
        length = counts[i].sum()
        p_d = (1 - lam) * counts[i] / length + lam * bg if length else bg
        expected = np.sum(np.where(p_d > 0, p_d * np.log(p_d / p_r), 0.0))
        assert got[i] == pytest.approx(expected, abs=1e-10)


def test_threshold_by_hand():
    assert relevance_threshold(np.array([0.9, 0.7, 0.4, 0.1]), 2) == pytest.approx(0.55)
    assert relevance_threshold(np.array([0.3, 0.2]), 0) == math.inf
    assert relevance_threshold(np.array([0.3, 0.2]), 2) == -math.inf


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-100, 100), min_size=1, max_size=40, unique=True), st.data())
def test_threshold_passes_exactly_r_training_documents(scores, data):
    scores = np.array(scores)
    r = data.draw(st.integers(0, scores.size))
    assert int((scores >= relevance_threshold(scores, r)).sum()) == r


def test_sign_and_count_rules_differ_by_hand():
    # decision values 0.3, 0.1, -0.2 with R = 1 of the training documents relevant and a
    # count threshold of 0.2: the count rule passes one document, SVMlight's sign rule two
    scores = np.array([0.3, 0.1, -0.2])
    assert decide(scores, 0.2, "count").tolist() == [True, False, False]
    assert decide(scores, 0.0, "sign").tolist() == [True, True, False]
    # and the other way round: a negative count threshold passes a negative decision value
    assert decide(scores, -0.3, "count").tolist() == [True, True, True]
    assert decide(np.array([0.0]), 0.0, "sign").tolist() == [False]  # exactly 0 is not positive


def test_platt_recovers_a_logistic_model(rng):
    scores = rng.normal(size=4000)
    labels = rng.random(4000) < 1 / (1 + np.exp(-(2.0 * scores - 1.0)))  # A = −2, B = 1
    a, b = platt_fit(scores, labels)
    assert a == pytest.approx(-2.0, abs=0.2) and b == pytest.approx(1.0, abs=0.15)


def test_threshold_between_adjacent_floats_passes_exactly_r():

    # 5e-324 and 0.0 are adjacent doubles: their midpoint rounds to 0.0, which would let the
    # two 0.0 scores pass too; the threshold must sit strictly above the (R + 1)-th score.
    scores = np.array([5e-324, 0.0, 0.0])
    threshold = relevance_threshold(scores, 1)
    assert int((scores >= threshold).sum()) == 1
    # ordinary case: halfway, (0.7 + 0.4) / 2 = 0.55
    assert relevance_threshold(np.array([0.9, 0.7, 0.4, 0.1]), 2) == pytest.approx(0.55)


def test_kld_with_the_collections_background_matches_the_dense_formula():
    # documents read: r = "a a" (relevant), n = "b b", u = "a b", e = "" (empty); the collection's
    # statistics, not the documents read, give M_C = (2, 4, 6)/12 over a, b, c, with c in no
    # document read: it adds nothing to KLD except for the empty document, whose model is M_C
    import pyarrow as pa
    from irnb.predict import CollectionStatistics

    stats = CollectionStatistics(pa.array(["a", "b", "c"]), np.array([2, 4, 6]), np.array([2, 2, 3]), num_documents=7)
    tc = term_counts({"r": "a a", "n": "b b", "u": "a b", "e": ""}, ["r", "n", "u", "e"], collection=stats)
    lam = 0.2
    got = -neg_kld(tc.counts, tc.lengths, tc.background, np.array([0, 1]), np.array([True, False]),
                   np.array([0, 1, 2, 3]), lam)
    bg = np.array([2, 4, 6]) / 12
    p_r = (1 - lam) * np.array([1, 0, 0]) + lam * bg
    docs = np.array([[2, 0, 0], [0, 2, 0], [1, 1, 0], [0, 0, 0]], dtype=float)
    for i, d in enumerate(docs):
        p_d = (1 - lam) * d / d.sum() + lam * bg if d.sum() else bg
        assert got[i] == pytest.approx(np.sum(p_d * np.log(p_d / p_r)), abs=1e-12)
    # the documents-read background differs: the collection's statistics are what changed the scores
    alone = term_counts({"r": "a a", "n": "b b", "u": "a b", "e": ""}, ["r", "n", "u", "e"])
    assert not np.allclose(got, -neg_kld(alone.counts, alone.lengths, alone.background, np.array([0, 1]),
                                         np.array([True, False]), np.array([0, 1, 2, 3]), lam))
