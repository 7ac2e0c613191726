"""Reproductions of Ravana & Moffat (AIRS 2010): ravana2010-fig1, table1, fig2, table2,
table3, and the pessimistic interval test they use (irnb.intervals.pessimistic_t_test,
estimator "P" of irnb.budgets.budget_tests).

Checks: hand-computed values on tiny inputs; on the embedded default, values recomputed
through other paths (pandas over the runs, plain evaluate, scipy's ttest_rel); real data
where ../shared exists.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irnb
from irnb import Experiment
from irnb.budgets import budget_tests
from irnb.intervals import ScoreIntervals, pessimistic_t_test
from irnb.measures import parse_measure
from irnb.pooling import budget_pool

IDS = ["ravana2010-fig1", "ravana2010-table1", "ravana2010-fig2", "ravana2010-table2", "ravana2010-table3"]


@pytest.fixture(scope="session")
def collection():
    from irnb.datasets import default

    return default()


@pytest.fixture(scope="session")
def reps(collection):
    return {i: irnb.reproduce(i, collection) for i in IDS}


def _intervals(lower, upper):
    lower, upper = np.asarray(lower, float), np.asarray(upper, float)
    return ScoreIntervals(parse_measure("P@10"), tuple("abc"[: lower.shape[0]]),
                          tuple(str(t) for t in range(lower.shape[1])), lower, upper, upper - lower,
                          np.ones(lower.shape, bool))


# ---------------------------------------------------------------------------- the pessimistic test
def test_pessimistic_by_hand():
    # a: [0.6, 0.7], [0.5, 0.6], [0.7, 0.7]; b: [0.1, 0.3], [0.2, 0.4], [0.3, 0.5]
    # B_a − T_b = 0.3, 0.1, 0.2 → scipy's ttest_rel(B_a, T_b); direction +1
    iv = _intervals([[0.6, 0.5, 0.7], [0.1, 0.2, 0.3]], [[0.7, 0.6, 0.7], [0.3, 0.4, 0.5]])
    row = pessimistic_t_test(iv).iloc[0]
    expected = stats.ttest_rel([0.6, 0.5, 0.7], [0.3, 0.4, 0.5]).pvalue
    assert (row["run_a"], row["run_b"], int(row["direction"])) == ("a", "b", 1)
    assert row["p_value"] == pytest.approx(expected) and row["margin"] == pytest.approx(0.2)
    # swapped runs: the test goes the other way
    row = pessimistic_t_test(_intervals([[0.1, 0.2, 0.3], [0.6, 0.5, 0.7]],
                                        [[0.3, 0.4, 0.5], [0.7, 0.6, 0.7]])).iloc[0]
    assert int(row["direction"]) == -1 and row["p_value"] == pytest.approx(expected)


def test_pessimistic_overlap_never_separates():
    # overlapping intervals on every topic: both margins negative, p = 1, direction 0
    iv = _intervals([[0.2, 0.3], [0.25, 0.2]], [[0.6, 0.5], [0.5, 0.6]])
    row = pessimistic_t_test(iv).iloc[0]
    assert row["p_value"] == 1.0 and int(row["direction"]) == 0


def test_pessimistic_equals_t_test_when_all_judged():
    # no residual: B = T, so the pessimistic test is the ordinary paired t-test
    rng = np.random.default_rng(5)
    scores = rng.random((3, 8))
    frame = pessimistic_t_test(_intervals(scores, scores))
    i, j = np.triu_indices(3, 1)
    expected = [stats.ttest_rel(scores[a], scores[b]).pvalue for a, b in zip(i, j, strict=True)]
    assert frame["p_value"].to_numpy() == pytest.approx(expected)
    assert (frame["direction"].to_numpy() == np.sign(scores[i].mean(1) - scores[j].mean(1))).all()


def test_pessimistic_rejects_other_input():
    with pytest.raises(TypeError, match="ScoreIntervals"):
        pessimistic_t_test(np.zeros((2, 2)))


def test_budget_tests_interval_estimator():
    # two topics; a ranks the relevant x first, b the non-relevant y; c and d copy them.
    rows = [(run, t, doc, float(2 - k)) for run, docs in (("a", "xy"), ("b", "yx"), ("c", "xy"), ("d", "yx"))
            for t in ("1", "2") for k, doc in enumerate(docs)]
    runs = pd.DataFrame(rows, columns=["run", "qid", "docno", "score"])
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["x", "y"] * 2, "grade": [1, 0] * 2})
    exp = Experiment(runs, qrels, contributors=["a", "b"])
    tests = budget_tests(exp, ["P@1"], seed=0, budgets=[1, 4], estimators="SP")
    sep = tests.separability().query("run_set == 'contributing'").set_index(["estimator", "budget"])
    # all 4 judged: P@1 is 1 vs 0 on both topics and B = T: a constant difference, p = 0
    assert sep.loc[("interval", 4), "significant"] == 1 and sep.loc[("X_S", 4), "significant"] == 1
    # 1 judgment: on the topic without it both intervals are [0, 1], so B_a − T_b = −1 there
    # and at most 0 on the other: no pessimistic win, p = 1
    assert sep.loc[("interval", 1), "significant"] == 0
    assert tests.p_value("P@1", "contributing")[1, 0, 0] == 1.0  # estimator 1 = P, budget 1
    with pytest.raises(ValueError, match="pessimistic interval"):
        budget_tests(exp, ["P@1"], seed=0, budgets=[4], estimators="Q")


# ---------------------------------------------------------------------------- reproductions on the default
def test_ids_and_figures(reps):
    assert all(i in irnb.reproduction_ids() for i in IDS)
    import matplotlib

    matplotlib.use("Agg")
    fig1 = reps["ravana2010-fig1"]
    drawn = fig1.figure()
    depths = list(fig1.details["estimates"].index)
    assert depths == [10, 100] and len(drawn) == len(depths)  # one panel per pool depth
    for ax, d in zip(drawn, depths, strict=True):
        rows = fig1.table.loc[d]
        shown = irnb.plots.artists(ax)
        assert shown["fraction"].get_ydata().tolist() == rows.loc[rows["in_fit"], "fraction"].tolist()
        assert shown["rate"].get_ydata().tolist() == [fig1.details["estimates"].loc[d, "E"]]
        assert shown["truth"].get_ydata().tolist() == [fig1.details["estimates"].loc[d, "true_rate"]]
        assert f"pool depth d = {d}" in ax.get_title()
    axes = reps["ravana2010-fig2"].figure()
    assert len(axes) == 3 and all(len(a.get_lines()) == 5 for a in axes)
    assert axes[0].get_ylabel() == "fraction of pairs, paired t-test p < 0.01"  # the test and α (Ravana & Moffat)
    with pytest.raises(ValueError, match="is a table"):
        reps["ravana2010-table2"].figure()


@pytest.fixture(scope="module")
def fig1_contributors(reps):
    return reps["ravana2010-fig1"]  # the default: the contributing runs, as the paper


@pytest.fixture(scope="module")
def fig1_all(collection):
    return irnb.reproduce("ravana2010-fig1", collection, pooled="all")


@pytest.mark.parametrize("depth", [10, 100])
def test_fig1_counts_by_hand(fig1_all, fig1_contributors, collection, depth):
    # pooled="contributors": the depth-d pool judges the qrels entries some contributing run ranks
    # in its top d; those pooled by exactly one contributing run, recounted with pandas
    qrels = collection.qrels.table.to_pandas()
    contributors = collection.run_info.loc[collection.run_info["contributor"], "run"]
    top = pd.concat([collection.runs[r].to_frame().query(f"rank <= {depth}")[["topic", "docno"]].assign(run=r)
                     for r in contributors])
    count = top.groupby(["topic", "docno"]).size().rename("n").reset_index()
    merged = qrels.merge(count, on=["topic", "docno"])
    one = merged[merged["n"] == 1]
    t = fig1_contributors.table
    assert t.loc[(depth, 1), "judged"] == len(one)
    assert t.loc[(depth, 1), "relevant"] == (one["grade"] >= 1).sum()
    assert t.loc[depth, "judged"].sum() == len(merged)  # every judged document of the pool, in one group
    # pooled="all": every run's top d, judged from the simulator's complete truth
    truth = collection.truth.table.to_pandas()
    top = pd.concat([collection.runs[r].to_frame().query(f"rank <= {depth}")[["topic", "docno"]].assign(run=r)
                     for r in collection.runs])
    count = top.groupby(["topic", "docno"]).size().rename("n").reset_index()
    merged = truth.merge(count, on=["topic", "docno"])
    t = fig1_all.table
    for n in (1, 2, 5):
        at = merged[merged["n"] == n]
        assert (t.loc[(depth, n), "judged"], t.loc[(depth, n), "relevant"]) == (len(at), (at["grade"] >= 1).sum())
    assert t.loc[depth, "judged"].sum() == len(merged) == len(count)
    paper = fig1_all.paper
    assert list(paper.columns) == list(t.columns) and paper.loc[(100, 55), "fraction"] == pytest.approx(5 / 7)


@pytest.mark.parametrize("pooled", ["all", "contributors"])
def test_fig1_estimates_are_the_cores_at_each_depth(fig1_all, fig1_contributors, collection, pooled):
    """E and the true rate at each pool depth are estimate_background_rate's and
    true_background_rate's on the depth-d pool (truth over the runs' top 2d) — of the
    contributing runs (the default, as the paper), or of every run, judged from the truth
    (pooled="all"); the notes and the headline quote them, and each gives the other pooling's
    readings, saying "below zero" only where the fit reads below zero; a deeper pool leaves a
    lower true rate."""
    from irnb.intervals import estimate_background_rate, true_background_rate
    from irnb.judging import complete_experiment
    from irnb.pooling import depth_pool

    if pooled == "all":
        rep, exp = fig1_all, complete_experiment(collection)
        runs = list(exp.run_names)
        assert "pool of all 40 runs (pooled='all': irnb's what-if" in rep.notes
        assert "judged from its complete truth" in rep.notes
        other, other_runs = collection.experiment, None
    else:
        rep, exp, runs = fig1_contributors, collection.experiment, None
        assert "pool of the 12 contributing runs, as the paper" in rep.notes
        other = complete_experiment(collection)
        other_runs = list(other.run_names)
    readings = []
    for d in (10, 100):
        fit = estimate_background_rate(other, depth=d, pool=depth_pool(other, depth=d, runs=other_runs),
                                       runs=other_runs)
        readings.append(f"{fit.intercept:.3f}{' (below zero)' if fit.intercept < 0 else ''} at d = {d}")
    assert all(r in rep.notes for r in readings), readings
    estimates = rep.details["estimates"]
    for d in (10, 100):
        pool = depth_pool(exp, depth=d, runs=runs)
        fit = estimate_background_rate(exp, depth=d, pool=pool, runs=runs)
        true = true_background_rate(exp, measurement_depth=2 * d, pool=pool)
        assert estimates.loc[d, "fit_at_zero"] == pytest.approx(fit.intercept)
        assert estimates.loc[d, "E"] == pytest.approx(min(max(fit.intercept, 0.0), 1.0))
        assert estimates.loc[d, "true_rate"] == pytest.approx(true)
        assert (rep.table.loc[d, "E"] == estimates.loc[d, "E"]).all()
        assert (rep.table.loc[d, "true_rate"] == estimates.loc[d, "true_rate"]).all()
        assert rep.table.loc[d, "fitted"].to_numpy() == pytest.approx(fit.fitted(fit.num_runs))
        assert f"{true:.3f} of the unjudged documents in the runs' top {2 * d}" in rep.notes
    assert estimates.loc[100, "true_rate"] < estimates.loc[10, "true_rate"]
    deep, shallow = estimates.loc[100, "fit_at_zero"], estimates.loc[10, "fit_at_zero"]
    fit_claim = rep.headline.claims[0]  # the fit read at zero runs, at the paper's depth and the shallow one
    assert fit_claim.irnb.startswith(f"{deep:.3f} at d = 100 ({shallow:.3f} at d = 10); average fraction ")


def test_fig1_pooled_is_checked(collection):
    message = r"pooled must be one of 'contributors' or 'all' .*'all': every run \(irnb's what-if\).*, got 'auto'"
    with pytest.raises(ValueError, match=message):
        irnb.reproduce("ravana2010-fig1", collection, pooled="auto")


def test_fig1_depths_option(collection):
    rep = irnb.reproduce("ravana2010-fig1", collection, depths=20)
    assert list(rep.details["estimates"].index) == [20]
    assert rep.table.index.get_level_values("pool_depth").unique().tolist() == [20]
    assert "at d = 20 the rate read at zero runs" in rep.notes  # the deepest asked for stands in for d = 100
    with pytest.raises(ValueError, match=r"ravana2010-fig1: depths must be increasing pool depths without repeats, "
                                         r"got \(100, 10\)"):
        irnb.reproduce("ravana2010-fig1", collection, depths=(100, 10))
    with pytest.raises(ValueError, match=r"ravana2010-fig1: depths \(pool depths d\) must be an integer ≥ 1, got 0"):
        irnb.reproduce("ravana2010-fig1", collection, depths=[0, 10])


def test_fig1_true_rate_by_hand():
    # a ranks x, u, v; b ranks x, w, v; both contribute. The depth-2 pool judges x (pooled by 2
    # runs, relevant), u (1 run, relevant) and w (1 run, not): fractions 1/2 at 1 run, 1 at 2;
    # the line through them reads 0 at zero runs. Unjudged in the runs' top 4: v at a@3 and b@3,
    # relevant in the truth → true rate 1. Without truth it is NaN and the notes say so.
    runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "qid": "1", "docno": ["x", "u", "v", "x", "w", "v"],
                         "score": [3, 2, 1, 3, 2, 1]})
    truth = pd.DataFrame({"qid": "1", "docno": ["x", "u", "v", "w"], "grade": [1, 1, 1, 0]})
    rep = irnb.reproduce("ravana2010-fig1", Experiment(runs, truth, truth=truth), depths=2, degree=1)
    assert rep.table.loc[2, "fraction"].tolist() == [0.5, 1.0]
    estimates = rep.details["estimates"].loc[2]
    assert estimates["fit_at_zero"] == pytest.approx(0.0, abs=1e-12) and estimates["true_rate"] == 1.0
    assert "1.000 of the unjudged documents in the runs' top 4" in rep.notes
    assert "(E is not within a factor of 2 of it)" in rep.notes
    plain = irnb.reproduce("ravana2010-fig1", Experiment(runs, truth), depths=2, degree=1)
    assert np.isnan(plain.details["estimates"].loc[2, "true_rate"]) and "no complete truth" in plain.notes


def test_table1_recomputed(reps, collection):
    exp = collection.experiment
    t = reps["ravana2010-table1"].table
    info = collection.run_info
    con = info.loc[info["contributor"], "run"].tolist()
    non = info.loc[~info["contributor"], "run"].tolist()
    full = irnb.evaluate(exp, ["P@10"]).means()["P@10"]
    # with every judgment, B of P@10 is trec_eval's P@10; contributors' top 10 is all judged (Δ = 0)
    assert t.loc[("(a) B", "P@10"), ("contributing", "deep")] == pytest.approx(full[con].mean())
    assert t.loc[("(a) B", "P@10"), ("non-contributing", "deep")] == pytest.approx(full[non].mean())
    assert t.loc[("(b) Δ", "P@10"), ("contributing", "deep")] == 0.0
    # shallow: the paper's 1,000 of 69,100 judgments, scaled to the default's qrels
    shallow = budget_pool(exp, judgments=_shallow(exp), runs=con, seed=0)
    part = irnb.evaluate(exp, ["P@10"], judged=shallow.judged).means()["P@10"]
    assert t.loc[("(a) B", "P@10"), ("non-contributing", "shallow")] == pytest.approx(part[non].mean())
    assert reps["ravana2010-table1"].paper is None


def _shallow(exp) -> int:
    """The paper's shallow budget (1,000 of TREC-9's 69,100 judgments) scaled to ``exp``'s qrels."""
    return round(exp.judgments.num_judgments * 1000 / 69100)


