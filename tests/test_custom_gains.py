"""irnb.custom_gains: the graded kernels with gains given per level, on hand-computed cases
(each value also what trec_eval 10.0 prints for the same files and ``-m name.gains``), and
trec_eval's rules for the ideal ranking on counter-examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from irnb._grades import NO_DOC, UNJUDGED
from irnb.custom_gains import trec_gain_order, with_gains
from irnb.kernels import Judged, compute
from irnb.measures import Measure, parse_measure
from irnb.trec_eval.compute import MeasureInitError, measure_rows
from irnb.trec_eval.options import parse_args
from irnb.trec_eval.table import TREC_MEASURES

# one topic; qrels d1 grade 1, d2 grade 2, d3 grade 0; run d2, d1, x (x not in the qrels)
GRADES = [2, 1, UNJUDGED]
COUNTS = [1, 1, 1]  # grade 0, 1, 2


def _view(grades=GRADES, counts=COUNTS, depth=None, relevance_level=1) -> Judged:
    depth = depth or len(grades)
    grade = np.full((1, 1, depth), NO_DOC, dtype=np.int8)
    grade[0, 0, : len(grades)] = grades
    return Judged(grade=grade, level_counts=np.array([counts]), length=np.array([[len(grades)]]),
                  relevance_level=relevance_level, trec_version=10)


def _value(view: Judged, family: str, **measure) -> float:
    return float(compute(view, Measure(family, **measure))[0, 0])


GIVEN = ((1, 3.0), (2, 9.0), (-1, 0.5))  # -m ndcg.1=3,2=9,-1=0.5


def test_run_gains_follow_the_levels_given():
    gained = with_gains(_view(depth=4), GIVEN)
    assert gained.gain.tolist() == [[[9.0, 3.0, 0.5, 0.0]]]  # the rank without a document gains 0


def test_ndcg_with_gains_given():
    # DCG = 9/log2(2) + 3/log2(3) + 0.5/log2(4); ideal: 9, 3 (grade 0 gains 0 and ends it)
    dcg = 9 + 3 / math.log2(3) + 0.5 / 2
    ideal = 9 + 3 / math.log2(3)
    assert _value(with_gains(_view(), GIVEN), "nDCG") == pytest.approx(dcg / ideal)  # trec_eval: 1.0230
    assert f"{dcg / ideal:.4f}" == "1.0230"


def test_g_with_gains_given():
    # cost_i = Σ max(ideal gain, 1) = 9, 12, 13; gained_i = 9, 12, 12.5; Σ ideal gains = 12
    expected = (9 / math.log2(2 + 9 - 9) + 3 / math.log2(2 + 12 - 12) + 0.5 / math.log2(2 + 13 - 12.5)) / 12
    assert _value(with_gains(_view(), GIVEN), "G") == pytest.approx(expected)  # trec_eval: 1.0315
    assert f"{expected:.4f}" == "1.0315"


def test_ndcg_rel_and_rndcg_with_gains_given():
    gained = with_gains(_view(), GIVEN)
    # the ideal is found in order: each relevant document's nDCG@i is 1, and so is the mean
    assert _value(gained, "nDCGRel") == pytest.approx(1.0)
    assert _value(gained, "RnDCG") == pytest.approx(1.0)


def test_default_gains_are_the_grades():
    """Without gains given the gained view computes what the plain view does."""
    plain, gained = _view(), with_gains(_view(), ())
    for family in ("nDCG", "G", "nDCGRel", "RnDCG"):
        assert _value(gained, family) == pytest.approx(_value(plain, family)), family


def test_gains_less_than_1_apart_keep_the_order_given():
    """trec_eval sorts levels with (int)(gain1 - gain2): 0.5 ties with 0 and with 1, so with
    -m ndcg.2=0.5 the walk takes grade 1, then grade 0 (gain 0) and stops: grade 2's document
    is not in the ideal ranking. A true sort by gain would put it second."""
    order = trec_gain_order(2, ((2, 0.5),))
    assert order == [(2, 0.5, True), (0, 0.0, True), (1, 1.0, True)]
    gained = with_gains(_view(grades=[2, 1]), ((2, 0.5),))
    assert gained.ideal_gains(3).tolist() == [[1.0, 0.0, 0.0]]
    expected = 0.5 / 1 + 1 / math.log2(3)  # over an ideal DCG of 1
    assert _value(gained, "nDCG") == pytest.approx(expected)  # trec_eval: 1.1309
    true_sort = expected / (1 + 0.5 / math.log2(3))
    assert not math.isclose(_value(gained, "nDCG"), true_sort)


def test_the_ideal_ranking_stops_at_the_first_document_gaining_nothing():
    # gains 1=5, 0=-1, 2=1: walk 5 (grade 1), then 1 (grade 2), then -1 (grade 0): stop
    gained = with_gains(_view(), ((1, 5.0), (0, -1.0), (2, 1.0)))
    assert gained.ideal_gains(4).tolist() == [[5.0, 1.0, 0.0, 0.0]]
    assert gained.num_positive.tolist() == [2]
    # gains 2=-1: grade 2 (-1) sorts below grade 0 (0); the walk stops at grade 0 after grade 1
    gained = with_gains(_view(), ((2, -1.0),))
    assert gained.ideal_gains(3).tolist() == [[1.0, 0.0, 0.0]]


def test_a_level_given_twice_gains_its_first_entry_in_sorted_order():
    # 1=5 and 1=3: sorted 3 before 5, so grade 1 gains 3; its document is counted in 1=5 (first given)
    gained = with_gains(_view(), ((1, 5.0), (1, 3.0)))
    assert gained.gain[0, 0, 1] == 3.0
    assert gained.ideal_gains(3).tolist() == [[5.0, 2.0, 0.0]]


def test_ideal_runs_merge_levels_of_equal_gain():
    gained = with_gains(_view(counts=[1, 2, 3]), ((1, 4.0), (2, 4.0)))
    assert gained.ideal_runs.sum(axis=1).tolist() == [5]
    assert gained.ideal_runs[0, 0] == 5  # one run: grades 1 and 2 gain alike
    plain = _view(counts=[1, 2, 3])
    assert plain.ideal_runs.tolist() == [[3, 2]]  # grades 2, 1


def test_rndcg_is_nan_when_no_ideal_gain_is_positive_but_r_is_not_0():
    """trec_eval divides by the number of points, 0 here: it prints -nan. Grade 0 gains 2 but
    holds no document; grade 1 (R = 1) gains 0 and ends the ideal ranking at once."""
    gained = with_gains(_view(grades=[1, UNJUDGED], counts=[0, 1]), ((1, 0.0), (0, 2.0)))
    assert math.isnan(_value(gained, "RnDCG"))
    assert _value(with_gains(_view(grades=[1, 0], counts=[1, 0, 0]), ()), "RnDCG") == 0.0  # R = 0: 0


def test_the_gains_survive_another_relevance_level():
    gained = with_gains(_view(relevance_level=2), GIVEN)
    assert _value(gained, "nDCG") == pytest.approx(_value(with_gains(_view(), GIVEN), "nDCG"))
    assert gained.at_level(1).gain.tolist() == gained.gain.tolist()


@pytest.mark.parametrize("family", ["nDCG", "G", "nDCGRel", "RnDCG"])
def test_the_measure_parameter_computes_what_the_gained_view_does(family):
    """``Measure(family, gains=…)`` through :func:`irnb.kernels.compute` is the kernel on
    :func:`with_gains`'s view."""
    measure = Measure(family, params=(("gains", GIVEN),))
    assert float(compute(_view(), measure)[0, 0]) == pytest.approx(_value(with_gains(_view(), GIVEN), family))


def _drop_in_row(param: str):
    options = parse_args(["-m", f"ndcg.{param}", "q", "r"])[0]
    spec = next(m for m in TREC_MEASURES if m.name == "ndcg")
    return measure_rows(spec, param, options)


def test_the_drop_in_computes_custom_gains_as_the_measure():
    """``-m ndcg.1=3,2=9,-1=0.5`` is ``nDCG(gains=1:3,2:9,-1:0.5)``; a level that is no integer
    (``x=4``) gives no level, as trec_eval's atol."""
    [row] = _drop_in_row("1=3,2=9,x=4,-1=0.5")
    assert row.name == "ndcg_1=3,2=9,x=4,-1=0.5"
    expected = compute(_view(), parse_measure("nDCG(gains=1:3,2:9,-1:0.5)"))[0]
    assert row.value(_view(), None).tolist() == expected.tolist()
    assert f"{expected[0]:.4f}" == "1.0230"  # trec_eval's value for these files (test_ndcg_with_gains_given)


def test_the_drop_in_refuses_a_gain_that_is_no_number():
    with pytest.raises(MeasureInitError, match=r"^-m ndcg\.1=nan: measure nDCG: gains must be level:gain pairs"):
        _drop_in_row("1=nan")
