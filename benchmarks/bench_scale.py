"""Scale: many topics, many runs, all pairs, and sweeps (issue 17), each as a ratio against
its peer measured in the same run (not a test; tests/test_bench_smoke.py smoke-runs it).

1. Many topics. read + Experiment + evaluate (P@10, AP, nDCG@10, bpref) against pytrec_eval
   (parse the same files into its dicts in Python + evaluate), CPU seconds (the best of 3
   rounds, irnb and pytrec_eval taking turns), at
   5 runs × 5,000 topics × 200 documents and 1 run × 100,000 topics × 20 documents
   (benchmarks/_data.py generates them once). Target: irnb ≤ 1/3 of pytrec_eval. Then the
   parse rate on TREC-COVID round 1's runs (target ≥ 2 M lines/s; needs ../shared).
2. All pairs, 1,000 runs × 50 topics (coarse P@10-like values, ties and zeros): Wilcoxon
   against ``scipy.stats.wilcoxon(x, y, axis=1)`` over the same pairs (target ≤ 1/2, same
   p-values); the t-test against a vectorised numpy baseline (differences, mean, sd,
   Student's t; target ≤ 1/2); the decision matrix (every pair, a measure and its
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

    python benchmarks/bench_scale.py [--quick] [--shared ../shared] [--skip many,parse,pairs,tukey,sweeps,bias]

The machine and its load are printed first: on a shared 2-core machine wall times move
with the load, CPU times and ratios much less.
"""

from __future__ import annotations

import argparse
import os
import platform
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


# ----------------------------------------------------------------------------- 1. many topics
def _parse_trec(path, number):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if cols:
                out.setdefault(cols[0], {})[cols[2]] = number(cols[-2] if number is float else cols[3])
    return out


def many_topics(quick: bool) -> list[str]:
    import _data

    # irnb imports its modules (and pandas) on first use; pytrec_eval is imported before its
    # timing too: import time is left out on both sides
    irnb.read_runs, irnb.read_qrels, irnb.Experiment, irnb.evaluate  # noqa: B018
    sizes = [(5, 5_000, 200), (1, 100_000, 20)] if not quick else [(2, 200, 50), (1, 2_000, 10)]
    repeats = 1 if quick else 3
    lines = []
    for n_runs, n_topics, depth in sizes:
        spec = _data.SyntheticSpec(n_runs=n_runs, n_topics=n_topics, depth=depth, judgments_per_topic=30,
                                   candidates_per_topic=max(2 * depth, 60), collection_size=200_000, seed=17)
        data = _data.ensure_generated(spec)
        run_files = sorted(data.run_dir.glob("*.txt"))

        system = []  # irnb's system CPU seconds in each round (page faults, mostly)

        def ours():
            before = os.times().system
            exp = irnb.Experiment(irnb.read_runs(run_files), irnb.read_qrels(data.qrels_path))
            ev = irnb.evaluate(exp, MEASURES)
            system.append(os.times().system - before)
            return ev

        try:
            import pytrec_eval
        except ImportError:
            ev, ours_cpu, _ = _cpu(ours)
            lines.append(f"  {n_runs}×{n_topics}×{depth}: irnb {ours_cpu:.3f} CPU-s; pytrec_eval not installed")
            continue

        def peer():
            qrels = _parse_trec(data.qrels_path, int)
            runs = [_parse_trec(p, float) for p in run_files]
            evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES)
            return [evaluator.evaluate(r) for r in runs]

        (ev, ours_cpu, ours_wall), (res, peer_cpu, peer_wall) = _best([ours, peer], repeats)
        got = float(np.nanmean(np.where(ev.evaluated[0], ev["AP"][0], np.nan)))
        want = float(np.mean([v["map"] for v in res[0].values()]))
        lines.append(_ratio(f"{n_runs} runs × {n_topics:,} topics × {depth} docs, CPU (MAP of run 1: "
                            f"{got:.6f} / {want:.6f})", ours_cpu, peer_cpu, 1 / 3))
        lines.append(f"    wall: irnb {ours_wall:.3f} s, pytrec_eval {peer_wall:.3f} s; irnb's system time "
                     f"(page faults) {' / '.join(f'{x:.2f}' for x in system)} s in its {len(system)} rounds")
    return lines


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

    S, T = (1000, 50) if not quick else (60, 50)
    rng = np.random.default_rng(0)
    P = np.round(rng.beta(2, 5, size=(S, T)) * 10) / 10  # P@10-like: ties and zero differences
    A = np.round(rng.beta(5, 2, size=(S, T)) * 10) / 10
    a, b = np.triu_indices(S, 1)
    names = [f"r{i}" for i in range(S)]
    lines = [f"  {S} runs × {T} topics = {a.size:,} pairs"]

    res, ours, _ = _cpu(lambda: stats.wilcoxon_test(P, run_names=names))

    def scipy_wilcoxon():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return sps.wilcoxon(P[a], P[b], axis=1)

    ref, peer, _ = _cpu(scipy_wilcoxon)
    same = np.array_equal(np.isnan(res.p_value), np.isnan(ref.pvalue)) and \
        np.nanmax(np.abs(res.p_value - ref.pvalue)) == 0.0
    lines.append(_ratio(f"Wilcoxon vs scipy.stats.wilcoxon(axis=1) (identical p-values: {same})", ours, peer, 0.5))

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
                        help="comma-separated parts to skip: many, parse, pairs, tukey, sweeps, bias")
    parser.add_argument("--save", action="store_true",
                        help="also write the output into benchmarks/RESULTS.md (its 'Scale' section)")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    printed = []

    def say(line: str) -> None:
        print(line, flush=True)
        printed.append(line)

    say(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, load average {_load()} at the start")
    parts = [("many", "1. many topics", lambda: many_topics(args.quick)),
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
            say(line)
    say(f"load average {_load()} at the end")
    if args.save:
        _save(printed)


def _load() -> str:
    """The 1-, 5- and 15-minute load averages (what ``uptime`` prints)."""
    return " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"


_SECTION = "## Scale: many topics, many runs, all pairs, sweeps (bench_scale.py)"


def _save(printed: list[str]) -> None:
    """Replace (or add, at the end) the Scale section of benchmarks/RESULTS.md."""
    import datetime

    path = Path(__file__).resolve().parent / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if _SECTION in text:
        head, rest = text.split(_SECTION, 1)
        tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
    else:
        head, tail = text.rstrip() + "\n\n", ""
    today = datetime.date.today().isoformat()
    body = (f"{_SECTION}\n\n`python benchmarks/bench_scale.py --save` — {today}; a 2-core machine shared with "
            "other jobs (its load averages are printed first and last): CPU seconds move by about ±10 % from "
            "run to run, ratios less.\n\n```\n" + "\n".join(printed) + "\n```\n")
    path.write_text(head + body + tail, encoding="utf-8")
    print(f"saved {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
