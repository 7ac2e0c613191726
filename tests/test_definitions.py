"""The definitions page's rules (docs/definitions.md), each checked on a hand-computed inline
example and, where a peer computes the same thing, against the peer:

* Judged@k (A_p@k, divides by k), JudgedRet@k (ir_measures' Judged@k, divides by
  min(k, retrieved)) and NotUnj@k (1 − trec_eval's unj@k, missing ranks judged);
* MAA (the 2007 paper's words) and MAAR (its AP-like variant);
* Bpref10 (bpref-10, Buckley & Voorhees 2004 as described by Büttcher et al. 2007);
* random_subsample's removed judgments stay in the pool unjudged: infAP as trec_eval 10
  computes it on the file Pool.write writes (grade -1), on the embedded default and on
  TREC-COVID round 1;
* the page names every measure family.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, shared_path
from irnb import Experiment, PoolMask
from irnb.measures import FAMILIES, parse_measure
from irnb.measures.base import format_value
from irnb.metrics import evaluate
from irnb.pooling import Pool, depth_pool, random_subsample

from test_metrics import experiments, make, value

PAGE = REPO / "docs" / "definitions.md"

# ============================================================================ the three Judged@k
# One topic; qrels judge a (1), c (0), e (2); f has grade -1 (pooled, not judged).
# Run S ranks a x c (3 documents, 2 judged); run L ranks a x c f e y (6 documents, 3 judged).
SIDE = make({"S": {"1": "a x c"}, "L": {"1": "a x c f e y"}}, {"1": {"a": 1, "c": 0, "e": 2, "f": -1}})

# measure → (run S, run L), worked out by hand; the same table is on the definitions page
SIDE_BY_SIDE = {
    "Judged@2": (1 / 2, 1 / 2),  # a judged, x not: the three agree when both runs reach k
    "JudgedRet@2": (1 / 2, 1 / 2),
    "NotUnj@2": (1 / 2, 1 / 2),
    "Judged@5": (2 / 5, 3 / 5),  # S: a c over k = 5 (ranks 4–5 missing: unjudged); L: a c e (f is −1)
    "JudgedRet@5": (2 / 3, 3 / 5),  # S: over min(5, 3) = 3
    "NotUnj@5": (1 - 1 / 5, 1 - 2 / 5),  # S: only x unjudged, missing ranks judged; L: x and f
    "Judged@10": (2 / 10, 3 / 10),
    "JudgedRet@10": (2 / 3, 3 / 6),
    "NotUnj@10": (1 - 1 / 10, 1 - 3 / 10),  # L: x f y unjudged
}


@pytest.mark.parametrize("name", list(SIDE_BY_SIDE))
def test_judged_three_ways_by_hand(name):
    short, long = SIDE_BY_SIDE[name]
    assert value(SIDE, name, run="S") == pytest.approx(short, abs=1e-12)
    assert value(SIDE, name, run="L") == pytest.approx(long, abs=1e-12)


def test_side_by_side_table_is_on_the_page():
    """The page's table prints the hand values above (4 decimals), so it cannot drift."""
    text = PAGE.read_text(encoding="utf-8")
    for name, (short, long) in SIDE_BY_SIDE.items():
        row = re.search(rf"^\|\s*`{re.escape(name)}`\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|", text, re.M)
        assert row, f"no row for {name} in {PAGE}"
        assert (float(row.group(1)), float(row.group(2))) == (round(short, 4), round(long, 4)), name


def test_unanswered_topic_with_complete():
    """-c: a topic the run did not answer is an empty ranking: Judged@k = JudgedRet@k = 0,
    NotUnj@k = 1 − unj@k = 1 (trec_eval sets unj to 0 for a missing topic)."""
    exp = make({"A": {"1": "a"}}, {"1": {"a": 1}, "2": {"b": 1}})
    ev = evaluate(exp, ["Judged@5", "JudgedRet@5", "NotUnj@5"], complete=True)
    t = exp.topics.index("2")
    assert [float(ev[m][0, t]) for m in ("Judged@5", "JudgedRet@5", "NotUnj@5")] == [0.0, 0.0, 1.0]


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(experiments(), st.integers(1, 10))
def test_judged_variants_order_and_meet(data, k):
    """Judged@k ≤ JudgedRet@k and Judged@k ≤ NotUnj@k; all three are equal where the run
    has at least k documents; NotUnj@k = 1 − Unj@k; MAAR ≤ MAA."""
    runs, qrels = data
    exp = make(runs, qrels)
    names = [f"Judged@{k}", f"JudgedRet@{k}", f"NotUnj@{k}", f"Unj@{k}", "MAA", "MAAR"]
    ev = evaluate(exp, names)
    judged, ret, not_unj, unj = (ev[n] for n in names[:4])
    assert np.all(judged <= ret + 1e-12) and np.all(judged <= not_unj + 1e-12)
    full = exp.length >= k
    np.testing.assert_allclose(ret[full], judged[full])
    np.testing.assert_allclose(not_unj[full], judged[full])
    np.testing.assert_allclose(not_unj, 1 - unj)
    assert np.all(ev["MAAR"] <= ev["MAA"] + 1e-12)


def _tie_free(exp: Experiment, names=None) -> dict[str, dict[str, list[str]]]:
    """run → topic → docnos in irnb's (trec_eval's) ranking order."""
    out: dict[str, dict[str, list[str]]] = {}
    for name in names or exp.run_names:
        table = exp.runs[name].table
        topics = table["topic"].to_pylist()
        docnos = table["docno"].to_pylist()
        ranking: dict[str, list[str]] = {}
        for topic, docno in zip(topics, docnos, strict=True):
            ranking.setdefault(topic, []).append(docno)
        out[name] = ranking
    return out


def _write_runs(rankings: dict[str, dict[str, list[str]]], folder: Path) -> dict[str, Path]:
    """Each run as a TREC file with distinct integer scores in the given order (no ties)."""
    paths = {}
    for name, topics in rankings.items():
        lines = [f"{topic} Q0 {docno} {i + 1} {len(docs) - i} {name}"
                 for topic, docs in topics.items() for i, docno in enumerate(docs)]
        path = folder / f"{name}.run"
        path.write_text("\n".join(lines) + "\n")
        paths[name] = path
    return paths


@pytest.fixture(scope="module")
def covid_runs(tmp_path_factory):
    """Six TREC-COVID round 1 runs shorter than 100 documents on some topic (sheikh_bm25_all
    has 34 on one), rewritten without ties, and the round-1 qrels."""
    folder = shared_path("data", "trec-covid-round1")
    wanted = {"sheikh_bm25_all", "lda400s2000", "BERT", "ir_covid19_cle_ib", "T5R1", "Tetralogie0Fr"}
    out = tmp_path_factory.mktemp("covid_runs")
    with tarfile.open(folder / "runs-round1.tar.xz") as tar:
        for member in tar:
            name = member.name.rsplit("/", 1)[-1]
            if member.isfile() and name in wanted:
                (out / name).write_bytes(tar.extractfile(member).read())
    exp = Experiment({n: out / n for n in sorted(wanted)}, folder / "qrels-rnd1.txt")
    paths = _write_runs(_tie_free(exp), tmp_path_factory.mktemp("covid_tie_free"))
    # compat="10": compared with the trec_eval 10.0 binary (iprec_at_recall's rank rule)
    return Experiment(paths, folder / "qrels-rnd1.txt", compat="10"), paths, folder / "qrels-rnd1.txt"


@pytest.mark.shared
def test_judged_ret_equals_ir_measures_judged_on_trec_covid(covid_runs):
    """JudgedRet@k is ir_measures' Judged@k (which divides by min(k, run length)), on real
    runs without ties; Judged@k is not, where a run is shorter than k."""
    ir_measures = pytest.importorskip("ir_measures")
    exp, paths, qrels_path = covid_runs
    assert (exp.length[exp.length > 0] < 100).any()  # some ranking shorter than 100
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    cutoffs = (10, 100, 1000)
    ev = evaluate(exp, [f"JudgedRet@{k}" for k in cutoffs] + ["Judged@1000"])
    for name, path in paths.items():
        s = exp.run_index(name)[0]
        run = list(ir_measures.read_trec_run(str(path)))
        peer = ir_measures.iter_calc([ir_measures.parse_measure(f"Judged@{k}") for k in cutoffs], qrels, run)
        got = {(str(m.measure), m.query_id): m.value for m in peer}
        assert len(got) == len(cutoffs) * int((exp.length[s] > 0).sum())
        for k in cutoffs:
            for t, topic in enumerate(exp.topics):
                if exp.length[s, t] > 0:
                    assert ev[f"JudgedRet@{k}"][s, t] == pytest.approx(got[f"Judged@{k}", topic], abs=1e-12)
    shorter = (exp.length > 0) & (exp.length < 1000)
    assert not np.allclose(ev["Judged@1000"][shorter], ev["JudgedRet@1000"][shorter])


