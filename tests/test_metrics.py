"""Measure kernels on tiny TREC snippets, with every expected value worked out by hand,
plus property tests (hypothesis) on random small experiments.

The main example (run A, topic 1), used by most tests::

    qrels  a=1  b=0  c=2  d=0  e=1  f=-1 (pooled, not judged)  g=1 (never retrieved)
    run    rank 1 a (1)   2 x (not in qrels)   3 c (2)   4 b (0)   5 f (-1)   6 e (1)

    R = 4 (a, c, e, g), N = 2 (b, d), judged = 6 (f is not), positive grades = 4,
    relevant at ranks 1, 3, 6; cumulative relevant 1 1 2 2 2 3.
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irnb.experiment import Experiment
from irnb.measures import FAMILIES, Measure, parse_measure
from irnb.metrics import evaluate


def make(runs: dict, qrels: dict, compat: str = "10") -> Experiment:
    """runs: {run: {topic: "docnos in rank order"}} (scores n, n−1, …, 1) or
    {run: {topic: [(docno, score), …]}}; qrels: {topic: {docno: grade}}. The hand values
    follow trec_eval 10.0's rules (``compat="10"``; 9.x differs in IPrec's rank rule)."""
    rows = []
    for run, topics in runs.items():
        for topic, docs in topics.items():
            if isinstance(docs, str):
                names = docs.split()
                docs = [(d, float(len(names) - i)) for i, d in enumerate(names)]
            rows += [{"run": run, "qid": topic, "docno": d, "score": s} for d, s in docs]
    qrows = [{"qid": t, "docno": d, "grade": g} for t, grades in qrels.items() for d, g in grades.items()]
    return Experiment(pd.DataFrame(rows), pd.DataFrame(qrows), compat=compat)


def value(exp: Experiment, measure: str, *, run: str = "A", topic: str = "1", **options) -> float:
    ev = evaluate(exp, [measure], **options)
    return float(ev[measure][exp.run_index(run)[0], exp.topics.index(topic)])


def mean(exp: Experiment, measure: str, *, run: str = "A", **options) -> float:
    ev = evaluate(exp, [measure], **options)
    return float(ev.aggregate(measure)[exp.run_index(run)[0]])


QRELS = {"1": {"a": 1, "b": 0, "c": 2, "d": 0, "e": 1, "f": -1, "g": 1}}
EXAMPLE = make({"A": {"1": "a x c b f e"}}, QRELS)

L2, L3, L5, L7 = (math.log2(n) for n in (2, 3, 5, 7))
DCG = 1 / L2 + 2 / math.log2(4) + 1 / L7  # gains 1 0 2 0 0 1 → 1 + 1 + 0.3562 = 2.3562
IDCG = 2 / L2 + 1 / L3 + 1 / math.log2(4) + 1 / L5  # ideal 2 1 1 1 → 3.5616
EPS = 1e-5  # trec_eval infAP smoothing

# measure on the example → value worked out by hand (topic 1 of run A)
HAND = {
    "num_q": 1,
    "NumRet": 6,
    "NumRet@4": 4,
    "NumRel": 4,  # a c e g
    "NumRelRet": 3,  # a c e
    "NumRelRet@3": 2,
    "NumNonRelJudgedRet": 1,  # b (f has a negative grade: not judged)
    "P@1": 1 / 1,
    "P@3": 2 / 3,  # 0.6667
    "P@5": 2 / 5,  # f (grade −1) counts as non-relevant
    "P@10": 3 / 10,  # run shorter than k: still divided by k
    "AP": (1 / 1 + 2 / 3 + 3 / 6) / 4,  # 0.5417
    "AP@3": (1 / 1 + 2 / 3) / 4,  # 0.4167
    "GMAP": (1 / 1 + 2 / 3 + 3 / 6) / 4,  # one topic: the geometric mean is AP itself
    "nDCG": DCG / IDCG,  # 2.3562 / 3.5616 = 0.6616
    "nDCG@3": (1 + 2 / math.log2(4)) / (2 + 1 / L3 + 1 / math.log2(4)),  # 2 / 3.1309 = 0.6388
    "Rprec": 2 / 4,  # top R = 4: a x c b
    "RR": 1 / 1,
    "RR@1": 1 / 1,
    "R@3": 2 / 4,
    "R@10": 3 / 4,
    "Success@1": 1,
    "IPrec@0": 1.0,  # c = max(round(0·4), 1) = 1 → best precision from rank 1 = 1/1
    "IPrec@0.5": 2 / 3,  # c = 2 → 2nd relevant at rank 3 → max(2/3, 2/4, 2/5, 3/6)
    "IPrec@0.75": 3 / 6,  # c = 3 → rank 6
    "IPrec@1": 0.0,  # c = 4 > 3 relevant retrieved
    # points 0 .1 .2 .3 → c = 1 (1.0); .4 .5 .6 → c = 2 (2/3); .7 .8 → c = 3 (1/2); .9 1 → c = 4 (0)
    "ElevenPointAP": (4 * 1 + 3 * (2 / 3) + 2 * 0.5 + 2 * 0) / 11,  # 7/11 = 0.6364
    "RprecMult(mult=0.5)": 1 / 2,  # c = floor(0.5·4 + 0.9) = 2 → P@2
    "RprecMult(mult=2)": 3 / 8,  # c = floor(8.9) = 8 > run length 6 → 3/8
    "RelP@2": 1 / 2,  # 1 relevant in the top 2 / min(2, R = 4)
    "RelP@10": 3 / 4,  # 3 / min(10, 4)
    # bpref: a (0 non-rel above) 1; c (x is unjudged) 1; e (b above; f not judged) 1 − 1/min(2, 4)
    "Bpref": (1 + 1 + (1 - 1 / 2)) / 4,  # 0.625
    "GMBpref": (1 + 1 + (1 - 1 / 2)) / 4,
    "infAP": (1  # a at k = 1
              + (1 / 3 + (2 / 3) * (1 / 2) * (1 + EPS) / (1 + 2 * EPS))  # c: pooled above {a}, 1 rel, 0 non-rel
              + (1 / 6 + (5 / 6) * (4 / 5) * (2 + EPS) / (3 + 2 * EPS))  # e: pooled above {a, c, b, f}
              ) / 4,  # ≈ 0.5694
    # nDCGRel: DCG@1/IDCG@1 + DCG@3/IDCG@3 + DCG@6/IDCG@4, and the unretrieved g adds DCG/IDCG
    "nDCGRel": (1 / 2 + 2 / (2 + 1 / L3 + 0.5) + 2 * DCG / IDCG) / 4,  # 0.6155
    # RnDCG: ideal gain changes after 1 (grade 2) and 4 (grade 1) docs; run longer than 4 + 1
    "RnDCG": (1 / 2 + 2 / IDCG + DCG / IDCG) / 3,  # 0.5744
    # G: cost 2 3 4 5 6 7 (ideal gains 2 1 1 1, then 1 each); gained 1 1 3 3 3 4
    "G": (1 / math.log2(2 + 2 - 1) + 2 / math.log2(2 + 4 - 3) + 1 / math.log2(2 + 7 - 4)) / 5,  # 0.4647
    "BinG": (1 / L2 + 1 / L3 + 1 / math.log2(2 + 3)) / 4,  # non-relevant above a, c, e: 0, 1, 3
    "SetP": 3 / 6,
    "SetR": 3 / 4,
    "SetF": 2 * (1 / 2) * (3 / 4) / (1 / 2 + 3 / 4),  # 0.6
    "SetF(beta=2)": 5 * (1 / 2) * (3 / 4) / (4 * (1 / 2) + 3 / 4),  # 0.6818
    "SetAP": 3 * 3 / (6 * 4),  # 0.375
    "SetRelP": 3 / min(6, 4),
    "Utility": 1 * 3 - 1 * 3 + 0 * 1,  # a·rel ret + b·non-rel ret + c·rel not ret = 0
    "Utility(a=2,b=-1,c=-0.5)": 2 * 3 - 1 * 3 - 0.5 * 1,  # 2.5
    "Unj@5": 2 / 5,  # x and f
    "Judged@5": 3 / 5,  # a c b
    "Judged@10": 4 / 10,  # a c b e over k = 10 (the run's 4 missing ranks count as unjudged)
    "JudgedRet@10": 4 / 6,  # a c b e over min(10, run length 6): ir_measures' Judged@10
    "JudgedRet@5": 3 / 5,
    "NotUnj@10": 1 - 2 / 10,  # 1 − unj@10: x and f unjudged; missing ranks 7–10 count as judged
    "NotUnj@5": 1 - 2 / 5,
    "MAA": (1 / 1 + 2 / 3 + 3 / 4 + 4 / 6) / 4,  # A_p at judged ranks 1, 3, 4, 6 = 0.7708
    "MAA@3": (1 / 1 + 2 / 3) / 2,
    "MAAR": (1 / 1 + 2 / 3 + 3 / 4 + 4 / 6) / 6,  # the same sum over the 6 judged in the qrels = 0.5139
    "MAAR@3": (1 / 1 + 2 / 3) / 6,
    # bpref-10: C = R + 10 = 14; e has b above: 1 − min(1, 14)/min(N = 2, 14)
    "Bpref10": (1 + 1 + (1 - 1 / 2)) / 4,  # N = 2 < R: equal to bpref (see test_bpref10_…)
    "RecallAssessment": 4 / 6,  # judged retrieved a c b e / judged a b c d e g
    "RankEff": (1 + 1 + (1 - 1 / 2)) / 4,  # N = 2 ≤ R: same as bpref here (see test_rank_eff_differs)
    "RBP(p=0.5)": 0.5 * (1 + 0.5 ** 2 + 0.5 ** 5),  # ranks 1 3 6 relevant: 0.6406
    "RBP(p=0.5)@3": 0.5 * (1 + 0.5 ** 2),  # 0.625
    "RBP(p=0.5,gain=graded)": 0.5 * (1 / 2 + 0.5 ** 2 * 2 / 2 + 0.5 ** 5 * 1 / 2),  # gains grade/2: 0.3828
    "RBPResidual(p=0.5)": 0.5 * (0.5 ** 1 + 0.5 ** 4) + 0.5 ** 6,  # x at 2, f at 5, tail 0.5^6: 0.2969
    "RBPResidual(p=0.5)@3": 0.5 * 0.5 + 0.5 ** 3,  # x at 2, tail after 3: 0.375
    "RBPResidual(p=0.5,tail=if_unjudged)": 0.5 * (0.5 ** 1 + 0.5 ** 4) + 0.5 ** 6,
    "SDCG@3": (1 + 1 / math.log2(4)) / (1 + 1 / L3 + 1 / math.log2(4)),  # 1.5 / 2.1309 = 0.7039
    # condensed list (x and f removed): a(1) c(2) b(0) e(1)
    "P@3(j)": 2 / 3,
    "AP(j)": (1 / 1 + 2 / 2 + 3 / 4) / 4,  # 0.6875 (f kept as non-relevant would give 0.65)
    "nDCG(j)": (1 + 2 / L3 + 1 / L5) / IDCG,  # 2.6925 / 3.5616 = 0.7560
}


def _family_examples() -> dict[str, float]:
    """The hand values on EXAMPLE that a family's own test states (``EXAMPLE_VALUES`` in
    tests/measures/test_<module>.py), so that a new family brings them in its own test file."""
    out = {}
    for path in sorted((Path(__file__).parent / "measures").glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"_examples_of_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out.update(getattr(module, "EXAMPLE_VALUES", {}))
    return out


FAMILY_EXAMPLES = _family_examples()
HAND.update(FAMILY_EXAMPLES)


@pytest.mark.parametrize("name", list(HAND))
def test_hand_computed(name):
    assert value(EXAMPLE, name) == pytest.approx(HAND[name], abs=1e-12)


def test_interpolated_precision_follows_trec_eval_9_rank_rule_under_compat_9():
    """trec_eval 9.x: c = floor(x·R + 0.9), R = 4: points 0 .1 .2 → c = 1 (1.0); .3 .4 .5 →
    c = 2 (2/3); .6 .7 → c = 3 (1/2); .8 .9 1 → c = 4 (0); 10.0 rounds (see HAND)."""
    nine = make({"A": {"1": "a x c b f e"}}, QRELS, compat="9")
    assert value(nine, "ElevenPointAP") == pytest.approx((3 * 1 + 3 * (2 / 3) + 2 * 0.5) / 11, abs=1e-12)
    assert value(nine, "IPrec@0.3") == pytest.approx(2 / 3)  # floor(2.1) = 2; trec_eval 10: round(1.2) = 1
    assert value(EXAMPLE, "IPrec@0.3") == pytest.approx(1.0)


def test_every_family_has_a_hand_computed_example():
    covered = {parse_measure(name).family for name in HAND}
    assert sorted(set(FAMILIES) - covered) == []


def test_example_means_equal_the_single_topic():
    ev = evaluate(EXAMPLE, list(HAND))
    for name, expected in HAND.items():
        assert float(ev.aggregate(name)[0]) == pytest.approx(expected, abs=1e-12), name


# ====================================================================== rules, one test each
def test_negative_grade_is_non_relevant_for_precision_but_unjudged_for_coverage():
    """f (grade −1) at rank 5: P@5 counts it non-relevant, Judged@5 and Unj@5 unjudged,
    bpref ignores it (e's term uses only b), and the condensed list drops it."""
    assert value(EXAMPLE, "P@5") == pytest.approx(2 / 5)
    assert value(EXAMPLE, "Judged@5") == pytest.approx(3 / 5)  # not 4/5
    assert value(EXAMPLE, "Unj@5") == pytest.approx(2 / 5)
    assert value(EXAMPLE, "Bpref") == pytest.approx((1 + 1 + 1 / 2) / 4)  # not (1 + 1 + 0) / 4
    # the same qrels with f judged non-relevant: N = 3 and e has b, f above: 1 − 2/min(3, 4)
    judged_f = make({"A": {"1": "a x c b f e"}}, {"1": {**QRELS["1"], "f": 0}})
    assert value(judged_f, "Bpref") == pytest.approx((1 + 1 + 1 / 3) / 4)  # 0.5833
    assert value(judged_f, "AP(j)") == pytest.approx((1 + 1 + 3 / 5) / 4)  # f stays: e at rank 5


def test_relevance_level_two():
    """Only c (grade 2) is relevant; grade 1 turns non-relevant: R = 1, N = 5."""
    assert value(EXAMPLE, "P(rel=2)@3") == pytest.approx(1 / 3)
    assert value(EXAMPLE, "P@3", relevance_level=2) == pytest.approx(1 / 3)
    assert value(EXAMPLE, "AP", relevance_level=2) == pytest.approx((1 / 3) / 1)
    assert value(EXAMPLE, "NumRel", relevance_level=2) == 1
    assert value(EXAMPLE, "NumNonRelJudgedRet", relevance_level=2) == 3  # a b e
    # bpref: a (now non-relevant) above c → 1 − min(1, 1)/min(5, 1) = 0
    assert value(EXAMPLE, "Bpref", relevance_level=2) == pytest.approx(0.0)
    # nDCG keeps graded gains whatever the level
    assert value(EXAMPLE, "nDCG", relevance_level=2) == pytest.approx(DCG / IDCG)
    # an explicit rel= wins over the evaluate() level
    assert value(EXAMPLE, "P(rel=1)@3", relevance_level=2) == pytest.approx(1 / 3)  # rel=1 is the default spelling
    assert value(EXAMPLE, "P(rel=2)@3", relevance_level=1) == pytest.approx(1 / 3)


def test_rank_eff_differs_from_bpref_when_n_exceeds_r():
    """At relevance level 2: R = 1, N = 5, one non-relevant (a) above c.
    bpref = 1 − min(1, 1)/min(5, 1) = 0; RankEff = 1 − 1/5 = 0.8."""
    assert value(EXAMPLE, "Bpref", relevance_level=2) == pytest.approx(0.0)
    assert value(EXAMPLE, "RankEff", relevance_level=2) == pytest.approx(0.8)


def test_no_relevant_documents_scores_zero():
    """R = 0 (topic 2 has only non-relevant judgments): every measure that divides by R,
    or looks for a relevant document, is 0; coverage measures are not."""
    exp = make({"A": {"1": "a", "2": "p z"}}, {"1": {"a": 1}, "2": {"p": 0, "q": 0}})
    zero = ["P@1", "AP", "nDCG", "nDCG@2", "Rprec", "RR", "R@2", "Success@2", "IPrec@0", "ElevenPointAP",
            "RprecMult(mult=1)", "RelP@2", "Bpref", "infAP", "nDCGRel", "RnDCG", "G", "BinG", "SetP", "SetR",
            "SetF", "SetAP", "SetRelP", "RankEff", "RBP", "SDCG@2", "P@2(j)", "AP(j)", "nDCG(j)"]
    ev = evaluate(exp, zero + ["Judged@2", "RBPResidual(p=0.5)", "Utility"])
    t = exp.topics.index("2")
    assert {m: float(ev[m][0, t]) for m in zero} == {m: 0.0 for m in zero}
    assert ev["Judged@2"][0, t] == pytest.approx(1 / 2)  # p judged, z not
    assert ev["RBPResidual(p=0.5)"][0, t] == pytest.approx(0.5 * 0.5 + 0.5 ** 2)  # z at rank 2 + tail
    assert ev["Utility"][0, t] == pytest.approx(-2)  # two non-relevant retrieved


def test_no_judged_non_relevant_documents():
    """N = 0: bpref's min(N, R) is 0; a relevant document with no judged non-relevant above
    scores 1 (trec_eval), so bpref = 1; RankEff likewise."""
    exp = make({"A": {"1": "b x a"}}, {"1": {"a": 1, "b": 1}})
    assert value(exp, "Bpref") == pytest.approx(1.0)
    assert value(exp, "RankEff") == pytest.approx(1.0)
    assert value(exp, "AP") == pytest.approx((1 / 1 + 2 / 3) / 2)


def test_everything_unjudged():
    """No retrieved document is in the qrels: precision 0, coverage 0, the residual is all
    of RBP's mass: (1 − p)(1 + p + p²) + p³ = 1."""
    exp = make({"A": {"1": "x y z"}}, {"1": {"a": 1, "b": 0}})
    assert value(exp, "P@3") == 0.0
    assert value(exp, "Judged@3") == 0.0
    assert value(exp, "Unj@3") == pytest.approx(1.0)
    assert value(exp, "RBP(p=0.5)") == 0.0
    assert value(exp, "RBPResidual(p=0.5)") == pytest.approx(0.5 * (1 + 0.5 + 0.25) + 0.125)
    assert value(exp, "RBPResidual(p=0.5,tail=if_unjudged)") == pytest.approx(1.0)
    assert value(exp, "P@3(j)") == 0.0  # the condensed list is empty
    assert value(exp, "MAA") == 0.0
    assert value(exp, "Bpref") == 0.0


def test_all_judged_residual_is_the_tail_only():
    """Everything judged: residual = p^n (irnb, rbp_eval); trec_eval's rbp_resid is 0."""
    exp = make({"A": {"1": "a b"}}, {"1": {"a": 1, "b": 0}})
    assert value(exp, "RBPResidual(p=0.5)") == pytest.approx(0.25)
    assert value(exp, "RBPResidual(p=0.5,tail=if_unjudged)") == 0.0
    assert value(exp, "rbp_resid") == 0.0


def test_graded_rbp_divides_by_the_topics_top_grade():
    """trec_eval's rbp: p = 0.9, gain = grade / top grade (only when that exceeds 1)."""
    exp = make({"A": {"1": "c a"}}, {"1": {"a": 1, "c": 4}})
    assert value(exp, "rbp") == pytest.approx(0.1 * (4 / 4 + 0.9 * 1 / 4))  # 0.1225
    binary = make({"A": {"1": "c a"}}, {"1": {"a": 1, "c": 1}})
    assert value(binary, "rbp") == pytest.approx(0.1 * (1 + 0.9))  # grades ≤ 1: gain = grade


def test_ties_break_by_docno_descending():
    """Equal scores: docno descending (trec_eval), whatever the file order or rank column."""
    exp = make({"A": {"1": [("a", 1.0), ("c", 1.0), ("b", 1.0)]}}, {"1": {"c": 1, "a": 1}})
    # ranking c, b, a: relevant at 1 and 3
    assert value(exp, "RR") == 1.0
    assert value(exp, "AP") == pytest.approx((1 / 1 + 2 / 3) / 2)
    assert value(exp, "P@2") == pytest.approx(1 / 2)
    mixed = make({"A": {"1": [("a", 2.0), ("b", 1.0), ("z", 1.0), ("c", 0.5)]}}, {"1": {"b": 1}})
    assert value(mixed, "RR") == pytest.approx(1 / 3)  # a, z, b, c


def test_run_shorter_than_k():
    exp = make({"A": {"1": "a b"}}, {"1": {"a": 1, "b": 1, "c": 1}})
    assert value(exp, "P@5") == pytest.approx(2 / 5)
    assert value(exp, "Judged@5") == pytest.approx(2 / 5)  # over k: the 3 missing ranks are unjudged
    assert value(exp, "JudgedRet@5") == pytest.approx(2 / 2)  # over min(k, run length)
    assert value(exp, "NotUnj@5") == pytest.approx(1.0)  # missing ranks count as judged
    assert value(exp, "Unj@5") == 0.0
    assert value(exp, "NumRet@5") == 2
    assert value(exp, "RelP@5") == pytest.approx(2 / 3)
    assert value(exp, "SDCG@4") == pytest.approx((1 + 1 / L3) / (1 + 1 / L3 + 1 / 2 + 1 / L5))
    assert value(exp, "RBPResidual(p=0.5)@5") == pytest.approx(0.5 ** 2)  # tail after 2, not after 5


def test_complete_mode_scores_unanswered_topics_zero():
    """Run A answers topic 1 only. Default: mean over answered topics (trec_eval);
    complete=True: over both qrels topics, topic 2 scoring 0 (trec_eval -c)."""
    exp = make({"A": {"1": "a x c b f e"}, "B": {"1": "a", "2": "h"}},
               {**QRELS, "2": {"h": 1}})
    ap = (1 + 2 / 3 + 3 / 6) / 4
    assert mean(exp, "AP") == pytest.approx(ap)
    assert mean(exp, "AP", complete=True) == pytest.approx(ap / 2)
    assert mean(exp, "num_q") == 1
    assert mean(exp, "num_q", complete=True) == 2
    assert mean(exp, "NumRel", complete=True) == 4 + 1
    assert mean(exp, "GMAP", complete=True) == pytest.approx(math.sqrt(ap * 1e-5))  # 0 floored at 1e-5
    assert mean(exp, "AP", run="B") == pytest.approx(((1 / 1) / 4 + 1 / 1) / 2)


def test_max_depth_cuts_every_ranking():
    """-M3: only a x c are seen: AP = (1 + 2/3)/4; the run now has 3 documents."""
    assert value(EXAMPLE, "AP", max_depth=3) == pytest.approx((1 + 2 / 3) / 4)
    assert value(EXAMPLE, "NumRet", max_depth=3) == 3
    assert value(EXAMPLE, "P@5", max_depth=3) == pytest.approx(2 / 5)
    assert value(EXAMPLE, "RBPResidual(p=0.5)", max_depth=3) == pytest.approx(0.5 * 0.5 + 0.5 ** 3)
    assert value(EXAMPLE, "SetP", max_depth=3) == pytest.approx(2 / 3)


def test_judged_only_evaluates_condensed_lists():
    """-J: x and f removed before ranking, so P@3 becomes P@3(j) and AP becomes AP(j)."""
    assert value(EXAMPLE, "P@3", judged_only=True) == pytest.approx(HAND["P@3(j)"])
    assert value(EXAMPLE, "AP", judged_only=True) == pytest.approx(HAND["AP(j)"])
    assert value(EXAMPLE, "NumRet", judged_only=True) == 4


def test_geometric_mean_over_topics():
    exp = make({"A": {"1": "a", "2": "p h"}}, {"1": {"a": 1}, "2": {"h": 1, "p": 0}})
    # AP per topic: 1 and 1/2 → GMAP = sqrt(1 · 0.5) = 0.7071
    assert mean(exp, "GMAP") == pytest.approx(math.sqrt(1 * 0.5))
    # bpref per topic: 1 and 1 − 1/1 = 0 → floored at 1e-5: sqrt(1e-5) = 0.003162
    assert mean(exp, "GMBpref") == pytest.approx(math.sqrt(1e-5))


def test_pool_mask_restricts_judgments():
    """judged= masks the qrels: entries outside the pool read as unjudged."""
    exp = EXAMPLE
    docnos = exp.judgments.qrel_docno.to_pylist()
    pool = np.array([d != "c" for d in docnos])  # c left out of the pool
    # relevant a, e (c unjudged now): R = 3 (a, e, g)
    assert value(exp, "AP", judged=pool) == pytest.approx((1 / 1 + 2 / 6) / 3)
    assert value(exp, "Judged@5", judged=pool) == pytest.approx(2 / 5)


def test_truth_qrels():
    exp = Experiment(pd.DataFrame({"run": "A", "qid": "1", "docno": ["a", "x"], "score": [2.0, 1.0]}),
                     pd.DataFrame({"qid": "1", "docno": ["a"], "grade": [1]}),
                     truth=pd.DataFrame({"qid": "1", "docno": ["a", "x"], "grade": [1, 1]}))
    assert value(exp, "P@2") == pytest.approx(1 / 2)
    assert value(exp, "P@2", truth=True) == pytest.approx(2 / 2)


def test_measure_objects_and_duplicates():
    ev = evaluate(EXAMPLE, ["map", "AP", Measure("P", 3)])
    assert [m.name for m in ev.measures] == ["AP", "P@3"]
    assert ev["P_3"][0, 0] == pytest.approx(2 / 3)
    with pytest.raises(KeyError, match="nDCG was not evaluated"):
        ev["ndcg"]


def test_evaluate_rejects_bad_options():
    with pytest.raises(ValueError, match=r"relevance_level must be an integer ≥ 1, got 0"):
        evaluate(EXAMPLE, ["AP"], relevance_level=0)
    with pytest.raises(ValueError, match=r"must be an integer ≥ 1, got 0"):
        evaluate(EXAMPLE, ["AP"], max_depth=0)
    with pytest.raises(TypeError, match="complete must be True or False"):
        evaluate(EXAMPLE, ["AP"], complete="yes")


def test_to_frame_and_means():
    exp = make({"A": {"1": "a x c b f e"}, "B": {"1": "g"}}, QRELS)
    ev = evaluate(exp, ["P@1", "NumRel"])
    frame = ev.to_frame()
    row = frame[(frame.run == "B") & (frame.topic == "1") & (frame.measure == "P@1")]
    assert row["value"].tolist() == [1.0]
    assert ev.means().loc["A", "NumRel"] == 4
    assert set(frame.topic) == {"1", "all"}


# ====================================================================== property tests
DOCS = [f"d{i}" for i in range(8)]


@st.composite
def experiments(draw, all_judged: bool = False):
    """2 runs × 3 topics; each topic judges a random subset of 8 documents (grades −1..2,
    or 0..2 when ``all_judged``, then every document is judged); runs rank random subsets
    with random (possibly tied) integer scores."""
    qrels = {}
    for t in ("1", "2", "3"):
        lo = 0 if all_judged else -1
        grades = draw(st.lists(st.integers(lo, 2), min_size=8, max_size=8))
        keep = [True] * 8 if all_judged else draw(st.lists(st.booleans(), min_size=8, max_size=8))
        judged = {d: g for d, g, k in zip(DOCS, grades, keep, strict=True) if k}
        qrels[t] = judged or {DOCS[0]: 0}
    runs = {}
    for r in ("A", "B"):
        runs[r] = {}
        for t in ("1", "2", "3"):
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
            scores = draw(st.lists(st.integers(0, 3), min_size=len(docs), max_size=len(docs)))
            runs[r][t] = [(d, float(s)) for d, s in zip(docs, scores, strict=True)]
    return runs, qrels


UNIT_MEASURES = [m for m in [
    "P@1", "P@5", "AP", "AP@3", "nDCG", "nDCG@3", "Rprec", "RR", "R@3", "Success@2", "IPrec@0", "IPrec@0.5",
    "IPrec@1", "ElevenPointAP", "RprecMult(mult=0.5)", "RprecMult(mult=2)", "RelP@3", "Bpref", "infAP",
    "nDCGRel", "RnDCG", "G", "BinG", "SetP", "SetR", "SetF", "SetF(beta=0.5)", "SetAP", "SetRelP", "Unj@5",
    "Judged@3", "JudgedRet@3", "NotUnj@5", "MAA", "MAAR", "Bpref10", "RecallAssessment", "RankEff", "RBP(p=0.5)",
    "RBP(p=0.9,gain=graded)",
    "RBPResidual(p=0.8)", "RBPResidual(p=0.8,tail=if_unjudged)", "SDCG@5", "P@3(j)", "AP(j)", "nDCG(j)", "GMAP",
    "GMBpref"]] + [m for m in FAMILY_EXAMPLES if FAMILIES[parse_measure(m).family].unit_range]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_unit_measures_cover_every_bounded_family():
    families = {parse_measure(m).family for m in UNIT_MEASURES}
    bounded = {name for name, f in FAMILIES.items() if f.unit_range}
    assert sorted(bounded - families) == []
    assert all(FAMILIES[f].unit_range for f in families)


@SETTINGS
@given(experiments(), st.integers(1, 3))
def test_bounded_measures_lie_in_unit_interval(data, level):
    runs, qrels = data
    ev = evaluate(make(runs, qrels), UNIT_MEASURES, relevance_level=level)
    for m in UNIT_MEASURES:
        values = ev[m]
        assert np.all(values >= -1e-12) and np.all(values <= 1 + 1e-12), m
        assert np.all((ev.aggregate(m) >= -1e-12) & (ev.aggregate(m) <= 1 + 1e-12)), m


@SETTINGS
@given(experiments(all_judged=True))
def test_everything_judged_collapses_condensed_and_coverage(data):
    runs, qrels = data
    exp = make(runs, qrels)
    ev = evaluate(exp, ["P@3", "P@3(j)", "AP", "AP(j)", "nDCG@5", "nDCG@5(j)", "Judged@3", "JudgedRet@3",
                        "NotUnj@3", "Unj@3", "RBPResidual(p=0.5)", "RBPResidual(p=0.5,tail=if_unjudged)"])
    np.testing.assert_allclose(ev["P@3(j)"], ev["P@3"])
    np.testing.assert_allclose(ev["AP(j)"], ev["AP"])
    np.testing.assert_allclose(ev["nDCG@5(j)"], ev["nDCG@5"])
    answered = exp.length > 0
    assert np.all(ev["JudgedRet@3"][answered] == 1.0)
    np.testing.assert_allclose(ev["Judged@3"], np.minimum(exp.length, 3) / 3)  # missing ranks unjudged
    assert np.all(ev["NotUnj@3"] == 1.0)  # missing ranks judged
    assert np.all(ev["Unj@3"] == 0.0)
    np.testing.assert_allclose(ev["RBPResidual(p=0.5)"], 0.5 ** exp.length)  # only the tail
    assert np.all(ev["RBPResidual(p=0.5,tail=if_unjudged)"] == 0.0)


@SETTINGS
@given(experiments())
def test_rbp_plus_residual_bounds_the_all_relevant_scenario(data):
    """Judge every unjudged retrieved document relevant (grade 1): that RBP lies in
    [RBP, RBP + residual] and misses the upper end by exactly the tail p^n."""
    runs, qrels = data
    low = make(runs, qrels)
    optimistic = {t: dict(g) for t, g in qrels.items()}
    for topics in runs.values():
        for t, docs in topics.items():
            for d, _ in docs:
                if optimistic[t].get(d, -1) < 0:
                    optimistic[t][d] = 1
    high = make(runs, optimistic)
    p = 0.8
    ev_low = evaluate(low, ["RBP(p=0.8)", "RBPResidual(p=0.8)"])
    rbp_high = evaluate(high, ["RBP(p=0.8)"])["RBP(p=0.8)"]
    upper = ev_low["RBP(p=0.8)"] + ev_low["RBPResidual(p=0.8)"]
    assert np.all(ev_low["RBP(p=0.8)"] <= rbp_high + 1e-12)
    assert np.all(rbp_high <= upper + 1e-12)
    np.testing.assert_allclose(rbp_high + p ** low.length, upper)


@SETTINGS
@given(experiments())
def test_consistency_between_measures(data):
    runs, qrels = data
    exp = make(runs, qrels)
    names = ["Rprec", "RprecMult(mult=1)", "Bpref", "RankEff", "NumRel", "NumNonRelJudgedRet", "NumRelRet",
             "NumRet", "SetP", "SetR", "ElevenPointAP", "IPrec@0", "IPrec@0.5", "IPrec@1", "R@8", "P@8"]
    names += [f"IPrec@{x}" for x in (0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9)]
    ev = evaluate(exp, names)
    # floor(1·R + 0.9) = R: Rprec_mult at 1.0 is Rprec
    np.testing.assert_allclose(ev["RprecMult(mult=1)"], ev["Rprec"])
    # bpref = RankEff where N ≤ R (then min(n, R) = n and min(N, R) = N)
    R = ev["NumRel"][0]
    N = np.array([sum(1 for g in qrels[t].values() if g == 0) for t in exp.topics])
    where = N <= R
    np.testing.assert_allclose(ev["Bpref"][:, where], ev["RankEff"][:, where])
    # interpolated precision never increases with recall; 11-point AP is their mean
    points = [ev[f"IPrec@{x}"] for x in (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1)]
    for a, b in zip(points, points[1:], strict=False):
        assert np.all(a >= b - 1e-12)
    np.testing.assert_allclose(ev["ElevenPointAP"], np.mean(points, axis=0))
    # runs hold at most 8 documents: P@8·8 and R@8·R count the relevant retrieved
    np.testing.assert_allclose(ev["P@8"] * 8, ev["NumRelRet"])
    np.testing.assert_allclose(ev["SetP"] * ev["NumRet"], ev["NumRelRet"])
    np.testing.assert_allclose(ev["R@8"] * R, np.where(R > 0, ev["NumRelRet"], 0))
    assert np.all(ev["NumNonRelJudgedRet"] + ev["NumRelRet"] <= ev["NumRet"])


@SETTINGS
@given(experiments(), st.sampled_from([1, 2, 3, 5, 8]))
def test_counts_grow_with_depth(data, k):
    runs, qrels = data
    ev = evaluate(make(runs, qrels), [f"NumRelRet@{k}", f"NumRelRet@{k + 1}", f"R@{k}", f"R@{k + 1}"])
    assert np.all(ev[f"NumRelRet@{k}"] <= ev[f"NumRelRet@{k + 1}"])
    assert np.all(ev[f"R@{k}"] <= ev[f"R@{k + 1}"] + 1e-12)


# ----------------------------------------------------------------- prebuilt views (view=)
def test_evaluate_reuses_a_prebuilt_view():
    from irnb.metrics import judged_view

    view = judged_view(EXAMPLE)
    ev = evaluate(EXAMPLE, ["P@3", "Pj@3", "P(rel=2)@3"], view=view)
    # top 3 = a(1) x c(2): P@3 = 2/3; condensed a c b: 2/3; at level 2 only c: 1/3
    assert ev["P@3"][0, 0] == pytest.approx(2 / 3)
    assert ev["Pj@3"][0, 0] == pytest.approx(2 / 3)
    assert ev["P(rel=2)@3"][0, 0] == pytest.approx(1 / 3)
    assert evaluate(EXAMPLE, ["P@3"], view=view, relevance_level=2)["P@3"][0, 0] == pytest.approx(1 / 3)
    # the pool travels with the view: without c judged, P@3 = 1/3 (only a)
    pool = np.asarray(EXAMPLE.judgments.qrel_docno) != "c"
    pooled = evaluate(EXAMPLE, ["P@3"], view=judged_view(EXAMPLE, judged=pool))
    assert pooled["P@3"][0, 0] == pytest.approx(1 / 3)
    assert pooled["P@3"][0, 0] == evaluate(EXAMPLE, ["P@3"], judged=pool)["P@3"][0, 0]
    # the condensed list and other levels were built once and kept on the view
    assert view.condensed is view.condensed
    assert view.at_level(1) is view and view.at_level(2) is view.at_level(2)
    assert view.at_level(2).relevance_level == 2 and view.at_level(2).num_rel.tolist() == [1]
    with pytest.raises(ValueError, match=r"drop judged=, max_depth="):
        evaluate(EXAMPLE, ["P@3"], view=view, judged=pool, max_depth=3)
    with pytest.raises(TypeError, match="view must be a Judged view"):
        evaluate(EXAMPLE, ["P@3"], view="all")


def test_at_level_shares_level_free_arrays():
    from irnb.metrics import judged_view

    view = judged_view(EXAMPLE)
    judged = view.judged
    other = view.at_level(2)
    assert other.judged is judged  # not recomputed
    assert other.rel[0, 0].tolist() == [False, False, True, False, False, False]  # only c (grade 2)


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "3"])
def test_max_depth_has_one_rule_for_evaluate_and_experiment(bad):
    message = re.escape(f"max_depth (run cutoff, trec_eval -M) must be an integer ≥ 1, got {bad!r}")
    with pytest.raises(ValueError, match=message):
        evaluate(EXAMPLE, ["P@3"], max_depth=bad)
    with pytest.raises(ValueError, match=message):
        Experiment(pd.DataFrame({"qid": "1", "docno": ["a"], "score": [1.0]}),
                   pd.DataFrame({"qid": "1", "docno": ["a"], "grade": [1]}), max_depth=bad)


