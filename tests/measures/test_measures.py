"""The measure object and its parser: one declaration per family that the rest of irnb asks,
both spellings of a name, canonical names that round-trip, errors that teach."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb.measures import FAMILIES, Measure, Param, family_names, parse_measure, parse_measures
from irnb.params import LevelGains

# every accepted spelling → its canonical name
SPELLINGS = {
    # ir_measures
    "P@10": "P@10",
    "AP": "AP",
    "AP@100": "AP@100",
    "nDCG@20": "nDCG@20",
    "RR": "RR",
    "R@100": "R@100",
    "Rprec": "Rprec",
    "Bpref": "Bpref",
    "infAP": "infAP",
    "RBP(p=0.8)": "RBP(p=0.8)",
    "Judged@10": "Judged@10",
    "P(rel=2)@10": "P(rel=2)@10",
    "P@20(j)": "P@20(j)",
    # trec_eval
    "P_10": "P@10",
    "P.10": "P@10",
    "map": "AP",
    "map_cut_100": "AP@100",
    "ndcg_cut_20": "nDCG@20",
    "recip_rank": "RR",
    "recall_100": "R@100",
    "bpref": "Bpref",
    "success_5": "Success@5",
    "unj_10": "Unj@10",
    "num_ret": "NumRet",
    # more trec_eval names (all_trec)
    "ndcg": "nDCG",
    "gm_map": "GMAP",
    "num_q": "num_q",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet",
    "iprec_at_recall_0.10": "IPrec@0.1",
    "iprec_at_recall_1.00": "IPrec@1",
    "11pt_avg": "ElevenPointAP",
    "Rprec_mult_0.20": "RprecMult(mult=0.2)",
    "relative_P_5": "RelP@5",
    "set_P": "SetP",
    "set_recall": "SetR",
    "set_F": "SetF(beta=1)",
    "set_map": "SetAP",
    "set_relative_P": "SetRelP",
    "utility": "Utility(a=1,b=-1,c=0)",
    "gm_bpref": "GMBpref",
    "ndcg_rel": "nDCGRel",
    "Rndcg": "RnDCG",
    "binG": "BinG",
    "G": "G",
    "rbp": "RBP(p=0.9,gain=graded)",
    "rbp_resid": "RBPResidual(p=0.9,tail=if_unjudged)",
    # aliases and other forms
    "MAP": "AP",
    "NDCG@5": "nDCG@5",
    "MRR": "RR",
    "NumQ": "num_q",
    "RBP": "RBP(p=0.8)",
    "RBP(p=0.8,gain=binary)": "RBP(p=0.8)",
    "RBP(gain=graded,p=0.5)@10": "RBP(p=0.5,gain=graded)@10",
    "IPrec@0.5": "IPrec@0.5",
    "IPrec(recall=0.5)": "IPrec@0.5",
    "AP(j)": "AP(j)",
    "nDCG@10(j)": "nDCG@10(j)",
    "P(rel=2)@5(j)": "P(rel=2)@5(j)",
    " P@10 ": "P@10",
}


@pytest.mark.parametrize("text", list(SPELLINGS))
def test_spellings(text):
    measure = parse_measure(text)
    assert measure.name == SPELLINGS[text]
    assert str(measure) == SPELLINGS[text]
    assert parse_measure(measure.name) == measure


def test_parsed_fields():
    m = parse_measure("P(rel=2)@10")
    assert (m.family, m.cutoff, m.rel) == ("P", 10, 2)
    assert parse_measure("RBP(p=0.8)").param("p") == 0.8
    assert parse_measure("rbp").params == (("p", 0.9), ("gain", "graded"))  # trec_eval's p = 0.9
    assert parse_measure("P@20(j)").family == "Pj"
    assert parse_measure("iprec_at_recall_0.10").param("recall") == 0.1
    assert parse_measure("map_cut_100") == parse_measure("AP@100")
    assert parse_measure("P.10") == parse_measure("P_10") == Measure("P", 10)


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


def test_unknown_names_get_did_you_mean():
    with pytest.raises(ValueError, match=r"unknown measure 'nDGC@10'; did you mean 'nDCG'"):
        parse_measure("nDGC@10")
    with pytest.raises(ValueError, match=r"unknown measure 'Bperf'; did you mean 'Bpref'"):
        parse_measure("Bperf")
    with pytest.raises(ValueError, match=r"unknown measure 'recip_rnak'; did you mean 'recip_rank'"):
        parse_measure("recip_rnak")
    with pytest.raises(ValueError, match=r"unknown measure 'ap'.*did you mean.*'AP'"):
        parse_measure("ap")
    with pytest.raises(ValueError, match=r"^unknown measure 'zzzz'$"):  # nothing close: no hint
        parse_measure("zzzz")


def test_trec_names_are_never_matched_by_substring():
    """ranx's "rbp" in name turns rbp@0.8 into rbp@0; here it is an error with a hint."""
    with pytest.raises(ValueError, match=r"unknown measure 'rbp@0.8'; did you mean 'RBP'\?"):
        parse_measure("rbp@0.8")
    with pytest.raises(ValueError, match=r"unknown measure 'xmap'"):
        parse_measure("xmap")
    with pytest.raises(ValueError, match=r"unknown measure 'P_10x'"):
        parse_measure("P_10x")


