"""What every live view shares: :class:`View` — controls, a figure, a status line, ``refresh()``.

No maths here. A control change calls ``refresh()``: the view's ``_update()`` calls the core
and hands the result to an ``irnb.plots.update_*`` function, which changes the plot's
artists in place (``set_segments``, ``set_data``, ``set_array``); no figure is rebuilt.
The :class:`irnb.views.frames.Frame` then redraws the figure.

An invalid combination — no contributing run or no group selected, k beyond the depth of
the runs shown, a measure without score intervals — shows the reason in the view's status
line (``view.status``) and leaves the plot as it was; the core's own error messages are
shown as they are (:class:`InvalidSetting` is the views' own).

>>> from irnb.views.base import InvalidSetting
>>> issubclass(InvalidSetting, ValueError)     # shown in the status line like the core's errors
True
"""

from __future__ import annotations

import html
import time
from typing import Any
from collections.abc import Mapping, Sequence

from .. import plots
from ..experiment import Experiment
from ..measures import parse_measure
from ..params import DISPLAY_FLAG, TOP_RUNS
from ..pooling import depth_pool
from .controls import build_controls, locked_controls, locked_list_html, sync_controls
from .frames import Frame
from .layout import beside, sidebar, two_lines

__all__ = ["DEFAULT_TOP", "InvalidSetting", "View", "check_experiment"]

#: Runs a per-run plot shows by default (the best by score).
DEFAULT_TOP = 30


class InvalidSetting(ValueError):
    """A combination of control values the view cannot show (the message says why)."""


def check_experiment(experiment, owner: str) -> None:
    """A TypeError naming ``owner`` unless ``experiment`` is an :class:`irnb.Experiment`."""
    if not isinstance(experiment, Experiment):
        raise TypeError(f"{owner}: expected an irnb.Experiment (e.g. irnb.datasets.default().experiment), "
                        f"got {type(experiment).__name__}")


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

    def __init__(self, experiment: Experiment, *, controls: Mapping[str, Any] | None = None, top: int = DEFAULT_TOP,
                 canvas: str = "auto", standalone: bool = True, active: bool = True):
        standalone = DISPLAY_FLAG.validate(standalone, type(self).__name__, label="standalone")
        active = DISPLAY_FLAG.validate(active, type(self).__name__, label="active")
        import ipywidgets as w

        check_experiment(experiment, type(self).__name__)
        top = TOP_RUNS.validate(top, None)
        grid = self.grid or (1, len(self.panels))
        self._frame = Frame(self.figsize, canvas, grid, self.width_ratios, self.height_ratios)  # checks canvas
        self.experiment = experiment
        self.top = int(top)
        built = build_controls(experiment, [n for n in self.uses if controls is None or n not in controls])
        self.controls: dict[str, Any] = {n: (controls[n] if controls is not None and n in controls else built[n])
                                         for n in self.uses}
        self.status = w.HTML()
        self.timings: dict[str, float] = {}
        self.active = bool(active)
        self.stale = True
        self.figure, self._canvas_widget, self.canvas = self._frame.figure, self._frame.widget, self._frame.mode
        self.axes = dict(zip(self.panels, self.figure.axes, strict=True))
        for panel, anchor in self.anchors.items():
            self.axes[panel].set_anchor(anchor)
        self._drawn: set[str] = set()
        self._cache: dict = {}
        for name in self.uses:
            self.controls[name].observe(self._on_change, names="value")
        if standalone:  # the view's own controls: lock those the others' values make moot (E, λ)
            for name in self.uses:
                self.controls[name].observe(lambda _change: sync_controls(self.controls, self.locked_controls()),
                                            names="value")
            sync_controls(self.controls, self.locked_controls())
        plot = w.VBox([self._canvas_widget, self.status])
        self.widget = (beside(sidebar(self.controls), plot, figure=lambda: self.figure,
                              notes=lambda: locked_list_html(self.locked_controls(), self.controls))
                       if standalone else plot)
        if self.active:  # an inactive view (a hidden tab) draws when first shown
            self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def layouts(self) -> int:
        """Layout passes so far (one at the start, more only when tick labels grow)."""
        return self._frame.layouts

    @property
    def artists(self) -> dict[str, dict[str, Any]]:
        """Panel → role → artist (see :func:`irnb.plots.artists`)."""
        return {name: plots.artists(ax) for name, ax in self.axes.items()}

    def locked_controls(self, controls: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The controls (of ``controls``, default the view's own) that cannot change this view
        as the controls are set now, each with the reason: those the view does not use, E
        and λ with an estimator that ignores them, λ while λ = 1 − Δ. The explorer
        disables them and shows the reason as their tooltip."""
        return locked_controls(self.name, self.uses, self.controls if controls is None else controls)

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
            label.set_text(two_lines(label.get_text()))
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
        """Redraw the figure (see :meth:`irnb.views.frames.Frame.render`)."""
        self._frame.render((self.experiment.run_names, self.experiment.topics))

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
            raise InvalidSetting("no contributing run selected: a pool of depth d needs at least one contributing run")
        return names

    def _shown_runs(self) -> list[str]:
        if "groups" not in self.controls:
            return list(self.experiment.run_names)
        groups = set(self._value("groups"))
        if not groups:
            raise InvalidSetting("no group selected: select at least one group whose runs are shown")
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
            raise InvalidSetting(f"measurement depth k = {k} is beyond the depth of {who} ({longest} documents "
                           f"per topic at most); choose k ≤ {longest}")

    def _pool(self):
        return depth_pool(self.experiment, depth=self._value("depth"), runs=self._contributors())

    def _smoothing(self):
        return "auto" if self._value("auto_smoothing") else self._value("smoothing")

    def _update(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError
