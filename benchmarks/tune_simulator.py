"""The search that chose the simulator's constants: run it to check or redo the calibration.

    python benchmarks/tune_simulator.py                    # score the current defaults on seeds 0-7
    python benchmarks/tune_simulator.py --random 250 --local 120 --log /tmp/tune.jsonl
    python benchmarks/tune_simulator.py --seeds 1 --grid quality_high=2.1,2.15 median_relevant=185,190
    python benchmarks/tune_simulator.py --seeds 4 --grid topicality=2 num_groups=30 --local 300 --local-knobs 3
    python benchmarks/tune_simulator.py --seeds 0 20 21 22 --e-pool all --hold num_groups num_runs num_topics \
        --base '{"near_aspect_boost": 0.35}' --local 300 --local-knobs 2 --e-weight 3

Twenty-five knobs (model constants in ``irnb.datasets.model`` and simulate() defaults in
``irnb.datasets.params``, listed in SPACE) are varied; every candidate simulates the default
design for ``--seeds`` seeds and computes the 13 comparable calibration statistics
(``irnb.datasets.calibration``) and, for issue 13, Ravana & Moffat's background-rate estimate
over the true rate at pool depths 10 and 100 (:func:`background_rate_ratio`). Its penalty is
the mean over statistics and seeds of the squared distance outside the real range shrunk by
10% of its width on each side, divided by the width (at least 0.02), plus half that mean for
seed 0 alone, times ``--calibration-weight`` (default 1); plus ``--e-weight`` times
:func:`background_rate_penalty` of the E ratios (0 inside a factor 1.5 of the truth); plus
``--realism-weight`` times :func:`realism_penalty` of what the default's realism tests and
notebooks need (REALISM). The real range is [min, max] of TREC-COVID round 1 and CLEF eHealth
2016. Seeds 10-14 are held out for the background-rate test: never score them here (``--seeds``
with several numbers scores exactly those, the first weighted twice, and refuses 10-14). With
``--e-pool all`` the E term pools and counts all runs (``depth_pool(runs=…)`` and
``estimate_background_rate(runs=…)``) of the same collection with every document judged by the
truth (``irnb.judging.complete_experiment``, the design of tests/test_background_rate_simulated.py),
a stand-in for Ravana & Moffat's 59 contributing TREC-9 systems; the default pools the contributing
runs only. The calibration statistics always come from the default design.

The search first draws ``--random`` candidates uniformly (log-uniform for ``bend``) and then
``--local`` candidates around the best so far (normal steps of 7.5% of each range, in every knob
or, with ``--local-knobs K``, in K knobs chosen at random), both rounded to each knob's grid
step; ``--grid`` instead scores every combination of the listed values, the other knobs at their
current values (or at ``--base``'s, a JSON object of knob values that also starts the local
search; ``--hold`` names knobs that random and local draws never move). The current defaults
(session 8, issue 13) came from session 7's every-run candidate (its values are in
RESULTS_background_rate.md; it came from ``--e-pool all`` searches on seeds 0-7 and 0 + 20-43)
by ``--seeds 0 1 2 3 4 5 6 7 --e-pool all --hold num_groups num_runs num_topics --base CANDIDATE
--local 700 --local-knobs 2 --calibration-weight 8 --e-weight 3 --realism-weight 2 --rng 13``
(stopped after 268 of the 700 candidates; its best so far), then grids on seed 0 scored outside
this tool (calibration and the REALISM statistics on seed 0, E on seeds 0-5, and Baillie et
al.'s two depth headlines, baillie2007-table1 and baillie2008-table4, through
``irnb.reproduce``: group_noise_share 0.45 had turned both to "differs") over run_topic_jitter ×
quality_high, bend × quality_low, quality_low × novel_share × median_relevant, run_topic_jitter
× quality_low, popular_prior × group_noise_share, popular_prior × run_topic_jitter, bend, and
aspect_boost × near_per_relevant. The defaults
before them (the first calibration: ``--random 250 --seeds 4``, ``--local`` around the best,
grids on seed 0) are in ``benchmarks/RESULTS_background_rate.md``. Random draws depend on the
numpy version, so a rerun finds nearby values, not necessarily these. difficulty_spread ended at
the top of its range (1.0, the parameter's own limit). TOPICALITY and ASPECT_TOPICALITY stay off.

A candidate's constants are set in the worker processes only (:func:`knobs_applied`); the
library's own values are never changed in this process.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
import pandas as pd

from irnb.datasets import model, simulate
from irnb.datasets.calibration import POOL_DEPENDENT, collection_statistics, real_statistics
from irnb.datasets.params import defaults as simulate_defaults
from irnb.params import DISPLAY_CHOICE

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# knob → (low, high, grid step, "log"/"int"/"", where it lives)
SPACE = {
    "median_relevant": (120, 320, 10, "", "simulate(median_relevant=)"),
    "difficulty_spread": (0.4, 1.0, 0.05, "", "simulate(difficulty_spread=)"),
    "relevant_spread": (0.5, 1.4, 0.05, "", "simulate(relevant_spread=)"),
    "novel_share": (0.1, 0.3, 0.01, "", "simulate(novel_share=)"),
    "quality_low": (0.02, 0.3, 0.01, "", "model.QUALITY_LOW"),
    "quality_high": (1.0, 3.5, 0.05, "", "model.QUALITY_HIGH"),
    "bend": (0.5, 10.0, 0.5, "log", "model.QUALITY_BEND"),
    "content_noise": (0.3, 0.8, 0.05, "", "model.FEATURE_NOISE[:, 0] (content σ of every family)"),
    "near_noise": (0.5, 0.9, 0.05, "", "model.FEATURE_NOISE[1:3, 0] (near and near-title)"),
    "aspect_boost": (0.5, 1.6, 0.05, "", "model.ASPECT_BOOST"),
    "aspect_cover": (0.4, 0.8, 0.05, "", "model.ASPECT_COVER"),
    "aspects": (3, 9, 1, "int", "model.NUM_ASPECTS"),
    "near_per_relevant": (3.0, 12.0, 0.5, "", "model.NEAR_PER_RELEVANT"),
    "run_topic_jitter": (0.3, 1.1, 0.05, "", "model.RUN_TOPIC_JITTER"),
    "group_noise_share": (0.3, 0.7, 0.05, "", "model.GROUP_NOISE_SHARE"),
    "popular_prior": (0.1, 0.5, 0.02, "", "model.APPROACH_WEIGHTS[0, 3]"),
    "near_aspect_boost": (0.0, 1.0, 0.05, "", "model.NEAR_ASPECT_BOOST"),
    "decoy_share": (0.0, 0.3, 0.01, "", "model.DECOY_SHARE"),
    "decoy_spread": (1.0, 3.0, 0.05, "", "model.DECOY_SPREAD"),
    "num_groups": (12, 46, 1, "int", "simulate(num_groups=)"),
    "num_runs": (40, 60, 1, "int", "simulate(num_runs=)"),
    "num_topics": (50, 100, 25, "int", "simulate(num_topics=)"),
    "topicality": (0.0, 4.0, 0.1, "", "model.TOPICALITY"),
    "near_base": (100, 2000, 50, "", "model.NEAR_BASE"),
    "aspect_topicality": (0.0, 1.0, 0.05, "", "model.ASPECT_TOPICALITY"),
}
SIMULATE_KNOBS = ("median_relevant", "difficulty_spread", "relevant_spread", "novel_share", "num_groups", "num_runs",
                  "num_topics")
# Session 6's best for issue 13 (benchmarks/RESULTS_background_rate.md): E within a factor of 2
# of the truth at depths 10 and 100 on seed 0 and 4 of the 5 held-out seeds 10-14, but only 6 of
# the 13 calibration statistics inside the real range, so not the default. 50 runs from 39 groups.
E_CANDIDATE = {
    "median_relevant": 190, "difficulty_spread": 0.75, "novel_share": 0.23, "quality_low": 0.04,
    "quality_high": 2.7, "bend": 8.0, "content_noise": 0.6, "near_noise": 0.5, "aspect_boost": 1.05,
    "aspect_cover": 0.5, "aspects": 7, "near_per_relevant": 3.0, "run_topic_jitter": 0.5, "group_noise_share": 0.55,
    "popular_prior": 0.22, "near_aspect_boost": 0.9, "decoy_share": 0.08, "decoy_spread": 1.0, "num_groups": 39,
    "topicality": 1.3, "near_base": 250, "aspect_topicality": 0.9, "num_topics": 50, "num_runs": 50,
}
E_DEPTHS = (10, 100)  # pool depths at which the background-rate estimate is scored
# What the default's realism tests and teaching notebooks need beyond the calibration (statistic →
# (floor, scale)): tests/datasets/test_model.py asks for a top and a bottom run each at least 0.7 IQR of the
# runs' true MAP from the median (CLEF 2016's official MAP has 0.79 and 0.72); notebook 00 for at least
# one non-contributing run whose official AP is below its true AP; notebook 01 for the contributing
# runs' A_p@20 (depth-10 pool) above every other run's (the notebooks check more claims, and the test
# also max MAP > 3 × min and rank correlation with quality; those the searches never threatened). The
# floors leave a margin; a value below its floor scores ((floor − value) / scale)² (realism_penalty).
# The default on seed 0: 1.08, 0.89, 1, 0.006 — one lowered run against the floor's 3, traded for E.
REALISM = {
    "top run above the median (IQRs)": (0.85, 0.2),
    "bottom run below the median (IQRs)": (0.85, 0.2),
    "non-contributing runs the pool lowers": (3, 2),
    "A_p@20 gap, contributing − others": (0.005, 0.02),
}


def current_knobs() -> dict:
    """The knobs' values in the library as it is."""
    d = simulate_defaults()
    return {"median_relevant": d["median_relevant"], "difficulty_spread": d["difficulty_spread"],
            "relevant_spread": d["relevant_spread"],
            "novel_share": d["novel_share"], "quality_low": model.QUALITY_LOW, "quality_high": model.QUALITY_HIGH,
            "bend": model.QUALITY_BEND, "content_noise": float(model.FEATURE_NOISE[0, 0]),
            "near_noise": float(model.FEATURE_NOISE[1, 0]), "aspect_boost": model.ASPECT_BOOST,
            "aspect_cover": model.ASPECT_COVER, "aspects": model.NUM_ASPECTS,
            "near_per_relevant": model.NEAR_PER_RELEVANT, "run_topic_jitter": model.RUN_TOPIC_JITTER,
            "group_noise_share": model.GROUP_NOISE_SHARE, "popular_prior": float(model.APPROACH_WEIGHTS[0, 3]),
            "near_aspect_boost": model.NEAR_ASPECT_BOOST, "decoy_share": model.DECOY_SHARE,
            "decoy_spread": model.DECOY_SPREAD, "num_groups": d["num_groups"], "num_runs": d["num_runs"],
            "num_topics": d["num_topics"], "topicality": model.TOPICALITY,
            "near_base": model.NEAR_BASE, "aspect_topicality": model.ASPECT_TOPICALITY}


