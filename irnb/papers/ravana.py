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
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..budgets import BUDGET_MEASURES, budget_tests, default_budgets
from ..background_rate import NoUnjudgedPosition, TooFewCounts, within_factor
from ..intervals import estimate_background_rate, point_estimates, score_intervals, true_background_rate
from ..params import BUDGET_LEVELS, DEGREE, POOL_DEPTH, POOLED_RUNS, RUN_SET
from ..pooling import budget_pool, depth_pool
from .registry import ReproductionNeeds, Source, register
from ._common import make, panel_axes, setting

PAPER = "Ravana & Moffat (AIRS 2010)"
MEASURES = BUDGET_MEASURES  # P@10, SDCG@100, RBP(p=0.95)
PAPER_JUDGMENTS = (1000, 10000, 69100)
PAPER_RUNS = {"contributing": 59, "non-contributing": 46}  # TREC-9 Web Track: the runs that built the pool, the rest
LEVELS = ("shallow", "medium", "deep")
RUN_SETS = ("contributing", "non-contributing")
METHODS = ("X_S", "X_B", "X_I", "X_M", "interval")
ALPHA = 0.01  # the paper's significance level

# What the seed text prints of Table 3 (P@10, 46-non): 713 of 1,035 pairs significant after
# 1,000 judgments; 50 (7.0 %) of them not significant after 10,000, 60 (8.4 %) after 69,100.
# The text does not name the estimator; the paragraph goes on about X_S and X_B: X_S assumed.
_T3_COLUMNS = ["significant", "pairs", "recanted at medium (%)", "recanted at deep (%)"]


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
#: Pool depths of Figure 1: the paper's d = 100 and a shallow d = 10, where E matters more (issue 13).
FIG1_DEPTHS = (10, 100)
_FIG1_COLUMNS = ["judged", "relevant", "fraction", "fitted", "in_fit", "E", "true_rate"]


def _fit_at(exp, pooled: list, depth: int, degree: int):
    """(fit, degree used, true rate or None) for the depth-``depth`` pool of the runs ``pooled``."""
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
    return fit, used, true


@register("ravana2010-fig1", "Fraction of judged documents relevant by number of pooling runs; E from a cubic fit",
          f"{PAPER}, Figure 1")
