"""Reproductions of Ravana & Moffat, "Score Estimation, Incomplete Judgments, and
Significance Testing in IR Evaluation" (AIRS 2010), on any data.

* Figure 1 — the fraction of judged documents that are relevant, by the number of
  contributing runs that had them in their top d, with a cubic trend line read at zero runs
  (0.043 on TREC-9 at d = 100; the paper then uses E = 0.01), here at pool depths 10 and
  100, each beside the true rate where the data has complete truth;
* Table 1 — mean B (a), residual Δ (b), X_I (c) and X_M (d) of P@10, SDCG@100 and
  RBP(0.95) for the contributing ("59-con") and non-contributing ("46-non") runs, after
  1,000, 10,000 and all 69,100 judgments;
* Figure 2 — separability (the fraction of run pairs whose paired t-test gives p < 0.01)
  against the number of judgments, per estimator (X_S, X_B, X_I, X_M) and for the
  pessimistic interval method, on the non-contributing runs;
* Table 2 — the separability at 1,000, 10,000 and 69,100 judgments;
* Table 3 — recanting: of the pairs significant after 1,000 (10,000) judgments, the share
  no longer significant after 10,000 (69,100).

Judgments are made in the paper's order (:func:`irnb.pooling.judgment_order`: by the best
rank at which a contributing run retrieved a document, ties at random). The paper's
budgets are shares of its 69,100 judgments; here the same shares of the data's qrels
("shallow" = 1,000/69,100 ≈ 1.4 %, "medium" = 10,000/69,100 ≈ 14.5 %, "deep" = all), or
the ``budgets`` given. Every computation is the core's (:mod:`irnb.budgets`,
:mod:`irnb.intervals`, :mod:`irnb.pooling`).

Each reproduction's headline is the paper's text split into claims (:class:`irnb.papers.Claim`),
each judged by a small rule with a margin named below (``WITHIN``, ``ORDER_MARGIN``, …), the
same on every data set. Where the paper is silent, irnb's choice is printed as irnb's: the
t-test is two-sided (:data:`SIDES`), and every claim resting on significance is also judged
under the one-sided reading.
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np
import pandas as pd

from ..budgets import BUDGET_MEASURES, budget_tests, default_budgets
from ..background_rate import NoUnjudgedPosition, TooFewCounts, within_factor
from ..intervals import estimate_background_rate, point_estimates, score_intervals, true_background_rate
from ..params import BACKGROUND_RATE, BUDGET_LEVELS, DEGREE, POOL_DEPTH, POOLED_RUNS, RUN_SET, SEED
from ..pooling import budget_pool, depth_pool
from .registry import Claim, Headline, ReproductionNeeds, Source, register
from . import figures
from ._common import make, setting

PAPER = "Ravana & Moffat (AIRS 2010)"
MEASURES = BUDGET_MEASURES  # P@10, SDCG@100, RBP(p=0.95)
PAPER_JUDGMENTS = (1000, 10000, 69100)
PAPER_RUNS = {"contributing": 59, "non-contributing": 46}  # TREC-9 Web Track: the runs that built the pool, the rest
LEVELS = ("shallow", "medium", "deep")
RUN_SETS = ("contributing", "non-contributing")
METHODS = ("X_S", "X_B", "X_I", "X_M", "interval")
ALPHA = 0.01  # the paper's significance level

#: The paper's one example number (its Convergence paragraph, about Table 3): "with 1,000
#: judgments performed, P@10 resulted in 713 system comparisons (of a total of 1,035 system
#: pairs) being deemed significant at the 0.01 level" — on the 46-non pairs; 50 (7.0 %) of them
#: not significant after 10,000, 60 (8.4 %) after 69,100. The text names no estimator; the
#: paragraph goes on about X_S and X_B: irnb assumes X_S.
PAPER_SEPARABLE = (713, 1035)
#: How the notes and claims name that example.
PAPER_EXAMPLE = ("the paper's example, from its Table 3 paragraph: P@10, 713 of 1,035 = 68.9 %; estimator not named, "
                 "irnb assumes X_S")
_T3_COLUMNS = ["significant", "pairs", "recanted at medium (%)", "recanted at deep (%)"]
_T3_RECANT = _T3_COLUMNS[2:]

# ---------------------------------------------------------------------------- the verdicts' rules
# Each claim of the paper's headline is judged by one of the small rules below, with the
# margins named here: the same on every data set.
#: Figure 1: the fit read at zero runs is "well below" the average fraction across the graph
#: when it is at most this share of it (the paper: 0.043 against 0.202, about a fifth).
FIG1_SHARE_OF_AVERAGE = 0.5
#: The background rate E the paper uses (its Figure 1 argues it is not an overestimate).
PAPER_E = 0.01
#: Fig. 1's "around 1 %": the mid-range system's rate within this factor of E = 0.01 (0.005–0.02).
AROUND_FACTOR = 2.0
#: Table 1: "within around 10 %" of the value at all judgments.
WITHIN = 0.10
#: "mostly", "for the most part": in more than this share of the cells.
MOSTLY = 0.5
#: Table 1(b): a residual Δ is "comparable in magnitude" to its score B within this factor.
COMPARABLE = 2.0
#: Table 1(c, d): an estimate over- (under-) estimates the final score when it is at least
#: this share of the final score above (below) it.
SCORE_MARGIN = 0.05
#: Table 1(b): the non-contributing runs' residuals are larger when a one-sided
#: Mann–Whitney test over the runs' mean Δ gives p below this, in every cell.
RESIDUAL_ALPHA = 0.05
#: Figure 2, Tables 2 and 3: one method separates more pairs than another when by at least
#: this share of the pairs.
ORDER_MARGIN = 0.02
#: "relatively high rates of separability": at least this share of the pairs (the paper's
#: example, :data:`PAPER_SEPARABLE`: P@10, 713 of 1,035 = 68.9 % after 1,000 judgments).
HIGH_SEPARABILITY = 0.5
#: Table 3: the paper's "less than 10 % recanting".
RECANT_LIMIT = 10.0
#: Table 3: X_I "has higher revision rates" when its mean recanting share is at least this
#: many percentage points above X_S's and X_B's.
RECANT_MARGIN = 2.0


def _well_below_average(intercept: float, average: float) -> bool:
    """Fig. 1: the fit at zero runs is positive and at most FIG1_SHARE_OF_AVERAGE of the
    average fraction."""
    return bool(0.0 < intercept <= FIG1_SHARE_OF_AVERAGE * average)


def _not_an_overestimate(rate: float, e: float = PAPER_E) -> bool:
    """Fig. 1: E is not an overestimate of ``rate``."""
    return bool(rate >= e)


def _mostly(flags) -> bool:
    """More than MOSTLY of the cells (NaN-free booleans)."""
    flags = np.asarray(flags, dtype=bool).ravel()
    return bool(flags.size and flags.mean() > MOSTLY)


def _within_of_final(values, final) -> np.ndarray:
    """Table 1(a): each value at least (1 − WITHIN) of the final one (scores only grow)."""
    return np.asarray(values, dtype=float) >= (1.0 - WITHIN) * np.asarray(final, dtype=float)


def _larger_by_test(larger, smaller) -> tuple[bool, float]:
    """Table 1(b): (holds, p): the values of ``larger`` exceed those of ``smaller`` by a
    one-sided Mann–Whitney test at RESIDUAL_ALPHA."""
    from scipy import stats

    a, b = np.asarray(larger, dtype=float), np.asarray(smaller, dtype=float)
    if np.ptp(np.r_[a, b]) == 0:  # every value equal: no difference (scipy would warn)
        return False, 1.0
    p = float(stats.mannwhitneyu(a, b, alternative="greater").pvalue)
    return p < RESIDUAL_ALPHA, p


def _comparable(residual, score) -> np.ndarray:
    """Table 1(b): Δ within a factor COMPARABLE of B (T ≈ 2B), cell by cell."""
    d, b = np.asarray(residual, dtype=float), np.asarray(score, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = d / b
    return (b > 0) & (ratio >= 1.0 / COMPARABLE) & (ratio <= COMPARABLE)


def _above(estimate, final) -> np.ndarray:
    """Table 1(c, d): the estimate at least SCORE_MARGIN of the final score above it."""
    e, f = np.asarray(estimate, dtype=float), np.asarray(final, dtype=float)
    return (e > f) & (e >= (1.0 + SCORE_MARGIN) * f)


def _below(estimate, final) -> np.ndarray:
    """Table 1(d): the estimate at least SCORE_MARGIN of the final score below it."""
    e, f = np.asarray(estimate, dtype=float), np.asarray(final, dtype=float)
    return (e < f) & (e <= (1.0 - SCORE_MARGIN) * f)


def _separates_more(more: float, fewer: float) -> bool:
    """Fig. 2, Tables 2–3: ``more`` exceeds ``fewer`` by at least ORDER_MARGIN of the pairs."""
    return bool(more - fewer >= ORDER_MARGIN - 1e-12)  # a difference of exactly the margin holds


def _high_separability(share: float) -> bool:
    """Fig. 2, Table 2: at least HIGH_SEPARABILITY of the pairs separated."""
    return bool(share >= HIGH_SEPARABILITY)


def _recants_little(shares) -> bool:
    """Table 3: every recanting share (%) below RECANT_LIMIT."""
    return bool(np.all(np.asarray(shares, dtype=float) < RECANT_LIMIT))


def _recants_more(share: float, than: float) -> bool:
    """Table 3: ``share`` (%) at least RECANT_MARGIN points above ``than``."""
    return bool(share - than >= RECANT_MARGIN - 1e-12)


#: The sides of the t-test: the paper does not say which its experiments used. Its §2: "When there
#: is a pre-conceived notion as to which system is being tested for superiority (because, for
#: example, it has the higher mean score across the set of observations) a one-tailed test is
#: appropriate" — by that example every pair qualifies. irnb's choice is the two-sided test, the
#: more conservative; a one-tailed test in the direction of the higher mean has half the two-sided
#: p (the t distribution is symmetric; so has the pessimistic test, in the direction its margin
#: favours), so the one-sided reading is the two-sided p-values against 2·ALPHA. Every claim
#: that rests on significance is judged under both readings (:func:`_under_both_sides`).
SIDES = ("paired t-test over topics, two-sided: irnb's choice (the paper does not say which sides its experiments "
         "used; by its §2 example, a one-tailed test when one system has the higher mean, every pair qualifies for "
         f"a one-tailed test; two-sided is the more conservative: one-sided p < {ALPHA} is two-sided p < "
         f"{2 * ALPHA:g}, and every claim is judged under both readings)")
#: The two readings of the sides, each as the level the two-sided p-values are compared with.
SIDE_READINGS = {"two-sided": ALPHA, "one-sided": 2 * ALPHA}


def _under_both_sides(claims_at) -> tuple[list[Claim], list[Claim]]:
    """(claims, one-sided claims): ``claims_at(alpha)`` gives the claims with significance at
    ``alpha``; each claim is the two-sided one, holding under both readings as it holds at each
    (``Claim.readings``: "depends on the reading" when they disagree)."""
    by = {name: claims_at(alpha) for name, alpha in SIDE_READINGS.items()}
    claims = [dataclasses.replace(two, readings={"two-sided": two.holds, "one-sided": one.holds})
              for two, one in zip(by["two-sided"], by["one-sided"], strict=True)]
    return claims, by["one-sided"]


def _one_sided_text(one_sided: list[Claim]) -> str:
    """The notes' sentence on the one-sided reading: each claim's numbers and outcome under it."""
    return (f" Under the one-sided reading (two-sided p < {2 * ALPHA:g}): "
            + "; ".join(f"claim {i}: {c.irnb} ({c.outcome})" for i, c in enumerate(one_sided, 1)) + ".")


def _budgets(source: Source, budgets, id: str) -> tuple[int, int, int]:
    total = source.experiment.judgments.num_judgments
    if budgets is None:
        values = [max(1, round(total * j / PAPER_JUDGMENTS[-1])) for j in PAPER_JUDGMENTS]
        return tuple(values)
    return BUDGET_LEVELS.within(high=total).validate(budgets, id)


def _budget_text(budgets, total: int) -> str:
    return (f"shallow / medium / deep = {budgets[0]:,} / {budgets[1]:,} / {budgets[2]:,} of {total:,} judgments "
            f"(the paper: 1,000 / 10,000 / 69,100 of 69,100)")


def _setting_text(source: Source, st, sets: dict, extra: str = "") -> str:
    exp = source.experiment
    counts = ", ".join(f"{len(v)} {k}" for k, v in sets.items())
    return (f"Setting: {source.label}, {len(exp.topics)} topics, {len(exp.run_names)} runs ({counts}); "
            f"{'; '.join(n for n in st.notes if not n.startswith('pool depth'))}{'; ' if st.notes else ''}"
            f"judgments in pooling order of the contributing runs{extra}. The paper: TREC-9 Web Track, 50 "
            f"topics, {PAPER_RUNS['contributing']} contributing and {PAPER_RUNS['non-contributing']} non-contributing "
            "runs, 69,100 judgments.").replace("; ;", ";")


def _run_sets(source: Source, st) -> dict[str, list[str]]:
    contributing = set(st.contributors)
    names = source.experiment.run_names
    sets = {"contributing": [r for r in names if r in contributing],
            "non-contributing": [r for r in names if r not in contributing]}
    return {k: v for k, v in sets.items() if len(v) >= 2}


def _tests(source: Source, st, budgets, *, seed, background_rate):
    return budget_tests(source.experiment, MEASURES, seed=seed, budgets=list(budgets), estimators="SBIMP",
                        background_rate=background_rate, contributors=list(st.contributors))


def _main_set(sets: dict) -> str:
    return "non-contributing" if "non-contributing" in sets else "contributing"


# ---------------------------------------------------------------------------- Figure 1
#: Pool depths of Figure 1: the paper's d = 100 and a shallow d = 10, where E matters more.
FIG1_DEPTHS = (10, 100)
_FIG1_COLUMNS = ["judged", "relevant", "fraction", "fitted", "in_fit", "E", "true_rate"]


def _fit_at(exp, pooled: list, depth: int, degree: int):
    """(fit, degree used, true rate or None, pool) for the depth-``depth`` pool of the runs ``pooled``."""
    pool = depth_pool(exp, depth=depth, runs=pooled)
    used = degree
    while True:  # few contributing runs give few distinct counts: lower the degree, and say so
        try:
            fit = estimate_background_rate(exp, depth=depth, runs=pooled, pool=pool, degree=used)
            break
        except TooFewCounts:
            if used <= 1:
                raise
            used -= 1
    true = None
    if exp.truth is not None:
        try:
            true = true_background_rate(exp, measurement_depth=2 * depth, pool=pool)
        except NoUnjudgedPosition:  # nothing unjudged in the runs' top 2d that the truth judges
            true = None
    return fit, used, true, pool


def _mid_range_run(exp, pooled: list) -> tuple[str | None, str]:
    """(run, the rule in words) for Fig. 1's "a retrieval system of quality comparable to a
    mid-range TREC one": among the runs not pooled (a pooled run's top d is all judged), the
    one whose mean AP over the data's qrels is closest to the median of every run's mean AP
    (ties: the first in run order); None when every run is pooled."""
    from ..metrics import evaluate

    outside = [r for r in exp.run_names if r not in set(pooled)]
    rule = "the unpooled run whose mean AP over the data's qrels is closest to the median of every run's mean AP"
    if not outside:
        return None, rule
    ap = evaluate(exp, ["AP"]).means()["AP"]
    gap = (ap[outside] - float(ap.median())).abs()
    return str(gap.index[int(np.argmin(gap.to_numpy()))]), rule


def _mid_range_rate(exp, pool, run: str | None, depth: int) -> float | None:
    """The true rate of relevance among the unjudged documents of ``run``'s top ``depth`` (None
    without truth, without such a run, or with nothing unjudged there that the truth judges)."""
    if exp.truth is None or run is None:
        return None
    try:
        return true_background_rate(exp, measurement_depth=depth, pool=pool, runs=[run])
    except NoUnjudgedPosition:
        return None


def _reads(fit) -> str:
    """The fit read at zero runs, saying so when it is below zero (generated from the fit)."""
    return f"{fit.intercept:.3f}" + (" (below zero)" if fit.intercept < 0 else "")


@register("ravana2010-fig1", "Fraction of judged documents relevant by number of pooling runs; E from a cubic fit",
          f"{PAPER}, Figure 1")
def fig1(source: Source, *, depths=FIG1_DEPTHS, degree: int = DEGREE.default, pooled: str = POOLED_RUNS.default):
    """``depths``: the pool depths d (default 10 and the paper's 100); for each, the depth-d
    pool of the runs ``pooled``: ``"contributors"`` (the default), the collection's own
    contributing runs, as the paper counts "the pool-contributing systems" (59 of TREC-9's 105
    runs; every run when the data marks none); ``"all"``, every run, irnb's what-if — on a
    simulated collection that pool is judged from the complete truth, as a real pool of every
    run would be; on other data it judges only what the qrels hold. Then the fraction of its
    judged documents that are relevant by the number of those runs with them in their top d,
    the fitted polynomial, E read at zero runs and, where the data has truth, the true rate E
    stands for (:func:`irnb.intervals.true_background_rate` over the runs' top 2d); the notes
    give the other pooling's readings too. ``.table``: one row per (pool depth, number of
    runs); ``E`` and ``true_rate`` are the depth's own (the same on each of its rows);
    ``.details["estimates"]``: one row per pool depth."""
    id = "ravana2010-fig1"
    exp = source.experiment
    st = setting(source, None, id)
    wanted = POOL_DEPTH.increasing(depths, id, name="depths", noun="pool depths")
    deg = DEGREE.validate(degree, id)
    which = POOLED_RUNS.validate(pooled, id)

    def pooling(how):  # (runs pooled, the experiment that judges their pool)
        if how == "all":
            return list(exp.run_names), (source.collection.complete_experiment if source.collection is not None
                                         else exp)
        return list(st.contributors), exp

    runs, judged_by = pooling(which)
    fits, used, truths, pools = {}, {}, {}, {}
    for d in wanted:
        fits[d], used[d], truths[d], pools[d] = _fit_at(judged_by, runs, d, deg)
    parts = []
    for d in wanted:
        part = fits[d].to_frame().set_index("num_runs")
        part["E"] = fits[d].rate
        part["true_rate"] = np.nan if truths[d] is None else truths[d]
        parts.append(part)
    table = pd.concat(parts, keys=list(wanted), names=["pool_depth", "num_runs"])[_FIG1_COLUMNS]
    estimates = pd.DataFrame({
        "degree": [used[d] for d in wanted], "fit_at_zero": [fits[d].intercept for d in wanted],
        "E": [fits[d].rate for d in wanted],
        "true_rate": [np.nan if truths[d] is None else truths[d] for d in wanted],
        "average_fraction": [float(fits[d].fraction[fits[d].in_fit].mean()) for d in wanted],
        "overall_fraction": [fits[d].overall for d in wanted]}, index=pd.Index(wanted, name="pool_depth"))
    paper = pd.DataFrame({"judged": [7.0], "relevant": [5.0], "fraction": [5 / 7], "fitted": [np.nan],
                          "in_fit": [True], "E": [np.nan], "true_rate": [np.nan]},
                         index=pd.MultiIndex.from_tuples([(100, 55)], names=["pool_depth", "num_runs"]))
    main = 100 if 100 in wanted else wanted[-1]  # the paper's depth, or the deepest asked for
    pooled_label = (f"all {len(runs)} runs (pooled='all': irnb's what-if; the paper counts the pool-contributing "
                    "systems)" if which == "all" else f"the {len(runs)} contributing runs, as the paper")
    notes = [f"Setting: {source.label}, {len(st.contributors)} contributing runs; {'; '.join(st.notes)}; "
             f"E is read from the depth-d pool of {pooled_label}, counting those runs, at d = "
             f"{' and '.join(map(str, wanted))}. The paper: TREC-9 Web Track, "
             f"{PAPER_RUNS['contributing']} contributing runs, d = 100. "
             "With few pooled runs the cubic often reads below zero at small d: on TREC-COVID round 1, 12 of its "
             "56 contributors pooled to depth 10 read below zero in most random draws "
             "(irnb.background_rate_by_contributors; tests/test_background_rate.py counts them)."]
    if judged_by is not exp:
        notes.append("The simulator knows every grade, so the depth-d pool of all runs is judged from its complete "
                     "truth, as a real pool of every run would be (its official qrels judge only the "
                     f"{len(st.contributors)} contributors' top {st.depth}).")
    other = "contributors" if which == "all" else "all"
    other_runs, other_judge = pooling(other)
    if other_runs != runs or other_judge is not judged_by:
        readings = []
        for d in wanted:
            try:
                fit, used_other, true, _ = _fit_at(other_judge, other_runs, d, deg)
            except TooFewCounts:
                readings.append(f"no fit at d = {d} (too few distinct counts)")
                continue
            readings.append(f"{_reads(fit)} at d = {d}" + (f" (degree {used_other})" if used_other != deg else "")
                            + (f", true {true:.3f}" if true is not None else ""))
        whom = (f"the collection's own {len(other_runs)} contributing runs" if other == "contributors" else
                f"every one of the {len(other_runs)} runs"
                + (" (judged from the complete truth)" if other_judge is not exp else ""))
        notes.append(f"With {whom} pooled instead (pooled='{other}'), the fit reads {'; '.join(readings)}.")
    if which == "all" and judged_by is exp and len(runs) > len(st.contributors):
        notes.append(f"The pool judges only what the qrels hold (built from the {len(st.contributors)} contributing "
                     "runs' pool): a document of another run's top d that the qrels do not hold stays unjudged and out "
                     "of the counts.")
    deeper = [d for d in wanted if d > st.depth] if judged_by is exp else []
    if deeper:
        pools_text = " and ".join(f"depth-{d}" for d in deeper)
        several = len(deeper) > 1
        notes.append(f"The qrels come from a pool of depth {st.depth}: the {pools_text} pool{'s' if several else ''} "
                     f"here judge{'' if several else 's'} only what the qrels judge (the documents of the "
                     "pooled runs' top d that the qrels hold).")
    for d in wanted:
        f, true = fits[d], truths[d]
        if used[d] != deg:
            notes.append(f"At d = {d}, too few distinct numbers of contributing runs for a degree-{deg} fit: "
                         f"degree {used[d]} is used.")
        read = (f"dips below zero and is clipped to E = 0 (unclipped {f.intercept:.3f})" if f.intercept < 0 else
                f"crosses zero runs at {f.intercept:.3f}, so E = {f.rate:.3f}")
        notes.append(f"At d = {d}: the average fraction across the graph is {estimates.loc[d, 'average_fraction']:.3f} "
                     f"(the paper, d = 100: 0.202); the degree-{used[d]} fit {read} (the paper: 0.043); over all "
                     f"judged documents the fraction relevant is {f.overall:.3f} (the paper 0.038).")
        if true is not None:
            ratio = "within" if within_factor(f.rate, true) else "not within"
            notes.append(f"The complete truth says {true:.3f} of the unjudged documents in the runs' top {2 * d} "
                         f"are relevant: the rate E stands for at d = {d} (E is {ratio} a factor of 2 of it).")
    if all(t is None for t in truths.values()):
        notes.append(f"{source.label} has no complete truth: the true rate is not known.")
    f = fits[main]
    average = float(estimates.loc[main, "average_fraction"])
    small = _well_below_average(f.intercept, average)
    notes.append(f"As in the paper, at d = {main} the rate read at zero runs is positive and well below the average "
                 "fraction." if small else
                 f"Unlike the paper, at d = {main} the rate read at zero runs is not a small positive number well "
                 "below the average fraction.")
    mid, mid_rule = _mid_range_run(judged_by, runs)
    mid_rate = _mid_range_rate(judged_by, pools[main], mid, main)
    if mid is not None:
        notes.append(f"The mid-range system of the paper's \"around 1 %\" remark is {mid} ({mid_rule})"
                     + (f": {mid_rate:.3f} of the unjudged documents in its top {main} are relevant in the truth."
                        if mid_rate is not None else "."))
    notes.append("The paper prints one bar's numbers (d = 100, 55 runs: 7 documents, 5 relevant): that is .paper; "
                 "the figure draws, per pool depth, the fraction per number of runs with the fitted curve, E and, "
                 "where the data has truth, the true rate.")
    others = ", ".join(f"{fits[d].intercept:.3f} at d = {d}" for d in wanted if d != main)
    true = truths[main]
    if mid_rate is not None:
        mid_reason = ""
    elif mid is None:
        mid_reason = f"every run is pooled: no run's top {main} has an unjudged document"
    elif judged_by.truth is None:
        mid_reason = f"{source.label} has no complete truth"
    else:
        mid_reason = f"nothing in {mid}'s top {main} is unjudged and judged by the truth"
    low, high = PAPER_E / AROUND_FACTOR, PAPER_E * AROUND_FACTOR
    claims = [
        Claim("the cubic fit crosses zero runs at 0.043, well below the average fraction across the graph (0.202)",
              f"{f.intercept:.3f} at d = {main}" + (f" ({others})" if others else "")
              + f"; average fraction {average:.3f}",
              f"the fit at zero runs is positive and at most {FIG1_SHARE_OF_AVERAGE:.0%} of the average fraction "
              f"across the graph, at d = {main}", small),
        Claim("based on these values (the fit reads 0.043, the qrels' overall fraction relevant is 0.038), E = 0.01 "
              "is not an overestimate",
              f"fit {f.intercept:.3f}, overall {f.overall:.3f}",
              f"both the fit at zero runs and the overall fraction relevant are at least E = {PAPER_E:g}, at "
              f"d = {main}",
              _not_an_overestimate(min(f.intercept, f.overall))),
        Claim("E = 0.01 is not an overestimate, checked against the true rate of relevance among unjudged "
              "documents (a check the paper, without complete judgments, could not make)",
              "unknown" if true is None else f"{true:.3f} over the runs' top {2 * main}",
              f"irnb's operationalisation: the true rate of relevance among the unjudged documents in the runs' top "
              f"2d (complete truth) is at least E = {PAPER_E:g}, at d = {main}",
              None if true is None else _not_an_overestimate(true),
              reason="" if true is not None else f"{source.label} has no complete truth (or nothing in the runs' top "
                                                 f"{2 * main} is unjudged and judged by it)"),
        Claim("of the unjudged documents in the top 100 of a system comparable to a mid-range TREC one, around 1 % "
              "are relevant",
              "unknown" if mid_rate is None else f"{mid_rate:.3f} in {mid}'s top {main}",
              f"the mid-range system ({mid_rule}): the true rate of relevance among the unjudged documents in its top "
              f"{main} (complete truth) is within a factor {AROUND_FACTOR:g} of {PAPER_E:g} ({low:g}–{high:g})",
              None if mid_rate is None else within_factor(mid_rate, PAPER_E, factor=AROUND_FACTOR),
              reason=mid_reason),
    ]
    return make(id=id, title="Estimating the background rate E", source=f"{PAPER}, Figure 1", table=table,
                paper=paper, notes=" ".join(notes), data=source.label,
                draw=partial(figures.background_rate_fits, fits=fits, truths=truths), details={"estimates": estimates},
                headline=Headline("a cubic fit read at zero runs gives 0.043 (average fraction 0.202, qrels 0.038): "
                                  "E = 0.01 is not an overestimate; of a mid-range system's unjudged top-100 "
                                  "documents around 1 % are relevant", claims))


# ---------------------------------------------------------------------------- Table 1
def _scores_by_budget(source: Source, st, sets: dict, bud, *, seed: int,
                      background_rate: float) -> tuple[pd.DataFrame, dict]:
    """Table 1: rows (part, measure), columns (run set, budget level), each cell the run
    set's mean B, Δ, X_I or X_M on the budget's pool; and each run's means by (measure,
    level)."""
    exp = source.experiment
    parts = {"(a) B": "lower", "(b) Δ": "residual", "(c) X_I": "X_I", "(d) X_M": "X_M"}
    columns = pd.MultiIndex.from_product([list(sets), LEVELS], names=["runs", "judgments"])
    index = pd.MultiIndex.from_product([list(parts), MEASURES], names=["part", "measure"])
    table = pd.DataFrame(np.nan, index=index, columns=columns)
    per_run = {}  # (measure, level) → each run's mean B, Δ, X_I, X_M
    for level, budget in zip(LEVELS, bud, strict=True):
        pool = budget_pool(exp, judgments=budget, runs=list(st.contributors), seed=seed)
        for m in MEASURES:
            iv = score_intervals(exp, m, pool=pool)
            means = pd.concat([iv.means(), point_estimates(iv, background_rate=background_rate).means()], axis=1)
            per_run[(m, level)] = means
            for s, runs in sets.items():
                for part, col in parts.items():
                    table.loc[(part, m), (s, level)] = float(means.loc[runs, col].mean())
    return table, per_run


#: Table 1's "the final scores" / "the at-69,100 values" (of X_I, X_M): irnb reads them as B with
#: every judgment (the scores a full evaluation reports); the other reading is the same estimator's
#: value at all judgments (the table's own 69,100 column). Claims (c) and (d) are judged under both.
FINAL_READINGS = ("final = B at all judgments", "final = the estimator at all judgments")


def _table1_notes(source: Source, st, sets: dict, bud, background_rate: float) -> str:
    notes = [_setting_text(source, st, sets, f"; {_budget_text(bud, source.experiment.judgments.num_judgments)}; "
                                             f"E = {background_rate}, λ = 1 − Δ")]
    notes.append("The final scores that X_I and X_M are compared with (the paper: \"the final scores\", \"the "
                 "at-69,100 values\") are irnb's reading: B with every judgment, the score a full evaluation "
                 "reports; the other reading, the estimator's own value at all judgments (the table's 69,100 column), "
                 "is judged too, and a claim the two readings split says \"depends on the reading\".")
    notes.append("The seed text lacks the table's numbers (.paper is None). Its remark that X_S = B never decreases "
                 "as judgments are added is no claim to test: the budgets are prefixes of one judgment order, and "
                 "a judgment can only turn an unjudged document (counted non-relevant) into a relevant one.")
    return " ".join(notes)


@register("ravana2010-table1", "Mean B, residual Δ, X_I and X_M of P@10, SDCG@100, RBP(0.95) by judgment budget",
          f"{PAPER}, Table 1")
def table1(source: Source, *, budgets=None, seed: int = SEED.default, background_rate: float = BACKGROUND_RATE.default):
    id = "ravana2010-table1"
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    bud = _budgets(source, budgets, id)
    table, per_run = _scores_by_budget(source, st, sets, bud, seed=seed, background_rate=background_rate)
    return make(id=id, title="Scores, residuals and estimates by judgments", source=f"{PAPER}, Table 1",
                table=table, paper=None, notes=_table1_notes(source, st, sets, bud, background_rate),
                data=source.label,
                headline=Headline("10,000 judgments get X_S within about 10 % of its final value; 46-non residuals "
                                  "larger than 59-con and comparable to B; X_I overestimates the final scores; X_M "
                                  "below them after 1,000 judgments, above after 10,000",
                                  _table1_claims(table, per_run, sets)))


def _at(frame: pd.DataFrame, level: str) -> pd.DataFrame:
    """The columns of one budget level (every run set)."""
    return frame.xs(level, axis=1, level="judgments")


def _table1_claims(table: pd.DataFrame, per_run: dict, sets: dict) -> list:
    """The claims of Table 1's text, each tested over every measure (and run set) it covers."""
    B, D = table.loc["(a) B"], table.loc["(b) Δ"]
    lvl = _at
    within = _within_of_final(lvl(B, "medium"), lvl(B, "deep"))
    share = lvl(B, "medium") / lvl(B, "deep").where(lvl(B, "deep") > 0)
    claims = [Claim("10,000 judgments mostly get X_S = B within around 10 % of its value at 69,100",
                    f"within in {int(within.sum())} of {within.size} cells (measure × run set); medium/deep "
                    f"{np.nanmin(share.to_numpy()):.0%}–{np.nanmax(share.to_numpy()):.0%}",
                    f"B at the medium budget is at least {1 - WITHIN:.0%} of B at all judgments in more than "
                    f"{MOSTLY:.0%} of the cells", _mostly(within))]
    non = "non-contributing"
    if len(sets) == 2:
        tested = {(m, level): _larger_by_test(per_run[(m, level)].loc[sets[non], "residual"],
                                              per_run[(m, level)].loc[sets["contributing"], "residual"])
                  for m in MEASURES for level in LEVELS}
        gap = (D[non] - D["contributing"]).to_numpy()
        worst = max(p for _, p in tested.values())
        claims.append(Claim("59-con runs have smaller average residuals than 46-non runs",
                            f"non − con mean Δ {np.nanmin(gap):.3f} to {np.nanmax(gap):.3f}; largest p = {worst:.2g}; "
                            f"larger in {sum(h for h, _ in tested.values())} of {len(tested)} cells",
                            f"in every cell (measure × budget) the non-contributing runs' mean Δ exceed the "
                            f"contributing runs' by a one-sided Mann–Whitney test over the runs, p < {RESIDUAL_ALPHA}",
                            all(h for h, _ in tested.values())))
    else:
        claims.append(Claim("59-con runs have smaller average residuals than 46-non runs", "one run set",
                            "non-contributing against contributing runs' Δ", None,
                            reason=f"the data has only {next(iter(sets))} runs (two or more of each are needed)"))
    if non in sets:
        comparable = _comparable(D[non].to_numpy(), B[non].to_numpy())
        ratio = (D[non] / B[non].where(B[non] > 0)).to_numpy()
        claims.append(Claim("on the 46-non runs the residuals are for the most part comparable to B (T ≈ 2B)",
                            f"Δ/B {np.nanmin(ratio):.2f}–{np.nanmax(ratio):.2f}; comparable in "
                            f"{int(comparable.sum())} of {comparable.size} cells",
                            f"Δ within a factor {COMPARABLE:g} of B in more than {MOSTLY:.0%} of the non-contributing "
                            "runs' cells (measure × budget)", _mostly(comparable)))
    else:
        claims.append(Claim("on the 46-non runs the residuals are for the most part comparable to B (T ≈ 2B)",
                            "no non-contributing runs", "Δ against B of the non-contributing runs", None,
                            reason="the data has fewer than two non-contributing runs"))
    final = lvl(B, "deep").to_numpy()
    # a cell with nothing unjudged at its budget (mean Δ = 0) has X_I = X_M = B by definition: no estimate to test
    open_ = {level: lvl(D, level).to_numpy() > 0 for level in ("shallow", "medium")}
    est = {(part, level): lvl(table.loc[part], level).to_numpy() for part in ("(c) X_I", "(d) X_M")
           for level in ("shallow", "medium")}

    def judged(part, levels, test, final_values):
        """(each open cell holds, estimate / final) against ``final_values``."""
        ok = np.concatenate([test(est[(part, lv)], final_values)[open_[lv]] for lv in levels])
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.concatenate([(est[(part, lv)] / np.where(final_values > 0, final_values, np.nan))[open_[lv]]
                                for lv in levels])
        return ok, r

    def claim(paper, part, levels, test, words):
        name = part.split()[1]
        ok, r = judged(part, levels, test, final)
        own_ok, _ = judged(part, levels, test, lvl(table.loc[part], "deep").to_numpy())
        skipped = sum(int((~open_[lv]).sum()) for lv in levels)
        if not ok.size:
            return Claim(paper, "nothing unjudged", words, None,
                         reason="no cell has an unjudged document at the budget")
        side = "above" if test is _above else "below"
        text = (f"{name} / final B {np.nanmin(r):.2f}–{np.nanmax(r):.2f}; {side} in {int(ok.sum())} of {ok.size} cells"
                + (f" ({skipped} with nothing unjudged left out)" if skipped else "")
                + f"; against {name} at all judgments {side} in {int(own_ok.sum())} of {own_ok.size}")
        return Claim(paper, text, words + " (B at all judgments: irnb's reading of the final score; also judged "
                                          f"against {name}'s own value at all judgments)", bool(ok.all()),
                     readings={FINAL_READINGS[0]: bool(ok.all()), FINAL_READINGS[1]: bool(own_ok.all())})

    every = "in every cell (measure × run set) with an unjudged document at that budget"
    claims.append(claim("X_I after 1,000 and 10,000 judgments uniformly overestimates the final scores", "(c) X_I",
                        ("shallow", "medium"), _above,
                        f"X_I at the shallow and the medium budget at least {SCORE_MARGIN:.0%} above B at all "
                        f"judgments {every}"))
    claims.append(claim("X_M after 1,000 judgments is below the at-69,100 values", "(d) X_M", ("shallow",), _below,
                        f"X_M at the shallow budget at least {SCORE_MARGIN:.0%} below B at all judgments {every}"))
    claims.append(claim("X_M after 10,000 judgments is somewhat above the at-69,100 values", "(d) X_M", ("medium",),
                        _above,
                        f"X_M at the medium budget at least {SCORE_MARGIN:.0%} above B at all judgments {every}"))
    return claims


