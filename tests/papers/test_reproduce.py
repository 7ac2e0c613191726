"""Reproductions of Baillie et al. 2007/2008 and the thesis chapter (irnb.papers), the
registry's API, and `irnb reproduce` on the command line.

Each id runs on the embedded default in a fast setting; its numbers are checked against
what the core computes by another path (case counts, hand-made ANOVA-free recounts,
Kendall's τ by a double loop, X_I from the grade arrays), and the paper frames against the
papers' own arithmetic (every printed row of four case shares sums to 1)."""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb.cli import main
from irnb.datasets import default

R = importlib.import_module("irnb.papers")  # the package holding the reproductions

FAST = (10, 100, 1000)
MINE = ("baillie2007-table1", "baillie2007-fig2", "baillie2008-table3", "baillie2008-table4", "baillie2008-fig4",
        "baillie2008-fig11", "baillie2008-fig12", "thesis-fig7.1", "thesis-fig7.2")
OPTIONS = {"baillie2008-table3": {"depths": FAST}, "baillie2008-table4": {"depths": FAST},
           "baillie2007-fig2": {"depths": FAST}, "baillie2008-fig4": {"depths": FAST},
           "baillie2008-fig11": {"depths": FAST}}


@pytest.fixture(scope="module")
def exp():
    return default().experiment


@pytest.fixture(scope="module")
def results():
    return {i: irnb.reproduce(i, default(), **OPTIONS.get(i, {})) for i in MINE}  # these tests are about the default


def _shares(table: pd.DataFrame) -> pd.DataFrame:
    return table.drop(columns="pairs", level=0)


def _case_shares(exp, measure, assessment, d=None):
    """Case shares of every pair from irnb.decision.case_counts (Judged@k / MAA pairing)
    or from decide() on two pairwise_test results (any pairing)."""
    from irnb.decision import decide
    from irnb.metrics import evaluate
    from irnb.stats import pairwise_test

    from irnb.measures import parse_measure

    ev = evaluate(exp, [measure, assessment])
    table = decide(pairwise_test(ev, measure, test="anova"), pairwise_test(ev, assessment, test="anova"),
                   assessment_higher_is_better=parse_measure(assessment).spec.higher_is_better)
    return np.bincount(table["case"], minlength=5)[1:] / len(table)


# ------------------------------------------------------------------------------------- registry
def test_every_id_is_registered_in_the_papers_order():
    ids = irnb.reproduction_ids()
    assert [i for i in ids if i in MINE] == list(MINE)
    listing = irnb.reproductions()
    assert list(listing.columns) == ["id", "title", "source", "needs", "options"]
    row = listing.set_index("id").loc["baillie2008-table3"]
    assert "depths=(10, 30, 100, 500, 1000)" in row["options"] and row["source"].endswith("Table 3")


def test_missing_groups_raise_reproduction_needs_naming_them(exp):
    from irnb import Experiment

    bare = Experiment(exp.runs, exp.qrels)  # every run its own group
    source = R.Source(bare, "bare data")
    with pytest.raises(R.ReproductionNeeds, match=r"x needs run groups .*--groups TSV.*bare data has none"):
        source.require("groups", "x")
    assert isinstance(R.ReproductionNeeds("x"), ValueError)


def test_headline_and_details_are_checked():
    with pytest.raises(TypeError, match="holds must be True, False or None"):
        R.Claim("a", "b", "r", "yes")
    with pytest.raises(ValueError, match="cannot test needs a reason"):
        R.Claim("a", "b", "r", None)
    with pytest.raises(TypeError, match="non-empty sequence of irnb.papers.Claim"):
        R.Headline("a", [])
    with pytest.raises(TypeError, match="headline must be an irnb.papers.Headline"):
        R.Reproduction("x", "t", "s", pd.DataFrame(), None, "", "d", headline=("p", "i", False))
    rep = R.Reproduction("x", "t", "s", pd.DataFrame(), None, "", "d",
                         headline=R.Headline("p", [R.Claim("p", "i", "r", False)]))
    assert rep.headline.verdict == "differs" and rep.headline.agrees is False
    assert "claim 1: p" in str(rep) and "outcome: fails" in str(rep)


