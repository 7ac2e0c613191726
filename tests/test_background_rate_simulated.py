"""E estimated on the simulated collection against the true rate.

For seed s and pool depth d: every run pooled to depth d (a stand-in for Ravana & Moffat's 59
contributing TREC-9 systems; the collection's own 12 are too few), judged from the complete truth
(``Collection.complete_experiment``), ``estimate_background_rate(exp, depth=d, pool=pool,
runs=every run)`` (the cubic read at zero runs) against ``true_background_rate(exp,
measurement_depth=2d, pool=pool)`` (the share relevant, in the truth, of the unjudged documents
in the runs' top 2d). Seed 0 is the default; seeds 10-14 were never scored by the searches that
chose the simulator's constants (benchmarks/tune_simulator.py refuses them), but were looked at
for four candidates before the choice; on fresh seeds 70-99, looked at once afterwards, d = 100
is met on 16 of 30 (benchmarks/RESULTS_background_rate.md).

The collection's own design (its 12 contributing runs, one per group) is checked too: there the
cubic reads far below the truth at d = 10 (below zero on most seeds), as it does on TREC-COVID
round 1 with 12 of its 56 contributing runs (tests/test_background_rate.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irnb.datasets import simulate
from irnb.background_rate import within_factor
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.pooling import depth_pool

SEEDS = (0, 10, 11, 12, 13, 14)
HELD_OUT = SEEDS[1:]
DEPTHS = (10, 100)


def _readings(every_run: bool = True, collections=None,
              **simulate_keywords) -> dict[tuple[int, int], tuple[float, float]]:
    """(seed, depth) → (unclipped fit at zero runs, true rate) of ``collections[seed]`` or else
    ``simulate(seed, **simulate_keywords)``: every run pooled and judged from the truth
    (``every_run``), else the collection's contributors."""
    out = {}
    for seed in SEEDS:
        collection = collections[seed] if collections is not None else simulate(seed, **simulate_keywords)
        exp = collection.complete_experiment if every_run else collection.experiment
        runs = list(exp.run_names) if every_run else None
        for depth in DEPTHS:
            pool = depth_pool(exp, depth=depth, runs=runs)
            out[seed, depth] = (estimate_background_rate(exp, depth=depth, pool=pool, runs=runs).intercept,
                                true_background_rate(exp, measurement_depth=2 * depth, pool=pool))
    return out


def _met(readings, depths=DEPTHS) -> dict[int, bool]:
    """seed → E within a factor of 2 of the truth at every depth of ``depths``."""
    return {seed: all(within_factor(*readings[seed, d]) for d in depths) for seed in SEEDS}


@pytest.fixture(scope="module")
def collections() -> dict:
    return {seed: simulate(seed) for seed in SEEDS}


@pytest.fixture(scope="module")
def readings(collections) -> dict[tuple[int, int], tuple[float, float]]:
    return _readings(collections=collections)


def test_within_factor_2_by_hand():
    assert within_factor(0.05, 0.1) and within_factor(0.2, 0.1)
    assert not within_factor(0.049, 0.1) and not within_factor(0.201, 0.1) and not within_factor(-0.1, -0.2)


@pytest.mark.slow
def test_a_deeper_pool_leaves_a_lower_true_rate(readings):
    """Deeper pools judge the documents most runs rank high, so the unjudged ones in the top 2d
    are relevant less often: the truth the estimate is compared with moves as it should."""
    for seed in SEEDS:
        deep, shallow = readings[seed, 100][1], readings[seed, 10][1]
        assert 0.0 < deep < shallow < 1.0, (seed, deep, shallow)


@pytest.mark.slow
def test_every_run_pooled_to_depth_10_meets_it(readings):
    """Depth 10, every run pooled: E within a factor of 2 of the truth on seed 0 and on at least
    4 of the 5 held-out seeds."""
    good = _met(readings, depths=(10,))
    assert good[0], readings[0, 10]
    assert sum(good[seed] for seed in HELD_OUT) >= 4, {s: readings[s, 10] for s in SEEDS}


@pytest.mark.slow
def test_estimate_within_a_factor_of_2_on_seed_0_and_held_out_seeds(readings):
    """The criterion: on seed 0 and on the held-out seeds, E lies within a factor of
    2 of the true rate at pool depths 10 and 100 alike (all five held-out seeds do; the test asks
    for four; on seeds 44-69, 17 of 26 meet both depths: benchmarks/RESULTS_background_rate.md)."""
    good = _met(readings)
    assert good[0], {d: readings[0, d] for d in DEPTHS}
    assert sum(good[seed] for seed in HELD_OUT) >= 4, readings


@pytest.mark.slow
def test_the_collections_own_contributors_read_far_too_low_at_depth_10(collections):
    """The collection's own design, 12 contributing runs (one per group): at d = 10 the cubic
    reads less than half the true rate on seed 0 and below zero on at least 4 of the 5 held-out
    seeds, as on TREC-COVID round 1 with 12 of its contributing runs (below zero in 9 of 12 draws,
    within a factor of 2 in none) — too few pooling runs for the estimate."""
    own = _readings(every_run=False, collections=collections)
    assert own[0, 10][0] < 0.5 * own[0, 10][1], own[0, 10]
    below = {seed: own[seed, 10][0] < 0 for seed in HELD_OUT}
    assert sum(below.values()) >= 4, {s: own[s, 10] for s in SEEDS}


@pytest.mark.slow
def test_the_switched_on_model_meets_it_outside_the_default(monkeypatch):
    """Not the default: ``E_CANDIDATE`` (benchmarks/tune_simulator.py: TOPICALITY and
    NEAR_ASPECT_BOOST on, 50 runs from 39 groups, so 39 contributing runs) meets the criterion with
    its own contributing runs pooled, on seed 0 and on 4 of the 5 held-out seeds (the searches that
    chose it scored seeds 0-1 and 20-43). It is not the default because only 6 of the 13
    calibration statistics stay inside the real range (benchmarks/RESULTS_background_rate.md);
    this keeps the switches working."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import tune_simulator

    knobs = {**tune_simulator.current_knobs(), **tune_simulator.E_CANDIDATE}
    with tune_simulator.knobs_applied(knobs):
        readings = _readings(every_run=False, **{k: knobs[k] for k in tune_simulator.SIMULATE_KNOBS})
    good = _met(readings)
    assert good[0], {d: readings[0, d] for d in DEPTHS}
    assert sum(good[seed] for seed in HELD_OUT) >= 4, readings
