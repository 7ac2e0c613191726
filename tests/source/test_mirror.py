"""tests/ mirrors the package: the test of a rule is found by its module's name. Every module
``irnb/<m>.py`` has ``tests/test_<m>.py``; every module of a subpackage,
``irnb/<sub>/<...>/<m>.py``, has ``tests/<sub>/test_<...>_<m>.py`` (a subpackage's
``__init__`` is tested in ``tests/<sub>/test_<sub>.py``, a nested one's in
``tests/<sub>/test_<nested>.py``), or ``tests/<sub>/test_<sub>_<...>_<m>.py`` where a
module elsewhere has the same name (pytest needs every test file's name to be unique).
Read from the file tree (nothing is imported), and shown failing on a made-up package."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: Modules that are only glue and hold no rule of their own: each with where what it does is tested.
GLUE = {
    "irnb/__init__.py": "lazy re-exports of the owners' names: tests/test_docs.py finds each name of __all__ on the "
                        "API page; tests/test_setup_contract.py imports the package without plotting or widgets",
    "irnb/__main__.py": "`python -m irnb` calls irnb.cli.main: tests/test_setup_contract.py and tests/test_lab.py "
                        "run it",
}

#: Modules of a subpackage still tested in a file shared by the subpackage, each with that file.
#: An entry goes when its module gets a test file of its name (a listed module that has one
#: fails the check, so the list only shrinks).
SHARED_TEST_FILE: dict[str, str] = {}


def mirror_names(module: str) -> list[str]:
    """The test files that may hold the tests of ``module`` (a path under the repository)."""
    parts = Path(module).with_suffix("").parts[1:]  # below irnb/
    if len(parts) == 1:
        return [f"tests/test_{parts[0]}.py"]
    sub, below = parts[0], [p for p in parts[1:] if p != "__init__"]
    name = "_".join(below[-1:] if parts[-1] == "__init__" else below) if below else sub
    return [f"tests/{sub}/test_{name}.py", f"tests/{sub}/test_{sub}_{name}.py"]


def mirror_problems(repo: Path = REPO, glue: dict = GLUE, shared: dict = SHARED_TEST_FILE) -> list[str]:
    """What breaks the mirror: a module without a test file of its name (and not listed), a
    listed module that has one or no longer exists, a shared file that does not exist, two
    test files of the same name."""
    modules = sorted(p.relative_to(repo).as_posix() for p in (repo / "irnb").rglob("*.py"))
    tests = {p.relative_to(repo).as_posix() for p in (repo / "tests").rglob("test_*.py")}
    problems = []
    for module in modules:
        own = [t for t in mirror_names(module) if t in tests]
        if module in glue:
            continue
        if module in shared:
            if own:
                problems.append(f"{module}: has {own[0]}; take it off the shared-file list")
            elif shared[module] not in tests:
                problems.append(f"{module}: its shared test file {shared[module]} does not exist")
        elif not own:
            problems.append(f"{module}: expected a test file {' or '.join(mirror_names(module))}")
    problems += [f"{listed}: listed, but no such module" for listed in sorted({*glue, *shared} - set(modules))]
    names = Counter(Path(t).name for t in tests)
    problems += [f"{name}: {count} test files share this name" for name, count in sorted(names.items()) if count > 1]
    return problems


def test_every_module_has_a_test_file_of_its_name():
    problems = mirror_problems()
    assert problems == [], "tests/ mirrors the package:\n" + "\n".join(problems)


def test_the_file_names_follow_the_package():
    assert mirror_names("irnb/pooling.py") == ["tests/test_pooling.py"]
    assert mirror_names("irnb/_grades.py") == ["tests/test__grades.py"]
    assert mirror_names("irnb/views/bias.py") == ["tests/views/test_bias.py", "tests/views/test_views_bias.py"]
    assert mirror_names("irnb/plots/__init__.py")[0] == "tests/plots/test_plots.py"
    assert mirror_names("irnb/datasets/settings/baillie.py")[0] == "tests/datasets/test_settings_baillie.py"
    assert mirror_names("irnb/datasets/settings/__init__.py")[0] == "tests/datasets/test_settings.py"


def test_the_mirror_check_sees_each_kind_of_problem(tmp_path):
    for path in ("irnb/__init__.py", "irnb/tested.py", "irnb/untested.py", "irnb/glue.py", "irnb/sub/__init__.py",
                 "irnb/sub/shared.py", "irnb/sub/listed_but_tested.py", "irnb/sub/lost.py",
                 "tests/test_tested.py", "tests/sub/test_sub.py", "tests/sub/test_listed_but_tested.py",
                 "tests/other/test_tested.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("", encoding="utf-8")
    glue = {"irnb/__init__.py": "re-exports", "irnb/glue.py": "glue", "irnb/gone.py": "a module since removed"}
    shared = {"irnb/sub/shared.py": "tests/sub/test_sub.py", "irnb/sub/listed_but_tested.py": "tests/sub/test_sub.py",
              "irnb/sub/lost.py": "tests/sub/test_nowhere.py"}
    assert mirror_problems(tmp_path, glue, shared) == [
        "irnb/sub/listed_but_tested.py: has tests/sub/test_listed_but_tested.py; take it off the shared-file list",
        "irnb/sub/lost.py: its shared test file tests/sub/test_nowhere.py does not exist",
        "irnb/untested.py: expected a test file tests/test_untested.py",
        "irnb/gone.py: listed, but no such module",
        "test_tested.py: 2 test files share this name",
    ]
