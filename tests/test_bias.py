"""Pool-bias experiments (irnb.bias): rank correlations against direct O(n²) formulas,
rank changes, RMS error and the paired t-test by hand, leave-one-group-out and contributor
subsets on constructed examples, the subsampling curves, and the simulated collection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from irnb import Experiment, evaluate
from irnb.bias import (
    BIAS_MEASURES,
    BiasResult,
    _paired_t_p,
    binary_judgments,
    contributor_subset_bias,
    kendall_tau,
    leave_one_group_out_bias,
    pool_bias,
    ranks,
    rms_error,
    subsampling_curves,
    tau_ap,
)
from irnb.pooling import depth_pool, leave_one_group_out


def _experiment(rankings: dict, qrels: list, **kwargs) -> Experiment:
    """rankings: run → {topic: [docno, ...]} (first = best); qrels: (topic, docno, grade)."""
    rows = [(run, topic, doc, float(len(docs) - i))
            for run, topics in rankings.items() for topic, docs in topics.items() for i, doc in enumerate(docs)]
    runs = pd.DataFrame(rows, columns=["run", "qid", "docno", "score"])
    return Experiment(runs, pd.DataFrame(qrels, columns=["qid", "docno", "grade"]), **kwargs)


# ============================================================================ correlations
def _tau_direct(ref, other) -> float:
    """Kendall's τ, ties concordant (Büttcher et al.), by a plain double loop."""
    n, discordant = len(ref), 0
    for i in range(n):
        for j in range(i + 1, n):
            if (ref[i] - ref[j]) * (other[i] - other[j]) < 0:
                discordant += 1
    return 1 - 2 * discordant / (n * (n - 1) / 2)


def _tau_ap_direct(ref, other) -> float:
    """τ_AP (Yilmaz et al. 2008) by its definition: sort by `other` (ties: the reference's
    order, reference ties by position); C(i) = items above i that the reference ranks at
    least as high."""
    n = len(ref)
    ref_pos = sorted(range(n), key=lambda k: (-ref[k], k))
    ref_rank = {k: r for r, k in enumerate(ref_pos)}
    order = sorted(range(n), key=lambda k: (-other[k], ref_rank[k]))
    total = 0.0
    for i in range(1, n):
        c = sum(1 for j in range(i) if ref[order[j]] >= ref[order[i]])
        total += c / i
    return 2 / (n - 1) * total - 1


def test_tau_identical_and_reversed():
    x = [0.9, 0.7, 0.5, 0.3, 0.1]
    assert kendall_tau(x, x) == 1.0 and tau_ap(x, x) == 1.0
    assert kendall_tau(x, x[::-1]) == -1.0 and tau_ap(x, x[::-1]) == -1.0


def test_tau_hand_examples():
    # one swapped pair out of three: τ = 1 − 2/3
    assert kendall_tau([3, 2, 1], [3, 1, 2]) == pytest.approx(1 / 3)
    # swap at the top: C = 0 at position 2, 2 at position 3 → τ_AP = (0 + 1) − 1 = 0
    assert tau_ap([3, 2, 1], [2, 3, 1]) == pytest.approx(0.0)
    # swap at the bottom: C = 1, 1 → τ_AP = (1 + 1/2) − 1 = 0.5; τ_AP weighs the top more
    assert tau_ap([3, 2, 1], [3, 1, 2]) == pytest.approx(0.5)
    # ties are never swaps (Büttcher et al.'s rule)
    assert kendall_tau([3, 2, 1], [1, 1, 1]) == 1.0 and tau_ap([3, 2, 1], [1, 1, 1]) == 1.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=12))
def test_tau_matches_direct_formula(pairs):
    ref = [float(a) for a, _ in pairs]  # small integers: many ties on both sides
    other = [float(b) for _, b in pairs]
    assert kendall_tau(ref, other) == pytest.approx(_tau_direct(ref, other), abs=1e-12)
    assert tau_ap(ref, other) == pytest.approx(_tau_ap_direct(ref, other), abs=1e-12)
    assert -1.0 <= tau_ap(ref, other) <= 1.0


def test_tau_ap_against_direct_formula_on_random_scores(rng):
    for _ in range(20):
        n = int(rng.integers(2, 40))
        ref, other = rng.random(n), rng.random(n)
        assert tau_ap(ref, other) == pytest.approx(_tau_ap_direct(ref, other), abs=1e-12)
        assert kendall_tau(ref, other) == pytest.approx(sps.kendalltau(ref, other).statistic, abs=1e-12)


