"""Average precision (irnb.measures.ap), worked out by hand on one small ranking."""

from __future__ import annotations

import pytest

from one_topic import one_topic

# ranks 1-4: a b c d; b and d relevant; e relevant but not retrieved, so R = 3
GRADES = {"a": 0, "b": 1, "c": 0, "d": 1, "e": 1}


def test_hand_computed_values():
    values = one_topic("a b c d", GRADES, ["AP", "AP@2", "GMAP"])
    assert values["AP"] == pytest.approx((1 / 2 + 2 / 4) / 3, abs=1e-12)  # 0.3333
    assert values["AP@2"] == pytest.approx((1 / 2) / 3, abs=1e-12)  # d is below the cutoff, R stays 3
    assert values["GMAP"] == values["AP"]  # one topic: the geometric mean is AP itself


def test_a_relevant_document_not_retrieved_still_divides():
    """R counts the qrels' relevant documents, retrieved or not: without e the same ranking gets 1/2."""
    without_e = {d: g for d, g in GRADES.items() if d != "e"}
    assert one_topic("a b c d", without_e, ["AP"])["AP"] == pytest.approx((1 / 2 + 2 / 4) / 2, abs=1e-12)
    assert one_topic("a b c d", GRADES, ["AP"])["AP"] != pytest.approx(1 / 2)
