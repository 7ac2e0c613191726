"""The decision-matrix tab: Baillie et al.'s cases for every pair of runs, and their proportions.

The matrix (run × run cases, from a test of the measure and one of the assessment measure
A_p@k) for the top runs by the measure, and the case proportions by measurement depth
(the 2007 paper's Table 1) for the current pool; the core computes
(:func:`irnb.decision.compare_table`, :func:`irnb.decision.case_matrix`,
:func:`irnb.decision.case_proportions`), :func:`irnb.plots.case_matrix_plot` and
:func:`irnb.plots.case_proportions_plot` draw.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any
from collections.abc import Sequence

import numpy as np

from .. import plots
from ..decision import (TABLE1_MEASURES, assessment_measure, case_matrix, case_proportions, compare_table,
                        procedure_label)
from ..experiment import Experiment
from ..measures import parse_measure
from ..metrics import evaluate, judged_view
from ..params import ALPHA, TEST
from ..stats import PAIR_LOCAL_TESTS
from .base import InvalidSetting, View, check_experiment
from .layout import PLOT_WIDTH

__all__ = ["DecisionView", "only_runs"]


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
    family is all runs. The default test is the papers' ANOVA over all runs + Bonferroni, in
    irnb's reading (one-way, α = 0.05); both panels name the test and α.
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

    def __init__(self, experiment: Experiment, *, test: str = TEST.default, alpha: float = ALPHA.default, **kwargs):
        self.procedure = procedure_label(test, alpha=alpha)  # checks test and alpha
        self.test = test
        self.alpha = alpha
        check_experiment(experiment, type(self).__name__)
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
            raise InvalidSetting("the decision matrix compares pairs: select groups with at least two runs")
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
            tested = only_runs(ev, order, (measure, assessment))
        table = compare_table(tested, measure, test=self.test, alpha=self.alpha)
        matrix = case_matrix(table)
        if fresh:
            self._proportions = key, case_proportions({pool.description: ev}, measures=self.table1, test=self.test,
                                                      alpha=self.alpha)
        proportions = self._proportions[1]
        now = self._mark("core", start)
        title = f"{measure.name} with {plots.measure_label(assessment.name)}\n{self.procedure}"
        self._draw("matrix", plots.case_matrix_plot, plots.update_case_matrix_plot, matrix, order=order, title=title)
        if fresh or "proportions" not in self._drawn:  # Table 1 changes with the pool only
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


def only_runs(ev, runs: Sequence[str], measures: Sequence) -> Any:
    """The Evaluation ``ev`` restricted to ``runs`` (kept in ``ev``'s order) and ``measures``:
    the same per-topic values, rows selected."""
    wanted = set(runs)
    rows = np.asarray([i for i, name in enumerate(ev.run_names) if name in wanted], dtype=np.int64)
    measures = tuple(dict.fromkeys(measures))
    return dataclasses.replace(ev, run_names=tuple(ev.run_names[i] for i in rows), measures=measures,
                               values={m: ev.values[m][rows] for m in measures}, evaluated=ev.evaluated[rows])

