"""Real browser: headless Chromium (Debian's, via Playwright) against JupyterLab and Voila.

A user's view of the live widgets: open the tour notebook in JupyterLab (a working copy in a
tmp folder), run all cells, press ← on the pool-depth slider and check that the slider's
readout and the interval plot changed — and that pressing → brings back the very same
picture (the plot is a function of the controls, not of the history). The same against the
Voila dashboard, plus its tabs; the dashboard loads offline without a console warning or a
failed request; every view's plot is on a 1366×768 and a 1024×768 screen with its controls,
each locked control with its reason beside it and no two texts overlapping (in JupyterLab
too, on the default collection and on TREC-COVID round 1), and the figure's scale says how
large its smallest text is shown; the
"be the assessor" widget is clicked in Voila and in JupyterLab (counter, intervals, decided pairs).

Skipped, with the reason, when /usr/bin/chromium or the playwright/voila/jupyterlab/ipywidgets
packages are absent; ``.ci/run`` installs them, so in CI these tests run. On failure a
screenshot, the page's HTML and the server log are saved (path printed; see
``browser_helpers.artifacts_dir``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from browser_helpers import (
    NOTEBOOKS,
    REPO,
    REDRAW_TIMEOUT,
    Server,
    artifacts_on_failure,
    browser_unavailable,
    chromium,
    lab_run_all,
    plot_png,
    plot_src,
    png_size,
    press_on_slider,
    readout,
    slider,
    tracebacks,
    wait_for_new_plot,
    working_copy,
)

_REASON = browser_unavailable()
if _REASON:
    pytest.skip(_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from irnb.plots import MIN_FONT  # noqa: E402 (after the module-level skip)
from irnb.views.layout import PNG_DPI  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent / "source"))  # the notebook rules live there
from test_notebook_sources import ANSWER_FIRST_LINE  # noqa: E402

pytestmark = pytest.mark.slow
# Assertions on the page retry until true or this bound (a loaded two-core machine is slow).
expect.set_options(timeout=REDRAW_TIMEOUT * 1000)

TOUR = "00_tour.ipynb"
DASHBOARD = "dashboard.ipynb"
LAPTOP = {"width": 1366, "height": 768}
POOL_DEPTH = "pool depth d"
TABS = ["intervals", "decision matrix", "bias", "unjudged documents"]


@pytest.fixture(scope="module")
def browser():
    with chromium() as context:
        yield context


@pytest.fixture
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def _code_cells(name: str) -> int:
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    return sum(cell["cell_type"] == "code" for cell in cells)


def _move_pool_depth_and_back(page, scope) -> tuple[int, bytes, bytes, bytes]:
    """← then → on the pool-depth slider; returns (initial d, plot before, after ←, after →),
    having checked the readout at each step and waited for each new picture."""
    depth = slider(scope, POOL_DEPTH)
    depth.wait_for()
    start = int(re.match(r"\d+", readout(depth)).group())  # "120*": a depth the qrels do not reach
    image = scope.locator(".widget-image:visible").first
    before, src = plot_png(image), plot_src(image)

    press_on_slider(depth, "ArrowLeft")
    expect(depth.locator(".widget-readout")).to_have_text(re.compile(rf"^{start - 1}\*?$"))
    wait_for_new_plot(page, image, src, timeout=REDRAW_TIMEOUT)
    moved, src = plot_png(image), plot_src(image)

    press_on_slider(depth, "ArrowRight")
    expect(depth.locator(".widget-readout")).to_have_text(re.compile(rf"^{start}\*?$"))
    wait_for_new_plot(page, image, src, timeout=REDRAW_TIMEOUT)
    back = plot_png(image)
    return start, before, moved, back


def _assert_redrawn(start: int, before: bytes, moved: bytes, back: bytes) -> None:
    assert start > 1, f"the pool-depth slider should start above its minimum 1, got {start}"
    width, height = png_size(before)
    assert width > 300 and height > 200, f"interval plot is {width}×{height} px"
    assert png_size(moved) == (width, height), "the redraw must keep the figure's size"
    assert moved != before, f"pool depth {start} → {start - 1} left the interval plot unchanged"
    assert back == before, f"pool depth back to {start} should give the first picture again"



def test_tour_notebook_in_jupyterlab(page, tmp_path):
    root = working_copy(tmp_path / "notebooks", TOUR)
    with Server("lab", root) as server, artifacts_on_failure(page, "jupyterlab-tour", server):
        lab_run_all(page, server, TOUR, code_cells=_code_cells(TOUR))
        assert tracebacks(page) == []
        # After Run All the exercise's answer is shown folded, and its code stays collapsed.
        answer = page.locator(".jp-OutputArea-output details")
        expect(answer).to_have_count(1)
        assert answer.evaluate("d => d.open") is False
        # a collapsed cell previews its first line: the answer's neutral one, not its method
        expect(page.locator(".jp-InputPlaceholder").filter(has_text=ANSWER_FIRST_LINE)).to_have_count(1)
        output = page.locator(".jp-OutputArea-output", has=page.locator(".widget-slider"))
        expect(output).to_have_count(1)
        expect(slider(output, "measurement depth k")).to_be_visible()
        _assert_redrawn(*_move_pool_depth_and_back(page, output))


def test_voila_dashboard(page, tmp_path):
    root = working_copy(tmp_path / "notebooks", DASHBOARD)
    with Server("voila", root, notebook=DASHBOARD) as server, artifacts_on_failure(page, "voila-dashboard", server):
        page.goto(server.url("/"))
        slider(page, POOL_DEPTH).wait_for()
        # Voila shows the widget, never the code.
        expect(page.get_by_text("from irnb.widgets import explorer")).to_have_count(0)
        tabs = page.locator(".lm-TabBar-tab")
        expect(tabs).to_have_text(TABS)
        _assert_redrawn(*_move_pool_depth_and_back(page, page))

        # Another tab draws its own picture when first shown.
        intervals = plot_png(page.locator(".widget-image:visible").first)
        tabs.filter(has_text="decision matrix").click()
        expect(tabs.filter(has_text="decision matrix")).to_have_class(re.compile(r"lm-mod-current"))
        matrix = page.locator(".widget-image:visible").first
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=matrix.element_handle(),
                               timeout=REDRAW_TIMEOUT * 1000)
        assert plot_png(matrix) != intervals


#: The smallest text a figure may show on screen: plots.MIN_FONT (9 pt) at 80 dpi.
MIN_TEXT_PX = 10.0


def _assert_legible(where: str, image, box: dict) -> None:
    """The figure in ``image`` (shown in ``box``) is not shrunk by the page: its smallest
    text (plots.MIN_FONT drawn at PNG_DPI, times the scale the page shows it at) is ≥ 10 px."""
    scale = box["width"] / image.evaluate("img => img.naturalWidth")
    smallest_px = MIN_FONT * PNG_DPI / 72 * scale
    print(f"{where}: shown at {scale:.2f} of its size, smallest text {smallest_px:.1f} px")
    assert smallest_px >= MIN_TEXT_PX - 0.05, (f"{where}: the figure is shrunk to {scale:.2f} of its size "
                                               f"(smallest text {smallest_px:.1f} px < {MIN_TEXT_PX} px)")


#: Where the screenshots of every view go (CI keeps the folder as an artifact; gitignored).
SCREENSHOTS = Path(os.environ.get("IRNB_BROWSER_SCREENSHOTS") or REPO / "browser-artifacts")


@pytest.mark.parametrize("width, height", [(1366, 768), (1024, 768)])
def test_voila_dashboard_plot_and_controls_on_one_screen(width, height, page, tmp_path):
    """At a laptop's (and a projector's) screen size, every view's plot is within the viewport
    after load, beside its controls; the controls a view ignores are disabled and say why.
    Screenshots of every view are saved to :data:`SCREENSHOTS`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    root = working_copy(tmp_path / "notebooks", DASHBOARD)
    page.set_viewport_size({"width": width, "height": height})
    with Server("voila", root, notebook=DASHBOARD) as server, \
            artifacts_on_failure(page, f"voila-layout-{width}x{height}", server):
        page.goto(server.url("/"))
        slider(page, POOL_DEPTH).wait_for()
        start = page.get_by_text("Start here").first  # the first screen says what to move first
        expect(start).to_be_visible()
        first = start.bounding_box()
        assert first is not None and 0 <= first["y"] and first["y"] + first["height"] <= height, first
        tabs = page.locator(".lm-TabBar-tab")
        expect(tabs).to_have_text(TABS)
        for tab in TABS:
            tabs.filter(has_text=tab).click()
            image = page.locator(".widget-image:visible").first
            page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                                   arg=image.element_handle(), timeout=REDRAW_TIMEOUT * 1000)
            box = image.bounding_box()
            depth = slider(page, POOL_DEPTH).bounding_box()
            assert box is not None and depth is not None
            assert box["x"] >= 0 and box["y"] >= 0, (tab, box)
            assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, (tab, box)
            assert depth["y"] + depth["height"] <= height, (tab, depth)  # a control is on screen too
            # What the browser sees of the figure's smallest text (plots.MIN_FONT at PNG_DPI,
            # shown at this scale): on either screen the figure is shown at its drawn size.
            _assert_legible(f"Voila {width}×{height} {tab}", image, box)
            k = slider(page, "measurement depth k")
            track, label = k.locator(".noUi-target").first, k.locator(".widget-label").first
            if tab == "bias":  # the bias view ignores k: locked, and the tooltip says why
                expect(track).to_have_attribute("disabled", "true")
                expect(label).to_have_attribute("title", re.compile(r"^locked: .*k does not apply"))
            else:
                expect(track).not_to_have_attribute("disabled", "true")
                expect(label).not_to_have_attribute("title", re.compile(r"^locked"))
            _assert_locked_controls_say_why(page, tab)
            _assert_no_overlapping_text(page.locator(".irnb-explorer-controls"), f"{tab} controls")
            page.screenshot(path=str(SCREENSHOTS / f"voila-{width}x{height}-{tab.replace(' ', '-')}.png"))


