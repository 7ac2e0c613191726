"""Speed and results of the pool-bias and judgment-budget experiments (not a test).

1. The full leave-one-group-out table (Büttcher et al.'s Table 2: 9 measures, every
   group left out once) on the simulated default collection (40 runs, 12 groups, 50
   topics, runs 1000 deep, pool depth 100). Target (issue 4): ≤ 2 s. Timed cold (first
   call in the process, caches empty) and warm (median of ``--repeat``).
2. The automatic-only pool (Table 3: manual runs left out) and the random-subsampling
   curves (Figure 1) on the same collection.
3. Ravana & Moffat's separability (Figure 2) and recanting (Table 3) on the same
   collection, contributing and non-contributing runs separately.
4. With ``--covid``: the leave-one-group-out table on TREC-COVID round 1 (a depth-10/20
   pool of the 56 pooled runs simulated over the complete qrels; see
   tests/test_bias_real.py).

    python benchmarks/bench_bias.py [--repeat 5] [--covid] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from irnb.bias import contributor_subset_bias, leave_one_group_out_bias, subsampling_curves
from irnb.budgets import budget_tests

PAPER_ROWS = ["mean_abs_rank_change", "max_rank_up", "max_rank_down", "moved_up", "moved_down", "rms_error",
              "mean_score_change", "pct_significant", "kendall_tau", "tau_ap"]


def _show(title: str, frame: pd.DataFrame, decimals: int = 4) -> None:
    print(f"\n{title}")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.max_rows", 200):
        print(frame.round(decimals).to_string())


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def simulated(repeat: int) -> None:
    from irnb.datasets import default

    start = time.perf_counter()
    collection = default()
    exp = collection.experiment
    print(f"{collection}\n  (simulated and laid out in {time.perf_counter() - start:.1f} s)")

    start = time.perf_counter()
    logo = leave_one_group_out_bias(exp, depth=100)
    cold = time.perf_counter() - start
    warm = _median_time(lambda: leave_one_group_out_bias(exp, depth=100), repeat)
    print(f"\nleave-one-group-out table, {len(exp.run_names)} runs, {len(set(exp.groups))} groups, "
          f"{len(logo.measures)} measures: cold {cold:.2f} s, warm {warm:.2f} s (median of {repeat}); target ≤ 2 s")
    _show("Table 2 (simulated default collection, depth-100 pool, every run of a left-out group):",
          logo.table().loc[["left_out"] + PAPER_ROWS + ["kendall_tau_left_out"]])

    info = collection.run_info
    automatic = info.loc[info["contributor"] & ~info["manual"], "run"].tolist()
    manual = info.loc[info["manual"], "run"].tolist()
    start = time.perf_counter()
    subset = contributor_subset_bias(exp, automatic, depth=100, left_out=manual)
    print(f"\nautomatic-only pool: {time.perf_counter() - start:.2f} s")
    _show(f"Table 3 (automatic-only pool; {len(manual)} manual runs left out, τ over all {len(exp.run_names)} runs, "
          "τ_left_out over the manual runs):", subset.table().loc[["left_out"] + PAPER_ROWS + ["kendall_tau_left_out"]])

    start = time.perf_counter()
    curves = subsampling_curves(exp, seed=1, repeats=1)
    print(f"\nsubsampling curves (6 fractions × 1 repeat): {time.perf_counter() - start:.2f} s")
    _show("Figure 1(a), mean score of all runs:", curves.pivot(index="measure", columns="fraction",
                                                                values="mean_score"))
    _show("Figure 1(b), Kendall's τ against the full qrels:", curves.pivot(index="measure", columns="fraction",
                                                                            values="kendall_tau"))

    start = time.perf_counter()
    tests = budget_tests(exp, seed=1)
    print(f"\njudgment budgets {tests.budgets}: {time.perf_counter() - start:.2f} s")
    sep = tests.separability()
    for run_set in tests.run_sets:
        _show(f"Figure 2, separability at p < 0.01 ({run_set} runs):",
              sep[sep["run_set"] == run_set].pivot_table(index=["measure", "budget"], columns="estimator",
                                                         values="fraction"), 3)
    budgets = tests.budgets
    picks = [budgets[0], budgets[3], budgets[-1]]
    rec = tests.recanting()
    rec = rec[rec["budget_from"].isin(picks[:2]) & rec["budget_to"].isin(picks[1:])
              & (rec["budget_from"] < rec["budget_to"]) & (rec["run_set"] == "non-contributing")]
    _show(f"Table 3 (recanting share, non-contributing runs, budgets {picks}):",
          rec.pivot_table(index=["measure", "estimator", "budget_from"], columns="budget_to", values="share"), 3)


def covid(shared: Path) -> None:
    from irnb.datasets.real import trec_covid_round1

    start = time.perf_counter()
    exp = trec_covid_round1(shared / "data" / "trec-covid-round1", qrels="deep")
    pooled = [n for n, c in zip(exp.run_names, exp.contributors, strict=True) if c]
    print(f"\nTREC-COVID round 1: {exp} (loaded in {time.perf_counter() - start:.1f} s)")
    for depth in (10, 20):
        for label, ranked in (("56 pooled runs", pooled), ("all 143 runs", None)):
            start = time.perf_counter()
            res = leave_one_group_out_bias(exp, depth=depth, reference="pool", ranked=ranked)
            _show(f"Table 2, depth-{depth} pool over the complete qrels, ranking {label} "
                  f"({time.perf_counter() - start:.2f} s):", res.table().loc[["left_out"] + PAPER_ROWS])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--covid", action="store_true", help="also run on TREC-COVID round 1 (../shared/data)")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared")
    args = parser.parse_args(argv)
    simulated(args.repeat)
    if args.covid:
        covid(args.shared)


if __name__ == "__main__":
    main()