# ============================================================================ trec_eval, the binary
def _trec_eval(binary: Path, qrels: Path, run: Path, *measures: str) -> dict[tuple[str, str], float]:
    """(trec_eval measure name, topic or 'all') → value, from ``trec_eval -q``."""
    args = [str(binary), "-q"] + [a for m in measures for a in ("-m", m)] + [str(qrels), str(run)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    out = {}
    for line in done.stdout.splitlines():
        name, topic, number = line.split()
        try:
            out[name, topic] = float(number)
        except ValueError:
            continue  # runid, relstring
    return out


def test_not_unj_is_one_minus_trec_eval_unj(trec_eval_bin, tmp_path):
    """NotUnj@k = 1 − unj@k on a run shorter than k, with a pooled-unjudged (−1) document
    and one not in the qrels: trec_eval counts both as unjudged and the missing ranks as
    judged."""
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 c 0\n1 0 e 2\n1 0 f -1\n2 0 b 1\n")
    run = tmp_path / "run"
    rankings = {"r": {"1": ["a", "x", "c", "f", "e", "y"], "2": ["b", "z"]}}
    _write_runs(rankings, tmp_path)
    run = tmp_path / "r.run"
    ref = _trec_eval(trec_eval_bin, qrels, run, "unj.5,10,20")
    exp = Experiment({"r": run}, qrels)
    ev = evaluate(exp, ["NotUnj@5", "NotUnj@10", "NotUnj@20"])
    for k in (5, 10, 20):
        for t, topic in enumerate(exp.topics):
            assert ev[f"NotUnj@{k}"][0, t] == pytest.approx(1 - ref[f"unj_{k}", topic], abs=1e-4)
        assert ev.aggregate(f"NotUnj@{k}")[0] == pytest.approx(1 - ref[f"unj_{k}", "all"], abs=1e-4)
    assert ref["unj_10", "1"] == pytest.approx(3 / 10)  # x f y; ranks 7–10 count as judged


def test_decision_matrix_accepts_every_assessment_reading():
    """compare_table takes Judged@k, JudgedRet@k, NotUnj@k, MAA or MAAR as the assessment
    measure, and assessment_measure refuses them as performance measures. Run a is short
    (2 documents, both judged) and run b long (10, 2 judged), on 6 topics: at k = 10 a is
    the more assessed run by JudgedRet (1 vs 0.2) and NotUnj (1 vs 0.2), while Judged@10
    calls them equal (0.2 each) and the pair's assessment p-value is 1."""
    from irnb.decision import assessment_measure, compare_table

    topics = [str(t) for t in range(6)]
    runs = {"a": {t: f"j{t}a j{t}b" for t in topics},
            "b": {t: f"j{t}a j{t}b " + " ".join(f"u{t}{i}" for i in range(8)) for t in topics}}
    exp = make(runs, {t: {f"j{t}a": 1, f"j{t}b": 0} for t in topics})
    rows = {}
    for name in ("Judged@10", "JudgedRet@10", "NotUnj@10", "MAA", "MAAR"):
        table = compare_table(exp, "P@10", assessment=name, test="t")
        assert table.loc[0, "assessment"] == name
        rows[name] = table.loc[0]
        with pytest.raises(ValueError, match="already measures assessment"):
            assessment_measure(name)
    assert rows["Judged@10"]["p_assessment"] == 1.0
    assert rows["JudgedRet@10"]["more_assessed"] == rows["NotUnj@10"]["more_assessed"] == "a"
    assert rows["JudgedRet@10"]["p_assessment"] < 0.05


@pytest.mark.shared
def test_not_unj_on_trec_covid_short_runs(trec_eval_bin, covid_runs):
    """NotUnj@k = 1 − trec_eval's unj@k per topic on the six TREC-COVID runs, at depths
    beyond their shortest rankings (34 documents for sheikh_bm25_all on one topic)."""
    exp, paths, qrels = covid_runs
    ev = evaluate(exp, ["NotUnj@100", "NotUnj@1000", "Judged@1000"])
    for name, path in paths.items():
        ref = _trec_eval(trec_eval_bin, qrels, path, "unj.100,1000")
        s = exp.run_index(name)[0]
        for t, topic in enumerate(exp.topics):
            if exp.length[s, t] > 0:
                for k in (100, 1000):
                    assert ev[f"NotUnj@{k}"][s, t] == pytest.approx(1 - ref[f"unj_{k}", topic], abs=6e-5)
    short = (exp.length > 0) & (exp.length < 1000)
    assert np.all(ev["NotUnj@1000"][short] > ev["Judged@1000"][short])


# ============================================================================ MAA and MAAR
def test_maa_follows_the_paper_and_its_edge_case():
    """"The average over all ranks where an assessed document occurred": A_p@r averaged at
    the judged ranks only. One judged document at rank 1 gives 1.0 whatever follows (here
    999 unjudged documents); MAAR divides the same sum by the judged documents in the qrels."""
    exp = make({"A": {"1": "j " + " ".join(f"u{i}" for i in range(999))}}, {"1": {"j": 0, "k": 1, "m": 0}})
    assert value(exp, "MAA") == 1.0
    assert value(exp, "MAAR") == pytest.approx(1 / 3)  # 1/1 over 3 judged documents in the qrels
    assert value(exp, "Judged@1000") == pytest.approx(1 / 1000)
    # judged at ranks 2 and 4 of "u a u b": A_p = 1/2 and 2/4 → MAA 0.5; 4 judged in the qrels → MAAR 0.25
    two = make({"A": {"1": "u a v b"}}, {"1": {"a": 1, "b": 0, "c": 0, "d": 1}})
    assert value(two, "MAA") == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert value(two, "MAAR") == pytest.approx((1 / 2 + 2 / 4) / 4)
    assert value(two, "MAA@3") == pytest.approx(1 / 2)  # only rank 2 is judged in the top 3
    assert value(two, "MAAR@3") == pytest.approx((1 / 2) / 4)


def test_maar_is_one_when_every_judged_document_leads():
    """All judged documents of the qrels at the top: each A_p@r is 1, so MAAR = MAA = 1;
    MAAR falls when judged documents are missing from the run (as AP with R)."""
    exp = make({"A": {"1": "a b x"}, "B": {"1": "a x"}}, {"1": {"a": 1, "b": 0}})
    assert value(exp, "MAAR") == 1.0 and value(exp, "MAA") == 1.0
    assert value(exp, "MAAR", run="B") == pytest.approx(1 / 2) and value(exp, "MAA", run="B") == 1.0


# ============================================================================ bpref-10
def test_bpref10_by_hand():
    """R = 1 (r), N = 12 (n0 … n11). Run: n0 … n4, r, n5 …: 5 judged non-relevant above r.
    bpref: 1 − min(5, 1)/min(12, 1) = 0. bpref-10: C = R + 10 = 11,
    1 − min(5, 11)/min(12, 11) = 6/11 = 0.5455."""
    nonrel = {f"n{i:02d}": 0 for i in range(12)}
    run = " ".join([f"n{i:02d}" for i in range(5)] + ["r"] + [f"n{i:02d}" for i in range(5, 12)])
    exp = make({"A": {"1": run}}, {"1": {"r": 1, **nonrel}})
    assert value(exp, "Bpref") == 0.0
    assert value(exp, "Bpref10") == pytest.approx(6 / 11)
    # N < R + 10: the denominator is min(N, R + 10) = N (trec_eval 8's bpref_top10pRnonrel);
    # 2 judged non-relevant above r out of N = 4: 1 − 2/4
    few = make({"A": {"1": "n00 n01 r n02 n03"}}, {"1": {"r": 1, "n00": 0, "n01": 0, "n02": 0, "n03": 0}})
    assert value(few, "Bpref10") == pytest.approx(1 - 2 / 4)
    # all 12 above: min(12, 11) = 11 → 0; an unretrieved relevant document adds 0 (R = 2)
    late = make({"A": {"1": " ".join(nonrel) + " r"}}, {"1": {"r": 1, "s": 1, **nonrel}})
    assert value(late, "Bpref10") == pytest.approx((1 - min(12, 12) / min(12, 12)) / 2)
    assert value(make({"A": {"1": "r"}}, {"1": {"r": 1}}), "Bpref10") == 1.0  # N = 0: term 1


def test_bpref10_names():
    assert [str(parse_measure(n)) for n in ("Bpref10", "bpref-10", "bpref_top10pRnonrel")] == ["Bpref10"] * 3


@SETTINGS
@given(experiments())
def test_bpref10_is_bpref_when_n_at_most_r(data):
    """With N ≤ R both caps exceed every count, so bpref-10 = bpref = (1/R) Σ (1 − n_r/N)."""
    runs, qrels = data
    exp = make(runs, qrels)
    ev = evaluate(exp, ["Bpref", "Bpref10", "NumRel"])
    view_n = np.array([sum(1 for g in qrels[t].values() if g == 0) for t in exp.topics])
    view_r = np.array([sum(1 for g in qrels[t].values() if g >= 1) for t in exp.topics])
    small = (view_n <= view_r)[None, :] & np.ones_like(ev["Bpref"], dtype=bool)
    np.testing.assert_allclose(ev["Bpref10"][small], ev["Bpref"][small])


# ============================================================================ pooled but not judged
def test_pool_mask_reads_removed_entries_as_pooled_unjudged():
    """Run a x c b; qrels a=1, b=0, c=1. Remove a's judgment but keep it in the pool (−1):
    R = 1 (c), AP = (1/3)/1. infAP (trec_eval m_infap.c) at c, k = 3: one pooled document
    above (a; x is not in the pool), none judged: 1/3 + (2/3)·(1/2)·(0 + ε)/(0 + 2ε) = 1/2.
    Dropping a instead (a plain mask) leaves nothing pooled above c: infAP = 1/3 = AP."""
    exp = make({"A": {"1": "a x c b"}}, {"1": {"a": 1, "b": 0, "c": 1}})
    docnos = exp.judgments.qrel_docno.to_pylist()  # a b c
    removed = np.array([d == "a" for d in docnos])
    mask = PoolMask(~removed, pooled_unjudged=removed)
    eps = 1e-5
    # a (−1) at rank 1 is pooled: c at k = 3 has pool above = {a}, no judged above
    expected = (1 / 3 + (2 / 3) * (1 / 2) * (0 + eps) / (0 + 2 * eps)) / 1  # R = 1 (c)
    assert value(exp, "infAP", judged=mask) == pytest.approx(expected)  # 0.5
    assert value(exp, "AP", judged=mask) == pytest.approx((1 / 3) / 1)  # c at rank 3, R = 1
    # the same entry dropped (a plain mask): not in the pool, so infAP = AP = 1/3
    assert value(exp, "infAP", judged=~removed) == pytest.approx(1 / 3)
    # every other measure reads −1 and "dropped" alike
    for m in ("P@2", "AP", "Bpref", "nDCG", "Judged@3", "Unj@3", "MAA", "RBP(p=0.5)", "P@2(j)"):
        assert value(exp, m, judged=mask) == pytest.approx(value(exp, m, judged=~removed)), m


# every bounded measure but infAP: a pooled-unjudged (−1) entry and a dropped one read alike
_ALIKE = ["P@3", "AP", "nDCG@5", "RR", "Rprec", "Bpref", "Bpref10", "RankEff", "Judged@3", "JudgedRet@3",
          "NotUnj@3", "Unj@3", "MAA", "MAAR", "RecallAssessment", "RBP(p=0.5)", "RBPResidual(p=0.5)", "SDCG@3",
          "P@3(j)", "AP(j)", "nDCGRel", "BinG", "SetF"]


@SETTINGS
@given(experiments(), st.integers(0, 2 ** 16))
def test_pooled_unjudged_changes_only_infap(data, seed):
    """For any subset of the qrels removed, reading the removed entries as pooled-unjudged
    (−1) or dropping them gives the same values for every measure but infAP; and infAP
    with them dropped is computed on a pool whose documents are all judged."""
    runs, qrels = data
    exp = make(runs, qrels)
    removed = np.random.default_rng(seed).random(exp.judgments.num_judgments) < 0.5
    pooled = evaluate(exp, _ALIKE + ["infAP"], judged=PoolMask(~removed, pooled_unjudged=removed))
    dropped = evaluate(exp, _ALIKE + ["infAP"], judged=~removed)
    for m in _ALIKE:
        np.testing.assert_allclose(pooled[m], dropped[m], err_msg=m)


def test_pool_mask_is_plain_once_derived():
    m = PoolMask([True, False], pooled_unjudged=[False, True])
    assert (~m).pooled_unjudged is None and np.asarray(m).__class__ is np.ndarray
    with pytest.raises(ValueError, match="cannot be both judged and pooled_unjudged; 1 are"):
        PoolMask([True, False], pooled_unjudged=[True, False])
    with pytest.raises(ValueError, match=r"same length, got shapes \(2,\) and \(3,\)"):
        PoolMask([True, False], pooled_unjudged=[True, False, False])
    import pickle

    again = pickle.loads(pickle.dumps(m))
    assert again.tolist() == [True, False] and again.pooled_unjudged.tolist() == [False, True]


def test_random_subsample_frame_and_write_carry_grade_minus_one(tmp_path):
    exp = make({"A": {"1": "a b c d"}}, {"1": {"a": 1, "b": 0, "c": 1, "d": 0}})
    pool = random_subsample(exp, fraction=0.5, seed=3)
    assert pool.num_judged == 2 and pool.pooled_unjudged.sum() == 2
    frame = pool.frame(exp)
    assert len(frame) == 4 and (frame["grade"] == -1).sum() == 2
    pool.write(exp, tmp_path / "q")
    lines = (tmp_path / "q").read_text().split("\n")
    assert sum(line.endswith(" -1") for line in lines) == 2
    # a depth pool keeps the old meaning: entries outside it are not in the file
    assert len(depth_pool(exp, depth=1).frame(exp)) == 1
    assert Pool(pool.judged, "copy").pooled_unjudged.sum() == 2  # a Pool built from the mask keeps it


# trec_eval measures whose per-topic values irnb must reproduce on the written qrels
SHARED_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "gm_map", "Rprec", "bpref",
                   "recip_rank", "iprec_at_recall", "P", "relative_P", "recall", "infAP", "gm_bpref", "Rprec_mult",
                   "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
                   "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_q", "success", "unj",
                   "rbp", "rbp_resid")


