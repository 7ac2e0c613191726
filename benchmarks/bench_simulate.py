"""Time the embedded default collection: generation, Experiment build, writing, text.

    python benchmarks/bench_simulate.py [--repeat 3]

Targets (issue 5): simulate(seed=0) ≤ 2 s, its Experiment ≤ 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from irnb import Experiment, evaluate
from irnb.datasets import simulate, write_collection
from irnb.datasets.fast_experiment import experiment_from_ranking


def _best(fn, repeat: int) -> tuple[float, object, float]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out, statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    r = args.repeat
    t_sim, c, m_sim = _best(lambda: simulate(seed=0), r)
    # collection.experiment is cached on first access: time fresh builds of the same thing
    t_exp, exp, m_exp = _best(lambda: experiment_from_ranking(
        dict(c.runs), c.qrels, c.truth, ranking=c.ranking, pooled=c.pooled, topics=c.topics["topic"].tolist(),
        groups=c.run_info["group"].tolist(), contributors=c.run_info["contributor"].to_numpy()), r)
    t_pub, _, _ = _best(lambda: Experiment(dict(c.runs), c.qrels, truth=c.truth), 1)
    t_eval, _, m_eval = _best(lambda: evaluate(exp, ["AP", "P@10", "nDCG@20", "Judged@10"]), r)
    with tempfile.TemporaryDirectory() as tmp:
        t_write, _, m_write = _best(lambda: write_collection(c, tmp, overwrite=True), r)
    docnos = c.qrels.to_frame()["docno"].tolist()[:10_000]
    t_text, _, m_text = _best(lambda: c.documents.texts(docnos), r)
    S, T, D = c.ranking.shape
    print(f"default collection: {S} runs × {T} topics × depth {D}; {c.qrels.num_judgments} official, "
          f"{c.truth.num_judgments} true judgments")
    print(f"{'step':46s} {'best':>8s} {'median':>8s}")
    rows = [("simulate(seed=0)                   [≤ 2 s]", t_sim, m_sim),
            ("its Experiment (collection.experiment) [≤ 1 s]", t_exp, m_exp),
            ("Experiment(runs, qrels, truth=) (public path)", t_pub, t_pub),
            ("evaluate AP, P@10, nDCG@20, Judged@10", t_eval, m_eval),
            ("write_collection (TREC files)", t_write, m_write),
            ("documents.texts(10,000 docnos)", t_text, m_text)]
    for label, best, median in rows:
        print(f"{label:46s} {best:8.3f} {median:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
