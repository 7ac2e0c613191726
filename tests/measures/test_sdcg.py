"""Scaled DCG@k (irnb.measures.sdcg), worked out by hand on one small ranking."""

from __future__ import annotations

import math

import pytest

from one_topic import one_topic


def test_hand_computed_values():
    # ranks 1-3: a b c, b and c relevant; the denominator is an all-relevant top 3, whatever R is
    value = one_topic("a b c", {"a": 0, "b": 1, "c": 1}, ["SDCG@3"])["SDCG@3"]
    assert value == pytest.approx((1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / 2),
                                  abs=1e-12)  # 0.5307


def test_gains_are_binary():
    """c graded 2 instead of 1 leaves SDCG unchanged."""
    grades = {"a": 0, "b": 1, "c": 1}
    assert one_topic("a b c", {**grades, "c": 2}, ["SDCG@3"]) == one_topic("a b c", grades, ["SDCG@3"])
