"""Ravana & Moffat's setting: the TREC-9 Web Track, 50 topics, 105 runs of which 59 formed the pool at
depth 100 (69,100 judgments, 2,614 relevant)."""

from __future__ import annotations

from .base import Setting

SETTINGS = (
    Setting(
        paper="ravana2010",
        name="TREC-9 Web Track",
        reported={"collection": "TREC-9 Web Track (WT10g)", "topics": 50, "runs": 105, "contributors": 59,
                  "pool_depth": 100, "run_depth": 1000, "judged": 69_100, "relevant": 2_614},
        where="Ravana & Moffat (2010), Section 4",
        params={"num_topics": 50, "num_runs": 105, "num_groups": 23, "pooled_runs_per_group": 3,
                "pool_depth": 100, "run_depth": 1000},
        differs=(),
    ),
)
