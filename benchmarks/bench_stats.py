"""Speed of the all-pairs significance tests and the decision matrix (not a test).

Data: the embedded default collection (``irnb.datasets.default()``: 40 runs × 50 topics,
1000 deep, pooled at depth 100) evaluated once, untimed, on P@10 / Judged@10 (coarse
values: many ties and zero differences → Wilcoxon's normal approximation) and AP / MAA
(continuous values → Wilcoxon's exact distribution).

Timed (median of ``--repeat`` calls, warm): every one of the 780 pairs at once with
``irnb.stats`` (t, Wilcoxon, sign, randomization with 9,999 flips, ANOVA + Bonferroni,
Tukey HSD), scipy's vectorised ``ttest_rel``/``wilcoxon`` with ``axis=1`` on the same pairs,
and a Python loop of scipy calls over the pairs (for scale). Also ``compare_table`` end to
end (evaluation included) and Table 1 (``case_proportions``, six measures).

Target (issue 4): t-test and Wilcoxon for one measure and its assessment measure —
four all-pairs calls — ≤ 20 ms in total.

    python benchmarks/bench_stats.py [--repeat 15] [--no-loop]
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
from scipy import stats as sps

import irnb
from irnb import stats
from irnb.datasets import default
from irnb.decision import case_proportions, compare_table


BEST: dict[str, float] = {}


def _time(fn, repeat: int, key: str | None = None) -> float:
    """Median wall time in ms over ``repeat`` warm calls (the best one is kept in BEST[key]:
    on a shared machine the median moves with the load, the best much less)."""
    fn()  # warm-up
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    if key is not None:
        BEST[key] = min(runs) * 1e3
    return float(np.median(runs)) * 1e3


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-loop", action="store_true", help="skip the slow Python loop over scipy calls")
    args = parser.parse_args(argv)

    collection = default()
    exp = collection.experiment
    ev = irnb.evaluate(exp, ["P@10", "Judged@10", "AP", "MAA"])
    names = list(ev.run_names)
    S, T = ev["P@10"].shape
    pairs = S * (S - 1) // 2
    print(f"{exp}; {pairs} pairs × {T} topics; Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}")

    rows = []
    total = 0.0
    for m in ("P@10", "Judged@10", "AP", "MAA"):
        X = np.asarray(ev[m])
        t_ms = _time(lambda: stats.t_test(X, run_names=names), args.repeat, f"t {m}")
        w_ms = _time(lambda: stats.wilcoxon_test(X, run_names=names), args.repeat, f"W {m}")
        methods = sorted(set(stats.wilcoxon_test(X, run_names=names).method))
        if m in ("P@10", "Judged@10"):
            total += t_ms + w_ms
        a, b = np.triu_indices(S, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            st_ms = _time(lambda: sps.ttest_rel(X[a], X[b], axis=1), args.repeat)
            sw_ms = _time(lambda: sps.wilcoxon(X[a], X[b], axis=1), max(3, args.repeat // 3))
        rows.append((m, t_ms, w_ms, st_ms, sw_ms, "/".join(methods)))
    print("\nall 780 pairs at once (ms, median)")
    print(f"{'measure':<10} {'irnb t':>8} {'irnb W':>8} {'scipy t':>8} {'scipy W':>8}  Wilcoxon method")
    for m, t_ms, w_ms, st_ms, sw_ms, methods in rows:
        print(f"{m:<10} {t_ms:8.2f} {w_ms:8.2f} {st_ms:8.2f} {sw_ms:8.2f}  {methods}")
    best = sum(BEST[f"{k} {m}"] for k in ("t", "W") for m in ("P@10", "Judged@10"))
    print(f"\nTARGET  t + Wilcoxon for P@10 and Judged@10 (4 calls): median {total:.2f} ms, best {best:.2f} ms "
          "(target ≤ 20 ms)")

    X = np.asarray(ev["P@10"])
    print("\nother tests on P@10 (ms, median)")
    for label, fn, rep in [
        ("sign", lambda: stats.sign_test(X, run_names=names), args.repeat),
        ("randomization (9,999 flips)", lambda: stats.randomization_test(X, run_names=names, seed=0), 3),
        ("ANOVA + Bonferroni", lambda: stats.anova_bonferroni(X, run_names=names), args.repeat),
        ("Tukey HSD (scipy studentized range)", lambda: stats.tukey_hsd(X, run_names=names), 1),
        ("compare_table P@10, t (evaluation included)", lambda: compare_table(exp, "P@10"), 5),
        ("compare_table P@10, t, given the Evaluation", lambda: compare_table(ev, "P@10"), args.repeat),
        ("Table 1: case_proportions, 6 measures, t", lambda: case_proportions(exp), 3),
    ]:
        print(f"  {label:<46} {_time(fn, rep):9.2f}")

    if not args.no_loop:
        a, b = np.triu_indices(S, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.perf_counter()
            for i, j in zip(a, b, strict=True):
                sps.ttest_rel(X[i], X[j])
            loop_t = (time.perf_counter() - start) * 1e3
            start = time.perf_counter()
            for i, j in zip(a, b, strict=True):
                sps.wilcoxon(X[i], X[j])
            loop_w = (time.perf_counter() - start) * 1e3
        print(f"\nscipy in a Python loop over the 780 pairs, P@10: t {loop_t:.0f} ms, Wilcoxon {loop_w:.0f} ms")


if __name__ == "__main__":
    main()