def test_correlation_input_errors():
    with pytest.raises(ValueError, match="same systems, got 3 and 2 scores"):
        kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="at least 2 systems, got 1"):
        tau_ap([1], [1])
    with pytest.raises(ValueError, match="finite numbers"):
        kendall_tau([1, np.nan], [1, 2])


def test_rms_error_and_ranks_by_hand():
    # √(((0.30 − 0.25)² + (0.50 − 0.40)² + (0.20 − 0.20)²) / 3) = √(0.0125 / 3) = 0.0645497
    assert rms_error([0.30, 0.50, 0.20], [0.25, 0.40, 0.20]) == pytest.approx(0.0645497, abs=1e-7)
    assert rms_error([0.1], [0.1]) == 0.0
    with pytest.raises(ValueError, match="same number"):
        rms_error([0.1, 0.2], [0.1])
    assert ranks([0.2, 0.5, 0.2, 0.1]).tolist() == [2, 1, 3, 4]
    assert ranks([0.2, 0.5, 0.1], higher_is_better=False).tolist() == [2, 3, 1]


def test_paired_t_matches_scipy_and_policy(rng):
    a, b = rng.random((3, 7)), rng.random((3, 7))
    evaluated = np.ones((3, 7), bool)
    evaluated[1, [0, 3]] = False
    p = _paired_t_p(a, b, evaluated)
    for s in range(3):
        keep = evaluated[s]
        assert p[s] == pytest.approx(sps.ttest_rel(a[s, keep], b[s, keep]).pvalue, rel=1e-10)
    same = _paired_t_p(a, a, evaluated)  # every difference 0 → p = 1
    assert same.tolist() == [1.0, 1.0, 1.0]
    shifted = _paired_t_p(a + 0.1, a, evaluated)  # constant non-zero difference → p = 0
    assert np.allclose(shifted, 0.0)
    one = _paired_t_p(a[:, :1], b[:, :1] + 1, np.ones((3, 1), bool))  # one topic, a change → untestable
    assert np.isnan(one).all()


# ============================================================================ rank changes
# Three runs in three groups, one topic, pool depth 1; u, x relevant, y not.
#   a: u x     (only a pools u)
#   b: x y     (only b pools x at depth 1)
#   c: y x     (only c pools y)
# RR with every group: a 1, b 1, c 1/2 → ranks a 1, b 2, c 3.
# Without A: a's u is unjudged, RR(a) = 1/2; among b = 1 (full) and c = 1/2 (full) a ties
#   c and keeps the better reference rank → rank 2: change −1.
# Without B: x unjudged; RR(b) = 0 → rank 3 (below a = 1, c = 1/2): change −1.
# Without C: y unjudged (was non-relevant anyway); RR(c) = 1/2, rank 3: change 0.
THREE = {"a": {"1": ["u", "x"]}, "b": {"1": ["x", "y"]}, "c": {"1": ["y", "x"]}}
THREE_QRELS = [("1", "u", 1), ("1", "x", 1), ("1", "y", 0)]


@pytest.fixture
def three() -> Experiment:
    return _experiment(THREE, THREE_QRELS, groups={"a": "A", "b": "B", "c": "C"})


def test_rank_change_three_runs_by_hand(three):
    res = leave_one_group_out_bias(three, depth=1, measures=["RR"])
    assert res.reference_score.tolist() == [[1.0, 1.0, 0.5]]
    assert res.reduced_score.tolist() == [[0.5, 0.0, 0.5]]
    assert res.reference_rank.tolist() == [[1, 2, 3]]
    assert res.reduced_rank.tolist() == [[2, 3, 3]]
    assert res.rank_change.tolist() == [[-1, -1, 0]]
    row = res.summary().loc["RR"]
    assert row["left_out"] == 3
    assert row["mean_abs_rank_change"] == pytest.approx(2 / 3)
    assert (row["max_rank_up"], row["max_rank_down"], row["moved_up"], row["moved_down"]) == (0, 1, 0, 2)
    # RMS of (1 − 0.5, 1 − 0, 0.5 − 0.5) = √((0.25 + 1 + 0)/3) = 0.645497
    assert row["rms_error"] == pytest.approx(np.sqrt(1.25 / 3))
    assert row["mean_score_change"] == pytest.approx(-0.5)
    # reduced ranking of every run: a 0.5, b 0, c 0.5 → only (b, c) is swapped: τ = 1 − 2/3;
    # τ_AP walks a, c, b: c below a is fine (1/1), b has a right and c wrong above it (1/2)
    assert row["kendall_tau"] == pytest.approx(1 / 3)
    assert row["tau_ap"] == pytest.approx(0.5)
    assert row["pct_significant"] == 0.0  # one topic: no paired t-test is possible
    # the paper's layout: statistics × measures
    table = res.table()
    assert table.loc["max_rank_down", "RR"] == 1 and list(table.columns) == ["RR"]


