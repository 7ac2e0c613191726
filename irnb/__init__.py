"""irnb: IR evaluation when relevance judgments are incomplete.

The core (I/O, Experiment, measures, pools, intervals, statistics) imports numpy, pandas,
scipy and pyarrow only; plotting and widgets live in ``irnb.plots`` and ``irnb.widgets``
and are imported on demand.
"""

from .experiment import NO_DOC, UNJUDGED, Experiment, Judgments, MissingTopicsWarning, PoolMask
from .io import FileReadError, Qrels, Run, read_qrels, read_run, read_runs, write_qrels, write_run
from .measures import Measure, parse_measure, parse_measures
from .metrics import Evaluation, evaluate
from .pooling import Pool, budget_pool, depth_pool, leave_one_group_out, official_pool, random_subsample
from .decision import case_proportions, compare_table, depth_curves
from .stats import pairwise_test
from .intervals import (
    compare_intervals,
    estimate_background_rate,
    interval_table,
    pessimistic_t_test,
    point_estimates,
    scenarios,
    score_intervals,
    true_background_rate,
)
from .reproduce import Reproduction, ReproductionNeeds, reproduce, reproduction_ids, reproductions

__version__ = "0.1.0"

__all__ = [
    "Experiment",
    "Judgments",
    "MissingTopicsWarning",
    "FileReadError",
    "UNJUDGED",
    "NO_DOC",
    "Run",
    "Qrels",
    "read_run",
    "read_runs",
    "read_qrels",
    "write_run",
    "write_qrels",
    "Measure",
    "parse_measure",
    "parse_measures",
    "Evaluation",
    "evaluate",
    "Pool",
    "PoolMask",
    "official_pool",
    "depth_pool",
    "leave_one_group_out",
    "budget_pool",
    "random_subsample",
    "score_intervals",
    "point_estimates",
    "compare_intervals",
    "pessimistic_t_test",
    "scenarios",
    "estimate_background_rate",
    "true_background_rate",
    "interval_table",
    "pairwise_test",
    "compare_table",
    "case_proportions",
    "depth_curves",
    "Reproduction",
    "reproduce",
    "ReproductionNeeds",
    "reproduction_ids",
    "reproductions",
    "__version__",
]
