"""Scale: input shapes, many runs, all pairs, and sweeps, each as a ratio against its peer
measured in the same run (not a test; tests/test_bench_smoke.py smoke-runs it).

1. Shape families. Read runs + qrels, build the Experiment, evaluate P@10, AP, nDCG@10 and
   bpref, against pytrec_eval (the same files parsed into its dicts in Python, then
   evaluated; each run parsed, evaluated and dropped in turn). One family per axis, the
   other axes at a base shape of 5 runs × 1,000 topics × 200 documents, 100 graded
   judgments per topic, docnos distinct across topics: docnos shared by the topics (one
   collection) or distinct; 10, 100 or 500 judgments per topic; binary or graded; 20, 200
   or 1,000 documents per topic; 1, 20 or 200 runs; 50, 5,000 or 100,000 topics (the
   largest values with the other axes lowered, see ``_SHRINK``). Every shape is generated
   from a seed (``_data.generate_shape``, once per machine, into the temp folder). Each tool
   runs in a fresh process (imports untimed), ``--repeats`` pairs taking turns (five times as
   many for shapes under ``_FEW_LINES`` run lines); the table
   gives medians of CPU (every thread) and wall seconds, the medians of the paired ratios
   (targets: CPU ≤ 1/3, wall ≤ 1/4), how many rounds met each target by their own paired
   ratio (how firm a verdict is), and irnb's peak resident memory above the imports per
   run line (Linux VmHWM, as benchmarks/bench_memory.py measures it). ``--msmarco`` adds
   the MS MARCO-scale case (10 runs × 6,980 topics × 1,000 documents, docnos distinct, one
   binary judgment per topic; 70 M run lines, about 2.4 GB of files, one pair: targets
   CPU ≤ 1/3 and ≤ 40 bytes per line). Then the parse rate on TREC-COVID round 1's runs
   (target ≥ 2 M lines/s; needs ../shared).
2. All pairs. Wilcoxon on scores rounded to one and two decimals (ties and zero
   differences, as real P@10 and AP scores have) for 100, 300 and 1,000 runs × 50 topics,
   against ``scipy.stats.wilcoxon(x, y, axis=1)`` over the same pairs (target ≤ 1/2,
   identical p-values); the t-test against a vectorised numpy baseline (differences, mean,
   sd, Student's t; target ≤ 1/2); the decision matrix (every pair, a measure and its
   assessment measure, t-test and ANOVA + Bonferroni: "a few seconds").
3. Tukey HSD over the 143 TREC-COVID round-1 runs (P@10, 30 topics) against statsmodels'
   ``pairwise_tukeyhsd`` (target ≤ 1/20, p-values within 1e-4). Needs ../shared; with
   ``--quick`` 40 simulated runs instead (statsmodels needs minutes for 143 runs).
4. Sweeps: leave-one-group-out (9 measures) and the subsampling curves on the default
   collection, serially and with ``n_jobs=2`` (loky's workers started once, before): both
   too short to ship, so ``n_jobs=2`` runs them here (irnb.sweep's rule); then a sweep long
   enough for workers to pay (subsampling curves on TREC-COVID round 1, 60 tasks; needs
   ../shared).
5. The bias view's curve (leave-one-group-out at 5 pool depths), re-evaluating every topic
   against reusing the topics a group's removal leaves untouched.

    python benchmarks/bench_scale.py [--quick] [--repeats 3] [--msmarco] [--save] [--shared ../shared]
                                     [--skip shapes,parse,pairs,tukey,sweeps,bias]
                                     [--baseline CHECKOUT] [--families runs=200,topics]

``--baseline`` runs a checkout of older code (``git worktree add --detach /tmp/before <commit>``)
in the same rounds as the current code and pytrec_eval, and adds its ratios to the table, so a
change is judged against the code before it under the same load; ``--families`` runs only
some families.

The machine (cores, CPU model) and its load averages are printed first and last (``--save``
writes the output to benchmarks/RESULTS_scale.md): on a shared machine wall times move with
the load, CPU times less, and a fresh process's CPU time includes the kernel's time for its
page faults.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import irnb  # noqa: E402
from irnb import stats  # noqa: E402
from irnb.decision import decide  # noqa: E402

MEASURES = ["P@10", "AP", "nDCG@10", "Bpref"]
# The shape families' targets: irnb's share of pytrec_eval's CPU and wall time, read to result.
CPU_TARGET, WALL_TARGET = 1 / 3, 1 / 4
TREC_MEASURES = {"P_10", "map", "ndcg_cut_10", "bpref"}


def _cpu(fn):
    """(result, CPU seconds of this process, wall seconds)."""
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def _best(fns, repeats: int) -> list[tuple]:
    """:func:`_cpu` of each function, the smallest CPU (and wall) time of ``repeats`` rounds;
    the functions take turns within a round, so load that comes and goes hits them alike."""
    best = [None] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            out, cpu, wall = _cpu(fn)
            if best[i] is None:
                best[i] = (out, cpu, wall)
            else:
                best[i] = (out, min(cpu, best[i][1]), min(wall, best[i][2]))
    return best


def _ratio(name: str, ours: float, peer: float, target: float | None) -> str:
    ratio = ours / peer if peer > 0 else float("nan")
    verdict = "" if target is None else (" meets" if ratio <= target else " MISSES") + f" target ≤ {target:g}"
    return f"  {name}: irnb {ours:.3f} s, peer {peer:.3f} s, ratio {ratio:.3f}{verdict}"


# ----------------------------------------------------------------------------- 1. shape families
def _parse_trec(path, number):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if cols:
                out.setdefault(cols[0], {})[cols[2]] = number(cols[-2] if number is float else cols[3])
    return out


# The base shape and, per axis, the values the family takes (the other axes at the base).
BASE = dict(n_runs=5, n_topics=1_000, depth=200, judgments_per_topic=100, graded=True, distinct_docnos=True)
FAMILIES = [
    ("docnos", "distinct_docnos", [False, True]),
    ("judgments / topic", "judgments_per_topic", [10, 100, 500]),
    ("grades", "graded", [False, True]),
    ("documents / topic", "depth", [20, 200, 1_000]),
    ("runs", "n_runs", [1, 20, 200]),
    ("topics", "n_topics", [50, 5_000, 100_000]),
]
# Values that would make a case slow: the other axes are lowered there, keeping the run lines
# near a million (the axis's own value is never changed).
_SHRINK = {("n_runs", 200): dict(n_topics=50, depth=100), ("n_topics", 100_000): dict(n_runs=1, depth=20),
           ("depth", 1_000): dict(n_topics=200), ("judgments_per_topic", 500): dict(n_topics=500)}
# Shapes this small take a few tens of milliseconds, where a shared machine's noise moves a
# single pair's ratio most: they get more pairs (each costs a process start, not a parse).
_FEW_LINES = 200_000
_SMALL_REPEATS = 5
MSMARCO = dict(n_runs=10, n_topics=6_980, depth=1_000, judgments_per_topic=1, graded=False, distinct_docnos=True)


def family_specs(quick: bool) -> list[tuple[str, str, dict]]:
    """(family, value label, ShapeSpec fields) of every case, the base case once per family."""
    cases = []
    for family, axis, values in FAMILIES:
        for value in values:
            fields = dict(BASE, **_SHRINK.get((axis, value), {}), **{axis: value})
            if quick:  # a smoke run: tiny sizes, the same shapes
                fields.update(n_runs=min(fields["n_runs"], 2), n_topics=min(fields["n_topics"], 50),
                              depth=min(fields["depth"], 50),
                              judgments_per_topic=min(fields["judgments_per_topic"], 20))
            if isinstance(value, bool):
                label = ("distinct" if value else "shared") if axis == "distinct_docnos" else \
                    ("graded" if value else "binary")
            else:
                label = f"{value:,}"
            if not (quick and any(fields == seen for _, _, seen in cases)):
                cases.append((family, label, fields))
    return cases


def child(tool: str, data_dir: str) -> dict:
    """Runs in a fresh process: read the runs and qrels, evaluate P@10, AP, nDCG@10 and bpref;
    CPU (every thread), wall, the peak resident set above the one after the imports, and the
    first run's MAP (a check that both tools computed the same thing)."""
    import bench_memory

    root = Path(data_dir)
    run_files = sorted((root / "runs").glob("*.txt"))
    if tool == "irnb":
        irnb.read_runs, irnb.read_qrels, irnb.Experiment, irnb.evaluate  # noqa: B018  (imports, untimed)
    else:
        import pytrec_eval
    base = bench_memory._status("VmRSS")
    bench_memory._reset_peak()
    cpu, wall = time.process_time(), time.perf_counter()
    if tool == "irnb":
        ev = irnb.evaluate(irnb.Experiment(irnb.read_runs(run_files), irnb.read_qrels(root / "qrels.txt")), MEASURES)
        check = float(np.nanmean(np.where(ev.evaluated[0], ev["AP"][0], np.nan)))
    else:  # each run parsed, evaluated and dropped in turn: pytrec_eval's smallest footprint
        qrels = _parse_trec(root / "qrels.txt", int)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES)
        check = None
        for path in run_files:
            result = evaluator.evaluate(_parse_trec(path, float))
            if check is None:
                check = float(np.mean([v["map"] for v in result.values()]))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu": cpu, "wall": wall, "peak": bench_memory._status("VmHWM") - base, "check": check,
            "module": str(Path(irnb.__file__).resolve().parent)}


