"""Speed of the live views (not a test): what one control change costs kernel-side.

For every view of :mod:`irnb.widgets` (intervals, decision matrix, bias, unjudged
documents) the script changes each of the view's sliders several times and reports, per
change, the time spent in the core, in the artist updates and in the redraw with Agg
(plus PNG encoding: the views run with the PNG canvas, the same artists an ipympl canvas
would redraw), as wall-clock and CPU time. Targets (issue 6): ≤ 150 ms per change on the
default simulated collection (40 runs × 50 topics × 1000), ≤ 500 ms on TREC-COVID round 1
(143 runs × 30 topics × 1000; heatmap and interval plot show the top 30 runs).

The views draw as they do on a page: the layout frozen after the first draw, text from bitmaps, Agg, PNG:

    python benchmarks/bench_widgets.py [--shared ../shared] [--repeat 3] [--skip-covid]

On a machine shared with other jobs, wall-clock times include waiting for a core; the CPU
column (this process's CPU time) is the better estimate of the cost itself.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the checkout's irnb, whatever is installed

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

import irnb  # noqa: E402
from irnb import Experiment, widgets  # noqa: E402

#: Values each slider takes in turn (clipped to the Experiment's depth).
CHANGES = {
    "depth": (12, 30, 7, 40, 25, 80),  # depths the slider offers, not the bias view's cached τ-curve depths
    "measurement_depth": (20, 5, 30, 10, 100),
    "background_rate": (0.05, 0.2, 0.01),
    "smoothing": (0.3, 0.7),
}
SLIDERS = ("depth", "measurement_depth", "background_rate", "smoothing")
BUILDERS = {"intervals": widgets.IntervalsView, "decision matrix": widgets.DecisionView,
            "bias": widgets.BiasView, "unjudged documents": widgets.UnjudgedView}


def trec_covid(shared: Path) -> Experiment | None:
    folder = shared / "data" / "trec-covid-round1"
    names = ("runs-round1.tar.xz", "qrels-rnd1.txt", "leaderboard-round1.csv")
    if not all((folder / n).exists() for n in names):
        return None
    board = pd.read_csv(folder / "leaderboard-round1.csv")
    runs = board["run"].str.strip()
    return Experiment(folder / "runs-round1.tar.xz", folder / "qrels-rnd1.txt",
                      groups=dict(zip(runs, board["team"].str.strip(), strict=True)),
                      contributors=runs[board["contributed judgments"].str.strip() == "yes"].tolist())


def measure_view(name: str, experiment: Experiment, *, repeat: int) -> list[dict]:
    """One row per control change: view, control, value, core/artists/draw/total (ms), cpu (ms)."""
    start = time.perf_counter()
    view = BUILDERS[name](experiment, canvas="png")
    build = time.perf_counter() - start
    if "auto_smoothing" in view.controls:
        view.controls["auto_smoothing"].value = False  # let the λ slider count
    rows = [{"view": name, "control": "(build)", "value": "", "total": build * 1000, "cpu": float("nan"),
             "core": float("nan"), "artists": float("nan"), "draw": float("nan")}]
    depth = experiment.shape[2]
    for _ in range(repeat):
        for control in SLIDERS:
            if control not in view.controls:
                continue
            for value in CHANGES[control]:
                value = min(value, depth) if isinstance(value, int) else value
                if view.controls[control].value == value:
                    continue
                view.controls[control].value = value  # the view refreshes itself
                if "⚠" in view.status.value:
                    raise RuntimeError(f"{name}: {control} = {value}: {view.status.value}")
                t = view.timings
                rows.append({"view": name, "control": control, "value": value,
                             "core": t.get("core", 0) * 1000, "artists": t.get("artists", 0) * 1000,
                             "draw": t.get("draw", 0) * 1000, "total": t["total"] * 1000,
                             "cpu": t["total_cpu"] * 1000})
    return rows


def summary(rows: list[dict], target_ms: float) -> pd.DataFrame:
    frame = pd.DataFrame([r for r in rows if r["control"] != "(build)"])
    out = []
    for view, part in frame.groupby("view", sort=False):
        out.append({
            "view": view, "changes": len(part),
            "core ms (median)": statistics.median(part["core"]),
            "artists ms (median)": statistics.median(part["artists"]),
            "draw+png ms (median)": statistics.median(part["draw"]),
            "total ms (median)": statistics.median(part["total"]),
            "total ms (max)": part["total"].max(),
            "CPU ms (median)": statistics.median(part["cpu"]),
            f"≤ {target_ms:g} ms (CPU median)": "yes" if statistics.median(part["cpu"]) <= target_ms else "no",
        })
    return pd.DataFrame(out)


def per_control(rows: list[dict]) -> pd.DataFrame:
    frame = pd.DataFrame([r for r in rows if r["control"] != "(build)"])
    return (frame.groupby(["view", "control"], sort=False)[["core", "draw", "total", "cpu"]].median()
            .round(1).reset_index())


def report(title: str, experiment: Experiment, target_ms: float, repeat: int) -> None:
    rows = []
    for name in BUILDERS:
        rows += measure_view(name, experiment, repeat=repeat)
    builds = {r["view"]: r["total"] for r in rows if r["control"] == "(build)"}
    print(f"\n### {title}\n\n{experiment!r}\n")
    print(summary(rows, target_ms).round(1).to_markdown(index=False))
    print("\nMedian per control (ms):\n")
    print(per_control(rows).to_markdown(index=False))
    print("\nFirst build and draw of each view (ms): "
          + ", ".join(f"{k} {v:.0f}" for k, v in builds.items()))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--repeat", type=int, default=2, help="passes over every slider's values")
    parser.add_argument("--skip-covid", action="store_true", help="only the default simulated collection")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"## Widget benchmark\n\n`python benchmarks/bench_widgets.py` — {time.strftime('%Y-%m-%d %H:%M')}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores, load average "
          f"{load:.1f} at start; Python {platform.python_version()}, irnb {irnb.__version__}, "
          f"matplotlib {matplotlib.__version__} (irnb from `{Path(irnb.__file__).parent}`); Agg canvas, PNG "
          "encoding included.")
    from irnb.datasets import default

    start = time.perf_counter()
    experiment = default().experiment
    print(f"\nDefault collection generated in {time.perf_counter() - start:.1f} s.")
    report("Default simulated collection (target ≤ 150 ms per change)", experiment, 150.0, args.repeat)
    if args.skip_covid:
        return
    start = time.perf_counter()
    covid = trec_covid(args.shared)
    if covid is None:
        print(f"\nTREC-COVID round 1 not found under {args.shared}/data: skipped.")
        return
    print(f"\nTREC-COVID round 1 read in {time.perf_counter() - start:.1f} s.")
    report("TREC-COVID round 1 (target ≤ 500 ms per change; top 30 runs shown)", covid, 500.0, 1)


if __name__ == "__main__":
    main()