@pytest.mark.parametrize(("text", "message"), [
    ("RBP(p=1.5)", r"measure 'RBP\(p=1.5\)': p must be a number with 0 < p < 1, got 1.5"),
    ("RBP(p=0)", r"p must be a number with 0 < p < 1, got 0"),
    ("RBP(p=high)", r"p must be a number with 0 < p < 1, got 'high'"),
    ("P@0", r"measure 'P@0': measurement depth k must be an integer ≥ 1, got 0"),
    ("P@-3", r"measurement depth k must be an integer ≥ 1, got -3"),
    ("P@2.5", r"measurement depth k must be an integer ≥ 1, got 2.5"),
    ("P_0", r"measure 'P_0': measurement depth k must be an integer ≥ 1, got 0"),
    ("P(rel=0)@10", r"rel must be an integer ≥ 1, got 0"),
    ("IPrec@1.5", r"recall must be a number with 0 ≤ recall ≤ 1, got 1.5"),
    ("Rprec_mult_0", r"mult must be a number > 0, got 0"),
    ("SetF(beta=-1)", r"beta must be a number ≥ 0, got -1"),
    ("RBP(gain=fancy)", r"gain must be one of 'binary' or 'graded', got 'fancy'"),
    ("RBPResidual(tail=never)", r"tail must be one of 'always' or 'if_unjudged', got 'never'"),
])
def test_out_of_bounds_parameters(text, message):
    with pytest.raises(ValueError, match=message):
        parse_measure(text)


@pytest.mark.parametrize(("text", "message"), [
    ("P", r"measure 'P' is trec_eval's list P_5, P_10, .* \(9 measures\): name one \(e.g. 'P_10' or 'P@10'\)"),
    ("Bpref@10", r"measure 'Bpref@10': Bpref takes no cutoff \(@k\)"),
    ("RBP(q=0.5)", r"unknown parameter 'q' for RBP \(allowed: rel, p, gain\)"),
    ("Bpref(p=1)", r"unknown parameter 'p' for Bpref \(allowed: rel\)"),
    ("Judged(rel=2)@10", r"Judged does not depend on the relevance level; drop rel="),
    ("nDCG(rel=2)@10", r"nDCG does not depend on the relevance level; drop rel="),
    ("G(rel=2)", r"G does not depend on the relevance level; drop rel="),
    ("nDCG(rel=2)@10(j)", r"nDCGj does not depend on the relevance level; drop rel="),
    ("RBP(p=0.8,gain=graded,rel=2)", r"measure 'RBP\(p=0.8,gain=graded,rel=2\)': RBP with gain=graded does not "
                                     r"depend on the relevance level; drop rel="),
    ("RBP(p=0.5,p=0.6)", r"parameter 'p' given twice"),
    ("RBP(0.5)", r"expected parameters as name=value, got '0.5'"),
    ("IPrec", r"IPrec needs recall, a number with 0 ≤ recall ≤ 1, e.g. IPrec@0.5"),
    ("iprec_at_recall", r"trec_eval's list iprec_at_recall_0, iprec_at_recall_0.1, .*'IPrec@0.1'"),
    ("", r"measure name is empty"),
])
def test_malformed_names(text, message):
    with pytest.raises(ValueError, match=message):
        parse_measure(text)


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


def test_parse_measures_keeps_order_and_drops_duplicates():
    got = parse_measures(["map", "P_10", "AP", "P@10", "RBP", "RBP(p=0.8)"])
    assert [m.name for m in got] == ["AP", "P@10", "RBP(p=0.8)"]
    assert [m.name for m in parse_measures("ndcg_cut_5")] == ["nDCG@5"]
    with pytest.raises(ValueError, match="expected at least one measure, got none"):
        parse_measures([])


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


def test_the_sets_others_use_are_read_from_the_declarations():
    from irnb.measures import ASSESSMENT_FAMILIES, INTERVAL_FAMILIES, SCENARIO_FAMILIES

    assert set(INTERVAL_FAMILIES) == {"P", "RBP", "SDCG"}
    assert set(SCENARIO_FAMILIES) == {"AP", "nDCG", "Bpref"}
    assert ASSESSMENT_FAMILIES == ("Judged", "JudgedRet", "NotUnj", "MAA", "MAAR", "RecallAssessment", "Unj")
    assert {n: f.condensed_of for n, f in FAMILIES.items() if f.condensed_of} == {"Pj": "P", "APj": "AP",
                                                                                    "nDCGj": "nDCG"}
    assert {n for n, f in FAMILIES.items() if f.average_assessment} == {"AP", "APj", "GMAP", "infAP"}
    assert {n: f.symbol for n, f in FAMILIES.items() if f.symbol} == {"Judged": "A_p"}


