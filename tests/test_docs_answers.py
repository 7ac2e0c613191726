"""The built documentation site hides the exercises' answers as JupyterLab does: on every
notebook page an answer cell shows two closed toggles, its code ("Show code cell source") and its
answer ("Answer"), and neither the code nor the answer is on screen until opened; opened, the
code starts with the line that gives nothing away.

Reads ``docs/_build/html`` (README's docs command; ``.ci/run`` builds it first) and skips,
saying so, without it or without the browser stack.
"""

from __future__ import annotations

import sys

from pathlib import Path

import pytest

from browser_helpers import browser_unavailable, chromium
sys.path.insert(0, str(Path(__file__).resolve().parent / "source"))  # the notebook rules live there
from test_notebook_sources import ANSWER_FIRST_LINE, TEACHING

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "docs" / "_build" / "html"

_REASON = browser_unavailable() or (None if (SITE / "index.html").is_file() else
                                    f"needs the built site in {SITE} (README's docs command; .ci/run builds it first)")
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

pytestmark = pytest.mark.slow


def _answers_in_source(path: Path) -> int:
    import jupytext

    return sum(c.cell_type == "code" and "answer(" in c.source for c in jupytext.read(path).cells)


@pytest.fixture(scope="module")
def browser():
    with chromium(width=1366, height=768) as context:
        yield context


@pytest.mark.parametrize("source", TEACHING, ids=[p.stem for p in TEACHING])
def test_answers_are_folded_code_and_all(browser, source):
    page = browser.new_page()
    try:
        page.goto((SITE / "notebooks" / f"{source.stem}.html").as_uri(), wait_until="load")
        cells = page.locator("div.cell", has=page.locator("summary", has_text="Answer"))
        assert cells.count() == _answers_in_source(source), f"{source.stem}: answer cells on the page"
        for k in range(cells.count()):
            cell = cells.nth(k)
            code, shown = cell.locator("div.cell_input"), cell.locator("div.cell_output details")
            assert "tag_hide-input" in (cell.get_attribute("class") or "")
            assert not code.is_visible(), f"{source.stem}: answer {k + 1} shows its code"
            assert shown.get_attribute("open") is None, f"{source.stem}: answer {k + 1} is open"
            assert cell.inner_text().split() == ["Show", "code", "cell", "source", "Answer"], cell.inner_text()
            cell.locator("summary", has_text="Show code cell source").click()
            assert code.is_visible()
            assert code.inner_text().splitlines()[0] == ANSWER_FIRST_LINE, \
                f"{source.stem}: answer {k + 1}'s code starts {code.inner_text().splitlines()[0]!r}"
    finally:
        page.close()