# ---------------------------------------------------------------------------- Figure 2 and Table 2
def _separability(source: Source, budgets, *, seed, background_rate, id: str):
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    tests = _tests(source, st, budgets, seed=seed, background_rate=background_rate)
    return st, sets, tests


def _mean_separability(frame: pd.DataFrame, first: int) -> pd.DataFrame:
    """Mean separability over the budgets from ``first`` on: one row per measure, one column per method."""
    sub = frame[frame["budget"] >= first]
    return (sub.groupby(["measure", "estimator"])["fraction"].mean().unstack("estimator")
            .reindex(index=list(MEASURES), columns=list(METHODS)))


def _order_text(mean: pd.DataFrame) -> str:
    return "; ".join(f"{m}: " + " > ".join(mean.loc[m].sort_values(ascending=False).index) for m in mean.index)


def _order_claims(mean: pd.DataFrame, at: str) -> list:
    """Fig. 2's order: X_S and X_B separate the most pairs, followed by X_M; the interval method the fewest."""
    gap = mean[["X_S", "X_B"]].min(axis=1) - mean["X_M"]
    low = mean.drop(columns="interval").min(axis=1) - mean["interval"]
    return [
        Claim("X_S and X_B give the greatest separability, followed by X_M",
              "min(X_S, X_B) − X_M: " + ", ".join(f"{m} {gap[m]:+.3f}" for m in gap.index),
              f"on every measure, X_S and X_B each separate at least {ORDER_MARGIN:.0%} of the pairs more than X_M "
              f"(mean {at})", all(_separates_more(gap[m], 0.0) for m in gap.index)),
        Claim("the pessimistic interval method separates the fewest pairs",
              "lowest point estimator − interval: " + ", ".join(f"{m} {low[m]:+.3f}" for m in low.index),
              f"on every measure, every point estimator separates at least {ORDER_MARGIN:.0%} of the pairs more than "
              f"the interval method (mean {at})", all(_separates_more(low[m], 0.0) for m in low.index)),
    ]


