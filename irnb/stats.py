"""Paired significance tests over topics for every pair of runs at once; p-values only.

Each test takes an (S, T) score matrix — runs × topics, e.g. ``evaluate(...).values[m]`` —
or an :class:`~irnb.metrics.Evaluation` and a measure, and tests all S(S−1)/2 pairs
``(a, b)``, a before b in run order, in one vectorised pass (no Python loop over pairs).
It returns a :class:`PairwiseTests`: p-values, the test statistic, and effect sizes (mean
difference a − b and Cohen's d_z), as a tidy frame (:meth:`PairwiseTests.to_frame`) or a
run × run matrix (:meth:`PairwiseTests.matrix`). No significance level is applied here:
``alpha`` belongs to :mod:`irnb.decision`; corrections for multiple comparisons to
:mod:`irnb.corrections` (re-exported here). The vectorised all-pairs kernels (pair
summaries, t, Wilcoxon and studentized-range distributions) are :mod:`irnb.pair_kernels`.

Tests (all two-sided) and the scipy call each one reproduces, p-values equal to 1e-12:

=================  =========================================================================
``t``              paired t-test: ``scipy.stats.ttest_rel(a, b)``
``wilcoxon``       signed-rank test: ``scipy.stats.wilcoxon(a, b, zero_method=...,
                   correction=..., method=...)``, defaults ``"wilcox"``, ``False``,
                   ``"auto"`` as scipy. With ``method="auto"`` the choice per pair is
                   scipy's: more than 50 topics → normal approximation; else no ties and
                   no zero differences → exact distribution; else ≤ 13 topics → exact
                   enumeration of all 2^n sign flips (scipy's permutation test); else the
                   normal approximation (tie-corrected variance). The method used for each
                   pair is reported (``method`` column).
``sign``           sign test: ``scipy.stats.binomtest(k, n, 0.5)``, k = topics where a
                   scores higher, n = topics where the two differ (ties dropped).
``randomization``  paired randomization (sign-flip) test on the mean difference, seeded:
                   p = (b + 1)/(B + 1) for b of B random flips at least as extreme, never 0.
``anova``          one-way ANOVA over runs (``scipy.stats.f_oneway``), then every pair
                   compared with the ANOVA's pooled error (MSE, N − S degrees of freedom)
                   and Bonferroni-corrected for the S(S−1)/2 comparisons (MATLAB
                   ``multcompare``/SPSS "Bonferroni" post hoc) — irnb's reading of Baillie
                   et al.'s "ANOVA test" then "Bonferroni multiple comparisons", which name
                   neither the design nor α. The
                   omnibus F test is kept in ``omnibus``; :mod:`irnb.decision` counts a
                   pair as different only when both are significant.
``tukey``          Tukey HSD (Tukey–Kramer for unequal groups): ``scipy.stats.tukey_hsd``
                   to 10⁻⁸ (the studentized range is built once for all pairs).
=================  =========================================================================

Topics (written policy). A topic counts for a run when the run was evaluated on it: for an
``Evaluation``, its ``evaluated`` mask (topics the run answered, trec_eval style, or every
qrels topic when evaluated with ``complete=True``); for an array or DataFrame, the cells
that are not NaN. ``topics="pairwise"`` (default): each pair uses the topics evaluated for
both of its runs; ANOVA and Tukey use each run's own evaluated topics. ``topics="common"``:
only topics evaluated for every run are used, by every test.

Degenerate pairs (policy; the only departures from scipy, which returns NaN here):

* every difference is zero (identical scores): p = 1 and statistic 0, in every test;
* no common topic: every value NaN ("not testable");
* t-test with one topic and a non-zero difference: NaN (no variance; scipy agrees);
* a constant non-zero difference: t = ±inf, p = 0 (scipy agrees).

Effect sizes are always paired, over the pair's topics: ``mean_diff`` = mean(a − b),
``d_z`` = mean(a − b) / sd(a − b) (ddof 1; 0 when all differences are 0, ±inf when the
difference is constant, NaN with fewer than 2 topics).

Hand example: differences a − b = 0.1, 0.2, 0.3 on three topics: mean 0.2, sd 0.1,
t = 0.2 / (0.1/√3) = 3.4641 with 2 degrees of freedom, p = 0.0742; d_z = 0.2/0.1 = 2.

>>> res = t_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4]], run_names=["a", "b"])
>>> round(float(res.statistic[0]), 4), round(float(res.p_value[0]), 4), round(float(res.d_z[0]), 4)
(3.4641, 0.0742, 2.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import special
from scipy import stats as _sps

from .corrections import adjust_p_values
from .pair_kernels import Pairs, Scores, pair_moments, paired_t_kernel, pairs, studentized_range_sf, wilcoxon_kernel
from .params import (ADJUSTMENT, CONTINUITY_CORRECTION, MATRIX_VALUE, N_RESAMPLES, PAIRED_TEST, TEST, TOPIC_RULE,
                     WILCOXON_METHOD,
                     WILCOXON_ZERO_METHOD, random_generator)
from .params import SEED
from .results import Result

__all__ = [
    "TESTS",
    "TOPIC_RULES",
    "PairwiseTests",
    "Omnibus",
    "pairwise_test",
    "significance_test",
    "SignificanceTest",
    "options_of",
    "TEST_OPTIONS",
    "t_test",
    "wilcoxon_test",
    "sign_test",
    "randomization_test",
    "anova_bonferroni",
    "tukey_hsd",
    "score_matrix",
]

TESTS = TEST.choices
#: Tests whose p-value for a pair of runs depends on the two runs' scores alone (with
#: ``topics="pairwise"`` and the default fixed seed): testing a subset of the runs gives
#: its pairs the p-values they get among all runs (ANOVA and Tukey HSD take all runs as
#: their family).
PAIR_LOCAL_TESTS = PAIRED_TEST.choices
TOPIC_RULES = TOPIC_RULE.choices
WILCOXON_ZERO_METHODS = WILCOXON_ZERO_METHOD.choices
WILCOXON_METHODS = WILCOXON_METHOD.choices


# =================================================================== results
@dataclass(frozen=True)
class Omnibus:
    """An omnibus test over all runs (one-way ANOVA): F, its degrees of freedom and p."""

    statistic: float
    df_between: int
    df_within: int
    p_value: float


@dataclass(frozen=True, eq=False)
class PairwiseTests(Result):
    """One test applied to every pair of runs; arrays have one entry per pair.

    Pair ``i`` compares ``run_names[run_a[i]]`` (a) with ``run_names[run_b[i]]`` (b),
    ``run_a[i] < run_b[i]``, in ``np.triu_indices`` order. ``mean_diff`` is a − b;
    ``direction`` is +1 when the test statistic says a scores higher, −1 when b does,
    0 when neither. ``method`` names how each p-value was obtained.

    ``statistic`` per test: ``t`` the paired t; ``wilcoxon`` scipy's min(R+, R−);
    ``sign`` k/n; ``randomization`` the mean difference; ``anova`` the pair's t on the
    ANOVA's pooled error; ``tukey`` the studentized range q (signed a − b).
    """

    test: str
    measure: str | None
    run_names: tuple[str, ...]
    run_a: np.ndarray = field(repr=False)
    run_b: np.ndarray = field(repr=False)
    n_topics: np.ndarray = field(repr=False)
    mean_a: np.ndarray = field(repr=False)
    mean_b: np.ndarray = field(repr=False)
    mean_diff: np.ndarray = field(repr=False)
    d_z: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    p_value: np.ndarray = field(repr=False)
    direction: np.ndarray = field(repr=False)
    method: np.ndarray = field(repr=False)
    adjustment: str = "none"
    omnibus: Omnibus | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def __len__(self) -> int:
        return int(self.p_value.shape[0])

    def frame_columns(self) -> dict:
        """One row per pair: ``run_a, run_b, measure, test, n_topics, mean_a, mean_b,
        mean_diff, d_z, statistic, p_value, direction, method, adjustment``."""
        names = np.asarray(self.run_names, dtype=object)
        return {
            "run_a": names[self.run_a], "run_b": names[self.run_b],
            "measure": self.measure, "test": self.test,
            "n_topics": self.n_topics, "mean_a": self.mean_a, "mean_b": self.mean_b,
            "mean_diff": self.mean_diff, "d_z": self.d_z, "statistic": self.statistic,
            "p_value": self.p_value, "direction": self.direction, "method": self.method,
            "adjustment": self.adjustment,
        }

    def matrix(self, value: str = MATRIX_VALUE.default) -> pd.DataFrame:
        """A run × run table of ``value``, row run versus column run; the diagonal is NaN.

        Symmetric values (``p_value``, ``n_topics``) are mirrored; signed ones
        (``mean_diff``, ``d_z``, ``statistic``, ``direction``) change sign, so the cell
        (row, column) always reads "row − column" — except two statistics that are not
        differences: Wilcoxon's min(R+, R−) is mirrored, the sign test's share k/n of topics
        the row run wins becomes 1 − k/n.
        """
        signed = ("mean_diff", "d_z", "statistic", "direction")  # the others (p_value, n_topics) are symmetric
        MATRIX_VALUE.validate(value, None)
        vals = np.asarray(getattr(self, value), dtype=np.float64)
        S = len(self.run_names)
        out = np.full((S, S), np.nan)
        out[self.run_a, self.run_b] = vals
        if self.test == "wilcoxon" and value == "statistic":
            out[self.run_b, self.run_a] = vals  # min(R+, R−) has no sign
        elif self.test == "sign" and value == "statistic":
            out[self.run_b, self.run_a] = 1.0 - vals  # k/n seen from the other run: (n − k)/n
        else:
            out[self.run_b, self.run_a] = -vals if value in signed else vals
        index = pd.Index(self.run_names, name="run")
        return pd.DataFrame(out, index=index, columns=pd.Index(self.run_names, name="versus"))

    def adjust(self, method: str) -> PairwiseTests:
        """The same tests with p-values corrected over all pairs: ``"bonferroni"``,
        ``"holm"`` (both control the family-wise error rate) or ``"bh"`` (Benjamini–Hochberg,
        the false discovery rate). Correcting an already corrected result is refused."""
        ADJUSTMENT.validate(method, None)
        if self.adjustment != "none":
            raise ValueError(f"these p-values are already corrected ({self.adjustment}); adjust the raw result")
        p = adjust_p_values(self.p_value, method)
        p.flags.writeable = False
        return replace(self, p_value=p, adjustment=method)


# =================================================================== input


def score_matrix(scores, measure=None, *, run_names: Sequence[str] | None = None,
                 topics: str = TOPIC_RULE.default) -> pd.DataFrame:
    """The run × topic matrix the tests use, NaN where a run was not evaluated (and, with
    ``topics="common"``, only the topics evaluated for every run)."""
    sc = _scores(scores, measure, run_names, topics)
    return pd.DataFrame(sc.values, index=pd.Index(sc.run_names, name="run"),
                        columns=pd.Index(sc.topics, name="topic"))


def _scores(scores, measure, run_names, topics) -> Scores:
    from .metrics import Evaluation  # local: metrics imports nothing from here

    TOPIC_RULE.validate(topics, None)
    if isinstance(scores, Evaluation):
        if run_names is not None:
            raise TypeError("run_names: an Evaluation names its runs; pass run_names only with an array")
        if measure is None:
            if len(scores.measures) != 1:
                raise ValueError(f"measure: the Evaluation holds {len(scores.measures)} measures "
                                 f"({', '.join(m.name for m in scores.measures)}); name one")
            measure = scores.measures[0]
        try:
            values = np.where(scores.evaluated, scores[measure], np.nan)
        except KeyError as err:  # Evaluation's own message names what was evaluated
            raise ValueError(f"measure: {err.args[0]}") from None
        names, topic_names = tuple(scores.run_names), tuple(scores.topics)
        from .measures import parse_measure

        label = parse_measure(measure).name
    elif isinstance(scores, pd.DataFrame):
        if run_names is not None:
            raise TypeError("run_names: a DataFrame names its runs by its index; pass run_names only with an array")
        values = scores.to_numpy(dtype=np.float64, na_value=np.nan)
        names = tuple(str(x) for x in scores.index)
        topic_names = tuple(str(x) for x in scores.columns)
        label = None if measure is None else str(measure)
    else:
        try:
            values = np.array(scores, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("scores must be an (S, T) array of numbers (runs × topics), a DataFrame, "
                            f"or an Evaluation; got {type(scores).__name__}") from None
        if values.ndim != 2:
            raise ValueError(f"scores must be 2-D (runs × topics), got shape {values.shape}")
        if run_names is None:
            names = tuple(f"s{i + 1}" for i in range(values.shape[0]))
        else:
            names = tuple(str(x) for x in run_names)
            if len(names) != values.shape[0]:
                raise ValueError(f"run_names: expected {values.shape[0]} names (one per row of scores), "
                                 f"got {len(names)}")
        topic_names = tuple(str(t) for t in range(values.shape[1]))
        label = None if measure is None else str(measure)
    if values.ndim != 2 or values.shape[0] < 2 or values.shape[1] < 1:
        raise ValueError(f"scores: expected at least 2 runs and 1 topic, got shape {values.shape}")
    if np.isinf(values).any():
        raise ValueError("scores must be finite numbers (NaN marks a topic not evaluated), got inf")
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"run names must be unique, got {dup[:5]} more than once")
    if topics == "common":
        keep = ~np.isnan(values).any(axis=0)
        if not keep.any():
            raise ValueError("topics='common': no topic is evaluated for every run; use topics='pairwise'")
        values = values[:, keep]
        topic_names = tuple(np.asarray(topic_names, dtype=object)[keep])
    values = np.ascontiguousarray(values)
    return Scores(values, names, topic_names, label)


# =================================================================== result (the kernels: irnb.pair_kernels)


def _result(test, sc: Scores, pr: Pairs, statistic, p, direction, method, *, omnibus=None, options=(),
            mean_a=None, mean_b=None, mean_diff=None, adjustment: str = "none") -> PairwiseTests:
    p = np.asarray(p, dtype=np.float64)
    statistic = np.asarray(statistic, dtype=np.float64)
    none = pr.n == 0
    p = np.where(none, np.nan, p)
    statistic = np.where(none, np.nan, statistic)
    direction = np.where(none, 0, np.sign(np.nan_to_num(direction))).astype(np.int8)
    arrays = dict(run_a=pr.a, run_b=pr.b, n_topics=pr.n, mean_a=pr.mean_a if mean_a is None else mean_a,
                  mean_b=pr.mean_b if mean_b is None else mean_b,
                  mean_diff=pr.mean if mean_diff is None else mean_diff, d_z=pr.d_z, statistic=statistic,
                  p_value=p, direction=direction,
                  method=np.broadcast_to(np.asarray(method, dtype=object), p.shape).copy())
    for arr in arrays.values():
        arr.flags.writeable = False
    return PairwiseTests(test=test, measure=sc.measure, run_names=sc.run_names, omnibus=omnibus,
                         options=tuple(options), adjustment=adjustment, **arrays)


# =================================================================== t-test
def t_test(scores, measure=None, *, run_names: Sequence[str] | None = None,
           topics: str = TOPIC_RULE.default) -> PairwiseTests:
    """Paired t-test for every pair of runs: t = mean(d) / (sd(d)/√n), n − 1 degrees of
    freedom, two-sided; equals ``scipy.stats.ttest_rel(a, b)``.

    d = 0.1, 0.2, 0.3: t = 0.2 / (0.1/√3) = 3.4641, p = 2·P(T₂ > 3.4641) = 0.0742.

    >>> r = t_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4]])
    >>> round(float(r.p_value[0]), 4)
    0.0742
    """
    sc = _scores(scores, measure, run_names, topics)
    pr = pair_moments(sc)
    t, p = paired_t_kernel(pr)
    return _result("t", sc, pr, t, p, pr.mean, "t")


# =================================================================== Wilcoxon
def wilcoxon_test(scores, measure=None, *, run_names: Sequence[str] | None = None, topics: str = TOPIC_RULE.default,
                  zero_method: str = WILCOXON_ZERO_METHOD.default, correction: bool = False,
                  method: str = WILCOXON_METHOD.default) -> PairwiseTests:
    """Wilcoxon signed-rank test for every pair; equals ``scipy.stats.wilcoxon(a, b,
    zero_method=zero_method, correction=correction, method=method)`` (scipy's defaults).

    Zero differences: ``"wilcox"`` drops them, ``"pratt"`` ranks them then drops their
    ranks, ``"zsplit"`` splits their ranks between R+ and R−. Tied |d| get average ranks.
    ``method="auto"`` picks per pair as scipy does (module docstring); ``statistic`` is
    scipy's min(R+, R−); ``direction`` is the sign of R+ − R−.

    d = 0.1, 0.2, 0.3 (no ties, no zeros → exact): R+ = 1 + 2 + 3 = 6, R− = 0; of the
    2³ = 8 equally likely sign patterns one has R+ = 6 and one R+ = 0, so p = 2·1/8 = 0.25.

    >>> r = wilcoxon_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4]])
    >>> float(r.statistic[0]), float(r.p_value[0]), r.method[0]
    (0.0, 0.25, 'exact')
    """
    WILCOXON_ZERO_METHOD.validate(zero_method, None)
    WILCOXON_METHOD.validate(method, None)
    correction = CONTINUITY_CORRECTION.validate(correction, None)
    sc = _scores(scores, measure, run_names, topics)
    pr = pairs(sc)
    stat, p, direction, used = wilcoxon_kernel(pr, zero_method, 0.5 if correction else 0.0, method)
    options = (("zero_method", zero_method), ("correction", bool(correction)), ("method", method))
    return _result("wilcoxon", sc, pr, stat, p, direction, used, options=options)


# =================================================================== sign test
def sign_test(scores, measure=None, *, run_names: Sequence[str] | None = None,
              topics: str = TOPIC_RULE.default) -> PairwiseTests:
    """Sign test for every pair: k = topics where a > b out of n = topics where a ≠ b,
    two-sided binomial p with probability ½; equals ``scipy.stats.binomtest(k, n)``.
    ``statistic`` is k/n (scipy's); ties (zero differences) are dropped.

    a > b on 5 of 6 differing topics: p = 2·(C(6,0) + C(6,1))/2⁶ = 2·7/64 = 0.21875.

    >>> r = sign_test([[1, 1, 1, 1, 1, 0, 0.5], [0, 0, 0, 0, 0, 1, 0.5]])
    >>> float(r.p_value[0])
    0.21875
    """
    sc = _scores(scores, measure, run_names, topics)
    pr = pairs(sc)
    D = pr.diff
    k_plus = (D > 0).sum(axis=1)
    k_minus = (D < 0).sum(axis=1)
    n = k_plus + k_minus
    k_min = np.minimum(k_plus, k_minus)
    with np.errstate(invalid="ignore", divide="ignore"):
        # scipy's two-sided rule for p = ½ reduces to P(X ≤ k_min) + P(X ≥ n − k_min)
        p = _sps.binom.cdf(k_min, n, 0.5) + _sps.binom.sf(n - k_min - 1, n, 0.5)
        stat = k_plus / n
    p = np.where(k_plus == k_minus, 1.0, np.minimum(1.0, p))
    stat = np.where(n == 0, 0.0, stat)
    return _result("sign", sc, pr, stat, p, k_plus - k_minus, "binomial")


# =================================================================== randomization
def randomization_test(scores, measure=None, *, run_names: Sequence[str] | None = None,
                       topics: str = TOPIC_RULE.default, n_resamples: int = 9999,
                       seed: int | np.random.Generator = SEED.default) -> PairwiseTests:
    """Paired randomization (sign-flip) test on the mean difference, two-sided.

    Under H0 each topic's difference is as likely to be + as −. B = ``n_resamples`` random
    sign patterns (one set, drawn from ``seed``, shared by all pairs) give B null mean
    differences; b counts those with |mean| ≥ |observed mean| (within 1e-10 of the pair's
    Σ|d|, so rounding cannot hide a tie); p = (b + 1)/(B + 1), never 0. Same seed, same
    p-values. Topics a pair does not share contribute nothing. ``statistic`` is the mean
    difference a − b.

    All differences equal to 0.1 on 3 topics: only the all-+ and all-− patterns reach
    |mean| = 0.1, a quarter of the patterns, so p ≈ 0.25.

    >>> r = randomization_test([[0.5, 0.5, 0.5], [0.4, 0.4, 0.4]], n_resamples=20000, seed=1)
    >>> abs(float(r.p_value[0]) - 0.25) < 0.02
    True
    """
    n_resamples = N_RESAMPLES.validate(n_resamples, None)
    rng = random_generator(seed, "randomization_test")
    sc = _scores(scores, measure, run_names, topics)
    pr = pairs(sc)
    D = np.where(np.isnan(pr.diff), 0.0, pr.diff)
    T = D.shape[1]
    signs = rng.integers(0, 2, size=(int(n_resamples), T), dtype=np.int8).astype(np.float64) * 2.0 - 1.0
    observed = np.abs(D.sum(axis=1))
    tol = 1e-10 * np.abs(D).sum(axis=1)
    b = np.zeros(D.shape[0], dtype=np.int64)
    chunk = max(1, 4_000_000 // max(int(n_resamples), 1))
    for lo in range(0, D.shape[0], chunk):  # bounded memory: chunk × B null sums at a time
        null = np.abs(D[lo:lo + chunk] @ signs.T)
        b[lo:lo + chunk] = (null >= (observed - tol)[lo:lo + chunk, None]).sum(axis=1)
    p = (b + 1.0) / (n_resamples + 1.0)
    options = (("n_resamples", int(n_resamples)), ("seed", seed if isinstance(seed, int) else "Generator"))
    return _result("randomization", sc, pr, pr.mean, p, pr.mean, "randomization", options=options)


# =================================================================== ANOVA and Tukey
def _groups(sc: Scores):
    """Per-run group sizes, means, within-group sum of squares, and the pooled error."""
    V = sc.values
    valid = ~np.isnan(V)
    n = valid.sum(axis=1).astype(np.float64)
    if (n < 1).any():
        empty = [sc.run_names[i] for i in np.flatnonzero(n < 1)]
        raise ValueError(f"runs {empty[:5]} have no evaluated topic; ANOVA needs at least one score per run")
    X = np.where(valid, V, 0.0)
    means = X.sum(axis=1) / n
    ss_within = (np.where(valid, V - means[:, None], 0.0) ** 2).sum(axis=1)
    N, S = n.sum(), V.shape[0]
    df_within = N - S
    with np.errstate(invalid="ignore", divide="ignore"):
        mse = ss_within.sum() / df_within
    return n, means, ss_within, N, S, df_within, mse, valid


def anova_bonferroni(scores, measure=None, *, run_names: Sequence[str] | None = None,
                     topics: str = TOPIC_RULE.default) -> PairwiseTests:
    """One-way ANOVA over runs, then Bonferroni-corrected pairwise comparisons.

    Omnibus: F = [SSB/(S − 1)] / [SSW/(N − S)] (``scipy.stats.f_oneway``), in ``omnibus``.
    Pairs: t = (ȳ_a − ȳ_b) / √(MSE·(1/n_a + 1/n_b)) with MSE = SSW/(N − S), two-sided p on
    N − S degrees of freedom, times m = S(S − 1)/2, capped at 1. Runs are groups (topics
    are not paired): irnb's reading of Baillie et al.'s "ANOVA test" then "Bonferroni
    multiple comparisons" (the papers name no design). ``mean_a``/``mean_b`` are the group
    means; ``d_z`` stays the paired effect size.

    Runs a = (1, 2, 3), b = (2, 3, 4), c = (3, 4, 5): group means 2, 3, 4, MSE = 6/6 = 1;
    a vs c: t = 2/√(2/3) = 2.4495 on 6 df, p = 0.0498, ×3 pairs = 0.1495.
    F = (6/2)/(6/6) = 3.

    >>> r = anova_bonferroni([[1, 2, 3], [2, 3, 4], [3, 4, 5]], run_names="abc")
    >>> r.omnibus.statistic, round(float(r.p_value[1]), 4)
    (3.0, 0.1495)
    """
    sc = _scores(scores, measure, run_names, topics)
    pr = pair_moments(sc)
    n, means, ss_within, N, S, df_within, mse, valid = _groups(sc)
    grand = (means * n).sum() / N
    ss_between = (n * (means - grand) ** 2).sum()
    ssw = ss_within.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        F = (ss_between / (S - 1)) / (ssw / df_within)
        p_f = special.fdtrc(S - 1, df_within, F)
    if ss_between == 0:  # every run has the same mean: nothing to detect (scipy: NaN when SSW = 0 too)
        F, p_f = 0.0, 1.0
    omnibus = Omnibus(float(F), int(S - 1), int(df_within), float(p_f))
    a, b = pr.a, pr.b
    diff = means[a] - means[b]
    m = a.size
    with np.errstate(invalid="ignore", divide="ignore"):
        t = diff / np.sqrt(mse * (1.0 / n[a] + 1.0 / n[b]))
        p = np.minimum(1.0, m * 2.0 * special.stdtr(df_within, -np.abs(t)))
    t = np.where(diff == 0, 0.0, t)
    p = np.where(diff == 0, 1.0, p)
    if df_within < 1:
        t, p = np.full(m, np.nan), np.full(m, np.nan)
    return _result("anova", sc, pr, t, p, diff, "anova+bonferroni", omnibus=omnibus,
                   mean_a=means[a], mean_b=means[b], mean_diff=diff, adjustment="bonferroni")


def tukey_hsd(scores, measure=None, *, run_names: Sequence[str] | None = None,
              topics: str = TOPIC_RULE.default) -> PairwiseTests:
    """Tukey's HSD for every pair (Tukey–Kramer with unequal group sizes); equals
    ``scipy.stats.tukey_hsd(*runs)`` to 10⁻⁸ (the shared distribution is built once, see
    :func:`studentized_range_sf`). ``statistic`` is the studentized range
    q = (ȳ_a − ȳ_b) / √(MSE/2·(1/n_a + 1/n_b)); p = P(Q_{S, N−S} ≥ |q|).

    Runs (1, 2, 3), (2, 3, 4), (3, 4, 5): MSE = 1, a vs c: q = 2/√(1/3) = 3.4641.

    >>> r = tukey_hsd([[1, 2, 3], [2, 3, 4], [3, 4, 5]], run_names="abc")
    >>> round(float(r.statistic[1]), 4)
    -3.4641
    """
    sc = _scores(scores, measure, run_names, topics)
    pr = pair_moments(sc)
    n, means, ss_within, N, S, df_within, mse, valid = _groups(sc)
    a, b = pr.a, pr.b
    diff = means[a] - means[b]
    with np.errstate(invalid="ignore", divide="ignore"):
        q = diff / np.sqrt((1.0 / n[a] + 1.0 / n[b]) * mse / 2.0)
    q = np.where(diff == 0, 0.0, q)
    p = np.ones(a.size)
    need = diff != 0
    if need.any():
        p[need] = studentized_range_sf(q[need], S, df_within)
    if df_within < 1:
        q, p = np.full(a.size, np.nan), np.full(a.size, np.nan)
    return _result("tukey", sc, pr, q, p, diff, "tukey-hsd", mean_a=means[a], mean_b=means[b], mean_diff=diff)


# =================================================================== dispatcher
_FUNCTIONS = {"t": t_test, "wilcoxon": wilcoxon_test, "sign": sign_test, "randomization": randomization_test,
              "anova": anova_bonferroni, "tukey": tukey_hsd}
#: Each test's own keyword options, besides scores, run names and topics.
TEST_OPTIONS = MappingProxyType({"t": (), "wilcoxon": ("zero_method", "correction", "method"), "sign": (),
                                 "randomization": ("n_resamples", "seed"), "anova": (), "tukey": ()})
_CORRECTIONS = {"anova": "bonferroni", "tukey": "tukey-hsd"}  # the others: no correction for multiplicity


@dataclass(frozen=True)
class SignificanceTest:
    """A named test of :data:`TESTS` with its own options, checked once by
    :func:`significance_test`; calling it tests every pair of runs (:class:`PairwiseTests`).

    ``name`` is the test in words, ``correction`` the correction for multiple comparisons it
    applies itself (``bonferroni`` for ``anova``, ``tukey-hsd`` for ``tukey``, else ``none``).

    >>> st = significance_test("anova")
    >>> st.name, st.correction, significance_test("t").correction
    ('one-way ANOVA + Bonferroni multiple comparisons', 'bonferroni', 'none')
    """

    test: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        return dict(TEST.meanings)[self.test]

    @property
    def correction(self) -> str:
        return _CORRECTIONS.get(self.test, "none")

    def __call__(self, scores, measure=None, *, run_names: Sequence[str] | None = None,
                 topics: str = TOPIC_RULE.default) -> PairwiseTests:
        return _FUNCTIONS[self.test](scores, measure, run_names=run_names, topics=topics, **dict(self.options))


def options_of(test: str) -> tuple[str, ...]:
    """The keyword options a test of :data:`TESTS` takes (its own, besides scores and topics).

    >>> options_of("randomization"), options_of("anova")
    (('n_resamples', 'seed'), ())
    """
    return TEST_OPTIONS[TEST.validate(test, None)]


def significance_test(test: str = PAIRED_TEST.default, **options) -> SignificanceTest:
    """``test`` (one of :data:`TESTS`) with ``options``, its own keywords (e.g. ``seed`` for
    ``"randomization"``), checked: the one place both are validated on the way to p-values."""
    allowed = options_of(test)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"test {test!r} takes no option {', '.join(map(repr, unknown))} "
                        f"(allowed: {', '.join(allowed) or 'none'})")
    return SignificanceTest(test, tuple(options.items()))


def pairwise_test(scores, measure=None, *, test: str = PAIRED_TEST.default, run_names: Sequence[str] | None = None,
                  topics: str = TOPIC_RULE.default, **options) -> PairwiseTests:
    """Run the named test (one of :data:`TESTS`) on every pair; ``options`` are that
    test's own keywords (e.g. ``seed`` for ``"randomization"``)."""
    return significance_test(test, **options)(scores, measure, run_names=run_names, topics=topics)