#: A control's input as each kind of ipywidgets control draws it (disabled when locked).
_INPUTS = ".noUi-target, select, input"


def _assert_locked_controls_say_why(page, tab: str) -> int:
    """Every locked control of the explorer's sidebar has, right after it, a visible line that
    says why; an unlocked one has none shown. Returns how many were locked."""
    sidebar = page.locator(".irnb-explorer-controls")
    # the tab's locks arrive from the kernel after the click: wait until the reasons match the inputs
    page.wait_for_function("""(box) => [...box.children].every(c => {
        const input = c.querySelector('.noUi-target, select, input');
        if (!input) return true;
        const locked = input.hasAttribute('disabled') && input.getAttribute('disabled') !== 'false';
        const next = c.nextElementSibling;
        const shown = !!next && next.classList.contains('irnb-locked-reason') && next.offsetParent !== null;
        return locked === shown; })""", arg=sidebar.element_handle(), timeout=REDRAW_TIMEOUT * 1000)
    locked = 0
    for control in sidebar.locator(":scope > .widget-slider, :scope > .widget-dropdown, :scope > .widget-checkbox, "
                                   ":scope > .widget-select-multiple").all():
        field = control.locator(_INPUTS).first
        if field.get_attribute("disabled") in (None, "false"):
            continue
        locked += 1
        reason = control.locator("xpath=following-sibling::*[1]")
        expect(reason).to_have_class(re.compile(r"irnb-locked-reason"))
        expect(reason).to_be_visible()
        expect(reason).to_contain_text(re.compile(r"locked here: \S"))
    print(f"{tab}: {locked} locked controls, each with its reason beside it")
    return locked