def test_other_runs_keep_their_reference_scores(three):
    # a is 2nd without A only because b keeps its reference RR of 1 in A's configuration
    # (b's own reduced RR is 0; ranked against reduced scores, a would be 1st)
    res = leave_one_group_out_bias(three, depth=1, measures=["RR"])
    frame = res.to_frame().set_index("run")
    assert frame.loc["a", "reduced_rank"] == 2
    assert frame.loc["b", "reduced_rank"] == 3
    assert frame.loc["a", "group"] == "A" and bool(frame.loc["a", "left_out"])
    assert frame.loc["b", "score_change"] == -1.0


# ============================================================================ leave-one-group-out
# Group G's run g pools its unique relevant r1; r2 and n1 are pooled by the others too.
#   g: r1 r2 n1   h: r2 n1 r1   o: r2 n1      (depth 2; r1, r2 relevant; n1 not)
# Full pool {r1, r2, n1}: R = 2, N = 1.
#   AP:    g (1/1 + 2/2)/2 = 1,  h (1/1 + 2/3)/2 = 0.8333,  o (1/1)/2 = 0.5
#   bpref: g (1 + 1)/2 = 1,      h (1 + 0)/2 = 0.5,          o (1 + 0)/2 = 0.5
# Without G, r1 is unjudged (h ranks it 3rd, o not at all): R = 1.
#   AP(g) = (1/2)/1 = 0.5: below h (0.8333), tied with o (0.5), rank 1 → 2.
#   bpref(g): r1 is skipped, r2 has no judged non-relevant above it → 1: rank stays 1.
GHO = {"g": {"1": ["r1", "r2", "n1"]}, "h": {"1": ["r2", "n1", "r1"]}, "o": {"1": ["r2", "n1"]}}
GHO_QRELS = [("1", "r1", 1), ("1", "r2", 1), ("1", "n1", 0)]


@pytest.fixture
def gho() -> Experiment:
    return _experiment(GHO, GHO_QRELS, groups={"g": "G", "h": "H", "o": "O"})


@pytest.mark.parametrize("reference", ["qrels", "pool"])
def test_unique_relevant_documents_vanish_ap_drops_bpref_does_not(gho, reference):
    res = leave_one_group_out_bias(gho, depth=2, measures=["AP", "bpref"], reference=reference)
    frame = res.to_frame().set_index(["measure", "run"])
    assert frame.loc[("AP", "g"), "reference_score"] == pytest.approx(1.0)
    assert frame.loc[("AP", "g"), "reduced_score"] == pytest.approx(0.5)
    assert frame.loc[("AP", "g"), "rank_change"] == -1
    assert frame.loc[("Bpref", "g"), "reference_score"] == pytest.approx(1.0)
    assert frame.loc[("Bpref", "g"), "reduced_score"] == pytest.approx(1.0)
    assert frame.loc[("Bpref", "g"), "rank_change"] == 0
    # h and o pooled nothing alone: their judgments, scores and ranks do not change
    for run in ("h", "o"):
        for m in ("AP", "Bpref"):
            assert frame.loc[(m, run), "score_change"] == 0.0 and frame.loc[(m, run), "rank_change"] == 0
    assert frame.loc[("AP", "h"), "reference_score"] == pytest.approx(5 / 6)


def test_reference_qrels_keeps_entries_beyond_the_pool(gho):
    # r3 is relevant but no run pools it at depth 2: with reference="qrels" it stays in
    # both judgments (R = 3, then 2); with "pool" it is never judged (R = 2, then 1).
    exp = _experiment(GHO, GHO_QRELS + [("1", "r3", 1)], groups={"g": "G", "h": "H", "o": "O"})
    by_qrels = leave_one_group_out_bias(exp, depth=2, measures=["AP"], reference="qrels")
    by_pool = leave_one_group_out_bias(exp, depth=2, measures=["AP"], reference="pool")
    assert by_qrels.reference_score[0, 0] == pytest.approx(2 / 3)  # (1 + 1)/3
    assert by_qrels.reduced_score[0, 0] == pytest.approx(0.25)  # (1/2)/2
    assert by_pool.reference_score[0, 0] == pytest.approx(1.0)
    assert by_pool.reduced_score[0, 0] == pytest.approx(0.5)


