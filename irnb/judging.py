"""What to judge next: active judging that decides run comparisons with few judgments.

Beyond the papers. Ravana & Moffat's score intervals [B, T] (:mod:`irnb.intervals`) say how
uncertain a run's score is while documents are unjudged; :func:`judge_next` says which
unjudged documents to judge next so that the comparisons asked for get *decided*: the
topic-averaged intervals of two runs stop overlapping (B̄₁ > T̄₂), which no judgment can
undo (judging only narrows an interval).

**Unjudged candidate.** A document (topic, docno) is a candidate when some compared run
(``runs``, default every run) ranks it within the measure's depth (the top k of P@k and
SDCG@k; for RBP(p) the ranks whose weight is not negligible, as in
:func:`irnb.intervals.score_intervals`) and it is not judged: the qrels do not list it,
or its entry is outside ``judged`` (a pool mask over qrels entries), or its grade is
negative. Only a candidate can change an interval, so a document outside every compared
run's evaluated prefix, or already judged, is never suggested. ``only_qrels=True`` keeps the
candidates that have a qrels entry: the setting for simulations in which the Experiment's
qrels are the complete truth and ``judged`` is the simulated pool.

**Contribution.** Judging a candidate d moves the mean interval of every compared run s
that ranks it at rank r (0-based) by a_s(d) = w(r) / n_s, with w(r) = 1/k for P@k,
(1 − p)·p^r for RBP(p) and 1/log2(r + 2) / Σ_{i<k} 1/log2(i + 2) for SDCG@k, and n_s the
run's evaluated topics: if d is relevant B̄_s rises by a_s(d), otherwise T̄_s falls by it.

**Strategies.**

* ``"decide-pairs"`` (default). Every undecided pair (i, j) gets a direction: the run with
  the larger expected final score X̂ = B̄ + Σ_d π_d·a(d) is the likely winner w, the other
  the loser l. Its gap g = T̄_l − B̄_w > 0 must close; a candidate closes it by
  π_d·a_w(d) + (1 − π_d)·a_l(d) in expectation (relevant: B̄_w rises; not: T̄_l falls).
  A candidate's gain is the sum, over the undecided pairs, of the expected fraction of
  their gap it closes, Σ_p min(1, closure_p / g_p): nearly decided pairs weigh most. The n
  suggestions are chosen greedily: after each pick the intervals move by their expected
  change (B̄ += π·a, T̄ −= (1 − π)·a) and the gains are recomputed, so one batch spreads
  over pairs. π_d is ``background_rate`` (E) for every candidate, estimated from the data
  by :func:`irnb.intervals.estimate_background_rate` when None (falling back to the
  fraction of judged documents that are relevant when the fit has too few points), or per
  document from ``probabilities`` (a DataFrame ``topic, docno, probability`` or
  :class:`irnb.predict.CompletedQrels`; documents without one get E). A candidate with
  gain 0 (every pair it touches is decided) is not suggested.
* ``"depth"``: continue depth pooling over the compared runs, by best rank (then topic,
  docno). Gain: the reduction of Σ_s (T̄_s − B̄_s), i.e. Σ_s a_s(d).
* ``"rbp"``: the RBP-weighted order of rbp_eval's pooling strategies: Σ over the compared
  runs of (1 − p)·p^r with p of the RBP measure (0.8 for the other measures). Gain as
  for ``"depth"``.

Hand-checkable example: P@2, runs a = (x, u) and b = (y, v), x relevant and y non-relevant
judged, u and v unjudged: a ∈ [0.5, 1], b ∈ [0, 0.5]; the intervals touch (B̄_a = T̄_b), so
the pair is undecided with gap 0. Judging v non-relevant makes T̄_b = 0 < 0.5: decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa

from .experiment import Experiment
from .judgments import NO_DOCUMENT
from .intervals import estimate_background_rate, has_interval, score_intervals
from .measures import Measure, parse_measure
from .params import BACKGROUND_RATE, BUDGET, ONLY_QRELS, RELEVANT, STRATEGY, Param
from .params import ROUND_SIZE as ROUND
from .params import SUGGESTIONS as NUM
from .pooling import Pool, contributor_index, depth_pool, judged_mask_of

__all__ = ["STRATEGIES", "JUDGE_PARAMS", "judge_next", "decided_pairs", "simulate_judging", "complete_experiment",
           "Candidates", "candidates", "plan", "AssessmentSession", "assessor_start"]

#: Strategy names: the default aims to decide pairs; the other two are baselines.
STRATEGIES = STRATEGY.choices
#: Declared bounds of the judging parameters.
JUDGE_PARAMS: dict[str, Param] = {p.name: p for p in (NUM, ROUND, BUDGET)}
_RBP_BASELINE_P = 0.8
# The session keeps its mean bounds on a grid of 10⁻¹² (sums of floats such as 0.632 + 0.002 − 0.002
# land an ulp off, and an ulp must not decide a tied pair); a closure decides a pair when it exceeds
# the gap by more than _TOLERANCE, far above the grid's rounding and far below any weight that matters.
_GRID_DECIMALS = 12
_TOLERANCE = 1e-10


# =============================================================================== candidates
@dataclass(frozen=True, eq=False)
class Candidates:
    """The unjudged candidates of one measure and set of compared runs.

    ``topic[c]`` (index into ``experiment.topics``), ``docno[c]``, ``entry[c]`` (qrels entry,
    −1 when the qrels do not list it), ``weight[c, s]`` = a_s(c), the change of compared run
    s's mean bound when c is judged, ``best_rank[c]`` (1-based, over the compared runs),
    ``rbp[c]`` (the rbp baseline's weight); ``runs`` are the compared runs' indices.
    """

    topic: np.ndarray = field(repr=False)
    docno: np.ndarray = field(repr=False)
    entry: np.ndarray = field(repr=False)
    weight: np.ndarray = field(repr=False)
    best_rank: np.ndarray = field(repr=False)
    rbp: np.ndarray = field(repr=False)
    runs: np.ndarray = field(repr=False)

    def __len__(self) -> int:
        return int(self.topic.size)


def _rank_weights(m: Measure, depth: int) -> np.ndarray:
    """w(r) for r = 0..cut−1: the weight of a document at rank r in one topic's score."""
    cut = depth if m.cutoff is None else min(m.cutoff, depth)
    ranks = np.arange(cut, dtype=np.float64)
    if m.family == "P":
        return np.full(cut, 1.0 / m.cutoff)
    if m.family == "SDCG":
        return (1.0 / np.log2(ranks + 2.0)) / float(np.sum(1.0 / np.log2(np.arange(m.cutoff) + 2.0)))
    p = float(m.param("p"))
    cut = min(cut, int(np.ceil(-64.0 * np.log(2.0) / np.log(p))))  # weights beyond sum to < 2^-64
    return (1.0 - p) * p ** ranks[:cut]


def _run_docnos(experiment: Experiment, s: int, t: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Docnos that run ``s`` ranks at (topic index t, 0-based rank r), from its table."""
    table = experiment.runs[experiment.run_names[s]].table
    topics = np.asarray(table["topic"].to_numpy(zero_copy_only=False), dtype=object)
    names, first = np.unique(topics, return_index=True)
    start = dict(zip(names.tolist(), first.tolist(), strict=True))
    rows = np.array([start[experiment.topics[i]] for i in t], dtype=np.int64) + r
    return np.asarray(table["docno"].take(pa.array(rows)).to_pylist(), dtype=object)


def _judged_mask(experiment: Experiment, judged) -> np.ndarray:
    """The entries judged so far: a pool's (or mask's) judged entries, every graded entry by default."""
    return experiment.judgments.judged_entries(judged_mask_of(experiment, judged, name="judged"))


def candidates(experiment: Experiment, measure: str | Measure = "P@10", *, judged=None, runs=None,
               only_qrels: bool = False) -> Candidates:
    """The unjudged candidates (see the module docstring) of ``measure`` in ``runs``.

    >>> run = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "u", "u", "y"],
    ...                     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
    >>> c = candidates(Experiment(run, qrels), "P@2")
    >>> c.docno.tolist(), c.weight.tolist(), c.best_rank.tolist()   # u: 1/2 in both runs' P@2
    (['u'], [[0.5, 0.5]], [1])
    """
    only_qrels = ONLY_QRELS.validate(only_qrels, None)
    return _candidates(experiment, parse_measure(measure), judged=judged, runs=runs, only_qrels=only_qrels)


def _candidates(experiment: Experiment, m: Measure, *, judged, runs, only_qrels: bool) -> Candidates:
    """:func:`candidates` of the parsed measure ``m``, its flag checked by the public caller."""
    if not has_interval(m):
        score_intervals(experiment, m)  # raises the intervals module's error for this measure
    idx = np.arange(len(experiment.run_names)) if runs is None else contributor_index(experiment, runs,
                                                                                      "judge_next")
    mask = _judged_mask(experiment, judged)
    w = _rank_weights(m, experiment.depth)
    cut = w.size
    doc = experiment.judgments.doc[idx, :, :cut]
    is_doc = doc != NO_DOCUMENT
    in_q = doc >= 0
    known = np.zeros(doc.shape, dtype=bool)
    known[in_q] = mask[doc[in_q]]
    open_ = is_doc & ~known & (in_q if only_qrels else True)
    s, t, r = np.nonzero(open_)
    entry = doc[s, t, r].astype(np.int64)
    docno = np.empty(s.size, dtype=object)
    q = entry >= 0
    docno[q] = np.asarray(experiment.judgments.qrel_docno.take(pa.array(entry[q])).to_pylist(), dtype=object)
    for run in np.unique(s[~q]):
        here = ~q & (s == run)
        docno[here] = _run_docnos(experiment, int(idx[run]), t[here], r[here])
    doc_code, _ = pd.factorize(docno) if docno.size else (np.zeros(0, np.int64), None)
    key = t.astype(np.int64) * (int(doc_code.max(initial=-1)) + 1) + doc_code
    uniq, first, cand = np.unique(key, return_index=True, return_inverse=True)
    C = uniq.size
    evaluated = np.maximum((experiment.length[idx] > 0).sum(axis=1), 1)
    weight = np.zeros((C, idx.size))
    weight[cand, s] = w[r] / evaluated[s]
    best = np.full(C, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(best, cand, r + 1)
    p = float(m.param("p")) if m.family == "RBP" else _RBP_BASELINE_P
    rbp = np.zeros(C)
    np.add.at(rbp, cand, (1.0 - p) * p ** r.astype(np.float64))
    ent = np.full(C, -1, dtype=np.int64)
    np.maximum.at(ent, cand, entry)
    return Candidates(topic=t[first], docno=docno[first], entry=ent, weight=weight, best_rank=best, rbp=rbp, runs=idx)


# =============================================================================== the kernel
def _directions(lower: np.ndarray, expected: np.ndarray):
    """Pairs i < j and, per pair, the likely winner and loser (larger expected score)."""
    i, j = np.triu_indices(lower.size, k=1)
    win = np.where(expected[i] >= expected[j], i, j)
    return win, np.where(win == i, j, i)


def plan(weight: np.ndarray, probability: np.ndarray, lower: np.ndarray, upper: np.ndarray, n: int, *,
         names: tuple[str, ...] | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The decide-pairs kernel: greedily pick up to ``n`` rows of ``weight`` (candidates ×
    runs, a_s(d)) given π (``probability``) and the runs' mean bounds B̄ (``lower``), T̄
    (``upper``); returns (picked rows, their gains, why). Pure numpy; no Experiment.

    Example: two runs at [0.5, 1] and [0, 0.5] (gap 0: undecided); a candidate in the second
    run only (a = 0.5, π = 0) closes the gap surely: gain min(1, 0.5/0) = 1.

    >>> rows, gain, why = plan(np.array([[0.0, 0.5], [0.0, 0.0]]), np.zeros(2), np.array([0.5, 0.0]),
    ...                        np.array([1.0, 0.5]), 5, names=("a", "b"))
    >>> rows.tolist(), gain.tolist(), why
    ([0], [1.0], ['closes 100% of the gap a > b'])
    """
    B, T = lower.astype(np.float64).copy(), upper.astype(np.float64).copy()
    expected = B + probability @ weight
    win, lose = _directions(B, expected)
    names = names or tuple(str(x) for x in range(B.size))
    available = np.ones(weight.shape[0], dtype=bool)
    positive = weight[weight > 0]
    floor = float(positive.min()) if positive.size else 1.0
    rows, gains, why = [], [], []
    for _ in range(n):
        gap = T[lose] - B[win]
        open_ = gap >= 0  # B̄_w > T̄_l decides the pair; equality does not
        if not open_.any() or not available.any():
            break
        pw, pl, g = win[open_], lose[open_], gap[open_]
        # rank by Σ_p closure_p / max(g_p, ε): linear in the candidates' weights (a gap below the
        # smallest contribution ε counts as ε, so one document closes it: the min(1, ·) cap, roughly)
        inv = 1.0 / np.maximum(g, floor)
        W = np.bincount(pw, weights=inv, minlength=B.size)
        L = np.bincount(pl, weights=inv, minlength=B.size)
        score = probability * (weight @ W) + (1.0 - probability) * (weight @ L)
        score[~available] = 0.0
        best = int(np.argmax(score))
        if score[best] <= 0:
            break
        closure = probability[best] * weight[best, pw] + (1.0 - probability[best]) * weight[best, pl]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(closure > 0, np.minimum(1.0, closure / g), 0.0)
        top = int(np.argmax(frac))
        more = int((frac > 0).sum()) - 1
        rows.append(best)
        gains.append(float(frac.sum()))
        why.append(f"closes {100 * frac[top]:.0f}% of the gap {names[pw[top]]} > {names[pl[top]]}"
                   + (f" (and helps {more} more pair{'s' if more > 1 else ''})" if more else ""))
        available[best] = False
        B += probability[best] * weight[best]
        T -= (1.0 - probability[best]) * weight[best]
    return np.array(rows, dtype=np.int64), np.array(gains), why


