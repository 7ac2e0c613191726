"""Every install path a user is told about runs every lesson.

``.[notebook]`` (README's install), ``.[docs]`` (the documentation site executes every
notebook) and Binder's pins (``binder/requirements.txt``; irnb itself goes in with
``--no-deps``) must each install every third-party package that the notebooks import and that
irnb's own modules import on the way (the reproductions the notebooks show among them:
scikit-learn for Büttcher et al.'s SVM). Each extra's dependency list is built from
pyproject.toml with the core dependencies, and widened by the requirements of the installed
distributions (matplotlib brings pillow, ipykernel brings IPython), so that what the test
accepts is what pip would install. ``tools/check_extra.sh EXTRA`` does the same for real, in a
fresh virtual environment.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("packaging")
from packaging.requirements import Requirement  # noqa: E402
from packaging.utils import canonicalize_name  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: Import names whose distribution has another name (the rest are their own distribution's name).
DISTRIBUTION_OF = {"sklearn": "scikit-learn", "PIL": "pillow", "yaml": "pyyaml", "IPython": "ipython",
                   "jupyterlab_widgets": "jupyterlab-widgets"}
#: Imports a lesson never reaches under the docs build or in Colab, with the reason: those extras may lack them.
NOT_IN_LESSONS = {
    "jupyterlab": "only `irnb lab` (irnb/lab.py) starts JupyterLab; no notebook does",
    "ipympl": "the live canvas under `%matplotlib widget`; the docs build draws the PNG canvas (irnb/views/frames.py)",
}
#: What each path installs besides the core: an extra of pyproject, or Binder's pins.
PATHS = ("notebook", "docs", "binder", "colab")


def _code_cells(markdown: str) -> list[str]:
    """The code cells of a jupytext MyST notebook, without IPython's magics and shell lines."""
    cells = re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", markdown, flags=re.S | re.M)
    # a cell's options: a YAML block between --- lines, or :name: value lines, before its code
    cells = [re.sub(r"\A(---\n.*?^---\n|(:[\w-]+:[^\n]*\n)+)", "", cell, flags=re.S | re.M) for cell in cells]
    return ["\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in cell.splitlines())
            for cell in cells]


def _imports(source: str) -> set[str]:
    """Top-level names of every module ``source`` imports (in functions too: any may be called)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def needed_imports() -> dict[str, set[str]]:
    """Third-party module → the files (notebooks, irnb modules) that import it."""
    where: dict[str, set[str]] = {}
    sources = [(p, "\n".join(_code_cells(p.read_text(encoding="utf-8"))))
               for p in sorted((REPO / "notebooks").glob("*.md"))]
    sources += [(p, p.read_text(encoding="utf-8")) for p in sorted((REPO / "irnb").rglob("*.py"))]
    for path, text in sources:
        for module in _imports(text) - set(sys.stdlib_module_names) - {"irnb", "__future__"}:
            where.setdefault(module, set()).add(str(path.relative_to(REPO)))
    return where


def _binder_pins() -> list[str]:
    lines = (REPO / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def installed_by(path: str) -> set[str]:
    """Canonical names of the distributions an install path brings: its requirements, then
    (where installed here) what they require in turn, markers evaluated for this Python."""
    requirements = _binder_pins() if path == "binder" else (
        PROJECT["dependencies"] + PROJECT["optional-dependencies"].get(path, []))
    todo = [(Requirement(text), "") for text in requirements]
    names: set[str] = set()
    seen: set[tuple[str, str]] = set()  # (distribution, extra) whose requirements are queued
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(req.name)
        names.add(name)
        for with_extra in ("", *req.extras):
            if (name, with_extra) in seen:
                continue
            seen.add((name, with_extra))
            try:
                needs = importlib.metadata.requires(name) or []
            except importlib.metadata.PackageNotFoundError:  # not installed here: its own name only
                continue
            todo += [(Requirement(text), with_extra) for text in needs]
    return names


def uncovered(path: str) -> dict[str, list[str]]:
    """Modules the lessons import whose distribution ``path`` does not install → who imports them."""
    have = installed_by(path)
    missing = {}
    for module, files in needed_imports().items():
        if path in ("docs", "colab") and module in NOT_IN_LESSONS:  # Colab runs no JupyterLab, no ipympl
            continue
        if canonicalize_name(DISTRIBUTION_OF.get(module, module)) not in have:
            missing[module] = sorted(files)
    return missing


def test_the_lessons_import_what_this_test_knows_about():
    """The scan finds the optional packages it must (so an empty 'missing' below means something)."""
    found = needed_imports()
    for module in ("sklearn", "matplotlib", "seaborn", "ipywidgets", "ipympl"):
        assert module in found, f"no notebook or irnb module imports {module}: the scan is broken"
    assert "irnb/predict/classifiers.py" in found["sklearn"]
    assert "os" not in found and "irnb" not in found


@pytest.mark.parametrize("path", PATHS)
def test_each_install_path_covers_every_import_of_the_lessons(path):
    missing = uncovered(path)
    where = "binder/requirements.txt" if path == "binder" else f"pyproject.toml's [{path}] extra"
    assert missing == {}, f"{where} installs nothing that provides {missing}: add the distributions"


def test_a_missing_distribution_is_found(monkeypatch):
    """Counter-example: the docs extra as it was, without scikit-learn, leaves the SVM uncovered."""
    extras = dict(PROJECT["optional-dependencies"])
    extras["docs"] = [r for r in extras["docs"] if canonicalize_name(Requirement(r).name) != "scikit-learn"]
    monkeypatch.setitem(PROJECT, "optional-dependencies", extras)
    if "scikit-learn" in {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}:
        pytest.skip("scikit-learn became a core dependency")
    assert "sklearn" in uncovered("docs")
    assert "irnb/predict/classifiers.py" in uncovered("docs")["sklearn"]


def test_code_cells_skip_magics_and_prose():
    text = ("prose import os\n```{code-cell} ipython3\n%matplotlib widget\nimport seaborn as sns\n```\n"
            "```{code-cell} ipython3\n---\ntags: [hide-input]\n---\nimport scipy\n```\n")
    assert _code_cells(text) == ["\nimport seaborn as sns", "import scipy"]
    assert _imports(_code_cells(text)[0]) == {"seaborn"}


def test_the_cli_install_hints_name_an_extra_that_installs_the_package():
    """irnb.lab.OPTIONAL_PACKAGES (what a command says when a package is missing) names, for each
    package, an extra that really installs it."""
    from irnb.lab import OPTIONAL_PACKAGES

    wrong = {module: extra for module, (distribution, extra) in OPTIONAL_PACKAGES.items()
             if canonicalize_name(distribution) not in installed_by(extra)
             or canonicalize_name(DISTRIBUTION_OF.get(module, module)) != canonicalize_name(distribution)}
    assert wrong == {}, f"these install hints name an extra without the package: {wrong}"
