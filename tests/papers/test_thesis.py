"""The verdict rules of the thesis chapter's reproductions (irnb.papers.thesis) and the rule
that picks their example runs: each rule fails on a made-up counter-example and holds on
another; the example pair is a fixed draw that looks at no score and no judgment."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb.papers import thesis as T


# ---------------------------------------------------------------------------- the rules, by hand
def test_far_more_unjudged():
    assert T._far_more(150, 100) and T._far_more(3, 0)
    assert not T._far_more(140, 100)  # more, but not 1.5 times
    assert not T._far_more(100, 150)
    assert T._far_more(0, 0) is None  # nothing to compare


def test_small_overlap():
    assert T._small_overlap(13, 234, 150) and T._small_overlap(75, 150, 234)
    assert not T._small_overlap(76, 150, 234)
    assert T._small_overlap(0, 0, 10) is None  # one run has nothing unjudged: no overlap to measure


def test_many_unjudged_without_loss_counts_topics():
    unjudged = [5, 10, 4, 8, 12]
    diff = [0.0, -0.05, 0.2, -0.1, 0.05]  # one document of 20 lost is allowed, two are not
    assert T._many_without_loss(unjudged, diff, 20) == 3  # topics 1, 2 and 5 (topic 3 has 4 < 5 unjudged)
    assert T._many_without_loss([1, 2, 3], [0.5, 0.5, 0.5], 20) == 0


def test_worse_queries_have_more_unjudged():
    holds, rho, p = T._worse_has_more_unjudged([10, 8, 6, 4, 2, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert holds and rho == pytest.approx(-1.0) and p < 0.05
    holds, rho, _ = T._worse_has_more_unjudged([0, 2, 4, 6, 8, 10], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert holds is False and rho == pytest.approx(1.0)
    holds, _, p = T._worse_has_more_unjudged([3, 1, 2], [0.1, 0.2, 0.3])  # negative but weak: no evidence
    assert holds is False and p >= 0.05
    assert T._worse_has_more_unjudged([2, 2, 2], [0.1, 0.2, 0.3])[0] is None


def test_peaks_have_few_nonrelevant():
    gain = [0.5, 0.4, 0.3, 0.01, 0.0]
    assert T._peaks_have_few_nonrelevant(gain, [0, 1, 2, 9, 9], 20)
    assert not T._peaks_have_few_nonrelevant(gain, [0, 3, 2, 0, 0], 20)  # the second peak has 3 > 2
    assert T._peaks_have_few_nonrelevant([0.0, 0.0], [0, 0], 20) is None


# ---------------------------------------------------------------------------- the example-run rule
def test_example_pair_is_a_fixed_draw_of_non_contributors_of_one_group():
    names = [f"r{i}" for i in range(8)]
    groups = ["g1", "g1", "g2", "g2", "g2", "g3", "g3", "g4"]
    contributors = [True, False, True, False, False, True, False, False]
    a, b, words, by_kind = T._example_pair(names, groups, contributors)
    assert (a, b) == T._example_pair(names, groups, contributors)[:2]  # the same every time
    assert not by_kind and "The data marks no run kinds" in words and "depends on it" in words
    # g2 is the only group with two runs that did not contribute
    assert {a, b} == {"r3", "r4"} and "fixed draw (numpy default_rng(0))" in words
    assert "looks at no score and no judgment" in words
    # another seed may draw the other order: the order is drawn, not chosen by the result
    orders = {T._example_pair(names, groups, contributors, seed=s)[:2] for s in range(10)}
    assert orders == {("r3", "r4"), ("r4", "r3")}


def test_example_pair_falls_back_to_all_runs_and_keeps_given_runs():
    names, groups = ["a", "b", "c"], ["g", "h", "i"]
    a, b, words, _ = T._example_pair(names, groups, [True, True, False])
    assert a != b and "all runs (fewer than two did not contribute to the pool)" in words
    a, b, words, _ = T._example_pair(["a", "b", "c", "d"], ["g", "g", "h", "h"], [False] * 4, run_b="c")
    assert (a, b) == ("d", "c") and "lvl0 drawn" in words  # c's group-mate
    assert T._example_pair(names, groups, [False] * 3, run_a="b", run_b="a")[:2] == ("b", "a")


def test_example_pair_roles_follow_the_kinds():
    """Where runs carry kinds, lvl1 is the non-pooled run of the kind that stands in for the
    chapter's semantic system and lvl0 a non-pooled run of another kind: swapping the kinds
    swaps the roles; a pooled run of that kind is never lvl1; kinds with no candidate of one
    role fall back to the kind-free draw, which says so."""
    names = ["p", "x", "y", "z"]
    groups = ["g", "g", "g", "h"]
    contributors = [True, False, False, False]
    a, b, words, by_kind = T._example_pair(names, groups, contributors, ["novel", "popular", "novel", "keyword"])
    assert (a, b) == ("x", "y") and by_kind and "Roles as in the chapter" in words
    a, b, _, by_kind = T._example_pair(names, groups, contributors, ["novel", "novel", "popular", "keyword"])
    assert (a, b) == ("y", "x") and by_kind  # kinds swapped: roles swapped
    for seed in range(10):  # whatever the draw, lvl1 is of the new kind and lvl0 is not
        a, b, _, _ = T._example_pair(names, groups, contributors, ["novel", "popular", "popular", "novel"], seed=seed)
        assert b == "z" and a in ("x", "y")
    a, b, words, by_kind = T._example_pair(names, groups, contributors, ["novel", "popular", "popular", "keyword"])
    assert not by_kind and "No candidate pair has one run of kind 'novel'" in words and "depends on it" in words
    a, b, _, by_kind = T._example_pair(names, groups, contributors, ["popular", "popular", "novel", "keyword"],
                                       run_a="z")
    assert (a, b, by_kind) == ("z", "y", True)  # the given lvl0 stays; lvl1 drawn by kind


def test_thesis_setting_roles_swap_with_the_kinds():
    """On the thesis setting, lvl1 is a novel run; relabel the drawn pair's kinds and the two
    runs swap roles (the draw reads the kinds, not the runs' results)."""
    import dataclasses

    from irnb.datasets import paper_setting

    c = paper_setting("thesis")
    a, b = irnb.reproduce("thesis-fig7.1", c).details["pair"].iloc[0][["run_a", "run_b"]]
    info = c.run_info.set_index("run")
    assert info.loc[b, "kind"] == "novel" and info.loc[a, "kind"] != "novel"
    assert not info.loc[a, "contributor"] and not info.loc[b, "contributor"]
    swapped = c.run_info.copy()
    swapped.loc[swapped["run"] == a, "kind"], swapped.loc[swapped["run"] == b, "kind"] = "novel", info.loc[a, "kind"]
    pair = irnb.reproduce("thesis-fig7.1", dataclasses.replace(c, run_info=swapped)).details["pair"].iloc[0]
    assert (pair["run_a"], pair["run_b"]) == (b, a)


def test_kind_free_pair_notes_the_swapped_claim():
    rep = irnb.reproduce("thesis-fig7.1", irnb.datasets.default())  # its novel runs are all pooled
    t = rep.table
    ua, ub = int(t["unjudged_a"].sum()), int(t["unjudged_b"].sum())
    swapped = T._far_more(ua, ub)
    assert "claim 1 (far more unjudged documents in lvl1) depends on it" in rep.notes
    assert f"claim 1 {'holds' if swapped else 'fails'}." in rep.notes


def test_example_pair_ignores_the_runs_results():
    """The counter-example to a result-built choice: two runs of one group that did not
    contribute, one with every document unjudged, one fully judged. The draw is the same
    whichever of them the qrels cover, so lvl1 is not picked for its unjudged documents."""
    rows = [{"run": r, "qid": "1", "docno": f"{r}{i}", "score": float(9 - i)} for r in ("p", "x", "y")
            for i in range(4)]

    def exp(judged_run):
        qrels = pd.DataFrame({"qid": "1", "docno": [f"{judged_run}{i}" for i in range(4)] + ["p0"], "grade": 1})
        return irnb.Experiment(pd.DataFrame(rows), qrels, groups={"p": "g0", "x": "g", "y": "g"}, contributors=["p"])

    first = irnb.reproduce("thesis-fig7.1", exp("x"), k=4).details["pair"].iloc[0][["run_a", "run_b"]].tolist()
    second = irnb.reproduce("thesis-fig7.1", exp("y"), k=4).details["pair"].iloc[0][["run_a", "run_b"]].tolist()
    assert first == second and set(first) == {"x", "y"}


# ---------------------------------------------------------------------------- the headlines
@pytest.fixture(scope="module")
def reps():
    return {i: irnb.reproduce(i) for i in ("thesis-fig7.1", "thesis-fig7.2")}


def test_fig71_claims(reps):
    rep = reps["thesis-fig7.1"]
    t = rep.table
    ua, ub, ov = (int(t[c].sum()) for c in ("unjudged_a", "unjudged_b", "overlap"))
    far, small, many = rep.headline.claims
    assert far.holds == T._far_more(ub, ua) and far.irnb.startswith(f"lvl1 {ub} (")
    assert small.holds == T._small_overlap(ov, ua, ub)
    assert small.irnb == f"{ov} shared of {min(ua, ub)} (the smaller set)"
    assert many.holds == (T._many_without_loss(t["unjudged_b"], t["ΔP@20 (b − a)"], 20) >= 3)
    assert "fixed draw" in rep.notes and "no semantic system contributed to the pool" in rep.notes


def test_fig72_states_no_construction_true_claim(reps):
    rep = reps["thesis-fig7.2"]
    assert [c.paper for c in rep.headline.claims] == [
        "the worst performing queries tend to have a higher number of unjudged documents",
        "the queries with nearly only relevant and unjudged documents (few or no irrelevant) gain most"]
    assert "X_I ≥ B by construction" in rep.notes
    t = rep.table
    assert (t["simulated"] >= t["original"] - 1e-12).all()  # why the share that rises is no claim
    gain = (t["simulated"] - t["original"]).to_numpy()
    assert rep.headline.claims[1].holds == T._peaks_have_few_nonrelevant(gain, t["nonrelevant"].to_numpy(), 20)
    top = np.argsort(-gain, kind="stable")[:3]
    assert rep.headline.claims[1].irnb.startswith(", ".join(str(int(v)) for v in t["nonrelevant"].to_numpy()[top]))
