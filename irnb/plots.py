"""Static plots of what the core returns.

Every function takes the core's plain data (a :class:`~irnb.intervals.ScoreIntervals`, a
decision table, a :class:`~irnb.bias.BiasResult`, a tidy DataFrame …), accepts ``ax=None``
(a new figure is made) and returns the Axes it drew on. Nothing here computes what the core
can: means, cases, rank changes, unjudged counts and fits come from the core; the plots
only select, order and draw them. matplotlib is imported inside the functions, so
``import irnb`` never loads it.

The plots the widgets drive have an ``update_*`` twin that takes the same data and changes
the artists already on the Axes in place (``set_segments``, ``set_data``, ``set_array``)
instead of drawing a new plot; :func:`artists` returns those artists by role, e.g.
``artists(ax)["intervals"]`` is the LineCollection of [B, T] segments.

Figures name Assessment Precision as the papers do, A_p@k (irnb's measure ``Judged@k``:
:func:`measure_label`); k is the measurement depth, d the pool depth (the 2008 paper writes P@d
for the measurement depth: here it is P@k).

Colours are the Okabe–Ito palette (safe for the common colour-vision deficiencies); the
decision-matrix cases also differ without colour: weak cases (2 and 4) carry an ``×``.
Titles sit at a fixed height (no plot has tick labels on top), which spares matplotlib
re-measuring every tick label to place them on each redraw; topic axes label at most 25
topics.

=====================================  ===========================================================
plot                                   source
=====================================  ===========================================================
:func:`intervals_plot`                 per-run [B, T], a point estimate and the true score
                                       (Ravana & Moffat)
:func:`topic_intervals_plot`           the same per topic for one run
:func:`case_matrix_plot`               run × run decision-matrix cases (Baillie et al.)
:func:`case_proportions_plot`          depth × case proportions (Baillie et al., Table 1)
:func:`bias_plot`                      rank / score change of left-out runs, AP versus bpref
                                       (Büttcher et al.)
:func:`tau_depth_plot`                 Kendall's τ against pool depth per measure
:func:`unjudged_plot`                  unjudged documents per topic for two runs, their overlap,
                                       Δ score (thesis Fig. 7.1)
:func:`simulated_precision_plot`       original versus simulated precision (thesis Fig. 7.2)
:func:`depth_curves_plot`              P@k and A_p@k of a pair with confidence intervals
                                       (Baillie et al. Fig. 2 / IP&M Fig. 11)
:func:`ranked_runs_plot`               all runs ranked by a measure with their A_p@k
                                       (IP&M Figs 5–10, 12)
:func:`background_rate_plot`           the E-estimation curve (Ravana & Moffat Fig. 1)
:func:`separability_plot`              separable pairs versus judgments (Ravana & Moffat Fig. 2)
:func:`subsampling_plot`               random-subsampling curves (Büttcher et al. Fig. 1)
:func:`topic_difference_plot`          run minus baseline per topic, sorted (the per-topic
                                       comparison papers draw)
=====================================  ===========================================================
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from .intervals import ESTIMATORS, estimator_key as _intervals_estimator_key

__all__ = [
    "PALETTE",
    "MIN_FONT",
    "CASE_COLOURS",
    "artists",
    "intervals_plot",
    "update_intervals_plot",
    "topic_intervals_plot",
    "update_topic_intervals_plot",
    "case_matrix_plot",
    "update_case_matrix_plot",
    "case_proportions_plot",
    "update_case_proportions_plot",
    "bias_plot",
    "update_bias_plot",
    "tau_depth_plot",
    "update_tau_depth_plot",
    "unjudged_plot",
    "update_unjudged_plot",
    "simulated_precision_plot",
    "update_simulated_precision_plot",
    "depth_curves_plot",
    "procedure_caption",
    "estimate_label",
    "measure_label",
    "series_style",
    "plain_log_axis",
    "ranked_runs_plot",
    "background_rate_plot",
    "separability_plot",
    "subsampling_plot",
    "topic_difference_plot",
]

#: Okabe–Ito colours (colour-blind safe), in the order series use them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
#: Decision-matrix cases: P equal in blues, P different in oranges; strong dark, weak light (and marked ×).
CASE_COLOURS = {1: "#0072B2", 2: "#56B4E9", 3: "#D55E00", 4: "#E69F00"}
_MISSING = "#DDDDDD"  # diagonal / no comparison
#: The cases in the papers' shorthand (= equal, ≠ significantly different; A of the better run).
_CASE_SHORT = {1: "P =, A =", 2: "P =, A ≠", 3: "P ≠, A ≤ (better run)", 4: "P ≠, A > (better run)"}
_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*")
_LINESTYLES = ("-", "--", "-.", ":")
_GID = "irnb:"
_TOPIC_LABELS = 25  # topic axes label at most this many topics (every m-th one beyond)


# =============================================================================== helpers
def _axes(ax, figsize: tuple[float, float]):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _tag(artist, role: str):
    artist.set_gid(_GID + role)
    return artist


def _twins(ax) -> list:
    """``ax`` and the Axes drawn over it with ``twinx`` (same position, shared x)."""
    siblings = ax.get_shared_x_axes().get_siblings(ax)
    box = ax.get_position().bounds
    return [ax] + [a for a in siblings if a is not ax and a.get_position().bounds == box]


def artists(ax) -> dict[str, Any]:
    """The irnb artists on ``ax`` (and on an Axes twinned with it), by role.

    Roles: ``intervals`` (LineCollection of [B, T]), ``estimate``, ``truth`` (Line2D);
    ``cases`` (AxesImage), ``weak`` (Line2D of × glyphs); ``proportions`` (AxesImage);
    ``bias:<measure>``, ``tau:<measure>``, ``current``; ``unjudged_a``, ``unjudged_b``,
    ``overlap``, ``difference``; ``unjudged``, ``original``, ``simulated``.
    """
    found: dict[str, Any] = {}
    for axes in _twins(ax):
        for child in axes.get_children():
            gid = child.get_gid()
            if isinstance(gid, str) and gid.startswith(_GID):
                found.setdefault(gid[len(_GID):], child)
    return found


def _role(ax, role: str, plot: str):
    found = artists(ax)
    if role not in found:
        raise ValueError(f"{plot}: the Axes holds no irnb {role!r} artist; draw it first with "
                         f"{plot.replace('update_', '')}(..., ax=ax)")
    return found[role]


#: Smallest text size (points) of any text in a figure: legible at 100 % zoom and projected.
MIN_FONT = 9


def _legend(ax, handles: Sequence, *, where: str = "below", **kwargs) -> None:
    """A legend of the visible labelled handles outside the data, rebuilt only when their
    labels change: ``where="below"`` (under the x-axis label) or ``"right"`` (beside the
    Axes, past a twin axis's labels). Entries of hidden artists are left out."""
    handles = [h for h in handles if (not hasattr(h, "get_visible") or h.get_visible())]
    labels = [h.get_label() if hasattr(h, "get_label") else h[0].get_label() for h in handles]
    current = ax.get_legend()
    if current is not None and getattr(current, "_irnb_handles", None) == handles:
        # same entries: new words only (no new legend)
        for text, label in zip(current.get_texts(), labels, strict=True):
            if text.get_text() != label:
                text.set_text(label)
        return
    if current is not None:
        current.remove()
    if handles:
        _outside_legend(ax, handles, labels, where=where, **kwargs)._irnb_handles = handles


def _outside_legend(ax, handles, labels, *, where: str = "right", **kwargs):
    from matplotlib.transforms import ScaledTranslation

    shift = ScaledTranslation(0.0, -34 / 72, ax.figure.dpi_scale_trans)  # below the tick labels and x label
    if where == "below":
        options = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "bbox_transform": ax.transAxes + shift,
                   "ncol": min(len(handles), 3)}
    elif where == "right_twin":  # past the twin's tick labels and label
        options = {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0),
                   "bbox_transform": ax.transAxes + ScaledTranslation(48 / 72, 0.0, ax.figure.dpi_scale_trans)}
    else:
        options = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
    options.update(kwargs)
    return ax.legend(handles, labels, fontsize=MIN_FONT, frameon=False, **options)