def _claim(holds, readings=None):
    return R.Claim("c", "i", "r", holds, reason="" if holds is not None else "cannot say", readings=readings or {})


@pytest.mark.parametrize(("outcomes", "verdict"), [
    ((True, True), "agrees"), ((True, False), "partly"), ((False, False), "differs"),
    ((True, None), "partly"), ((False, None), "differs"), ((None, None), "n/a"), ((True,), "agrees"),
])
def test_the_verdict_follows_the_claims(outcomes, verdict):
    headline = R.Headline("h", [_claim(h) for h in outcomes])
    assert headline.verdict == verdict
    assert headline.agrees is {"agrees": True, "differs": False}.get(verdict)


def test_a_claim_that_one_reading_flips_makes_the_verdict_depend_on_it():
    flipped = _claim(True, {"A_p@k ÷ k": True, "JudgedRet@k": False, "NotUnj@k": False})
    steady = _claim(True, {"A_p@k ÷ k": True, "JudgedRet@k": True})
    assert flipped.depends and not steady.depends
    assert R.Headline("h", [flipped, _claim(True)]).verdict == "depends on the reading"
    assert R.Headline("h", [steady, _claim(True)]).verdict == "agrees"
    assert flipped.outcome == "depends on the reading (A_p@k ÷ k: holds, JudgedRet@k: fails, NotUnj@k: fails)"
    summary = R.Headline("h", [R.Claim("up", "i", "r", True), R.Claim("down", "i", "r", False)]).summary()
    assert summary == "partly — holds: up; fails: down"


# ------------------------------------------------------------------------------------- tables
def test_table1_paper_frame_is_the_printed_table():
    paper = R.baillie._paper_table1()
    assert paper.shape == (8, 25)
    assert paper.loc["TREC 3", "pairs"].item() == 780 == 40 * 39 // 2
    assert paper.loc["TREC 3", "@10"].tolist() == [0.69, 0.07, 0.17, 0.07]  # the paper's worked example
    assert paper.loc["ROBUST 03", "MAP/AA"].tolist() == [0.65, 0.14, 0.00, 0.21]
    sums = _shares(paper).T.groupby(level="depth", sort=False).sum().T
    assert np.allclose(sums, 1.0, atol=0.025)  # every printed group of four shares sums to 1 (rounding)


