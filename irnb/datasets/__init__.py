"""The embedded default: a seeded simulator of a TREC-like test collection with complete
ground truth (see :mod:`irnb.datasets.model` for the generative model).

>>> from irnb.datasets import simulate
>>> c = simulate(seed=0, num_topics=3, num_runs=6, num_groups=3, docs_per_topic=600, run_depth=100,
...              pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1)
>>> sorted(c.run_info["kind"].unique())
['keyword', 'novel', 'popular']
"""

import importlib

# public name → the module that owns it; imported on first use, so that `irnb --help` (which
# builds `irnb simulate`'s options from SIMULATION_PARAMS) stays light
_EXPORTS = {
    "collection_statistics": "calibration", "pairwise_overlap": "calibration",
    "Collection": "collection", "default": "collection", "simulate": "collection",
    "EstimatorError": "error", "estimator_error": "error",
    "main_simulate": "files", "run_simulate": "files", "write_collection": "files",
    "configure_simulate_parser": "params", "SIMULATION_PARAMS": "params",
    "Documents": "text",
    "shared_data": "real", "shared_data_missing": "real",
    "paper_setting": "settings", "Setting": "settings",
    "trec_covid": "download", "fetch_trec_covid": "download", "DownloadError": "download",
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'irnb.datasets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Collection",
    "simulate",
    "default",
    "paper_setting",
    "Setting",
    "write_collection",
    "main_simulate",
    "configure_simulate_parser",
    "run_simulate",
    "estimator_error",
    "EstimatorError",
    "Documents",
    "SIMULATION_PARAMS",
    "collection_statistics",
    "pairwise_overlap",
    "shared_data",
    "shared_data_missing",
    "trec_covid",
    "fetch_trec_covid",
    "DownloadError",
]