def _in_child(tool: str, data_dir: Path, code: Path | None = None) -> dict:
    """``child(tool, data_dir)`` in a fresh process; with ``code`` (a checkout of irnb's
    repository), that checkout's irnb is imported (first on ``PYTHONPATH``), and the child's
    answer is checked to come from it."""
    env = None
    if code is not None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, __file__, "--child", tool, str(data_dir)], capture_output=True, text=True,
                         env=env)
    if out.returncode:
        raise RuntimeError(f"{tool} on {data_dir} failed:\n{out.stderr[-2000:]}")
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    if code is not None and Path(answer["module"]) != (Path(code) / "irnb").resolve():
        raise RuntimeError(f"the baseline child imported irnb from {answer['module']}, not from {code}")
    return answer


def _read_through(root: Path) -> None:
    """Read every file under ``root`` once, so that every tool's child finds them in the page
    cache: files written long ago may have left it (the kernel reclaims cold pages), and the
    first child of a round would otherwise pay the disk for all (with one round, always
    the same tool)."""
    for path in sorted(root.rglob("*")):
        if path.is_file():
            with open(path, "rb") as handle:
                while handle.read(1 << 24):
                    pass


def measure_shape(fields: dict, repeats: int, *, peer: bool = True, baseline: Path | None = None) -> dict:
    """irnb and pytrec_eval on one shape, each in a fresh process, ``repeats`` rounds taking
    turns (the order reversed in odd rounds): medians of CPU, wall and their paired ratios;
    bytes per run line at irnb's peak. With ``baseline`` (a checkout of older irnb code), that
    code runs in every round too, and its ratios to pytrec_eval's in the same round are given
    beside the current code's (``base_*``)."""
    import _data

    spec = _data.ShapeSpec(**fields)
    data = _data.ensure_shape(spec)
    _read_through(data.root)
    tools = ["irnb"] + (["baseline"] if baseline is not None else []) + (["pytrec_eval"] if peer else [])
    got: dict[str, list[dict]] = {tool: [] for tool in tools}
    for r in range(repeats):
        for tool in tools if r % 2 == 0 else tools[::-1]:
            if tool == "baseline":
                got[tool].append(_in_child("irnb", data.root, baseline))
            else:
                got[tool].append(_in_child(tool, data.root))
    med = statistics.median
    ours, theirs = got["irnb"], got.get("pytrec_eval", [])
    row = {"lines": spec.num_lines, "irnb_cpu": med(x["cpu"] for x in ours), "irnb_wall": med(x["wall"] for x in ours),
           "bytes_per_line": med(x["peak"] for x in ours) / spec.num_lines, "irnb_check": ours[0]["check"]}
    if peer:
        cpu_ratios = [a["cpu"] / b["cpu"] for a, b in zip(ours, theirs, strict=True)]
        wall_ratios = [a["wall"] / b["wall"] for a, b in zip(ours, theirs, strict=True)]
        row.update(peer_cpu=med(x["cpu"] for x in theirs), peer_wall=med(x["wall"] for x in theirs),
                   cpu_ratio=med(cpu_ratios), wall_ratio=med(wall_ratios), rounds=repeats,
                   cpu_rounds_met=sum(r <= CPU_TARGET for r in cpu_ratios),
                   wall_rounds_met=sum(r <= WALL_TARGET for r in wall_ratios),
                   peer_check=theirs[0]["check"])
    if baseline is not None:
        old = got["baseline"]
        row.update(base_cpu=med(x["cpu"] for x in old), base_wall=med(x["wall"] for x in old),
                   base_bytes_per_line=med(x["peak"] for x in old) / spec.num_lines,
                   new_over_old_cpu=med(a["cpu"] / b["cpu"] for a, b in zip(ours, old, strict=True)),
                   base_check=old[0]["check"])
        if peer:
            row.update(base_cpu_ratio=med(a["cpu"] / b["cpu"] for a, b in zip(old, theirs, strict=True)),
                       base_wall_ratio=med(a["wall"] / b["wall"] for a, b in zip(old, theirs, strict=True)))
    return row


