"""irnb.datasets.settings.thesis: the thesis's simulated TREC MedTrack setting pools no
semantic (novel) run and one automatic run per group."""

from __future__ import annotations

from irnb.datasets import paper_setting
from irnb.datasets.settings import setting_for


def test_thesis_setting_pools_no_semantic_run():
    c = paper_setting("thesis")
    info = c.run_info
    assert len(c.topics) == setting_for("thesis").reported["topics"] == 85
    assert not (info["manual"] & info["contributor"]).any()   # the novel ("semantic") runs stay out of the pool
    assert int(info["contributor"].sum()) == setting_for("thesis").params["pooled_automatic_runs"]
    assert info.loc[info["contributor"], "group"].nunique() == int(info["contributor"].sum())  # one per group