def _agree_with_trec_eval(binary: Path, exp: Experiment, pool: Pool, runs: dict[str, Path], folder: Path) -> dict:
    """Write the pool's qrels; for every run, every measure trec_eval prints (per topic and
    'all') must equal irnb's ``evaluate(exp, judged=pool.judged)`` to trec_eval's 4 decimals.
    Returns {measure: irnb's mean over runs} for infAP and AP, and the number of values
    compared."""
    qrels = folder / "pool.qrels"
    pool.write(exp, qrels)
    means = {"infAP": [], "AP": []}
    compared = 0
    for name, path in runs.items():
        ref = _trec_eval(binary, qrels, path, *SHARED_MEASURES)
        names = sorted({n for n, _ in ref})
        measures = {n: parse_measure(n) for n in names}
        ev = evaluate(exp, list(dict.fromkeys(measures.values())), judged=pool.judged)
        s = exp.run_index(name)[0]
        for (trec_name, topic), expected in ref.items():
            m = measures[trec_name]
            got = ev.aggregate(m)[s] if topic == "all" else ev[m][s, exp.topics.index(topic)]
            assert got == pytest.approx(expected, abs=6e-5), (name, trec_name, topic)
            compared += 1
        means["infAP"].append(ev.aggregate("infAP")[s])
        means["AP"].append(ev.aggregate("AP")[s])
    return {**{k: float(np.mean(v)) for k, v in means.items()}, "compared": compared}


