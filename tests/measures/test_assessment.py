"""Assessment measures (irnb.measures.assessment): how much of a ranking is judged, worked out
by hand on one small ranking."""

from __future__ import annotations

import pytest

from one_topic import one_topic

# ranks 1-4: a x b y; a and b judged, x and y not; c judged but not retrieved (3 judged in all)
RANKING, GRADES = "a x b y", {"a": 1, "b": 0, "c": 0}


def test_hand_computed_values():
    values = one_topic(RANKING, GRADES, ["Judged@4", "Unj@4", "MAA", "MAAR", "RecallAssessment"])
    assert values["Judged@4"] == pytest.approx(2 / 4, abs=1e-12)
    assert values["Unj@4"] == pytest.approx(2 / 4, abs=1e-12)
    assert values["MAA"] == pytest.approx((1 / 1 + 2 / 3) / 2, abs=1e-12)  # A_p at the judged ranks 1 and 3
    assert values["MAAR"] == pytest.approx((1 / 1 + 2 / 3) / 3, abs=1e-12)  # the same sum over the 3 judged
    assert values["RecallAssessment"] == pytest.approx(2 / 3, abs=1e-12)  # a b of a b c


def test_ranks_past_the_run_count_as_each_measure_declares():
    """At k = 6 on a 4-document run: Judged counts the 2 missing ranks unjudged, JudgedRet divides
    by the run's length instead, NotUnj counts them judged."""
    values = one_topic(RANKING, GRADES, ["Judged@6", "JudgedRet@6", "NotUnj@6"])
    assert values["Judged@6"] == pytest.approx(2 / 6, abs=1e-12)
    assert values["JudgedRet@6"] == pytest.approx(2 / 4, abs=1e-12)
    assert values["NotUnj@6"] == pytest.approx(1 - 2 / 6, abs=1e-12)
