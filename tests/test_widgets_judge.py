"""irnb.widgets_judge: the "be the assessor" widget on a simulated collection (what it shows, where
it starts, that truthful clicks decide a pair). Its clicks in a browser: tests/test_browser.py."""

from __future__ import annotations

import re

import pandas as pd
import pytest

pytest.importorskip("ipywidgets")

from irnb import Experiment  # noqa: E402
from irnb.datasets import default  # noqa: E402
from irnb.judging import AssessmentSession, assessor_start  # noqa: E402
from irnb.widgets_judge import assessor  # noqa: E402

CLICKS = 10  # what a class can spend before the first decision


@pytest.fixture(scope="module")
def judge():
    return assessor(default())


def test_a_collection_alone_starts_where_ten_truthful_clicks_decide_a_pair(judge):
    collection = default()
    session = judge.session
    assert isinstance(session, AssessmentSession) and session.experiment is collection.complete_experiment
    truth = collection.complete_experiment
    contributors = [run for run, pooled in zip(truth.run_names, truth.contributors, strict=True) if pooled]
    assert session.run_names == tuple(contributors) and 1 < len(contributors) < len(truth.run_names)
    start = assessor_start(truth, runs=contributors)
    assert session.start.judged.tolist() == start.judged.tolist()
    assert session.initial_decided == AssessmentSession(truth, judged=start, runs=contributors).initial_decided
    shown = judge.counters.value
    need = int(re.search(r"needs at least <b>(\d+)</b> more judgment", shown).group(1))
    assert need == session.judgments_to_decide()
    for _ in range(CLICKS):  # the buttons, answered as the text reads (the truth)
        truth = session.current_truth
        assert truth is not None
        (judge.relevant_button if truth else judge.not_relevant_button).click()
        if session.decided > session.initial_decided:
            break
    assert session.decided > session.initial_decided, f"{CLICKS} truthful clicks decided no pair"
    assert need <= session.spent <= CLICKS and session.agreements == session.spent
    assert f"pairs decided: <b>{session.decided}</b>" in judge.counters.value


def test_the_widget_shows_the_topic_and_a_text_to_judge_by(judge):
    collection = default()
    topic = judge.session.current["topic"]
    docno = judge.session.current["docno"]
    page = judge.document.value
    assert collection.documents.topic_title(topic) in page
    assert collection.documents.topic_description(topic).split(":")[0] in page
    assert f"Is document {docno} relevant to the topic?" in page
    body = page.split("padding:4px'>")[1]
    assert re.sub(r"</?mark>", "", body).removesuffix("</div>") == collection.documents.readable[docno]
    marked = set(re.findall(r"<mark>(\w+)</mark>", body))
    assert marked <= set(collection.documents.topic_title(topic).split())
    # the text a reader sees agrees with the truth: a relevant document's words mark the title
    assert bool(marked) == bool(judge.session.current_truth)


def test_options_override_the_collections_defaults():
    collection = default()
    from irnb.pooling import depth_pool

    judged = depth_pool(collection.complete_experiment, depth=9)
    everyone = list(collection.complete_experiment.run_names)
    w = assessor(collection, judged=judged, runs=everyone, documents={},
                 topics=pd.DataFrame({"topic": ["101"], "title": ["t"]}))
    assert w.session.start is judged and w.session.run_names == tuple(everyone)
    assert w.session.initial_decided == AssessmentSession(collection.complete_experiment,
                                                          judged=judged).initial_decided
    assert "padding:4px" not in w.document.value  # no text for the document
    shown = w.session.intervals().index[:20]
    assert f"the {len(shown)} runs with the highest T̄ of {len(everyone)}" in w.matrix.value
    assert all(f"{i + 1} {run}</th>" in w.matrix.value for i, run in enumerate(shown))


def test_topics_and_sources_are_checked():
    run = pd.DataFrame({"run": ["a", "b"], "qid": "1", "docno": ["x", "y"], "score": 1.0})
    e = Experiment(run, pd.DataFrame({"qid": "1", "docno": ["x"], "grade": [1]}))
    with pytest.raises(TypeError, match=r"topics must be a DataFrame with columns topic, title .* got \['qid'\]"):
        assessor(e, measure="P@1", topics=pd.DataFrame({"qid": ["1"]}))
    with pytest.raises(TypeError, match="source must be an irnb.Experiment or an irnb.datasets.Collection, got str"):
        assessor("runs.txt")
    shown = assessor(e, measure="P@1", background_rate=0.5,
                     topics=pd.DataFrame({"topic": ["1"], "title": ["cats"], "description": ["about cats"]}),
                     documents={"y": "Cats and dogs"})
    assert "<b>Topic 1</b>: <b>cats</b><br>about cats" in shown.document.value
    assert "<mark>Cats</mark> and dogs" in shown.document.value