def test_random_subsample_infap_matches_trec_eval_on_the_default(trec_eval_bin, tmp_path):
    """Embedded default, half of each topic's judgments removed (seed 0), five runs: every
    measure trec_eval prints on the written qrels (with −1 entries) equals irnb's; infAP
    differs from AP (it would equal AP with the removed judgments dropped)."""
    from irnb.datasets import default

    exp = default().experiment
    names = list(exp.run_names[:5])
    runs = _write_runs(_tie_free(exp, names), tmp_path)
    tie_free = Experiment(runs, exp.qrels, compat="10")  # compared with the trec_eval 10.0 binary
    pool = random_subsample(tie_free, fraction=0.5, seed=0)
    means = _agree_with_trec_eval(trec_eval_bin, tie_free, pool, runs, tmp_path)
    assert means["compared"] > 5 * 50 * 90  # 5 runs × 50 topics × about 97 measure values
    assert abs(means["infAP"] - means["AP"]) > 0.01, means
    dropped = evaluate(tie_free, ["infAP", "AP"], judged=np.asarray(pool.judged))  # plain mask: dropped
    np.testing.assert_allclose(dropped["infAP"], dropped["AP"], atol=1e-4)


@pytest.mark.shared
def test_random_subsample_infap_matches_trec_eval_on_trec_covid(trec_eval_bin, covid_runs, tmp_path):
    exp, runs, _ = covid_runs
    pool = random_subsample(exp, fraction=0.5, seed=1)
    means = _agree_with_trec_eval(trec_eval_bin, exp, pool, runs, tmp_path)
    assert means["compared"] > 6 * 30 * 90
    assert abs(means["infAP"] - means["AP"]) > 0.01, means


