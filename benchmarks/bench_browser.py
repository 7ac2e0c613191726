"""Latency as a user sees it (not a test): user input → changed view, in a real browser.

The Voila dashboard (``notebooks/dashboard.ipynb``: :func:`irnb.widgets.explorer` on the
embedded default collection, 40 runs × 50 topics × depth 1000, and the "be the assessor"
widget) runs in headless Chromium (Debian's ``/usr/bin/chromium`` driven by Playwright, as
in ``tests/test_browser.py``). On every tab — intervals, decision matrix, bias, unjudged
documents — the script works every control that is enabled there: a slider's handle gets ←
``--presses`` times (each a value not seen before: the core computes afresh), then → as often
(values seen before: whatever the views cache); a picker, a tick box or a run list goes to
another value and back. Then the assessor's two buttons are clicked. One sample is the time
from the input event in the page (keydown, mousedown, input or change) to the next animation
frame after the view's status line or picture changed (and the new picture was decoded): the
whole round trip browser → kernel (core, artists, Agg draw, PNG) → browser. An enabled
control that changes nothing is reported as dead. Target (issue 7): ≤ 300 ms.

    python benchmarks/bench_browser.py [--presses 5] [--save benchmarks/RESULTS_browser.md]

Needs ``pip install -e '.[browser]'`` and ``apt-get install chromium``. On a machine shared
with other jobs the numbers include waiting for a core; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from browser_helpers import (  # noqa: E402
    REDRAW_TIMEOUT,
    Server,
    artifacts_on_failure,
    browser_unavailable,
    chromium,
    slider,
    working_copy,
)

TARGET_MS = 300.0
TABS = ("intervals", "decision matrix", "bias", "unjudged documents")
#: How long a control may take to change its view before it counts as dead (no redraw).
DEAD_AFTER_S = 20.0

_RECORDER = """() => {
  if (window.__irnbBench) return;
  window.__irnbBench = {armed: false, t0: 0, t1: 0, done: false, plotChanged: false};
  const start = () => { const s = window.__irnbBench; if (s.armed && !s.t0) s.t0 = performance.now(); };
  for (const kind of ['keydown', 'mousedown', 'input', 'change']) document.addEventListener(kind, start, true);
}"""

# Done at the next animation frame after the view's status line or its picture changed (and
# the new picture is decoded). ``watched`` is [img, status] for a view, [counter] for the assessor.
_ARM = """(watched) => {
  const s = window.__irnbBench;
  if (s.observer) s.observer.disconnect();
  const img = watched.find(e => e.tagName === 'IMG');
  const texts = watched.filter(e => e.tagName !== 'IMG');
  const old = texts.map(e => e.innerText);
  Object.assign(s, {armed: true, t0: 0, t1: 0, done: false, plotChanged: false, oldSrc: img ? img.src : null});
  const finish = async () => {
    if (s.done || !s.t0) return;  // a change before the input (a late redraw of the last one) is not this one's
    const srcChanged = img && img.src !== s.oldSrc;
    if (!srcChanged && texts.every((e, i) => e.innerText === old[i])) return;
    if (srcChanged) { s.plotChanged = true; try { await img.decode(); } catch (e) {} }
    requestAnimationFrame(() => { if (!s.done) { s.t1 = performance.now(); s.done = true; s.armed = false; } });
  };
  s.observer = new MutationObserver(finish);
  for (const e of watched)
    s.observer.observe(e, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


# Resolves once ``watched`` has not changed for ``quiet`` ms (bounded by ``limit`` ms): one input
# may cause more than one redraw (a contributors change also updates the groups), and the next
# sample starts after the last of them.
_SETTLE = """async ([watched, quiet, limit]) => {
  let last = performance.now();
  const observer = new MutationObserver(() => { last = performance.now(); });
  for (const e of watched) observer.observe(e, {subtree: true, childList: true, characterData: true, attributes: true});
  const started = performance.now();
  while (performance.now() - last < quiet && performance.now() - started < limit) {
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  observer.disconnect();
}"""


def _one_action(page, watched, act) -> tuple[float | None, bool]:
    """Milliseconds from the user's input event to the redrawn view (None: nothing changed
    within DEAD_AFTER_S), and whether the picture changed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    handles = [w.element_handle() for w in watched]
    page.evaluate(_SETTLE, [handles, 500, 20_000])
    page.evaluate(_ARM, handles)
    act()
    try:
        page.wait_for_function("() => window.__irnbBench.done", timeout=DEAD_AFTER_S * 1000)
    except PlaywrightTimeout:
        return None, False
    t0, t1, changed = page.evaluate("() => [window.__irnbBench.t0, window.__irnbBench.t1, "
                                    "window.__irnbBench.plotChanged]")
    return t1 - t0, bool(changed)


def _enabled_controls(page) -> list[tuple[str, str, object]]:
    """(kind, label, locator) of every enabled control of the explorer's sidebar, as shown now."""
    found = []
    for kind, selector in (("slider", ".widget-slider"), ("dropdown", ".widget-dropdown"),
                           ("checkbox", ".widget-checkbox"), ("list", ".widget-select-multiple")):
        for control in page.locator(f".irnb-explorer-controls {selector}").all():
            if not control.is_visible():
                continue
            target = {"slider": ".noUi-target", "dropdown": "select", "checkbox": "input",
                      "list": "select"}[kind]
            element = control.locator(target).first
            if element.get_attribute("disabled") is not None:
                continue
            label = control.locator(".widget-label").first.inner_text().strip("\u200b \n")  # a tick box:
            label = label or control.inner_text().strip("\u200b \n")  # its words follow the box
            found.append((kind, label, control))
    return found


def _actions(kind: str, control, presses: int) -> list[tuple[str, object]]:
    """(values, action) pairs: a change to a value not shown before, then back."""
    if kind == "slider":  # ← from where there is room below, else → (E starts near its smallest value)
        handle = control.locator(".noUi-handle").first
        now, low = (float(handle.get_attribute(a)) for a in ("aria-valuenow", "aria-valuemin"))
        away, back = ("ArrowLeft", "ArrowRight") if now - low >= presses else ("ArrowRight", "ArrowLeft")
        return [("new value", lambda: (handle.focus(), handle.press(away))),
                ("seen value", lambda: (handle.focus(), handle.press(back)))]
    if kind == "checkbox":
        box = control.locator("input").first
        return [("new value", box.click), ("seen value", box.click)]
    select = control.locator("select").first
    if kind == "dropdown":
        options = select.locator("option").all_inner_texts()
        first = select.evaluate("s => s.options[s.selectedIndex].text")
        other = next(o for o in options if o != first)
        return [("new value", lambda: select.select_option(label=other)),
                ("seen value", lambda: select.select_option(label=first))]
    chosen = select.evaluate("s => [...s.selectedOptions].map(o => o.value)")
    fewer = chosen[1:] if len(chosen) > 1 else select.evaluate("s => [s.options[1].value]")
    return [("new value", lambda: select.select_option(value=fewer)),
            ("seen value", lambda: select.select_option(value=chosen))]


def _row(view: str, control: str, kind: str, samples: list[tuple[float | None, bool]]) -> dict:
    ms = [m for m, _ in samples if m is not None]
    row = {"view": view, "control": control, "values": kind, "presses": len(samples), "redrawn": len(ms),
           "median_ms": statistics.median(ms) if ms else float("nan"), "max_ms": max(ms) if ms else float("nan"),
           "plot_changed": sum(changed for _, changed in samples)}
    print(f"{view:>20} · {control:<22} {kind:<10} median {row['median_ms']:6.0f} ms, max {row['max_ms']:6.0f} ms, "
          f"redrawn {row['redrawn']}/{row['presses']}", file=sys.stderr)
    return row


def _samples(page, watched, kind: str, control, presses: int) -> dict[str, list]:
    """values ("new value" / "seen value") → samples. A slider: ← ``presses`` times (values
    not seen before), then → as often; any other control: to another value and back,
    ``presses`` times."""
    (new_label, to_new), (seen_label, back) = _actions(kind, control, presses)
    found: dict[str, list] = {new_label: [], seen_label: []}
    if kind == "slider":
        found[new_label] = [_one_action(page, watched, to_new) for _ in range(presses)]
        found[seen_label] = [_one_action(page, watched, back) for _ in range(presses)]
        return found
    target = control.locator("select, input").first
    for _ in range(presses):
        if not target.is_enabled():  # locked meanwhile: say so rather than wait for it
            raise RuntimeError(f"{control.inner_text()[:40]!r} was locked while the benchmark used it")
        found[new_label].append(_one_action(page, watched, to_new))
        found[seen_label].append(_one_action(page, watched, back))
    return found


def measure(presses: int) -> list[dict]:
    rows = []
    root = working_copy(Path(tempfile.mkdtemp(prefix="irnb-bench-browser-")), "dashboard.ipynb")
    with Server("voila", root, notebook="dashboard.ipynb") as server, chromium() as context:
        page = context.new_page()
        with artifacts_on_failure(page, "bench-browser", server):
            start = time.perf_counter()
            page.goto(server.url("/"))
            slider(page, "pool depth d").wait_for()
            print(f"dashboard shown after {time.perf_counter() - start:.1f} s", file=sys.stderr)
            page.evaluate(_RECORDER)
            tabs = page.locator(".lm-TabBar-tab")
            for view in TABS:
                tabs.filter(has_text=view).click()
                image = page.locator(".widget-image:visible").first
                page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                                       arg=image.element_handle(), timeout=REDRAW_TIMEOUT * 1000)
                status = image.locator("xpath=following-sibling::*[contains(@class, 'widget-html')][1]")
                # the tab's locks arrive from the kernel after the click: read the controls once they settle
                page.evaluate(_SETTLE, [[page.locator(".irnb-explorer-controls").element_handle()], 1000, 20_000])
                for kind, label, control in _enabled_controls(page):
                    for values, samples in _samples(page, [image, status], kind, control, presses).items():
                        rows.append(_row(view, label, values, samples))
            # the "be the assessor" widget: a click → new counters (sent after its intervals and suggestion)
            widget = page.locator(".irnb-assessor")
            widget.scroll_into_view_if_needed()
            counters = widget.locator(".irnb-assessor-counters")
            for title in ("relevant", "not relevant"):
                button = widget.locator(f"button[title='{title}']")
                rows.append(_row("be the assessor", title, "click",
                                 [_one_action(page, [counters], button.click) for _ in range(presses)]))
    return rows


def report(rows: list[dict], presses: int) -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    dead = sorted({(r["view"], r["control"]) for r in rows if r["redrawn"] < r["presses"]})
    lines = [
        "## Browser latency: user input → changed view (Voila dashboard, headless Chromium)",
        "",
        f"Embedded default collection (40 runs × 50 topics × depth 1000); every enabled control of each "
        f"tab, {presses} inputs per row (sliders: arrow keys; pickers and lists: to another value and back; "
        f"the assessor: button clicks); {platform.platform()}, {os.cpu_count()} cores, load average {load} "
        f"(1, 5, 15 min) at the end. Target ≤ {TARGET_MS:.0f} ms. "
        f"Dead (view, control) pairs — an enabled control whose input changed nothing within "
        f"{DEAD_AFTER_S:.0f} s: {len(dead)}{': ' + ', '.join(f'{v} · {c}' for v, c in dead) if dead else ''}.",
        "",
        "| view | control | values | median ms | max ms | redrawn | plot changed | ≤ target |",
        "|---|---|---|---:|---:|---:|---:|:-:|",
    ]
    for r in rows:
        ok = "yes" if r["median_ms"] <= TARGET_MS else "no"
        lines.append(f"| {r['view']} | {r['control']} | {r['values']} | {r['median_ms']:.0f} | {r['max_ms']:.0f} | "
                     f"{r['redrawn']}/{r['presses']} | {r['plot_changed']}/{r['presses']} | {ok} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=5, help="inputs per control and direction (default 5)")
    parser.add_argument("--save", type=Path, default=None, help="also write the markdown table to this file")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error(f"--presses must be ≥ 1, got {args.presses}")
    # the Voila kernel imports the checkout's irnb, whatever is installed
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    reason = browser_unavailable()
    if reason:
        print(f"bench_browser: cannot run: {reason}", file=sys.stderr)
        return 2
    text = report(measure(args.presses), args.presses)
    print(text)
    if args.save is not None:
        args.save.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