def test_table1_on_the_default(results, exp):
    rep = results["baillie2007-table1"]
    table = rep.table
    assert list(table.index) == ["embedded default (seed 0)"] and table["pairs"].iloc[0].item() == 780
    assert table.columns.equals(R.baillie._paper_table1().columns)  # the paper's layout
    sums = _shares(table).T.groupby(level="depth", sort=False).sum().T
    assert np.allclose(sums, 1.0)
    # independently: irnb.decision.case_counts pairs P@k with Judged@k and AP with MAA
    from irnb.decision import case_counts

    counts = case_counts(exp, measures=["P@100", "AP"], test="anova")
    for label, measure in (("@100", "P@100"), ("MAP/AA", "AP")):
        expected = counts[counts["measure"] == measure].set_index("case")["proportion"]
        assert table[label].iloc[0].tolist() == pytest.approx(expected.tolist())
    row = table.iloc[0]
    # four claims, each by a 5-point rule: significant (3 + 4) falls, case 3 falls, case 4 rises, case 2 rises
    significant = row[("@10", 3)] + row[("@10", 4)] - row[("@1000", 3)] - row[("@1000", 4)]
    falls = row[("@10", 3)] - row[("@1000", 3)]
    rises4 = row[("@1000", 4)] - row[("@10", 4)]
    rises2 = row[("@1000", 2)] - row[("@10", 2)]
    assert [c.holds for c in rep.headline.claims] == [significant >= 0.05, falls >= 0.05, rises4 >= 0.05,
                                                      rises2 >= 0.05]
    # the default's case-4 share does not rise: the verdict is "partly", not "agrees"
    assert rep.headline.verdict == "partly" and rep.headline.claims[2].holds is False
    fmt = R.baillie._fmt
    assert rep.headline.claims[1].irnb == f"{fmt(row[('@10', 3)])} → {fmt(row[('@1000', 3)])}"
    assert ("one-way ANOVA + Bonferroni multiple comparisons, α = 0.05 (irnb's reading of the papers' 'ANOVA test' "
            "then 'Bonferroni multiple comparisons': they name neither α nor the ANOVA's design)") in rep.notes
    assert "(the papers' procedure)" not in rep.notes
    with pytest.raises(ValueError, match="is a table; it has no figure"):
        rep.figure()
    # the notes say how each A_p reading (÷ k, ÷ min(k, run length), 1 − unj) moves the finding
    other = irnb.reproduce("baillie2007-table1", default(), assessment="JudgedRet").table.iloc[0]
    last = rep.notes.splitlines()[-1]
    assert last.startswith("Sensitivity to the A_p reading") and "JudgedRet@d: as d grows" in last
    assert (f"case 4 (weak, different) {fmt(other[('@10', 4)])} → {fmt(other[('@1000', 4)])}, case 2 (weak, not "
            f"different) {fmt(other[('@10', 2)])} → {fmt(other[('@1000', 2)])}" in last.split("JudgedRet@d:")[1])
    assert set(rep.headline.claims[0].readings) == {"Judged@k", "JudgedRet@k", "NotUnj@k"}


def test_table1_pool_depth_rows(exp):
    rep = irnb.reproduce("baillie2007-table1", default(), pool_depths=(10,))
    assert list(rep.table.index) == ["embedded default (seed 0)",
                                     "embedded default (seed 0): depth-10 pool of 12 contributing runs"]
    assert np.allclose(_shares(rep.table).T.groupby(level="depth", sort=False).sum().T, 1.0)


@pytest.mark.parametrize("id, family", [("baillie2008-table3", "P"), ("baillie2008-table4", "AP")])
def test_tables_3_and_4_pair_each_measure_with_judged_at_the_same_depth(results, exp, id, family):
    rep = results[id]
    assert list(rep.table.columns.get_level_values(0).unique()) == ["pairs", "@10", "@100", "@1000"]
    for d in FAST:
        expected = _case_shares(exp, f"{family}@{d}", f"Judged@{d}")
        assert rep.table[f"@{d}"].iloc[0].tolist() == pytest.approx(expected.tolist())
    case3 = [rep.table[(f"@{d}", 3)].iloc[0] for d in FAST]
    case4 = [rep.table[(f"@{d}", 4)].iloc[0] for d in FAST]
    case2 = [rep.table[(f"@{d}", 2)].iloc[0] for d in FAST]
    # case 4 (weak, significant) and case 2 (weak, not significant) each rise by 5 points: two claims
    assert rep.headline.claims[1].holds == (case4[-1] - case4[0] >= 0.05)
    assert rep.headline.claims[2].holds == (case2[-1] - case2[0] >= 0.05)
    if id.endswith("3"):
        # case 3 falls by 5 points, or stays within a factor of two
        assert rep.headline.claims[0].holds == (case3[0] - case3[-1] >= 0.05 or min(case3) >= 0.5 * max(case3))
        assert rep.paper.shape == (1, 21) and rep.paper.loc["TREC 3", "@10"].tolist() == [0.69, 0.07, 0.17, 0.07]
        assert rep.paper[("@30", 3)].item() == 0.11 and np.isnan(rep.paper[("@30", 1)].item())
    else:
        assert rep.headline.claims[0].holds == (min(case3) >= 0.5 * max(case3))  # within a factor of two
        assert rep.paper is None and "between 0.04 and 0.07" in rep.notes
        # the 2008 pairing differs from the 2007 one (MAP with MAA) somewhere
        assert not np.allclose(_case_shares(exp, "AP@1000", "MAA@1000"), rep.table["@1000"].iloc[0])