@contextlib.contextmanager
def knobs_applied(knobs: dict):
    """Set the model constants of ``knobs`` (the simulate() knobs are passed as keywords by
    the caller) and restore every one of them afterwards."""
    names = ("QUALITY_LOW", "QUALITY_HIGH", "QUALITY_BEND", "FEATURE_NOISE", "ASPECT_BOOST", "ASPECT_COVER",
             "NUM_ASPECTS", "NEAR_PER_RELEVANT", "RUN_TOPIC_JITTER", "GROUP_NOISE_SHARE", "APPROACH_WEIGHTS",
             "NEAR_ASPECT_BOOST", "DECOY_SHARE", "DECOY_SPREAD", "TOPICALITY", "NEAR_BASE", "ASPECT_TOPICALITY")
    saved = {n: getattr(model, n) for n in names}
    noise = saved["FEATURE_NOISE"].copy()
    noise[:, 0] = knobs["content_noise"]
    noise[1:3, 0] = knobs["near_noise"]
    weights = saved["APPROACH_WEIGHTS"].copy()
    weights[0, 3] = knobs["popular_prior"]
    new = {"QUALITY_LOW": knobs["quality_low"], "QUALITY_HIGH": knobs["quality_high"], "QUALITY_BEND": knobs["bend"],
           "FEATURE_NOISE": noise, "ASPECT_BOOST": knobs["aspect_boost"], "ASPECT_COVER": knobs["aspect_cover"],
           "NUM_ASPECTS": int(knobs["aspects"]), "NEAR_PER_RELEVANT": knobs["near_per_relevant"],
           "RUN_TOPIC_JITTER": knobs["run_topic_jitter"], "GROUP_NOISE_SHARE": knobs["group_noise_share"],
           "APPROACH_WEIGHTS": weights, "NEAR_ASPECT_BOOST": knobs["near_aspect_boost"],
           "DECOY_SHARE": knobs["decoy_share"], "DECOY_SPREAD": knobs["decoy_spread"],
           "TOPICALITY": knobs["topicality"], "NEAR_BASE": int(knobs["near_base"]),
           "ASPECT_TOPICALITY": knobs["aspect_topicality"]}
    try:
        for n, v in new.items():
            setattr(model, n, v)
        yield
    finally:
        for n, v in saved.items():
            setattr(model, n, v)


