"""E estimated (Ravana & Moffat's cubic at zero runs) against the true rate, on the simulator
and on TREC-COVID round 1; the relevance-by-pooling-runs curves of the three collections.

    python benchmarks/background_rate.py                       # default design, seeds 0 and 10-14
    python benchmarks/background_rate.py --pooled-runs-per-group 3 --seeds 0 10 11

For each collection and pool depth d: the depth-d pool of the contributing runs,
``estimate_background_rate(exp, depth=d, pool=pool)`` (``fit`` = the cubic's unclipped
reading at 0 runs, ``E`` = clipped) and ``true_background_rate(exp, measurement_depth=2d,
pool=pool)`` (the fraction relevant, in the truth, among the unjudged documents in the runs'
top 2d), then the fraction relevant among judged documents pooled by 1, 2, 3 … contributing
runs. TREC-COVID's "truth" is its deep qrels (topics 1-30) and the shallow pool is drawn from
them, so its truth covers only documents the deep qrels judge. CLEF eHealth 2016 has no
contributor list: all 16 runs count, no truth.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import irnb
from irnb.datasets import simulate
from irnb.datasets.real import clef_ehealth_2016_task2, trec_covid_round1
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.pooling import depth_pool

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _curve(fit, first: int = 8) -> str:
    frame = fit.to_frame()
    frame = frame[frame["in_fit"]].head(first)
    return " ".join(f"{int(n)}:{f:.2f}" for n, f in zip(frame["num_runs"], frame["fraction"], strict=True))


def _row(name: str, exp, depth: int, *, truth: bool = True, runs=None) -> str:
    pool = depth_pool(exp, depth=depth, runs=runs)
    fit = estimate_background_rate(exp, depth=depth, pool=pool, runs=runs)
    true = f"{true_background_rate(exp, measurement_depth=2 * depth, pool=pool):.3f}" if truth else "  -  "
    ratio = "" if not truth or fit.rate == 0 else f"{fit.rate / float(true):5.2f}"
    return (f"{name:<28} d={depth:<4} fit {fit.intercept:+.3f}  E {fit.rate:.3f}  true {true}  E/true {ratio:>5}"
            f"  | {_curve(fit)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 10, 11, 12, 13, 14])
    parser.add_argument("--depths", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--pooled-runs-per-group", type=int, default=None)
    parser.add_argument("--no-real", action="store_true", help="skip TREC-COVID and CLEF 2016")
    args = parser.parse_args(argv)
    design = {} if args.pooled_runs_per_group is None else {"pooled_runs_per_group": args.pooled_runs_per_group}
    for seed in args.seeds:
        exp = simulate(seed, **design).experiment
        for d in args.depths:
            print(_row(f"simulated seed {seed}", exp, d), flush=True)
    if args.no_real:
        return 0
    deep = trec_covid_round1(DATA / "trec-covid-round1", qrels="deep")
    covid = irnb.Experiment(dict(deep.runs), deep.qrels, truth=deep.qrels,
                            contributors=[n for n, c in zip(deep.run_names, deep.contributors, strict=True) if c])
    for d in (10, 20, 100):
        print(_row("TREC-COVID (deep qrels)", covid, d), flush=True)
    clef = clef_ehealth_2016_task2(DATA / "clef-ehealth-2016-irtask2")
    for d in (10, 100):
        print(_row("CLEF 2016 (all runs)", clef, d, truth=False, runs=list(clef.run_names)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
