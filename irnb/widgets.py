"""Live views for JupyterLab: ipywidgets controls wired to the core and to :mod:`irnb.plots`.

No maths here. A control change calls the core (``depth_pool``, ``score_intervals``,
``point_estimates``, ``compare_table``, ``leave_one_group_out_bias``, ``unjudged_overlap``
…) and hands the result to an ``irnb.plots.update_*`` function, which changes the plot's
artists in place (``set_segments``, ``set_data``, ``set_array``); no figure is rebuilt.
The figure is then redrawn: with the ipympl backend (``%matplotlib widget``) its canvas is
the widget and ``canvas.draw_idle()`` redraws it; with any other backend the figure is
drawn with Agg and its buffer encoded as PNG into an ``ipywidgets.Image`` — the same
artists, only the picture re-rendered.

Speed: the layout (constrained) is computed on the first draw and then frozen — axes
positions, titles and axis labels stay put — and redone only when a tick label grows
longer than any seen at the last layout; PNG frames are drawn with unhinted glyphs. Text is
what a redraw spends most on (each label costs a FreeType layout and a glyph-by-glyph
rasterisation), so the canvas draws every text from a cache of bitmaps (rasterised once by
matplotlib, then one image blit; see :func:`_text_cache_canvas`), topic axes label at most
25 topics and the per-run plots show the top ``top`` runs (default 30). PNG frames are
written from the Agg buffer by matplotlib (zlib level 1: :func:`_png`). The decision
view keeps Table 1 while only k or the measure change and tests only the shown runs' pairs
when the test allows (:class:`DecisionView`). On the default collection a change costs
25–35 ms of drawing and PNG (was 80–110 ms), see ``benchmarks/bench_widgets.py``.

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

import html
import time
from typing import Any, Mapping, Sequence

import numpy as np

from . import plots
from .bias import leave_one_group_out_bias
from .decision import (DEFAULT_ALPHA, DEFAULT_TEST, TABLE1_MEASURES, assessment_measure, case_matrix,
                       case_proportions, compare_table, procedure_label)
from .experiment import Experiment
from .intervals import ESTIMATORS, INTERVAL_PARAMS, point_estimates, score_intervals
from .measures import parse_measure
from .metrics import evaluate, judged_view
from .params import TOP_RUNS, slider_range
from .pooling import POOL_PARAMS, depth_pool, unjudged_overlap
from .stats import PAIR_LOCAL_TESTS

__all__ = [
    "MEASURES",
    "SLIDER_LABELS",
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

#: Measure choices; "@k" takes the measurement-depth slider's value.
MEASURES = ("P@k", "SDCG@k", "RBP(p=0.8)@k", "RBP(p=0.95)@k", "AP@k")
#: Slider labels: the papers' symbols (the one-line descriptions come from the declarations).
SLIDER_LABELS = {"depth": "pool depth d", "measurement_depth": "measurement depth k",
                 "background_rate": "E (background rate)", "smoothing": "λ (smoothing)"}
#: Pool depths of the bias view's τ-against-depth curve (those ≤ the Experiment's depth).
BIAS_DEPTHS = (5, 10, 20, 50, 100)
_CANVASES = ("auto", "ipympl", "png")
_DRAW_RC = {"text.hinting": "no_hinting"}  # unhinted glyphs: a quarter less text-drawing time
_TOP = 30
#: Slider → the declared parameter it sets (bounds, default and description).
_PARAMS = {"depth": POOL_PARAMS["depth"], "measurement_depth": INTERVAL_PARAMS["measurement_depth"],
           "background_rate": INTERVAL_PARAMS["background_rate"], "smoothing": INTERVAL_PARAMS["smoothing"]}


class _Invalid(ValueError):
    """A combination of control values the view cannot show (the message says why)."""


def _ipywidgets():
    import ipywidgets

    return ipywidgets


def _check_experiment(experiment, owner: str) -> None:
    if not isinstance(experiment, Experiment):
        raise TypeError(f"{owner}: expected an irnb.Experiment (e.g. irnb.datasets.default().experiment), "
                        f"got {type(experiment).__name__}")


def _doc(param) -> str:
    """The one-line description of a declared parameter, without its symbol prefix."""
    text = param.doc
    return text.split(":", 1)[1].strip() if ":" in text else text


# =============================================================================== controls
def _build_controls(experiment: Experiment, names: Sequence[str]) -> dict[str, Any]:
    """The named controls, bounds from the core's declarations."""
    w = _ipywidgets()
    depth = experiment.shape[2]
    style = {"description_width": "initial"}
    d_param, k_param, e_param, l_param = (_PARAMS[n] for n in ("depth", "measurement_depth", "background_rate",
                                                                "smoothing"))
    contributors = [n for n, c in zip(experiment.run_names, experiment.contributors, strict=True) if c]
    groups = list(dict.fromkeys(experiment.groups))
    # default pair (the thesis's baseline versus a new system): a contributing run, a run that did not contribute
    non_contributing = [n for n, c in zip(experiment.run_names, experiment.contributors, strict=True) if not c]
    run_a = contributors[0] if contributors else experiment.run_names[0]
    others = [n for n in (non_contributing or experiment.run_names) if n != run_a]
    run_b = others[0] if others else run_a
    make = {
        "depth": lambda: w.IntSlider(value=min(d_param.default, depth), min=int(d_param.low), max=depth,
                                     description=SLIDER_LABELS["depth"], tooltip=d_param.doc, style=style,
                                     continuous_update=False),
        "measurement_depth": lambda: w.IntSlider(value=min(k_param.default, depth), min=int(k_param.low),
                                                 max=depth, description=SLIDER_LABELS["measurement_depth"],
                                                 tooltip=k_param.doc, style=style, continuous_update=False),
        "background_rate": lambda: w.SelectionSlider(options=_background_rates(e_param), value=e_param.default,
                                                     tooltip=e_param.doc, style=style, continuous_update=False,
                                                     description=SLIDER_LABELS["background_rate"]),
        "smoothing": lambda: w.FloatSlider(value=0.5, **slider_range(l_param),
                                           description=SLIDER_LABELS["smoothing"], tooltip=l_param.doc,
                                           style=style, continuous_update=False, disabled=True),
        "auto_smoothing": lambda: w.Checkbox(value=l_param.default == "auto", description="λ = 1 − Δ",
                                             tooltip="λ = 1 − Δ per topic (X_M = B(1 + Δ) + Δ²E)", indent=False),
        "measure": lambda: w.Dropdown(options=list(MEASURES), value=MEASURES[0], description="measure",
                                      tooltip="the measure; @k takes the measurement depth k"),
        "estimator": lambda: w.Dropdown(options=[(f"X_{k} ({v})", k) for k, v in ESTIMATORS.items()], value="M",
                                        description="estimator", tooltip="point estimator inside [B, T]"),
        "contributors": lambda: w.SelectMultiple(options=list(experiment.run_names), value=contributors, rows=6,
                                                 description="contributors",
                                                 tooltip="runs whose top d documents form the pool"),
        "groups": lambda: w.SelectMultiple(options=groups, value=groups, rows=6, description="groups",
                                           tooltip="groups whose runs are shown"),
        "run": lambda: w.Dropdown(options=list(experiment.run_names), value=experiment.run_names[0],
                                  description="run", tooltip="the run whose topics are shown"),
        "run_a": lambda: w.Dropdown(options=list(experiment.run_names), value=run_a,
                                    description="run a", tooltip="the baseline run"),
        "run_b": lambda: w.Dropdown(options=list(experiment.run_names), value=run_b, description="run b",
                                    tooltip="the run compared with run a"),
    }
    controls = {name: make[name]() for name in names}
    for control in controls.values():
        control._irnb_tooltip = control.tooltip  # what the control does (a locked one says why instead)
    return controls