# =============================================================================== public API
def _background(experiment: Experiment, judged, m: Measure, background_rate) -> float:
    if background_rate is not None:
        return BACKGROUND_RATE.validate(background_rate, "judge_next", label="background_rate")
    mask = _judged_mask(experiment, judged)
    try:
        return estimate_background_rate(experiment, depth=m.cutoff or 100, pool=mask).rate
    except ValueError:
        rel = experiment.judgments.relevant_entries(mask, m.rel)
        return float(rel.sum() / mask.sum()) if mask.any() else 0.01


def _probabilities(cands: Candidates, experiment: Experiment, probabilities, rate: float) -> np.ndarray:
    pi = np.full(len(cands), rate)
    if probabilities is None:
        return pi
    frame = getattr(probabilities, "predicted", probabilities)
    if not isinstance(frame, pd.DataFrame) or not {"topic", "docno", "probability"} <= set(frame.columns):
        raise TypeError("judge_next: probabilities must be a DataFrame with columns topic, docno, probability or "
                        f"irnb.predict.CompletedQrels, got {type(probabilities).__name__}")
    lookup = {(str(a), str(b)): float(v) for a, b, v in
              zip(frame["topic"], frame["docno"], frame["probability"], strict=True) if np.isfinite(v)}
    bad = [v for v in lookup.values() if not 0.0 <= v <= 1.0]
    if bad:
        raise ValueError(f"judge_next: probabilities must lie in [0, 1], got {bad[0]!r}")
    topics = experiment.topics
    for c in range(len(cands)):
        pi[c] = lookup.get((topics[cands.topic[c]], cands.docno[c]), rate)
    return pi


