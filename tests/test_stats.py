"""irnb.stats: all-pairs paired tests against scipy's per-pair functions, hand-computed
values, the written policies (ties, zeros, missing topics, degenerate pairs) and the
multiple-comparison corrections."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import special
from scipy import stats as sps

import irnb
from irnb import pair_kernels, stats
from irnb.corrections import holm
from irnb.stats import anova_bonferroni, pairwise_test, randomization_test, sign_test, t_test, tukey_hsd, wilcoxon_test

TOL = 1e-12


# ------------------------------------------------------------------ scipy references, one pair at a time
def _shared(X, a, b):
    keep = ~np.isnan(X[a]) & ~np.isnan(X[b])
    return X[a][keep], X[b][keep]


def _ref(X, res, fn):
    """scipy's p-value for every pair of ``res``, applying the module's written policy for
    the degenerate pairs (no shared topic → NaN; identical scores → 1)."""
    out = []
    for a, b in zip(res.run_a, res.run_b, strict=True):
        x, y = _shared(X, a, b)
        if x.size == 0:
            out.append(np.nan)
        elif np.all(x == y):
            out.append(1.0)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.append(fn(x, y))
    return np.asarray(out, dtype=float)


def _sign_ref(x, y):
    d = x - y
    return sps.binomtest(int((d > 0).sum()), int((d != 0).sum())).pvalue


def _assert_p(actual, expected):
    actual, expected = np.asarray(actual, float), np.asarray(expected, float)
    assert np.array_equal(np.isnan(actual), np.isnan(expected))
    ok = ~np.isnan(expected)
    assert np.max(np.abs(actual[ok] - expected[ok]), initial=0.0) <= TOL


def _matrix(rng, S, T, kind, missing=0.0):
    if kind == "continuous":
        X = rng.random((S, T))
    elif kind == "coarse":  # P@10-like: many ties and zero differences
        X = rng.integers(0, 4, (S, T)) / 10
    else:  # rounded: ties, zeros, and float differences such as 0.3 − 0.2
        X = np.round(rng.random((S, T)), 1)
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
    return X


# scipy's own sign-flip enumeration (ties or zeros, ≤ 13 topics) costs seconds per pair at
# 12–13 topics, so the boundary case (13 topics) is a single pair.
CASES = [(S, T, kind, missing) for S, T, kind, missing in [
    (4, 3, "continuous", 0), (4, 8, "coarse", 0), (4, 10, "rounded", 0), (2, 13, "coarse", 0),
    (4, 14, "coarse", 0), (4, 30, "continuous", 0), (4, 50, "continuous", 0), (4, 50, "rounded", 0),
    (4, 51, "continuous", 0), (3, 80, "coarse", 0), (5, 12, "rounded", 0.3), (4, 60, "continuous", 0.2),
]]


# ------------------------------------------------------------------ agreement with scipy, fixed seeds
@pytest.mark.parametrize("S,T,kind,missing", CASES)
def test_t_sign_match_scipy(rng, S, T, kind, missing):
    X = _matrix(rng, S, T, kind, missing)
    res = t_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.ttest_rel(x, y).pvalue))
    ts = _ref(X, res, lambda x, y: sps.ttest_rel(x, y).statistic)
    fin = np.isfinite(ts)
    assert np.allclose(res.statistic[fin], ts[fin], rtol=1e-12, atol=0)
    res = sign_test(X)
    _assert_p(res.p_value, _ref(X, res, _sign_ref))


@pytest.mark.parametrize("S,T,kind,missing", CASES)
def test_wilcoxon_default_matches_scipy(rng, S, T, kind, missing):
    X = _matrix(rng, S, T, kind, missing)
    res = wilcoxon_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.wilcoxon(x, y).pvalue))
    stat = _ref(X, res, lambda x, y: sps.wilcoxon(x, y).statistic)
    differ = res.p_value < 1  # identical pairs: statistic 0 by policy
    assert np.allclose(res.statistic[differ], stat[differ], rtol=0, atol=1e-9)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
@pytest.mark.parametrize("correction", [False, True])
def test_wilcoxon_options_match_scipy(rng, zero_method, method, correction):
    for S, T, kind in [(3, 8, "coarse"), (3, 25, "rounded"), (3, 40, "continuous"), (3, 60, "coarse")]:
        X = _matrix(rng, S, T, kind)
        res = wilcoxon_test(X, zero_method=zero_method, method=method, correction=correction)
        ref = _ref(X, res, lambda x, y: sps.wilcoxon(x, y, zero_method=zero_method, method=method,
                                                      correction=correction).pvalue)
        _assert_p(res.p_value, ref)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [False, True])
def test_wilcoxon_tie_and_zero_corrections_match_scipy_across_blocks(rng, zero_method, correction):
    """Scores rounded to two decimals (ties and zero differences in most pairs, as real P@10
    and AP scores have), more pairs than one block of the kernel, every zero rule with and
    without the continuity correction: p-values and statistics equal scipy's vectorised call."""
    X = np.round(rng.beta(2, 5, size=(100, 60)), 2)
    X[7] = X[3]  # one pair with every difference zero (p = 1 by policy; scipy gives NaN)
    res = wilcoxon_test(X, zero_method=zero_method, correction=correction)
    a, b = np.asarray(res.run_a), np.asarray(res.run_b)
    assert a.size > pair_kernels._BLOCK
    d = X[a] - X[b]
    assert (d == 0).any(axis=1).mean() > 0.5  # zeros in most pairs
    assert np.mean([np.unique(np.abs(row[row != 0])).size < np.count_nonzero(row) for row in d[:200]]) > 0.9  # ties
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = sps.wilcoxon(X[a], X[b], axis=1, zero_method=zero_method, correction=correction)
    identical = (d == 0).all(axis=1)
    assert identical.sum() == 1 and res.p_value[identical][0] == 1.0
    _assert_p(res.p_value[~identical], ref.pvalue[~identical])
    assert np.allclose(res.statistic[~identical], ref.statistic[~identical], rtol=0, atol=1e-9)


