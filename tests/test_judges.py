"""irnb.judges: the simulated judge's parameters, Cohen's κ, τ among the top runs, and the
study of "fill only the holes" against "judge the whole pool"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb import Experiment, Qrels
from irnb.datasets import default, simulate
from irnb.datasets.model import FAMILY_NAMES
from irnb.judges import (QRELS_KINDS, agreement, classifier_judge, cohen_kappa, judge_entries, judge_study,
                         simulated_grades, simulated_judge, top_tau)


@pytest.fixture(scope="module")
def small():
    return simulate(seed=4, num_topics=4, num_runs=8, num_groups=4, docs_per_topic=600, run_depth=60,
                    pool_depth=10, median_relevant=25, novel_runs=1, keyword_runs=2)


@pytest.fixture(scope="module")
def collection():
    return default()


def _binomial_ok(hits: int, n: int, p: float, sds: float = 4.0) -> bool:
    """``hits`` of ``n`` is within ``sds`` binomial standard deviations of ``n·p``."""
    return abs(hits - n * p) <= sds * np.sqrt(n * p * (1 - p)) + 1e-9


def _family(collection, name: str) -> np.ndarray:
    return collection.family == FAMILY_NAMES.index(name)


# ------------------------------------------------------------------ the simulated judge
def test_a_perfect_judge_gives_the_truth_exactly(collection):
    judged = simulated_judge(collection, accuracy=1.0, leniency=0.0, word_bias=0.0, seed=7)
    assert judged.table.equals(collection.truth.table)
    assert isinstance(judged, Qrels)


def test_a_judge_with_errors_is_not_the_truth_and_the_same_seed_is_the_same_judge(small):
    a = simulated_grades(small, accuracy=0.7, leniency=0.1, seed=1)
    truth = small.truth.table["grade"].to_numpy().reshape(small.family.shape)
    assert (a != truth).any()
    assert (a == simulated_grades(small, accuracy=0.7, leniency=0.1, seed=1)).all()
    assert (a != simulated_grades(small, accuracy=0.7, leniency=0.1, seed=2)).any()


def test_leniency_makes_false_positives_at_its_rate(collection):
    leniency = 0.2
    grades = simulated_grades(collection, leniency=leniency, seed=3)
    truth = collection.truth.table["grade"].to_numpy().reshape(grades.shape)
    plain = (truth == 0) & ~_family(collection, "near-title")      # no title words: the rate is ℓ alone
    hits, n = int((grades[plain] >= 1).sum()), int(plain.sum())
    assert _binomial_ok(hits, n, leniency), (hits, n)
    assert not _binomial_ok(hits, n, leniency + 0.01)               # the tolerance is tighter than one point
    assert (grades[truth > 0] == truth[truth > 0]).all()          # accuracy 1: relevant documents untouched
    # more leniency, same seed: the same false positives and more
    more = simulated_grades(collection, leniency=0.3, seed=3)
    was = (grades >= 1) & (truth == 0)
    assert (more[was] >= 1).all() and ((more >= 1) & (truth == 0)).sum() > was.sum()


def test_accuracy_per_grade_keeps_each_grade_at_its_rate_and_errs_evenly(collection):
    grades = simulated_grades(collection, accuracy=(0.6, 0.9), seed=5)
    truth = collection.truth.table["grade"].to_numpy().reshape(grades.shape)
    for g, rate in ((1, 0.6), (2, 0.9)):
        mask = truth == g
        assert _binomial_ok(int((grades[mask] == g).sum()), int(mask.sum()), rate)
    ones = grades[truth == 1]
    wrong = ones[ones != 1]
    assert set(np.unique(wrong)) == {0, 2}
    assert _binomial_ok(int((wrong == 0).sum()), wrong.size, 0.5)   # the other grades, each as likely
    assert (grades[truth == 0] == 0).all()                          # leniency 0: no false positives


def test_word_bias_favours_documents_with_the_title_words(collection):
    leniency, bias = 0.1, 0.5
    grades = simulated_grades(collection, leniency=leniency, word_bias=bias, seed=11)
    title, near = _family(collection, "near-title"), _family(collection, "near")
    title_rate = (grades[title] >= 1).mean()
    assert _binomial_ok(int((grades[title] >= 1).sum()), int(title.sum()), leniency + bias * (1 - leniency))
    assert _binomial_ok(int((grades[near] >= 1).sum()), int(near.sum()), leniency)
    assert title_rate > 3 * (grades[near] >= 1).mean()
    unbiased = simulated_grades(collection, leniency=leniency, word_bias=0.0, seed=11)
    assert _binomial_ok(int((unbiased[title] >= 1).sum()), int(title.sum()), leniency)


@pytest.mark.parametrize("kwargs, message", [
    ({"leniency": 1.5}, "simulated_judge: leniency must be a number with 0 ≤ leniency ≤ 1, got 1.5"),
    ({"word_bias": -0.1}, "simulated_judge: word_bias must be a number with 0 ≤ word_bias ≤ 1, got -0.1"),
    ({"accuracy": (0.9,)}, "simulated_judge: accuracy must be one number, or one per relevant grade 1..2 "
                           "(2 numbers), got (0.9,)"),
    ({"accuracy": 2}, "simulated_judge: accuracy must be a number with 0 ≤ accuracy ≤ 1, got 2"),
])
def test_the_judges_errors_name_the_parameter(small, kwargs, message):
    with pytest.raises(ValueError) as caught:
        simulated_judge(small, **kwargs)
    assert str(caught.value) == message


# ------------------------------------------------------------------ Cohen's κ, by hand
JUDGE = [0, 0, 1, 1, 2, 2, 0, 1, 2, 0]
REFERENCE = [0, 1, 1, 1, 2, 0, 0, 0, 2, 0]


def test_cohen_kappa_by_hand():
    # 7 of 10 alike; judge uses 0/1/2 4, 3, 3 times, the reference 5, 3, 2: p_e = .4·.5 + .3·.3 + .3·.2 = .35
    assert cohen_kappa(JUDGE, REFERENCE) == pytest.approx((0.7 - 0.35) / 0.65)
    assert np.isnan(cohen_kappa([1, 1], [1, 1]))                  # one label each, the same: chance is certain
    assert cohen_kappa([1, 0], [0, 1]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="same items, got 2 and 3 labels"):
        cohen_kappa([1, 0], [0, 1, 1])


def test_agreement_per_level_by_hand():
    table = agreement(JUDGE, REFERENCE).set_index("level")
    assert list(table.index) == ["≥1", "≥2", "grades"]
    # ≥1: judge relevant 6/10, reference 5/10; 7 alike; p_e = .6·.5 + .4·.5 = .5 → κ = .4; FP 2 of 5, FN 1 of 5
    assert table.loc["≥1", ["observed", "expected", "kappa", "false_positive_rate", "false_negative_rate"]].tolist() \
        == pytest.approx([0.7, 0.5, 0.4, 0.4, 0.2])
    # ≥2: judge 3/10, reference 2/10; 9 alike; p_e = .3·.2 + .7·.8 = .62 → κ = .28/.38
    assert table.loc["≥2", "kappa"] == pytest.approx(0.28 / 0.38)
    assert table.loc["grades", "kappa"] == pytest.approx(0.35 / 0.65)
    assert np.isnan(table.loc["grades", "false_positive_rate"])


# ------------------------------------------------------------------ τ among the top runs
def test_top_tau_reads_only_the_best_runs():
    reference = [0.9, 0.8, 0.7, 0.1, 0.2]
    swapped_bottom = [0.9, 0.8, 0.7, 0.3, 0.05]    # the two worst swapped: τ over all < 1, among the top 3 = 1
    assert irnb.bias.kendall_tau(reference, swapped_bottom) == pytest.approx(1 - 2 * 1 / 10)
    assert top_tau(reference, swapped_bottom, top=3) == 1.0
    swapped_top = [0.8, 0.9, 0.7, 0.1, 0.2]         # the two best swapped: τ among the top 2 = −1
    assert top_tau(reference, swapped_top, top=2) == -1.0
    assert top_tau(reference, swapped_top, top=10) == irnb.bias.kendall_tau(reference, swapped_top)
    with pytest.raises(ValueError, match=r"top_tau: top \(the best runs by the reference\) must be an integer ≥ 1, "
                                         r"got 0"):
        top_tau(reference, swapped_top, top=0)


# ------------------------------------------------------------------ the study
def test_study_by_hand():
    runs = pd.DataFrame({"run": ["x"] * 3 + ["y"] * 3, "qid": "1", "docno": list("acbcba"), "score": [3, 2, 1] * 2})
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": list("abc"), "grade": [1, 1, 0]}))
    # misses a, calls c relevant; d and topic 2 are not in the Experiment's qrels: left out, counted
    judge = Qrels.from_dict({"1": {"a": 0, "b": 1, "c": 1, "d": 1}, "2": {"a": 1}})
    study = judge_study(exp, judge, pool=np.array([True, False, False]), depth=3, measures=["P@1"], top=2)
    assert study.outside == 2
    p1 = study.scores.pivot(index="run", columns="qrels", values="score")[list(QRELS_KINDS)]
    # P@1: x ranks a first (relevant; judge: 0), y ranks c first (non-relevant; judge: 1, c is a hole)
    assert p1.loc["x"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert p1.loc["y"].tolist() == [0.0, 0.0, 1.0, 1.0]
    # twins rank their top 3 by the judge's grade: x → c, b, a (P@1 1 under the judge, 0 under the truth)
    twin = study.rerank.set_index("run")
    assert twin.loc["x", ["twin_reference_score", "twin_judge_score"]].tolist() == [0.0, 1.0]
    assert study.pool_entries == 1 and study.hole_entries == 2


def test_a_perfect_judge_fills_the_holes_as_the_truth_would(small):
    exp = small.complete_experiment
    pool = irnb.depth_pool(exp, depth=5)
    study = judge_study(exp, simulated_grades(small).ravel(), pool=pool, depth=60, measures=["P@10"], top=3)
    scores = study.scores.pivot(index="run", columns="qrels", values="score")
    np.testing.assert_array_equal(scores["fill holes"], scores["reference"])   # every top-60 document graded
    np.testing.assert_array_equal(scores["whole pool"], scores["reference"])
    assert (study.agreement["kappa"].dropna() == 1.0).all()


def test_qrels_from_a_file_and_from_the_array_give_the_same_study(small, tmp_path):
    exp = small.complete_experiment
    kwargs = {"accuracy": 0.8, "leniency": 0.15, "word_bias": 0.3, "seed": 2}
    path = tmp_path / "judge.qrels"
    irnb.write_qrels(simulated_judge(small, **kwargs), path)
    grades = simulated_grades(small, **kwargs).ravel()
    assert (judge_entries(exp, path) == grades).all()
    pool = irnb.depth_pool(exp, depth=5)
    from_file = judge_study(exp, irnb.read_qrels(path), pool=pool, depth=20, measures=["nDCG@10"], top=3)
    from_array = judge_study(exp, grades, pool=pool, depth=20, measures=["nDCG@10"], top=3)
    pd.testing.assert_frame_equal(from_file.scores, from_array.scores)
    pd.testing.assert_frame_equal(from_file.correlation, from_array.correlation)
    with pytest.raises(ValueError, match=r"one integer grade per qrels entry of the Experiment \(shape \(2400,\)\), "
                                         r"got dtype int8 and shape \(3,\)"):
        judge_entries(exp, grades[:3])


def test_fill_holes_against_the_whole_pool_on_the_default(collection):
    """On the default, with a depth-10 human pool and a lenient judge: filling the holes raises
    a run's score in proportion to its holes (the human pool lowers it in proportion), and a
    run reranked by the judge gains places under the judge's own qrels."""
    exp = collection.complete_experiment
    pool = irnb.depth_pool(exp, depth=10)
    grades = simulated_grades(collection, accuracy=0.9, leniency=0.2, word_bias=0.3, seed=0).ravel()
    study = judge_study(exp, grades, pool=pool, depth=100, measures=["P@10", "nDCG@10"], top=10)
    corr = study.correlation.set_index(["measure", "qrels"])
    for measure in ("P@10", "nDCG@10"):
        assert corr.loc[(measure, "human pool"), "holes_error_r"] < 0 < corr.loc[(measure, "fill holes"),
                                                                                  "holes_error_r"]
    scores = study.scores[study.scores["measure"] == "P@10"].pivot(index="run", columns="qrels", values="score")
    assert (scores["fill holes"] >= scores["human pool"]).all()   # P@10: holes only add judged documents
    assert study.rerank.groupby("measure")["shift"].mean()["nDCG@10"] > 0
    # a perfect judge on the same pool: both ways agree with each other exactly
    perfect = judge_study(exp, simulated_grades(collection).ravel(), pool=pool, depth=100, measures=["P@10"])
    same = perfect.scores.pivot(index="run", columns="qrels", values="score")
    np.testing.assert_array_equal(same["fill holes"], same["whole pool"])