@register("ravana2010-fig2", "Separability against the number of judgments, per estimator and the interval method",
          f"{PAPER}, Figure 2")
def fig2(source: Source, *, budgets=None, seed: int = SEED.default, background_rate: float = BACKGROUND_RATE.default,
         run_set: str | None = None):
    """``budgets``: the numbers of judgments on the x axis (default: 1 % … 100 % of the
    qrels and the paper's three budgets scaled); ``run_set`` "non-contributing" (the paper's,
    the default when there are such runs) or "contributing"."""
    id = "ravana2010-fig2"
    budgets, paper_budgets = _fig2_budgets(source, budgets, id)
    st, sets, tests = _separability(source, budgets, seed=seed, background_rate=background_rate, id=id)
    run_set = RUN_SET.among(sets).validate(run_set or _main_set(sets), id)
    later = [b for b in budgets if b >= paper_budgets[0]]
    shallow = later[0] if later else budgets[-1]  # the paper's shallow budget, or the nearest one above it

    def at(alpha):  # (the run set's rows, the figure's table, the mean separability from the shallow budget on)
        frame = tests.separability(alpha=alpha)
        sub = frame[frame["run_set"] == run_set]
        table = sub.pivot_table(index="budget", columns=["measure", "estimator"], values="fraction", sort=False)
        table = table.reindex(columns=pd.MultiIndex.from_product([MEASURES, METHODS], names=["measure", "method"]))
        table.index.name = "judgments"
        return sub, table, _mean_separability(sub, shallow)

    by_side = {alpha: at(alpha) for alpha in SIDE_READINGS.values()}
    sub, table, mean = by_side[ALPHA]
    claims, one_sided = _under_both_sides(
        lambda alpha: _fig2_claims(by_side[alpha][1].loc[shallow], by_side[alpha][2], shallow))
    notes = _fig2_notes(source, st, sets, background_rate, run_set=run_set, pairs=int(sub["pairs"].max()),
                        shallow=shallow, paper_shallow=paper_budgets[0], mean=mean) + _one_sided_text(one_sided)
    return make(id=id, title="Separability against judgments", source=f"{PAPER}, Figure 2", table=table,
                paper=None, notes=notes, data=source.label,
                draw=partial(figures.separability_curves, methods=METHODS, alpha=ALPHA),
                headline=Headline("X_S and X_B separate most pairs even at 1,000 judgments, then X_M; the interval "
                                  "method least", claims))