def test_wilcoxon_auto_uses_scipys_three_methods(rng):
    """method='auto' must choose per pair exactly as scipy: exact (≤ 50, no ties/zeros),
    exact sign-flip enumeration (≤ 13 with ties/zeros), normal approximation otherwise."""
    seen = set()
    for T, kind in [(10, "continuous"), (10, "coarse"), (30, "coarse"), (60, "continuous")]:
        res = wilcoxon_test(_matrix(rng, 5, T, kind))
        seen |= set(res.method[res.p_value < 1])
    assert seen == {"exact", "permutation", "asymptotic"}
    res = wilcoxon_test(_matrix(rng, 3, 51, "continuous"))
    assert set(res.method) == {"asymptotic"}  # more than 50 topics, even without ties


def test_anova_and_tukey_match_scipy(rng):
    for S, T, kind, missing in [(4, 10, "continuous", 0), (3, 12, "coarse", 0), (4, 15, "rounded", 0.2)]:
        X = _matrix(rng, S, T, kind, missing)
        groups = [row[~np.isnan(row)] for row in X]
        res = anova_bonferroni(X)
        f = sps.f_oneway(*groups)
        assert abs(res.omnibus.p_value - f.pvalue) <= TOL
        assert abs(res.omnibus.statistic - f.statistic) <= 1e-9 * abs(f.statistic)
        res = tukey_hsd(X)  # the shared studentized-range distribution: documented bound 1e-8
        ref = sps.tukey_hsd(*groups).pvalue[res.run_a, res.run_b]
        assert np.max(np.abs(res.p_value - ref)) <= 1e-8


# ------------------------------------------------------------------ property tests (hypothesis)
VALUES = st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 1.0])


@st.composite
def score_matrices(draw, min_topics=1, max_topics=10):
    S = draw(st.integers(2, 4))
    T = draw(st.integers(min_topics, max_topics))
    if draw(st.booleans()):
        flat = draw(st.lists(VALUES, min_size=S * T, max_size=S * T))
    else:
        flat = draw(st.lists(st.floats(0, 1, allow_nan=False, width=32), min_size=S * T, max_size=S * T))
    X = np.asarray(flat, dtype=float).reshape(S, T)
    if draw(st.booleans()):
        holes = draw(st.lists(st.booleans(), min_size=S * T, max_size=S * T))
        X[np.asarray(holes).reshape(S, T) & (np.arange(T) % 3 == 0)[None, :]] = np.nan
    return X


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_matrices())
def test_property_pairs_match_scipy(X):
    res = t_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.ttest_rel(x, y).pvalue))
    res = wilcoxon_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.wilcoxon(x, y).pvalue))
    res = sign_test(X)
    _assert_p(res.p_value, _ref(X, res, _sign_ref))
    assert len(res) == X.shape[0] * (X.shape[0] - 1) // 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_matrices(min_topics=14, max_topics=70))