def statistics_for(args: tuple) -> pd.Series:
    """``args``: (knobs, seed) or (knobs, seed, e_pool). The comparable calibration statistics of
    ``simulate(seed)`` under ``knobs`` (a worker's job), then ``E/true d=10`` and ``E/true d=100``:
    the background-rate estimate's unclipped reading over the true rate
    (:func:`background_rate_ratio` with ``e_pool``, default ``"contributors"``), then the REALISM
    statistics (:func:`realism_statistics`)."""
    knobs, seed, *rest = args
    e_pool = rest[0] if rest else "contributors"
    from irnb.judging import complete_experiment

    with knobs_applied(knobs):
        collection = simulate(seed, **{k: knobs[k] for k in SIMULATE_KNOBS})
    exp = collection.experiment
    stats = collection_statistics(exp).drop(list(POOL_DEPENDENT))
    if e_pool == "all":  # the same rankings, every document judged by the truth (as the test)
        exp = complete_experiment(collection)
    for depth in E_DEPTHS:
        stats[f"E/true d={depth}"] = background_rate_ratio(exp, depth, e_pool)
    return pd.concat([stats, realism_statistics(collection)])


def realism_statistics(collection) -> pd.Series:
    """The REALISM statistics of a simulated collection (its official pool and its truth)."""
    from irnb import depth_pool, evaluate

    exp = collection.experiment
    mean_ap = evaluate(exp, ["AP"], truth=True).means()["AP"].to_numpy()
    q25, median, q75 = np.quantile(mean_ap, [0.25, 0.5, 0.75])
    contributing = np.asarray(exp.contributors, dtype=bool)
    lowered = evaluate(exp, ["AP"]).means()["AP"].to_numpy() < mean_ap
    judged = evaluate(exp, ["Judged@20"], judged=depth_pool(exp, depth=10).judged).means()["Judged@20"].to_numpy()
    values = [(mean_ap.max() - median) / (q75 - q25),
              (median - mean_ap.min()) / (q75 - q25), int((lowered & ~contributing).sum()),
              judged[contributing].min() - judged[~contributing].max()]
    return pd.Series(values, index=list(REALISM), dtype=np.float64)