def set_legend_columns(ax, columns: int) -> None:
    """Rebuild ``ax``'s legend below the panel (where :func:`_legend` placed it) in ``columns`` columns, when
    it has another number: a legend below a narrow panel in one column, not wider than it;
    ``columns=0`` hides it (another panel's legend says the same)."""
    legend = ax.get_legend()
    if legend is None or getattr(legend, "_irnb_columns", None) == columns:
        return
    if columns == 0:  # the same entries as another panel's legend
        legend.set_visible(False)
    else:
        handles = legend._irnb_handles  # _legend updates the words in place while these stay
        labels = [t.get_text() for t in legend.get_texts()]
        legend.remove()
        legend = _outside_legend(ax, handles, labels, where="below", ncol=columns)
        legend._irnb_handles = handles
    legend._irnb_columns = columns


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
            "marker": _MARKERS[(index + index // len(PALETTE)) % len(_MARKERS)],
            "linestyle": _LINESTYLES[index % len(_LINESTYLES)]}


def measure_label(name: str) -> str:
    """A measure's name as the figures print it: the papers' symbol where they have one
    (``Judged@k`` is Assessment Precision A_p@k, Baillie et al. 2007 §2.1), else the name.

    >>> measure_label("Judged@20"), measure_label("Judged"), measure_label("P@20")
    ('A_p@20', 'A_p', 'P@20')
    """
    family, at, depth = str(name).partition("@")
    return f"A_p{at}{depth}" if family == "Judged" else str(name)


def _array(values, name: str, plot: str, length: int | None = None) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or (length is not None and array.shape[0] != length):
        want = "a 1-d array" if length is None else f"{length} values"
        raise ValueError(f"{plot}: {name} must be {want}, got shape {array.shape}")
    return array


def _estimator_key(estimator: str, plot: str) -> str:
    """:func:`irnb.intervals._estimator_key` ("S", "X_S" or "simplistic" → "S"), its error
    prefixed with the plot's name."""
    try:
        return _intervals_estimator_key(estimator)
    except ValueError:
        raise ValueError(f"{plot}: estimator must be one of S, B, I, M (or X_S …, or a name such as 'smoothed'), "
                         f"got {estimator!r}") from None


def estimate_label(estimates, estimator: str) -> str:
    """The legend label of a point estimator with the parameters it uses, e.g.
    ``X_M (smoothed, E = 0.01, λ = 1 − Δ)``; ``estimates`` is a
    :class:`~irnb.intervals.PointEstimates` (its E and λ), or None for the name alone.

    >>> estimate_label(None, "B")
    'X_B (background)'
    """
    key = _estimator_key(estimator, "estimate_label")
    parts = [ESTIMATORS[key]]
    if estimates is not None and key != "S":
        parts.append(f"E = {estimates.background_rate:g}")
        if key == "M":
            lam = estimates.smoothing
            parts.append("λ = 1 − Δ" if lam == "auto" else f"λ = {lam:g}")
    return f"X_{key} ({', '.join(parts)})"


def _thin(positions: np.ndarray, labels: Sequence[str], most: int | None) -> tuple[np.ndarray, list[str]]:
    """Every m-th tick when there are more than ``most`` labels (readable, and each label
    costs a text layout on every redraw)."""
    labels = list(labels)
    if most is None or len(labels) <= most:
        return positions, labels
    step = -(-len(labels) // most)
    return positions[::step], labels[::step]


def _run_position(names: Sequence[str], run: str, plot: str) -> int:
    names = list(names)
    if run not in names:
        import difflib

        close = difflib.get_close_matches(str(run), names, n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"{plot}: unknown run {run!r}{hint}")
    return names.index(run)


# =============================================================================== intervals
def _init_rows(ax) -> None:
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    segments = _tag(LineCollection([], colors=PALETTE[0], linewidths=3, alpha=0.55, capstyle="butt",
                                   label="[B, T]"), "intervals")
    ax.add_collection(segments)
    ax.add_line(_tag(Line2D([], [], linestyle="none", marker="o", markersize=5, color=PALETTE[1],
                            label="estimate"), "estimate"))
    ax.add_line(_tag(Line2D([], [], linestyle="none", marker="D", markersize=5, markerfacecolor="none",
                            markeredgecolor="black", label="true score"), "truth"))
    ax.grid(axis="x", alpha=0.3)


def _set_rows(ax, labels: Sequence[str], lower: np.ndarray, upper: np.ndarray, point: np.ndarray | None,
              truth: np.ndarray | None, *, point_label: str, plot: str, top: int | None,
              max_labels: int | None = None) -> np.ndarray:
    """Rows sorted by the point estimate (B when there is none), best on top; returns the
    order used (indices into ``labels``)."""
    segments = _role(ax, "intervals", plot)
    estimate = _role(ax, "estimate", plot)
    true_line = _role(ax, "truth", plot)
    key = point if point is not None else lower
    order = np.lexsort((np.arange(key.size), -key))  # best first, ties in input order
    if top is not None:
        order = order[:top]
    n = order.size
    y = np.arange(n, dtype=np.float64)
    segments.set_segments(np.stack([np.column_stack([lower[order], y]), np.column_stack([upper[order], y])], axis=1)
                          if n else [])
    estimate.set_visible(point is not None)
    estimate.set_data(point[order] if point is not None else [], y if point is not None else [])
    estimate.set_label(point_label)
    true_line.set_visible(truth is not None)
    true_line.set_data(truth[order] if truth is not None else [], y if truth is not None else [])
    ax.set_yticks(*_thin(y, [labels[i] for i in order], max_labels), fontsize=MIN_FONT)
    ax.set_ylim(n - 0.5, -0.5)
    hi = max([1e-9] + [float(np.nanmax(a[order])) for a in (upper, point, truth) if a is not None and n])
    ax.set_xlim(0.0, min(1.03, hi * 1.05) if hi <= 1.0 else hi * 1.05)
    _legend(ax, [segments, estimate, true_line], where="below")
    return order


def intervals_plot(intervals, *, estimates=None, estimator: str = "M", truth=None,
                   runs: Sequence[str] | None = None, top: int | None = None, ax=None):
    """Per-run score intervals: each run's mean [B, T] over its evaluated topics, sorted by
    the chosen point estimate (by B without one), best at the top.

    ``intervals``: :class:`~irnb.intervals.ScoreIntervals`; ``estimates``: optional
    :class:`~irnb.intervals.PointEstimates` and ``estimator`` which of them (S, B, I, M);
    ``truth``: optional (S,) true mean scores (e.g. ``evaluate(exp, m, truth=True).aggregate(m)``);
    ``runs``: the run names to show (default all); ``top``: show only the best ``top``.
    """
    ax = _axes(ax, (7.0, 6.0))
    _init_rows(ax)
    return update_intervals_plot(ax, intervals, estimates=estimates, estimator=estimator, truth=truth,
                                 runs=runs, top=top)


def update_intervals_plot(ax, intervals, *, estimates=None, estimator: str = "M", truth=None,
                          runs: Sequence[str] | None = None, top: int | None = None):
    """:func:`intervals_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_intervals_plot"
    names = list(intervals.run_names)
    lower, upper = intervals.mean_lower, intervals.mean_upper
    point, label = None, "estimate"
    if estimates is not None:
        key = _estimator_key(estimator, plot)
        point = estimates.means()[f"X_{key}"].to_numpy()
        label = estimate_label(estimates, key)
    true = None if truth is None else _array(truth, "truth", plot, len(names))
    keep = np.arange(len(names)) if runs is None else np.asarray(
        [_run_position(names, r, plot) for r in runs], dtype=np.int64)
    _set_rows(ax, [names[i] for i in keep], lower[keep], upper[keep],
                      None if point is None else point[keep], None if true is None else true[keep],
                      point_label=label, plot=plot, top=top)
    ax.set_xlabel(f"{intervals.measure.name}, mean over topics")
    ax.set_title(f"[B, T] per run — {intervals.pool}", fontsize="medium", y=1.0)
    return ax


def topic_intervals_plot(intervals, run: str, *, estimates=None, estimator: str = "M", truth=None, ax=None):
    """Per-topic [B, T] of one run, sorted by the point estimate (by B without one); only
    the topics evaluated for the run. ``truth``: optional (S, T) true per-topic scores."""
    ax = _axes(ax, (6.0, 7.0))
    _init_rows(ax)
    return update_topic_intervals_plot(ax, intervals, run, estimates=estimates, estimator=estimator, truth=truth)


def update_topic_intervals_plot(ax, intervals, run: str, *, estimates=None, estimator: str = "M", truth=None):
    """:func:`topic_intervals_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_topic_intervals_plot"
    s = _run_position(intervals.run_names, run, plot)
    keep = np.flatnonzero(intervals.evaluated[s])
    topics = [intervals.topics[t] for t in keep]
    point, label = None, "estimate"
    if estimates is not None:
        key = _estimator_key(estimator, plot)
        point = np.asarray(estimates.get(key))[s, keep]
        label = estimate_label(estimates, key)
    true = None
    if truth is not None:
        truth = np.asarray(truth, dtype=np.float64)
        if truth.shape != intervals.lower.shape:
            raise ValueError(f"{plot}: truth must be an (S, T) array of shape {intervals.lower.shape}, "
                             f"got {truth.shape}")
        true = truth[s, keep]
    _set_rows(ax, topics, intervals.lower[s, keep], intervals.upper[s, keep], point, true,
                      point_label=label, plot=plot, top=None, max_labels=_TOPIC_LABELS)
    ax.set_xlabel(intervals.measure.name)
    ax.set_ylabel("topic")
    ax.set_title(f"[B, T] per topic — {run}", fontsize="medium", y=1.0)
    return ax


# =============================================================================== decision matrix
def procedure_caption(table: pd.DataFrame) -> str | None:
    """What produced a decision table, from its ``.attrs`` (set by :mod:`irnb.decision`):
    the test with its correction and α, e.g. ``one-way ANOVA + Bonferroni multiple
    comparisons, α = 0.05``; None for a table without them."""
    return getattr(table, "attrs", {}).get("procedure")


def _with_caption(title: str, table: pd.DataFrame) -> str:
    caption = procedure_caption(table)
    return title if caption is None else f"{title}\n{caption}"


def _case_legend(ax) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from .decision import STRENGTH

    handles, labels = [], []
    for case, text in _CASE_SHORT.items():
        patch = Patch(facecolor=CASE_COLOURS[case], edgecolor="none")
        if STRENGTH[case] == "weak":
            patch = (patch, Line2D([], [], linestyle="none", marker="x", color="black", markersize=5))
        handles.append(patch)
        labels.append(f"{case} {STRENGTH[case]}: {text}")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=MIN_FONT, frameon=False)


def case_matrix_plot(matrix: pd.DataFrame, *, order: Sequence[str] | None = None, title: str | None = None, ax=None):
    """The decision matrix as a run × run heatmap of cases 1–4 (from
    :func:`irnb.decision.case_matrix`); weak cases (2, 4) carry an ×, the diagonal is grey.

    ``order``: the runs to show, in this order (default: the matrix's); pick the top N by
    score for large experiments. Without ``title``, a matrix carrying
    :func:`irnb.decision.compare_table`'s ``.attrs`` is titled with its measures, test and α.
    """
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.lines import Line2D

    ax = _axes(ax, (8.0, 6.5))
    cmap = ListedColormap([CASE_COLOURS[c] for c in (1, 2, 3, 4)]).with_extremes(bad=_MISSING)
    norm = BoundaryNorm([0.5, 1.5, 2.5, 3.5, 4.5], cmap.N)
    _tag(ax.imshow(np.full((1, 1), np.nan), cmap=cmap, norm=norm, interpolation="nearest", aspect="equal"), "cases")
    ax.add_line(_tag(Line2D([], [], linestyle="none", marker="x", color="black", markeredgewidth=0.8), "weak"))
    _case_legend(ax)
    return update_case_matrix_plot(ax, matrix, order=order, title=title)


def update_case_matrix_plot(ax, matrix: pd.DataFrame, *, order: Sequence[str] | None = None,
                            title: str | None = None):
    """:func:`case_matrix_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_case_matrix_plot"
    image = _role(ax, "cases", plot)
    weak = _role(ax, "weak", plot)
    runs = list(matrix.index) if order is None else list(order)
    missing = [r for r in runs if r not in matrix.index]
    if missing:
        raise ValueError(f"{plot}: order names runs the matrix lacks: {missing[:5]}")
    values = matrix.loc[runs, runs].to_numpy(dtype=np.float64)
    n = len(runs)
    image.set_data(np.ma.masked_invalid(values) if n else np.ma.masked_all((1, 1)))
    image.set_extent((-0.5, max(n, 1) - 0.5, max(n, 1) - 0.5, -0.5))
    rows, cols = np.nonzero(np.isin(values, (2, 4)))
    weak.set_data(cols, rows)
    weak.set_markersize(max(2.0, min(8.0, 160.0 / max(n, 1))))
    size = MIN_FONT
    ax.set_xticks(np.arange(n), runs, rotation=90, fontsize=size)
    ax.set_yticks(np.arange(n), runs, fontsize=size)
    ax.set_xlim(-0.5, max(n, 1) - 0.5)
    ax.set_ylim(max(n, 1) - 0.5, -0.5)
    ax.set_xlabel("s₂")
    ax.set_ylabel("s₁")
    about = getattr(matrix, "attrs", {})
    if title is None and "procedure" in about:
        title = f"{about.get('measure', '')} with {measure_label(about.get('assessment', ''))}\n{about['procedure']}"
    if title is not None:
        ax.set_title(title, fontsize="medium", y=1.0)
    return ax


def _proportion_grid(table: pd.DataFrame, setting, plot: str) -> tuple[list[str], list[int], np.ndarray, str]:
    if not isinstance(table.columns, pd.MultiIndex) or list(table.columns.names) != ["measure", "case"]:
        raise ValueError(f"{plot}: expected the table of irnb.decision.case_proportions (columns measure × case), "
                         f"got columns {list(table.columns)[:4]}")
    settings = list(table.index)
    if not settings:
        raise ValueError(f"{plot}: the table has no setting (row)")
    if setting is None:
        setting = settings[0]
    elif setting not in settings:
        raise ValueError(f"{plot}: unknown setting {setting!r}; the table has {settings}")
    measures = list(dict.fromkeys(table.columns.get_level_values("measure")))
    cases = sorted(set(int(c) for c in table.columns.get_level_values("case")))
    row = table.loc[setting]
    grid = np.array([[float(row.get((m, c), np.nan)) for c in cases] for m in measures])
    return measures, cases, grid, str(setting)


def case_proportions_plot(table: pd.DataFrame, *, setting=None, ax=None):
    """Baillie et al.'s Table 1 as a heatmap: measurement depth (P@10 … AP) × case, each
    cell the proportion of run pairs in that case, printed in the cell. ``table`` is
    :func:`irnb.decision.case_proportions`; ``setting`` picks its row (default the first).
    The title names the test and α, and each row label its assessment measure, from the
    table's ``.attrs``."""
    ax = _axes(ax, (5.0, 4.0))
    _tag(ax.imshow(np.zeros((1, 1)), cmap="cividis", vmin=0.0, vmax=1.0, aspect="auto",
                   interpolation="nearest"), "proportions")
    return update_case_proportions_plot(ax, table, setting=setting)


def update_case_proportions_plot(ax, table: pd.DataFrame, *, setting=None):
    """:func:`case_proportions_plot` on an Axes that already holds one: artists updated in place."""
    from .decision import STRENGTH

    plot = "update_case_proportions_plot"
    image = _role(ax, "proportions", plot)
    measures, cases, grid, setting = _proportion_grid(table, setting, plot)
    image.set_data(grid)
    image.set_extent((-0.5, len(cases) - 0.5, len(measures) - 0.5, -0.5))
    labels = {role: a for role, a in artists(ax).items() if role.startswith("label:")}
    wanted = {f"label:{i}:{j}" for i in range(len(measures)) for j in range(len(cases))}
    if set(labels) != wanted:
        for a in labels.values():
            a.remove()
        labels = {f"label:{i}:{j}": _tag(ax.text(j, i, "", ha="center", va="center", fontsize=MIN_FONT),
                                         f"label:{i}:{j}") for i in range(len(measures)) for j in range(len(cases))}
    for i in range(len(measures)):
        for j in range(len(cases)):
            value = grid[i, j]
            text = labels[f"label:{i}:{j}"]
            text.set_text("–" if np.isnan(value) else f"{value:.2f}")
            text.set_color("black" if np.isnan(value) or value > 0.55 else "white")
    ax.set_xticks(np.arange(len(cases)), [f"case {c}\n{STRENGTH.get(c, '')}" for c in cases], fontsize=MIN_FONT)
    pairing = getattr(table, "attrs", {}).get("pairing", {})
    ax.set_yticks(np.arange(len(measures)),
                  [f"{m} · {measure_label(pairing[m])}" if m in pairing else m for m in measures], fontsize=MIN_FONT)
    ax.set_xlim(-0.5, len(cases) - 0.5)
    ax.set_ylim(len(measures) - 0.5, -0.5)
    title = _with_caption(f"share of run pairs per case\n{setting}", table)
    ax.set_title("\n".join(textwrap.fill(line, 44) for line in title.split("\n")), fontsize="medium", y=1.0)
    return ax


# =============================================================================== bias
def _measure_names(result, measures, plot: str) -> list[str]:
    names = [m.name for m in result.measures]
    if measures is None:
        return names
    from .measures import parse_measure

    wanted = [parse_measure(m).name for m in ([measures] if isinstance(measures, str) else measures)]
    missing = [m for m in wanted if m not in names]
    if missing:
        raise ValueError(f"{plot}: the result has no {missing}; it has {names}")
    return wanted


def _series_line(ax, role: str, index: int, *, marker: bool = True, linestyle: str = "none", label: str = ""):
    """The Line2D of ``role`` on ``ax``, created on first use (colour and marker by index)."""
    from matplotlib.lines import Line2D

    found = artists(ax).get(role)
    if found is None:
        found = _tag(Line2D([], [], linestyle=linestyle, marker=_MARKERS[index % len(_MARKERS)] if marker else None,
                            markersize=5, color=PALETTE[index % len(PALETTE)], label=label), role)
        ax.add_line(found)
    return found


def bias_plot(result, *, measures: Sequence[str] | None = None, value: str = "rank", ax=None):
    """Büttcher et al.'s bias picture: for every left-out run (x: its reference rank, 1 =
    best), its rank change (``value="rank"``, + = moved up) or score change
    (``value="score"``, reduced − reference) under each measure — AP falls for runs that
    did not contribute, bpref rises. ``result`` is a :class:`~irnb.bias.BiasResult`;
    ``measures`` picks some of its measures (default all)."""
    ax = _axes(ax, (7.0, 4.5))
    _tag(ax.axhline(0.0, color="grey", linewidth=0.8), "zero")
    ax.grid(alpha=0.3)
    return update_bias_plot(ax, result, measures=measures, value=value)


def update_bias_plot(ax, result, *, measures: Sequence[str] | None = None, value: str = "rank"):
    """:func:`bias_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_bias_plot"
    if value not in ("rank", "score"):
        raise ValueError(f"{plot}: value must be 'rank' or 'score', got {value!r}")
    _role(ax, "zero", plot)
    names = _measure_names(result, measures, plot)
    left_out = np.asarray(result.left_out, dtype=bool)
    change = result.rank_change if value == "rank" else result.reduced_score - result.reference_score
    lines = []
    for i, name in enumerate(m.name for m in result.measures):
        line = _series_line(ax, f"bias:{name}", i, label=name)
        line.set_visible(name in names)
        line.set_data(result.reference_rank[i, left_out], change[i, left_out])
        if name in names:
            lines.append(line)
    for role, line in artists(ax).items():  # measures of an earlier result that this one lacks
        if role.startswith("bias:") and role[5:] not in [m.name for m in result.measures]:
            line.set_visible(False)
    ax.relim(visible_only=True)
    ax.autoscale_view()
    ax.set_xlabel("reference rank of the left-out run (1 = best)")
    ax.set_ylabel("rank change (+ = moved up)" if value == "rank" else "score change (reduced − reference)")
    ax.set_title(f"{value} change of the left-out runs\n" + textwrap.fill(result.description, 70),
                 fontsize=MIN_FONT, y=1.0)
    _legend(ax, lines, where="below")
    return ax


def tau_depth_plot(results: Mapping[int, Any], *, value: str = "kendall_tau", current: int | None = None, ax=None):
    """Kendall's τ between the full and the reduced system rankings against pool depth d,
    one line per measure. ``results`` maps d to the :class:`~irnb.bias.BiasResult` at
    that depth (e.g. ``leave_one_group_out_bias(exp, depth=d)`` for several d);
    ``value`` is ``kendall_tau``, ``tau_ap`` or ``kendall_tau_left_out``; ``current``
    marks one depth with a vertical line."""
    ax = _axes(ax, (6.0, 4.0))
    _tag(ax.axvline(np.nan, color="grey", linestyle=":", linewidth=1.0), "current")
    ax.set_xscale("log")
    plain_log_axis(ax.xaxis)
    ax.grid(alpha=0.3)
    return update_tau_depth_plot(ax, results, value=value, current=current)


def update_tau_depth_plot(ax, results: Mapping[int, Any], *, value: str = "kendall_tau", current: int | None = None):
    """:func:`tau_depth_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_tau_depth_plot"
    if value not in ("kendall_tau", "tau_ap", "kendall_tau_left_out"):
        raise ValueError(f"{plot}: value must be 'kendall_tau', 'tau_ap' or 'kendall_tau_left_out', got {value!r}")
    marker = _role(ax, "current", plot)
    if not results:
        raise ValueError(f"{plot}: results must map at least one pool depth to a BiasResult, got none")
    depths = sorted(results)
    names = [m.name for m in results[depths[0]].measures]
    lines = []
    for i, name in enumerate(names):
        line = _series_line(ax, f"tau:{name}", i, linestyle="-", label=name)
        ys = [float(getattr(results[d], value)[[m.name for m in results[d].measures].index(name)]) for d in depths]
        line.set_data(np.asarray(depths, dtype=np.float64), np.asarray(ys))
        line.set_visible(True)
        lines.append(line)
    for role, line in artists(ax).items():
        if role.startswith("tau:") and role[4:] not in names:
            line.set_visible(False)
    marker.set_xdata([np.nan, np.nan] if current is None else [current, current])
    ax.relim(visible_only=True)
    ax.autoscale_view()
    ax.set_xlabel("pool depth d")
    ax.set_ylabel({"kendall_tau": "Kendall's τ", "tau_ap": "τ_AP",
                   "kendall_tau_left_out": "Kendall's τ (left-out runs)"}[value])
    ax.set_title("full versus reduced ranking", fontsize="medium", y=1.0)
    _legend(ax, lines, where="below")
    return ax


# =============================================================================== unjudged documents
def _twin(ax):
    others = _twins(ax)[1:]
    return others[0] if others else ax.twinx()


def unjudged_plot(table: pd.DataFrame, *, run_a: str = "run a", run_b: str = "run b", measure: str = "P@k",
                  ax=None):
    """The thesis chapter's Fig. 7.1: per topic (x, ordered by run b's unjudged count), the
    unjudged documents in the top k of runs a and b and their overlap (left axis), and the
    score difference b − a (right axis). ``table`` is
    :func:`irnb.pooling.unjudged_overlap`; only topics both runs answered are shown."""
    from matplotlib.lines import Line2D

    ax = _axes(ax, (9.0, 4.0))
    for role, marker, colour in (("unjudged_a", "o", PALETTE[0]), ("unjudged_b", "s", PALETTE[1]),
                                 ("overlap", "x", "black")):
        ax.add_line(_tag(Line2D([], [], linestyle="none", marker=marker, markersize=4, color=colour), role))
    twin = _twin(ax)
    _tag(twin.axhline(0.0, color=PALETTE[3], linewidth=0.6, linestyle=":"), "difference_zero")
    twin.add_line(_tag(Line2D([], [], color=PALETTE[3], linewidth=1.2), "difference"))
    return update_unjudged_plot(ax, table, run_a=run_a, run_b=run_b, measure=measure)


def update_unjudged_plot(ax, table: pd.DataFrame, *, run_a: str = "run a", run_b: str = "run b",
                         measure: str = "P@k"):
    """:func:`unjudged_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_unjudged_plot"
    need = {"topic", "unjudged_a", "unjudged_b", "overlap", "score_difference", "evaluated"}
    if not need <= set(table.columns):
        raise ValueError(f"{plot}: expected the table of irnb.pooling.unjudged_overlap with columns {sorted(need)}, "
                         f"got {list(table.columns)}")
    found = artists(ax)
    for role in ("unjudged_a", "unjudged_b", "overlap", "difference"):
        if role not in found:
            _role(ax, role, plot)
    rows = table[table["evaluated"].to_numpy(bool)]
    rows = rows.iloc[np.argsort(rows["unjudged_b"].to_numpy(), kind="stable")]
    x = np.arange(len(rows), dtype=np.float64)
    found["unjudged_a"].set_data(x, rows["unjudged_a"].to_numpy(np.float64))
    found["unjudged_a"].set_label(f"unjudged — {run_a}")
    found["unjudged_b"].set_data(x, rows["unjudged_b"].to_numpy(np.float64))
    found["unjudged_b"].set_label(f"unjudged — {run_b}")
    found["overlap"].set_data(x, rows["overlap"].to_numpy(np.float64))
    found["overlap"].set_label("unjudged in both")
    found["difference"].set_data(x, rows["score_difference"].to_numpy(np.float64))
    found["difference"].set_label(f"Δ {measure} ({run_b} − {run_a})")
    twin = found["difference"].axes
    top = max(1.0, float(rows[["unjudged_a", "unjudged_b"]].to_numpy().max(initial=0)))
    ax.set_ylim(-0.02 * top, top * 1.08)
    spread = max(0.05, float(np.abs(rows["score_difference"].to_numpy()).max(initial=0)))
    twin.set_ylim(-spread * 1.1, spread * 1.1)
    ax.set_xlim(-0.5, max(len(rows), 1) - 0.5)
    ax.set_xticks(*_thin(x, rows["topic"].tolist(), _TOPIC_LABELS), rotation=90, fontsize=MIN_FONT)
    ax.set_xlabel(f"topic (ordered by unjudged documents of {run_b})")
    ax.set_ylabel("unjudged documents in the top k")
    twin.set_ylabel(f"Δ {measure}", color=PALETTE[3])
    _legend(ax, [found["unjudged_a"], found["unjudged_b"], found["overlap"], found["difference"]],
            where="right_twin")
    return ax


def simulated_precision_plot(topics: Sequence[str], unjudged, original, simulated, *, run: str = "",
                             estimator: str = "I", measure: str = "P@k", estimates=None, truth=None, ax=None):
    """The thesis chapter's Fig. 7.2: per topic (ordered by the original score), the
    unjudged documents in the top k (left axis), the original score (unjudged =
    non-relevant, B = X_S; dashed) and the simulated one (solid; X_I is the thesis's
    simulated precision: judged-relevant / judged in the top k). All arrays have one value
    per topic: e.g. ``unjudged_overlap(...)["unjudged_b"]``, ``intervals.lower[s]`` and
    ``estimates.interpolated[s]``; ``estimates`` (the
    :class:`~irnb.intervals.PointEstimates`) puts its E and λ in the legend; ``truth`` (the
    true score per topic, when known) draws it as black diamonds, in the same legend."""
    from matplotlib.lines import Line2D

    ax = _axes(ax, (9.0, 4.0))
    ax.add_line(_tag(Line2D([], [], linestyle="none", marker="o", markersize=4, color=PALETTE[5]), "unjudged"))
    twin = _twin(ax)
    twin.add_line(_tag(Line2D([], [], color=PALETTE[0], linestyle="--", linewidth=1.2), "original"))
    twin.add_line(_tag(Line2D([], [], color=PALETTE[1], linewidth=1.4), "simulated"))
    twin.add_line(_tag(Line2D([], [], linestyle="none", marker="d", markersize=4, color="black"), "truth"))
    return update_simulated_precision_plot(ax, topics, unjudged, original, simulated, run=run, estimator=estimator,
                                           measure=measure, estimates=estimates, truth=truth)


def update_simulated_precision_plot(ax, topics: Sequence[str], unjudged, original, simulated, *, run: str = "",
                                    estimator: str = "I", measure: str = "P@k", estimates=None, truth=None):
    """:func:`simulated_precision_plot` on an Axes that already holds one: in place."""
    plot = "update_simulated_precision_plot"
    topics = list(topics)
    unjudged = _array(unjudged, "unjudged", plot, len(topics))
    original = _array(original, "original", plot, len(topics))
    simulated = _array(simulated, "simulated", plot, len(topics))
    key = _estimator_key(estimator, plot)
    found = {role: _role(ax, role, plot) for role in ("unjudged", "original", "simulated")}
    order = np.lexsort((np.arange(len(topics)), original))  # increasing original score
    x = np.arange(len(topics), dtype=np.float64)
    found["unjudged"].set_data(x, unjudged[order])
    found["unjudged"].set_label("unjudged in the top k")
    found["original"].set_data(x, original[order])
    found["original"].set_label(f"original {measure} (X_S)")
    found["simulated"].set_data(x, simulated[order])
    found["simulated"].set_label(f"simulated {measure}: " + estimate_label(estimates, key))
    true_line = artists(ax).get("truth")
    if true_line is not None:  # drawn by simulated_precision_plot (an Axes from an older irnb has none)
        true_line.set_visible(truth is not None)
        true_line.set_data(*(([], []) if truth is None else (x, _array(truth, "truth", plot, len(topics))[order])))
        true_line.set_label(f"true {measure}")
    twin = found["original"].axes
    ax.set_ylim(-0.5, max(1.0, float(unjudged.max(initial=0))) * 1.08)
    twin.set_ylim(0.0, 1.02)
    ax.set_xlim(-0.5, max(len(topics), 1) - 0.5)
    ax.set_xticks(*_thin(x, [topics[i] for i in order], _TOPIC_LABELS), rotation=90, fontsize=MIN_FONT)
    ax.set_xlabel(f"topic (ordered by original {measure})")
    ax.set_ylabel("unjudged documents in the top k")
    twin.set_ylabel(measure)
    ax.set_title(f"original versus simulated {measure}" + (f" — {run}" if run else ""), fontsize="medium", y=1.0)
    _legend(ax, [found["unjudged"], found["original"], found["simulated"]]
            + ([true_line] if true_line is not None else []), where="right_twin")
    return ax


# =============================================================================== static-only plots
def depth_curves_plot(curves: pd.DataFrame, *, ax=None):
    """Baillie et al.'s Fig. 2 / IP&M Fig. 11: a pair's measure (solid) and assessment
    (dashed) means across measurement depths with their confidence intervals (shaded),
    the pair's decision-matrix case written above each depth. ``curves`` is
    :func:`irnb.decision.depth_curves`; its test and α (``.attrs``) go in the title."""
    need = {"depth", "kind", "measure", "run", "mean", "lower", "upper", "case"}
    if not need <= set(curves.columns):
        raise ValueError(f"depth_curves_plot: expected the table of irnb.decision.depth_curves with columns "
                         f"{sorted(need)}, got {list(curves.columns)}")
    ax = _axes(ax, (6.5, 4.5))
    runs = list(dict.fromkeys(curves["run"]))
    for i, run in enumerate(runs):
        for kind, style in (("measure", "-"), ("assessment", "--")):
            rows = curves[(curves["run"] == run) & (curves["kind"] == kind)].sort_values("depth")
            if rows.empty:
                continue
            family = str(rows["measure"].iloc[0]).split("@")[0]
            x = rows["depth"].to_numpy(np.float64)
            ax.fill_between(x, rows["lower"].to_numpy(np.float64), rows["upper"].to_numpy(np.float64),
                            color=PALETTE[i % len(PALETTE)], alpha=0.15, linewidth=0)
            _tag(ax.plot(x, rows["mean"].to_numpy(np.float64), linestyle=style, marker=_MARKERS[i],
                         color=PALETTE[i % len(PALETTE)], label=f"{measure_label(family)}@k — {run}")[0],
                 f"{kind}:{run}")
    from matplotlib.transforms import blended_transform_factory

    cases = curves.drop_duplicates("depth").sort_values("depth")
    transform = blended_transform_factory(ax.transData, ax.transAxes)
    for depth, case in zip(cases["depth"], cases["case"], strict=True):
        ax.text(depth, 1.01, f"case {int(case)}", transform=transform, ha="center", va="bottom", fontsize=MIN_FONT)
    ax.set_xscale("log")
    depths = cases["depth"].to_numpy()
    plain_log_axis(ax.xaxis)
    ax.set_xticks(depths, [str(int(d)) for d in depths])
    ax.set_xlabel("measurement depth k")
    ax.set_ylabel("mean over topics")
    caption = procedure_caption(curves)
    if caption is not None:  # above the case labels
        ax.set_title(f"cases by {caption}", fontsize=MIN_FONT, y=1.06)
    ax.grid(alpha=0.3)
    _outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def ranked_runs_plot(means: pd.DataFrame, *, measure: str, assessment: str, ax=None):
    """IP&M Figs 5–10 and 12: every run ranked by ``measure`` (best first) with its
    assessment value (e.g. A_p@k = ``Judged@k``, labelled A_p@k: :func:`measure_label`). ``means``
    is a run × measure table such as ``Evaluation.means()``; ``measure`` and ``assessment`` name
    two of its columns."""
    for name in (measure, assessment):
        if name not in means.columns:
            raise ValueError(f"ranked_runs_plot: the table has no column {name!r}; columns: {list(means.columns)}")
    ax = _axes(ax, (8.0, 4.0))
    score = means[measure].to_numpy(np.float64)
    order = np.lexsort((np.arange(score.size), -score))
    x = np.arange(1, score.size + 1, dtype=np.float64)
    _tag(ax.plot(x, score[order], marker="o", markersize=3, linestyle="-", color=PALETTE[0], label=measure)[0],
         "measure")
    _tag(ax.plot(x, means[assessment].to_numpy(np.float64)[order], marker="s", markersize=3, linestyle="none",
                 color=PALETTE[1], label=measure_label(assessment))[0], "assessment")
    ax.set_xlabel(f"runs ranked by {measure}")
    ax.set_ylabel("mean over topics")
    ax.set_ylim(0.0, 1.02)
    ax.grid(alpha=0.3)
    # every run is drawn; at most 40 are named (every m-th rank beyond: the table has the rest)
    ax.set_xticks(*_thin(x, [str(means.index[i]) for i in order], 40), rotation=90, fontsize=MIN_FONT)
    _outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def background_rate_plot(fit, *, truth: float | None = None, ax=None):
    """Ravana & Moffat's Fig. 1: the fraction of judged documents that are relevant
    against the number of contributing runs that pooled them (filled: points in the fit),
    the fitted polynomial, and E read at zero runs (the legend gives the unclipped
    reading when the fit leaves [0, 1]). ``fit`` is
    :class:`~irnb.intervals.BackgroundRateFit`; ``truth`` (e.g.
    :func:`irnb.intervals.true_background_rate`) draws the true rate at zero runs beside
    the estimate."""
    ax = _axes(ax, (6.0, 4.0))
    x = np.asarray(fit.num_runs, dtype=np.float64)
    frac = np.asarray(fit.fraction, dtype=np.float64)
    in_fit = np.asarray(fit.in_fit, dtype=bool)
    _tag(ax.plot(x[in_fit], frac[in_fit], linestyle="none", marker="o", color=PALETTE[0],
                 label="fraction relevant")[0], "fraction")
    _tag(ax.plot(x[~in_fit], frac[~in_fit], linestyle="none", marker="o", markerfacecolor="none",  # no points:
                 color=PALETTE[0], label="not in the fit" if (~in_fit).any() else "_nolegend_")[0], "outside")
    grid = np.linspace(0.0, float(x.max(initial=1.0)), 200)
    _tag(ax.plot(grid, fit.fitted(grid), color=PALETTE[1], label=f"degree-{fit.degree} fit")[0], "fit")
    label = f"E = {fit.rate:.3f}"
    if fit.intercept != fit.rate:
        label += f" (fit {fit.intercept:.3f}, clipped)"
    _tag(ax.plot([0.0], [fit.rate], linestyle="none", marker="*", markersize=12, color=PALETTE[2],
                 label=label)[0], "rate")
    if truth is not None:
        truth = float(truth)
        if not 0.0 <= truth <= 1.0:
            raise ValueError(f"background_rate_plot: truth must be a rate in [0, 1], got {truth!r}")
        _tag(ax.plot([0.0], [truth], linestyle="none", marker="D", markersize=8, markerfacecolor="none",
                     color=PALETTE[3 % len(PALETTE)], label=f"true rate {truth:.3f}")[0], "truth")
    ax.set_xlabel(f"contributing runs with the document in their top {fit.depth}")
    ax.set_ylabel("fraction of judged documents relevant")
    ax.set_ylim(bottom=min(0.0, float(np.min(fit.fitted(grid))) if fit.intercept < 0 else 0.0))
    ax.grid(alpha=0.3)
    _outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def separability_plot(table: pd.DataFrame, *, measure: str | None = None, run_set: str | None = None, ax=None):
    """Ravana & Moffat's Fig. 2: the fraction of run pairs separable (t-test p < α) against
    the number of judgments, one line per (measure, run set, estimator); colour =
    estimator, line style = run set. ``table`` is ``BudgetTests.separability()``;
    ``measure`` / ``run_set`` keep one of each."""
    need = {"measure", "run_set", "estimator", "budget", "fraction"}
    if not need <= set(table.columns):
        raise ValueError(f"separability_plot: expected BudgetTests.separability() columns {sorted(need)}, "
                         f"got {list(table.columns)}")
    rows = table
    for column, wanted in (("measure", measure), ("run_set", run_set)):
        if wanted is not None:
            from .measures import parse_measure

            wanted = parse_measure(wanted).name if column == "measure" else wanted
            if wanted not in set(rows[column]):
                raise ValueError(f"separability_plot: no {column} {wanted!r}; the table has "
                                 f"{sorted(set(rows[column]))}")
            rows = rows[rows[column] == wanted]
    ax = _axes(ax, (6.5, 4.5))
    estimators = list(dict.fromkeys(rows["estimator"]))
    measures = list(dict.fromkeys(rows["measure"]))
    styles = {s: st for s, st in zip(dict.fromkeys(rows["run_set"]), ("-", "--", ":", "-."), strict=False)}
    for (m, s, e), part in rows.groupby(["measure", "run_set", "estimator"], sort=False):
        part = part.sort_values("budget")
        _tag(ax.plot(part["budget"].to_numpy(np.float64), part["fraction"].to_numpy(np.float64),
                     color=PALETTE[estimators.index(e) % len(PALETTE)], linestyle=styles[s],
                     marker=_MARKERS[measures.index(m) % len(_MARKERS)], markersize=4,
                     label=f"{m}, {e}, {s}")[0], f"separability:{m}:{s}:{e}")
    ax.set_xscale("log")
    plain_log_axis(ax.xaxis)
    ax.set_xlabel("judgments")
    ax.set_ylabel("fraction of run pairs separable")
    ax.set_ylim(0.0, 1.02)
    ax.grid(alpha=0.3)
    _outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def subsampling_plot(curves: pd.DataFrame, *, value: str = "kendall_tau", ax=None):
    """Büttcher et al.'s Fig. 1: ``value`` (``kendall_tau``, ``tau_ap`` or ``mean_score``)
    against the share of the qrels kept by unbiased random subsampling, one line per
    measure (one per repeat when there are several). ``curves`` is
    :func:`irnb.bias.subsampling_curves`."""
    if value not in ("kendall_tau", "tau_ap", "mean_score"):
        raise ValueError(f"subsampling_plot: value must be 'kendall_tau', 'tau_ap' or 'mean_score', got {value!r}")
    need = {"fraction", "repeat", "measure", value}
    if not need <= set(curves.columns):
        raise ValueError(f"subsampling_plot: expected subsampling_curves() columns {sorted(need)}, "
                         f"got {list(curves.columns)}")
    ax = _axes(ax, (6.5, 4.5))
    measures = list(dict.fromkeys(curves["measure"]))
    for (m, r), part in curves.groupby(["measure", "repeat"], sort=False):
        part = part.sort_values("fraction")
        i = measures.index(m)
        _tag(ax.plot(part["fraction"].to_numpy(np.float64), part[value].to_numpy(np.float64),
                     color=PALETTE[i % len(PALETTE)], marker=_MARKERS[i % len(_MARKERS)], markersize=4,
                     alpha=1.0 if r == 0 else 0.4, label=m if r == 0 else "_nolegend_")[0], f"subsampling:{m}:{r}")
    ax.set_xlabel("share of the qrels kept (random subsample)")
    ax.set_ylabel({"kendall_tau": "Kendall's τ with the full qrels", "tau_ap": "τ_AP with the full qrels",
                   "mean_score": "mean score over runs"}[value])
    ax.grid(alpha=0.3)
    _outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def topic_difference_plot(differences: pd.DataFrame, *, run: str = "run", baseline: str = "baseline",
                          measure: str = "", ax=None):
    """One bar per topic: ``run`` minus ``baseline``, in the order of ``differences`` (from
    :func:`irnb.reporting.topic_differences`: largest gain first). Gains are blue, losses
    orange; the title counts wins, losses and ties. The bars are one PolyCollection with the
    role ``difference`` (bar i spans 0 to ``differences["difference"][i]``)."""
    for column in ("topic", "difference"):
        if column not in differences.columns:
            raise ValueError(f"topic_difference_plot: expected a column {column!r} "
                             f"(irnb.reporting.topic_differences), got columns {list(differences.columns)}")
    ax = _axes(ax, (8.0, 3.5))
    diff = differences["difference"].to_numpy(np.float64)
    x = np.arange(diff.size, dtype=np.float64)
    from matplotlib.collections import PolyCollection

    left, right = x - 0.4, x + 0.4
    bars = np.stack([np.stack([left, np.zeros_like(diff)], 1), np.stack([left, diff], 1),
                     np.stack([right, diff], 1), np.stack([right, np.zeros_like(diff)], 1)], axis=1)
    colours = np.where(diff >= 0, PALETTE[0], PALETTE[1])
    _tag(ax.add_collection(PolyCollection(list(bars), facecolors=list(colours), edgecolors="none")), "difference")
    low, high = (float(min(diff.min(), 0.0)), float(max(diff.max(), 0.0))) if diff.size else (-1.0, 1.0)
    pad = 0.05 * (high - low) or 0.05
    ax.set_ylim(low - pad, high + pad)
    ax.axhline(0.0, color="black", linewidth=0.8)
    positions, labels = _thin(x, [str(t) for t in differences["topic"]], _TOPIC_LABELS)
    ax.set_xticks(positions, labels, rotation=90, fontsize=MIN_FONT)
    ax.set_xlim(-0.6, max(diff.size, 1) - 0.4)
    ax.set_xlabel("topic (sorted by difference)")
    ax.set_ylabel(f"{measure} difference" if measure else "difference")
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    ax.set_title(f"{run} − {baseline}: {wins} topics better, {losses} worse, {diff.size - wins - losses} tied",
                 fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    return ax
