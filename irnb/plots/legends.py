"""Legends outside the data: below the x-axis label or beside the Axes (past a twin axis's
labels), in :data:`~irnb.plots.MIN_FONT`, rebuilt only when their entries change, and
re-laid out in as many columns as a narrow panel has room for (:func:`~irnb.plots.set_legend_columns`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .style import MIN_FONT

__all__ = ["refresh_legend", "outside_legend", "set_legend_columns"]


def refresh_legend(ax, handles: Sequence, *, where: str = "below", **kwargs) -> None:
    """A legend of the visible labelled handles outside the data, rebuilt only when their
    labels change: ``where`` as in :func:`outside_legend`. Entries of hidden artists are left out."""
    handles = [h for h in handles if (not hasattr(h, "get_visible") or h.get_visible())]
    labels = [h.get_label() if hasattr(h, "get_label") else h[0].get_label() for h in handles]
    current = ax.get_legend()
    if current is not None and getattr(current, "_irnb_handles", None) == handles:
        # same entries: new words only (no new legend)
        for text, label in zip(current.get_texts(), labels, strict=True):
            if text.get_text() != label:
                text.set_text(label)
        return
    if current is not None:
        current.remove()
    if handles:
        outside_legend(ax, handles, labels, where=where, **kwargs)._irnb_handles = handles


def outside_legend(ax, handles, labels, *, where: str = "right", **kwargs):
    """A new legend of ``handles`` and ``labels`` outside the data of ``ax``: ``where="below"``
    (under the x-axis label, at most 3 columns), ``"right"`` (beside the Axes) or
    ``"right_twin"`` (beside it, past a twin axis's tick labels and label); ``kwargs`` override
    the placement (e.g. ``ncol``). Returns the Legend."""
    from matplotlib.transforms import ScaledTranslation

    shift = ScaledTranslation(0.0, -34 / 72, ax.figure.dpi_scale_trans)  # below the tick labels and x label
    if where == "below":
        options = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "bbox_transform": ax.transAxes + shift,
                   "ncol": min(len(handles), 3)}
    elif where == "right_twin":  # past the twin's tick labels and label
        options = {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0),
                   "bbox_transform": ax.transAxes + ScaledTranslation(48 / 72, 0.0, ax.figure.dpi_scale_trans)}
    else:
        options = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
    options.update(kwargs)
    return ax.legend(handles, labels, fontsize=MIN_FONT, frameon=False, **options)


def set_legend_columns(ax, columns: int) -> None:
    """Rebuild ``ax``'s legend below the panel (where :func:`~irnb.plots.legends.refresh_legend`
    placed it) in ``columns`` columns, when it has another number: a legend below a narrow panel
    in one column, not wider than it; ``columns=0`` hides it (another panel's legend says the same)."""
    legend = ax.get_legend()
    if legend is None or getattr(legend, "_irnb_columns", None) == columns:
        return
    if columns == 0:  # the same entries as another panel's legend
        legend.set_visible(False)
    else:
        handles = legend._irnb_handles  # refresh_legend updates the words in place while these stay
        labels = [t.get_text() for t in legend.get_texts()]
        legend.remove()
        legend = outside_legend(ax, handles, labels, where="below", ncol=columns)
        legend._irnb_handles = handles
    legend._irnb_columns = columns
