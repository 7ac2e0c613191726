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
queries) did not contribute to the pool; lvl1 is the new semantic system, lvl0 the
baseline. Here the pair is a fixed draw among runs that did not contribute (see
:func:`_example_pair`), which looks at neither unjudged documents nor scores, so that the
chapter's findings are tested, not built in. Where the data marks run kinds (the simulator),
the roles follow the chapter's design: lvl1 is a run of the kind that stands in for the
semantic system (:data:`NEW_KIND`), lvl0 a run of another kind; where it does not, the roles
are the draw's, and the notes say how claim 1 fares with them swapped. ``run_a=``/``run_b=``
pick others.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..metrics import evaluate
from ..params import BACKGROUND_RATE, MEASUREMENT_DEPTH
from . import figures
from .registry import Claim, Headline, Reproduction, Source, register

__all__: list[str] = []

THESIS = "Thesis chapter 7 (seed 003)"
_K = 20

# The verdicts' rules and their margins: the same on every data set.
#: The example pair is a fixed draw from numpy's ``default_rng(EXAMPLE_SEED)``.
EXAMPLE_SEED = 0
#: "far more unjudged documents": lvl1's, summed over the topics, at least this many times lvl0's.
FAR_MORE = 1.5
#: "the overlap … was relatively small": at most this share of the smaller set of unjudged documents.
SMALL_OVERLAP = 0.5
#: "a significant number of unjudged documents": at least this share of the top k.
MANY_UNJUDGED = 0.25
#: "without a significant degradation in precision": P@k falls by at most this many documents of k.
LOSS_DOCUMENTS = 1
#: "a number of queries": at least this many.
SOME_TOPICS = 3
#: Fig. 7.2, "the worst performing queries tend to have a higher number of unjudged documents":
#: Spearman's ρ(unjudged, original P@k) negative by a one-sided test at this level.
RHO_ALPHA = 0.05
#: Fig. 7.2, "few or no irrelevant documents": at most this share of the top k judged non-relevant.
FEW_NONRELEVANT = 0.1
#: Fig. 7.2, "the queries with the largest gains" (the chapter names three peaks: 131, 102, 110).
PEAKS = 3


def _far_more(more: int, fewer: int) -> bool | None:
    """Fig. 7.1: ``more`` at least FAR_MORE times ``fewer`` (None when both are 0: nothing to compare)."""
    if more == 0 and fewer == 0:
        return None
    return bool(more > fewer and more >= FAR_MORE * fewer)


def _small_overlap(shared: int, a: int, b: int) -> bool | None:
    """Fig. 7.1: ``shared`` at most SMALL_OVERLAP of min(a, b) (None when a run has none unjudged)."""
    if min(a, b) == 0:
        return None
    return bool(shared <= SMALL_OVERLAP * min(a, b))


def _many_without_loss(unjudged_b, difference, k: int) -> int:
    """Fig. 7.1: topics where lvl1 has at least MANY_UNJUDGED·k unjudged documents and P@k falls
    by at most LOSS_DOCUMENTS/k."""
    many = np.asarray(unjudged_b) >= MANY_UNJUDGED * k
    kept = np.asarray(difference, dtype=float) >= -LOSS_DOCUMENTS / k - 1e-12
    return int((many & kept).sum())


def _worse_has_more_unjudged(unjudged, original) -> tuple[bool | None, float, float]:
    """Fig. 7.2: (holds, ρ, p): Spearman's ρ(unjudged, original) < 0, one-sided p < RHO_ALPHA;
    None when fewer than 3 topics or either column is constant."""
    from scipy import stats

    u, o = np.asarray(unjudged, dtype=float), np.asarray(original, dtype=float)
    if u.size < 3 or np.ptp(u) == 0 or np.ptp(o) == 0:
        return None, float("nan"), float("nan")
    result = stats.spearmanr(u, o, alternative="less")
    return bool(result.pvalue < RHO_ALPHA), float(result.statistic), float(result.pvalue)


