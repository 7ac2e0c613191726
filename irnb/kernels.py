"""What every measure's kernel reads: the :class:`Judged` view, and the pieces kernels share.

A :class:`Judged` view is the (S, T, D) grade array of an Experiment under one set of
judgments, plus per-topic qrels statistics. Each measure family declares its kernel beside
its names in a module of :mod:`irnb.measures` (``kernel(view, measure)`` → an (S, T)
float64 array); :func:`compute` runs it on the view at the measure's relevance level (and on
the condensed list for a condensed family). No I/O, no pandas, no Python loop over runs or
topics in a kernel. The weighted-precision rules — P@k, RBP(p), SDCG@k, as weights per rank
and a normaliser (:func:`rank_weights`) applied to any gains (:func:`weighted_precision`) or
to the judged and unjudged documents of a ranking (:func:`weighted_precision_bounds`, the
score intervals B and T) — are written here once; the families, :mod:`irnb.intervals` and
:mod:`irnb.predict` (expected gains) use them. AP, nDCG and bpref with R, N and the ideal
list per run (:func:`average_precision_dense`, :func:`ndcg_dense`, :func:`bpref_dense`)
serve the scenarios of :mod:`irnb.measure_scenarios`.

Rules the kernels follow (trec_eval's unless stated; each has a test in
``tests/test_metrics.py``, and every number trec_eval 10 prints in its own test suite is
reproduced in ``tests/test_reference_trec_eval.py``):

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
* Gains given per grade level (trec_eval's ``ndcg.1=3,…``) are a view of their own
  (:func:`irnb.custom_gains.with_gains`) that the same kernels read.
* Not kernels here: ``runid`` and ``relstring`` (not numbers), recall points given on the
  trec_eval command line (``11pt_avg.0.25,…``) and utility's 4th coefficient —
  :mod:`irnb.trec_eval` (the ``irnb trec_eval`` drop-in) computes them on top of these kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._grades import NO_DOC, unjudged
from .params import PERSISTENCE, RELEVANCE_LEVEL

__all__ = ["Judged", "condense", "compute", "weighted_precision", "weighted_precision_bounds", "rank_weights",
           "negligible_rbp_rank", "rbp_weights", "dcg_discount",
           "sdcg_normaliser", "safe_divide", "not_judged", "average_precision_dense", "ndcg_dense", "bpref_dense",
           "cut_depth", "dcg", "grade_gains", "rank_sums", "sum_at_cells", "sum_per_topic"]

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
        return grade_gains(self.grade)

    @cached_property
    def relevant_cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the relevant documents are: (run, topic) cell ``s * T + t`` and 0-based rank
        of each, in array order (one ``flatnonzero``, shared by AP, bpref and the like)."""
        flat = np.flatnonzero(self.rel)
        return np.divmod(flat, max(self.depth, 1))

    @cached_property
    def ideal_runs(self) -> np.ndarray:
        """(T, L) documents in each run of equal gain along the ideal ranking, highest gain
        first: with the grades as gains, each grade's judged documents, grades G..1."""
        return self.level_counts[:, :0:-1]

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


def grade_gains(grade: np.ndarray) -> np.ndarray:
    """Float gains of grades: the grade, 0 for negative grades and the sentinels."""
    return np.maximum(grade, 0).astype(np.float64)


# =================================================================== shared by the kernels
def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, and 0 where den ≤ 0 (a measure that divides by R is 0 when R = 0)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.broadcast_to(np.asarray(den, dtype=np.float64), num.shape)
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def cut_depth(view: Judged, k: int | None) -> int:
    """The depth a cutoff k reaches in the view: k, or the array depth when k is None or
    deeper."""
    return view.depth if k is None else min(k, view.depth)


def dcg(gains: np.ndarray, d: int) -> np.ndarray:
    """DCG of (…, d) gains with the discount 1 / log2(rank + 1); each ranking's sum on its own
    (see :func:`rank_sums`)."""
    return rank_sums(gains, dcg_discount(d))


def rank_sums(values: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Σ_r values[…, r] · weight[r] for every ranking, each summed in an order of its own
    (einsum's loop, not a BLAS product, whose order of sums depends on how many rankings it is
    given), so that equal rankings get equal values however many runs are evaluated at once.

    >>> rank_sums(np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 1.0]]), np.array([1.0, 0.5, 0.25])).tolist()
    [1.25, 1.25]
    """
    return np.einsum("...r,r->...", values, weight)


def sum_per_topic(view: Judged, s: np.ndarray, t: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(S, T) sums of ``values`` given at sparse positions (s, t, ·): kernels whose terms
    exist only at relevant documents compute them there, not over the whole array."""
    return sum_at_cells(view, s * view.grade.shape[1] + t, values)


