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

import numpy as np
import pytest

jupytext = pytest.importorskip("jupytext")
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[2]
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


# A collapsed cell still shows its first line (JupyterLab's placeholder previews it): an answer's
# first line says what the cell is, never how the answer is computed. It is also the title of a
# Colab form ("# @title"), so that Colab, which ignores source_hidden, hides the code too.
ANSWER_FIRST_LINE = "# @title The answer's code: try the exercise before you open it."


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
        assert cell.source.splitlines()[0] == ANSWER_FIRST_LINE, \
            f"{source.name}: a collapsed answer shows its first line; start it with {ANSWER_FIRST_LINE!r}: " \
            f"{cell.source[:80]}"


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_computed_sentences_are_collapsed_and_hidden_in_the_docs(source):
    for cell in jupytext.read(source).cells:   # a sentence of its own (not one printed inside a branch)
        if cell.cell_type == "code" and re.search(r"^say\(", cell.source, re.MULTILINE) \
                and "answer(" not in cell.source and "hide-input" not in cell.metadata.get("tags", ()):
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, f"{source.name}: {cell.source[:80]}"
            tags = set(cell.metadata.get("tags", ()))
            assert {"remove-input", "remove-cell"} & tags, f"{source.name}: {cell.source[:80]}"


# What a computed value or a paper's printed number looks like when typed: three or more decimals (0.123,
# 0.4525), a leading-dot decimal as the papers print them (.44), or a percentage (26 %, 4.3 %).
TYPED_NUMBER = re.compile(r"(?<![\w.])(?:\d*\.\d{3,}|\.\d+|\d+(?:\.\d+)?\s?%)")
# Settings the text chooses, not results: they may be typed.
METHOD_NUMBERS = {"95 %": "the confidence level of an interval", "5 %": "a budget or subsample the text sets",
                  "80 %": "the largest random subsample (Büttcher et al.'s range 5 %–80 %)"}


