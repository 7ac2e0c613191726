"""Where a live view sits on the page: the figure's size, the controls sidebar beside it.

The sizes are chosen for the smallest screens the views are used on (a 1024 × 768 Voila
page, JupyterLab at 1366 × 768 with its file browser open): the figure is drawn
:data:`PLOT_WIDTH` inches wide at :data:`PNG_DPI` pixels per inch, so it is shown at its
drawn size beside the :data:`SIDEBAR_WIDTH` sidebar, and its smallest text (9 pt) is 10 px
high. ipywidgets is imported when a box is built, never at import.

>>> from irnb.views.layout import PLOT_WIDTH, PNG_DPI, two_lines
>>> round(PLOT_WIDTH * PNG_DPI)                      # pixels of a figure's width
560
>>> print(two_lines("rank change (reduced − full pool)"))
rank change
(reduced − full pool)
"""

from __future__ import annotations

import base64
from io import BytesIO
from typing import Any
from collections.abc import Callable, Mapping

from ..lab import binder_url
from .controls import ipywidgets_major

__all__ = ["PNG_DPI", "PLOT_WIDTH", "PLOT_FRAME_PX", "SIDEBAR_WIDTH", "STILL_DPI", "STILL_NOTE", "sidebar", "beside",
           "live_box", "still", "two_lines", "display_method"]

#: What a still picture of a live view says under it, where the page cannot run the view.
STILL_NOTE = ("A still of the live view at its default setting: this page cannot run its controls. "
              "Open the notebook in JupyterLab, on Binder or in Colab to move them.")
#: Pixels per inch of a still: 9 pt text is then 12.5 px, at least the 12 px a browser shows 9 pt as
#: (a live view's PNG_DPI frame is drawn for the room beside the controls; a still has the page's width).
STILL_DPI = 100
#: The link under a still: the notebooks on Binder (irnb.lab.binder_url, from irnb.lab.REPOSITORY).
STILL_LINK = '<a href="{url}">Open the notebooks on Binder</a>'


#: Pixels per inch of the PNG views: shown at this size, a text of p points is p·80/72 px high
#: (plots.MIN_FONT = 9 pt → 10 px); the browser tests check the size the page shows them at.
PNG_DPI = 80
#: Width of every view's figure (inches; × PNG_DPI = 560 px): what the page has beside the
#: controls sidebar on a 1024×768 Voila screen and in JupyterLab at 1366×768 with its file
#: browser open, so the figure is shown at its drawn size (smallest text 10 px, not shrunk).
PLOT_WIDTH = 7.0
#: Pixels the tabs add around a figure (their padding and borders, measured in the browser).
PLOT_FRAME_PX = 32
#: Width of the control sidebar: the plot sits beside it, so at 1366 × 768 (and, scaled
#: to fit, at 1024 × 768) the plot and its controls are on screen together.
SIDEBAR_WIDTH = "330px"


def sidebar(controls: Mapping[str, Any]):
    """The controls as a narrow sidebar: each slider with its one-line description below it,
    then the pickers and the run lists, one per row."""
    import ipywidgets as w

    full = {"width": "100%"}
    rows = []

    def add(name: str) -> None:
        control = controls[name]
        rows.append(control)
        reason = getattr(control, "_irnb_reason", None)
        if reason is not None:  # why it is locked, beside it (hidden while it is not)
            rows.append(reason)
        text = getattr(control, "_irnb_help", None)
        if text is not None:  # what it does (a slider) or can do on this data (the contributors)
            rows.append(w.HTML(text))

    for name in ("depth", "measurement_depth", "background_rate", "smoothing"):
        if name in controls:
            controls[name].layout = w.Layout(**full)
            add(name)
        if name == "smoothing" and "auto_smoothing" in controls:
            add("auto_smoothing")
    if "auto_smoothing" in controls and "smoothing" not in controls:
        add("auto_smoothing")
    for name in ("measure", "estimator", "run", "run_a", "run_b", "contributors", "groups"):
        if name in controls:
            controls[name].layout = w.Layout(**full)
            if name in ("contributors", "groups"):
                controls[name].rows = 4
            add(name)
    box = w.VBox(rows, layout=w.Layout(width=SIDEBAR_WIDTH, min_width=SIDEBAR_WIDTH, overflow="hidden"))
    box.add_class("irnb-explorer-controls")  # names the sidebar for a page's reader (and bench_browser.py)
    return box


