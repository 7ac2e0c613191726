"""How far an estimate is from the truth: bias, RMSE and ranking agreement in one call.

Any estimator (a point estimate inside score intervals, a measure on a reduced pool, a
prediction-completed qrels) gives an (S, T) array of per-topic estimates or an (S,) array
of per-run scores; ``estimator_error`` compares it with the same measure evaluated on the
complete truth of a simulated collection (or of any Experiment built with ``truth=``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from ..experiment import Experiment
from ..measures import parse_measures
from ..metrics import aggregate_over_topics, evaluate
from ..params import RELEVANCE_LEVEL

__all__ = ["EstimatorError", "estimator_error"]


@dataclass(frozen=True, eq=False)
class EstimatorError:
    """Errors of an estimate against the true score.

    ``level`` is ``"topic"`` for (S, T) estimates — ``bias``, ``rmse`` and ``max_abs_error``
    over every evaluated (run, topic) — or ``"run"`` for (S,) estimates — over runs.
    ``kendall_tau`` compares the system rankings (runs ordered by their aggregated estimate
    versus their true score; τ-b, ties counted). ``per_run`` has one row per run: ``run,
    estimate, truth, error`` (for topic-level estimates, each run's estimates aggregated over
    topics as the measure aggregates its scores: the mean, the geometric mean for GMAP, the
    sum for NumRel…).
    """

    measure: str
    level: str
    bias: float
    rmse: float
    max_abs_error: float
    kendall_tau: float
    per_run: pd.DataFrame = field(repr=False)


def _experiment_of(source) -> Experiment:
    experiment = getattr(source, "experiment", source)
    if not isinstance(experiment, Experiment):
        raise TypeError(f"estimator_error: expected a simulated Collection or an Experiment, "
                        f"got {type(source).__name__}")
    if experiment.truth is None:
        raise ValueError("estimator_error: the Experiment has no truth; build it with truth=<complete qrels> "
                         "or use a simulated collection (irnb.datasets.simulate)")
    return experiment


def estimator_error(source, measure, estimates, *, relevance_level: int = RELEVANCE_LEVEL.default,
                    estimator: str | None = None) -> EstimatorError:
    """Compare ``estimates`` of ``measure`` with its value on the complete truth.

    ``source`` is a :class:`~irnb.datasets.Collection` or an Experiment built with
    ``truth=``; ``estimates`` has shape (S, T) (per run and topic, in the Experiment's run
    and topic order) or (S,) (per run, compared with the true mean over topics), or is the
    :class:`~irnb.intervals.PointEstimates` of ``measure`` with ``estimator`` naming which
    of them (``"S"``, ``"B"``, ``"I"`` or ``"M"``; required for PointEstimates only).

    Bias = mean(estimate − truth); RMSE = √mean((estimate − truth)²). For two runs whose
    true P@10 are 0.5 and 0.3, estimates 0.4 and 0.3 give errors −0.1 and 0: bias = −0.05,
    RMSE = √(0.01 / 2) = 0.0707.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"run": ["a"] * 2 + ["b"] * 2, "qid": "1", "docno": ["x", "y"] * 2,
    ...                     "score": [2.0, 1.0, 1.0, 2.0]})
    >>> truth = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
    >>> exp = Experiment(run, truth, truth=truth)   # true P@1: a = 1, b = 0
    >>> err = estimator_error(exp, "P@1", [0.5, 0.0])
    >>> round(err.bias, 4), round(err.rmse, 4)      # errors −0.5 and 0
    (-0.25, 0.3536)
    """
    experiment = _experiment_of(source)
    parsed = parse_measures(measure)
    if len(parsed) != 1:
        raise ValueError(f"estimator_error: expected one measure, got {[x.name for x in parsed]}")
    m = parsed[0]
    S, T = len(experiment.run_names), len(experiment.topics)
    from ..intervals import PointEstimates

    if isinstance(estimates, PointEstimates):
        if estimator is None:
            raise ValueError("estimator_error: estimates are PointEstimates (X_S, X_B, X_I, X_M); "
                             "name one with estimator='S', 'B', 'I' or 'M'")
        if estimates.measure != m:
            raise ValueError(f"estimator_error: the PointEstimates are of {estimates.measure.name}, "
                             f"the measure asked for is {m.name}")
        estimates = estimates.get(estimator)
    elif estimator is not None:
        raise ValueError(f"estimator_error: estimator= picks one of PointEstimates' estimators; "
                         f"estimates is a {type(estimates).__name__}, drop estimator={estimator!r}")
    est = np.asarray(estimates, dtype=np.float64)
    if est.shape not in ((S, T), (S,)):
        raise ValueError(f"estimator_error: estimates must have shape (S, T) = ({S}, {T}) or (S,) = ({S},) "
                         f"for this Experiment's runs and topics, got {est.shape}")
    if not np.all(np.isfinite(est)):
        bad = np.argwhere(~np.isfinite(est))[0]
        raise ValueError(f"estimator_error: estimates must be finite numbers, got {float(est[tuple(bad)])!r} at index "
                         f"{tuple(int(i) for i in bad)}")
    ev = evaluate(experiment, [m], truth=True, relevance_level=relevance_level)
    true_runs = ev.aggregate(m)
    if est.ndim == 2:
        evaluated = ev.evaluated
        diff = (est - ev[m])[evaluated]
        est_runs = aggregate_over_topics(est, evaluated, m.spec.aggregate)
        level = "topic"
    else:
        diff = est - true_runs
        est_runs = est
        level = "run"
    tau = stats.kendalltau(est_runs, true_runs).statistic if S > 1 else float("nan")
    per_run = pd.DataFrame({"run": list(experiment.run_names), "estimate": est_runs, "truth": true_runs,
                            "error": est_runs - true_runs})
    return EstimatorError(
        measure=m.name, level=level,
        bias=float(diff.mean()) if diff.size else float("nan"),
        rmse=float(np.sqrt(np.mean(diff ** 2))) if diff.size else float("nan"),
        max_abs_error=float(np.abs(diff).max()) if diff.size else float("nan"),
        kendall_tau=float(tau),
        per_run=per_run,
    )
