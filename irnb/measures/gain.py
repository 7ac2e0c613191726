"""Buckley's experimental gain measures: trec_eval's G and binG."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, safe_divide, sum_per_topic
from ..custom_gains import measure_gains
from ..params import GAINS
from .base import Family, register


def _gain_g(view: Judged) -> np.ndarray:
    """trec_eval G: Σ_i g_i / log2(2 + cost_i − gained_i) over Σ of the qrels' gains, with
    gained_i the run's gain up to rank i and cost_i = Σ_{j ≤ i} max(ideal gain_j, 1)."""
    D = view.depth
    gained = np.cumsum(view.gain, axis=2)
    cost = np.cumsum(np.maximum(view.ideal_gains(D), 1.0), axis=1)  # (T, D)
    s, t, r = np.nonzero(view.gain)
    terms = view.gain[s, t, r] / np.log2(2.0 + cost[t, r] - gained[s, t, r])
    ideal_sum = view.ideal_gains(int(view.num_positive.max(initial=0))).sum(axis=1)
    return safe_divide(sum_per_topic(view, s, t, terms), ideal_sum[None, :])


def _bin_g(view: Judged) -> np.ndarray:
    """trec_eval binG: (1/R) Σ over retrieved relevant of 1 / log2(2 + documents above it
    that are not relevant)."""
    s, t, r = np.nonzero(view.rel)
    not_rel_above = r - (view.cum_rel[s, t, r] - 1)
    terms = 1.0 / np.log2(2.0 + not_rel_above)
    return safe_divide(sum_per_topic(view, s, t, terms), view.num_rel[None, :])


register(Family("G", "normalised gain G: Σ gain_i / log2(2 + ideal cost_i − gain so far_i) over Σ ideal gains",
                "trec_eval G (Buckley, experimental)", params=(GAINS,), trec_name="G", uses_rel=False,
                kernel=lambda v, m: _gain_g(measure_gains(v, m))))
register(Family("BinG", "binary G: (1/R) Σ over retrieved relevant of 1 / log2(2 + non-relevant above)",
                "trec_eval binG (Buckley, experimental)", trec_name="binG", kernel=lambda v, m: _bin_g(v)))
