"""The package's shape, read from its source with ast (nothing is imported): no module
imports another module's private names, and no modules import each other in a loop —
function-level imports included, since hiding a cycle in a function does not remove it.

Imports under ``if TYPE_CHECKING:`` never run and only name types for annotations; they
are left out of the cycle check (they may not take private names either).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "irnb"


def _modules() -> dict[str, Path]:
    """``{"irnb.x.y": path}`` for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
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


def test_no_module_imports_another_modules_private_names():
    modules = _modules()
    private = [f"{modules[importer].relative_to(PACKAGE.parent)}:{line}: "
               f"{importer} imports {target}.{name}"
               for importer, target, name, line, _ in _imports(modules)
               if name is not None and name.startswith("_") and not name.startswith("__") and target != importer]
    assert private == [], ("names used across modules are public in their owner module:\n" + "\n".join(private))


def test_no_import_cycles():
    modules = _modules()
    edges: dict[str, set[str]] = {}
    for importer, target, _, _, type_only in _imports(modules):
        if not type_only and target in modules and target != importer:
            edges.setdefault(importer, set()).add(target)
    assert _cycles(edges) == []


def test_the_checks_see_a_cycle_and_a_private_import():
    """The two checks can fail: a made-up loop a → b → a is found, and the package's own
    imports are read (more than 100 of them, across the core modules)."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": {"c"}}) == []
    seen = list(_imports(_modules()))
    assert len(seen) > 100
    assert ("irnb.intervals", "irnb.kernels") in {(i, t) for i, t, *_ in seen}