def _suggest(experiment: Experiment, *, judged, n, measure, runs, strategy, background_rate, probabilities,
             only_qrels) -> tuple[Candidates, np.ndarray, np.ndarray, list[str]]:
    STRATEGY.validate(strategy, "judge_next")
    if background_rate is not None and probabilities is not None:
        raise ValueError("judge_next: give background_rate (one E for every document) or probabilities "
                         "(one per document), not both")
    n = NUM.validate(n, "judge_next")
    m = parse_measure(measure)
    cands = _candidates(experiment, m, judged=judged, runs=runs, only_qrels=only_qrels)
    if strategy == "decide-pairs":
        iv = score_intervals(experiment, m, pool=None if judged is None else judged)
        rate = _background(experiment, judged, m, background_rate)
        pi = _probabilities(cands, experiment, probabilities, rate)
        names = tuple(experiment.run_names[s] for s in cands.runs)
        rows, gain, why = plan(cands.weight, pi, iv.mean_lower[cands.runs], iv.mean_upper[cands.runs], n,
                               names=names)
        return cands, rows, gain, why
    width = cands.weight.sum(axis=1)
    if strategy == "depth":
        order = np.lexsort((cands.docno.astype(str), cands.topic, cands.best_rank))[:n]
        why = [f"depth {int(cands.best_rank[c])} of the pool" for c in order]
    else:
        order = np.lexsort((cands.docno.astype(str), cands.topic, cands.best_rank, -cands.rbp))[:n]
        why = [f"RBP weight {cands.rbp[c]:.3f} summed over the runs" for c in order]
    return cands, order, width[order], why


