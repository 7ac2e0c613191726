"""Core benchmark: parsing and evaluating TREC runs with irnb, pytrec_eval, ir_measures and ranx.

Run by hand (not by the tests), from the repository root::

    python benchmarks/bench_core.py                 # both datasets, every installed peer
    python benchmarks/bench_core.py --save          # … and write benchmarks/RESULTS.md
    python benchmarks/bench_core.py --datasets covid --peers pytrec_eval --profile

Datasets: the 143 TREC-COVID round-1 runs (``../shared/data/trec-covid-round1``; the
archive is extracted once into the temp dir, untimed, so that every tool reads the same plain
files from disk) and a generated 200-run × 50-topic × 1000-deep set (10 M lines, written
once by ``_data.ensure_generated``).

What is timed, per tool, all in one process, one tool after the other (each tool's data is
freed before the next starts):

* **parse**: from the files on disk to the tool's in-memory representation —
  irnb ``read_runs`` + ``read_qrels`` (Arrow tables, sorted in trec_eval order);
  pytrec_eval ``parse_run``/``parse_qrel`` (dicts of dicts); ir_measures
  ``read_trec_run``/``read_trec_qrels`` into lists of namedtuples; ranx
  ``Run.from_file``/``Qrels.from_file``.
* **index**: work done once per qrels before evaluating — irnb ``Experiment(runs, qrels)``
  (the dense arrays); pytrec_eval ``RelevanceEvaluator(qrels, measures)``; ir_measures
  ``evaluator(measures, qrels)``; ranx has none (it converts the qrels inside every call).
* **evaluate**: every run on P@10, P@100, AP, nDCG@10, bpref and JudgedRet@10 (per-topic
  values) — irnb ``evaluate(experiment, measures)``; pytrec_eval ``evaluator.evaluate(run)``
  per run; ir_measures ``evaluator.iter_calc(run)`` per run; ranx
  ``evaluate(qrels, run, metrics, make_comparable=True)`` per run. irnb's JudgedRet@10
  (judged in the top 10 / min(10, retrieved)) is ir_measures' Judged@10; irnb's own
  Judged@10 divides by 10 (Baillie et al.'s A_p@k, like P@10), so it is not the one
  compared. pytrec_eval and ranx have no Judged@10, so they compute five measures.

Values are checked per run and topic against irnb (max absolute difference per measure).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import io
import math
import platform
import pstats
import sys
import tarfile
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable

import numpy as np

try:  # run as a script (benchmarks/ on sys.path) or imported by the smoke test
    import _data
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _data

import irnb

__all__ = [
    "MEASURES", "Dataset", "IrnbResult", "time_irnb", "array_footprint", "memory_report",
    "covid_dataset", "synthetic_dataset", "main",
]

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
COVID = SHARED / "data" / "trec-covid-round1"

MEASURES = ("P@10", "P@100", "AP", "nDCG@10", "Bpref", "JudgedRet@10")
# irnb name → ir_measures name where they differ: ir_measures' Judged@k divides by min(k, retrieved)
IR_MEASURES_NAMES = {"JudgedRet@10": "Judged@10"}
PYTREC_NAMES = {"P@10": "P_10", "P@100": "P_100", "AP": "map", "nDCG@10": "ndcg_cut_10", "Bpref": "bpref"}
RANX_NAMES = {"P@10": "precision@10", "P@100": "precision@100", "AP": "map", "nDCG@10": "ndcg@10",
              "Bpref": "bpref"}
PEERS = ("pytrec_eval", "ir_measures", "ranx")
TOLERANCE = 1e-9
TARGETS = {"eval_speedup": 5.0, "parse_lines_per_s": 2e6, "bytes_per_line": 16.0}


# =================================================================== datasets
@dataclass(frozen=True)
class Dataset:
    """Plain run files on disk and a qrels file."""

    name: str
    run_paths: tuple[Path, ...]
    qrels_path: Path
    note: str = ""

    def count_lines(self) -> int:
        total = 0
        for path in self.run_paths:
            with open(path, "rb") as handle:
                total += sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 24), b""))
        return total


def covid_dataset(extract_to: Path | None = None) -> Dataset | None:
    """The TREC-COVID round-1 runs, extracted once (untimed) from the shared archive."""
    archive = COVID / "runs-round1.tar.xz"
    if not archive.is_file():
        return None
    target = extract_to or Path(tempfile.gettempdir()) / "irnb-bench-covid-round1"
    marker = target / ".complete"
    if not marker.is_file():
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            try:
                tar.extractall(target, filter="data")
            except TypeError:  # Python < 3.10.12 has no extraction filters
                tar.extractall(target)  # noqa: S202 - the project's own shared data
        marker.write_text("ok\n")
    paths = tuple(sorted(p for p in target.rglob("*") if p.is_file() and not p.name.startswith(".")))
    return Dataset("TREC-COVID round 1", paths, COVID / "qrels-rnd1.txt",
                   note="143 runs from 56 teams, 30 topics, official round-1 qrels (grades 0/1/2)")


def synthetic_dataset(spec: _data.SyntheticSpec | None = None, out_dir: Path | None = None) -> Dataset:
    spec = spec or _data.SyntheticSpec()
    made = _data.ensure_generated(spec, out_dir)
    return Dataset(f"synthetic {spec.n_runs}×{spec.n_topics}×{spec.depth}", tuple(made.run_paths),
                   made.qrels_path,
                   note=(f"generated by benchmarks/_data.py (seed {spec.seed}): {spec.n_runs} runs, "
                         f"{spec.n_topics} topics, {spec.depth} deep, ~{spec.judgments_per_topic} "
                         "judgments per topic, grades 0–2, 8-character docnos, ~3% tied scores"))


# =================================================================== timing helpers
class Seconds(float):
    """Wall-clock seconds (the float value) with the process's CPU seconds over the same
    call as ``cpu`` (``time.process_time``: every thread of the process, so pyarrow's and
    irnb's reader threads count). On a loaded machine wall time also counts waiting for a
    core; CPU time does not.

    >>> x = Seconds(2.0, cpu=1.5)
    >>> (x + 1.0, x.cpu)
    (3.0, 1.5)
    """

    cpu: float

    def __new__(cls, wall: float, *, cpu: float):
        out = super().__new__(cls, wall)
        out.cpu = float(cpu)
        return out


def _timed(fn: Callable, *args, **kwargs):
    """The output and its :class:`Seconds` (wall, with CPU seconds as ``.cpu``)."""
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, Seconds(time.perf_counter() - start, cpu=time.process_time() - start_cpu)


def _best(fn: Callable, *args, repeat: int = 1, **kwargs):
    """The output of the last call and the smallest wall-clock time over ``repeat`` calls
    (the machine is shared: the minimum is the least disturbed measurement); its ``.cpu``
    is the smallest CPU time over the calls."""
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be an integer ≥ 1, got {repeat!r}")
    best, best_cpu, out = math.inf, math.inf, None
    for _ in range(repeat):
        out = None  # free the previous result before the next call
        out, seconds = _timed(fn, *args, **kwargs)
        best, best_cpu = min(best, seconds), min(best_cpu, seconds.cpu)
    return out, Seconds(best, cpu=best_cpu)


def _cpu(seconds) -> float | None:
    return getattr(seconds, "cpu", None)


@dataclass
class ToolResult:
    """Seconds per step (None: the tool has no such step), values[measure] (S, T) with NaN
    where the tool reported nothing, and free-form notes."""

    name: str
    parse: float | None = None
    index: float | None = None
    evaluate: float | None = None
    values: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    error: str | None = None


@dataclass
class IrnbResult:
    """irnb's timings (seconds) and what it built."""

    parse: float
    build: float
    evaluate: float
    num_lines: int
    experiment: irnb.Experiment
    evaluation: irnb.Evaluation


def irnb_parse(run_paths, qrels_path):
    """Files on disk → ``{name: Run}`` and ``Qrels`` (Arrow tables in trec_eval order)."""
    runs = irnb.read_runs([Path(p) for p in run_paths])
    qrels = irnb.read_qrels(qrels_path)
    return runs, qrels


def time_irnb(run_paths, qrels_path, measures=MEASURES, *, repeat: int = 1) -> IrnbResult:
    """Time irnb's three steps: parse (read_runs + read_qrels, once), build (Experiment =
    the "indexing") and evaluate (all runs, all ``measures``); build and evaluate take the
    best of ``repeat`` calls."""
    (runs, qrels), t_parse = _timed(irnb_parse, run_paths, qrels_path)
    num_lines = sum(run.num_lines for run in runs.values())
    experiment, t_build = _best(irnb.Experiment, runs, qrels, repeat=repeat)
    evaluation, t_eval = _best(irnb.evaluate, experiment, list(measures), repeat=repeat)
    return IrnbResult(parse=t_parse, build=t_build, evaluate=t_eval, num_lines=num_lines,
                      experiment=experiment, evaluation=evaluation)


def array_footprint(experiment: irnb.Experiment, *, with_retrieved_rank: bool = True) -> dict[str, int]:
    """Bytes held by the Experiment's arrays: ``doc`` (S·T·D int32), the cached ``grade``
    (S·T·D int8), ``length`` (S·T int32), the qrels columns, and ``retrieved_rank`` (S·Q,
    built on demand — by pooling, not by ``evaluate``) when asked.

    For 3 runs × 2 topics × depth 20: doc = 3·2·20·4 = 480 bytes, grade = 120 bytes.
    """
    j = experiment.judgments
    out = {
        "doc (int32, S·T·D)": j.doc.nbytes,
        "grade cache (int8, S·T·D)": j.grade_array().nbytes,
        "length (S·T)": experiment.length.nbytes,
        "qrels columns": j.qrel_topic.nbytes + j.qrel_grade.nbytes + j.topic_start.nbytes + j.qrel_docno.nbytes,
    }
    if with_retrieved_rank:
        out[f"retrieved_rank ({j.retrieved_rank.dtype}, S·Q)"] = j.retrieved_rank.nbytes
    return out


def memory_report(run_paths, qrels_path, measures=MEASURES) -> dict:
    """Peak Python-heap (tracemalloc, which sees numpy buffers but not Arrow's pool) while
    building the Experiment and while evaluating, and the arrays' bytes; not timed."""
    runs, qrels = irnb_parse(run_paths, qrels_path)
    num_lines = sum(run.num_lines for run in runs.values())
    arrow_bytes = sum(run.table.nbytes for run in runs.values())
    gc.collect()
    tracemalloc.start()
    experiment = irnb.Experiment(runs, qrels)
    _, build_peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    irnb.evaluate(experiment, list(measures))
    _, eval_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    footprint = array_footprint(experiment)
    S, T, D = experiment.shape
    return {
        "num_lines": num_lines,
        "positions": S * T * D,
        "arrow_run_tables": arrow_bytes,
        "arrays": footprint,
        "build_peak": build_peak,
        "eval_peak_above_arrays": eval_peak - base,
    }


# =================================================================== peers
def _topic_index(topics):
    return {t: i for i, t in enumerate(topics)}


def _empty_values(S, T, names):
    return {m: np.full((S, T), np.nan) for m in names}


def run_pytrec_eval(ds: Dataset, run_names, topics, *, repeat: int = 1) -> ToolResult:
    import pytrec_eval

    res = ToolResult("pytrec_eval")

    def parse():
        with open(ds.qrels_path) as f:
            qrels = pytrec_eval.parse_qrel(f)
        runs = {}
        for path in ds.run_paths:
            with open(path) as f:
                runs[path.name] = pytrec_eval.parse_run(f)
        return runs, qrels

    (runs, qrels), res.parse = _timed(parse)
    evaluator, res.index = _best(pytrec_eval.RelevanceEvaluator, qrels, set(PYTREC_NAMES.values()), repeat=repeat)

    def evaluate():  # F821: the names are deleted below, after the last call, to free memory
        return {name: evaluator.evaluate(run) for name, run in runs.items()}  # noqa: F821

    out, res.evaluate = _best(evaluate, repeat=repeat)
    tix = _topic_index(topics)
    res.values = _empty_values(len(run_names), len(topics), PYTREC_NAMES)
    for s, name in enumerate(run_names):
        for topic, vals in out[name].items():
            t = tix.get(topic)
            if t is not None:
                for m, key in PYTREC_NAMES.items():
                    res.values[m][s, t] = vals[key]
    res.notes.append("no Judged@10 (irnb JudgedRet@10) in pytrec_eval: 5 measures")
    del runs, qrels, evaluator, out
    return res


def run_ir_measures(ds: Dataset, run_names, topics, *, repeat: int = 1) -> ToolResult:
    import ir_measures

    res = ToolResult("ir_measures")
    measures = [ir_measures.parse_measure(IR_MEASURES_NAMES.get(m, m)) for m in MEASURES]

    def parse():
        qrels = list(ir_measures.read_trec_qrels(str(ds.qrels_path)))
        runs = {path.name: list(ir_measures.read_trec_run(str(path))) for path in ds.run_paths}
        return runs, qrels

    (runs, qrels), res.parse = _timed(parse)
    evaluator, res.index = _best(ir_measures.evaluator, measures, qrels, repeat=repeat)

    def evaluate():  # F821: the names are deleted below, after the last call, to free memory
        return {name: list(evaluator.iter_calc(run)) for name, run in runs.items()}  # noqa: F821

    out, res.evaluate = _best(evaluate, repeat=repeat)
    tix = _topic_index(topics)
    by_name = {str(m): name for m, name in zip(measures, MEASURES, strict=True)}
    res.values = _empty_values(len(run_names), len(topics), MEASURES)
    for s, name in enumerate(run_names):
        for metric in out[name]:
            t = tix.get(metric.query_id)
            if t is not None:
                res.values[by_name[str(metric.measure)]][s, t] = metric.value
    providers = [type(e).__name__ for e in getattr(evaluator, "evaluators", [])]
    if providers:
        res.notes.append("providers: " + ", ".join(providers))
    del runs, qrels, evaluator, out
    return res


def run_ranx(ds: Dataset, run_names, topics, *, repeat: int = 1) -> ToolResult:
    import ranx

    res = ToolResult("ranx")
    warnings.filterwarnings("ignore", message=".*unsafe cast.*")  # numba type-safety notes from ranx
    # numba compiles on first use, once per argument type (the docno width is part of the
    # type) and caches on disk: warm up on the first run file, untimed
    def warm_up():
        qrels = ranx.Qrels.from_file(str(ds.qrels_path), kind="trec")
        run = ranx.Run.from_file(str(ds.run_paths[0]), kind="trec")
        ranx.evaluate(qrels, run, list(RANX_NAMES.values()), make_comparable=True)

    _, warm = _timed(warm_up)
    res.notes.append(f"numba warm-up on one run {warm:.1f} s (untimed)")

    def parse():
        qrels = ranx.Qrels.from_file(str(ds.qrels_path), kind="trec")
        runs = {path.name: ranx.Run.from_file(str(path), kind="trec", name=path.name) for path in ds.run_paths}
        return runs, qrels

    (runs, qrels), res.parse = _timed(parse)

    def evaluate():  # F821: the names are deleted below, after the last call, to free memory
        for run in runs.values():  # noqa: F821
            ranx.evaluate(qrels, run, list(RANX_NAMES.values()), make_comparable=True)  # noqa: F821

    _, res.evaluate = _best(evaluate, repeat=repeat)
    tix = _topic_index(topics)
    res.values = _empty_values(len(run_names), len(topics), RANX_NAMES)
    for s, name in enumerate(run_names):
        for m, key in RANX_NAMES.items():
            for topic, value in runs[name].scores[key].items():
                t = tix.get(topic)
                if t is not None:
                    res.values[m][s, t] = value
    res.notes.append("no Judged@10 (irnb JudgedRet@10) in ranx: 5 measures; numba threads = all cores")
    del runs, qrels
    return res


PEER_RUNNERS = {"pytrec_eval": run_pytrec_eval, "ir_measures": run_ir_measures, "ranx": run_ranx}


def compare_values(evaluation: irnb.Evaluation, peer: ToolResult) -> dict[str, dict]:
    """Per measure: cells compared, max |irnb − peer|, cells above the tolerance, and cells
    one side has and the other not (irnb's evaluated cells vs the peer's non-NaN cells)."""
    out = {}
    evaluated = evaluation.evaluated
    for m, theirs in peer.values.items():
        ours = evaluation[m]
        has = ~np.isnan(theirs)
        both = evaluated & has
        diff = np.abs(ours[both] - theirs[both])
        out[m] = {
            "cells": int(both.sum()),
            "max_abs_diff": float(diff.max(initial=0.0)),
            "above_tol": int((diff > TOLERANCE).sum()),
            "only_irnb": int((evaluated & ~has).sum()),
            "only_peer": int((~evaluated & has).sum()),
        }
    return out


# =================================================================== report
def _fmt_s(x):
    return "—" if x is None else (f"{x:.3f}" if x < 10 else f"{x:.1f}")


def _ratio(peer, ours):
    if peer is None or ours is None or ours <= 0:
        return "—"
    return f"{peer / ours:.1f}×"


def _sum(*xs):
    return None if any(x is None for x in xs) else sum(xs)


def report_dataset(ds: Dataset, ours: IrnbResult, peers: list[ToolResult], mem: dict | None,
                   untied: dict | None = None) -> tuple[str, dict]:
    lines = []
    exp = ours.experiment
    S, T, D = exp.shape
    lines.append(f"### {ds.name}\n")
    lines.append(f"{ds.note}. {S} runs × {T} topics (depth {D}), {ours.num_lines:,} run lines, "
                 f"{exp.judgments.num_judgments:,} judgments.\n")
    ok_peers = [p for p in peers if p.error is None]
    head = ["task", "irnb"] + [p.name for p in ok_peers] + [f"{p.name}/irnb" for p in ok_peers]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    rows = [
        ("parse runs + qrels (s)", ours.parse, [p.parse for p in ok_peers]),
        ("index: Experiment / RelevanceEvaluator / evaluator() (s)", ours.build, [p.index for p in ok_peers]),
        ("evaluate all runs (s)", ours.evaluate, [p.evaluate for p in ok_peers]),
        ("index + evaluate (s)", ours.build + ours.evaluate, [_sum(p.index or 0.0, p.evaluate) for p in ok_peers]),
        ("total: parse + index + evaluate (s)", ours.parse + ours.build + ours.evaluate,
         [_sum(p.parse, p.index or 0.0, p.evaluate) for p in ok_peers]),
    ]
    for label, mine, theirs in rows:
        cells = [label, _fmt_s(mine)] + [_fmt_s(x) for x in theirs] + [_ratio(x, mine) for x in theirs]
        lines.append("| " + " | ".join(cells) + " |")
    rate = ours.num_lines / ours.parse
    rates = [ours.num_lines / p.parse if p.parse else None for p in ok_peers]
    cells = ["parse rate (M run lines/s)", f"{rate / 1e6:.2f}"] + [f"{r / 1e6:.2f}" if r else "—" for r in rates] + \
        ["" for _ in ok_peers]
    lines.append("| " + " | ".join(cells) + " |")
    rate_cpu = ours.num_lines / _cpu(ours.parse) if _cpu(ours.parse) else None
    rates_cpu = [ours.num_lines / _cpu(p.parse) if _cpu(p.parse) else None for p in ok_peers]
    cells = ["parse rate, CPU time (M run lines per CPU-second)", f"{rate_cpu / 1e6:.2f}" if rate_cpu else "—"] + \
        [f"{r / 1e6:.2f}" if r else "—" for r in rates_cpu] + ["" for _ in ok_peers]
    lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("CPU seconds of the same calls (`time.process_time`, all threads of the process; "
                 "index and evaluate: the smallest of the repeats):\n")
    head = ["task (CPU s)", "irnb"] + [p.name for p in ok_peers] + [f"{p.name}/irnb" for p in ok_peers]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for label, mine, theirs in [("parse", ours.parse, [p.parse for p in ok_peers]),
                                ("index", ours.build, [p.index for p in ok_peers]),
                                ("evaluate", ours.evaluate, [p.evaluate for p in ok_peers])]:
        mine, theirs = _cpu(mine), [_cpu(x) for x in theirs]
        cells = [label, _fmt_s(mine)] + [_fmt_s(x) for x in theirs] + [_ratio(x, mine) for x in theirs]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for p in peers:
        if p.error:
            lines.append(f"- {p.name}: not run ({p.error})")
        elif p.notes:
            lines.append(f"- {p.name}: " + "; ".join(p.notes))
    lines.append("")

    summary = {"parse_rate": rate, "parse_rate_cpu": rate_cpu, "num_lines": ours.num_lines}
    # value identity
    if ok_peers:
        lines.append("Per run and topic, max |irnb − peer| (cells above 1e-9 / cells compared):\n")
        head = ["measure"] + [p.name for p in ok_peers]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        comparisons = {p.name: compare_values(ours.evaluation, p) for p in ok_peers}
        for m in MEASURES:
            cells = [m]
            for p in ok_peers:
                c = comparisons[p.name].get(m)
                if c is None:
                    cells.append("n/a")
                else:
                    extra = ""
                    if c["only_irnb"] or c["only_peer"]:
                        extra = f"; cells only in irnb {c['only_irnb']}, only in peer {c['only_peer']}"
                    cells.append(f"{c['max_abs_diff']:.2g} ({c['above_tol']:,}/{c['cells']:,}{extra})")
            lines.append("| " + " | ".join(cells) + " |")
        if untied:
            worst = {name: max(c["max_abs_diff"] for c in comp.values()) for name, comp in untied.items()}
            lines.append("Tie check: the 3 runs with the most disagreeing cells, rewritten in trec_eval order "
                         "with distinct scores (no ties), all measures: max |irnb − peer| = "
                         + ", ".join(f"{name} {w:.2g}" for name, w in worst.items())
                         + ". Differences that vanish here come from tie-breaking only.")
        lines.append("")
        summary["comparisons"] = comparisons
    pyt = next((p for p in ok_peers if p.name == "pytrec_eval"), None)
    if pyt is not None:
        summary["eval_speedup"] = pyt.evaluate / ours.evaluate
        summary["index_eval_speedup"] = (pyt.index + pyt.evaluate) / (ours.build + ours.evaluate)
    # memory
    if mem is not None:
        n = mem["num_lines"]
        lines.append(f"Memory (irnb; {n:,} run lines, {mem['positions']:,} array positions S·T·D):\n")
        lines.append("| array | bytes | bytes per run line |")
        lines.append("|---|---|---|")
        total_eval = 0
        for name, nbytes in mem["arrays"].items():
            lines.append(f"| {name} | {nbytes:,} | {nbytes / n:.2f} |")
            if not name.startswith("retrieved_rank"):
                total_eval += nbytes
        total_all = sum(mem["arrays"].values())
        lines.append(f"| **sum used by evaluate** | {total_eval:,} | **{total_eval / n:.2f}** |")
        lines.append(f"| sum incl. retrieved_rank | {total_all:,} | {total_all / n:.2f} |")
        lines.append(f"| tracemalloc peak, Experiment build | {mem['build_peak']:,} | {mem['build_peak'] / n:.2f} |")
        peak = mem["eval_peak_above_arrays"]
        lines.append(f"| tracemalloc peak during evaluate, above what existed before | {peak:,} | {peak / n:.2f} |")
        lines.append(f"| parsed runs (Arrow tables, not in tracemalloc) | {mem['arrow_run_tables']:,} | "
                     f"{mem['arrow_run_tables'] / n:.2f} |")
        lines.append("")
        summary["bytes_per_line"] = total_all / n
        summary["bytes_per_line_eval"] = total_eval / n
    return "\n".join(lines), summary


def targets_report(summaries: dict[str, dict]) -> str:
    lines = ["### Targets\n", "| target | " + " | ".join(summaries) + " |", "|---|" + "---|" * len(summaries)]

    def row(label, fn):
        lines.append(f"| {label} | " + " | ".join(fn(s) for s in summaries.values()) + " |")

    def verdict(value, ok, fmt):
        return "—" if value is None else f"{fmt(value)} {'PASS' if ok(value) else 'FAIL'}"

    row("evaluate ≥ 5× faster than pytrec_eval (evaluate only)",
        lambda s: verdict(s.get("eval_speedup"), lambda v: v >= TARGETS["eval_speedup"], lambda v: f"{v:.1f}×"))
    row("… counting index + evaluate on both sides",
        lambda s: verdict(s.get("index_eval_speedup"), lambda v: v >= TARGETS["eval_speedup"], lambda v: f"{v:.1f}×"))

    def identical(s):
        c = s.get("comparisons", {}).get("pytrec_eval")
        if c is None:
            return "—"
        worst = max(v["max_abs_diff"] for v in c.values())
        missing = sum(v["only_irnb"] + v["only_peer"] for v in c.values())
        ok = worst <= TOLERANCE and missing == 0
        return f"max {worst:.2g}, {missing} unmatched cells {'PASS' if ok else 'FAIL'}"

    row("values identical to pytrec_eval (≤ 1e-9)", identical)
    row("parsing ≥ 2 M run lines/s",
        lambda s: verdict(s.get("parse_rate"), lambda v: v >= TARGETS["parse_lines_per_s"],
                          lambda v: f"{v / 1e6:.2f} M/s"))
    row("… per CPU-second (process_time, all threads)",
        lambda s: verdict(s.get("parse_rate_cpu"), lambda v: v >= TARGETS["parse_lines_per_s"],
                          lambda v: f"{v / 1e6:.2f} M/s"))
    row("arrays ≤ 16 bytes per run line (incl. retrieved_rank)",
        lambda s: verdict(s.get("bytes_per_line"), lambda v: v <= TARGETS["bytes_per_line"], lambda v: f"{v:.1f} B"))
    lines.append("")
    return "\n".join(lines)


# =================================================================== profiling
def profile_irnb(ds: Dataset, *, top: int = 12) -> str:
    """cProfile of irnb's parse (on one thread), build and evaluate on ``ds``: the top
    functions by own time."""
    out = [f"### Profile: irnb on {ds.name} (cProfile, top {top} by own time)\n"]
    state = {}

    def step_parse():
        # cProfile sees only the calling thread: read the files on it (irnb.io's reader
        # threads off, a private hook) so that the profile shows the parsing work
        import irnb.io as irnb_io

        threads = irnb_io._parse_threads
        irnb_io._parse_threads = lambda: 1
        try:
            state["parsed"] = irnb_parse(ds.run_paths, ds.qrels_path)
        finally:
            irnb_io._parse_threads = threads

    def step_build():
        state["exp"] = irnb.Experiment(*state["parsed"])

    def step_eval():
        irnb.evaluate(state["exp"], list(MEASURES))

    for label, step in (("parse", step_parse), ("build (Experiment)", step_build), ("evaluate", step_eval)):
        prof = cProfile.Profile()
        prof.enable()
        step()
        prof.disable()
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf)
        total = max(v[3] for v in stats.stats.values())  # type: ignore[attr-defined]
        stats.sort_stats("tottime").print_stats(top)
        by_own = buf.getvalue()
        buf.seek(0)
        buf.truncate()
        stats.sort_stats("cumulative").print_stats(r"irnb[/\\]", top)
        by_cum = buf.getvalue()
        out.append(f"#### {label}: {total:.2f} s under the profiler\n")
        for title, body in (("own time", by_own), ("irnb functions, cumulative time", by_cum)):
            out.append(f"{title}:\n\n```")
            keep = body[body.find("ncalls"):] if "ncalls" in body else body
            out.append(keep.rstrip().replace(str(Path(sys.prefix)), "<prefix>").replace(str(REPO) + "/", ""))
            out.append("```\n")
    return "\n".join(out)


