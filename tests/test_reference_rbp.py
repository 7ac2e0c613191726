"""RBP parity with rbp_eval (Moffat & Zobel's reference tool): the ``N.spec`` files in
``../shared/reference/rbp_eval`` give, per topic and over all topics, RBP and its residual
("err") at depths 2, 5, 10 for p = 0.5, 0.8, 0.95, to 4 decimals.

What is tested and what is not:

* Only the runs WITHOUT tied scores (``noties.run``, ``noties-jumbled.run``): irnb breaks
  ties as trec_eval does (score descending, then docno descending), rbp_eval differently,
  so the tie specs (5, 6, 11) are not comparable. The jumbled run checks that irnb ranks by
  score, not by file order or the rank column.
* ``basic.qrels`` (binary): specs 1–4, every number (num_rel, num_ret, num_rel_ret, RBP,
  residual).
* ``mult.qrels`` (grades 0, 1, 2, 4): spec 10 folds them to binary at 1 (irnb's binary
  RBP at relevance level 1); spec 9 scales them to 0.25–1.0, which is irnb's graded gain
  (grade / the topic's top grade 4).
* ``frac.qrels`` (gains 0.25, 0.5, 1.0): irnb's qrels hold integer grades, so the file
  cannot be read. It is mult.qrels divided by 4 line by line (asserted below), so spec 7
  (fractional gains) is checked with mult.qrels and graded gain, and spec 8 (folded to
  binary at 0.25) with mult.qrels at relevance level 1. For the graded specs (7, 9)
  rbp_eval reports num_rel and num_rel_ret as sums of fractional gains, which are not irnb
  measures; those two lines are not compared there.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from irnb.experiment import Experiment
from irnb.metrics import evaluate

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REF = SHARED / "reference" / "rbp_eval"

pytestmark = pytest.mark.shared

# spec → (qrels irnb reads, gain rule); the spec's own qrels name is read from the file
SPECS = {
    "1.spec": ("basic.qrels", "binary"),
    "2.spec": ("basic.qrels", "binary"),
    "3.spec": ("basic.qrels", "binary"),
    "4.spec": ("basic.qrels", "binary"),
    "7.spec": ("mult.qrels", "graded"),  # frac.qrels == mult.qrels / 4
    "8.spec": ("mult.qrels", "binary"),  # frac ≥ 0.25 ⇔ mult ≥ 1
    "9.spec": ("mult.qrels", "graded"),  # -f 0.25: mult / 4
    "10.spec": ("mult.qrels", "binary"),  # -B: mult ≥ 1
}
TIED = {"5.spec", "6.spec", "11.spec"}


def _parse_spec(name: str) -> dict:
    """The spec's command line (flags, depths, p values, qrels, run) and its numbers."""
    lines = (REF / name).read_text(encoding="utf-8").splitlines()
    body = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    qids = [ln.split("qid=", 1)[1].strip() for ln in lines if ln.lstrip().startswith("#") and "qid=" in ln]
    args = body[0].split()
    flags = {}
    i = 0
    while i < len(args) - 2:
        if args[i] in ("-d", "-p", "-b", "-f"):
            flags[args[i]] = args[i + 1]
            i += 2
        else:
            flags[args[i]] = True
            i += 1
    depths = [int(x) for x in flags["-d"].split(",")]
    ps = [float(x) for x in flags["-p"].split(",")]
    values = [ln.split() for ln in body[1:]]
    block = 2 + len(depths) * (1 + len(ps))
    if len(values) != block * (len(qids) + 1):
        raise ValueError(f"{REF / name}: expected {block} lines per topic for {len(qids)} topics and 'all', "
                         f"got {len(values)}")
    expected = {}
    for q, qid in enumerate(qids + ["all"]):
        rows = iter(values[q * block:(q + 1) * block])
        expected[(qid, "num_rel")] = float(next(rows)[0])
        expected[(qid, "num_ret")] = float(next(rows)[0])
        for d in depths:
            expected[(qid, f"num_rel_ret@{d}")] = float(next(rows)[0])
            for p in ps:
                total, err = next(rows)
                expected[(qid, f"RBP@{d},p={p}")] = total
                expected[(qid, f"residual@{d},p={p}")] = err
    return {"qrels": args[-2], "run": args[-1], "depths": depths, "ps": ps, "qids": qids,
            "flags": flags, "expected": expected}


