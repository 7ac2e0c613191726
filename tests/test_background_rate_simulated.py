"""E estimated on the simulated collection against the true rate (issue 13, its last open item).

For seed s and pool depth d: the depth-d pool of the default's contributing runs,
``estimate_background_rate(exp, depth=d, pool=pool)`` (Ravana & Moffat's cubic read at zero
runs) and ``true_background_rate(exp, measurement_depth=2d, pool=pool)`` (the share relevant,
in the complete truth, of the unjudged documents in the runs' top 2d). Seed 0 is the default;
seeds 10-14 were never used by the search that chose the simulator's constants
(benchmarks/tune_simulator.py scores seeds 0-7).
"""

from __future__ import annotations

import pytest

from irnb.datasets import simulate
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.pooling import depth_pool

SEEDS = (0, 10, 11, 12, 13, 14)
HELD_OUT = SEEDS[1:]
DEPTHS = (10, 100)


def within_factor_2(estimate: float, truth: float) -> bool:
    """The issue's criterion: truth / 2 ≤ estimate ≤ 2 · truth (a clipped E = 0 never is).

    >>> within_factor_2(0.12, 0.07), within_factor_2(0.0, 0.25), within_factor_2(0.13, 0.26)
    (True, False, True)
    """
    return estimate > 0 and 0.5 * truth <= estimate <= 2.0 * truth


@pytest.fixture(scope="module")
def readings() -> dict[tuple[int, int], tuple[float, float]]:
    """(seed, depth) → (E, true rate)."""
    out = {}
    for seed in SEEDS:
        exp = simulate(seed).experiment
        for depth in DEPTHS:
            pool = depth_pool(exp, depth=depth)
            out[seed, depth] = (estimate_background_rate(exp, depth=depth, pool=pool).rate,
                                true_background_rate(exp, measurement_depth=2 * depth, pool=pool))
    return out


def test_within_factor_2_by_hand():
    assert within_factor_2(0.05, 0.1) and within_factor_2(0.2, 0.1)
    assert not within_factor_2(0.049, 0.1) and not within_factor_2(0.201, 0.1)


@pytest.mark.slow
def test_a_deeper_pool_leaves_a_lower_true_rate(readings):
    """Deeper pools judge the documents most runs rank high, so the unjudged ones in the top 2d
    are relevant less often: the truth the estimate is compared with moves as it should."""
    for seed in SEEDS:
        deep, shallow = readings[seed, 100][1], readings[seed, 10][1]
        assert 0.0 < deep < shallow < 1.0, (seed, deep, shallow)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "issue 13, open: with the default's 12 contributing runs the cubic clips to E = 0 at depth 10 on seeds 0 "
    "and 10-14 (true rate 0.22-0.30) and at depth 100 on seeds 10-14 (true rate 0.06-0.09); the model's "
    "switches for it (TOPICALITY, NEAR_ASPECT_BOOST, DECOY_SHARE; off in the default) meet it on tuning seeds "
    "but not with the 13 calibration statistics in range; benchmarks/RESULTS_background_rate.md has the numbers "
    "and what was tried"))
def test_estimate_within_a_factor_of_2_on_seed_0_and_held_out_seeds(readings):
    """The issue's done-criterion: on seed 0 and on at least two held-out seeds, E lies within
    a factor of 2 of the true rate at pool depths 10 and 100 alike."""
    good = {seed: all(within_factor_2(*readings[seed, d]) for d in DEPTHS) for seed in SEEDS}
    assert good[0], {d: readings[0, d] for d in DEPTHS}
    assert sum(good[seed] for seed in HELD_OUT) >= 2, readings
