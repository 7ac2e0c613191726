"""Run time of every reproduction (``irnb.reproduce(id)``) against issue 13's budget of a
minute per id, on the embedded default and, where ../shared has them, on TREC-COVID round 1
and CLEF eHealth 2016 (not a test: times vary with the machine).

First, as a user meets it: ``irnb reproduce ID`` on the default, each id in a fresh process
(start-up, import and building the default collection included). Then every id in one
process, one after the other, with its default options (as README's table); loading the
data is timed apart, and an id may reuse evaluations an earlier one cached on the same
Experiment. An id whose data lacks something (``ReproductionNeeds``) is timed until it says
so. Prints one row per id: seconds on each collection and the slowest as a share of the
60-second budget.

    python benchmarks/bench_reproduce.py [--ids ID ...] [--no-real] [--save]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
BUDGET = 60.0  # seconds per id (issue 13)
RESULTS = Path(__file__).with_name("RESULTS_reproduce.md")


def _collections(real: bool) -> dict:
    """label → (experiment or None for the default, manual runs or None), with load times."""
    from irnb.datasets import default

    out, loads = {}, {}
    start = time.perf_counter()
    default()
    loads["default"] = time.perf_counter() - start
    out["default"] = (None, None)
    if not real:
        return out, loads
    covid = SHARED / "trec-covid-round1"
    if covid.is_dir():
        from irnb.datasets.real import trec_covid_leaderboard, trec_covid_round1

        start = time.perf_counter()
        exp = trec_covid_round1(covid)
        board = trec_covid_leaderboard(covid)
        loads["TREC-COVID round 1"] = time.perf_counter() - start
        out["TREC-COVID round 1"] = (exp, [r for r in exp.run_names if board.loc[r, "runtype"] == "manual"])
    clef = SHARED / "clef-ehealth-2016-irtask2"
    if clef.is_dir():
        from irnb.datasets.real import clef_ehealth_2016_task2

        start = time.perf_counter()
        exp = clef_ehealth_2016_task2(clef)
        loads["CLEF eHealth 2016"] = time.perf_counter() - start
        out["CLEF eHealth 2016"] = (exp, None)
    return out, loads


def time_command(id: str) -> float:
    """Seconds of ``python -m irnb reproduce ID`` (the embedded default) in a fresh process."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "irnb", "reproduce", id], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def time_ids(ids, collections) -> pd.DataFrame:
    """Seconds per id (rows) and collection (columns); a cell ends in `*` when the data
    lacked what the id needs (it stopped with ReproductionNeeds)."""
    import irnb
    from irnb.papers import ReproductionNeeds

    fresh = {id: time_command(id) for id in ids}
    rows = []
    for id in ids:
        row = {"id": id, "irnb reproduce ID (fresh process)": f"{fresh[id]:.2f}"}
        slowest = fresh[id]
        for label, (exp, manual) in collections.items():
            start = time.perf_counter()
            try:
                irnb.reproduce(id, exp, manual=manual, label=None if exp is None else label)
                lacked = False
            except ReproductionNeeds:
                lacked = True
            seconds = time.perf_counter() - start
            slowest = max(slowest, seconds)
            row[label] = f"{seconds:.2f}" + ("*" if lacked else "")
        row["slowest / budget"] = f"{slowest / BUDGET:.3f}"
        rows.append(row)
        print("\t".join(str(v) for v in row.values()), file=sys.stderr, flush=True)
    return pd.DataFrame(rows).set_index("id")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", nargs="+", default=None, help="ids to time (default: every id)")
    parser.add_argument("--no-real", action="store_true", help="only the embedded default")
    parser.add_argument("--save", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    import irnb

    ids = args.ids or irnb.reproduction_ids()
    collections, loads = _collections(not args.no_real)
    table = time_ids(ids, collections)
    text = (f"Seconds per reproduction id with its default options: `irnb reproduce ID` on the default, each in a "
            f"fresh process; then every id in one process, one after the other (load times apart: "
            f"{', '.join(f'{k} {v:.1f} s' for k, v in loads.items())}); `*`: the data lacks "
            f"what the id needs and it stopped saying so. Budget: {BUDGET:.0f} s per id (issue 13).\n\n"
            + table.to_markdown() + "\n")
    print(text)
    if args.save:
        RESULTS.write_text("# Reproduction run times (benchmarks/bench_reproduce.py)\n\n" + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