def _shallow_p10(collection) -> tuple[Experiment, np.ndarray, np.ndarray]:
    """(the Experiment, the non-contributing runs' indices, their P@10 per topic on the
    contributors' budget pool at the shallow budget, seed 0): what Tables 2 and 3 test first."""
    exp = collection.experiment
    info = collection.run_info
    con = info.loc[info["contributor"], "run"].tolist()
    non = exp.run_index(info.loc[~info["contributor"], "run"].tolist())
    m = parse_measure("P@10")
    pool = budget_pool(exp, judgments=_shallow(exp), runs=con, seed=0)
    return exp, non, irnb.evaluate(exp, [m], judged=pool.judged).values[m][non]


def _separable(values: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(values.shape[0], 1)
    return np.array([stats.ttest_rel(values[a], values[b]).pvalue < 0.01 for a, b in zip(i, j, strict=True)])


def test_table2_and_fig2_with_scipy(reps, collection):
    exp = collection.experiment
    info = collection.run_info
    non = exp.run_index(info.loc[~info["contributor"], "run"].tolist())
    per_topic = irnb.evaluate(exp, ["P@10"]).values[parse_measure("P@10")][non]
    share = _separable(per_topic).mean()
    assert reps["ravana2010-table2"].table.loc[("P@10", "X_S"), ("non-contributing", "deep")] == pytest.approx(share)
    assert reps["ravana2010-fig2"].table.loc[exp.judgments.num_judgments, ("P@10", "X_S")] == pytest.approx(share)
    paper = reps["ravana2010-table2"].paper
    assert paper.index.equals(reps["ravana2010-table2"].table.index)
    assert paper.loc[("P@10", "X_S"), ("non-contributing", "shallow")] == pytest.approx(713 / 1035)
    # the paper: the interval method separates least
    t = reps["ravana2010-table2"].table["non-contributing"]
    assert (t.xs("interval", level="method") <= t.xs("X_I", level="method")).all().all()


def test_one_sided_reading_with_scipy(reps, collection):
    """The one-sided reading: each pair tested one-tailed in the direction of its higher mean
    (the paper's §2 example), p < 0.01 — the share Table 2's notes give for P@10 with X_S at
    the shallow budget; Fig. 2's claims carry both readings."""
    _, non, values = _shallow_p10(collection)
    i, j = np.triu_indices(len(non), 1)
    one_sided = [stats.ttest_rel(values[a], values[b], alternative="greater" if values[a].mean() > values[b].mean()
                                 else "less").pvalue < 0.01 for a, b in zip(i, j, strict=True)]
    share = np.mean(one_sided)
    assert share >= _separable(values).mean()  # the one-sided reading never separates fewer pairs
    assert f"Under the one-sided reading (two-sided p < 0.02): claim 1: {share:.1%} after" in \
        reps["ravana2010-table2"].notes
    assert all(set(c.readings) == {"two-sided", "one-sided"} for c in reps["ravana2010-fig2"].headline.claims)


def test_table3_recanting_with_scipy(reps, collection):
    exp, non, shallow = _shallow_p10(collection)
    deep = irnb.evaluate(exp, ["P@10"]).values[parse_measure("P@10")][non]
    before, after = _separable(shallow), _separable(deep)
    i, j = np.triu_indices(len(non), 1)
    flipped = np.sign(shallow[i].mean(1) - shallow[j].mean(1)) != np.sign(deep[i].mean(1) - deep[j].mean(1))
    recanted = before & (~after | flipped)
    row = reps["ravana2010-table3"].table.loc[("P@10", "X_S", "shallow")]
    assert row["significant"] == before.sum()
    assert row["recanted at deep (%)"] == pytest.approx(100 * recanted.sum() / before.sum())
    paper = reps["ravana2010-table3"].paper
    assert paper.loc[("P@10", "X_S", "shallow")].tolist() == [713, 1035, 7.0, 8.4]


def test_small_collection_fallbacks():
    from irnb.datasets import simulate

    # 4 contributing runs, and with this seed no document is pooled by all 4: counts 1, 2 and 3
    # only, so the cubic cannot be fitted through 3 points; the quadratic through them is exact
    small = simulate(seed=6, num_topics=6, num_runs=10, num_groups=4, docs_per_topic=600, run_depth=100,
                     pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1)
    rep = irnb.reproduce("ravana2010-fig1", small, pooled="contributors")
    assert "At d = 10, too few distinct numbers of contributing runs for a degree-3 fit: degree 2 is used" in rep.notes
    # a simulated collection that is not the embedded default says so, with what was changed
    assert rep.data.startswith("simulated collection (seed 6; num_topics=6, num_runs=10, num_groups=4, ")
    assert "embedded default" not in rep.notes
    at10 = rep.table.loc[10]
    assert at10["fitted"].to_numpy() == pytest.approx(at10["fraction"].to_numpy())
    # the exact quadratic through those points, read at 0: 3·f(1) − 3·f(2) + f(3)
    f = at10["fraction"]
    assert rep.details["estimates"].loc[10, "fit_at_zero"] == pytest.approx(3 * f[1] - 3 * f[2] + f[3])


def test_fig2_at_given_budgets(collection):
    rep = irnb.reproduce("ravana2010-fig2", collection, budgets=500, run_set="contributing")
    assert rep.table.index.tolist() == [500] and "separability of the contributing runs (66 pairs)" in rep.notes


def test_options_checked(collection):
    with pytest.raises(ValueError, match="three increasing numbers"):
        irnb.reproduce("ravana2010-table2", collection, budgets=[10, 5, 100])
    with pytest.raises(ValueError, match="run_set must be one of"):
        irnb.reproduce("ravana2010-table3", collection, run_set="all")


# ---------------------------------------------------------------------------- real data
def test_covid(covid_dir):
    from irnb.datasets.real import trec_covid_round1

    exp = trec_covid_round1(covid_dir)
    fig1 = irnb.reproduce("ravana2010-fig1", exp, label="TREC-COVID round 1")
    assert "pool depth 7" in fig1.notes and 0 < fig1.table["fraction"].max() <= 1
    estimates = fig1.details["estimates"]
    assert list(estimates.index) == [10, 100] and estimates["true_rate"].isna().all()  # round 1: no truth
    assert "TREC-COVID round 1 has no complete truth" in fig1.notes
    assert "the depth-10 and depth-100 pools here judge only what the qrels judge" in fig1.notes
    assert (0 < estimates["E"]).all() and (estimates["E"] < estimates["average_fraction"]).all()
    assert len(fig1.figure()) == 2
    # on real data "auto" pools the contributors, as the paper; "all" counts every run, and says the qrels
    # judge only what the contributors pooled
    assert "E is read from the depth-d pool of the 56 contributing runs, as the paper" in fig1.notes
    every = irnb.reproduce("ravana2010-fig1", exp, label="TREC-COVID round 1", pooled="all")
    assert "pool of all 143 runs" in every.notes and "The pool judges only what the qrels hold" in every.notes
    assert every.table.index.get_level_values("num_runs").max() > fig1.table.index.get_level_values("num_runs").max()
    t3 = irnb.reproduce("ravana2010-table3", exp).table
    assert t3["pairs"].max() == 87 * 86 // 2  # the 87 runs that did not contribute


def test_clef_has_only_one_run_set(shared_dir):
    from irnb.datasets.real import clef_ehealth_2016_task2

    folder = shared_dir / "data" / "clef-ehealth-2016-irtask2"
    if not folder.exists():
        pytest.skip(f"needs {folder}")
    t = irnb.reproduce("ravana2010-table2", clef_ehealth_2016_task2(folder)).table
    assert list(t.columns.get_level_values("runs").unique()) == ["contributing"]


def test_page_rows_are_what_the_code_computes():
    """docs/reproductions.md's table (tools/reproduction_table.py) for these ids and the fast
    Büttcher ones: the default column and verdicts as computed now."""
    import importlib
    import sys
    from pathlib import Path

    tools = Path(__file__).resolve().parents[2] / "tools"
    sys.path.insert(0, str(tools))
    try:
        tool = importlib.import_module("reproduction_table")
    finally:
        sys.path.remove(str(tools))
    ids = IDS + ["buttcher2007-table1", "buttcher2007-table2", "buttcher2007-table3", "buttcher2007-table4"]
    written = tool.parse(tool.PAGE.read_text(encoding="utf-8")).set_index("id")
    computed = tool.rows(ids=ids, covid=None).set_index("id")
    for column in ("paper's headline", "irnb: paper's setting"):
        assert written.loc[ids, column].tolist() == computed.loc[ids, column].tolist(), column
