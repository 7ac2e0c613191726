"""Real browser: the "be the assessor" widget of notebook 09 as a student meets it, in Voila (a
1366×768 laptop) and in JupyterLab (a 1024×768 projector).

The student reads the topic and the document and judges by reading: a document whose text
marks the topic's title words is relevant. Those answers are the truth (checked against the
session that ``assessor(collection)`` builds in this process, which is deterministic), and
within ten clicks a pair is decided. In JupyterLab the collapsed answer cell shows neither its
method nor its answer until opened.

Skipped, with the reason, where the browser stack is missing (see ``browser_helpers``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import json
import re

import pytest

from browser_helpers import (
    NOTEBOOKS,
    REDRAW_TIMEOUT,
    Server,
    artifacts_on_failure,
    browser_unavailable,
    chromium,
    lab_run_all,
    tracebacks,
    working_copy,
)

_REASON = browser_unavailable()
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent / "source"))  # the notebook rules live there
from test_notebook_sources import ANSWER_FIRST_LINE  # noqa: E402

pytestmark = pytest.mark.slow
expect.set_options(timeout=REDRAW_TIMEOUT * 1000)

NOTEBOOK = "09_judge_next.ipynb"
CLICKS = 10  # what a class can spend before its first decision
_COUNTERS = re.compile(r"judgments spent: (\d+) · pairs decided: (\d+) of (\d+) \(at the start: (\d+)\)")
_NEED = re.compile(r"needs at least (\d+) more judgment")


@pytest.fixture(scope="module")
def truthful_path() -> list[tuple[str, bool]]:
    """(docno, truth) of each suggestion that truthful answers see until a new pair is decided."""
    from irnb.datasets import default
    from irnb.widgets_judge import assessor

    session = assessor(default()).session
    path = []
    while session.decided == session.initial_decided and len(path) < CLICKS:
        path.append((session.current["docno"], bool(session.current_truth)))
        session.judge(path[-1][1])
    assert session.decided > session.initial_decided, f"{CLICKS} truthful judgments decided nothing"
    return path


@pytest.fixture(scope="module")
def browser():
    with chromium() as context:
        yield context


@pytest.fixture
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def _counters(widget) -> tuple[int, int, int, int]:
    text = widget.locator(".irnb-assessor-counters").inner_text()
    found = _COUNTERS.search(text)
    assert found, f"the assessor's counter line should match {_COUNTERS.pattern!r}, got {text!r}"
    return tuple(int(x) for x in found.groups())


def _judge_by_reading(widget, truthful_path) -> int:
    """Answer each suggestion as its text reads; returns the clicks that decided a new pair."""
    widget.scroll_into_view_if_needed()
    spent, decided, _, start = _counters(widget)
    assert (spent, decided) == (0, start)
    need = int(_NEED.search(widget.locator(".irnb-assessor-counters").inner_text()).group(1))
    document = widget.locator(".irnb-assessor-document")
    topic = widget.locator(".irnb-assessor-topic")
    for click, (docno, truth) in enumerate(truthful_path, start=1):
        expect(document).to_contain_text(f"Is document {docno} relevant to the topic?")
        statement = topic.inner_text()
        assert "A relevant document is about" in statement, statement  # the topic's description is on screen
        title = re.search(r"Topic \d+: (.+)", statement).group(1).strip()
        marked = document.locator("mark").all_inner_texts()
        assert set(marked) <= set(title.split()), (marked, title)
        reads_relevant = bool(marked)
        assert reads_relevant == truth, f"{docno}: its text reads {'relevant' if reads_relevant else 'not'}"
        widget.locator(f"button[title='{'relevant' if reads_relevant else 'not relevant'}']").click()
        expect(widget.locator(".irnb-assessor-counters")).to_contain_text(f"judgments spent: {click} ")
    spent, decided, _, _ = _counters(widget)
    assert decided > start and need <= spent <= CLICKS, (need, spent, decided, start)
    return spent


def test_voila_a_student_decides_a_pair_within_ten_clicks(page, tmp_path, truthful_path):
    page.set_viewport_size({"width": 1366, "height": 768})
    root = working_copy(tmp_path / "notebooks", NOTEBOOK)
    with Server("voila", root, notebook=NOTEBOOK) as server, artifacts_on_failure(page, "voila-09-assessor", server):
        page.goto(server.url("/"))
        widget = page.locator(".irnb-assessor")
        widget.wait_for(timeout=300_000)
        assert _judge_by_reading(widget, truthful_path) == len(truthful_path)


def test_jupyterlab_a_student_decides_a_pair_and_answers_stay_hidden(page, tmp_path, truthful_path):
    page.set_viewport_size({"width": 1024, "height": 768})
    root = working_copy(tmp_path / "notebooks", NOTEBOOK)
    cells = json.loads((NOTEBOOKS / NOTEBOOK).read_text(encoding="utf-8"))["cells"]
    with Server("lab", root) as server, artifacts_on_failure(page, "jupyterlab-09-assessor", server):
        lab_run_all(page, server, NOTEBOOK, code_cells=sum(c["cell_type"] == "code" for c in cells))
        assert tracebacks(page) == []
        # the collapsed answer: its placeholder previews the neutral first line, its output is folded
        answer = page.locator(".jp-CodeCell", has=page.locator("summary", has_text="Answer"))
        expect(answer).to_have_count(1)
        expect(answer.locator(".jp-InputPlaceholder")).to_have_text(ANSWER_FIRST_LINE)
        assert not answer.locator(".jp-InputArea-editor").is_visible()
        assert answer.locator("details").get_attribute("open") is None
        assert "judge_next" not in answer.inner_text() and "topics" not in answer.inner_text()
        widget = page.locator(".jp-Notebook .irnb-assessor")
        assert _judge_by_reading(widget, truthful_path) == len(truthful_path)
