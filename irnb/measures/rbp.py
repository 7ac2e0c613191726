"""Rank-biased precision (Moffat & Zobel 2008) and its residual."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, cut_depth, not_judged, rank_sums, rbp_weights
from ..params import PERSISTENCE
from .base import Family, Param, register


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
    d = cut_depth(view, k)
    if gain == "graded":
        gains = view.gain[:, :, :d] / np.maximum(view.top_grade, 1)[None, :, None]
    else:
        gains = view.rel[:, :, :d].astype(np.float64)
    return rank_sums(gains, rbp_weights(p, d))


def _rbp_residual(view: Judged, p: float, k: int | None, tail: str = "always") -> np.ndarray:
    """Weight of unjudged documents in the evaluated prefix plus the tail p^n beyond it
    (n = min(k, run length)). ``tail="if_unjudged"`` is trec_eval's rbp_resid: 0 when no
    evaluated document is unjudged."""
    d = cut_depth(view, k)
    n = np.minimum(view.length, d)
    unjudged = not_judged(view)[:, :, :d]
    residual = rank_sums(unjudged.astype(np.float64), rbp_weights(p, d)) + p ** n.astype(np.float64)
    if tail == "if_unjudged":
        residual = np.where(unjudged.any(axis=2), residual, 0.0)
    return residual


_P_TREC = (("p", 0.9),)  # trec_eval m_rbp.c / m_rbp_resid.c: p = 0.9 unless given

register(Family("RBP", "rank-biased precision (1−p) Σ_i p^(i−1) g_i; g_i = 1 if relevant (gain=binary) or the grade "
                "over the topic's top grade (gain=graded, trec_eval's rbp); the residual is reported apart",
                "Moffat & Zobel 2008; trec_eval rbp", cutoff="optional", trec_name="rbp",
                trec_defaults=_P_TREC + (("gain", "graded"),), rel_unused_when=(("gain", "graded"),), interval=True,
                interval_when=(("gain", "binary"),),
                params=(PERSISTENCE, Param("gain", str, "binary", choices=("binary", "graded"),
                                           doc="binary: 1 for grade ≥ rel; graded: grade / top grade of the topic's "
                                               "qrels")),
                kernel=lambda v, m: _rbp(v, m.param("p"), m.cutoff, m.param("gain"))))
register(Family("RBPResidual", "RBP residual: (1−p) Σ over unjudged i of p^(i−1) + p^n (tail beyond a run of n); "
                "tail=if_unjudged is trec_eval's rbp_resid (0 when no retrieved document is unjudged)",
                "Moffat & Zobel 2008; trec_eval rbp_resid", cutoff="optional", trec_name="rbp_resid", uses_rel=False,
                higher_is_better=False, trec_defaults=_P_TREC + (("tail", "if_unjudged"),),
                unjudged="counted as the residual",
                params=(PERSISTENCE, Param("tail", str, "always", choices=("always", "if_unjudged"),
                                           doc="always: the tail p^n always counts; if_unjudged: only when some "
                                               "retrieved document is unjudged (trec_eval)")),
                kernel=lambda v, m: _rbp_residual(v, m.param("p"), m.cutoff, m.param("tail"))))
