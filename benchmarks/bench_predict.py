"""Relevance prediction on the simulated default collection: Büttcher et al.'s Tables 6, 7
and 8 reproduced with synthetic text, expected measures, and speed (not a test).

1. Speed (issue 8 target: completing the default collection's qrels for one left-out group
   takes ≤ 10 s with either classifier): the group with the most unique pool entries, two
   ways — the paper's setting (predict exactly the removed qrels entries) and the general
   one (every unjudged document in the top 100 of the group's runs, pooled or not). Timed
   cold (the call reads the lazily generated texts and tokenises them) and warm (a
   TermCounts built once and reused).
2. Table 6: classifier precision / recall / F1 (per-topic macro-averages) when trained on
   5%–80% of the official qrels (random_subsample) and tested on the rest; and trained on
   the automatic-only / manual-only pools, tested on the rest of the qrels.
3. Table 7: leave-one-group-out (Table 2) side by side with the qrels completed by KLD and
   by SVM; plus the classifiers' precision/recall on the removed documents.
4. Table 8: the automatic-only pool (Table 3) side by side with its completions.
5. Beyond the paper: expected P@20 and RBP(0.8) from calibrated probabilities against the
   binary completion and the reduced qrels (RMS error of the left-out runs' mean scores
   against the official qrels).

    python benchmarks/bench_predict.py [--methods kld svm] [--repeat 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from irnb import evaluate
from irnb.bias import contributor_subset_bias, leave_one_group_out_bias
from irnb.pooling import Pool, depth_pool, leave_one_group_out, random_subsample
from irnb.predict import (
    complete_qrels,
    completed_leave_one_group_out_bias,
    completed_pool_bias,
    contributor_subset_completion,
    expected_precision,
    expected_rbp,
    leave_one_group_out_completions,
    term_counts,
)
from irnb.predict.completion import run_lines  # the docnos a run ranks (to size the general setting's TermCounts)

POOL_DEPTH = 100
FRACTIONS = (0.05, 0.1, 0.2, 0.4, 0.6, 0.8)
MEASURES = ("RR", "P@10", "P@20", "nDCG@20", "AP", "Bpref", "P@20(j)", "RankEff")
ROWS_7 = ["mean_abs_rank_change", "max_rank_up", "max_rank_down", "rms_error", "pct_significant"]
# Büttcher et al. (SIGIR 2007) Table 6, F1 by training data: 5% … 80%, automatic-only, manual-only
PAPER_TABLE_6_F1 = {"kld": [0.238, 0.293, 0.327, 0.356, 0.370, 0.355, 0.262, 0.231],
                    "svm": [0.174, 0.243, 0.307, 0.420, 0.455, 0.474, 0.355, 0.364]}
ROWS_8 = ["mean_abs_rank_change", "max_rank_up", "max_rank_down", "rms_error", "kendall_tau", "kendall_tau_left_out"]


def _show(title: str, frame: pd.DataFrame, decimals: int = 4) -> None:
    print(f"\n{title}")
    with pd.option_context("display.width", 220, "display.max_columns", 30, "display.max_rows", 200):
        print(frame.round(decimals).to_string())


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _macro(acc: pd.DataFrame) -> pd.Series:
    return acc[["precision", "recall", "f1"]].mean()


def speed(collection, corpus, methods, repeat: int) -> None:
    exp = collection.experiment
    pools = leave_one_group_out(exp, depth=POOL_DEPTH)
    full = depth_pool(exp, depth=POOL_DEPTH).judged
    unique = {g: int((full & ~pools.judged[i]).sum()) for i, g in enumerate(pools.groups)
              if (exp.contributors & (np.asarray(exp.groups) == g)).any()}
    group = max(unique, key=unique.get)
    removed = full & ~pools[group].judged
    training = Pool(~removed, f"official qrels without {group}'s unique entries")
    runs = [r for r, g in zip(exp.run_names, exp.groups, strict=True) if g == group]
    print(f"\n1. Speed: leaving out group {group!r} ({len(runs)} runs; {unique[group]} unique pool entries of "
          f"{int(full.sum())}); target ≤ 10 s per completion")
    # the general setting also reads documents the qrels do not list: a TermCounts covering them too
    top = [run_lines(exp, s, POOL_DEPTH)[2] for s in exp.run_index(runs)]
    wider, took = _timed(lambda: term_counts(collection.documents, pa.concat_arrays(
        [exp.judgments.qrel_docno] + [pc.unique(pa.concat_arrays(top))])))
    print(f"  a TermCounts of the qrels documents and the group's top {POOL_DEPTH}: {wider} in {took:.1f} s")
    rows = []
    for method in methods:
        for setting, kwargs, counts in (("removed qrels entries (paper)", dict(targets=removed), corpus),
                                        ("all unjudged in top 100 of the group's runs",
                                         dict(runs=runs, depth=POOL_DEPTH), wider)):
            done, cold = _timed(lambda: complete_qrels(exp, collection.documents, pool=training, method=method,
                                                       **kwargs))
            warm = np.median([_timed(lambda: complete_qrels(exp, counts, pool=training, method=method,
                                                            **kwargs))[1] for _ in range(repeat)])
            binary, fast = _timed(lambda: complete_qrels(exp, counts, pool=training, method=method,
                                                         probabilities=False, **kwargs))
            rows.append({"method": method, "predict": setting, "predicted": len(done.predicted),
                         "of which outside qrels": int((done.predicted["entry"] < 0).sum()),
                         "cold s (texts read)": cold, "warm s (TermCounts)": warm,
                         "warm s, no probabilities": fast})
    _show("completion time per left-out group:", pd.DataFrame(rows).set_index(["method", "predict"]), 2)


def table6(collection, corpus, methods, seed: int) -> None:
    exp = collection.experiment
    info = collection.run_info
    rng = np.random.default_rng(seed)
    settings = [(f"{f:.0%}", f"{1 - f:.0%}", random_subsample(exp, fraction=f, seed=rng)) for f in FRACTIONS]
    automatic = info.loc[info["contributor"] & ~info["manual"], "run"].tolist()
    manual = info.loc[info["contributor"] & info["manual"], "run"].tolist()
    settings.append(("Automatic-only", "Rest", depth_pool(exp, depth=POOL_DEPTH, runs=automatic)))
    settings.append(("Manual-only", "Rest", depth_pool(exp, depth=POOL_DEPTH, runs=manual)))
    rows, seconds = [], {m: 0.0 for m in methods}
    for train, test, pool in settings:
        row = {"training data": train, "test data": test}
        for method in methods:
            done, took = _timed(lambda: complete_qrels(exp, corpus, pool=pool, targets=~pool.judged, method=method,
                                                       probabilities=False))
            seconds[method] += took
            for key, value in _macro(done.accuracy()).items():
                row[(method, key)] = value
        rows.append(row)
    frame = pd.DataFrame(rows).set_index(["training data", "test data"])
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    _show(f"2. Table 6: predicting relevance, per-topic precision/recall/F1 macro-averages "
          f"({', '.join(f'{m} {s:.1f} s' for m, s in seconds.items())} for all rows):", frame, 3)
    paper = pd.DataFrame(PAPER_TABLE_6_F1, index=[row[0] for row in settings]).T
    _show("   for comparison, Büttcher et al.'s Table 6 F1 (TREC 2006 Terabyte, topics 801–850):", paper, 3)


def table7(collection, corpus, methods) -> dict:
    exp = collection.experiment
    plain = leave_one_group_out_bias(exp, depth=POOL_DEPTH, measures=MEASURES)
    parts = {"uncompleted (Table 2)": plain.table().loc[ROWS_7]}
    completions_by_method, quality = {}, {}
    for method in methods:
        completions, took = _timed(lambda: leave_one_group_out_completions(exp, corpus, depth=POOL_DEPTH,
                                                                           method=method))
        completions_by_method[method] = completions
        result = completed_leave_one_group_out_bias(exp, completions, measures=MEASURES)
        parts[f"{method} ({took:.1f} s for {len(completions)} groups)"] = result.table().loc[ROWS_7]
        acc = pd.concat([c.accuracy() for c in completions.values()], ignore_index=True)
        quality[method] = _macro(acc)
    frame = pd.concat(parts, names=["qrels"])
    _show("3. Table 7: leave-one-group-out, depth-100 pool, every run of a left-out group, with and without "
          "completed qrels:", frame)
    _show("classifier quality on the removed documents (macro over groups × topics, official grades):",
          pd.DataFrame(quality).T, 4)
    return completions_by_method


def table8(collection, corpus, methods) -> None:
    exp = collection.experiment
    info = collection.run_info
    automatic = info.loc[info["contributor"] & ~info["manual"], "run"].tolist()
    manual = info.loc[info["contributor"] & info["manual"], "run"].tolist()
    plain = contributor_subset_bias(exp, automatic, depth=POOL_DEPTH, left_out=manual, measures=MEASURES)
    parts = {"uncompleted (Table 3)": plain.table().loc[ROWS_8]}
    variants = [(m, None) for m in methods] + [(m, 2) for m in methods if m == "svm"]
    for method, grade in variants:
        completed, took = _timed(lambda: contributor_subset_completion(exp, corpus, automatic, depth=POOL_DEPTH,
                                                                       method=method, relevant_grade=grade))
        result = completed_pool_bias(exp, completed, left_out=manual, measures=MEASURES)
        acc = _macro(completed.accuracy())
        label = (f"{method}{', relevant grade 2' if grade else ''} ({took:.1f} s; P {acc['precision']:.3f} "
                 f"R {acc['recall']:.3f} on {len(completed.predicted)} removed)")
        parts[label] = result.table().loc[ROWS_8]
    _show(f"4. Table 8: automatic-only pool ({len(automatic)} automatic contributors; {len(manual)} manual runs "
          f"left out; τ over all {len(exp.run_names)} runs and over the manual runs), with and without completion:",
          pd.concat(parts, names=["qrels"]))


def expected(collection, completions_by_method) -> None:
    exp = collection.experiment
    groups = np.asarray(exp.groups)
    names = ("P@20", "RBP(p=0.8)")
    reference = evaluate(exp, names)
    rows = []
    for method, completions in completions_by_method.items():
        errors: dict[tuple[str, str], list] = {}
        for group, done in completions.items():
            runs = np.flatnonzero(groups == group)
            answered = exp.length[runs] > 0
            reduced = evaluate(exp, names, judged=done.judged)
            binary = done.evaluate(names)
            estimates = {"P@20": expected_precision(exp, done, 20), "RBP(p=0.8)": expected_rbp(exp, done, 0.8)}

            def mean(values):
                return np.where(answered, values[runs], 0.0).sum(axis=1) / answered.sum(axis=1)

            for name in names:
                truth = mean(reference[name])
                for label, values in (("reduced qrels (B)", reduced[name]), ("binary completion", binary[name]),
                                      ("expected (probabilities)", estimates[name])):
                    errors.setdefault((name, label), []).append(mean(values) - truth)
        for (name, label), diffs in errors.items():
            d = np.concatenate(diffs)
            rows.append({"method": method, "measure": name, "scores": label,
                         "rms_error": float(np.sqrt(np.mean(d ** 2))), "mean_error": float(d.mean())})
    frame = pd.DataFrame(rows).pivot_table(index=["measure", "scores"], columns="method",
                                           values=["rms_error", "mean_error"])
    _show("5. Beyond the paper: left-out runs' mean scores against the official qrels (leave-one-group-out, "
          "every run of each left-out group):", frame)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", nargs="+", default=["kld", "svm"], choices=["kld", "svm"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1, help="seed of the random qrels subsets (Table 6)")
    args = parser.parse_args(argv)

    from irnb.datasets import default

    collection, took = _timed(default)
    exp = collection.experiment
    print(f"{collection}\n  (simulated in {took:.1f} s)")
    corpus, took = _timed(lambda: term_counts(collection.documents, exp.judgments.qrel_docno))
    print(f"texts of the {corpus.num_documents} qrels documents generated and tokenised once: {took:.1f} s → {corpus}")
    speed(collection, corpus, args.methods, args.repeat)
    table6(collection, corpus, args.methods, args.seed)
    completions = table7(collection, corpus, args.methods)
    table8(collection, corpus, args.methods)
    expected(collection, completions)


if __name__ == "__main__":
    main()
