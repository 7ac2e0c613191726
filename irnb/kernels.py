"""Measure kernels: every measure's rule, written once, over a :class:`Judged` view.

A :class:`Judged` view is the (S, T, D) grade array of an Experiment under one set of
judgments, plus per-topic qrels statistics; every kernel takes one and returns an (S, T)
float64 array (:func:`compute`). No I/O, no pandas, no Python loop over runs or topics in
a kernel. The weighted-precision rules — P@k, RBP(p), SDCG@k, as weights per rank
(:func:`rbp_weights`, :func:`dcg_discount`) applied to any gains (:func:`weighted_precision`)
— are written here once; :mod:`irnb.metrics` (``evaluate``), :mod:`irnb.intervals` (the
bounds B and T) and :mod:`irnb.predict` (expected gains) all use them. AP, nDCG and bpref
with R, N and the ideal list per run (:func:`average_precision_dense`, :func:`ndcg_dense`,
:func:`bpref_dense`) serve the scenarios of :mod:`irnb.measure_scenarios`.

Rules (trec_eval's unless stated; each has a test in ``tests/test_metrics.py``, and every
number trec_eval 10 prints in its own test suite is reproduced in
``tests/test_reference_trec_eval.py``):

* Ranking: score descending, ties by docno descending (string order), as trec_eval; the
  rank column is ignored (done by :mod:`irnb.io`). rbp_eval breaks ties differently, so RBP
  on tied scores can differ from rbp_eval's (it agrees on runs without ties).
* relevant ⇔ grade ≥ ``relevance_level`` (default 1); judged ⇔ in the qrels with grade ≥ 0.
  Negative grades ("pooled but not judged") are non-relevant for P, AP, nDCG, RR, recall
  and unjudged for bpref, infAP, unj, Judged@k, condensed lists and interval bounds.
* R = relevant documents in the qrels of the topic (judged), N = judged non-relevant.
  A measure that divides by R is 0 when R = 0.
* P@k divides by k even when the run is shorter than k; so does Judged@k (A_p@k). JudgedRet@k
  divides by min(k, documents retrieved) (ir_measures' Judged@k); NotUnj@k = 1 − unj@k
  counts the missing ranks of a short run as judged (trec_eval's unj).
* nDCG uses the grade as gain (negative grades gain 0) and the discount log2(rank + 1); the
  ideal ranking orders the qrels' grades; nDCG@k cuts both at k.
* Gains (nDCG, nDCGRel, RnDCG, G, graded RBP) are the grades and ignore the relevance
  level, as trec_eval's default gains do. Graded RBP (trec_eval ``rbp``) divides by the
  topic's top judged grade when that exceeds 1.
* trec_eval's interpolated precision (``iprec_at_recall``, ``11pt_avg``) finds the c-th
  relevant document with c = round(x·R) (trec_eval 10) or floor(x·R + 0.9) (≤ 9), as
  the Experiment's ``compat`` says (default 9);
  ``Rprec_mult`` still uses floor(x·R + 0.9).
* A topic the run did not answer is skipped in the mean (trec_eval 9.x; 10.0 refuses the
  run; either way irnb warns, :class:`~irnb.experiment.MissingTopicsWarning`, and lists
  it in ``Evaluation.missing_topics``), or scored as an empty
  ranking when ``complete=True`` (trec_eval ``-c``): 0 for every measure except the counts
  of the qrels (num_rel) and irnb's own RBP residual (1: nothing was seen).
* Not kernels here: ``runid`` and ``relstring`` (not numbers), measure parameters given on
  the trec_eval command line that change gains or recall points (``ndcg.1=3,…``,
  ``11pt_avg.0.25,…``), and utility's 4th coefficient — :mod:`irnb.trec_eval` (the
  ``irnb trec_eval`` drop-in) computes them on top of these kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Sequence

import numpy as np

from ._grades import NO_DOC, unjudged
from .measures import CONDENSED_FAMILIES, Measure

__all__ = ["Judged", "condense", "compute", "weighted_precision", "rbp_weights", "dcg_discount",
           "sdcg_normaliser", "safe_divide", "not_judged", "interpolated_precision", "ELEVEN_POINTS",
           "average_precision_dense", "ndcg_dense", "bpref_dense"]

# cached arrays of a view that do not depend on its relevance level (shared by at_level)
_LEVEL_FREE = ("judged", "cum_judged", "num_judged", "num_positive", "top_grade", "gain")


# =================================================================== the view
@dataclass(frozen=True, eq=False)
class Judged:
    """What the kernels see: grades at every (run, topic, rank) and per-topic qrels counts.

    ``level_counts[t, g]`` counts judged documents of grade g (0 ≤ g ≤ max grade) in the
    qrels of topic t; ``length[s, t]`` is the ranking's length; ``trec_version`` (9 or 10)
    the trec_eval version whose rules differ between versions (interpolated precision's
    rank of the c-th relevant document), the Experiment's ``compat``.
    """

    grade: np.ndarray = field(repr=False)  # (S, T, D) int8
    level_counts: np.ndarray = field(repr=False)  # (T, G + 1) int64
    length: np.ndarray = field(repr=False)  # (S, T)
    relevance_level: int = 1
    trec_version: int = 9

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

    @cached_property
    def num_positive(self) -> np.ndarray:
        """Judged documents with a grade > 0 per topic, whatever the relevance level."""
        return self.level_counts[:, 1:].sum(axis=1)

    @cached_property
    def top_grade(self) -> np.ndarray:
        """The highest judged grade per topic (0 when nothing is judged), shape (T,)."""
        present = self.level_counts > 0
        top = self.level_counts.shape[1] - 1 - np.argmax(present[:, ::-1], axis=1)
        return np.where(present.any(axis=1), top, 0)

    @cached_property
    def gain(self) -> np.ndarray:
        """(S, T, D) float gains: the grade, 0 for negative grades, unjudged and no document."""
        return _gains(self.grade)

    @cached_property
    def relevant_cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the relevant documents are: (run, topic) cell ``s * T + t`` and 0-based rank
        of each, in array order (one ``flatnonzero``, shared by AP, bpref and the like)."""
        flat = np.flatnonzero(self.rel)
        return np.divmod(flat, max(self.depth, 1))

    def ideal_gains(self, k: int) -> np.ndarray:
        """(T, k) gains of the ideal ranking (grades sorted descending, zeros after)."""
        counts = self.level_counts[:, :0:-1]  # grades G..1
        levels = np.arange(self.level_counts.shape[1] - 1, 0, -1)
        if counts.shape[1] == 0:
            return np.zeros((self.level_counts.shape[0], k))
        at_least = np.cumsum(counts, axis=1)  # (T, G): documents of grade ≥ G, ≥ G - 1, …, ≥ 1
        pos = np.arange(k)
        # the gain at position p is the number of grades L ≥ 1 with more than p documents of grade ≥ L
        # (levels are G..1, consecutive): a loop over grades, (T, k) each, no (T, k, G) temporary
        gains = np.zeros((counts.shape[0], k), dtype=np.int16)
        for j in range(levels.size):
            gains += at_least[:, j, None] > pos[None, :]
        return gains.astype(np.float64)

    # ----------------------------------------------------------- derived views (cached)
    @cached_property
    def condensed(self) -> Judged:
        """:func:`condense` of this view, built once."""
        return condense(self)

    @cached_property
    def _levels(self) -> dict:
        return {}

    def at_level(self, relevance_level: int) -> Judged:
        """This view with another relevance level (itself when unchanged), built once per
        level; the arrays that do not depend on the level are shared, not recomputed."""
        if relevance_level == self.relevance_level:
            return self
        other = self._levels.get(relevance_level)
        if other is None:
            other = Judged(self.grade, self.level_counts, self.length, int(relevance_level), self.trec_version)
            for name in _LEVEL_FREE:
                if name in self.__dict__:
                    other.__dict__[name] = self.__dict__[name]
            self._levels[relevance_level] = other
        return other


