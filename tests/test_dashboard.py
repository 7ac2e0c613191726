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


def test_dashboard_is_the_explorer_with_a_computed_description():
    jupytext = pytest.importorskip("jupytext")
    notebook = jupytext.read(REPO / "notebooks" / "dashboard.md")
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert len(code) == 2 and "say(" in code[0].source and "explorer(" in code[1].source
    assert code[0].metadata["jupyter"]["source_hidden"] is True   # JupyterLab shows the sentence, not its code


@pytest.mark.slow
def test_dashboard_runs_and_shows_the_explorer_widget(tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))  # the kernel imports this checkout
    notebook = nbformat.read(DASHBOARD, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    cell = [c for c in notebook.cells if c.cell_type == "code"][-1]
    kinds = [o.get("output_type") for o in cell.outputs]
    assert "error" not in kinds, [o.get("evalue") for o in cell.outputs if o.get("output_type") == "error"]
    views = [o for o in cell.outputs if o.get("output_type") == "execute_result" and WIDGET_VIEW in o["data"]]
    assert len(views) == 1, f"expected one widget view as the cell's result, got outputs {kinds}"
    # The widget state saved with the run holds the four tabs' titles.
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    titles = [m["state"].get("titles") for m in state.values() if m.get("model_name") == "TabModel"]
    assert titles == [["intervals", "decision matrix", "bias", "unjudged documents"]], titles
