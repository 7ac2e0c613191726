"""The figures the live views redraw in place: each plot draws its artists once and its
``update_*`` twin takes the same data and changes those artists (``set_segments``,
``set_data``, ``set_array``) instead of drawing a new plot. The artists carry roles
(:func:`irnb.plots.artists`); the widgets of :mod:`irnb.widgets` call the twins on every
slider move, and the notebooks and the thesis reproduction draw the same figures once.

Topic axes label at most :data:`~irnb.plots.style.TOPIC_LABELS` topics. The decision-matrix cases also differ without
colour: weak cases (2 and 4) carry an ``×``.
"""

from __future__ import annotations

import textwrap
from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..params import ESTIMATOR
from .legends import outside_legend, refresh_legend
from .roles import artists, axes_or_new, require_artist, tag, twin_axes
from .style import (CASE_COLOURS, MARKERS, MIN_FONT, PALETTE, TOPIC_LABELS, estimate_label, measure_label,
                    plain_log_axis, plot_estimator_key, procedure_caption, thin_ticks)

_MISSING = "#DDDDDD"  # diagonal / no comparison
#: The cases in words: the score is the measure P, the share judged the assessment measure A
#: (Baillie et al.: P equal or not; when P differs, whether the better run is also the more judged).
CASE_WORDS = {1: "no score difference,\nno judged-share difference", 2: "no score difference,\njudged shares differ",
              3: "better score, not\nmore judged", 4: "better score and\nmore judged"}
#: Run names longer than this are keyed in the decision matrix: the columns are numbered and each
#: row reads "number name" (shortened to :data:`MATRIX_ROW_CHARS`), so no label runs into the next.
MATRIX_NAME_CHARS = 12
MATRIX_ROW_CHARS = 22


# =============================================================================== checks
def _array(values, name: str, plot: str, length: int | None = None) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or (length is not None and array.shape[0] != length):
        want = "a 1-d array" if length is None else f"{length} values"
        raise ValueError(f"{plot}: {name} must be {want}, got shape {array.shape}")
    return array


def _run_position(names: Sequence[str], run: str, plot: str) -> int:
    return int(_run_positions(names, [run], plot)[0])


def _run_positions(names: Sequence[str], runs: Sequence[str], plot: str) -> np.ndarray:
    """The positions of ``runs`` in ``names`` (one look-up table for all of them)."""
    position = {name: i for i, name in enumerate(names)}
    unknown = next((run for run in runs if run not in position), None)
    if unknown is not None:
        import difflib

        close = difflib.get_close_matches(str(unknown), list(names), n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"{plot}: unknown run {unknown!r}{hint}")
    return np.asarray([position[run] for run in runs], dtype=np.int64)


# =============================================================================== intervals
def _init_rows(ax) -> None:
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    segments = tag(LineCollection([], colors=PALETTE[0], linewidths=3, alpha=0.55, capstyle="butt",
                                  label="[B, T]"), "intervals")
    ax.add_collection(segments)
    ax.add_line(tag(Line2D([], [], linestyle="none", marker="o", markersize=5, color=PALETTE[1],
                           label="estimate"), "estimate"))
    ax.add_line(tag(Line2D([], [], linestyle="none", marker="D", markersize=5, markerfacecolor="none",
                           markeredgecolor="black", label="true score"), "truth"))
    ax.grid(axis="x", alpha=0.3)


def _set_rows(ax, labels: Sequence[str], lower: np.ndarray, upper: np.ndarray, point: np.ndarray | None,
              truth: np.ndarray | None, *, point_label: str, plot: str, top: int | None,
              max_labels: int | None = None) -> np.ndarray:
    """Rows sorted by the point estimate (B when there is none), best on top; returns the
    order used (indices into ``labels``)."""
    segments = require_artist(ax, "intervals", plot)
    estimate = require_artist(ax, "estimate", plot)
    true_line = require_artist(ax, "truth", plot)
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
    ax.set_yticks(*thin_ticks(y, [labels[i] for i in order], max_labels), fontsize=MIN_FONT)
    ax.set_ylim(n - 0.5, -0.5)
    hi = max([1e-9] + [float(np.nanmax(a[order])) for a in (upper, point, truth) if a is not None and n])
    ax.set_xlim(0.0, min(1.03, hi * 1.05) if hi <= 1.0 else hi * 1.05)
    refresh_legend(ax, [segments, estimate, true_line], where="below")
    return order