def test_property_wilcoxon_exact_and_asymptotic_match_scipy(X):
    res = wilcoxon_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.wilcoxon(x, y).pvalue))
    res = t_test(X)
    _assert_p(res.p_value, _ref(X, res, lambda x, y: sps.ttest_rel(x, y).pvalue))


# ------------------------------------------------------------------ hand-computed values
def test_t_hand_example():
    # d = 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t = 0.2/(0.1/√3) = 2√3; df = 2: p = 1 − t/√(t² + 2)
    res = t_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4]], run_names=["a", "b"])
    t = 2 * np.sqrt(3)
    assert res.statistic[0] == pytest.approx(t, rel=1e-12)
    assert res.p_value[0] == pytest.approx(1 - t / np.sqrt(t * t + 2), abs=1e-12)
    assert res.d_z[0] == pytest.approx(2.0, rel=1e-12) and res.mean_diff[0] == pytest.approx(0.2, abs=1e-15)


def test_wilcoxon_exact_hand_example():
    # d = 0.1, 0.2, 0.3: R+ = 6 is reached by 1 of 8 sign patterns, R+ = 0 by 1: p = 2/8
    res = wilcoxon_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4]])
    assert (res.p_value[0], res.statistic[0], res.method[0]) == (0.25, 0.0, "exact")
    assert res.direction[0] == 1


def test_wilcoxon_zero_difference_dropped_or_ranked():
    # d = 0, 1, 2, 3; 'wilcox' drops the zero: R+ = 1+2+3 = 6, the maximum of 2³ patterns → p = 2/8.
    # 'pratt' ranks the zero (rank 1) and drops it: R+ = 2+3+4 = 9, again 1 of 8 → p = 2/8.
    X = [[0.0, 1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 0.0]]
    for zm in ("wilcox", "pratt"):
        res = wilcoxon_test(X, zero_method=zm)
        assert res.method[0] == "permutation" and res.p_value[0] == 0.25


def test_wilcoxon_ties_hand_example():
    # d = 1, 1, 2, −3: ranks 1.5, 1.5, 3, 4; R+ = 6. Of the 16 sign patterns, 6 give R+ ≥ 6
    # (7, 6, 7, 8.5, 8.5, 10) and 11 give R+ ≤ 6, so p = 2·6/16 = 0.75.
    res = wilcoxon_test([[1.0, 1.0, 2.0, -3.0], [0.0, 0.0, 0.0, 0.0]])
    assert res.method[0] == "permutation" and res.p_value[0] == 0.75
    assert res.statistic[0] == 4.0  # min(R+, R−) = min(6, 4)


def test_wilcoxon_all_tied_equals_sign_normal_approximation():
    # 60 topics, |d| all tied, 40 positive: the tie-corrected z reduces to (k − n/2)/√(n/4) = 10/√15
    X = np.array([[1.0] * 40 + [0.0] * 20, [0.0] * 40 + [1.0] * 20])
    res = wilcoxon_test(X)
    assert res.method[0] == "asymptotic"
    assert res.p_value[0] == pytest.approx(2 * special.ndtr(-10 / np.sqrt(15)), abs=1e-12)


def test_sign_test_hand_examples_and_ties():
    # a > b on 5 of 6 differing topics, one tie dropped: p = 2·(1 + 6)/2⁶ = 0.21875
    res = sign_test([[1, 1, 1, 1, 1, 0, 0.5], [0, 0, 0, 0, 0, 1, 0.5]])
    assert res.p_value[0] == pytest.approx(0.21875, abs=1e-15) and res.statistic[0] == pytest.approx(5 / 6)
    # 3 of 3 (one tie dropped): 2·(1/8)
    res = sign_test([[1, 1, 1, 0.5], [0, 0, 0, 0.5]])
    assert res.p_value[0] == pytest.approx(0.25, abs=1e-15)
    # as many wins as losses: p = 1
    assert sign_test([[1, 0, 1, 0], [0, 1, 0, 1]]).p_value[0] == 1.0


