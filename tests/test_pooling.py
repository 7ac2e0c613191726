"""Simulated pools (irnb.pooling): hand-made examples, a brute-force reference on random
runs (hypothesis), nesting, seeds and the teaching error messages."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rankings

from irnb import Experiment, evaluate, read_qrels
from irnb.pooling import (
    POOL_PARAMS,
    GroupPools,
    Pool,
    budget_pool,
    depth_pool,
    judgment_order,
    leave_one_group_out,
    official_pool,
    random_subsample,
    unjudged_overlap,
)

# Two topics. Run a (group G1) ranks x y z / p q; run b (group G1) ranks y w / q;
# run c (group G2) ranks v x / r p. Qrels judge all but "v" (topic 1) and "r" (topic 2).
RUNS = {
    "a": [("1", ["x", "y", "z"]), ("2", ["p", "q"])],
    "b": [("1", ["y", "w"]), ("2", ["q"])],
    "c": [("1", ["v", "x"]), ("2", ["r", "p"])],
}
QRELS = [("1", "w", 1), ("1", "x", 0), ("1", "y", 1), ("1", "z", 2), ("2", "p", 1), ("2", "q", 0), ("2", "s", 1)]


def _frame(runs: dict) -> pd.DataFrame:
    rows = [(name, topic, doc, float(len(docs) - i))
            for name, topics in runs.items() for topic, docs in topics for i, doc in enumerate(docs)]
    return pd.DataFrame(rows, columns=["run", "qid", "docno", "score"])


@pytest.fixture
def exp() -> Experiment:
    qrels = pd.DataFrame(QRELS, columns=["qid", "docno", "grade"])
    return Experiment(_frame(RUNS), qrels, groups={"a": "G1", "b": "G1", "c": "G2"}, contributors=["a", "b", "c"])


def _judged(pool: Pool, experiment: Experiment) -> set[tuple[str, str]]:
    frame = pool.frame(experiment)
    return set(zip(frame["topic"], frame["docno"], strict=True))


# ----------------------------------------------------------------------------- depth pools
def test_depth_pool_by_hand(exp):
    # d = 1: a@1 x, b@1 y, c@1 v (not in qrels); topic 2: a@1 p, b@1 q, c@1 r (not in qrels)
    assert _judged(depth_pool(exp, depth=1), exp) == {("1", "x"), ("1", "y"), ("2", "p"), ("2", "q")}
    # d = 2 adds w (b@2); z needs d = 3; s was never retrieved, so it is never pooled
    assert _judged(depth_pool(exp, depth=2), exp) - _judged(depth_pool(exp, depth=1), exp) == {("1", "w")}
    assert _judged(depth_pool(exp, depth=3), exp) == {("1", "w"), ("1", "x"), ("1", "y"), ("1", "z"),
                                                      ("2", "p"), ("2", "q")}
    assert _judged(depth_pool(exp, depth=1, runs=["c"]), exp) == set()
    assert _judged(depth_pool(exp, depth=2, runs="c"), exp) == {("1", "x"), ("2", "p")}


def test_depth_pool_metadata_and_frame(exp):
    pool = depth_pool(exp, depth=2, runs=["b", "a"])
    assert pool.depth == 2 and pool.contributors == ("a", "b")
    assert pool.num_judged == 5  # x, y, w and p, q
    assert pool.per_topic(exp).tolist() == [3, 2]
    frame = pool.frame(exp)
    assert list(frame.columns) == ["topic", "docno", "grade"]
    assert frame.values.tolist() == [["1", "w", 1], ["1", "x", 0], ["1", "y", 1], ["2", "p", 1], ["2", "q", 0]]
    assert not pool.judged.flags.writeable


def test_numpy_integer_depth_is_accepted(exp):
    assert depth_pool(exp, depth=np.int64(2)).num_judged == depth_pool(exp, depth=2).num_judged


def test_default_contributors_come_from_the_experiment():
    qrels = pd.DataFrame(QRELS, columns=["qid", "docno", "grade"])
    only_c = Experiment(_frame(RUNS), qrels, contributors=["c"])
    assert _judged(depth_pool(only_c, depth=2), only_c) == {("1", "x"), ("2", "p")}
    assert depth_pool(only_c, depth=2).contributors == ("c",)


def test_pool_plugs_into_evaluate(exp):
    # P@3 of run a: topic 1 with d = 1 judges x (non-rel) and y (rel) → 1/3; official has
    # y and z relevant → 2/3. Topic 2: p relevant in both → 1/3.
    pool = depth_pool(exp, depth=1)
    assert evaluate(exp, "P@3", judged=pool.judged)["P@3"][0].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert evaluate(exp, "P@3")["P@3"][0].tolist() == pytest.approx([2 / 3, 1 / 3])
    assert evaluate(exp, "P@3", judged=official_pool(exp).judged)["P@3"][0].tolist() == pytest.approx([2 / 3, 1 / 3])


def test_write_round_trips_through_read_qrels(exp, tmp_path):
    pool = depth_pool(exp, depth=2)
    path = tmp_path / "pool.qrels"
    pool.write(exp, path)
    assert path.read_text().splitlines()[0] == "1 0 w 1"
    back = read_qrels(path).to_frame()
    assert back.values.tolist() == pool.frame(exp).values.tolist()


# ----------------------------------------------------------------------------- leave one group out
def test_leave_one_group_out_by_hand(exp):
    logo = leave_one_group_out(exp, depth=2)
    assert isinstance(logo, GroupPools) and logo.groups == ("G1", "G2")
    assert logo.judged.shape == (2, exp.judgments.num_judgments)
    # without G1 only c pools: x and p; without G2, a and b pool x y w / p q
    assert _judged(logo["G1"], exp) == {("1", "x"), ("2", "p")}
    assert _judged(logo["G2"], exp) == {("1", "x"), ("1", "y"), ("1", "w"), ("2", "p"), ("2", "q")}
    assert logo["G1"].contributors == ("c",)
    assert [p.description for p in logo] == ["depth-2 pool without group G1", "depth-2 pool without group G2"]


def test_leave_one_group_out_keeping_unpooled_judgments(exp):
    # at d = 2, z (a@3) and s (never retrieved) are in no contributor's top 2: kept for both
    logo = leave_one_group_out(exp, depth=2, keep_unpooled=True)
    assert _judged(logo["G1"], exp) == {("1", "x"), ("2", "p"), ("1", "z"), ("2", "s")}
    assert _judged(logo["G2"], exp) == {("1", "x"), ("1", "y"), ("1", "w"), ("2", "p"), ("2", "q"), ("1", "z"),
                                        ("2", "s")}


def test_leave_one_group_out_unknown_group(exp):
    with pytest.raises(ValueError, match=r"unknown group 'G3'; did you mean 'G1', 'G2'\?|unknown group 'G3'"):
        leave_one_group_out(exp, depth=2)["G3"]


def test_group_without_contributors_keeps_the_full_pool():
    qrels = pd.DataFrame(QRELS, columns=["qid", "docno", "grade"])
    e = Experiment(_frame(RUNS), qrels, groups={"a": "G1", "b": "G1", "c": "G2"}, contributors=["a", "b"])
    logo = leave_one_group_out(e, depth=3)
    np.testing.assert_array_equal(logo.judged[1], depth_pool(e, depth=3).judged)
    assert logo["G1"].num_judged == 0


# ----------------------------------------------------------------------------- budgets
def test_budget_follows_best_rank(exp):
    # best ranks: topic 1: x 1, y 1, w 2, z 3; topic 2: p 1, q 1; s never retrieved (last)
    for seed in range(5):
        assert _judged(budget_pool(exp, judgments=4, seed=seed), exp) == {("1", "x"), ("1", "y"), ("2", "p"),
                                                                          ("2", "q")}
        assert _judged(budget_pool(exp, judgments=5, seed=seed), exp) - _judged(
            budget_pool(exp, judgments=4, seed=seed), exp) == {("1", "w")}
    assert budget_pool(exp, judgments=7, seed=0).num_judged == 7


def test_budget_ties_are_seeded_and_budgets_nested(exp):
    picks = {frozenset(_judged(budget_pool(exp, judgments=2, seed=s), exp)) for s in range(40)}
    assert len(picks) > 1  # the four rank-1 entries tie: different seeds break them differently
    assert all(len(p) == 2 for p in picks)
    assert _judged(budget_pool(exp, judgments=2, seed=3), exp) == _judged(budget_pool(exp, judgments=2, seed=3), exp)
    order = judgment_order(exp, seed=11)
    assert sorted(order.tolist()) == list(range(7))
    for n in range(1, 7):
        small, large = budget_pool(exp, judgments=n, seed=11), budget_pool(exp, judgments=n + 1, seed=11)
        assert np.all(large.judged >= small.judged) and large.num_judged == n + 1


# ----------------------------------------------------------------------------- random subsampling
def test_random_subsample_sizes_per_topic(exp):
    # topic 1 has 4 entries, topic 2 has 3: at 0.5 → round(2.0) = 2 and round(1.5) = 2
    pool = random_subsample(exp, fraction=0.5, seed=0)
    assert pool.per_topic(exp).tolist() == [2, 2]
    assert random_subsample(exp, fraction=0.05, seed=0).per_topic(exp).tolist() == [1, 1]  # at least one
    assert random_subsample(exp, fraction=1.0, seed=0).judged.all()


def test_random_subsample_is_seeded_and_uniform():
    qrels = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(20)], "grade": 1})
    run = pd.DataFrame({"qid": "1", "docno": ["d0"], "score": [1.0]})
    e = Experiment(run, qrels)
    a = random_subsample(e, fraction=0.25, seed=5).judged
    np.testing.assert_array_equal(a, random_subsample(e, fraction=0.25, seed=5).judged)
    hits = sum(random_subsample(e, fraction=0.25, seed=s).judged.astype(int) for s in range(400))
    assert hits.sum() == 400 * 5
    # each entry is kept with probability 1/4: 100 of 400 expected, sd ≈ 8.7
    assert hits.min() > 60 and hits.max() < 140


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("call, message", [
    (lambda e: depth_pool(e, depth=0), r"depth_pool: depth must be an integer ≥ 1, got 0"),
    (lambda e: depth_pool(e, depth=2.5), r"depth_pool: depth must be an integer ≥ 1, got 2.5"),
    (lambda e: depth_pool(e, depth=2, runs=["aa"]), r"unknown run 'aa'; did you mean 'a'"),
    (lambda e: depth_pool(e, depth=2, runs=[]), r"depth_pool: runs must name at least one run"),
    (lambda e: leave_one_group_out(e, depth=-1), r"leave_one_group_out: depth must be an integer ≥ 1, got -1"),
    (lambda e: budget_pool(e, judgments=0, seed=1),
     r"budget_pool: judgments must be an integer with 1 ≤ judgments ≤ 7 \(the number of qrels entries\), got 0"),
    (lambda e: budget_pool(e, judgments=8, seed=1),
     r"budget_pool: judgments must be an integer with 1 ≤ judgments ≤ 7 \(the number of qrels entries\), got 8"),
    (lambda e: random_subsample(e, fraction=0.01, seed=1),
     r"random_subsample: fraction must be a number with 0.05 ≤ fraction ≤ 1, got 0.01"),
    (lambda e: random_subsample(e, fraction=1.5, seed=1), r"fraction ≤ 1, got 1.5"),
])
def test_errors_teach(exp, call, message):
    with pytest.raises(ValueError, match=message):
        call(exp)


def test_seed_is_required_and_checked(exp):
    with pytest.raises(TypeError, match=r"budget_pool|judgment_order"):
        budget_pool(exp, judgments=2)  # seed is keyword-only and required
    with pytest.raises(TypeError, match=r"random_subsample: seed must be an integer or a numpy Generator"):
        random_subsample(exp, fraction=0.5, seed=None)


def test_pool_of_another_experiment_is_refused(exp):
    other = Experiment(pd.DataFrame({"qid": "1", "docno": ["x"], "score": [1.0]}),
                       pd.DataFrame({"qid": "1", "docno": ["x"], "grade": [1]}))
    with pytest.raises(ValueError, match=r"masks 1 qrels entries, but the Experiment has 7"):
        depth_pool(other, depth=1).frame(exp)
    with pytest.raises(TypeError, match=r"Pool.judged must be a 1-d boolean mask"):
        Pool(np.zeros(3, dtype=int), "bad")


def test_declared_bounds_are_published():
    assert POOL_PARAMS["depth"].low == 1
    assert (POOL_PARAMS["fraction"].low, POOL_PARAMS["fraction"].high) == (0.05, 1.0)
    assert POOL_PARAMS["judgments"].low == 1


# ----------------------------------------------------------------------------- brute-force reference
@st.composite
def collections(draw):
    runs, n_topics, universe = draw(rankings(max_runs=5, max_universe=12))
    qrels = []
    for t in range(n_topics):
        judged = draw(st.lists(st.integers(0, universe + 2), min_size=1, max_size=universe + 3, unique=True))
        qrels += [(str(t), f"d{i}", draw(st.integers(-1, 2))) for i in judged]
    groups = {name: f"g{draw(st.integers(0, 2))}" for name in runs}
    contributors = draw(st.lists(st.sampled_from(sorted(runs)), min_size=1, unique=True))
    return runs, qrels, groups, contributors


def _reference_pool(runs: dict, qrels: list, contributors, depth: int) -> set:
    in_qrels = {(t, d) for t, d, _ in qrels}
    top = {(t, d) for name in contributors for t, docs in runs[name] for d in docs[:depth]}
    return top & in_qrels


@settings(max_examples=60, deadline=None)
@given(collections(), st.integers(1, 6))
def test_depth_pool_and_leave_one_group_out_match_brute_force(collection, depth):
    runs, qrels, groups, contributors = collection
    e = Experiment(_frame(runs), pd.DataFrame(qrels, columns=["qid", "docno", "grade"]), groups=groups,
                   contributors=contributors)
    assert _judged(depth_pool(e, depth=depth), e) == _reference_pool(runs, qrels, contributors, depth)
    logo = leave_one_group_out(e, depth=depth)
    for group in logo.groups:
        kept = [r for r in contributors if groups[r] != group]
        assert _judged(logo[group], e) == _reference_pool(runs, qrels, kept, depth)
    shallow, deep = depth_pool(e, depth=depth), depth_pool(e, depth=depth + 1)
    assert np.all(deep.judged >= shallow.judged)  # pools are nested


def test_a_pool_deeper_than_every_run_judges_only_retrieved_documents():
    import pandas as pd

    from irnb import Experiment
    from irnb.pooling import depth_pool

    runs = pd.DataFrame({"run": "a", "qid": "1", "docno": ["x", "y"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y", "z"], "grade": [1, 0, 1]})  # z: never retrieved
    exp = Experiment(runs, qrels)
    # 40000 is beyond the int16 "not retrieved" marker (32767): z must stay unjudged
    for depth in (2, 1000, 40000):
        assert depth_pool(exp, depth=depth).num_judged == 2


def test_numpy_integers_are_depths_and_budgets(exp):
    assert depth_pool(exp, depth=np.int64(2)).num_judged == depth_pool(exp, depth=2).num_judged == 5
    assert budget_pool(exp, judgments=np.int32(3), seed=0).num_judged == 3


def test_contributor_errors_name_the_callers_parameter(exp):
    from irnb.pooling import contributor_mask, subset_pools

    assert contributor_mask(exp, ["c", "a"], name="contributors").tolist() == [True, False, True]
    with pytest.raises(ValueError, match=r"owner: contributors must name at least one run, got an empty list"):
        contributor_mask(exp, [], owner="owner", name="contributors")
    with pytest.raises(ValueError, match=r"subset_pools: contributors must name at least one run"):
        subset_pools(exp, ["a"], depth=1, contributors=[])
    none = Experiment(_frame(RUNS), pd.DataFrame(QRELS, columns=["qid", "docno", "grade"]), contributors=[])
    with pytest.raises(ValueError, match=r"no contributing runs; pass contributors=\[\.\.\.\]"):
        contributor_mask(none, owner="owner", name="contributors")


def test_unjudged_overlap_scores_are_p_at_k_of_an_evaluation(exp):
    # the default P@k comes from the interval's lower bound; it must equal evaluate()'s P@k
    from irnb.pooling import unjudged_overlap

    for k in (1, 2, 3):
        for pool in (None, depth_pool(exp, depth=1)):
            table = unjudged_overlap(exp, "a", "c", measurement_depth=k, pool=pool)
            mask = None if pool is None else pool.judged
            (values,) = evaluate(exp, f"P@{k}", judged=mask).values.values()
            assert table["score_a"].tolist() == values[0].tolist()
            assert table["score_b"].tolist() == values[2].tolist()
    # by hand, official qrels, k = 2: a ranks x (0), y (1) → 1/2; c ranks v (unjudged), x (0) → 0
    row = unjudged_overlap(exp, "a", "c", measurement_depth=2).iloc[0]
    assert (row["score_a"], row["score_b"], row["score_difference"]) == (0.5, 0.0, -0.5)


# ----------------------------------------------------------------------------- unjudged documents two runs share
def test_unjudged_overlap_counts_by_hand():
    # topic 1: a ranks x y z w, b ranks z y v; qrels judge x (1), y (-1: pooled, not judged), q (0).
    # Top 3 — a: x judged, y unjudged (negative grade), z not in qrels → 2; b: z, y, v → 3;
    # shared unjudged: y and z → 2. P@3: a 1/3, b 0.
    runs = pd.DataFrame({"run": ["a"] * 4 + ["b"] * 3, "qid": "1",
                         "docno": ["x", "y", "z", "w", "z", "y", "v"], "score": [4, 3, 2, 1, 3, 2, 1]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["q", "x", "y"], "grade": [0, 1, -1]})
    exp = Experiment(runs, qrels)
    row = unjudged_overlap(exp, "a", "b", measurement_depth=3).iloc[0]
    assert (row["unjudged_a"], row["unjudged_b"], row["overlap"]) == (2, 3, 2)
    assert row["score_a"] == pytest.approx(1 / 3) and row["score_difference"] == pytest.approx(-1 / 3)
    # a pool without x: x becomes unjudged for a (3), b unchanged
    row = unjudged_overlap(exp, "a", "b", measurement_depth=3, pool=np.array([True, False, True])).iloc[0]
    assert (row["unjudged_a"], row["unjudged_b"], row["overlap"]) == (3, 3, 2)
    with pytest.raises(ValueError, match="measurement depth k must be an integer ≥ 1, got 0"):
        unjudged_overlap(exp, "a", "b", measurement_depth=0)
    with pytest.raises(ValueError, match="unknown run 'c'"):
        unjudged_overlap(exp, "a", "c", measurement_depth=3)


def test_unjudged_overlap_agrees_with_unj_at_k_on_a_simulated_collection():
    from irnb.datasets import simulate

    exp = simulate(seed=5, num_topics=6, num_runs=6, num_groups=3, docs_per_topic=300, run_depth=40,
                   pool_depth=10, median_relevant=10, novel_runs=1, keyword_runs=1).experiment
    pool = depth_pool(exp, depth=5)
    table = unjudged_overlap(exp, exp.run_names[0], exp.run_names[4], measurement_depth=15, pool=pool)
    unj = evaluate(exp, "Unj@15", judged=pool.judged)["Unj@15"]
    np.testing.assert_allclose(table["unjudged_a"], unj[0] * 15)
    np.testing.assert_allclose(table["unjudged_b"], unj[4] * 15)
    # the overlap by document identity from the simulator's complete truth (every document has an entry)
    grade = exp.judgments.grade_array(pool.judged)[:, :, :15]
    truth_doc = exp.truth.doc[:, :, :15]
    expected = [len(set(truth_doc[0, t][grade[0, t] < 0]) & set(truth_doc[4, t][grade[4, t] < 0]))
                for t in range(len(exp.topics))]
    np.testing.assert_array_equal(table["overlap"], expected)
    assert sum(expected) > 0
    # a run shares all its unjudged documents with itself
    same = unjudged_overlap(exp, exp.run_names[4], exp.run_names[4], measurement_depth=15, pool=pool)
    np.testing.assert_array_equal(same["overlap"], same["unjudged_a"])