def test_groups_without_contributors_are_not_left_out():
    # x (group G) did not contribute; y (group Y) did and alone pools u; z is y's
    # non-contributing group mate. Every run ranks u (relevant) first: P@1 = 1 for all.
    same = {"1": ["u", "v"]}
    exp = _experiment({"x": same, "y": same, "z": same}, [("1", "u", 1), ("1", "v", 0)],
                      groups={"x": "G", "y": "Y", "z": "Y"}, contributors=["y"])
    res = leave_one_group_out_bias(exp, depth=1, measures=["P@1"])
    # a group's left-out runs are the runs it pooled (Büttcher et al.): y only, not its
    # non-contributing mate z (z is scored against the full pool)
    assert res.left_out.tolist() == [False, True, False]
    assert res.reference_score.tolist() == [[1.0, 1.0, 1.0]]
    # without Y, u is unjudged for y; G is never left out (it removed nothing) and z keeps
    # the full pool, so x and z keep their scores
    assert res.reduced_score.tolist() == [[1.0, 0.0, 1.0]]
    # y falls to 0 below x and z (both still 1): rank 2 → 3, a change of −1
    assert res.reference_rank.tolist() == [[1, 2, 3]] and res.reduced_rank[0, 1] == 3
    summary = res.summary().loc["P@1"]
    assert (summary["left_out"], summary["rms_error"], summary["max_rank_down"]) == (1, 1.0, 1)


def test_errors_name_the_parameter(gho):
    with pytest.raises(ValueError, match="reference must be one of 'qrels' or 'pool'.*got 'truth'"):
        leave_one_group_out_bias(gho, depth=2, reference="truth")
    with pytest.raises(ValueError, match="depth must be an integer ≥ 1, got 0"):
        leave_one_group_out_bias(gho, depth=0)
    with pytest.raises(ValueError, match="ranked must name at least 2 runs"):
        leave_one_group_out_bias(gho, depth=2, ranked=["g"])
    with pytest.raises(ValueError, match="unknown run 'gg'; did you mean 'g'"):
        leave_one_group_out_bias(gho, depth=2, ranked=["gg", "h"])
    res = leave_one_group_out_bias(gho, depth=2, measures=["AP"])
    with pytest.raises(ValueError, match="alpha must be a number with 0 < alpha < 1, got 5"):
        res.summary(alpha=5)


# ============================================================================ contributor subsets
# Automatic runs a1, a2 and manual run m; m alone pools the relevant w (depth 1).
#   a1: x y    a2: y x    m: w x      x, w relevant; y not.
# Reference P@1: a1 1, a2 0, m 1 → ranks a1 1, m 2 (tie broken by run order), a2 3.
# Automatic-only pool {x, y}: m's P@1 falls 1 → 0 and ties a2; m keeps its better
# reference rank, so the ranking does not change.
SUBSET = {"a1": {"1": ["x", "y"], "2": ["x", "y"]}, "a2": {"1": ["y", "x"], "2": ["y", "x"]},
          "m": {"1": ["w", "x"], "2": ["w", "x"]}}
SUBSET_QRELS = [(t, d, g) for t in ("1", "2") for d, g in (("w", 1), ("x", 1), ("y", 0))]