def test_anova_bonferroni_hand_example():
    # groups (1,2,3), (2,3,4), (3,4,5): means 2, 3, 4; SSW = 6, MSE = 6/6 = 1; SSB = 3·(1+0+1) = 6,
    # F = (6/2)/1 = 3. a–c: t = −2/√(2/3); p_raw = 2·P(T₆ ≥ |t|); Bonferroni ×3.
    res = anova_bonferroni([[1, 2, 3], [2, 3, 4], [3, 4, 5]], run_names=["a", "b", "c"])
    assert res.omnibus.statistic == pytest.approx(3.0) and (res.omnibus.df_between, res.omnibus.df_within) == (2, 6)
    t = -2 / np.sqrt(2 / 3)
    frame = res.to_frame().set_index(["run_a", "run_b"])
    assert frame.loc[("a", "c"), "statistic"] == pytest.approx(t, rel=1e-12)
    assert frame.loc[("a", "c"), "p_value"] == pytest.approx(3 * 2 * sps.t.sf(abs(t), 6), abs=1e-12)
    assert frame.loc[("a", "b"), "p_value"] == pytest.approx(min(1.0, 3 * 2 * sps.t.sf(1 / np.sqrt(2 / 3), 6)))


def test_adjust_corrects_over_all_pairs(rng):
    X = _matrix(rng, 5, 20, "continuous")
    raw = t_test(X)
    adj = raw.adjust("holm")
    assert adj.adjustment == "holm" and raw.adjustment == "none"
    assert np.allclose(adj.p_value, holm(raw.p_value)) and np.all(adj.p_value >= raw.p_value)
    assert np.allclose(raw.adjust("bonferroni").p_value, np.minimum(1, raw.p_value * 10))
    with pytest.raises(ValueError, match="already corrected \\(holm\\)"):
        adj.adjust("bonferroni")
    with pytest.raises(ValueError, match="adjustment method must be one of"):
        raw.adjust("sidak")


# ------------------------------------------------------------------ randomization test
def _exact_signflip_p(d):
    """Two-sided exact sign-flip p-value by brute force: |Σ ±d| ≥ |Σ d| over all 2^n patterns."""
    obs = abs(d.sum())
    sums = [abs(np.dot(s, d)) for s in itertools.product((-1, 1), repeat=d.size)]
    return np.mean(np.asarray(sums) >= obs - 1e-12)


def test_randomization_agrees_with_exhaustive_enumeration(rng):
    X = _matrix(rng, 4, 9, "continuous")
    B = 20000
    res = randomization_test(X, n_resamples=B, seed=7)
    for i, (a, b) in enumerate(zip(res.run_a, res.run_b, strict=True)):
        exact = _exact_signflip_p(X[a] - X[b])
        assert abs(res.p_value[i] - exact) <= 4.5 * np.sqrt(exact * (1 - exact) / B) + 2 / B


def test_randomization_never_zero_and_reproducible(rng):
    X = np.vstack([np.full(30, 0.9), np.full(30, 0.1), _matrix(rng, 2, 30, "continuous")])
    B = 999
    res = randomization_test(X, n_resamples=B, seed=3)
    assert res.p_value.min() > 0
    assert res.p_value[0] == 1 / (B + 1)  # constant difference on 30 topics: no flip reaches it
    assert np.array_equal(res.p_value, randomization_test(X, n_resamples=B, seed=3).p_value)
    other = randomization_test(X, n_resamples=B, seed=4).p_value
    assert not np.array_equal(res.p_value, other)
    g1 = randomization_test(X, n_resamples=B, seed=np.random.default_rng(3)).p_value
    assert np.array_equal(g1, res.p_value)  # a Generator seeded alike draws the same flips
    assert set(np.round(res.p_value * (B + 1), 9)) <= set(np.arange(1, B + 2, dtype=float))  # (b+1)/(B+1)


def test_randomization_identical_runs_p_one():
    res = randomization_test([[0.1, 0.2, 0.3], [0.1, 0.2, 0.3]], n_resamples=99, seed=0)
    assert res.p_value[0] == 1.0


