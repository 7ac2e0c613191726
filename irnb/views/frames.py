"""A live view's figure: made once, laid out once, redrawn on every change, shown on the page.

A :class:`Frame` holds the figure of a view and the widget that shows it. With the ipympl
backend (``%matplotlib widget``) the figure's canvas is the widget and
``canvas.draw_idle()`` redraws it; with any other backend the figure is drawn with Agg and
its buffer written as PNG (by matplotlib, :func:`png`) into an ``ipywidgets.Image`` — the
same artists, only the picture re-rendered.

Speed: the layout (constrained) is computed on the first draw and then frozen — axes
positions, titles and axis labels stay put — and redone only when a tick label grows
longer than any seen at the last layout; frames are drawn with unhinted glyphs, and both
canvases draw text from a cache of bitmaps (:mod:`irnb.views.text_cache`).
matplotlib and ipywidgets are imported when a frame is made, never at import.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .layout import PNG_DPI
from .text_cache import text_cache_canvas

__all__ = ["CANVASES", "DRAW_RC", "Frame", "png"]

#: The canvases a view can draw on ("auto": ipympl when it is matplotlib's backend, else PNG).
CANVASES = ("auto", "ipympl", "png")
#: rcParams of every frame's draw: unhinted glyphs (a quarter less text-drawing time).
DRAW_RC = {"text.hinting": "no_hinting"}


class Frame:
    """The figure of a live view (``figsize`` inches, panels on a ``grid`` of (rows, columns))
    drawn on ``canvas`` ("auto", "ipympl" or "png"): ``figure``, ``widget`` (what the page
    shows: the ipympl canvas or an ``ipywidgets.Image``), ``mode`` ("ipympl" or "png") and
    ``layouts`` (layout passes so far: one at the start, more only when tick labels grow)."""

    def __init__(self, figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
                 height_ratios=None):
        if canvas not in CANVASES:
            raise ValueError(f"canvas must be one of {CANVASES}, got {canvas!r}")
        self.figure, self.widget, self.mode = _figure(figsize, canvas, grid, width_ratios, height_ratios)
        self.layouts = 0
        self._layout: tuple[int, ...] | None = None

    def render(self, label_pools: Sequence[Sequence[str]]) -> None:
        """Redraw: a constrained-layout pass only when tick labels grew (then the layout is
        frozen: positions, titles and axis labels stay put), else a plain draw. The layout
        pass makes room for the longest name of each of ``label_pools`` (run names, topic
        ids) on every axis that shows names from it."""
        import matplotlib

        figure = self.figure
        widths = _label_widths(figure)
        with matplotlib.rc_context(DRAW_RC):
            if self._layout is None or len(widths) != len(self._layout) or any(
                    now > then for now, then in zip(widths, self._layout, strict=True)):
                # lay out with the longest run name / topic id in place of one label of each
                # axis that shows run names / topic ids: later labels fit without a new layout,
                # so the picture depends on the controls only (back to a setting, same picture)
                restore = _reserve_labels(figure, label_pools)
                self._layout = _label_widths(figure)
                figure.set_layout_engine("constrained")
                figure.canvas.draw()
                for formatter, labels in restore:
                    formatter.seq = labels
                _freeze_layout(figure)
                self.layouts += 1
            if self.mode == "ipympl":
                figure.canvas.draw_idle()
                return
            figure.canvas.draw()
        self.widget.value = png(figure)


def _figure(figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
            height_ratios=None):
    """(figure, the widget that shows it, "ipympl" | "png"). Either canvas draws text from
    a bitmap cache (:mod:`irnb.views.text_cache`)."""
    import ipywidgets
    import matplotlib

    mode = canvas
    if mode == "auto":
        backend = matplotlib.get_backend().lower()
        mode = "ipympl" if ("ipympl" in backend or backend == "widget") else "png"
    from matplotlib.figure import Figure

    if mode == "ipympl":  # the figure's canvas is the widget; not registered with pyplot
        from ipympl.backend_nbagg import Canvas, FigureManager

        figure = Figure(figsize=figsize, layout="constrained")
        FigureManager(text_cache_canvas(Canvas)(figure), 0)
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


def _freeze_layout(figure) -> None:
    """Keep the positions the last layout pass found: no layout engine, axis labels pinned
    where they are (matplotlib otherwise re-measures every tick label on each draw)."""
    figure.set_layout_engine("none")
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            label = axis.label  # pinned even when empty: else each draw measures the tick labels for it
            where = label.get_transform().transform(label.get_position())
            axis.set_label_coords(*ax.transAxes.inverted().transform(where))


def png(figure) -> bytes:
    """The figure's rendered buffer (already drawn) as PNG bytes, written by matplotlib
    (``matplotlib.image.imsave``, zlib level 1: fast, and plots are mostly runs of one
    colour). ``savefig`` would draw the figure a second time."""
    from io import BytesIO

    from matplotlib.image import imsave

    buffer = BytesIO()
    imsave(buffer, np.asarray(figure.canvas.buffer_rgba()), format="png", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()
