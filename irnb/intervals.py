"""Score intervals, point estimators and scenarios for incomplete judgments (Ravana & Moffat).

For a *weighted-precision* measure M — P@k, RBP(p), SDCG@k — and one topic, a run's score
lies in an interval whatever the unjudged documents turn out to be:

* lower bound B: M with every unjudged document non-relevant;
* upper bound T: M with every unjudged document relevant;
* residual Δ = T − B: the weight of the unjudged documents. For RBP it also holds the tail
  beyond the run, p^n for a run of length n (Moffat & Zobel 2008), so Δ > 0 even when
  everything is judged.

A document is *judged* when its qrels entry is in the pool and has a grade ≥ 0; anything
else in the ranking (not in the qrels, outside the pool, grade < 0) is unjudged. Ranks past
the end of a short run hold no document: they are neither relevant nor unjudged, so for
P@k and a run of n < k documents T = B + (unjudged in the top n)/k < 1 — irnb's departure
from the paper's T = 1 − n/k, which counts every rank not judged as unjudged (the paper
considers only runs of a thousand or more documents).

Point estimators, each inside [B, T] (E = ``background_rate``, λ = ``smoothing``):

* X_S = B (simplistic);
* X_B = B + E·Δ (background);
* X_I = B / (1 − Δ), and E when Δ = 1 (interpolated: the unjudged documents are as likely
  to be relevant as the judged ones; for P@k it is judged-relevant / judged in the top k);
* X_M = λ·X_I + (1 − λ)·X_B (smoothed); ``smoothing="auto"`` takes λ = 1 − Δ per topic,
  which gives X_M = B(1 + Δ) + Δ²E.

Hand-checkable example (P@10): 3 relevant, 2 non-relevant, 5 unjudged in the top 10 →
B = 0.3, T = 0.8, Δ = 0.5; X_B = 0.3 + 0.01·0.5 = 0.305; X_I = 0.3/0.5 = 0.6 (= 3/5);
X_M(auto) = 0.5·0.6 + 0.5·0.305 = 0.4525 (= 0.3·1.5 + 0.25·0.01).

AP, nDCG and bpref have no monotone bounds (a newly found relevant document can lower
them): :mod:`irnb.measure_scenarios` gives them two named scenarios instead. The background rate E
is estimated from data by :mod:`irnb.background_rate`. Both are re-exported here.

Speed: B and Δ are computed by :func:`irnb.kernels.weighted_precision_bounds` (the same
weights per rank as every weighted-precision kernel) over the ranks whose document is in the
qrels (indexed here, once per Experiment, cached weakly), sorted by rank, so a measurement
depth k reads a prefix and a pool change is one gather plus two ``bincount`` calls; no
pandas, no Python loop over runs or topics.
"""

from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass, field
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .background_rate import BackgroundRateFit, estimate_background_rate, true_background_rate
from .experiment import Experiment
from .judgments import Judgments
from .kernels import weighted_precision_bounds
from .measures import INTERVAL_FAMILIES, SCENARIO_FAMILIES, Measure, Param, parse_measure, parse_measures
from .params import BACKGROUND_RATE, COMPLETE, ESTIMATOR_NAME, INCLUDE_ALL, MEASUREMENT_DEPTH, SMOOTHING
from .metrics import aggregate_over_topics, evaluate
from .pooling import judged_mask_of, pool_label
from .results import Result
from .measure_scenarios import Scenarios, scenarios

__all__ = [
    "INTERVAL_FAMILIES",
    "SCENARIO_FAMILIES",
    "ESTIMATORS",
    "INTERVAL_PARAMS",
    "INTERVAL_DEPTH",
    "ScoreIntervals",
    "PointEstimates",
    "IntervalComparison",
    "Scenarios",
    "BackgroundRateFit",
    "has_interval",
    "score_intervals",
    "point_estimates",
    "compare_intervals",
    "pessimistic_t_test",
    "scenarios",
    "estimate_background_rate",
    "true_background_rate",
    "interval_table",
]

#: Estimator letters (the paper's subscripts) and their names.
ESTIMATORS = dict(ESTIMATOR_NAME.meanings)  # {"S": "simplistic", ...}: the letters and names, declared once

