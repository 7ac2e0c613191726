"""Speed of pool-depth and measurement-depth changes for score intervals (not a test).

Builds a synthetic TREC-like collection (runs 1000 deep over a shared document universe,
qrels = the depth-100 pool of half the runs), builds the Experiment once, then times what a
slider change costs: a new depth-d pool (``depth_pool``) followed by every run's [B, T],
Δ and the four point estimators for all topics (``score_intervals`` + ``point_estimates``),
and a measurement-depth change (same pool, new k).

Targets (issue 3): ≤ 30 ms at 40 runs × 50 topics × 1000 deep, ≤ 150 ms at 200 runs.

    python benchmarks/bench_intervals.py [--runs 40 200] [--repeat 7]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from irnb import Experiment
from irnb.io import read_qrels, read_run
from irnb.intervals import _positions, point_estimates, score_intervals
from irnb.pooling import depth_pool


def synthetic_experiment(num_runs: int, *, num_topics: int = 50, depth: int = 1000, universe: int = 4000,
                         pool_depth: int = 100, seed: int = 0) -> Experiment:
    """Runs rank a shared universe of documents by (latent quality + run-specific noise), so
    they overlap as real runs do; qrels judge the depth-``pool_depth`` pool of the first half
    of the runs, relevance drawn from the documents' latent quality."""
    rng = np.random.default_rng(seed)
    docnos = np.array([f"D{i:05d}" for i in range(universe)], dtype=object)
    quality = rng.normal(size=(num_topics, universe))
    skill = rng.uniform(0.5, 2.0, size=num_runs)
    order_all = np.empty((num_runs, num_topics, depth), dtype=np.int64)
    for t in range(num_topics):
        scores = skill[:, None] * quality[t][None, :] + rng.gumbel(size=(num_runs, universe))
        top = np.argpartition(-scores, depth - 1, axis=1)[:, :depth]
        top_scores = np.take_along_axis(scores, top, axis=1)
        order_all[:, t] = np.take_along_axis(top, np.argsort(-top_scores, axis=1), axis=1)
    topic_ids = np.repeat(np.arange(1, num_topics + 1).astype(str), depth)
    ranks_score = np.tile(np.arange(depth, 0, -1, dtype=np.float64), num_topics)
    runs = {}
    for s in range(num_runs):
        frame = pd.DataFrame({"qid": topic_ids, "docno": docnos[order_all[s].ravel()], "score": ranks_score})
        runs[f"run{s:03d}"] = read_run(frame, name=f"run{s:03d}")
    contributors = [f"run{s:03d}" for s in range(0, num_runs, 2)]
    pool_docs = order_all[0::2, :, :pool_depth]  # (C, T, d)
    rows = []
    for t in range(num_topics):
        docs = np.unique(pool_docs[:, t].ravel())
        p_rel = 1.0 / (1.0 + np.exp(-(quality[t, docs] * 2.0 - 3.0)))
        grade = (rng.random(docs.size) < p_rel).astype(int) + (rng.random(docs.size) < p_rel / 3).astype(int)
        rows.append(pd.DataFrame({"qid": str(t + 1), "docno": docnos[docs], "grade": grade}))
    qrels = read_qrels(pd.concat(rows, ignore_index=True))
    return Experiment(runs, qrels, contributors=contributors)


def _time(fn, repeat: int) -> float:
    fn()  # warm-up (builds the cached rank index)
    best = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best.append(time.perf_counter() - start)
    return float(np.median(best)) * 1e3


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[40, 200])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    measures = ["P@10", "RBP(p=0.8)", "SDCG@100"]
    for num_runs in args.runs:
        t0 = time.perf_counter()
        exp = synthetic_experiment(num_runs)
        build = time.perf_counter() - t0
        positions = int((exp.judgments.doc >= 0).sum())
        t0 = time.perf_counter()
        _positions(exp.judgments)  # the rank index, built once per Experiment (cached)
        exp.judgments.retrieved_rank  # noqa: B018 - likewise, used by depth_pool
        index = time.perf_counter() - t0
        print(f"\n{exp}  (Experiment built in {build:.1f} s; {positions:,} ranked positions hold a qrels "
              f"document; rank index + retrieved_rank built once in {index * 1e3:.0f} ms)")
        depths = iter(np.tile([5, 10, 20, 50, 100], 100))

        def pool_change(measure):
            def run():
                pool = depth_pool(exp, depth=int(next(depths)))
                point_estimates(score_intervals(exp, measure, pool=pool))
            return run

        pool = depth_pool(exp, depth=20)
        ks = iter(np.tile([5, 10, 20, 50, 100], 100))

        def k_change(measure):
            def run():
                point_estimates(score_intervals(exp, measure, pool=pool, measurement_depth=int(next(ks))))
            return run

        def all_measures():
            p = depth_pool(exp, depth=int(next(depths)))
            for m in measures:
                point_estimates(score_intervals(exp, m, pool=p))

        print(f"  {'measure':<12} {'d change (ms)':>14} {'k change (ms)':>14}")
        for m in measures:
            k_ms = f"{_time(k_change(m), args.repeat):.1f}" if m != "RBP(p=0.8)" else "(no k)"
            print(f"  {m:<12} {_time(pool_change(m), args.repeat):>14.1f} {k_ms:>14}")
        print(f"  all three measures after a d change: {_time(all_measures, args.repeat):.1f} ms")
        print(f"  depth_pool alone: {_time(lambda: depth_pool(exp, depth=int(next(depths))), args.repeat):.1f} ms")


if __name__ == "__main__":
    main()
