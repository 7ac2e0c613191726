"""The verdict rules of the Ravana & Moffat reproductions (irnb.papers.ravana): each rule
fails on a made-up counter-example and holds on another, and each reproduction's headline
is the list of the paper's claims, judged by those rules."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb.papers import ravana as R


# ---------------------------------------------------------------------------- the rules, by hand
def test_fig1_fit_well_below_the_average():
    assert R._well_below_average(0.043, 0.202)  # the paper's numbers: about a fifth
    assert not R._well_below_average(0.15, 0.202)  # positive but more than half of the average
    assert not R._well_below_average(-0.01, 0.202)  # the cubic dips below zero
    assert R._well_below_average(0.101, 0.202)  # exactly half holds


def test_fig1_e_not_an_overestimate():
    assert R._not_an_overestimate(0.043) and R._not_an_overestimate(0.01)
    assert not R._not_an_overestimate(0.004)


def test_mostly_is_more_than_half():
    assert R._mostly([True, True, False])
    assert not R._mostly([True, False])  # half is not "mostly"
    assert not R._mostly([])


def test_table1_within_ten_percent_of_the_final_value():
    assert R._within_of_final([0.9, 0.5], [1.0, 1.0]).tolist() == [True, False]


def test_table1_residuals_larger_by_a_test():
    holds, p = R._larger_by_test([0.5, 0.6, 0.7, 0.8, 0.9], [0.1, 0.2, 0.3, 0.2, 0.1])
    assert holds and p < 0.05
    # larger on average, but by one run only: no evidence
    holds, p = R._larger_by_test([0.1, 0.2, 0.3, 0.9], [0.15, 0.2, 0.25, 0.3])
    assert not holds and p >= 0.05
    assert R._larger_by_test([0.2, 0.2], [0.2, 0.2]) == (False, 1.0)  # all equal: no difference


def test_table1_residuals_comparable_within_a_factor_two():
    assert R._comparable([0.2, 0.2, 0.2, 0.0], [0.2, 0.1, 0.05, 0.0]).tolist() == [True, True, False, False]


def test_table1_above_and_below_need_the_margin():
    final = np.array([0.4, 0.4, 0.0])
    assert R._above([0.43, 0.41, 0.1], final).tolist() == [True, False, True]  # 0.41 is only 2.5 % above
    assert R._below([0.37, 0.39, 0.0], final).tolist() == [True, False, False]


def test_order_and_separability_margins():
    assert R._separates_more(0.60, 0.55) and not R._separates_more(0.60, 0.59)
    assert R._separates_more(0.30, 0.28)  # exactly the margin holds (0.30 − 0.28 is 0.0199… in floats)
    assert R._high_separability(0.689) and not R._high_separability(0.145)


def test_table3_recanting_rules():
    assert R._recants_little([7.0, 8.4]) and not R._recants_little([7.0, 10.0])
    assert R._recants_more(17.9, 1.1) and not R._recants_more(4.2, 2.4)


def test_order_claims_fail_when_x_m_ties_x_s():
    mean = pd.DataFrame({"X_S": [0.60], "X_B": [0.60], "X_I": [0.30], "X_M": [0.59], "interval": [0.10]},
                        index=["P@10"])
    fail, low = R._order_claims(mean, "over the budgets")
    assert fail.holds is False and low.holds is True
    mean.loc["P@10", "X_M"] = 0.50
    mean.loc["P@10", "interval"] = 0.28
    assert [c.holds for c in R._order_claims(mean, "over the budgets")] == [True, True]
    mean.loc["P@10", "interval"] = 0.29  # within 2 points of X_I: not the fewest by the margin
    assert [c.holds for c in R._order_claims(mean, "over the budgets")] == [True, False]


def test_table3_claims_untested_when_nothing_is_significant():
    index = pd.MultiIndex.from_product([list(R.MEASURES), list(R.METHODS), ["shallow", "medium"]],
                                       names=["measure", "method", "judgments"])
    table = pd.DataFrame({"significant": 0.0, "pairs": 10.0, "recanted at medium (%)": np.nan,
                          "recanted at deep (%)": np.nan}, index=index)
    claims = R._table3_claims(table, ["recanted at medium (%)", "recanted at deep (%)"], 10)
    assert [c.holds for c in claims] == [None, None, False]
    assert claims[0].reason == "no pair is significant with X_S or X_B at the shallow budget"


def test_claims_under_both_sides_depend_on_the_reading_when_they_flip():
    """A claim that holds at the one-sided level (two-sided p < 0.02) but not at the two-sided
    one depends on the reading; one that holds (or fails) under both does not."""
    def claims_at(alpha):
        return [R.Claim("flips", f"alpha {alpha}", "separable", alpha > R.ALPHA),
                R.Claim("steady", f"alpha {alpha}", "separable", True)]

    (flips, steady), one_sided = R._under_both_sides(claims_at)
    assert flips.depends and flips.outcome == "depends on the reading (two-sided: fails, one-sided: holds)"
    assert flips.holds is False and flips.irnb == "alpha 0.01"  # irnb's reading, two-sided
    assert not steady.depends and steady.outcome == "holds"
    assert R.Headline("x", [flips, steady]).verdict == "depends on the reading"
    assert R._one_sided_text(one_sided) == (" Under the one-sided reading (two-sided p < 0.02): claim 1: alpha 0.02 "
                                            "(holds); claim 2: alpha 0.02 (holds).")


# ---------------------------------------------------------------------------- the headlines
@pytest.fixture(scope="module")
def reps():
    return {i: irnb.reproduce(i) for i in ("ravana2010-fig1", "ravana2010-table1", "ravana2010-table2",
                                           "ravana2010-table3")}


def test_table1_states_no_construction_true_claim(reps):
    rep = reps["ravana2010-table1"]
    assert not any("non-decreasing" in c.paper or "never decreases" in c.paper for c in rep.headline.claims)
    assert "X_S = B never decreases as judgments are added is no claim to test" in rep.notes
    assert len(rep.headline.claims) == 6


def test_table1_claims_follow_the_table(reps):
    rep = reps["ravana2010-table1"]
    t = rep.table
    B = t.loc["(a) B"]
    within = (B.xs("medium", axis=1, level="judgments") >= 0.9 * B.xs("deep", axis=1, level="judgments"))
    first = rep.headline.claims[0]
    assert first.holds == (within.to_numpy().mean() > 0.5)
    assert first.irnb.startswith(f"within in {int(within.to_numpy().sum())} of {within.size} cells")
    shallow_xm = t.loc["(d) X_M"].xs("shallow", axis=1, level="judgments")
    final = B.xs("deep", axis=1, level="judgments")
    assert rep.headline.claims[4].holds == bool((shallow_xm <= 0.95 * final).to_numpy().all())


def test_fig1_truth_claim_is_untested_without_truth():
    from irnb.datasets import default

    c = default()
    plain = irnb.Experiment(c.experiment.runs, c.experiment.qrels, contributors=[
        r for r, on in zip(c.experiment.run_names, c.experiment.contributors, strict=True) if on])
    rep = irnb.reproduce("ravana2010-fig1", plain, depths=(10, 100))
    truth_claim = rep.headline.claims[2]
    assert truth_claim.holds is None and "has no complete truth" in truth_claim.reason


def test_significance_sides_are_stated_as_irnbs_choice(reps):
    assert "two-sided: irnb's choice (the paper does not say which sides its experiments used" in \
        reps["ravana2010-table2"].notes
    for i in ("ravana2010-table2", "ravana2010-table3"):
        rep = reps[i]
        assert "two-sided: irnb's choice" in rep.notes and "Under the one-sided reading (two-sided p < 0.02)" in rep.notes
        assert all(set(c.readings) == {"two-sided", "one-sided"} for c in rep.headline.claims)
        assert all(c.holds == c.readings["two-sided"] for c in rep.headline.claims)


def test_one_run_set_leaves_the_residual_claims_untested(shared_dir):
    from irnb.datasets.real import clef_ehealth_2016_task2

    folder = shared_dir / "data" / "clef-ehealth-2016-irtask2"
    if not folder.exists():
        pytest.skip(f"needs {folder}")
    rep = irnb.reproduce("ravana2010-table1", clef_ehealth_2016_task2(folder))
    claims = rep.headline.claims
    assert claims[1].holds is None and claims[2].holds is None
    assert "the data has only contributing runs" in claims[1].reason
