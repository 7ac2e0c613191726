"""Normalised discounted cumulative gain: nDCG@k (and its condensed form nDCG(j)), and
trec_eval's ndcg_rel and Rndcg. Gains are the grades (the relevance level is not used), or
the gains given per grade level (``gains``, :func:`irnb.custom_gains.with_gains`)."""

from __future__ import annotations

import numpy as np

from ..kernels import (Judged, cut_depth, dcg, dcg_discount, grade_gains, ndcg_dense, not_judged, safe_divide,
                       sum_per_topic)
from ..custom_gains import measure_gains
from ..params import GAINS
from .base import Family, register


def _ndcg(view: Judged, k: int | None) -> np.ndarray:
    d = cut_depth(view, k)
    # the gains of the top d only, unless the whole array is there already: no (S, T, D) float temporary
    gains = view.__dict__["gain"][:, :, :d] if "gain" in view.__dict__ else grade_gains(view.grade[:, :, :d])
    dcg_run = dcg(gains, d)
    ideal_depth = int(view.num_judged.max(initial=0)) if k is None else k
    ideal = dcg(view.ideal_gains(ideal_depth), ideal_depth)
    return safe_divide(dcg_run, ideal[None, :])


def _ndcg_scenarios(view: Judged, measure, official: np.ndarray, top_grade: int) -> tuple[np.ndarray, np.ndarray]:
    """Pessimistic: the unjudged documents gain 0, the ideal list unchanged — trec_eval's
    nDCG, the official value; optimistic: every unjudged retrieved document has the top grade
    of the official qrels (at least 1), and joins the ideal list. Defined for the grades as
    gains only."""
    if measure.param("gains"):
        raise ValueError(f"measure {measure.name}: optimistic and pessimistic scenarios need the grades as gains "
                         f"(no gains given, the default), got gains={measure.param('gains')!r}")
    unjudged = not_judged(view)
    S, T = unjudged.shape[:2]
    top = max(top_grade, measure.rel, 1)
    G = max(view.level_counts.shape[1] - 1, top)
    counts = np.zeros((S, T, G + 1), dtype=np.int64)
    counts[:, :, : view.level_counts.shape[1]] = view.level_counts[None, :, :]
    counts[:, :, top] += unjudged.sum(axis=2)
    return official, ndcg_dense(np.where(unjudged, float(top), view.gain), counts, measure.cutoff)


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
    run_dcg = np.cumsum(view.gain * dcg_discount(D), axis=2)
    idcg, idcg_total = _ideal_dcg_cumulative(view)
    npos = view.num_positive
    s, t, r = np.nonzero(view.gain > 0)
    ideal_at = idcg[t, np.minimum(np.minimum(r, np.maximum(npos[t] - 1, 0)), idcg.shape[1] - 1)]
    terms = sum_per_topic(view, s, t, run_dcg[s, t, r] / ideal_at)
    found = sum_per_topic(view, s, t, np.ones(s.size))
    total = terms + (npos[None, :] - found) * safe_divide(run_dcg[:, :, -1], idcg_total[None, :])
    return np.where(total > 0, safe_divide(total, npos[None, :]), 0.0)


def _rndcg(view: Judged) -> np.ndarray:
    """trec_eval Rndcg: nDCG averaged at the R-level points b (the ranks where the ideal
    gain changes: cumulative counts of the positive grades, highest first), each nDCG@b with
    the run cut at min(b, run length); plus nDCG at the run's end when the run is longer
    than npos + 1. 0 when R = 0."""
    counts = view.ideal_runs  # (T, G): with the grades as gains, grades G..1
    S, T, D = view.grade.shape
    if counts.shape[1] == 0 or D == 0:
        return np.zeros((S, T))
    bounds = np.cumsum(counts, axis=1)
    present = counts > 0
    run_dcg = np.cumsum(view.gain * dcg_discount(D), axis=2)
    idcg, idcg_total = _ideal_dcg_cumulative(view)
    cut = np.minimum(bounds[None, :, :], view.length[:, :, None])  # (S, T, G)
    dcg_at = np.where(cut > 0, np.take_along_axis(run_dcg, np.clip(cut - 1, 0, D - 1), axis=2), 0.0)
    idcg_at = np.take_along_axis(idcg, np.clip(bounds - 1, 0, idcg.shape[1] - 1), axis=1)
    terms = np.where(present[None], safe_divide(dcg_at, idcg_at[None, :, :]), 0.0).sum(axis=2)
    npos = view.num_positive
    tail = (view.length > (npos + 1)[None, :]) & (npos > 0)[None, :]  # the run's end counts after an ideal gain
    terms = terms + np.where(tail, safe_divide(run_dcg[:, :, -1], idcg_total[None, :]), 0.0)
    points = present.sum(axis=1)[None, :] + tail
    with np.errstate(invalid="ignore"):  # no point (no positive ideal gain, as gains given can make it): 0/0
        mean = terms / points
    return np.where(view.num_rel[None, :] > 0, mean, 0.0)


NDCG = register(Family("nDCG", "normalised discounted cumulative gain, graded gains, log2(rank+1) discount",
                       "trec_eval ndcg / ndcg_cut (Järvelin & Kekäläinen 2002)", cutoff="optional", params=(GAINS,),
                       trec_name="ndcg", trec_cut_name="ndcg_cut", aliases=("NDCG",), uses_rel=False,
                       scenario=_ndcg_scenarios, kernel=lambda v, m: _ndcg(measure_gains(v, m), m.cutoff)))
register(NDCG.condensed_form("nDCGj", "condensed-list nDCG (nDCG'): unjudged documents removed before ranking",
                             "Sakai 2007"))
register(Family("nDCGRel", "nDCG averaged over the relevant (positive-gain) documents of the qrels; an unretrieved "
                "one counts the nDCG at the end of the run", "trec_eval ndcg_rel", params=(GAINS,),
                trec_name="ndcg_rel", uses_rel=False, kernel=lambda v, m: _ndcg_rel(measure_gains(v, m))))
register(Family("RnDCG", "nDCG averaged at the R-level points (where the ideal gain changes) and at the run's end; "
                "0 when no document reaches the relevance level (gains are the grades)",
                "trec_eval Rndcg", params=(GAINS,), trec_name="Rndcg", kernel=lambda v, m: _rndcg(measure_gains(v, m))))
