"""Legends that did not change since the last draw, put back as the pixels they drew then.

Why: a live view's legend (its entries, their texts and handles) rarely changes when a
control does, yet matplotlib lays it out twice on every draw (it packs its entries to
find its box, then again to draw them), measuring each text each time: 2–4 ms of a
view's 12–16 ms redraw.

How, with matplotlib's public API (for a frame whose layout is frozen, PNG canvas): a
legend is *still* when no visible artist of it is stale (every setter marks its artist
stale; a draw marks it fresh) and the canvas, the dpi, the axes' positions and the
rcParams are as when it was last drawn. A still legend is left out of the figure's draw
(``Artist.set_animated``, for that draw only) and its picture put back
(``canvas.restore_region``) when the pixels under its box (padded by :data:`PAD`) are
those the picture was taken on; else the frame is drawn again as usual and the legend
left to matplotlib until it changes. A picture is taken in matplotlib's own order: the
figure drawn without the legend and the axes drawn after its own, then the legend
(``Legend.draw``; nothing of its axes may be drawn above it, and no figure-level
artist), its box copied (``canvas.copy_from_bbox``), then those axes; it is kept when
they left the box as it was. The pixels are the same either way.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["PAD", "LegendPicture", "aside", "later_axes", "put_back", "still_legends", "take"]

#: Pixels added around a legend's box: a marker or a line of a handle may reach past it.
PAD = 3


@dataclass
class LegendPicture:
    """A legend's picture: the ``signature`` it was drawn under (canvas size, dpi, the
    axes' positions, rcParams); ``box`` (display-space Bbox, padded), the pixels ``under``
    it (RGBA, rows top first) and ``over`` it (a ``canvas.copy_from_bbox`` region) once
    taken; ``refused``: a check failed, the legend is left to matplotlib while the
    signature holds and it does not change."""

    signature: tuple
    box: Any = None
    under: np.ndarray | None = None
    over: Any = None
    refused: bool = False


def _signature(canvas, rc: dict) -> tuple:
    """What every legend's picture of this draw depends on: canvas size, dpi, the axes'
    places, the rcParams."""
    width, height = canvas.get_width_height(physical=True)
    places = tuple(tuple(ax.get_position().bounds) + (ax.get_zorder(), ax.get_visible()) for ax in canvas.figure.axes)
    return width, height, canvas.figure.dpi, places, rc


def _unchanged(legend) -> bool:
    """No visible artist of ``legend`` (itself included) changed since it was drawn."""
    return not any(artist.stale and artist.get_visible() for artist in legend.findobj())


def still_legends(canvas, axes: Sequence[Any]) -> tuple[list, list]:
    """(legends to put back, legends to take a picture of: at most one) among the legends
    of ``axes``: visible, unchanged since drawn, not refused. Keeps
    ``canvas.legend_pictures`` to the legends of ``axes``."""
    import matplotlib as mpl

    signature = None  # the same for every legend of this draw: taken once, when a legend needs it
    before, pictures, hits, fresh = canvas.legend_pictures, {}, [], []
    for ax in axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible() or legend.get_animated() or not _unchanged(legend):
            continue  # drawn by matplotlib; its picture taken on a later draw
        if signature is None:
            signature = _signature(canvas, dict.copy(mpl.rcParams))
        picture = before.get(legend)
        if picture is None or picture.signature != signature:
            picture = LegendPicture(signature, refused=not _last(legend))
        pictures[legend] = picture
        if picture.over is not None:
            hits.append(legend)
        elif not picture.refused and not fresh:
            fresh.append(legend)
    canvas.legend_pictures = pictures
    return hits, fresh


def _last(legend) -> bool:
    """Nothing of its axes drawn after ``legend``, no figure-level artist (drawn after every
    axes): its picture can be taken by drawing it after its axes."""
    figure = legend.get_figure(root=True)
    if any(child is not figure.patch and child not in figure.axes and child.get_visible()
           for child in figure.get_children()):
        return False
    return not any(child is not legend and child.get_visible() and child.get_zorder() >= legend.get_zorder()
                   for child in legend.axes.get_children())


def later_axes(legend) -> list:
    """The axes the figure draws after the legend's (it draws them by zorder, stably)."""
    order = sorted(legend.get_figure(root=True).axes, key=lambda ax: ax.get_zorder())
    return order[order.index(legend.axes) + 1:]


@contextmanager
def aside(artists: Sequence[Any]) -> Iterator[None]:
    """Leave ``artists`` (legends, axes) out of the figure's draw: animated artists are not drawn."""
    for artist in artists:
        artist.set_animated(True)
    try:
        yield
    finally:
        for artist in artists:
            artist.set_animated(False)


def _rows_columns(canvas, box) -> tuple[slice, slice]:
    height = canvas.get_width_height(physical=True)[1]
    return slice(height - round(box.y1), height - round(box.y0)), slice(round(box.x0), round(box.x1))


def take(canvas, legend, later: Sequence[Any]) -> None:
    """After a draw without ``legend`` and the ``later`` axes (:func:`aside`): draw the
    legend, keep its box's pixels before and after, then draw the later axes — matplotlib's
    own order, so the frame is as usual. The picture is kept when nothing drawn later
    changed the box, else the legend is refused."""
    from matplotlib.transforms import Bbox

    picture = canvas.legend_pictures[legend]
    renderer = canvas.get_renderer()
    pixels = np.asarray(canvas.buffer_rgba())
    width, height = canvas.get_width_height(physical=True)
    extent = legend.get_window_extent(renderer)
    box = Bbox.from_extents(max(0, math.floor(extent.x0) - PAD), max(0, math.floor(extent.y0) - PAD),
                            min(width, math.ceil(extent.x1) + PAD), min(height, math.ceil(extent.y1) + PAD))
    rows, columns = _rows_columns(canvas, box)
    under = pixels[rows, columns].copy()
    whole = pixels.copy()
    legend.draw(renderer)
    whole[rows, columns] = pixels[rows, columns]
    inside = np.array_equal(whole, pixels)  # the legend drew inside its box only
    over = pixels[rows, columns].copy()
    region = canvas.copy_from_bbox(box)
    for ax in later:
        ax.draw(renderer)
    if under.size and inside and np.array_equal(pixels[rows, columns], over):
        picture.box, picture.under, picture.over = box, under, region
    else:
        picture.refused = True


def put_back(canvas, legends: Sequence[Any]) -> bool:
    """After a draw without ``legends`` (:func:`aside`): put back each one's picture if the
    pixels under its box are those it was taken on. False when they are not: the figure
    must be drawn again as usual (and the legend is refused from now on)."""
    pixels = np.asarray(canvas.buffer_rgba())
    for legend in legends:
        picture = canvas.legend_pictures[legend]
        rows, columns = _rows_columns(canvas, picture.box)
        if not np.array_equal(pixels[rows, columns], picture.under):
            picture.refused = True
            return False
        canvas.restore_region(picture.over)
    return True
