"""Every teaching notebook runs top to bottom from its jupytext source, headless, within its time
budget, and shows at least one figure. A sentence whose claim the data no longer supports stops
the run with ``irnb.teaching.StaleClaim``, naming the sentence (the error is in the failure message).

Notebook 05 runs twice where ``../shared`` is present: on TREC-COVID round 1 and on the simulated
fallback (``IRNB_SHARED_DATA=0``) that a machine without ``../shared`` gets.

Every figure a cell leaves open is checked in the kernel, before the inline backend closes it, by
``tests/figure_checks.py`` (legends cover no data, coinciding curves stay visible, colour is never the
only cue, no legend entry without points, log axes in plain numbers).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import re

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.md"))
SHARED = REPO.parent / "shared" / "data" / "trec-covid-round1"
BUDGET_SECONDS = 60
CHECKS = Path(__file__).resolve().parent / "figure_checks.py"
# first cell: after each cell, before matplotlib-inline's flush closes its figures (this hook is registered
# first: pyplot, which registers the flush, is not imported yet), check every open figure
CHECK_FIGURES = f"""
import runpy as _irnb_runpy
_irnb_figure_problems = _irnb_runpy.run_path({str(CHECKS)!r})["figure_problems"]
_irnb_problems = []
def _irnb_check_figures(*_):
    import sys
    pyplot = sys.modules.get("matplotlib.pyplot")
    for number in (pyplot.get_fignums() if pyplot is not None else []):
        _irnb_problems.extend(_irnb_figure_problems(pyplot.figure(number),
                                                    where=f"cell {{get_ipython().execution_count}}"))
get_ipython().events.register("post_execute", _irnb_check_figures)
"""
REPORT_FIGURES = "import json as _irnb_json; print(_irnb_json.dumps(_irnb_problems))"
RUNS = [(p, {}) for p in NOTEBOOKS] + (
    [(REPO / "notebooks" / "05_your_own_data.md", {"IRNB_SHARED_DATA": "0"})] if SHARED.is_dir() else [])
IDS = [p.stem + ("-simulated" if env else "") for p, env in RUNS]


def execute(path: Path, env: dict[str, str] | None = None, *, timeout: int = 300, check_figures: bool = False):
    """Execute the jupytext source ``path`` in a fresh kernel (cwd: its folder; the kernel imports this
    checkout; matplotlib's inline backend, so figures become image outputs). Returns the executed
    notebook and the seconds it took. ``check_figures``: a first cell registers the figure checks and a
    last cell prints what they found (a JSON list; :func:`figure_report` reads it)."""
    notebook = jupytext.read(path)
    if check_figures:   # cell numbers in the report are the notebook's own (0-based, markdown included)
        notebook.cells = ([nbformat.v4.new_code_cell(CHECK_FIGURES)] + notebook.cells
                          + [nbformat.v4.new_code_cell(REPORT_FIGURES)])
    saved = {key: os.environ.get(key) for key in ("PYTHONPATH", "MPLBACKEND", *(env or {}))}
    os.environ["PYTHONPATH"] = str(REPO)
    os.environ.pop("MPLBACKEND", None)   # Agg would swallow the figures
    os.environ.update(env or {})
    try:
        client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                         resources={"metadata": {"path": str(path.parent)}})
        start = time.perf_counter()
        client.execute()
        return notebook, time.perf_counter() - start
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def figure_report(notebook) -> list[str]:
    """The figure problems printed by the last cell of a notebook run with ``check_figures=True``, with
    each problem's execution count turned into the index of the notebook's own cell."""
    last = notebook.cells[-1]
    text = "".join(o.get("text", "") for o in last.get("outputs", []) if o.get("output_type") == "stream")
    problems = json.loads(text)
    own = {c.get("execution_count"): i - 1 for i, c in enumerate(notebook.cells) if c.cell_type == "code"}
    # the hook runs after a cell's count is taken and before the next: count n + 1 reports cell n
    return [re.sub(r"^cell (\d+)", lambda m: f"cell {own.get(int(m.group(1)) - 1, '?')}", p) for p in problems]


def _outputs(notebook, kind: str) -> list:
    return [o for c in notebook.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if kind in o.get("data", {})]


@pytest.mark.parametrize(("path", "env"), RUNS, ids=IDS)
def test_notebook_runs_from_its_source_and_shows_a_figure(path, env):
    try:
        notebook, elapsed = execute(path, env, check_figures=True)
    except nbclient.exceptions.CellExecutionError as err:   # names the cell and, for a stale claim, the sentence
        pytest.fail(f"{path.name} failed: {str(err)[-1500:]}")
    problems = figure_report(notebook)
    assert problems == [], f"{path.name}: figures break issue 21's rules:\n" + "\n".join(problems)
    notebook.cells = notebook.cells[1:-1]
    code_cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert code_cells and all(c.get("execution_count") for c in code_cells), "every code cell must have run"
    assert _outputs(notebook, "image/png"), f"{path.name} shows no figure"
    assert _outputs(notebook, "text/markdown"), f"{path.name} shows no computed sentence or answer"
    # The budget is for a machine with a core to spare; when other work loads it (1-minute load average above
    # the core count, as when several test runs share one CI machine), the budget grows in proportion.
    load = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    assert elapsed < BUDGET_SECONDS * load, \
        f"{path.name} took {elapsed:.1f} s (budget {BUDGET_SECONDS} s × load {load:.1f})"
