"""Measures over judged documents only: bpref, bpref-10, their geometric mean, and RankEff."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, bpref_dense, not_judged, safe_divide, sum_at_cells
from .base import Family, register


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
    return safe_divide(sum_at_cells(view, cell, terms), view.num_rel[None, :])


def _bpref_scenarios(view: Judged, measure, official: np.ndarray, top_grade: int) -> tuple[np.ndarray, np.ndarray]:
    """Pessimistic: the unjudged retrieved documents count as judged non-relevant (n_r and N
    grow; a larger N can raise min(N, R), so it may exceed the official value); optimistic:
    they are relevant (R grows by their number)."""
    unjudged = not_judged(view)
    u = unjudged.sum(axis=2)
    R = np.broadcast_to(view.num_rel[None, :], u.shape)
    N = np.broadcast_to(view.num_nonrel[None, :], u.shape)
    return (bpref_dense(view.rel, view.nonrel | unjudged, R, N + u),
            bpref_dense(view.rel | unjudged, view.nonrel, R + u, N))


def _rank_eff(view: Judged) -> np.ndarray:
    """(1/R) Σ over retrieved relevant r of (1 − n_r / N); N = 0 → terms of 1."""
    cell, t, n = _nonrel_above_relevant(view)
    terms = 1.0 - safe_divide(n, view.num_nonrel[t])
    return safe_divide(sum_at_cells(view, cell, terms), view.num_rel[None, :])


_JUDGED_ONLY = "ignored (only judged documents count)"

register(Family("Bpref", "binary preference: (1/R) Σ_r (1 − min(n_r, R)/min(N, R))",
                "Buckley & Voorhees 2004; trec_eval bpref", trec_name="bpref", scenario=_bpref_scenarios,
                unjudged=_JUDGED_ONLY, kernel=lambda v, m: _bpref(v)))
register(Family("Bpref10", "bpref-10: (1/R) Σ_r (1 − min(n_r, R+10)/min(N, R+10)), the top R + 10 judged "
                "non-relevant documents count", "Buckley & Voorhees 2004 (bpref-10), as described by Büttcher et al. "
                "2007; trec_eval 8 bpref_top10pRnonrel", aliases=("bpref_top10pRnonrel", "bpref-10"),
                unjudged=_JUDGED_ONLY, kernel=lambda v, m: _bpref(v, extra=10)))
register(Family("GMBpref", "geometric mean over topics of bpref (floored at 1e-5)", "trec_eval gm_bpref",
                aggregate="gmean", trec_name="gm_bpref", unjudged=_JUDGED_ONLY, kernel=lambda v, m: _bpref(v)))
register(Family("RankEff", "(1/R) Σ over retrieved relevant r of (1 − n_r/N); n_r judged non-relevant above r",
                "Ahlgren & Grönqvist 2006, as used by Büttcher et al. 2007", unjudged=_JUDGED_ONLY,
                kernel=lambda v, m: _rank_eff(v)))