def _fig2_budgets(source: Source, budgets, id: str) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """Figure 2's x axis (``budgets`` given, or 1 % … 100 % of the qrels with the paper's three
    budgets scaled) and the paper's three budgets scaled to the data."""
    paper_budgets = _budgets(source, None, id)
    if budgets is None:
        axis = set(default_budgets(source.experiment.judgments.num_judgments)) | set(paper_budgets)
    else:
        values = [budgets] if isinstance(budgets, (int, np.integer)) else list(budgets)  # -o budgets=500
        axis = {int(b) for b in values}
    return tuple(sorted(axis)), paper_budgets


def _fig2_claims(at: pd.Series, mean: pd.DataFrame, shallow: int) -> list[Claim]:
    """Figure 2's claims from the separability at the shallow budget (``at``: by (measure,
    method)) and the mean separability from it on (rows: measure; columns: method)."""
    high = {m: (at[(m, "X_S")], at[(m, "X_B")]) for m in MEASURES}
    return [Claim("except for the interval method, as few as 1,000 judgments give relatively high separability "
                  f"({PAPER_EXAMPLE})",
                  f"at {shallow:,}: " + ", ".join(f"{m} X_S {a:.2f} X_B {b:.2f}" for m, (a, b) in high.items()),
                  f"X_S and X_B each separate at least {HIGH_SEPARABILITY:.0%} of the pairs at the shallow budget, "
                  "on every measure", all(_high_separability(min(v)) for v in high.values())),
            *_order_claims(mean, f"over the budgets from {shallow:,} on")]