# ============================================================================ the page
@pytest.fixture(scope="module")
def catalogue():
    """docs/_ext/measure_catalogue.py, the extension that writes the page's measure entries."""
    import importlib
    import sys

    folder = str(REPO / "docs" / "_ext")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module("measure_catalogue")
    finally:
        sys.path.remove(folder)


def _page_as_built(catalogue) -> str:
    """The page's text with its generated include in place, as Sphinx reads it."""
    text = PAGE.read_text(encoding="utf-8")
    include = f"```{{include}} {catalogue.GENERATED.as_posix()}\n```"
    assert text.count(include) == 1, f"docs/definitions.md must include {catalogue.GENERATED} once"
    return text.replace(include, catalogue.render())


def test_definitions_page_names_every_measure_family(catalogue):
    """Every family in irnb.measures.FAMILIES is written on the page as ``Name`` (so a new
    measure without an entry fails here): the page includes the entries that the docs build
    writes from the declarations, so each family has one entry there, under its module."""
    text = _page_as_built(catalogue)
    missing = [name for name in FAMILIES if not re.search(rf"`{re.escape(name)}[`@(]", text)]
    assert missing == []
    generated = catalogue.render()
    assert [name for name in FAMILIES if generated.count(f"(family `{name}`)") != 1] == []
    assert generated.count("\n### ") == len({f.module for f in FAMILIES.values()})


