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
                            lower: the papers: more judgments could not make the worse run
                            catch up
4     weak                  P different, and the better run's A is significantly higher:
                            the difference may come from unequal judging
====  ====================  ==============================================================

"Different" means p < ``alpha``; ``alpha`` is applied here and nowhere else (the p-values
come from :mod:`irnb.stats`). The default test follows the papers' procedure (Baillie et al.
2007 §3, 2008 §4.2: "the ANOVA test", then "Bonferroni multiple comparisons"):
``test="anova"``, a one-way ANOVA over all runs followed by Bonferroni multiple
comparisons. The papers name neither α nor the ANOVA's design: one-way (runs as the only
factor) and α = 0.05 are irnb's reading. A pair is different only when the ANOVA over all runs and the
pair's Bonferroni comparison both reject, so the tables report p = max(ANOVA p,
Bonferroni p). The other tests of :data:`irnb.stats.TESTS` (paired t, Wilcoxon, sign,
randomization, Tukey HSD) are options. A pair whose p-value is NaN (nothing to test, e.g.
no shared topic) counts as "equal". Every table says what produced it in its ``.attrs``
(``test``, ``correction``, ``alpha``, ``assessment``, ``procedure``; see
:func:`procedure_label`), and the plots print that in their titles.

Assessment measures (A). By default P@k is paired with A_p@k = ``Judged@k`` and AP with
MAA (the 2007 paper); ``assessment=`` takes any assessment family instead (``Judged``,
``JudgedRet``, ``NotUnj``, ``MAA``, ``MAAR``: :data:`ASSESSMENT_FAMILIES`), taken at each
column's depth by the case tables and :func:`depth_curves`; :func:`compare_table` takes a
measure name as given and a family that needs a depth at the measure's.
:func:`case_proportions` builds the 2007 table (``form="2007"``: P@10 … P@1000 with A_p at
the same depth, AP with MAA) or the 2008 tables (``form="2008"``: P@d and MAP@d = AP@d,
each with A_p@d).

Which run is better follows the test's own direction and the measure's orientation (for a
lower-is-better measure the lower score is better); A is always higher-is-more-judged.

Hand example (α = 0.05): P p = 0.01 with s₁ better, A p = 0.20 → case 3; A p = 0.001 with
s₁ more judged → case 4; with s₂ more judged → case 3; P p = 0.30, A p = 0.01 → case 2.

