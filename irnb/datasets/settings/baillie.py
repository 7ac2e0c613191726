"""Baillie et al.'s settings (2007 and 2008): official TREC runs measured to depth 1,000 beyond pools
of depth 47–100 (TREC-3 … Robust 2005)."""

from __future__ import annotations

from . import Setting

SETTINGS = (
    Setting(
        paper="baillie2007",
        name="TREC ad hoc (TREC-3 … Robust 2005)",
        reported={"collection": "8 TREC collections, TREC-3 to Robust 2005", "topics": 50, "pool_depth": "47–100",
                  "run_depth": 1000},
        where="Baillie et al. (2007), Section 4",
        params={},
    ),
    Setting(
        paper="baillie2008",
        name="TREC ad hoc (TREC-3 … Robust 2005)",
        reported={"collection": "TREC-3, 6, 7, 8, Robust 2005 and more", "topics": 50, "pool_depth": "47–100",
                  "run_depth": 1000},
        where="Baillie et al. (2008), Section 4.1",
        params={},
    ),
)