def realism_penalty(values: pd.DataFrame) -> float:
    """``values``: REALISM rows × seeds (first column seed 0). The mean over rows and seeds of
    ((floor − value) / scale)² where a value is below its floor, plus that mean for seed 0 alone.

    One statistic per row, seed 0 at its floor, seed 1 one scale below it on the second row
    (0.65 = 0.85 − 0.2): 1 / 8 over rows and seeds; seed 0 adds nothing:

    >>> rows = [floor for floor, _ in REALISM.values()]
    >>> round(realism_penalty(pd.DataFrame({0: rows, 1: rows[:1] + [0.65] + rows[2:]}, index=list(REALISM))), 4)
    0.125
    """
    floor = np.array([REALISM[name][0] for name in values.index], dtype=np.float64)[:, None]
    scale = np.array([REALISM[name][1] for name in values.index], dtype=np.float64)[:, None]
    out = np.clip(floor - values.to_numpy(dtype=np.float64), 0, None) / scale
    return float((out ** 2).mean() + (out[:, 0] ** 2).mean())


E_POOLS = ("contributors", "all")  # --e-pool: which runs the background-rate pool and its counts use


def background_rate_ratio(exp, depth: int, e_pool: str = "contributors") -> float:
    """Ravana & Moffat's cubic read at zero runs (unclipped) over the true background rate, for the
    depth-``depth`` pool of the contributing runs (``e_pool="contributors"``, the collection's own
    design) or of all runs (``"all"``, the design of tests/test_background_rate_simulated.py: every
    run pooled and counted, a stand-in for Ravana & Moffat's 59 contributing TREC-9 systems; the
    official qrels of ``exp`` must judge those runs' top ``depth``, or the pool is cut down to them
    — :func:`statistics_for` passes the collection with every document judged by the truth)."""
    from irnb.intervals import estimate_background_rate, true_background_rate
    from irnb.pooling import depth_pool

    DISPLAY_CHOICE.among(E_POOLS).validate(e_pool, "background_rate_ratio", label="e_pool")
    runs = list(exp.run_names) if e_pool == "all" else None
    pool = depth_pool(exp, depth=depth, runs=runs)
    fit = estimate_background_rate(exp, depth=depth, pool=pool, runs=runs)
    return fit.intercept / true_background_rate(exp, measurement_depth=2 * depth, pool=pool)


