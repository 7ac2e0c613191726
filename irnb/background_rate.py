"""The background rate E from data: Ravana & Moffat's estimate, and the true rate of a
collection with truth.

E is the probability that an unjudged document is relevant; the point estimators of
:mod:`irnb.intervals` read it (X_B = B + E·Δ). :func:`estimate_background_rate` fits it from
the judged documents alone (how often a document is relevant, by how many contributing runs
ranked it, read at zero runs); :func:`true_background_rate` computes it from a truth (the
simulator's complete qrels), for checking the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._grades import unjudged as unjudged_grades
from .experiment import Experiment
from .params import CONTRIBUTING_RUNS, DEGREE, DRAWS, FACTOR, SEED
from .params import RELEVANCE_LEVEL
from .pooling import DEPTH, contributor_index, depth_pool, judged_mask_of, reachable_depth
from .results import Result

__all__ = ["BackgroundRateFit", "BackgroundRateDraws", "TooFewCounts", "NoUnjudgedPosition", "within_factor",
           "estimate_background_rate", "true_background_rate", "background_rate_by_contributors"]


class TooFewCounts(ValueError):
    """The pool gives fewer distinct numbers of contributing runs than the fit's degree needs."""


class NoUnjudgedPosition(ValueError):
    """No position of the runs' top k holds a document the pool leaves unjudged and the truth judges."""


