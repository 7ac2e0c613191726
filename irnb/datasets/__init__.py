"""The embedded default: a seeded simulator of a TREC-like test collection with complete
ground truth (see :mod:`irnb.datasets.model` for the generative model).

>>> from irnb.datasets import simulate
>>> c = simulate(seed=0, num_topics=3, num_runs=6, num_groups=3, docs_per_topic=600, run_depth=100,
...              pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1)
>>> sorted(c.run_info["kind"].unique())
['keyword', 'novel', 'popular']
"""

from .calibration import collection_statistics, pairwise_overlap
from .collection import Collection, default, simulate
from .error import EstimatorError, estimator_error
from .files import configure_simulate_parser, main_simulate, run_simulate, write_collection
from .params import SIMULATION_PARAMS
from .text import Documents

__all__ = [
    "Collection",
    "simulate",
    "default",
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
]
