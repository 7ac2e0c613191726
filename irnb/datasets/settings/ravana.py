"""Ravana & Moffat's setting: the TREC-9 Web Track, 50 topics, 105 runs of which 59 formed the pool at
depth 100 (69,100 judgments, 2,614 relevant).

The structure is the paper's (topics, runs, pooled runs, depths); relevance, run quality and the
runs' overlap come from the calibrated model, as in every setting, so the number of judged and
relevant documents is the model's, not TREC-9's (``differs`` says by how much on seed 0)."""

from __future__ import annotations

from ..params import SIMULATION_PARAMS
from .base import Setting

_RUNS, _POOLED, _MANUAL = 105, 59, SIMULATION_PARAMS["novel_runs"].default
_GROUPS = 23
#: The smallest limit on runs per group that holds the 105 runs in 23 groups: a track caps submissions
#: and most groups submit up to the cap (TREC-COVID round 1: at most 3 runs per team, most teams 3).
_CAP = -(-_RUNS // _GROUPS)

SETTINGS = (
    Setting(
        paper="ravana2010",
        name="TREC-9 Web Track",
        reported={"collection": "TREC-9 Web Track (WT10g)", "topics": 50, "runs": _RUNS, "contributors": _POOLED,
                  "pool_depth": 100, "run_depth": 1000, "judged": 69_100, "relevant": 2_614},
        where="Ravana & Moffat (2010), Section 4",
        params={"num_topics": 50, "num_runs": _RUNS, "num_groups": _GROUPS, "pool_depth": 100, "run_depth": 1000,
                "pooled_manual_runs": _MANUAL, "pooled_automatic_runs": _POOLED - _MANUAL,
                "max_runs_per_group": _CAP},
        differs=(f"the paper prints neither groups nor manual runs: {_GROUPS} groups and the model's {_MANUAL} "
                 "manual runs (all pooled) are simulated; TREC-9's limit on runs per group is not printed either: the "
                 f"smallest that holds the runs ({_CAP}) is simulated",
                 "judged and relevant documents per topic are the calibrated model's (its relevance and its runs' "
                 "overlap follow TREC-COVID and CLEF eHealth), not TREC-9's 69,100 and 2,614"),
    ),
)
