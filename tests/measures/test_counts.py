"""The counts (irnb.measures.counts), by hand on one small ranking."""

from __future__ import annotations

from one_topic import one_topic

# ranks 1-4: a b x c; relevant a, c (retrieved) and d (not); b judged non-relevant; e has a
# negative grade (judged nothing); x is not in the qrels
GRADES = {"a": 1, "b": 0, "c": 2, "d": 1, "e": -1}


def test_hand_computed_values():
    values = one_topic("a b x c", GRADES, ["num_q", "NumRet", "NumRet@2", "NumRel", "NumRelRet",
                                           "NumNonRelJudgedRet"])
    assert values == {"num_q": 1, "NumRet": 4, "NumRet@2": 2, "NumRel": 3, "NumRelRet": 2, "NumNonRelJudgedRet": 1}


def test_an_unjudged_document_is_not_a_judged_non_relevant_one():
    """x (not in the qrels) is retrieved but not counted; judged 0, it is."""
    assert one_topic("a b x c", {**GRADES, "x": 0}, ["NumNonRelJudgedRet"])["NumNonRelJudgedRet"] == 2
