"""Baillie et al.'s settings: the papers' designs, and how far the simulated runs' deep ranks are from
real runs' (what the settings' ``differs`` says)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from irnb import Experiment
from irnb.datasets import paper_setting, simulate
from irnb.datasets.real import clef_ehealth_2016_task2, shared_data
from irnb.datasets.settings import setting_for
from irnb.datasets.settings.baillie import deep_uniqueness, runs_of_pairs
from irnb.metrics import evaluate
from irnb.papers.baillie import _paper_table1
from irnb.pooling import depth_pool

# the collection each setting follows: its row of the 2007 paper's Table 1
ROWS = {"baillie2007": "TREC 3", "baillie2008": "ROBUST 05"}


@pytest.mark.parametrize("paper", sorted(ROWS))
def test_runs_are_the_papers_pairs(paper):
    pairs = int(_paper_table1().loc[ROWS[paper], ("pairs", "")])
    assert setting_for(paper).reported["runs"] == runs_of_pairs(pairs)


@pytest.mark.parametrize("paper", sorted(ROWS))
def test_setting_builds_the_reported_design(paper):
    setting = setting_for(paper)
    reported, params = setting.reported, setting.params
    # what the paper prints is what the setting builds; what it does not print is named as irnb's assumption
    built = {"topics": params["num_topics"], "runs": params["num_runs"], "pool_depth": params["pool_depth"],
             "run_depth": params["run_depth"]}
    assert {k: reported[k] for k in built if k in reported} == {k: v for k, v in built.items() if k in reported}
    unstated = [k for k in built if k not in reported]
    named = [sentence for sentence in setting.differs if "irnb's assumptions" in sentence]
    assert not unstated or any(all(k.replace("_", " ") in sentence for k in unstated) for sentence in named)
    c = paper_setting(paper, seed=0)
    assert len(c.topics) == params["num_topics"] and len(c.runs) == reported["runs"]
    assert c.ranking.shape[2] == params["run_depth"]
    assert c.run_info["group"].nunique() == params["num_groups"]
    assert c.run_info["contributor"].all()  # every run pooled: the differs sentence says why
    # the official qrels are the depth-d pool of every run, nothing more
    d = params["pool_depth"]
    for t in (0, len(c.topics) - 1):
        pooled = np.zeros(c.pooled.shape[1], dtype=bool)
        pooled[c.ranking[:, t, :d].ravel()] = True
        assert np.array_equal(pooled, c.pooled[t])
    assert any("pooled" in sentence for sentence in setting.differs)


def test_runs_of_pairs_names_an_impossible_count():
    with pytest.raises(ValueError, match="779 is not n"):
        runs_of_pairs(779)


def test_deep_uniqueness_counts_other_groups_only():
    runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3 + ["c"] * 3, "qid": "1",
                         "docno": ["x", "y", "z", "x", "z", "w", "y", "v", "u"], "score": [3.0, 2.0, 1.0] * 3})
    qrels = pd.DataFrame({"qid": ["1"], "docno": ["x"], "grade": [1]})
    # a and c in one group: c's y does not make a's y shared
    exp = Experiment(runs, qrels, groups={"a": "A", "b": "B", "c": "A"})
    assert deep_uniqueness(exp, shallow=1, deep=3).round(6).tolist() == [0.5, 0.5, 1.0]
    exp = Experiment(runs, qrels, groups={"a": "A", "b": "B", "c": "C"})
    assert deep_uniqueness(exp, shallow=1, deep=3).round(6).tolist() == [0.0, 0.5, 1.0]
    with pytest.raises(ValueError, match="shallow=3, deep=3"):
        deep_uniqueness(exp, shallow=3, deep=3)


def _clef16():
    folder = shared_data("clef-ehealth-2016-irtask2")
    if folder is None:
        pytest.skip("CLEF eHealth 2016 is not in shared/data")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clef_ehealth_2016_task2(folder)


@pytest.mark.shared
def test_simulated_deep_ranks_are_more_shared_than_real_ones():
    """The setting's ``differs`` (the topic's slice of documents): in CLEF eHealth 2016, a run's ranks
    101–1000 hold documents no other group retrieves far more often than in a simulated collection of
    the same design (16 runs, 6 groups), and a larger slice moves the simulation towards it."""
    real = deep_uniqueness(_clef16())
    design = {"num_topics": 10, "num_runs": 16, "num_groups": 6}
    small = deep_uniqueness(simulate(0, **design).experiment)
    large = deep_uniqueness(simulate(0, **design, docs_per_topic=20_000).experiment)
    assert real.median() > 2 * small.median()
    assert large.median() > 1.5 * small.median()


@pytest.mark.shared
def test_a_pool_of_every_run_judges_more_of_the_simulated_lists():
    """Every run pooled to the 2008 setting's depth: far more of the simulated runs' 1,000 documents
    are judged than of CLEF eHealth 2016's (the ``differs`` sentence on the slice of documents)."""
    real = _clef16()
    everyone = Experiment(real.runs, real.qrels, groups=dict(zip(real.run_names, real.groups, strict=True)))
    depth = setting_for("baillie2008").reported["pool_depth"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        real_judged = evaluate(everyone, ["Judged@1000"], judged=depth_pool(everyone, depth=depth).judged).means()
    simulated = evaluate(paper_setting("baillie2008", seed=0).experiment, ["Judged@1000"]).means()
    assert simulated["Judged@1000"].mean() > 2 * real_judged["Judged@1000"].mean()


@pytest.mark.shared
def test_real_runs_pooled_alike_rank_map_and_ap_as_the_setting_does_not_as_the_papers():
    """Why baillie2008-fig12's τ claim fails on most seeds of its setting: real runs with every run
    pooled to the setting's depth (CLEF eHealth 2016) give τ(MAP, A_p@1000) above the papers' band
    too, and their best fifth of runs is the most judged, not less judged than the middle."""
    from irnb.bias import kendall_tau
    from irnb.papers import baillie as B

    real = _clef16()
    everyone = Experiment(real.runs, real.qrels, groups=dict(zip(real.run_names, real.groups, strict=True)))
    depth = setting_for("baillie2008").reported["pool_depth"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        means = evaluate(everyone, ["AP", "Judged@1000"], judged=depth_pool(everyone, depth=depth).judged).means()
    tau = kendall_tau(means["AP"], means["Judged@1000"])
    assert tau > max(B._FIG12_TAU.values()) + B._TAU_BAND
    ranked = means.sort_values("AP", ascending=False)["Judged@1000"].to_numpy()
    top, middle, bottom = B._fifths(ranked)
    assert top > middle > bottom
