"""nDCG (irnb.measures.ndcg), worked out by hand on one small ranking."""

from __future__ import annotations

import math

import pytest

from one_topic import one_topic

# ranks 1-3: a b c with grades 1 0 2; the ideal ranking is c a
GRADES = {"a": 1, "b": 0, "c": 2}
IDEAL = 2 / math.log2(2) + 1 / math.log2(3)  # 2.6309


def test_hand_computed_values():
    values = one_topic("a b c", GRADES, ["nDCG", "nDCG@1"])
    assert values["nDCG"] == pytest.approx((1 / math.log2(2) + 2 / math.log2(4)) / IDEAL, abs=1e-12)  # 0.7602
    assert values["nDCG@1"] == pytest.approx(1 / 2, abs=1e-12)  # ideal at 1: grade 2


def test_gains_are_graded():
    """a and c swapped: the grade-2 document first gives the ideal ranking; binary gains would
    leave the value unchanged."""
    assert one_topic("c b a", GRADES, ["nDCG"])["nDCG"] == pytest.approx((2 + 1 / math.log2(4)) / IDEAL)
    assert one_topic("c a b", GRADES, ["nDCG"])["nDCG"] == pytest.approx(1.0)
