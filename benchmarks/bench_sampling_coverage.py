"""Coverage and speed of irnb.sample_scores (not a test).

Coverage: the share of sampled intervals that contain the true score, per measure and pool
depth, next to the nominal level. On the embedded default and the held-out simulator seeds
10-14 (``irnb.datasets.simulate(seed=...)``): the runs scored against a depth-d pool of the
complete truth (``Collection.complete_experiment``), truth = the same runs scored on the
complete truth. Per topic: the interval of each (run, topic) against its true score; per
run: the two-stage bootstrap interval of each run's mean against its true mean. On
TREC-COVID round 1 (when ../shared/data has it): the official round-1 qrels, truth = the
complete qrels of the later rounds (topics 1-30).

Speed: sample_scores on TREC-COVID round 1 (143 runs, 30 topics, 1000 deep) with the
measures below and ``--covid-samples`` samples.

    python benchmarks/bench_sampling_coverage.py [--samples 200] [--covid-samples 1000] [--priors run pool]
        [--covid-priors run]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
import pandas as pd

import irnb
from irnb.datasets import default, simulate
from irnb.datasets.real import shared_data, trec_covid_round1
from irnb.kernels import not_judged
from irnb.metrics import judged_view

MEASURES = ("AP", "nDCG@10", "P@10")
HELD_OUT = (10, 11, 12, 13, 14)


def coverage(sampled, truth, holes: np.ndarray) -> list[dict]:
    """Rows measure, per (topic | run), coverage, mean width, mean bias of the sampled mean;
    per "open topic": the (run, topic) cells with an unjudged document in the ranks the
    measure reads (``holes``: (S, T, D)), where the interval is not a point by construction."""
    rows = []
    for m in sampled.measures:
        mean, low, high = sampled.topic_summary(m)
        true_topic = truth[m]
        inside = (true_topic >= low - 1e-12) & (true_topic <= high + 1e-12)
        ev = sampled.evaluated
        runs = sampled.runs[sampled.runs["measure"] == m.name]
        true_run = truth.aggregate(m)
        run_inside = (true_run >= runs["low"].to_numpy() - 1e-12) & (true_run <= runs["high"].to_numpy() + 1e-12)
        rows.append({"measure": m.name, "per": "topic", "coverage": inside[ev].mean(),
                     "width": (high - low)[ev].mean(), "bias": (mean - true_topic)[ev].mean()})
        open_ = ev & holes[:, :, : m.cutoff or holes.shape[2]].any(axis=2)
        rows.append({"measure": m.name, "per": "open topic", "coverage": inside[open_].mean(),
                     "width": (high - low)[open_].mean(), "bias": (mean - true_topic)[open_].mean(),
                     "share": open_.sum() / ev.sum()})
        rows.append({"measure": m.name, "per": "run", "coverage": run_inside.mean(),
                     "width": (runs["high"] - runs["low"]).mean(), "bias": (runs["mean"].to_numpy() - true_run).mean()})
    return rows


def simulated(samples: int, priors, level: float) -> pd.DataFrame:
    rows = []
    for seed in (None, *HELD_OUT):
        collection = default() if seed is None else simulate(seed=seed)
        exp = collection.complete_experiment
        truth = irnb.evaluate(exp, list(MEASURES))
        for depth in (10, 100):
            pool = irnb.depth_pool(exp, depth=depth)
            for prior in priors:
                start = time.perf_counter()
                sampled = irnb.sample_scores(exp, list(MEASURES), judged=pool, prior=prior, samples=samples,
                                             level=level, seed=0)
                took = time.perf_counter() - start
                holes = not_judged(judged_view(exp, judged=pool.judged))
                for row in coverage(sampled, truth, holes):
                    rows.append({"collection": "default" if seed is None else f"seed {seed}", "depth": depth,
                                 "prior": prior, "seconds": took, **row})
                print(rows[-1]["collection"], depth, prior, f"{took:.1f} s", flush=True)
    return pd.DataFrame(rows)


def covid(samples: int, priors, level: float) -> tuple[pd.DataFrame, dict]:
    folder = shared_data("trec-covid-round1")
    if folder is None:
        return pd.DataFrame(), {}
    exp = trec_covid_round1(folder, with_truth=True)
    truth = irnb.evaluate(exp, list(MEASURES), truth=True)
    rows, times = [], {}
    holes = not_judged(judged_view(exp))
    for prior in priors:
        start = time.perf_counter()
        sampled = irnb.sample_scores(exp, list(MEASURES), prior=prior, samples=samples, level=level, seed=0)
        times[prior] = time.perf_counter() - start
        print("trec-covid", prior, f"{times[prior]:.1f} s", flush=True)
        rows += [{"collection": "TREC-COVID round 1", "depth": "official", "prior": prior, **row}
                 for row in coverage(sampled, truth, holes)]
    return pd.DataFrame(rows), {"shape": exp.shape, "times": times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="samples per simulated setting")
    parser.add_argument("--covid-samples", type=int, default=1000, help="samples on TREC-COVID (timed)")
    parser.add_argument("--priors", nargs="+", default=["run", "pool"])
    parser.add_argument("--covid-priors", nargs="+", default=["run"])
    parser.add_argument("--level", type=float, default=0.95)
    parser.add_argument("--skip-simulated", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; numpy {np.__version__}")
    frames = []
    if not args.skip_simulated:
        frames.append(simulated(args.samples, args.priors, args.level))
    covid_rows, info = covid(args.covid_samples, args.covid_priors, args.level)
    frames.append(covid_rows)
    table = pd.concat(frames, ignore_index=True)
    pd.set_option("display.width", 200)
    summary = (table.groupby(["collection", "depth", "prior", "per", "measure"], sort=False)
               [["coverage", "width", "bias", "share"]].mean().round(3))
    print(f"nominal level {args.level}")
    print(summary.to_string())
    if not table.empty and "depth" in table:
        sim = table[table["collection"] != "TREC-COVID round 1"]
        if not sim.empty:
            print("\nsimulated, mean over the default and the five held-out seeds:")
            print(sim.groupby(["depth", "prior", "per", "measure"])[["coverage", "width", "bias", "share"]].mean()
                  .round(3).to_string())
    if info:
        print(f"\nTREC-COVID round 1 {info['shape']} (runs, topics, depth), {args.covid_samples} samples, "
              f"{len(MEASURES)} measures: " + ", ".join(f"{p} {t:.0f} s" for p, t in info["times"].items()))
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
