"""A live view's figure: made once, laid out once, redrawn on every change, shown on the page.

A :class:`Frame` holds the figure of a view and the widget that shows it. With the ipympl
backend (``%matplotlib widget``) the figure's canvas is the widget and
``canvas.draw_idle()`` redraws it; with any other backend the figure is drawn with Agg and
its buffer written as PNG (by matplotlib, :func:`png`) into an ``ipywidgets.Image`` — the
same artists, only the picture re-rendered.

Speed: the layout (constrained) is computed on the first draw and then frozen — axes
positions, titles and axis labels stay put — and redone only when a tick label grows
longer than any seen at the last layout. While it is frozen, the tick labels of the axes
it pinned are drawn without being measured first (:func:`frame_canvas`), and on the PNG
canvas a legend that did not change is put back as the pixels it drew
(:mod:`irnb.views.still_legends`); frames are drawn with unhinted glyphs, and both
canvases draw text from a cache of bitmaps (:mod:`irnb.views.text_cache`). matplotlib
and ipywidgets are imported when a frame is made, never at import.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Any
from collections.abc import Iterator, Sequence

from ..params import CANVAS
from .layout import PNG_DPI
from .still_legends import aside, later_axes, put_back, still_legends, take
from .text_cache import text_cache_canvas

__all__ = ["CANVASES", "DRAW_RC", "Frame", "frame_canvas", "png"]

#: The canvases a view can draw on ("auto": ipympl when it is matplotlib's backend, else PNG).
CANVASES = CANVAS.choices
#: rcParams of every frame's draw: unhinted glyphs (a quarter less text-drawing time).
DRAW_RC = {"text.hinting": "no_hinting"}


class Frame:
    """The figure of a live view (``figsize`` inches, panels on a ``grid`` of (rows, columns))
    drawn on ``canvas`` ("auto", "ipympl" or "png"): ``figure``, ``widget`` (what the page
    shows: the ipympl canvas or an ``ipywidgets.Image``), ``mode`` ("ipympl" or "png") and
    ``layouts`` (layout passes so far: one at the start, more only when tick labels grow)."""

    def __init__(self, figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
                 height_ratios=None):
        CANVAS.validate(canvas, None)
        self.figure, self.widget, self.mode = _figure(figsize, canvas, grid, width_ratios, height_ratios)
        if self.mode == "png":  # ipympl sends the picture as the draw ends: legends drawn as usual
            self.figure.canvas.legend_pictures = {}
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
                figure.canvas.frozen_axes = ()
                figure.set_layout_engine("constrained")
                figure.canvas.draw()
                for formatter, labels in restore:
                    formatter.seq = labels
                figure.canvas.frozen_axes = _freeze_layout(figure)
                self.layouts += 1
            if self.mode == "ipympl":
                figure.canvas.draw_idle()
                return
            figure.canvas.draw()
        self.widget.value = png(figure)


def _figure(figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
            height_ratios=None):
    """(figure, the widget that shows it, "ipympl" | "png"), on a :func:`frame_canvas`."""
    import ipywidgets
    import matplotlib

    mode = canvas
    if mode == "auto":
        backend = matplotlib.get_backend().lower()
        mode = "ipympl" if ("ipympl" in backend or backend == "widget") else "png"
    from matplotlib.figure import Figure

    if mode == "ipympl":  # the figure's canvas is the widget; not registered with pyplot
        try:
            from ipympl.backend_nbagg import Canvas, FigureManager
        except ImportError:
            raise ImportError("canvas='ipympl' needs the ipympl package, which is not installed (Colab does not "
                              "run it); canvas='auto' or 'png' draws the view as a picture instead") from None

        figure = Figure(figsize=figsize, layout="constrained")
        FigureManager(frame_canvas(Canvas)(figure), 0)
        figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
        figure.canvas.header_visible = False
        return figure, figure.canvas, mode
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = Figure(figsize=figsize, dpi=PNG_DPI, layout="constrained")
    frame_canvas(FigureCanvasAgg)(figure)
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


def _freeze_layout(figure) -> tuple:
    """Keep the positions the last layout pass found: no layout engine, axis labels pinned
    where they are (matplotlib otherwise re-measures every tick label on each draw).
    Returns the axes whose labels it pinned."""
    figure.set_layout_engine("none")
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            label = axis.label  # pinned even when empty: else each draw measures the tick labels for it
            where = label.get_transform().transform(label.get_position())
            axis.set_label_coords(*ax.transAxes.inverted().transform(where))
    return tuple(figure.axes)


@functools.cache
def frame_canvas(base: type) -> type:
    """``base`` (matplotlib's FigureCanvasAgg or ipympl's Canvas) drawing text from bitmaps
    (:func:`irnb.views.text_cache.text_cache_canvas`) and, while a frame's layout is frozen,
    its pinned axes' tick labels without measuring them first.

    Why: matplotlib measures every tick label (lays it out: its font's height metrics,
    its size) before drawing it, only to place what sits beside the tick labels — the axis
    label (pinned here by the frozen layout), the x axis's offset text ("1e6"; placed
    below the measured labels) and a title above top-side ticks — and then lays it out
    again to draw it. A tick label marked out of the layout (the public
    ``Artist.set_in_layout``) is not measured; the canvas marks them so for the draw only,
    so that ``get_tightbbox`` and ``savefig(bbox_inches="tight")`` still count them. Left
    measured: x axes with ticks or label on top (a title sits above them); when a skipped
    x axis turns out to show an offset text, the draw is redone with everything measured,
    and that axis stays measured (``measured_x_axes``) while it shows one, so a slider
    moving over it pays one draw, not two. The pixels are the same either way.
    ``frozen_axes`` (set by :class:`Frame`) are the axes whose layout is frozen; empty, the
    canvas draws as usual. ``legend_pictures`` (a
    dict, set by a PNG :class:`Frame`; None: legends drawn as usual) holds the pictures of
    the still legends of those axes (:mod:`irnb.views.still_legends`)."""

    class FrameCanvas(text_cache_canvas(base)):
        frozen_axes: tuple = ()
        legend_pictures: dict | None = None
        measured_x_axes: frozenset = frozenset()  # x axes showing an offset text on the last draw

        def draw(self, *args, **kwargs):
            if not self.frozen_axes:
                return super().draw(*args, **kwargs)
            hits, fresh = still_legends(self, self.frozen_axes) if self.legend_pictures is not None else ([], [])
            later = later_axes(fresh[0]) if fresh else []
            with _tick_labels_unmeasured(self.frozen_axes, self.measured_x_axes) as skipped_x_axes, aside(hits):
                with aside([*fresh, *later]):
                    result = super().draw(*args, **kwargs)
                for legend in fresh:  # drawn after its axes, then the axes after them: matplotlib's order
                    take(self, legend, later)
            offset = {axis for axis in (*skipped_x_axes, *self.measured_x_axes) if _shows_offset(axis)}
            self.measured_x_axes = frozenset(offset)
            if offset.intersection(skipped_x_axes) or hits and not put_back(self, hits):
                # the offset text goes below the measured labels; a legend's picture did not fit
                result = super().draw(*args, **kwargs)
            return result

    FrameCanvas.__name__ = FrameCanvas.__qualname__ = f"Frame{base.__name__}"
    return FrameCanvas


def _shows_offset(axis) -> bool:
    return bool(axis.offsetText.get_visible() and axis.offsetText.get_text())


@contextmanager
def _tick_labels_unmeasured(axes: Sequence[Any], measured: frozenset = frozenset()) -> Iterator[list]:
    """Mark the tick labels of ``axes`` out of the layout (see :func:`frame_canvas`), all
    but those of x axes with ticks or label on top and of the x axes in ``measured``;
    yields the x axes so marked, and puts every mark back afterwards."""
    marked, x_axes = [], []
    for ax in axes:
        axes_of = [ax.yaxis]
        if (ax.xaxis.get_ticks_position() not in ("top", "unknown") and ax.xaxis.get_label_position() != "top"
                and ax.xaxis not in measured):
            axes_of.append(ax.xaxis)
            x_axes.append(ax.xaxis)
        for axis in axes_of:
            for tick in (*axis.majorTicks, *axis.minorTicks):
                for label in (tick.label1, tick.label2):
                    if label.get_in_layout():
                        label.set_in_layout(False)
                        marked.append(label)
    try:
        yield x_axes
    finally:
        for label in marked:
            label.set_in_layout(True)


def png(figure) -> bytes:
    """The figure's rendered buffer (already drawn) as PNG bytes, written by Pillow (the
    image library matplotlib writes its own PNGs with; zlib level 1: fast, and plots are
    mostly runs of one colour). An opaque picture (every pixel's alpha 255, as a figure
    on its white face) is written as RGB: the same pixels, a sixth less to compress.
    ``savefig`` would draw the figure a second time."""
    from io import BytesIO

    import numpy as np
    from PIL import Image

    size = figure.canvas.get_width_height(physical=True)
    pixels = figure.canvas.buffer_rgba()
    if np.asarray(pixels)[:, :, 3].min() == 255:
        image = Image.frombytes("RGB", size, pixels, "raw", "RGBX")  # alpha dropped as it is read
    else:
        image = Image.frombuffer("RGBA", size, pixels, "raw", "RGBA", 0, 1)
    buffer = BytesIO()
    image.save(buffer, format="png", compress_level=1)
    return buffer.getvalue()