#: E on a 1-2-5 scale from 0.01: one step changes X_B = B + ΔE and X_M by at least a third (from 0: to 0.01),
#: so the estimates move visibly; a fixed step of 0.001 moved them less than a pixel.
_BACKGROUND_RATES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def _background_rates(param) -> list[float]:
    """The E values the slider offers: :data:`_BACKGROUND_RATES` within the declared bounds,
    with the declared default."""
    rates = {r for r in _BACKGROUND_RATES if param.low <= r <= param.high} | {float(param.default)}
    return sorted(rates)


# =============================================================================== which controls apply
#: Why a view ignores a control it does not declare in ``uses`` (shown as the locked control's tooltip).
_NOT_USED = {
    "intervals": {
        "run_a": "the intervals view shows one run's topics: pick it with 'run' (run a and b are for the "
                 "unjudged-documents view)",
        "run_b": "the intervals view shows one run's topics: pick it with 'run' (run a and b are for the "
                 "unjudged-documents view)",
    },
    "decision matrix": {
        "background_rate": "the decision matrix compares the runs' measured scores (unjudged = non-relevant): "
                           "E applies to the interval estimates only",
        "smoothing": "the decision matrix compares the runs' measured scores: λ applies to the interval "
                     "estimate X_M only",
        "auto_smoothing": "the decision matrix compares the runs' measured scores: λ applies to the interval "
                          "estimate X_M only",
        "estimator": "the decision matrix compares the runs' measured scores, not a point estimate",
        "run": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
        "run_a": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
        "run_b": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
    },
    "bias": {
        "measurement_depth": "the bias view scores AP and bpref over each run's whole ranking: k does not apply",
        "background_rate": "the bias view compares measured scores: E applies to the interval estimates only",
        "smoothing": "the bias view compares measured scores: λ applies to the interval estimate X_M only",
        "auto_smoothing": "the bias view compares measured scores: λ applies to the interval estimate X_M only",
        "measure": "the bias view always compares AP (falls for left-out runs) with bpref (does not)",
        "estimator": "the bias view compares measured scores, not a point estimate",
        "groups": "every group with a contributing run is left out in turn, so the group selector does not apply",
        "run": "the bias view shows every left-out run",
        "run_a": "the bias view shows every left-out run",
        "run_b": "the bias view shows every left-out run",
    },
    "unjudged documents": {
        "measure": "the thesis's Figs 7.1 and 7.2 are drawn for P@k",
        "groups": "the unjudged-documents view compares two runs: pick them with 'run a' and 'run b'",
        "run": "the unjudged-documents view compares two runs: pick them with 'run a' and 'run b'",
    },
}


def _locked_by_values(controls: Mapping[str, Any]) -> dict[str, str]:
    """Controls that cannot change the picture given the other controls' values, with why:
    E and λ enter some estimators only; λ = 1 − Δ locks the λ slider."""
    locked: dict[str, str] = {}
    estimator = controls["estimator"].value if "estimator" in controls else None
    if estimator == "S":
        why = "X_S (simplistic) counts unjudged documents as non-relevant: choose X_B, X_I or X_M to use {}"
        locked.update(background_rate=why.format("E"), smoothing=why.format("λ"), auto_smoothing=why.format("λ"))
    elif estimator in ("B", "I"):
        why = f"λ weighs X_I against X_B in X_M only: choose X_M (smoothed) to use λ (X_{estimator} is shown)"
        locked.update(smoothing=why, auto_smoothing=why)
    if "smoothing" in controls and "smoothing" not in locked and controls.get("auto_smoothing") is not None \
            and controls["auto_smoothing"].value:
        locked["smoothing"] = ("λ = 1 − Δ per topic (the 'λ = 1 − Δ' box is ticked: X_M = B(1 + Δ) + Δ²E); "
                               "untick it to set λ yourself")
    return locked


def _sync_controls(controls: Mapping[str, Any], locked: Mapping[str, str]) -> None:
    """Lock (disable) the controls in ``locked`` with the reason as their tooltip; unlock the others."""
    for name, control in controls.items():
        reason = locked.get(name)
        control.disabled = reason is not None
        original = getattr(control, "_irnb_tooltip", control.tooltip)
        control.tooltip = f"locked: {reason}" if reason is not None else original


def _help(control_name: str):
    """The one-line description shown beside a slider."""
    w = _ipywidgets()
    param = _PARAMS.get(control_name)
    if param is None:
        return None
    return w.HTML(f"<div style='color:#555;font-size:12px;line-height:1.2'>{html.escape(_doc(param))}</div>")


#: Width of the control sidebar: the plot sits beside it, so at 1366 × 768 (and, scaled
#: to fit, at 1024 × 768) the plot and its controls are on screen together.
SIDEBAR_WIDTH = "330px"