def condense(view: Judged) -> Judged:
    """The condensed list (trec_eval -J, Sakai's P(j)): documents that are not judged
    (not in the qrels, or with a negative grade) are removed and the rest move up."""
    judged = view.grade >= 0
    new_pos = np.cumsum(judged, axis=2) - 1
    out = np.full_like(view.grade, NO_DOC)
    s, t, r = np.nonzero(judged)
    out[s, t, new_pos[s, t, r]] = view.grade[s, t, r]
    return Judged(grade=out, level_counts=view.level_counts, length=judged.sum(axis=2),
                  relevance_level=view.relevance_level, trec_version=view.trec_version)


def _gains(grade: np.ndarray) -> np.ndarray:
    """Float gains of grades: the grade, 0 for negative grades and the sentinels."""
    return np.maximum(grade, 0).astype(np.float64)


# =================================================================== kernels
def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, and 0 where den ≤ 0 (a measure that divides by R is 0 when R = 0)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.broadcast_to(np.asarray(den, dtype=np.float64), num.shape)
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _cut(view: Judged, k: int | None) -> int:
    return view.depth if k is None else min(k, view.depth)


def _at_topic(view: Judged, cum: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(S, T) count in the top k[t] from a cumulative array; k is per topic (T,), k ≤ 0 → 0."""
    kk = np.minimum(np.asarray(k, dtype=np.int64), view.depth)
    if view.depth == 0:
        return np.zeros(cum.shape[:2], dtype=np.int64)
    idx = np.broadcast_to(np.maximum(kk - 1, 0)[None, :, None], cum.shape[:2] + (1,))
    found = np.take_along_axis(cum, idx, axis=2)[:, :, 0].astype(np.int64)
    return np.where(kk[None, :] > 0, found, 0)


def dcg_discount(d: int) -> np.ndarray:
    """1 / log2(rank + 1) for ranks 1..d: the weight of each rank in DCG and SDCG.

    >>> dcg_discount(3).round(4).tolist()   # 1/log2(2), 1/log2(3), 1/log2(4)
    [1.0, 0.6309, 0.5]
    """
    return 1.0 / np.log2(np.arange(2, d + 2, dtype=np.float64))


def sdcg_normaliser(k: int) -> float:
    """DCG@k of an all-relevant ranking: SDCG@k = DCG@k / this (so SDCG@k ≤ 1)."""
    return dcg_discount(k).sum()


def rbp_weights(p: float, d: int) -> np.ndarray:
    """(1 − p)·p^(i−1) for ranks i = 1..d: the weight of each rank in RBP(p).

    >>> rbp_weights(0.5, 3).tolist()
    [0.5, 0.25, 0.125]
    """
    return (1.0 - p) * p ** np.arange(d, dtype=np.float64)


def weighted_precision(gains: np.ndarray, family: str, *, k: int | None = None, p: float = 0.8) -> np.ndarray:
    """A weighted-precision measure of (…, D) gains per rank (1 relevant, 0 not, or an
    expected gain in between): ``"P"`` = Σ of the top k / k; ``"RBP"`` = Σ_i (1 − p)·p^(i−1)·g_i
    over the top min(k, D) (all D when k is None); ``"SDCG"`` = DCG@k / :func:`sdcg_normaliser`.

    >>> float(weighted_precision(np.array([1.0, 0.25, 0.0]), "P", k=2))   # (1 + 0.25) / 2
    0.625
    >>> float(weighted_precision(np.array([1.0, 0.25, 0.0]), "RBP", p=0.5))   # 0.5 · (1 + 0.5 · 0.25)
    0.5625
    """
    gains = np.asarray(gains, dtype=np.float64)
    d = gains.shape[-1] if k is None else min(k, gains.shape[-1])
    if family == "P":
        if k is None:
            raise ValueError("weighted_precision: P needs a cutoff k")
        return gains[..., :d].sum(axis=-1) / k
    if family == "RBP":
        return gains[..., :d] @ rbp_weights(p, d)
    if family == "SDCG":
        if k is None:
            raise ValueError("weighted_precision: SDCG needs a cutoff k")
        return gains[..., :d] @ dcg_discount(d) / sdcg_normaliser(k)
    raise ValueError(f"weighted_precision: family must be 'P', 'RBP' or 'SDCG', got {family!r}")


# =================================================================== dense kernels with counts per run
# The scenarios of AP, nDCG and bpref (:mod:`irnb.measure_scenarios`) change R, N and the ideal list
# per run (each run's own unjudged documents become relevant or non-relevant), which the
# view's per-topic counts cannot say: these kernels take (S, T, D) arrays and (S, T) counts.
def average_precision_dense(rel: np.ndarray, num_rel: np.ndarray, k: int | None) -> np.ndarray:
    """AP@k of (S, T, D) relevance with R per run and topic (S, T): (1/R) Σ over relevant
    ranks r ≤ k of P@r; R = 0 → 0.

    >>> rel = np.array([[[False, True, True]]])
    >>> round(float(average_precision_dense(rel, np.array([[3]]), None)[0, 0]), 4)   # (1/2 + 2/3) / 3
    0.3889
    """
    d = rel.shape[2] if k is None else min(k, rel.shape[2])
    rel = rel[:, :, :d]
    ranks = np.arange(1, d + 1, dtype=np.float64)
    prec = np.where(rel, np.cumsum(rel, axis=2) / ranks, 0.0).sum(axis=2)
    return safe_divide(prec, num_rel)


def ndcg_dense(gains: np.ndarray, counts: np.ndarray, k: int | None) -> np.ndarray:
    """nDCG@k of (S, T, D) gains, the ideal list given per run and topic by ``counts``
    (S, T, G + 1): the judged documents of each grade 0..G.

    >>> gains = np.array([[[0.0, 1.0, 2.0]]]); counts = np.array([[[0, 1, 1]]])
    >>> round(float(ndcg_dense(gains, counts, None)[0, 0]), 4)   # (1/log2(3) + 2/2) / (2 + 1/log2(3))
    0.6199
    """
    D = gains.shape[2]
    d = D if k is None else min(k, D)
    dcg = _dcg(gains[:, :, :d], d)
    per_level = counts[:, :, :0:-1]  # grades G..1, best first
    levels = np.arange(counts.shape[2] - 1, 0, -1, dtype=np.float64)
    ends = np.cumsum(per_level, axis=2)
    starts = ends - per_level
    if k is not None:
        ends, starts = np.minimum(ends, k), np.minimum(starts, k)
    size = int(ends.max(initial=0))
    cum = np.concatenate([[0.0], np.cumsum(dcg_discount(size))])
    ideal = ((cum[ends] - cum[starts]) * levels).sum(axis=2)
    return safe_divide(dcg, ideal)


def bpref_dense(rel: np.ndarray, nonrel: np.ndarray, num_rel: np.ndarray, num_nonrel: np.ndarray) -> np.ndarray:
    """bpref of (S, T, D) relevant and judged non-relevant masks with R and N per run and
    topic (S, T): (1/R) Σ over retrieved relevant r of (1 − min(n_r, R) / min(N, R)).

    >>> rel = np.array([[[True, False, True]]]); nonrel = np.array([[[False, True, False]]])
    >>> float(bpref_dense(rel, nonrel, np.array([[2]]), np.array([[2]]))[0, 0])   # (1 + (1 − 1/2)) / 2
    0.75
    """
    R = num_rel[:, :, None].astype(np.float64)
    denom = np.minimum(num_nonrel, num_rel)[:, :, None].astype(np.float64)
    above = (np.cumsum(nonrel, axis=2) - nonrel).astype(np.float64)
    frac = np.zeros(above.shape)
    np.divide(np.minimum(above, R), denom, out=frac, where=denom > 0)
    return safe_divide(np.where(rel, 1.0 - frac, 0.0).sum(axis=2), num_rel)


def _precision(view: Judged, k: int) -> np.ndarray:
    return view.at(view.cum_rel, k) / k


def _average_precision(view: Judged, k: int | None) -> np.ndarray:
    """(1/R) Σ over relevant documents at rank r ≤ k of P@r; computed at the relevant
    positions only (no float array over every rank)."""
    d = _cut(view, k)
    cell, r = view.relevant_cells
    if d < view.depth:
        cell, r = cell[r < d], r[r < d]
    flat = cell * view.depth + r
    precision_at = view.cum_rel.reshape(-1)[flat] / (r + 1.0)
    return safe_divide(_sum_at_cells(view, cell, precision_at), view.num_rel[None, :])


def _dcg(gains: np.ndarray, d: int) -> np.ndarray:
    discount = dcg_discount(d)
    return gains @ discount if gains.ndim == 2 else np.tensordot(gains, discount, axes=([2], [0]))


def _ndcg(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    # the gains of the top d only, unless the whole array is there already: no (S, T, D) float temporary
    gains = view.__dict__["gain"][:, :, :d] if "gain" in view.__dict__ else _gains(view.grade[:, :, :d])
    dcg = _dcg(gains, d)
    ideal_depth = int(view.num_judged.max(initial=0)) if k is None else k
    ideal = _dcg(view.ideal_gains(ideal_depth), ideal_depth)
    return safe_divide(dcg, ideal[None, :])


def _rprec(view: Judged) -> np.ndarray:
    R = view.num_rel
    return safe_divide(_at_topic(view, view.cum_rel, R), R[None, :])


def _reciprocal_rank(view: Judged, k: int | None) -> np.ndarray:
    d = _cut(view, k)
    rel = view.rel[:, :, :d]
    first = rel.argmax(axis=2)
    return np.where(rel.any(axis=2), 1.0 / (first + 1), 0.0)


def _recall(view: Judged, k: int) -> np.ndarray:
    return safe_divide(view.at(view.cum_rel, k), view.num_rel[None, :])


def _success(view: Judged, k: int) -> np.ndarray:
    return (view.at(view.cum_rel, k) > 0).astype(np.float64)


def _relative_precision(view: Judged, k: int) -> np.ndarray:
    """trec_eval relative_P: relevant in the top k / min(k, R); 0 when R = 0."""
    return safe_divide(view.at(view.cum_rel, k), np.minimum(k, view.num_rel)[None, :])


def _lround(x: np.ndarray) -> np.ndarray:
    """C's lround for x ≥ 0: the nearest integer, halves away from zero (no x + 0.5 float
    rounding)."""
    low = np.floor(x)
    return np.where(x - low >= 0.5, low + 1, low).astype(np.int64)


# trec_eval's literal recall levels (np.linspace would give 0.30000000000000004)
ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def interpolated_precision(view: Judged, levels: Sequence[float]) -> np.ndarray:
    """trec_eval iprec_at_recall: (L, S, T). For recall level x, c = round(x·R) relevant
    documents in trec_eval 10 (halves away from zero, C's lround), floor(x·R + 0.9) in
    trec_eval ≤ 9 (``view.trec_version``), at least 1; the value is the best precision at
    or below the rank of the c-th relevant document, down to the end of the run; 0 when
    fewer than c relevant documents are retrieved."""
    D = view.depth
    ranks = np.arange(1, D + 1, dtype=np.float64)
    in_run = ranks[None, None, :] <= view.length[:, :, None]
    prec = np.where(in_run, view.cum_rel / ranks, 0.0)
    best_below = np.maximum.accumulate(prec[:, :, ::-1], axis=2)[:, :, ::-1]
    rel_ret = view.at(view.cum_rel, None)
    R = view.num_rel.astype(np.float64)
    out = np.zeros((len(levels),) + prec.shape[:2])
    for i, x in enumerate(levels):  # a loop over recall levels, not over runs or topics
        c = np.maximum(_lround(x * R) if view.trec_version >= 10 else np.floor(x * R + 0.9).astype(np.int64), 1)
        pos = (view.cum_rel < c[None, :, None]).sum(axis=2)  # 0-based rank of the c-th relevant
        value = np.take_along_axis(best_below, np.minimum(pos, max(D - 1, 0))[:, :, None], axis=2)[:, :, 0]
        out[i] = np.where(c[None, :] <= rel_ret, value, 0.0)
    return out


def _rprec_mult(view: Judged, mult: float) -> np.ndarray:
    """trec_eval Rprec_mult: precision at c = floor(mult·R + 0.9) (missing ranks count as
    non-relevant); 0 when c = 0."""
    c = np.floor(mult * view.num_rel.astype(np.float64) + 0.9).astype(np.int64)
    return safe_divide(_at_topic(view, view.cum_rel, c), c[None, :])


def _nonrel_above_relevant(view: Judged) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (run, topic) cell ``s * T + t`` and topic t of every retrieved relevant document
    and the judged non-relevant documents ranked above it (n_r)."""
    cell, r = view.relevant_cells
    above = view.cum_nonrel.reshape(-1)[cell * view.depth + r]  # a relevant document is not non-relevant
    return cell, cell % max(view.grade.shape[1], 1), above.astype(np.float64)


def _bpref(view: Judged, extra: int = 0) -> np.ndarray:
    """(1/R) Σ over retrieved relevant r of (1 − min(n_r, C) / min(N, C)) with C = R + extra:
    trec_eval's bpref (extra = 0) and bpref-10 (extra = 10, trec_eval 8's
    bpref_top10pRnonrel); the term is 1 when n_r = 0 (so N = 0 gives 1); R = 0 → 0.

    Example, bpref-10: R = 1, N = 12, 11 judged non-relevant above the relevant document:
    1 − min(11, 11) / min(12, 11) = 0 (bpref: 1 − min(11, 1) / min(12, 1) = 0 too); with 5
    above, bpref-10 gives 1 − 5/11 = 0.5455 where bpref gives 0.
    """
    cell, t, n = _nonrel_above_relevant(view)
    C = (view.num_rel[t] + extra).astype(np.float64)
    cap = np.minimum(view.num_nonrel[t], C)
    terms = 1.0 - safe_divide(np.minimum(n, C), cap)
    return safe_divide(_sum_at_cells(view, cell, terms), view.num_rel[None, :])


def _rank_eff(view: Judged) -> np.ndarray:
    """(1/R) Σ over retrieved relevant r of (1 − n_r / N); N = 0 → terms of 1."""
    cell, t, n = _nonrel_above_relevant(view)
    terms = 1.0 - safe_divide(n, view.num_nonrel[t])
    return safe_divide(_sum_at_cells(view, cell, terms), view.num_rel[None, :])


def _infap(view: Judged) -> np.ndarray:
    """trec_eval m_infap.c (Yilmaz & Aslam 2006): at each relevant document at rank k,
    1/k + ((k−1)/k) · (|d100|/(k−1)) · (|rel|+ε)/(|rel|+|nonrel|+2ε) over the documents
    above it, where d100 counts those in the pool (judged or pooled-unjudged),
    rel/nonrel the judged ones, ε = 1e-5; averaged over R."""
    eps = 1e-5
    pooled = view.grade > NO_DOC  # in qrels at all (judged, or pooled with a negative grade)
    s, t, r = np.nonzero(view.rel)  # only relevant positions contribute
    k = (r + 1).astype(np.float64)
    rel_above = view.cum_rel[s, t, r] - 1.0
    nonrel_above = view.cum_nonrel[s, t, r].astype(np.float64)  # a relevant document is not non-relevant
    pooled_above = np.cumsum(pooled, axis=2, dtype=np.int32)[s, t, r] - 1.0
    frac = (rel_above + eps) / (rel_above + nonrel_above + 2 * eps)
    above = np.where(k > 1, ((k - 1) / k) * (pooled_above / np.maximum(k - 1, 1)) * frac, 0.0)
    return safe_divide(_sum_per_topic(view, s, t, 1.0 / k + above), view.num_rel[None, :])


def _sum_per_topic(view: Judged, s: np.ndarray, t: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(S, T) sums of ``values`` given at sparse positions (s, t, ·): kernels whose terms
    exist only at relevant documents compute them there, not over the whole array."""
    return _sum_at_cells(view, s * view.grade.shape[1] + t, values)


def _sum_at_cells(view: Judged, cell: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(S, T) sums of ``values`` given at (run, topic) cells ``s * T + t``."""
    S, T = view.grade.shape[:2]
    return np.bincount(cell, weights=values, minlength=S * T).reshape(S, T)


def _ideal_dcg_cumulative(view: Judged) -> tuple[np.ndarray, np.ndarray]:
    """(T, P) cumulative ideal DCG over the P = max positive-grade count, and the topic's
    total ideal DCG (T,)."""
    npos = view.num_positive
    P = max(int(npos.max(initial=0)), 1)
    idcg = np.cumsum(view.ideal_gains(P) * dcg_discount(P)[None, :], axis=1)
    total = np.take_along_axis(idcg, np.maximum(npos - 1, 0)[:, None], axis=1)[:, 0]
    return idcg, np.where(npos > 0, total, 0.0)


def _ndcg_rel(view: Judged) -> np.ndarray:
    """trec_eval ndcg_rel: nDCG averaged over the qrels' positive-grade documents. A retrieved
    one at rank i contributes DCG@i / IDCG@min(i, npos); each unretrieved one the final
    DCG / IDCG. Gains are the grades (the relevance level is not used)."""
    D = view.depth
    dcg = np.cumsum(view.gain * dcg_discount(D), axis=2)
    idcg, idcg_total = _ideal_dcg_cumulative(view)
    npos = view.num_positive
    s, t, r = np.nonzero(view.gain > 0)
    ideal_at = idcg[t, np.minimum(np.minimum(r, np.maximum(npos[t] - 1, 0)), idcg.shape[1] - 1)]
    terms = _sum_per_topic(view, s, t, dcg[s, t, r] / ideal_at)
    found = _sum_per_topic(view, s, t, np.ones(s.size))
    total = terms + (npos[None, :] - found) * safe_divide(dcg[:, :, -1], idcg_total[None, :])
    return np.where(total > 0, safe_divide(total, npos[None, :]), 0.0)


def _rndcg(view: Judged) -> np.ndarray:
    """trec_eval Rndcg: nDCG averaged at the R-level points b (the ranks where the ideal
    gain changes: cumulative counts of the positive grades, highest first), each nDCG@b with
    the run cut at min(b, run length); plus nDCG at the run's end when the run is longer
    than npos + 1. 0 when R = 0."""
    counts = view.level_counts[:, :0:-1]  # (T, G) grades G..1
    S, T, D = view.grade.shape
    if counts.shape[1] == 0 or D == 0:
        return np.zeros((S, T))
    bounds = np.cumsum(counts, axis=1)
    present = counts > 0
    dcg = np.cumsum(view.gain * dcg_discount(D), axis=2)
    idcg, idcg_total = _ideal_dcg_cumulative(view)
    cut = np.minimum(bounds[None, :, :], view.length[:, :, None])  # (S, T, G)
    dcg_at = np.where(cut > 0, np.take_along_axis(dcg, np.clip(cut - 1, 0, D - 1), axis=2), 0.0)
    idcg_at = np.take_along_axis(idcg, np.clip(bounds - 1, 0, idcg.shape[1] - 1), axis=1)
    terms = np.where(present[None], safe_divide(dcg_at, idcg_at[None, :, :]), 0.0).sum(axis=2)
    npos = view.num_positive
    tail = view.length > (npos + 1)[None, :]
    terms = terms + np.where(tail, safe_divide(dcg[:, :, -1], idcg_total[None, :]), 0.0)
    points = present.sum(axis=1)[None, :] + tail
    return np.where(view.num_rel[None, :] > 0, safe_divide(terms, points), 0.0)


def _gain_g(view: Judged) -> np.ndarray:
    """trec_eval G: Σ_i g_i / log2(2 + cost_i − gained_i) over Σ of the qrels' gains, with
    gained_i the run's gain up to rank i and cost_i = Σ_{j ≤ i} max(ideal gain_j, 1)."""
    D = view.depth
    gained = np.cumsum(view.gain, axis=2)
    cost = np.cumsum(np.maximum(view.ideal_gains(D), 1.0), axis=1)  # (T, D)
    s, t, r = np.nonzero(view.gain)
    terms = view.gain[s, t, r] / np.log2(2.0 + cost[t, r] - gained[s, t, r])
    levels = np.arange(view.level_counts.shape[1], dtype=np.float64)
    ideal_sum = (view.level_counts * levels[None, :]).sum(axis=1)
    return safe_divide(_sum_per_topic(view, s, t, terms), ideal_sum[None, :])


def _bin_g(view: Judged) -> np.ndarray:
    """trec_eval binG: (1/R) Σ over retrieved relevant of 1 / log2(2 + documents above it
    that are not relevant)."""
    s, t, r = np.nonzero(view.rel)
    not_rel_above = r - (view.cum_rel[s, t, r] - 1)
    terms = 1.0 / np.log2(2.0 + not_rel_above)
    return safe_divide(_sum_per_topic(view, s, t, terms), view.num_rel[None, :])


def _set_counts(view: Judged) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(retrieved, relevant retrieved, R) as float arrays broadcastable to (S, T)."""
    return (view.length.astype(np.float64), view.at(view.cum_rel, None).astype(np.float64),
            view.num_rel[None, :].astype(np.float64))


def _set_f(view: Judged, beta: float) -> np.ndarray:
    n, rr, R = _set_counts(view)
    P, Rc, x = safe_divide(rr, n), safe_divide(rr, R), beta * beta
    return safe_divide((x + 1.0) * P * Rc, x * P + Rc)


def _utility(view: Judged, a: float, b: float, c: float) -> np.ndarray:
    n, rr, R = _set_counts(view)
    return a * rr + b * (n - rr) + c * (R - rr)


def not_judged(view: Judged) -> np.ndarray:
    """Retrieved documents that are not judged: not in the qrels, or a negative grade."""
    return unjudged(view.grade)


def _unjudged(view: Judged, k: int) -> np.ndarray:
    d = _cut(view, k)
    return not_judged(view)[:, :, :d].sum(axis=2) / k


def _judged_at(view: Judged, k: int) -> np.ndarray:
    """A_p@k = Judged@k (Baillie et al.): judged documents in the top k / k; a run shorter
    than k has its missing ranks counted as unjudged (like P@k).

    Example: a run of 3 documents, 2 of them judged: Judged@10 = 2/10 = 0.2.
    """
    return view.at(view.cum_judged, k) / k


def _judged_retrieved_at(view: Judged, k: int) -> np.ndarray:
    """JudgedRet@k (ir_measures' Judged@k): judged documents in the top k / min(k, documents
    retrieved); 0 for an empty ranking.

    Example: a run of 3 documents, 2 of them judged: JudgedRet@10 = 2/3 = 0.6667.
    """
    return safe_divide(view.at(view.cum_judged, k), np.minimum(view.length, k))


def _not_unjudged_at(view: Judged, k: int) -> np.ndarray:
    """NotUnj@k = 1 − trec_eval's unj@k: missing ranks of a run shorter than k count as
    judged (trec_eval m_unjudged.c fills them with "irrelevant (not unjudged)" documents).

    Example: a run of 3 documents, 2 of them judged: unj@10 = 1/10, NotUnj@10 = 0.9.
    """
    return 1.0 - _unjudged(view, k)


def _assessment_sums(view: Judged, k: int | None) -> np.ndarray:
    """(S, T) Σ of A_p@r over the ranks r ≤ k of judged documents, computed at the judged
    positions only (MAA and MAAR share it and differ in what they divide by)."""
    d = _cut(view, k)
    s, t, r = np.nonzero(view.judged[:, :, :d])
    assessment_at = view.cum_judged[s, t, r] / (r + 1.0)
    return _sum_per_topic(view, s, t, assessment_at)


def _average_assessment(view: Judged, k: int | None) -> np.ndarray:
    """Average Assessment (Baillie et al. 2007: "the average over all ranks where an
    assessed document occurred"): the mean of A_p@r over the ranks r ≤ k of judged
    documents; 0 when none is judged. One judged document at rank 1 gives 1.0 whatever
    follows (1/1 averaged over one rank).

    Example: judged at ranks 1 and 3 of 4: (1/1 + 2/3) / 2 = 0.8333.
    """
    return safe_divide(_assessment_sums(view, k), view.at(view.cum_judged, _cut(view, k)))


def _average_assessment_recall(view: Judged, k: int | None) -> np.ndarray:
    """MAAR, the AP-like Average Assessment: Σ of A_p@r over the ranks r ≤ k of judged
    documents divided by the judged documents in the qrels (as AP divides by R); 0 when the
    qrels judge nothing.

    Example: judged at ranks 1 and 3, 4 judged documents in the qrels:
    (1/1 + 2/3) / 4 = 0.4167 (MAA: 0.8333).
    """
    return safe_divide(_assessment_sums(view, k), view.num_judged[None, :])


def _recall_assessment(view: Judged, k: int | None) -> np.ndarray:
    return safe_divide(view.at(view.cum_judged, k), view.num_judged[None, :])


def _rbp(view: Judged, p: float, k: int | None, gain: str = "binary") -> np.ndarray:
    """Rank-biased precision (Moffat & Zobel 2008): (1 − p) Σ_i p^(i−1) g_i over the top
    min(k, run length) documents, in irnb's ranking order — score descending, ties broken
    by docno descending (trec_eval's rule; rbp_eval breaks ties otherwise, so only runs
    without tied scores are comparable with it).

    Binary gain: g = 1 for grade ≥ the relevance level. Graded gain (trec_eval's ``rbp``,
    rbp_eval's scaled gains): grade / the topic's top judged grade when that is above 1,
    so gains lie in [0, 1]; negative grades and unjudged documents gain 0.

    Example, p = 0.5, relevant at ranks 1, 3 and 6: 0.5 · (1 + 0.5² + 0.5⁵) = 0.6406.
    """
    d = _cut(view, k)
    if gain == "graded":
        gains = view.gain[:, :, :d] / np.maximum(view.top_grade, 1)[None, :, None]
    else:
        gains = view.rel[:, :, :d].astype(np.float64)
    return gains @ rbp_weights(p, d)


def _rbp_residual(view: Judged, p: float, k: int | None, tail: str = "always") -> np.ndarray:
    """Weight of unjudged documents in the evaluated prefix plus the tail p^n beyond it
    (n = min(k, run length)). ``tail="if_unjudged"`` is trec_eval's rbp_resid: 0 when no
    evaluated document is unjudged."""
    d = _cut(view, k)
    n = np.minimum(view.length, d)
    unjudged = not_judged(view)[:, :, :d]
    residual = unjudged.astype(np.float64) @ rbp_weights(p, d) + p ** n.astype(np.float64)
    if tail == "if_unjudged":
        residual = np.where(unjudged.any(axis=2), residual, 0.0)
    return residual


def _sdcg(view: Judged, k: int) -> np.ndarray:
    d = _cut(view, k)
    dcg = _dcg(view.rel[:, :, :d].astype(np.float64), d)
    return dcg / sdcg_normaliser(k)


def _num_ret(view: Judged, k: int | None) -> np.ndarray:
    return np.minimum(view.length, _cut(view, k)).astype(np.float64)


def _per_topic(view: Judged, values: np.ndarray) -> np.ndarray:
    S, T = view.grade.shape[:2]
    return np.broadcast_to(np.asarray(values, dtype=np.float64)[None, :], (S, T)).copy()


_KERNELS = {
    "num_q": lambda v, m: np.ones(v.grade.shape[:2]),
    "NumRet": lambda v, m: _num_ret(v, m.cutoff),
    "NumRel": lambda v, m: _per_topic(v, v.num_rel),
    "NumRelRet": lambda v, m: v.at(v.cum_rel, m.cutoff).astype(np.float64),
    "NumNonRelJudgedRet": lambda v, m: v.at(v.cum_nonrel, None).astype(np.float64),
    "P": lambda v, m: _precision(v, m.cutoff),
    "AP": lambda v, m: _average_precision(v, m.cutoff),
    "GMAP": lambda v, m: _average_precision(v, None),
    "nDCG": lambda v, m: _ndcg(v, m.cutoff),
    "Rprec": lambda v, m: _rprec(v),
    "RR": lambda v, m: _reciprocal_rank(v, m.cutoff),
    "R": lambda v, m: _recall(v, m.cutoff),
    "Success": lambda v, m: _success(v, m.cutoff),
    "IPrec": lambda v, m: interpolated_precision(v, [m.param("recall")])[0],
    "ElevenPointAP": lambda v, m: interpolated_precision(v, ELEVEN_POINTS).mean(axis=0),
    "RprecMult": lambda v, m: _rprec_mult(v, m.param("mult")),
    "RelP": lambda v, m: _relative_precision(v, m.cutoff),
    "Bpref": lambda v, m: _bpref(v),
    "Bpref10": lambda v, m: _bpref(v, extra=10),
    "GMBpref": lambda v, m: _bpref(v),
    "infAP": lambda v, m: _infap(v),
    "nDCGRel": lambda v, m: _ndcg_rel(v),
    "RnDCG": lambda v, m: _rndcg(v),
    "G": lambda v, m: _gain_g(v),
    "BinG": lambda v, m: _bin_g(v),
    "SetP": lambda v, m: safe_divide(*_set_counts(v)[1::-1]),
    "SetR": lambda v, m: safe_divide(*_set_counts(v)[1:]),
    "SetF": lambda v, m: _set_f(v, m.param("beta")),
    "SetAP": lambda v, m: (lambda n, rr, R: safe_divide(rr * rr, n * R))(*_set_counts(v)),
    "SetRelP": lambda v, m: (lambda n, rr, R: safe_divide(rr, np.minimum(n, R)))(*_set_counts(v)),
    "Utility": lambda v, m: _utility(v, m.param("a"), m.param("b"), m.param("c")),
    "Unj": lambda v, m: _unjudged(v, m.cutoff),
    "Judged": lambda v, m: _judged_at(v, m.cutoff),
    "JudgedRet": lambda v, m: _judged_retrieved_at(v, m.cutoff),
    "NotUnj": lambda v, m: _not_unjudged_at(v, m.cutoff),
    "MAA": lambda v, m: _average_assessment(v, m.cutoff),
    "MAAR": lambda v, m: _average_assessment_recall(v, m.cutoff),
    "RecallAssessment": lambda v, m: _recall_assessment(v, m.cutoff),
    "RankEff": lambda v, m: _rank_eff(v),
    "RBP": lambda v, m: _rbp(v, m.param("p"), m.cutoff, m.param("gain")),
    "RBPResidual": lambda v, m: _rbp_residual(v, m.param("p"), m.cutoff, m.param("tail")),
    "SDCG": lambda v, m: _sdcg(v, m.cutoff),
}


def compute(view: Judged, measure: Measure) -> np.ndarray:
    """The (S, T) per-topic values of one measure on a view (the view's condensed list and
    its other relevance levels are built once and kept on the view)."""
    if measure.family in CONDENSED_FAMILIES:
        base = Measure(CONDENSED_FAMILIES[measure.family], measure.cutoff, measure.params, measure.rel)
        return compute(view.condensed, base)
    view = view.at_level(measure.rel)
    kernel = _KERNELS.get(measure.family)
    if kernel is None:  # pragma: no cover - a test checks every family has a kernel
        raise ValueError(f"no kernel for measure {measure.name!r}")
    return np.asarray(kernel(view, measure), dtype=np.float64)
