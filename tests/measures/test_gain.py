"""Buckley's gain measures G and binG (irnb.measures.gain), worked out by hand."""

from __future__ import annotations

import math

import pytest

from one_topic import one_topic

# ranks 1-4: a b c d with grades 1 0 0 2; ideal gains 2 1, so R = 2 and Σ ideal gains = 3
GRADES = {"a": 1, "b": 0, "c": 0, "d": 2}


def test_hand_computed_values():
    values = one_topic("a b c d", GRADES, ["G", "BinG"])
    # cost_i = Σ max(ideal gain, 1) = 2 3 4 5; gained so far 1 1 1 3: a adds 1/log2(2 + 2 − 1),
    # d adds 2/log2(2 + 5 − 3)
    assert values["G"] == pytest.approx((1 / math.log2(3) + 2 / math.log2(4)) / 3, abs=1e-12)  # 0.5436
    # binG: not relevant above a 0, above d 2
    assert values["BinG"] == pytest.approx((1 / math.log2(2) + 1 / math.log2(4)) / 2, abs=1e-12)  # 0.75


def test_bin_g_ignores_the_grade_and_g_does_not():
    """d graded 1 instead of 2: binG is unchanged, G is not."""
    flat = one_topic("a b c d", {**GRADES, "d": 1}, ["G", "BinG"])
    assert flat["BinG"] == pytest.approx(0.75)
    # ideal gains 1 1: cost 1 2 3 4; a adds 1/log2(2 + 1 − 1), d adds 1/log2(2 + 4 − 2)
    assert flat["G"] == pytest.approx((1 / math.log2(2) + 1 / math.log2(4)) / 2, abs=1e-12)
