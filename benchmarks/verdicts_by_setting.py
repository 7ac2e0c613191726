"""Every reproduction in its paper's simulated setting, on seed 0 and on five held-out seeds.

    python benchmarks/verdicts_by_setting.py [--seeds 0 201 202 203 204 205] [--ids ID ...] [--jobs 2] [--save]

For each id (``irnb.reproduction_ids()``) and seed, ``irnb.reproduce(id, seed=seed)``: the
paper's setting (:func:`irnb.datasets.paper_setting`) simulated on that seed, the reproduction's
own draws seeded the same, and its headline's verdict (agrees, partly, differs, depends on the
reading, n/a; "–" where a reproduction states no headline). Seeds 201–205 are held out: no test
and no tuning of the simulator or of the settings looked at them; seed 0 is the one the
reproductions page shows. Prints one row per id with the verdict on each seed, the held-out
count of "agrees or partly" for the ids the settings were built to show, the cold build time of
every setting on every seed (the budget is 5 s) and the slowest reproduction (the budget is a
minute). ``--save`` writes benchmarks/RESULTS_verdicts.md with the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("RESULTS_verdicts.md")
SEED0 = 0
HELD_OUT = (201, 202, 203, 204, 205)
#: The ids whose headlines the settings and their mechanisms were built to show; the target is
#: "agrees" or "partly" on at least 4 of the 5 held-out seeds for each.
TARGETS = ("baillie2007-table1", "baillie2008-fig11", "baillie2008-fig12", "buttcher2007-table2",
           "buttcher2007-table3", "buttcher2007-table5")
SHOWN = ("agrees", "partly")
BUILD_BUDGET = 5.0
RUN_BUDGET = 60.0


def _build_times(seed: int) -> dict[str, float]:
    """Cold build time of every paper's setting on ``seed`` (a fresh process: nothing cached)."""
    from irnb.datasets.settings import SETTINGS, paper_setting

    out = {}
    for paper in SETTINGS:
        start = time.perf_counter()
        paper_setting(paper, seed=seed)
        out[paper] = time.perf_counter() - start
    return out


def _verdicts(seed: int, ids: list[str]) -> list[dict]:
    """Every id on one seed, in one process (the setting is built once per paper and reused)."""
    import irnb

    rows = []
    for id in ids:
        start = time.perf_counter()
        try:
            rep = irnb.reproduce(id, seed=seed)
            verdict = rep.headline.verdict if rep.headline is not None else "–"
        except irnb.papers.ReproductionNeeds as err:
            verdict = f"needs: {err}"
        rows.append({"id": id, "seed": seed, "verdict": verdict, "seconds": time.perf_counter() - start})
    return rows


def _machine() -> str:
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical cores, {platform.system()}, Python {platform.python_version()}"


def _load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run(seeds, ids, jobs: int):
    """(verdict table id × seed, seconds table id × seed, build seconds paper × seed)."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        builds = dict(zip(seeds, pool.map(_build_times, seeds), strict=True))
        found = [row for rows in pool.map(_verdicts, seeds, [ids] * len(seeds)) for row in rows]
    frame = pd.DataFrame(found)
    verdicts = frame.pivot(index="id", columns="seed", values="verdict").loc[ids, list(seeds)]
    seconds = frame.pivot(index="id", columns="seed", values="seconds").loc[ids, list(seeds)]
    return verdicts, seconds, pd.DataFrame(builds)


def held_out_counts(verdicts: pd.DataFrame, held_out=HELD_OUT) -> pd.Series:
    """Per id, on how many held-out seeds the verdict is "agrees" or "partly"."""
    columns = [s for s in held_out if s in verdicts.columns]
    return verdicts[columns].isin(SHOWN).sum(axis=1)


def render(verdicts, seconds, builds, *, seeds, started: str, load_before: str, load_after: str) -> str:
    held = [s for s in seeds if s in HELD_OUT]
    counts = held_out_counts(verdicts)
    table = verdicts.copy()
    table.columns = [f"seed {s}" + (" (held out)" if s in HELD_OUT else "") for s in table.columns]
    if held:
        table[f"agrees or partly, held out (of {len(held)})"] = counts
    lines = [
        "# Verdicts in each paper's simulated setting",
        "",
        f"Written by `python benchmarks/verdicts_by_setting.py --save` on {started} (commit {_commit()}); "
        f"machine: {_machine()}; load average (1/5/15 min) {load_before} before, {load_after} after.",
        "",
        "Each cell is the verdict of `irnb.reproduce(id, seed=seed)`: the paper's setting simulated on that "
        "seed. Seeds 201–205 are held out: no test and no tuning looked at them.",
        "",
        table.to_markdown(),
        "",
    ]
    if held:
        met = [id for id in TARGETS if id in counts.index and counts[id] >= 4]
        lines += [f"Targets (agrees or partly on at least 4 of {len(held)} held-out seeds): "
                  f"{len(met)} of {len([i for i in TARGETS if i in counts.index])} met"
                  + (f" ({', '.join(met)})" if met else "") + ".", ""]
    slow = seconds.stack()
    lines += [f"Slowest reproduction: {slow.idxmax()[0]} on seed {slow.idxmax()[1]}, {slow.max():.1f} s "
              f"(budget {RUN_BUDGET:.0f} s). Cold build of each setting, seconds (budget {BUILD_BUDGET:.0f} s):", "",
              builds.round(2).to_markdown(), ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", nargs="+", type=int, default=[SEED0, *HELD_OUT])
    parser.add_argument("--ids", nargs="+", default=None)
    parser.add_argument("--jobs", type=int, default=2, help="processes (one seed each at a time)")
    parser.add_argument("--save", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    import irnb

    ids = args.ids or irnb.reproduction_ids()
    started, load_before = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), _load()
    verdicts, seconds, builds = run(args.seeds, ids, args.jobs)
    text = render(verdicts, seconds, builds, seeds=args.seeds, started=started, load_before=load_before,
                  load_after=_load())
    print(text)
    if args.save:
        RESULTS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