def _peaks_have_few_nonrelevant(gain, nonrelevant, k: int) -> bool | None:
    """Fig. 7.2: the PEAKS topics with the largest positive gains each have at most
    FEW_NONRELEVANT·k judged non-relevant documents in the top k (None when none gains)."""
    gain, nonrel = np.asarray(gain, dtype=float), np.asarray(nonrelevant)
    rising = np.flatnonzero(gain > 0)
    if rising.size == 0:
        return None
    peaks = rising[np.argsort(-gain[rising], kind="stable")[:PEAKS]]
    return bool((nonrel[peaks] <= FEW_NONRELEVANT * k).all())


def _check_k(k) -> int:
    return MEASUREMENT_DEPTH.validate(k, None, label="k (measurement depth)")


def _pool(source: Source, pool_depth):
    """(judged mask or None, words) for the official qrels or a depth-d pool of the contributors."""
    if pool_depth is None:
        return None, "the official qrels"
    from ..pooling import depth_pool

    pool = depth_pool(source.experiment, depth=pool_depth)
    return pool.judged, f"a {pool.description}"


#: The run kind that stands in for the chapter's semantic system (the GIN, lvl1), where the data
#: marks run kinds: the simulator's "novel" runs weight a facet of relevance the pooled runs
#: ignore, and its thesis setting pools none of them (irnb.datasets.settings.thesis).
NEW_KIND = "novel"


class Pair(NamedTuple):
    """The example pair: lvl0 (the baseline), lvl1 (the new system), the rule in words, and
    whether the roles come from the runs' kinds (False: from the order of a kind-free draw)."""

    lvl0: str
    lvl1: str
    rule: str
    by_kind: bool


def _example_pair(names, groups, contributors, kinds=None, *, seed: int = EXAMPLE_SEED, run_a=None, run_b=None
                  ) -> Pair:
    """The example pair: a fixed draw that looks at no score and no judgment.

    Candidates: the runs that did not contribute to the pool (the chapter's two systems did
    not). Where ``kinds`` marks a run kind per run and some candidates are of :data:`NEW_KIND`
    and some not, the roles follow the chapter's design: lvl1 (the new semantic system) is a
    candidate of :data:`NEW_KIND`, lvl0 (the baseline) a candidate of another kind. From
    ``default_rng(seed)``: one group among those holding both (the chapter's systems come from
    one team), then lvl1 among its :data:`NEW_KIND` candidates and lvl0 among its others; with
    no such group, each among all its candidates. Otherwise (no kinds, or no candidate of one
    role) the kind-free draw: every run when fewer than two did not contribute; one group among
    those with two or more candidates, then two of its candidates in drawn order, lvl0 first;
    with no such group, two of all candidates. A run given as ``run_a``/``run_b`` stays; the
    other is drawn, by the same rule, from its group's candidates where it has any.

    >>> _example_pair(["a", "b", "c", "d"], ["g", "g", "h", "h"], [True, False, False, False])[:2]
    ('c', 'd')
    >>> _example_pair(["a", "b", "c", "d"], ["g", "g", "h", "h"], [True, False, False, False],
    ...               ["popular", "popular", "novel", "popular"])[:2]
    ('d', 'c')
    """
    names = list(names)
    group = dict(zip(names, groups, strict=True))
    outside = [n for n, c in zip(names, contributors, strict=True) if not c]
    rng = np.random.default_rng(seed)
    if run_a is not None and run_b is not None:
        return Pair(run_a, run_b, "Runs given by the caller.", False)
    if kinds is not None:
        kind = dict(zip(names, kinds, strict=True))
        new = [n for n in outside if kind[n] == NEW_KIND and n != run_a]
        old = [n for n in outside if kind[n] != NEW_KIND and n != run_b]
        if run_a is not None:
            old = [run_a]
        if run_b is not None:
            new = [run_b]
        if new and old:
            return _pair_by_kind(new, old, group, rng, seed, given=run_a is not None or run_b is not None)
    return _kind_free_pair(names, group, outside, rng, seed, run_a=run_a, run_b=run_b,
                           marked=kinds is not None)