def _assert_no_overlapping_text(scope, where: str) -> None:
    """No two visible text boxes (labels, readouts, help and reason lines) of ``scope`` overlap."""
    boxes = scope.evaluate("""(root) => {
        const out = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode;
            if (!node.textContent.trim()) continue;
            const parent = node.parentElement;
            if (!parent || parent.closest('select, option')) continue;  // a picker's list scrolls inside it
            const range = document.createRange(); range.selectNodeContents(node);
            for (const r of range.getClientRects())
                if (r.width > 0 && r.height > 0) out.push([r.left, r.top, r.right, r.bottom, node.textContent.trim()]);
        }
        return out; }""")
    overlaps = [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1]
    assert overlaps == [], f"{where}: overlapping texts {overlaps[:5]}"


# ------------------------------------------------------------------ offline, no warnings
def test_voila_dashboard_loads_offline_without_warnings(page, tmp_path):
    """With the pinned Voila stack and binder/voila.json (the "irnb" template, no JupyterLab-only
    extensions), the dashboard loads without a console warning or error and without a failed
    request: no version-mismatch warnings, no CDN stylesheet that cannot be fetched offline."""
    console, failed = [], []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}")
            if message.type in ("warning", "error") else None)
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.on("requestfailed", lambda request: failed.append(f"{request.url}: {request.failure}"))
    page.on("response", lambda response: failed.append(f"{response.url}: HTTP {response.status}")
            if response.status >= 400 else None)
    root = working_copy(tmp_path / "notebooks", DASHBOARD)
    with Server("voila", root, notebook=DASHBOARD) as server, artifacts_on_failure(page, "voila-offline", server):
        page.goto(server.url("/"))
        slider(page, POOL_DEPTH).wait_for()
        image = page.locator(".widget-image:visible").first
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle(),
                               timeout=REDRAW_TIMEOUT * 1000)
        page.wait_for_load_state("networkidle")
        assert console == [], f"{len(console)} console warnings/errors after load:\n" + "\n".join(console)
        assert failed == [], f"{len(failed)} failed requests after load:\n" + "\n".join(failed)


