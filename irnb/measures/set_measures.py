"""Set measures: the retrieved list as a set (trec_eval's set_* and utility).

:func:`set_f` and :func:`set_utility` take trec_eval's own parameters too (x = β², the 4th
utility coefficient with the collection size), for ``irnb trec_eval``."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, safe_divide
from .base import Family, Param, register
from ..params import NUM_DOCS

__all__ = ["set_counts", "set_f", "set_utility"]


def set_counts(view: Judged) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(retrieved, relevant retrieved, R) as float arrays broadcastable to (S, T)."""
    return (view.length.astype(np.float64), view.at(view.cum_rel, None).astype(np.float64),
            view.num_rel[None, :].astype(np.float64))


def set_f(view: Judged, x: float) -> np.ndarray:
    """(S, T) F over the retrieved set, (x + 1)·P·R / (x·P + R) with x = β² (trec_eval's
    parameter); 0 when nothing relevant is retrieved.

    Example: 3 of 6 retrieved relevant, R = 4, x = 1: 2 · (1/2) · (3/4) / (1/2 + 3/4) = 0.6.
    """
    n, rr, R = np.broadcast_arrays(*set_counts(view))
    out = np.zeros(rr.shape)
    found = rr > 0  # then n > 0 and R > 0
    P, Rc = rr[found] / n[found], rr[found] / R[found]
    out[found] = (x + 1.0) * P * Rc / (x * P + Rc)
    return out


def set_utility(view: Judged, a: float, b: float, c: float, d: float | None = None,
                num_docs: int = NUM_DOCS.default) -> np.ndarray:
    """(S, T) a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant not
    retrieved), and with ``d`` trec_eval's 4th term d·(non-relevant not retrieved) =
    d·(num_docs + relevant retrieved − retrieved − R), num_docs the collection size."""
    n, rr, R = set_counts(view)
    value = a * rr + b * (n - rr) + c * (R - rr)
    return value if d is None else value + d * (num_docs + rr - n - R)


register(Family("SetP", "set precision: relevant retrieved / retrieved", "trec_eval set_P", trec_name="set_P",
                kernel=lambda v, m: safe_divide(*set_counts(v)[1::-1])))
register(Family("SetR", "set recall: relevant retrieved / R", "trec_eval set_recall", trec_name="set_recall",
                kernel=lambda v, m: safe_divide(*set_counts(v)[1:])))
register(Family("SetF", "set F_β: (1 + β²)·P·R / (β²·P + R) over the retrieved set (trec_eval's x is β²)",
                "trec_eval set_F (van Rijsbergen)", trec_name="set_F",
                params=(Param("beta", float, 1.0, low=0.0, doc="β: recall is β² times as important as precision"),),
                kernel=lambda v, m: set_f(v, m.param("beta") * m.param("beta"))))
register(Family("SetAP", "set AP: relevant retrieved² / (retrieved · R)", "trec_eval set_map", trec_name="set_map",
                kernel=lambda v, m: (lambda n, rr, R: safe_divide(rr * rr, n * R))(*set_counts(v))))
register(Family("SetRelP", "set relative precision: relevant retrieved / min(retrieved, R)",
                "trec_eval set_relative_P", trec_name="set_relative_P",
                kernel=lambda v, m: (lambda n, rr, R: safe_divide(rr, np.minimum(n, R)))(*set_counts(v))))
register(Family("Utility", "set utility a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant not "
                "retrieved); trec_eval's 4th coefficient (needs the collection size) is not supported",
                "trec_eval utility", trec_name="utility", unit_range=False,
                params=(Param("a", float, 1.0, doc="worth of a relevant retrieved document"),
                        Param("b", float, -1.0, doc="worth of a non-relevant retrieved document"),
                        Param("c", float, 0.0, doc="worth of a relevant document not retrieved")),
                kernel=lambda v, m: set_utility(v, m.param("a"), m.param("b"), m.param("c"))))
