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
name and topic id, so later labels fit without one. matplotlib and ipywidgets are imported
when a frame is made, never at import.
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
            for formatter, labels in restore:
                formatter.seq = labels
            figure.set_layout_engine("none")
            self.layouts += 1
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


def png(figure) -> bytes:
    """The figure drawn once and written as PNG by its Agg canvas at its own dpi (zlib level 1:
    fast, and plots are mostly runs of one colour). ``savefig`` would draw a figure with a
    layout engine twice."""
    buffer = BytesIO()
    figure.canvas.print_png(buffer, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()