def _checked_numbers(source: str) -> set[str]:
    """The numeric literals of a code cell's claim(...) calls: a worked example the cell checks."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "claim":
            found |= {repr(n.value) for n in ast.walk(node) if isinstance(n, ast.Constant)
                      and isinstance(n.value, float)}
    return found


def _shown_text(source: str) -> str:
    """The literal text of a cell's strings (f-strings without their {expressions}), leaving out what
    claim(...) and search(...) check (statements the student does not see), format specifications and
    docstrings."""
    import ast

    tree = ast.parse(source)
    hidden = {id(n) for call in ast.walk(tree) if isinstance(call, ast.Call)
              and getattr(call.func, "id", "") in ("claim", "search") for n in ast.walk(call)}
    hidden |= {id(n) for value in ast.walk(tree) if isinstance(value, ast.FormattedValue)
               and value.format_spec is not None for n in ast.walk(value.format_spec)}   # the .3f of {x:.3f}
    hidden |= {id(node.body[0].value) for node in ast.walk(tree)
               if isinstance(node, (ast.FunctionDef, ast.Module)) and node.body
               and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return "\n".join(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                     and id(n) not in hidden)


def test_prose_types_no_computed_or_paper_numbers():
    """Numbers about the data, and the papers' printed numbers, come from code: the data's from the
    cell that says them, the papers' from the reproductions' ``.paper`` tables (irnb.reproduce(id)).
    Markdown and the sentences of say(...)/answer(...) keep only numbers of the method (depths, α,
    E = 0.01) and worked examples that a claim(...) checks: a typed number such as 0.305 is allowed
    where the next code cell (for markdown) or the same cell claims that very value."""
    typed: dict[str, list[str]] = {}
    for path in SOURCES:
        cells = jupytext.read(path).cells
        for i, cell in enumerate(cells):
            if cell.cell_type == "markdown":
                following = next((c for c in cells[i + 1:] if c.cell_type == "code"), None)
                text, checked = cell.source, _checked_numbers(following.source) if following is not None else set()
            elif re.search(r"\b(say|answer)\(", cell.source):
                text, checked = _shown_text(cell.source), _checked_numbers(cell.source)
            else:
                continue
            loose = [n for n in TYPED_NUMBER.findall(text) if n.strip() not in checked and n not in METHOD_NUMBERS]
            if loose:
                typed.setdefault(path.name, []).extend(f"cell {i}: {n}" for n in loose)
    assert typed == {}, f"typed numbers in the prose (compute them, or take a paper's from rep.paper): {typed}"


def test_the_typed_number_pattern_catches_each_form():
    text = "E = 0.01 at d = 10; they report 0.394, .44 and 26 % (4.3 %), P@10 and 0.5"
    assert TYPED_NUMBER.findall(text) == ["0.394", ".44", "26 %", "4.3 %"]
    assert _shown_text('say(f"B = 0.305 at {x:.3f}"); claim(ok, "0.999 in a claim")') == "B = 0.305 at "
    assert _checked_numbers("claim(np.allclose(v, [0.4, 0.425]), 'x')") == {"0.4", "0.425"}


def test_notebooks_find_the_shared_data_one_way():
    """Every notebook that reads the project's real data finds it with irnb.datasets.shared_data
    (and says so with shared_data_missing where it is absent, as on Binder); none builds the path."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        built = re.findall(r"""["'](?:\.\./)?shared/data|["']shared["']\s*/|def find_shared""", text)
        assert built == [], f"{path.name} builds the path to the shared data itself: {built}"
        if re.search(r"trec-covid-round1|clef-ehealth", text):
            assert "shared_data(" in text and "shared_data_missing(" in text, \
                f"{path.name} reads real data without irnb.datasets.shared_data / shared_data_missing"


def test_the_tour_opens_where_the_lesson_is():
    """On first load, the tour's live view shows a pool shallower than the measurement
    depth and, on the right, a run that did not contribute, whose topic intervals are not zero-width."""
    pytest.importorskip("ipywidgets")
    pytest.importorskip("matplotlib")
    from irnb import plots
    from irnb.datasets import default

    cell = next(c for c in jupytext.read(NOTEBOOKS / "00_tour.md").cells
                if c.cell_type == "code" and "intervals_view(" in c.source)
    exp = default().experiment
    shown: list = []
    namespace = {"exp": exp, "display": shown.append}
    exec(compile(cell.source, "00_tour.md (the live view's cell)", "exec"), namespace)
    view = namespace["view"]
    assert shown == [view.widget]
    run = view.controls["run"].value
    assert not exp.contributors[list(exp.run_names).index(run)], f"the tour opens on {run}, a contributing run"
    assert view.controls["depth"].value < view.controls["measurement_depth"].value
    segments = np.asarray(plots.artists(view.axes["topics"])["intervals"].get_segments())
    widths = segments[:, 1, 0] - segments[:, 0, 0]
    assert (widths > 0).mean() >= 0.5 and widths.max() > 0.1, widths
    runs = np.asarray(plots.artists(view.axes["runs"])["intervals"].get_segments())
    assert (runs[:, 1, 0] - runs[:, 0, 0] > 0).all(), "every run's mean interval is wider than zero on first load"


def test_no_code_writes_notebook_cells_from_strings():
    writers = [p.relative_to(REPO) for p in REPO.rglob("*.py")
               if not any(part in {"tests", ".git", "build", "_build"} for part in p.parts)
               and re.search(r"new_(code|markdown)_cell|nbformat\.write", p.read_text(encoding="utf-8"))]
    assert writers == []


# The seed papers' tables and figures (the reproductions' ids): each is shown by some notebook.
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


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_a_notebook_opens_in_colab_and_installs_irnb_there(source):
    """A lesson's first markdown cell links its Colab page (the Voila dashboard has no room above
    its plot for one); every notebook's first code cell installs irnb with the colab extra only
    in Colab (Colab's own widget stack kept), and is kept off the site."""
    from irnb.lab import colab_requirement, colab_url

    notebook = jupytext.read(source)
    markdown = next(c for c in notebook.cells if c.cell_type == "markdown")
    first = next(c for c in notebook.cells if c.cell_type == "code")
    link = f"[Open in Colab]({colab_url(source.stem + '.ipynb')})"
    assert (link in markdown.source) == (source in TEACHING)
    assert f'"{colab_requirement()}"' in first.source and '"google.colab" in sys.modules' in first.source
    assert "remove-cell" in first.metadata.get("tags", [])
