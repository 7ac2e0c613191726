"""Baillie et al.'s System Evaluation Decision Matrix: cases 1–4 for every pair of runs.

For runs s₁, s₂, a measure P at measurement depth k and its assessment measure A (the
proportion of judged documents, A_p@k = ``Judged@k``; MAA for AP), two tests are run over
topics — H₀: P(s₁) = P(s₂) and H₀: A(s₁) = A(s₂) — and each pair falls in one case:

====  ====================  ==============================================================
case  strength              outcome
====  ====================  ==============================================================
1     strong                P equal, A equal: equal on comparable information
2     weak                  P equal, A different: one run was judged on more of its list
3     strong                P different, and the better run's A is equal or significantly
                            lower: more judgments could not make the worse run catch up
4     weak                  P different, and the better run's A is significantly higher:
                            the difference may come from unequal judging
====  ====================  ==============================================================

"Different" means p < ``alpha``; ``alpha`` is applied here and nowhere else (the p-values
come from :mod:`irnb.stats`). With ``test="anova"`` (the papers' procedure) a pair is
different only when the one-way ANOVA over all runs and the pair's Bonferroni comparison
both reject, so the tables report p = max(ANOVA p, Bonferroni p). A pair whose p-value is
NaN (nothing to test, e.g. no shared topic) counts as "equal".

Which run is better follows the test's own direction and the measure's orientation (for a
lower-is-better measure the lower score is better); A is always higher-is-more-judged.

Hand example (α = 0.05): P p = 0.01 with s₁ better, A p = 0.20 → case 3; A p = 0.001 with
s₁ more judged → case 4; with s₂ more judged → case 3; P p = 0.30, A p = 0.01 → case 2.

>>> classify([0.01, 0.01, 0.01, 0.30, 0.30], [0.20, 0.001, 0.001, 0.01, 0.5],
...          [1, 1, 1, 0, 0], [1, 1, -1, 1, 1], alpha=0.05).tolist()
[3, 4, 3, 2, 1]
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import special

from .measures import Measure, parse_measure
from .stats import TESTS, TOPIC_RULES, PairwiseTests, pairwise_test

__all__ = [
    "CASES",
    "STRENGTH",
    "TABLE1_MEASURES",
    "DEPTHS",
    "assessment_measure",
    "classify",
    "decide",
    "compare_table",
    "case_matrix",
    "case_counts",
    "case_proportions",
    "depth_curves",
]

CASES = {
    1: "P equal, A equal",
    2: "P equal, A different",
    3: "P different, better run's A equal or lower",
    4: "P different, better run's A higher",
}
STRENGTH = {1: "strong", 2: "weak", 3: "strong", 4: "weak"}
TABLE1_MEASURES = ("P@10", "P@30", "P@100", "P@500", "P@1000", "AP")  # Baillie et al. Table 1 columns
DEPTHS = (10, 30, 100, 500, 1000)
_STRENGTH_BY_CASE = np.asarray([None] + [STRENGTH[c] for c in (1, 2, 3, 4)], dtype=object)  # case → strength
_AVERAGE_FAMILIES = ("AP", "GMAP", "APj", "infAP")
_ASSESSMENT_FAMILIES = ("Judged", "JudgedRet", "NotUnj", "MAA", "MAAR", "RecallAssessment", "Unj")


# =================================================================== measures
def assessment_measure(measure: "str | Measure") -> Measure:
    """The assessment measure paired with a measure (written rule):

    * AP-like measures (AP, GMAP, AP(j), infAP) → MAA at the same cutoff (MAA for MAP);
    * any other measure with a depth k (P@k, nDCG@k, RBP@k, …) → A_p@k = ``Judged@k``;
    * a measure without a depth (nDCG, bpref, RR, R-prec, …) → MAA over the whole ranking.

    >>> [assessment_measure(m).name for m in ["P@10", "AP", "AP@100", "ndcg_cut_20", "bpref"]]
    ['Judged@10', 'MAA', 'MAA@100', 'Judged@20', 'MAA']
    """
    m = parse_measure(measure)
    if m.family in _ASSESSMENT_FAMILIES:
        raise ValueError(f"measure {m.name!r} already measures assessment; pass a performance measure "
                         "such as 'P@10' or 'AP'")
    if m.family in _AVERAGE_FAMILIES:
        return Measure("MAA", m.cutoff)
    if m.cutoff is not None:
        return Measure("Judged", m.cutoff)
    return Measure("MAA", None)


def _check_alpha(alpha) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) or not 0 < alpha < 1:
        raise ValueError(f"alpha (significance level) must satisfy 0 < alpha < 1, got {alpha!r}")
    return float(alpha)


# =================================================================== kernel
def classify(p_measure, p_assessment, better, more_assessed, *, alpha: float = 0.05) -> np.ndarray:
    """Decision-matrix case (1–4, int8) per pair from two p-values and two directions.

    ``better``: +1 when the first run has the better measure, −1 when the second does;
    ``more_assessed``: +1 when the first run has the higher assessment. NaN p-values count
    as not significant. Case 4 ⇔ both significant and the better run is also the more
    assessed one; case 3 ⇔ P significant otherwise; case 2 ⇔ only A significant.
    """
    alpha = _check_alpha(alpha)
    p_m = np.asarray(p_measure, dtype=np.float64)
    p_a = np.asarray(p_assessment, dtype=np.float64)
    better = np.sign(np.asarray(better, dtype=np.float64))
    more = np.sign(np.asarray(more_assessed, dtype=np.float64))
    shapes = {p_m.shape, p_a.shape, better.shape, more.shape}
    if len(shapes) != 1:
        raise ValueError(f"classify: all four inputs must have the same shape, got {sorted(shapes)}")
    with np.errstate(invalid="ignore"):
        sig_m = p_m < alpha  # NaN < alpha is False: "equal"
        sig_a = p_a < alpha
    case = np.where(sig_m, np.where(sig_a & (better == more) & (better != 0), 4, 3), np.where(sig_a, 2, 1))
    return case.astype(np.int8)


# =================================================================== per-pair tables
def _effective_p(res: PairwiseTests) -> np.ndarray:
    """The p-value the decision compares with alpha (ANOVA: gated by the omnibus test)."""
    if res.omnibus is not None:
        return np.maximum(res.p_value, res.omnibus.p_value)
    return np.asarray(res.p_value)


def decide(measure_tests: PairwiseTests, assessment_tests: PairwiseTests, *, alpha: float = 0.05,
           higher_is_better: bool = True, assessment_higher_is_better: bool = True) -> pd.DataFrame:
    """The decision-matrix table from two :class:`~irnb.stats.PairwiseTests` on the same
    runs (one for the measure, one for its assessment measure).

    One row per pair: ``run_a, run_b, measure, assessment, test, n_topics, mean_a, mean_b,
    mean_diff, p_measure, assessment_a, assessment_b, assessment_diff, p_assessment, case,
    strength, better, more_assessed``; ``better`` / ``more_assessed`` name the run that is
    significantly better / more assessed, or are None when the two are "equal".
    ``higher_is_better`` / ``assessment_higher_is_better`` orient the two measures (an
    assessment measure such as Unj@k, the unjudged share, is lower-is-better).
    """
    alpha = _check_alpha(alpha)
    for name, flag in (("higher_is_better", higher_is_better),
                       ("assessment_higher_is_better", assessment_higher_is_better)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if measure_tests.run_names != assessment_tests.run_names:
        raise ValueError("measure_tests and assessment_tests must cover the same runs in the same order")
    if measure_tests.test != assessment_tests.test:
        raise ValueError(f"both sides must use the same test, got {measure_tests.test!r} and "
                         f"{assessment_tests.test!r}")
    p_m, p_a = _effective_p(measure_tests), _effective_p(assessment_tests)
    better = measure_tests.direction * (1 if higher_is_better else -1)
    more = assessment_tests.direction * (1 if assessment_higher_is_better else -1)
    case = classify(p_m, p_a, better, more, alpha=alpha)
    names = np.asarray(measure_tests.run_names, dtype=object)
    ra, rb = names[measure_tests.run_a], names[measure_tests.run_b]
    with np.errstate(invalid="ignore"):
        sig_m, sig_a = p_m < alpha, p_a < alpha
    better_name = np.where(sig_m & (better > 0), ra, np.where(sig_m & (better < 0), rb, None))
    more_name = np.where(sig_a & (more > 0), ra, np.where(sig_a & (more < 0), rb, None))
    return pd.DataFrame({
        "run_a": ra, "run_b": rb,
        "measure": measure_tests.measure, "assessment": assessment_tests.measure, "test": measure_tests.test,
        "n_topics": measure_tests.n_topics,
        "mean_a": measure_tests.mean_a, "mean_b": measure_tests.mean_b, "mean_diff": measure_tests.mean_diff,
        "p_measure": p_m,
        "assessment_a": assessment_tests.mean_a, "assessment_b": assessment_tests.mean_b,
        "assessment_diff": assessment_tests.mean_diff, "p_assessment": p_a,
        "case": case, "strength": _STRENGTH_BY_CASE[case],
        # object columns: a missing name stays None (JSON null), not NaN
        "better": pd.Series(better_name, dtype=object), "more_assessed": pd.Series(more_name, dtype=object),
    })


def _evaluation(source, measures: Sequence[Measure], judged):
    """An Evaluation holding ``measures``: evaluate an Experiment, or check a given one."""
    from .experiment import Experiment
    from .metrics import Evaluation, evaluate

    if isinstance(source, Evaluation):
        if judged is not None:
            raise ValueError("judged: an Evaluation is already evaluated; pass judged= with an Experiment")
        missing = [m.name for m in measures if m not in source.values]
        if missing:
            raise ValueError(f"the Evaluation lacks {missing}; evaluate them too "
                             f"(it has {[m.name for m in source.measures]})")
        return source
    if isinstance(source, Experiment):
        return evaluate(source, list(dict.fromkeys(measures)), judged=judged)
    raise TypeError(f"expected an Experiment or an Evaluation, got {type(source).__name__}")


def _table(ev, measure: Measure, assessment: Measure, test: str, alpha: float, topics: str,
           options: dict) -> pd.DataFrame:
    res_m = pairwise_test(ev, measure, test=test, topics=topics, **options)
    res_a = pairwise_test(ev, assessment, test=test, topics=topics, **options)
    return decide(res_m, res_a, alpha=alpha, higher_is_better=measure.spec.higher_is_better,
                  assessment_higher_is_better=assessment.spec.higher_is_better)


def _cases(ev, measure: Measure, assessment: Measure, test: str, alpha: float, topics: str,
           options: dict) -> np.ndarray:
    """The ``case`` column of :func:`_table` alone (what the counts need): the same tests
    and :func:`classify`, without building the per-pair table."""
    res_m = pairwise_test(ev, measure, test=test, topics=topics, **options)
    res_a = pairwise_test(ev, assessment, test=test, topics=topics, **options)
    better = res_m.direction * (1 if measure.spec.higher_is_better else -1)
    more = res_a.direction * (1 if assessment.spec.higher_is_better else -1)
    return classify(_effective_p(res_m), _effective_p(res_a), better, more, alpha=alpha)


def _check_test(test, topics):
    if test not in TESTS:
        import difflib

        close = difflib.get_close_matches(str(test), TESTS, n=1)
        raise ValueError(f"test must be one of {TESTS}, got {test!r}"
                         + (f"; did you mean {close[0]!r}?" if close else ""))
    if topics not in TOPIC_RULES:
        raise ValueError(f"topics must be one of {TOPIC_RULES}, got {topics!r}")


def compare_table(experiment, measure: "str | Measure", *, test: str = "t", alpha: float = 0.05,
                  judged: np.ndarray | None = None, assessment: "str | Measure | None" = None,
                  topics: str = "pairwise", **options) -> pd.DataFrame:
    """Every pair of runs of ``experiment`` (an Experiment, or an Evaluation holding both
    measures) classified by the decision matrix: see :func:`decide` for the columns.

    ``measure``'s assessment measure is :func:`assessment_measure` unless ``assessment`` is
    given; ``judged`` restricts the qrels to a pool (a mask over qrels entries, see
    :mod:`irnb.pooling`); ``test`` is one of ``t, wilcoxon, sign, randomization, anova,
    tukey`` and ``options`` are that test's keywords (e.g. ``seed=``); ``topics`` as in
    :mod:`irnb.stats`. This is what ``irnb compare`` prints.
    """
    alpha = _check_alpha(alpha)
    _check_test(test, topics)
    m = parse_measure(measure)
    a = assessment_measure(m) if assessment is None else parse_measure(assessment)
    ev = _evaluation(experiment, [m, a], judged)
    return _table(ev, m, a, test, alpha, topics, options)


def case_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """Run × run grid of cases from a :func:`compare_table`/:func:`decide` table (the
    decision-matrix heatmap); symmetric, diagonal NaN, runs in order of appearance."""
    need = {"run_a", "run_b", "case"}
    if not need <= set(table.columns):
        raise ValueError(f"table must have columns {sorted(need)}, got {list(table.columns)}")
    first, second = table["run_a"].to_numpy(dtype=object), table["run_b"].to_numpy(dtype=object)
    runs = list(pd.unique(np.concatenate([first, second])))  # in order of appearance
    where = pd.Index(runs)
    i, j = where.get_indexer(first), where.get_indexer(second)
    out = np.full((len(runs), len(runs)), np.nan)
    out[i, j] = table["case"].to_numpy()
    out[j, i] = table["case"].to_numpy()
    return pd.DataFrame(out, index=pd.Index(runs, name="run"), columns=pd.Index(runs, name="versus"))


# =================================================================== Table 1
def _settings(settings) -> dict:
    from .experiment import Experiment
    from .metrics import Evaluation

    if isinstance(settings, (Experiment, Evaluation)):
        return {"all runs": (settings, None)}
    if isinstance(settings, Mapping):
        out = {}
        for name, value in settings.items():
            if isinstance(value, (Experiment, Evaluation)):
                out[str(name)] = (value, None)
            elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Experiment):
                out[str(name)] = value
            else:
                raise TypeError(f"settings[{name!r}]: expected an Experiment, an Evaluation or "
                                f"(Experiment, judged mask), got {type(value).__name__}")
        if not out:
            raise ValueError("settings: expected at least one setting, got none")
        return out
    raise TypeError("settings must be an Experiment, an Evaluation, or a mapping name → Experiment | "
                    f"(Experiment, judged) | Evaluation; got {type(settings).__name__}")


def case_counts(settings, *, measures: Iterable["str | Measure"] = TABLE1_MEASURES, test: str = "t",
                alpha: float = 0.05, topics: str = "pairwise", **options) -> pd.DataFrame:
    """How many pairs fall in each case, per setting and measure (tidy).

    ``settings``: one Experiment (or Evaluation), or a mapping from a row name (a pool
    setting, a collection) to an Experiment, an ``(Experiment, judged)`` pair, or an
    Evaluation. Rows: ``setting, measure, assessment, case, pairs, count, proportion``;
    every (setting, measure) has the four cases and its proportions sum to 1.
    """
    alpha = _check_alpha(alpha)
    _check_test(test, topics)
    parsed = [parse_measure(m) for m in ([measures] if isinstance(measures, (str, Measure)) else measures)]
    if not parsed:
        raise ValueError("measures: expected at least one measure, got none")
    rows = []
    for name, (source, judged) in _settings(settings).items():
        pairs = [(m, assessment_measure(m)) for m in parsed]
        ev = _evaluation(source, [x for pair in pairs for x in pair], judged)
        for m, a in pairs:
            counts = np.bincount(_cases(ev, m, a, test, alpha, topics, options).astype(np.int64), minlength=5)[1:5]
            total = int(counts.sum())
            for c in range(1, 5):
                rows.append({"setting": name, "measure": m.name, "assessment": a.name, "case": c,
                             "pairs": total, "count": int(counts[c - 1]),
                             "proportion": counts[c - 1] / total if total else np.nan})
    return pd.DataFrame(rows)


def case_proportions(settings, *, measures: Iterable["str | Measure"] = TABLE1_MEASURES, test: str = "t",
                     alpha: float = 0.05, topics: str = "pairwise", **options) -> pd.DataFrame:
    """Baillie et al.'s Table 1: rows are settings (pool settings or collections), columns
    are (measure, case 1–4) — four proportions per measurement depth, summing to 1.

    The default columns are P@10, P@30, P@100, P@500, P@1000 and AP (each tested with its
    assessment measure: Judged@k, MAA). Pair counts are in :func:`case_counts`.
    """
    tidy = case_counts(settings, measures=measures, test=test, alpha=alpha, topics=topics, **options)
    wide = tidy.pivot(index="setting", columns=["measure", "case"], values="proportion")
    order_rows = list(dict.fromkeys(tidy["setting"]))
    order_cols = list(dict.fromkeys(zip(tidy["measure"], tidy["case"])))
    wide = wide.loc[order_rows, pd.MultiIndex.from_tuples(order_cols, names=["measure", "case"])]
    return wide


# =================================================================== Fig. 2 / Fig. 11
def depth_curves(experiment, run_a: str, run_b: str, *, family: str = "P", depths: Sequence[int] = DEPTHS,
                 judged: np.ndarray | None = None, test: str = "t", alpha: float = 0.05,
                 confidence: float = 0.95, topics: str = "pairwise", **options) -> pd.DataFrame:
    """Two runs' measure and assessment curves across measurement depths (the data behind
    Baillie et al.'s Fig. 2 / Fig. 11), with confidence intervals and the pair's case.

    For each depth d: ``family@d`` (P@d, or AP@d for ``family="AP"``) and its assessment
    measure (Judged@d, MAA@d). Rows: ``depth, kind ("measure" | "assessment"), measure,
    run, mean, lower, upper, n_topics, p_value, significant, case``. Means and intervals
    are over the topics the test uses (those the pair shares; with ``topics="common"``
    those every run shares): mean ± t_{(1+confidence)/2, n−1}·sd/√n. The
    p-value is the pair's, from ``test`` applied to all runs (so ANOVA/Bonferroni and
    Tukey see the whole family, as in the paper); ``case`` is the pair's decision-matrix
    case at that depth.
    """
    alpha = _check_alpha(alpha)
    _check_test(test, topics)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must satisfy 0 < confidence < 1, got {confidence!r}")
    depths = list(depths)
    if not depths or any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1 for d in depths):
        raise ValueError(f"depths must be integers ≥ 1 (measurement depths), got {depths!r}")
    pairs = []
    for d in depths:
        m = parse_measure(f"{family}@{int(d)}")
        pairs.append((int(d), m, assessment_measure(m)))
    ev = _evaluation(experiment, [x for _, m, a in pairs for x in (m, a)], judged)
    names = list(ev.run_names)
    for r in (run_a, run_b):
        if r not in names:
            import difflib

            close = difflib.get_close_matches(str(r), names, n=3)
            raise ValueError(f"unknown run {r!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))
    if run_a == run_b:
        raise ValueError(f"run_a and run_b must differ, got {run_a!r} twice")
    ia, ib = names.index(run_a), names.index(run_b)
    first, second = names[min(ia, ib)], names[max(ia, ib)]  # tables list each pair once, in run order
    shared = ev.evaluated.all(axis=0) if topics == "common" else ev.evaluated[ia] & ev.evaluated[ib]
    n = int(shared.sum())
    crit = special.stdtrit(n - 1, 0.5 + confidence / 2) if n >= 2 else np.nan
    rows = []
    for d, m, a in pairs:
        table = _table(ev, m, a, test, alpha, topics, options)
        row = table[(table["run_a"] == first) & (table["run_b"] == second)].iloc[0]
        for kind, meas, p in (("measure", m, row["p_measure"]), ("assessment", a, row["p_assessment"])):
            for r, i in ((run_a, ia), (run_b, ib)):
                x = ev.values[meas][i][shared]
                mean = float(x.mean()) if n else np.nan
                half = crit * float(x.std(ddof=1)) / np.sqrt(n) if n >= 2 else np.nan
                rows.append({"depth": d, "kind": kind, "measure": meas.name, "run": r, "mean": mean,
                             "lower": mean - half, "upper": mean + half, "n_topics": n, "p_value": float(p),
                             "significant": bool(p < alpha), "case": int(row["case"])})
    return pd.DataFrame(rows)
