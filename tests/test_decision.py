"""irnb.decision: decision-matrix cases on experiments whose case is known by construction,
the classification rule, Table 1 (case proportions) and the per-pair depth curves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import irnb
from irnb import stats
from irnb.decision import (CASES, STRENGTH, TABLE1_MEASURES, assessment_measure, case_counts, case_matrix,
                           case_proportions, classify, compare_table, decide, depth_curves)

DECISION_TESTS = ("t", "wilcoxon", "sign", "randomization", "anova")


# ------------------------------------------------------------------ building experiments by hand
def experiment(rankings: dict, qrels: dict) -> irnb.Experiment:
    """``rankings[run][topic]`` = docnos in rank order; ``qrels[topic][docno]`` = grade."""
    rows = [(run, topic, doc, float(1000 - r))
            for run, per_topic in rankings.items() for topic, docs in per_topic.items() for r, doc in enumerate(docs)]
    q = [(topic, doc, grade) for topic, docs in qrels.items() for doc, grade in docs.items()]
    return irnb.Experiment(pd.DataFrame(rows, columns=["run", "qid", "docno", "score"]),
                           pd.DataFrame(q, columns=["qid", "docno", "grade"]))


TOPICS = [f"t{i:02d}" for i in range(12)]


def _qrels(n_rel=10, n_nonrel=10):
    """Per topic: relevant documents R0…, judged non-relevant N0…; U… are never judged."""
    return {t: {**{f"{t}R{i}": 1 for i in range(n_rel)}, **{f"{t}N{i}": 0 for i in range(n_nonrel)}} for t in TOPICS}


def _ranking(t, relevant, nonrel, unjudged, order=("R", "N", "U")):
    parts = {"R": [f"{t}R{i}" for i in range(relevant)], "N": [f"{t}N{i}" for i in range(nonrel)],
             "U": [f"{t}U{i}" for i in range(unjudged)]}
    return [d for key in order for d in parts[key]]


def _scenario(name):
    """Two runs, 12 topics, top 10 only; the case of (a, b) for P@10 vs Judged@10 is known."""
    a, b = {}, {}
    for i, t in enumerate(TOPICS):
        v = i % 3  # vary the counts over topics so that no difference is constant
        if name == "identical":
            a[t] = b[t] = _ranking(t, 2 + v, 5, 3 - v)
        elif name == "same P, b mostly unjudged":  # P@10 = 0.2 for both; Judged@10 1.0 vs 0.2–0.4
            a[t] = _ranking(t, 2, 8, 0)
            b[t] = _ranking(t, 2, 2 - v, 6 + v)
        elif name == "a better, all judged":  # P@10 0.6–0.8 vs 0.1–0.2; Judged@10 = 1 for both
            a[t] = _ranking(t, 6 + v, 4 - v, 0)
            b[t] = _ranking(t, 1 + v % 2, 9 - v % 2, 0)
        elif name == "a better but less judged":  # a: relevant then unjudged; b: judged non-relevant
            a[t] = _ranking(t, 4 + v, 0, 6 - v)
            b[t] = _ranking(t, v % 2, 10 - v % 2, 0)
        elif name == "a better and more judged":  # a all judged; b one or two relevant then unjudged
            a[t] = _ranking(t, 5 + v, 5 - v, 0)
            b[t] = _ranking(t, 1, v, 9 - v)
    return experiment({"a": a, "b": b}, _qrels())


EXPECTED = {  # scenario → (case, better, more_assessed)
    "identical": (1, None, None),
    "same P, b mostly unjudged": (2, None, "a"),
    "a better, all judged": (3, "a", None),
    "a better but less judged": (3, "a", "b"),
    "a better and more judged": (4, "a", "a"),
}


@pytest.mark.parametrize("scenario", list(EXPECTED))
@pytest.mark.parametrize("test", DECISION_TESTS)
def test_cases_known_by_construction(scenario, test):
    exp = _scenario(scenario)
    table = compare_table(exp, "P@10", test=test)
    assert len(table) == 1
    row = table.iloc[0]
    case, better, more = EXPECTED[scenario]
    assert (row["run_a"], row["run_b"], row["measure"], row["assessment"]) == ("a", "b", "P@10", "Judged@10")
    assert row["case"] == case and row["strength"] == STRENGTH[case]
    assert (None if pd.isna(row["better"]) else row["better"]) == better
    assert (None if pd.isna(row["more_assessed"]) else row["more_assessed"]) == more


def test_scenarios_have_the_intended_scores():
    """Guard the construction itself: P@10 and Judged@10 means computed by hand."""
    ev = irnb.evaluate(_scenario("same P, b mostly unjudged"), ["P@10", "Judged@10"])
    assert ev.means().loc["a"].tolist() == pytest.approx([0.2, 1.0])
    # b judges 2 + (2, 1, 0) documents of 10 on topics with v = 0, 1, 2: mean (0.4 + 0.3 + 0.2)/3
    assert ev.means().loc["b"].tolist() == pytest.approx([0.2, 0.3])
    ev = irnb.evaluate(_scenario("a better and more judged"), ["P@10", "Judged@10"])
    assert ev.means().loc["a"].tolist() == pytest.approx([0.6, 1.0])
    assert ev.means().loc["b"].tolist() == pytest.approx([0.1, 0.2])  # 1 relevant + v judged of 10


def test_identical_runs_case_one_among_others():
    rankings = {}
    for i, t in enumerate(TOPICS):
        v = i % 3
        rankings.setdefault("a", {})[t] = _ranking(t, 5 + v, 5 - v, 0)
        rankings.setdefault("a_copy", {})[t] = _ranking(t, 5 + v, 5 - v, 0)
        rankings.setdefault("b", {})[t] = _ranking(t, 1, v, 9 - v)
    table = compare_table(experiment(rankings, _qrels()), "P@10")
    cases = dict(zip(zip(table["run_a"], table["run_b"], strict=True), table["case"], strict=True))
    assert cases == {("a", "a_copy"): 1, ("a", "b"): 4, ("a_copy", "b"): 4}
    grid = case_matrix(table)
    assert grid.loc["b", "a_copy"] == 4 and grid.loc["a_copy", "a"] == 1 and np.isnan(grid.loc["b", "b"])


# ------------------------------------------------------------------ the rule itself
def test_classify_hand_examples():
    # columns: P p, A p, better (+1: first run), more assessed (+1: first run)
    p_m = [0.01, 0.01, 0.01, 0.30, 0.30, 0.04, np.nan, 0.01]
    p_a = [0.20, 0.001, 0.001, 0.01, 0.50, 0.04, 0.01, np.nan]
    better = [1, 1, 1, 0, 0, -1, 0, -1]
    more = [1, 1, -1, 1, 1, -1, -1, 1]
    assert classify(p_m, p_a, better, more, alpha=0.05).tolist() == [3, 4, 3, 2, 1, 4, 2, 3]
    # alpha is applied here: at 0.01 nothing above is "different" except strict p < 0.01
    assert classify(p_m, p_a, better, more, alpha=0.01).tolist() == [1, 2, 2, 1, 1, 1, 1, 1]
    assert set(CASES) == {1, 2, 3, 4}


def test_lower_is_better_measure_flips_better():
    low = [[0.1, 0.2, 0.1, 0.15, 0.1, 0.2], [0.6, 0.7, 0.8, 0.6, 0.7, 0.75]]
    assess = [[0.9, 0.8, 0.9, 0.85, 0.9, 0.8], [0.3, 0.2, 0.3, 0.25, 0.2, 0.3]]
    m = stats.t_test(low, "residual", run_names=["a", "b"])
    a = stats.t_test(assess, "Judged@10", run_names=["a", "b"])
    table = decide(m, a, higher_is_better=False)
    assert table.loc[0, "better"] == "a" and table.loc[0, "more_assessed"] == "a" and table.loc[0, "case"] == 4
    table = decide(m, a, higher_is_better=True)
    assert table.loc[0, "better"] == "b" and table.loc[0, "case"] == 3


def test_anova_gates_pairs_by_the_omnibus_test(rng):
    X = rng.random((6, 15))
    X[0] += 0.25  # one run a little higher
    m = stats.anova_bonferroni(X, "P@10")
    a = stats.anova_bonferroni(rng.random((6, 15)), "Judged@10")
    table = decide(m, a)
    assert np.allclose(table["p_measure"], np.maximum(m.p_value, m.omnibus.p_value))
    assert np.allclose(table["p_assessment"], np.maximum(a.p_value, a.omnibus.p_value))
    expected = classify(np.maximum(m.p_value, m.omnibus.p_value), np.maximum(a.p_value, a.omnibus.p_value),
                        m.direction, a.direction)
    assert table["case"].tolist() == expected.tolist()


def test_assessment_measures():
    assert [assessment_measure(m).name for m in ["P@10", "AP", "AP@100", "nDCG@20", "RBP(p=0.8)", "Bpref", "map"]] == \
        ["Judged@10", "MAA", "MAA@100", "Judged@20", "MAA", "MAA", "MAA"]
    with pytest.raises(ValueError, match="'Judged@10' already measures assessment"):
        assessment_measure("Judged@10")


# ------------------------------------------------------------------ Table 1
def _random_experiment(rng, runs=5, topics=8, depth=40, pool=60):
    rankings, qrels = {}, {}
    for t in range(topics):
        qrels[f"q{t}"] = {f"d{t}_{i}": int(rng.random() < 0.3) for i in range(pool) if rng.random() < 0.6}
    for r in range(runs):
        rankings[f"run{r}"] = {f"q{t}": [f"d{t}_{i}" for i in rng.permutation(pool + 20)[:depth]]
                               for t in range(topics)}
    return experiment(rankings, qrels)


@pytest.mark.parametrize("test", ["t", "wilcoxon", "anova"])
def test_case_proportions_table_layout_and_sums(rng, test):
    exp = _random_experiment(rng)
    half = rng.random(exp.judgments.num_judgments) < 0.5
    table = case_proportions({"full qrels": exp, "half the qrels": (exp, half)}, test=test)
    assert table.index.tolist() == ["full qrels", "half the qrels"]
    assert table.columns.names == ["measure", "case"]
    assert list(dict.fromkeys(table.columns.get_level_values(0))) == list(TABLE1_MEASURES)
    assert table.columns.get_level_values(1).tolist() == [1, 2, 3, 4] * len(TABLE1_MEASURES)
    sums = table.T.groupby(level="measure").sum().T
    assert np.allclose(sums.values, 1.0)  # four proportions per cell sum to 1
    counts = case_counts({"full qrels": exp}, test=test, measures=["P@10"])
    assert counts["pairs"].tolist() == [10] * 4  # 5 runs → 10 pairs
    direct = compare_table(exp, "P@10", test=test)["case"].value_counts()
    assert counts.set_index("case")["count"].to_dict() == {c: int(direct.get(c, 0)) for c in range(1, 5)}


def test_case_proportions_accepts_an_evaluation(rng):
    exp = _random_experiment(rng)
    ev = irnb.evaluate(exp, ["P@10", "Judged@10"])
    from_ev = case_proportions(ev, measures=["P@10"])
    from_exp = case_proportions(exp, measures=["P@10"])
    assert from_ev.equals(from_exp) and from_ev.index.tolist() == ["all runs"]
    with pytest.raises(ValueError, match="the Evaluation lacks \\['P@30', 'Judged@30'\\]"):
        case_proportions(ev, measures=["P@30"])



@pytest.mark.parametrize("test", DECISION_TESTS)
def test_case_counts_are_the_case_columns_of_the_per_pair_tables(rng, test):
    """case_counts classifies without building the per-pair tables; its counts must be
    those of compare_table's ``case`` column for every measure — Table 1's, one without a
    depth, and a lower-is-better one (RBP residual: the lower run is the better) — on a
    partial pool of the qrels, and the pairs 7 runs make, 7·6/2 = 21."""
    rankings, qrels = {}, {}
    for t in range(8):  # run r puts a relevant document ahead with a strength growing with r
        qrels[f"q{t}"] = {f"d{t}_{i}": int(rng.random() < 0.3) for i in range(60) if rng.random() < 0.7}
        for r in range(7):
            score = {f"d{t}_{i}": rng.random() + 0.4 * r * qrels[f"q{t}"].get(f"d{t}_{i}", 0) for i in range(80)}
            rankings.setdefault(f"run{r}", {})[f"q{t}"] = sorted(score, key=score.get, reverse=True)[:40]
    exp = experiment(rankings, qrels)
    half = rng.random(exp.judgments.num_judgments) < 0.5
    measures = list(TABLE1_MEASURES) + ["nDCG", "RBPResidual(p=0.8)@10"]
    counts = case_counts({"half": (exp, half)}, measures=measures, test=test)
    assert set(counts["pairs"]) == {21}
    seen = set()
    for m in measures:
        cases = compare_table(exp, m, test=test, judged=half)["case"].to_numpy()
        name = irnb.parse_measure(m).name
        got = counts[counts["measure"] == name].set_index("case")["count"]
        assert got.to_dict() == {c: int((cases == c).sum()) for c in range(1, 5)}
        seen |= set(cases.tolist())
    assert len(seen) >= 2  # the experiment is not one case everywhere


def test_case_matrix_places_every_pair_whatever_the_row_order(rng):
    exp = _random_experiment(rng, runs=6)
    table = compare_table(exp, "P@10")
    grid = case_matrix(table)
    assert grid.index.tolist() == list(exp.run_names) == grid.columns.tolist()  # order of appearance
    assert grid.index.name == "run" and grid.columns.name == "versus"
    for row in table.itertuples():
        assert grid.loc[row.run_a, row.run_b] == row.case == grid.loc[row.run_b, row.run_a]
    assert np.isnan(np.diag(grid.to_numpy())).all()
    shuffled = table.iloc[rng.permutation(len(table))]
    again = case_matrix(shuffled)
    assert again.index.tolist() == list(dict.fromkeys(list(shuffled["run_a"]) + list(shuffled["run_b"])))
    pd.testing.assert_frame_equal(again.loc[grid.index, grid.columns], grid)


# ------------------------------------------------------------------ Fig. 2 / Fig. 11 data
def test_depth_curves(rng):
    exp = _random_experiment(rng, depth=40)
    depths = [5, 10, 20]
    curves = depth_curves(exp, "run3", "run1", depths=depths)
    assert len(curves) == len(depths) * 2 * 2
    assert curves["measure"].unique().tolist() == ["P@5", "Judged@5", "P@10", "Judged@10", "P@20", "Judged@20"]
    assert (curves["lower"] <= curves["mean"]).all() and (curves["mean"] <= curves["upper"]).all()
    ev = irnb.evaluate(exp, ["P@10"])
    x = ev["P@10"][exp.run_index("run3")[0]]
    # ANOVA + Bonferroni: each bar is Bonferroni-adjusted over every pair of runs (Baillie et al. 2008)
    m = len(exp.run_names) * (len(exp.run_names) - 1) // 2
    lo, hi = sps.t.interval(1 - 0.05 / m, x.size - 1, loc=x.mean(), scale=sps.sem(x))
    row = curves[(curves["measure"] == "P@10") & (curves["run"] == "run3")].iloc[0]
    assert (row["lower"], row["mean"], row["upper"]) == pytest.approx((lo, x.mean(), hi), abs=1e-12)
    assert curves.attrs["comparisons"] == m and curves.attrs["interval_confidence"] == pytest.approx(1 - 0.05 / m)
    assert curves.attrs["intervals"] == f"95% t intervals, Bonferroni-adjusted over the {m} pairs of runs compared"
    # unadjusted (intervals="none", or a paired test that does not correct): the plain 95 % t interval
    lo, hi = sps.t.interval(0.95, x.size - 1, loc=x.mean(), scale=sps.sem(x))
    for plain in (depth_curves(exp, "run3", "run1", depths=[10], intervals="none"),
                  depth_curves(exp, "run3", "run1", depths=[10], test="t")):
        row = plain[(plain["measure"] == "P@10") & (plain["run"] == "run3")].iloc[0]
        assert (row["lower"], row["upper"]) == pytest.approx((lo, hi), abs=1e-12)
        assert plain.attrs["comparisons"] == 1
    forced = depth_curves(exp, "run3", "run1", depths=[10], test="t", intervals="bonferroni")
    assert forced.attrs["comparisons"] == m
    for d in depths:  # the pair's case at each depth is compare_table's
        table = compare_table(exp, f"P@{d}")
        pair = table[(table["run_a"] == "run1") & (table["run_b"] == "run3")].iloc[0]
        got = curves[curves["depth"] == d]
        assert (got["case"] == pair["case"]).all()
        assert got[got["kind"] == "measure"]["p_value"].iloc[0] == pytest.approx(pair["p_measure"])
    # MAP@d goes with A_p@d (Baillie et al. 2008 Fig. 11); assessment= picks another family at each depth
    ap = depth_curves(exp, "run0", "run1", family="AP", depths=[10])
    assert ap["measure"].tolist() == ["AP@10", "AP@10", "Judged@10", "Judged@10"]
    maa = depth_curves(exp, "run0", "run1", family="AP", depths=[10, 20], assessment="MAA")
    assert maa["measure"].unique().tolist() == ["AP@10", "MAA@10", "AP@20", "MAA@20"]
    assert curves.attrs["test"] == "anova" and curves.attrs["alpha"] == 0.05
    assert curves.attrs["correction"] == "bonferroni" and curves.attrs["confidence"] == 0.95


def test_docstring_examples_hold():
    import doctest

    from irnb import decision

    result = doctest.testmod(decision)
    assert result.attempted >= 2 and result.failed == 0


def test_missing_names_are_none_for_json():
    table = compare_table(_scenario("identical"), "P@10")
    assert table["better"].tolist() == [None] and table["more_assessed"].tolist() == [None]
    assert '"better":null' in table.to_json(orient="records")


# ------------------------------------------------------------------ errors that teach
def test_errors(rng):
    exp = _random_experiment(rng, runs=3)
    with pytest.raises(ValueError, match="alpha \\(significance level\\) must satisfy 0 < alpha < 1, got 0"):
        compare_table(exp, "P@10", alpha=0)
    with pytest.raises(ValueError, match="test must be one of .* got 'anvoa'; did you mean 'anova'"):
        compare_table(exp, "P@10", test="anvoa")
    with pytest.raises(TypeError, match="expected an Experiment or an Evaluation, got DataFrame"):
        compare_table(pd.DataFrame(), "P@10")
    with pytest.raises(ValueError, match="unknown run 'run9'; did you mean"):
        depth_curves(exp, "run9", "run1")
    with pytest.raises(ValueError, match="depths must be integers ≥ 1"):
        depth_curves(exp, "run0", "run1", depths=[0, 10])
    with pytest.raises(ValueError, match="depth_curves: intervals .*must be one of 'test', 'bonferroni' or 'none', "
                                         "got 'holm'"):
        depth_curves(exp, "run0", "run1", intervals="holm")
    with pytest.raises(TypeError, match="settings\\['x'\\]: expected an Experiment"):
        case_proportions({"x": 3})
    m = stats.t_test([[0.1, 0.2], [0.3, 0.5]], run_names=["a", "b"])
    a = stats.t_test([[0.1, 0.2], [0.3, 0.5]], run_names=["a", "c"])
    with pytest.raises(ValueError, match="must cover the same runs"):
        decide(m, a)


@pytest.mark.shared
def test_real_clef2016_pairs_match_scipy(shared_dir):
    """CLEF eHealth 2016 (16 runs × 50 topics): P@10 is coarse (many ties and zero
    differences); the table's p-values equal scipy's per pair and every cell sums to 1."""
    from conftest import shared_path

    base = shared_path("data", "clef-ehealth-2016-irtask2")
    exp = irnb.Experiment(str(base / "runs-irtask2.tar.xz"), str(base / "task2.qrels"))
    ev = irnb.evaluate(exp, ["P@10", "Judged@10"])
    table = compare_table(ev, "P@10", test="wilcoxon")
    assert len(table) == 120
    names = list(ev.run_names)
    for _, row in table.iloc[::17].iterrows():
        a, b = names.index(row["run_a"]), names.index(row["run_b"])
        x, y = ev["P@10"][a], ev["P@10"][b]
        ref = 1.0 if np.all(x == y) else sps.wilcoxon(x, y).pvalue
        assert row["p_measure"] == pytest.approx(ref, abs=1e-12)
    props = case_proportions(ev, measures=["P@10"], test="t")
    assert props.sum(axis=1).tolist() == pytest.approx([1.0])


def test_lower_is_better_assessment_measure_flips_more_assessed():
    # run a: P@1 = 1 everywhere and a fully judged top 10; run b: P@1 = 0, top 10 mostly unjudged.
    # With Judged@10 (higher is better) a is "more assessed"; with Unj@10 (the unjudged share,
    # lower is better) a must still be the more assessed run, so the case is 4 either way.
    rankings = {"a": {t: _ranking(t, 1, 9, 0) for t in TOPICS},
                "b": {t: _ranking(t, 0, 1, 9, order=("N", "U", "R")) + [f"{t}R0"] for t in TOPICS}}
    exp = experiment(rankings, _qrels())
    judged = compare_table(exp, "P@1", assessment="Judged@10")
    unjudged = compare_table(exp, "P@1", assessment="Unj@10")
    for table in (judged, unjudged):
        assert table.loc[0, "better"] == "a"
        assert table.loc[0, "more_assessed"] == "a"
        assert table.loc[0, "case"] == 4


# ------------------------------------------------------------------ the papers' procedure, forms, attrs
def test_default_is_the_papers_anova_then_bonferroni():
    """Three runs of three topics: a = (0.1, 0.2, 0.3), b = a + 0.3, c = a + 0.6 at P@10
    (1, 2, 3 relevant of 10 in a's top 10, all judged). By hand: group means 0.2, 0.5, 0.8,
    MSE = Σ(x − ȳ)²/(N − S) = 3·0.02/6 = 0.01; omnibus F = (SSB/2)/MSE = (0.54/2)/0.01 = 27
    on (2, 6) df, p = (1 + 2F/6)^(−3) = 10⁻³ exactly. a vs c: t = 0.6/√(0.01·2/3) = 7.348 on
    6 df, p = 3.25e-4, ×3 pairs = 9.75e-4, below the omnibus p, so the pair's p is 0.001;
    a vs b: t = 3.674, p = 0.0104, ×3 = 0.0312."""
    rankings = {}
    for name, shift in (("a", 0), ("b", 3), ("c", 6)):
        rankings[name] = {t: _ranking(t, 1 + i + shift, 9 - i - shift, 0) for i, t in enumerate(TOPICS[:3])}
    exp = experiment(rankings, {t: _qrels()[t] for t in TOPICS[:3]})
    table = compare_table(exp, "P@10")
    p = dict(zip(zip(table["run_a"], table["run_b"], strict=True), table["p_measure"], strict=True))
    t_ac = 0.6 / np.sqrt(0.01 * 2 / 3)
    t_ab = 0.3 / np.sqrt(0.01 * 2 / 3)
    assert 3 * 2 * sps.t.sf(t_ac, 6) == pytest.approx(9.75e-4, abs=1e-6)
    assert p[("a", "c")] == pytest.approx(1e-3, rel=1e-9)  # max(omnibus p, Bonferroni p)
    assert p[("a", "b")] == pytest.approx(3 * 2 * sps.t.sf(t_ab, 6), rel=1e-9)
    assert p[("a", "b")] == pytest.approx(0.0312, abs=1e-4)
    assert table.attrs == {"test": "anova", "correction": "bonferroni", "alpha": 0.05, "assessment": "Judged@10",
                           "procedure": "one-way ANOVA + Bonferroni multiple comparisons, α = 0.05",
                           "measure": "P@10"}
    # the omnibus gate: p = max(ANOVA p, Bonferroni p); a pair is different only when both reject
    res = stats.anova_bonferroni(irnb.evaluate(exp, ["P@10"]), "P@10")
    assert res.omnibus.statistic == pytest.approx(27.0) and res.omnibus.p_value == pytest.approx(1e-3)
    strict = compare_table(exp, "P@10", alpha=0.03)  # a vs b (0.0312) no longer different
    assert dict(zip(zip(strict["run_a"], strict["run_b"], strict=True), strict["case"], strict=True))[("a", "b")] == 1
    assert case_matrix(strict).attrs["alpha"] == 0.03


def test_every_test_is_an_option_and_says_so(rng):
    exp = _random_experiment(rng, runs=4)
    for test in stats.TESTS:
        table = compare_table(exp, "P@10", test=test, alpha=0.01)
        assert table.attrs["test"] == test and table.attrs["alpha"] == 0.01
        assert table.attrs["correction"] == {"anova": "bonferroni", "tukey": "tukey-hsd"}.get(test, "none")
        assert table.attrs["procedure"].endswith("α = 0.01")
    assert irnb.decision.procedure_label("t", alpha=0.05) == "paired t-test (no correction), α = 0.05"


def test_2007_form_pairs_each_depth_with_its_own_assessment(rng):
    exp = _random_experiment(rng)
    table = case_proportions(exp, test="t")
    assert list(dict.fromkeys(table.columns.get_level_values(0))) == list(TABLE1_MEASURES)
    assert table.attrs["pairing"] == {"P@10": "Judged@10", "P@30": "Judged@30", "P@100": "Judged@100",
                                      "P@500": "Judged@500", "P@1000": "Judged@1000", "AP": "MAA"}
    assert table.attrs["form"] == "2007" and table.attrs["test"] == "t" and table.attrs["correction"] == "none"
    assert table.attrs["assessment"] == "A_p@k = Judged@k; MAA for AP"


def test_2008_form_is_tables_3_and_4_with_ap_at_each_depth(rng):
    """Baillie et al. 2008 §4.2: P@d and MAP@d (= AP@d) for d = 10, 30, 100, 500, 1000,
    each with the Assessment Precision at the same depth, A_p@d."""
    exp = _random_experiment(rng)
    table = case_proportions(exp, form="2008")
    measures = list(dict.fromkeys(table.columns.get_level_values(0)))
    assert measures == ["P@10", "P@30", "P@100", "P@500", "P@1000", "AP@10", "AP@30", "AP@100", "AP@500", "AP@1000"]
    assert table.attrs["pairing"] == {m: f"Judged@{m.split('@')[1]}" for m in measures}
    assert table.attrs["form"] == "2008" and table.attrs["test"] == "anova"
    # each AP@d column is the per-pair tables' cases for AP@d against Judged@d
    for m in ("AP@10", "AP@30"):
        cases = compare_table(exp, m, assessment=f"Judged@{m.split('@')[1]}")["case"]
        expected = [float((cases == c).mean()) for c in range(1, 5)]
        assert table.loc["all runs", m].tolist() == pytest.approx(expected)
    small = case_proportions(exp, form="2008", depths=[5, 20])
    assert list(dict.fromkeys(small.columns.get_level_values(0))) == ["P@5", "P@20", "AP@5", "AP@20"]
    with pytest.raises(ValueError, match="form must be one of '2007' or '2008'.*got '2009'"):
        case_proportions(exp, form="2009")


def test_assessment_override_moves_the_case_as_constructed():
    """"same P, b mostly unjudged": P@10 = 0.2 for both; a judges its whole top 10, b
    only its first 2–4 documents (judged first, unjudged after). A_p@10 (Judged@10) and
    the unjudged share (Unj@10) see a difference: case 2, a more assessed. MAA@10
    averages A_p at the ranks of judged documents, all before b's first unjudged one, so
    it is 1.0 for both runs: case 1."""
    exp = _scenario("same P, b mostly unjudged")
    # compare_table: a family that needs a depth takes the measure's; any other name is used as given
    expected = {"Judged": ("Judged@10", 2, "a"), "Unj": ("Unj@10", 2, "a"), "MAA": ("MAA", 1, None),
                "MAA@10": ("MAA@10", 1, None)}
    for given, (name, case, more) in expected.items():
        table = compare_table(exp, "P@10", assessment=given)
        assert table.attrs["assessment"] == name == table.loc[0, "assessment"]
        assert table.loc[0, "case"] == case and table.loc[0, "more_assessed"] == more
    # the case tables: every family is taken at each column's depth
    for family in irnb.decision.ASSESSMENT_FAMILIES:
        counts = case_counts(exp, measures=["P@10", "P@5"], assessment=family)
        assert counts["assessment"].unique().tolist() == [f"{family}@10", f"{family}@5"]
    props = case_proportions(exp, measures=["P@10", "AP"], assessment="Judged", depths=[10, 1000])
    assert props.attrs["pairing"] == {"P@10": "Judged@10", "AP": "Judged@1000"}
    assert props.attrs["assessment"] == "Judged"
    assert case_proportions(exp, measures=["P@10"], assessment="MAA").loc["all runs", "P@10"].tolist() == [1, 0, 0, 0]
    with pytest.raises(ValueError, match="unknown measure 'Judge'; did you mean 'Judged'"):
        compare_table(exp, "P@10", assessment="Judge")
    with pytest.raises(ValueError, match=r"assessment \(an assessment measure family\) must be one of 'Judged', "
                                         r".*'MAA'.*got 'P'"):
        case_proportions(exp, assessment="P")
    with pytest.raises(ValueError, match="Judged needs a depth and AP has none"):
        compare_table(exp, "AP", assessment="Judged")


def test_case_counts_attrs_and_tidy_layout(rng):
    exp = _random_experiment(rng)
    counts = case_counts({"x": exp}, measures=["P@10"], test="wilcoxon", alpha=0.1)
    assert counts.attrs["procedure"] == "Wilcoxon signed-rank test (no correction), α = 0.1"
    assert counts["assessment"].tolist() == ["Judged@10"] * 4


@pytest.mark.shared
def test_real_trec_covid_papers_procedure_against_scipy(covid_dir):
    """TREC-COVID round 1, P@10 on the official qrels (143 runs, 10,153 pairs): the default's
    p-value of a pair is max(one-way ANOVA p, Bonferroni p) with the ANOVA from
    ``scipy.stats.f_oneway`` and the pair's t on the pooled error written out here; the
    papers' procedure finds far fewer different pairs than the uncorrected paired t-test
    (31 % against 70 %)."""
    from irnb.datasets.real import trec_covid_round1

    ev = irnb.evaluate(trec_covid_round1(covid_dir), ["P@10", "Judged@10"])
    table = compare_table(ev, "P@10")
    assert len(table) == 143 * 142 // 2 == 10_153
    x = np.where(ev.evaluated, ev["P@10"], np.nan)
    groups = [row[~np.isnan(row)] for row in x]
    omnibus = sps.f_oneway(*groups).pvalue
    n = np.array([g.size for g in groups], dtype=float)
    mse = sum(((g - g.mean()) ** 2).sum() for g in groups) / (n.sum() - len(groups))
    names = list(ev.run_names)
    for _, row in table.iloc[::997].iterrows():
        a, b = names.index(row["run_a"]), names.index(row["run_b"])
        t = (groups[a].mean() - groups[b].mean()) / np.sqrt(mse * (1 / n[a] + 1 / n[b]))
        bonferroni = min(1.0, len(table) * 2 * sps.t.sf(abs(t), n.sum() - len(groups)))
        assert row["p_measure"] == pytest.approx(max(omnibus, bonferroni), rel=1e-9, abs=1e-300)
    papers = (table["p_measure"] < 0.05).mean()
    paired = (compare_table(ev, "P@10", test="t")["p_measure"] < 0.05).mean()
    assert 0.25 < papers < 0.40 < 0.60 < paired
