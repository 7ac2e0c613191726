"""The unjudged-documents tab: the thesis chapter's Figs 7.1 and 7.2 for P@k.

Unjudged documents per topic in the top k of runs a and b, their overlap and Δ P@k
(:func:`irnb.pooling.unjudged_overlap`), and run b's original versus simulated P@k (the
chosen estimator inside its P@k interval, :func:`irnb.intervals.point_estimates`);
:func:`irnb.plots.unjudged_plot` and :func:`irnb.plots.simulated_precision_plot` draw.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .. import plots
from ..experiment import Experiment
from ..intervals import point_estimates, score_intervals
from ..pooling import unjudged_overlap
from .base import View, check_experiment
from .layout import PLOT_WIDTH

__all__ = ["UnjudgedView"]


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
        check_experiment(experiment, type(self).__name__)
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

