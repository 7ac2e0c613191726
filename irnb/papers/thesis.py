"""Reproductions of the thesis chapter (seed 003): unjudged documents of a new system that
did not contribute to the pool, and the chapter's "simulated precision".

==============  =============================================================================
id              what it shows
==============  =============================================================================
thesis-fig7.1   per topic: unjudged documents in the top 20 of a baseline (lvl0) and a new
                system (lvl1), how many they share, and the change in P@20 (lvl1 − lvl0)
thesis-fig7.2   per topic: the new system's unjudged documents, its original P@20 and the
                simulated P@20 (unjudged documents relevant with probability judged-relevant
                / judged in the top 20 — Ravana & Moffat's X_I)
==============  =============================================================================

The chapter's systems (bag-of-concepts lvl0 and the GIN lvl1, on 85 TREC MedTrack
queries) did not contribute to the pool. Here the pair is chosen by a stated rule (see
:func:`_choose_pair`); ``run_a=``/``run_b=`` pick others.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..metrics import evaluate
from ..params import MEASUREMENT_DEPTH
from ._common import interim_headline
from .registry import Reproduction, Source, register

__all__: list[str] = []

THESIS = "Thesis chapter 7 (seed 003)"
_K = 20


def _check_k(k) -> int:
    return MEASUREMENT_DEPTH.validate(k, None, label="k (measurement depth)")


def _pool(source: Source, pool_depth):
    """(judged mask or None, words) for the official qrels or a depth-d pool of the contributors."""
    if pool_depth is None:
        return None, "the official qrels"
    from ..pooling import depth_pool

    pool = depth_pool(source.experiment, depth=pool_depth)
    return pool.judged, f"a {pool.description}"


def _choose_pair(source: Source, k: int, judged, run_a, run_b, *, baseline: bool = True) -> tuple[str, str, str]:
    """The baseline (lvl0) and the new system (lvl1), and the rule's words.

    lvl1: among runs that did not contribute to the pool (all runs when every run
    contributed) and score at least the median P@k (a competitive system, like the GIN),
    the one with the most unjudged documents in its top k. lvl0: the run of lvl1's group
    (preferring one that did not contribute either; else any other run) with the fewest."""
    exp = source.experiment
    names = list(exp.run_names)
    for r in (run_a, run_b):
        if r is not None and r not in names:
            import difflib

            close = difflib.get_close_matches(str(r), names, n=3)
            raise ValueError(f"unknown run {r!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))
    if run_a is not None and run_a == run_b:
        raise ValueError(f"run_a and run_b must differ, got {run_a!r} twice")
    means = evaluate(exp, [f"Unj@{k}", f"P@{k}"], judged=judged).means()
    unjudged, score = means[f"Unj@{k}"], means[f"P@{k}"]
    outside = [n for n, c in zip(names, exp.contributors, strict=True) if not c] or names
    rule = []
    if run_b is None:
        competitive = [n for n in outside if score[n] >= score.median()] or outside
        run_b = max(competitive, key=lambda n: (unjudged[n], -names.index(n)))
        rule.append(f"lvl1 = the run with the most unjudged documents in its top {k} among the "
                    f"{'runs that did not contribute' if len(outside) < len(names) else 'runs'} with at least the "
                    f"median P@{k}")
    if run_a is None and baseline:
        group = exp.groups[names.index(run_b)]
        same = [n for n in names if n != run_b and exp.groups[names.index(n)] == group]
        pools = [[n for n in same if n in outside and n != run_b], same, [n for n in outside if n != run_b],
                 [n for n in names if n != run_b]]
        candidates = next(p for p in pools if p)
        run_a = min(candidates, key=lambda n: (unjudged[n], names.index(n)))
        rule.append("lvl0 = the run with the fewest unjudged documents among "
                    + ("the other non-contributing runs of lvl1's group" if candidates is pools[0] else
                       "the other runs of lvl1's group" if candidates is pools[1] else "the other runs"))
    return run_a, run_b, ("; ".join(rule) + ".") if rule else "Runs given by the caller."


def _truly_relevant(source: Source, run: str, k: int, judged) -> tuple[int, int] | None:
    """(unjudged documents in the run's top k that the truth calls relevant, unjudged ones)."""
    exp = source.experiment
    if exp.truth is None:
        return None
    from .._grades import unjudged

    s = int(exp.run_index(run)[0])
    pooled = exp.judgments.grade_array(judged)[s, :, :k]
    true = exp.truth.grade_array()[s, :, :k]
    hole = unjudged(pooled)
    return int((hole & (true >= 1)).sum()), int(hole.sum())


# =============================================================================== Fig. 7.1
def _draw_fig71(rep: Reproduction, ax=None):
    from .. import plots

    a, b, k = rep.details["pair"].iloc[0][["run_a", "run_b", "k"]]
    return plots.unjudged_plot(rep.details["overlap"], run_a=a, run_b=b, measure=f"P@{int(k)}", ax=ax)


@register("thesis-fig7.1", "Unjudged documents in the top 20 of a baseline and a new system per topic, their "
          "overlap and the change in P@20", f"{THESIS}, Fig. 7.1", needs=("pairs",))
def _fig71(source: Source, *, k: int = _K, pool_depth: int | None = None, run_a: str | None = None,
           run_b: str | None = None):
    """``k``: measurement depth (the chapter's 20); ``pool_depth``: judge a depth-d pool of
    the contributing runs instead of the official qrels; ``run_a``/``run_b``: lvl0/lvl1."""
    from ..pooling import unjudged_overlap

    k = _check_k(k)
    judged, pool_words = _pool(source, pool_depth)
    a, b, rule = _choose_pair(source, k, judged, run_a, run_b)
    table = unjudged_overlap(source.experiment, a, b, measurement_depth=k, pool=judged)
    shown = table[table["evaluated"]].drop(columns="evaluated")
    shown = shown.iloc[np.argsort(shown["unjudged_b"].to_numpy(), kind="stable")].set_index("topic")
    shown = shown.rename(columns={"score_a": f"P@{k} a", "score_b": f"P@{k} b",
                                  "score_difference": f"ΔP@{k} (b − a)"})
    n = len(shown)
    ua, ub, ov = (int(shown[c].sum()) for c in ("unjudged_a", "unjudged_b", "overlap"))
    more = int((shown["unjudged_b"] > shown["unjudged_a"]).sum())
    fewer = int((shown["unjudged_b"] < shown["unjudged_a"]).sum())
    many = shown["unjudged_b"] >= k / 4
    no_loss = int((many & (shown[f"ΔP@{k} (b − a)"] >= 0)).sum())
    agrees = bool(ub > ua and ov <= 0.5 * min(ua, ub))
    exp = source.experiment
    info = [f"{r} ({'contributing' if exp.contributors[exp.run_index(r)[0]] else 'not contributing'})" for r in (a, b)]
    truth = _truly_relevant(source, b, k, judged)
    notes = [
        f"Setting: {source.describe()}; judged = {pool_words}; top {k} of lvl0 = {info[0]} and lvl1 = {info[1]}, "
        f"over the {n} topics both answered; ΔP@{k} = lvl1 − lvl0. {rule}",
        f"Differs from the chapter: 85 TREC MedTrack queries, bag-of-concepts (lvl0) against the GIN (lvl1), "
        f"neither pooled, against {source.label}.",
        "Chapter: lvl1 has far more unjudged documents than lvl0, the two share few of them (they retrieve "
        "different documents), and on several queries lvl1 has many unjudged documents without losing P@20.",
        f"irnb: unjudged in the top {k}: lvl1 {ub} ({ub / max(n, 1):.1f} per topic), lvl0 {ua} "
        f"({ua / max(n, 1):.1f}), shared {ov}; lvl1 has more on {more} topics, fewer on {fewer}; on {no_loss} of "
        f"the {int(many.sum())} topics where lvl1 has at least {k / 4:g} unjudged, its P@{k} is not below lvl0's.",
    ]
    if truth is not None:
        rel, holes = truth
        notes.append(f"The truth is known here: {rel} of lvl1's {holes} unjudged documents in the top {k} are "
                     f"relevant ({rel / max(holes, 1):.0%}) — the chapter's open question.")
    notes.append("Agrees: lvl1 has more unjudged documents than lvl0 and they share at most half of the smaller "
                 "set." if agrees else "Differs: lvl1 does not have more unjudged documents than lvl0, or the "
                 "two share more than half of the smaller set.")
    headline = interim_headline(paper="lvl1 has far more unjudged docs in its top 20 than lvl0; few shared",
                        irnb=f"lvl1 {ub / max(n, 1):.1f} vs lvl0 {ua / max(n, 1):.1f} per topic, {ov} shared",
                        agrees=agrees)
    pair = pd.DataFrame({"run_a": [a], "run_b": [b], "k": [k]})
    return Reproduction("thesis-fig7.1", "", "", shown, None, "\n".join(notes), source.label, draw=_draw_fig71,
                        headline=headline, details={"overlap": table, "pair": pair})


# =============================================================================== Fig. 7.2
def _draw_fig72(rep: Reproduction, ax=None):
    from .. import plots

    t, run, k = rep.table, rep.details["pair"].iloc[0]["run_b"], int(rep.details["pair"].iloc[0]["k"])
    return plots.simulated_precision_plot(list(t.index), t["unjudged"], t["original"], t["simulated"], run=run,
                                          estimator="I", measure=f"P@{k}", ax=ax)


@register("thesis-fig7.2", "Original and simulated P@20 of a new system per topic (unjudged documents "
          "relevant at the judged documents' rate)", f"{THESIS}, Fig. 7.2")
def _fig72(source: Source, *, k: int = _K, pool_depth: int | None = None, run: str | None = None,
           background_rate: float = 0.01):
    """``run``: the new system (default: lvl1 of thesis-fig7.1); ``background_rate``: E,
    used where a topic's top k has no judged document (X_I = E there)."""
    from scipy import stats

    from ..intervals import point_estimates, score_intervals

    k = _check_k(k)
    judged, pool_words = _pool(source, pool_depth)
    _, b, rule = _choose_pair(source, k, judged, None, run, baseline=False)
    exp = source.experiment
    s = int(exp.run_index(b)[0])
    iv = score_intervals(exp, f"P@{k}", pool=judged)
    est = point_estimates(iv, background_rate=background_rate)
    answered = exp.length[s] > 0
    unjudged = np.rint(iv.residual[s] * k).astype(np.int64)  # P@k's Δ = unjudged in the top k / k
    frame = pd.DataFrame({"topic": list(exp.topics), "unjudged": unjudged, "original": iv.lower[s],
                          "simulated": est.interpolated[s]})
    if exp.truth is not None:
        frame["true"] = evaluate(exp, [f"P@{k}"], truth=True)[f"P@{k}"][s]
    frame = frame[answered]
    frame = frame.iloc[np.lexsort((np.arange(len(frame)), frame["original"].to_numpy()))].set_index("topic")
    n = len(frame)
    gains = int((frame["simulated"] > frame["original"]).sum())
    rho = float(stats.spearmanr(frame["unjudged"], frame["original"]).statistic) if n > 2 else np.nan
    agrees = bool(gains > n / 2 and rho < 0)
    notes = [
        f"Setting: {source.describe()}; judged = {pool_words}; lvl1 = {b}, its {n} answered topics ordered by "
        f"original P@{k}. {rule} Simulated P@{k}: each unjudged document in the top {k} counts as relevant with "
        f"probability |judged relevant| / |judged| in that top {k} (Ravana & Moffat's X_I = B/(1 − Δ); "
        f"E = {background_rate:g} where nothing in the top {k} is judged).",
        "Differs from the chapter: the GIN on 85 TREC MedTrack queries against the run above.",
        "Chapter: the worst queries tend to have more unjudged documents; queries with nearly only relevant and "
        "unjudged documents gain most; simulated P@20 rises over the original on a large portion of queries.",
        f"irnb: simulated > original on {gains} of {n} topics; Spearman's ρ(unjudged, original P@{k}) = {rho:.3f}; "
        f"mean original {frame['original'].mean():.3f}, simulated {frame['simulated'].mean():.3f}.",
    ]
    if "true" in frame:
        rmse = {c: float(np.sqrt(((frame[c] - frame["true"]) ** 2).mean())) for c in ("original", "simulated")}
        notes.append(f"The truth is known here (the chapter's later re-assessment): true mean P@{k} "
                     f"{frame['true'].mean():.3f}; RMSE against it: original {rmse['original']:.3f}, simulated "
                     f"{rmse['simulated']:.3f}.")
    notes.append("Agrees: the simulated P@k is higher on most topics and worse topics have more unjudged "
                 "documents." if agrees else "Differs: the simulated P@k is not higher on most topics, or worse "
                 "topics do not have more unjudged documents.")
    headline = interim_headline(paper="simulated P@20 above the original on a large portion of queries; worst "
                              "queries have more unjudged docs",
                        irnb=f"higher on {gains} of {n} topics; ρ(unjudged, P@{k}) = {rho:.2f}", agrees=agrees)
    pair = pd.DataFrame({"run_b": [b], "k": [k]})
    return Reproduction("thesis-fig7.2", "", "", frame, None, "\n".join(notes), source.label, draw=_draw_fig72,
                        headline=headline, details={"pair": pair})
