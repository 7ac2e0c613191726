"""Ravana & Moffat's simulated setting (TREC-9 Web Track): its design against the paper's numbers,
and the limit on runs per group it relies on, switched off on a small case and grounded on
TREC-COVID round 1."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from irnb.datasets import shared_data, simulate
from irnb.datasets.model import capped_group_sizes
from irnb.datasets.settings import paper_setting, setting_for

SETTING = setting_for("ravana2010")
#: A small collection whose drawn group sizes are uneven (seed 3: one group of 10 of the 16 runs in 5 groups).
SMALL = dict(num_topics=4, num_runs=16, num_groups=5, docs_per_topic=400, run_depth=50, pool_depth=10,
             median_relevant=10, novel_runs=2, keyword_runs=2, pooled_manual_runs=2, pooled_automatic_runs=6)


def same_group_pairs_left_out(c) -> tuple[int, int]:
    """(pairs of non-pooled runs from one group, all pairs of non-pooled runs)."""
    info = c.run_info
    groups = info.loc[~info["contributor"], "group"].tolist()
    pairs = list(itertools.combinations(groups, 2))
    return sum(a == b for a, b in pairs), len(pairs)


@pytest.fixture(scope="module")
def trec9():
    return paper_setting("ravana2010", 0)


# =============================================================== the design against the paper's numbers
def test_setting_has_the_papers_design(trec9):
    info, reported = trec9.run_info, SETTING.reported
    assert len(trec9.topics) == reported["topics"] == 50
    assert len(info) == reported["runs"] == 105
    assert int(info["contributor"].sum()) == reported["contributors"] == 59
    assert trec9.params["pool_depth"] == reported["pool_depth"] == 100
    assert trec9.ranking.shape[2] == reported["run_depth"] == 1000
    # what the paper does not print is simulated, and the setting says so
    sizes = info.groupby("group").size()
    assert sizes.size == trec9.params["num_groups"] == 23
    assert sizes.max() == trec9.params["max_runs_per_group"] == 5 == -(-105 // 23)
    assert any("limit on runs per group is not printed" in sentence for sentence in SETTING.differs)


def test_the_runs_left_out_of_the_pool_come_from_most_groups(trec9):
    """46 non-pooled runs of 23 groups of at most 5: few of their 1,035 pairs share a group."""
    same, pairs = same_group_pairs_left_out(trec9)
    assert pairs == 1035
    assert same / pairs < 0.05
    assert trec9.run_info.loc[~trec9.run_info["contributor"], "group"].nunique() >= 15


# =============================================================== the limit on runs per group
def test_capped_group_sizes_moves_the_excess_to_the_smallest_groups():
    # 7 → 4: the three excess runs go to the 1, then to the first 2, then to the other 2
    assert capped_group_sizes(np.array([7, 1, 2, 2]), cap=4).tolist() == [4, 3, 3, 2]
    assert capped_group_sizes(np.array([3, 3]), cap=3).tolist() == [3, 3]   # nothing above the cap
    with pytest.raises(ValueError, match=r"max_runs_per_group \(2\) × num_groups \(2\) must be ≥ num_runs \(5\)"):
        capped_group_sizes(np.array([4, 1]), cap=2)


def test_simulate_rejects_a_limit_too_small_for_the_runs():
    with pytest.raises(ValueError, match=r"max_runs_per_group \(3\) × num_groups \(5\) must be ≥ num_runs \(16\)"):
        simulate(seed=3, **SMALL, max_runs_per_group=3)


def test_the_limit_spreads_the_non_pooled_runs_over_the_groups():
    """Off, the largest drawn group keeps most of the runs left out of the pool, so many of their
    pairs share a group; on (at most 4 runs), the pairs come from different groups."""
    off, on = simulate(seed=3, **SMALL), simulate(seed=3, **SMALL, max_runs_per_group=4)
    assert off.run_info.groupby("group").size().tolist() == [1, 2, 10, 2, 1]
    assert on.run_info.groupby("group").size().tolist() == [3, 3, 4, 3, 3]
    assert same_group_pairs_left_out(off) == (28, 28)   # every run left out is of the group of 10
    assert same_group_pairs_left_out(on) == (3, 28)
    assert int(off.run_info["contributor"].sum()) == int(on.run_info["contributor"].sum()) == 8


def test_the_limit_lets_p10_separate_most_non_pooled_pairs_after_few_judgments(trec9):
    """The paper's example (its Table 3 paragraph: P@10, the non-contributing pairs, 1,000
    judgments, 713 of 1,035 significant; estimator not named, irnb assumes X_S): on, more than
    half of the 1,035 pairs are separable, as in the paper; off, the runs left out of the pool
    crowd into the largest groups, whose runs share their group's noise and quality, and well
    under half are (docs/simulator.md says so)."""
    import irnb

    off = simulate(seed=0, **{**SETTING.params, "max_runs_per_group": 0})
    cell = ("P@10", "X_S"), ("non-contributing", "shallow")
    separable = {name: round(irnb.reproduce("ravana2010-table2", c, label=name).table.loc[cell] * 1035)
                 for name, c in (("on", trec9), ("off", off))}
    assert separable == {"on": 590, "off": 436}
    assert separable["off"] / 1035 < 0.45 < 0.5 < separable["on"] / 1035  # "well under half" off
    assert same_group_pairs_left_out(off) == (146, 1035)


def test_no_limit_draws_the_same_collection():
    """0 (the default) leaves the drawn sizes as they are: the same bits as before the limit existed."""
    a, b = simulate(seed=3, **SMALL), simulate(seed=3, **SMALL, max_runs_per_group=0)
    assert a.run_info.equals(b.run_info) and np.array_equal(a.ranking, b.ranking)


def test_trec_covid_teams_submit_up_to_a_limit():
    """The grounding: TREC-COVID round 1's teams submitted at most 3 runs, most of them exactly 3."""
    folder = shared_data("trec-covid-round1")
    if folder is None:
        pytest.skip("the shared TREC-COVID data is not here")
    from irnb.datasets.real import trec_covid_leaderboard

    runs_per_team = trec_covid_leaderboard(folder).groupby("team").size()
    assert runs_per_team.max() == 3
    assert (runs_per_team == 3).mean() > 0.5
    # one run per team was pooled, so the runs left out come from most teams: few of their pairs share one
    board = trec_covid_leaderboard(folder)
    teams = board.loc[~board["contributed"], "team"].tolist()
    pairs = list(itertools.combinations(teams, 2))
    assert sum(a == b for a, b in pairs) / len(pairs) < 0.02
