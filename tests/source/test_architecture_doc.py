"""docs/architecture.md stays true: every module and owner it names exists, every irnb
module sits in one layer, and imports go down the layers except the listed ones."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import irnb

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "architecture.md"
NAME = re.compile(r"`(irnb(?:\.\w+)*)`")
PACKAGE_WIDE = re.compile(r"`(irnb(?:\.\w+)*)\.\*`")  # every module of a package


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _modules() -> set[str]:
    found = {m.name for m in pkgutil.walk_packages(irnb.__path__, "irnb.")}
    return found | {"irnb"}


def _resolve(dotted: str):
    """The module or attribute a dotted name means (the longest importable module prefix,
    then attributes), or an AssertionError naming what is missing."""
    if dotted.endswith(".__main__"):  # importing it runs the command
        assert importlib.util.find_spec(dotted) is not None, f"docs/architecture.md names {dotted}: no such module"
        return None
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for i, attr in enumerate(parts[cut:], start=cut):
            assert hasattr(obj, attr), f"docs/architecture.md names {dotted}, but {'.'.join(parts[:i])} has no {attr!r}"
            obj = getattr(obj, attr)
        return obj
    raise AssertionError(f"docs/architecture.md names {dotted}: no such module")


def _table_rows(heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading``, as lists of cells."""
    text = _text()
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set(cells[0]) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


def _layers() -> dict[str, int]:
    """Each module's layer; ``irnb.measures.*`` places every module of that package (a new
    measure family is a new module there, placed with its package)."""
    layer_of: dict[str, int] = {}
    for cells in _table_rows("## Layers"):
        number = int(cells[0].split(".")[0])
        names = NAME.findall(cells[-1])
        for package in PACKAGE_WIDE.findall(cells[-1]):
            names += sorted(m for m in _modules() if m.startswith(f"{package}."))
        for name in names:
            assert name not in layer_of, f"{name} is placed in two layers"
            layer_of[name] = number
    return layer_of


def _exceptions() -> set[tuple[str, str]]:
    rows = _table_rows("Imports that still go against the layers")
    return {(NAME.findall(cells[0])[0], NAME.findall(cells[1])[0]) for cells in rows}


def _imports(modules: set[str]) -> set[tuple[str, str]]:
    """Every (importer, imported module) inside irnb, module-level and function-level."""
    edges = set()
    for name in modules:
        spec = importlib.util.find_spec(name)
        path = Path(spec.origin)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{module}.{a.name}" for a in node.names] if node.module is None else [module]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("irnb"):
                targets = [node.module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("irnb")]
            for target in targets:
                while target not in modules:  # `from . import reproduce`: a name of the package
                    target = target.rpartition(".")[0]
                if target != name:
                    edges.add((name, target))
    return edges


def test_every_name_on_the_page_exists():
    names = set(NAME.findall(_text()))
    assert len(names) > 40
    for name in sorted(names):
        _resolve(name)


def test_every_module_is_in_exactly_one_layer():
    layer_of = _layers()
    modules = _modules()
    assert sorted(modules - set(layer_of)) == [], "modules docs/architecture.md does not place in a layer"
    assert sorted(set(layer_of) - modules) == [], "layers name modules that do not exist"


def test_imports_go_down_the_layers_except_the_listed_ones():
    layer_of = _layers()
    upward = {(a, b) for a, b in _imports(_modules()) if layer_of[b] > layer_of[a]}
    listed = _exceptions()
    assert sorted(upward - listed) == [], "imports against the layers that docs/architecture.md does not list"
    assert sorted(listed - upward) == [], "listed exceptions that are gone: remove them from docs/architecture.md"


def test_the_page_is_in_the_documentation_toctree():
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    assert re.search(r"^architecture$", index, re.M), "docs/index.md's toctree must list architecture"


FILE = re.compile(r"`((?:irnb|tests|docs|tools)/[\w/<>.-]+)`")
TASKS = ("a measure", "a reproduction", "a live view", "a default", "an input format")


def _missing_files(cells: list[list[str]], repo: Path = REPO) -> list[str]:
    """The files (and, for a ``<name>`` placeholder, the folders) the rows name that do not exist."""
    missing = []
    for row in cells:
        for path in FILE.findall(row[-1]):
            where = repo / (path.rpartition("/")[0] if "<" in path else path)
            if not where.exists():
                missing.append(f"{row[0]}: {path}")
    return missing


def test_where_to_change_what_names_files_that_exist_for_the_five_tasks():
    rows = _table_rows("## Where to change what")
    assert [cells[0] for cells in rows] == list(TASKS)
    assert all(len(FILE.findall(cells[-1])) >= 3 for cells in rows)  # every file, not a pointer to one
    assert _missing_files(rows) == []


def test_the_file_check_sees_a_missing_file(tmp_path):
    """A named file that is gone, and a placeholder in a folder that is gone, are reported;
    a placeholder in a folder that exists is not."""
    (tmp_path / "irnb" / "measures").mkdir(parents=True)
    (tmp_path / "irnb" / "io.py").write_text("")
    rows = [["a", "`irnb/io.py`, `irnb/gone.py`, `irnb/measures/<family>.py`, `tests/measures/<x>.py`"]]
    assert _missing_files(rows, tmp_path) == ["a: irnb/gone.py", "a: tests/measures/<x>.py"]