def test_a_family_entry_says_what_its_declaration_says(catalogue):
    """SDCG's entry, field by field, from its declaration; the set measures' module docstring
    after its first paragraph (the section's title); RBP's parameters and trec_eval defaults;
    Judged's role and symbol."""
    generated = catalogue.render()
    section = generated[generated.index("### Scaled DCG@k (Ravana & Moffat 2010)"):]
    section = section[:section.index("\n### ")]
    assert "Declared in `irnb/measures/sdcg.py`." in section
    assert ("**`SDCG@k`** (family `SDCG`): scaled DCG@k: binary-gain DCG@k (discount 1/log2(rank+1), irnb's "
            "choice) over the DCG@k") in section
    for line in ("- source: Ravana & Moffat 2010",
                 "- parameters: `k`, the measurement depth (required); `rel`, the relevance level (default 1)",
                 "- trec_eval name: none in trec_eval 10.0", "- unjudged documents: non-relevant (trec\\_eval)",
                 "- values: averaged over topics; each value in [0, 1]; higher is better",
                 "- bounds: score intervals [B, T] (Ravana & Moffat)",
                 "- decision matrix: a performance measure P; the papers' pairing takes `SDCG@10` with `Judged@10`"):
        assert line in section.splitlines(), line
    sets = generated[generated.index("### Set measures"):]
    assert "```{eval-rst}\n.. currentmodule:: irnb.measures.set_measures\n\n:func:`set_f` and" in sets
    rbp = catalogue.entry(FAMILIES["RBP"], FAMILIES)
    assert "`p` (default `0.8`; a number with 0 \\< p \\< 1)" in rbp
    assert "- trec_eval name: `rbp` (meaning `p=0.9`, `gain=graded`)" in rbp
    assert "score intervals [B, T] (Ravana & Moffat) with `gain=binary`" in rbp
    assert "`rel`, the relevance level (default 1); not used with `gain=graded`" in rbp
    judged = catalogue.entry(FAMILIES["Judged"], FAMILIES)
    assert "- decision matrix: an assessment measure A" in judged and "- figures write it `A_p`" in judged
    assert "the relevance level is not used" in judged
    ap = catalogue.entry(FAMILIES["AP"], FAMILIES)
    assert "**`AP`, `AP@k` (also `MAP`)**" in ap and "condensed-list form `AP@k(j)`" in ap
    assert "the papers' pairing takes `AP` with `MAA` and `AP@10` with `MAA@10`" in ap


