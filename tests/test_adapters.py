"""Every input shape of the Python IR ecosystem gives the values of the same data read from
TREC files (CLEF eHealth 2018 runs), and a wrong shape names the shapes accepted."""

from __future__ import annotations

import re
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb import Experiment, Qrels, Run, evaluate, read_run
from irnb.adapters import QRELS_SHAPES, RUN_SHAPES, as_qrels, as_runs

MEASURES = ["P@10", "AP", "nDCG@10", "Bpref", "Judged@10", "RR", "infAP"]
# six runs: 0 for Q0 (IELAB), repeated docnos (CUNI, SINAI, Bing), baselines
RUN_FILES = ["CUNI/CUNI_en.run1", "IELAB/IELAB_02.txt", "SINAI/SINAI_Run1_google+cTakes.result",
             "baselines/Base_Bing_all.txt", "baselines/terrier_BM25_noqe.out", "baselines/indri_okapi_qe.out"]

ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")  # ir_datasets' GenericScoredDoc fields
TrecQrel = namedtuple("TrecQrel", "query_id doc_id relevance iteration")  # ir_datasets' TrecQrel fields


def _parse_run(path: Path) -> dict[str, dict[str, float]]:
    """A plain reading of a TREC run into {qid: {docno: score}}, keeping the first line of a
    docno repeated within a topic (as on_duplicate='keep_first')."""
    out: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts:
            out.setdefault(parts[0], {}).setdefault(parts[2], float(parts[4]))
    return out


def _parse_qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts:
            out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return out


class ScoredDocs:
    """A local object of ir_datasets' shape: scoreddocs_iter() and dataset_id()."""

    def __init__(self, name: str, run: dict[str, dict[str, float]]):
        self._name, self._run = name, run

    def dataset_id(self) -> str:
        return self._name

    def scoreddocs_iter(self):
        for qid, docs in self._run.items():
            for docno, score in docs.items():
                yield ScoredDoc(qid, docno, score)


class QrelsSource:
    def __init__(self, qrels: dict[str, dict[str, int]]):
        self._qrels = qrels

    def qrels_iter(self):
        for qid, docs in self._qrels.items():
            for docno, grade in docs.items():
                yield TrecQrel(qid, docno, grade, "0")


@pytest.fixture(scope="module")
def clef(clef18_dir):
    paths = {Path(f).name: clef18_dir / "runs" / f for f in RUN_FILES}
    runs = {name: read_run(path, on_duplicate="keep_first") for name, path in paths.items()}
    reference = evaluate(Experiment(runs, clef18_dir / "qrels.txt"), MEASURES)
    dicts = {name: _parse_run(path) for name, path in paths.items()}
    return reference, dicts, _parse_qrels(clef18_dir / "qrels.txt"), clef18_dir / "qrels.txt"


def assert_same_values(reference, experiment: Experiment) -> None:
    """Every per-topic value of MEASURES, the runs, topics and evaluated mask equal the TREC-file reference."""
    ev = evaluate(experiment, MEASURES)
    assert ev.run_names == reference.run_names and ev.topics == reference.topics
    for m in MEASURES:
        np.testing.assert_array_equal(ev[m], reference[m], err_msg=m)
    np.testing.assert_array_equal(ev.evaluated, reference.evaluated)


def _frame(run: dict, columns=("qid", "docno", "score")) -> pd.DataFrame:
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=list(columns))


def test_pytrec_eval_dicts_give_the_trec_file_values(clef):
    reference, dicts, qrels, _ = clef
    assert_same_values(reference, Experiment(dicts, qrels))


def test_one_run_dict_and_run_from_dict(clef):
    reference, dicts, qrels, qrels_path = clef
    name = "terrier_BM25_noqe.out"
    one = Experiment(dicts[name], qrels_path)
    assert one.run_names == ("run",)
    s = reference.run_names.index(name)
    np.testing.assert_array_equal(evaluate(one, ["AP"])["AP"][0], reference["AP"][s])
    run = Run.from_dict(dicts[name], name=name)
    assert run.name == name and run.num_lines == sum(len(d) for d in dicts[name].values())
    assert Qrels.from_dict(qrels).num_judgments == 26025


