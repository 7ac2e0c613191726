"""Vectorised measure kernels over the Experiment's dense arrays, and ``evaluate``.

Every kernel takes a :class:`Judged` view — the (S, T, D) grade array plus per-topic qrels
statistics — and returns an (S, T) float64 array. No I/O, no pandas, no Python loop over
runs or topics in a kernel.

Rules (trec_eval's unless stated; each has a test):

* relevant ⇔ grade ≥ ``relevance_level`` (default 1); judged ⇔ in the qrels with grade ≥ 0.
  Negative grades ("pooled but not judged") are non-relevant for P, AP, nDCG, RR, recall
  and unjudged for bpref, infAP, unj, Judged@k, condensed lists and interval bounds.
* R = relevant documents in the qrels of the topic (judged), N = judged non-relevant.
  A measure that divides by R is 0 when R = 0.
* P@k divides by k even when the run is shorter than k.
* nDCG uses the grade as gain (negative grades gain 0) and the discount log2(rank + 1); the
  ideal ranking orders the qrels' grades; nDCG@k cuts both at k.
* A topic the run did not answer is skipped in the mean (trec_eval), or scored as an empty
  ranking when ``complete=True`` (trec_eval ``-c``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .experiment import NO_DOC, UNJUDGED, Experiment, Judgments
from .measures import Measure, parse_measures

__all__ = ["Judged", "Evaluation", "evaluate", "judged_view", "condense"]

GMAP_FLOOR = 1e-5  # trec_eval MIN_GEO_MEAN


@dataclass(frozen=True, eq=False)
class Judged:
    """What the kernels see: grades at every (run, topic, rank) and per-topic qrels counts.

    ``level_counts[t, g]`` counts judged documents of grade g (0 ≤ g ≤ max grade) in the
    qrels of topic t; ``length[s, t]`` is the ranking's length.
    """

    grade: np.ndarray = field(repr=False)  # (S, T, D) int8
    level_counts: np.ndarray = field(repr=False)  # (T, G + 1) int64
    length: np.ndarray = field(repr=False)  # (S, T)
    relevance_level: int = 1

    # ----------------------------------------------------------- masks and cumulative sums
    @cached_property
    def rel(self) -> np.ndarray:
        return self.grade >= self.relevance_level

    @cached_property
    def judged(self) -> np.ndarray:
        return self.grade >= 0

    @cached_property
    def nonrel(self) -> np.ndarray:
        return self.judged & ~self.rel

    @cached_property
    def cum_rel(self) -> np.ndarray:
        return np.cumsum(self.rel, axis=2, dtype=np.int32)

    @cached_property
    def cum_judged(self) -> np.ndarray:
        return np.cumsum(self.judged, axis=2, dtype=np.int32)

    @cached_property
    def cum_nonrel(self) -> np.ndarray:
        return np.cumsum(self.nonrel, axis=2, dtype=np.int32)

    @property
    def depth(self) -> int:
        return self.grade.shape[2]

    def at(self, cum: np.ndarray, k: int | None) -> np.ndarray:
        """Count in the top k (k=None: the whole ranking) from a cumulative array."""
        if self.depth == 0:
            return np.zeros(cum.shape[:2], dtype=np.int64)
        k = self.depth if k is None else min(k, self.depth)
        if k <= 0:
            return np.zeros(cum.shape[:2], dtype=np.int64)
        return cum[:, :, k - 1].astype(np.int64)

    # ----------------------------------------------------------- per-topic statistics
    @cached_property
    def num_rel(self) -> np.ndarray:
        """R per topic, shape (T,)."""
        return self.level_counts[:, self.relevance_level:].sum(axis=1)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """N per topic: judged documents below the relevance level."""
        return self.level_counts[:, : self.relevance_level].sum(axis=1)

    @cached_property
    def num_judged(self) -> np.ndarray:
        return self.level_counts.sum(axis=1)

    def ideal_gains(self, k: int) -> np.ndarray:
        """(T, k) gains of the ideal ranking (grades sorted descending, zeros after)."""
        counts = self.level_counts[:, :0:-1]  # grades G..1
        levels = np.arange(self.level_counts.shape[1] - 1, 0, -1)
        if counts.shape[1] == 0:
            return np.zeros((self.level_counts.shape[0], k))
        ends = np.cumsum(counts, axis=1)  # (T, G)
        pos = np.arange(k)
        which = (ends[:, None, :] <= pos[None, :, None]).sum(axis=2)  # (T, k)
        gains = np.where(which < levels.size, levels[np.minimum(which, levels.size - 1)], 0)
        return gains.astype(np.float64)


def _level_counts(judgments: Judgments, T: int, judged: np.ndarray | None) -> np.ndarray:
    grades = judgments.qrel_grade.astype(np.int64)
    keep = grades >= 0
    if judged is not None:
        keep &= np.asarray(judged, dtype=bool)
    G = int(grades[keep].max(initial=0))
    counts = np.zeros((T, G + 1), dtype=np.int64)
    np.add.at(counts, (judgments.qrel_topic[keep], grades[keep]), 1)
    return counts


def judged_view(
    experiment: Experiment,
    *,
    judged: np.ndarray | None = None,
    relevance_level: int = 1,
    truth: bool = False,
    depth: int | None = None,
) -> Judged:
    """The kernels' view of an Experiment: official qrels (or ``truth=True`` for the complete
    qrels), optionally restricted to a pool (``judged``: bool mask over qrels entries) and
    cut at ``depth`` (trec_eval -M)."""
    if not isinstance(relevance_level, (int, np.integer)) or isinstance(relevance_level, bool) or relevance_level < 1:
        raise ValueError(f"relevance_level must be an integer ≥ 1, got {relevance_level!r}")
    judgments = experiment.truth if truth else experiment.judgments
    if judgments is None:
        raise ValueError("truth=True needs an Experiment built with truth= qrels")
    grade = judgments.grade_array(judged)
    length = experiment.length
    if depth is not None:
        if not isinstance(depth, (int, np.integer)) or depth < 1:
            raise ValueError(f"depth (run cutoff) must be an integer ≥ 1, got {depth!r}")
        grade = grade[:, :, :depth]
        length = np.minimum(length, depth)
    counts = _level_counts(judgments, len(experiment.topics), judged)
    return Judged(grade=grade, level_counts=counts, length=length, relevance_level=int(relevance_level))


def condense(view: Judged) -> Judged:
    """The condensed list (trec_eval -J, Sakai's P(j)): documents that are not judged
    (not in the qrels, or with a negative grade) are removed and the rest move up."""
    judged = view.grade >= 0
    new_pos = np.cumsum(judged, axis=2) - 1
    out = np.full_like(view.grade, NO_DOC)
    s, t, r = np.nonzero(judged)
    out[s, t, new_pos[s, t, r]] = view.grade[s, t, r]
    return Judged(grade=out, level_counts=view.level_counts, length=judged.sum(axis=2),
                  relevance_level=view.relevance_level)


# =================================================================== kernels
def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.broadcast_to(np.asarray(den, dtype=np.float64), num.shape)
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _cut(view: Judged, k: int | None) -> int:
    return view.depth if k is None else min(k, view.depth)


def _precision(view: Judged, k: int) -> np.ndarray:
    return view.at(view.cum_rel, k) / k


def _average_precision(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    ranks = np.arange(1, d + 1, dtype=np.float64)
    prec = np.where(view.rel[:, :, :d], view.cum_rel[:, :, :d] / ranks, 0.0)
    return _safe_div(prec.sum(axis=2), view.num_rel[None, :])


def _dcg(gains: np.ndarray, d: int) -> np.ndarray:
    discount = 1.0 / np.log2(np.arange(2, d + 2, dtype=np.float64))
    return gains @ discount if gains.ndim == 2 else np.tensordot(gains, discount, axes=([2], [0]))


def _ndcg(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    gains = np.clip(view.grade[:, :, :d], 0, None).astype(np.float64)
    dcg = _dcg(gains, d)
    ideal_depth = int(view.num_judged.max(initial=0)) if k is None else k
    ideal = _dcg(view.ideal_gains(ideal_depth), ideal_depth)
    return _safe_div(dcg, ideal[None, :])


def _rprec(view: Judged) -> np.ndarray:
    R = view.num_rel
    if view.depth == 0:
        return np.zeros(view.grade.shape[:2])
    idx = np.clip(np.minimum(R, view.depth) - 1, 0, None)
    found = np.take_along_axis(view.cum_rel, np.broadcast_to(idx[None, :, None], view.cum_rel.shape[:2] + (1,)),
                               axis=2)[:, :, 0]
    found = np.where(R[None, :] > 0, found, 0)
    return _safe_div(found, R[None, :])


def _reciprocal_rank(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    rel = view.rel[:, :, :d]
    first = rel.argmax(axis=2)
    return np.where(rel.any(axis=2), 1.0 / (first + 1), 0.0)


def _recall(view: Judged, k: int) -> np.ndarray:
    return _safe_div(view.at(view.cum_rel, k), view.num_rel[None, :])


def _success(view: Judged, k: int) -> np.ndarray:
    return (view.at(view.cum_rel, k) > 0).astype(np.float64)


def _nonrel_above(view: Judged) -> np.ndarray:
    """Judged non-relevant documents ranked above each position."""
    return view.cum_nonrel - view.nonrel


def _bpref(view: Judged) -> np.ndarray:
    R = view.num_rel[None, :, None].astype(np.float64)
    N = view.num_nonrel[None, :, None].astype(np.float64)
    n_above = _nonrel_above(view).astype(np.float64)
    denom = np.minimum(N, R)
    frac = np.zeros(n_above.shape)
    np.divide(np.minimum(n_above, R), denom, out=frac, where=denom > 0)
    terms = np.where(view.rel, 1.0 - frac, 0.0)
    return _safe_div(terms.sum(axis=2), view.num_rel[None, :])


def _rank_eff(view: Judged) -> np.ndarray:
    N = view.num_nonrel[None, :, None].astype(np.float64)
    n_above = _nonrel_above(view).astype(np.float64)
    frac = np.zeros(n_above.shape)
    np.divide(n_above, N, out=frac, where=N > 0)
    terms = np.where(view.rel, 1.0 - frac, 0.0)
    return _safe_div(terms.sum(axis=2), view.num_rel[None, :])


def _infap(view: Judged) -> np.ndarray:
    """trec_eval m_infap.c (Yilmaz & Aslam 2006): at each relevant document at rank k,
    1/k + ((k−1)/k) · (|d100|/(k−1)) · (|rel|+ε)/(|rel|+|nonrel|+2ε) over the documents
    above it, where d100 counts those in the pool (judged or pooled-unjudged),
    rel/nonrel the judged ones, ε = 1e-5; averaged over R."""
    eps = 1e-5
    pooled = (view.grade >= 0) | ((view.grade < 0) & (view.grade > NO_DOC))  # in qrels at all
    rel, nonrel = view.rel, view.nonrel
    rel_above = (view.cum_rel - rel).astype(np.float64)
    nonrel_above = (view.cum_nonrel - nonrel).astype(np.float64)
    pooled_above = (np.cumsum(pooled, axis=2) - pooled).astype(np.float64)
    k = np.arange(1, view.depth + 1, dtype=np.float64)[None, None, :]
    frac = (rel_above + eps) / (rel_above + nonrel_above + 2 * eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        above = np.where(k > 1, ((k - 1) / k) * (pooled_above / np.maximum(k - 1, 1)) * frac, 0.0)
    terms = np.where(rel, 1.0 / k + above, 0.0)
    return _safe_div(terms.sum(axis=2), view.num_rel[None, :])


def _unjudged(view: Judged, k: int) -> np.ndarray:
    d = _cut(view, k)
    not_judged = (view.grade[:, :, :d] < 0) & (view.grade[:, :, :d] != NO_DOC)
    return not_judged.sum(axis=2) / k


def _judged_at(view: Judged, k: int) -> np.ndarray:
    return _safe_div(view.at(view.cum_judged, k), np.minimum(view.length, k))


def _average_assessment(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    ranks = np.arange(1, d + 1, dtype=np.float64)
    judged = view.judged[:, :, :d]
    ap_at = np.where(judged, view.cum_judged[:, :, :d] / ranks, 0.0)
    return _safe_div(ap_at.sum(axis=2), judged.sum(axis=2))


def _recall_assessment(view: Judged, k: int | None) -> np.ndarray:
    return _safe_div(view.at(view.cum_judged, k), view.num_judged[None, :])


def _rbp_weights(p: float, d: int) -> np.ndarray:
    return (1.0 - p) * p ** np.arange(d, dtype=np.float64)


def _rbp(view: Judged, p: float, k: int | None) -> np.ndarray:
    """Binary RBP: gain 1 for a relevant document."""
    d = _cut(view, k)
    return view.rel[:, :, :d].astype(np.float64) @ _rbp_weights(p, d)


def _rbp_residual(view: Judged, p: float, k: int | None) -> np.ndarray:
    """Weight of unjudged documents in the evaluated prefix plus the tail p^n beyond it."""
    d = _cut(view, k)
    n = np.minimum(view.length, d)
    unjudged = (view.grade[:, :, :d] < 0) & (view.grade[:, :, :d] != NO_DOC)
    return unjudged.astype(np.float64) @ _rbp_weights(p, d) + p ** n.astype(np.float64)


def _sdcg(view: Judged, k: int) -> np.ndarray:
    d = _cut(view, k)
    dcg = _dcg(view.rel[:, :, :d].astype(np.float64), d)
    full = (1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))).sum()
    return dcg / full


def _num_ret(view: Judged, k: int | None) -> np.ndarray:
    return np.minimum(view.length, _cut(view, k) if k is not None else view.depth).astype(np.float64)


def compute(view: Judged, measure: Measure) -> np.ndarray:
    """The (S, T) per-topic values of one measure on a view."""
    if measure.rel != view.relevance_level:
        view = Judged(view.grade, view.level_counts, view.length, measure.rel)
    fam, k = measure.family, measure.cutoff
    S, T = view.grade.shape[:2]
    if fam == "num_q":
        return np.ones((S, T))
    if fam == "NumRet":
        return _num_ret(view, k)
    if fam == "NumRel":
        return np.broadcast_to(view.num_rel[None, :].astype(np.float64), (S, T)).copy()
    if fam == "NumRelRet":
        return view.at(view.cum_rel, k).astype(np.float64)
    if fam == "NumNonRelJudgedRet":
        return view.at(view.cum_nonrel, None).astype(np.float64)
    if fam == "P":
        return _precision(view, k)
    if fam in ("AP", "GMAP"):
        return _average_precision(view, k)
    if fam == "nDCG":
        return _ndcg(view, k)
    if fam == "Rprec":
        return _rprec(view)
    if fam == "RR":
        return _reciprocal_rank(view, k)
    if fam == "R":
        return _recall(view, k)
    if fam == "Success":
        return _success(view, k)
    if fam == "Bpref":
        return _bpref(view)
    if fam == "infAP":
        return _infap(view)
    if fam == "Unj":
        return _unjudged(view, k)
    if fam == "Judged":
        return _judged_at(view, k)
    if fam == "MAA":
        return _average_assessment(view, k)
    if fam == "RecallAssessment":
        return _recall_assessment(view, k)
    if fam == "RankEff":
        return _rank_eff(view)
    if fam == "RBP":
        return _rbp(view, measure.param("p"), k)
    if fam == "RBPResidual":
        return _rbp_residual(view, measure.param("p"), k)
    if fam == "SDCG":
        return _sdcg(view, k)
    if fam in ("Pj", "APj", "nDCGj"):
        base = {"Pj": "P", "APj": "AP", "nDCGj": "nDCG"}[fam]
        return compute(condense(view), Measure(base, k, measure.params, measure.rel))
    raise ValueError(f"no kernel for measure {measure.name!r}")  # pragma: no cover - registry guards


# =================================================================== results
@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-topic values of several measures for every run.

    ``values[m]`` is an (S, T) array; ``evaluated[s, t]`` says which topics count in the
    run's aggregate (answered topics, or all topics with ``complete=True``).
    """

    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    measures: tuple[Measure, ...]
    values: dict = field(repr=False)
    evaluated: np.ndarray = field(repr=False)
    complete: bool = False

    def __getitem__(self, measure) -> np.ndarray:
        m = parse_measures(measure)[0]
        if m not in self.values:
            raise KeyError(f"{m.name} was not evaluated; evaluated: {[x.name for x in self.measures]}")
        return self.values[m]

    def aggregate(self, measure) -> np.ndarray:
        """(S,) the 'all' value of a measure per run, as trec_eval aggregates it."""
        m = parse_measures(measure)[0]
        return _aggregate(self[m], self.evaluated, m.spec.aggregate)

    def means(self) -> pd.DataFrame:
        """A run × measure table of aggregates (columns in canonical names)."""
        return pd.DataFrame({m.name: self.aggregate(m) for m in self.measures},
                            index=pd.Index(self.run_names, name="run"))

    def to_frame(self, *, per_topic: bool = True, include_all: bool = True) -> pd.DataFrame:
        """Tidy rows ``run, topic, measure, value``; ``topic == "all"`` holds the aggregate."""
        parts = []
        S, T = self.evaluated.shape
        runs = np.asarray(self.run_names, dtype=object)
        topics = np.asarray(self.topics, dtype=object)
        s_idx, t_idx = np.nonzero(self.evaluated)
        for m in self.measures:
            if per_topic:
                parts.append(pd.DataFrame({"run": runs[s_idx], "topic": topics[t_idx], "measure": m.name,
                                           "value": self.values[m][s_idx, t_idx]}))
            if include_all:
                parts.append(pd.DataFrame({"run": runs, "topic": "all", "measure": m.name,
                                           "value": self.aggregate(m)}))
        frame = pd.concat(parts, ignore_index=True)
        return frame


def _aggregate(values: np.ndarray, evaluated: np.ndarray, how: str) -> np.ndarray:
    count = evaluated.sum(axis=1)
    if how == "sum":
        return np.where(evaluated, values, 0.0).sum(axis=1)
    if how == "gmean":
        logs = np.where(evaluated, np.log(np.maximum(values, GMAP_FLOOR)), 0.0).sum(axis=1)
        return np.where(count > 0, np.exp(logs / np.maximum(count, 1)), 0.0)
    return _safe_div(np.where(evaluated, values, 0.0).sum(axis=1), count)


def evaluate(
    experiment: Experiment,
    measures: "str | Measure | Iterable[str | Measure]",
    *,
    judged: np.ndarray | None = None,
    relevance_level: int = 1,
    complete: bool = False,
    max_depth: int | None = None,
    judged_only: bool = False,
    truth: bool = False,
) -> Evaluation:
    """Evaluate every run of ``experiment`` on ``measures``.

    Parameters mirror trec_eval: ``relevance_level`` (-l), ``complete`` (-c: average over
    every qrels topic, scoring unanswered ones as empty rankings), ``max_depth`` (-M),
    ``judged_only`` (-J: condensed lists). ``judged`` restricts the qrels to a pool (a bool
    mask over qrels entries, see :mod:`irnb.pooling`); ``truth=True`` evaluates against the
    Experiment's complete qrels.

    Example (hand-checkable): relevant at ranks 1 and 3, R = 2:
    AP = (1/1 + 2/3) / 2 = 0.8333, P@2 = 1/2.

    >>> import pandas as pd
    >>> run = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "grade": [1, 0, 1]})
    >>> ev = evaluate(Experiment(run, qrels), ["AP", "P@2"])
    >>> [round(float(x), 4) for x in ev.means().iloc[0]]
    [0.8333, 0.5]
    """
    parsed = parse_measures(measures)
    if not isinstance(complete, bool):
        raise TypeError(f"complete must be True or False, got {complete!r}")
    view = judged_view(experiment, judged=judged, relevance_level=relevance_level, truth=truth, depth=max_depth)
    if judged_only:
        view = condense(view)
    values = {}
    for m in parsed:
        if m.rel == 1 and relevance_level != 1:
            m_eval = Measure(m.family, m.cutoff, m.params, relevance_level)
        else:
            m_eval = m
        arr = compute(view, m_eval)
        arr.flags.writeable = False
        values[m] = arr
    answered = experiment.length > 0
    evaluated = np.ones_like(answered) if complete else answered
    return Evaluation(run_names=experiment.run_names, topics=experiment.topics, measures=tuple(parsed),
                      values=values, evaluated=evaluated, complete=complete)
