"""Measure names (irnb.measures.names): both spellings of a name (ir_measures' and
trec_eval's), canonical names, and parse errors that teach."""

from __future__ import annotations

import pytest

from irnb.measures import Measure, parse_measure, parse_measures

# every accepted spelling → its canonical name
SPELLINGS = {
    # ir_measures
    "P@10": "P@10",
    "AP": "AP",
    "AP@100": "AP@100",
    "nDCG@20": "nDCG@20",
    "RR": "RR",
    "R@100": "R@100",
    "Rprec": "Rprec",
    "Bpref": "Bpref",
    "infAP": "infAP",
    "RBP(p=0.8)": "RBP(p=0.8)",
    "Judged@10": "Judged@10",
    "P(rel=2)@10": "P(rel=2)@10",
    "P@20(j)": "P@20(j)",
    # trec_eval
    "P_10": "P@10",
    "P.10": "P@10",
    "map": "AP",
    "map_cut_100": "AP@100",
    "ndcg_cut_20": "nDCG@20",
    "recip_rank": "RR",
    "recall_100": "R@100",
    "bpref": "Bpref",
    "success_5": "Success@5",
    "unj_10": "Unj@10",
    "num_ret": "NumRet",
    # more trec_eval names (all_trec)
    "ndcg": "nDCG",
    "gm_map": "GMAP",
    "num_q": "num_q",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet",
    "iprec_at_recall_0.10": "IPrec@0.1",
    "iprec_at_recall_1.00": "IPrec@1",
    "11pt_avg": "ElevenPointAP",
    "Rprec_mult_0.20": "RprecMult(mult=0.2)",
    "relative_P_5": "RelP@5",
    "set_P": "SetP",
    "set_recall": "SetR",
    "set_F": "SetF(beta=1)",
    "set_map": "SetAP",
    "set_relative_P": "SetRelP",
    "utility": "Utility(a=1,b=-1,c=0)",
    "gm_bpref": "GMBpref",
    "ndcg_rel": "nDCGRel",
    "Rndcg": "RnDCG",
    "binG": "BinG",
    "G": "G",
    "rbp": "RBP(p=0.9,gain=graded)",
    "rbp_resid": "RBPResidual(p=0.9,tail=if_unjudged)",
    # aliases and other forms
    "MAP": "AP",
    "NDCG@5": "nDCG@5",
    "MRR": "RR",
    "NumQ": "num_q",
    "RBP": "RBP(p=0.8)",
    "RBP(p=0.8,gain=binary)": "RBP(p=0.8)",
    "RBP(gain=graded,p=0.5)@10": "RBP(p=0.5,gain=graded)@10",
    "IPrec@0.5": "IPrec@0.5",
    "IPrec(recall=0.5)": "IPrec@0.5",
    "AP(j)": "AP(j)",
    "nDCG@10(j)": "nDCG@10(j)",
    "P(rel=2)@5(j)": "P(rel=2)@5(j)",
    " P@10 ": "P@10",
}


@pytest.mark.parametrize("text", list(SPELLINGS))
def test_spellings(text):
    measure = parse_measure(text)
    assert measure.name == SPELLINGS[text]
    assert str(measure) == SPELLINGS[text]
    assert parse_measure(measure.name) == measure


def test_parsed_fields():
    m = parse_measure("P(rel=2)@10")
    assert (m.family, m.cutoff, m.rel) == ("P", 10, 2)
    assert parse_measure("RBP(p=0.8)").param("p") == 0.8
    assert parse_measure("rbp").params == (("p", 0.9), ("gain", "graded"))  # trec_eval's p = 0.9
    assert parse_measure("P@20(j)").family == "Pj"
    assert parse_measure("iprec_at_recall_0.10").param("recall") == 0.1
    assert parse_measure("map_cut_100") == parse_measure("AP@100")
    assert parse_measure("P.10") == parse_measure("P_10") == Measure("P", 10)


def test_unknown_names_get_did_you_mean():
    with pytest.raises(ValueError, match=r"unknown measure 'nDGC@10'; did you mean 'nDCG'"):
        parse_measure("nDGC@10")
    with pytest.raises(ValueError, match=r"unknown measure 'Bperf'; did you mean 'Bpref'"):
        parse_measure("Bperf")
    with pytest.raises(ValueError, match=r"unknown measure 'recip_rnak'; did you mean 'recip_rank'"):
        parse_measure("recip_rnak")
    with pytest.raises(ValueError, match=r"unknown measure 'ap'.*did you mean.*'AP'"):
        parse_measure("ap")
    with pytest.raises(ValueError, match=r"^unknown measure 'zzzz'$"):  # nothing close: no hint
        parse_measure("zzzz")


