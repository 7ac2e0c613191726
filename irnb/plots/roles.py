"""The Axes a plot draws on and the artists it tags by role, so that its ``update_*`` twin
(and a widget, and a test) finds them again: :func:`~irnb.plots.artists` returns them by role, e.g.
``artists(ax)["intervals"]`` is the LineCollection of [B, T] segments. A plot given
``ax=None`` draws on a new figure (:func:`axes_or_new`); matplotlib is imported inside the
functions, so importing this module never loads it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["axes_or_new", "tag", "artists", "require_artist", "twin_axes"]

_GID = "irnb:"


def axes_or_new(ax, figsize: tuple[float, float]):
    """``ax`` when a caller gave one, else the Axes of a new ``figsize`` figure (constrained layout)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def tag(artist, role: str):
    """``artist`` marked with ``role`` (its gid), so that :func:`~irnb.plots.artists` finds it again; returns it."""
    artist.set_gid(_GID + role)
    return artist


def _twins(ax) -> list:
    """``ax`` and the Axes drawn over it with ``twinx`` (same position, shared x)."""
    siblings = ax.get_shared_x_axes().get_siblings(ax)
    box = ax.get_position().bounds
    return [ax] + [a for a in siblings if a is not ax and a.get_position().bounds == box]


def artists(ax) -> dict[str, Any]:
    """The irnb artists on ``ax`` (and on an Axes twinned with it), by role.

    Roles: ``intervals`` (LineCollection of [B, T]), ``estimate``, ``truth`` (Line2D);
    ``cases`` (AxesImage), ``weak`` (Line2D of × glyphs); ``proportions`` (AxesImage);
    ``bias:<measure>``, ``tau:<measure>``, ``current``; ``unjudged_a``, ``unjudged_b``,
    ``overlap``, ``difference``; ``unjudged``, ``original``, ``simulated``.
    """
    found: dict[str, Any] = {}
    for axes in _twins(ax):
        for child in axes.get_children():
            gid = child.get_gid()
            if isinstance(gid, str) and gid.startswith(_GID):
                found.setdefault(gid[len(_GID):], child)
    return found


def require_artist(ax, role: str, plot: str):
    """The artist of ``role`` on ``ax``; an error naming ``plot`` (an ``update_*`` function) and the
    plot to draw first when the Axes holds none."""
    found = artists(ax)
    if role not in found:
        raise ValueError(f"{plot}: the Axes holds no irnb {role!r} artist; draw it first with "
                         f"{plot.replace('update_', '')}(..., ax=ax)")
    return found[role]


def twin_axes(ax):
    """The Axes twinned with ``ax`` (a second y-axis), made on first use and found again after."""
    others = _twins(ax)[1:]
    return others[0] if others else ax.twinx()