def test_contributor_subset_by_hand():
    exp = _experiment(SUBSET, SUBSET_QRELS)
    res = contributor_subset_bias(exp, ["a1", "a2"], depth=1, measures=["P@1", "RR"])
    assert res.kind == "contributor subset"
    assert res.left_out.tolist() == [False, False, True]  # default: contributors outside the subset
    p1 = res.to_frame().query("measure == 'P@1'").set_index("run")
    assert p1["reference_score"].tolist() == [1.0, 0.0, 1.0]
    assert p1["reduced_score"].tolist() == [1.0, 0.0, 0.0]
    assert p1["reference_rank"].tolist() == [1, 3, 2]
    assert p1["reduced_rank"].tolist() == [1, 3, 2]  # m ties a2 at 0 and keeps its better reference rank
    rr = res.to_frame().query("measure == 'RR'").set_index("run")
    # RR(m) = 1 → 1/2 (x at rank 2); a2: 1/2 both ways → m ties a2, keeps rank 2
    assert rr.loc["m", "reduced_score"] == 0.5
    # per-topic change of m's P@1 is −1 on both topics: constant → p = 0, significant
    assert res.summary().loc["P@1", "pct_significant"] == 100.0
    assert np.isnan(res.summary().loc["P@1", "kendall_tau_left_out"])  # one left-out run
    with pytest.raises(ValueError, match="pool_runs must be contributing runs"):
        contributor_subset_bias(_experiment(SUBSET, SUBSET_QRELS, contributors=["a1", "m"]), ["a2"], depth=1)


def test_pool_bias_matches_evaluate(gho):
    pool = depth_pool(gho, depth=1)  # g: r1, h/o: r2
    res = pool_bias(gho, pool, measures=["AP", "P@2"])
    ev = evaluate(gho, ["AP", "P@2"], judged=pool.judged)
    assert np.allclose(res.reduced_score, [ev.aggregate("AP"), ev.aggregate("P@2")])
    full = evaluate(gho, ["AP", "P@2"])
    assert np.allclose(res.reference_score, [full.aggregate("AP"), full.aggregate("P@2")])
    assert res.left_out.all() and "depth-1 pool" in res.description


# ============================================================================ simulated collection
@pytest.fixture(scope="module")
def small():
    from irnb.datasets import simulate

    return simulate(seed=11, num_topics=20, num_runs=16, num_groups=6, docs_per_topic=1500, run_depth=200,
                    pool_depth=30, median_relevant=40, novel_runs=2, keyword_runs=3)


def test_left_out_scores_equal_evaluate_with_the_group_pool(small):
    exp = small.experiment
    res = leave_one_group_out_bias(exp, depth=30)
    pools = leave_one_group_out(exp, depth=30)
    groups = np.asarray(exp.groups, dtype=object)
    for name in ("acorn", "cedar"):
        members = np.flatnonzero((groups == name) & exp.contributors)  # the group's pooled runs
        others = np.flatnonzero((groups == name) & ~exp.contributors)
        ev = evaluate(exp, list(BIAS_MEASURES), judged=pools[name].judged)
        for i, m in enumerate(res.measures):
            assert np.allclose(res.reduced_score[i, members], ev.aggregate(m)[members], atol=1e-12)
            assert np.array_equal(res.reduced_score[i, others], res.reference_score[i, others])
    # official qrels = the depth-30 pool of the contributors: both references agree
    by_pool = leave_one_group_out_bias(exp, depth=30, reference="pool")
    assert np.array_equal(by_pool.reduced_rank, res.reduced_rank)
    assert isinstance(res, BiasResult) and res.left_out.tolist() == exp.contributors.tolist()


@pytest.mark.parametrize("reference", ["qrels", "pool"])
@pytest.mark.parametrize("depth", [2, 5, 30, 100])
def test_reusing_untouched_topics_gives_the_recomputed_result(small, reference, depth):
    """Each group's runs are re-evaluated only on the topics whose judgments the removal
    changes; every array equals re-evaluating every topic, exactly."""
    from irnb.bias import _changed_topics, _leave_one_group_out

    exp = small.experiment
    kwargs = {"depth": depth, "measures": ["AP", "Bpref", "nDCG@10", "P@5"], "contributors": None, "ranked": None,
              "reference": reference, "n_jobs": None, "progress": False}
    reused, recomputed = _leave_one_group_out(exp, **kwargs), _leave_one_group_out(exp, reuse=False, **kwargs)
    for name in ("reference_score", "reduced_score", "reference_rank", "reduced_rank", "p_value", "kendall_tau",
                 "tau_ap", "kendall_tau_left_out", "left_out"):
        np.testing.assert_array_equal(getattr(reused, name), getattr(recomputed, name), err_msg=name)
    assert (recomputed.reduced_score != recomputed.reference_score).any()  # the removal changed scores
    pools = leave_one_group_out(exp, depth=depth, keep_unpooled=reference == "qrels")
    ref = None if reference == "qrels" else depth_pool(exp, depth=depth).judged
    changed = [_changed_topics(exp, pools.judged[g], ref).size for g in range(len(pools.groups))]
    if depth == 2:  # a shallow pool: a group's removal leaves some topics untouched, reused as they were
        assert min(changed) < len(exp.topics)