def judge_next(experiment: Experiment, *, judged=None, n: int = NUM.default, measure: str | Measure = "P@10", runs=None,
               strategy: str = STRATEGY.default, background_rate: float | None = None, probabilities=None,
               only_qrels: bool = False) -> pd.DataFrame:
    """The ``n`` most useful unjudged documents to judge next, most useful first: a
    DataFrame ``topic, docno, gain, why`` (see the module docstring for the strategies,
    what a candidate is and what ``gain`` measures).

    ``judged``: a :class:`~irnb.pooling.Pool` or boolean mask over the qrels entries (None:
    the qrels as they are). ``runs``: the runs whose pairs are compared (default every run).
    Fewer than ``n`` rows come back when fewer documents can help (with ``"decide-pairs"``,
    when every pair is decided the frame is empty). Rows are in the order chosen: with
    ``"decide-pairs"`` each gain is computed after the expected effect of the rows above it,
    so gains need not decrease.

    Hand-checkable example (module docstring): a = (x relevant, u), b = (y non-relevant, v)
    under P@2, E = 0.1: a ∈ [0.5, 1], b ∈ [0, 0.5], the pair a > b is undecided with gap 0.
    u (in the likely winner a) decides it only if relevant, chance 0.1; v (in the loser b)
    only if non-relevant, chance 0.9: v is suggested, with gain min(1, 0.9·0.5 / 0) = 1; after
    it the pair is expected to be decided (T̄_b = 0.5 − 0.9·0.5 < 0.5), so u is not suggested.

    >>> run = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "u", "y", "v"],
    ...                     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
    >>> judge_next(Experiment(run, qrels), measure="P@2", background_rate=0.1)[["topic", "docno", "gain"]]
      topic docno  gain
    0     1     v   1.0
    """
    only_qrels = ONLY_QRELS.validate(only_qrels, "judge_next")
    cands, rows, gain, why = _suggest(experiment, judged=judged, n=n, measure=measure, runs=runs, strategy=strategy,
                                      background_rate=background_rate, probabilities=probabilities,
                                      only_qrels=only_qrels)
    topics = np.asarray(experiment.topics, dtype=object)
    return pd.DataFrame({"topic": topics[cands.topic[rows]] if rows.size else np.array([], dtype=object),
                         "docno": cands.docno[rows] if rows.size else np.array([], dtype=object),
                         "gain": gain.astype(np.float64), "why": why})


