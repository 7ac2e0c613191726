"""How every irnb figure looks and is labelled: colours, markers, the smallest font, plain
log axes, thinned tick labels, and the names figures print for measures, estimators and the
procedure behind a decision table. Every plot of :mod:`irnb.plots` (and the reproductions'
own figures) take their look from here, so a colour or a label is changed in one place.

Colours are the Okabe–Ito palette (safe for the common colour-vision deficiencies), and a
series never differs by colour alone: :func:`~irnb.plots.series_style` gives each its own marker and line
style. Figures name Assessment Precision as the papers do, A_p@k (irnb's measure ``Judged@k``:
:func:`~irnb.plots.measure_label`); k is the measurement depth, d the pool depth (the 2008 paper writes P@d
for the measurement depth: here it is P@k). Topic axes label at most :data:`TOPIC_LABELS`
topics (:func:`thin_ticks`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..intervals import ESTIMATORS
from ..measures import FAMILIES
from ..params import ESTIMATOR_NAME

__all__ = [
    "PALETTE",
    "CASE_COLOURS",
    "MARKERS",
    "MIN_FONT",
    "TOPIC_LABELS",
    "series_style",
    "measure_label",
    "plot_estimator_key",
    "estimate_label",
    "procedure_caption",
    "plain_log_axis",
    "thin_ticks",
]

#: Okabe–Ito colours (colour-blind safe), in the order series use them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
#: Decision-matrix cases: P equal in blues, P different in oranges; strong dark, weak light (and marked ×).
CASE_COLOURS = {1: "#0072B2", 2: "#56B4E9", 3: "#D55E00", 4: "#E69F00"}
#: Markers, in the order series use them (with :data:`~irnb.plots.PALETTE`: :func:`~irnb.plots.series_style`).
MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*")
_LINESTYLES = ("-", "--", "-.", ":")
#: Smallest text size (points) of any text in a figure: legible at 100 % zoom and projected.
MIN_FONT = 9
#: Topic axes label at most this many topics (every m-th one beyond: :func:`thin_ticks`).
TOPIC_LABELS = 25


def plain_log_axis(axis, *, subs: Sequence[float] = (1.0, 2.0, 5.0)) -> None:
    """A log axis labelled in plain numbers (5, 10, 20, 50, 100), not 10¹/10²: pass
    ``ax.xaxis`` or ``ax.yaxis`` after ``ax.set_xscale("log")``; ``subs=(1.0,)`` labels the
    powers of ten only (100, 1000, 10000), for a narrow panel."""
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    axis.set_major_locator(LogLocator(base=10, subs=tuple(subs)))
    formatter = ScalarFormatter()
    formatter.set_scientific(False)
    axis.set_major_formatter(formatter)
    axis.set_minor_formatter(NullFormatter())


def series_style(index: int) -> dict[str, str]:
    """Colour, marker and line style of the ``index``-th series of a figure: an Okabe–Ito
    colour and, so that colour is never the only cue, its own marker and line style.

    >>> series_style(0), series_style(1)["marker"]
    ({'color': '#0072B2', 'marker': 'o', 'linestyle': '-'}, 's')
    """
    # beyond the palette's 8 colours the marker shifts by one, so no two of the first 64 series look alike
    return {"color": PALETTE[index % len(PALETTE)],
            "marker": MARKERS[(index + index // len(PALETTE)) % len(MARKERS)],
            "linestyle": _LINESTYLES[index % len(_LINESTYLES)]}


def measure_label(name: str) -> str:
    """A measure's name as the figures print it: its family's declared symbol where the papers
    have one (``Judged@k`` is Assessment Precision A_p@k, Baillie et al. 2007 §2.1), else the
    name.

    >>> measure_label("Judged@20"), measure_label("Judged"), measure_label("P@20")
    ('A_p@20', 'A_p', 'P@20')
    """
    family, at, depth = str(name).partition("@")
    spec = FAMILIES.get(family)
    return f"{spec.symbol}{at}{depth}" if spec is not None and spec.symbol else str(name)


def plot_estimator_key(estimator: str, plot: str) -> str:
    """The letter of a point estimator ("S", "X_S" or "simplistic" → "S"), its error
    prefixed with the plot's name (:data:`irnb.params.ESTIMATOR_NAME`)."""
    return ESTIMATOR_NAME.validate(estimator, plot)


def estimate_label(estimates, estimator: str) -> str:
    """The legend label of a point estimator with the parameters it uses, e.g.
    ``X_M (smoothed, E = 0.01, λ = 1 − Δ)``; ``estimates`` is a
    :class:`~irnb.intervals.PointEstimates` (its E and λ), or None for the name alone.

    >>> estimate_label(None, "B")
    'X_B (background)'
    """
    key = plot_estimator_key(estimator, "estimate_label")
    parts = [ESTIMATORS[key]]
    if estimates is not None and key != "S":
        parts.append(f"E = {estimates.background_rate:g}")
        if key == "M":
            lam = estimates.smoothing
            parts.append("λ = 1 − Δ" if lam == "auto" else f"λ = {lam:g}")
    return f"X_{key} ({', '.join(parts)})"


def procedure_caption(table: pd.DataFrame) -> str | None:
    """What produced a decision table, from its ``.attrs`` (set by :mod:`irnb.decision`):
    the test with its correction and α, e.g. ``one-way ANOVA + Bonferroni multiple
    comparisons, α = 0.05``; None for a table without them."""
    return getattr(table, "attrs", {}).get("procedure")


def thin_ticks(positions: np.ndarray, labels: Sequence[str], most: int | None) -> tuple[np.ndarray, list[str]]:
    """Every m-th tick when there are more than ``most`` labels (readable, and each label
    costs a text layout on every redraw)."""
    labels = list(labels)
    if most is None or len(labels) <= most:
        return positions, labels
    step = -(-len(labels) // most)
    return positions[::step], labels[::step]
