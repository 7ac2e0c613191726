"""The Voila dashboard notebook without a browser: it runs headless, hides no error, and its
one output is the explorer widget (a widget view, not a static picture). What the widget
does in a browser is checked by ``tests/test_browser.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("ipywidgets")

REPO = Path(__file__).resolve().parents[1]
DASHBOARD = REPO / "notebooks" / "dashboard.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_dashboard_is_generated_from_its_script():
    text = (REPO / "tools" / "make_dashboard_notebook.py").read_text(encoding="utf-8")
    notebook = nbformat.read(DASHBOARD, as_version=4)
    code = [c.source for c in notebook.cells if c.cell_type == "code"]
    assert len(code) == 1 and "explorer(" in code[0]
    assert all(line.replace('"', '\\"') in text for line in code[0].splitlines() if line), \
        "notebooks/dashboard.ipynb differs from tools/make_dashboard_notebook.py: rerun the script"


@pytest.mark.slow
def test_dashboard_runs_and_shows_the_explorer_widget(tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))  # the kernel imports this checkout
    notebook = nbformat.read(DASHBOARD, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    (cell,) = [c for c in notebook.cells if c.cell_type == "code"]
    kinds = [o.get("output_type") for o in cell.outputs]
    assert "error" not in kinds, [o.get("evalue") for o in cell.outputs if o.get("output_type") == "error"]
    views = [o for o in cell.outputs if o.get("output_type") == "execute_result" and WIDGET_VIEW in o["data"]]
    assert len(views) == 1, f"expected one widget view as the cell's result, got outputs {kinds}"
    # The widget state saved with the run holds the four tabs' titles.
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    titles = [m["state"].get("titles") for m in state.values() if m.get("model_name") == "TabModel"]
    assert titles == [["intervals", "decision matrix", "bias", "unjudged documents"]], titles