def _params():
    if not REF.is_dir():
        return [pytest.param("", marks=pytest.mark.skip(reason=f"needs {REF} (the project's ../shared folder)"))]
    return [pytest.param(name, id=name) for name in SPECS]


@cache
def _experiment(run: str, qrels: str) -> Experiment:
    return Experiment(str(REF / run), str(REF / qrels))


@pytest.mark.parametrize("spec_name", _params())
def test_rbp_matches_rbp_eval(spec_name):
    spec = _parse_spec(spec_name)
    qrels, gain = SPECS[spec_name]
    assert "noties" in spec["run"]  # only runs without ties are comparable
    exp = _experiment(spec["run"], qrels)
    measures = ["NumRel", "NumRet"]
    for d in spec["depths"]:
        measures.append(f"NumRelRet@{d}")
        for p in spec["ps"]:
            measures += [f"RBP(p={p},gain={gain})@{d}", f"RBPResidual(p={p})@{d}"]
    ev = evaluate(exp, measures)
    got = {}
    for qid in spec["qids"] + ["all"]:
        def value(m, qid=qid):
            return float(ev.aggregate(m)[0] if qid == "all" else ev[m][0, exp.topics.index(qid)])

        if gain == "binary":
            got[(qid, "num_rel")] = value("NumRel")
            for d in spec["depths"]:
                got[(qid, f"num_rel_ret@{d}")] = value(f"NumRelRet@{d}")
        got[(qid, "num_ret")] = value("NumRet")
        for d in spec["depths"]:
            for p in spec["ps"]:
                got[(qid, f"RBP@{d},p={p}")] = f"{value(f'RBP(p={p},gain={gain})@{d}'):.4f}"
                got[(qid, f"residual@{d},p={p}")] = f"{value(f'RBPResidual(p={p})@{d}'):.4f}"
    expected = {k: v for k, v in spec["expected"].items() if k in got}
    assert len(expected) == len(got) >= 3 * 9 * 2  # 3 topics-or-all × 9 (d, p) × (RBP, residual)
    assert got == expected


@pytest.mark.skipif(not REF.is_dir(), reason=f"needs {REF}")
def test_frac_qrels_are_mult_qrels_over_four():
    """The substitution used for specs 7 and 8 holds line by line."""
    frac = [ln.split() for ln in (REF / "frac.qrels").read_text().splitlines() if ln.strip()]
    mult = [ln.split() for ln in (REF / "mult.qrels").read_text().splitlines() if ln.strip()]
    assert len(frac) == len(mult) == 31
    for f, m in zip(frac, mult, strict=True):
        assert f[:3] == m[:3]
        assert float(f[3]) == int(m[3]) / 4
    assert {int(m[3]) for m in mult} == {0, 1, 2, 4}


@pytest.mark.skipif(not REF.is_dir(), reason=f"needs {REF}")
def test_spec_substitutions_are_the_specs_own_settings():
    """Specs 7–10 say which qrels and which gain rule they use; irnb's stand-ins above
    follow them (frac for 7 and 8 read as mult/4; -b 0.25, -B fold to binary; -f 0.25
    scales mult to 0.25–1)."""
    assert _parse_spec("7.spec")["qrels"] == "frac.qrels"
    assert _parse_spec("8.spec")["flags"]["-b"] == "0.25"
    assert _parse_spec("9.spec")["flags"]["-f"] == "0.25"
    assert _parse_spec("10.spec")["flags"]["-B"] is True
    assert {_parse_spec(n)["run"] for n in TIED} <= {"ties.run", "ties-jumbled.run", "manyties.run"}


@pytest.mark.skipif(not REF.is_dir(), reason=f"needs {REF}")
def test_jumbled_run_ranks_by_score_not_by_file_order():
    """noties-jumbled.run lists noties.run's lines in another order: same rankings."""
    plain = _experiment("noties.run", "basic.qrels")
    jumbled = _experiment("noties-jumbled.run", "basic.qrels")
    assert (plain.grade == jumbled.grade).all()
    assert plain.grade[0, 0, :3].tolist() == [1, -128, 0]  # X021 rel, X012 not in qrels, X011 non-rel