# ------------------------------------------------------------------ written policies
@pytest.mark.parametrize("test", stats.TESTS)
def test_identical_runs_p_one_every_test(test):
    X = np.array([[0.1, 0.5, 0.3, 0.2], [0.1, 0.5, 0.3, 0.2], [0.9, 0.8, 0.7, 0.95]])
    res = pairwise_test(X, test=test)
    assert res.p_value[0] == 1.0 and res.statistic[0] == 0.0 and res.direction[0] == 0


def test_degenerate_pairs():
    X = np.array([[0.5, 0.75, np.nan, np.nan], [np.nan, np.nan, 0.1, 0.2], [0.25, 0.5, 0.1, 0.1]])
    res = t_test(X)  # pair (0, 1) shares no topic
    assert res.n_topics.tolist() == [0, 2, 2]
    assert np.isnan(res.p_value[0]) and np.isnan(res.statistic[0]) and res.direction[0] == 0
    # pair (0, 2): constant difference 0.25 (exact in binary) on 2 topics → t = +inf, p = 0 (as scipy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about the zero variance
        assert sps.ttest_rel([0.5, 0.75], [0.25, 0.5]).pvalue == 0.0
    assert res.statistic[1] == np.inf and res.p_value[1] == 0.0 and res.d_z[1] == np.inf
    one = t_test([[0.5, np.nan], [0.2, 0.3]])  # one shared topic, non-zero difference
    assert np.isnan(one.p_value[0]) and np.isnan(one.d_z[0])


def test_topic_rules_on_an_evaluation():
    # run b does not answer topic 2: 'pairwise' drops topic 2 for pairs with b only
    run = pd.DataFrame({
        "run": ["a"] * 6 + ["b"] * 4 + ["c"] * 6,
        "qid": ["1", "1", "2", "2", "3", "3"] + ["1", "1", "3", "3"] + ["1", "1", "2", "2", "3", "3"],
        "docno": ["x", "y", "x", "y", "x", "y"] + ["x", "y", "y", "x"] + ["y", "x", "y", "x", "x", "y"],
        "score": [2.0, 1.0] * 3 + [2.0, 1.0] * 2 + [2.0, 1.0] * 3,
    })
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2", "3", "3"], "docno": ["x", "y"] * 3, "grade": [1, 0, 1, 0, 0, 1]})
    ev = irnb.evaluate(irnb.Experiment(run, qrels), ["P@1"])
    assert ev.evaluated.tolist() == [[True, True, True], [True, False, True], [True, True, True]]
    # P@1: a = (1, 1, 0), b = (1, –, 1), c = (0, 0, 0)
    res = t_test(ev, "P@1")
    assert res.measure == "P@1" and res.run_names == ("a", "b", "c")
    assert res.n_topics.tolist() == [2, 3, 2]
    assert res.mean_diff.tolist() == pytest.approx([-0.5, 2 / 3, 1.0])
    common = t_test(ev, "P@1", topics="common")
    assert common.n_topics.tolist() == [2, 2, 2]
    assert common.mean_diff.tolist() == pytest.approx([-0.5, 0.5, 1.0])
    assert stats.score_matrix(ev, "P@1", topics="common").columns.tolist() == ["1", "3"]
    # the array form with NaN gives the same answer as the Evaluation
    arr = np.where(ev.evaluated, ev["P@1"], np.nan)
    assert np.allclose(t_test(arr).p_value, res.p_value, equal_nan=True)


def test_frames_and_matrices(rng):
    X = _matrix(rng, 4, 12, "continuous")
    res = t_test(X, "P@10", run_names=["w", "x", "y", "z"])
    frame = res.to_frame()
    assert len(frame) == 6 and list(frame.columns[:4]) == ["run_a", "run_b", "measure", "test"]
    assert frame[["run_a", "run_b"]].values.tolist()[:3] == [["w", "x"], ["w", "y"], ["w", "z"]]
    assert (frame["measure"] == "P@10").all()
    p = res.matrix("p_value")
    assert np.allclose(p.values, p.values.T, equal_nan=True) and np.isnan(np.diag(p.values)).all()
    md = res.matrix("mean_diff")
    assert md.loc["x", "z"] == pytest.approx(X[1].mean() - X[3].mean())
    assert md.loc["z", "x"] == pytest.approx(-(X[1].mean() - X[3].mean()))
    with pytest.raises(ValueError, match="matrix value must be one of"):
        res.matrix("case")


