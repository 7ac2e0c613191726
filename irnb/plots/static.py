"""The figures drawn once, with no ``update_*`` twin: the papers' curves (depth curves,
ranked runs, the background-rate fit, separability, subsampling) that the reproductions'
``.figure()`` and the notebooks draw, and the per-topic comparison of
:func:`irnb.reporting.topic_differences`. Each takes what the core returns, accepts
``ax=None`` and returns the Axes it drew on, its artists tagged by role
(:func:`irnb.plots.artists`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .legends import outside_legend
from .roles import axes_or_new, tag
from .style import (MARKERS, MIN_FONT, PALETTE, TOPIC_LABELS, measure_label, plain_log_axis, procedure_caption,
                    thin_ticks)


CROWDED = 0.45  # decades between two depths below which their case labels would overlap (500 and 1000)


DODGE = 0.04  # log10 of the sideways step between the runs of depth_curves_plot


def depth_curves_plot(curves: pd.DataFrame, *, title: str | None = None, ax=None):
    """Baillie et al.'s Fig. 2 / IP&M Fig. 11: a pair's measure (solid) and assessment
    (dashed) means across measurement depths with their confidence intervals (shaded),
    the pair's decision-matrix case written above each depth (a label that would touch the
    one before it goes a line higher). ``curves`` is :func:`irnb.decision.depth_curves`; the
    title, placed above the case labels, is ``title`` or else the test and α (``.attrs``).
    The runs' points are dodged a little sideways (``DODGE`` decades apart on the log depth
    axis; ticks and case labels at the depths themselves), so two runs with the same means stay
    visible side by side instead of one hiding the other."""
    need = {"depth", "kind", "measure", "run", "mean", "lower", "upper", "case"}
    if not need <= set(curves.columns):
        raise ValueError(f"depth_curves_plot: expected the table of irnb.decision.depth_curves with columns "
                         f"{sorted(need)}, got {list(curves.columns)}")
    ax = axes_or_new(ax, (6.5, 4.5))
    runs = list(dict.fromkeys(curves["run"]))
    for i, run in enumerate(runs):
        for kind, style in (("measure", "-"), ("assessment", "--")):
            rows = curves[(curves["run"] == run) & (curves["kind"] == kind)].sort_values("depth")
            if rows.empty:
                continue
            family = str(rows["measure"].iloc[0]).split("@")[0]
            x = rows["depth"].to_numpy(np.float64) * 10 ** (DODGE * (i - (len(runs) - 1) / 2))
            ax.fill_between(x, rows["lower"].to_numpy(np.float64), rows["upper"].to_numpy(np.float64),
                            color=PALETTE[i % len(PALETTE)], alpha=0.15, linewidth=0)
            tag(ax.plot(x, rows["mean"].to_numpy(np.float64), linestyle=style, marker=MARKERS[i],
                        color=PALETTE[i % len(PALETTE)], label=f"{measure_label(family)}@k — {run}")[0],
                f"{kind}:{run}")
    from matplotlib.transforms import blended_transform_factory

    cases = curves.drop_duplicates("depth").sort_values("depth")
    transform = blended_transform_factory(ax.transData, ax.transAxes)
    line_height = MIN_FONT + 2  # points
    lines = 1
    previous = None  # (depth, line) of the label before
    for depth, case in zip(cases["depth"], cases["case"], strict=True):
        line = int(previous is not None and previous[1] == 0 and np.log10(depth / previous[0]) < CROWDED)
        lines = max(lines, line + 1)
        ax.annotate(f"case {int(case)}", (depth, 1.0), xycoords=transform, xytext=(0, 2 + line * line_height),
                    textcoords="offset points", ha="center", va="bottom", fontsize=MIN_FONT)
        previous = (depth, line)
    ax.set_xscale("log")
    depths = cases["depth"].to_numpy()
    plain_log_axis(ax.xaxis)
    ax.set_xticks(depths, [str(int(d)) for d in depths])
    ax.set_xlabel("measurement depth k")
    ax.set_ylabel("mean over topics")
    caption = procedure_caption(curves)
    pad = 4 + lines * line_height  # above the case labels
    if title is not None:
        ax.set_title(title, fontsize="medium", pad=pad)
    elif caption is not None:
        ax.set_title(f"cases by {caption}", fontsize=MIN_FONT, pad=pad)
    ax.grid(alpha=0.3)
    outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def ranked_runs_plot(means: pd.DataFrame, *, measure: str, assessment: str, ax=None):
    """IP&M Figs 5–10 and 12: every run ranked by ``measure`` (best first) with its
    assessment value (e.g. A_p@k = ``Judged@k``, labelled A_p@k: :func:`measure_label`). ``means``
    is a run × measure table such as ``Evaluation.means()``; ``measure`` and ``assessment`` name
    two of its columns."""
    for name in (measure, assessment):
        if name not in means.columns:
            raise ValueError(f"ranked_runs_plot: the table has no column {name!r}; columns: {list(means.columns)}")
    ax = axes_or_new(ax, (8.0, 4.0))
    score = means[measure].to_numpy(np.float64)
    order = np.lexsort((np.arange(score.size), -score))
    x = np.arange(1, score.size + 1, dtype=np.float64)
    tag(ax.plot(x, score[order], marker="o", markersize=3, linestyle="-", color=PALETTE[0], label=measure)[0],
        "measure")
    tag(ax.plot(x, means[assessment].to_numpy(np.float64)[order], marker="s", markersize=3, linestyle="none",
                color=PALETTE[1], label=measure_label(assessment))[0], "assessment")
    ax.set_xlabel(f"runs ranked by {measure}")
    ax.set_ylabel("mean over topics")
    ax.set_ylim(0.0, 1.02)
    ax.grid(alpha=0.3)
    # every run is drawn; at most 40 are named (every m-th rank beyond: the table has the rest)
    ax.set_xticks(*thin_ticks(x, [str(means.index[i]) for i in order], 40), rotation=90, fontsize=MIN_FONT)
    outside_legend(ax, *ax.get_legend_handles_labels())
    return ax


def background_rate_plot(fit, *, truth: float | None = None, ax=None):
    """Ravana & Moffat's Fig. 1: the fraction of judged documents that are relevant
    against the number of contributing runs that pooled them (filled: points in the fit),
    the fitted polynomial, and E read at zero runs (the legend gives the unclipped
    reading when the fit leaves [0, 1]). ``fit`` is
    :class:`~irnb.intervals.BackgroundRateFit`; ``truth`` (e.g.
    :func:`irnb.intervals.true_background_rate`) draws the true rate at zero runs beside
    the estimate."""
    ax = axes_or_new(ax, (6.0, 4.0))
    x = np.asarray(fit.num_runs, dtype=np.float64)
    frac = np.asarray(fit.fraction, dtype=np.float64)
    in_fit = np.asarray(fit.in_fit, dtype=bool)
    tag(ax.plot(x[in_fit], frac[in_fit], linestyle="none", marker="o", color=PALETTE[0],
                label="fraction relevant")[0], "fraction")
    tag(ax.plot(x[~in_fit], frac[~in_fit], linestyle="none", marker="o", markerfacecolor="none",  # no points:
                color=PALETTE[0], label="not in the fit" if (~in_fit).any() else "_nolegend_")[0], "outside")
    grid = np.linspace(0.0, float(x.max(initial=1.0)), 200)
    tag(ax.plot(grid, fit.fitted(grid), color=PALETTE[1], label=f"degree-{fit.degree} fit")[0], "fit")
    label = f"E = {fit.rate:.3f}"
    if fit.intercept != fit.rate:
        label += f" (fit {fit.intercept:.3f}, clipped)"
    tag(ax.plot([0.0], [fit.rate], linestyle="none", marker="*", markersize=12, color=PALETTE[2],
                label=label)[0], "rate")
    if truth is not None:
        truth = float(truth)
        if not 0.0 <= truth <= 1.0:
            raise ValueError(f"background_rate_plot: truth must be a rate in [0, 1], got {truth!r}")
        tag(ax.plot([0.0], [truth], linestyle="none", marker="D", markersize=8, markerfacecolor="none",
                    color=PALETTE[3 % len(PALETTE)], label=f"true rate {truth:.3f}")[0], "truth")
    ax.set_xlabel(f"contributing runs with the document in their top {fit.depth}")
    ax.set_ylabel("fraction of judged documents relevant")
    ax.set_ylim(bottom=min(0.0, float(np.min(fit.fitted(grid))) if fit.intercept < 0 else 0.0))
    ax.grid(alpha=0.3)
    outside_legend(ax, *ax.get_legend_handles_labels())
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
            from ..measures import parse_measure

            wanted = parse_measure(wanted).name if column == "measure" else wanted
            if wanted not in set(rows[column]):
                raise ValueError(f"separability_plot: no {column} {wanted!r}; the table has "
                                 f"{sorted(set(rows[column]))}")
            rows = rows[rows[column] == wanted]
    ax = axes_or_new(ax, (6.5, 4.5))
    estimators = list(dict.fromkeys(rows["estimator"]))
    measures = list(dict.fromkeys(rows["measure"]))
    styles = {s: st for s, st in zip(dict.fromkeys(rows["run_set"]), ("-", "--", ":", "-."), strict=False)}
    for (m, s, e), part in rows.groupby(["measure", "run_set", "estimator"], sort=False):
        part = part.sort_values("budget")
        tag(ax.plot(part["budget"].to_numpy(np.float64), part["fraction"].to_numpy(np.float64),
                    color=PALETTE[estimators.index(e) % len(PALETTE)], linestyle=styles[s],
                    marker=MARKERS[measures.index(m) % len(MARKERS)], markersize=4,
                    label=f"{m}, {e}, {s}")[0], f"separability:{m}:{s}:{e}")
    ax.set_xscale("log")
    plain_log_axis(ax.xaxis)
    ax.set_xlabel("judgments")
    ax.set_ylabel("fraction of run pairs separable")
    ax.set_ylim(0.0, 1.02)
    ax.grid(alpha=0.3)
    outside_legend(ax, *ax.get_legend_handles_labels())
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
    ax = axes_or_new(ax, (6.5, 4.5))
    measures = list(dict.fromkeys(curves["measure"]))
    for (m, r), part in curves.groupby(["measure", "repeat"], sort=False):
        part = part.sort_values("fraction")
        i = measures.index(m)
        tag(ax.plot(part["fraction"].to_numpy(np.float64), part[value].to_numpy(np.float64),
                    color=PALETTE[i % len(PALETTE)], marker=MARKERS[i % len(MARKERS)], markersize=4,
                    alpha=1.0 if r == 0 else 0.4, label=m if r == 0 else "_nolegend_")[0], f"subsampling:{m}:{r}")
    ax.set_xlabel("share of the qrels kept (random subsample)")
    ax.set_ylabel({"kendall_tau": "Kendall's τ with the full qrels", "tau_ap": "τ_AP with the full qrels",
                   "mean_score": "mean score over runs"}[value])
    ax.grid(alpha=0.3)
    outside_legend(ax, *ax.get_legend_handles_labels())
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
    ax = axes_or_new(ax, (8.0, 3.5))
    diff = differences["difference"].to_numpy(np.float64)
    x = np.arange(diff.size, dtype=np.float64)
    from matplotlib.collections import PolyCollection

    left, right = x - 0.4, x + 0.4
    bars = np.stack([np.stack([left, np.zeros_like(diff)], 1), np.stack([left, diff], 1),
                     np.stack([right, diff], 1), np.stack([right, np.zeros_like(diff)], 1)], axis=1)
    colours = np.where(diff >= 0, PALETTE[0], PALETTE[1])
    tag(ax.add_collection(PolyCollection(list(bars), facecolors=list(colours), edgecolors="none")), "difference")
    low, high = (float(min(diff.min(), 0.0)), float(max(diff.max(), 0.0))) if diff.size else (-1.0, 1.0)
    pad = 0.05 * (high - low) or 0.05
    ax.set_ylim(low - pad, high + pad)
    ax.axhline(0.0, color="black", linewidth=0.8)
    positions, labels = thin_ticks(x, [str(t) for t in differences["topic"]], TOPIC_LABELS)
    ax.set_xticks(positions, labels, rotation=90, fontsize=MIN_FONT)
    ax.set_xlim(-0.6, max(diff.size, 1) - 0.4)
    ax.set_xlabel("topic (sorted by difference)")
    ax.set_ylabel(f"{measure} difference" if measure else "difference")
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    ax.set_title(f"{run} − {baseline}: {wins} topics better, {losses} worse, {diff.size - wins - losses} tied",
                 fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    return ax


def sampled_scores_plot(table: pd.DataFrame, *, measure: str, ax=None):
    """Sampled scores beside the bounds (Fröbe et al. 2023): every run ranked by its sampled
    mean of ``measure``, with the sampled interval (``low``–``high``), the condensed-list value
    and, where the measure has them, the mean bounds B and T. ``table`` is
    :meth:`irnb.sampling.SampledScores.beside_bounds`."""
    missing = [c for c in ("run", "measure", "mean", "low", "high", "condensed", "lower", "upper")
               if c not in table.columns]
    if missing:
        raise ValueError(f"sampled_scores_plot: the table needs the columns of SampledScores.beside_bounds(); "
                         f"missing {missing}")
    rows = table[table["measure"] == measure]
    if rows.empty:
        raise ValueError(f"sampled_scores_plot: no rows for measure {measure!r}; measures: "
                         f"{sorted(table['measure'].unique())}")
    ax = axes_or_new(ax, (8.0, 4.0))
    order = np.lexsort((np.arange(len(rows)), -rows["mean"].to_numpy(np.float64)))
    rows = rows.iloc[order]
    x = np.arange(1, len(rows) + 1, dtype=np.float64)
    mean = rows["mean"].to_numpy(np.float64)
    if rows["lower"].notna().any():
        tag(ax.vlines(x, rows["lower"], rows["upper"], color=PALETTE[2], alpha=0.35, linewidth=4,
                      label="[B, T]"), "bounds")
    tag(ax.errorbar(x, mean, yerr=[mean - rows["low"].to_numpy(np.float64), rows["high"].to_numpy(np.float64) - mean],
                    fmt="o", markersize=3, color=PALETTE[0], capsize=2, label="sampled mean and interval")[0],
        "sampled")
    tag(ax.plot(x, rows["condensed"].to_numpy(np.float64), linestyle="none", marker="s", markersize=3,
                markerfacecolor="none", color=PALETTE[1], label="condensed list")[0], "condensed")
    ax.set_xlabel(f"runs ranked by their sampled {measure_label(measure)}")
    ax.set_ylabel(f"{measure_label(measure)}, mean over topics")
    ax.grid(alpha=0.3)
    ax.set_xticks(*thin_ticks(x, rows["run"].astype(str).tolist(), 40), rotation=90, fontsize=MIN_FONT)
    outside_legend(ax, *ax.get_legend_handles_labels())
    return ax