def beside(controls_box, main, *, figure: Callable[[], Any] | None = None, notes: Callable[[], str] | None = None):
    """The sidebar ``controls_box`` (see :func:`sidebar`) on the left, ``main`` (the plot)
    taking the rest of the width; where the page is too narrow for both at the figure's drawn
    size (JupyterLab at 1024 × 768 with its file browser open), the plot moves above the
    controls instead of being shrunk: the row wraps in reverse, so the wrapped plot comes
    first and stays legible.

    ``figure`` (a function returning the figure shown now): the box then also offers a
    still picture of it (:func:`still`) to front ends that cannot run widgets, such as the
    documentation site or a notebook viewer; those that can still show the live widget.
    ``notes`` (a function returning HTML) is put under that picture: what the still cannot
    show otherwise, such as why a control is locked."""
    import ipywidgets as w

    main.layout = w.Layout(flex="1 1 0", min_width=f"{round(PLOT_WIDTH * PNG_DPI) + PLOT_FRAME_PX}px")
    # wrap-reverse swaps the cross axis: flex-end aligns the two boxes to the top of their row
    layout = w.Layout(width="100%", flex_flow="row wrap-reverse", align_items="flex-end")
    if figure is None:
        return w.HBox([controls_box, main], layout=layout)
    return live_box("HBox", [controls_box, main], lambda: still(figure(), html=notes() if notes else ""),
                    layout=layout)


def still(figure=None, *, html: str = "") -> dict[str, str]:
    """A still of a live widget as the mime types a page without widgets shows: a picture of
    ``figure`` (PNG, and HTML with it at its drawn size), or the widget's ``html`` as it reads
    now, with :data:`STILL_NOTE` under it."""
    data: dict[str, str] = {}
    if figure is not None:
        buffer = BytesIO()
        figure.savefig(buffer, format="png", dpi=STILL_DPI)
        data["image/png"] = base64.b64encode(buffer.getvalue()).decode("ascii")
        width = round(figure.get_figwidth() * STILL_DPI)
        html = (f'<img src="data:image/png;base64,{data["image/png"]}" width="{width}" '
                f'alt="the live view at its default setting"/>{html}')
    link = STILL_LINK.format(url=binder_url("lab"))
    data["text/html"] = f'<figure class="irnb-still">{html}<figcaption>{STILL_NOTE} {link}.</figcaption></figure>'
    return data


def live_box(kind: str, children, still_of: Callable[[], dict[str, str]], **kwargs):
    """An ``ipywidgets`` ``kind`` box ("HBox" or "VBox") whose display also carries a still of
    it (``still_of()``, e.g. :func:`still` of its figure): a front end that runs widgets picks
    the widget, any other the still (the richest type of the display's mime bundle it can
    show). ipywidgets is imported here, when a box is built."""
    import ipywidgets as w
    from IPython.display import display

    class LiveBox(getattr(w, kind)):
        def _repr_mimebundle_(self, **kwargs):
            data = {"text/plain": "a live widget (run the notebook to use it)", **still_of()}
            data["application/vnd.jupyter.widget-view+json"] = {"version_major": 2, "version_minor": 0,
                                                                "model_id": self.model_id}
            return data

        def _display_bundle(self, **kwargs):
            display(self._repr_mimebundle_(), raw=True)
            self._handle_displayed(**kwargs)

    if display_method() == "_ipython_display_":  # IPython calls it before looking for a bundle
        LiveBox._ipython_display_ = LiveBox._display_bundle
    return LiveBox(children, **kwargs)


def display_method(ipywidgets_version: str | None = None) -> str:
    """The method IPython shows a widget of ipywidgets ``ipywidgets_version`` (default: the
    installed release) by: ``_repr_mimebundle_`` from ipywidgets 8 on; ``_ipython_display_`` in
    ipywidgets 7 (Colab's widget stack), which IPython calls before looking for a mime bundle, so
    :func:`live_box` gives its bundle through it there.

    >>> display_method("7.7.1"), display_method("8.1.5")
    ('_ipython_display_', '_repr_mimebundle_')
    """
    return "_repr_mimebundle_" if ipywidgets_major(ipywidgets_version) >= 8 else "_ipython_display_"


def two_lines(text: str) -> str:
    """``text`` broken before its parenthesis, else at the space nearest its middle (unchanged
    when it has a line break or no space)."""
    if "\n" in text or " " not in text:
        return text
    spaces = [text.index(" (")] if " (" in text else [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(2 * i - len(text)))
    return text[:cut] + "\n" + text[cut + 1:]