def intervals_plot(intervals, *, estimates=None, estimator: str = ESTIMATOR.default, truth=None,
                   runs: Sequence[str] | None = None, top: int | None = None, ax=None):
    """Per-run score intervals: each run's mean [B, T] over its evaluated topics, sorted by
    the chosen point estimate (by B without one), best at the top.

    ``intervals``: :class:`~irnb.intervals.ScoreIntervals`; ``estimates``: optional
    :class:`~irnb.intervals.PointEstimates` and ``estimator`` which of them (S, B, I, M);
    ``truth``: optional (S,) true mean scores (e.g. ``evaluate(exp, m, truth=True).aggregate(m)``);
    ``runs``: the run names to show (default all); ``top``: show only the best ``top``.
    """
    ax = axes_or_new(ax, (7.0, 6.0))
    _init_rows(ax)
    return update_intervals_plot(ax, intervals, estimates=estimates, estimator=estimator, truth=truth,
                                 runs=runs, top=top)


def update_intervals_plot(ax, intervals, *, estimates=None, estimator: str = ESTIMATOR.default, truth=None,
                          runs: Sequence[str] | None = None, top: int | None = None):
    """:func:`intervals_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_intervals_plot"
    names = list(intervals.run_names)
    lower, upper = intervals.mean_lower, intervals.mean_upper
    point, label = None, "estimate"
    if estimates is not None:
        key = plot_estimator_key(estimator, plot)
        point = estimates.mean(key)
        label = estimate_label(estimates, key)
    true = None if truth is None else _array(truth, "truth", plot, len(names))
    keep = np.arange(len(names)) if runs is None else _run_positions(names, runs, plot)
    _set_rows(ax, [names[i] for i in keep], lower[keep], upper[keep],
                      None if point is None else point[keep], None if true is None else true[keep],
                      point_label=label, plot=plot, top=top)
    ax.set_xlabel(f"{intervals.measure.name}, mean over topics")
    ax.set_title("[B, T] per run\n" + textwrap.fill(str(intervals.pool), 40), fontsize="medium")
    return ax


def topic_intervals_plot(intervals, run: str, *, estimates=None, estimator: str = ESTIMATOR.default, truth=None,
                         ax=None):
    """Per-topic [B, T] of one run, sorted by the point estimate (by B without one); only
    the topics evaluated for the run. ``truth``: optional (S, T) true per-topic scores."""
    ax = axes_or_new(ax, (6.0, 7.0))
    _init_rows(ax)
    return update_topic_intervals_plot(ax, intervals, run, estimates=estimates, estimator=estimator, truth=truth)


def update_topic_intervals_plot(ax, intervals, run: str, *, estimates=None, estimator: str = ESTIMATOR.default,
                                truth=None):
    """:func:`topic_intervals_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_topic_intervals_plot"
    s = _run_position(intervals.run_names, run, plot)
    keep = np.flatnonzero(intervals.evaluated[s])
    topics = [intervals.topics[t] for t in keep]
    point, label = None, "estimate"
    if estimates is not None:
        key = plot_estimator_key(estimator, plot)
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
                      point_label=label, plot=plot, top=None, max_labels=TOPIC_LABELS)
    ax.set_xlabel(intervals.measure.name)
    ax.set_ylabel("topic")
    ax.set_title("[B, T] per topic\n" + textwrap.fill(str(run), 30), fontsize="medium")
    return ax


# =============================================================================== decision matrix
def _shorten(name: str, chars: int) -> str:
    """``name`` cut to ``chars`` characters, the cut marked by an ellipsis.

    >>> _shorten("UIUC_DMG_setrank_reg_title", 12), _shorten("run1", 12)
    ('UIUC_DMG_se…', 'run1')
    """
    return name if len(name) <= chars else name[:chars - 1] + "…"


def _with_caption(title: str, table: pd.DataFrame) -> str:
    caption = procedure_caption(table)
    return title if caption is None else f"{title}\n{caption}"


def _case_legend(ax) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..decision import STRENGTH

    handles, labels = [], []
    for case, text in CASE_WORDS.items():
        patch = Patch(facecolor=CASE_COLOURS[case], edgecolor="none")
        if STRENGTH[case] == "weak":
            patch = (patch, Line2D([], [], linestyle="none", marker="x", color="black", markersize=5))
        handles.append(patch)
        labels.append(f"{case} {STRENGTH[case]}: {text}")
    outside_legend(ax, handles, labels)


def case_matrix_plot(matrix: pd.DataFrame, *, order: Sequence[str] | None = None, title: str | None = None, ax=None):
    """The decision matrix as a run × run heatmap of cases 1–4 (from
    :func:`irnb.decision.case_matrix`); weak cases (2, 4) carry an ×, the diagonal is grey.

    ``order``: the runs to show, in this order (default: the matrix's); pick the top N by
    score for large experiments. Without ``title``, a matrix carrying
    :func:`irnb.decision.compare_table`'s ``.attrs`` is titled with its measures, test and α.
    """
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.lines import Line2D

    ax = axes_or_new(ax, (8.0, 6.5))
    cmap = ListedColormap([CASE_COLOURS[c] for c in (1, 2, 3, 4)]).with_extremes(bad=_MISSING)
    norm = BoundaryNorm([0.5, 1.5, 2.5, 3.5, 4.5], cmap.N)
    tag(ax.imshow(np.full((1, 1), np.nan), cmap=cmap, norm=norm, interpolation="nearest", aspect="equal"), "cases")
    ax.add_line(tag(Line2D([], [], linestyle="none", marker="x", color="black", markeredgewidth=0.8), "weak"))
    _case_legend(ax)
    return update_case_matrix_plot(ax, matrix, order=order, title=title)


def update_case_matrix_plot(ax, matrix: pd.DataFrame, *, order: Sequence[str] | None = None,
                            title: str | None = None):
    """:func:`case_matrix_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_case_matrix_plot"
    image = require_artist(ax, "cases", plot)
    weak = require_artist(ax, "weak", plot)
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
    keyed = max((len(str(r)) for r in runs), default=0) > MATRIX_NAME_CHARS
    if keyed:  # long names: numbered columns, each row "number name"
        ax.set_xticks(np.arange(n), [str(i + 1) for i in range(n)], rotation=90, fontsize=size)
        ax.set_yticks(np.arange(n), [f"{i + 1} {_shorten(str(r), MATRIX_ROW_CHARS)}" for i, r in enumerate(runs)],
                      fontsize=size)
    else:
        ax.set_xticks(np.arange(n), runs, rotation=90, fontsize=size)
        ax.set_yticks(np.arange(n), runs, fontsize=size)
    ax.set_xlim(-0.5, max(n, 1) - 0.5)
    ax.set_ylim(max(n, 1) - 0.5, -0.5)
    ax.set_xlabel("compared with run s₂" + (" (numbered as the rows)" if keyed else ""))
    ax.set_ylabel("run s₁")
    about = getattr(matrix, "attrs", {})
    if title is None and "procedure" in about:
        title = f"{about.get('measure', '')} with {measure_label(about.get('assessment', ''))}\n{about['procedure']}"
    if title is not None:
        ax.set_title(title, fontsize="medium")
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
    ax = axes_or_new(ax, (5.0, 4.0))
    tag(ax.imshow(np.zeros((1, 1)), cmap="cividis", vmin=0.0, vmax=1.0, aspect="auto",
                  interpolation="nearest"), "proportions")
    return update_case_proportions_plot(ax, table, setting=setting)


def update_case_proportions_plot(ax, table: pd.DataFrame, *, setting=None):
    """:func:`case_proportions_plot` on an Axes that already holds one: artists updated in place."""
    from ..decision import STRENGTH

    plot = "update_case_proportions_plot"
    image = require_artist(ax, "proportions", plot)
    measures, cases, grid, setting = _proportion_grid(table, setting, plot)
    image.set_data(grid)
    image.set_extent((-0.5, len(cases) - 0.5, len(measures) - 0.5, -0.5))
    labels = {role: a for role, a in artists(ax).items() if role.startswith("label:")}
    wanted = {f"label:{i}:{j}" for i in range(len(measures)) for j in range(len(cases))}
    if set(labels) != wanted:
        for a in labels.values():
            a.remove()
        labels = {f"label:{i}:{j}": tag(ax.text(j, i, "", ha="center", va="center", fontsize=MIN_FONT),
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
    ax.set_title("\n".join(textwrap.fill(line, 44) for line in title.split("\n")), fontsize="medium")
    return ax


# =============================================================================== bias
def _measure_names(result, measures, plot: str) -> list[str]:
    names = [m.name for m in result.measures]
    if measures is None:
        return names
    from ..measures import parse_measure

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
        found = tag(Line2D([], [], linestyle=linestyle, marker=MARKERS[index % len(MARKERS)] if marker else None,
                           markersize=5, color=PALETTE[index % len(PALETTE)], label=label), role)
        ax.add_line(found)
    return found


def bias_plot(result, *, measures: Sequence[str] | None = None, value: str = "rank", ax=None):
    """Büttcher et al.'s bias picture: for every left-out run (x: its reference rank, 1 =
    best), its rank change (``value="rank"``, + = moved up) or score change
    (``value="score"``, reduced − reference) under each measure — AP falls for runs that
    did not contribute, bpref rises. ``result`` is a :class:`~irnb.bias.BiasResult`;
    ``measures`` picks some of its measures (default all)."""
    ax = axes_or_new(ax, (7.0, 4.5))
    tag(ax.axhline(0.0, color="grey", linewidth=0.8), "zero")
    ax.grid(alpha=0.3)
    return update_bias_plot(ax, result, measures=measures, value=value)


def update_bias_plot(ax, result, *, measures: Sequence[str] | None = None, value: str = "rank"):
    """:func:`bias_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_bias_plot"
    if value not in ("rank", "score"):
        raise ValueError(f"{plot}: value must be 'rank' or 'score', got {value!r}")
    require_artist(ax, "zero", plot)
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
                 fontsize=MIN_FONT)
    refresh_legend(ax, lines, where="below")
    return ax


def tau_depth_plot(results: Mapping[int, Any], *, value: str = "kendall_tau", current: int | None = None, ax=None):
    """Kendall's τ between the full and the reduced system rankings against pool depth d,
    one line per measure. ``results`` maps d to the :class:`~irnb.bias.BiasResult` at
    that depth (e.g. ``leave_one_group_out_bias(exp, depth=d)`` for several d);
    ``value`` is ``kendall_tau``, ``tau_ap`` or ``kendall_tau_left_out``; ``current``
    marks one depth with a vertical line."""
    ax = axes_or_new(ax, (6.0, 4.0))
    tag(ax.axvline(np.nan, color="grey", linestyle=":", linewidth=1.0), "current")
    ax.set_xscale("log")
    plain_log_axis(ax.xaxis)
    ax.grid(alpha=0.3)
    return update_tau_depth_plot(ax, results, value=value, current=current)


def update_tau_depth_plot(ax, results: Mapping[int, Any], *, value: str = "kendall_tau", current: int | None = None):
    """:func:`tau_depth_plot` on an Axes that already holds one: artists updated in place."""
    plot = "update_tau_depth_plot"
    if value not in ("kendall_tau", "tau_ap", "kendall_tau_left_out"):
        raise ValueError(f"{plot}: value must be 'kendall_tau', 'tau_ap' or 'kendall_tau_left_out', got {value!r}")
    marker = require_artist(ax, "current", plot)
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
    ax.set_title("full versus reduced ranking", fontsize="medium")
    refresh_legend(ax, lines, where="below")
    return ax


# =============================================================================== unjudged documents
def unjudged_plot(table: pd.DataFrame, *, run_a: str = "run a", run_b: str = "run b", measure: str = "P@k",
                  ax=None):
    """The thesis chapter's Fig. 7.1: per topic (x, ordered by run b's unjudged count), the
    unjudged documents in the top k of runs a and b and their overlap (left axis), and the
    score difference b − a (right axis). ``table`` is
    :func:`irnb.pooling.unjudged_overlap`; only topics both runs answered are shown."""
    from matplotlib.lines import Line2D

    ax = axes_or_new(ax, (9.0, 4.0))
    for role, marker, colour in (("unjudged_a", "o", PALETTE[0]), ("unjudged_b", "s", PALETTE[1]),
                                 ("overlap", "x", "black")):
        ax.add_line(tag(Line2D([], [], linestyle="none", marker=marker, markersize=4, color=colour), role))
    twin = twin_axes(ax)
    tag(twin.axhline(0.0, color=PALETTE[3], linewidth=0.6, linestyle=":"), "difference_zero")
    # topics are categories: one marker each, no line joining them
    twin.add_line(tag(Line2D([], [], linestyle="none", marker="d", markersize=4, color=PALETTE[3]), "difference"))
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
            require_artist(ax, role, plot)
    # numpy over the table's columns (a slider change): the evaluated topics by run b's unjudged documents
    evaluated = np.flatnonzero(table["evaluated"].to_numpy(bool))
    column = {name: table[name].to_numpy(np.float64)[evaluated]
              for name in ("unjudged_a", "unjudged_b", "overlap", "score_difference")}
    order = np.argsort(column["unjudged_b"], kind="stable")
    column = {name: values[order] for name, values in column.items()}
    x = np.arange(order.size, dtype=np.float64)
    found["unjudged_a"].set_data(x, column["unjudged_a"])
    found["unjudged_a"].set_label(f"unjudged — {run_a}")
    found["unjudged_b"].set_data(x, column["unjudged_b"])
    found["unjudged_b"].set_label(f"unjudged — {run_b}")
    found["overlap"].set_data(x, column["overlap"])
    found["overlap"].set_label("unjudged in both")
    found["difference"].set_data(x, column["score_difference"])
    found["difference"].set_label(f"Δ {measure} ({run_b} − {run_a})")
    twin = found["difference"].axes
    top = max(1.0, float(max(column["unjudged_a"].max(initial=0), column["unjudged_b"].max(initial=0))))
    difference = column["score_difference"]
    (low, high), (twin_low, twin_high) = _aligned_zero_limits(
        (0.0, top * 1.08), (min(0.0, float(difference.min(initial=0))) * 1.1,
                            max(0.05, float(difference.max(initial=0)) * 1.1)), margin=0.02)
    ax.set_ylim(low, high)
    twin.set_ylim(twin_low, twin_high)
    _counts_only(ax.yaxis)  # the left axis counts documents: below its zero it is the twin's room
    ax.set_xlim(-0.5, max(order.size, 1) - 0.5)
    topics = table["topic"].to_numpy(object)[evaluated][order]
    ax.set_xticks(*thin_ticks(x, topics.tolist(), TOPIC_LABELS), rotation=90, fontsize=MIN_FONT)
    ax.set_xlabel(f"topic (ordered by unjudged documents of {run_b})")
    ax.set_ylabel("unjudged documents in the top k")
    twin.set_ylabel(f"Δ {measure}", color=PALETTE[3])
    ax.set_title(f"unjudged documents per topic and the {measure} difference", fontsize="medium")
    refresh_legend(ax, [found["unjudged_a"], found["unjudged_b"], found["overlap"], found["difference"]],
                   where="right_twin")
    return ax


def _counts_only(axis) -> None:
    """Integer ticks on ``axis``, those below zero left unlabelled."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    if not isinstance(axis.get_major_formatter(), FuncFormatter):
        axis.set_major_locator(MaxNLocator(integer=True))
        axis.set_major_formatter(FuncFormatter(lambda value, _position: f"{value:g}" if value >= 0 else ""))


def _aligned_zero_limits(left: tuple[float, float], right: tuple[float, float], *,
                        margin: float = 0.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """Limits for an Axes and its twin that put both zeros at the same height: each
    (lowest, highest) to show, the lowest ≤ 0 ≤ the highest; the left one gets ``margin`` (a
    fraction of its height) below zero at least, and a zero at most halfway up. Each range
    only grows.

    >>> _aligned_zero_limits((0.0, 10.0), (-1.0, 1.0))   # the twin's zero is halfway up: the left's too
    ((-10.0, 10.0), (-1.0, 1.0))
    """
    (low, high), (twin_low, twin_high) = left, right
    if not (low <= 0 <= high and twin_low <= 0 <= twin_high and high > 0 and twin_high > 0):
        raise ValueError(f"aligned_zero_limits: each range must hold 0 below its top, got {left} and {right}")
    span = high - low
    # the zero at most halfway up: a twin mostly below zero is given room above it instead
    share = max(-low / span, margin / (1 + margin) if low == 0 else 0.0,
                min(0.5, -twin_low / (twin_high - twin_low)))
    ratio = share / (1 - share)  # depth of the zero below, per unit above it
    twin_high = max(twin_high, -twin_low / ratio) if ratio > 0 else twin_high
    return (-ratio * high, high), (-ratio * twin_high, twin_high)


def simulated_precision_plot(topics: Sequence[str], unjudged, original, simulated, *, run: str = "",
                             estimator: str = "I", measure: str = "P@k", estimates=None, truth=None, ax=None):
    """The thesis chapter's Fig. 7.2: per topic (ordered by the original score), the
    unjudged documents in the top k (left axis), the original score (unjudged =
    non-relevant, B = X_S; dashes) and the simulated one (triangles; X_I is the thesis's
    simulated precision: judged-relevant / judged in the top k). All arrays have one value
    per topic: e.g. ``unjudged_overlap(...)["unjudged_b"]``, ``intervals.lower[s]`` and
    ``estimates.interpolated[s]``; ``estimates`` (the
    :class:`~irnb.intervals.PointEstimates`) puts its E and λ in the legend; ``truth`` (the
    true score per topic, when known) draws it as black diamonds, in the same legend."""
    from matplotlib.lines import Line2D

    ax = axes_or_new(ax, (9.0, 4.0))
    ax.add_line(tag(Line2D([], [], linestyle="none", marker="o", markersize=4, color=PALETTE[5]), "unjudged"))
    twin = twin_axes(ax)
    # topics are categories: one marker each, no line joining them
    twin.add_line(tag(Line2D([], [], linestyle="none", marker="_", markersize=8, markeredgewidth=1.6,
                             color=PALETTE[0]), "original"))
    twin.add_line(tag(Line2D([], [], linestyle="none", marker="^", markersize=4, color=PALETTE[1]), "simulated"))
    twin.add_line(tag(Line2D([], [], linestyle="none", marker="d", markersize=4, color="black"), "truth"))
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
    key = plot_estimator_key(estimator, plot)
    found = {role: require_artist(ax, role, plot) for role in ("unjudged", "original", "simulated")}
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
    ax.set_xticks(*thin_ticks(x, [topics[i] for i in order], TOPIC_LABELS), rotation=90, fontsize=MIN_FONT)
    ax.set_xlabel(f"topic (ordered by original {measure})")
    ax.set_ylabel("unjudged documents in the top k")
    twin.set_ylabel(measure)
    ax.set_title(f"original versus simulated {measure}" + (f" — {run}" if run else ""), fontsize="medium")
    refresh_legend(ax, [found["unjudged"], found["original"], found["simulated"]]
                   + ([true_line] if true_line is not None else []), where="right_twin")
    return ax
