"""irnb.sampling: sampled scores for the unjudged documents, on hand-computed cases, against
the bounds [B, T], and with their errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irnb import Experiment, MissingTopicsWarning, depth_pool, evaluate, sample_scores, score_intervals
from irnb.datasets import default
from irnb.params import ParameterError
from irnb.sampling import relevance_probabilities

from strategies import rankings


def _experiment(docnos, grades: dict) -> Experiment:
    """One run ranking ``docnos`` on topic 1; ``grades`` the qrels of that topic."""
    run = pd.DataFrame({"qid": "1", "docno": docnos, "score": np.arange(len(docnos), 0, -1, dtype=float)})
    qrels = pd.DataFrame({"qid": "1", "docno": list(grades), "grade": list(grades.values())})
    return Experiment(run, qrels)


# ------------------------------------------------------------------ hand-computed cases
def test_everything_judged_gives_a_point_per_topic_and_the_evaluated_score():
    runs = pd.DataFrame({"qid": ["1", "1", "1", "2", "2"], "docno": ["a", "b", "c", "d", "e"],
                         "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"qid": ["1", "1", "1", "2", "2"], "docno": ["a", "b", "c", "d", "e"],
                          "grade": [1, 0, 2, 0, 1]})
    exp = Experiment(runs, qrels)
    measures = ["AP", "nDCG@10", "P@2", "bpref", "RBP(p=0.5)"]
    sampled = sample_scores(exp, measures, samples=50)
    truth = evaluate(exp, measures)
    for m in measures:
        mean, low, high = sampled.topic_summary(m)
        np.testing.assert_allclose(low, truth[m])
        np.testing.assert_allclose(high, truth[m])
        np.testing.assert_allclose(sampled.run_mean(m), truth.aggregate(m))
    # AP on topic 1: relevant at ranks 1 and 3, R = 2: (1/1 + 2/3) / 2
    assert sampled.topics.query("measure == 'AP' and topic == '1'")["mean"].round(4).tolist() == [0.8333]


def test_one_unjudged_document_gives_two_scores_with_weights_p_and_1_minus_p():
    # ranking c (non-relevant), u (unjudged), a (relevant, grade 2)
    exp = _experiment(["c", "u", "a"], {"a": 2, "c": 0})
    p, n = 0.3, 4000
    sampled = sample_scores(exp, ["AP", "nDCG", "P@2"], prior=p, samples=n, seed=3)
    # u non-relevant: R = 1, AP = (1/3) / 1; relevant: R = 2, AP = (1/2 + 2/3) / 2
    # nDCG (u drawn grade 2, the topic's only judged relevant grade): 2/log2(4) / 2 = 0.5 against
    # (2/log2(3) + 2/2) / (2 + 2/log2(3)) = 0.6934
    cases = {"AP": (1 / 3, (1 / 2 + 2 / 3) / 2), "P@2": (0.0, 0.5),
             "nDCG": (0.5, (2 / np.log2(3) + 1) / (2 + 2 / np.log2(3)))}
    for name, (without, with_u) in cases.items():
        values = sampled.values[name][0, 0]
        assert set(np.round(values, 6)) == {round(without, 6), round(with_u, 6)}, name
        share = np.isclose(values, with_u).mean()
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / n), (name, share)


def test_r_counts_the_topics_other_unjudged_documents_once():
    # r1: a (relevant), x; r2: x, y, a; x and y are unjudged (not in the qrels), x retrieved by both.
    # With E = 1 every unjudged document is relevant: the topic has R = 1 + 2 (x counted once), so
    # AP(r1) = (1/1 + 2/2) / 3, and AP(r2) = (1/1 + 2/2 + 3/3) / 3 = 1
    runs = {"r1": pd.DataFrame({"qid": "1", "docno": ["a", "x"], "score": [2.0, 1.0]}),
            "r2": pd.DataFrame({"qid": "1", "docno": ["x", "y", "a"], "score": [3.0, 2.0, 1.0]})}
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["a"], "grade": [1]}))
    sampled = sample_scores(exp, ["AP", "num_rel"], prior=1.0, samples=5)
    np.testing.assert_allclose(sampled["AP"][:, 0], [[2 / 3] * 5, [1.0] * 5])
    assert sampled["num_rel"][:, 0].tolist() == [[3.0] * 5, [3.0] * 5]
    with pytest.raises(KeyError, match=r"P@10 was not sampled; sampled: \['AP', "):
        sampled["P@10"]


def test_a_drawn_relevant_document_gets_the_topics_judged_relevant_grades():
    # judged relevant grades: 1 (once) and 3 (three times) → u drawn relevant has grade 3 three times in four
    exp = _experiment(["u", "a", "b", "c", "d"], {"a": 1, "b": 3, "c": 3, "d": 3})
    sampled = sample_scores(exp, ["P@1", "P(rel=3)@1"], prior=1.0, samples=4000, seed=1)
    assert sampled.values["P@1"][0, 0].min() == 1.0             # always relevant at rel 1
    share = sampled.values["P(rel=3)@1"][0, 0].mean()             # grade 3 when relevant at rel 3
    assert abs(share - 0.75) < 4 * np.sqrt(0.75 * 0.25 / 4000)


def test_the_run_and_pool_priors():
    runs = pd.DataFrame({"qid": "1", "docno": ["a", "u", "b", "c", "v", "d"], "score": [6, 5, 4, 3, 2, 1],
                         "run": ["r1", "r1", "r1", "r2", "r2", "r2"]})
    runs = {"r1": runs[runs.run == "r1"].drop(columns="run"), "r2": runs[runs.run == "r2"].drop(columns="run")}
    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c", "d"], "grade": [1, 0, 0, 0]})
    exp = Experiment(runs, qrels)
    run_prior = relevance_probabilities(exp, prior="run")
    pool_prior = relevance_probabilities(exp, prior="pool")
    # the mean of Beta(relevant + 1, judged − relevant + 1): r1 judged a (relevant) and b: 2/4;
    # r2 judged c and d: 1/4; the pool 1 relevant of 4 judged: 2/6
    assert run_prior[:, 0, 1].tolist() == [0.5, 0.25]
    np.testing.assert_allclose(pool_prior[:, 0, 1], [1 / 3, 1 / 3])
    assert run_prior[:, 0, [0, 2]].tolist() == [[0.0, 0.0], [0.0, 0.0]]  # judged ranks are never drawn


def test_the_run_prior_draws_each_samples_rate():
    # 1 relevant of 1 judged: every sample's rate is Beta(2, 1); one unjudged document is relevant
    # with probability E[rate] = 2/3, and P@2 is 1/2 or 1 with those weights
    exp = _experiment(["a", "u"], {"a": 1})
    values = sample_scores(exp, ["P@2"], prior="run", samples=4000, seed=5).values["P@2"][0, 0]
    assert set(values.tolist()) == {0.5, 1.0}
    assert abs((values == 1.0).mean() - 2 / 3) < 4 * np.sqrt(2 / 9 / 4000)


def test_per_document_probabilities_from_a_dataframe():
    exp = _experiment(["a", "u", "v"], {"a": 1})
    probs = pd.DataFrame({"topic": ["1", "1"], "docno": ["u", "v"], "probability": [1.0, 0.0]})
    sampled = sample_scores(exp, ["P@3"], prior=probs, samples=20)
    assert np.allclose(sampled.values["P@3"], 2 / 3)
    assert sampled.prior == "per-document probabilities"


def test_seeds_reproduce_the_samples():
    exp = _experiment(["a", "u", "v", "w", "c"], {"a": 1, "c": 0})
    first = sample_scores(exp, ["AP", "P@5"], prior=0.4, samples=300, seed=7)
    again = sample_scores(exp, ["AP", "P@5"], prior=0.4, samples=300, seed=np.random.default_rng(7))
    other = sample_scores(exp, ["AP", "P@5"], prior=0.4, samples=300, seed=8)
    assert np.array_equal(first.values["AP"], again.values["AP"])
    pd.testing.assert_frame_equal(first.runs, again.runs)
    assert not np.array_equal(first.values["AP"], other.values["AP"])


def test_the_run_interval_carries_the_topic_sampling():
    # everything judged: each topic is a point, but the topics differ, so the run's interval does not collapse
    runs = pd.DataFrame({"qid": [str(t) for t in range(1, 9)], "docno": "a", "score": 1.0})
    qrels = pd.DataFrame({"qid": [str(t) for t in range(1, 9)], "docno": "a", "grade": [1, 0] * 4})
    sampled = sample_scores(Experiment(runs, qrels), ["P@1"], samples=400, level=0.9)
    row = sampled.runs.iloc[0]
    assert row["mean"] == 0.5 and row["low"] < 0.5 < row["high"]
    assert (sampled.topics["low"] == sampled.topics["high"]).all()


# ------------------------------------------------------------------ bounds
@pytest.fixture(scope="module")
def default_pooled():
    exp = default().experiment
    return exp, depth_pool(exp, depth=10)


@pytest.mark.parametrize("measure", ["P@10", "RBP(p=0.8)", "SDCG@20"])
def test_every_sample_lies_in_the_score_interval(default_pooled, measure):
    exp, pool = default_pooled
    sampled = sample_scores(exp, [measure], judged=pool, samples=20)
    iv = score_intervals(exp, measure, pool=pool)
    values = sampled.values[measure]
    assert (values >= iv.lower[:, :, None] - 1e-12).all() and (values <= iv.upper[:, :, None] + 1e-12).all()
    assert (iv.upper > iv.lower + 1e-9).any()  # there are holes to draw


def test_beside_bounds_puts_the_samples_beside_b_t_and_the_condensed_list(default_pooled):
    exp, pool = default_pooled
    sampled = sample_scores(exp, ["P@10", "AP"], judged=pool, samples=20)
    table = sampled.beside_bounds()
    assert list(table.columns) == ["run", "measure", "mean", "low", "high", "condensed", "lower", "upper"]
    p10 = table[table.measure == "P@10"]
    assert ((p10["lower"] <= p10["mean"] + 1e-12) & (p10["mean"] <= p10["upper"] + 1e-12)).all()
    assert table[table.measure == "AP"][["lower", "upper"]].isna().all().all()  # AP has no [B, T]
    condensed = evaluate(exp, ["AP"], judged=pool.judged, judged_only=True).aggregate("AP")
    np.testing.assert_allclose(table[table.measure == "AP"]["condensed"], condensed)


# ------------------------------------------------------------------ properties

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=rankings(max_runs=3, max_topics=2, max_universe=6), keep=st.lists(st.booleans(), min_size=6,
                                                                               max_size=6),
       grades=st.lists(st.integers(0, 2), min_size=6, max_size=6))
def test_prior_zero_is_the_evaluation_and_one_the_upper_bound(data, keep, grades):
    runs, n_topics, universe = data
    frames = {name: pd.DataFrame([(t, d, float(len(docs) - i)) for t, docs in topics for i, d in enumerate(docs)],
                                 columns=["qid", "docno", "score"]) for name, topics in runs.items()}
    judged = [(str(t), f"d{i}", grades[i]) for t in range(n_topics) for i in range(universe) if keep[i]]
    judged.append(("0", "d0", grades[0]))  # every experiment needs a qrels entry on topic 0
    qrels = pd.DataFrame(judged, columns=["qid", "docno", "grade"]).drop_duplicates(["qid", "docno"])
    exp = Experiment(frames, qrels)
    measures = ["AP", "P@3", "nDCG@5"]
    nothing = sample_scores(exp, measures, prior=0.0, samples=3)
    with warnings.catch_warnings():  # a run may miss a topic: the samples hold every topic, answered or not
        warnings.simplefilter("ignore", MissingTopicsWarning)
        truth = evaluate(exp, measures, complete=True)
    for m in measures:
        np.testing.assert_allclose(nothing.values[m], np.repeat(truth[m][:, :, None], 3, axis=2), atol=1e-12)
    everything = sample_scores(exp, ["P@3"], prior=1.0, samples=3)
    np.testing.assert_allclose(everything.values["P@3"][:, :, 0], score_intervals(exp, "P@3").upper, atol=1e-12)
    sampled = sample_scores(exp, measures, prior=0.5, samples=40, seed=2)
    for m in measures:
        mean, low, high = sampled.topic_summary(m)
        assert (low <= mean + 1e-12).all() and (mean <= high + 1e-12).all()
        assert ((sampled.values[m] >= 0) & (sampled.values[m] <= 1 + 1e-12)).all()


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("options, kind, message", [
    ({"samples": 0}, ValueError, "sample_scores: samples must be an integer with 1 ≤ samples ≤ 100000"),
    ({"level": 1.5}, ValueError, "sample_scores: level must be a number with 0 < level < 1, got 1.5"),
    ({"prior": "runs"}, ParameterError, "sample_scores: prior must be a number, per-document probabilities"),
    ({"prior": 1.5}, ParameterError, "sample_scores: prior must be a number with 0 ≤ prior ≤ 1 or per-document"),
    ({"prior": np.zeros(3)}, ValueError, "sample_scores: prior as an array gives a probability per (run, topic, "
                                         "rank): it must have shape (1, 1, 2), got shape (3,)"),
    ({"seed": -1}, ParameterError, "sample_scores: seed must be a non-negative integer or a numpy Generator"),
    ({"judged": np.array([True, False])}, ValueError,
     "judged must be an irnb.pooling.Pool or a 1-d boolean mask over the Experiment's 1 qrels entries"),
])
def test_bad_inputs_say_what_was_allowed_and_what_was_passed(options, kind, message):
    exp = _experiment(["a", "u"], {"a": 1})
    with pytest.raises(kind) as caught:
        sample_scores(exp, ["P@1"], **options)
    assert message in str(caught.value)


def test_a_probability_outside_zero_one_is_refused():
    exp = _experiment(["a", "u"], {"a": 1})
    with pytest.raises(ValueError, match=r"sample_scores: probabilities must lie in \[0, 1\]"):
        sample_scores(exp, ["P@1"], prior=np.full((1, 1, 2), 1.5))


# ------------------------------------------------------------------ the plot
def test_the_plot_draws_the_samples_beside_the_bounds_and_the_condensed_list(default_pooled):
    from irnb.plots import artists, sampled_scores_plot

    exp, pool = default_pooled
    table = sample_scores(exp, ["P@10", "AP"], judged=pool, samples=10).beside_bounds()
    ax = sampled_scores_plot(table, measure="P@10")
    drawn = artists(ax)
    assert {"bounds", "sampled", "condensed"} <= set(drawn)
    means = table[table.measure == "P@10"]["mean"].sort_values(ascending=False).to_numpy()
    np.testing.assert_allclose(drawn["sampled"].get_ydata(), means)   # ranked by the sampled mean
    ax = sampled_scores_plot(table, measure="AP")
    assert "bounds" not in artists(ax)                                 # AP has no [B, T]
    with pytest.raises(ValueError, match=r"no rows for measure 'nDCG'; measures: \['AP', 'P@10'\]"):
        sampled_scores_plot(table, measure="nDCG")


def test_a_classifiers_probabilities_give_the_expected_precision_on_average():
    from irnb.predict import complete_qrels, expected_precision

    runs = {"r1": pd.DataFrame({"qid": "1", "docno": ["a", "u", "b", "v"], "score": [4, 3, 2, 1]}),
            "r2": pd.DataFrame({"qid": "1", "docno": ["v", "b", "a", "u"], "score": [4, 3, 2, 1]})}
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [1, 0]}))
    texts = {"a": "cat cat purr whisker", "b": "stock market bond yield", "u": "cat purr whisker",
             "v": "market stock yield"}
    completed = complete_qrels(exp, texts, depth=4, method="kld")
    n = 4000
    sampled = sample_scores(exp, ["P@4"], prior=completed, samples=n, seed=4)
    expected = expected_precision(exp, completed, 4)
    # P@4 = (1 + [u] + [v]) / 4: its mean over the samples is the expected P@4, within four standard errors
    np.testing.assert_allclose(sampled["P@4"].mean(axis=2), expected, atol=4 * 0.5 / 4 / np.sqrt(n))
    assert sampled.prior == "per-document probabilities"
