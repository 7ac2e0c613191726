"""What the tests of the simulator's modules share: the small collection's parameters (each test
module wraps ``simulate(7, **SMALL)`` and ``default()`` in its own module-scoped fixtures), which
documents each run ranks in its top k, and how far a ranking's best and worst runs lie from
its median."""

from __future__ import annotations

import numpy as np

from irnb.datasets import Collection

SMALL = dict(num_topics=4, num_runs=8, num_groups=3, docs_per_topic=600, run_depth=100, pool_depth=10,
             median_relevant=25, novel_runs=1, keyword_runs=2)


def top_sets(c: Collection, k: int) -> np.ndarray:
    """inc[s, t, i]: document i of topic t is in run s's top k."""
    S, T, _ = c.ranking.shape
    N = c.family.shape[1]
    inc = np.zeros((S, T, N), dtype=bool)
    inc[np.arange(S)[:, None, None], np.arange(T)[None, :, None], c.ranking[:, :, :k]] = True
    return inc


ENDS_FLOOR = 0.7  # in IQRs of the runs' MAP: how far from the median both real rankings' best and worst lie


def map_ends(map_per_run: np.ndarray) -> tuple[float, float]:
    """(best − median, median − worst) of the runs' MAP, in IQRs of it."""
    q25, median, q75 = np.quantile(map_per_run, [0.25, 0.5, 0.75])
    return (map_per_run.max() - median) / (q75 - q25), (median - map_per_run.min()) / (q75 - q25)
