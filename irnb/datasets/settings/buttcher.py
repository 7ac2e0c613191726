"""Büttcher et al.'s setting: TREC 2006 Terabyte (GOV2), 50 topics, 80 runs from 20 groups (19 manual),
pool of depth 50 from 42 runs (11 manual), measured on the top 10,000 documents."""

from __future__ import annotations

from . import Setting

SETTINGS = (
    Setting(
        paper="buttcher2007",
        name="TREC 2006 Terabyte",
        reported={"collection": "TREC 2006 Terabyte (GOV2)", "topics": 50, "runs": 80, "groups": 20,
                  "manual_runs": 19, "contributors": 42, "pool_depth": 50, "run_depth": 10_000},
        where="Büttcher et al. (2007), Section 3 and Table 1",
        params={"num_topics": 50, "num_runs": 80, "num_groups": 20, "novel_runs": 19, "pooled_runs_per_group": 3, "pooled_manual_runs": 11,
                "pooled_automatic_runs": 31,
                "pool_depth": 50, "run_depth": 1000},
        differs=("runs are 1,000 deep, not 10,000",),
    ),
)
