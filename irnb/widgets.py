"""Live views for JupyterLab: ipywidgets controls wired to the core and to :mod:`irnb.plots`.

No maths here. A control change calls the core (``depth_pool``, ``score_intervals``,
``point_estimates``, ``compare_table``, ``leave_one_group_out_bias``, ``unjudged_overlap``
…) and hands the result to an ``irnb.plots.update_*`` function, which changes the plot's
artists in place; the figure is then redrawn (with the ipympl backend on its own canvas,
else as a PNG). This module puts the tabs together: :func:`explorer`; the parts live in
:mod:`irnb.views` — the controls (:mod:`irnb.views.controls`), the page layout
(:mod:`irnb.views.layout`), the figure's drawing (:mod:`irnb.views.frames`,
:mod:`irnb.views.text_cache`), the shared :class:`View` (:mod:`irnb.views.base`) and one
module per tab.

Speed: the layout is computed on the first draw and then frozen, text is drawn from a
cache of bitmaps, topic axes label at most :data:`irnb.plots.style.TOPIC_LABELS` topics and
the per-run plots show the top ``top`` runs (default 30); the decision view keeps Table 1
while only k or the measure change and tests only the shown runs' pairs when the test
allows (:class:`DecisionView`). The cost of a change is measured by
``benchmarks/bench_widgets.py`` (kernel side) and ``benchmarks/bench_browser.py`` (key press
to new picture in a browser).

Sliders take their bounds from the declarations the core validates against
(:data:`irnb.pooling.POOL_PARAMS`, :data:`irnb.intervals.INTERVAL_PARAMS`) and carry the
papers' symbols: "pool depth d", "measurement depth k", "E (background rate)",
"λ (smoothing)" with the "λ = 1 − Δ" toggle. A declared bound that is open-ended (d, k) ends
at the Experiment's depth.

An invalid combination — no contributing run or no group selected, k beyond the depth of
the runs shown, a measure without score intervals — shows the reason in the view's status
line (``view.status``) and leaves the plot as it was; the core's own error messages are
shown as they are.

>>> from irnb.datasets import default
>>> from irnb.widgets import explorer
>>> ex = explorer(default().experiment)            # doctest: +SKIP
>>> ex.controls["depth"].value = 20                # the intervals tab redraws  # doctest: +SKIP

Each tab is also a view of its own: :func:`intervals_view`, :func:`decision_view`,
:func:`bias_view`, :func:`unjudged_view`. Every view has ``.widget`` (display it),
``.controls`` (name → control), ``.artists`` (panel → role → matplotlib artist, see
:func:`irnb.plots.artists`), ``.figure``, ``.status`` and ``.timings`` (seconds spent in
the core, the artist update and the draw by the last refresh).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence

from .experiment import Experiment
from .params import ALPHA, TEST
from .views.base import DEFAULT_TOP, View, check_experiment
from .views.bias import BIAS_DEPTHS, BiasView
from .datasets.collection import Collection
from .views.controls import ALL_CONTROLS, build_controls, locked_list_html, sync_controls
from .views.decision import DecisionView
from .views.intervals import IntervalsView
from .views.layout import beside, sidebar
from .views.unjudged import UnjudgedView

__all__ = [
    "BIAS_DEPTHS",
    "View",
    "IntervalsView",
    "DecisionView",
    "BiasView",
    "UnjudgedView",
    "Explorer",
    "explorer",
    "intervals_view",
    "decision_view",
    "bias_view",
    "unjudged_view",
]

#: The explorer's tabs, in order.
_VIEWS = {"intervals": IntervalsView, "decision matrix": DecisionView, "bias": BiasView,
          "unjudged documents": UnjudgedView}


class Explorer:
    """Every view in tabs, driven by one set of controls. Only the visible tab redraws on
    a change; the others redraw when shown."""

    def __init__(self, source: Experiment | Collection, *, top: int = DEFAULT_TOP, canvas: str = "auto"):
        import ipywidgets as w

        collection = source if isinstance(source, Collection) else None
        # a simulated collection's pools are judged from its complete truth: a run added judges its documents
        experiment = source.complete_experiment if collection is not None else source
        check_experiment(experiment, "explorer")
        self.experiment = experiment
        self.controls = build_controls(experiment, ALL_CONTROLS, collection=collection)
        self.views: dict[str, View] = {}
        for i, (name, cls) in enumerate(_VIEWS.items()):
            self.views[name] = cls(experiment, controls=self.controls, top=top, canvas=canvas, standalone=False,
                                   active=i == 0)
        self.tabs = w.Tab(children=[v.widget for v in self.views.values()])
        for i, name in enumerate(self.views):  # set_title: ipywidgets 7 (Colab's) has no titles= keyword
            self.tabs.set_title(i, name)
        self.tabs.observe(self._on_tab, names="selected_index")
        for control in self.controls.values():
            control.observe(lambda _change: self._sync(), names="value")
        self._sync()
        self.widget = beside(sidebar(self.controls), self.tabs, figure=lambda: self.active.figure,
                             notes=lambda: locked_list_html(self.locked_controls(), self.controls))

    @property
    def active(self) -> View:
        """The view on the visible tab."""
        return list(self.views.values())[self.tabs.selected_index or 0]

    def locked_controls(self) -> dict[str, str]:
        """The controls that cannot change the visible view now, with why (they are disabled,
        the reason is their tooltip); see :meth:`View.locked_controls`."""
        return self.active.locked_controls(self.controls)

    def _sync(self) -> None:
        sync_controls(self.controls, self.locked_controls())

    @property
    def artists(self) -> dict[str, dict[str, dict[str, Any]]]:
        """View → panel → role → artist."""
        return {name: view.artists for name, view in self.views.items()}

    def select(self, name: str) -> View:
        """Show the tab ``name`` (refreshing it if a control changed meanwhile)."""
        if name not in self.views:
            raise ValueError(f"unknown view {name!r}; views: {list(self.views)}")
        self.tabs.selected_index = list(self.views).index(name)
        return self.views[name]

    def _on_tab(self, change) -> None:
        selected = list(self.views)[change["new"]] if change["new"] is not None else None
        for name, view in self.views.items():
            view.active = name == selected
            if view.active and view.stale:
                view.refresh()
        self._sync()

    def _ipython_display_(self):  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.widget)


def explorer(source: Experiment | Collection, *, top: int = DEFAULT_TOP, canvas: str = "auto") -> Explorer:
    """All views in tabs (intervals, decision matrix, bias, unjudged documents) with one
    set of controls: pool depth d, measurement depth k, E, λ (and λ = 1 − Δ), measure,
    estimator, contributors, groups, and the runs to look at. ``source``: an Experiment, or
    a simulated :class:`~irnb.datasets.collection.Collection`, whose pools are then judged
    from its complete truth (a contributing run added judges its documents); the pool depth
    starts at the data's own. ``top``: how many runs the
    per-run plots show (best by score; default 30); ``canvas``: "auto" (ipympl when the
    matplotlib backend is widget/ipympl, else PNG), "ipympl" or "png" (importing ipympl
    makes it matplotlib's backend: that is ipympl's own behaviour)."""
    return Explorer(source, top=top, canvas=canvas)


def intervals_view(experiment: Experiment, *, top: int = DEFAULT_TOP, canvas: str = "auto") -> IntervalsView:
    """Score intervals alone (see :class:`IntervalsView`)."""
    return IntervalsView(experiment, top=top, canvas=canvas)


def decision_view(experiment: Experiment, *, top: int = DEFAULT_TOP, test: str = TEST.default,
                  alpha: float = ALPHA.default, canvas: str = "auto") -> DecisionView:
    """The decision matrix alone (see :class:`DecisionView`); ``test`` and ``alpha`` as in
    :func:`irnb.decision.compare_table`."""
    return DecisionView(experiment, top=top, test=test, alpha=alpha, canvas=canvas)


def bias_view(experiment: Experiment, *, measures: Sequence[str] = ("AP", "Bpref"),
              depths: Sequence[int] = BIAS_DEPTHS, canvas: str = "auto") -> BiasView:
    """The pool-bias picture alone (see :class:`BiasView`)."""
    return BiasView(experiment, measures=measures, depths=depths, canvas=canvas)


def unjudged_view(experiment: Experiment, *, canvas: str = "auto") -> UnjudgedView:
    """Unjudged documents of two runs alone (see :class:`UnjudgedView`)."""
    return UnjudgedView(experiment, canvas=canvas)
