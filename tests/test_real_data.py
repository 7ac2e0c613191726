"""Real runs and qrels from ../shared/data (see its SOURCES.md): TREC-COVID round 1 against
the official leaderboard, CLEF eHealth 2018 (repeated docnos, `0` for `Q0`) and CLEF
eHealth 2016 (run tags that repeat). Each Experiment is built once per module."""

from __future__ import annotations

import re
import tarfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import shared_path
from irnb import Experiment, read_run, read_runs
from irnb.metrics import evaluate

pytestmark = pytest.mark.shared

COVID = ("data", "trec-covid-round1")
CLEF18 = ("data", "clef-ehealth-2018-irtask1")
CLEF16 = ("data", "clef-ehealth-2016-irtask2")


# --------------------------------------------------------------------------- an independent reference


def _qrels_dict(path: Path) -> dict[tuple[str, str], int]:
    out = {}
    for line in path.read_text().splitlines():
        topic, _, docno, grade = line.split()
        out[topic, docno] = int(grade)
    return out


def _reference_precision(text: str, qrels: dict[tuple[str, str], int], k: int) -> float:
    """P@k in plain Python, as trec_eval computes it: first occurrence of a repeated docno,
    scores compared as C floats (float32), ties by docno descending, mean over the qrels
    topics that the run answers."""
    by_topic: dict[str, dict[str, float]] = defaultdict(dict)
    for line in text.splitlines():
        parts = line.split()
        if parts:
            by_topic[parts[0]].setdefault(parts[2], float(np.float32(float(parts[4]))))
    qrels_topics = {t for t, _ in qrels}
    values = []
    for topic, docs in by_topic.items():
        if topic not in qrels_topics:
            continue
        top = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[:k]
        values.append(sum(qrels.get((topic, d), 0) >= 1 for d, _ in top) / k)
    return sum(values) / len(values)


def _members(archive: Path) -> dict[str, str]:
    with tarfile.open(archive) as tar:
        return {m.name.rsplit("/", 1)[-1]: tar.extractfile(m).read().decode() for m in tar if m.isfile()}


# --------------------------------------------------------------------------- TREC-COVID round 1


@pytest.fixture(scope="module")
def covid():
    folder = shared_path(*COVID)
    runs = read_runs(folder / "runs-round1.tar.xz")
    exp = Experiment(runs, folder / "qrels-rnd1.txt", truth=folder / "qrels.covid-complete.txt.gz")
    board = pd.read_csv(folder / "leaderboard-round1.csv").set_index("run")
    return exp, board


def test_covid_runs_match_leaderboard_rows(covid):
    exp, board = covid
    assert len(exp.run_names) == 143
    assert set(exp.run_names) == set(board.index)
    assert exp.shape == (143, 30, 1000)


@pytest.mark.parametrize("ours,official", [("P@5", "p@5"), ("nDCG@10", "ndcg@10"), ("bpref", "bpref"), ("AP", "MAP")])
def test_covid_reproduces_the_official_leaderboard(covid, ours, official):
    exp, board = covid
    values = evaluate(exp, [ours]).aggregate(ours)
    expected = board.loc[list(exp.run_names), official].to_numpy()
    error = np.abs(values - expected)
    worst = exp.run_names[int(np.argmax(error))]
    # the leaderboard prints 4 decimals: rounding leaves at most 0.00005
    assert error.max() <= 0.0005, f"{worst}: {values[exp.run_names.index(worst)]} vs {board.loc[worst, official]}"
    assert error.max() <= 0.00005 + 1e-9


def test_covid_float32_ties_decide_bert_ndcg(covid):
    """BERT's scores differ after the 7th digit: as 64-bit floats its nDCG@10 would be
    0.1736, as trec_eval's 32-bit floats it is the official 0.1731."""
    exp, board = covid
    i = exp.run_names.index("BERT")
    assert evaluate(exp, ["nDCG@10"]).aggregate("nDCG@10")[i] == pytest.approx(board.loc["BERT", "ndcg@10"], abs=5e-5)
    table = exp.runs["BERT"].table
    scores = table["score"].to_numpy()
    assert len(np.unique(scores.astype(np.float32))) < len(np.unique(scores))


def test_covid_truth_qrels_on_more_topics(covid):
    exp, _ = covid
    truth, official = exp.truth, exp.judgments
    assert truth.topic_start.size == 31  # topics 31–50 of the complete qrels are dropped
    assert truth.num_judgments == 45121  # the complete qrels' judgments of topics 1–30
    # SOURCES.md: 8,408 of the 8,691 round-1 judgments are in the complete qrels with the same grade
    a = official.frame(exp.topics)
    b = truth.frame(exp.topics)
    same = a.merge(b, on=["topic", "docno", "grade"])
    assert official.num_judgments == 8691 and len(same) == 8408