# ------------------------------------------------------------------------------------- figures
def test_fig2_pairs_and_their_numbers(results, exp):
    from irnb.decision import compare_table
    from irnb.metrics import evaluate

    rep = results["baillie2007-fig2"]
    table = rep.table
    assert rep.paper is None and set(table.index.get_level_values("depth")) == set(FAST)
    means = evaluate(exp, [f"P@{d}" for d in FAST] + [f"Judged@{d}" for d in FAST]).means()
    tables = {d: compare_table(exp, f"P@{d}", assessment=f"Judged@{d}", test="anova").set_index(["run_a", "run_b"])
              for d in FAST}
    for (_label, d), row in table.iterrows():
        assert row["a"] == pytest.approx(means.loc[row["run_a"], f"P@{d}"])  # every topic answered here
        assert row["A_b"] == pytest.approx(means.loc[row["run_b"], f"Judged@{d}"])
        pair = (row["run_a"], row["run_b"])
        key = pair if pair in tables[d].index else pair[::-1]
        assert row["case"] == tables[d].loc[key, "case"]
    # claim 1 needs a depth through @500 beyond the pool depth (100): with FAST's @10, @100 it is untested
    assert rep.headline.claims[0].holds is None
    # with @500: the pairs whose same run is significantly better in P at @10, @100, @500 and whose A_p differs
    # significantly at exactly one of them, @500 (beyond the pool), in case 4 there; the top pair is one of them
    depths = (10, 100, 500, 1000)
    deeper = irnb.reproduce("baillie2007-fig2", exp, depths=depths)
    tables[500] = compare_table(exp, "P@500", assessment="Judged@500", test="anova").set_index(["run_a", "run_b"])
    index = tables[10].index
    x = np.where(tables[10]["mean_diff"] > 0, index.get_level_values(0), index.get_level_values(1))
    upto = (10, 100, 500)
    p_sig = sum(((tables[d]["p_measure"] < 0.05) & (tables[d]["better"] == x)).astype(int) for d in upto)
    a_sig = sum((tables[d]["p_assessment"] < 0.05).astype(int) for d in upto)
    even = (p_sig == len(upto)) & (a_sig == 1) & (tables[500]["p_assessment"] < 0.05) & (tables[500]["case"] == 4)
    assert deeper.headline.claims[0].irnb.startswith(f"{int(even.sum())} of 780 eligible pairs") and even.any()
    top = deeper.table.loc["top (even judging)"].iloc[0]
    key = (top["run_a"], top["run_b"]) if (top["run_a"], top["run_b"]) in even.index else (top["run_b"], top["run_a"])
    assert even[key]
    curves = rep.details["curves"]
    assert (curves["lower"] <= curves["mean"]).all() and (curves["mean"] <= curves["upper"]).all()
    assert curves.attrs["comparisons"] == 780  # bars Bonferroni-adjusted over every pair, as the 2008 paper's
    axes = rep.figure()
    assert axes.shape == (2, 2) and axes[0, 1].get_title() == "top (even judging): A_p@d"
    # the figure says which test and α decided the cases: above the panels, or
    # in each row's left panel when the caller gives the Axes
    procedure = "one-way ANOVA + Bonferroni multiple comparisons, α = 0.05"
    bars = "95% t intervals, Bonferroni-adjusted over the 780 pairs of runs compared"
    assert axes[0, 0].figure.get_suptitle().replace("\n", " ") == (f"baillie2007-fig2 (embedded default (seed 0)): "
                                                                   f"cases by {procedure}; bars: {bars}")
    import matplotlib.pyplot as plt

    _, given = plt.subplots(2, 2)
    rep.figure(ax=given)
    assert given[1, 0].get_title().replace("\n", " ") == (f"bottom (judging diverges): P@d cases by {procedure}; "
                                                          f"bars: {bars}")
    assert given[1, 1].get_title() == "bottom (judging diverges): A_p@d"


