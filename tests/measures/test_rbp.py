"""Rank-biased precision and its residual (irnb.measures.rbp), worked out by hand."""

from __future__ import annotations

import pytest

from one_topic import one_topic


def test_hand_computed_values():
    # ranks 1-3: a b c, b and c relevant: (1 − p)(p + p²)
    assert one_topic("a b c", {"a": 0, "b": 1, "c": 1}, ["RBP(p=0.5)"])["RBP(p=0.5)"] == \
        pytest.approx(0.5 * (0.5 + 0.5 ** 2), abs=1e-12)  # 0.375
    # ranks 1-3: a x b, x unjudged: (1 − p)·p for x at rank 2, plus the tail p³ past the run
    assert one_topic("a x b", {"a": 1, "b": 1}, ["RBPResidual(p=0.5)"])["RBPResidual(p=0.5)"] == \
        pytest.approx(0.5 * 0.5 + 0.5 ** 3, abs=1e-12)  # 0.375


def test_graded_gain_is_the_grade_over_the_highest():
    # b grade 1, c grade 2: gains over the topic's top judged grade, 1/2 and 2/2
    values = one_topic("a b c", {"a": 0, "b": 1, "c": 2}, ["RBP(p=0.5)", "RBP(p=0.5,gain=graded)"])
    assert values["RBP(p=0.5)"] == pytest.approx(0.5 * (0.5 + 0.5 ** 2))
    assert values["RBP(p=0.5,gain=graded)"] == pytest.approx(0.5 * (0.5 * 1 / 2 + 0.5 ** 2 * 2 / 2))