def sum_at_cells(view: Judged, cell: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(S, T) sums of ``values`` given at (run, topic) cells ``s * T + t``."""
    S, T = view.grade.shape[:2]
    return np.bincount(cell, weights=values, minlength=S * T).reshape(S, T)


def not_judged(view: Judged) -> np.ndarray:
    """Retrieved documents that are not judged: not in the qrels, or a negative grade."""
    return unjudged(view.grade)


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


def rank_weights(family: str, d: int, *, k: int | None = None,
                 p: float = PERSISTENCE.default) -> tuple[np.ndarray | None, float]:
    """The weighted-precision rule of ``family`` for the first d ranks: (weight of each rank,
    normaliser), the measure being Σ_i weight_i · g_i / normaliser. ``"P"``: every rank weighs
    1 (None), over k; ``"RBP"``: :func:`rbp_weights`, over 1; ``"SDCG"``: :func:`dcg_discount`,
    over :func:`sdcg_normaliser` (k). P and SDCG need k.

    >>> w, norm = rank_weights("SDCG", 2, k=2); w.round(4).tolist(), round(norm, 4)   # 1, 1/log2(3)
    ([1.0, 0.6309], 1.6309)
    """
    if family == "RBP":
        return rbp_weights(p, d), 1.0
    if family not in ("P", "SDCG"):
        raise ValueError(f"weighted precision: family must be 'P', 'RBP' or 'SDCG', got {family!r}")
    if k is None:
        raise ValueError(f"weighted precision: {family} needs a cutoff k")
    return (None, float(k)) if family == "P" else (dcg_discount(d), float(sdcg_normaliser(k)))


def weighted_precision(gains: np.ndarray, family: str, *, k: int | None = None,
                       p: float = PERSISTENCE.default) -> np.ndarray:
    """A weighted-precision measure of (…, D) gains per rank (1 relevant, 0 not, or an
    expected gain in between): ``"P"`` = Σ of the top k / k; ``"RBP"`` = Σ_i (1 − p)·p^(i−1)·g_i
    over the top min(k, D) (all D when k is None); ``"SDCG"`` = DCG@k / :func:`sdcg_normaliser`
    (:func:`rank_weights`).

    >>> float(weighted_precision(np.array([1.0, 0.25, 0.0]), "P", k=2))   # (1 + 0.25) / 2
    0.625
    >>> float(weighted_precision(np.array([1.0, 0.25, 0.0]), "RBP", p=0.5))   # 0.5 · (1 + 0.5 · 0.25)
    0.5625
    """
    gains = np.asarray(gains, dtype=np.float64)
    d = gains.shape[-1] if k is None else min(k, gains.shape[-1])
    weight, norm = rank_weights(family, d, k=k, p=p)
    if weight is None:
        return gains[..., :d].sum(axis=-1) / norm
    out = rank_sums(gains[..., :d], weight)
    return out if norm == 1.0 else out / norm


def negligible_rbp_rank(p: float) -> int:
    """The first rank r (0-based) with p^r ≤ 2^-64: RBP weights from r on sum to at most
    2^-64 ≈ 5e-20, far below float64 resolution of a score in [0, 1].

    >>> negligible_rbp_rank(0.8)
    199
    """
    return int(np.ceil(-64.0 * np.log(2.0) / np.log(p)))


def weighted_precision_bounds(grade: np.ndarray, entry: np.ndarray, cell3: np.ndarray, rank_end: np.ndarray,
                              judged_entry: np.ndarray | None, length: np.ndarray, family: str, *,
                              k: int | None, p: float = PERSISTENCE.default,
                              relevance_level: int = RELEVANCE_LEVEL.default) -> tuple[np.ndarray, np.ndarray]:
    """Score intervals of a weighted-precision measure (P@k, RBP(p), SDCG@k; Ravana & Moffat):
    (B, Δ) as (S, T) arrays, B with every unjudged document non-relevant and Δ the weight of
    the unjudged ones (for RBP also the tail p^n beyond a run of n documents), T = B + Δ.

    It reads only the positions whose document is in the qrels, sorted by rank: ``grade``
    (P,) their qrels grade, ``entry`` (P,) their qrels entry, ``cell3`` (P,) three times their
    (run, topic) cell ``s·T + t``, ``rank_end`` (D + 1,) where rank r's positions end;
    ``judged_entry`` masks the qrels entries a pool judges (None: all); ``length`` (S, T) the
    rankings' lengths. Only the top min(k, D) ranks are touched (a prefix); RBP skips the ranks
    from :func:`negligible_rbp_rank` on (B and Δ change by less than 5e-20).

    >>> B, delta = weighted_precision_bounds(np.array([1, 0], np.int8), np.array([0, 1]), np.array([0, 0]),
    ...                                      np.array([0, 1, 1, 2]), None, np.array([[3]]), "P", k=2)
    >>> float(B[0, 0]), float(delta[0, 0])   # ranks 1-3: relevant, not in the qrels, non-relevant
    (0.5, 0.5)
    """
    D = rank_end.size - 1
    S, T = length.shape
    cut = D if k is None else min(k, D)
    n = np.minimum(length, cut if k is None else k).reshape(-1)  # documents in the top k
    if family == "RBP":  # ranks whose weights sum to < 2^-64 change nothing in float64: skip them
        cut = min(cut, negligible_rbp_rank(p))
    weight, norm = rank_weights(family, D, k=k, p=p)
    end = int(rank_end[cut])
    grade = grade[:end]
    judged = grade >= 0
    if judged_entry is not None:
        judged &= judged_entry.take(entry[:end])
    rel = judged & (grade >= relevance_level)
    # one bin per (run, topic, class): class 0 unjudged, 1 judged non-relevant, 2 relevant
    idx = cell3[:end] + judged.view(np.uint8) + rel.view(np.uint8)
    counts = np.bincount(idx, minlength=3 * S * T).reshape(S * T, 3)
    unjudged = np.minimum(n, cut) - counts[:, 1] - counts[:, 2]  # includes documents not in the qrels
    if weight is None:  # every rank weighs the same: counts
        lower, residual = counts[:, 2] / norm, unjudged / norm
    else:
        weights = np.repeat(weight[:cut], np.diff(rank_end[: cut + 1]))  # positions are sorted by rank
        sums = np.bincount(idx, weights=weights, minlength=3 * S * T).reshape(S * T, 3)
        rel_w, judged_w = sums[:, 2], sums[:, 1] + sums[:, 2]
        lower = rel_w / norm
        if family == "RBP":
            # unjudged weight in the top n plus the tail p^n: (1 − p^n − J) + p^n = 1 − J
            residual = np.where((unjudged == 0) & (n <= cut), p ** n, np.maximum(1.0 - judged_w, 0.0))
        else:
            prefix = np.concatenate([[0.0], np.cumsum(weight)])  # weight of the first n ranks
            residual = np.where(unjudged == 0, 0.0, np.maximum(prefix[np.minimum(n, D)] - judged_w, 0.0) / norm)
        residual = np.minimum(residual, np.maximum(1.0 - lower, 0.0))  # rounding: keep T ≤ 1
    return lower.reshape(S, T), residual.reshape(S, T)


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
    dcg_run = dcg(gains[:, :, :d], d)
    per_level = counts[:, :, :0:-1]  # grades G..1, best first
    levels = np.arange(counts.shape[2] - 1, 0, -1, dtype=np.float64)
    ends = np.cumsum(per_level, axis=2)
    starts = ends - per_level
    if k is not None:
        ends, starts = np.minimum(ends, k), np.minimum(starts, k)
    size = int(ends.max(initial=0))
    cum = np.concatenate([[0.0], np.cumsum(dcg_discount(size))])
    ideal = ((cum[ends] - cum[starts]) * levels).sum(axis=2)
    return safe_divide(dcg_run, ideal)


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


def compute(view: Judged, measure) -> np.ndarray:
    """The (S, T) per-topic values of one measure (an :class:`irnb.measures.Measure`) on a
    view: its family's declared kernel, on the view at the measure's relevance level, and on
    the condensed list for a condensed family (both built once and kept on the view)."""
    spec = measure.spec
    if spec.condensed_of is not None:
        view = view.condensed
    return np.asarray(spec.kernel(view.at_level(measure.rel), measure), dtype=np.float64)
