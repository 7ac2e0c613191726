"""The intervals tab: every run's score interval [B, T] with a point estimate, and one run's topics.

Ravana and Moffat's picture: per run, the mean of [B, T] over topics (B: unjudged documents
non-relevant, T: relevant) with the chosen estimator X_S, X_B, X_I or X_M inside it (and the
true score when the Experiment knows it), for the top ``top`` runs by the estimate; per
topic, the same for the run picked with 'run'. The core computes
(:func:`irnb.intervals.score_intervals`, :func:`irnb.intervals.point_estimates`); the
plots are :func:`irnb.plots.intervals_plot` and :func:`irnb.plots.topic_intervals_plot`.
"""

from __future__ import annotations

import time

from .. import plots
from ..experiment import Experiment
from ..intervals import point_estimates, score_intervals
from ..metrics import evaluate, judged_view
from .base import View
from .layout import PLOT_WIDTH

__all__ = ["IntervalsView"]


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

