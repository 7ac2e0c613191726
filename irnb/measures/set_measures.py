"""Set measures: the retrieved list as a set (trec_eval's set_* and utility)."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, safe_divide
from .base import Family, Param, register


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


register(Family("SetP", "set precision: relevant retrieved / retrieved", "trec_eval set_P", trec_name="set_P",
                kernel=lambda v, m: safe_divide(*_set_counts(v)[1::-1])))
register(Family("SetR", "set recall: relevant retrieved / R", "trec_eval set_recall", trec_name="set_recall",
                kernel=lambda v, m: safe_divide(*_set_counts(v)[1:])))
register(Family("SetF", "set F_β: (1 + β²)·P·R / (β²·P + R) over the retrieved set (trec_eval's x is β²)",
                "trec_eval set_F (van Rijsbergen)", trec_name="set_F",
                params=(Param("beta", float, 1.0, low=0.0, doc="β: recall is β² times as important as precision"),),
                kernel=lambda v, m: _set_f(v, m.param("beta"))))
register(Family("SetAP", "set AP: relevant retrieved² / (retrieved · R)", "trec_eval set_map", trec_name="set_map",
                kernel=lambda v, m: (lambda n, rr, R: safe_divide(rr * rr, n * R))(*_set_counts(v))))
register(Family("SetRelP", "set relative precision: relevant retrieved / min(retrieved, R)",
                "trec_eval set_relative_P", trec_name="set_relative_P",
                kernel=lambda v, m: (lambda n, rr, R: safe_divide(rr, np.minimum(n, R)))(*_set_counts(v))))
register(Family("Utility", "set utility a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant not "
                "retrieved); trec_eval's 4th coefficient (needs the collection size) is not supported",
                "trec_eval utility", trec_name="utility", unit_range=False,
                params=(Param("a", float, 1.0, doc="worth of a relevant retrieved document"),
                        Param("b", float, -1.0, doc="worth of a non-relevant retrieved document"),
                        Param("c", float, 0.0, doc="worth of a relevant document not retrieved")),
                kernel=lambda v, m: _utility(v, m.param("a"), m.param("b"), m.param("c"))))