#: The measurement depth of an interval: its kernel counts the documents in the top k as 32-bit integers.
INTERVAL_DEPTH = MEASUREMENT_DEPTH.within(high=2 ** 31 - 1, note="interval bounds count ranks in 32-bit integers")
#: Declared bounds of the interval parameters (validation and the widgets' sliders).
INTERVAL_PARAMS: dict[str, Param] = {p.name: p for p in (BACKGROUND_RATE, SMOOTHING, MEASUREMENT_DEPTH)}

_DELTA_ONE = 1e-12  # Δ within this of 1 counts as "nothing known" for X_I (absorbs rounding)


# =============================================================================== index
@dataclass(frozen=True, eq=False)
class _Positions:
    """The (run, topic, rank) positions whose document is in the qrels, sorted by rank
    (17 bytes each; P is at most S·T·D and usually far less).

    ``rank_end[k]`` = number of positions with rank < k, so the top k is a prefix.
    """

    st3: np.ndarray  # (P,) intp 3 · (run · T + topic): three bins per ranking
    q: np.ndarray  # (P,) intp qrels entry
    grade: np.ndarray  # (P,) int8 qrels grade
    rank_end: np.ndarray  # (D + 1,): positions [rank_end[r], rank_end[r + 1]) are at rank r
    shape: tuple[int, int, int]


_POSITIONS: weakref.WeakKeyDictionary[Judgments, _Positions] = weakref.WeakKeyDictionary()


def _positions(judgments: Judgments) -> _Positions:
    cached = _POSITIONS.get(judgments)
    if cached is not None:
        return cached
    doc = judgments.doc
    S, T, D = doc.shape
    r, s, t = np.nonzero(doc.transpose(2, 0, 1) >= 0)  # rank-major order
    q = doc[s, t, r]
    pos = _Positions(
        st3=(s.astype(np.intp) * T + t) * 3,
        q=q.astype(np.intp),
        grade=judgments.qrel_grade[q],
        rank_end=np.searchsorted(r, np.arange(D + 1), side="left"),
        shape=(S, T, D),
    )
    _POSITIONS[judgments] = pos
    return pos


# =============================================================================== estimators
def _estimates(lower: np.ndarray, residual: np.ndarray, background_rate: float, smoothing):
    known = 1.0 - residual
    simplistic = lower
    background = lower + background_rate * residual
    interpolated = np.full_like(lower, background_rate)
    np.divide(lower, known, out=interpolated, where=known > _DELTA_ONE)
    lam = known if smoothing == "auto" else smoothing
    smoothed = lam * interpolated + (1.0 - lam) * background
    return simplistic, background, interpolated, smoothed


# =============================================================================== validation
def check_background_rate(value, owner: str) -> float:
    return BACKGROUND_RATE.validate(value, owner)


def check_smoothing(value, owner: str):
    return SMOOTHING.validate(value, owner)


def estimator_key(estimator) -> str:
    """The letter of a point estimator given by its letter, name or symbol (:data:`irnb.params.ESTIMATOR_NAME`).

    >>> estimator_key("smoothed"), estimator_key("X_S"), estimator_key("B")
    ('M', 'S', 'B')
    """
    return ESTIMATOR_NAME.validate(estimator, None)


def has_interval(measure: str | Measure) -> bool:
    """True for the measures with [B, T] intervals: P@k, binary-gain RBP(p) and SDCG@k.

    >>> [has_interval(m) for m in ("P@10", "RBP(p=0.8)", "SDCG@20", "AP", "RBP(p=0.9,gain=graded)")]
    [True, True, True, False, False]
    """
    return parse_measure(measure).has_interval


