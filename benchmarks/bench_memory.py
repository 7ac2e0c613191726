"""Peak memory per run line: read runs + qrels, build the Experiment, evaluate.

Each size runs in a fresh child process that reports its resident set (RSS) after the imports
and its high-water mark (Linux ``VmHWM``, reset between stages through
``/proc/self/clear_refs``) after each stage, so that the figures are the whole process's —
Arrow buffers, numpy arrays and Python objects alike — not one allocator's view:

* **build peak**: the largest RSS while reading the files and building the Experiment,
  above the RSS after the imports;
* **evaluate transient**: the largest RSS during ``evaluate`` above the RSS just before it;
* **peak**: the whole process's largest RSS above the RSS after the imports, per run line.

The collection is ``benchmarks/_data.py``'s synthetic one (8-character docnos like
TREC-COVID's, 50 topics × 1,000 documents per run, 500 judgments per topic), with the number
of runs set by the size: 20 runs = 10⁶ lines, 200 runs = 10⁷, 2,000 runs = 10⁸ (0.4 GB of
files per 10⁷ lines; generated once into the temp folder and reused). The target (issue 20):
at most 40 bytes per line at every size — a flat per-line figure means the 10⁸ scale needs
about 10⁸ × that.

    python benchmarks/bench_memory.py                    # 10⁶, 3·10⁶ and 10⁷ lines
    python benchmarks/bench_memory.py --runs 20,200,2000 # up to 10⁸ lines (≈ 4 GB of files, RAM!)
    python benchmarks/bench_memory.py --save             # also write RESULTS_memory.md
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MEASURES = ["P@10", "AP", "nDCG@10", "Bpref", "Judged@10"]


def _status(field: str) -> int:
    """A ``/proc/self/status`` memory field in bytes (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status (Linux only)")


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS


def child(run_dir: str, qrels: str) -> dict:
    """Runs in a fresh process: the stages and their memory figures."""
    import gc

    import irnb
    from irnb.metrics import evaluate

    paths = sorted(str(p) for p in Path(run_dir).iterdir())
    gc.collect()
    base = _status("VmRSS")
    _reset_peak()
    experiment = irnb.Experiment(paths, qrels)
    gc.collect()
    build_peak = _status("VmHWM")
    held = _status("VmRSS")
    _reset_peak()
    start = time.perf_counter()
    result = evaluate(experiment, MEASURES)
    seconds = time.perf_counter() - start
    eval_peak = _status("VmHWM")
    lines = int(sum(run.num_lines for run in experiment.runs.values()))
    return {"lines": lines, "runs": len(paths), "base": base, "build_peak": build_peak - base,
            "held": held - base, "eval_transient": eval_peak - held,
            "peak": max(build_peak, eval_peak) - base, "evaluate_s": seconds,
            "check": float(result.aggregate("AP").mean())}


def measure(n_runs: int, root: Path) -> dict:
    import _data

    spec = _data.SyntheticSpec(n_runs=n_runs, n_topics=50, depth=1000)
    data = _data.ensure_generated(spec, root / f"mem_{n_runs}")
    out = subprocess.run([sys.executable, __file__, "--child", str(data.run_dir), str(data.qrels_path)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(rows: list[dict]) -> str:
    """A Markdown table; "marginal" is the peak's growth per added line since the previous
    size (the fixed cost of imports, thread pools and allocator arenas drops out)."""
    lines = ["| run lines | runs | build peak (B/line) | held after build (B/line) | evaluate transient (B/line) "
             "| evaluate (s) | process peak (MB) | peak (B/line) | marginal (B/line) |",
             "|---|---|---|---|---|---|---|---|---|"]
    previous = None
    for r in rows:
        n = r["lines"]
        marginal = "" if previous is None else f"{(r['peak'] - previous['peak']) / (n - previous['lines']):.1f}"
        lines.append(f"| {n:,} | {r['runs']} | {r['build_peak'] / n:.1f} | {r['held'] / n:.1f} | "
                     f"{r['eval_transient'] / n:.1f} | {r['evaluate_s']:.2f} | {r['peak'] / 2**20:,.0f} | "
                     f"{r['peak'] / n:.1f} | {marginal} |")
        previous = r
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", default="20,60,200", help="comma-separated run counts (×50,000 lines each)")
    parser.add_argument("--dir", default=None, help="where to generate the files (default: the temp folder)")
    parser.add_argument("--save", action="store_true", help="write benchmarks/RESULTS_memory.md")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    root = Path(args.dir or os.environ.get("IRNB_BENCH_DIR", tempfile.gettempdir())) / "irnb-bench-memory"
    rows = []
    for n_runs in (int(x) for x in args.runs.split(",")):
        print(f"{n_runs} runs …", file=sys.stderr, flush=True)
        rows.append(measure(n_runs, root))
    text = report(rows)
    print(text)
    if args.save:
        (HERE / "RESULTS_memory.md").write_text(
            "# Peak memory per run line (`python benchmarks/bench_memory.py --save`)\n\n"
            f"Measures: {', '.join(MEASURES)}; 50 topics × 1,000 documents per run; 8-character docnos. "
            "Process RSS (Linux VmHWM), above the RSS after the imports.\n\n"
            + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
