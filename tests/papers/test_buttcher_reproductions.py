"""Reproductions of Büttcher et al. (SIGIR 2007): buttcher2007-table1 … table8.

Values are checked by hand on tiny experiments, or recomputed on the embedded default
through other paths (pandas over the runs, plain evaluate with a pool mask, scipy); the
paper's frames are checked against the reproduced layout and against numbers read off
the paper; real data (TREC-COVID round 1, CLEF eHealth 2016) runs where ../shared exists.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb import Experiment
from irnb.pooling import depth_pool, leave_one_group_out
from irnb.papers import ReproductionNeeds

IDS = [f"buttcher2007-table{i}" for i in range(1, 9)]  # and buttcher2007-fig1 (irnb's own id)
FAST = {"buttcher2007-table6": dict(methods="kld", fractions=0.2),  # scalars, as `irnb reproduce -o` gives them
        "buttcher2007-table7": dict(methods=("kld",)),
        "buttcher2007-table8": dict(methods=("kld",))}


@pytest.fixture(scope="session")
def collection():
    from irnb.datasets import default

    return default()


@pytest.fixture(scope="session")
def reps(collection):
    return {i: irnb.reproduce(i, collection, **FAST.get(i, {})) for i in IDS}


def test_ids_registered():
    ids = irnb.reproduction_ids()
    assert all(i in ids for i in IDS)


@pytest.mark.parametrize("id", IDS)
def test_layout_matches_paper(reps, id):
    rep = reps[id]
    assert rep.id == id and rep.paper is not None and rep.notes.startswith("Data:")
    if id == "buttcher2007-table5":  # the runs differ; the columns are the paper's
        assert rep.table.columns.equals(rep.paper.columns)
        assert rep.table.index.names == rep.paper.index.names
    elif id == "buttcher2007-table6":  # a fast setting: one training share
        assert rep.table.columns.equals(rep.paper.columns)
        assert set(rep.table.index) <= set(rep.paper.index)
    else:
        assert rep.table.index.equals(rep.paper.index), id
        assert rep.table.columns.equals(rep.paper.columns), id
    with pytest.raises(ValueError, match="is a table"):
        rep.figure()


def test_paper_numbers_transcribed():
    from irnb.papers import buttcher as b

    # read off the paper: Table 2's bpref max rank change 14↑/1↓; Table 3's P@20 τ 0.8281;
    # Table 8's SVM τ for P@20 0.9512; Table 6's SVM F1 at 80 % 0.474; zetaman's bpref 0.398 → 0.475
    assert b.PAPER_TABLE2.loc[[b.UP, b.DOWN], "bpref"].tolist() == [14, 1]
    assert b.PAPER_TABLE3.loc[b.TAU_ALL, "P@20"] == 0.8281
    assert b.PAPER_TABLE8.loc[("SVM", b.TAU_ALL), "P@20"] == 0.9512
    assert b.PAPER_TABLE6.loc[("80%", "20%"), ("SVM classifier", "F1")] == 0.474
    assert b.PAPER_TABLE5.loc[("zetaman", "manual"), [("Original qrels", "bpref"),
                                                      ("Automatic-only qrels", "bpref")]].tolist() == [0.398, 0.475]
    assert b.PAPER_TABLE1.loc["Relevant documents per topic", "value"] + \
        b.PAPER_TABLE1.loc["Non-relevant documents per topic", "value"] == 640


def test_table1_counts(reps, collection):
    t = reps["buttcher2007-table1"].table["value"]
    qrels = collection.qrels.to_frame() if hasattr(collection.qrels, "to_frame") else collection.qrels.table.to_pandas()
    info = collection.run_info
    assert t["Number of topics"] == 50
    assert t["Runs in pool"] == info["contributor"].sum() == 12
    assert t["Manual runs in pool"] == (info["contributor"] & info["manual"]).sum()
    assert t["Judged documents per topic"] == pytest.approx(len(qrels) / 50)
    assert t["Relevant documents per topic"] == pytest.approx((qrels["grade"] >= 1).sum() / 50)
    assert t["Pool depth"] == 100


# ---------------------------------------------------------------------------- Table 2
def test_table2_by_hand():
    # one topic, groups A = {a, a2} and B = {b}; a ranks x, y; a2 ranks z (not in the qrels);
    # b ranks y, w; w, x, y relevant, d = 2. Without A, x is unjudged: a's AP 2/3 → 1/4 and
    # a drops from 1st to 2nd (change −1); a2 stays last (AP 0). Without B, b's AP 2/3 → 1/2,
    # b stays 2nd. Over the 3 left-out runs: avg |change| 1/3, max 0↑/1↓,
    # RMS = √(((2/3 − 1/4)² + 0² + (2/3 − 1/2)²)/3).
    runs = pd.DataFrame({"run": ["a", "a", "a2", "b", "b"], "qid": "1", "docno": ["x", "y", "z", "y", "w"],
                         "score": [2, 1, 1, 2, 1]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["w", "x", "y"], "grade": 1})
    exp = Experiment(runs, qrels, groups={"a": "A", "a2": "A", "b": "B"})
    rep = irnb.reproduce("buttcher2007-table2", exp, depth=2)
    t = rep.table
    from irnb.papers.buttcher import AVG, DOWN, RMS, UP

    # unjudged in the top 20 after leaving out: a loses x, a2 nothing, b loses w, all relevant: 2/3
    assert "on average 0.7 unjudged documents in its top 20, of which 0.7 are relevant" in rep.notes

    assert t.loc[[AVG, UP, DOWN], "Avg. Prec."].tolist() == pytest.approx([1 / 3, 0.0, 1.0])
    assert t.loc[RMS, "Avg. Prec."] == pytest.approx(math.sqrt(((2 / 3 - 1 / 4) ** 2 + (2 / 3 - 1 / 2) ** 2) / 3))


def test_table2_rms_recomputed(reps, collection):
    # RMS error of AP over every left-out run, from plain evaluate with each group's pool mask
    exp = collection.experiment
    pools = leave_one_group_out(exp, depth=100, keep_unpooled=True)
    full = irnb.evaluate(exp, ["AP"]).aggregate("AP")
    diffs = []
    for g, group in enumerate(pools.groups):
        reduced = irnb.evaluate(exp, ["AP"], judged=pools.judged[g]).aggregate("AP")
        members = [i for i, gg in enumerate(exp.groups) if gg == group and exp.contributors[i]]  # its pooled runs
        diffs += list(reduced[members] - full[members])
    from irnb.papers.buttcher import RMS

    assert reps["buttcher2007-table2"].table.loc[RMS, "Avg. Prec."] == pytest.approx(
        math.sqrt(np.mean(np.square(diffs))), abs=1e-9)
    # infAP equals AP when contributions are dropped from the qrels
    t = reps["buttcher2007-table2"].table
    assert t["infAP"].to_numpy() == pytest.approx(t["Avg. Prec."].to_numpy(), abs=1e-4)


# ---------------------------------------------------------------------------- Tables 3, 4, 5
def test_table3_by_hand():
    # a (automatic) ranks x, y; m (manual) ranks w, x; w, x, y relevant; d = 1. The
    # automatic-only pool loses w (only m pooled it): m's RR 1 → 1/2 and P@10 0.2 → 0.1;
    # a keeps its scores. RMS over the one manual run: 0.5 and 0.1.
    runs = pd.DataFrame({"run": ["a", "a", "m", "m"], "qid": "1", "docno": ["x", "y", "w", "x"],
                         "score": [2, 1, 2, 1]})
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["w", "x", "y"], "grade": 1}))
    rep = irnb.reproduce("buttcher2007-table3", exp, manual=["m"], depth=1)
    from irnb.papers.buttcher import RMS, TAU_ALL

    assert rep.table.loc[RMS, ["MRR", "P@10"]].tolist() == pytest.approx([0.5, 0.1])
    assert rep.table.loc[TAU_ALL, "MRR"] == 1.0  # a stays first (m falls to 1/2 < 1)


def test_table4_recounted(reps, collection):
    # manual-only pool recounted with pandas from the manual contributors' top 100
    qrels = collection.qrels.table.to_pandas()
    qrels.columns = ["topic", "docno", "grade"][: len(qrels.columns)] if "topic" not in qrels else qrels.columns
    info = collection.run_info
    manual = info.loc[info["contributor"] & info["manual"], "run"]
    top = pd.concat([collection.runs[r].to_frame().query("rank <= 100")[["topic", "docno"]] for r in manual])
    pooled = qrels.merge(top.drop_duplicates(), on=["topic", "docno"])
    t = reps["buttcher2007-table4"].table
    assert t.loc["# Judged", "Manual only"] == len(pooled)
    assert t.loc["# Relevant", "Manual only"] == (pooled["grade"] >= 1).sum()
    assert t.loc["# Judged", "Orig. qrels"] == len(qrels)
    assert t.loc["% Relevant", "Manual only"] > t.loc["% Relevant", "Autom. only"]  # the paper's finding


def test_table5_columns_recomputed(reps, collection):
    exp = collection.experiment
    t = reps["buttcher2007-table5"].table
    info = collection.run_info
    auto = info.loc[info["contributor"] & ~info["manual"], "run"].tolist()
    original = irnb.evaluate(exp, ["P@20", "Bpref"]).means()
    reduced = irnb.evaluate(exp, ["P@20", "Bpref"], judged=depth_pool(exp, depth=100, runs=auto).judged).means()
    runs = t.index.get_level_values("run")
    assert t[("Original qrels", "P@20")].to_numpy() == pytest.approx(original.loc[runs, "P@20"].to_numpy())
    assert t[("Automatic-only qrels", "bpref")].to_numpy() == pytest.approx(reduced.loc[runs, "Bpref"].to_numpy())
    assert t[("Completed qrels (SVM)", "P@20")].notna().all()
    assert list(t.index.get_level_values("type")) == ["auto", "manual"] * 4


# ---------------------------------------------------------------------------- Tables 6, 7, 8 (fast settings)
def test_table6_accuracy_recomputed(reps, collection):
    from irnb.pooling import random_subsample
    from irnb.predict import complete_qrels

    exp = collection.experiment
    pool = random_subsample(exp, fraction=0.2, seed=np.random.default_rng(0))
    from irnb.papers.buttcher import _CORPORA  # the texts the reproductions tokenised (saves 2 s)

    removed = ~np.asarray(pool.judged)  # a plain mask (random_subsample may return a PoolMask)
    done = complete_qrels(exp, _CORPORA.get(collection, collection.documents), pool=pool, targets=removed,
                          method="kld", probabilities=False, seed=0)
    # precision / recall per topic by hand from the predictions and the official grades
    truth = exp.judgments.qrel_grade[done.predicted["entry"].to_numpy()] >= 1
    frame = done.predicted.assign(truth=truth)
    tp = (frame["relevant"] & frame["truth"]).groupby(frame["topic"]).sum()
    precision = (tp / frame["relevant"].groupby(frame["topic"]).sum()).mean()
    recall = (tp / frame["truth"].groupby(frame["topic"]).sum()).mean()
    row = reps["buttcher2007-table6"].table.loc[("20%", "80%"), "KLD classifier"]
    assert row["Precision"] == pytest.approx(precision)
    assert row["Recall"] == pytest.approx(recall)
    assert reps["buttcher2007-table6"].table["SVM classifier"].isna().all().all()  # not asked for
    notes = reps["buttcher2007-table6"].notes
    assert "the IDF and the vocabulary are the whole collection's" in notes
    assert "regularises the intercept b with w where SVMlight does not" in notes
    # the corpus the reproductions read carries the whole collection's statistics (§3.1-3.2)
    assert _CORPORA[collection].collection.num_documents == len(collection.documents)


def test_table7_completion_reduces_error(reps, collection):
    from irnb.papers.buttcher import AVG, RMS

    t7 = reps["buttcher2007-table7"].table
    t2 = reps["buttcher2007-table2"].table
    assert t7.loc[("KLD", RMS), "P@20"] < t2.loc[RMS, "P@20"]  # the paper: 0.0243 → 0.0238 (KLD)
    assert t7.loc[("KLD", AVG), "P@20"] < t2.loc[AVG, "P@20"]
    assert list(reps["buttcher2007-table7"].paper.index.get_level_values("classifier").unique()) == ["KLD"]


def test_paper_comparisons_only_when_the_pool_is_ranked(reps, collection):
    # the paper ranks its pool's runs: its rank changes and τ are quoted beside irnb's only then
    from irnb.papers.buttcher import AVG, PAPER_TABLE2

    paper = f"(paper {PAPER_TABLE2.loc[AVG, 'P@20']:.3f})"
    pool = reps["buttcher2007-table2"]
    assert paper in pool.notes and "re-ranked among the 12 pool runs, as the paper's 42" in pool.notes
    every = irnb.reproduce("buttcher2007-table2", collection, ranked="all")
    assert paper not in every.notes and "ranked='all'; the paper ranks its 42 pool runs" in every.notes
    assert "the paper's paired t-test at p < 0.05" in every.notes


def test_table8_completion_raises_tau(reps):
    from irnb.papers.buttcher import TAU_ALL

    t8, t3 = reps["buttcher2007-table8"].table, reps["buttcher2007-table3"].table
    assert t8.loc[("KLD", TAU_ALL), "P@20"] > t3.loc[TAU_ALL, "P@20"]  # the paper: 0.8281 → 0.9164 (KLD)


def test_fig1_recomputed(collection):
    from irnb.pooling import random_subsample
    from irnb.bias import kendall_tau

    rep = irnb.reproduce("buttcher2007-fig1", collection, fractions=(0.1, 1.0), seed=3)
    assert rep.paper is None and list(rep.table.index) == [0.1, 1.0]
    exp = collection.experiment
    # the same draw: subsampling_curves seeds one generator with `seed` and draws in order; the
    # pool's runs only, as the paper's "all 42 runs in the original pool"
    pool = random_subsample(exp, fraction=0.1, seed=np.random.default_rng(3))
    pooled = np.asarray(exp.contributors)
    reduced = irnb.evaluate(exp, ["P@10"], judged=pool.judged).aggregate("P@10")[pooled]
    full = irnb.evaluate(exp, ["P@10"]).aggregate("P@10")[pooled]
    assert f"the {pooled.sum()} pool runs (as the paper's)" in rep.notes
    assert rep.table.loc[0.1, ("(a) mean score", "P@10")] == pytest.approx(reduced.mean())
    # irnb.bias rounds scores to 12 decimals first, so that values equal up to float noise tie
    tau = kendall_tau(np.round(full, 12), np.round(reduced, 12))
    assert rep.table.loc[0.1, ("(b) Kendall's τ", "P@10")] == pytest.approx(tau)
    assert rep.table.loc[1.0, "(b) Kendall's τ"].eq(1.0).all()
    every = irnb.reproduce("buttcher2007-fig1", collection, fractions=(0.1, 1.0), seed=3, ranked="all")
    every_mean = irnb.evaluate(exp, ["P@10"], judged=pool.judged).aggregate("P@10").mean()
    assert every.table.loc[0.1, ("(a) mean score", "P@10")] == pytest.approx(every_mean)
    assert f"all {len(exp.run_names)} runs (ranked='all'" in every.notes
    import matplotlib

    matplotlib.use("Agg")
    axes = rep.figure()
    assert len(axes) == 2 and len(axes[0].get_lines()) == rep.table["(a) mean score"].shape[1]


def test_needs(collection):
    exp = collection.experiment
    with pytest.raises(ReproductionNeeds, match="manual"):
        irnb.reproduce("buttcher2007-table3", exp)
    with pytest.raises(ReproductionNeeds, match="document texts"):
        irnb.reproduce("buttcher2007-table6", exp)
    with pytest.raises(ValueError, match="methods must name"):
        irnb.reproduce("buttcher2007-table7", collection, methods=("nb",))
    with pytest.raises(ValueError, match="max_groups must be an integer"):
        irnb.reproduce("buttcher2007-table5", collection, max_groups=0)
    with pytest.raises(ValueError, match="depth must be"):
        irnb.reproduce("buttcher2007-table2", collection, depth=0)


# ---------------------------------------------------------------------------- real data
@pytest.fixture(scope="session")
def covid(covid_dir):
    from irnb.datasets.real import trec_covid_leaderboard, trec_covid_round1

    exp = trec_covid_round1(covid_dir)
    board = trec_covid_leaderboard(covid_dir)
    return exp, [r for r in exp.run_names if board.loc[r, "runtype"] == "manual"]


def test_covid_ap_under_bpref_over(covid):
    exp, manual = covid
    rep = irnb.reproduce("buttcher2007-table2", exp, label="TREC-COVID round 1")
    assert "pool depth 7" in rep.notes
    assert [c.holds for c in rep.headline.claims] == [True, True]  # AP underestimates, bpref overestimates
    from irnb.papers.buttcher import UP, DOWN

    assert rep.table.loc[DOWN, "Avg. Prec."] > rep.table.loc[UP, "Avg. Prec."]
    assert rep.table.loc[UP, "bpref"] > rep.table.loc[DOWN, "bpref"]
    pool_only = irnb.reproduce("buttcher2007-table3", exp, manual=manual, ranked="pool")
    assert "τ over the 56 pool runs" in pool_only.notes
    with pytest.raises(ValueError, match="ranked must be one of"):
        irnb.reproduce("buttcher2007-table2", exp, ranked="some")
    t4 = irnb.reproduce("buttcher2007-table4", exp, manual=manual).table
    assert t4.loc["# Judged", "Orig. qrels"] == 8691
    with pytest.raises(ReproductionNeeds, match="document texts"):
        irnb.reproduce("buttcher2007-table7", exp)


def test_clef_runs_without_contributors(shared_dir):
    from irnb.datasets.real import clef_ehealth_2016_task2

    folder = shared_dir / "data" / "clef-ehealth-2016-irtask2"
    if not folder.exists():
        pytest.skip(f"needs {folder}")
    exp = clef_ehealth_2016_task2(folder)
    rep = irnb.reproduce("buttcher2007-table2", exp, label="CLEF eHealth 2016")
    # no run marked: Büttcher et al.'s rule, the runs whose top d (3, inferred) is judged on every topic
    from irnb.pooling import judged_depth

    covered = int((judged_depth(exp) >= 3).sum())
    assert 0 < covered < len(exp.run_names)
    assert f"the {covered} runs whose top 3 the qrels judge on every topic they answer" in rep.notes
    assert irnb.reproduce("buttcher2007-table1", exp).table.loc["Runs in pool", "value"] == covered