def test_fig4_has_a_pair_for_each_case(results):
    rep = results["baillie2008-fig4"]
    cases = rep.table["case"]
    for c in (1, 2, 3, 4):
        assert (cases.loc[f"case {c}"] == c).any() or not rep.headline.agrees
    # one claim per case, each holding where some pair (runs 1000 deep here) falls in it at some depth
    assert [c.holds for c in rep.headline.claims] == [True] * 4 and rep.headline.agrees
    assert set(rep.table["measure"]) == {f"AP@{d}" for d in FAST}
    assert set(rep.table["assessment"]) == {f"Judged@{d}" for d in FAST}
    assert rep.figure().shape == (4, 2)


def test_fig11_counts_the_swapping_pairs(results, exp):
    from irnb.decision import compare_table

    rep = results["baillie2008-fig11"]
    first, last = (compare_table(exp, f"AP@{d}", assessment=f"Judged@{d}", test="anova") for d in (FAST[0], FAST[-1]))
    x_is_a = first["mean_diff"] > 0
    x = np.where(x_is_a, first["run_a"], first["run_b"])
    y = np.where(x_is_a, first["run_b"], first["run_a"])
    strong = (first["case"] == 3) & (first["better"] == x)
    swapped = np.where(x_is_a, last["mean_diff"] < 0, last["mean_diff"] > 0)
    y_more = last["more_assessed"] == y
    n = int((strong & swapped & y_more).sum())
    # the lost case at @10 read as case 1 or 3: X ahead by mean in case 1
    broad = ((first["case"] == 1) & (first["mean_diff"] != 0)) | strong
    n_broad = int((broad & swapped & y_more).sum())
    assert rep.headline.claims[0].irnb == (f"case 3 at @10: {n} of 780 eligible pairs; case 1 or 3 at @10: "
                                           f"{n_broad} of 780 eligible pairs")  # every default run is 1000 deep
    assert rep.headline.claims[0].holds == (n >= 1)
    assert rep.headline.claims[0].depends == ((n >= 1) != (n_broad >= 1))
    assert len(rep.table.index.get_level_values("pair").unique()) == 2


def test_fig12_tau_by_a_double_loop(results, exp):
    from irnb.metrics import evaluate

    rep = results["baillie2008-fig12"]
    means = evaluate(exp, ["AP", "Judged@1000"]).means()
    a, b = means["AP"].to_numpy(), means["Judged@1000"].to_numpy()
    pairs = list(itertools.combinations(range(len(a)), 2))
    discordant = sum((a[i] - a[j]) * (b[i] - b[j]) < 0 for i, j in pairs)
    tau = 1 - 2 * discordant / len(pairs)
    assert rep.table["tau(MAP, A_p@1000)"].iloc[0] == pytest.approx(tau)
    assert rep.paper["tau(MAP, A_p@1000)"].tolist() == [0.394, 0.402, 0.402, 0.462]
    assert rep.headline.claims[0].holds == (0.394 - 0.15 <= tau <= 0.462 + 0.15)
    runs = rep.details["runs"]
    assert runs["AP"].is_monotonic_decreasing and len(runs) == 40
    assert rep.figure().get_xlabel() == "runs ranked by AP"


