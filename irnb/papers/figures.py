"""The reproductions' figures: each draws a finished :class:`~irnb.papers.Reproduction` (its
``.table`` and ``.details``) and never computes a number of its own, so the drawing can change
without reading the maths, the claims or the notes. Each takes ``ax=None`` (new Axes) or the
Axes to draw on, imports matplotlib only when it makes a figure, and returns what it drew.

A reproduction names its figure with ``draw=``; :meth:`irnb.papers.Reproduction.figure`
calls it. Options a figure needs beyond the reproduction (which methods, which α) are bound
by the reproduction with :func:`functools.partial`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import numpy as np

from ..params import DISPLAY_FLAG


def panel_axes(ax, n: int, *, width: float = 4.0, height: float = 3.5, sharey: bool = False) -> list:
    """``n`` Axes side by side: new ones when ``ax`` is None, else ``ax`` (one Axes, reused
    for every panel, or exactly ``n``). Imports matplotlib only when it draws new ones."""
    sharey = DISPLAY_FLAG.validate(sharey, "panel_axes", label="sharey")
    if ax is None:
        import matplotlib.pyplot as plt

        _, grid = plt.subplots(1, n, figsize=(width * n, height), sharey=sharey, squeeze=False)
        return list(grid[0])
    axes = list(np.ravel(ax))
    if len(axes) == 1:
        return axes * n
    if len(axes) != n:
        raise ValueError(f"ax must be one Axes or {n} (one per panel), got {len(axes)}")
    return axes


# ---------------------------------------------------------------------------- Baillie et al.
def depth_pairs(rep, ax=None):
    """One row of panels per pair: the measure (left) and A_p (right) across depths. The
    test and α that decided the cases and what the bars are (``curves.attrs``) head the
    figure, or each row's left panel when ``ax`` is given."""
    from .. import plots

    curves = rep.details["curves"]
    caption = plots.procedure_caption(curves)
    bars = curves.attrs.get("intervals")
    labels = list(dict.fromkeys(curves["pair"]))
    said = "" if caption is None else f"cases by {caption}" + (f"; bars: {bars}" if bars else "")
    cases_by = textwrap.fill(said, 50) if said else ""
    if ax is None:
        import matplotlib.pyplot as plt

        figure, ax = plt.subplots(len(labels), 2, figsize=(10, 3.6 * len(labels)), layout="constrained",
                                  squeeze=False)
        if cases_by:
            figure.suptitle(textwrap.fill(f"{rep.id} ({rep.data}): {said}", 110), fontsize="medium")
            cases_by = ""  # said once, above every panel
    axes = np.asarray(ax, dtype=object).reshape(-1)
    if axes.size != 2 * len(labels):
        raise ValueError(f"{rep.id}: ax must hold {2 * len(labels)} Axes (one row of two per pair), got {axes.size}")
    for i, label in enumerate(labels):
        for j, kind in enumerate(("measure", "assessment")):
            part = curves[(curves["pair"] == label) & (curves["kind"] == kind)]
            if kind == "measure":
                title = f"{label}: {part['measure'].iloc[0].split('@')[0]}@d" + (f"\n{cases_by}" if cases_by else "")
            else:
                title = f"{label}: A_p@d"
            plots.depth_curves_plot(part, title=title, ax=axes[2 * i + j])
    return axes.reshape(len(labels), 2)


def ranked_runs(rep, ax=None):
    """The runs ranked by MAP with their assessment measure (``details["runs"]``) and their
    Recall of Assessment; τ (``table``'s first cell) in the title."""
    from .. import plots
    from ..plots.legends import outside_legend

    runs = rep.details["runs"]
    judged = runs.attrs["assessment"]
    ax = plots.ranked_runs_plot(runs, measure="AP", assessment=judged, ax=ax)
    order = np.lexsort((np.arange(len(runs)), -runs["AP"].to_numpy()))
    x = np.arange(1, len(runs) + 1)
    ax.plot(x, runs["RecallAssessment"].to_numpy()[order], marker="^", markersize=3, linestyle="none",
            color="0.4", label="Recall of Assessment")
    outside_legend(ax, *ax.get_legend_handles_labels())  # off the data
    ax.set_title(f"{rep.data}: runs ranked by MAP (τ with {plots.measure_label(judged)} = {rep.table.iloc[0, 0]:.3f})",
                 fontsize="medium")
    return ax


