"""Average precision: AP@k (and its condensed form AP(j)), its geometric mean GMAP, and
inferred AP."""

from __future__ import annotations

import numpy as np

from .._grades import NO_DOC
from ..kernels import (Judged, average_precision_dense, cut_depth, not_judged, safe_divide, sum_at_cells,
                       sum_per_topic)
from .base import Family, register


def _average_precision(view: Judged, k: int | None) -> np.ndarray:
    """(1/R) Σ over relevant documents at rank r ≤ k of P@r; computed at the relevant
    positions only (no float array over every rank)."""
    d = cut_depth(view, k)
    cell, r = view.relevant_cells
    if d < view.depth:
        cell, r = cell[r < d], r[r < d]
    flat = cell * view.depth + r
    precision_at = view.cum_rel.reshape(-1)[flat] / (r + 1.0)
    return safe_divide(sum_at_cells(view, cell, precision_at), view.num_rel[None, :])


def _ap_scenarios(view: Judged, measure, official: np.ndarray, top_grade: int) -> tuple[np.ndarray, np.ndarray]:
    """Pessimistic: the unjudged documents non-relevant, R unchanged — trec_eval's AP, the
    official value; optimistic: every unjudged retrieved document relevant, R grows by their
    number."""
    unjudged = not_judged(view)
    return official, average_precision_dense(view.rel | unjudged, view.num_rel[None, :] + unjudged.sum(axis=2),
                                             measure.cutoff)


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
    return safe_divide(sum_per_topic(view, s, t, 1.0 / k + above), view.num_rel[None, :])


AP = register(Family("AP", "average precision: mean of precision at each relevant document's rank, over R",
                     "trec_eval map / map_cut", cutoff="optional", trec_name="map", trec_cut_name="map_cut",
                     aliases=("MAP",), scenario=_ap_scenarios, average_assessment=True,
                     kernel=lambda v, m: _average_precision(v, m.cutoff)))
register(AP.condensed_form("APj", "condensed-list AP (AP'): unjudged documents removed before ranking", "Sakai 2007"))
register(Family("GMAP", "geometric mean over topics of AP (AP floored at 1e-5)", "trec_eval gm_map",
                aggregate="gmean", trec_name="gm_map", average_assessment=True,
                kernel=lambda v, m: _average_precision(v, None)))
register(Family("infAP", "inferred AP (Yilmaz & Aslam 2006), trec_eval m_infap.c", "trec_eval infAP",
                trec_name="infAP", average_assessment=True, unjudged="estimated from the judged sample (infAP)",
                kernel=lambda v, m: _infap(v)))