def background_rate_penalty(ratios: pd.DataFrame) -> float:
    """``ratios``: E/true rows × seeds (first column seed 0). A ratio r scores
    max(0, |log₂ r| − 0.6)² (inside a factor 2^0.6 = 1.5 of the truth: 0); a reading at or
    below zero counts as r = 1/16. Mean over rows and seeds plus the mean for seed 0 alone.

    Seed 0 reads 1.0 and 4.0 (scores 0 and (2 − 0.6)² = 1.96), seed 1 reads −0.3 and 1.2
    (11.56 for 1/16, 0): (0 + 1.96 + 11.56 + 0) / 4 + (0 + 1.96) / 2 = 3.38 + 0.98:

    >>> round(background_rate_penalty(pd.DataFrame({0: [1.0, 4.0], 1: [-0.3, 1.2]})), 4)
    4.36
    """
    r = np.maximum(ratios.to_numpy(dtype=np.float64), 1 / 16)
    out = np.clip(np.abs(np.log2(r)) - 0.6, 0, None) ** 2
    return float(out.mean() + out[:, 0].mean())


def penalty(values: pd.DataFrame, real: pd.DataFrame) -> float:
    """``values``: statistics × seeds (first column seed 0). See the module docstring.

    >>> real = pd.DataFrame({"TREC-COVID": [0.2], "CLEF 2016": [0.4]}, index=["x"])
    >>> penalty(pd.DataFrame({0: [0.3], 1: [0.3]}, index=["x"]), real)   # inside the shrunk range
    0.0
    >>> # shrunk range [0.22, 0.38]; seed 0 at 0.5 is (0.5 − 0.38)/0.2 = 0.6 outside: 0.36/2 + 0.36/2
    >>> round(penalty(pd.DataFrame({0: [0.5], 1: [0.3]}, index=["x"]), real), 4)
    0.36
    """
    lo = real.loc[values.index].min(axis=1).to_numpy()[:, None]
    hi = real.loc[values.index].max(axis=1).to_numpy()[:, None]
    width = np.maximum(hi - lo, 0.02)
    margin = 0.1 * (hi - lo)
    x = values.to_numpy()
    out = (np.clip(lo + margin - x, 0, None) + np.clip(x - (hi - margin), 0, None)) / width
    return float((out ** 2).mean() + 0.5 * (out[:, 0] ** 2).mean())