def test_level_counts_beside_a_base_mask_equal_counting_afresh(rng):
    import pyarrow as pa

    from irnb.judgments import Judgments
    from irnb.poolmask import PoolMask
    from irnb.metrics import judged_level_counts, level_counts_beside

    for _ in range(200):
        Q, T = int(rng.integers(1, 40)), int(rng.integers(1, 6))
        topic = np.sort(rng.integers(0, T, Q)).astype(np.int32)
        grade = rng.choice(np.array([-1, 0, 1, 2, 3], np.int8), Q)
        j = Judgments(doc=np.zeros((1, T, 1), np.int32), qrel_topic=topic, qrel_grade=grade,
                      qrel_docno=pa.array([f"d{q}" for q in range(Q)]),
                      topic_start=np.searchsorted(topic, np.arange(T + 1)))
        half = rng.random(Q) < 0.5
        masks = [None, half, rng.random(Q) < 0.9, np.zeros(Q, bool),
                 PoolMask(half, pooled_unjudged=~half & (rng.random(Q) < 0.5))]
        for base in masks:
            base_counts = judged_level_counts(j, T, base)
            for judged in masks:
                want = judged_level_counts(j, T, judged)
                got = level_counts_beside(j, T, judged, base, base_counts)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)


def test_evaluate_a_run_larger_than_a_chunk_a_few_topics_at_a_time_gives_the_values_of_one_call(monkeypatch):
    """A run of more cells than a chunk is evaluated a few topics at a time (the last chunk
    shorter); every measure, under a pool, a cutoff, condensed lists, the truth and another
    relevance level, gives the values of one call over every run and topic, to the last bit."""
    from irnb import metrics
    from irnb.datasets import default
    from irnb.pooling import depth_pool

    exp = default().experiment
    S, T, D = exp.shape
    measures = ["P@10", "AP", "nDCG@10", "nDCG", "Bpref", "infAP", "RR", "Judged@10", "RBP(p=0.8)", "P@10(j)",
                "GMAP", "R-prec"]
    cases = [dict(), dict(judged=depth_pool(exp, depth=10).judged), dict(judged_only=True, max_depth=50),
             dict(truth=True), dict(relevance_level=2, complete=True)]
    monkeypatch.setattr(metrics, "_CHUNK_CELLS", S * T * D)  # one chunk: every run and topic at once
    whole = [evaluate(exp, measures, **case) for case in cases]
    monkeypatch.setattr(metrics, "_CHUNK_CELLS", 7 * D)  # each run 7 topics at a time
    assert T % 7 != 0
    chunks = []
    monkeypatch.setattr(metrics, "_view_of_runs", lambda *a, _view=metrics._view_of_runs, **kw: chunks.append(
        kw["runs"]) or _view(*a, **kw))
    for case, expected in zip(cases, whole, strict=True):
        got = evaluate(exp, measures, **case)
        for m in expected.measures:  # to the last bit: each ranking's sums in an order of its own
            np.testing.assert_array_equal(got[m], expected[m], err_msg=f"{m.name} {case}")
        np.testing.assert_array_equal(got.evaluated, expected.evaluated)
    assert len(chunks) == len(cases) * S * -(-T // 7)  # every run in ceil(T / 7) chunks of topics
    assert chunks[0] == (slice(0, 1), slice(0, 7)) and chunks[-1] == (slice(S - 1, S), slice(T - T % 7, T - T % 7 + 7))


@pytest.mark.parametrize("chunk_runs", [1, 3, 40])
def test_equal_runs_get_equal_values_however_many_runs_are_evaluated_at_once(chunk_runs, monkeypatch):
    """The same ranking in chunks of different sizes (a shorter last chunk): its weighted sums
    (nDCG, SDCG, RBP and its residual) are the same to the last bit, so a paired test sees
    zero differences between equal runs."""
    from irnb import metrics
    from irnb.datasets import default

    base = default().experiment
    run = base.runs[base.run_names[0]]
    exp = Experiment({f"copy{i}": run for i in range(7)}, base.qrels)
    S, T, D = exp.shape
    monkeypatch.setattr(metrics, "_CHUNK_CELLS", chunk_runs * T * D)  # 7 runs: a last chunk shorter than the others
    got = evaluate(exp, ["nDCG", "nDCG@10", "SDCG@20", "RBP(p=0.8)", "RBPResidual(p=0.8)", "AP"])
    for m in got.measures:
        assert (got[m] == got[m][0]).all(), m.name


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 6), st.integers(-3, 5)), max_size=80), part=st.integers(1, 9))
def test_level_counts_of_counts_each_judged_grade_per_topic_in_parts(entries, part):
    """Counted a part at a time (parts smaller than the input here), the counts are those of
    a plain count of every (topic, grade ≥ 0) entry, in a (T, highest grade + 1) int64 array."""
    import irnb.metrics as metrics

    topic = np.array([t for t, _ in entries], dtype=np.int64)
    grade = np.array([g for _, g in entries], dtype=np.int8)
    T = 7
    judged = grade >= 0
    top = int(grade[judged].max(initial=0))
    expected = np.zeros((T, top + 1), dtype=np.int64)
    np.add.at(expected, (topic[judged], grade[judged].astype(np.int64)), 1)
    saved = metrics._COUNT_PART
    metrics._COUNT_PART = part
    try:
        got = metrics.level_counts_of(topic, grade, T)
    finally:
        metrics._COUNT_PART = saved
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, expected)