def test_study_errors_name_what_was_wrong(small):
    exp = small.complete_experiment
    grades = simulated_grades(small).ravel()
    with pytest.raises(ValueError, match=r"judge_study: top \(the best runs by the reference\) must be an integer "
                                         r"≥ 1, got 0"):
        judge_study(exp, grades, pool=None, top=0)
    with pytest.raises(ValueError, match="judge_study: depth must be an integer ≥ 1, got 0"):
        judge_study(exp, grades, pool=None, depth=0)
    with pytest.raises(TypeError, match="judge must be irnb Qrels, a qrels file or DataFrame, or an array"):
        judge_study(exp, {"1": {"a": 1}}, pool=None)


# ------------------------------------------------------------------ (a) the classifiers as a judge
def test_the_kld_classifier_judges_the_holes_and_the_pool_it_was_not_trained_on(small):
    exp = small.complete_experiment
    pool = irnb.depth_pool(exp, depth=5)
    judged = classifier_judge(exp, small.documents, pool=pool, depth=10, method="kld", seed=0)
    grades = judge_entries(exp, judged)
    j = exp.judgments
    top = j.doc[:, :, :10]
    holes = np.zeros(j.num_judgments, dtype=bool)
    holes[top[top >= 0]] = True
    holes &= ~pool.judged
    assert ((grades >= 0) == (holes | pool.judged)).all()       # every hole and every pool entry, nothing else
    assert set(np.unique(grades[grades >= 0])) <= {0, 1}
    study = judge_study(exp, judged, pool=pool, depth=10, measures=["P@10"], top=3)
    assert 0 < study.agreement.loc[study.agreement["level"] == "≥1", "documents"].sum()


def test_a_twin_reranked_by_a_perfect_judge_never_scores_below_its_run(small):
    """Ranking a run's top documents by their true grades can only raise its P@10 under the truth,
    and the twin's score is the same under the reference and under the perfect judge's qrels."""
    exp = small.complete_experiment
    study = judge_study(exp, simulated_grades(small).ravel(), pool=irnb.depth_pool(exp, depth=5), depth=40,
                        measures=["P@10"], rerank_depth=40)
    twins = study.rerank.set_index("run")
    own = study.scores[study.scores["qrels"] == "reference"].set_index("run")["score"]
    assert (twins["twin_reference_score"] >= own).all() and (twins["twin_reference_score"] > own).any()
    np.testing.assert_allclose(twins["twin_judge_score"], twins["twin_reference_score"])