# --------------------------------------------------------------------------- CLEF eHealth 2018


@pytest.fixture(scope="module")
def clef18(tmp_path_factory):
    folder = shared_path(*CLEF18)
    target = tmp_path_factory.mktemp("clef18")
    with tarfile.open(folder / "runs-irtask1.tar.xz") as tar:
        tar.extractall(target, filter="data")
    files = sorted(p for p in target.rglob("*") if p.is_file())
    runs, errors = {}, {}
    for path in files:
        try:
            runs[path.name] = read_run(path)
        except ValueError as err:
            errors[path] = str(err)
            runs[path.name] = read_run(path, on_duplicate="keep_first")
    qrels_path = folder / "CLEF2018_qrel_20180914.txt"
    exp = Experiment(runs, qrels_path)
    return exp, files, errors, qrels_path


def test_clef18_repeated_docnos_give_a_clear_error(clef18):
    _, files, errors, _ = clef18
    assert len(files) == 24 and len(errors) == 9
    pattern = re.compile(
        r"(?P<file>.+):(?P<line>\d+): docno '(?P<docno>[^']+)' repeated for topic '(?P<topic>[^']+)' "
        r"\(first at line (?P<first>\d+)\); expected each docno once per topic in a run; "
        r"pass on_duplicate='keep_first' \(irnb evaluate: --keep-first\) to keep the first occurrence$")
    for path, message in errors.items():
        match = pattern.match(message)
        assert match, message
        assert match["file"] == str(path)
        lines = path.read_text().splitlines()
        line, first = int(match["line"]), int(match["first"])
        assert first < line
        for number in (line, first):  # both lines name that topic and that docno
            parts = lines[number - 1].split()
            assert (parts[0], parts[2]) == (match["topic"], match["docno"])
        # and no earlier line repeats a docno (the error names the first repeat in the file)
        seen = set()
        for number, text in enumerate(lines[: line - 1], start=1):
            parts = text.split()
            assert (parts[0], parts[2]) not in seen, (path, number)
            seen.add((parts[0], parts[2]))


def test_clef18_evaluates_with_keep_first(clef18):
    exp, files, _, qrels_path = clef18
    assert len(exp.run_names) == 24 and len(exp.topics) == 50
    qrels = _qrels_dict(qrels_path)
    values = evaluate(exp, ["P@10"]).aggregate("P@10")
    by_name = {p.name: p for p in files}
    for s, name in enumerate(exp.run_names):
        assert values[s] == pytest.approx(_reference_precision(by_name[name].read_text(), qrels, 10), abs=1e-12), name


def test_clef18_ielab_runs_write_0_for_q0(clef18):
    exp, files, _, _ = clef18
    ielab = [p for p in files if p.name.startswith("IELAB")]
    assert len(ielab) == 4
    for path in ielab:
        assert path.read_text().split("\n", 1)[0].split()[1] == "0"
        assert exp.answered[exp.run_names.index(path.name)].all()


# --------------------------------------------------------------------------- CLEF eHealth 2016


@pytest.fixture(scope="module")
def clef16():
    folder = shared_path(*CLEF16)
    runs = read_runs(folder / "runs-irtask2.tar.xz")
    groups = {name: name.split("_EN_")[0] for name in runs}
    exp = Experiment(runs, folder / "task2.qrels", groups=groups)
    return exp, folder, _members(folder / "runs-irtask2.tar.xz")


def test_clef16_runs_are_named_by_file_because_tags_repeat(clef16):
    exp, _, texts = clef16
    assert sorted(exp.run_names) == sorted(texts)
    assert len(exp.run_names) == 16 and len(set(exp.groups)) == 6
    tags = {name: run.tag for name, run in exp.runs.items()}
    assert len(set(tags.values())) < len(tags)  # tags alone would merge runs
    for name, text in texts.items():  # the tag is the sixth column of the file's first line
        assert tags[name] == text.split("\n", 1)[0].split()[5]


def test_clef16_evaluates_against_task2_qrels(clef16):
    exp, folder, texts = clef16
    assert len(exp.topics) == 50 and exp.judgments.num_judgments == 25000
    qrels = _qrels_dict(folder / "task2.qrels")
    values = evaluate(exp, ["P@10"]).aggregate("P@10")
    for s, name in enumerate(exp.run_names):
        assert values[s] == pytest.approx(_reference_precision(texts[name], qrels, 10), abs=1e-12), name
