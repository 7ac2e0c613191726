"""The built documentation site, looked at in a real browser at 1366 px: what a reader sees.

It reads ``docs/_build/html``, the site that README's docs command builds with every notebook
executed (``.ci/run`` builds it before the tests run); without it the module skips, saying so.
Each page is opened from disk with the network cut off, and the page as rendered is checked:
no request leaves the machine (MathJax and every script are the site's own), no measure name
is an e-mail link, no table prints NaN or hides columns behind "...", every picture is shown at
least at its drawn size (a picture scaled down shrinks its text below the 9 pt it was drawn
with), maths is typeset, and every live widget of the notebooks is shown as its still picture
with the note saying how to run it.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

from browser_helpers import browser_unavailable, chromium

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "docs" / "_build" / "html"
NOTEBOOKS = sorted(p.stem for p in (REPO / "notebooks").glob("*.md"))
PAGES = ["index", "usage", "definitions", "reproductions", "simulator", "benchmarks", "architecture", "glossary",
         "api", "cli"] + [f"notebooks/{name}" for name in NOTEBOOKS]
LAPTOP = {"width": 1366, "height": 768}

_REASON = browser_unavailable() or (None if (SITE / "index.html").is_file() else
                                    f"needs the built site in {SITE} (README's docs command; .ci/run builds it first)")
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

pytestmark = pytest.mark.slow


def _widget_cells(name: str) -> int:
    """Code cells of a notebook's source that display a live view (``….widget`` or a view)."""
    text = (REPO / "notebooks" / f"{name}.md").read_text(encoding="utf-8")
    return len(re.findall(r"^(?:display\()?\w+(?:\(.*\))?\.widget\)?$", text, re.M))


@pytest.fixture(scope="module")
def pages():
    """Every page rendered once: its requests beyond the site and the page facts below."""
    seen = {}
    with chromium(**LAPTOP) as context:
        page = context.new_page()
        outside: list[str] = []
        page.route(re.compile(r"^(?!file:|data:|about:|blob:).*"),
                   lambda route: (outside.append(route.request.url), route.abort()))
        for name in PAGES:
            outside.clear()
            page.goto((SITE / f"{name}.html").as_uri(), wait_until="load")
            if page.locator(".math").count():  # MathJax typesets after the load, asynchronously
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function("() => document.querySelectorAll('.MathJax').length > 0", timeout=20_000)
            facts = page.evaluate("""() => {
                const visible = e => e.offsetParent !== null;
                const imgs = [...document.querySelectorAll('div.body img')].filter(visible)
                    .filter(i => i.naturalWidth > 200)
                    .map(i => ({src: i.src.slice(0, 60), shown: i.getBoundingClientRect().width,
                                 drawn: i.naturalWidth}));
                const cells = [...document.querySelectorAll('div.body td, div.body th')].map(c => c.textContent.trim());
                return {
                    mailto: [...document.querySelectorAll('a[href^="mailto:"]')].map(a => a.textContent),
                    nan: cells.filter(t => t === 'NaN' || t === 'nan').length,
                    hidden_columns: cells.filter(t => t === '...' || t === '…').length,
                    images: imgs,
                    stills: document.querySelectorAll('figure.irnb-still').length,
                    still_notes: document.querySelectorAll('figure.irnb-still figcaption').length,
                    raw_maths: (document.querySelector('div.body')?.innerText.match(/\\\\\\(|\\$\\$/g) || []).length,
                    typeset: document.querySelectorAll('.MathJax, .MathJax_CHTML, mjx-container').length,
                    maths: document.querySelectorAll('.math').length,
                };
            }""")
            seen[name] = {**facts, "outside": list(outside)}
    return seen


@pytest.mark.parametrize("name", PAGES)
def test_a_page_needs_no_network_and_links_no_mail(pages, name):
    facts = pages[name]
    assert facts["outside"] == [], f"{name} asks the network for {facts['outside'][:3]}"
    assert facts["mailto"] == [], f"{name} shows measure names as e-mail links: {facts['mailto'][:5]}"


@pytest.mark.parametrize("name", PAGES)
def test_tables_print_every_column_and_no_nan(pages, name):
    assert pages[name]["nan"] == 0, f"{name}: {pages[name]['nan']} table cells print NaN"
    assert pages[name]["hidden_columns"] == 0, f"{name}: a table hides columns or rows behind '...'"


@pytest.mark.parametrize("name", PAGES)
def test_pictures_are_not_shrunk(pages, name):
    shrunk = [img for img in pages[name]["images"] if img["shown"] < img["drawn"] - 1]
    assert shrunk == [], f"{name}: pictures shown narrower than drawn (their text below 9 pt): {shrunk[:3]}"


@pytest.mark.parametrize("name", PAGES)
def test_maths_is_typeset(pages, name):
    facts = pages[name]
    if facts["maths"]:
        assert facts["typeset"] >= 1, f"{name}: {facts['maths']} formulas, none typeset by MathJax"


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS if _widget_cells(n)])
def test_every_live_widget_is_shown_as_its_still(pages, name):
    facts = pages[f"notebooks/{name}"]
    assert facts["stills"] >= _widget_cells(name), f"{name}: {facts['stills']} stills for {_widget_cells(name)} widgets"
    assert facts["still_notes"] == facts["stills"]