# ------------------------------------------------------------------ be the assessor
_COUNTERS = re.compile(r"judgments spent: (\d+) · pairs decided: (\d+) of (\d+) \(at the start: (\d+)\)")


def _counters(widget) -> tuple[int, int, int, int]:
    """(judgments spent, pairs decided, pairs, decided at the start) as the widget shows them."""
    text = widget.locator(".irnb-assessor-counters").inner_text()
    found = _COUNTERS.search(text)
    assert found, f"the assessor's counter line should match {_COUNTERS.pattern!r}, got {text!r}"
    return tuple(int(x) for x in found.groups())


def _wait_for_change(page, locator, old_html: str, message: str) -> None:
    """Wait (bounded) until ``locator``'s HTML differs from ``old_html``: each widget of the
    assessor is its own message from the kernel."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function("([element, old]) => element.innerHTML !== old",
                               arg=[locator.element_handle(), old_html], timeout=REDRAW_TIMEOUT * 1000)
    except PlaywrightTimeout:
        raise AssertionError(message) from None


def _play_the_assessor(page, scope, name: str) -> tuple[int, int]:
    """Judge the suggested documents by clicking, and check that the counter, the suggestion,
    the intervals and the matrix of decided pairs follow each click; (judgments spent, pairs
    newly decided)."""
    widget = scope.locator(".irnb-assessor")
    widget.scroll_into_view_if_needed()
    spent, decided, pairs, start = _counters(widget)
    assert (spent, decided) == (0, start) and 0 < start < pairs, (spent, decided, start, pairs)
    # the sentence above the widget states the same starting point (computed, not typed)
    expect(scope.get_by_text(re.compile(rf"{start} of their {pairs} pairs"))).to_have_count(1)
    intervals = widget.locator(".irnb-assessor-intervals")
    matrix = widget.locator(".irnb-assessor-matrix")
    document = widget.locator(".irnb-assessor-document")
    assert matrix.inner_text().count("▲") == start  # every decided pair is one ▲ (and one ▼): all runs shown

    before = intervals.inner_html(), document.inner_text()
    widget.locator("button[title='relevant']").click()  # its name also holds the icon's glyph
    expect(widget.locator(".irnb-assessor-counters")).to_contain_text("judgments spent: 1 ")
    _wait_for_change(page, intervals, before[0], "judging a document relevant left the intervals unchanged")
    assert document.inner_text() != before[1], "after a judgment the widget should suggest another document"

    # "not relevant" lowers the upper bounds T̄: within a few answers a pair is decided
    not_relevant = widget.locator("button[title='not relevant']")
    for clicks in range(2, 30):
        shown = intervals.inner_html()
        not_relevant.click()
        expect(widget.locator(".irnb-assessor-counters")).to_contain_text(f"judgments spent: {clicks} ")
        _wait_for_change(page, intervals, shown, f"judgment {clicks} left the intervals unchanged")
        if _counters(widget)[1] > start:
            break
    spent, decided, _, _ = _counters(widget)
    assert decided > start, f"{spent} judgments decided no new pair (still {decided})"
    assert matrix.inner_text().count("▲") == decided, "the matrix of decided pairs should show the new pair"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    widget.screenshot(path=str(SCREENSHOTS / f"{name}-assessor.png"))
    return spent, decided - start


def test_voila_dashboard_be_the_assessor(page, tmp_path):
    root = working_copy(tmp_path / "notebooks", DASHBOARD)
    with Server("voila", root, notebook=DASHBOARD) as server, artifacts_on_failure(page, "voila-assessor", server):
        page.goto(server.url("/"))
        page.locator(".irnb-assessor").wait_for()
        spent, newly_decided = _play_the_assessor(page, page, "voila")
    assert spent >= 1 and newly_decided >= 1, (spent, newly_decided)


@pytest.mark.parametrize("width, height", [(1366, 768), (1024, 768)])
def test_dashboard_in_jupyterlab_plot_on_screen_and_assessor(width, height, page, tmp_path):
    """The dashboard notebook in JupyterLab on a 1366×768 laptop and a 1024×768 projector: after Run All, the explorer's
    output scrolled to the top shows, on every tab, its plot and its controls within the viewport, a reason beside
    every locked control and no overlapping texts; the assessor widget below it works as in Voila."""
    screen = {"width": width, "height": height}
    page.set_viewport_size(screen)
    root = working_copy(tmp_path / "notebooks", DASHBOARD)
    with Server("lab", root) as server, artifacts_on_failure(page, "jupyterlab-dashboard", server):
        lab_run_all(page, server, DASHBOARD, code_cells=_code_cells(DASHBOARD))
        assert tracebacks(page) == []
        output = page.locator(".jp-OutputArea-output", has=page.locator(".widget-slider"))
        expect(output).to_have_count(1)
        _assert_explorer_tabs_on_screen(page, output, screen, f"jupyterlab-{width}x{height}-dashboard")
        spent, newly_decided = _play_the_assessor(page, page.locator(".jp-Notebook"), "jupyterlab")
    assert spent >= 1 and newly_decided >= 1, (spent, newly_decided)


def _assert_explorer_tabs_on_screen(page, output, screen: dict, name: str) -> None:
    """On every tab of the explorer in ``output`` (scrolled to the top of the screen): the plot
    is within the viewport at its drawn size, a pool-depth control is on screen, every locked
    control says why beside it, and no two texts of the explorer overlap. A screenshot per tab
    goes to :data:`SCREENSHOTS`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    output.evaluate("element => element.scrollIntoView({block: 'start'})")
    tabs = output.locator(".lm-TabBar-tab")
    expect(tabs).to_have_text(TABS)
    locked = {}
    for tab in TABS:
        tabs.filter(has_text=tab).click()
        expect(tabs.filter(has_text=tab)).to_have_class(re.compile(r"lm-mod-current"))
        image = output.locator(".widget-image:visible").first
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle(),
                               timeout=REDRAW_TIMEOUT * 1000)
        box, depth = image.bounding_box(), slider(output, POOL_DEPTH).bounding_box()
        assert box is not None and depth is not None
        assert box["x"] >= 0 and box["y"] >= 0, (name, tab, box)
        assert box["x"] + box["width"] <= screen["width"] + 0.5, (name, tab, box)
        assert box["y"] + box["height"] <= screen["height"] + 0.5, (name, tab, box)
        assert 0 <= depth["y"] and depth["y"] + depth["height"] <= screen["height"], (name, tab, depth)
        _assert_legible(f"{name} {tab}", image, box)
        locked[tab] = _assert_locked_controls_say_why(page, tab)
        assert locked[tab] > 0, tab  # every tab locks a control that does not apply to it
        _assert_no_overlapping_text(output, f"{name} {tab}")
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{tab.replace(' ', '-')}.png"))
    print(f"{name}: locked (tab, control) pairs, each with its reason shown: {sum(locked.values())} {locked}")
    tabs.filter(has_text=TABS[0]).click()


