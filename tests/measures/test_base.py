"""The measure object (irnb.measures.base): one declaration per family that the rest of irnb
asks, canonical parameters that round-trip, the registry's refusals, validation on direct
construction."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb.measures import FAMILIES, Measure, Param, family_names, parse_measure
from irnb.params import LevelGains


def test_canonical_params_fill_defaults_and_order():
    """Parameters are stored in declared order with defaults filled in, so equal
    measures compare equal however they were written."""
    assert Measure("RBP") == parse_measure("RBP(p=0.8)") == parse_measure("RBP(gain=binary,p=0.8)")
    assert Measure("RBP", params=(("p", 0.8),)).params == (("p", 0.8), ("gain", "binary"))
    assert Measure("RBP") != parse_measure("RBP(p=0.9)")
    assert hash(Measure("RBP")) == hash(parse_measure("RBP"))


def _example(family) -> Measure:
    params = tuple((p.name, 0.5 if p.type is float else ((1, 3.0), (2, 0.5)) if p.type is tuple
                    else (p.choices[-1] if p.choices else 2)) for p in family.params)
    cutoff = 7 if family.cutoff in ("required", "optional") else None
    rel = 2 if Measure(family.name, cutoff, params).uses_rel else 1
    return Measure(family.name, cutoff, params, rel)


@pytest.mark.parametrize("family", family_names())
def test_every_family_round_trips(family):
    spec = FAMILIES[family]
    for measure in (_example(spec), Measure(family, 3 if spec.cutoff == "required" else None,
                                            tuple((p.name, 0.25) for p in spec.params if p.default is None))):
        assert parse_measure(str(measure)) == measure
        assert parse_measure(measure) is measure


@pytest.mark.parametrize("family", family_names())
def test_every_family_is_declared_fully(family):
    spec = FAMILIES[family]
    assert spec.description and spec.source
    assert spec.cutoff in ("none", "optional", "required")
    assert spec.aggregate in ("mean", "sum", "gmean")
    for p in spec.params:
        assert isinstance(p, Param) and p.doc
        assert p.type in (int, float, str) or (p.type is tuple and isinstance(p, LevelGains))
        assert (p.choices is not None) == (p.type is str)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(n for n, f in FAMILIES.items() if any(p.type is float for p in f.params))),
       st.floats(min_value=0.0, max_value=1.0, allow_nan=False, exclude_min=True, exclude_max=True),
       st.integers(1, 10_000))
def test_round_trip_keeps_float_parameters_exactly(family, x, k):
    spec = FAMILIES[family]
    params = tuple((p.name, x) for p in spec.params if p.type is float)
    cutoff = k if spec.cutoff != "none" else None
    measure = Measure(family, cutoff, params)
    again = parse_measure(str(measure))
    assert again == measure
    assert [v for _, v in again.params if isinstance(v, float)] == [x] * len(params)


def test_direct_construction_is_validated():
    with pytest.raises(ValueError, match=r"unknown measure family 'nDGC'; did you mean 'nDCG'"):
        Measure("nDGC", 10)
    with pytest.raises(ValueError, match=r"measure P needs a measurement depth k"):
        Measure("P")
    with pytest.raises(ValueError, match=r"measure RBP: p must be a number with 0 < p < 1, got 2"):
        Measure("RBP", params=(("p", 2),))
    with pytest.raises(ValueError, match=r"measure Bpref takes no cutoff"):
        Measure("Bpref", 5)
    with pytest.raises(TypeError, match="a measure name must be a string, got int"):
        parse_measure(10)


def test_declared_bounds_are_what_widgets_read():
    p = FAMILIES["RBP"].param("p")
    assert (p.low, p.high, p.low_open, p.high_open, p.default) == (0.0, 1.0, True, True, 0.8)
    assert FAMILIES["RBP"].param("gain").choices == ("binary", "graded")
    with pytest.raises(KeyError, match="RBP has no parameter 'k'"):
        FAMILIES["RBP"].param("k")
    assert p.describe() == "a number with 0 < p < 1"


def test_rel_is_accepted_exactly_where_it_changes_the_values():
    """A relevance level is refused where it cannot change a value (graded gains: nDCG, G,
    RBP with gain=graded) and accepted where it does; evaluate's relevance_level passes it
    only to the measures that use it. Grades 1 and 2: with rel=2 the grade-1 document stops
    counting for P and binary RBP, while nDCG and graded RBP keep both gains."""
    import pandas as pd

    from irnb import Experiment, evaluate

    assert parse_measure("RBP(p=0.5,rel=2)").uses_rel and parse_measure("P(rel=2)@2").uses_rel
    assert not parse_measure("RBP(p=0.5,gain=graded)").uses_rel and not parse_measure("nDCG@2").uses_rel
    run = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [1, 2]})
    exp = Experiment(run, qrels)
    names = ["P@2", "RBP(p=0.5)", "RBP(p=0.5,gain=graded)", "nDCG@2"]
    at1 = evaluate(exp, names).means().iloc[0]
    at2 = evaluate(exp, names, relevance_level=2).means().iloc[0]
    assert at1["P@2"] == 1.0 and at2["P@2"] == 0.5
    assert at1["RBP(p=0.5)"] == 0.75 and at2["RBP(p=0.5)"] == 0.25  # (1−p)(1 + p) → (1−p)·p
    assert at1["RBP(p=0.5,gain=graded)"] == at2["RBP(p=0.5,gain=graded)"] == pytest.approx(0.5 * (0.5 + 0.5 * 1.0))
    assert at1["nDCG@2"] == at2["nDCG@2"]
    with pytest.raises(ValueError, match=r"measure RBP with gain=graded does not depend on the relevance level"):
        Measure("RBP", None, (("gain", "graded"),), 2)  # built directly, not parsed


def test_param_accepts_numpy_integers_never_booleans():
    import numpy as np

    k = Param("k", int, 10, low=1)
    assert k.validate(np.int64(5), "owner") == 5 and type(k.validate(np.uint8(3), "owner")) is int
    assert Param("p", float, 0.5, low=0).validate(np.int32(2), "owner") == 2.0
    for bad in (True, np.True_, np.int64(0)):
        with pytest.raises(ValueError, match=r"owner: k must be an integer ≥ 1, got"):
            k.validate(bad, "owner")


# ============================================================================ the declared object
def test_every_family_declares_what_the_rest_of_irnb_asks():
    for name, spec in FAMILIES.items():
        assert spec.name == name and callable(spec.kernel) and spec.description and spec.source, name
        assert spec.role in ("performance", "assessment") and spec.unjudged, name
        assert not (spec.interval and spec.scenarios), f"{name}: intervals or scenarios, not both"
        assert spec.condensed_of is None or FAMILIES[spec.condensed_of].condensed_of is None, name


def test_a_condensed_form_keeps_the_kernel_and_drops_the_trec_names():
    ap, apj = FAMILIES["AP"], FAMILIES["APj"]
    assert apj.kernel is ap.kernel and apj.cutoff == ap.cutoff and apj.condensed_of == "AP"
    assert apj.trec_name is None and apj.trec_cut_name is None and not apj.scenarios
    assert apj.unjudged == "removed before ranking (condensed list)" and ap.unjudged == "non-relevant (trec_eval)"


def test_register_refuses_what_would_break_the_registry():
    from irnb.measures import Family, register

    def kernel(view, measure):
        return None

    before = dict(FAMILIES)
    with pytest.raises(ValueError, match=r"measure family 'MAP': the name 'MAP' is already taken"):
        register(Family("MAP", "mean AP", "a test", kernel=kernel))  # an alias of AP
    with pytest.raises(ValueError, match=r"measure family 'X': the name 'map_cut' is already taken"):
        register(Family("X", "x", "a test", trec_cut_name="map_cut", kernel=kernel))
    with pytest.raises(ValueError, match=r"measure family 'X' declares no kernel\(view, measure\)"):
        register(Family("X", "x", "a test"))
    with pytest.raises(ValueError, match=r"measure family 'X': role must be one of 'performance' or 'assessment', "
                                         r"got 'judge'"):
        register(Family("X", "x", "a test", role="judge", kernel=kernel))
    with pytest.raises(ValueError, match=r"measure family 'Xj' is the condensed form of 'X', which is not declared"):
        register(Family("Xj", "x", "a test", condensed_of="X", kernel=kernel))
    assert FAMILIES == before


def test_an_interval_needs_the_parameter_values_its_family_declares():
    """RBP has score intervals with binary gains only (an unjudged document made relevant
    gains 1); a family declares such values in ``interval_when`` and every consumer asks
    ``Measure.has_interval``."""
    assert FAMILIES["RBP"].interval_when == (("gain", "binary"),)
    assert parse_measure("RBP(p=0.8)").has_interval and parse_measure("P@10").has_interval
    assert not parse_measure("RBP(p=0.8,gain=graded)").has_interval and not parse_measure("AP").has_interval
    assert all(f.interval for f in FAMILIES.values() if f.interval_when), "interval_when without intervals"