def test_thesis_fig71_counts_unjudged_documents(results, exp):
    from irnb.metrics import evaluate

    rep = results["thesis-fig7.1"]
    a, b = rep.details["pair"].iloc[0][["run_a", "run_b"]]
    unj = evaluate(exp, ["Unj@20"])["Unj@20"]
    table = rep.table
    topics = list(exp.topics)
    idx = [topics.index(t) for t in table.index]
    assert table["unjudged_b"].tolist() == pytest.approx((20 * unj[exp.run_index(b)[0], idx]).tolist())
    assert table["unjudged_a"].tolist() == pytest.approx((20 * unj[exp.run_index(a)[0], idx]).tolist())
    assert (table["overlap"] <= table[["unjudged_a", "unjudged_b"]].min(axis=1)).all()
    assert table["unjudged_b"].is_monotonic_increasing
    ua, ub, ov = (int(table[c].sum()) for c in ("unjudged_a", "unjudged_b", "overlap"))
    far, small, many = (c.holds for c in rep.headline.claims)
    assert far == (ub >= 1.5 * ua and ub > ua) and small == (ov <= 0.5 * min(ua, ub))
    diff = table["ΔP@20 (b − a)"]
    assert many == (((table["unjudged_b"] >= 5) & (diff >= -1 / 20 - 1e-12)).sum() >= 3)
    # neither run contributed, as in the chapter, and they are the fixed draw, not chosen by their counts
    assert not exp.contributors[exp.run_index(b)[0]] and not exp.contributors[exp.run_index(a)[0]]
    assert (a, b) == R.thesis._example_pair(exp.run_names, exp.groups, exp.contributors)[:2]
    rep.figure()


def test_thesis_fig72_simulated_precision_from_the_grades(results, exp):
    from irnb import UNJUDGED

    rep = results["thesis-fig7.2"]
    run = rep.details["pair"].iloc[0]["run_b"]
    assert run == results["thesis-fig7.1"].details["pair"].iloc[0]["run_b"]
    s = exp.run_index(run)[0]
    grades = exp.judgments.grade_array()[s, :, :20]
    truth = exp.truth.grade_array()[s, :, :20]
    topics = list(exp.topics)
    for topic, row in rep.table.iterrows():
        g = grades[topics.index(topic)]
        rel, judged = int((g >= 1).sum()), int((g >= 0).sum())
        assert row["unjudged"] == int((g == UNJUDGED).sum())
        assert row["original"] == pytest.approx(rel / 20)
        assert row["simulated"] == pytest.approx(rel / judged if judged else 0.01)  # the chapter's P(r|U)
        assert row["true"] == pytest.approx((truth[topics.index(topic)] >= 1).sum() / 20)
    assert rep.table["original"].is_monotonic_increasing
    gains = int((rep.table["simulated"] > rep.table["original"]).sum())
    assert f"Simulated > original on {gains} of {len(rep.table)} topics: no claim to test" in rep.notes
    from scipy import stats

    rho = stats.spearmanr(rep.table["unjudged"], rep.table["original"]).statistic
    assert rep.headline.claims[0].irnb.startswith(f"ρ(unjudged, original P@20) = {rho:.2f}, one-sided p = ")
    nonrel = [int(((grades[topics.index(t)] >= 0) & (grades[topics.index(t)] < 1)).sum()) for t in rep.table.index]
    assert rep.table["nonrelevant"].tolist() == nonrel
    rep.figure()


# ------------------------------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def covid(covid_dir):
    from irnb.datasets.real import trec_covid_round1

    return trec_covid_round1(covid_dir)


@pytest.fixture(scope="module")
def covid_results(covid):
    """Every id on TREC-COVID with its default options (as docs/reproductions.md's table); their run
    times are measured by benchmarks/bench_reproduce.py, not asserted here."""
    return {id: irnb.reproduce(id, covid, label="TREC-COVID round 1") for id in MINE}


@pytest.mark.shared
@pytest.mark.parametrize("id", MINE)
def test_every_id_runs_on_trec_covid(covid_results, id):
    rep = covid_results[id]
    assert rep.data == "TREC-COVID round 1" and isinstance(rep.headline, R.Headline)
    if "table" in id:
        assert rep.table["pairs"].iloc[0].item() == 143 * 142 // 2
        assert np.allclose(_shares(rep.table).T.groupby(level="depth", sort=False).sum().T, 1.0)
    if id == "baillie2008-fig12":
        assert rep.table["runs"].iloc[0] == 143
        assert 0 < rep.table["tau(MAP, A_p@1000)"].iloc[0] < 1


