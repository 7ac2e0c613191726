"""Real browser: headless Chromium (Debian's, via Playwright) against JupyterLab and Voila.

A user's view of the live widgets: open the tour notebook in JupyterLab (a working copy in a
tmp folder), run all cells, press ← on the pool-depth slider and check that the slider's
readout and the interval plot changed — and that pressing → brings back the very same
picture (the plot is a function of the controls, not of the history). The same against the
Voila dashboard, plus its tabs.

Skipped, with the reason, when /usr/bin/chromium or the playwright/voila/jupyterlab/ipywidgets
packages are absent; ``.ci/run`` installs them, so in CI these tests run. On failure a
screenshot, the page's HTML and the server log are saved (path printed; see
``browser_helpers.artifacts_dir``).
"""

from __future__ import annotations

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

pytestmark = pytest.mark.slow
# Assertions on the page retry until true or this bound (a loaded two-core machine is slow).
expect.set_options(timeout=REDRAW_TIMEOUT * 1000)

TOUR = "00_tour.ipynb"
DASHBOARD = "dashboard.ipynb"
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
    start = int(readout(depth))
    image = scope.locator(".widget-image:visible").first
    before, src = plot_png(image), plot_src(image)

    press_on_slider(depth, "ArrowLeft")
    expect(depth.locator(".widget-readout")).to_have_text(str(start - 1))
    wait_for_new_plot(page, image, src, timeout=REDRAW_TIMEOUT)
    moved, src = plot_png(image), plot_src(image)

    press_on_slider(depth, "ArrowRight")
    expect(depth.locator(".widget-readout")).to_have_text(str(start))
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
        expect(page.locator(".jp-InputPlaceholder").filter(has_text="worst = ")).to_have_count(1)
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