def _panel(controls: Mapping[str, Any]):
    """The controls as a narrow sidebar: each slider with its one-line description below it,
    then the pickers and the run lists, one per row."""
    w = _ipywidgets()
    full = {"width": "100%"}
    rows = []
    for name in ("depth", "measurement_depth", "background_rate", "smoothing"):
        if name in controls:
            controls[name].layout = w.Layout(**full)
            rows.append(controls[name])
            rows.append(_help(name))
        if name == "smoothing" and "auto_smoothing" in controls:
            rows.append(controls["auto_smoothing"])
    if "auto_smoothing" in controls and "smoothing" not in controls:
        rows.append(controls["auto_smoothing"])
    for name in ("measure", "estimator", "run", "run_a", "run_b", "contributors", "groups"):
        if name in controls:
            controls[name].layout = w.Layout(**full)
            if name in ("contributors", "groups"):
                controls[name].rows = 4
            rows.append(controls[name])
    sidebar = w.VBox(rows, layout=w.Layout(width=SIDEBAR_WIDTH, min_width=SIDEBAR_WIDTH, overflow="hidden"))
    sidebar.add_class("irnb-explorer-controls")  # names the sidebar for a page's reader (and bench_browser.py)
    return sidebar


def _beside(sidebar, main):
    """The sidebar on the left, ``main`` (the plot) taking the rest of the width; where the
    page is too narrow for both at the figure's drawn size (JupyterLab at 1024 × 768 with its
    file browser open), the plot moves above the controls instead of being shrunk: the row
    wraps in reverse, so the wrapped plot comes first and stays legible."""
    w = _ipywidgets()
    main.layout = w.Layout(flex="1 1 0", min_width=f"{round(PLOT_WIDTH * PNG_DPI) + PLOT_FRAME_PX}px")
    # wrap-reverse swaps the cross axis: flex-end aligns the two boxes to the top of their row
    return w.HBox([sidebar, main], layout=w.Layout(width="100%", flex_flow="row wrap-reverse",
                                                   align_items="flex-end"))