def within_factor(estimate, truth, *, factor: float = FACTOR.default):
    """Whether an estimate lies within a factor of ``factor`` (> 1) of the truth: truth / factor
    ≤ estimate ≤ factor · truth, and estimate > 0 (a clipped E = 0 never is). A bool for
    numbers, a boolean array for arrays (elementwise; NaN is never within).

    >>> within_factor(0.12, 0.07), within_factor(0.0, 0.25), within_factor(0.13, 0.26)
    (True, False, True)
    >>> within_factor(np.array([0.05, 0.049, 0.2, np.nan]), 0.1).tolist()
    [True, False, True, False]
    """
    factor = FACTOR.validate(factor, "within_factor")
    estimate, truth = np.asarray(estimate, dtype=np.float64), np.asarray(truth, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        inside = (estimate > 0) & (estimate >= truth / factor) & (estimate <= factor * truth)
    return bool(inside) if inside.ndim == 0 else inside


@dataclass(frozen=True, eq=False)
class BackgroundRateFit(Result):
    """E estimated as in Ravana & Moffat: the fraction of judged documents that are
    relevant, grouped by how many contributing runs have them in their top d, fitted by a
    polynomial (cubic by default) and read at zero runs.

    ``num_runs[i]``, ``judged[i]``, ``relevant[i]``, ``fraction[i]``: the groups (including
    a group at 0 runs when judged documents exist that no contributor ranked in its top d;
    ``in_fit`` says which groups the fit used — those at ≥ 1 run). ``rate`` is the fit at
    zero clipped to [0, 1], ``intercept`` the unclipped value, ``overall`` the fraction
    relevant over all judged documents.
    """

    num_runs: np.ndarray = field(repr=False)
    judged: np.ndarray = field(repr=False)
    relevant: np.ndarray = field(repr=False)
    fraction: np.ndarray = field(repr=False)
    in_fit: np.ndarray = field(repr=False)
    coefficients: np.ndarray = field(repr=False)  # numpy.polyfit order (highest power first)
    rate: float
    intercept: float
    overall: float
    depth: int
    degree: int

    def fitted(self, num_runs) -> np.ndarray:
        """The fitted curve at ``num_runs`` (for plotting the trend line)."""
        return np.polyval(self.coefficients, np.asarray(num_runs, dtype=np.float64))

    def frame_columns(self) -> dict:
        """Rows ``num_runs, judged, relevant, fraction, fitted, in_fit``."""
        return {"num_runs": self.num_runs, "judged": self.judged, "relevant": self.relevant,
                "fraction": self.fraction, "fitted": self.fitted(self.num_runs), "in_fit": self.in_fit}


def estimate_background_rate(experiment: Experiment, *, depth: int = DEPTH.default, runs=None, pool=None,
                             degree: int = DEGREE.default,
                             relevance_level: int = RELEVANCE_LEVEL.default) -> BackgroundRateFit:
    """Estimate E from the data (Ravana & Moffat 2010, their Figure 1).

    For every judged document (grade ≥ 0, in ``pool`` if given), count the contributing runs
    (``runs``, default the Experiment's contributors) that rank it at depth ≤ ``depth``;
    group documents by that count; fit ``numpy.polyfit(count, fraction relevant, degree)``
    over the groups with count ≥ 1 (unweighted, one point per group, as the paper's trend
    line); E = the fit at 0 runs, clipped to [0, 1]. The paper reports 0.043 on TREC-9
    (d = 100, 59 runs) and uses E = 0.01.

    Example: fractions 0.1, 0.2, 0.3, 0.4, 0.5 at 1..5 runs lie on the line 0.1·x, so a
    cubic fit reads 0 at zero runs.
    """
    d = DEPTH.validate(depth, "estimate_background_rate")
    deg = DEGREE.validate(degree, "estimate_background_rate")
    idx = contributor_index(experiment, runs, "estimate_background_rate")
    mask = judged_mask_of(experiment, pool)
    grades = experiment.judgments.qrel_grade
    judged = grades >= 0
    if mask is not None:
        judged &= mask
    if not judged.any():
        raise ValueError("estimate_background_rate: no judged document (grade ≥ 0) in the qrels or pool")
    count = (experiment.judgments.retrieved_rank[idx] <= reachable_depth(experiment, d)).sum(axis=0)
    relevant = judged & (grades >= relevance_level)
    n_judged = np.bincount(count[judged], minlength=idx.size + 1)
    n_rel = np.bincount(count[relevant], minlength=idx.size + 1)
    groups = np.flatnonzero(n_judged)
    fraction = n_rel[groups] / n_judged[groups]
    in_fit = groups >= 1
    if in_fit.sum() < deg + 1:
        raise TooFewCounts(f"estimate_background_rate: a degree-{deg} fit needs at least {deg + 1} distinct numbers "
                           f"of contributing runs, got {int(in_fit.sum())}; lower degree= or deepen depth=")
    coefficients = np.polyfit(groups[in_fit].astype(np.float64), fraction[in_fit], deg)
    intercept = float(np.polyval(coefficients, 0.0))
    return BackgroundRateFit(num_runs=groups, judged=n_judged[groups], relevant=n_rel[groups], fraction=fraction,
                             in_fit=in_fit, coefficients=coefficients, rate=float(np.clip(intercept, 0.0, 1.0)),
                             intercept=intercept, overall=float(relevant.sum() / judged.sum()), depth=d, degree=deg)


def true_background_rate(experiment: Experiment, *, measurement_depth: int, pool=None, runs=None,
                         relevance_level: int = RELEVANCE_LEVEL.default) -> float:
    """The true background rate E that :func:`estimate_background_rate` estimates, for an
    Experiment with truth (e.g. the simulator's complete qrels).

    Definition: take every position (run s, topic t, rank r ≤ ``measurement_depth`` = k)
    of ``runs`` (default: every run) that holds a document the qrels or ``pool`` leave
    unjudged (not in them, or a negative grade) and that the truth judges (grade ≥ 0 in
    ``experiment.truth``); the true E is the fraction of those positions whose document is
    relevant in the truth (grade ≥ ``relevance_level``). Positions, not distinct documents:
    a document unjudged in the top k of three runs counts three times, as it does in those
    runs' residuals Δ, so X_B = B + E·Δ with this E is each run's expected P@k over the
    positions' truth on average. Rank positions past a run's end hold no document and do
    not count.

    Example: two runs' top 2 hold, unjudged, a relevant x and a non-relevant y (run a) and
    x again with a judged z (run b): positions a@1 (x), a@2 (y), b@1 (x) are unjudged, two
    of them relevant, E = 2/3.

    >>> import pandas as pd
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "y", "x", "z"],
    ...                      "score": [2.0, 1.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": ["1"], "docno": ["z"], "grade": [0]})
    >>> truth = pd.DataFrame({"qid": "1", "docno": ["x", "y", "z"], "grade": [1, 0, 0]})
    >>> round(true_background_rate(Experiment(runs, qrels, truth=truth), measurement_depth=2), 4)
    0.6667
    """
    owner = "true_background_rate"
    k = DEPTH.validate(measurement_depth, owner)
    if experiment.truth is None:
        raise ValueError(f"{owner}: the Experiment has no truth (complete qrels); pass truth= to Experiment, "
                         "or use a simulated collection")
    idx = np.arange(len(experiment.run_names)) if runs is None else contributor_index(experiment, runs, owner)
    mask = judged_mask_of(experiment, pool)
    grades = experiment.judgments.grade_array(mask)[idx, :, :k]
    truth = experiment.truth.grade_array()[idx, :, :k]
    unjudged = unjudged_grades(grades) & (truth >= 0)
    n = int(unjudged.sum())
    if n == 0:
        raise NoUnjudgedPosition(f"{owner}: no unjudged document that the truth judges in the top {k} of the runs")
    return float((truth[unjudged] >= relevance_level).sum() / n)


@dataclass(frozen=True, eq=False)
class BackgroundRateDraws(Result):
    """E read from pools of K contributing runs drawn at random (:func:`background_rate_by_contributors`):
    one row per (K, draw) — ``contributing[i]`` runs (``runs[i]``, their names joined by commas),
    ``intercept[i]`` the cubic's unclipped value at zero runs (NaN when the draw gave too few
    distinct counts for the fit), ``rate[i]`` E clipped to [0, 1], ``true_rate[i]`` the true
    rate (NaN without truth, or when nothing in the top 2d is unjudged)."""

    contributing: np.ndarray = field(repr=False)
    draw: np.ndarray = field(repr=False)
    runs: np.ndarray = field(repr=False)
    intercept: np.ndarray = field(repr=False)
    rate: np.ndarray = field(repr=False)
    true_rate: np.ndarray = field(repr=False)
    depth: int
    degree: int

    def frame_columns(self) -> dict:
        """Rows ``contributing, draw, runs, intercept, E, true_rate, ratio`` (ratio = E / true
        rate; NaN where the true rate is unknown or 0)."""
        truth = np.where(self.true_rate > 0, self.true_rate, np.nan)
        return {"contributing": self.contributing, "draw": self.draw, "runs": self.runs,
                "intercept": self.intercept, "E": self.rate, "true_rate": self.true_rate, "ratio": self.rate / truth}

    def summary(self):
        """One row per number of contributing runs K, counts of draws: ``draws``, ``fitted``
        (draws whose pool gave enough distinct counts for the fit), ``below_zero`` (fitted
        draws whose cubic reads below zero, so E is clipped to 0), ``with_truth`` (draws with a
        true rate), ``within_factor_2`` (of those, draws with E within a factor of 2 of it,
        :func:`within_factor`; a draw without a fit never is; NaN when no draw has a true
        rate); and medians over the fitted draws: ``E``, ``true_rate``, ``ratio`` (E / true
        rate)."""
        import pandas as pd

        frame = self.to_frame()
        fitted = frame["intercept"].notna()
        parts = frame.assign(fitted=fitted, below=frame["intercept"] < 0, known=frame["true_rate"].notna(),
                             within=within_factor(frame["E"], frame["true_rate"]))
        by = parts.groupby("contributing", sort=True)
        medians = parts[fitted].groupby("contributing", sort=True)[["E", "true_rate", "ratio"]].median()
        known = by["known"].sum()
        return pd.DataFrame({"draws": by.size(), "fitted": by["fitted"].sum(), "below_zero": by["below"].sum(),
                             "with_truth": known, "within_factor_2": by["within"].sum().astype(np.float64)
                             .where(known > 0)}).join(medians)


def background_rate_by_contributors(experiment: Experiment, contributing, *, depth: int = DEPTH.default, runs=None,
                                    draws: int = DRAWS.default, seed: int = SEED.default, degree: int = DEGREE.default,
                                    relevance_level: int = RELEVANCE_LEVEL.default) -> BackgroundRateDraws:
    """How many pool-contributing runs Ravana & Moffat's estimate needs: for each number K in
    ``contributing`` (one or several, increasing), ``draws`` times, K runs drawn at random
    without replacement from ``runs`` (default: the Experiment's contributors) form a
    depth-``depth`` pool of the qrels (:func:`irnb.pooling.depth_pool`: it judges only what the
    qrels hold), and :func:`estimate_background_rate` reads E from it, counting those K runs;
    where the Experiment has truth, :func:`true_background_rate` (every run's top 2·depth) is
    the rate it stands for (NaN when nothing there is unjudged). K equal to the number of
    candidates is one draw (every draw would be the same). K's draws come from their own
    generator, seeded by (``seed``, K), so they do not depend on the other K asked for. The
    paper read E from TREC-9's 59 contributing systems; with a dozen the cubic often reads
    below zero at a shallow depth (README: TREC-COVID round 1 at d = 10).

    Three runs, depth-2 pools of two of them. Runs a and b: x (relevant) in both tops, y
    (not) and z (relevant) in one each: 1/2 relevant at one run, 1 at two, the line reads
    0 at zero runs. Runs a and c: y in both (not relevant), x and w in one each (1/2): the
    line reads 1. Runs b and c share nothing, so one count only and no line (NaN):

    >>> import pandas as pd
    >>> runs = pd.DataFrame({"run": list("aabbcc"), "qid": "1", "docno": list("xyxzwy"), "score": [2.0, 1.0] * 3})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": list("xyzw"), "grade": [1, 0, 1, 0]})
    >>> exp = Experiment(runs, qrels, contributors=["a", "b", "c"])
    >>> draws = background_rate_by_contributors(exp, 2, depth=2, draws=3, degree=1, seed=5)
    >>> draws.to_frame()[["runs", "intercept"]].round(6).values.tolist()
    [['a,b', 0.0], ['a,c', 1.0], ['b,c', nan]]
    >>> draws.summary()[["draws", "fitted", "below_zero"]].values.tolist()
    [[3, 2, 0]]
    """
    owner = "background_rate_by_contributors"
    d = DEPTH.validate(depth, owner)
    deg = DEGREE.validate(degree, owner)
    n_draws = DRAWS.validate(draws, owner)
    start = SEED.validate(seed, owner)
    candidates = contributor_index(experiment, runs, owner)
    size = CONTRIBUTING_RUNS.within(low=deg + 1, high=candidates.size,
                                    note=f"a degree-{deg} fit needs {deg + 1} runs; "
                                         f"{candidates.size} runs to draw from")
    sizes = size.increasing(contributing, owner, name="contributing", noun="numbers of runs")
    names = np.asarray(experiment.run_names, dtype=object)
    rows = []
    for k in sizes:
        rng = np.random.default_rng([start, k])
        for i in range(1 if k == candidates.size else n_draws):
            chosen = list(names[np.sort(rng.choice(candidates, size=k, replace=False))])
            pool = depth_pool(experiment, depth=d, runs=chosen)
            try:
                fit = estimate_background_rate(experiment, depth=d, runs=chosen, pool=pool, degree=deg,
                                               relevance_level=relevance_level)
                intercept, rate = fit.intercept, fit.rate
            except TooFewCounts:  # this draw's pool cannot carry the fit: no fit, and the summary counts it
                intercept = rate = float("nan")
            true = float("nan")
            if experiment.truth is not None:
                try:
                    true = true_background_rate(experiment, measurement_depth=2 * d, pool=pool,
                                                relevance_level=relevance_level)
                except NoUnjudgedPosition:  # nothing left unjudged in the top 2d: no rate to compare with
                    pass
            rows.append((k, i, ",".join(chosen), intercept, rate, true))
    k, i, chosen, intercept, rate, true = (np.asarray(c) for c in zip(*rows, strict=True))
    return BackgroundRateDraws(contributing=k.astype(np.int64), draw=i.astype(np.int64), runs=chosen.astype(object),
                               intercept=intercept.astype(np.float64), rate=rate.astype(np.float64),
                               true_rate=true.astype(np.float64), depth=d, degree=deg)