# =============================================================================== decided pairs, simulation
def decided_pairs(experiment: Experiment, measure: str | Measure = "P@10", *, judged=None, runs=None) -> np.ndarray:
    """(S', S') int8 matrix over the compared runs: +1 where run i's mean interval lies
    above run j's (B̄_i > T̄_j), −1 below, 0 undecided. ``(m > 0).sum()`` counts decided pairs.

    >>> run = pd.DataFrame({"run": ["a", "b"], "qid": "1", "docno": ["x", "y"], "score": [1.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
    >>> decided_pairs(Experiment(run, qrels), "P@1").tolist()
    [[0, 1], [-1, 0]]
    """
    iv = score_intervals(experiment, measure, pool=judged)
    idx = np.arange(len(experiment.run_names)) if runs is None else contributor_index(experiment, runs,
                                                                                      "decided_pairs")
    B, T = iv.mean_lower[idx], iv.mean_upper[idx]
    win = B[:, None] > T[None, :]
    return win.astype(np.int8) - win.T.astype(np.int8)


def complete_experiment(collection) -> Experiment:
    """The Experiment of a simulated :class:`~irnb.datasets.Collection` whose qrels are the
    complete truth (``truth`` too), so that pools over the truth are masks: the setting of
    :func:`simulate_judging` on the embedded collection (the collection's own
    :attr:`~irnb.datasets.Collection.complete_experiment`, built once)."""
    return collection.complete_experiment


