"""Baillie et al.'s settings (2007 and 2008): official TREC runs measured to depth 1,000 beyond pools
of depth 47–100 (TREC-3 … Robust 2005).

One collection stands for each paper: TREC-3 for 2007 (the first row of its Table 1: 780 pairs, so
40 runs; 50 topics, pooled to depth 100, the deepest pool the papers name, and runs 1,000 deep are
irnb's assumptions, which the setting's notes say) and Robust 2005 for 2008 (the
collection of its Figs. 9–11: 1,485 pairs in the 2007 paper's Table 1, so 55 runs, pooled to depth
55 as the 2008 paper's Section 4.2.3 says). :func:`deep_uniqueness` measures how far runs' deep
ranks leave the documents other groups retrieve, on real runs and simulated ones alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..params import SIMULATION_PARAMS
from .base import Setting

__all__ = ["SETTINGS", "deep_uniqueness", "runs_of_pairs"]

_POOLED = ("the papers do not say which runs were pooled: every run is pooled here, so that at depth 10 nearly "
           "every pair is evenly judged, as the papers' tables show (weak comparisons at @10 are few)")
_GROUPS = "the papers do not print the groups: {groups} are simulated"
_ASSUMED = ("the 2007 paper states TREC-3's 780 pairs (40 runs) only: topics {num_topics}, pool depth {pool_depth} "
            "and run depth {run_depth} are irnb's assumptions (the 2008 paper: TREC's pools are 'no more than k = 100' "
            "deep and its measurement depth 'd = 1000')")
_SLICE = (f"each topic has the simulator's {SIMULATION_PARAMS['docs_per_topic'].default:,} documents, so a pool "
          "over every run judges a far larger share of the runs' lists than a pool of a real collection does "
          "(tests/datasets/test_settings_baillie.py measures it against CLEF eHealth 2016)")


def runs_of_pairs(pairs: int) -> int:
    """The number of runs n whose every pair makes ``pairs`` comparisons: n(n − 1)/2 = pairs.

    >>> runs_of_pairs(780), runs_of_pairs(1485)
    (40, 55)
    >>> runs_of_pairs(8000)        # the 2007 paper's TREC 8 row, a typo: no n gives it
    Traceback (most recent call last):
    ...
    ValueError: runs_of_pairs: 8000 is not n(n − 1)/2 for any n
    """
    n = int(round((1 + (1 + 8 * pairs) ** 0.5) / 2))
    if n * (n - 1) // 2 != pairs:
        raise ValueError(f"runs_of_pairs: {pairs} is not n(n − 1)/2 for any n")
    return n


# pooled_runs_per_group = num_runs: every run pooled (see _POOLED)
_TREC3 = {"num_topics": 50, "num_runs": 40, "num_groups": 12, "pool_depth": 100, "pooled_runs_per_group": 40,
          "run_depth": 1000}
_ROBUST05 = {"num_topics": 50, "num_runs": 55, "num_groups": 17, "pool_depth": 55, "pooled_runs_per_group": 55,
             "run_depth": 1000}

SETTINGS = (
    Setting(
        paper="baillie2007",
        name="TREC-3 ad hoc",
        reported={"collection": "TREC-3 ad hoc (first of the 8 collections of Table 1)", "runs": 40},
        where="Baillie et al. (2007) §3, Table 1 (780 pairs)",
        params=_TREC3,
        differs=(_ASSUMED.format(**_TREC3),
                 "one collection stands for the eight of Table 1 (TREC-3 to HARD 2005, pools of depth 47–100)",
                 _GROUPS.format(groups=_TREC3["num_groups"]), _POOLED, _SLICE),
    ),
    Setting(
        paper="baillie2008",
        name="Robust 2005",
        reported={"collection": "Robust 2005 (AQUAINT), the collection of Figs. 9–11", "runs": 55,
                  "pool_depth": 55, "run_depth": 1000},
        where="Baillie et al. (2008), Sections 4.1 and 4.2.3 (runs: the 2007 paper's Table 1, 1,485 pairs)",
        params=_ROBUST05,
        differs=(f"the papers do not print Robust 2005's number of topics: topics {_ROBUST05['num_topics']} is one "
                 "of irnb's assumptions",
                 "Fig. 12 ranks the runs of TREC-3, 6, 7 and 8 (pools of depth 100), not Robust 2005's",
                 _GROUPS.format(groups=_ROBUST05["num_groups"]), _POOLED, _SLICE),
    ),
)


def deep_uniqueness(experiment, *, shallow: int = 100, deep: int = 1000) -> pd.Series:
    """Per run, the share of its documents at ranks ``shallow`` + 1 … ``deep`` that no run of
    another group retrieves in its top ``deep``, over every topic together: how far its deep ranks
    have left the documents the other groups share (and so the pool's). NaN for a run with no
    document beyond rank ``shallow``.

    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "qid": "1", "docno": ["x", "y", "z", "x", "z", "w"],
    ...                      "score": [3.0, 2.0, 1.0] * 2})
    >>> exp = Experiment(runs, pd.DataFrame({"qid": ["1"], "docno": ["x"], "grade": [1]}), groups={"a": "A", "b": "B"})
    >>> deep_uniqueness(exp, shallow=1, deep=3).tolist()   # a: y unique, z shared; b: z shared, w unique
    [0.5, 0.5]
    """
    if not 0 <= shallow < deep:
        raise ValueError(f"deep_uniqueness: need 0 ≤ shallow < deep, got shallow={shallow}, deep={deep}")
    frames = []
    for s, name in enumerate(experiment.run_names):
        table = experiment.runs[name].table.select(["topic", "docno"])  # in trec_eval order
        topic = table["topic"].to_numpy()
        start = np.r_[True, topic[1:] != topic[:-1]]
        first = np.maximum.accumulate(np.where(start, np.arange(topic.size), 0))
        rank = np.arange(topic.size) - first
        keep = rank < deep
        frames.append(pd.DataFrame({"topic": topic[keep], "docno": pc.filter(table["docno"], pa.array(keep))
                                    .to_numpy(zero_copy_only=False), "rank": rank[keep],
                                    "group": experiment.groups[s], "run": name}))
    every = pd.concat(frames, ignore_index=True)
    groups = every.groupby(["topic", "docno"], sort=False)["group"].transform("nunique")
    beyond = every["rank"] >= shallow
    unique = (groups[beyond] == 1).groupby(every.loc[beyond, "run"]).mean()
    return unique.reindex(list(experiment.run_names)).rename("deep_uniqueness")
