"""trec_eval parity: every value trec_eval 10 prints in its own test suite, per topic and
``all``, to the printed 4 decimals, for every measure irnb implements.

The reference outputs and inputs are in ``../shared/reference/trec_eval`` (trec_eval's
``test/`` folder; ``QUICKTEST_COMMANDS.txt`` gives the command behind each file). The
flags map to ``evaluate`` options: ``-c`` → ``complete=True``, ``-M100`` →
``max_depth=100``, ``-l2`` → ``relevance_level=2``. Each (file, measure) is one test, so a
failure names both.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from irnb.experiment import Experiment
from irnb.measures import parse_measure
from irnb.metrics import evaluate

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REF = SHARED / "reference" / "trec_eval"

pytestmark = pytest.mark.shared

# out file → (qrels, results, evaluate options), as in QUICKTEST_COMMANDS.txt
CASES = {
    "out.test": ("qrels.test", "results.test", {}),
    "out.test.with-comments": ("qrels.test.with-comments", "results.test", {}),  # compared to out.test
    "out.comment.test": ("qrels.comment.test", "results.comment.test", {}),
    "out.test.a": ("qrels.test", "results.test", {}),
    "out.test.aq": ("qrels.test", "results.test", {}),
    "out.test.aqc": ("qrels.test", "results.trunc", {"complete": True}),
    "out.test.aqcM": ("qrels.test", "results.trunc", {"complete": True, "max_depth": 100}),
    "out.test.aql": ("qrels.rel_level", "results.test", {"relevance_level": 2}),
    "out.test.meas_params": ("qrels.test", "results.test", {}),
}
REFERENCE_FILE = {"out.test.with-comments": "out.test"}

# trec_eval outputs that are not numbers about a ranking: never implemented
NOT_MEASURES = {"runid", "relstring", "relstring_20"}
# out.test.meas_params: measures given parameters on the command line. Names trec_eval
# prints that irnb spells differently; None = not representable (custom recall points of
# 11pt_avg).
MEAS_PARAMS_NAMES = {
    "utility_2,-1,0,0": "Utility(a=2,b=-1,c=0)",
    "11pt_avg_.25,.5,.75": None,
    "ndcg_1=3,2=9,4=4.5": "nDCG(gains=1:3,2:9,4:4.5)",
}
COUNTS = {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}


def _read_reference(name: str) -> dict[str, dict[str, str]]:
    """measure → {topic or 'all' → printed value}."""
    out: dict[str, dict[str, str]] = {}
    with open(REF / name, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            parts = line.split()
            if len(parts) != 3:
                raise ValueError(f"{REF / name}:{number}: expected 'measure topic value', got {line!r}")
            measure, topic, value = parts
            out.setdefault(measure, {})[topic] = value
    return out


def _irnb_name(case: str, trec_name: str) -> str | None:
    if case == "out.test.meas_params" and trec_name in MEAS_PARAMS_NAMES:
        return MEAS_PARAMS_NAMES[trec_name]
    return trec_name


def _params():
    if not REF.is_dir():
        return [pytest.param("", "", marks=pytest.mark.skip(reason=f"needs {REF} (the project's ../shared folder)"))]
    out = []
    for case in CASES:
        for measure in _read_reference(REFERENCE_FILE.get(case, case)):
            if measure in NOT_MEASURES:
                continue
            marks = ()
            if _irnb_name(case, measure) is None:
                marks = pytest.mark.skip(reason=f"{measure}: custom recall points are not representable")
            out.append(pytest.param(case, measure, id=f"{case}:{measure}", marks=marks))
    return out


@cache
def _experiment(qrels: str, results: str) -> Experiment:
    return Experiment(str(REF / results), str(REF / qrels), compat="10")  # the outputs are trec_eval 10.0's


@cache
def _evaluation(case: str):
    """Every measure of one reference file, evaluated at once."""
    qrels, results, options = CASES[case]
    names = [_irnb_name(case, m) for m in _read_reference(REFERENCE_FILE.get(case, case))
             if m not in NOT_MEASURES]
    measures = [parse_measure(n) for n in names if n is not None]
    return evaluate(_experiment(qrels, results), measures, **options)


def _format(trec_name: str, value: float) -> str:
    if trec_name in COUNTS:
        assert float(value).is_integer(), f"{trec_name} must be a whole number, got {value}"
        return str(int(value))
    return f"{value:.4f}"


@pytest.mark.parametrize(("case", "trec_name"), _params())
def test_matches_trec_eval(case, trec_name):
    reference = _read_reference(REFERENCE_FILE.get(case, case))[trec_name]
    measure = parse_measure(_irnb_name(case, trec_name))
    ev = _evaluation(case)
    values = ev[measure]
    mine = {}
    s = 0  # trec_eval's test files hold one run
    for t, topic in enumerate(ev.topics):
        if ev.evaluated[s, t]:
            mine[topic] = _format(trec_name, values[s, t])
    if trec_name == "num_q":
        mine["all"] = str(int(ev.evaluated[s].sum()))
    else:
        mine["all"] = _format(trec_name, ev.aggregate(measure)[s])
    per_topic = {t: v for t, v in reference.items() if t != "all"}
    if per_topic:  # trec_eval -q: the same topics, each with the same value
        assert sorted(per_topic) == sorted(t for t in mine if t != "all")
    expected = reference
    got = {t: mine[t] for t in expected}
    assert got == expected


@pytest.mark.skipif(not REF.is_dir(), reason=f"needs {REF}")
def test_every_reference_measure_is_covered():
    """A measure trec_eval prints is either implemented (it parses) or named as not
    representable above: nothing is skipped silently."""
    names = set()
    for case in CASES:
        names |= set(_read_reference(REFERENCE_FILE.get(case, case)))
    unparsed = []
    for name in sorted(names - NOT_MEASURES - {k for k, v in MEAS_PARAMS_NAMES.items() if v is None}):
        try:
            parse_measure(MEAS_PARAMS_NAMES.get(name) or name)
        except ValueError:
            unparsed.append(name)
    assert unparsed == []
    assert len(names) > 100  # the all_trec files list ~100 measure names


@pytest.mark.skipif(not REF.is_dir(), reason=f"needs {REF}")
def test_trec_eval_rbp_is_graded_with_p_09():
    """trec_eval's rbp is graded (grade / top grade of the topic) with p = 0.9; irnb's
    default RBP is binary with p = 0.8. On qrels.rel_level with -l2, topic 301 has grades
    1, 2 and 4: binary RBP at level 2 and trec_eval's graded RBP must differ."""
    exp = _experiment("qrels.rel_level", "results.test")
    ev = evaluate(exp, ["rbp", "RBP(p=0.9)"], relevance_level=2)
    graded, binary = ev["rbp"][0], ev["RBP(p=0.9)"][0]
    t301 = exp.topics.index("301")
    assert f"{graded[t301]:.4f}" == "0.0465"
    assert not np.isclose(graded[t301], binary[t301])
