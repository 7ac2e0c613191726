"""What every figure of the kit must get right in front of a class, as one function:
:func:`figure_problems` lists, in words, where a drawn matplotlib figure breaks a rule.

* a legend inside an Axes covers none of its data (points, line segments, bars, boxes);
* two labelled curves that coincide on screen are both visible: the one drawn underneath is at
  least twice as wide, or a legend label says that they coincide (different markers on unconnected
  points, such as a × on a circle, show both);
* series told apart by colour are also told apart by marker, line style or fill (colour-blind safe);
* no legend entry names an artist with nothing drawn;
* a log axis is labelled in plain numbers (5, 10, 100), not 10¹/10².

tests/plots/test_plots.py runs it on irnb.plots' figures; tests/test_notebooks.py runs it, inside the
kernel, on every figure each notebook cell leaves open (this file is read by path there, so it
imports only matplotlib and numpy, inside the function).
"""

from __future__ import annotations


def figure_problems(figure, *, where: str = "") -> list[str]:
    """The rules ``figure`` breaks, one sentence each (``where`` prefixes them)."""
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    figure.canvas.draw()
    problems: list[str] = []
    prefix = f"{where}: " if where else ""

    def say(ax, text):
        title = ax.get_title() or ax.get_ylabel() or "an Axes"
        problems.append(f"{prefix}[{title[:50]}] {text}")

    def data_lines(ax):
        return [ln for ln in ax.get_lines() if ln.get_visible() and ln.get_transform() is ax.transData
                and len(ln.get_xdata()) > 0]

    def line_points(line):
        xy = line.get_transform().transform(np.column_stack([np.asarray(line.get_xdata(), float),
                                                             np.asarray(line.get_ydata(), float)]))
        xy = xy[np.isfinite(xy).all(axis=1)]
        if line.get_linestyle() not in ("None", "none", "", " ") and len(xy) > 1:
            steps = np.linspace(0.0, 1.0, 12)[:, None, None]
            xy = (xy[:-1][None] * (1 - steps) + xy[1:][None] * steps).reshape(-1, 2)
        return xy

    axes = [ax for ax in figure.axes if ax.get_visible()]
    for ax in axes:
        legend = ax.get_legend()
        # --- a legend inside the Axes covers no data (of this Axes or of one drawn over it)
        if legend is not None and legend.get_visible():
            box = legend.get_window_extent().padded(-1)
            covered = 0
            for other in axes:
                if not other.get_window_extent().overlaps(box):
                    continue
                for line in data_lines(other):
                    xy = line_points(line)
                    covered += int(((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1)
                                    & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)).sum())
                for collection in other.collections:
                    if not collection.get_visible() or not isinstance(collection, Collection):
                        continue
                    offsets = collection.get_offsets()
                    if len(offsets) and collection.get_offset_transform() is other.transData:
                        xy = other.transData.transform(np.asarray(offsets, float))
                        covered += int(((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1)
                                        & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)).sum())
                for patch in other.patches:
                    if isinstance(patch, Patch) and patch.get_visible() and patch.get_window_extent().overlaps(box):
                        covered += 1
            if covered:
                say(ax, f"the legend covers {covered} data point(s), segment(s) or box(es)")
        shown = {t.get_text() for t in legend.get_texts()} if legend is not None else set()
        labelled = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
        # --- no legend entry for an artist with nothing drawn (an empty line may stand for scattered points, as
        # seaborn's legend proxies do, only where the Axes has scattered points; or for a drawn line that looks
        # the same, as seaborn's lineplot legends do)
        scattered = any(len(c.get_offsets()) > 1 for c in ax.collections if c.get_visible())

        def looks(line):
            return to_rgba(line.get_color()), line.get_marker(), line.get_linestyle()

        drawn_looks = {looks(ln) for ln in data_lines(ax)}
        for line in labelled:
            if line.get_label() in shown and len(line.get_xdata()) == 0 and not scattered \
                    and looks(line) not in drawn_looks:
                say(ax, f"the legend names {line.get_label()!r}, which has no points")
        # --- coinciding labelled curves stay visible
        drawn = [ln for ln in data_lines(ax) if not ln.get_label().startswith("_")]
        for i, low in enumerate(drawn):
            for high in drawn[i + 1:]:
                a, b = line_points(low), line_points(high)
                if a.shape != b.shape or not np.allclose(a, b, atol=3.0):
                    continue
                lined = [ln.get_linestyle() not in ("None", "none", "", " ") for ln in (low, high)]
                if low.get_marker() != high.get_marker() and not all(lined):
                    continue   # different markers on the same points (a × on a circle): both show
                under, over = sorted((low, high), key=lambda ln: ln.get_zorder())
                said = any("coincid" in ln.get_label() for ln in (low, high))
                if not said and under.get_linewidth() < 2 * over.get_linewidth():
                    say(ax, f"{under.get_label()!r} is drawn exactly under {over.get_label()!r} and is hidden")
        # --- colour plus a second cue: legend entries differ in marker or line style
        if legend is not None:
            handles = [h for h in legend.legend_handles if isinstance(h, Line2D)]
            cues = [(h.get_marker() if h.get_marker() not in (None, "None", "none", "") else "",
                     h.get_linestyle(), str(h.get_markerfacecolor()) == "none") for h in handles]   # hollow or filled
            repeated = {c for c in cues if cues.count(c) > 1}
            if repeated:
                say(ax, f"legend entries told apart by colour only (marker, line style, hollow: {sorted(repeated)})")
        # --- log axes in plain numbers
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if axis.get_scale() == "log":
                texts = [t.get_text() for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
                powers = [t for t in texts if "^" in t or "times" in t]
                if powers:
                    say(ax, f"the log {name} axis reads {powers[:3]}, not plain numbers")
    return problems
