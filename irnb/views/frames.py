"""A live view's figure: made once, laid out once, redrawn on every change, shown on the page.

A :class:`Frame` holds the figure of a view and the widget that shows it. With the ipympl
backend (``%matplotlib widget``) the figure's canvas is the widget and
``canvas.draw_idle()`` redraws it; with any other backend the Agg canvas prints it as PNG
(``FigureCanvasAgg.print_png``) into an ``ipywidgets.Image`` — the same artists, the picture
re-rendered. Both canvases draw text from a cache of bitmaps
(:mod:`irnb.views.text_cache`).

Speed: matplotlib's constrained layout measures every text of the figure several times per
draw; a slider redraws the figure every time. So the layout is computed on the first draw
and then frozen (``set_layout_engine("none")``), and redone only when a tick label grows
longer than any seen at the last layout; the layout pass makes room for the longest run
name and topic id, so later labels fit without one. The same pass pins the axis labels
(``Axis.set_label_coords``) and the titles (``Axes.set_title(y=…)``) where it placed them:
left to itself, matplotlib measures every tick label again on every draw to place them, and
text layout is what a redraw spends most on. matplotlib and ipywidgets are imported when a
frame is made, never at import.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any
from collections.abc import Sequence

from ..params import DISPLAY_CHOICE
from .layout import PNG_DPI
from .text_cache import text_cache_canvas

__all__ = ["CANVASES", "Frame", "png"]

#: The canvases a view can draw on ("auto": ipympl when it is matplotlib's backend, else PNG).
CANVASES = ("auto", "ipympl", "png")


class Frame:
    """The figure of a live view (``figsize`` inches, panels on a ``grid`` of (rows, columns))
    drawn on ``canvas`` ("auto", "ipympl" or "png"): ``figure``, ``widget`` (what the page
    shows: the ipympl canvas or an ``ipywidgets.Image``), ``mode`` ("ipympl" or "png") and
    ``layouts`` (layout passes so far: one at the start, more only when tick labels grow)."""

    def __init__(self, figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
                 height_ratios=None):
        DISPLAY_CHOICE.among(CANVASES).validate(canvas, None, label="canvas")
        self.figure, self.widget, self.mode = _figure(figsize, canvas, grid, width_ratios, height_ratios)
        self.layouts = 0
        self._layout: tuple[int, ...] | None = None
        self._titles: list[tuple[Any, float]] | None = None  # (Axes, title y) pinned by the last layout pass

    def render(self, label_pools: Sequence[Sequence[str]] = ()) -> None:
        """Redraw: a constrained-layout pass only when tick labels grew (then the layout is
        frozen), else a plain draw. The layout pass makes room for the longest name of each
        of ``label_pools`` (run names, topic ids) on every axis that shows names from it."""
        figure = self.figure
        widths = _label_widths(figure)
        if self._layout is None or len(widths) != len(self._layout) or any(
                now > then for now, then in zip(widths, self._layout, strict=True)):
            # lay out with the longest run name / topic id in place of one label of each axis
            # that shows them: later labels fit without a new layout, so the picture depends on
            # the controls only (back to a setting, same picture)
            restore = _reserve_labels(figure, label_pools)
            self._layout = _label_widths(figure)
            figure.set_layout_engine("constrained")
            figure.canvas.draw()
            if self._titles is not None:  # pinned by an earlier pass: place them by the new tick labels, lay out again
                _place_pinned_texts(figure)
                figure.canvas.draw()
                _place_pinned_texts(figure)
            self._titles = _pin_texts(figure)
            for formatter, labels in restore:
                formatter.seq = labels
            figure.set_layout_engine("none")
            self.layouts += 1
        else:  # a plot's update sets its title again, at matplotlib's default height
            for ax, y in self._titles:
                ax.title.set_y(y)
        if self.mode == "ipympl":
            figure.canvas.draw_idle()
        else:
            self.widget.value = png(figure)


def _figure(figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
            height_ratios=None):
    """(figure, the widget that shows it, "ipympl" | "png")."""
    import ipywidgets
    import matplotlib
    from matplotlib.figure import Figure

    mode = canvas
    if mode == "auto":
        backend = matplotlib.get_backend().lower()
        mode = "ipympl" if ("ipympl" in backend or backend == "widget") else "png"
    if mode == "ipympl":  # the figure's canvas is the widget; not registered with pyplot
        try:
            from ipympl.backend_nbagg import Canvas
        except ImportError:
            raise ImportError("canvas='ipympl' needs the ipympl package, which is not installed (Colab does not "
                              "run it); canvas='auto' or 'png' draws the view as a picture instead") from None

        figure = Figure(figsize=figsize, layout="constrained")
        text_cache_canvas(Canvas).new_manager(figure, 0)
        figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
        figure.canvas.header_visible = False
        return figure, figure.canvas, mode
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = Figure(figsize=figsize, dpi=PNG_DPI, layout="constrained")
    text_cache_canvas(FigureCanvasAgg)(figure)
    figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
    image = ipywidgets.Image(format="png", layout={"width": f"{int(figsize[0] * PNG_DPI)}px",
                                                   "max_width": "100%", "height": "auto"})
    return figure, image, mode


def _label_widths(figure) -> tuple[int, ...]:
    """The longest fixed tick label (in characters) of every axis: the layout is redone
    when one grows."""
    widths = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = getattr(axis.get_major_formatter(), "seq", None)
            widths.append(max((len(str(x)) for x in labels), default=0) if labels is not None else 0)
    return tuple(widths)


def _reserve_labels(figure, pools: Sequence[Sequence[str]]) -> list[tuple[Any, list]]:
    """For every axis whose fixed tick labels all come from one of ``pools`` (run names,
    topic ids), put the pool's longest name in place of its first label; returns what to
    restore (formatter, labels)."""
    restore = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            formatter = axis.get_major_formatter()
            labels = getattr(formatter, "seq", None)
            if not labels:
                continue
            for pool in pools:
                if set(labels) <= set(pool):
                    longest = max(pool, key=len)
                    if len(longest) > max(len(x) for x in labels):
                        restore.append((formatter, list(labels)))
                        formatter.seq = [longest] + list(labels[1:])
                    break
    return restore


def _pin_texts(figure) -> list[tuple[Any, float]]:
    """Pin every axis label and centre title of ``figure`` where the last draw placed it, so
    that later draws do not measure the tick labels again to place them; returns (Axes,
    title y) of the pinned titles (a plot's update that sets its title resets the height)."""
    titles = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.label.get_text():
                label = axis.label
                x, y = ax.transAxes.inverted().transform(label.get_transform().transform(label.get_position()))
                axis.set_label_coords(x, y)
        if ax.get_title() and not ax.get_title(loc="left") and not ax.get_title(loc="right"):
            y = float(ax.title.get_position()[1])
            ax.set_title(ax.get_title(), y=y, fontproperties=ax.title.get_fontproperties().copy(),
                         color=ax.title.get_color())
            titles.append((ax, y))
    return titles


def _place_pinned_texts(figure) -> None:
    """Place the pinned labels and titles of ``figure`` as matplotlib places unpinned ones,
    from the tick labels of its last draw: an axis label ``labelpad`` points beyond its
    side's tick labels and spine, a title above the axes and any tick labels on top."""
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        for axis, sides in ((ax.xaxis, ("bottom", "top")), (ax.yaxis, ("left", "right"))):
            if not axis.label.get_text():
                continue
            side = axis.get_label_position()
            pad = axis.labelpad * figure.dpi / 72
            boxes = [ax.spines.get(side, ax).get_window_extent(renderer)] + _tick_label_boxes(
                axis, renderer, first=side == sides[0])
            x, y = ax.transAxes.inverted().transform(axis.label.get_transform().transform(axis.label.get_position()))
            edge = {"bottom": min(b.y0 for b in boxes) - pad, "top": max(b.y1 for b in boxes) + pad,
                    "left": min(b.x0 for b in boxes) - pad, "right": max(b.x1 for b in boxes) + pad}[side]
            if axis is ax.xaxis:
                y = ax.transAxes.inverted().transform((0, edge))[1]
            else:
                x = ax.transAxes.inverted().transform((edge, 0))[0]
            axis.set_label_coords(x, y)
        if ax.get_title():
            top = ax.bbox.y1
            if ax.xaxis.get_ticks_position() in ("top", "unknown") or ax.xaxis.get_label_position() == "top":
                top = max([top, ax.xaxis.label.get_window_extent(renderer).y1]
                          + [b.y1 for b in _tick_label_boxes(ax.xaxis, renderer, first=False)])
            ax.title.set_y(1.0)
            for target in ("top", "again"):  # matplotlib's two steps: to the top, then by what is left
                low = ax.title.get_window_extent(renderer).y0
                if low >= top:
                    break
                y = top if target == "top" else 2 * top - low
                ax.title.set_y(ax.transAxes.inverted().transform((0, y))[1])


def _tick_label_boxes(axis, renderer, *, first: bool) -> list:
    """Extents of the visible tick labels drawn on one side of ``axis`` (``first``: bottom or
    left) within its view limits."""
    low, high = sorted(axis.get_view_interval())
    slack = (high - low) * 1e-10
    boxes = []
    for tick in axis.get_major_ticks():
        label = tick.label1 if first else tick.label2
        if label.get_visible() and label.get_text() and low - slack <= tick.get_loc() <= high + slack:
            boxes.append(label.get_window_extent(renderer))
    return boxes


def png(figure) -> bytes:
    """The figure drawn once and written as PNG by its Agg canvas at its own dpi (zlib level 1:
    fast, and plots are mostly runs of one colour). ``savefig`` would draw a figure with a
    layout engine twice."""
    buffer = BytesIO()
    figure.canvas.print_png(buffer, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()
