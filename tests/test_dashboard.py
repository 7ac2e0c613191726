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
    # The intro says where to start; the words are explained, unfolded, right below the view
    assert "**Start here:**" in code[0].source
    markdown = [c.source for c in notebook.cells if c.cell_type == "markdown"]
    assert not any("<details>" in text for text in markdown)
    words = next(text for text in markdown if text.startswith("## The words on the screen"))
    for term in ("pool depth d", "contributing run", "[B, T]", "Δ", "X_M", "A_p@k", "s₁", "ANOVA + Bonferroni",
                 "E", "λ"):
        assert term in words, term


def test_dashboard_opens_on_an_instructive_setting():
    """The explorer opens where the lesson is: a pool shallower than the measurement depth, a
    run that did not contribute on the right, and pools judged from the collection's truth."""
    jupytext = pytest.importorskip("jupytext")
    from irnb.datasets import default

    notebook = jupytext.read(REPO / "notebooks" / "dashboard.md")
    code = [c for c in notebook.cells if c.cell_type == "code"][1:]
    shown: list = []
    namespace = {"say": shown.append}
    exec(compile(code[0].source.replace("from irnb.teaching import say\n", ""), "dashboard intro", "exec"),
         namespace)
    source = code[1].source.replace("dashboard.widget", "").replace("explorer(collection)",
                                                                 "explorer(collection, canvas='png')")
    exec(compile(source, "dashboard explorer", "exec"), namespace)
    dashboard = namespace["dashboard"]
    exp = default().experiment
    assert dashboard.experiment is default().complete_experiment
    assert dashboard.controls["depth"].value < dashboard.controls["measurement_depth"].value
    run = dashboard.controls["run"].value
    assert not exp.contributors[list(exp.run_names).index(run)]
    assert "Start here" in shown[0] and run in shown[0]


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
