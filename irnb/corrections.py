"""Multiple-comparison corrections of p-values: Bonferroni, Holm and Benjamini–Hochberg.

Each takes any array of p-values in [0, 1] (NaN allowed: "not testable", ignored in m and
left NaN) and returns a new float array of corrected p-values; the input is never modified.
:meth:`irnb.stats.PairwiseTests.adjusted` applies them to a test's result.
"""

from __future__ import annotations

import numpy as np

from .params import COMPARISONS, CORRECTION

__all__ = ["ADJUSTMENTS", "bonferroni", "holm", "benjamini_hochberg", "adjust_p_values", "p_value_array"]

#: The corrections by name (``"bh"`` is Benjamini–Hochberg); ``"none"`` is a copy.
ADJUSTMENTS = tuple(c for c in CORRECTION.choices if c != "none")


def bonferroni(p_values, *, m: int | None = None) -> np.ndarray:
    """Bonferroni correction: min(1, m·p), m = the number of (non-NaN) p-values.

    >>> bonferroni([0.01, 0.04, 0.03, 0.005]).tolist()
    [0.04, 0.16, 0.12, 0.02]
    """
    p = p_value_array(p_values)
    finite = ~np.isnan(p)
    if m is None:
        m = int(finite.sum())
    else:
        m = COMPARISONS.within(low=int(finite.sum()), note="the number of p-values").validate(m, "bonferroni")
    return np.minimum(1.0, p * m)


def holm(p_values) -> np.ndarray:
    """Holm's step-down correction: sort p ascending, p_(i) ↦ max over j ≤ i of
    min(1, (m − j + 1)·p_(j)); NaNs are ignored and stay NaN.

    p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005·4 = 0.02, 0.01·3 = 0.03,
    0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.06.

    >>> [round(x, 10) for x in holm([0.01, 0.04, 0.03, 0.005]).tolist()]
    [0.03, 0.06, 0.06, 0.02]
    """
    return _step_adjust(p_values, lambda m: m - np.arange(m), np.maximum.accumulate)


def benjamini_hochberg(p_values) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (false discovery rate): sort p ascending,
    p_(i) ↦ min over j ≥ i of min(1, m·p_(j)/j); NaNs are ignored and stay NaN. A pair is
    a discovery at FDR level q when its adjusted p ≤ q.

    p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005·4/1 = 0.02, 0.01·4/2 = 0.02,
    0.03·4/3 = 0.04, 0.04·4/4 = 0.04 → running minimum from the largest: 0.02, 0.02, 0.04, 0.04.

    >>> [round(x, 10) for x in benjamini_hochberg([0.01, 0.04, 0.03, 0.005]).tolist()]
    [0.02, 0.04, 0.04, 0.02]
    """
    return _step_adjust(p_values, lambda m: m / np.arange(1, m + 1),
                        lambda scaled: np.minimum.accumulate(scaled[::-1])[::-1])


def _step_adjust(p_values, factor, running) -> np.ndarray:
    """The step-wise corrections: the non-NaN p-values sorted ascending, each times
    ``factor(m)[i]`` (capped at 1), then made monotone by ``running``; NaNs stay NaN."""
    p = p_value_array(p_values)
    flat = p.ravel()
    out = np.full(flat.shape, np.nan)
    idx = np.flatnonzero(~np.isnan(flat))
    m = idx.size
    if m:
        order = idx[np.argsort(flat[idx], kind="stable")]
        out[order] = running(np.minimum(1.0, flat[order] * factor(m)))
    return out.reshape(p.shape)


def adjust_p_values(p_values, method: str) -> np.ndarray:
    """``p_values`` corrected by ``method``, one of :data:`ADJUSTMENTS` (``"none"`` is a copy).

    >>> adjust_p_values([0.01, 0.04], "bonferroni").tolist()
    [0.02, 0.08]
    """
    if method == "none":
        return p_value_array(p_values)
    CORRECTION.validate(method, None)
    return {"bonferroni": bonferroni, "holm": holm, "bh": benjamini_hochberg}[method](p_values)


def p_value_array(p_values) -> np.ndarray:
    """A float copy of ``p_values``; a value outside [0, 1] (NaN aside) is an error."""
    p = np.array(p_values, dtype=np.float64, copy=True)
    bad = ~np.isnan(p) & ((p < 0) | (p > 1))
    if bad.any():
        raise ValueError(f"p-values must lie in [0, 1], got {float(p[bad][0])!r}")
    return p