def test_pyterrier_and_ir_measures_frames(clef):
    reference, dicts, qrels, _ = clef
    terrier_qrels = pd.DataFrame([(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                                 columns=["qid", "docno", "label"])
    frames = {name: _frame(run).assign(rank=0, name=name) for name, run in dicts.items()}  # PyTerrier's columns
    assert_same_values(reference, Experiment(frames, terrier_qrels))
    irm_qrels = terrier_qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    irm = {name: _frame(run, ("query_id", "doc_id", "score")) for name, run in dicts.items()}
    assert_same_values(reference, Experiment(irm, irm_qrels))


def test_ir_datasets_shaped_objects(clef):
    reference, dicts, qrels, _ = clef
    sources = [ScoredDocs(name, run) for name, run in dicts.items()]
    assert_same_values(reference, Experiment(sources, QrelsSource(qrels)))
    one = Experiment(sources[0], QrelsSource(qrels))
    assert one.run_names == (sources[0].dataset_id(),)


@pytest.mark.slow  # importing ranx compiles numba code: ~10-30 s on a loaded machine
def test_ranx_run_and_qrels(clef, tmp_path):
    """ranx builds numba dicts slowly (~1 s per thousand entries here): a 5-topic, 100-deep
    slice of two runs, against the same slice written as TREC files."""
    ranx = pytest.importorskip("ranx")
    _, dicts, qrels, _ = clef
    topics = sorted(qrels)[:5]
    part = {name: {q: dict(list(dicts[name][q].items())[:100]) for q in topics}
            for name in ("IELAB_02.txt", "terrier_BM25_noqe.out")}
    part_qrels = {q: qrels[q] for q in topics}
    for name, run in part.items():
        (tmp_path / name).write_text("".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, docs in run.items()
                                             for d, s in docs.items()))
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in part_qrels.items()
                                            for d, g in docs.items()))
    reference = evaluate(Experiment([tmp_path / n for n in part], tmp_path / "qrels"), MEASURES)
    runs = [ranx.Run(run, name=name) for name, run in part.items()]
    assert_same_values(reference, Experiment(runs, ranx.Qrels(part_qrels)))


def test_wrong_shapes_name_the_accepted_ones():
    qrels = {"1": {"a": 1}}
    with pytest.raises(TypeError) as err:
        Experiment(42, qrels)
    message = str(err.value)
    assert message.startswith("runs: expected one of:") and message.endswith("got int")
    assert all(shape in message for shape in RUN_SHAPES)
    with pytest.raises(TypeError) as err:
        Experiment({"1": {"a": 1.0}}, [("1", "a", 1)])
    assert all(shape in str(err.value) for shape in QRELS_SHAPES) and str(err.value).endswith("got list")
    with pytest.raises(TypeError, match=re.escape("runs: expected one of:")):
        as_runs({"bm25": [1, 2]})
    with pytest.raises(TypeError, match=re.escape("run 'bm25': topic '2': expected a dict {docno: score}, got int")):
        as_runs({"bm25": {"1": {"a": 1.0}, "2": 5}})


def test_bad_values_name_topic_and_docno():
    with pytest.raises(ValueError, match=re.escape("run 'r': topic '1', docno 'b': expected a finite number, got nan")):
        as_runs({"r": {"1": {"a": 1.0, "b": float("nan")}}})
    with pytest.raises(ValueError, match=re.escape("qrels dict: topic '7', docno 'x': expected an integer grade, "
                                                   "got 'high'")):
        as_qrels({"7": {"x": "high"}})
    with pytest.raises(ValueError, match="expected at least one run, got none"):
        Experiment({}, {"1": {"a": 1}})


def test_integer_keys_become_strings_and_ties_follow_trec_eval():
    exp = Experiment({"r": {1: {"b": 1.0, "a": 1.0, "c": 2.0}}}, {1: {"a": 1, "c": 0}})
    assert exp.topics == ("1",)
    assert exp.runs["r"].to_frame()["docno"].tolist() == ["c", "b", "a"]  # tie 1.0: docno descending
    assert exp.grade.tolist() == [[[0, -128, 1]]]
    assert irnb.evaluate(exp, ["P@3"])["P@3"].tolist() == [[pytest.approx(1 / 3)]]