def test_the_consumers_ask_the_declaration():
    from irnb.decision import assessment_measure
    from irnb.plots.style import measure_label
    from irnb.trec_eval import TREC_MEASURES

    assert measure_label("Judged@20") == "A_p@20" and measure_label("JudgedRet@20") == "JudgedRet@20"
    assert [assessment_measure(m).name for m in ("AP(j)", "infAP", "RR@10")] == ["MAA", "MAA", "Judged@10"]
    rows = {m.name: (m.family, m.summary, m.fmt) for m in TREC_MEASURES}
    assert rows["map_cut"] == ("AP", "mean", "double") and rows["num_ret"] == ("NumRet", "sum", "long")
    assert rows["gm_bpref"] == ("GMBpref", "gmean", "double") and rows["runid"] == (None, "none", "string")
    # every trec_eval row but the two text rows is computed by the family that declares its name
    assert all(FAMILIES[f].trec_name == n or FAMILIES[f].trec_cut_name == n for n, (f, _, _) in rows.items() if f)


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


# ============================================================================ a new family is one file
def test_families_are_listed_by_declaring_module_then_in_declared_order():
    modules = [f.module for f in FAMILIES.values()]
    assert modules == sorted(modules) and all(m.startswith("irnb.measures.") for m in modules)
    assert list(FAMILIES)[:4] == ["AP", "APj", "GMAP", "infAP"]  # ap.py's own order
    assert FAMILIES["Pj"].module == FAMILIES["P"].module == "irnb.measures.precision"


#: A made-up family in a module of its own. It imports another measure module, so that module's
#: families register before the modules that sort between the two.
TOY_MODULE = '''"""Half precision, a made-up family: P@k / 2."""

from . import precision  # noqa: F401
from .base import Family, register

register(Family("HalfP", "half of P@k", "a made-up family", cutoff="required",
                kernel=lambda view, m: view.at(view.cum_rel, m.cutoff) / m.cutoff / 2))
'''

TOY_SCRIPT = '''
import json, sys
import pandas as pd
import irnb
from irnb import Experiment
from irnb.decision import assessment_measure
from irnb.measures import FAMILIES, parse_measure
from irnb.metrics import evaluate
sys.path.insert(0, sys.argv[1])
import measure_catalogue

exp = Experiment({"r": pd.DataFrame([("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)],
                                    columns=["qid", "docno", "score"])},
                 pd.DataFrame([("1", "a", 1), ("1", "c", 1)], columns=["qid", "docno", "grade"]))
ev = evaluate(exp, ["HalfP@2", "P@2"])
print(json.dumps({"package": irnb.__file__, "module": FAMILIES["HalfP"].module,
                  "modules": [f.module for f in FAMILIES.values()], "name": str(parse_measure("HalfP@2")),
                  "values": [float(ev["HalfP@2"][0, 0]), float(ev["P@2"][0, 0])],
                  "assessment": assessment_measure("HalfP@2").name, "page": measure_catalogue.render()}))
'''


@pytest.mark.slow
def test_a_new_module_is_a_new_family_everywhere(tmp_path):
    """A copy of the package with one more file in irnb/measures/: the parser, evaluate, the
    decision matrix, the command line and the definitions page know the family, and the
    families stay in module order although the new module imports another."""
    import json
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "irnb", tmp_path / "irnb", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "irnb" / "measures" / "halfp.py").write_text(TOY_MODULE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", TOY_SCRIPT, str(repo / "docs" / "_ext")], capture_output=True,
                          text=True, cwd=tmp_path, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert Path(got["package"]).resolve() == (tmp_path / "irnb" / "__init__.py").resolve()
    assert got["module"] == "irnb.measures.halfp" and got["name"] == "HalfP@2"
    assert got["modules"] == sorted(got["modules"])
    assert got["values"] == [pytest.approx(0.25), pytest.approx(0.5)]  # a then b: P@2 = 1/2
    assert got["assessment"] == "Judged@2"
    assert "**`HalfP@k`** (family `HalfP`): half of P@k." in got["page"]
    assert "Declared in `irnb/measures/halfp.py`." in got["page"]
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 c 1\n", encoding="utf-8")
    (tmp_path / "run").write_text("1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n", encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "irnb", "evaluate", "-m", "HalfP@2", "qrels", "run"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, check=False)
    assert cli.returncode == 0, cli.stderr[-3000:]
    assert cli.stdout.split() == ["run", "HalfP@2", "all", "0.2500"], cli.stdout