def _fig2_notes(source: Source, st, sets: dict, background_rate: float, *, run_set: str, pairs: int, shallow: int,
                paper_shallow: int, mean: pd.DataFrame) -> str:
    return (_setting_text(source, st, sets, f"; separability of the {run_set} runs ({pairs} pairs): the fraction "
                                            f"with p < {ALPHA}, {SIDES}; E = {background_rate}")
            + f" Mean separability from {shallow:,} judgments (the paper's shallow budget scaled: "
              f"{paper_shallow:,}) on, highest first: {_order_text(mean)}. The paper prints no numbers for this "
              "figure (.paper is None)."
            + " The interval method is irnb's reading of the paper's pessimistic comparison as a test: B of one run "
              "against T of the other (irnb.intervals.pessimistic_t_test).")


def _separability_table(frame: pd.DataFrame, bud, sets: dict) -> pd.DataFrame:
    """Table 2: rows (measure, method), columns (run set, budget level), each cell the share
    of the run set's pairs separated."""
    level = dict(zip(bud, LEVELS, strict=True))
    frame = frame.assign(judgments=frame["budget"].map(level))
    table = frame.pivot_table(index=["measure", "estimator"], columns=["run_set", "judgments"], values="fraction",
                              sort=False)
    return table.reindex(index=pd.MultiIndex.from_product([MEASURES, METHODS], names=["measure", "method"]),
                         columns=pd.MultiIndex.from_product([list(sets), LEVELS], names=["runs", "judgments"]))


