"""ERR@k (irnb.measures.err): hand-computed values, its declaration as the rest of irnb reads
it, and agreement with ir_measures' ERR@k (gdeval, the TREC Web track's script), on random
rankings with ties and on TREC-COVID round 1."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from irnb import Experiment
from irnb.decision import assessment_measure
from irnb.intervals import has_interval
from irnb.measures import FAMILIES, parse_measure
from irnb.metrics import evaluate


#: ERR on the main example of tests/test_metrics.py (run A, topic 1: grades 1 · 2 0 −1 1 at
#: ranks 1-6), by hand; test_metrics checks them with every family's (and, ERR being bounded,
#: keeps them in its unit-interval property test). R = (2^g − 1)/2^4: a 1/16, c 3/16, e 1/16 at
#: ranks 1, 3, 6, each reached past those above.
EXAMPLE_VALUES = {
    "ERR@3": 1 / 16 + (15 / 16) * (3 / 16) / 3,  # 0.0625 + 0.0586 = 0.1211
    "ERR": 1 / 16 + (15 / 16) * (3 / 16) / 3 + (15 / 16) * (13 / 16) * (1 / 16) / 6,  # 0.1290
}


def _err(grades, k=None, top=4):
    """ERR written as the cascade, one rank after another (the reference for the kernel)."""
    value, reach = 0.0, 1.0
    for i, g in enumerate(grades[:k], start=1):
        r = (2 ** max(g, 0) - 1) / 2 ** top
        value += reach * r / i
        reach *= 1 - r
    return value


def _values(run_grades: dict[str, list], qrels_extra=(), measures=("ERR@3",)) -> pd.DataFrame:
    """One run per key, one topic, the given grades at ranks 1..n (None: not in the qrels)."""
    runs, qrels = [], list(qrels_extra)
    for name, grades in run_grades.items():
        for i, g in enumerate(grades):
            runs.append((name, "1", f"{name}-d{i}", float(len(grades) - i)))
            if g is not None:
                qrels.append(("1", f"{name}-d{i}", g))
    run = pd.DataFrame(runs, columns=["run", "qid", "docno", "score"])
    exp = Experiment({n: g.drop(columns="run") for n, g in run.groupby("run")},
                     pd.DataFrame(qrels, columns=["qid", "docno", "grade"]))
    return evaluate(exp, list(measures)).to_frame().query("topic == '1'").set_index(["run", "measure"])["value"]


def test_hand_computed_values():
    # grades 2, 0, 3: R = 3/16, 0, 7/16; ERR@3 = 3/16 + (13/16)(7/16)/3, ERR@2 = ERR@1 = 3/16
    values = _values({"A": [2, 0, 3]}, measures=("ERR@3", "ERR@2", "ERR@1", "ERR"))
    assert values["A", "ERR@3"] == pytest.approx(3 / 16 + (13 / 16) * (7 / 16) / 3, abs=1e-12)
    assert values["A", "ERR@3"] == pytest.approx(0.305989583, abs=1e-9)
    assert values["A", "ERR@2"] == values["A", "ERR@1"] == pytest.approx(0.1875, abs=1e-12)
    assert values["A", "ERR"] == values["A", "ERR@3"]


def test_negative_grades_unjudged_documents_and_missing_ranks_gain_nothing():
    # a pooled-unjudged document (-1), one outside the qrels, then grade 4: R = 0, 0, 15/16
    values = _values({"A": [-1, None, 4], "B": [1]}, measures=("ERR@3", "ERR@10"))
    assert values["A", "ERR@3"] == pytest.approx((15 / 16) / 3, abs=1e-12)
    assert values["B", "ERR@10"] == pytest.approx(1 / 16, abs=1e-12)  # a run shorter than k


def test_a_grade_above_four_becomes_the_scale_top():
    # the qrels' top grade 5 > 4: R = 31/32 and 1/32, so that no R reaches 1
    values = _values({"A": [5, 1]}, measures=("ERR@2",))
    assert values["A", "ERR@2"] == pytest.approx(31 / 32 + (1 / 32) * (1 / 32) / 2, abs=1e-12)
    assert values["A", "ERR@2"] == pytest.approx(_err([5, 1], top=5), abs=1e-12)


def test_the_kernel_is_the_cascade_on_random_rankings(rng):
    grades = {f"r{i}": [int(g) if g < 5 else None for g in rng.integers(-1, 6, size=int(rng.integers(1, 30)))]
              for i in range(12)}
    values = _values(grades, qrels_extra=[("1", "nr", 4)], measures=("ERR@5", "ERR"))
    for name, g in grades.items():
        assert values[name, "ERR@5"] == pytest.approx(_err([x or 0 for x in g], 5), abs=1e-12)
        assert values[name, "ERR"] == pytest.approx(_err([x or 0 for x in g]), abs=1e-12)


def test_the_declaration_answers_what_the_rest_of_irnb_asks():
    m = parse_measure("ERR@20")
    assert (m.family, m.cutoff, str(m)) == ("ERR", 20, "ERR@20")
    assert parse_measure(str(m)) == m and parse_measure("ERR").cutoff is None
    spec = FAMILIES["ERR"]
    assert "Chapelle" in spec.source and spec.unit_range and spec.higher_is_better
    assert not has_interval(m) and not spec.scenarios and spec.condensed_of is None
    assert assessment_measure(m).name == "Judged@20"  # a performance measure, paired with A_p@k
    with pytest.raises(ValueError, match=r"ERR does not depend on the relevance level; drop rel="):
        parse_measure("ERR(rel=2)@10")
    with pytest.raises(ValueError, match=r"unknown measure 'EER@10'; did you mean 'ERR'"):
        parse_measure("EER@10")


def _gdeval():
    if shutil.which("perl") is None:
        pytest.skip("needs perl (ir_measures runs gdeval.pl for ERR@k)")
    ir_measures = pytest.importorskip("ir_measures")
    return ir_measures


def _against_gdeval(ir_measures, runs: dict[str, pd.DataFrame], qrels: pd.DataFrame, k: int) -> int:
    """Compare every run's per-topic ERR@k with gdeval's (printed to 5 decimals); the number
    of values compared. gdeval prints only topics with a relevant document."""
    exp = Experiment(runs, qrels, compat="10")  # gdeval compares scores as doubles
    ours = evaluate(exp, [f"ERR@{k}"]).to_frame().query("topic != 'all'").set_index(["run", "topic"])["value"]
    qrels_irm = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "grade": "relevance"})
    compared = 0
    for name, run in runs.items():
        run_irm = run.rename(columns={"qid": "query_id", "docno": "doc_id"})[["query_id", "doc_id", "score"]]
        for metric in ir_measures.gdeval.iter_calc([ir_measures.ERR @ k], qrels_irm, run_irm):
            assert ours[name, metric.query_id] == pytest.approx(metric.value, abs=5.1e-6), (name, metric)
            compared += 1
    return compared


def test_ir_measures_err_on_random_rankings_with_ties(rng):
    ir_measures = _gdeval()
    qrels = pd.DataFrame([(str(t), f"d{d}", int(rng.integers(-1, 5))) for t in range(1, 6) for d in range(40)
                          if rng.random() < 0.6], columns=["qid", "docno", "grade"])
    runs = {}
    for name in ("a", "b", "c"):
        rows = [(str(t), f"d{d}", float(rng.integers(0, 8))) for t in range(1, 6)  # integer scores: many ties
                for d in rng.choice(60, size=int(rng.integers(5, 40)), replace=False)]
        runs[name] = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    assert _against_gdeval(ir_measures, runs, qrels, 10) > 5
    assert _against_gdeval(ir_measures, runs, qrels, 3) > 5


@pytest.mark.shared
def test_ir_measures_err_on_trec_covid(covid_dir, tmp_path):
    ir_measures = _gdeval()
    import tarfile

    from irnb.io import read_qrels, read_run

    with tarfile.open(covid_dir / "runs-round1.tar.xz") as archive:
        members = sorted((m for m in archive.getmembers() if m.isfile()), key=lambda m: m.name)[:4]
        archive.extractall(tmp_path, members=members, filter="data")
    runs = {m.name: read_run(tmp_path / m.name).to_frame().rename(columns={"topic": "qid"})[["qid", "docno", "score"]]
            for m in members}
    qrels = read_qrels(covid_dir / "qrels-rnd1.txt").to_frame().rename(columns={"topic": "qid"})
    compared = _against_gdeval(ir_measures, runs, qrels, 20)
    assert compared >= len(runs) * 20
