"""The graded families' ``gains`` parameter (:data:`irnb.params.GAINS`): its spelling in
measure names (round trip exact, order kept), its errors, and that the default is the
measure as it was."""

from __future__ import annotations

import numpy as np
import pytest

from irnb._grades import UNJUDGED
from irnb.kernels import Judged, compute
from irnb.measures import FAMILIES, Measure, parse_measure
from irnb.params import GAINS

GRADED = ("nDCG", "nDCGj", "nDCGRel", "RnDCG", "G")


@pytest.mark.parametrize("text", ["nDCG(gains=1:3,2:9,4:4.5)", "nDCG(gains=1:3,2:9)@10", "nDCG(gains=-1:0.5)@5(j)",
                                  "G(gains=0:1,1:2)", "nDCGRel(gains=1:0.25)", "RnDCG(gains=1:3,rel=2)"])
def test_names_with_gains_round_trip(text):
    measure = parse_measure(text)
    assert measure.name == text
    assert parse_measure(measure.name) == measure


def test_gains_are_kept_in_the_order_given():
    """The order is part of the measure: trec_eval sorts gains less than 1 apart in the
    order given, so 2:0.5,0:0 and 0:0,2:0.5 are different measures."""
    a, b = parse_measure("nDCG(gains=2:0.5,0:0)"), parse_measure("nDCG(gains=0:0,2:0.5)")
    assert a.param("gains") == ((2, 0.5), (0, 0.0))
    assert a != b and a.name != b.name


def test_default_gains_leave_the_name_and_the_measure_as_they_were():
    for family in GRADED:
        assert FAMILIES[family].param("gains").default == ()
    assert parse_measure("nDCG@10").name == "nDCG@10"
    assert parse_measure("ndcg_cut_10") == Measure("nDCG", 10) == Measure("nDCG", 10, (("gains", ()),))
    assert parse_measure("nDCG(gains=1:3)") != parse_measure("nDCG")


def test_gains_given_as_pairs_a_mapping_or_text_are_one_measure():
    pairs = Measure("nDCG", params=(("gains", ((1, 3), (2, 9))),))
    assert pairs == Measure("nDCG", params=(("gains", {1: 3.0, 2: 9.0}),))
    assert pairs == Measure("nDCG", params=(("gains", "1:3,2:9"),))
    assert pairs.param("gains") == ((1, 3.0), (2, 9.0))


@pytest.mark.parametrize(("text", "given"), [("nDCG(gains=1=3)", "'1=3'"), ("nDCG(gains=x:3)", "'x:3'"),
                                             ("nDCG(gains=1:3,2)", "'1:3,2'"), ("G(gains=1.5:3)", "'1.5:3'"),
                                             ("nDCG(gains=1:nan)", "'1:nan'")])
def test_a_bad_gains_spec_names_the_measure_what_was_expected_and_what_was_given(text, given):
    with pytest.raises(ValueError) as error:
        parse_measure(text)
    assert str(error.value) == (f"measure {text!r}: gains must be {GAINS.describe()}, got {given}")
    assert "level:gain pairs" in GAINS.describe() and "1:3,2:9" in GAINS.describe()


def test_bad_gains_objects_are_refused():
    for bad in [((True, 3.0),), ((1, "3"),), (1, 3), 2]:
        with pytest.raises(ValueError, match=r"^measure nDCG: gains must be level:gain pairs"):
            Measure("nDCG", params=(("gains", bad),))


def test_families_without_gains_refuse_them():
    with pytest.raises(ValueError, match=r"unknown parameter 'gains' for P \(allowed: rel\)"):
        parse_measure("P(gains=1:3)@5")


def test_a_part_without_equals_continues_the_value_before_it():
    """So gains=1:3,2:9 is one value; elsewhere the value that results is refused by its
    parameter, naming it, and a first part without = is still no parameter."""
    with pytest.raises(ValueError, match=r"p must be a number.*got '0.5,0.6'"):
        parse_measure("RBP(p=0.5,0.6)")
    with pytest.raises(ValueError, match=r"expected parameters as name=value, got '1:3'"):
        parse_measure("nDCG(1:3)")


def _view() -> Judged:
    # one topic; qrels grades 0, 1, 2 one document each; run: grade 2, grade 1, unjudged
    grade = np.array([[[2, 1, UNJUDGED]]], dtype=np.int8)
    return Judged(grade=grade, level_counts=np.array([[1, 1, 1]]), length=np.array([[3]]))


def test_gains_equal_to_the_grades_give_the_default_values():
    view = _view()
    for family in GRADED:
        default = compute(view, Measure(family))
        same = compute(view, Measure(family, params=(("gains", ((1, 1.0), (2, 2.0))),)))
        np.testing.assert_allclose(same, default, err_msg=family)


def test_gains_change_the_value_as_hand_computed():
    # gains 1:3, 2:9 and the unjudged document 0: DCG = 9 + 3/log2(3); the ideal is the same ranking
    assert compute(_view(), parse_measure("nDCG(gains=1:3,2:9)"))[0, 0] == pytest.approx(1.0)
    # 1:9, 2:3: DCG = 3 + 9/log2(3); ideal 9 + 3/log2(3)
    expected = (3 + 9 / np.log2(3)) / (9 + 3 / np.log2(3))
    assert compute(_view(), parse_measure("nDCG(gains=1:9,2:3)"))[0, 0] == pytest.approx(expected)
    assert compute(_view(), parse_measure("nDCG"))[0, 0] != pytest.approx(expected)


def test_scenarios_refuse_gains_given():
    measure = parse_measure("nDCG(gains=1:3)")
    with pytest.raises(ValueError, match=r"measure nDCG\(gains=1:3\): optimistic and pessimistic scenarios need "
                                         r"the grades as gains"):
        measure.spec.scenario(_view(), measure, np.zeros((1, 1)), 2)