def interval_measure(measure, measurement_depth, owner: str) -> Measure:
    m = parse_measure(measure)
    if not m.spec.interval:
        hint = (f"; {m.family} has no monotone bounds: use irnb.intervals.scenarios() for its optimistic and "
                "pessimistic scenarios" if m.spec.scenarios else "")
        raise ValueError(f"{owner}: score intervals exist for P@k, RBP(p) and SDCG@k (weighted precision), "
                         f"got {m.name}{hint}")
    if not m.has_interval:
        need = dict(m.spec.interval_when)
        fixed = Measure(m.family, m.cutoff, tuple({**dict(m.params), **need}.items()), m.rel)
        raise ValueError(f"{owner}: score intervals use {' '.join(f'{v}-{k}' for k, v in need.items())} {m.family} "
                         f"(an unjudged document made relevant counts fully), got {m.name}; use {fixed.name}")
    if measurement_depth is not None:
        k = MEASUREMENT_DEPTH.validate(measurement_depth, owner)
        m = dataclasses.replace(m, cutoff=k)
    if m.cutoff is not None and m.cutoff > INTERVAL_DEPTH.high:
        raise INTERVAL_DEPTH.error(m.cutoff, owner)
    return m


# =============================================================================== results
def _with_means(values: np.ndarray, evaluated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(per-topic values, their means over the evaluated topics), for :meth:`Result.topic_rows`."""
    return values, aggregate_over_topics(values, evaluated, "mean")


@dataclass(frozen=True, eq=False)
class ScoreIntervals(Result):
    """Per run and topic: lower bound B, upper bound T and residual Δ of one measure.

    Arrays are (S, T) in ``run_names`` × ``topics`` order; ``evaluated`` marks the topics
    that count in a run's mean (answered topics, or all with ``complete=True``).
    """

    measure: Measure
    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    lower: np.ndarray = field(repr=False)
    upper: np.ndarray = field(repr=False)
    residual: np.ndarray = field(repr=False)
    evaluated: np.ndarray = field(repr=False)
    pool: str = "official qrels"

    def __post_init__(self):
        for name in ("lower", "upper", "residual", "evaluated"):
            getattr(self, name).flags.writeable = False

    @property
    def mean_lower(self) -> np.ndarray:
        """(S,) mean of B over the evaluated topics."""
        return aggregate_over_topics(self.lower, self.evaluated, "mean")

    @property
    def mean_upper(self) -> np.ndarray:
        return aggregate_over_topics(self.upper, self.evaluated, "mean")

    @property
    def mean_residual(self) -> np.ndarray:
        return aggregate_over_topics(self.residual, self.evaluated, "mean")

    def estimates(self, *, background_rate: float = BACKGROUND_RATE.default,
                  smoothing=SMOOTHING.default) -> PointEstimates:
        """All four point estimators (see :func:`point_estimates`)."""
        return point_estimates(self, background_rate=background_rate, smoothing=smoothing)

    def estimate(self, estimator: str, *, background_rate: float = BACKGROUND_RATE.default,
                 smoothing=SMOOTHING.default) -> np.ndarray:
        """(S, T) values of one estimator: ``"S"``, ``"B"``, ``"I"`` or ``"M"`` (or its name)."""
        return self.estimates(background_rate=background_rate, smoothing=smoothing).get(estimator)

    def means(self) -> pd.DataFrame:
        """Run × (lower, upper, residual) means over the evaluated topics."""
        return pd.DataFrame({"lower": self.mean_lower, "upper": self.mean_upper, "residual": self.mean_residual},
                            index=pd.Index(self.run_names, name="run"))

    def frame_columns(self, *, include_all: bool = True) -> list[dict]:
        """Tidy rows ``run, topic, measure, lower, upper, residual`` (:meth:`to_frame`);
        topic ``"all"`` holds the means over the evaluated topics."""
        return self.topic_rows(self.measure.name, include_all=include_all, lower=(self.lower, self.mean_lower),
                               upper=(self.upper, self.mean_upper), residual=(self.residual, self.mean_residual))


@dataclass(frozen=True, eq=False)
class PointEstimates(Result):
    """The four point estimators of one measure, per run and topic ((S, T) arrays)."""

    measure: Measure
    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    simplistic: np.ndarray = field(repr=False)  # X_S
    background: np.ndarray = field(repr=False)  # X_B
    interpolated: np.ndarray = field(repr=False)  # X_I
    smoothed: np.ndarray = field(repr=False)  # X_M
    evaluated: np.ndarray = field(repr=False)
    background_rate: float = BACKGROUND_RATE.default
    smoothing: float | str = SMOOTHING.default

    def __post_init__(self):
        for name in ESTIMATORS.values():
            getattr(self, name).flags.writeable = False

    def get(self, estimator: str) -> np.ndarray:
        """(S, T) values of ``"S"``, ``"B"``, ``"I"`` or ``"M"`` (or the estimator's name)."""
        return getattr(self, ESTIMATORS[estimator_key(estimator)])

    def mean(self, estimator: str) -> np.ndarray:
        """(S,) means of one estimator (``"S"``, ``"B"``, ``"I"``, ``"M"`` or its name) over the
        evaluated topics."""
        return aggregate_over_topics(self.get(estimator), self.evaluated, "mean")

    def means(self) -> pd.DataFrame:
        """Run × estimator means (columns ``X_S, X_B, X_I, X_M``) over the evaluated topics."""
        return pd.DataFrame({f"X_{k}": self.mean(k) for k in ESTIMATORS}, index=pd.Index(self.run_names, name="run"))

    def frame_columns(self, *, include_all: bool = True) -> list[dict]:
        """Tidy rows ``run, topic, measure, estimator, value`` (estimator letters S/B/I/M)."""
        return [part for key, name in ESTIMATORS.items()
                for part in self.topic_rows(self.measure.name, include_all=include_all, estimator=key,
                                            value=_with_means(getattr(self, name), self.evaluated))]


# =============================================================================== public API
def score_intervals(experiment: Experiment, measure: str | Measure, *, pool=None,
                    measurement_depth: int | None = None, complete: bool = False) -> ScoreIntervals:
    """[B, T] and Δ of a weighted-precision measure (P@k, RBP(p), SDCG@k) for every run and
    topic, against the official qrels or a ``pool`` (:class:`irnb.pooling.Pool` or a boolean
    mask over qrels entries).

    ``measurement_depth`` (k) overrides the measure's cutoff (handy for a depth slider).
    ``complete=True`` counts every topic in the means (unanswered ones as empty rankings,
    trec_eval -c); by default only answered topics count.

    Example (hand-checkable): ranking a (relevant), b (unjudged), c (non-relevant).
    P@2: B = 1/2, T = 2/2, Δ = 1/2. RBP(p=0.5): B = 0.5·1 = 0.5, the unjudged b weighs
    0.5·0.5 = 0.25 and the tail beyond 3 documents 0.5³ = 0.125, so Δ = 0.375, T = 0.875.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]})
    >>> exp = Experiment(run, qrels)
    >>> iv = score_intervals(exp, "P@2")
    >>> float(iv.lower[0, 0]), float(iv.upper[0, 0]), float(iv.residual[0, 0])
    (0.5, 1.0, 0.5)
    >>> iv = score_intervals(exp, "RBP(p=0.5)")
    >>> float(iv.lower[0, 0]), float(iv.upper[0, 0]), float(iv.residual[0, 0])
    (0.5, 0.875, 0.375)
    """
    m = interval_measure(measure, measurement_depth, "score_intervals")
    complete = COMPLETE.validate(complete, None)
    mask = judged_mask_of(experiment, pool)
    pos = _positions(experiment.judgments)
    p = float(dict(m.params).get("p", 0.0))  # RBP's persistence; the other families have none
    lower, residual = weighted_precision_bounds(pos.grade, pos.q, pos.st3, pos.rank_end, mask, experiment.length,
                                                m.family, k=m.cutoff, p=p, relevance_level=m.rel)
    evaluated = np.ones(lower.shape, dtype=bool) if complete else experiment.length > 0
    return ScoreIntervals(measure=m, run_names=experiment.run_names, topics=experiment.topics, lower=lower,
                          upper=lower + residual, residual=residual, evaluated=evaluated.copy(),
                          pool=pool_label(pool))


def point_estimates(intervals: ScoreIntervals, *, background_rate: float = BACKGROUND_RATE.default,
                    smoothing=SMOOTHING.default) -> PointEstimates:
    """X_S, X_B(E), X_I and X_M(E, λ) from score intervals (formulas in the module docstring).

    ``background_rate`` is E in [0, 1]; ``smoothing`` is λ in [0, 1] or ``"auto"`` (λ = 1 − Δ).

    Example: B = 0.3, Δ = 0.5 (P@10 with 3 relevant, 2 non-relevant, 5 unjudged), E = 0.01:
    X_B = 0.305, X_I = 0.6, X_M(auto) = 0.3·1.5 + 0.5²·0.01 = 0.4525; with λ = 0.2,
    X_M = 0.2·0.6 + 0.8·0.305 = 0.364.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(10)], "score": range(10, 0, -1)})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(5)], "grade": [1, 1, 1, 0, 0]})
    >>> iv = score_intervals(Experiment(run, qrels), "P@10")
    >>> est = point_estimates(iv)
    >>> [round(float(est.get(x)[0, 0]), 4) for x in "SBIM"]
    [0.3, 0.305, 0.6, 0.4525]
    >>> round(float(point_estimates(iv, smoothing=0.2).smoothed[0, 0]), 4)
    0.364
    """
    E = check_background_rate(background_rate, "point_estimates")
    lam = check_smoothing(smoothing, "point_estimates")
    xs, xb, xi, xm = _estimates(intervals.lower, intervals.residual, E, lam)
    return PointEstimates(measure=intervals.measure, run_names=intervals.run_names, topics=intervals.topics,
                          simplistic=xs.copy(), background=xb, interpolated=xi, smoothed=xm,
                          evaluated=intervals.evaluated, background_rate=E, smoothing=lam)


# =============================================================================== comparison
@dataclass(frozen=True, eq=False)
class IntervalComparison(Result):
    """Pessimistic interval comparison of every pair of runs (Ravana & Moffat).

    On a topic, run i *wins* against run j only if B_i > T_j, *loses* only if T_i < B_j,
    and otherwise the comparison is *inconclusive*. ``outcome[i, j, t]`` is +1, −1 or 0;
    ``wins[i, j]``, ``losses[i, j]`` and ``inconclusive[i, j]`` count the topics both runs
    are evaluated on (``compared[i, j]``).
    """

    measure: Measure
    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    outcome: np.ndarray = field(repr=False)  # (S, S, T) int8
    wins: np.ndarray = field(repr=False)  # (S, S)
    losses: np.ndarray = field(repr=False)
    inconclusive: np.ndarray = field(repr=False)
    compared: np.ndarray = field(repr=False)

    def frame_columns(self) -> dict:
        """One row per unordered pair (``run_a`` before ``run_b`` in run order): wins, losses
        and inconclusive topics of ``run_a`` against ``run_b``."""
        i, j = np.triu_indices(len(self.run_names), k=1)
        runs = np.asarray(self.run_names, dtype=object)
        return {"measure": self.measure.name, "run_a": runs[i], "run_b": runs[j],
                "wins": self.wins[i, j], "losses": self.losses[i, j],
                "inconclusive": self.inconclusive[i, j], "topics": self.compared[i, j]}


def compare_intervals(intervals: ScoreIntervals) -> IntervalComparison:
    """Win / loss / inconclusive per topic for all pairs of runs at once (vectorised).

    Example: intervals [0.5, 0.7] and [0.1, 0.4] → the first wins (0.5 > 0.4);
    [0.5, 0.7] against [0.6, 0.9] → inconclusive (they overlap).

    >>> import numpy as np
    >>> from irnb.measures import parse_measure
    >>> lower = np.array([[0.5], [0.1], [0.6]]); upper = np.array([[0.7], [0.4], [0.9]])
    >>> iv = ScoreIntervals(parse_measure("P@10"), ("a", "b", "c"), ("1",), lower, upper, upper - lower,
    ...                     np.ones((3, 1), bool))
    >>> compare_intervals(iv).outcome[:, :, 0].tolist()
    [[0, 1, 0], [-1, 0, -1], [0, 1, 0]]
    """
    B, T, ev = intervals.lower, intervals.upper, intervals.evaluated
    both = ev[:, None, :] & ev[None, :, :]
    win = (B[:, None, :] > T[None, :, :]) & both
    loss = win.transpose(1, 0, 2)
    outcome = win.astype(np.int8) - loss.astype(np.int8)
    wins = win.sum(axis=2)
    losses = wins.T.copy()
    compared = both.sum(axis=2)
    return IntervalComparison(measure=intervals.measure, run_names=intervals.run_names, topics=intervals.topics,
                              outcome=outcome, wins=wins, losses=losses, inconclusive=compared - wins - losses,
                              compared=compared)


def pessimistic_p_values(lower: np.ndarray, upper: np.ndarray, evaluated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P,) p-values and directions of the pessimistic interval t-test for every pair
    i < j (``np.triu_indices`` order) of the rows of (S, T) bounds."""
    from .pair_kernels import paired_summaries, paired_t_kernel

    i, j = np.triu_indices(lower.shape[0], 1)
    both = evaluated[i] & evaluated[j]
    lo = np.where(evaluated, lower, np.nan)
    up = np.where(evaluated, upper, np.nan)
    first = paired_summaries(np.where(both, lo[i], np.nan), np.where(both, up[j], np.nan))  # B_i − T_j
    second = paired_summaries(np.where(both, lo[j], np.nan), np.where(both, up[i], np.nan))  # B_j − T_i
    p_first, p_second = paired_t_kernel(first)[1], paired_t_kernel(second)[1]
    with np.errstate(invalid="ignore"):
        up_i, up_j = first.mean > 0, second.mean > 0  # at most one: their sum is −(Δ_i + Δ_j) ≤ 0
    p = np.where(up_i, p_first, np.where(up_j, p_second, 1.0))
    p = np.where(both.any(axis=1), p, np.nan)
    direction = np.where(up_i, 1, np.where(up_j, -1, 0)).astype(np.int8)
    return p, direction


def pessimistic_t_test(intervals: ScoreIntervals) -> pd.DataFrame:
    """Ravana & Moffat's pessimistic interval comparison as a significance test over topics.

    Run i is *pessimistically better* than run j when even its lower bounds beat j's upper
    bounds: the paired two-sided t-test of B_i against T_j over the topics both runs answer,
    with mean(B_i − T_j) > 0. For each pair (i before j in run order) the one of the two
    directions whose mean margin is positive is tested (at most one is: the two margins sum
    to −(mean Δ_i + mean Δ_j) ≤ 0); when neither is positive the pair cannot be separated
    and p = 1, direction 0. This is irnb's reading of the paper's "pessimistic
    interval-overlap method of handling the residuals" in its separability curves (Figure
    2), which the paper describes per topic only (:func:`compare_intervals`). The t-test's
    rules are :func:`irnb.stats.t_test`'s (all-zero differences p = 1, a constant positive
    margin p = 0, fewer than two topics NaN).

    Returns one row per pair: ``run_a, run_b, margin`` (the tested mean margin, B of the
    pessimistically better run minus T of the other; the larger of the two when neither
    is positive), ``direction`` (+1: run_a better, −1: run_b better, 0: neither) and
    ``p_value``.

    Example: two topics; a has [B, T] = [0.6, 0.7] and [0.5, 0.6], b has [0.1, 0.3] and
    [0.2, 0.4]. B_a − T_b = 0.3 and 0.1: mean 0.2, sd 0.1414, t = 0.2/(0.1414/√2) = 2, one
    degree of freedom, p = 0.2952 (two-sided), direction +1.

    >>> from irnb.measures import parse_measure
    >>> lower = np.array([[0.6, 0.5], [0.1, 0.2]]); upper = np.array([[0.7, 0.6], [0.3, 0.4]])
    >>> iv = ScoreIntervals(parse_measure("P@10"), ("a", "b"), ("1", "2"), lower, upper, upper - lower,
    ...                     np.ones((2, 2), bool))
    >>> row = pessimistic_t_test(iv).iloc[0]
    >>> int(row["direction"]), round(float(row["margin"]), 4), round(float(row["p_value"]), 4)
    (1, 0.2, 0.2952)
    """
    if not isinstance(intervals, ScoreIntervals):
        raise TypeError(f"pessimistic_t_test needs ScoreIntervals (from score_intervals), got "
                        f"{type(intervals).__name__}")
    B, T, ev = intervals.lower, intervals.upper, intervals.evaluated
    p, direction = pessimistic_p_values(B, T, ev)
    i, j = np.triu_indices(B.shape[0], 1)
    with np.errstate(invalid="ignore"):
        both = ev[i] & ev[j]
        n = np.maximum(both.sum(axis=1), 1)
        margin_i = np.where(both, B[i] - T[j], 0.0).sum(axis=1) / n
        margin_j = np.where(both, B[j] - T[i], 0.0).sum(axis=1) / n
    runs = np.asarray(intervals.run_names, dtype=object)
    return pd.DataFrame({"measure": intervals.measure.name, "run_a": runs[i], "run_b": runs[j],
                         "margin": np.maximum(margin_i, margin_j), "direction": direction, "p_value": p})


# =============================================================================== CLI table
def interval_table(experiment: Experiment, measures: str | Measure | Iterable[str | Measure], *, pool=None,
                   estimator: str | None = None, background_rate: float = BACKGROUND_RATE.default,
                   smoothing=SMOOTHING.default, include_all: bool = True) -> pd.DataFrame:
    """One tidy table for ``irnb evaluate --intervals``: columns ``run, topic, measure,
    value, lower, upper, residual, estimate``.

    ``value`` is the ordinary (trec_eval) score against the official qrels or ``pool``;
    ``lower``/``upper``/``residual`` are B, T and Δ for P@k, RBP(p) and SDCG@k and NaN for
    other measures; ``estimate`` is the chosen estimator (``"S"``, ``"B"``, ``"I"``, ``"M"``)
    or NaN when ``estimator`` is None. An estimator with a measure that has no interval is
    an error. Topic ``"all"`` rows hold the means over answered topics.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]})
    >>> table = interval_table(Experiment(run, qrels), ["P@2"], estimator="I", include_all=False)
    >>> table[["value", "lower", "upper", "residual", "estimate"]].values.tolist()
    [[0.5, 0.5, 1.0, 0.5, 1.0]]
    """
    include_all = INCLUDE_ALL.validate(include_all, "interval_table")
    parsed = parse_measures(measures)
    key = None if estimator is None else estimator_key(estimator)
    E = check_background_rate(background_rate, "interval_table")
    lam = check_smoothing(smoothing, "interval_table")
    without = [m.name for m in parsed if not has_interval(m)]
    if key is not None and without:
        raise ValueError(f"estimator {ESTIMATORS[key]} (X_{key}) needs score intervals, which exist for P@k, RBP(p) "
                         f"(binary gain) and SDCG@k only; {', '.join(without)} has none (AP, nDCG and bpref have "
                         "optimistic/pessimistic scenarios instead: irnb.intervals.scenarios)")
    mask = judged_mask_of(experiment, pool)
    ev = evaluate(experiment, parsed, judged=mask)
    runs, topics = np.asarray(experiment.run_names, dtype=object), np.asarray(experiment.topics, dtype=object)
    s, t = np.nonzero(ev.evaluated)
    parts = []
    for m in parsed:
        value = ev.values[m]
        nan = np.full(value.shape, np.nan)
        lower = upper = residual = estimate = nan
        if has_interval(m):
            iv = score_intervals(experiment, m, pool=mask)
            lower, upper, residual = iv.lower, iv.upper, iv.residual
            if key is not None:
                estimate = point_estimates(iv, background_rate=E, smoothing=lam).get(key)
        columns = {"value": value, "lower": lower, "upper": upper, "residual": residual, "estimate": estimate}
        parts.append(pd.DataFrame({"run": runs[s], "topic": topics[t], "measure": m.name,
                                   **{c: a[s, t] for c, a in columns.items()}}))
        if include_all:
            means = {c: aggregate_over_topics(a, ev.evaluated, "mean") if not np.isnan(a).all()
                     else np.full(len(runs), np.nan)
                     for c, a in columns.items()}
            means["value"] = ev.aggregate(m)
            parts.append(pd.DataFrame({"run": runs, "topic": "all", "measure": m.name, **means}))
    return pd.concat(parts, ignore_index=True)
