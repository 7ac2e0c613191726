"""Speed of the live views (not a test): what one control change costs kernel-side.

For every view of :mod:`irnb.widgets` (intervals, decision matrix, bias, unjudged
documents) the script changes each of the view's sliders several times and reports, per
change, the time spent in the core, in the artist updates and in the redraw with Agg
(plus PNG encoding: the views run with the PNG canvas, the same artists an ipympl canvas
would redraw), as wall-clock and CPU time. Targets (issue 6): ≤ 150 ms per change on the
default simulated collection (40 runs × 50 topics × 1000), ≤ 500 ms on TREC-COVID round 1
(143 runs × 30 topics × 1000; heatmap and interval plot show the top 30 runs).

The text table compares, per view, the redraw (Agg draw + PNG, CPU ms, median of
``--repeat`` × 8 redraws in turn) on the views' canvas (:func:`irnb.views.frames.frame_canvas`:
text from the bitmaps of :mod:`irnb.views.text_cache`, tick labels of the frozen layout not
measured before they are drawn, legends that did not change put back as pixels by
:mod:`irnb.views.still_legends`), on the same canvas with every legend drawn, on the
text-bitmap canvas alone (every tick label measured, as matplotlib does), and on
matplotlib's plain Agg canvas; ``--before FILE`` adds
the canvas of an older ``irnb/views/text_cache.py`` (with the PNG written as then: RGBA),
e.g. the one that still answered matplotlib's private font-height question:

    python benchmarks/bench_widgets.py [--shared ../shared] [--repeat 3] [--skip-covid]
    git show daf11bc:irnb/views/text_cache.py > /tmp/text_cache_daf11bc.py
    python benchmarks/bench_widgets.py --skip-covid --before /tmp/text_cache_daf11bc.py

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
from irnb.views import frames, text_cache  # noqa: E402

#: Values each slider takes in turn (clipped to the Experiment's depth).
CHANGES = {
    "depth": (12, 33, 7, 45, 25, 80),  # not the bias view's cached τ-curve depths
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


VIEWS_CANVAS = "the views' (text bitmaps, tick labels unmeasured, still legends put back)"
TEXT_CANVASES = {VIEWS_CANVAS: frames.frame_canvas,
                 "the views', every legend drawn": frames.frame_canvas,
                 "text bitmaps, every tick label measured": text_cache.text_cache_canvas,
                 "matplotlib's Agg": lambda base: base}


def _rgba_png(figure) -> bytes:
    """The PNG as irnb wrote it before it wrote opaque frames as RGB (matplotlib's imsave, RGBA)."""
    from io import BytesIO

    import numpy as np
    from matplotlib.image import imsave

    buffer = BytesIO()
    imsave(buffer, np.asarray(figure.canvas.buffer_rgba()), format="png", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def _older_canvas(path: Path):
    """``text_cache_canvas`` of an older copy of irnb/views/text_cache.py (it imports only
    numpy and matplotlib)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("older_text_cache", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.text_cache_canvas


def text_canvases(experiment: Experiment, repeat: int, before: Path | None = None) -> pd.DataFrame:
    """CPU ms (median) of a redraw per view and text canvas, the canvases taking turns;
    ``before``: an older text_cache.py whose canvas (and RGBA PNG) is one more row."""
    canvases = dict(TEXT_CANVASES)
    writers = {label: frames.png for label in canvases}
    if before is not None:
        label = f"before: {before.name} (every tick label measured, RGBA PNG)"
        canvases[label], writers[label] = _older_canvas(before), _rgba_png
    views = {}
    for label, make in canvases.items():
        frames.frame_canvas = make  # the canvas class a new view's frame is made with
        try:
            views[label] = {name: builder(experiment, canvas="png") for name, builder in BUILDERS.items()}
        finally:
            frames.frame_canvas = TEXT_CANVASES[VIEWS_CANVAS]
        for view in views[label].values():
            if label == "the views', every legend drawn":
                view.figure.canvas.legend_pictures = None  # legends drawn by matplotlib each time
            view.controls["depth"].value = CHANGES["depth"][0]
    times = {(label, name): [] for label in views for name in BUILDERS}
    for _ in range(8 * repeat):
        for label, by_name in views.items():
            for name, view in by_name.items():
                start = time.process_time()
                with matplotlib.rc_context(frames.DRAW_RC):  # as the views draw
                    view.figure.canvas.draw()
                writers[label](view.figure)
                times[label, name].append((time.process_time() - start) * 1000)
    rows = [{"canvas": label, **{name: statistics.median(times[label, name]) for name in BUILDERS}} for label in views]
    frame = pd.DataFrame(rows)
    base = frame.iloc[0, 1:].astype(float)
    frame["ratio to the views' (mean)"] = [float((frame.iloc[i, 1:len(BUILDERS) + 1].astype(float) / base).mean())
                                            for i in range(len(frame))]
    return frame


def changes_before_after(experiment: Experiment, before: Path, repeat: int) -> pd.DataFrame:
    """CPU ms (median) per slider change of every view, on the views' canvas and on the
    canvas of ``before`` (an older text_cache.py, PNG written as then), the two taking turns
    on the same slider values in one process (so both see the same load)."""
    canvases = {"now": (TEXT_CANVASES[VIEWS_CANVAS], frames.png),
                f"before: {before.name}": (_older_canvas(before), _rgba_png)}
    current = frames.frame_canvas, frames.png
    views = {}
    try:
        for label, (make, _png) in canvases.items():
            frames.frame_canvas = make
            views[label] = {name: builder(experiment, canvas="png") for name, builder in BUILDERS.items()}
            for view in views[label].values():
                if "auto_smoothing" in view.controls:
                    view.controls["auto_smoothing"].value = False
        times = {(label, name): [] for label in views for name in BUILDERS}
        for turn in range(repeat):
            for control in SLIDERS:
                for value in CHANGES[control]:
                    value = min(value, experiment.shape[2]) if isinstance(value, int) else value
                    for name in BUILDERS:
                        for label in (list(views) if turn % 2 == 0 else list(views)[::-1]):
                            view = views[label][name]
                            if control not in view.controls or view.controls[control].value == value:
                                continue
                            frames.png = canvases[label][1]  # the PNG as that version wrote it
                            view.controls[control].value = value
                            frames.png = current[1]
                            times[label, name].append(view.timings["total_cpu"] * 1000)
    finally:
        frames.frame_canvas, frames.png = current
    rows = [{"canvas": label, **{name: statistics.median(times[label, name]) for name in BUILDERS}} for label in views]
    frame = pd.DataFrame(rows)
    frame.loc[len(frame)] = ["ratio now / before", *(frame.iloc[0, 1:].astype(float) / frame.iloc[1, 1:].astype(float))]
    return frame


def legends_still_or_drawn(experiment: Experiment, repeat: int) -> pd.DataFrame:
    """CPU ms (median) per slider change of every view, its still legends put back or every
    legend drawn by matplotlib, the two views taking turns on the same slider values."""
    times = {(label, name): [] for label in ("still legends put back", "every legend drawn") for name in BUILDERS}
    for name, builder in BUILDERS.items():
        views = {"still legends put back": builder(experiment, canvas="png"),
                 "every legend drawn": builder(experiment, canvas="png")}
        views["every legend drawn"].figure.canvas.legend_pictures = None
        for view in views.values():
            if "auto_smoothing" in view.controls:
                view.controls["auto_smoothing"].value = False
        for turn in range(repeat):
            for control in SLIDERS:
                for value in CHANGES[control]:
                    value = min(value, experiment.shape[2]) if isinstance(value, int) else value
                    for label in (list(views) if turn % 2 == 0 else list(views)[::-1]):
                        view = views[label]
                        if control not in view.controls or view.controls[control].value == value:
                            continue
                        view.controls[control].value = value
                        times[label, name].append(view.timings["total_cpu"] * 1000)
    labels = ("still legends put back", "every legend drawn")
    frame = pd.DataFrame([{"legends": label, **{name: statistics.median(times[label, name]) for name in BUILDERS}}
                          for label in labels])
    still, drawn = frame.iloc[0, 1:].astype(float), frame.iloc[1, 1:].astype(float)
    frame.loc[len(frame)] = ["ratio still / drawn", *(still / drawn)]
    return frame


def report(title: str, experiment: Experiment, target_ms: float, repeat: int, before: Path | None = None) -> None:
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
    print("\nRedraw (Agg draw + PNG) by text canvas, CPU ms (median):\n")
    print(text_canvases(experiment, repeat, before).round(2).to_markdown(index=False))
    print("\nA slider change (core + artists + draw + PNG), CPU ms (median), still legends put back or every legend "
          "drawn, taking turns:\n")
    print(legends_still_or_drawn(experiment, repeat).round(2).to_markdown(index=False))
    if before is not None:
        print(f"\nA slider change (core + artists + draw + PNG), CPU ms (median), now and with {before.name}'s canvas, "
              "taking turns:\n")
        print(changes_before_after(experiment, before, max(repeat, 2)).round(3).to_markdown(index=False))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--repeat", type=int, default=2, help="passes over every slider's values")
    parser.add_argument("--skip-covid", action="store_true", help="only the default simulated collection")
    parser.add_argument("--before", type=Path, default=None,
                        help="an older irnb/views/text_cache.py (git show REV:irnb/views/text_cache.py > FILE): "
                             "its canvas is one more row of the redraw table")
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
    report("Default simulated collection (target ≤ 150 ms per change)", experiment, 150.0, args.repeat, args.before)
    if args.skip_covid:
        return
    start = time.perf_counter()
    covid = trec_covid(args.shared)
    if covid is None:
        print(f"\nTREC-COVID round 1 not found under {args.shared}/data: skipped.")
        return
    print(f"\nTREC-COVID round 1 read in {time.perf_counter() - start:.1f} s.")
    report("TREC-COVID round 1 (target ≤ 500 ms per change; top 30 runs shown)", covid, 500.0, 1, args.before)


if __name__ == "__main__":
    main()
