"""The thesis chapter's setting: TREC MedTrack, 85 queries; "no semantic search systems contributed any
documents to the pool", so the simulator's manual ("novel") runs, which weight a facet of relevance the
others ignore, stay out of it."""

from __future__ import annotations

from ..params import SIMULATION_PARAMS
from .base import Setting

#: As many pooled runs as the embedded default has (one per group), all of them automatic.
_POOLED = SIMULATION_PARAMS["num_groups"].default

SETTINGS = (
    Setting(
        paper="thesis",
        name="TREC MedTrack",
        reported={"collection": "TREC Medical Records (MedTrack), 85 queries", "topics": 85,
                  "contributors": "keyword-based runs only; no semantic search run"},
        where="the thesis chapter (Section 7)",
        params={"num_topics": 85, "pooled_manual_runs": 0, "pooled_automatic_runs": _POOLED},
        differs=("the chapter prints neither runs, groups nor pool depth: the embedded default's are used, with "
                 f"{_POOLED} automatic runs pooled and no manual ('novel') run",
                 "the chapter compares two runs of its own (a baseline and a semantic run, neither pooled); the "
                 "reproductions draw their pair by their stated rule: lvl1 a novel run, lvl0 a run of another kind, "
                 "both unpooled"),
    ),
)