# =============================================================================== views
class View:
    """One live figure: controls, the figure, a status line, and ``refresh()``.

    Subclasses declare ``uses`` (the control names they read) and ``panels`` (the Axes
    names) and implement ``_update()`` (core calls, then ``irnb.plots`` updates).
    ``controls`` shares controls with other views (the explorer); ``standalone=False``
    leaves the control panel out of ``widget``; ``active=False`` defers drawing until the
    view is shown (``refresh()``).
    """

    name: str = ""
    uses: tuple[str, ...] = ()
    panels: tuple[str, ...] = ()
    figsize: tuple[float, float] = (11.0, 5.0)
    width_ratios: tuple[float, ...] | None = None
    #: (rows, columns) of the panels, filled row by row; default one row
    grid: tuple[int, int] | None = None
    height_ratios: tuple[float, ...] | None = None
    #: panel → columns of its legend (1: narrow figures; 0: hidden, another panel's says the same)
    legend_columns: Mapping[str, int] = {}
    #: panels of a stacked figure whose y-axis label is longer than the panel is high: on two lines
    two_line_ylabels: tuple[str, ...] = ()
    #: panel → where a fixed-aspect panel sits in its box ("W": at the left, room for a legend on the right)
    anchors: Mapping[str, str] = {}

    def __init__(self, experiment: Experiment, *, controls: Mapping[str, Any] | None = None, top: int = _TOP,
                 canvas: str = "auto", standalone: bool = True, active: bool = True):
        _check_experiment(experiment, type(self).__name__)
        top = TOP_RUNS.validate(top, None)
        if canvas not in _CANVASES:
            raise ValueError(f"canvas must be one of {_CANVASES}, got {canvas!r}")
        w = _ipywidgets()
        self.experiment = experiment
        self.top = int(top)
        built = _build_controls(experiment, [n for n in self.uses if controls is None or n not in controls])
        self.controls: dict[str, Any] = {n: (controls[n] if controls is not None and n in controls else built[n])
                                         for n in self.uses}
        self.status = w.HTML()
        self.timings: dict[str, float] = {}
        self.active = bool(active)
        self.stale = True
        grid = self.grid or (1, len(self.panels))
        self.figure, self._canvas_widget, self.canvas = _figure(self.figsize, canvas, grid, self.width_ratios,
                                                                self.height_ratios)
        self.axes = dict(zip(self.panels, self.figure.axes, strict=True))
        for panel, anchor in self.anchors.items():
            self.axes[panel].set_anchor(anchor)
        self._drawn: set[str] = set()
        self._cache: dict = {}
        self._layout: tuple[int, ...] | None = None
        self.layouts = 0  # layout passes so far (one at the start, more only when tick labels grow)
        for name in self.uses:
            self.controls[name].observe(self._on_change, names="value")
        if standalone:  # the view's own controls: lock those the others' values make moot (E, λ)
            for name in self.uses:
                self.controls[name].observe(lambda _change: _sync_controls(self.controls, self.locked_controls()),
                                            names="value")
            _sync_controls(self.controls, self.locked_controls())
        plot = w.VBox([self._canvas_widget, self.status])
        self.widget = _beside(_panel(self.controls), plot) if standalone else plot
        if self.active:  # an inactive view (a hidden tab) draws when first shown
            self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def artists(self) -> dict[str, dict[str, Any]]:
        """Panel → role → artist (see :func:`irnb.plots.artists`)."""
        return {name: plots.artists(ax) for name, ax in self.axes.items()}

    def locked_controls(self, controls: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The controls (of ``controls``, default the view's own) that cannot change this view
        as the controls are set now, each with the reason: those the view does not use, E
        and λ with an estimator that ignores them, λ while λ = 1 − Δ. The explorer
        disables them and shows the reason as their tooltip."""
        controls = self.controls if controls is None else controls
        reasons = _NOT_USED.get(self.name, {})
        locked = {n: reasons.get(n, f"the {self.name} view does not use this control") for n in controls
                  if n not in self.uses}
        for n, reason in _locked_by_values(controls).items():
            if n in controls:
                locked.setdefault(n, reason)
        return locked

    def refresh(self) -> bool:
        """Read the controls, call the core, update the artists and redraw. Returns False
        (and shows the reason in ``status``) when the combination is invalid."""
        start, cpu = time.perf_counter(), time.process_time()
        self.timings = {}
        try:
            message = self._update()
        except (ValueError, TypeError) as err:  # the core's errors for what the user chose
            self._show(str(err), error=True)
            self.stale = False
            return False
        drawn = time.perf_counter()
        for panel, columns in self.legend_columns.items():
            plots.set_legend_columns(self.axes[panel], columns)
        for panel in self.two_line_ylabels:
            label = self.axes[panel].yaxis.label
            label.set_text(_two_lines(label.get_text()))
        self._render()
        self.timings["draw"] = time.perf_counter() - drawn
        self.timings["total"] = time.perf_counter() - start
        self.timings["total_cpu"] = time.process_time() - cpu
        self._show(message)
        self.stale = False
        return True

    def _ipython_display_(self):  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.widget)

    # ------------------------------------------------------------------ plumbing
    def _on_change(self, change) -> None:
        if self.active:
            self.refresh()
        else:
            self.stale = True

    def _show(self, message: str, *, error: bool = False) -> None:
        if error:
            self.status.value = f"<span style='color:#B00020'>⚠ {html.escape(message)}</span>"
        else:
            self.status.value = f"<span style='color:#333'>{html.escape(message)}</span>"

    def _render(self) -> None:
        """Redraw: a constrained-layout pass only when tick labels grew (then the layout is
        frozen: positions, titles and axis labels stay put), else a plain draw."""
        import matplotlib

        figure = self.figure
        widths = _label_widths(figure)
        with matplotlib.rc_context(_DRAW_RC):
            if self._layout is None or len(widths) != len(self._layout) or any(
                    now > then for now, then in zip(widths, self._layout, strict=True)):
                # lay out with the longest run name / topic id in place of one label of each
                # axis that shows run names / topic ids: later labels fit without a new layout,
                # so the picture depends on the controls only (back to a setting, same picture)
                restore = _reserve_labels(figure, (self.experiment.run_names, self.experiment.topics))
                self._layout = _label_widths(figure)
                figure.set_layout_engine("constrained")
                figure.canvas.draw()
                for formatter, labels in restore:
                    formatter.seq = labels
                _freeze_layout(figure)
                self.layouts += 1
            if self.canvas == "ipympl":
                figure.canvas.draw_idle()
                return
            figure.canvas.draw()
        self._canvas_widget.value = _png(figure)

    def _mark(self, key: str, since: float) -> float:
        now = time.perf_counter()
        self.timings[key] = self.timings.get(key, 0.0) + now - since
        return now

    def _draw(self, panel: str, first, update, *args, **kwargs) -> None:
        """First time: ``first(*args, ax=…)``; afterwards ``update(ax, *args)`` in place."""
        ax = self.axes[panel]
        if panel in self._drawn:
            update(ax, *args, **kwargs)
        else:
            first(*args, ax=ax, **kwargs)
            self._drawn.add(panel)

    # ------------------------------------------------------------------ shared readings
    def _value(self, name: str):
        return self.controls[name].value

    def _contributors(self) -> list[str]:
        names = list(self._value("contributors"))
        if not names:
            raise _Invalid("no contributing run selected: a pool of depth d needs at least one contributing run")
        return names

    def _shown_runs(self) -> list[str]:
        if "groups" not in self.controls:
            return list(self.experiment.run_names)
        groups = set(self._value("groups"))
        if not groups:
            raise _Invalid("no group selected: select at least one group whose runs are shown")
        return [n for n, g in zip(self.experiment.run_names, self.experiment.groups, strict=True) if g in groups]

    def _measure(self):
        k = self._value("measurement_depth")
        return parse_measure(self._value("measure").replace("@k", f"@{k}"))

    def _check_depth(self, runs: Sequence[str]) -> None:
        """k beyond the longest ranking of the runs shown is an invalid combination."""
        k = self._value("measurement_depth")
        longest = int(self.experiment.length[self.experiment.run_index(runs)].max(initial=0))
        if k > longest:
            who = runs[0] if len(runs) == 1 else f"the {len(runs)} runs shown"
            raise _Invalid(f"measurement depth k = {k} is beyond the depth of {who} ({longest} documents "
                           f"per topic at most); choose k ≤ {longest}")

    def _pool(self):
        return depth_pool(self.experiment, depth=self._value("depth"), runs=self._contributors())

    def _smoothing(self):
        return "auto" if self._value("auto_smoothing") else self._value("smoothing")

    def _update(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


def _two_lines(text: str) -> str:
    """``text`` broken before its parenthesis, else at the space nearest its middle (unchanged
    when it has a line break or no space)."""
    if "\n" in text or " " not in text:
        return text
    spaces = [text.index(" (")] if " (" in text else [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(2 * i - len(text)))
    return text[:cut] + "\n" + text[cut + 1:]


#: Pixels per inch of the PNG views: shown at this size, a text of p points is p·80/72 px high
#: (plots.MIN_FONT = 9 pt → 10 px); the browser tests check the size the page shows them at.
PNG_DPI = 80
#: Width of every view's figure (inches; × PNG_DPI = 560 px): what the page has beside the
#: controls sidebar on a 1024×768 Voila screen and in JupyterLab at 1366×768 with its file
#: browser open, so the figure is shown at its drawn size (smallest text 10 px, not shrunk).
PLOT_WIDTH = 7.0
#: Pixels the tabs add around a figure (their padding and borders, measured in the browser).
PLOT_FRAME_PX = 32


def _figure(figsize: tuple[float, float], canvas: str, grid: tuple[int, int], width_ratios=None,
            height_ratios=None):
    """(figure, the widget that shows it, "ipympl" | "png"). Either canvas draws text from
    a bitmap cache (:func:`_text_cache_canvas`)."""
    import matplotlib

    mode = canvas
    if mode == "auto":
        backend = matplotlib.get_backend().lower()
        mode = "ipympl" if ("ipympl" in backend or backend == "widget") else "png"
    from matplotlib.figure import Figure

    if mode == "ipympl":  # the figure's canvas is the widget; not registered with pyplot
        from ipympl.backend_nbagg import Canvas, FigureManager

        figure = Figure(figsize=figsize, layout="constrained")
        FigureManager(_text_cache_canvas(Canvas)(figure), 0)
        figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
        figure.canvas.header_visible = False
        return figure, figure.canvas, mode
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = Figure(figsize=figsize, dpi=PNG_DPI, layout="constrained")
    _text_cache_canvas(FigureCanvasAgg)(figure)
    figure.subplots(*grid, width_ratios=width_ratios, height_ratios=height_ratios)
    image = _ipywidgets().Image(format="png", layout={"width": f"{int(figsize[0] * PNG_DPI)}px",
                                                                  "max_width": "100%", "height": "auto"})
    return figure, image, mode


# =============================================================================== text bitmap cache
#: Text bitmaps a canvas keeps (first in, first out beyond this); a few KB each.
_TEXT_CACHE_SIZE = 4096
_TEXT_CLASSES: dict[Any, type] = {}  # base canvas class (or "renderer") → class


def _text_cache_canvas(base: type) -> type:
    """``base`` (an Agg canvas class: matplotlib's FigureCanvasAgg or ipympl's Canvas) whose
    renderer draws each text from a cache of coverage bitmaps.

    Why: a redraw spends most of its time on text (each label is laid out and rasterised
    glyph by glyph with FreeType, ~0.5–1 ms), yet the same labels — run names, topic ids,
    tick values, legend entries — come back on every redraw. A text is rasterised once,
    in black on a transparent scratch canvas of its own (matplotlib's own ``draw_text``,
    so fonts, hinting, kerning and rotation are matplotlib's), and its alpha channel
    (coverage) kept under everything that shapes the glyphs: string, font properties,
    size, angle, dpi, hinting, antialiasing, font features and language. Drawing it is
    one ``draw_text_image`` in the text's own colour and alpha, clipped as matplotlib
    clips text. The one difference from matplotlib's own drawing: the text's origin snaps
    to the nearest whole pixel (matplotlib ≤ 3.10 did so too), which makes every later
    drawing of the same text the same pixels. Mathtext and TeX are drawn as usual.
    """
    if base in _TEXT_CLASSES:
        return _TEXT_CLASSES[base]
    renderer_class = _text_cache_renderer()

    def get_renderer(self):
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        if getattr(self, "_lastKey", None) != key or not isinstance(getattr(self, "renderer", None), renderer_class):
            if not hasattr(self, "_irnb_text_cache"):
                self._irnb_text_cache = {}
            self.renderer = renderer_class(width, height, self.figure.dpi, self._irnb_text_cache)
            self._lastKey = key
        return self.renderer

    cls = type(f"TextCache{base.__name__}", (base,), {"get_renderer": get_renderer, "__module__": __name__})
    _TEXT_CLASSES[base] = cls
    return cls


_GENERIC_FAMILIES = ("serif", "sans-serif", "cursive", "fantasy", "monospace")


def _font_key(prop) -> tuple:
    """What of a FontProperties shapes its glyphs (its own hash follows mutable state),
    with the fonts a generic family ("sans-serif" …) stands for at the time."""
    import matplotlib as mpl

    family = tuple(prop.get_family())
    generic = tuple(tuple(mpl.rcParams[f"font.{f}"]) for f in family if f in _GENERIC_FAMILIES)
    return (family, generic, prop.get_style(), prop.get_variant(), prop.get_weight(), prop.get_stretch(),
            prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily())


def _text_cache_renderer() -> type:
    """RendererAgg drawing plain text from a bitmap cache (see :func:`_text_cache_canvas`)."""
    if "renderer" in _TEXT_CLASSES:
        return _TEXT_CLASSES["renderer"]
    import math

    import matplotlib as mpl
    from matplotlib.backends.backend_agg import RendererAgg

    class TextCacheRendererAgg(RendererAgg):
        def __init__(self, width, height, dpi, cache: dict):
            super().__init__(width, height, dpi)
            self._irnb_text_cache = cache

        def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:
                return super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
            features = mtext.get_fontfeatures() if hasattr(mtext, "get_fontfeatures") else None
            language = mtext.get_language() if hasattr(mtext, "get_language") else None
            key = (s, _font_key(prop), float(angle), self.dpi, bool(gc.get_antialiased()), mpl.rcParams["text.hinting"],
                   mpl.rcParams["text.hinting_factor"], mpl.rcParams.get("text.kerning_factor"),
                   None if features is None else tuple(features), language)
            cache = self._irnb_text_cache
            entry = cache.get(key)
            if entry is None:
                entry = self._rasterise(s, prop, angle, bool(gc.get_antialiased()), mtext)
                if len(cache) >= _TEXT_CACHE_SIZE:
                    del cache[next(iter(cache))]
                cache[key] = entry
            bitmap, left, bottom = entry
            if bitmap is not None:
                self._renderer.draw_text_image(bitmap, math.floor(x + 0.5) + left, math.floor(y + 0.5) + bottom,
                                               0, gc)

        def _get_font_height_metrics(self, prop, *args, **kwargs):
            """(ascent, descent, line gap) in pixels of the font of ``prop``, as
            ``Text._get_layout`` reads them from the font's OS/2 or hhea table on every
            layout of every text (matplotlib ≥ 3.11 asks the renderer first); cached per
            font and size. (None, None, None) makes matplotlib measure as usual."""
            if args or kwargs:  # a signature this code does not know
                return None, None, None
            key = ("height", _font_key(prop), self.dpi)
            cache = self._irnb_text_cache
            if key not in cache:
                from matplotlib.font_manager import fontManager, get_font

                cache[key] = None, None, None
                font = get_font(fontManager._find_fonts_by_props(prop))
                for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                          ("hhea", "lineGap", "ascent", "descent")):
                    table = font.get_sfnt_table(table_name)
                    if table is None:
                        continue
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * self.dpi / 72
                    cache[key] = table[ascent] * scale, -table[descent] * scale, table[gap] * scale
                    break
            return cache[key]

        def _rasterise(self, s, prop, angle, antialiased, mtext):
            """(coverage bitmap, left, bottom): the text drawn at a whole-pixel origin; the
            bitmap's left column and its bottom edge (one past its last row), in pixels
            from the origin (y down). (None, 0, 0) for a text with no ink."""
            width, height, descent = self.get_text_width_height_descent(s, prop, False)
            theta = math.radians(angle)
            cos, sin = math.cos(theta), math.sin(theta)
            corners = [(0.0, -descent), (width, -descent), (width, height - descent), (0.0, height - descent)]
            xs = [cx * cos - cy * sin for cx, cy in corners]  # y up
            ys = [cx * sin + cy * cos for cx, cy in corners]
            pad = max(4, math.ceil(prop.get_size_in_points() * self.dpi / 72.0 * 0.5))
            for _ in range(3):  # grow the margin if glyphs reach the scratch canvas's edge
                ox, oy = pad + math.ceil(-min(xs)), pad + math.ceil(max(ys))
                scratch = RendererAgg(ox + math.ceil(max(xs)) + pad, oy + math.ceil(-min(ys)) + pad, self.dpi)
                gc = scratch.new_gc()
                gc.set_foreground((0.0, 0.0, 0.0))
                gc.set_antialiased(antialiased)
                RendererAgg.draw_text(scratch, gc, ox, oy, s, prop, angle, ismath=False, mtext=mtext)
                gc.restore()
                alpha = np.asarray(scratch.buffer_rgba())[:, :, 3]
                if not (alpha[0].any() or alpha[-1].any() or alpha[:, 0].any() or alpha[:, -1].any()):
                    break
                pad *= 4
            rows, cols = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
            if rows.size == 0:
                return None, 0, 0
            bitmap = np.ascontiguousarray(alpha[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])
            return bitmap, int(cols[0]) - ox, int(rows[-1]) + 1 - oy

    _TEXT_CLASSES["renderer"] = TextCacheRendererAgg
    return TextCacheRendererAgg


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


def _png(figure) -> bytes:
    """The figure's rendered buffer (already drawn) as PNG bytes, written by matplotlib
    (``matplotlib.image.imsave``, zlib level 1: fast, and plots are mostly runs of one
    colour). ``savefig`` would draw the figure a second time."""
    from io import BytesIO

    from matplotlib.image import imsave

    buffer = BytesIO()
    imsave(buffer, np.asarray(figure.canvas.buffer_rgba()), format="png", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


class IntervalsView(View):
    """Per-run [B, T] with the chosen point estimate (and the true score when the
    Experiment has truth), top ``top`` runs by the estimate; per-topic [B, T] of one run."""

    name = "intervals"
    uses = ("depth", "measurement_depth", "background_rate", "smoothing", "auto_smoothing", "measure",
            "estimator", "contributors", "groups", "run")
    panels = ("runs", "topics")
    figsize = (PLOT_WIDTH, 5.4)
    width_ratios = (1.3, 1.0)
    legend_columns = {"runs": 1, "topics": 0}

    def __init__(self, experiment: Experiment, **kwargs):
        self._truth_view = None  # irnb.metrics.judged_view of the complete qrels, built on first use
        super().__init__(experiment, **kwargs)

    def _truth(self, measure):
        """True per-topic scores and means of ``measure`` (cached: they depend on it only)."""
        if self.experiment.truth is None:
            return None, None
        key = ("truth", measure)
        if key not in self._cache:
            if len(self._cache) > 16:
                self._cache.clear()
            if self._truth_view is None:  # the complete qrels' view: built once
                self._truth_view = judged_view(self.experiment, truth=True)
            ev = evaluate(self.experiment, measure, view=self._truth_view)
            self._cache[key] = (ev.values[measure], ev.aggregate(measure))
        return self._cache[key]

    def _update(self) -> str:
        start = time.perf_counter()
        shown = self._shown_runs()
        self._check_depth(shown)
        measure = self._measure()
        pool = self._pool()
        iv = score_intervals(self.experiment, measure, pool=pool)
        estimator = self._value("estimator")
        est = point_estimates(iv, background_rate=self._value("background_rate"), smoothing=self._smoothing())
        per_topic, means = self._truth(measure)
        now = self._mark("core", start)
        self._draw("runs", plots.intervals_plot, plots.update_intervals_plot, iv, estimates=est,
                   estimator=estimator, truth=means, runs=shown, top=self.top)
        self._draw("topics", plots.topic_intervals_plot, plots.update_topic_intervals_plot, iv,
                   self._value("run"), estimates=est, estimator=estimator, truth=per_topic)
        self._mark("artists", now)
        lam = "1 − Δ" if self._value("auto_smoothing") else f"{self._value('smoothing'):g}"
        return (f"{pool.description}: {pool.num_judged:,} of {self.experiment.judgments.num_judgments:,} "
                f"judgments · {measure.name} · X_{estimator} · E = {self._value('background_rate'):g}, λ = {lam}"
                + (f" · top {self.top} of {len(shown)} runs" if len(shown) > self.top else ""))


class DecisionView(View):
    """The decision matrix (run × run cases, the top ``top`` runs by the measure, at most
    :attr:`matrix_rows`) and the case
    proportions by measurement depth (Baillie et al.'s Table 1) for the current pool.

    Speed: Table 1 depends on the pool only, so it is computed when d or the contributors
    change (from the same evaluation as the matrix) and kept while k or the measure
    change. The matrix shows ``top`` runs; with a test whose p-value for a pair depends on
    that pair's scores alone (t, Wilcoxon, sign, randomization
    with the default fixed seed, topics shared pairwise) only the pairs among the shown
    runs are tested — the same cases as testing every pair, in a fraction of the time
    (TREC-COVID: 435 of 10,153 pairs). ANOVA and Tukey HSD test every pair, as their
    family is all runs. The default test is the papers' (one-way ANOVA over all runs +
    Bonferroni, α = 0.05); both panels name the test and α.
    """

    name = "decision matrix"
    uses = ("depth", "measurement_depth", "measure", "contributors", "groups")
    #: The matrix shows at most this many runs (the top by the measure; the groups picker shows others)
    matrix_rows = 20
    panels = ("matrix", "proportions")
    figsize = (PLOT_WIDTH, 6.2)
    grid = (2, 1)
    height_ratios = (3.0, 2.0)
    anchors = {"matrix": "W"}

    def __init__(self, experiment: Experiment, *, test: str = DEFAULT_TEST, alpha: float = DEFAULT_ALPHA, **kwargs):
        self.procedure = procedure_label(test, alpha=alpha)  # checks test and alpha
        self.test = test
        self.alpha = alpha
        _check_experiment(experiment, type(self).__name__)
        #: Table 1's measures that fit the Experiment's depth, parsed once
        self.table1 = [m for m in map(parse_measure, TABLE1_MEASURES) if (m.cutoff or 0) <= experiment.shape[2]]
        self._table1_wanted = [x for m in self.table1 for x in (m, assessment_measure(m))]
        self._proportions: tuple[tuple, Any] | None = None  # ((depth, contributors), Table 1) of the pool
        self._view: tuple[tuple, Any] | None = None  # ((depth, contributors), judged_view of the pool)
        super().__init__(experiment, **kwargs)

    def _update(self) -> str:
        start = time.perf_counter()
        shown = self._shown_runs()
        self._check_depth(shown)
        if len(shown) < 2:
            raise _Invalid("the decision matrix compares pairs: select groups with at least two runs")
        measure = self._measure()
        assessment = assessment_measure(measure)
        contributors = self._contributors()
        pool = self._pool()
        key = (self._value("depth"), tuple(contributors))
        if self._view is None or self._view[0] != key:  # the judged view depends on the pool only
            self._view = key, judged_view(self.experiment, judged=pool.judged)
        fresh = self._proportions is None or self._proportions[0] != key
        # Table 1 depends on the pool only: one evaluation serves both panels
        wanted = [measure, assessment] + (self._table1_wanted if fresh else [])
        ev = evaluate(self.experiment, list(dict.fromkeys(wanted)), view=self._view[1])
        order = self._order(ev.aggregate(measure), shown, measure.spec.higher_is_better)
        tested = ev
        if self.test in PAIR_LOCAL_TESTS and 2 <= len(order) < len(self.experiment.run_names):
            tested = _only_runs(ev, order, (measure, assessment))
        table = compare_table(tested, measure, test=self.test, alpha=self.alpha)
        matrix = case_matrix(table)
        if fresh:
            self._proportions = key, case_proportions({pool.description: ev}, measures=self.table1, test=self.test,
                                                      alpha=self.alpha)
        proportions = self._proportions[1]
        now = self._mark("core", start)
        title = f"{measure.name} with {plots.measure_label(assessment.name)}\n{self.procedure}"
        self._draw("matrix", plots.case_matrix_plot, plots.update_case_matrix_plot, matrix, order=order, title=title)
        self._draw("proportions", plots.case_proportions_plot, plots.update_case_proportions_plot, proportions)
        self._mark("artists", now)
        runs = len(self.experiment.run_names)
        return (f"{pool.description}: {pool.num_judged:,} judgments · case proportions over all "
                f"{runs * (runs - 1) // 2:,} pairs"
                + (f" · matrix: the top {self._rows} of {len(shown)} runs by {measure.name} (pick groups to see "
                   "others)" if len(shown) > self._rows else ""))

    @property
    def _rows(self) -> int:
        """Runs the matrix shows: ``top``, at most :attr:`matrix_rows` (run names stay ≥ 9 pt apart)."""
        return min(self.top, self.matrix_rows)

    def _order(self, means: np.ndarray, shown: Sequence[str], higher_is_better: bool) -> list[str]:
        """The top ``top`` of the ``shown`` runs by their mean, best first; ties keep the
        runs' order, runs without a mean (NaN) come last."""
        idx = self.experiment.run_index(shown)
        values = np.asarray(means, dtype=np.float64)[idx]
        missing = np.isnan(values)
        score = np.where(missing, 0.0, -values if higher_is_better else values)
        picked = idx[np.lexsort((np.arange(len(idx)), score, missing))[: self._rows]]
        names = self.experiment.run_names
        return [names[i] for i in picked]


def _only_runs(ev, runs: Sequence[str], measures: Sequence) -> Any:
    """The Evaluation ``ev`` restricted to ``runs`` (kept in ``ev``'s order) and ``measures``:
    the same per-topic values, rows selected."""
    import dataclasses

    wanted = set(runs)
    rows = np.asarray([i for i, name in enumerate(ev.run_names) if name in wanted], dtype=np.int64)
    measures = tuple(dict.fromkeys(measures))
    return dataclasses.replace(ev, run_names=tuple(ev.run_names[i] for i in rows), measures=measures,
                               values={m: ev.values[m][rows] for m in measures}, evaluated=ev.evaluated[rows])


class BiasView(View):
    """Büttcher et al.'s leave-one-group-out experiment at pool depth d: each left-out run's
    rank change and score change under AP and bpref (``measures``), and Kendall's τ of the
    full versus reduced ranking against pool depth (:data:`BIAS_DEPTHS` and the current d).
    Reference: the depth-d pool of the selected contributors (``reference="pool"``). Every
    group with a contributing run is left out in turn, so the group selector does not apply."""

    name = "bias"
    uses = ("depth", "contributors")
    panels = ("rank", "score", "tau")
    figsize = (PLOT_WIDTH, 6.4)
    grid = (3, 1)
    legend_columns = {"score": 0}  # the rank panel's legend above it names the same two measures
    two_line_ylabels = ("rank", "score")
    #: contributor sets whose results (every depth of the τ curve) are kept
    kept_sets = 3

    def __init__(self, experiment: Experiment, *, measures: Sequence[str] = ("AP", "Bpref"),
                 depths: Sequence[int] = BIAS_DEPTHS, **kwargs):
        self.measures = tuple(m.name for m in (parse_measure(x) for x in measures))
        if not self.measures:
            raise ValueError("measures: expected at least one measure, e.g. ('AP', 'Bpref')")
        self.depths = tuple(int(d) for d in depths if d <= experiment.shape[2])
        self._recent: list[tuple[str, ...]] = []  # contributor sets shown, latest first
        super().__init__(experiment, **kwargs)

    def _result(self, depth: int, contributors: tuple[str, ...]):
        key = ("bias", depth, contributors)
        if key not in self._cache:
            self._cache[key] = leave_one_group_out_bias(self.experiment, depth=depth, measures=self.measures,
                                                        contributors=list(contributors), reference="pool")
        return self._cache[key]

    def _update(self) -> str:
        start = time.perf_counter()
        contributors = tuple(self._contributors())
        depth = self._value("depth")
        # results of the last few contributor sets stay: a run toggled off and on again redraws from them
        self._recent = [contributors] + [c for c in self._recent if c != contributors][: self.kept_sets - 1]
        stale = [k for k in self._cache if k[2] not in self._recent or (k[1] not in self.depths and k[1] != depth)]
        for k in stale:
            del self._cache[k]
        result = self._result(depth, contributors)
        curve = {d: self._result(d, contributors) for d in self.depths}
        curve[depth] = result
        now = self._mark("core", start)
        self._draw("rank", plots.bias_plot, plots.update_bias_plot, result, value="rank")
        self._draw("score", plots.bias_plot, plots.update_bias_plot, result, value="score")
        self._draw("tau", plots.tau_depth_plot, plots.update_tau_depth_plot, curve, current=depth)
        self._mark("artists", now)
        return f"{result.description} · {int(result.left_out.sum())} left-out runs"


class UnjudgedView(View):
    """The thesis chapter's Figs 7.1 and 7.2 for P@k: unjudged documents per topic in the
    top k of runs a and b with their overlap and Δ P@k; original versus simulated P@k of
    run b (the simulated value is the chosen estimator; X_I is the thesis's)."""

    name = "unjudged documents"
    uses = ("depth", "measurement_depth", "background_rate", "smoothing", "auto_smoothing", "estimator",
            "contributors", "run_a", "run_b")
    panels = ("unjudged", "simulated")
    figsize = (PLOT_WIDTH, 6.4)
    grid = (2, 1)
    legend_columns = {"unjudged": 2, "simulated": 2}
    two_line_ylabels = ("unjudged", "simulated")

    def __init__(self, experiment: Experiment, **kwargs):
        self._overlap: tuple[tuple, Any] | None = None  # (key, unjudged_overlap table) of the last change
        _check_experiment(experiment, type(self).__name__)
        self._topics = np.asarray(experiment.topics, dtype=object)
        super().__init__(experiment, **kwargs)

    def _update(self) -> str:
        start = time.perf_counter()
        run_a, run_b = self._value("run_a"), self._value("run_b")
        for run in (run_a, run_b):
            self._check_depth([run])
        k = self._value("measurement_depth")
        pool = self._pool()
        iv = score_intervals(self.experiment, f"P@{k}", pool=pool)
        estimator = self._value("estimator")
        est = point_estimates(iv, background_rate=self._value("background_rate"), smoothing=self._smoothing())
        a, s = (int(i) for i in self.experiment.run_index([run_a, run_b]))
        # the overlap depends on the runs, k and the pool only: E, λ and the estimator keep it
        key = (run_a, run_b, k, self._value("depth"), tuple(self._contributors()))
        if self._overlap is None or self._overlap[0] != key:
            self._overlap = key, unjudged_overlap(self.experiment, run_a, run_b, measurement_depth=k, pool=pool)
        table = self._overlap[1]
        # Fig. 7.2's arrays from the P@k intervals: unjudged in run b's top k = k·Δ, original P@k = B
        answered = iv.evaluated[a] & iv.evaluated[s]
        now = self._mark("core", start)
        self._draw("unjudged", plots.unjudged_plot, plots.update_unjudged_plot, table, run_a=run_a, run_b=run_b,
                   measure=f"P@{k}")
        self._draw("simulated", plots.simulated_precision_plot, plots.update_simulated_precision_plot,
                   self._topics[answered].tolist(), np.rint(iv.residual[s][answered] * k),
                   iv.lower[s][answered], est.get(estimator)[s][answered], run=run_b, estimator=estimator,
                   measure=f"P@{k}", estimates=est)
        self._mark("artists", now)
        return (f"{pool.description}: {run_a} has {int(table['unjudged_a'].sum()):,} and {run_b} "
                f"{int(table['unjudged_b'].sum()):,} unjudged documents in their top {k} over "
                f"{int(answered.sum())} topics, {int(table['overlap'].sum()):,} shared")


# =============================================================================== explorer
_VIEWS = {"intervals": IntervalsView, "decision matrix": DecisionView, "bias": BiasView,
          "unjudged documents": UnjudgedView}
_ALL_CONTROLS = ("depth", "measurement_depth", "background_rate", "smoothing", "auto_smoothing", "measure",
                 "estimator", "contributors", "groups", "run", "run_a", "run_b")


class Explorer:
    """Every view in tabs, driven by one set of controls. Only the visible tab redraws on
    a change; the others redraw when shown."""

    def __init__(self, experiment: Experiment, *, top: int = _TOP, canvas: str = "auto"):
        w = _ipywidgets()
        _check_experiment(experiment, "explorer")
        self.controls = _build_controls(experiment, _ALL_CONTROLS)
        self.views: dict[str, View] = {}
        for i, (name, cls) in enumerate(_VIEWS.items()):
            self.views[name] = cls(experiment, controls=self.controls, top=top, canvas=canvas, standalone=False,
                                   active=i == 0)
        self.tabs = w.Tab(children=[v.widget for v in self.views.values()], titles=list(self.views))
        self.tabs.observe(self._on_tab, names="selected_index")
        for control in self.controls.values():
            control.observe(lambda _change: self._sync(), names="value")
        self._sync()
        self.widget = _beside(_panel(self.controls), self.tabs)

    @property
    def active(self) -> View:
        """The view on the visible tab."""
        return list(self.views.values())[self.tabs.selected_index or 0]

    def locked_controls(self) -> dict[str, str]:
        """The controls that cannot change the visible view now, with why (they are disabled,
        the reason is their tooltip); see :meth:`View.locked_controls`."""
        return self.active.locked_controls(self.controls)

    def _sync(self) -> None:
        _sync_controls(self.controls, self.locked_controls())

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


def explorer(experiment: Experiment, *, top: int = _TOP, canvas: str = "auto") -> Explorer:
    """All views in tabs (intervals, decision matrix, bias, unjudged documents) with one
    set of controls: pool depth d, measurement depth k, E, λ (and λ = 1 − Δ), measure,
    estimator, contributors, groups, and the runs to look at. ``top``: how many runs the
    per-run plots show (best by score; default 30); ``canvas``: "auto" (ipympl when the
    matplotlib backend is widget/ipympl, else PNG), "ipympl" or "png" (importing ipympl
    makes it matplotlib's backend: that is ipympl's own behaviour)."""
    return Explorer(experiment, top=top, canvas=canvas)


def intervals_view(experiment: Experiment, *, top: int = _TOP, canvas: str = "auto") -> IntervalsView:
    """Score intervals alone (see :class:`IntervalsView`)."""
    return IntervalsView(experiment, top=top, canvas=canvas)


def decision_view(experiment: Experiment, *, top: int = _TOP, test: str = DEFAULT_TEST,
                  alpha: float = DEFAULT_ALPHA, canvas: str = "auto") -> DecisionView:
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