#: A notebook of one cell: the explorer on TREC-COVID round 1 (teams and contributing runs from
#: the leaderboard), read from the project's shared data folder as notebook 05 finds it.
_TREC_COVID_EXPLORER = """\
from irnb.datasets import shared_data
from irnb.datasets.real import trec_covid_round1
from irnb.widgets import explorer

explorer(trec_covid_round1(shared_data("trec-covid-round1"))).widget"""


@pytest.mark.parametrize("width, height", [(1366, 768), (1024, 768)])
def test_explorer_on_trec_covid_in_jupyterlab(width, height, page, tmp_path):
    """The explorer on TREC-COVID round 1 (143 runs with long names, 30 topics) in JupyterLab on a
    1366×768 laptop and a 1024×768 projector: every tab's plot on screen, every locked control
    with its reason, no overlapping texts."""
    import nbformat

    from irnb.datasets import shared_data

    if shared_data("trec-covid-round1") is None:
        pytest.skip("needs TREC-COVID round 1 in the project's shared/data folder")
    screen = {"width": width, "height": height}
    page.set_viewport_size(screen)
    root = tmp_path / "notebooks"
    root.mkdir()
    name = "explorer_trec_covid.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_TREC_COVID_EXPLORER)]), root / name)
    with Server("lab", root) as server, artifacts_on_failure(page, f"jupyterlab-trec-covid-{width}x{height}", server):
        lab_run_all(page, server, name, code_cells=1)
        assert tracebacks(page) == []
        output = page.locator(".jp-OutputArea-output", has=page.locator(".widget-slider"))
        expect(output).to_have_count(1)
        _assert_explorer_tabs_on_screen(page, output, screen, f"jupyterlab-{width}x{height}-trec-covid")
