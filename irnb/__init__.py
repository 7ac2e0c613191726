"""irnb: IR evaluation when relevance judgments are incomplete.

The core (I/O, Experiment, measures, pools, intervals, statistics) imports numpy, pandas,
scipy and pyarrow only; plotting and widgets live in ``irnb.plots`` and ``irnb.widgets``
and are imported on demand.

Imports are lazy: ``import irnb`` loads nothing heavy, and each public name below is
imported from its module on first use (``irnb.evaluate``, ``from irnb import Experiment``),
so that ``irnb --help`` and ``irnb trec_eval`` start fast.
"""

import importlib

# public name → the module that owns it
_EXPORTS = {
    "Experiment": "experiment", "Judgments": "judgments", "MissingTopicsWarning": "experiment",
    "PoolMask": "poolmask", "UNJUDGED": "_grades", "NO_DOC": "_grades", "FileReadError": "sources",
    "Run": "trecdata", "Qrels": "trecdata", "read_run": "io", "read_runs": "io", "read_qrels": "io",
    "write_run": "writing", "write_qrels": "writing",
    "Measure": "measures", "parse_measure": "measures", "parse_measures": "measures",
    "Evaluation": "metrics", "evaluate": "metrics",
    "Pool": "pooling", "official_pool": "pooling", "depth_pool": "pooling", "leave_one_group_out": "pooling",
    "budget_pool": "pooling", "random_subsample": "pooling",
    "score_intervals": "intervals", "point_estimates": "intervals", "compare_intervals": "intervals",
    "scenarios": "measure_scenarios", "estimate_background_rate": "background_rate",
    "true_background_rate": "background_rate", "background_rate_by_contributors": "background_rate",
    "pessimistic_t_test": "intervals",
    "interval_table": "intervals",
    "pairwise_test": "stats",
    "compare_table": "decision", "case_proportions": "decision", "depth_curves": "decision",
    "Reproduction": "papers", "reproduce": "papers", "reproduction_ids": "papers",
    "reproductions": "papers", "ReproductionNeeds": "papers",
    "Report": "reporting", "report": "reporting",
    "judge_next": "judging", "AssessmentSession": "judging",
    "sample_scores": "sampling", "SampledScores": "sampling",
}

__version__ = "0.1.0"


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'irnb' has no attribute {name!r}")
    loaded = importlib.import_module(f".{module}", __name__)
    # bind every name the module exports (later look-ups skip this function); this also
    # puts the function `reproduce` back over the subpackage `irnb.papers` that the
    # import just bound here
    for export, owner in _EXPORTS.items():
        if owner == module:
            globals()[export] = getattr(loaded, export)
    return globals()[name]


def __dir__():
    return sorted(set(globals()) | set(__all__))

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
    "background_rate_by_contributors",
    "interval_table",
    "sample_scores",
    "SampledScores",
    "pairwise_test",
    "compare_table",
    "case_proportions",
    "depth_curves",
    "judge_next",
    "AssessmentSession",
    "Reproduction",
    "reproduce",
    "ReproductionNeeds",
    "reproduction_ids",
    "reproductions",
    "Report",
    "report",
    "__version__",
]