def _draw(rng: np.random.Generator, centre: dict | None, moved: int = 0, held: dict | None = None) -> dict:
    """A uniform candidate (``centre`` None), or one around ``centre`` that moves every knob
    (``moved`` 0) or ``moved`` knobs chosen at random, the others kept; the knobs in ``held``
    (knob → value) are never drawn and keep those values."""
    held = held or {}
    out = dict(held)
    names = [n for n in SPACE if n not in held]
    chosen = set(names) if centre is None or moved <= 0 else set(rng.choice(names, size=min(moved, len(names)),
                                                                               replace=False))
    for name, (lo, hi, step, kind, _) in SPACE.items():
        if name in held:
            continue
        if centre is None:
            v = float(np.exp(rng.uniform(np.log(lo), np.log(hi)))) if kind == "log" else float(rng.uniform(lo, hi))
        elif name not in chosen:
            v = float(centre[name])
        else:
            v = float(np.clip(centre[name] + 0.075 * (hi - lo) * rng.standard_normal(), lo, hi))
        out[name] = int(round(v)) if kind == "int" else round(round(v / step) * step, 4)
    return out


def _grid(specs: list[str]) -> list[dict]:
    """``["bend=5,6.5", "aspects=4,6"]`` → the 4 combinations as knob dicts.

    >>> _grid(["bend=5,6.5", "aspects=6"])
    [{'bend': 5.0, 'aspects': 6}, {'bend': 6.5, 'aspects': 6}]
    """
    axes = []
    for spec in specs:
        name, _, values = spec.partition("=")
        if name not in SPACE or not values:
            raise ValueError(f"--grid {spec!r}: expected KNOB=V1,V2,… with KNOB one of {sorted(SPACE)}")
        kind = SPACE[name][3]
        try:
            axes.append([(name, int(v) if kind == "int" else float(v)) for v in values.split(",")])
        except ValueError:
            raise ValueError(f"--grid {spec!r}: values must be numbers") from None
    return [dict(combo) for combo in itertools.product(*axes)] if axes else []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(DATA), help="folder with trec-covid-round1/ and "
                                                          "clef-ehealth-2016-irtask2/")
    parser.add_argument("--seeds", type=int, nargs="+", default=[8], metavar="N or S1 S2 …",
                        help="one number N: score each candidate on seeds 0 … N−1 (default 8); several: "
                             "exactly those seeds (the first is the one weighted twice; never 10-14)")
    parser.add_argument("--random", type=int, default=0, help="uniform candidates (default 0)")
    parser.add_argument("--local", type=int, default=0, help="candidates around the best so far (default 0)")
    parser.add_argument("--rng", type=int, default=1, help="seed of the search's own draws")
    parser.add_argument("--local-knobs", type=int, default=0,
                        help="a local candidate moves this many knobs chosen at random (default 0: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--grid", nargs="+", default=[], metavar="KNOB=V1,V2",
                        help="score every combination of these values (other knobs as they are)")
    parser.add_argument("--log", help="append one JSON line per candidate to this file")
    parser.add_argument("--e-weight", type=float, default=1.0,
                        help="weight of the background-rate term (E within a factor of 2 of the truth at "
                             "pool depths 10 and 100; issue 13) in the penalty (default 1; 0 = off)")
    parser.add_argument("--calibration-weight", type=float, default=1.0,
                        help="weight of the calibration term (default 1)")
    parser.add_argument("--realism-weight", type=float, default=1.0,
                        help="weight of the REALISM term (what the default's realism tests and teaching "
                             "notebooks need; default 1; 0 = off)")
    parser.add_argument("--e-pool", choices=E_POOLS, default="contributors",
                        help="runs pooled and counted by the background-rate term: the contributing runs "
                             "(default) or all runs (the test's design, a stand-in for Ravana & Moffat's 59 "
                             "contributing TREC-9 systems)")
    parser.add_argument("--hold", nargs="+", default=[], metavar="KNOB",
                        help="knobs --random and --local never move (kept at their current values), "
                             "e.g. the design: num_groups num_runs num_topics")
    parser.add_argument("--base", type=json.loads, default={}, metavar="JSON",
                        help="knob values that replace the library's for the first candidate, the grid and "
                             "the local search's start, e.g. '{\"near_aspect_boost\": 0.5}'")
    args = parser.parse_args(argv)
    seeds = list(range(args.seeds[0])) if len(args.seeds) == 1 else args.seeds
    if len(set(seeds)) != len(seeds):
        parser.error(f"--seeds {seeds}: a seed given twice")
    if set(seeds) & set(range(10, 15)):
        parser.error(f"--seeds {seeds}: seeds 10-14 are held out for the background-rate test; do not score them")
    unknown = sorted(set(args.hold) - set(SPACE))
    if unknown:
        parser.error(f"--hold {unknown}: not knobs; expected some of {sorted(SPACE)}")
    unknown = sorted(set(args.base) - set(SPACE))
    if unknown:
        parser.error(f"--base {unknown}: not knobs; expected some of {sorted(SPACE)}")
    outside = {k: v for k, v in args.base.items() if not SPACE[k][0] <= v <= SPACE[k][1]}
    if outside:
        parser.error(f"--base {outside}: outside the knobs' ranges "
                     f"{ {k: SPACE[k][:2] for k in outside} }")
    try:
        grid = _grid(args.grid)
    except ValueError as error:
        parser.error(str(error))
    if not Path(args.data).is_dir():
        print(f"needs {args.data} (the project's ../shared/data)", file=sys.stderr)
        return 2
    base = {**current_knobs(), **args.base}
    held = {name: base[name] for name in args.hold}
    real = real_statistics(args.data)
    rng = np.random.default_rng(args.rng)
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    best: tuple[float, dict] | None = None
    plan = [("current", None)] + [("grid", g) for g in grid]
    plan += [("random", None)] * args.random + [("local", None)] * args.local
    floors = pd.Series({name: floor for name, (floor, _) in REALISM.items()})
    with Pool(args.workers) as pool:
        for i, (how, _) in enumerate(plan):  # _: a grid point
            start = time.perf_counter()
            if how == "grid":
                knobs = {**base, **_}
            else:
                knobs = dict(base) if how == "current" else _draw(
                    rng, best[1] if how == "local" else None, args.local_knobs, held)
            values = pd.concat(pool.map(statistics_for, [(knobs, s, args.e_pool) for s in seeds]), axis=1, keys=seeds)
            ratios = values.loc[[f"E/true d={d}" for d in E_DEPTHS]]
            realism = values.loc[list(REALISM)]
            values = values.drop(ratios.index).drop(realism.index)
            score = (args.calibration_weight * penalty(values, real) + args.e_weight * background_rate_penalty(ratios)
                     + args.realism_weight * realism_penalty(realism))
            lowest, highest = real.loc[values.index].min(axis=1), real.loc[values.index].max(axis=1)
            inside = ((values.T >= lowest) & (values.T <= highest)).sum(axis=1)
            if best is None or score < best[0]:
                best = (score, knobs)
            e_ok = ((ratios >= 0.5) & (ratios <= 2)).all(axis=0)
            realistic = (realism.T >= floors).all(axis=1)
            print(f"{i:4d} {how:7s} penalty {score:.5f}  inside per seed {inside.tolist()}  "
                  f"E ok {e_ok.astype(int).tolist()}  realism ok {realistic.astype(int).tolist()}  "
                  f"E/true seed 0: {ratios[seeds[0]].round(2).tolist()}  "
                  f"({time.perf_counter() - start:.1f} s)", flush=True)
            if log:
                log.write(json.dumps({"how": how, "penalty": score, "knobs": knobs, "inside": inside.tolist(),
                                      "E/true": ratios.round(3).to_numpy().tolist(),
                                      "realism": realism.round(4).to_numpy().tolist(),
                                      "mean": values.mean(axis=1).round(4).to_dict()}) + "\n")
                log.flush()
    print(f"\nbest penalty {best[0]:.5f}:")
    for name, value in best[1].items():
        print(f"  {name:18s} {value!r:8}  ({SPACE[name][4]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