@pytest.mark.shared
def test_ids_run_on_clef_2016(shared_dir):
    from conftest import shared_path

    from irnb.datasets.real import clef_ehealth_2016_task2

    clef = clef_ehealth_2016_task2(shared_path("data", "clef-ehealth-2016-irtask2"))
    for id in MINE:
        rep = irnb.reproduce(id, clef, label="CLEF eHealth 2016", **OPTIONS.get(id, {}))
        assert "16 runs (none marked as contributing, 6 groups), 50 topics" in rep.notes


# ------------------------------------------------------------------------------------- command line
def test_cli_lists_every_id(capsys):
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == irnb.reproduction_ids()
    assert ("baillie2008-fig12\tRuns ranked by MAP with their A_p@1000 (irnb adds the Recall of Assessment); "
            "Kendall's τ") in lines


def test_cli_prints_table_paper_and_notes(capsys):
    assert main(["reproduce", "baillie2008-table3", "-o", "depths=10,100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("baillie2008-table3: Share of run pairs")
    assert "paper:" in out and "verdict:" in out and "claim 1:" in out and "one-way ANOVA" in out
    assert "@30" not in out.split("paper:")[0]  # the fast setting's depths only


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small simulated collection written as TREC files, with a groups TSV."""
    from irnb.datasets import simulate, write_collection

    c = simulate(seed=3, num_topics=8, num_runs=8, num_groups=3, docs_per_topic=500, run_depth=100, pool_depth=10,
                 median_relevant=15, novel_runs=1, keyword_runs=1)
    out = write_collection(c, tmp_path_factory.mktemp("small"))
    groups = out / "groups.tsv"
    groups.write_text("".join(f"{r}\t{g}\n" for r, g in zip(c.run_info["run"], c.run_info["group"], strict=True)))
    return c, out, groups


def test_cli_on_your_data_matches_the_api(small, capsys):
    c, out, groups = small
    argv = ["reproduce", "baillie2007-table1", "--qrels", str(out / "qrels.txt"), "--runs", str(out / "runs"),
            "--groups", str(groups), "--label", "small"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    exp = irnb.Experiment(str(out / "runs"), str(out / "qrels.txt"), groups=R.read_groups(groups))
    rep = irnb.reproduce("baillie2007-table1", exp, label="small")
    assert printed.strip() == str(rep).strip()
    assert f"{len(exp.run_names)} runs (all contributing, 3 groups), 8 topics" in printed


@pytest.mark.parametrize("argv, message", [
    (["reproduce"], "reproduce needs an id (irnb reproduce --list prints them)"),
    (["reproduce", "baillie2007-table1", "--runs", "x"], "needs both --qrels FILE and --runs RUN"),
    (["reproduce", "baillie2007-table1", "--manual", "a"], "--manual describe your data; add --qrels FILE"),
    (["reproduce", "baillie2007-table1", "-o", "test"], "-o/--option must be NAME=VALUE, got 'test'"),
    (["reproduce", "baillie2007-table1", "--figure", "x.png"], "--figure: baillie2007-table1 is a table"),
    (["reproduce", "baillie2007-tabel1"], "did you mean 'baillie2007-table1'"),
])
def test_cli_errors_say_what_is_wrong(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_says_what_your_data_lacks(small, capsys):
    c, out, _ = small
    one = sorted((out / "runs").iterdir())[0]
    argv = ["reproduce", "baillie2008-fig11", "--qrels", str(out / "qrels.txt"), "--runs", str(one), "--label", "one"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "baillie2008-fig11 needs at least two runs (it compares pairs of runs); one has 1 run" in err


def test_few_runs_still_reproduce_or_say_they_cannot(small):
    c, _, _ = small
    runs = dict(list(c.experiment.runs.items())[:2])
    two = irnb.Experiment(runs, c.experiment.qrels)
    table = irnb.reproduce("baillie2008-fig11", two, depths=(10, 100)).table
    assert table.index.get_level_values("pair").nunique() == 2
    rep = irnb.reproduce("baillie2008-fig4", two, depths=(10, 100))
    assert rep.table["run_a"].nunique() == 1  # one pair serves every case
    table = irnb.reproduce("baillie2008-table3", two, depths=(10, 100))
    shares = _shares(table.table)
    assert shares.xs(3, axis=1, level="case").sum().sum() + shares.xs(4, axis=1, level="case").sum().sum() == 0
    assert table.headline.verdict == "n/a" and "No pair differs significantly" in table.notes  # nothing to trend
    with pytest.raises(R.ReproductionNeeds, match="needs at least two runs"):
        irnb.reproduce("baillie2008-fig12", irnb.Experiment(dict(list(runs.items())[:1]), c.experiment.qrels))


def test_cli_bad_groups_file_names_the_line(small, tmp_path, capsys):
    c, out, _ = small
    bad = tmp_path / "g.tsv"
    bad.write_text("a b\n")
    argv = ["reproduce", "thesis-fig7.1", "--qrels", str(out / "qrels.txt"), "--runs", str(out / "runs"),
            "--groups", str(bad)]
    assert main(argv) == 2
    assert "g.tsv:1: expected 2 tab-separated columns" in capsys.readouterr().err


def test_cli_saves_a_figure(tmp_path, capsys):
    path = tmp_path / "fig.png"
    assert main(["reproduce", "thesis-fig7.2", "--figure", str(path)]) == 0
    assert path.stat().st_size > 1000 and f"figure: {path}" in capsys.readouterr().out


# ------------------------------------------------------------------------- docs/reproductions.md
def test_page_table_default_column_is_what_the_code_computes(table_tool):
    written = table_tool.parse(table_tool.PAGE.read_text(encoding="utf-8")).set_index("id")
    computed = table_tool.rows(ids=MINE, covid=None).set_index("id")
    assert set(MINE) <= set(written.index), "docs/reproductions.md's table lacks ids; run tools/reproduction_table.py"
    for column in ("what it shows", "paper's headline", "irnb: paper's setting"):
        assert written.loc[list(MINE), column].tolist() == computed[column].tolist(), column
    verdicts = written.loc[list(MINE), "verdict: paper's setting"]
    assert verdicts.tolist() == computed["verdict: paper's setting"].tolist()


@pytest.mark.shared
def test_page_table_covid_column_is_what_the_code_computes(table_tool, covid_results):
    written = table_tool.parse(table_tool.PAGE.read_text(encoding="utf-8")).set_index("id")
    for id, rep in covid_results.items():
        assert written.loc[id, "irnb: TREC-COVID"] == rep.headline.irnb, id
        assert written.loc[id, "verdict: TREC-COVID"] == rep.headline.summary(), id


def test_table_tool_round_trips_a_pipe(table_tool):
    table = pd.DataFrame([["x", "a | b", "p", "i", "c", "agrees", "n/a"]], columns=table_tool.COLUMNS)
    assert table_tool.parse(table_tool.render(table)).equals(table)


def test_assessment_option_replaces_a_p(exp):
    rep = irnb.reproduce("baillie2008-table3", default(), depths=(10, 1000), assessment="Unj")
    # Unj@k, the unjudged share of the top k, is lower-is-more-judged: case 4 needs the better run LOWER on it
    expected = _case_shares(exp, "P@1000", "Unj@1000")
    assert rep.table["@1000"].iloc[0].tolist() == pytest.approx(expected.tolist())
    assert "P@d tested with Unj@d" in rep.notes
    with pytest.raises(ValueError, match="assessment must measure how much of a ranking is judged"):
        irnb.reproduce("baillie2008-table3", assessment="P")
    table1 = irnb.reproduce("baillie2007-table1", default(), assessment="Unj")
    assert "MAP with Unj@1000" in table1.notes


def test_the_reproductions_page_example_runs(table_tool):
    import re

    text = table_tool.PAGE.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    import matplotlib

    matplotlib.use("Agg")
    namespace = {"print": lambda *a, **k: None}
    exec(compile(code, "docs/reproductions.md", "exec"), namespace)
    rep = namespace["rep"]  # the page's example reproduces baillie2007-table1 as the papers do
    assert rep.id == "baillie2007-table1" and not rep.table.empty and rep.paper is not None