def test_dataframe_input_and_all_pairs_vectorised(rng):
    X = pd.DataFrame(rng.random((40, 50)), index=[f"run{i:02d}" for i in range(40)])
    res = wilcoxon_test(X)
    assert len(res) == 780 and res.run_names[0] == "run00"
    i = 500
    a, b = res.run_a[i], res.run_b[i]
    assert res.p_value[i] == pytest.approx(sps.wilcoxon(X.values[a], X.values[b]).pvalue, abs=TOL)


def test_docstring_examples_hold():
    """The module's hand-checkable examples (t = 3.4641, p = 0.25, Holm 0.06, …) stay true."""
    import doctest

    result = doctest.testmod(stats)
    assert result.attempted >= 10 and result.failed == 0


# ------------------------------------------------------------------ errors that teach
def test_errors():
    X = [[0.1, 0.2], [0.3, 0.4]]
    with pytest.raises(ValueError, match="test must be one of .* got 'wilcox'; did you mean 'wilcoxon'"):
        pairwise_test(X, test="wilcox")
    with pytest.raises(TypeError, match="test 't' takes no option 'seed' \\(allowed: none\\)"):
        pairwise_test(X, test="t", seed=1)
    with pytest.raises(ValueError, match="topics must be one of 'pairwise' or 'common', got 'all'"):
        t_test(X, topics="all")
    with pytest.raises(ValueError, match="zero_method must be one of"):
        wilcoxon_test(X, zero_method="drop")
    with pytest.raises(ValueError, match="run_names: expected 2 names \\(one per row of scores\\), got 3"):
        t_test(X, run_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="run names must be unique"):
        t_test(X, run_names=["a", "a"])
    with pytest.raises(ValueError, match="scores must be finite numbers"):
        t_test([[0.1, np.inf], [0.3, 0.4]])
    with pytest.raises(ValueError, match="expected at least 2 runs and 1 topic, got shape \\(1, 2\\)"):
        t_test([[0.1, 0.2]])
    with pytest.raises(ValueError, match="n_resamples must be an integer with 1 ≤ n_resamples ≤ 1000000 .*, got 0"):
        randomization_test(X, n_resamples=0)
    with pytest.raises(TypeError, match="seed must be a non-negative integer or a numpy Generator"):
        randomization_test(X, seed=-1)
    with pytest.raises(ValueError, match="no topic is evaluated for every run"):
        t_test([[0.1, np.nan], [np.nan, 0.4]], topics="common")
    run = pd.DataFrame({"run": ["a", "b"], "qid": "1", "docno": "x", "score": 1.0})
    ev = irnb.evaluate(irnb.Experiment(run, pd.DataFrame({"qid": ["1"], "docno": ["x"], "grade": [1]})),
                       ["P@1", "AP"])
    with pytest.raises(ValueError, match="measure: the Evaluation holds 2 measures \\(P@1, AP\\); name one"):
        t_test(ev)
    with pytest.raises(ValueError, match="measure: P@5 was not evaluated; evaluated: \\['P@1', 'AP'\\]"):
        t_test(ev, "P@5")
    with pytest.raises(TypeError, match="run_names: an Evaluation names its runs"):
        t_test(ev, "AP", run_names=["x", "y"])


def test_anova_results_are_marked_corrected_and_refuse_a_second_correction(rng):
    from irnb import stats

    result = stats.anova_bonferroni(rng.random((4, 10)), "P@10")
    assert result.adjustment == "bonferroni"
    with pytest.raises(ValueError, match="already corrected"):
        result.adjust("holm")


def test_sign_test_matrix_mirrors_the_share_of_wins():
    from irnb import stats

    # a beats b on 3 of 4 topics: statistic k/n = 0.75 for (a, b); from b's side 1/4
    res = stats.sign_test([[1.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]], "P@10", run_names=["a", "b"])
    grid = res.matrix("statistic")
    assert grid.loc["a", "b"] == pytest.approx(0.75)
    assert grid.loc["b", "a"] == pytest.approx(0.25)


def test_tukey_all_pairs_match_scipy_on_many_runs(rng):
    X = _matrix(rng, 30, 25, "continuous")
    res = tukey_hsd(X)
    ref = sps.tukey_hsd(*X).pvalue[res.run_a, res.run_b]
    assert np.max(np.abs(res.p_value - ref)) <= 1e-8
