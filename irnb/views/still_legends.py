"""Legends that did not change since the last draw, put back as the pixels they drew then.

Why: a live view's legend (its entries, their texts and handles) rarely changes when a
control does, yet matplotlib lays it out twice on every draw (it packs its entries to
find its box, then again to draw them), measuring each text each time: 2–4 ms of a
view's 12–16 ms redraw.

How, with matplotlib's public API (for a frame whose layout is frozen, PNG canvas): a
legend is *still* when no visible artist of it is stale (every setter marks its artist
stale; a draw marks it fresh) and the canvas, the dpi, its axes' position and the
rcParams are as when it was last drawn. A still legend is left out of the figure's draw
(``Artist.set_animated``, for that draw only); then, if the pixels under its box (padded
by :data:`PAD`) are those its picture was drawn on, its picture is put back
(``canvas.restore_region``). Its first picture is taken when the box it covers is all of
one colour with nothing drawn over it (no other axes there, nothing above the legend in
its axes, no figure-level artist): the legend is drawn last (``Legend.draw``), which is
the picture matplotlib's order gives, and its box copied (``canvas.copy_from_bbox``).
When a check fails the frame is drawn again as usual, and that legend is left to
matplotlib until it changes. The pixels are the same either way.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

__all__ = ["PAD", "LegendPicture", "aside", "put_back", "still_legends"]

#: Pixels added around a legend's box: a marker or a line of a handle may reach past it.
PAD = 3


@dataclass
class LegendPicture:
    """A legend's picture: the ``signature`` it was drawn under (canvas size, dpi, its
    axes' position, rcParams); ``box`` (display-space Bbox, padded), the pixels ``under``
    it (RGBA, rows top first) and ``over`` it (a ``canvas.copy_from_bbox`` region) once
    taken; ``refused``: a check failed, the legend is left to matplotlib while the
    signature holds and it does not change."""

    signature: tuple
    box: Any = None
    under: np.ndarray | None = None
    over: Any = None
    refused: bool = False


def _signature(canvas, legend, rc: dict) -> tuple:
    width, height = canvas.get_width_height(physical=True)
    places = tuple(tuple(ax.get_position().bounds) + (ax.get_zorder(), ax.get_visible()) for ax in canvas.figure.axes)
    return width, height, canvas.figure.dpi, places, rc


def _unchanged(legend) -> bool:
    """No visible artist of ``legend`` (itself included) changed since it was drawn."""
    return not any(artist.stale and artist.get_visible() for artist in legend.findobj())


def still_legends(canvas, axes: Sequence[Any]) -> list:
    """The legends of ``axes`` to leave out of this draw (their picture is put back or
    taken afterwards, :func:`put_back`): visible, unchanged since drawn, not refused.
    Keeps ``canvas.legend_pictures`` to the legends of ``axes``."""
    import matplotlib as mpl

    rc = dict.copy(mpl.rcParams)
    before, pictures, still = canvas.legend_pictures, {}, []
    for ax in axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible() or legend.get_animated() or not _unchanged(legend):
            continue  # drawn by matplotlib; its picture taken on a later draw
        signature = _signature(canvas, legend, rc)
        picture = before.get(legend)
        if picture is None or picture.signature != signature:
            picture = LegendPicture(signature)
        pictures[legend] = picture
        if not picture.refused:
            still.append(legend)
    canvas.legend_pictures = pictures
    return still


@contextmanager
def aside(legends: Sequence[Any]) -> Iterator[None]:
    """Leave ``legends`` out of the figure's draw (animated artists are not drawn)."""
    for legend in legends:
        legend.set_animated(True)
    try:
        yield
    finally:
        for legend in legends:
            legend.set_animated(False)


def _rows_columns(canvas, box) -> tuple[slice, slice]:
    height = canvas.get_width_height(physical=True)[1]
    return slice(height - round(box.y1), height - round(box.y0)), slice(round(box.x0), round(box.x1))


def put_back(canvas, legends: Sequence[Any]) -> bool:
    """After a draw without ``legends`` (:func:`aside`): put back each one's picture, or
    take it (draw the legend last, copy its box). False when a check failed: the figure
    must be drawn again as usual (the failing legend is refused from now on)."""
    from matplotlib.transforms import Bbox

    renderer = canvas.get_renderer()
    pixels = np.asarray(canvas.buffer_rgba())
    width, height = canvas.get_width_height(physical=True)
    for legend in legends:
        picture = canvas.legend_pictures[legend]
        if picture.over is not None:
            rows, columns = _rows_columns(canvas, picture.box)
            if not np.array_equal(pixels[rows, columns], picture.under):
                picture.refused = True
                return False
            canvas.restore_region(picture.over)
            continue
        extent = legend.get_window_extent(renderer)
        box = Bbox.from_extents(max(0, math.floor(extent.x0) - PAD), max(0, math.floor(extent.y0) - PAD),
                                min(width, math.ceil(extent.x1) + PAD), min(height, math.ceil(extent.y1) + PAD))
        rows, columns = _rows_columns(canvas, box)
        under = pixels[rows, columns].copy()
        if under.size == 0 or not _alone(legend, box, renderer):
            picture.refused = True
            return False
        whole = pixels.copy()
        legend.draw(renderer)
        whole[rows, columns] = pixels[rows, columns]
        if not np.array_equal(whole, pixels):  # the legend drew outside its box
            picture.refused = True
            return False
        picture.box, picture.under, picture.over = box, under, canvas.copy_from_bbox(box)
    return True


def _alone(legend, box, renderer) -> bool:
    """Nothing is drawn over ``box`` after ``legend`` in matplotlib's order: no figure-level
    artist, nothing above the legend in its axes, no axes drawn later reaching there."""
    figure = legend.get_figure(root=True)
    if any(child is not figure.patch and child not in figure.axes and child.get_visible()
           for child in figure.get_children()):
        return False
    if any(child is not legend and child.get_visible() and child.get_zorder() >= legend.get_zorder()
           for child in legend.axes.get_children()):
        return False
    order = sorted(figure.axes, key=lambda ax: ax.get_zorder())  # the figure's drawing order
    later = order[order.index(legend.axes) + 1:]
    return not any(ax.get_visible() and ax.get_tightbbox(renderer).overlaps(box) for ax in later)
