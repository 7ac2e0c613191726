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
from .params import DEGREE
from .pooling import DEPTH, contributor_index, judged_mask_of, reachable_depth
from .results import Result

__all__ = ["BackgroundRateFit", "estimate_background_rate", "true_background_rate"]


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


def estimate_background_rate(experiment: Experiment, *, depth: int = 100, runs=None, pool=None,
                             degree: int = 3, relevance_level: int = 1) -> BackgroundRateFit:
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
        raise ValueError(f"estimate_background_rate: a degree-{deg} fit needs at least {deg + 1} distinct numbers "
                         f"of contributing runs, got {int(in_fit.sum())}; lower degree= or deepen depth=")
    coefficients = np.polyfit(groups[in_fit].astype(np.float64), fraction[in_fit], deg)
    intercept = float(np.polyval(coefficients, 0.0))
    return BackgroundRateFit(num_runs=groups, judged=n_judged[groups], relevant=n_rel[groups], fraction=fraction,
                             in_fit=in_fit, coefficients=coefficients, rate=float(np.clip(intercept, 0.0, 1.0)),
                             intercept=intercept, overall=float(relevant.sum() / judged.sum()), depth=d, degree=deg)


def true_background_rate(experiment: Experiment, *, measurement_depth: int, pool=None, runs=None,
                         relevance_level: int = 1) -> float:
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
        raise ValueError(f"{owner}: no unjudged document that the truth judges in the top {k} of the runs")
    return float((truth[unjudged] >= relevance_level).sum() / n)


