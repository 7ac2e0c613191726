"""Score intervals on real data: TREC-COVID round 1 (not a test; prints a report).

The round-1 qrels are the judged set; the complete TREC-COVID qrels (topics 1–30, after
all five rounds, plus the 283 round-1 judgments they lack) are the deeper truth. For
P@10, P@20, RBP(p=0.8) and SDCG@20 the report prints

1. how wide the intervals are (mean residual Δ over runs × topics) for runs that
   contributed to the round-1 pool versus runs that did not (leaderboard column
   "contributed judgments"), and how often the deeper truth lies inside [B, T];
2. which point estimator is closest to the deeper truth: RMSE of X_S, X_B, X_I and X_M
   (E = 0.01 and the E estimated from the data, λ = auto) against the truth, over
   (run, topic) pairs and over run means, for pooled and non-pooled runs.

    python benchmarks/intervals_real.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from irnb import Experiment, evaluate
from irnb.datasets.real import trec_covid_leaderboard, trec_covid_round1
from irnb.intervals import ESTIMATORS, estimate_background_rate, point_estimates, score_intervals

MEASURES = ("P@10", "P@20", "RBP(p=0.8)", "SDCG@20")


def load_trec_covid(shared: Path) -> tuple[Experiment, pd.DataFrame]:
    """The Experiment (round-1 qrels, deeper truth, contributors from the leaderboard) and
    the leaderboard."""
    folder = shared / "data" / "trec-covid-round1"
    return trec_covid_round1(folder, with_truth=True), trec_covid_leaderboard(folder).reset_index()


def report(exp: Experiment, *, background_rates: dict[str, float]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(widths, rmse) tables."""
    width_rows, rmse_rows = [], []
    groups = {"pooled": exp.contributors, "not pooled": ~exp.contributors}
    for measure in MEASURES:
        iv = score_intervals(exp, measure)
        truth = evaluate(exp, measure, truth=True)[measure]
        ev = iv.evaluated
        for label, rows in groups.items():
            sel = ev & rows[:, None]
            inside = (truth >= iv.lower - 1e-12) & (truth <= iv.upper + 1e-12)
            width_rows.append({"measure": measure, "runs": label, "n_runs": int(rows.sum()),
                               "mean B": iv.lower[sel].mean(), "mean T": iv.upper[sel].mean(),
                               "mean residual": iv.residual[sel].mean(), "truth inside": inside[sel].mean()})
        for e_label, rate in background_rates.items():
            est = point_estimates(iv, background_rate=rate, smoothing="auto")
            for label, rows in groups.items():
                sel = ev & rows[:, None]
                run_truth = np.where(ev, truth, 0).sum(1) / ev.sum(1)
                row = {"measure": measure, "E": e_label, "runs": label}
                for key, name in ESTIMATORS.items():
                    values = getattr(est, name)
                    row[f"X_{key} topic"] = float(np.sqrt(np.mean((values[sel] - truth[sel]) ** 2)))
                    run_mean = np.where(ev, values, 0).sum(1) / ev.sum(1)
                    row[f"X_{key} mean"] = float(np.sqrt(np.mean((run_mean[rows] - run_truth[rows]) ** 2)))
                rmse_rows.append(row)
    return pd.DataFrame(width_rows), pd.DataFrame(rmse_rows)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    exp, _ = load_trec_covid(args.shared)
    print(f"{exp}; {int(exp.contributors.sum())} pooled runs; built in {time.perf_counter() - start:.1f} s")
    fit = estimate_background_rate(exp, depth=10)
    print(f"E estimated (depth 10, cubic at 0 contributing runs): {fit.rate:.3f} (raw {fit.intercept:.3f}); "
          f"fraction relevant over all round-1 judgments: {fit.overall:.3f}")
    widths, rmse = report(exp, background_rates={"0.01": 0.01, f"fit {fit.rate:.3f}": fit.rate})
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 3):
        print("\nInterval widths (means over runs × topics) and containment of the deeper truth")
        print(widths.to_string(index=False))
        print("\nRMSE against the deeper truth, per (run, topic) ('topic') and over run means ('mean')")
        print(rmse.to_string(index=False))
        best = rmse.melt(id_vars=["measure", "E", "runs"], var_name="estimator", value_name="rmse")
        best = best[best["estimator"].str.endswith("topic")]
        winners = best.loc[best.groupby(["measure", "E", "runs"])["rmse"].idxmin()]
        print("\nClosest estimator per (run, topic):")
        print(winners.to_string(index=False))


if __name__ == "__main__":
    main()