def _pair_by_kind(new: list, old: list, group: dict, rng, seed: int, *, given: bool) -> Pair:
    """lvl1 among ``new``, lvl0 among ``old``, from one group holding both where one does."""
    both = [g for g in dict.fromkeys(group[n] for n in new) if any(group[n] == g for n in old)]
    if both:
        g = both[int(rng.integers(len(both)))]
        new, old = [n for n in new if group[n] == g], [n for n in old if group[n] == g]
    lvl1 = new[int(rng.integers(len(new)))]
    lvl0 = old[int(rng.integers(len(old)))]
    where = "of one group (the chapter's two systems come from one team)" if both else "(no group holds both)"
    return Pair(lvl0, lvl1, (
        f"{'The run not given is drawn by the roles of the chapter' if given else 'Roles as in the chapter'}: "
        f"lvl1, the new system, is a run of kind '{NEW_KIND}' (the stand-in for the chapter's semantic system), "
        f"lvl0, the baseline, a run of another kind, neither contributing to the pool, {where}; each a "
        f"fixed draw (numpy default_rng({seed})) among its candidates, by kind, never by score or judgment, so the "
        "chapter's findings are tested, not built in."), True)


def _kind_free_pair(names: list, group: dict, outside: list, rng, seed: int, *, run_a, run_b, marked: bool) -> Pair:
    """The draw that does not know which run is the new system: lvl0 is drawn first."""
    candidates = outside if len(outside) >= 2 else names
    among = ("the runs that did not contribute to the pool" if candidates is outside else
             "all runs (fewer than two did not contribute to the pool)")
    roles = (f" No candidate pair has one run of kind '{NEW_KIND}' and one of another kind" if marked else
             " The data marks no run kinds") + (
        ", so which drawn run plays lvl1 (the chapter's new system) is the draw's: claim 1 (far more unjudged "
        "documents in lvl1) depends on it.")
    given = run_a if run_a is not None else run_b
    if given is not None:
        others = [n for n in candidates if n != given] or [n for n in names if n != given]
        mates = [n for n in others if group[n] == group[given]] or others
        drawn = mates[int(rng.integers(len(mates)))]
        pair = (given, drawn) if run_a is not None else (drawn, given)
        return Pair(*pair, f"{'lvl1' if run_a is not None else 'lvl0'} drawn (numpy default_rng({seed})) from "
                           f"{among}, in the given run's group where it has another.", False)
    by_group: dict = {}
    for n in candidates:
        by_group.setdefault(group[n], []).append(n)
    shared = [g for g, members in by_group.items() if len(members) >= 2]
    pool = by_group[shared[int(rng.integers(len(shared)))]] if shared else candidates
    i, j = rng.choice(len(pool), size=2, replace=False)
    which = f"two runs of one group, among {among}" if shared else f"two of {among}"
    return Pair(pool[int(i)], pool[int(j)], (f"lvl0 and lvl1 are a fixed draw (numpy default_rng({seed})) of "
                                             f"{which}, lvl0 first: the draw looks at no score and no judgment, so "
                                             f"the chapter's findings are tested, not built in.{roles}"), False)


def _kinds(source: Source) -> list | None:
    """Each run's kind where the data marks kinds (a simulated collection's ``run_info``), else None."""
    info = getattr(source.collection, "run_info", None)
    if info is None or "kind" not in info:
        return None
    kind = dict(zip(info["run"], info["kind"], strict=True))
    return [kind.get(r) for r in source.experiment.run_names]


