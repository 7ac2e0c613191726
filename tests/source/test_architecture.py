"""The package's shape, read from its source with ast (nothing is imported): no module
imports another module's private names, and no modules import each other in a loop —
function-level imports included, since hiding a cycle in a function does not remove it.

Imports under ``if TYPE_CHECKING:`` never run and only name types for annotations; they
are left out of the cycle check (they may not take private names either).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "irnb"


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    """``{"irnb.x.y": path}`` for every module of the package."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:``."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                inside.update(id(n) for n in ast.walk(child))
    return inside


def _imports(modules: dict[str, Path]):
    """(importer, imported module, name or None, line, type_only) for every import of an irnb module."""
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        type_only = _type_checking_blocks(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "irnb":
                    continue
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    if submodule in modules:
                        yield name, submodule, None, node.lineno, id(node) in type_only
                    else:
                        yield name, target, alias.name, node.lineno, id(node) in type_only
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "irnb":
                        yield name, alias.name, None, node.lineno, id(node) in type_only


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def _private_imports(modules: dict[str, Path]) -> list[str]:
    """``path:line: importer imports module._name`` for every import of another module's private name."""
    return [f"{modules[importer].name}:{line}: {importer} imports {target}.{name}"
            for importer, target, name, line, _ in _imports(modules)
            if name is not None and name.startswith("_") and not name.startswith("__") and target != importer]


def _edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for importer, target, _, _, type_only in _imports(modules):
        if not type_only and target in modules and target != importer:
            edges.setdefault(importer, set()).add(target)
    return edges


def test_no_module_imports_another_modules_private_names():
    private = _private_imports(_modules())
    assert private == [], ("names used across modules are public in their owner module:\n" + "\n".join(private))


def test_no_import_cycles():
    assert _cycles(_edges(_modules())) == []


def test_the_checks_see_a_cycle_and_a_private_import(tmp_path):
    """Both checks can fail: on a made-up package where ``a`` takes ``b._hidden`` at module
    level and ``b`` imports ``a`` inside a function, they report the private name and the
    loop; a type-only import does not make a loop."""
    package = tmp_path / "irnb"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import _hidden, shown\n")
    (package / "b.py").write_text("shown = _hidden = 1\n\ndef f():\n    from . import a\n    return a\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                          "if TYPE_CHECKING:\n    from ..a import shown\n")
    (package / "d.py").write_text("from .sub import c\n")
    modules = _modules(package)
    assert _private_imports(modules) == ["a.py:1: irnb.a imports irnb.b._hidden"]
    assert _cycles(_edges(modules)) == [["irnb.a", "irnb.b"]]
    assert "irnb.sub.c" not in _edges(modules) and _edges(modules)["irnb.d"] == {"irnb.sub.c"}
    assert len(list(_imports(_modules()))) > 100  # the real package's imports are read


def _reaches(edges: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _rooms_apart(edges: dict[str, set[str]], package: str = "irnb") -> list[str]:
    """``a reaches b`` for each of reading (``io``) and writing (``writing``) that imports the
    other, directly or through another module, and for the checked tables (``trecdata``)
    reaching either or the text parser (``parsing``): reading and writing stand side by side
    on the tables, not in a chain."""
    reading, writing, tables, parsing = (f"{package}.{m}" for m in ("io", "writing", "trecdata", "parsing"))
    pairs = [(reading, writing), (writing, reading), (tables, reading), (tables, writing), (tables, parsing)]
    return [f"{a} reaches {b}" for a, b in pairs if b in _reaches(edges, a)]


def test_reading_and_writing_stand_side_by_side():
    edges = _edges(_modules())
    assert _rooms_apart(edges) == []
    assert {"irnb.trecdata"} <= _reaches(edges, "irnb.io") & _reaches(edges, "irnb.writing")


def test_the_side_by_side_check_sees_a_chain(tmp_path):
    """On a made-up package where reading imports writing (through a helper) and the tables
    import the parser, the check names both."""
    package = tmp_path / "irnb"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "parsing.py").write_text("")
    (package / "trecdata.py").write_text("from . import parsing\n")
    (package / "writing.py").write_text("from .trecdata import Run\n")
    (package / "helper.py").write_text("from .writing import write_run\n")
    (package / "io.py").write_text("from .helper import write_run\nfrom .trecdata import Run\n")
    assert _rooms_apart(_edges(_modules(package))) == ["irnb.io reaches irnb.writing",
                                                       "irnb.trecdata reaches irnb.parsing"]