def _shape_text(fields: dict) -> str:
    return (f"{fields['n_runs']} × {fields['n_topics']:,} × {fields['depth']:,}, {fields['judgments_per_topic']} "
            f"{'graded' if fields['graded'] else 'binary'} judgments/topic, "
            f"{'distinct' if fields['distinct_docnos'] else 'shared'} docnos")


def families(quick: bool, repeats: int, msmarco: bool, baseline: Path | None = None,
             only: set[str] | None = None) -> list[str]:
    """Every shape family (and, with ``msmarco``, the MS MARCO-scale case) as a Markdown table;
    with ``baseline`` (a checkout of older irnb code) that code's ratios beside the current
    ones, measured in the same rounds; ``only`` keeps the families named (``runs=200`` or
    ``runs``)."""
    try:
        import pytrec_eval  # noqa: F401
    except ImportError:
        return ["  pytrec_eval not installed (pip install -e '.[bench]')"]
    old = baseline is not None
    lines = ["Read + Experiment + evaluate (P@10, AP, nDCG@10, bpref) against pytrec_eval (its files parsed "
             "in Python, then evaluated), each tool in a fresh process (the input files read once before "
             "the rounds, so that every child finds them in the page cache), medians of "
             f"{repeats} interleaved rounds ({repeats * _SMALL_REPEATS} under {_FEW_LINES:,} run lines); "
             "ratios are medians of the paired ratios (targets: CPU ≤ 1/3, wall ≤ 1/4), and the rounds "
             "within target count the rounds whose own paired ratio meets it (how firm the verdict is: a "
             "median near its target is met in about half the rounds); "
             "bytes per run line at irnb's peak RSS above the imports."
             + (f" Before: the code at {_describe_checkout(baseline)}, run in the same rounds." if old else ""),
             "",
             "| family | value | shape (runs × topics × docs) | lines | irnb CPU ms | peer CPU ms | CPU ratio | "
             "irnb wall ms | peer wall ms | wall ratio | rounds within target (CPU, wall) | B/line | "
             "MAP run 1 irnb / peer |"
             + (" CPU ratio before | wall ratio before | B/line before | CPU now / before |" if old else ""),
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|---|" if old else "")]
    rows = []
    cases = family_specs(quick) + ([("MS MARCO scale", "10 runs", MSMARCO)] if msmarco else [])
    if only:
        cases = [case for case in cases if case[0] in only or f"{case[0]}={case[1]}" in only]
    for family, label, fields in cases:
        reps = 1 if family == "MS MARCO scale" else repeats
        if not quick and fields["n_runs"] * fields["n_topics"] * fields["depth"] < _FEW_LINES:
            reps *= _SMALL_REPEATS
        row = measure_shape(fields, reps, baseline=baseline)
        rows.append((family, label, row))
        lines.append(f"| {family} | {label} | {_shape_text(fields)} | {row['lines']:,} | {_ms(row['irnb_cpu'])} | "
                     f"{_ms(row['peer_cpu'])} | {row['cpu_ratio']:.3f} | {_ms(row['irnb_wall'])} | "
                     f"{_ms(row['peer_wall'])} | {row['wall_ratio']:.3f} | {_rounds_met(row)} | "
                     f"{row['bytes_per_line']:.1f} | "
                     f"{row['irnb_check']:.6f} / {row['peer_check']:.6f} |"
                     + (f" {row['base_cpu_ratio']:.3f} | {row['base_wall_ratio']:.3f} | "
                        f"{row['base_bytes_per_line']:.1f} | {row['new_over_old_cpu']:.3f} |" if old else ""))
        print(lines[-1], flush=True)
    family_rows = [r for r in rows if r[0] != "MS MARCO scale"]
    if family_rows:
        worst_cpu = max(family_rows, key=lambda r: r[2]["cpu_ratio"])
        worst_wall = max(family_rows, key=lambda r: r[2]["wall_ratio"])
        lines += ["",
                  f"Worst CPU ratio: {worst_cpu[2]['cpu_ratio']:.3f} ({worst_cpu[0]} = {worst_cpu[1]}; "
                  f"{'meets' if worst_cpu[2]['cpu_ratio'] <= CPU_TARGET else 'MISSES'} ≤ 1/3; within it in "
                  f"{worst_cpu[2]['cpu_rounds_met']} of {worst_cpu[2]['rounds']} rounds). "
                  f"Worst wall ratio: {worst_wall[2]['wall_ratio']:.3f} ({worst_wall[0]} = {worst_wall[1]}; "
                  f"{'meets' if worst_wall[2]['wall_ratio'] <= WALL_TARGET else 'MISSES'} ≤ 1/4; within it in "
                  f"{worst_wall[2]['wall_rounds_met']} of {worst_wall[2]['rounds']} rounds)."]
        if old:
            before_cpu = max(family_rows, key=lambda r: r[2]["base_cpu_ratio"])
            lines.append(f"Before (same rounds): worst CPU ratio {before_cpu[2]['base_cpu_ratio']:.3f} "
                         f"({before_cpu[0]} = {before_cpu[1]}).")
    for family, _, row in rows:
        if family == "MS MARCO scale":
            lines.append(f"MS MARCO scale ({_shape_text(MSMARCO)}): CPU ratio {row['cpu_ratio']:.3f}, wall ratio "
                         f"{row['wall_ratio']:.3f} (target ≤ 1/3), {row['bytes_per_line']:.1f} bytes per run line at "
                         f"irnb's peak (target ≤ 40).")
    return lines


def _ms(seconds: float) -> str:
    """A time in milliseconds, to three significant figures or to the millisecond (the
    smallest families take tens of milliseconds: in seconds, their times would hide the
    ratios computed from them).

    >>> _ms(0.01934), _ms(0.2051), _ms(14.6284)
    ('19.3', '205', '14,628')
    """
    ms = seconds * 1e3
    return f"{ms:.3g}" if ms < 100 else f"{ms:,.0f}"


def _rounds_met(row: dict) -> str:
    """How many of a family's rounds met each target, by their own paired ratio."""
    return f"{row['cpu_rounds_met']}, {row['wall_rounds_met']} of {row['rounds']}"


def _describe_checkout(code: Path) -> str:
    """The commit a checkout is at (its short hash), or its path when git cannot tell."""
    out = subprocess.run(["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return f"commit {out.stdout.strip()}" if out.returncode == 0 else str(code)


def parse_rate(quick: bool, shared: Path) -> list[str]:
    """Run lines read per second from TREC-COVID round 1's 143 runs (the xz archive, its
    decompression included), wall and per CPU-second, best of 3. Target: 2 M lines/s."""
    archive = shared / "data" / "trec-covid-round1" / "runs-round1.tar.xz"
    if quick or not archive.is_file():
        return [f"  TREC-COVID runs not found at {archive} (or --quick): skipped"]
    import lzma
    import tarfile
    import tempfile

    irnb.read_runs  # noqa: B018  (import outside the timing)
    def decompress():
        with lzma.open(archive) as stream:
            return stream.read()

    _, xz_cpu, _ = _cpu(decompress)
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        for label, source in (("the xz archive (its decompression included)", archive),
                              ("the same files decompressed", Path(folder))):
            (runs, cpu, wall), = _best([lambda source=source: irnb.read_runs(source)], 3)
            n = sum(run.num_lines for run in runs.values())
            verdict = "meets" if n / wall >= 2e6 else "MISSES"
            lines.append(f"  TREC-COVID round 1 from {label}, {len(runs)} runs, {n:,} lines: "
                         f"{n / wall / 1e6:.2f} M lines/s wall ({wall:.2f} s), {n / cpu / 1e6:.2f} M lines per "
                         f"CPU-second; {verdict} target ≥ 2 M lines/s (wall)")
    lines.append(f"    (xz decompression alone: {xz_cpu:.2f} CPU-s, a ceiling of {n / xz_cpu / 1e6:.2f} M lines/s "
                 "on one core)")
    return lines


# ----------------------------------------------------------------------------- 2. all pairs
def all_pairs(quick: bool) -> list[str]:
    from scipy import special
    from scipy import stats as sps

    lines = []
    # Wilcoxon on scores with ties and zero differences (real P@10 and AP scores have them):
    # P@10-like (one decimal) and AP-like (two decimals) scores, 100 to 1,000 runs
    sizes = [(100, 50), (300, 50), (1000, 50)] if not quick else [(60, 50)]
    for S, T in sizes:
        for decimals in (1, 2):
            rng = np.random.default_rng(0)
            V = np.round(rng.beta(2, 5, size=(S, T)), decimals)
            a, b = np.triu_indices(S, 1)
            names = [f"r{i}" for i in range(S)]

            def scipy_wilcoxon(V=V, a=a, b=b):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return sps.wilcoxon(V[a], V[b], axis=1)

            (res, ours, _), (ref, peer, _) = _best([lambda V=V, names=names: stats.wilcoxon_test(V, run_names=names),
                                                    scipy_wilcoxon], 1 if quick or S >= 1000 else 3)
            same = np.array_equal(np.isnan(res.p_value), np.isnan(ref.pvalue)) and \
                np.nanmax(np.abs(res.p_value - ref.pvalue)) == 0.0
            d = V[a] - V[b]
            lines.append(_ratio(f"Wilcoxon, {S} runs × {T} topics, scores to {decimals} decimal(s) ({a.size:,} pairs, "
                                f"{(d == 0).any(axis=1).mean():.0%} with zero differences) vs "
                                f"scipy.stats.wilcoxon(axis=1) (identical p-values: {same})", ours, peer, 0.5))

    S, T = (1000, 50) if not quick else (60, 50)
    rng = np.random.default_rng(0)
    P = np.round(rng.beta(2, 5, size=(S, T)) * 10) / 10  # P@10-like: ties and zero differences
    A = np.round(rng.beta(5, 2, size=(S, T)) * 10) / 10
    a, b = np.triu_indices(S, 1)
    names = [f"r{i}" for i in range(S)]
    lines.append(f"  {S} runs × {T} topics = {a.size:,} pairs")
    res, ours, _ = _cpu(lambda: stats.t_test(P, run_names=names))

    def numpy_t():
        d = P[a] - P[b]
        n = d.shape[1]
        t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / np.sqrt(n))
        return 2.0 * special.stdtr(n - 1, -np.abs(t))

    ref_p, peer, _ = _cpu(numpy_t)
    ok = np.isfinite(ref_p)
    gap = float(np.max(np.abs(res.p_value[ok] - ref_p[ok])))
    lines.append(_ratio(f"t-test vs vectorised numpy (max |Δp| {gap:.1e})", ours, peer, 0.5))

    for test in ("t", "anova"):
        def matrix():
            m = stats.pairwise_test(P, "P@10", test=test, run_names=names)
            j = stats.pairwise_test(A, "Judged@10", test=test, run_names=names)
            return decide(m, j)

        table, cpu, wall = _cpu(matrix)
        lines.append(f"  decision matrix ({test}): {len(table):,} pairs in {wall:.2f} s wall ({cpu:.2f} CPU-s)")
    return lines


# ----------------------------------------------------------------------------- 3. Tukey
def tukey(quick: bool, shared: Path) -> list[str]:
    try:
        from statsmodels.stats.multicomp import pairwise_tukeyhsd
    except ImportError:
        return ["  statsmodels not installed (pip install -e '.[bench]')"]
    covid = shared / "data" / "trec-covid-round1"
    if quick or not covid.is_dir():
        from irnb.datasets import default

        ev = irnb.evaluate(default().experiment, ["P@10"])
        label = f"default collection, {len(ev.run_names)} runs"
    else:
        from irnb.datasets.real import trec_covid_round1

        ev = irnb.evaluate(trec_covid_round1(covid), ["P@10"])
        label = f"TREC-COVID round 1, {len(ev.run_names)} runs"
    V = np.where(ev.evaluated, ev["P@10"], np.nan)
    res, ours, _ = _cpu(lambda: stats.tukey_hsd(V))
    values, groups = V.ravel(), np.repeat(np.arange(V.shape[0]), V.shape[1])
    keep = ~np.isnan(values)
    ref, peer, _ = _cpu(lambda: pairwise_tukeyhsd(values[keep], groups[keep]))
    gap = float(np.max(np.abs(np.asarray(ref.pvalues) - res.p_value)))
    return [_ratio(f"Tukey HSD, {label} (max |Δp| vs statsmodels {gap:.1e})", ours, peer, 1 / 20)]


# ----------------------------------------------------------------------------- 4. sweeps
def sweeps(quick: bool, shared: Path) -> list[str]:
    from irnb.bias import leave_one_group_out_bias, ranks, subsampling_curves
    from irnb.datasets import default
    from irnb.sweep import MIN_PARALLEL_SECONDS

    exp = default().experiment
    repeats = 1 if quick else 3
    lines = []
    # loky's worker processes start (and import irnb) on first use; they are reused after.
    # (The warm-up task is irnb's, not this script's: workers may not see benchmarks/; it goes
    # to joblib directly, as irnb's sweep would keep so short a sweep in this process.)
    import joblib

    warm = joblib.Parallel(n_jobs=2)
    _, _, start = _cpu(lambda: warm(joblib.delayed(ranks)(x) for x in ([1.0, 2.0], [2.0, 1.0])))
    lines.append(f"  worker processes started and irnb imported in them: {start:.2f} s (once per session)")
    walls = {}
    for n_jobs in (None, 2):
        runs = [lambda n_jobs=n_jobs: leave_one_group_out_bias(exp, depth=100, n_jobs=n_jobs, progress=False),
                lambda n_jobs=n_jobs: subsampling_curves(exp, seed=0, repeats=1 if quick else 3, n_jobs=n_jobs,
                                                         progress=False)]
        (logo, _, logo_wall), (curves, _, curves_wall) = _best(runs, repeats)
        walls[n_jobs] = (logo, curves)
        lines.append(f"  n_jobs={n_jobs}: leave-one-group-out {logo_wall:.2f} s, "
                     f"subsampling curves {curves_wall:.2f} s (wall, best of {repeats})")
    (logo1, curves1), (logo2, curves2) = walls[None], walls[2]
    same = np.array_equal(logo1.reduced_score, logo2.reduced_score) and curves1.equals(curves2)
    lines.append(f"  results with n_jobs=2 identical to the serial ones: {same} (a sweep whose other tasks would "
                 f"take < {MIN_PARALLEL_SECONDS:g} s at its first task's pace runs in this process)")
    lines.extend(_long_sweep(quick, shared))
    return lines


def _long_sweep(quick: bool, shared: Path) -> list[str]:
    """A sweep long enough for workers to pay: subsampling curves over TREC-COVID round 1
    (143 runs × 30 topics × 1,000), 6 fractions × 10 repeats = 60 tasks of one evaluation each."""
    from irnb.bias import subsampling_curves

    covid = shared / "data" / "trec-covid-round1"
    if quick or not covid.is_dir():
        return [f"  TREC-COVID round 1 not found at {covid} (or --quick): long sweep skipped"]
    from irnb.datasets.real import trec_covid_round1

    exp = trec_covid_round1(covid)
    runs = [lambda n_jobs=n_jobs: subsampling_curves(exp, seed=0, repeats=10, n_jobs=n_jobs, progress=False)
            for n_jobs in (None, 2)]
    (serial, serial_cpu, serial_wall), (parallel, _, parallel_wall) = _best(runs, 2)
    return [f"  subsampling curves on TREC-COVID round 1, 60 tasks: serial {serial_wall:.2f} s, n_jobs=2 "
            f"{parallel_wall:.2f} s (wall, best of 2; ratio {parallel_wall / serial_wall:.2f}; identical rows: "
            f"{parallel.equals(serial)}; load {_load()})"]


# ----------------------------------------------------------------------------- 5. bias curve
def bias_curve(quick: bool) -> list[str]:
    """The bias view's curve: leave-one-group-out at every depth of BIAS_DEPTHS (pool
    reference, AP and bpref), re-evaluating every topic against reusing the topics a
    group's removal leaves untouched (the default)."""
    from irnb.bias import _leave_one_group_out
    from irnb.datasets import default
    from irnb.widgets import BIAS_DEPTHS

    exp = default().experiment

    def curve(reuse):
        return [_leave_one_group_out(exp, depth=d, measures=("AP", "Bpref"), contributors=None, ranked=None,
                                     reference="pool", n_jobs=None, progress=False, reuse=reuse)
                for d in BIAS_DEPTHS]

    (every, _, before), (reused, _, after) = _best([lambda: curve(False), lambda: curve(True)], 1 if quick else 3)
    same = all(np.array_equal(a.reduced_score, b.reduced_score) and np.array_equal(a.kendall_tau, b.kendall_tau)
               for a, b in zip(every, reused, strict=True))
    line = (f"  leave-one-group-out at depths {', '.join(map(str, BIAS_DEPTHS))}: every topic re-evaluated "
            f"{before * 1e3:.0f} ms, untouched topics reused {after * 1e3:.0f} ms (wall, best of "
            f"{1 if quick else 3}; identical results: {same})")
    return [line]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--skip", default="",
                        help="comma-separated parts to skip: shapes, parse, pairs, tukey, sweeps, bias")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds per shape (medians reported)")
    parser.add_argument("--msmarco", action="store_true",
                        help="also the MS MARCO-scale case (10 runs × 6,980 topics × 1,000: 70 M lines, minutes)")
    parser.add_argument("--save", action="store_true", help="also write the output into benchmarks/RESULTS_scale.md")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout of older irnb code (e.g. `git worktree add /tmp/before <commit>`): its "
                             "ratios are measured in the same rounds and shown beside the current ones")
    parser.add_argument("--families", default="",
                        help="comma-separated families or family=value cases to run (default: all), e.g. "
                             "'runs=200,topics'")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    printed = []

    def say(line: str) -> None:
        print(line, flush=True)
        printed.append(line)

    say(f"machine: {_machine()}; load average {_load()} at the start")
    only = {f.strip() for f in args.families.split(",") if f.strip()}
    parts = [("shapes", "1. shape families", lambda: families(args.quick, 1 if args.quick else args.repeats,
                                                              args.msmarco, args.baseline, only)),
             ("parse", "1b. parse rate", lambda: parse_rate(args.quick, args.shared)),
             ("pairs", "2. all pairs", lambda: all_pairs(args.quick)),
             ("tukey", "3. Tukey HSD", lambda: tukey(args.quick, args.shared)),
             ("sweeps", "4. sweeps", lambda: sweeps(args.quick, args.shared)),
             ("bias", "5. bias curve", lambda: bias_curve(args.quick))]
    for key, title, fn in parts:
        if key in skip:
            continue
        say(title)
        for line in fn():
            if key != "shapes" or not line.startswith("| ") or line.startswith("| family") or line.startswith("|---"):
                say(line)
            else:
                printed.append(line)  # the table's rows were printed as they came
    say(f"load average {_load()} at the end")
    if args.save:
        _save(printed, argv)


def _machine() -> str:
    """``nproc`` (the cores this process may use), the CPU model, the OS and Python."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count()
    model = platform.processor() or platform.machine()
    try:
        model = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cores} cores (nproc), {model}, {platform.system()} {platform.release()}, "
            f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}")


def _load() -> str:
    """The 1-, 5- and 15-minute load averages (what ``uptime`` prints)."""
    return " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"


def _save(printed: list[str], argv) -> None:
    """Write the output into benchmarks/RESULTS_scale.md (replaced on every --save)."""
    import datetime

    path = Path(__file__).resolve().parent / "RESULTS_scale.md"
    command = " ".join(["python benchmarks/bench_scale.py", *(sys.argv[1:] if argv is None else argv)])
    body = (f"# Scale: shape families, all pairs, sweeps (bench_scale.py)\n\n`{command}` — "
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. The machine is shared with other "
            "jobs: its load averages (1, 5, 15 minutes, as `uptime` prints them) are recorded first and last; "
            "wall times move with the load, CPU times and ratios much less.\n\n" + "\n".join(printed) + "\n")
    path.write_text(body, encoding="utf-8")
    print(f"saved {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
