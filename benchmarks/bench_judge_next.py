"""Active judging (issue 19): how many run pairs each strategy of irnb.judge_next decides.

Starting from a depth-5 pool over complete truth, spend 1,000 more judgments in rounds of
200 with each strategy (decide-pairs, depth, rbp), judging every suggestion from the truth;
after each round report the pairs decided on P@10 (mean intervals no longer overlap), the
pairs decided against the true scores (always 0: intervals are bounds), Kendall's τ between
the runs' B̄ (unjudged = non-relevant) and the true scores, and the mean interval width.

* the embedded collection (irnb.datasets.default(), its truth as the qrels);
* TREC-COVID round 1 with the deep (later-round) qrels as the truth, when
  ../shared/data/trec-covid is present (``--covid DIR`` to point elsewhere). Documents the
  deep qrels do not list cannot be judged there and stay unjudged.

Usage: ``python benchmarks/bench_judge_next.py [--budget 1000] [--round 200] [--depth 5]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from irnb.judging import complete_experiment, simulate_judging
from irnb.pooling import depth_pool

DEFAULT_COVID = Path(__file__).resolve().parents[2] / "shared" / "data" / "trec-covid-round1"


def run(experiment, *, depth: int = 5, budget: int = 1000, round_size: int = 200, measure: str = "P@10",
        background_rate=None) -> pd.DataFrame:
    """The rounds table of :func:`irnb.judging.simulate_judging` from a depth-``depth`` pool."""
    start = depth_pool(experiment, depth=depth)
    return simulate_judging(experiment, start=start, budget=budget, round_size=round_size, measure=measure,
                            background_rate=background_rate)


def ratio(table: pd.DataFrame, *, gained: bool = False) -> float:
    """Decided pairs of decide-pairs over those of depth pooling after the last round
    (``gained=True``: only the pairs decided beyond the start); inf when depth pooling has none."""
    by = table.set_index(["strategy", "round"])["decided"]
    last = table["round"].max()
    dp, depth = by["decide-pairs", last], by["depth", last]
    if gained:
        dp, depth = dp - by["decide-pairs", 0], depth - by["depth", 0]
    return float("inf") if depth == 0 else float(dp / depth)


def report(name: str, table: pd.DataFrame, seconds: float) -> str:
    pairs = table.attrs.get("pairs", "?")
    lines = [f"## {name} ({pairs} pairs, {seconds:.1f} s)", "",
             table.to_string(index=False, float_format=lambda v: f"{v:.4f}"), "",
             f"decided pairs, decide-pairs / depth after the last round: {ratio(table):.2f} "
             f"(pairs decided beyond the start: {ratio(table, gained=True):.2f}); "
             f"pairs decided against the truth: {int(table['wrong'].sum())}", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--round", type=int, default=200, dest="round_size")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--measure", default="P@10")
    parser.add_argument("--covid", type=Path, default=DEFAULT_COVID)
    args = parser.parse_args(argv)
    from irnb.datasets import default

    t0 = time.perf_counter()
    exp = complete_experiment(default())
    table = run(exp, depth=args.depth, budget=args.budget, round_size=args.round_size, measure=args.measure)
    n = len(exp.run_names)
    table.attrs["pairs"] = n * (n - 1) // 2
    print(report("embedded collection (default), truth = complete qrels", table, time.perf_counter() - t0))
    if (args.covid / "qrels-rnd1.txt").exists():
        from irnb.datasets.real import trec_covid_round1

        t0 = time.perf_counter()
        covid = trec_covid_round1(args.covid, qrels="deep")
        table = run(covid, depth=args.depth, budget=args.budget, round_size=args.round_size, measure=args.measure)
        n = len(covid.run_names)
        table.attrs["pairs"] = n * (n - 1) // 2
        print(report("TREC-COVID round 1, truth = deep qrels", table, time.perf_counter() - t0))
    else:
        print(f"TREC-COVID skipped: no {args.covid / 'qrels-rnd1.txt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