def test_every_spelling_on_the_page_parses_to_its_family(catalogue):
    """The names an entry writes (``AP@k``, ``RBP(p=…,gain=…)@k``, ``IPrec@recall``) are names
    the parser takes, with k, … and the at-parameter filled in."""
    for name, family in FAMILIES.items():
        forms = catalogue.spellings(family)
        assert forms, name
        values = {p.name: format_value(catalogue.example_value(p)) for p in family.params}
        for form in forms:
            text = form.replace("@k", "@10")
            if family.at_param is not None:
                text = text.replace(f"@{family.at_param}", f"@{values[family.at_param]}")
            for key, written in values.items():
                text = text.replace(f"{key}=…", f"{key}={written}")
            assert parse_measure(text).family == name, (form, text)


def test_the_markdown_escapes_what_markdown_would_read(catalogue):
    """Docstring text becomes Markdown: literals and roles become code spans, untouched;
    emphasis and HTML characters outside them are escaped."""
    text = catalogue.markdown("``P@k(j)`` and :func:`irnb.evaluate` over set_* with x<y")
    assert text == "`P@k(j)` and `irnb.evaluate` over set\\_\\* with x\\<y"


@pytest.mark.slow
def test_the_generated_entries_build_without_a_warning(catalogue, tmp_path):
    """A site of one page that includes the entries as docs/definitions.md does, built by
    Sphinx with the extension and -W: every entry and docstring renders without a warning
    (the full site takes minutes; this takes seconds)."""
    pytest.importorskip("myst_nb")
    (tmp_path / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(REPO / 'docs' / '_ext')!r})\n"
        "extensions = ['myst_nb', 'measure_catalogue']\n"
        "exclude_patterns = ['_build', '_generated']\n"
        "nb_execution_mode = 'off'\n", encoding="utf-8")
    include = f"```{{include}} {catalogue.GENERATED.as_posix()}\n```\n"
    (tmp_path / "index.md").write_text(f"# Definitions\n\n## Measures\n\n{include}", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(tmp_path), str(tmp_path / "_build")], capture_output=True, text=True, cwd=REPO,
                          check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tmp_path / "_build" / "index.html").read_text(encoding="utf-8")
    assert all(f"family <code class=\"docutils literal notranslate\"><span class=\"pre\">{name}</span></code>"
               in html for name in FAMILIES)


def test_definitions_page_keeps_the_decision_matrix_section():
    text = PAGE.read_text(encoding="utf-8")
    assert re.search(r"^## Decision matrix$", text, re.M)
