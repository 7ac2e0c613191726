"""Completed qrels (irnb.predict.completion): which documents are predicted, by hand on the toy
topic (KLD and SVM), the written policy for single-class topics, calibrated and seeded
probabilities, accuracy, and evaluation as an Experiment built from the completed qrels."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from predict_toy import POOL_DEPTH, small_collection, small_corpus_of, toy_experiment
from irnb import Experiment, evaluate
from irnb.pooling import depth_pool, random_subsample
from irnb.predict import (
    TermCounts,
    complete_qrels,
)


@pytest.fixture(scope="module")
def small():
    return small_collection()


@pytest.fixture(scope="module")
def small_corpus(small) -> TermCounts:
    return small_corpus_of(small)


def test_kld_completion_by_hand():
    """Train on a (relevant, cats) and b (not, stocks); u (cat purr whisker) is predicted
    relevant, v (market stock yield) not; v is not in the qrels and sits at rank 4 of r1
    and rank 1 of r2: both cells get its predicted grade 0."""
    exp, texts = toy_experiment()
    pool = np.array([True, True, False])  # entries a, b, u: u left out
    done = complete_qrels(exp, texts, depth=4, pool=pool, method="kld", probabilities=False)
    p = done.predicted
    assert p[["docno", "entry", "relevant", "grade"]].values.tolist() == [["u", 2, True, 1], ["v", -1, False, 0]]
    assert done.thresholds["relevant"].tolist() == [1] and done.thresholds["judged"].tolist() == [2]
    assert done.grade_array()[:, 0, :].tolist() == [[1, 1, 0, 0], [0, 0, 1, 1]]
    # both runs: P@2 = (a, u) 2/2 and (v, b) 0/2
    assert done.evaluate(["P@2"]).means()["P@2"].tolist() == [1.0, 0.0]
    # the probabilities of the two predictions without calibration: the smoothed rate (1 + 1)/(2 + 2)
    assert p["probability"].tolist() == [0.5, 0.5]
    graded = complete_qrels(exp, texts, depth=4, pool=pool, method="kld", relevant_grade=2)
    assert graded.predicted["grade"].tolist() == [2, 0]
    with pytest.raises(ValueError, match=r"relevant_grade must be an integer with relevance_level \(1\) ≤ "):
        complete_qrels(exp, texts, depth=4, method="kld", relevant_grade=0)


def test_within_qrels_runs_and_depth_select_the_predicted_documents():
    exp, texts = toy_experiment()
    pool = np.array([True, True, False])
    def docs(**kw):
        completed = complete_qrels(exp, texts, pool=pool, method="kld", probabilities=False, **kw)
        return completed.predicted["docno"].tolist()
    assert docs(depth=4) == ["u", "v"]
    assert docs(depth=4, within_qrels=True) == ["u"]
    assert docs(depth=1, runs=["r2"]) == ["v"]
    assert docs(depth=1, runs="r1") == []
    assert docs(targets=np.array([False, False, True])) == ["u"]


def test_parameter_errors_teach():
    exp, texts = toy_experiment()
    with pytest.raises(ValueError, match="depth .* is required"):
        complete_qrels(exp, texts, method="kld")
    with pytest.raises(ValueError, match="either targets= .* or depth="):
        complete_qrels(exp, texts, depth=4, targets=np.ones(3, bool), method="kld")
    with pytest.raises(ValueError, match=r"method must be one of 'svm' or 'kld', got 'bayes'"):
        complete_qrels(exp, texts, depth=4, method="bayes")
    with pytest.raises(ValueError, match=r"background_weight \(λ\) must be a number with 0 < background_weight < 1"):
        complete_qrels(exp, texts, depth=4, method="kld", background_weight=1.0)
    with pytest.raises(ValueError, match="boolean mask over the Experiment's 3 qrels entries"):
        complete_qrels(exp, texts, depth=4, method="kld", pool=np.ones(5, bool))
    with pytest.raises(ValueError, match="unknown run 'r3'; did you mean"):
        complete_qrels(exp, texts, depth=4, method="kld", runs=["r3"])


def test_single_class_topics_follow_the_written_policy():
    exp, texts = toy_experiment()
    # only b (non-relevant) judged: nothing is predicted relevant, probability (0 + 1)/(1 + 2)
    none = complete_qrels(exp, texts, depth=4, pool=np.array([False, True, False]), method="kld")
    assert not none.predicted["relevant"].any()
    assert none.predicted["probability"].tolist() == pytest.approx([1 / 3] * 3)
    # only a (relevant) judged: everything is predicted relevant
    every = complete_qrels(exp, texts, depth=4, pool=np.array([True, False, False]), method="svm")
    assert every.predicted["relevant"].all() and np.isnan(every.predicted["score"]).all()


def test_svm_separates_a_clear_toy_topic():
    pytest.importorskip("sklearn")
    exp, texts = toy_experiment()
    done = complete_qrels(exp, texts, depth=4, pool=np.array([True, True, False]), method="svm")
    assert done.predicted.set_index("docno")["relevant"].to_dict() == {"u": True, "v": False}
    u, v = done.predicted.set_index("docno")["score"]
    assert u > 0 > v


def test_svm_marks_positive_decision_values_relevant_by_default(small, small_corpus):
    """The SVM's default is SVMlight's sign cut-off, not "as many as training had relevant";
    the count rule stays available by name (and is the KLD classifier's)."""
    pytest.importorskip("sklearn")
    exp = small.experiment
    pool = random_subsample(exp, fraction=0.2, seed=5)
    kw = dict(pool=pool, targets=~pool.judged, method="svm", probabilities=False, seed=0)
    default = complete_qrels(exp, small_corpus, **kw)
    count = complete_qrels(exp, small_corpus, decision_rule="count", **kw)
    p, q = default.predicted, count.predicted
    scored = p["score"].notna().to_numpy()
    assert (p["relevant"].to_numpy()[scored] == (p["score"].to_numpy()[scored] > 0)).all()
    assert (default.thresholds["threshold"][np.isfinite(default.thresholds["threshold"])] == 0).all()
    cut = count.thresholds.set_index("topic").loc[q["topic"], "threshold"].to_numpy()
    assert (q["relevant"].to_numpy()[scored] == (q["score"].to_numpy() >= cut)[scored]).all()
    np.testing.assert_array_equal(p["score"], q["score"])  # the same SVM, cut in two places
    assert (p["relevant"] != q["relevant"]).any()
    assert default.settings["decision_rule"] == "sign" and count.settings["decision_rule"] == "count"
    kld = complete_qrels(exp, small_corpus, **{**kw, "method": "kld"})
    assert kld.settings["decision_rule"] == "count"
    with pytest.raises(ValueError, match=r"decision_rule='sign' needs decision values that change sign"):
        complete_qrels(exp, small_corpus, **{**kw, "method": "kld"}, decision_rule="sign")
    with pytest.raises(ValueError, match=r"decision_rule must be one of 'sign' or 'count' \(or None: the method's "
                                         r"own\), got 'median'"):
        complete_qrels(exp, small_corpus, decision_rule="median", **kw)


@pytest.mark.parametrize("method", ["kld", "svm"])
def test_probabilities_are_calibrated_monotone_and_seeded(small, small_corpus, method):
    if method == "svm":
        pytest.importorskip("sklearn")
    exp = small.experiment
    pool = depth_pool(exp, depth=5)
    done = complete_qrels(exp, small_corpus, depth=POOL_DEPTH, within_qrels=True, pool=pool, method=method, seed=3)
    p = done.predicted
    assert ((p["probability"] >= 0) & (p["probability"] <= 1)).all()
    for _, topic in p[done.thresholds.set_index("topic").loc[p["topic"], "calibrated"].to_numpy()].groupby("topic"):
        ordered = topic.sort_values("score")["probability"].to_numpy()
        assert np.all(np.diff(ordered) >= -1e-12)  # a higher score never gets a lower probability
    again = complete_qrels(exp, small_corpus, depth=POOL_DEPTH, within_qrels=True, pool=pool, method=method, seed=3)
    pd.testing.assert_frame_equal(p, again.predicted)


def test_completed_qrels_evaluate_like_an_experiment_built_from_them(small, small_corpus):
    exp = small.experiment
    pool = depth_pool(exp, depth=10)
    # every run, depth 20: some predicted documents are outside the official qrels
    done = complete_qrels(exp, small.documents, depth=POOL_DEPTH, pool=pool, method="kld")
    assert (done.predicted["entry"] < 0).any() and (done.predicted["entry"] >= 0).any()
    rebuilt = Experiment(exp.runs, done.qrels)
    assert rebuilt.topics == exp.topics
    measures = ["P@10", "P@20", "AP", "nDCG@20", "Bpref", "P@20(j)", "RR", "RBP(p=0.8)", "infAP", "RankEff"]
    fast = done.evaluate(measures).means()
    slow = evaluate(rebuilt, measures).means()
    pd.testing.assert_frame_equal(fast, slow, atol=1e-12)
    frame = done.frame()
    assert int(frame["predicted"].sum()) == len(done.predicted)
    assert int((~frame["predicted"]).sum()) == int(pool.judged.sum())


def test_accuracy_by_hand():
    exp, texts = toy_experiment()
    done = complete_qrels(exp, texts, depth=4, pool=np.array([True, True, False]), method="kld",
                          probabilities=False)
    acc = done.accuracy()  # only u has an official grade: predicted relevant, truly relevant
    assert acc[["assessed", "relevant", "predicted_relevant", "true_positive"]].values.tolist() == [[1, 1, 1, 1]]
    assert acc[["precision", "recall", "f1"]].values.tolist() == [[1.0, 1.0, 1.0]]
    with pytest.raises(ValueError, match="needs an Experiment built with truth="):
        done.accuracy(truth=True)


def test_accuracy_macro_averages_precision_recall_f1(small, small_corpus):
    """Table 6: train on 20% of the qrels, predict the other 80%; per topic,
    precision = TP / predicted relevant and recall = TP / relevant, checked by hand."""
    exp = small.experiment
    pool = random_subsample(exp, fraction=0.2, seed=7)
    done = complete_qrels(exp, small_corpus, pool=pool, targets=~pool.judged, method="kld", probabilities=False)
    assert len(done.predicted) == int((~pool.judged).sum())
    acc = done.accuracy()
    p = done.predicted
    truth = exp.judgments.qrel_grade[p["entry"].to_numpy()] >= 1
    for topic, row in acc.set_index("topic").iterrows():
        sel = (p["topic"] == topic).to_numpy()
        tp = int((truth[sel] & p["relevant"].to_numpy()[sel]).sum())
        assert row["true_positive"] == tp
        guessed, relevant = int(p["relevant"][sel].sum()), int(truth[sel].sum())
        assert row["precision"] == pytest.approx(tp / guessed if guessed else math.nan, nan_ok=True)
        assert row["recall"] == pytest.approx(tp / relevant if relevant else math.nan, nan_ok=True)
    train = pool.judged & (exp.judgments.qrel_grade >= 0)
    expected_r = np.bincount(exp.judgments.qrel_topic[train & (exp.judgments.qrel_grade >= 1)],
                             minlength=len(exp.topics))
    assert done.thresholds["relevant"].tolist() == expected_r.tolist()


def test_completed_qrels_evaluate_at_their_relevance_level():
    """The toy completion with relevant_grade=2 (a: 1, u: 2): at relevance level 2 only u is
    relevant, so P@2 = (a, u) 1/2 for r1 and (v, b) 0/2 for r2, as evaluate(-l 2) gives on
    an Experiment built from the completed qrels."""
    import dataclasses

    exp, texts = toy_experiment()
    pool = np.array([True, True, False])
    graded = complete_qrels(exp, texts, depth=4, pool=pool, method="kld", relevant_grade=2)
    level2 = dataclasses.replace(graded, relevance_level=2)
    assert level2.view().relevance_level == 2
    assert level2.evaluate(["P@2"]).means()["P@2"].tolist() == [0.5, 0.0]
    rebuilt = evaluate(Experiment(exp.runs, level2.qrels), ["P@2"], relevance_level=2)
    assert rebuilt.means()["P@2"].tolist() == [0.5, 0.0]
    assert graded.evaluate(["P@2"]).means()["P@2"].tolist() == [1.0, 0.0]  # level 1: a and u
