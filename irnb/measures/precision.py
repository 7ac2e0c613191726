"""Precision at a depth and its relatives: P@k (and its condensed form P@k(j)), R-prec,
reciprocal rank, recall, success, interpolated precision, relative precision."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..kernels import Judged, cut_depth, safe_divide
from .base import Family, Param, register

__all__ = ["ELEVEN_POINTS", "interpolated_precision"]


def _at_topic(view: Judged, cum: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(S, T) count in the top k[t] from a cumulative array; k is per topic (T,), k ≤ 0 → 0."""
    kk = np.minimum(np.asarray(k, dtype=np.int64), view.depth)
    if view.depth == 0:
        return np.zeros(cum.shape[:2], dtype=np.int64)
    idx = np.broadcast_to(np.maximum(kk - 1, 0)[None, :, None], cum.shape[:2] + (1,))
    found = np.take_along_axis(cum, idx, axis=2)[:, :, 0].astype(np.int64)
    return np.where(kk[None, :] > 0, found, 0)


def _precision(view: Judged, k: int) -> np.ndarray:
    return view.at(view.cum_rel, k) / k


def _rprec(view: Judged) -> np.ndarray:
    R = view.num_rel
    return safe_divide(_at_topic(view, view.cum_rel, R), R[None, :])


def _reciprocal_rank(view: Judged, k: int | None) -> np.ndarray:
    d = cut_depth(view, k)
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


P = register(Family("P", "precision: relevant in the top k divided by k", "trec_eval P", cutoff="required",
                    trec_name="P", aliases=("Precision",), interval=True, kernel=lambda v, m: _precision(v, m.cutoff)))
register(P.condensed_form("Pj", "condensed-list precision P@k(j): unjudged documents removed before ranking",
                          "Sakai 2007; trec_eval -J"))
register(Family("Rprec", "precision at rank R", "trec_eval Rprec", trec_name="Rprec", aliases=("RPrec", "R-prec"),
                kernel=lambda v, m: _rprec(v)))
register(Family("RR", "reciprocal rank of the first relevant document", "trec_eval recip_rank", cutoff="optional",
                trec_name="recip_rank", aliases=("MRR",), kernel=lambda v, m: _reciprocal_rank(v, m.cutoff)))
register(Family("R", "recall: relevant retrieved in the top k divided by R", "trec_eval recall", cutoff="required",
                trec_name="recall", aliases=("Recall",), kernel=lambda v, m: _recall(v, m.cutoff)))
register(Family("Success", "1 if a relevant document is in the top k", "trec_eval success", cutoff="required",
                trec_name="success", kernel=lambda v, m: _success(v, m.cutoff)))
register(Family("IPrec", "interpolated precision at a recall level: max precision at or after the rank where "
                "c relevant documents are retrieved, c = floor(recall·R + 0.9) (trec_eval 9, the default compat) "
                "or round(recall·R), halves away from zero (trec_eval 10)", "trec_eval iprec_at_recall",
                params=(Param("recall", float, None, low=0.0, high=1.0, doc="recall level"),),
                trec_name="iprec_at_recall", trec_suffix="recall", at_param="recall",
                kernel=lambda v, m: interpolated_precision(v, [m.param("recall")])[0]))
register(Family("ElevenPointAP", "11-point interpolated average precision: mean of IPrec at recall 0, 0.1, …, 1",
                "trec_eval 11pt_avg", trec_name="11pt_avg",
                kernel=lambda v, m: interpolated_precision(v, ELEVEN_POINTS).mean(axis=0)))
register(Family("RprecMult", "precision at rank floor(mult·R + 0.9) (a run shorter than that counts as non-relevant)",
                "trec_eval Rprec_mult", params=(Param("mult", float, None, low=0.0, low_open=True,
                                                      doc="multiple of R"),),
                trec_name="Rprec_mult", trec_suffix="mult", kernel=lambda v, m: _rprec_mult(v, m.param("mult"))))
register(Family("RelP", "relative precision: relevant in the top k divided by min(k, R)", "trec_eval relative_P",
                cutoff="required", trec_name="relative_P", kernel=lambda v, m: _relative_precision(v, m.cutoff)))
