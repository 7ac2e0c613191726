"""benchmarks/tune_simulator.py, the search behind the simulator's constants: its knobs read
the library's values, a candidate's constants are restored after use, scoring the current
knobs scores the default collection, and the penalty by hand."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irnb.datasets import model, simulate
from irnb.datasets.calibration import POOL_DEPENDENT, collection_statistics
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.pooling import depth_pool

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def tune():
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(BENCH))
    import tune_simulator

    yield tune_simulator
    mp.undo()


def test_knobs_are_applied_and_restored(tune):
    before = {n: np.array(getattr(model, n), copy=True) for n in ("FEATURE_NOISE", "APPROACH_WEIGHTS")}
    knobs = dict(tune.current_knobs(), content_noise=0.35, near_noise=0.85, popular_prior=0.12, aspects=3,
                 quality_high=1.5, decoy_share=0.12, near_aspect_boost=0.4)
    with tune.knobs_applied(knobs):
        assert model.DECOY_SHARE == 0.12 and model.NEAR_ASPECT_BOOST == 0.4
        assert model.FEATURE_NOISE[0, 0] == 0.35 and model.FEATURE_NOISE[3, 0] == 0.35
        assert model.FEATURE_NOISE[1, 0] == model.FEATURE_NOISE[2, 0] == 0.85
        assert model.FEATURE_NOISE[0, 1] == before["FEATURE_NOISE"][0, 1]  # other features untouched
        assert model.APPROACH_WEIGHTS[0, 3] == 0.12 and model.NUM_ASPECTS == 3 and model.QUALITY_HIGH == 1.5
    for name, value in before.items():
        assert np.array_equal(getattr(model, name), value)
    assert tune.current_knobs()["quality_high"] == model.QUALITY_HIGH != 1.5
    with pytest.raises(RuntimeError), tune.knobs_applied(knobs):  # restored on error too
        raise RuntimeError("boom")
    assert model.NUM_ASPECTS == tune.current_knobs()["aspects"] != 3
    assert model.DECOY_SHARE == tune.current_knobs()["decoy_share"] != 0.12


def test_every_knob_lies_in_its_search_range(tune):
    current = tune.current_knobs()
    assert set(current) == set(tune.SPACE)
    for name, (lo, hi, *_rest) in tune.SPACE.items():
        assert lo <= current[name] <= hi, name


@pytest.mark.slow
def test_the_current_knobs_score_the_default_collection(tune):
    values = tune.statistics_for((tune.current_knobs(), 0))
    exp = simulate(0).experiment
    expected = collection_statistics(exp).drop(list(POOL_DEPENDENT))
    e_rows = [f"E/true d={d}" for d in tune.E_DEPTHS]
    pd.testing.assert_series_equal(values.drop(e_rows + list(tune.REALISM)), expected, check_names=False)
    pd.testing.assert_series_equal(values[list(tune.REALISM)], tune.realism_statistics(simulate(0)),
                                   check_names=False)
    # the background-rate rows: the cubic's reading over the truth, as test_background_rate_simulated computes them
    pool = depth_pool(exp, depth=10)
    ratio = (estimate_background_rate(exp, depth=10, pool=pool).intercept
             / true_background_rate(exp, measurement_depth=20, pool=pool))
    assert values["E/true d=10"] == pytest.approx(ratio) and ratio < 0.5  # 12 pooling runs: far below the truth


def test_a_local_candidate_moves_only_the_knobs_it_draws(tune):
    centre = tune.current_knobs()
    rng = np.random.default_rng(3)
    for moved in (1, 3):
        for _ in range(20):
            candidate = tune._draw(rng, centre, moved)
            assert set(candidate) == set(centre)
            assert sum(candidate[n] != centre[n] for n in centre) <= moved
    everything = [tune._draw(rng, centre) for _ in range(5)]  # moved=0: every knob may move
    assert max(sum(c[n] != centre[n] for n in centre) for c in everything) > 3


def test_penalty_by_hand(tune):
    real = pd.DataFrame({"TREC-COVID": [0.2, 0.5], "CLEF 2016": [0.4, 0.5]}, index=["x", "y"])
    # x: range [0.2, 0.4], shrunk to [0.22, 0.38], width 0.2; y: a point, width floored at 0.02
    inside = pd.DataFrame({0: [0.3, 0.5], 1: [0.25, 0.5]}, index=["x", "y"])
    assert tune.penalty(inside, real) == 0.0
    # seed 1's x at 0.18 is 0.04/0.2 = 0.2 below; y at 0.51 for seed 0 is 0.01/0.02 = 0.5 above
    off = pd.DataFrame({0: [0.3, 0.51], 1: [0.18, 0.5]}, index=["x", "y"])
    assert tune.penalty(off, real) == pytest.approx((0.2 ** 2 + 0.5 ** 2) / 4 + 0.5 * (0.5 ** 2) / 2)
    assert doctest.testmod(tune).failed == 0


def test_realism_statistics_by_hand(tune):
    """Each REALISM row recomputed from its definition on a small collection; the penalty is zero
    at the floors and grows as the square of the shortfall in scales."""
    import irnb

    collection = simulate(3, num_topics=4, num_runs=8, num_groups=3, docs_per_topic=600, run_depth=100,
                          pool_depth=10, median_relevant=25, novel_runs=1, keyword_runs=2)
    exp = collection.experiment
    values = tune.realism_statistics(collection)
    true_map = irnb.evaluate(exp, ["AP"], truth=True).means()["AP"].to_numpy()
    ordered = np.sort(true_map)
    q25, median, q75 = np.quantile(ordered, [0.25, 0.5, 0.75])
    assert values["top run above the median (IQRs)"] == pytest.approx((ordered[-1] - median) / (q75 - q25))
    assert values["bottom run below the median (IQRs)"] == pytest.approx((median - ordered[0]) / (q75 - q25))
    official = irnb.evaluate(exp, ["AP"]).means()["AP"].to_numpy()
    others = ~np.asarray(exp.contributors)
    assert values["non-contributing runs the pool lowers"] == sum(official[others] < true_map[others])
    judged = irnb.evaluate(exp, ["Judged@20"], judged=irnb.depth_pool(exp, depth=10).judged).means()["Judged@20"]
    assert values["A_p@20 gap, contributing − others"] == pytest.approx(judged[~others].min() - judged[others].max())
    floors = pd.DataFrame({0: [f for f, _ in tune.REALISM.values()]}, index=list(tune.REALISM))
    assert tune.realism_penalty(floors) == 0.0
    short = floors.copy()
    short.iloc[3, 0] -= 2 * tune.REALISM["A_p@20 gap, contributing − others"][1]  # two scales short, one of 4 rows
    assert tune.realism_penalty(short) == pytest.approx(4 / 4 + 4 / 4)  # mean over rows and seeds + seed 0's


def test_held_knobs_never_move(tune):
    centre = dict(tune.current_knobs(), num_groups=30)
    held = {"num_groups": 12, "num_runs": 40, "num_topics": 50}
    rng = np.random.default_rng(5)
    for candidate in [tune._draw(rng, centre, 3, held) for _ in range(20)] + [tune._draw(rng, None, 0, held)
                                                                             for _ in range(5)]:
        assert {k: candidate[k] for k in held} == held  # the held value wins over the centre's
        assert set(candidate) == set(tune.SPACE)


def test_background_rate_ratio_pools_all_runs_on_request(tune):
    exp = simulate(3, num_topics=3, num_runs=6, num_groups=3, docs_per_topic=600, run_depth=120,
                   median_relevant=20, novel_runs=1, keyword_runs=1).experiment
    everyone = list(exp.run_names)
    pool = depth_pool(exp, depth=10, runs=everyone)
    expected = (estimate_background_rate(exp, depth=10, pool=pool, runs=everyone).intercept
                / true_background_rate(exp, measurement_depth=20, pool=pool))
    assert tune.background_rate_ratio(exp, 10, "all") == pytest.approx(expected)
    contributors = depth_pool(exp, depth=10)
    assert contributors.num_judged < pool.num_judged  # 3 of 6 runs contribute: the two pools differ
    with pytest.raises(ValueError, match=r"background_rate_ratio: e_pool must be one of 'contributors' or 'all', "
                                         r"got 'every'"):
        tune.background_rate_ratio(exp, 10, "every")


@pytest.mark.slow
def test_the_all_runs_term_reads_the_collection_with_every_run_pooled(tune):
    values = tune.statistics_for((tune.current_knobs(), 0, "all"))
    contributors = tune.statistics_for((tune.current_knobs(), 0))
    e_rows = [f"E/true d={d}" for d in tune.E_DEPTHS]
    pd.testing.assert_series_equal(values.drop(e_rows), contributors.drop(e_rows))  # default design
    from irnb.judging import complete_experiment

    everyone = complete_experiment(simulate(0))  # same rankings, every document judged by the truth
    assert values["E/true d=100"] == pytest.approx(tune.background_rate_ratio(everyone, 100, "all"))
    # the same as the default's rankings with every run's top 100 pooled (depths ≤ 100 judge the same)
    pooled = simulate(0, pooled_runs_per_group=40).experiment
    assert values["E/true d=100"] == pytest.approx(tune.background_rate_ratio(pooled, 100, "all"))
    assert values["E/true d=100"] != pytest.approx(contributors["E/true d=100"])


@pytest.mark.parametrize(("argv", "message"), [
    (["--seeds", "12"], "seeds 10-14 are held out"),
    (["--seeds", "0", "11"], "seeds 10-14 are held out"),
    (["--seeds", "0", "0"], "a seed given twice"),
    (["--hold", "nope"], "--hold ['nope']: not knobs"),
    (["--base", '{"bend": 99}'], "outside the knobs' ranges {'bend': (0.5, 10.0)}"),
])
def test_bad_options_are_refused_before_anything_runs(tune, argv, message, capsys):
    with pytest.raises(SystemExit):
        tune.main(["--data", "/nonexistent"] + argv)
    assert message in capsys.readouterr().err