def _paper_table2(index: pd.Index) -> pd.DataFrame:
    """The paper's example (:data:`PAPER_SEPARABLE`, from its Table 3 paragraph: P@10, 46-non,
    1,000 judgments; estimator not named) in the cell irnb assumes it belongs to (X_S); NaN
    elsewhere: the seed text prints none of Table 2's cells."""
    paper = pd.DataFrame(np.nan, index=index,
                         columns=pd.MultiIndex.from_product([list(RUN_SETS), LEVELS], names=["runs", "judgments"]))
    paper.loc[("P@10", "X_S"), ("non-contributing", "shallow")] = PAPER_SEPARABLE[0] / PAPER_SEPARABLE[1]
    return paper


def _table2_claims(table: pd.DataFrame, main: str, bud) -> list[Claim]:
    """Table 2's claims from the table's ``main`` run set: P@10 with X_S separates many pairs
    at the shallow budget; X_I fewer than every other point estimator in every cell."""
    cells = table[main]
    shallow = cells.loc[("P@10", "X_S"), "shallow"]
    gap = pd.DataFrame({m: [cells.loc[(m, ["X_S", "X_B", "X_M"]), level].min() - cells.loc[(m, "X_I"), level]
                            for level in LEVELS] for m in MEASURES}, index=list(LEVELS)).T
    return [
        Claim(f"P@10 separates many pairs after 1,000 judgments ({PAPER_EXAMPLE})",
              f"{shallow:.1%} after {bud[0]:,}",
              f"P@10 with X_S separates at least {HIGH_SEPARABILITY:.0%} of the {main} pairs at the shallow budget",
              _high_separability(shallow)),
        Claim("X_I gives low separability, consistently less useful than the other point estimators",
              f"lowest of X_S, X_B, X_M − X_I: {np.nanmin(gap.to_numpy()):+.3f} to {np.nanmax(gap.to_numpy()):+.3f}; "
              f"at least {ORDER_MARGIN:.0%} lower in {int((gap >= ORDER_MARGIN).sum().sum())} of {gap.size} cells",
              f"in every cell (measure × budget) X_I separates at least {ORDER_MARGIN:.0%} of the {main} pairs fewer "
              "than each of X_S, X_B and X_M", all(_separates_more(g, 0.0) for g in gap.to_numpy().ravel())),
    ]


