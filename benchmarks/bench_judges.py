"""The automatic-judge lab's τ curves (irnb.judges): how far the ranking of runs under a judge's
qrels is from the ranking under the complete truth, as the judge's accuracy and leniency change,
for "fill only the holes" against "judge the whole pool".

Setting, on the embedded default (seed 0) and on held-out seeds of the simulator: the humans
judged a depth-10 pool of the contributing runs; the holes are the documents outside it that
a run ranks at depth ≤ 20; the reference is the complete truth (``complete_experiment``). Two
grids of the simulated judge (:func:`irnb.judges.simulated_grades`, seed 0): accuracy
0.6 … 1 at leniency 0.1, and leniency 0 … 0.4 at accuracy 0.9 (word bias 0 in both; a third
grid moves the word bias at accuracy 0.9, leniency 0.1). For each setting and measure: τ and
τ among the ten best runs for the human pool, the filled holes and the whole pool, and the
twins' mean rank shift. On the default the KLD classifier judge (:func:`irnb.judges.classifier_judge`)
is read the same way.

Usage: ``python benchmarks/bench_judges.py [--seeds 0 10 11] [--out benchmarks/RESULTS_judges.md]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from irnb.datasets import default, simulate
from irnb.judges import classifier_judge, judge_study, simulated_grades
from irnb.pooling import depth_pool

HUMAN_DEPTH, HOLE_DEPTH, TOP = 10, 20, 10
MEASURES = ("nDCG@10", "P@10", "AP")
GRIDS = {
    "accuracy": [dict(accuracy=a, leniency=0.1, word_bias=0.0) for a in (0.6, 0.7, 0.8, 0.9, 1.0)],
    "leniency": [dict(accuracy=0.9, leniency=x, word_bias=0.0) for x in (0.0, 0.1, 0.2, 0.3, 0.4)],
    "word_bias": [dict(accuracy=0.9, leniency=0.1, word_bias=b) for b in (0.0, 0.3, 0.6)],
}


def curves(collection) -> tuple[pd.DataFrame, float]:
    """Every grid's correlation rows for one collection, and the seconds per study."""
    exp = collection.complete_experiment
    pool = depth_pool(exp, depth=HUMAN_DEPTH)
    rows, seconds, count = [], 0.0, 0
    for grid, settings in GRIDS.items():
        for setting in settings:
            start = time.perf_counter()
            grades = simulated_grades(collection, seed=0, **setting).ravel()
            study = judge_study(exp, grades, pool=pool, depth=HOLE_DEPTH, measures=MEASURES, top=TOP,
                                rerank_depth=HOLE_DEPTH)
            seconds += time.perf_counter() - start
            count += 1
            rows.append(study.summary().assign(grid=grid, value=setting[grid]))
    return pd.concat(rows, ignore_index=True), seconds / count


def verdict(table: pd.DataFrame) -> str:
    """How often filling the holes correlates less with the truth than judging the whole pool."""
    wide = table.pivot_table(index=["grid", "value", "measure"], columns="qrels", values="tau")
    below = wide["fill holes"] < wide["whole pool"]
    per_measure = below.groupby(level="measure").agg(["sum", "size"])
    parts = [f"{m}: {int(r['sum'])} of {int(r['size'])}" for m, r in per_measure.iterrows()]
    tops = table.pivot_table(index=["grid", "value", "measure", "qrels"], values=["tau", "tau_top"])
    hidden = int((tops["tau_top"] < tops["tau"]).sum())
    return (f"fill holes τ < whole pool τ in {', '.join(parts)} settings; τ among the top {TOP} below τ over all "
            f"runs in {hidden} of {len(tops)} cells")


def classifier_rows(collection) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """The KLD classifier judge's correlation rows, its κ at level ≥ 1, and the seconds taken."""
    exp = collection.complete_experiment
    pool = depth_pool(exp, depth=HUMAN_DEPTH)
    start = time.perf_counter()
    judged = classifier_judge(exp, collection.documents, pool=pool, depth=HOLE_DEPTH, method="kld", seed=0)
    study = judge_study(exp, judged, pool=pool, depth=HOLE_DEPTH, measures=MEASURES, top=TOP,
                        rerank_depth=HOLE_DEPTH)
    seconds = time.perf_counter() - start
    kappa = study.agreement[study.agreement["level"] == "≥1"][["documents_judged", "documents", "kappa",
                                                              "false_positive_rate", "false_negative_rate"]]
    return study.summary(), kappa, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 10, 11],
                        help="simulator seeds (0 = the embedded default; 10-19 are held out of the tuning)")
    parser.add_argument("--out", type=Path, default=None, help="write the report here (markdown)")
    parser.add_argument("--no-classifier", action="store_true", help="skip the KLD classifier judge")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    lines = [f"# bench_judges.py output ({datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC)", "",
             f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores; "
             f"load average at the start {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (the cores are shared, "
             f"so the times are upper bounds).", "",
             f"Human pool: depth {HUMAN_DEPTH} of the contributing runs; holes: depth ≤ {HOLE_DEPTH}; twins rerank "
             f"the top {HOLE_DEPTH}; reference: the complete truth; τ among the top {TOP} runs by the truth.", ""]
    for seed in args.seeds:
        start = time.perf_counter()
        collection = default() if seed == 0 else simulate(seed=seed)
        made = time.perf_counter() - start
        table, per_study = curves(collection)
        name = "the embedded default (seed 0)" if seed == 0 else f"held-out seed {seed}"
        shown = table[["grid", "value", "measure", "qrels", "tau", "tau_top", "tau_ap", "holes_error_r",
                       "mean_twin_shift", "mean_twin_inflation"]]
        lines += [f"## {name}", "", f"collection {made:.1f} s; {per_study:.2f} s per study (grades + study)", "",
                  "```", shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"), "```", "",
                  verdict(table), ""]
        print("\n".join(lines[-8:]), flush=True)
    if not args.no_classifier:
        summary, kappa, seconds = classifier_rows(default())
        number = lambda v: f"{v:.3f}"  # noqa: E731
        lines += ["## KLD classifier judge on the default", "",
                  f"classifier judge (holes + the pool by halves) and study: {seconds:.1f} s", "", "```",
                  summary.to_string(index=False, float_format=number), "", kappa.to_string(index=False,
                                                                                         float_format=number),
                  "```", ""]
        print("\n".join(lines[-9:]), flush=True)
    if args.out is not None:
        args.out.write_text("\n".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