>>> classify([0.01, 0.01, 0.01, 0.30, 0.30], [0.20, 0.001, 0.001, 0.01, 0.5],
...          [1, 1, 1, 0, 0], [1, 1, -1, 1, 1], alpha=0.05).tolist()
[3, 4, 3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import special

from .measures import ASSESSMENT_FAMILIES, FAMILIES, Measure, parse_measure
from .params import (ALPHA, ASSESSMENT_FAMILY, ASSESSMENT_HIGHER_IS_BETTER, CASE_FORM, CONFIDENCE, HIGHER_IS_BETTER,
                     INTERVAL_ADJUSTMENT, MEASUREMENT_DEPTH, TEST, TOPIC_RULE)
from .stats import PairwiseTests, SignificanceTest, significance_test

__all__ = [
    "CASES",
    "STRENGTH",
    "TABLE1_MEASURES",
    "DEPTHS",
    "FORMS",
    "ASSESSMENT_FAMILIES",
    "procedure_label",
    "form_measures",
    "assessment_measure",
    "classify",
    "decide",
    "compare_table",
    "case_matrix",
    "case_counts",
    "case_proportions",
    "depth_curves",
    "interval_comparisons",
]

CASES = {
    1: "P equal, A equal",
    2: "P equal, A different",
    3: "P different, better run's A equal or lower",
    4: "P different, better run's A higher",
}
STRENGTH = {1: "strong", 2: "weak", 3: "strong", 4: "weak"}
TABLE1_MEASURES = ("P@10", "P@30", "P@100", "P@500", "P@1000", "AP")  # Baillie et al. 2007 Table 1 columns
DEPTHS = (10, 30, 100, 500, 1000)  # the papers' measurement depths d (2007 Table 1; 2008 §4.2, Tables 3-4)
FORMS = CASE_FORM.choices  # case_proportions layouts: Baillie et al. 2007 Table 1; 2008 Tables 3 and 4
_STRENGTH_BY_CASE = np.asarray([None] + [STRENGTH[c] for c in (1, 2, 3, 4)], dtype=object)  # case → strength


# =================================================================== procedure and measures
def procedure_label(test: str = TEST.default, *, alpha: float = ALPHA.default) -> str:
    """The words every table and plot carries: which test (and correction) at which α.

    >>> procedure_label("anova", alpha=0.05)
    'one-way ANOVA + Bonferroni multiple comparisons, α = 0.05'
    >>> procedure_label("t", alpha=0.01)
    'paired t-test (no correction), α = 0.01'
    """
    return _label(significance_test(test), _check_alpha(alpha))


def _label(test: SignificanceTest, alpha: float) -> str:
    return f"{test.name}{'' if test.correction != 'none' else ' (no correction)'}, α = {alpha:g}"


def _attrs(test: SignificanceTest, alpha: float, assessment: str, **more) -> dict:
    """The ``.attrs`` of every decision table: what produced it."""
    return {"test": test.test, "correction": test.correction, "alpha": alpha, "assessment": assessment,
            "procedure": _label(test, alpha), **more}


def _check_form(form) -> str:
    return CASE_FORM.validate(form, None)


def _check_depths(depths) -> list[int]:
    depths = list(depths)
    try:
        if not depths:
            raise ValueError("no depths")
        return [MEASUREMENT_DEPTH.validate(d, None) for d in depths]
    except ValueError:
        raise ValueError(f"depths must be integers ≥ 1 (measurement depths), got {depths!r}") from None


def form_measures(form: str = CASE_FORM.default, *, depths: Sequence[int] = DEPTHS) -> list[str]:
    """The performance measures (columns) of a paper's case-proportion table.

    ``"2007"`` (Baillie et al. 2007, Table 1): P@d for each depth, then AP (MAP over the
    whole ranking). ``"2008"`` (Baillie et al. 2008, Table 3 then Table 4): P@d for each
    depth, then MAP@d = AP@d for each depth.

    >>> form_measures("2007", depths=[10, 100])
    ['P@10', 'P@100', 'AP']
    >>> form_measures("2008", depths=[10, 100])
    ['P@10', 'P@100', 'AP@10', 'AP@100']
    """
    form = _check_form(form)
    depths = _check_depths(depths)
    tail = ["AP"] if form == "2007" else [f"AP@{d}" for d in depths]
    return [f"P@{d}" for d in depths] + tail


def _assessment_family(name: str, owner: str) -> str:
    return ASSESSMENT_FAMILY.among(ASSESSMENT_FAMILIES).validate(name, owner)


def assessment_measure(measure: str | Measure, *, assessment: str | Measure | None = None,
                       form: str = CASE_FORM.default, depth: int | None = None) -> Measure:
    """The assessment measure A paired with a performance measure P (written rule).

    Without ``assessment`` (the papers' pairing):

    * a measure with a depth k (P@k, nDCG@k, RBP@k, …) → A_p@k = ``Judged@k``;
    * AP-like measures (AP, GMAP, AP(j), infAP): ``form="2007"`` → MAA at the same cutoff
      (MAA for MAP, Baillie et al. 2007 Table 1); ``form="2008"`` → A_p@d = ``Judged@d``
      for MAP@d = AP@d (Baillie et al. 2008 Table 4), MAA when AP has no depth;
    * a measure without a depth (nDCG, bpref, RR, R-prec, …) → MAA over the whole ranking.

    ``assessment`` overrides the rule: a family name from :data:`ASSESSMENT_FAMILIES`
    (``"Judged"``, ``"MAA"`` …) is taken at the measure's depth k, or at ``depth`` for a
    measure without one (a family that needs a depth and has none is an error); a full
    name (``"Judged@100"``, ``"Unj@10"``) is used as given.

    >>> [assessment_measure(m).name for m in ["P@10", "AP", "AP@100", "ndcg_cut_20", "bpref"]]
    ['Judged@10', 'MAA', 'MAA@100', 'Judged@20', 'MAA']
    >>> assessment_measure("AP@100", form="2008").name
    'Judged@100'
    >>> [assessment_measure(m, assessment="Judged", depth=1000).name for m in ["P@30", "AP"]]
    ['Judged@30', 'Judged@1000']
    """
    m = parse_measure(measure)
    _check_form(form)
    if m.spec.role == "assessment":
        raise ValueError(f"measure {m.name!r} already measures assessment; pass a performance measure "
                         "such as 'P@10' or 'AP'")
    if assessment is None:
        if m.spec.average_assessment and not (form == "2008" and m.cutoff is not None):
            return Measure("MAA", m.cutoff)
        if m.cutoff is not None:
            return Measure("Judged", m.cutoff)
        return Measure("MAA", None)
    if isinstance(assessment, str) and assessment.strip() in FAMILIES:  # a bare family: at the measure's depth
        family = _assessment_family(assessment.strip(), "assessment_measure")
        k = m.cutoff if m.cutoff is not None else depth
        if k is None and FAMILIES[family].cutoff == "required":
            raise ValueError(f"assessment_measure: {family} needs a depth and {m.name} has none; pass depth= "
                             f"or a full name such as '{family}@1000'")
        return Measure(family, None if k is None else int(k))
    if not isinstance(assessment, (str, Measure)):
        raise TypeError(f"assessment must be a measure family or name (str) or a Measure, "
                        f"got {type(assessment).__name__}")
    a = parse_measure(assessment)
    _assessment_family(a.family, "assessment_measure")
    return a


def _given_assessment(m: Measure, assessment) -> Measure:
    """compare_table's rule: ``assessment`` is a measure name as parsed (``MAA`` is MAA over
    the whole ranking), except that a bare family that needs a depth takes the measure's."""
    if assessment is None:
        return assessment_measure(m)
    if isinstance(assessment, str) and assessment.strip() in FAMILIES \
            and FAMILIES[assessment.strip()].cutoff == "required":
        return assessment_measure(m, assessment=assessment)
    if not isinstance(assessment, (str, Measure)):
        raise TypeError(f"assessment must be a measure name (str) or a Measure, got {type(assessment).__name__}")
    a = parse_measure(assessment)
    _assessment_family(a.family, "assessment")
    return a


def _check_alpha(alpha) -> float:
    return ALPHA.validate(alpha, None, label="alpha (significance level)", wording="satisfy")


# =================================================================== kernel
def classify(p_measure, p_assessment, better, more_assessed, *, alpha: float = ALPHA.default) -> np.ndarray:
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


def decide(measure_tests: PairwiseTests, assessment_tests: PairwiseTests, *, alpha: float = ALPHA.default,
           higher_is_better: bool = True, assessment_higher_is_better: bool = True) -> pd.DataFrame:
    """The decision-matrix table from two :class:`~irnb.stats.PairwiseTests` on the same
    runs (one for the measure, one for its assessment measure).

    One row per pair: ``run_a, run_b, measure, assessment, test, n_topics, mean_a, mean_b,
    mean_diff, p_measure, assessment_a, assessment_b, assessment_diff, p_assessment, case,
    strength, better, more_assessed``; ``better`` / ``more_assessed`` name the run that is
    significantly better / more assessed, or are None when the two are "equal".
    ``higher_is_better`` / ``assessment_higher_is_better`` orient the two measures (an
    assessment measure such as Unj@k, the unjudged share, is lower-is-better). ``.attrs``:
    ``test, correction, alpha, assessment, procedure, measure`` (as :func:`compare_table`).
    """
    alpha = _check_alpha(alpha)
    higher_is_better = HIGHER_IS_BETTER.validate(higher_is_better, None)
    assessment_higher_is_better = ASSESSMENT_HIGHER_IS_BETTER.validate(assessment_higher_is_better, None)
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
    out = pd.DataFrame({
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
    out.attrs = _attrs(SignificanceTest(measure_tests.test), alpha, assessment_tests.measure,
                       measure=measure_tests.measure)
    return out


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


def _table(ev, measure: Measure, assessment: Measure, test: SignificanceTest, alpha: float,
           topics: str) -> pd.DataFrame:
    res_m, res_a = test(ev, measure, topics=topics), test(ev, assessment, topics=topics)
    return decide(res_m, res_a, alpha=alpha, higher_is_better=measure.spec.higher_is_better,
                  assessment_higher_is_better=assessment.spec.higher_is_better)


def _cases(ev, measure: Measure, assessment: Measure, test: SignificanceTest, alpha: float,
           topics: str) -> np.ndarray:
    """The ``case`` column of :func:`_table` alone (what the counts need): the same tests
    and :func:`classify`, without building the per-pair table."""
    res_m, res_a = test(ev, measure, topics=topics), test(ev, assessment, topics=topics)
    better = res_m.direction * (1 if measure.spec.higher_is_better else -1)
    more = res_a.direction * (1 if assessment.spec.higher_is_better else -1)
    return classify(_effective_p(res_m), _effective_p(res_a), better, more, alpha=alpha)


def _check_test(test, topics, options: dict) -> SignificanceTest:
    """The test with its options (validated here, once, for every table below) and the topic rule."""
    checked = significance_test(test, **options)
    TOPIC_RULE.validate(topics, None)
    return checked


def compare_table(experiment, measure: str | Measure, *, test: str = TEST.default, alpha: float = ALPHA.default,
                  judged: np.ndarray | None = None, assessment: str | Measure | None = None,
                  topics: str = TOPIC_RULE.default, **options) -> pd.DataFrame:
    """Every pair of runs of ``experiment`` (an Experiment, or an Evaluation holding both
    measures) classified by the decision matrix: see :func:`decide` for the columns.

    ``measure``'s assessment measure is :func:`assessment_measure`, or ``assessment``: a
    measure name used as given (``"MAA"``, ``"MAAR"``, ``"Judged@100"``), or a family that
    needs a depth (``"Judged"``, ``"JudgedRet"``, ``"NotUnj"``, ``"Unj"``), taken at the
    measure's depth;
    ``judged`` restricts the qrels to a pool (a mask over qrels entries, see
    :mod:`irnb.pooling`); ``test`` is one of ``anova`` (default: the papers' ANOVA then
    Bonferroni comparisons; one-way at α = 0.05 is irnb's reading), ``t, wilcoxon, sign, randomization, tukey`` and
    ``options`` are that test's keywords (e.g. ``seed=``); ``topics`` as in
    :mod:`irnb.stats`. ``.attrs`` holds ``test, correction, alpha, assessment, procedure,
    measure``. This is what ``irnb compare`` prints.
    """
    alpha = _check_alpha(alpha)
    test = _check_test(test, topics, options)
    m = parse_measure(measure)
    a = _given_assessment(m, assessment)
    ev = _evaluation(experiment, [m, a], judged)
    table = _table(ev, m, a, test, alpha, topics)
    table.attrs = _attrs(test, alpha, a.name, measure=m.name)
    return table


def case_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """Run × run grid of cases from a :func:`compare_table`/:func:`decide` table (the
    decision-matrix heatmap); symmetric, diagonal NaN, runs in order of appearance; the
    table's ``.attrs`` are kept."""
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
    grid = pd.DataFrame(out, index=pd.Index(runs, name="run"), columns=pd.Index(runs, name="versus"))
    grid.attrs = dict(table.attrs)  # what produced the cases (test, alpha, …) travels with them
    return grid


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


def _default_pairing(form: str) -> str:
    return "A_p@k = Judged@k; MAA for AP" if form == "2007" else "A_p@d = Judged@d (also for MAP@d = AP@d)"


def case_counts(settings, *, form: str = CASE_FORM.default, measures: Iterable[str | Measure] | None = None,
                assessment: str | Measure | None = None, depths: Sequence[int] = DEPTHS,
                test: str = TEST.default, alpha: float = ALPHA.default, topics: str = TOPIC_RULE.default,
                **options) -> pd.DataFrame:
    """How many pairs fall in each case, per setting and measure (tidy).

    ``settings``: one Experiment (or Evaluation), or a mapping from a row name (a pool
    setting, a collection) to an Experiment, an ``(Experiment, judged)`` pair, or an
    Evaluation. ``form``, ``measures``, ``assessment`` and ``depths`` as in
    :func:`case_proportions`. Rows: ``setting, measure, assessment, case, pairs, count,
    proportion``; every (setting, measure) has the four cases and its proportions sum to 1.
    ``.attrs``: ``test, correction, alpha, assessment, procedure, form``.
    """
    alpha = _check_alpha(alpha)
    test = _check_test(test, topics, options)
    form = _check_form(form)
    depths = _check_depths(depths)
    if measures is None:
        measures = form_measures(form, depths=depths)
    parsed = [parse_measure(m) for m in ([measures] if isinstance(measures, (str, Measure)) else measures)]
    if not parsed:
        raise ValueError("measures: expected at least one measure, got none")
    pairs = [(m, assessment_measure(m, assessment=assessment, form=form, depth=max(depths))) for m in parsed]
    rows = []
    for name, (source, judged) in _settings(settings).items():
        ev = _evaluation(source, [x for pair in pairs for x in pair], judged)
        for m, a in pairs:
            counts = np.bincount(_cases(ev, m, a, test, alpha, topics).astype(np.int64), minlength=5)[1:5]
            total = int(counts.sum())
            for c in range(1, 5):
                rows.append({"setting": name, "measure": m.name, "assessment": a.name, "case": c,
                             "pairs": total, "count": int(counts[c - 1]),
                             "proportion": counts[c - 1] / total if total else np.nan})
    out = pd.DataFrame(rows)
    described = _default_pairing(form) if assessment is None else str(assessment)
    out.attrs = _attrs(test, alpha, described, form=form,
                       pairing={m.name: a.name for m, a in pairs})
    return out


def case_proportions(settings, *, form: str = CASE_FORM.default, measures: Iterable[str | Measure] | None = None,
                     assessment: str | Measure | None = None, depths: Sequence[int] = DEPTHS,
                     test: str = TEST.default, alpha: float = ALPHA.default, topics: str = TOPIC_RULE.default,
                     **options) -> pd.DataFrame:
    """Baillie et al.'s case-proportion tables: rows are settings (pool settings or
    collections), columns are (measure, case 1–4) — four proportions per measure, summing
    to 1.

    ``form="2007"`` (Baillie et al. 2007, Table 1): P@10, P@30, P@100, P@500, P@1000, each
    with A_p at the same depth (``Judged@d``), and AP with MAA. ``form="2008"`` (Baillie
    et al. 2008, Tables 3 and 4 side by side): P@d, then MAP@d = AP@d, every one with
    A_p@d. ``depths`` changes the depths d (default 10, 30, 100, 500, 1000); ``measures``
    replaces the columns (paired by the form's rule, see :func:`assessment_measure`).
    ``assessment`` replaces A for every column: a family of :data:`ASSESSMENT_FAMILIES`
    (e.g. ``"JudgedRet"``, ``"NotUnj"``, ``"MAAR"``) taken at each column's depth — AP
    without a depth takes the deepest of ``depths`` when the family needs one.

    The test follows the papers' procedure by default (an ANOVA over all runs, then
    Bonferroni comparisons; one-way at α = 0.05 is irnb's reading, the papers name
    neither); ``.attrs`` says which (``test, correction, alpha, assessment, procedure,
    form``, and ``pairing``: measure → assessment measure). Pair counts are in
    :func:`case_counts`.
    """
    tidy = case_counts(settings, form=form, measures=measures, assessment=assessment, depths=depths, test=test,
                       alpha=alpha, topics=topics, **options)
    wide = tidy.pivot(index="setting", columns=["measure", "case"], values="proportion")
    order_rows = list(dict.fromkeys(tidy["setting"]))
    order_cols = list(dict.fromkeys(zip(tidy["measure"], tidy["case"], strict=True)))
    wide = wide.loc[order_rows, pd.MultiIndex.from_tuples(order_cols, names=["measure", "case"])]
    wide.attrs = dict(tidy.attrs)
    return wide


# =================================================================== Fig. 2 / Fig. 11
def depth_curves(experiment, run_a: str, run_b: str, *, family: str = "P", depths: Sequence[int] = DEPTHS,
                 judged: np.ndarray | None = None, assessment: str | Measure | None = None,
                 test: str = TEST.default, alpha: float = ALPHA.default,
                 confidence: float = CONFIDENCE.default, intervals: str = INTERVAL_ADJUSTMENT.default,
                 topics: str = TOPIC_RULE.default, **options) -> pd.DataFrame:
    """Two runs' measure and assessment curves across measurement depths (the data behind
    Baillie et al.'s Fig. 2 / Fig. 11), with confidence intervals and the pair's case.

    For each depth d: ``family@d`` (P@d, or MAP@d = AP@d for ``family="AP"``) and A_p@d =
    ``Judged@d`` (the papers' figures: 2007 Fig. 2 pairs P@d with A_p@d, 2008 Fig. 11 MAP@d
    with A_p@d), or ``assessment`` (a family, e.g. ``"MAA"``, at depth d). Rows: ``depth,
    kind ("measure" | "assessment"), measure, run, mean, lower, upper, n_topics, p_value,
    significant, case``. Means and intervals are over the topics the test uses (those the
    pair shares; with ``topics="common"`` those every run shares): mean ± t_{1−(1−confidence)/(2m), n−1}·sd/√n,
    where m is the number of comparisons the intervals are adjusted for (``intervals``, see
    :func:`interval_comparisons`): ``"test"`` (default) adjusts them by Bonferroni over every
    pair of runs, m = S(S−1)/2, when the test corrects for multiplicity (``anova``,
    ``tukey``), as Baillie et al. 2008 draw "standard error … adjusted for multiple
    comparisons" (disjoint bars = a significant difference), so that the bars do not
    contradict the cases they carry; ``"bonferroni"`` always adjusts; ``"none"`` never
    (m = 1). E.g. 40 runs: m = 780, and a 95 % interval is drawn at 1 − 0.05/780. The
    p-value is the pair's, from ``test`` applied to all runs (so ANOVA/Bonferroni and
    Tukey see the whole family, as in the paper; the default is the papers' ANOVA +
    Bonferroni); ``case`` is the pair's decision-matrix case at that depth. ``.attrs``:
    ``test, correction, alpha, assessment, procedure, confidence``, and ``intervals`` (what
    the bars are, in words), ``comparisons`` (m) and ``interval_confidence`` (each bar's).
    """
    alpha = _check_alpha(alpha)
    test = _check_test(test, topics, options)
    CONFIDENCE.validate(confidence, None, wording="satisfy")
    intervals = INTERVAL_ADJUSTMENT.validate(intervals, "depth_curves")
    depths = _check_depths(depths)
    pairs = []
    for d in depths:
        m = parse_measure(f"{family}@{d}")
        pairs.append((d, m, assessment_measure(m, assessment=assessment, form="2008")))
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
    comparisons = _comparisons(len(names), test, intervals)
    level = 1 - (1 - confidence) / comparisons
    crit = special.stdtrit(n - 1, 0.5 + level / 2) if n >= 2 else np.nan
    rows = []
    for d, m, a in pairs:
        table = _table(ev, m, a, test, alpha, topics)
        row = table[(table["run_a"] == first) & (table["run_b"] == second)].iloc[0]
        for kind, meas, p in (("measure", m, row["p_measure"]), ("assessment", a, row["p_assessment"])):
            for r, i in ((run_a, ia), (run_b, ib)):
                x = ev.values[meas][i][shared]
                mean = float(x.mean()) if n else np.nan
                half = crit * float(x.std(ddof=1)) / np.sqrt(n) if n >= 2 else np.nan
                rows.append({"depth": d, "kind": kind, "measure": meas.name, "run": r, "mean": mean,
                             "lower": mean - half, "upper": mean + half, "n_topics": n, "p_value": float(p),
                             "significant": bool(p < alpha), "case": int(row["case"])})
    out = pd.DataFrame(rows)
    words = (f"{confidence:.0%} t intervals, Bonferroni-adjusted over the {comparisons} pairs of runs compared"
             if comparisons > 1 else f"{confidence:.0%} t intervals, not adjusted for multiple comparisons")
    out.attrs = _attrs(test, alpha, "A_p@d = Judged@d" if assessment is None else str(assessment),
                       confidence=float(confidence), intervals=words, comparisons=comparisons,
                       interval_confidence=float(level))
    return out


def interval_comparisons(runs: int, *, test: str = TEST.default, intervals: str = INTERVAL_ADJUSTMENT.default) -> int:
    """m, the number of comparisons a pair figure's intervals are adjusted for (Bonferroni:
    each interval at confidence 1 − (1 − confidence)/m): every pair of ``runs`` runs when
    ``intervals`` is ``"bonferroni"``, or ``"test"`` and the test corrects for multiplicity
    (``anova``, ``tukey``); otherwise 1 (unadjusted).

    >>> interval_comparisons(40), interval_comparisons(40, test="t"), interval_comparisons(40, intervals="none")
    (780, 1, 1)
    """
    return _comparisons(runs, significance_test(test), INTERVAL_ADJUSTMENT.validate(intervals, "interval_comparisons"))


def _comparisons(runs: int, test: SignificanceTest, intervals: str) -> int:
    adjusted = intervals == "bonferroni" or (intervals == "test" and test.correction != "none")
    return max(1, runs * (runs - 1) // 2) if adjusted else 1