def _table2_notes(source: Source, st, sets: dict, bud, background_rate: float, table: pd.DataFrame,
                  mean: pd.DataFrame, main: str) -> str:
    shallow = table.loc[("P@10", "X_S"), (main, "shallow")]
    significant, pairs = PAPER_SEPARABLE
    return (_setting_text(source, st, sets, f"; {_budget_text(bud, source.experiment.judgments.num_judgments)}; "
                                            f"p < {ALPHA}, {SIDES}; E = {background_rate}")
            + f" Separability of the {main} runs, mean over the three budgets, highest first: {_order_text(mean)}. "
            + f"P@10 with X_S separates {shallow:.1%} of the pairs at the shallow budget ({PAPER_EXAMPLE}; "
              "the seed text prints none of Table 2's cells).")


@register("ravana2010-table2", "Separability at 1,000, 10,000 and all judgments, per estimator",
          f"{PAPER}, Table 2")
def table2(source: Source, *, budgets=None, seed: int = SEED.default, background_rate: float = BACKGROUND_RATE.default):
    id = "ravana2010-table2"
    bud = _budgets(source, budgets, id)
    st, sets, tests = _separability(source, bud, seed=seed, background_rate=background_rate, id=id)
    frames = {alpha: tests.separability(alpha=alpha) for alpha in SIDE_READINGS.values()}
    tables = {alpha: _separability_table(frame, bud, sets) for alpha, frame in frames.items()}
    frame, table = frames[ALPHA], tables[ALPHA]
    main = _main_set(sets)
    mean = _mean_separability(frame[frame["run_set"] == main], bud[0])
    claims, one_sided = _under_both_sides(lambda alpha: _table2_claims(tables[alpha], main, bud))
    return make(id=id, title="Separability by judgments", source=f"{PAPER}, Table 2", table=table,
                paper=_paper_table2(table.index),
                notes=_table2_notes(source, st, sets, bud, background_rate, table, mean, main)
                + _one_sided_text(one_sided), data=source.label,
                headline=Headline("P@10: 713 of 1,035 pairs (68.9 %) separable after 1,000 judgments (estimator not "
                                  "named; X_S assumed); X_I consistently less useful than the other point estimators",
                                  claims))


