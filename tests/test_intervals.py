"""Score intervals, point estimators, interval comparison and the E estimate
(irnb.intervals): hand-computed values, a pure-Python reference on random runs and qrels
(hypothesis), and the invariants of Ravana & Moffat's method."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import build_experiment, ranked_collections

from irnb import Experiment, evaluate
from irnb.intervals import (
    INTERVAL_PARAMS,
    ScoreIntervals,
    compare_intervals,
    estimate_background_rate,
    true_background_rate,
    interval_table,
    point_estimates,
    score_intervals,
)
from irnb.measures import parse_measure
from irnb.pooling import depth_pool

TOL = 1e-12


def _exp(ranking: list[str], qrels: dict[str, int], **kwargs) -> Experiment:
    run = pd.DataFrame({"qid": "1", "docno": ranking, "score": np.arange(len(ranking), 0, -1, dtype=float)})
    q = pd.DataFrame({"qid": "1", "docno": list(qrels), "grade": list(qrels.values())})
    return Experiment(run, q, **kwargs)


def _one(iv: ScoreIntervals) -> tuple[float, float, float]:
    return float(iv.lower[0, 0]), float(iv.upper[0, 0]), float(iv.residual[0, 0])


# =============================================================================== hand-computed
# ranking a b c d e f g h i j: a c e relevant, b d non-relevant, f..j unjudged
TEN = [f"{c}" for c in "abcdefghij"]
TEN_QRELS = {"a": 1, "b": 0, "c": 2, "d": 0, "e": 1}


def test_precision_interval_by_hand():
    iv = score_intervals(_exp(TEN, TEN_QRELS), "P@10")
    assert _one(iv) == pytest.approx((0.3, 0.8, 0.5))  # B = 3/10, T = 1 − 2/10
    iv = score_intervals(_exp(TEN, TEN_QRELS), "P@4")
    assert _one(iv) == pytest.approx((0.5, 0.5, 0.0))  # a b c d all judged: 2/4


def test_short_run_ranks_hold_no_document():
    # 3 documents, P@10: a relevant, x unjudged, b non-relevant; ranks 4..10 are empty,
    # so they can never be relevant: B = 1/10, T = 2/10, Δ = 1/10
    iv = score_intervals(_exp(["a", "x", "b"], {"a": 1, "b": 0}), "P@10")
    assert _one(iv) == pytest.approx((0.1, 0.2, 0.1))
    est = point_estimates(iv)
    assert float(est.interpolated[0, 0]) == pytest.approx(0.1 / 0.9)  # r / (k − u) = 1/9


def test_rbp_interval_by_hand():
    # p = 0.5, ranking a (rel) x (unjudged) b (non-rel): B = 0.5; unjudged weight 0.25;
    # tail beyond 3 documents 0.5³ = 0.125 → Δ = 0.375, T = 0.875
    iv = score_intervals(_exp(["a", "x", "b"], {"a": 1, "b": 0}), "RBP(p=0.5)")
    assert _one(iv) == pytest.approx((0.5, 0.875, 0.375))
    # with a cutoff of 2 the evaluated prefix is a x: tail 0.5² = 0.25, Δ = 0.25 + 0.25
    iv = score_intervals(_exp(["a", "x", "b"], {"a": 1, "b": 0}), "RBP(p=0.5)@2")
    assert _one(iv) == pytest.approx((0.5, 1.0, 0.5))
    # all judged: Δ is the tail only, 0.5³
    iv = score_intervals(_exp(["a", "c", "b"], {"a": 1, "b": 0, "c": 0}), "RBP(p=0.5)")
    assert _one(iv) == pytest.approx((0.5, 0.625, 0.125))


def test_sdcg_interval_by_hand():
    # SDCG@3, ranking a (rel) x (unjudged) b (non-rel): norm = 1 + 1/log2(3) + 1/2
    norm = 1 + 1 / math.log2(3) + 0.5
    iv = score_intervals(_exp(["a", "x", "b"], {"a": 1, "b": 0}), "SDCG@3")
    assert _one(iv) == pytest.approx((1 / norm, (1 + 1 / math.log2(3)) / norm, (1 / math.log2(3)) / norm))


def test_relevance_level_and_negative_grades():
    # P(rel=2)@4: only c (grade 2) is relevant; a (grade 1) is judged non-relevant.
    iv = score_intervals(_exp(["a", "c", "x", "n"], {"a": 1, "c": 2, "n": -1}), "P(rel=2)@4")
    # x (not in qrels) and n (grade −1: pooled, not judged) are unjudged: B = 1/4, Δ = 2/4
    assert _one(iv) == pytest.approx((0.25, 0.75, 0.5))


def test_estimators_by_hand():
    est = point_estimates(score_intervals(_exp(TEN, TEN_QRELS), "P@10"), background_rate=0.02)
    # B = 0.3, Δ = 0.5: X_B = 0.3 + 0.02·0.5; X_I = 0.3/0.5 = 3/5 (judged precision);
    # X_M(auto) = 0.3·1.5 + 0.25·0.02
    assert [float(est.get(x)[0, 0]) for x in "SBIM"] == pytest.approx([0.3, 0.31, 0.6, 0.455])
    est = point_estimates(score_intervals(_exp(TEN, TEN_QRELS), "P@10"), background_rate=0.02, smoothing=0.25)
    assert float(est.smoothed[0, 0]) == pytest.approx(0.25 * 0.6 + 0.75 * 0.31)
    assert float(est.get("smoothed")[0, 0]) == float(est.get("X_M")[0, 0])


def test_interpolated_is_background_rate_when_nothing_is_known():
    # no document of the top 3 judged: B = 0, Δ = 1 → X_I = E, X_M = E
    iv = score_intervals(_exp(["x", "y", "z"], {"a": 1}), "P@3")
    assert _one(iv) == (0.0, 1.0, 1.0)
    est = point_estimates(iv, background_rate=0.07)
    assert [float(est.get(x)[0, 0]) for x in "SBIM"] == pytest.approx([0.0, 0.07, 0.07, 0.07])


def test_means_and_frames():
    # topic 1: B = 0.3, T = 0.8; topic 2 (x y z unjudged, only P@10's 3 docs): B = 0, T = 0.3
    run = pd.DataFrame({"qid": ["1"] * 10 + ["2"] * 3, "docno": TEN + ["x", "y", "z"],
                        "score": list(range(10, 0, -1)) + [3, 2, 1]})
    q = pd.DataFrame({"qid": ["1"] * 5 + ["2"], "docno": list(TEN_QRELS) + ["w"],
                      "grade": list(TEN_QRELS.values()) + [1]})
    iv = score_intervals(Experiment(run, q), "P@10")
    assert iv.mean_lower.tolist() == pytest.approx([0.15])
    assert iv.mean_upper.tolist() == pytest.approx([0.55])
    frame = iv.to_frame()
    assert list(frame.columns) == ["run", "topic", "measure", "lower", "upper", "residual"]
    assert frame.set_index("topic").loc["all", ["lower", "upper", "residual"]].tolist() == pytest.approx(
        [0.15, 0.55, 0.4])
    est = iv.estimates()
    assert est.means()["X_I"].tolist() == pytest.approx([(0.6 + 0.0) / 2])  # topic 2: Δ = 0.3 → X_I = 0/0.7
    rows = est.to_frame()
    assert set(rows["estimator"]) == set("SBIM") and len(rows) == 4 * 3


# =============================================================================== comparison
def test_pessimistic_comparison_by_hand():
    iv = ScoreIntervals(parse_measure("P@10"), ("a", "b", "c"), ("1", "2"),
                        np.array([[0.5, 0.2], [0.1, 0.2], [0.6, 0.0]]),
                        np.array([[0.7, 0.4], [0.4, 0.3], [0.9, 0.1]]),
                        np.array([[0.2, 0.2], [0.3, 0.1], [0.3, 0.1]]),
                        np.ones((3, 2), bool))
    cmp = compare_intervals(iv)
    # topic 1: a [.5,.7] beats b [.1,.4]; a vs c [.6,.9] overlap; c beats b.
    # topic 2: a [.2,.4] beats c [0,.1]; a vs b [.2,.3] overlap; b beats c.
    assert cmp.outcome[:, :, 0].tolist() == [[0, 1, 0], [-1, 0, -1], [0, 1, 0]]
    assert cmp.outcome[:, :, 1].tolist() == [[0, 0, 1], [0, 0, 1], [-1, -1, 0]]
    assert cmp.wins.tolist() == [[0, 1, 1], [0, 0, 1], [0, 1, 0]]
    frame = cmp.to_frame()
    assert frame[["run_a", "run_b", "wins", "losses", "inconclusive"]].values.tolist() == [
        ["a", "b", 1, 0, 1], ["a", "c", 1, 0, 1], ["b", "c", 1, 1, 0]]


# =============================================================================== estimating E
def _background_experiment(relevant=(3, 5, 7, 9, 11)) -> Experiment:
    """len(relevant) runs; 20 documents per group c = 1, 2, …, a document of group c ranked by
    runs 1..c; ``relevant[c − 1]`` of group c's documents are relevant. Default: 3, 5, 7, 9,
    11 of 20 → fractions on the line 0.05 + 0.1c. Plus one judged relevant document that no
    run retrieved (the group at 0 runs)."""
    rows, qrels = [], []
    for c, n_rel in enumerate(relevant, start=1):
        for i in range(20):
            doc = f"g{c}d{i:02d}"
            qrels.append(("1", doc, int(i < n_rel)))
            rows += [(f"run{j}", "1", doc, float(100 - 10 * c - i * 0.1)) for j in range(1, c + 1)]
    qrels.append(("1", "lonely", 1))
    return Experiment(pd.DataFrame(rows, columns=["run", "qid", "docno", "score"]),
                      pd.DataFrame(qrels, columns=["qid", "docno", "grade"]))


def test_background_rate_fit_reads_the_trend_at_zero():
    fit = estimate_background_rate(_background_experiment(), depth=100)
    assert fit.num_runs.tolist() == [0, 1, 2, 3, 4, 5]
    assert fit.judged.tolist() == [1, 20, 20, 20, 20, 20]
    assert fit.fraction.tolist() == pytest.approx([1.0, 0.15, 0.25, 0.35, 0.45, 0.55])
    assert fit.in_fit.tolist() == [False, True, True, True, True, True]
    assert fit.rate == pytest.approx(0.05, abs=1e-9)  # the line 0.05 + 0.1c at c = 0
    assert fit.overall == pytest.approx((3 + 5 + 7 + 9 + 11 + 1) / 101)
    assert fit.fitted([2.0]).tolist() == pytest.approx([0.25])
    assert list(fit.to_frame().columns) == ["num_runs", "judged", "relevant", "fraction", "fitted", "in_fit"]


def test_background_rate_depth_counts_only_the_top_d():
    # run j ranks groups j, j+1, … in that order, so its top 20 is exactly group j: at
    # depth 20 every group is pooled by one run (35 of 100 relevant), "lonely" by none
    fit = estimate_background_rate(_background_experiment(), depth=20, degree=0)
    assert fit.num_runs.tolist() == [0, 1]
    assert fit.judged.tolist() == [1, 100] and fit.relevant.tolist() == [1, 35]
    assert fit.rate == pytest.approx(0.35)  # a degree-0 fit is the mean of the fitted groups


def test_background_rate_is_clipped_and_needs_enough_groups():
    with pytest.raises(ValueError, match=r"a degree-3 fit needs at least 4 distinct numbers of contributing runs, "
                                         r"got 2; lower degree= or deepen depth="):
        estimate_background_rate(_background_experiment(), depth=100, runs=["run1", "run2"])
    # fractions 0, 0, 0.5, 1 at 1..4 runs: the least-squares line is 0.35c − 0.5, negative at 0
    fit = estimate_background_rate(_background_experiment((0, 0, 10, 20)), depth=100, degree=1)
    assert fit.intercept == pytest.approx(-0.5) and fit.rate == 0.0


# =============================================================================== interval_table
def test_interval_table_columns_and_values():
    e = _exp(TEN, TEN_QRELS)
    table = interval_table(e, ["P@10", "AP"], estimator=None)
    assert list(table.columns) == ["run", "topic", "measure", "value", "lower", "upper", "residual", "estimate"]
    p10 = table[(table.measure == "P@10") & (table.topic == "1")].iloc[0]
    assert (p10.value, p10.lower, p10.upper, p10.residual) == pytest.approx((0.3, 0.3, 0.8, 0.5))
    ap = table[(table.measure == "AP") & (table.topic == "1")].iloc[0]
    assert ap.value == pytest.approx((1 + 2 / 3 + 3 / 5) / 3) and np.isnan(ap.lower) and np.isnan(ap.estimate)
    table = interval_table(e, ["P@10"], estimator="M", background_rate=0.02, smoothing="auto")
    assert table.estimate.tolist() == pytest.approx([0.455, 0.455])  # topic 1 and its mean ("all")
    assert table.topic.tolist() == ["1", "all"]


def test_interval_table_with_a_pool():
    e = _exp(TEN, TEN_QRELS, contributors=None)
    pool = depth_pool(e, depth=2)  # judges a, b only
    row = interval_table(e, ["P@10"], pool=pool, estimator="I", include_all=False).iloc[0]
    # a relevant, b non-relevant, 8 unjudged: B = 0.1, T = 0.9, X_I = 1/2
    assert (row.value, row.lower, row.upper, row.estimate) == pytest.approx((0.1, 0.1, 0.9, 0.5))


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(measures=["P@10", "AP"], estimator="B"), ValueError,
     r"estimator background \(X_B\) needs score intervals, which exist for P@k, RBP\(p\) \(binary gain\) and SDCG@k "
     r"only; AP has none"),
    (dict(measures=["P@10"], estimator="Q"), ValueError,
     r"estimator must be one of 'S' \(simplistic\), 'B' \(background\), 'I' \(interpolated\) or 'M' \(smoothed\), "
     r"got 'Q'"),
    (dict(measures=["P@10"], background_rate=1.5), ValueError,
     r"interval_table: background_rate \(E\) must be a number with 0 ≤ background_rate ≤ 1, got 1.5"),
    (dict(measures=["P@10"], smoothing="sometimes"), ValueError,
     r"interval_table: smoothing \(λ\) must be a number with 0 ≤ smoothing ≤ 1 or 'auto' \(λ = 1 − Δ\), "
     r"got 'sometimes'"),
    (dict(measures=["P@10"], smoothing=-0.5), ValueError,
     r"interval_table: smoothing \(λ\) must be a number with 0 ≤ smoothing ≤ 1, got -0.5"),
    (dict(measures=["P@10"], pool=np.ones(3, bool)), ValueError,
     r"pool masks 3 qrels entries, but the Experiment has 5"),
    (dict(measures=["P@10"], pool=[1, 0]), TypeError, r"pool must be an irnb.pooling.Pool or a 1-d boolean mask"),
])
def test_interval_table_errors_teach(kwargs, error, message):
    with pytest.raises(error, match=message):
        interval_table(_exp(TEN, TEN_QRELS), **kwargs)


def test_score_intervals_errors_teach():
    e = _exp(TEN, TEN_QRELS)
    with pytest.raises(ValueError, match=r"score intervals exist for P@k, RBP\(p\) and SDCG@k .*got AP; AP has no "
                                         r"monotone bounds: use irnb.intervals.scenarios\(\)"):
        score_intervals(e, "AP")
    with pytest.raises(ValueError, match=r"measurement_depth \(k\) must be an integer ≥ 1, got 0"):
        score_intervals(e, "P@10", measurement_depth=0)
    with pytest.raises(ValueError, match=r"binary-gain RBP .* use RBP\(p=0.9\)"):
        score_intervals(e, "RBP(p=0.9,gain=graded)")
    assert _one(score_intervals(e, "P@10", measurement_depth=4)) == pytest.approx((0.5, 0.5, 0.0))


def test_declared_parameters():
    assert INTERVAL_PARAMS["background_rate"].default == 0.01
    assert (INTERVAL_PARAMS["smoothing"].low, INTERVAL_PARAMS["smoothing"].high) == (0.0, 1.0)
    assert INTERVAL_PARAMS["measurement_depth"].low == 1


# =============================================================================== reference + properties
MEASURES = st.one_of(
    st.integers(1, 16).map(lambda k: f"P@{k}"),
    st.integers(1, 16).map(lambda k: f"SDCG@{k}"),
    st.sampled_from([0.5, 0.8, 0.95]).map(lambda p: f"RBP(p={p})"),
    st.tuples(st.sampled_from([0.5, 0.8]), st.integers(1, 16)).map(lambda a: f"RBP(p={a[0]})@{a[1]}"),
    st.integers(1, 8).map(lambda k: f"P(rel=2)@{k}"),
)


def _reference(labels: list[str], measure: str) -> tuple[float, float]:
    """B and T from a list of labels 'R' (relevant), 'N' (judged non-relevant), 'U' (unjudged)."""
    m = parse_measure(measure)
    k = m.cutoff
    top = labels if k is None else labels[:k]
    if m.family == "P":
        return top.count("R") / k, (top.count("R") + top.count("U")) / k
    if m.family == "SDCG":
        norm = sum(1 / math.log2(i + 2) for i in range(k))
        lo = sum(1 / math.log2(i + 2) for i, x in enumerate(top) if x == "R") / norm
        return lo, lo + sum(1 / math.log2(i + 2) for i, x in enumerate(top) if x == "U") / norm
    p = m.param("p")
    lo = sum((1 - p) * p ** i for i, x in enumerate(top) if x == "R")
    return lo, lo + sum((1 - p) * p ** i for i, x in enumerate(top) if x == "U") + p ** len(top)


def _labels(runs, qrels, judged: set, rel_level: int):
    out = {}
    for name, topics in runs.items():
        for t, docs in topics:
            labels = []
            for d in docs:
                grade = qrels.get((t, d))
                if grade is None or grade < 0 or (t, d) not in judged:
                    labels.append("U")
                else:
                    labels.append("R" if grade >= rel_level else "N")
            out[name, t] = labels
    return out


@settings(max_examples=80, deadline=None)
@given(ranked_collections(), MEASURES, st.integers(1, 8), st.floats(0, 1), st.one_of(st.just("auto"), st.floats(0, 1)))
def test_bounds_match_the_reference_and_contain_every_estimator(collection, measure, depth, rate, smoothing):
    runs, qrels, contributors = collection
    e = build_experiment(runs, qrels, contributors)
    pool = depth_pool(e, depth=depth)
    pooled = {(t, d) for c in contributors for t, docs in runs[c] for d in docs[:depth]}
    judged = {key for key in qrels if key in pooled}
    m = parse_measure(measure)
    labels = _labels(runs, qrels, judged, m.rel)
    iv = score_intervals(e, measure, pool=pool)
    topics = list(e.topics)
    for (name, t), lab in labels.items():
        s, ti = e.run_names.index(name), topics.index(t)
        lo, hi = _reference(lab, measure)
        assert iv.lower[s, ti] == pytest.approx(lo, abs=1e-12)
        assert iv.upper[s, ti] == pytest.approx(hi, abs=1e-12)
    # B is the ordinary score of the pooled qrels (trec_eval rules)
    np.testing.assert_allclose(iv.lower, evaluate(e, measure, judged=pool.judged)[measure], atol=1e-12)
    assert np.all(iv.residual >= 0) and np.all(iv.upper <= 1 + TOL)
    np.testing.assert_allclose(iv.upper - iv.lower, iv.residual, atol=1e-12)
    est = point_estimates(iv, background_rate=rate, smoothing=smoothing)
    for x in "SBIM":
        values = est.get(x)
        assert np.all(iv.lower - TOL <= values) and np.all(values <= iv.upper + TOL), x
    if m.family == "P":  # X_I = judged-relevant / judged in the top k (empty ranks count as judged 0)
        for (name, t), lab in labels.items():
            s, ti = e.run_names.index(name), topics.index(t)
            top = lab[: m.cutoff]
            known = m.cutoff - top.count("U")
            expected = top.count("R") / known if known else rate
            assert est.interpolated[s, ti] == pytest.approx(expected, abs=1e-12)
            if len(lab) >= m.cutoff and known:
                assert est.interpolated[s, ti] == pytest.approx(top.count("R") / (top.count("R") + top.count("N")))


@settings(max_examples=40, deadline=None)
@given(ranked_collections(all_judged=True), MEASURES)
def test_everything_judged_collapses_the_interval(collection, measure):
    runs, qrels, contributors = collection
    e = build_experiment(runs, qrels, contributors)
    iv = score_intervals(e, measure)
    ordinary = evaluate(e, measure)[measure]
    np.testing.assert_allclose(iv.lower, ordinary, atol=1e-12)
    m = parse_measure(measure)
    if m.family == "RBP":  # only the tail beyond the run is left: p^n
        n = np.minimum(e.length, m.cutoff or e.depth)
        np.testing.assert_allclose(iv.residual, m.param("p") ** n, atol=1e-12)
    else:
        assert np.all(iv.residual == 0.0)
        np.testing.assert_array_equal(iv.upper, iv.lower)
        for x in "SBIM":
            np.testing.assert_allclose(iv.estimates().get(x), ordinary, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(ranked_collections(), MEASURES, st.integers(1, 6), st.integers(1, 6))
def test_deeper_pools_never_widen_a_contributing_runs_interval(collection, measure, d1, extra):
    runs, qrels, contributors = collection
    e = build_experiment(runs, qrels, contributors)
    shallow = score_intervals(e, measure, pool=depth_pool(e, depth=d1))
    deep = score_intervals(e, measure, pool=depth_pool(e, depth=d1 + extra))
    rows = e.contributors  # the property holds for every run; asserted here for the contributing runs
    assert np.all(deep.lower[rows] >= shallow.lower[rows] - TOL)
    assert np.all(deep.upper[rows] <= shallow.upper[rows] + TOL)
    assert np.all(deep.residual[rows] <= shallow.residual[rows] + TOL)


@settings(max_examples=40, deadline=None)
@given(ranked_collections(), st.sampled_from(["P@5", "RBP(p=0.8)", "SDCG@5"]), st.integers(1, 5))
def test_pessimistic_comparison_matches_pairwise_definition(collection, measure, depth):
    runs, qrels, contributors = collection
    e = build_experiment(runs, qrels, contributors)
    iv = score_intervals(e, measure, pool=depth_pool(e, depth=depth))
    cmp = compare_intervals(iv)
    S, T = iv.lower.shape
    for i in range(S):
        for j in range(S):
            for t in range(T):
                both = iv.evaluated[i, t] and iv.evaluated[j, t]
                expected = 0
                if both and iv.lower[i, t] > iv.upper[j, t]:
                    expected = 1
                elif both and iv.upper[i, t] < iv.lower[j, t]:
                    expected = -1
                assert cmp.outcome[i, j, t] == expected
    np.testing.assert_array_equal(cmp.wins, cmp.losses.T)
    np.testing.assert_array_equal(cmp.wins + cmp.losses + cmp.inconclusive, cmp.compared)


# =============================================================================== rbp_eval reference
@pytest.mark.shared
@pytest.mark.parametrize("spec", ["1.spec", "3.spec", "4.spec"])
def test_rbp_bounds_match_rbp_eval(spec, shared_dir):
    """rbp_eval (Moffat's tool) prints, per topic and depth d, the RBP sum (= B) and its
    error (= Δ: unjudged weight + p^d); binary qrels, no ties, so every ordering agrees."""
    folder = shared_dir / "reference" / "rbp_eval"
    lines = [ln for ln in (folder / spec).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    args = lines[0].split()
    depths = [int(x) for x in args[args.index("-d") + 1].split(",")]
    ps = [float(x) for x in args[args.index("-p") + 1].split(",")]
    qrels_file, run_file = args[-2], args[-1]
    numbers = iter(float(tok) for ln in lines[1:] for tok in ln.split())
    e = Experiment({"run": folder / run_file}, folder / qrels_file)

    def block():
        next(numbers), next(numbers)  # num_rel, num_ret
        out = {}
        for d in depths:
            next(numbers)  # num_rel_ret
            for p in ps:
                out[d, p] = (next(numbers), next(numbers))
        return out

    expected = [block() for _ in e.topics]
    overall = block()
    checked = 0
    for d in depths:
        for p in ps:
            iv = score_intervals(e, f"RBP(p={p})@{d}")
            for t, exp_t in enumerate(expected):
                assert round(float(iv.lower[0, t]), 4) == pytest.approx(exp_t[d, p][0], abs=1e-9)
                assert round(float(iv.residual[0, t]), 4) == pytest.approx(exp_t[d, p][1], abs=1e-9)
                checked += 1
            assert round(float(iv.mean_lower[0]), 4) == pytest.approx(overall[d, p][0], abs=1e-9)
            assert round(float(iv.mean_residual[0]), 4) == pytest.approx(overall[d, p][1], abs=1e-9)
    assert checked == len(depths) * len(ps) * 2


def test_rbp_negligible_deep_ranks():
    # p = 0.5: ranks from 64 on weigh 2^-64 together and are skipped. A 100-document
    # ranking, all judged non-relevant except a relevant document at rank 3 and rank 80.
    docs = [f"d{i:03d}" for i in range(100)]
    qrels = {d: int(i in (2, 79)) for i, d in enumerate(docs)}
    iv = score_intervals(_exp(docs, qrels), "RBP(p=0.5)")
    exact_lower = 0.5 * 0.5 ** 2 + 0.5 * 0.5 ** 79
    assert abs(float(iv.lower[0, 0]) - exact_lower) < 2.0 ** -64
    assert abs(float(iv.residual[0, 0]) - 0.5 ** 100) < 2.0 ** -64  # only the tail p^100
    # an unjudged document at rank 90: Δ = 0.5·0.5^89 + 0.5^100, still below 2^-64 off
    del qrels["d089"]
    iv = score_intervals(_exp(docs, qrels), "RBP(p=0.5)")
    assert abs(float(iv.residual[0, 0]) - (0.5 * 0.5 ** 89 + 0.5 ** 100)) < 2.0 ** -64
    assert float(iv.upper[0, 0]) <= 1.0


def test_interval_table_graded_rbp_has_no_interval():
    e = _exp(["a", "x", "b"], {"a": 2, "b": 0})
    table = interval_table(e, ["RBP(p=0.5,gain=graded)", "RBP(p=0.5)"], include_all=False)
    graded, binary = table.iloc[0], table.iloc[1]
    assert graded.value == pytest.approx(0.5) and np.isnan(graded.lower)  # grade 2 / top grade 2
    assert (binary.lower, binary.upper) == pytest.approx((0.5, 0.875))
    with pytest.raises(ValueError, match=r"RBP\(p=0.5,gain=graded\) has none"):
        interval_table(e, ["RBP(p=0.5,gain=graded)"], estimator="S")


def test_true_background_rate_counts_unjudged_positions_against_the_truth():
    """Run a ranks r1 n1 u1 u2, run b ranks u1 r1 u3 (one topic); qrels judge r1, n1; the
    truth adds u1 relevant, u2 non-relevant, u3 relevant. Top 3: unjudged positions a@3 (u1),
    b@1 (u1), b@3 (u3) → all relevant, E = 3/3; top 4 adds a@4 (u2): 3/4. A pool of run a's
    top 1 leaves n1 unjudged too (a@2, non-relevant in truth): top 3 → 3/4. Positions past
    a run's end (b@4) do not count."""
    runs = pd.DataFrame({"run": ["a"] * 4 + ["b"] * 3, "qid": "1",
                         "docno": ["r1", "n1", "u1", "u2", "u1", "r1", "u3"],
                         "score": [4.0, 3.0, 2.0, 1.0, 3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["r1", "n1"], "grade": [1, 0]})
    truth = pd.DataFrame({"qid": "1", "docno": ["r1", "n1", "u1", "u2", "u3"], "grade": [1, 0, 1, 0, 1]})
    exp = Experiment(runs, qrels, truth=truth)
    assert true_background_rate(exp, measurement_depth=3) == 1.0
    assert true_background_rate(exp, measurement_depth=4) == 0.75
    assert true_background_rate(exp, measurement_depth=3, runs=["a"]) == 1.0
    pool = depth_pool(exp, depth=1, runs=["a"])
    assert true_background_rate(exp, measurement_depth=3, pool=pool) == 0.75
    with pytest.raises(ValueError, match="the Experiment has no truth"):
        true_background_rate(Experiment(runs, qrels), measurement_depth=3)
    with pytest.raises(ValueError, match="no unjudged document that the truth judges in the top 1"):
        true_background_rate(exp, measurement_depth=1, runs=["a"])
