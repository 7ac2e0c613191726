"""E estimated on the simulated collection against the true rate (issue 13, its last open item).

For seed s and pool depth d: the depth-d pool of the default's contributing runs,
``estimate_background_rate(exp, depth=d, pool=pool)`` (Ravana & Moffat's cubic read at zero
runs) and ``true_background_rate(exp, measurement_depth=2d, pool=pool)`` (the share relevant,
in the complete truth, of the unjudged documents in the runs' top 2d). Seed 0 is the default;
seeds 10-14 were never used by the search that chose the simulator's constants
(benchmarks/tune_simulator.py scores seeds 0-7).
"""

from __future__ import annotations

from pathlib import Path

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


def _readings(**simulate_keywords) -> dict[tuple[int, int], tuple[float, float]]:
    """(seed, depth) → (E, true rate) of ``simulate(seed, **simulate_keywords)``."""
    out = {}
    for seed in SEEDS:
        exp = simulate(seed, **simulate_keywords).experiment
        for depth in DEPTHS:
            pool = depth_pool(exp, depth=depth)
            out[seed, depth] = (estimate_background_rate(exp, depth=depth, pool=pool).rate,
                                true_background_rate(exp, measurement_depth=2 * depth, pool=pool))
    return out


def _met(readings) -> dict[int, bool]:
    """seed → E within a factor of 2 of the truth at both depths."""
    return {seed: all(within_factor_2(*readings[seed, d]) for d in DEPTHS) for seed in SEEDS}


@pytest.fixture(scope="module")
def readings() -> dict[tuple[int, int], tuple[float, float]]:
    return _readings()


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
    "switches for it (TOPICALITY, NEAR_ASPECT_BOOST; off in the default) with ~40 contributing runs meet it "
    "(the next test) but leave only 6 of the 13 calibration statistics in range, so the default keeps its "
    "calibration; benchmarks/RESULTS_background_rate.md has the numbers and what was tried"))
def test_estimate_within_a_factor_of_2_on_seed_0_and_held_out_seeds(readings):
    """The issue's done-criterion: on seed 0 and on at least two held-out seeds, E lies within
    a factor of 2 of the true rate at pool depths 10 and 100 alike."""
    good = _met(readings)
    assert good[0], {d: readings[0, d] for d in DEPTHS}
    assert sum(good[seed] for seed in HELD_OUT) >= 2, readings


@pytest.mark.slow
def test_the_switched_on_model_meets_it_outside_the_default(monkeypatch):
    """Not the default: session 6's ``E_CANDIDATE`` (benchmarks/tune_simulator.py: TOPICALITY and
    NEAR_ASPECT_BOOST on, 50 runs from 39 groups, so 39 contributing runs) meets the criterion on
    seed 0 and on 4 of the 5 held-out seeds (the searches that chose it scored seeds 0-1 and 20-43).
    It is not the default because only 6 of the 13 calibration statistics stay inside the real
    range (benchmarks/RESULTS_background_rate.md, session 6); this keeps the switches working."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import tune_simulator

    knobs = {**tune_simulator.current_knobs(), **tune_simulator.E_CANDIDATE}
    with tune_simulator.knobs_applied(knobs):
        readings = _readings(**{k: knobs[k] for k in tune_simulator.SIMULATE_KNOBS})
    good = _met(readings)
    assert good[0], {d: readings[0, d] for d in DEPTHS}
    assert sum(good[seed] for seed in HELD_OUT) >= 4, readings
