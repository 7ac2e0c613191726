"""The thesis chapter's setting: TREC MedTrack (2011), 85 queries, two runs (lvl0 and lvl1) of which
lvl1 is a semantic search run that did not contribute to the pool."""

from __future__ import annotations

from .base import Setting

SETTINGS = (
    Setting(
        paper="thesis",
        name="TREC MedTrack",
        reported={"collection": "TREC 2011 Medical Records", "topics": 85},
        where="the thesis chapter (Section 7)",
        params={"num_topics": 85},
        differs=("the chapter compares two runs of its own; the setting keeps the default's runs and pool, and "
                 "the reproductions pick the pair by their stated rule",),
    ),
)
