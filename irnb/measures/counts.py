"""Counts: topics, documents retrieved, relevant documents (trec_eval's num_* measures);
summed over topics, not averaged."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, cut_depth
from .base import Family, register


def _num_ret(view: Judged, k: int | None) -> np.ndarray:
    return np.minimum(view.length, cut_depth(view, k)).astype(np.float64)


def _per_topic(view: Judged, values: np.ndarray) -> np.ndarray:
    S, T = view.grade.shape[:2]
    return np.broadcast_to(np.asarray(values, dtype=np.float64)[None, :], (S, T)).copy()


register(Family("num_q", "number of topics evaluated", "trec_eval num_q", aggregate="sum", trec_name="num_q",
                aliases=("NumQ",), uses_rel=False, unit_range=False, kernel=lambda v, m: np.ones(v.grade.shape[:2])))
register(Family("NumRet", "documents retrieved (in the top k)", "trec_eval num_ret", cutoff="optional", aggregate="sum",
                trec_name="num_ret", uses_rel=False, unit_range=False, kernel=lambda v, m: _num_ret(v, m.cutoff)))
register(Family("NumRel", "relevant documents in the qrels (R)", "trec_eval num_rel", aggregate="sum",
                trec_name="num_rel", unit_range=False, kernel=lambda v, m: _per_topic(v, v.num_rel)))
register(Family("NumRelRet", "relevant documents retrieved (in the top k)", "trec_eval num_rel_ret",
                cutoff="optional", aggregate="sum", trec_name="num_rel_ret", unit_range=False,
                kernel=lambda v, m: v.at(v.cum_rel, m.cutoff).astype(np.float64)))
register(Family("NumNonRelJudgedRet", "judged non-relevant documents retrieved", "trec_eval num_nonrel_judged_ret",
                aggregate="sum", trec_name="num_nonrel_judged_ret", unit_range=False,
                kernel=lambda v, m: v.at(v.cum_nonrel, None).astype(np.float64)))