def _choose_pair(source: Source, run_a, run_b) -> Pair:
    """:func:`_example_pair` on the source's runs (with their kinds where the data marks them),
    with run names checked."""
    exp = source.experiment
    names = list(exp.run_names)
    for r in (run_a, run_b):
        if r is not None and r not in names:
            import difflib

            close = difflib.get_close_matches(str(r), names, n=3)
            raise ValueError(f"unknown run {r!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))
    if run_a is not None and run_a == run_b:
        raise ValueError(f"run_a and run_b must differ, got {run_a!r} twice")
    return _example_pair(names, exp.groups, exp.contributors, _kinds(source), run_a=run_a, run_b=run_b)


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
@register("thesis-fig7.1", "Unjudged documents in the top 20 of a baseline and a new system per topic, their "
          "overlap and the change in P@20", f"{THESIS}, Fig. 7.1", needs=("pairs",))
def _fig71(source: Source, *, k: int = _K, pool_depth: int | None = None, run_a: str | None = None,
           run_b: str | None = None):
    """``k``: measurement depth (the chapter's 20); ``pool_depth``: judge a depth-d pool of
    the contributing runs instead of the official qrels; ``run_a``/``run_b``: lvl0/lvl1."""
    from ..pooling import unjudged_overlap

    k = _check_k(k)
    judged, pool_words = _pool(source, pool_depth)
    a, b, rule, by_kind = _choose_pair(source, run_a, run_b)
    table = unjudged_overlap(source.experiment, a, b, measurement_depth=k, pool=judged)
    shown = table[table["evaluated"]].drop(columns="evaluated")
    shown = shown.iloc[np.argsort(shown["unjudged_b"].to_numpy(), kind="stable")].set_index("topic")
    shown = shown.rename(columns={"score_a": f"P@{k} a", "score_b": f"P@{k} b",
                                  "score_difference": f"ΔP@{k} (b − a)"})
    n = len(shown)
    ua, ub, ov = (int(shown[c].sum()) for c in ("unjudged_a", "unjudged_b", "overlap"))
    more = int((shown["unjudged_b"] > shown["unjudged_a"]).sum())
    fewer = int((shown["unjudged_b"] < shown["unjudged_a"]).sum())
    diff = shown[f"ΔP@{k} (b − a)"]
    many = int((shown["unjudged_b"] >= MANY_UNJUDGED * k).sum())
    kept = _many_without_loss(shown["unjudged_b"], diff, k)
    exp = source.experiment
    info = [f"{r} ({'contributing' if exp.contributors[exp.run_index(r)[0]] else 'not contributing'})" for r in (a, b)]
    truth = _truly_relevant(source, b, k, judged)
    notes = [
        f"Setting: {source.describe()}; judged = {pool_words}; top {k} of lvl0 = {info[0]} and lvl1 = {info[1]}, "
        f"over the {n} topics both answered; ΔP@{k} = lvl1 − lvl0. {rule}",
        f"Differs from the chapter: 85 TREC MedTrack queries, bag-of-concepts (lvl0) against the GIN (lvl1), "
        f"neither pooled (no semantic system contributed to the pool), against {source.label}.",
        "Chapter: lvl1 has far more unjudged documents than lvl0, the two share few of them (they retrieve "
        "different documents), and on a number of queries lvl1 has many unjudged documents without a significant "
        "loss in P@20.",
        f"irnb: unjudged in the top {k}: lvl1 {ub} ({ub / max(n, 1):.1f} per topic), lvl0 {ua} "
        f"({ua / max(n, 1):.1f}), shared {ov}; lvl1 has more on {more} topics, fewer on {fewer}; on {kept} of "
        f"the {many} topics where lvl1 has at least {MANY_UNJUDGED * k:g} unjudged, its P@{k} is at most "
        f"{LOSS_DOCUMENTS} document{'s' if LOSS_DOCUMENTS != 1 else ''} below lvl0's.",
    ]
    if truth is not None:
        rel, holes = truth
        notes.append(f"The truth is known here: {rel} of lvl1's {holes} unjudged documents in the top {k} are "
                     f"relevant ({rel / max(holes, 1):.0%}) — the chapter's open question.")
    far, small = _far_more(ub, ua), _small_overlap(ov, ua, ub)
    if not by_kind and run_a is None and run_b is None:
        swapped = _far_more(ua, ub)
        notes.append(f"With the drawn runs' roles swapped (lvl1 = {a}), claim 1 "
                     + ("cannot be tested" if swapped is None else "holds" if swapped else "fails") + ".")
    claims = [
        Claim("far more unjudged documents in lvl1's top 20 than in lvl0's",
              f"lvl1 {ub} ({ub / max(n, 1):.1f} per topic), lvl0 {ua} ({ua / max(n, 1):.1f})",
              f"lvl1's unjudged documents in the top {k}, summed over the topics, at least {FAR_MORE:g} times lvl0's",
              far, reason="" if far is not None else f"neither run has an unjudged document in its top {k}"),
        Claim("the overlap between lvl0's and lvl1's unjudged documents is relatively small",
              f"{ov} shared of {min(ua, ub)} (the smaller set)",
              f"the unjudged documents both runs have in their top {k} at most {SMALL_OVERLAP:.0%} of the smaller "
              "set", small,
              reason="" if small is not None else f"{'lvl0' if ua <= ub else 'lvl1'} has no unjudged document in its "
                                                  f"top {k}: no overlap to measure"),
        Claim("a number of queries where lvl1 returns many unjudged documents without a significant loss in P@20",
              f"{kept} topics (of {many} with at least {MANY_UNJUDGED * k:g} unjudged)",
              f"at least {SOME_TOPICS} topics where lvl1 has at least {MANY_UNJUDGED:.0%} of its top {k} unjudged "
              f"and its P@{k} is at most {LOSS_DOCUMENTS} document below lvl0's", kept >= SOME_TOPICS),
    ]
    headline = Headline("lvl1 has far more unjudged documents in its top 20 than lvl0; few of them shared; on a number "
                        "of queries many unjudged without a loss in P@20", claims)
    pair = pd.DataFrame({"run_a": [a], "run_b": [b], "k": [k]})
    return Reproduction("thesis-fig7.1", "", "", shown, None, "\n".join(notes), source.label,
                        draw=figures.unjudged_overlap, headline=headline, details={"overlap": table, "pair": pair})


# =============================================================================== Fig. 7.2
@register("thesis-fig7.2", "Original and simulated P@20 of a new system per topic (unjudged documents "
          "relevant at the judged documents' rate)", f"{THESIS}, Fig. 7.2")
def _fig72(source: Source, *, k: int = _K, pool_depth: int | None = None, run: str | None = None,
           background_rate: float = BACKGROUND_RATE.default):
    """``run``: the new system (default: lvl1 of thesis-fig7.1); ``background_rate``: E,
    used where a topic's top k has no judged document (X_I = E there)."""

    from ..intervals import point_estimates, score_intervals

    k = _check_k(k)
    judged, pool_words = _pool(source, pool_depth)
    _, b, rule, _ = _choose_pair(source, None, run)
    if run is not None:
        rule = "lvl1 given by the caller."
    exp = source.experiment
    s = int(exp.run_index(b)[0])
    iv = score_intervals(exp, f"P@{k}", pool=judged)
    est = point_estimates(iv, background_rate=background_rate)
    answered = exp.length[s] > 0
    unjudged = np.rint(iv.residual[s] * k).astype(np.int64)  # P@k's Δ = unjudged in the top k / k
    grades = exp.judgments.grade_array(judged)[s, :, :k]
    nonrelevant = ((grades >= 0) & (grades < 1)).sum(axis=1)  # judged, grade 0
    frame = pd.DataFrame({"topic": list(exp.topics), "unjudged": unjudged, "original": iv.lower[s],
                          "simulated": est.interpolated[s], "nonrelevant": nonrelevant})
    if exp.truth is not None:
        frame["true"] = evaluate(exp, [f"P@{k}"], truth=True)[f"P@{k}"][s]
    frame = frame[answered]
    frame = frame.iloc[np.lexsort((np.arange(len(frame)), frame["original"].to_numpy()))].set_index("topic")
    n = len(frame)
    gains = int((frame["simulated"] > frame["original"]).sum())
    worse, rho, p = _worse_has_more_unjudged(frame["unjudged"], frame["original"])
    gain = (frame["simulated"] - frame["original"]).to_numpy()
    peaks = _peaks_have_few_nonrelevant(gain, frame["nonrelevant"], k)
    top = frame.iloc[np.argsort(-gain, kind="stable")[:PEAKS]]
    top = top[top["simulated"] > top["original"]]
    notes = [
        f"Setting: {source.describe()}; judged = {pool_words}; lvl1 = {b}, its {n} answered topics ordered by "
        f"original P@{k}. {rule} Simulated P@{k}: each unjudged document in the top {k} counts as relevant with "
        f"probability |judged relevant| / |judged| in that top {k} (Ravana & Moffat's X_I = B/(1 − Δ); "
        f"E = {background_rate:g} where nothing in the top {k} is judged).",
        "Differs from the chapter: the GIN on 85 TREC MedTrack queries against the run above.",
        "Chapter: the worst queries tend to have more unjudged documents; queries with nearly only relevant and "
        "unjudged documents gain most; simulated P@20 rises over the original on a large portion of queries.",
        f"irnb: Spearman's ρ(unjudged, original P@{k}) = {rho:.3f}; the {len(top)} largest gains: "
        + ", ".join(f"topic {t} (+{r.simulated - r.original:.2f}, {int(r.nonrelevant)} judged non-relevant)"
                    for t, r in top.iterrows())
        + f"; mean original {frame['original'].mean():.3f}, simulated {frame['simulated'].mean():.3f}.",
        f"Simulated > original on {gains} of {n} topics: no claim to test, since X_I ≥ B by construction and it "
        f"rises exactly where the top {k} holds both an unjudged and a judged relevant document.",
    ]
    if "true" in frame:
        rmse = {c: float(np.sqrt(((frame[c] - frame["true"]) ** 2).mean())) for c in ("original", "simulated")}
        notes.append(f"The truth is known here (the chapter's later re-assessment): true mean P@{k} "
                     f"{frame['true'].mean():.3f}; RMSE against it: original {rmse['original']:.3f}, simulated "
                     f"{rmse['simulated']:.3f}.")
    claims = [
        Claim("the worst performing queries tend to have a higher number of unjudged documents",
              f"ρ(unjudged, original P@{k}) = {rho:.2f}, one-sided p = {p:.2g}",
              f"Spearman's ρ between the unjudged count and the original P@{k} over the topics is negative, "
              f"one-sided p < {RHO_ALPHA}", worse,
              reason="" if worse is not None else "fewer than 3 topics, or the unjudged counts or the scores are all "
                                                  "equal"),
        Claim("the queries with nearly only relevant and unjudged documents (few or no irrelevant) gain most",
              ", ".join(f"{int(v)}" for v in top["nonrelevant"]) + f" judged non-relevant in the top {k} of the "
              f"{len(top)} largest gains" if len(top) else "no topic gains",
              f"each of the {PEAKS} topics with the largest gains has at most {FEW_NONRELEVANT * k:g} judged "
              f"non-relevant documents in its top {k}", peaks,
              reason="" if peaks is not None else "no topic's simulated P@k rises above the original"),
    ]
    headline = Headline("worst queries have more unjudged documents; queries with nearly only relevant and unjudged "
                        "documents gain most", claims)
    pair = pd.DataFrame({"run_b": [b], "k": [k]})
    return Reproduction("thesis-fig7.2", "", "", frame, None, "\n".join(notes), source.label,
                        draw=figures.simulated_precision, headline=headline, details={"pair": pair})
