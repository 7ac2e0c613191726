"""background_rate_by_contributors: Ravana & Moffat's E read from pools of K runs drawn at random.

The finding it shows: the cubic needs many contributing runs. On TREC-COVID round 1,
with 12 of its 56 contributing runs pooled to depth 10, it reads below zero in most draws; with
all 56 it reads within a factor of 2 of the truth (its deep qrels).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb.background_rate import BackgroundRateDraws, background_rate_by_contributors
from irnb.datasets import simulate
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.pooling import depth_pool


@pytest.fixture(scope="module")
def sim():
    from irnb.datasets import default

    return default().experiment  # seed 0, generated once per process


def test_each_draw_is_the_estimate_of_its_own_runs(sim):
    draws = background_rate_by_contributors(sim, (6, 20), depth=10, runs=list(sim.run_names), draws=3, seed=5)
    frame = draws.to_frame()
    assert frame["contributing"].tolist() == [6, 6, 6, 20, 20, 20]
    for row in frame.itertuples():
        chosen = row.runs.split(",")
        assert len(set(chosen)) == row.contributing
        pool = depth_pool(sim, depth=10, runs=chosen)
        fit = estimate_background_rate(sim, depth=10, runs=chosen, pool=pool)
        assert row.intercept == pytest.approx(fit.intercept, abs=1e-12)
        assert row.E == pytest.approx(fit.rate, abs=1e-12)
        assert row.true_rate == pytest.approx(true_background_rate(sim, measurement_depth=20, pool=pool), abs=1e-12)
    assert frame["runs"].nunique() == 6


def test_all_candidates_is_one_draw_the_plain_estimate(sim):
    draws = background_rate_by_contributors(sim, 12, depth=100, draws=5)  # the 12 contributors, all of them
    frame = draws.to_frame()
    assert len(frame) == 1
    pool = depth_pool(sim, depth=100)
    assert frame["intercept"].iloc[0] == pytest.approx(estimate_background_rate(sim, depth=100, pool=pool).intercept)


def test_the_seed_decides_the_draws(sim):
    runs = list(sim.run_names)
    a = background_rate_by_contributors(sim, 8, depth=10, runs=runs, draws=4, seed=1).to_frame()
    b = background_rate_by_contributors(sim, 8, depth=10, runs=runs, draws=4, seed=1).to_frame()
    c = background_rate_by_contributors(sim, 8, depth=10, runs=runs, draws=4, seed=2).to_frame()
    pd.testing.assert_frame_equal(a, b)
    assert a["runs"].tolist() != c["runs"].tolist()


def test_summary_by_hand():
    draws = BackgroundRateDraws(
        contributing=np.array([4, 4, 4, 4, 9, 12]), draw=np.array([0, 1, 2, 3, 0, 0]),
        runs=np.array(["a"] * 6, dtype=object),
        intercept=np.array([-0.2, 0.1, 0.3, np.nan, 0.05, 0.2]), rate=np.array([0.0, 0.1, 0.3, np.nan, 0.05, 0.2]),
        true_rate=np.array([0.2, 0.2, 0.3, 0.9, 0.04, np.nan]), depth=10, degree=3)
    s = draws.summary()
    assert s.loc[4, "draws"] == 4 and s.loc[4, "fitted"] == 3
    assert s.loc[4, "below_zero"] == 1                  # of the three fitted draws, -0.2
    assert s.loc[4, "within_factor_2"] == 2             # 0.1 of 0.2 and 0.3 of 0.3; 0 and no fit are not
    assert s.loc[4, "E"] == pytest.approx(0.1)          # median of 0, 0.1, 0.3 (the draw without a fit left out)
    assert s.loc[4, "true_rate"] == pytest.approx(0.2)   # over the fitted draws (0.2, 0.2, 0.3), not 0.25
    assert s.loc[9, "ratio"] == pytest.approx(1.25) and s.loc[9, "within_factor_2"] == 1
    assert np.isnan(s.loc[12, "within_factor_2"]) and s.loc[12, "with_truth"] == 0  # no truth: unknown, not "never"
    assert s.loc[4, "with_truth"] == 4
    frame = draws.to_frame()
    assert np.isnan(frame["ratio"].iloc[5])


def test_a_zero_or_missing_true_rate_gives_no_ratio():
    draws = BackgroundRateDraws(contributing=np.array([4, 4]), draw=np.array([0, 1]),
                                runs=np.array(["a", "b"], dtype=object), intercept=np.array([0.1, 0.1]),
                                rate=np.array([0.1, 0.1]), true_rate=np.array([0.0, np.nan]), depth=10, degree=3)
    assert np.isnan(draws.to_frame()["ratio"]).all()
    s = draws.summary()
    assert s.loc[4, "with_truth"] == 1 and s.loc[4, "within_factor_2"] == 0  # 0.1 is not within a factor of 2 of 0


def test_nothing_unjudged_leaves_the_true_rate_unknown():
    # both runs' top 2 are the same judged documents: a depth-2 pool leaves nothing unjudged in the top 4
    runs = pd.DataFrame({"run": list("aabb"), "qid": "1", "docno": list("xyxy"), "score": [2.0, 1.0] * 2})
    qrels = pd.DataFrame({"qid": "1", "docno": list("xy"), "grade": [1, 0]})
    exp = irnb.Experiment(runs, qrels, truth=qrels, contributors=["a", "b"])
    frame = background_rate_by_contributors(exp, 2, depth=2, degree=0).to_frame()
    assert len(frame) == 1 and np.isnan(frame["true_rate"].iloc[0]) and frame["intercept"].iloc[0] == 0.5


def test_the_draws_of_one_number_of_runs_do_not_depend_on_the_others(sim):
    runs = list(sim.run_names)
    alone = background_rate_by_contributors(sim, 8, depth=10, runs=runs, draws=3, seed=4).to_frame()
    together = background_rate_by_contributors(sim, (6, 8, 20), depth=10, runs=runs, draws=3, seed=4).to_frame()
    pd.testing.assert_frame_equal(alone, together[together["contributing"] == 8].reset_index(drop=True))


def test_bad_numbers_of_runs_and_draws_are_refused(sim):
    with pytest.raises(ValueError, match=r"contributing .* ≤ 12 .*12 runs to draw from.*got 13"):
        background_rate_by_contributors(sim, 13, depth=10)
    with pytest.raises(ValueError, match=r"contributing .*4 ≤ .*degree-3 fit needs 4 runs.*got 3"):
        background_rate_by_contributors(sim, (3, 6), depth=10)
    with pytest.raises(ValueError, match=r"contributing must be increasing numbers of runs without repeats, "
                                         r"got \(12, 12\)"):
        background_rate_by_contributors(sim, (12, 12), depth=10)
    with pytest.raises(ValueError, match=r"contributing must be increasing numbers of runs without repeats"):
        background_rate_by_contributors(sim, (8, 6), depth=10)
    with pytest.raises(ValueError, match=r"draws must be an integer ≥ 1, got 0"):
        background_rate_by_contributors(sim, 6, depth=10, draws=0)
    with pytest.raises(ValueError, match="contributing must be increasing numbers of runs without repeats, got \\(\\)"):
        background_rate_by_contributors(sim, (), depth=10)
    with pytest.raises(ValueError, match="seed must be"):
        background_rate_by_contributors(sim, 6, depth=10, seed=-1)


def test_public_name():
    assert irnb.background_rate_by_contributors is background_rate_by_contributors


@pytest.fixture(scope="module")
def covid(covid_dir):
    from irnb.datasets.real import trec_covid_round1

    deep = trec_covid_round1(covid_dir, qrels="deep")
    contributors = [n for n, c in zip(deep.run_names, deep.contributors, strict=True) if c]
    return irnb.Experiment(dict(deep.runs), deep.qrels, truth=deep.qrels, contributors=contributors)


def test_trec_covid_needs_many_contributing_runs_at_depth_10(covid):
    """TREC-COVID round 1, depth-10 pools of K of its 56 contributing runs, its deep qrels the truth:
    with 12 runs the cubic reads below zero in most draws and almost never within a factor of 2;
    with all 56 it is within (0.200 against 0.271)."""
    s = background_rate_by_contributors(covid, (12, 39, 56), depth=10, draws=12, seed=0).summary()
    assert s.loc[12, "below_zero"] >= 6, s
    assert s.loc[12, "within_factor_2"] <= 3, s
    assert s.loc[39, "ratio"] > s.loc[12, "ratio"] + 0.3, s
    assert s.loc[56, "within_factor_2"] == 1 and s.loc[56, "draws"] == 1, s


def test_the_simulated_default_behaves_as_trec_covid_at_depth_10(sim):
    """The same replay on the default collection: its 12 contributing runs read less than half
    the true rate at depth 10 (TREC-COVID's 12 do in every draw); a depth-10 pool of all of its 40
    runs, judged from the truth (``complete_experiment``), reads within a factor of 2."""
    from irnb.datasets import default
    from irnb.judging import complete_experiment

    own = background_rate_by_contributors(sim, 12, depth=10).to_frame().iloc[0]
    complete = complete_experiment(default())
    every = background_rate_by_contributors(complete, 40, depth=10, runs=list(complete.run_names)).summary()
    assert own["intercept"] < 0.5 * own["true_rate"]
    assert every.loc[40, "within_factor_2"] == 1


def test_readme_quotes_what_the_code_computes(covid, sim):
    """The usage page's paragraph on how many pooling runs the estimate needs: every number in it."""
    from pathlib import Path

    from irnb.datasets import default
    from irnb.judging import complete_experiment

    readme = " ".join((Path(__file__).resolve().parents[1] / "docs" / "usage.md").read_text(encoding="utf-8").split())
    s = background_rate_by_contributors(covid, (12, 39, 56), depth=10, draws=12, seed=0).summary()
    assert (s["draws"].tolist(), s["fitted"].tolist()) == ([12, 12, 1], [12, 12, 1])
    assert (f"with K = 12 the cubic reads below zero in {s.loc[12, 'below_zero']} of 12 draws and lands within a "
            f"factor of 2 of the truth in {int(s.loc[12, 'within_factor_2'])}; with K = 39 it lands within in "
            f"{int(s.loc[39, 'within_factor_2'])} of 12 (median E / truth {s.loc[39, 'ratio']:.2f}); with all 56 it "
            f"reads {s.loc[56, 'E']:.3f} against {s.loc[56, 'true_rate']:.3f}") in readme
    own = background_rate_by_contributors(sim, 12, depth=10).to_frame().iloc[0]
    assert (f"its 12 contributing runs (one per group) read {own['intercept']:.3f} (true "
            f"{own['true_rate']:.3f})").replace("-", "−") in readme
    complete = complete_experiment(default())
    every = background_rate_by_contributors(complete, 40, depth=10, runs=list(complete.run_names)).to_frame()
    assert (f"a depth-10 pool of all 40 runs judged from the truth reads {every['intercept'].iloc[0]:.3f} "
            f"(true {every['true_rate'].iloc[0]:.3f})") in readme
    own = background_rate_by_contributors(sim, 12, depth=100).to_frame().iloc[0]
    every = background_rate_by_contributors(complete, 40, depth=100, runs=list(complete.run_names)).to_frame().iloc[0]
    assert (f"on seed 0 the 12 contributors read {own['intercept']:.3f} (true {own['true_rate']:.3f}) and every run "
            f"{every['intercept']:.3f} (true {every['true_rate']:.3f})").replace("-", "−") in readme
    held_out = {"contributors": 0, "every run": 0}  # seeds 10-14 within a factor of 2 at d = 100
    for seed in (10, 11, 12, 13, 14):
        collection = simulate(seed)
        own = background_rate_by_contributors(collection.experiment, 12, depth=100).summary()
        whole = background_rate_by_contributors(collection.complete_experiment, 40, depth=100,
                                                runs=list(collection.complete_experiment.run_names)).summary()
        held_out["contributors"] += int(own["within_factor_2"].iloc[0])
        held_out["every run"] += int(whole["within_factor_2"].iloc[0])
    words = {0: "never", 1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "every time"}
    assert (f"on the held-out seeds 10–14 the contributors {words.get(held_out['contributors'], '?')} and every run "
            f"{words.get(held_out['every run'], '?')}") in readme, held_out


def test_within_factor_takes_only_a_factor_above_one():
    from irnb.background_rate import within_factor

    assert within_factor(0.3, 0.1, factor=3) and not within_factor(0.3, 0.1)
    for bad in (1, 0.5, -2, True, "2"):
        with pytest.raises(ValueError, match="factor must be a number > 1"):
            within_factor(0.1, 0.1, factor=bad)