def fig1(source: Source, *, depths=FIG1_DEPTHS, degree: int = 3, pooled: str = "auto"):
    """``depths``: the pool depths d (default 10 and the paper's 100); for each, the depth-d
    pool of the runs ``pooled``: ``"contributors"``, the collection's own contributing runs,
    as the paper (59 of TREC-9's 105 runs); ``"all"``, every run — on the simulator, whose
    12 contributing runs (one per group) are too few for the cubic at d = 10 (see
    :func:`irnb.background_rate_by_contributors`), the stand-in for the paper's many
    contributors, judged from the complete truth; on other data the pool still judges only
    what the qrels hold; ``"auto"`` (the default): ``"all"`` on a simulated collection (a
    :class:`irnb.datasets.Collection`, such as the embedded default), ``"contributors"``
    elsewhere (an Experiment, even a simulated one's). With every run pooled the simulator's
    estimate lands within a factor of 2 of the truth at d = 10 and at the paper's d = 100 on
    seed 0 and the held-out seeds 10–14; its 12 contributors do not
    (benchmarks/RESULTS_background_rate.md). Then the fraction of its judged documents that are
    relevant by the number of those runs with them in their top d, the fitted polynomial, E read
    at zero runs and, where the data has truth, the true rate E stands for
    (:func:`irnb.intervals.true_background_rate` over the runs' top 2d). ``.table``: one row
    per (pool depth, number of runs); ``E`` and ``true_rate`` are the depth's own (the same
    on each of its rows); ``.details["estimates"]``: one row per pool depth."""
    id = "ravana2010-fig1"
    exp = source.experiment
    st = setting(source, None, id)
    wanted = POOL_DEPTH.increasing(depths, id, name="depths", noun="pool depths")
    deg = DEGREE.validate(degree, id)
    which = POOLED_RUNS.validate(pooled, id)
    if which == "auto":
        which = "all" if source.collection is not None else "contributors"
    runs = list(exp.run_names) if which == "all" else list(st.contributors)
    judged_by = exp
    if which == "all" and source.collection is not None:  # the simulator knows every grade: a real pool of all runs
        judged_by = source.collection.complete_experiment
    fits, used, truths = {}, {}, {}
    for d in wanted:
        fits[d], used[d], truths[d] = _fit_at(judged_by, runs, d, deg)
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
    pooled_label = (f"all {len(runs)} runs (a stand-in for the paper's {PAPER_RUNS['contributing']} contributing "
                    f"systems: with this "
                    f"collection's {len(st.contributors)} the cubic reads below zero at a shallow d, as on real data)"
                    if which == "all" else f"the {len(runs)} contributing runs, as the paper")
    notes = [f"Setting: {source.label}, {len(st.contributors)} contributing runs; {'; '.join(st.notes)}; "
             f"E is read from the depth-d pool of {pooled_label}, counting those runs, at d = "
             f"{' and '.join(map(str, wanted))}. The paper: TREC-9 Web Track, "
             f"{PAPER_RUNS['contributing']} contributing runs, d = 100. "
             "With few pooled runs the cubic often reads below zero at small d: on TREC-COVID round 1, 12 of its "
             "56 contributors pooled to depth 10 read below zero in most random draws "
             "(irnb.background_rate_by_contributors)."]
    if judged_by is not exp:
        notes.append("The simulator knows every grade, so the depth-d pool of all runs is judged from its complete "
                     "truth, as a real pool of every run would be (its official qrels judge only the "
                     f"{len(st.contributors)} contributors' top {st.depth}).")
        readings = []
        for d in wanted:
            try:
                fit, used_own, true = _fit_at(exp, list(st.contributors), d, deg)
            except TooFewCounts:
                readings.append(f"no fit at d = {d} (too few distinct counts)")
                continue
            readings.append(f"{fit.intercept:.3f} at d = {d}" + (f" (degree {used_own})" if used_own != deg else "")
                            + (f", true {true:.3f}" if true is not None else ""))
        notes.append(f"With the collection's own {len(st.contributors)} contributing runs pooled instead "
                     f"(pooled='contributors'), the fit reads {'; '.join(readings)}.")
    elif which == "all" and len(runs) > len(st.contributors):
        notes.append(f"The pool judges only what the qrels hold (built from the {len(st.contributors)} contributing "
                     "runs' pool): a document of another run's top d that the qrels do not hold stays unjudged and out "
                     "of the counts.")
    deeper = [d for d in wanted if d > st.depth] if judged_by is exp else []
    if deeper:
        pools = " and ".join(f"depth-{d}" for d in deeper)
        several = len(deeper) > 1
        notes.append(f"The qrels come from a pool of depth {st.depth}: the {pools} pool{'s' if several else ''} "
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
    agrees = bool(0.0 < f.intercept and f.rate < estimates.loc[main, "average_fraction"])
    notes.append(f"As in the paper, at d = {main} the rate read at zero runs is positive and well below the average "
                 "fraction." if agrees else
                 f"Unlike the paper, at d = {main} the rate read at zero runs is not a small positive number.")
    notes.append("The paper prints one bar's numbers (d = 100, 55 runs: 7 documents, 5 relevant): that is .paper; "
                 "the figure draws, per pool depth, the fraction per number of runs with the fitted curve, E and, "
                 "where the data has truth, the true rate.")
    others = ", ".join(f"{fits[d].intercept:.3f} at d = {d}" for d in wanted if d != main)
    return make(id=id, title="Estimating the background rate E", source=f"{PAPER}, Figure 1", table=table,
                paper=paper, notes=" ".join(notes), data=source.label,
                draw=partial(_draw_fig1, fits=fits, truths=truths), details={"estimates": estimates},
                headline=("cubic fit at zero runs 0.043 (E = 0.01 used)",
                          f"{f.intercept:.3f}" + (f" ({others})" if others else ""), agrees))


def _draw_fig1(rep, ax=None, *, fits, truths):
    """One panel per pool depth (:func:`irnb.plots.background_rate_plot`): the fraction
    relevant per number of runs, the fitted polynomial, E at zero runs and the true rate;
    returns the Axes, one per depth."""
    from .. import plots

    if ax is None:
        import matplotlib.pyplot as plt

        figure, grid = plt.subplots(len(fits), 1, figsize=(7.0, 3.6 * len(fits)), layout="constrained",
                                    squeeze=False)
        figure.suptitle(f"{rep.id} ({rep.data})", fontsize=10)
        axes = list(grid[:, 0])
    else:
        axes = panel_axes(ax, len(fits))
    for panel, (d, fit) in zip(axes, fits.items(), strict=True):
        plots.background_rate_plot(fit, truth=truths[d], ax=panel)
        truth = "" if truths[d] is None else f"; true rate over the runs' top {2 * d}"
        panel.set_title(f"pool depth d = {d}{truth}", fontsize=9)
    return axes


# ---------------------------------------------------------------------------- Table 1
@register("ravana2010-table1", "Mean B, residual Δ, X_I and X_M of P@10, SDCG@100, RBP(0.95) by judgment budget",
          f"{PAPER}, Table 1")
def table1(source: Source, *, budgets=None, seed: int = 0, background_rate: float = 0.01):
    id = "ravana2010-table1"
    exp = source.experiment
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    bud = _budgets(source, budgets, id)
    parts = {"(a) B": "lower", "(b) Δ": "residual", "(c) X_I": "X_I", "(d) X_M": "X_M"}
    columns = pd.MultiIndex.from_product([list(sets), LEVELS], names=["runs", "judgments"])
    index = pd.MultiIndex.from_product([list(parts), MEASURES], names=["part", "measure"])
    table = pd.DataFrame(np.nan, index=index, columns=columns)
    for level, budget in zip(LEVELS, bud, strict=True):
        pool = budget_pool(exp, judgments=budget, runs=list(st.contributors), seed=seed)
        for m in MEASURES:
            iv = score_intervals(exp, m, pool=pool)
            means = pd.concat([iv.means(), point_estimates(iv, background_rate=background_rate).means()], axis=1)
            for s, runs in sets.items():
                for part, col in parts.items():
                    table.loc[(part, m), (s, level)] = float(means.loc[runs, col].mean())
    # the text's claims, checked
    B = table.loc["(a) B"]
    monotone = bool(all((np.diff(B[s].to_numpy(), axis=1) >= -1e-12).all() for s in sets))
    notes = [_setting_text(source, st, sets, f"; {_budget_text(bud, exp.judgments.num_judgments)}; E = "
                                             f"{background_rate}, λ = 1 − Δ")]
    notes.append(f"The seed text lacks the table's numbers (.paper is None); its claims, checked: X_S = B "
                 f"{'never decreases' if monotone else 'decreases somewhere'} as judgments are added "
                 f"(the paper: non-decreasing).")
    close = (B.xs("medium", axis=1, level="judgments") / B.xs("deep", axis=1, level="judgments")).min().min()
    notes.append(f"At the medium budget B reaches at least {close:.0%} of its value with all judgments (the paper: "
                 f"within about 10 %).")
    agrees = monotone
    larger = None
    if len(sets) == 2:
        D = table.loc["(b) Δ"]
        larger = bool((D["non-contributing"].to_numpy() > D["contributing"].to_numpy()).all())
        agrees &= larger
        notes.append(f"The non-contributing runs' residuals are {'' if larger else 'not always '}larger than the "
                     f"contributing runs' (the paper: larger).")
    main = _main_set(sets)
    final = table.loc["(a) B", (main, "deep")]
    over = bool((table.loc["(c) X_I", (main, "shallow")] > final).all()
                and (table.loc["(c) X_I", (main, "medium")] > final).all())
    notes.append(f"On the {main} runs X_I at the shallow and medium budgets "
                 f"{'overestimates' if over else 'does not always overestimate'} the final scores (the paper: "
                 f"uniformly overestimates); X_M at the shallow budget is "
                 f"{'below' if (table.loc['(d) X_M', (main, 'shallow')] < final).all() else 'not always below'} "
                 f"them (the paper: below).")
    return make(id=id, title="Scores, residuals and estimates by judgments", source=f"{PAPER}, Table 1",
                table=table, paper=None, notes=" ".join(notes), data=source.label,
                headline=("X_S = B non-decreasing with judgments; 46-non residuals larger than 59-con",
                          f"B {'non-decreasing' if monotone else 'decreasing somewhere'}; non-contributing residuals "
                          + {True: "larger", False: "not always larger", None: "n/a (one run set)"}[larger],
                          agrees))


# ---------------------------------------------------------------------------- Figure 2 and Table 2
def _separability(source: Source, budgets, *, seed, background_rate, id: str):
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    tests = _tests(source, st, budgets, seed=seed, background_rate=background_rate)
    return st, sets, tests, tests.separability(alpha=ALPHA)


def _ordering_sentence(frame: pd.DataFrame, budgets: tuple[int, ...]) -> tuple[str, bool]:
    """Which methods separate most, at and above the shallow budget, per measure."""
    sentences, agrees = [], True
    for m in MEASURES:
        sub = frame[(frame["measure"] == m) & (frame["budget"] >= budgets[0])]
        mean = sub.groupby("estimator")["fraction"].mean().reindex(list(METHODS))
        order = " > ".join(mean.sort_values(ascending=False).index)
        sentences.append(f"{m}: {order}")
        agrees &= bool(mean["interval"] <= mean.drop("interval").min() and mean["X_I"] <= mean[["X_S", "X_B"]].min())
    return "; ".join(sentences), agrees


@register("ravana2010-fig2", "Separability against the number of judgments, per estimator and the interval method",
          f"{PAPER}, Figure 2")
def fig2(source: Source, *, budgets=None, seed: int = 0, background_rate: float = 0.01, run_set: str | None = None):
    """``budgets``: the numbers of judgments on the x axis (default: 1 % … 100 % of the
    qrels and the paper's three budgets scaled); ``run_set`` "non-contributing" (the paper's,
    the default when there are such runs) or "contributing"."""
    id = "ravana2010-fig2"
    exp = source.experiment
    total = exp.judgments.num_judgments
    paper_budgets = _budgets(source, None, id)
    if budgets is None:
        budgets = tuple(sorted(set(default_budgets(total)) | set(paper_budgets)))
    else:
        values = [budgets] if isinstance(budgets, (int, np.integer)) else list(budgets)  # -o budgets=500
        budgets = tuple(sorted({int(b) for b in values}))
    st, sets, tests, frame = _separability(source, budgets, seed=seed, background_rate=background_rate, id=id)
    run_set = RUN_SET.among(sets, listed="list").validate(run_set or _main_set(sets), id)
    sub = frame[frame["run_set"] == run_set]
    table = sub.pivot_table(index="budget", columns=["measure", "estimator"], values="fraction", sort=False)
    table = table.reindex(columns=pd.MultiIndex.from_product([MEASURES, METHODS], names=["measure", "method"]))
    table.index.name = "judgments"
    later = [b for b in budgets if b >= paper_budgets[0]]
    shallow = later[0] if later else budgets[-1]  # the paper's shallow budget, or the nearest one above it
    order, agrees = _ordering_sentence(sub, (shallow,))
    pairs = int(sub["pairs"].max())
    notes = (_setting_text(source, st, sets, f"; separability of the {run_set} runs ({pairs} pairs): the fraction "
                                             f"with a paired two-sided t-test p < {ALPHA}; E = {background_rate}")
             + f" Mean separability from {shallow:,} judgments (the paper's shallow budget scaled: "
               f"{paper_budgets[0]:,}) on, highest first: "
             + order + ". The paper prints no numbers for this figure (.paper is None); it finds X_S and X_B "
               "separating most, then X_M, X_I low, and the pessimistic interval method lowest; "
             + ("here too X_S and X_B separate at least as many pairs as X_I, and the interval method fewest."
                if agrees else "here X_S and X_B do not separate at least as many pairs as X_I, or the interval "
                               "method not the fewest.")
             + " The interval method is irnb's reading of the paper's pessimistic comparison as a test: B of one run "
               "against T of the other (irnb.intervals.pessimistic_t_test).")
    at = table.loc[shallow]
    return make(id=id, title="Separability against judgments", source=f"{PAPER}, Figure 2", table=table,
                paper=None, notes=notes, data=source.label, draw=_draw_fig2,
                headline=("X_S, X_B separate most even at 1,000 judgments; interval method least",
                          f"P@10 at {shallow:,}: X_S {at[('P@10', 'X_S')]:.2f}, "
                          f"interval {at[('P@10', 'interval')]:.2f}", agrees))


def _draw_fig2(rep, ax=None):
    from .. import plots
    from ..plots.legends import outside_legend

    measures = list(dict.fromkeys(rep.table.columns.get_level_values("measure")))
    axes = panel_axes(ax, len(measures), sharey=True)
    shared = len(set(map(id, axes))) == 1   # one Axes for every measure: the measure in the label
    for a, m in zip(axes, measures, strict=True):
        drawn = []
        for i, method in enumerate(METHODS):   # each method its own colour, marker and line style
            values = rep.table[(m, method)]
            # a series (almost) equal to one drawn before goes on top of it thinner, so that both stay visible
            again = any(np.allclose(values.to_numpy(), v, atol=0.01, equal_nan=True) for v in drawn)
            drawn.append(values.to_numpy())
            a.plot(values.index, values.to_numpy(), **plots.series_style(i), markersize=2.5 if again else 5,
                   linewidth=0.7 if again else 1.6,
                   label=(f"{method}, {m}" if shared else method) if a is axes[-1] or shared else None)
        a.set_xscale("log")
        plots.plain_log_axis(a.xaxis, subs=(1.0,))
        a.set_xlabel("number of judgments")
        a.set_title(m, fontsize=9)
    axes[0].set_ylabel(f"fraction of pairs, paired t-test p < {ALPHA}")
    outside_legend(axes[-1], *axes[-1].get_legend_handles_labels())
    return axes if not shared else axes[0]


@register("ravana2010-table2", "Separability at 1,000, 10,000 and all judgments, per estimator",
          f"{PAPER}, Table 2")
def table2(source: Source, *, budgets=None, seed: int = 0, background_rate: float = 0.01):
    id = "ravana2010-table2"
    bud = _budgets(source, budgets, id)
    st, sets, tests, frame = _separability(source, bud, seed=seed, background_rate=background_rate, id=id)
    level = dict(zip(bud, LEVELS, strict=True))
    frame = frame.assign(judgments=frame["budget"].map(level))
    table = frame.pivot_table(index=["measure", "estimator"], columns=["run_set", "judgments"], values="fraction",
                              sort=False)
    table = table.reindex(index=pd.MultiIndex.from_product([MEASURES, METHODS], names=["measure", "method"]),
                          columns=pd.MultiIndex.from_product([list(sets), LEVELS], names=["runs", "judgments"]))
    paper = pd.DataFrame(np.nan, index=table.index,
                         columns=pd.MultiIndex.from_product([list(RUN_SETS), LEVELS], names=["runs", "judgments"]))
    paper.loc[("P@10", "X_S"), ("non-contributing", "shallow")] = 713 / 1035
    main = _main_set(sets)
    sub = frame[frame["run_set"] == main]
    order, agrees = _ordering_sentence(sub, bud)
    shallow = table.loc[("P@10", "X_S"), (main, "shallow")]
    notes = (_setting_text(source, st, sets, f"; {_budget_text(bud, source.experiment.judgments.num_judgments)}; "
                                             f"p < {ALPHA}, paired two-sided t-test; E = {background_rate}")
             + f" Separability of the {main} runs, mean over the three budgets, highest first: {order}. "
             + ("As in the paper, X_S and X_B separate at least as many pairs as X_I, and the interval method fewest. "
                if agrees else "The paper's order (X_S and X_B most, X_I low, interval fewest) does not hold here. ")
             + f"P@10 with X_S separates {shallow:.1%} of the pairs at the shallow budget (the paper: 713 of 1,035 = "
               f"68.9 %, the only cell of Table 2 the seed text gives, from its Table 3 paragraph).")
    return make(id=id, title="Separability by judgments", source=f"{PAPER}, Table 2", table=table, paper=paper,
                notes=notes, data=source.label,
                headline=("P@10, X_S: 713 of 1,035 pairs (68.9 %) separable after 1,000 judgments",
                          f"{shallow:.1%} after {bud[0]:,}", agrees))


# ---------------------------------------------------------------------------- Table 3
@register("ravana2010-table3", "Recanting: pairs significant after few judgments that are not after more",
          f"{PAPER}, Table 3")
def table3(source: Source, *, budgets=None, seed: int = 0, background_rate: float = 0.01, run_set: str | None = None):
    id = "ravana2010-table3"
    bud = _budgets(source, budgets, id)
    st = setting(source, None, id)
    sets = _run_sets(source, st)
    if not sets:
        raise ReproductionNeeds(f"{id} needs at least two runs in a run set; {source.label} has none")
    run_set = RUN_SET.among(sets, listed="list").validate(run_set or _main_set(sets), id)
    tests = _tests(source, st, bud, seed=seed, background_rate=background_rate)
    rec = tests.recanting(alpha=ALPHA)
    rec = rec[rec["run_set"] == run_set]
    level = dict(zip(bud, LEVELS, strict=True))
    index = pd.MultiIndex.from_product([MEASURES, METHODS, LEVELS[:2]], names=["measure", "method", "judgments"])
    pairs = len(sets[run_set]) * (len(sets[run_set]) - 1) // 2
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
    paper = pd.DataFrame(np.nan, index=index, columns=_T3_COLUMNS)
    paper.loc[("P@10", "X_S", "shallow")] = [713, 1035, 7.0, 8.4]
    recant = ["recanted at medium (%)", "recanted at deep (%)"]
    sb = table.loc[(slice(None), ["X_S", "X_B"]), recant].to_numpy().ravel()
    xi = table.loc[(slice(None), "X_I"), recant].to_numpy().ravel()
    sb, xi = sb[~np.isnan(sb)], xi[~np.isnan(xi)]
    if sb.size and xi.size:
        worst, xi_mean, sb_mean = float(sb.max()), float(xi.mean()), float(sb.mean())
        agrees = worst < 10.0 and xi_mean >= sb_mean
    else:  # no pair significant at a shallow budget: nothing can recant
        worst = xi_mean = sb_mean = np.nan
        agrees = None
    p10 = table.loc[("P@10", "X_S", "shallow")]
    notes = (_setting_text(source, st, sets, f"; {_budget_text(bud, source.experiment.judgments.num_judgments)}; "
                                             f"the {run_set} runs' {pairs} pairs, p < {ALPHA}; a pair recants when it "
                                             f"is no longer significant, or significant the other way, at the later "
                                             f"budget; E = {background_rate}")
             + f" P@10 with X_S: {int(p10['significant'])} pairs significant at the shallow budget, "
               f"{p10['recanted at medium (%)']:.1f} % recant at the medium and {p10['recanted at deep (%)']:.1f} % at "
               f"the deep budget (the paper: 713, 7.0 % and 8.4 %). "
             + ("No pair is significant at a shallow budget here, so nothing can recant." if agrees is None else
                f"X_S and X_B recant at most {worst:.1f} % (the paper: under 10 %); X_I recants {xi_mean:.1f} % on "
                f"average against {sb_mean:.1f} % for X_S and X_B (the paper: X_I recants more). "
                + ("Both hold here." if agrees else "Not both hold here."))
             + " The seed text gives only the P@10 numbers of this table (estimator not named; X_S assumed).")
    return make(id=id, title="Recanting", source=f"{PAPER}, Table 3", table=table, paper=paper, notes=notes,
                data=source.label,
                headline=("X_S and X_B recant under 10 %; P@10 X_S: 7.0 % by 10,000, 8.4 % by 69,100",
                          f"X_S/X_B at most {worst:.1f} %; P@10 X_S {p10['recanted at medium (%)']:.1f} % / "
                          f"{p10['recanted at deep (%)']:.1f} %", agrees))