def test_trec_names_are_never_matched_by_substring():
    """ranx's "rbp" in name turns rbp@0.8 into rbp@0; here it is an error with a hint."""
    with pytest.raises(ValueError, match=r"unknown measure 'rbp@0.8'; did you mean 'RBP'\?"):
        parse_measure("rbp@0.8")
    with pytest.raises(ValueError, match=r"unknown measure 'xmap'"):
        parse_measure("xmap")
    with pytest.raises(ValueError, match=r"unknown measure 'P_10x'"):
        parse_measure("P_10x")


@pytest.mark.parametrize(("text", "message"), [
    ("RBP(p=1.5)", r"measure 'RBP\(p=1.5\)': p must be a number with 0 < p < 1, got 1.5"),
    ("RBP(p=0)", r"p must be a number with 0 < p < 1, got 0"),
    ("RBP(p=high)", r"p must be a number with 0 < p < 1, got 'high'"),
    ("P@0", r"measure 'P@0': measurement depth k must be an integer ≥ 1, got 0"),
    ("P@-3", r"measurement depth k must be an integer ≥ 1, got -3"),
    ("P@2.5", r"measurement depth k must be an integer ≥ 1, got 2.5"),
    ("P_0", r"measure 'P_0': measurement depth k must be an integer ≥ 1, got 0"),
    ("P(rel=0)@10", r"rel must be an integer ≥ 1, got 0"),
    ("IPrec@1.5", r"recall must be a number with 0 ≤ recall ≤ 1, got 1.5"),
    ("Rprec_mult_0", r"mult must be a number > 0, got 0"),
    ("SetF(beta=-1)", r"beta must be a number ≥ 0, got -1"),
    ("RBP(gain=fancy)", r"gain must be one of 'binary' or 'graded', got 'fancy'"),
    ("RBPResidual(tail=never)", r"tail must be one of 'always' or 'if_unjudged', got 'never'"),
])
def test_out_of_bounds_parameters(text, message):
    with pytest.raises(ValueError, match=message):
        parse_measure(text)


@pytest.mark.parametrize(("text", "message"), [
    ("P", r"measure 'P' is trec_eval's list P_5, P_10, .* \(9 measures\): name one \(e.g. 'P_10' or 'P@10'\)"),
    ("Bpref@10", r"measure 'Bpref@10': Bpref takes no cutoff \(@k\)"),
    ("RBP(q=0.5)", r"unknown parameter 'q' for RBP \(allowed: rel, p, gain\)"),
    ("Bpref(p=1)", r"unknown parameter 'p' for Bpref \(allowed: rel\)"),
    ("Judged(rel=2)@10", r"Judged does not depend on the relevance level; drop rel="),
    ("nDCG(rel=2)@10", r"nDCG does not depend on the relevance level; drop rel="),
    ("G(rel=2)", r"G does not depend on the relevance level; drop rel="),
    ("nDCG(rel=2)@10(j)", r"nDCGj does not depend on the relevance level; drop rel="),
    ("RBP(p=0.8,gain=graded,rel=2)", r"measure 'RBP\(p=0.8,gain=graded,rel=2\)': RBP with gain=graded does not "
                                     r"depend on the relevance level; drop rel="),
    ("RBP(p=0.5,p=0.6)", r"parameter 'p' given twice"),
    ("RBP(0.5)", r"expected parameters as name=value, got '0.5'"),
    ("IPrec", r"IPrec needs recall, a number with 0 ≤ recall ≤ 1, e.g. IPrec@0.5"),
    ("iprec_at_recall", r"trec_eval's list iprec_at_recall_0, iprec_at_recall_0.1, .*'IPrec@0.1'"),
    ("", r"measure name is empty"),
])
def test_malformed_names(text, message):
    with pytest.raises(ValueError, match=message):
        parse_measure(text)


def test_parse_measures_keeps_order_and_drops_duplicates():
    got = parse_measures(["map", "P_10", "AP", "P@10", "RBP", "RBP(p=0.8)"])
    assert [m.name for m in got] == ["AP", "P@10", "RBP(p=0.8)"]
    assert [m.name for m in parse_measures("ndcg_cut_5")] == ["nDCG@5"]
    with pytest.raises(ValueError, match="expected at least one measure, got none"):
        parse_measures([])
