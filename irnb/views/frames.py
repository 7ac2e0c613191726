"""A live view's figure: made once, redrawn on every change, shown on the page — matplotlib's
and ipympl's own way.

A :class:`Frame` holds the figure of a view and the widget that shows it. With the ipympl
backend (``%matplotlib widget``) the figure's canvas is the widget and
``canvas.draw_idle()`` redraws it; with any other backend the figure is saved as PNG
(``Figure.savefig``) into an ``ipywidgets.Image`` — the same artists, the picture
re-rendered. Either way matplotlib's constrained layout places the panels on every draw.
matplotlib and ipywidgets are imported when a frame is made, never at import.
"""

from __future__ import annotations

from io import BytesIO

from ..params import CANVAS
from .layout import PNG_DPI

__all__ = ["CANVASES", "Frame", "png"]

#: The canvases a view can draw on ("auto": ipympl when it is matplotlib's backend, else PNG).
CANVASES = CANVAS.choices


class Frame:
    """The figure of a live view (``figsize`` inches, panels on a ``grid`` of (rows, columns))
    drawn on ``canvas`` ("auto", "ipympl" or "png"): ``figure``, ``widget`` (what the page
    shows: the ipympl canvas or an ``ipywidgets.Image``) and ``mode`` ("ipympl" or "png")."""

    def __init__(self, figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
                 height_ratios=None):
        CANVAS.validate(canvas, None)
        self.figure, self.widget, self.mode = _figure(figsize, canvas, grid, width_ratios, height_ratios)

    def render(self) -> None:
        """Redraw: on the ipympl canvas when idle, else as a new PNG in the image widget."""
        if self.mode == "ipympl":
            self.figure.canvas.draw_idle()
        else:
            self.widget.value = png(self.figure)


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
        Canvas.new_manager(figure, 0)
        figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
        figure.canvas.header_visible = False
        return figure, figure.canvas, mode
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = Figure(figsize=figsize, dpi=PNG_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
    image = ipywidgets.Image(format="png", layout={"width": f"{int(figsize[0] * PNG_DPI)}px",
                                                   "max_width": "100%", "height": "auto"})
    return figure, image, mode


def png(figure) -> bytes:
    """The figure drawn and written as PNG by ``savefig`` at its own dpi (zlib level 1: fast,
    and plots are mostly runs of one colour)."""
    buffer = BytesIO()
    figure.savefig(buffer, format="png", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()
