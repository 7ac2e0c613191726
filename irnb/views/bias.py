"""The bias tab: Büttcher et al.'s leave-one-group-out experiment at pool depth d.

Each left-out run's rank change and score change under AP and bpref, and Kendall's τ of
the full versus the reduced ranking against pool depth; the core computes
(:func:`irnb.bias.leave_one_group_out_bias`), :func:`irnb.plots.bias_plot` and
:func:`irnb.plots.tau_depth_plot` draw.

>>> from irnb.views.bias import BIAS_DEPTHS
>>> BIAS_DEPTHS                      # the τ curve's pool depths (those within the runs' depth)
(5, 10, 20, 50, 100)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from .. import plots
from ..bias import leave_one_group_out_bias
from ..experiment import Experiment
from ..measures import parse_measure
from .base import View
from .layout import PLOT_WIDTH

__all__ = ["BIAS_DEPTHS", "BiasView"]

#: Pool depths of the bias view's τ-against-depth curve (those ≤ the Experiment's depth).
BIAS_DEPTHS = (5, 10, 20, 50, 100)


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
    #: depths off the τ curve whose results are kept (the slider moved back and forth)
    kept_depths = 4

    def __init__(self, experiment: Experiment, *, measures: Sequence[str] = ("AP", "Bpref"),
                 depths: Sequence[int] = BIAS_DEPTHS, **kwargs):
        self.measures = tuple(m.name for m in (parse_measure(x) for x in measures))
        if not self.measures:
            raise ValueError("measures: expected at least one measure, e.g. ('AP', 'Bpref')")
        self.depths = tuple(int(d) for d in depths if d <= experiment.shape[2])
        self._recent: list[tuple[str, ...]] = []  # contributor sets shown, latest first
        self._recent_depths: list[int] = []  # depths off the τ curve shown, latest first
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
        if depth not in self.depths:
            self._recent_depths = [depth] + [d for d in self._recent_depths if d != depth][: self.kept_depths - 1]
        stale = [k for k in self._cache
                 if k[2] not in self._recent or (k[1] not in self.depths and k[1] not in self._recent_depths)]
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