# ---------------------------------------------------------------------------- Büttcher et al.
def subsampling_panels(rep, ax=None):
    """One panel per top level of ``table``'s ``panel`` columns (mean score, Kendall's τ),
    one line per measure against the fraction of the qrels kept."""
    from .. import plots
    from ..plots.legends import outside_legend

    panels = list(dict.fromkeys(rep.table.columns.get_level_values("panel")))
    axes = panel_axes(ax, len(panels), width=5.0, height=3.8)
    for a, panel in zip(axes, panels, strict=True):
        frame = rep.table[panel]
        for i, column in enumerate(frame.columns):   # each measure its own colour, marker and line style
            a.plot(frame.index, frame[column], markersize=4, **plots.series_style(i), label=column)
        a.set_xlabel("fraction of the qrels kept")
        a.set_title(panel, fontsize=9)
    axes[0].set_ylabel("mean score of all runs")
    axes[-1].set_ylabel("Kendall's τ against the full qrels")
    outside_legend(axes[-1], *axes[-1].get_legend_handles_labels())
    return axes


# ---------------------------------------------------------------------------- Ravana & Moffat
def background_rate_fits(rep, ax=None, *, fits: Mapping, truths: Mapping):
    """One panel per pool depth (:func:`irnb.plots.background_rate_plot`): the fraction
    relevant per number of runs, the fitted polynomial, E at zero runs and the true rate;
    returns the Axes, one per depth."""
    from .. import plots

    if ax is None:
        import matplotlib.pyplot as plt

        figure, grid = plt.subplots(len(fits), 1, figsize=(7.0, 3.6 * len(fits)), layout="constrained",
                                    squeeze=False)
        figure.suptitle(f"{rep.id} ({rep.data})", fontsize=10)
        axes = list(grid[:, 0])
    else:
        axes = panel_axes(ax, len(fits))
    for panel, (d, fit) in zip(axes, fits.items(), strict=True):
        plots.background_rate_plot(fit, truth=truths[d], ax=panel)
        truth = "" if truths[d] is None else f"; true rate over the runs' top {2 * d}"
        panel.set_title(f"pool depth d = {d}{truth}", fontsize=9)
    return axes


def separability_curves(rep, ax=None, *, methods: Sequence[str], alpha: float):
    """One panel per measure (``table``'s (measure, method) columns): the share of pairs each
    of ``methods`` separates at level ``alpha`` against the number of judgments."""
    from .. import plots
    from ..plots.legends import outside_legend

    measures = list(dict.fromkeys(rep.table.columns.get_level_values("measure")))
    axes = panel_axes(ax, len(measures), sharey=True)
    shared = len(set(map(id, axes))) == 1   # one Axes for every measure: the measure in the label
    for a, m in zip(axes, measures, strict=True):
        drawn = []
        for i, method in enumerate(methods):   # each method its own colour, marker and line style
            values = rep.table[(m, method)]
            # a series (almost) equal to one drawn before goes on top of it thinner, so that both stay visible
            again = any(np.allclose(values.to_numpy(), v, atol=0.01, equal_nan=True) for v in drawn)
            drawn.append(values.to_numpy())
            a.plot(values.index, values.to_numpy(), **plots.series_style(i), markersize=2.5 if again else 5,
                   linewidth=0.7 if again else 1.6,
                   label=(f"{method}, {m}" if shared else method) if a is axes[-1] or shared else None)
        a.set_xscale("log")
        plots.plain_log_axis(a.xaxis, subs=(1.0,))
        a.set_xlabel("number of judgments")
        a.set_title(m, fontsize=9)
    axes[0].set_ylabel(f"fraction of pairs, paired t-test p < {alpha}")
    outside_legend(axes[-1], *axes[-1].get_legend_handles_labels())
    return axes if not shared else axes[0]


# ---------------------------------------------------------------------------- the thesis, chapter 7
def unjudged_overlap(rep, ax=None):
    """Per topic, the unjudged documents in the top k of the pair's two runs
    (``details["overlap"]``, ``details["pair"]``) and their overlap:
    :func:`irnb.plots.unjudged_plot`."""
    from .. import plots

    a, b, k = rep.details["pair"].iloc[0][["run_a", "run_b", "k"]]
    return plots.unjudged_plot(rep.details["overlap"], run_a=a, run_b=b, measure=f"P@{int(k)}", ax=ax)


def simulated_precision(rep, ax=None):
    """Per topic, the new run's original and simulated P@k (``table``):
    :func:`irnb.plots.simulated_precision_plot`."""
    from .. import plots

    t, run, k = rep.table, rep.details["pair"].iloc[0]["run_b"], int(rep.details["pair"].iloc[0]["k"])
    return plots.simulated_precision_plot(list(t.index), t["unjudged"], t["original"], t["simulated"], run=run,
                                          estimator="I", measure=f"P@{k}", ax=ax)
