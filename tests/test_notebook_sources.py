"""The teaching notebooks are their own sources: jupytext MyST Markdown files in ``notebooks/``
(``*.md``), each paired with the ``.ipynb`` that Binder, Voila, ``irnb lab`` and the wheel use.

A teacher edits either file in JupyterLab (jupytext keeps the pair in sync on save) or the
``.md`` in any editor, then runs ``jupytext --sync notebooks/*.md``. No code in the repository
writes notebook cells from strings. Every number of the prose is computed by a collapsed
cell (``irnb.teaching.say``) and checked by ``irnb.teaching.claim``; executing the notebooks
(``tests/test_notebooks.py``) is what checks the sentences.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("*.md"))
TEACHING = [p for p in SOURCES if re.match(r"\d\d_", p.name)]
SYNC = "run `jupytext --sync notebooks/*.md`"


def _cells(notebook) -> list[tuple]:
    """What a pair must agree on: each cell's type, source, tags and JupyterLab collapse state."""
    return [(c.cell_type, c.source.strip(), tuple(c.metadata.get("tags", ())), dict(c.metadata.get("jupyter", {})))
            for c in notebook.cells]


def test_every_notebook_has_a_myst_source_and_the_other_way_round():
    assert len(TEACHING) >= 6, [p.name for p in SOURCES]
    ipynb = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    assert ipynb == {p.stem for p in SOURCES}, f"unpaired notebooks: {sorted(ipynb ^ {p.stem for p in SOURCES})}"


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_pair_is_in_sync_and_committed_without_outputs(source):
    text = source.read_text(encoding="utf-8")
    assert text.startswith("---\njupytext:") and "format_name: myst" in text and "formats: ipynb,md:myst" in text, \
        f"{source.name}: not a paired jupytext MyST notebook (header `formats: ipynb,md:myst`)"
    paired = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    assert _cells(jupytext.reads(text, fmt="md:myst")) == _cells(paired), \
        f"{source.stem}.ipynb differs from {source.name}: {SYNC}"
    outputs = [c for c in paired.cells if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert outputs == [], f"{source.stem}.ipynb is committed with outputs; {SYNC} (it writes none)"


@pytest.mark.parametrize("source", TEACHING, ids=[p.name for p in TEACHING])
def test_notebook_states_its_goal_and_folds_its_answers(source):
    notebook = jupytext.read(source)
    first = next(c for c in notebook.cells if c.cell_type == "markdown")
    assert "**Learning goal:**" in first.source, f"{source.name}: the first cell must state the learning goal"
    answers = [c for c in notebook.cells if c.cell_type == "code" and "answer(" in c.source]
    assert answers, f"{source.name}: no exercise answer (a cell calling irnb.teaching.answer)"
    for cell in answers:
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, cell.source[:80]
        assert "hide-input" in cell.metadata.get("tags", ()), cell.source[:80]


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_computed_sentences_are_collapsed_and_hidden_in_the_docs(source):
    for cell in jupytext.read(source).cells:   # a sentence of its own (not one printed inside a branch)
        if cell.cell_type == "code" and re.search(r"^say\(", cell.source, re.MULTILINE) \
                and "answer(" not in cell.source and "hide-input" not in cell.metadata.get("tags", ()):
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, f"{source.name}: {cell.source[:80]}"
            tags = set(cell.metadata.get("tags", ()))
            assert {"remove-input", "remove-cell"} & tags, f"{source.name}: {cell.source[:80]}"


def test_markdown_cells_type_no_collection_numbers():
    """Numbers about the data live in computed sentences; markdown keeps only numbers of the method
    (depths, α, E = 0.01, a worked example) and of the papers. A heuristic: no markdown cell quotes
    a three-decimal figure such as 0.123, which is what computed values look like."""
    typed = {p.name: re.findall(r"(?<![\d.])0\.\d{3}\b", c.source) for p in SOURCES
             for c in jupytext.read(p).cells if c.cell_type == "markdown"}
    allowed = {"0.043"}   # Ravana & Moffat's printed TREC-9 estimate of E
    assert {name: sorted(set(f) - allowed) for name, f in typed.items() if set(f) - allowed} == {}


def test_no_code_writes_notebook_cells_from_strings():
    writers = [p.relative_to(REPO) for p in REPO.rglob("*.py")
               if not any(part in {"tests", ".git", "build", "_build"} for part in p.parts)
               and re.search(r"new_(code|markdown)_cell|nbformat\.write", p.read_text(encoding="utf-8"))]
    assert writers == []


# The seed papers' tables and figures (issue 13's ids): each is shown by some notebook.
SEED_IDS = (["baillie2007-table1", "baillie2007-fig2", "baillie2008-table3", "baillie2008-table4", "baillie2008-fig4",
             "baillie2008-fig11", "baillie2008-fig12", "buttcher2007-fig1"]
            + [f"buttcher2007-table{i}" for i in range(1, 9)]
            + ["ravana2010-fig1", "ravana2010-table1", "ravana2010-fig2", "ravana2010-table2", "ravana2010-table3",
               "thesis-fig7.1", "thesis-fig7.2"])


def test_every_seed_reproduction_appears_in_a_notebook():
    import irnb

    shown = {m for p in SOURCES for m in re.findall(r'show_reproduction\("([^"]+)"', p.read_text(encoding="utf-8"))}
    missing = sorted((set(SEED_IDS) | set(irnb.reproduction_ids())) - shown)
    assert missing == [], f"no notebook shows {missing} (irnb.teaching.show_reproduction(id))"
    unknown = sorted(shown - set(SEED_IDS) - set(irnb.reproduction_ids()))
    assert unknown == [], f"notebooks show ids that are neither seeds nor registered: {unknown}"
