"""Precision and the measures built on it (irnb.measures.precision), by hand on one small
ranking."""

from __future__ import annotations

import pytest

from one_topic import one_topic

# ranks 1-4: a b c d; b and d relevant; e relevant but not retrieved, so R = 3
GRADES = {"a": 0, "b": 1, "c": 0, "d": 1, "e": 1}


def test_hand_computed_values():
    values = one_topic("a b c d", GRADES, ["P@2", "P@4", "P@8", "Rprec", "RR", "R@4", "Success@1", "Success@2",
                                           "RelP@2"])
    assert values["P@2"] == pytest.approx(1 / 2, abs=1e-12)
    assert values["P@4"] == pytest.approx(2 / 4, abs=1e-12)
    assert values["P@8"] == pytest.approx(2 / 8, abs=1e-12)  # a run shorter than k is still divided by k
    assert values["Rprec"] == pytest.approx(1 / 3, abs=1e-12)  # top R = 3: a b c
    assert values["RR"] == pytest.approx(1 / 2, abs=1e-12)
    assert values["R@4"] == pytest.approx(2 / 3, abs=1e-12)
    assert (values["Success@1"], values["Success@2"]) == (0.0, 1.0)
    assert values["RelP@2"] == pytest.approx(1 / 2, abs=1e-12)  # 1 / min(2, R = 3)


def test_a_higher_relevance_level_turns_lower_grades_non_relevant():
    """With rel=2 only the grade-2 document d counts."""
    graded = {**GRADES, "d": 2}
    assert one_topic("a b c d", graded, ["P(rel=2)@4"])["P(rel=2)@4"] == pytest.approx(1 / 4)
    assert one_topic("a b c d", graded, ["P@4"])["P@4"] == pytest.approx(2 / 4)