# ---------------------------------------------------------------------------- Table 3
@register("ravana2010-table3", "Recanting: pairs significant after few judgments that are not after more",
          f"{PAPER}, Table 3")
def table3(source: Source, *, budgets=None, seed: int = SEED.default, background_rate: float = BACKGROUND_RATE.default,
           run_set: str | None = None):
    id = "ravana2010-table3"
    bud = _budgets(source, budgets, id)
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    run_set = RUN_SET.among(sets).validate(run_set or _main_set(sets), id)
    tests = _tests(source, st, bud, seed=seed, background_rate=background_rate)
    pairs = len(sets[run_set]) * (len(sets[run_set]) - 1) // 2
    tables = {alpha: _recanting_table(tests, bud, run_set, pairs, alpha=alpha) for alpha in SIDE_READINGS.values()}
    table = tables[ALPHA]
    claims, one_sided = _under_both_sides(lambda alpha: _table3_claims(tables[alpha], _T3_RECANT, pairs))
    return make(id=id, title="Recanting", source=f"{PAPER}, Table 3", table=table, paper=_paper_table3(table.index),
                notes=_table3_notes(source, st, sets, bud, background_rate, table, run_set, pairs)
                + _one_sided_text(one_sided), data=source.label,
                headline=Headline("X_S and X_B recant under 10 % (P@10: 7.0 % by 10,000, 8.4 % by 69,100; estimator "
                                  "not named, X_S assumed); X_I recants more, though it awards fewer significant pairs "
                                  "at shallow budgets", claims))


def _recanting_table(tests, bud, run_set: str, pairs: int, *, alpha: float = ALPHA) -> pd.DataFrame:
    """Table 3: rows (measure, method, first budget level), columns :data:`_T3_COLUMNS`: the
    pairs of ``run_set`` significant (p < ``alpha``) at the level, and the share of them that
    recant at each later level."""
    rec = tests.recanting(alpha=alpha)
    rec = rec[rec["run_set"] == run_set]
    level = dict(zip(bud, LEVELS, strict=True))
    index = pd.MultiIndex.from_product([MEASURES, METHODS, LEVELS[:2]], names=["measure", "method", "judgments"])
    cells: dict = {key: dict.fromkeys(_T3_COLUMNS, np.nan) for key in index}
    for row in rec.itertuples(index=False):
        a, b = level[row.budget_from], level[row.budget_to]
        if a == "deep":
            continue
        cell = cells[(row.measure, row.estimator, a)]
        cell["significant"], cell["pairs"] = float(row.significant_from), float(pairs)
        if b != a:
            cell[f"recanted at {b} (%)"] = 100.0 * row.share
    table = pd.DataFrame.from_dict(cells, orient="index").reindex(columns=_T3_COLUMNS)
    table.index = index
    return table


def _paper_table3(index: pd.Index) -> pd.DataFrame:
    """What the seed text prints of Table 3: P@10's row (estimator not named; X_S assumed), NaN elsewhere."""
    paper = pd.DataFrame(np.nan, index=index, columns=_T3_COLUMNS)
    paper.loc[("P@10", "X_S", "shallow")] = [*PAPER_SEPARABLE, 7.0, 8.4]
    return paper


def _table3_notes(source: Source, st, sets: dict, bud, background_rate: float, table: pd.DataFrame, run_set: str,
                  pairs: int) -> str:
    p10 = table.loc[("P@10", "X_S", "shallow")]
    return (_setting_text(source, st, sets, f"; {_budget_text(bud, source.experiment.judgments.num_judgments)}; "
                                            f"the {run_set} runs' {pairs} pairs, p < {ALPHA}, {SIDES}; a pair "
                                            f"recants when it is no longer significant, or significant the other "
                                            f"way, at the later budget; E = {background_rate}")
            + f" P@10 with X_S: {int(p10['significant'])} pairs significant at the shallow budget, "
              f"{p10['recanted at medium (%)']:.1f} % recant at the medium and {p10['recanted at deep (%)']:.1f} % at "
              f"the deep budget (the paper: {PAPER_SEPARABLE[0]}, 7.0 % and 8.4 %)."
            + " The seed text gives only the P@10 numbers of this table (estimator not named; X_S assumed).")


def _table3_claims(table: pd.DataFrame, recant: list, pairs: int) -> list:
    shallow = table.xs("shallow", level="judgments")
    sb = shallow.loc[(slice(None), ["X_S", "X_B"]), recant].to_numpy().ravel()
    xi = shallow.loc[(slice(None), "X_I"), recant].to_numpy().ravel()
    sb, xi = sb[~np.isnan(sb)], xi[~np.isnan(xi)]
    p10 = shallow.loc[("P@10", "X_S"), recant]
    claims = [Claim("X_S and X_B recant less than 10 % (P@10: 7.0 % by 10,000, 8.4 % by 69,100 judgments; estimator "
                    "not named, X_S assumed)",
                    f"at most {sb.max():.1f} %; P@10 X_S {p10.iloc[0]:.1f} % / {p10.iloc[1]:.1f} %" if sb.size else
                    "no pair significant at the shallow budget",
                    f"every X_S and X_B share of the shallow budget's significant pairs that recants at the medium or "
                    f"deep budget is below {RECANT_LIMIT:g} %",
                    _recants_little(sb) if sb.size else None,
                    reason="" if sb.size else "no pair is significant with X_S or X_B at the shallow budget")]
    if sb.size and xi.size:
        claims.append(Claim("X_I has higher revision rates than X_S and X_B",
                            f"mean X_I {xi.mean():.1f} % against X_S/X_B {sb.mean():.1f} %",
                            f"X_I's mean recanting share (measures × later budgets) at least {RECANT_MARGIN:g} "
                            "points above X_S's and X_B's", _recants_more(float(xi.mean()), float(sb.mean()))))
    else:
        claims.append(Claim("X_I has higher revision rates than X_S and X_B", "nothing recants", "X_I against X_S/X_B",
                            None, reason="no pair is significant with X_I (or X_S, X_B) at the shallow budget"))
    sig = shallow["significant"].unstack("method")
    fewer = sig[["X_S", "X_B"]].min(axis=1) - sig["X_I"]  # significant pairs
    claims.append(Claim("X_I is more conservative in awarding significance at the shallow budget",
                        "min(X_S, X_B) − X_I significant pairs: " + ", ".join(f"{m} {int(fewer[m]):+d} of {pairs}"
                                                                            for m in fewer.index),
                        f"on every measure X_I finds at least {ORDER_MARGIN:.0%} of the pairs fewer significant than "
                        "X_S and X_B at the shallow budget",
                        all(_separates_more(fewer[m] / pairs, 0.0) for m in fewer.index)))
    return claims