def simulate_judging(experiment: Experiment, *, start, strategies: Iterable[str] = STRATEGIES,
                     budget: int = BUDGET.default,
                     round_size: int = ROUND.default, measure: str | Measure = "P@10", runs=None,
                     background_rate: float | None = None) -> pd.DataFrame:
    """Spend ``budget`` judgments in rounds of ``round_size`` with each strategy, starting
    from the pool ``start``; the Experiment's qrels are the truth (an assessor's answers),
    so a suggestion is judged by adding its qrels entry to the mask (``only_qrels=True``).

    One row per strategy and round (round 0 = the start): ``strategy, round, judgments``
    (spent beyond the start), ``decided`` (pairs whose mean intervals no longer overlap),
    ``wrong`` (decided pairs whose order disagrees with the scores on the full qrels: always
    0, since intervals are bounds), ``tau`` (Kendall's τ between the runs' scores with
    unjudged documents non-relevant, B̄, and the full-qrels scores), ``width`` (mean T̄ − B̄).
    """
    from .bias import kendall_tau

    budget = BUDGET.validate(budget, "simulate_judging")
    round_size = ROUND.validate(round_size, "simulate_judging")
    m = parse_measure(measure)
    idx = np.arange(len(experiment.run_names)) if runs is None else contributor_index(experiment, runs,
                                                                                      "simulate_judging")
    start_mask = _judged_mask(experiment, start)
    truth = score_intervals(experiment, m).mean_lower[idx]
    rows = []

    def record(strategy, rnd, spent, mask):
        iv = score_intervals(experiment, m, pool=mask)
        B, T = iv.mean_lower[idx], iv.mean_upper[idx]
        win = B[:, None] > T[None, :]
        wrong = win & (truth[:, None] < truth[None, :])
        rows.append({"strategy": strategy, "round": rnd, "judgments": spent, "decided": int(win.sum()),
                     "wrong": int(wrong.sum()), "tau": kendall_tau(truth, B), "width": float(np.mean(T - B))})

    for strategy in strategies:
        mask, spent = start_mask.copy(), 0
        record(strategy, 0, spent, mask)
        for rnd in range(1, -(-budget // round_size) + 1):
            ask = min(round_size, budget - (rnd - 1) * round_size)
            cands, picked, _, _ = _suggest(experiment, judged=mask, n=ask, measure=m, runs=runs, strategy=strategy,
                                           background_rate=background_rate, probabilities=None, only_qrels=True)
            mask[cands.entry[picked]] = True
            spent += int(picked.size)  # fewer than asked when fewer documents can help
            record(strategy, rnd, spent, mask)
    return pd.DataFrame(rows)


# =============================================================================== an assessor's session
class AssessmentSession:
    """One assessor's loop: the next suggested document, a judgment, updated intervals.

    The state behind the "be the assessor" widget (:func:`irnb.widgets_judge.assessor`), and
    usable on its own. It starts from ``judged`` (as :func:`judge_next`; kept as ``start``), suggests one
    document at a time with the decide-pairs kernel (:func:`plan`), and applies each
    judgment to the runs' mean bounds exactly (relevant: B̄_s += a_s(d); not relevant:
    T̄_s −= a_s(d)), so the assessor's answers count even where they disagree with the qrels.
    The bounds are kept on a grid of 10⁻¹², so that rounding never decides a tie (B̄_i = T̄_j).
    ``agreements`` counts the answers that match the qrels' grade when the qrels judge the
    document (on :func:`complete_experiment`, the truth).

    >>> run = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "u", "y", "v"],
    ...                     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
    >>> session = AssessmentSession(Experiment(run, qrels), measure="P@2", background_rate=0.1)
    >>> session.current["docno"], session.spent, session.decided
    ('v', 0, 0)
    >>> session.judge(False)          # v not relevant: T̄_b = 0.5 − 0.5 = 0 < B̄_a = 0.5
    >>> session.spent, session.decided, session.current is None
    (1, 1, True)
    """

    def __init__(self, experiment: Experiment, *, judged=None, measure: str | Measure = "P@10", runs=None,
                 background_rate: float | None = None, only_qrels: bool = False):
        only_qrels = ONLY_QRELS.validate(only_qrels, "AssessmentSession")
        self.experiment = experiment
        self.start = judged  # the pool (or mask) judged before the first suggestion; None: the qrels as they are
        self.measure = parse_measure(measure)
        self._cands = _candidates(experiment, self.measure, judged=judged, runs=runs, only_qrels=only_qrels)
        iv = score_intervals(experiment, self.measure, pool=judged)
        self.run_names = tuple(experiment.run_names[s] for s in self._cands.runs)
        self.lower = np.round(iv.mean_lower[self._cands.runs], _GRID_DECIMALS)
        self.upper = np.round(iv.mean_upper[self._cands.runs], _GRID_DECIMALS)
        self.initial_decided = self.decided
        rate = _background(experiment, judged, self.measure, background_rate)
        self._pi = np.full(len(self._cands), rate)
        self._open = np.ones(len(self._cands), dtype=bool)
        self.spent = 0
        self.agreements = 0
        self.history: list[dict] = []
        self.current: dict | None = None
        self._advance()

    @property
    def decided(self) -> int:
        """Pairs of runs whose mean intervals no longer overlap (B̄_i > T̄_j)."""
        return int((self.lower[:, None] > self.upper[None, :]).sum())

    def decided_matrix(self) -> pd.DataFrame:
        """Run × run: +1 where the row's mean interval lies above the column's, −1 below, 0 open."""
        win = self.lower[:, None] > self.upper[None, :]
        return pd.DataFrame(win.astype(np.int8) - win.T.astype(np.int8), index=list(self.run_names),
                            columns=list(self.run_names))

    @property
    def pairs(self) -> int:
        return len(self.run_names) * (len(self.run_names) - 1) // 2

    def intervals(self) -> pd.DataFrame:
        """Run × (lower, upper) of the mean intervals now, by upper bound descending."""
        frame = pd.DataFrame({"lower": self.lower, "upper": self.upper}, index=pd.Index(self.run_names, name="run"))
        return frame.sort_values(["upper", "lower"], ascending=False)

    @property
    def current_truth(self) -> bool | None:
        """The qrels' answer for the current suggestion (on :func:`complete_experiment`, the
        truth): True when its grade reaches the measure's relevance level, None when the qrels
        do not judge it or nothing is suggested."""
        if self.current is None:
            return None
        entry = int(self._cands.entry[self.current["candidate"]])
        grade = int(self.experiment.judgments.qrel_grade[entry]) if entry >= 0 else -1
        return None if grade < 0 else grade >= self.measure.rel

    def judgments_to_decide(self) -> int | None:
        """The fewest judgments that can decide one more pair, if every answer goes its way
        (a lower bound); None when no pair can be decided any more.

        Rule: an undecided pair with likely winner w and loser l has gap g = T̄_l − B̄_w ≥ 0,
        and judging document d closes it by at most max(a_w(d), a_l(d)) (relevant: B̄_w rises
        by a_w(d); not relevant: T̄_l falls by a_l(d)). The pair needs the fewest open
        documents whose largest closures sum to more than g (a sum equal to g ties, and a tie
        decides nothing); the minimum over both directions of every undecided pair is the answer.

        The class docstring's P@2 example before its judgment: the pair a > b has g = 0.5 − 0.5
        = 0 and v closes it by 0.5 > 0: one judgment.

        >>> run = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "u", "y", "v"],
        ...                     "score": [2.0, 1.0, 2.0, 1.0]})
        >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})
        >>> AssessmentSession(Experiment(run, qrels), measure="P@2", background_rate=0.1).judgments_to_decide()
        1
        """
        weight = self._cands.weight[self._open]
        if weight.shape[0] == 0:
            return None
        B, T = self.lower, self.upper
        i, j = np.triu_indices(B.size, k=1)
        open_pair = ~((B[i] > T[j]) | (B[j] > T[i]))
        win = np.concatenate([i[open_pair], j[open_pair]])
        lose = np.concatenate([j[open_pair], i[open_pair]])
        gap = T[lose] - B[win] + _TOLERANCE  # a closure equal to the gap ties: it does not decide
        most = weight.max(axis=0)
        reach = np.maximum(most[win], most[lose])
        usable = reach > 0
        win, lose, gap, reach = win[usable], lose[usable], gap[usable], reach[usable]
        if win.size == 0:
            return None
        bound = np.maximum(np.floor(gap / reach), 0).astype(np.int64) + 1  # every document closing the most
        best = None
        for d in np.argsort(bound, kind="stable"):
            if best is not None and bound[d] >= best:
                break
            closure = np.sort(np.maximum(weight[:, win[d]], weight[:, lose[d]]))[::-1]
            total = np.cumsum(closure)
            if total[-1] > gap[d]:
                need = int(np.searchsorted(total, gap[d], side="right")) + 1
                best = need if best is None else min(best, need)
        return best

    def _advance(self) -> None:
        rows = np.flatnonzero(self._open)
        picked, gain, why = plan(self._cands.weight[rows], self._pi[rows], self.lower, self.upper, 1,
                                 names=self.run_names)
        if picked.size == 0:
            self.current = None
            return
        c = int(rows[picked[0]])
        self.current = {"candidate": c, "topic": self.experiment.topics[self._cands.topic[c]],
                        "docno": str(self._cands.docno[c]), "gain": float(gain[0]), "why": why[0]}

    def judge(self, relevant: bool) -> None:
        """Record the assessor's judgment of the current suggestion and move to the next."""
        if self.current is None:
            raise ValueError("judge: nothing left to judge (every pair is decided or no candidate can help)")
        relevant = RELEVANT.validate(relevant, "judge")
        c = self.current["candidate"]
        a = self._cands.weight[c]
        if relevant:
            self.lower = np.round(np.minimum(self.lower + a, self.upper), _GRID_DECIMALS)
        else:
            self.upper = np.round(np.maximum(self.upper - a, self.lower), _GRID_DECIMALS)
        entry = int(self._cands.entry[c])
        grade = int(self.experiment.judgments.qrel_grade[entry]) if entry >= 0 else -1
        if grade >= 0:
            self.agreements += int((grade >= self.measure.rel) == bool(relevant))
        self._open[c] = False
        self.spent += 1
        self.history.append({**{k: v for k, v in self.current.items() if k != "candidate"},
                             "relevant": bool(relevant), "qrels_grade": grade if grade >= 0 else None})
        self._advance()


def assessor_start(experiment: Experiment, *, measure: str | Measure = "P@10", runs=None, clicks: int = 10,
                   background_rate: float | None = None) -> Pool:
    """Where an assessor should start: the shallowest depth pool (of the Experiment's
    contributors) from which :class:`AssessmentSession` decides one more pair within
    ``clicks`` judgments answered with the qrels' grades (an unjudged document counts as not
    relevant). On :func:`complete_experiment` the answers are the truth, so a student who
    judges truthfully decides a pair within ``clicks`` judgments.

    Depths 1 to the measure's cutoff (the run depth for RBP) are tried, shallowest first; a
    depth where every pair is already decided or nothing can be judged is passed over. A
    ValueError says so when no depth lets ``clicks`` judgments decide a pair.
    """
    clicks = NUM.validate(clicks, "assessor_start", label="clicks")
    m = parse_measure(measure)
    deepest = min(m.cutoff or experiment.depth, experiment.depth)
    for depth in range(1, deepest + 1):
        pool = depth_pool(experiment, depth=depth)
        session = AssessmentSession(experiment, judged=pool, measure=m, runs=runs, background_rate=background_rate)
        for _ in range(clicks):
            if session.current is None:
                break
            session.judge(bool(session.current_truth))
            if session.decided > session.initial_decided:
                return pool
    raise ValueError(f"assessor_start: from no depth pool of depth 1 to {deepest} do clicks={clicks} judgments "
                     f"answered with the qrels decide a pair on {m.name}; allow more clicks or compare fewer runs")