def test_simulated_collection_shows_the_papers_direction(small):
    table = leave_one_group_out_bias(small.experiment, depth=30).summary()
    # AP underestimates left-out runs (they move down), bpref overestimates them (up)
    assert table.loc["AP", "moved_down"] > table.loc["AP", "moved_up"]
    assert table.loc["Bpref", "moved_up"] > table.loc["AP", "moved_up"]
    assert table.loc["AP", "mean_score_change"] < 0 < table.loc["Bpref", "mean_score_change"]
    assert ((table["kendall_tau"] <= 1) & (table["kendall_tau"] > 0)).all()


def test_subsampling_curves(small):
    exp = small.experiment
    curves = subsampling_curves(exp, seed=5, fractions=[0.1, 0.5, 1.0], measures=["P@10", "bpref"])
    assert list(curves.columns) == ["fraction", "repeat", "measure", "judged", "mean_score", "kendall_tau", "tau_ap"]
    full = curves[curves["fraction"] == 1.0].set_index("measure")
    assert (full["kendall_tau"] == 1.0).all() and (full["tau_ap"] == 1.0).all()
    assert full.loc["P@10", "mean_score"] == pytest.approx(evaluate(exp, "P@10").aggregate("P@10").mean())
    p10 = curves[curves["measure"] == "P@10"].set_index("fraction")["mean_score"]
    assert p10[0.1] < p10[0.5] < p10[1.0]  # fewer judgments, fewer relevant documents found
    again = subsampling_curves(exp, seed=5, fractions=[0.1, 0.5, 1.0], measures=["P@10", "bpref"])
    pd.testing.assert_frame_equal(curves, again)
    with pytest.raises(ValueError, match="repeats must be an integer ≥ 1, got 0"):
        subsampling_curves(exp, seed=5, repeats=0)
    with pytest.raises(TypeError, match="seed must be an integer or a numpy Generator"):
        subsampling_curves(exp, seed=None)


# ============================================================================ binary judgments
def test_binary_judgments_change_ndcg_only_by_hand():
    # one topic: a (grade 2), b (grade 1), c (grade 0), p (grade -1: pooled, not judged).
    # r ranks b, a, c; s ranks a, b, c. Graded nDCG@2 of r: DCG (1 + 2/log2 3), ideal
    # (2 + 1/log2 3) → 0.8597; s is ideal: 1. Binary: both 1 (b and a are both relevant).
    exp = _experiment({"r": {"1": ["b", "a", "c"]}, "s": {"1": ["a", "b", "c"]}},
                      [("1", "a", 2), ("1", "b", 1), ("1", "c", 0), ("1", "p", -1)],
                      truth=pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "grade": [3, 1, 0]}))
    binary = binary_judgments(exp)
    assert binary.judgments.qrel_grade.tolist() == [1, 1, 0, -1]  # -1 stays pooled-but-unjudged
    assert binary.truth.qrel_grade.tolist() == [1, 1, 0]
    assert binary.qrels.to_frame()["grade"].tolist() == [1, 1, 0, -1]
    assert exp.judgments.qrel_grade.tolist() == [2, 1, 0, -1]  # the caller's Experiment is untouched
    graded = evaluate(exp, ["nDCG@2", "P@2", "AP", "Bpref"]).means()
    flat = evaluate(binary, ["nDCG@2", "P@2", "AP", "Bpref"]).means()
    g = 1 / np.log2(3)
    assert graded["nDCG@2"].tolist() == pytest.approx([(1 + 2 * g) / (2 + g), 1.0])
    assert flat["nDCG@2"].tolist() == [1.0, 1.0]
    pd.testing.assert_frame_equal(graded.drop(columns="nDCG@2"), flat.drop(columns="nDCG@2"))
    # a bias experiment on the binary judgments: nDCG's reference scores are the binary ones
    res = contributor_subset_bias(binary, ["s"], depth=3, measures=["nDCG@2"], contributors=["r", "s"])
    assert res.reference_score.tolist() == [[1.0, 1.0]]
    assert binary_judgments(exp, relevance_level=2).judgments.qrel_grade.tolist() == [1, 0, 0, -1]
    with pytest.raises(ValueError, match="relevance_level must be an integer"):
        binary_judgments(exp, relevance_level=0.5)
