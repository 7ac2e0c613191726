"""The Voila dashboard notebook without a browser: it runs headless, hides no error, and shows
two widgets (widget views, not static pictures): the explorer and, below it, the "be the
assessor" widget. What they do in a browser is checked by ``tests/test_browser.py``."""

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


def test_dashboard_is_the_explorer_and_the_assessor_with_computed_descriptions():
    jupytext = pytest.importorskip("jupytext")
    notebook = jupytext.read(REPO / "notebooks" / "dashboard.md")
    code = [c for c in notebook.cells if c.cell_type == "code"][1:]  # after the Colab install cell
    assert len(code) == 4 and "say(" in code[0].source and "explorer(" in code[1].source
    assert "assessor(" in code[2].source and "say(" in code[2].source and code[3].source.strip() == "judge.widget"
    for cell in (code[0], code[2]):  # JupyterLab shows the sentence, not its code
        assert cell.metadata["jupyter"]["source_hidden"] is True
    # The intro is short and the legend of controls and tabs folded, so the plot starts high on the page
    markdown = [c.source for c in notebook.cells if c.cell_type == "markdown"]
    assert any(text.startswith("<details><summary>") and text.rstrip().endswith("</details>") for text in markdown)


@pytest.mark.slow
def test_dashboard_runs_and_shows_the_explorer_and_the_assessor(tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))  # the kernel imports this checkout
    notebook = nbformat.read(DASHBOARD, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    code = [c for c in notebook.cells if c.cell_type == "code"][1:]  # after the Colab install cell
    for cell in code:
        errors = [o.get("evalue") for o in cell.outputs if o.get("output_type") == "error"]
        assert errors == [], errors
    for cell in (code[1], code[3]):  # the explorer, the assessor
        kinds = [o.get("output_type") for o in cell.outputs]
        views = [o for o in cell.outputs if o.get("output_type") == "execute_result" and WIDGET_VIEW in o["data"]]
        assert len(views) == 1, f"expected one widget view as the cell's result, got outputs {kinds}"
    # The widget state saved with the run holds the four tabs' titles.
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    titles = [m["state"].get("titles") for m in state.values() if m.get("model_name") == "TabModel"]
    assert titles == [["intervals", "decision matrix", "bias", "unjudged documents"]], titles
    # ... and the assessor's two buttons
    buttons = sorted(m["state"].get("description") for m in state.values() if m.get("model_name") == "ButtonModel")
    assert buttons == ["not relevant", "relevant"], buttons
