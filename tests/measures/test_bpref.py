"""Bpref and its relatives (irnb.measures.bpref), worked out by hand on one small ranking."""

from __future__ import annotations

import pytest

from one_topic import one_topic

# ranks 1-4: a b c d; b and d relevant (R = 2); a, c and e judged non-relevant (N = 3)
GRADES = {"a": 0, "b": 1, "c": 0, "d": 1, "e": 0}


def test_hand_computed_values():
    values = one_topic("a b c d", GRADES, ["Bpref", "Bpref10", "RankEff"])
    # non-relevant above b: 1, above d: 2
    assert values["Bpref"] == pytest.approx(((1 - 1 / 2) + (1 - 2 / 2)) / 2, abs=1e-12)  # min(N, R) = 2
    assert values["Bpref10"] == pytest.approx(((1 - 1 / 3) + (1 - 2 / 3)) / 2, abs=1e-12)  # min(N, R + 10) = 3
    assert values["RankEff"] == pytest.approx(((1 - 1 / 3) + (1 - 2 / 3)) / 2, abs=1e-12)  # over N = 3


def test_an_unjudged_document_above_is_not_counted():
    """x is not in the qrels: ranked above b, it leaves b's term at 1 where a judged non-relevant
    document there would lower it."""
    assert one_topic("x b", {"b": 1, "a": 0}, ["Bpref"])["Bpref"] == pytest.approx(1.0)
    assert one_topic("a b", {"b": 1, "a": 0}, ["Bpref"])["Bpref"] == pytest.approx(0.0)  # 1 − min(1, 1)/min(1, 1)