# =================================================================== main
def _versions(peers) -> str:
    import numpy
    import pyarrow

    parts = [f"Python {platform.python_version()}", f"irnb {irnb.__version__}", f"numpy {numpy.__version__}",
             f"pyarrow {pyarrow.__version__}"]
    for mod in ("pytrec_eval", "ir_measures", "ranx"):
        if mod in peers:
            dist = {"pytrec_eval": "pytrec_eval-terrier", "ir_measures": "ir-measures"}.get(mod, mod)
            try:
                parts.append(f"{mod} {importlib.metadata.version(dist)}")
            except importlib.metadata.PackageNotFoundError:
                parts.append(f"{mod} not installed")
    return ", ".join(parts)


def _load() -> str:
    import os

    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _machine() -> str:
    import os

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical cores, {platform.system()}"


def untied_dataset(experiment: irnb.Experiment, run_names, out_dir: Path, qrels_path: Path) -> Dataset:
    """The named runs rewritten in trec_eval order with distinct scores (score = 100000 −
    rank), so that no tool's tie-breaking rule matters."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in run_names:
        frame = experiment.runs[name].to_frame()
        path = out_dir / name
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(f"{t} Q0 {d} {r} {100000 - r} untied\n"
                           for t, d, r in zip(frame["topic"], frame["docno"], frame["rank"], strict=True))
        paths.append(path)
    return Dataset("untied", tuple(paths), qrels_path)


def bench_dataset(ds: Dataset, peers, *, memory: bool = True, repeat: int = 1) -> tuple[str, dict]:
    print(f"[{ds.name}] irnb …", file=sys.stderr, flush=True)
    ours = time_irnb(ds.run_paths, ds.qrels_path, repeat=repeat)
    results = []
    for name in peers:
        print(f"[{ds.name}] {name} …", file=sys.stderr, flush=True)
        try:
            results.append(PEER_RUNNERS[name](ds, ours.experiment.run_names, ours.experiment.topics,
                                              repeat=repeat))
        except ImportError as err:
            results.append(ToolResult(name, error=f"not installed: {err}"))
        gc.collect()
    untied = None
    # runs where a peer disagrees: re-check the 3 worst without ties
    mismatches = np.zeros(len(ours.experiment.run_names), dtype=np.int64)
    disagree = []
    for p in results:
        if p.error is not None:
            continue
        for m, theirs in p.values.items():
            bad = ours.evaluation.evaluated & (np.abs(ours.evaluation[m] - theirs) > TOLERANCE)
            mismatches += bad.sum(axis=1)
            if bad.any() and p.name not in disagree:
                disagree.append(p.name)
    if disagree:
        print(f"[{ds.name}] tie check for {', '.join(disagree)} …", file=sys.stderr, flush=True)
        worst_runs = [ours.experiment.run_names[i] for i in np.argsort(-mismatches, kind="stable")[:3]]
        with tempfile.TemporaryDirectory(prefix="irnb-bench-untied-") as tmp:
            small = untied_dataset(ours.experiment, worst_runs, Path(tmp), ds.qrels_path)
            small_ours = time_irnb(small.run_paths, small.qrels_path)
            names, topics = small_ours.experiment.run_names, small_ours.experiment.topics
            untied = {name: compare_values(small_ours.evaluation, PEER_RUNNERS[name](small, names, topics))
                      for name in disagree}
    mem = None
    if memory:
        print(f"[{ds.name}] irnb memory …", file=sys.stderr, flush=True)
        mem = memory_report(ds.run_paths, ds.qrels_path)
    return report_dataset(ds, ours, results, mem, untied)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="covid,synthetic",
                        help="comma-separated: covid, synthetic (default both)")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated subset of {','.join(PEERS)}, "
                        "or 'none'")
    parser.add_argument("--synthetic-dir", type=Path, default=None,
                        help="where the generated set lives (default: a folder in the temp dir)")
    parser.add_argument("--synthetic-size", default="200x50x1000",
                        help="RUNSxTOPICSxDEPTH of the generated set (default 200x50x1000 = 10 M lines)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="index and evaluate steps: best of this many calls (default 3); parsing runs once")
    parser.add_argument("--no-memory", action="store_true", help="skip the (untimed) tracemalloc pass")
    parser.add_argument("--profile", action="store_true", help="append a cProfile of irnb's parse/build/evaluate")
    parser.add_argument("--save", action="store_true", help="also write the output to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)

    try:
        n_runs, n_topics, depth = (int(x) for x in args.synthetic_size.lower().split("x"))
        spec = _data.SyntheticSpec(n_runs=n_runs, n_topics=n_topics, depth=depth,
                                   candidates_per_topic=max(3 * depth, 3000))
    except ValueError as err:
        parser.error(f"--synthetic-size: expected RUNSxTOPICSxDEPTH of integers ≥ 1, got "
                     f"{args.synthetic_size!r} ({err})")
    names = [d.strip() for d in args.datasets.split(",") if d.strip()]
    unknown = sorted(set(names) - {"covid", "synthetic"})
    if unknown:
        parser.error(f"--datasets: expected covid and/or synthetic, got {unknown}")
    peers = [] if args.peers == "none" else [p.strip() for p in args.peers.split(",") if p.strip()]
    bad = sorted(set(peers) - set(PEERS))
    if bad:
        parser.error(f"--peers: expected a subset of {list(PEERS)}, got {bad}")
    if args.repeat < 1:
        parser.error(f"--repeat: expected an integer ≥ 1, got {args.repeat}")

    sections = ["## Core benchmark: parsing and evaluation\n",
                f"`python benchmarks/bench_core.py {' '.join(argv if argv is not None else sys.argv[1:])}` — "
                f"{time.strftime('%Y-%m-%d')}; {_machine()}; {_versions(peers)}. "
                f"All tools in one process, one after the other; parsing is timed once, index and evaluate "
                f"are the best of {args.repeat} calls; load average at start {_load()}.\n"]
    print(sections[0] + "\n" + sections[1], flush=True)
    summaries = {}
    datasets = []
    for name in names:
        if name == "covid":
            ds = covid_dataset()
            if ds is None:
                sections.append(f"TREC-COVID skipped: {COVID} not found.\n")
                continue
        else:
            print("[synthetic] generating (once) …", file=sys.stderr, flush=True)
            ds = synthetic_dataset(spec, out_dir=args.synthetic_dir)
        datasets.append(ds)
        text, summary = bench_dataset(ds, peers, memory=not args.no_memory, repeat=args.repeat)
        sections.append(text)
        summaries[ds.name.split(" (")[0]] = summary
        print(text, flush=True)
    if summaries:
        text = targets_report(summaries)
        sections.append(text)
        print(text, flush=True)
    if args.profile:
        for ds in datasets:
            text = profile_irnb(ds)
            sections.append(text)
            print(text, flush=True)
    if args.save:
        out = Path(__file__).resolve().parent / "RESULTS.md"
        out.write_text("\n".join(sections).rstrip() + "\n", encoding="utf-8")
        print(f"saved {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
