"""E estimated (Ravana & Moffat's cubic at zero runs) against the true rate, on the simulator
and on TREC-COVID round 1; the relevance-by-pooling-runs curves of the three collections.

    python benchmarks/background_rate.py                       # default design, seeds 0 and 10-14
    python benchmarks/background_rate.py --pooled-runs-per-group 3 --seeds 0 10 11
    python benchmarks/background_rate.py --trec-covid-design   # 56 contributing runs, as TREC-COVID
    python benchmarks/background_rate.py --no-real --knobs '{"decoy_share": 0.15, ...}'   # a tuner candidate
    python benchmarks/background_rate.py --no-real --knobs E_CANDIDATE   # session 6's best (not the default)
    python benchmarks/background_rate.py --judged-matched --seeds 0 1   # judged@10 of non-contributors, like for like
    python benchmarks/background_rate.py --every-run           # the paper's design: every run pooled (the test's)

For each collection and pool depth d: the depth-d pool of the contributing runs,
``estimate_background_rate(exp, depth=d, pool=pool)`` (``fit`` = the cubic's unclipped
reading at 0 runs, ``E`` = clipped) and ``true_background_rate(exp, measurement_depth=2d,
pool=pool)`` (the fraction relevant, in the truth, among the unjudged documents in the runs'
top 2d), then the fraction relevant among judged documents pooled by 1, 2, 3 … contributing
runs. TREC-COVID's "truth" is its deep qrels (topics 1-30) and the shallow pool is drawn from
them, so its truth covers only documents the deep qrels judge. CLEF eHealth 2016 has no
contributor list: all 16 runs count, no truth.

The second table compares the curves themselves, at depths 10 and 100: the fraction
relevant at 1, 2, … 6 pooling runs (what the cubic extrapolates from), the same over shares
of the contributing runs (0-10 %, 10-20 %, … of them), and how fast relevant and
non-relevant documents thin out from 1 to 2 pooling runs (judged documents at 2 runs / at
1 run, per topic). Counts and shares disagree when the numbers of contributing runs differ
(12 in the default, 56 in TREC-COVID, 16 in CLEF): the cubic reads the count curve.

``--judged-matched`` instead compares the calibration statistic "judged@10 of non-contributing
runs" like for like (it depends on the pool's design): for each simulated seed, its value (the
share of a non-contributing run's top 10 inside the depth-100 pool of one run from each of the
K groups); for the real collections the same statistic under the same design, replayed on their
runs (:func:`irnb.datasets.calibration.matched_design_share`: K groups drawn at random, their
contributing run pooled to depth 100, their other runs the non-contributors; mean and 10th-90th
percentiles over 200 draws). CLEF 2016 has 6 groups, so it is replayed with all 6.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import irnb
from irnb.datasets import simulate
from irnb.datasets.calibration import TREC_COVID_DESIGN
from irnb.datasets.real import clef_ehealth_2016_task2, trec_covid_round1
from irnb.intervals import estimate_background_rate, true_background_rate
from irnb.judging import complete_experiment
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


SHARE_BINS = ((0.0, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.5), (0.5, 1.0))


def _curve_row(name: str, exp, depth: int, *, runs=None, counts: int = 6) -> str:
    """One line of the curve comparison: fraction relevant by count, by share, and the thinning."""
    pool = depth_pool(exp, depth=depth, runs=runs)
    frame = estimate_background_rate(exp, depth=depth, pool=pool, runs=runs).to_frame()
    frame = frame[frame["in_fit"]].set_index("num_runs")
    K = len(runs) if runs is not None else sum(exp.contributors)
    by_count = " ".join(f"{frame.loc[c, 'fraction']:.2f}" if c in frame.index else "  - " for c in range(1, counts + 1))
    share = frame.index.to_numpy() / K
    parts = []
    for low, high in SHARE_BINS:
        inside = frame[(share > low) & (share <= high)]
        parts.append(f"{inside['relevant'].sum() / inside['judged'].sum():.2f}" if len(inside) else "  - ")
    thin = "   -     -  "
    if 1 in frame.index and 2 in frame.index:
        rel, judged = frame["relevant"], frame["judged"]
        thin = f"{rel[2] / rel[1]:5.2f} {(judged[2] - rel[2]) / (judged[1] - rel[1]):5.2f}"
    return f"{name:<28} d={depth:<4} K={K:<3} | {by_count} | {' '.join(parts)} | {thin}"


def _curve_table(rows) -> None:
    print(f"\n{'relevance by pooling runs':<28} {'':6} {'':5} | fraction relevant at 1 … 6 runs "
          f"| by share of the K runs {' '.join(f'{lo:.0%}-{hi:.0%}' for lo, hi in SHARE_BINS)} "
          f"| at 2 runs / at 1: relevant, non-relevant")
    for name, exp, depth, runs in rows:
        print(_curve_row(name, exp, depth, runs=runs), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 10, 11, 12, 13, 14])
    parser.add_argument("--depths", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--pooled-runs-per-group", type=int, default=None)
    parser.add_argument("--trec-covid-design", action="store_true",
                        help=f"simulate with TREC-COVID's design instead of the default ({TREC_COVID_DESIGN}), "
                             "but with the official qrels pooled as deep as the deepest --depths (a depth-d pool "
                             "judges only entries of the official qrels)")
    parser.add_argument("--every-run", action="store_true",
                        help="pool every run to depth d, as Ravana & Moffat's TREC-9 pool (the simulated ones judged "
                             "from the complete truth: irnb.judging.complete_experiment), instead of the contributors")
    parser.add_argument("--no-real", action="store_true", help="skip TREC-COVID and CLEF 2016")
    parser.add_argument("--judged-matched", action="store_true",
                        help="compare judged@10 of non-contributing runs under a matched pool design (see above)")
    parser.add_argument("--knobs", help="JSON object of benchmarks/tune_simulator.py knobs (a line of its --log "
                                        "has one under \"knobs\"), or E_CANDIDATE (session 6's best for issue 13); "
                                        "the others keep the library's values")
    args = parser.parse_args(argv)
    if args.knobs:
        import json
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import tune_simulator

        given = tune_simulator.E_CANDIDATE if args.knobs == "E_CANDIDATE" else json.loads(args.knobs)
        knobs = {**tune_simulator.current_knobs(), **given}
        with tune_simulator.knobs_applied(knobs):
            return _main(args, {k: knobs[k] for k in tune_simulator.SIMULATE_KNOBS})
    return _main(args, {})


def _main(args, simulate_keywords: dict) -> int:
    design = dict(simulate_keywords)
    if args.trec_covid_design:
        design.update(TREC_COVID_DESIGN, pool_depth=max(args.depths))
    if args.pooled_runs_per_group is not None:
        design["pooled_runs_per_group"] = args.pooled_runs_per_group
    if args.judged_matched:
        return _judged_matched(args, design)
    curves = []
    for seed in args.seeds:
        collection = simulate(seed, **design)
        exp = complete_experiment(collection) if args.every_run else collection.experiment
        runs = list(exp.run_names) if args.every_run else None
        for d in args.depths:
            print(_row(f"simulated seed {seed}", exp, d, runs=runs), flush=True)
            if seed == args.seeds[0]:
                curves.append((f"simulated seed {seed}", exp, d, runs))
    if args.no_real:
        _curve_table(curves)
        return 0
    deep = trec_covid_round1(DATA / "trec-covid-round1", qrels="deep")
    covid = irnb.Experiment(dict(deep.runs), deep.qrels, truth=deep.qrels,
                            contributors=[n for n, c in zip(deep.run_names, deep.contributors, strict=True) if c])
    every = list(covid.run_names) if args.every_run else None
    for d in (10, 20, 100):
        print(_row("TREC-COVID (deep qrels)", covid, d, runs=every), flush=True)
    clef = clef_ehealth_2016_task2(DATA / "clef-ehealth-2016-irtask2")
    for d in (10, 100):
        print(_row("CLEF 2016 (all runs)", clef, d, truth=False, runs=list(clef.run_names)), flush=True)
    curves += [("TREC-COVID (deep qrels)", covid, d, every) for d in (10, 100)]
    curves += [("CLEF 2016 (all runs)", clef, d, list(clef.run_names)) for d in (10, 100)]
    _curve_table(curves)
    return 0


def _judged_matched(args, design: dict) -> int:
    from irnb.datasets.calibration import collection_statistics, matched_design_share

    sizes = set()
    for seed in args.seeds:
        exp = simulate(seed, **design).experiment
        K = len({g for g, c in zip(exp.groups, exp.contributors, strict=True) if c})
        sizes.add(K)
        value = collection_statistics(exp)["judged@10 non-contributing"]
        print(f"simulated seed {seed:<3}  {K} contributing groups, depth 100: judged@10 non-contributing {value:.3f}",
              flush=True)
    if args.no_real:
        return 0
    covid = trec_covid_round1(DATA / "trec-covid-round1")
    clef = clef_ehealth_2016_task2(DATA / "clef-ehealth-2016-irtask2")
    for K in sorted(sizes | {12, 28, 56}):
        mean, low, high = matched_design_share(covid, contributing_groups=K, draws=200 if K < 56 else 1)
        print(f"TREC-COVID, {K:2d} of its 56 groups pooled to depth 100: {mean:.3f} (10th-90th percentile over draws "
              f"{low:.3f}-{high:.3f})", flush=True)
    mean, low, high = matched_design_share(clef, contributing_groups=len(set(clef.groups)), draws=200)
    print(f"CLEF 2016, all {len(set(clef.groups))} groups pooled to depth 100 (one run each, drawn at random): "
          f"{mean:.3f} ({low:.3f}-{high:.3f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
