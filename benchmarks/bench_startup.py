"""Start-up benchmark: how long ``irnb trec_eval`` takes on a one-topic run, against
``python -c "import numpy"`` (the yardstick: issue 14 asks for at most 4×) and against the
real trec_eval 10.0 binary; ``irnb --help`` and ``irnb evaluate`` beside them.

Run by hand (not by the tests), from the repository root::

    python benchmarks/bench_startup.py                  # 15 runs of each command
    python benchmarks/bench_startup.py --runs 30 --trec-eval /path/to/trec_eval

Every command is a fresh process (what a Makefile calling trec_eval per run pays), timed
from outside with a monotonic clock, the commands taking turns (A B C … A B C …) so that a
drift in the machine's speed hits them alike; the table gives each command's median wall
time and its ratio to the yardstick's median. The trec_eval binary is built with make from
``../shared/reference/trec_eval-10.0.tar.gz`` in a temporary folder unless ``--trec-eval``
names one (its row is left out when neither is possible).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARBALL = REPO.parent / "shared" / "reference" / "trec_eval-10.0.tar.gz"

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n"
RUN = "1 Q0 d1 1 3.0 bench\n1 Q0 d4 2 2.0 bench\n1 Q0 d3 3 1.0 bench\n"


def build_trec_eval(where: Path) -> Path | None:
    """trec_eval 10.0 built from the shared tarball, or None (no tarball, no make or cc)."""
    if not TARBALL.exists() or shutil.which("make") is None or shutil.which("cc") is None:
        return None
    with tarfile.open(TARBALL) as tar:
        tar.extractall(where, filter="data")
    (src,) = [p for p in where.iterdir() if p.is_dir()]
    done = subprocess.run(["make", "-s"], cwd=src, capture_output=True)
    return src / "trec_eval" if done.returncode == 0 else None


def time_commands(commands: dict[str, list[str]], runs: int, env: dict) -> dict[str, list[float]]:
    """Wall seconds of each command, ``runs`` times, the commands taking turns (one
    untimed warm-up round first)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, command in commands.items():
            start = time.perf_counter()
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=REPO)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                raise RuntimeError(f"{name}: exit status {done.returncode}: {done.stderr.decode()[-500:]}")
            if round_:
                times[name].append(elapsed)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command (default 15)")
    parser.add_argument("--trec-eval", default=None, help="a trec_eval binary (default: build 10.0 from ../shared)")
    args = parser.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        qrels, run = tmp / "qrels.txt", tmp / "run.txt"
        qrels.write_text(QRELS)
        run.write_text(RUN)
        binary = Path(args.trec_eval) if args.trec_eval else build_trec_eval(tmp / "build")
        py = sys.executable
        commands = {
            'python -c "import numpy"': [py, "-c", "import numpy"],
            "irnb trec_eval (one topic)": [py, "-m", "irnb", "trec_eval", str(qrels), str(run)],
            "irnb trec_eval -m all_trec -q": [py, "-m", "irnb", "trec_eval", "-m", "all_trec", "-q", str(qrels),
                                              str(run)],
            "irnb --help": [py, "-m", "irnb", "--help"],
            "irnb evaluate (one topic)": [py, "-m", "irnb", "evaluate", str(qrels), str(run)],
        }
        if binary is not None:
            commands["trec_eval 10.0 (C binary)"] = [str(binary), str(qrels), str(run)]
        times = time_commands(commands, args.runs, env)
    medians = {name: statistics.median(t) for name, t in times.items()}
    yardstick = medians['python -c "import numpy"']
    binary_median = medians.get("trec_eval 10.0 (C binary)")
    print(f"{args.runs} runs each, medians; Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print("| command | median (ms) | ÷ import numpy | ÷ trec_eval binary |")
    print("|---|---:|---:|---:|")
    for name, median in medians.items():
        vs_binary = f"{median / binary_median:.1f}" if binary_median else "–"
        print(f"| {name} | {median * 1000:.0f} | {median / yardstick:.2f} | {vs_binary} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
