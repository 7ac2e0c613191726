"""The set-up contract: README's two commands, .ci/run, and the core's import hygiene."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _readme_commands() -> dict[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n# open the lab[^\n]*\n(.*?)\n# run every test[^\n]*\n(.*?)\n```", text, re.S)
    assert block, "README must hold the two set-up commands in one ```bash block"
    return {"lab": block.group(1).strip(), "test": block.group(2).strip()}


def test_ci_runs_readme_test_command():
    commands = _readme_commands()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert commands["test"] in ci, f".ci/run must call README's test command {commands['test']!r}"
    assert "pytest" in commands["test"] and "pip install" in commands["test"]


def test_readme_lab_command_opens_irnb_lab():
    commands = _readme_commands()
    assert commands["lab"].endswith("irnb lab")
    assert "[notebook]" in commands["lab"]


def test_core_import_pulls_in_no_plotting_or_widgets():
    code = (
        "import sys, irnb, irnb.pooling, irnb.intervals\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'ipywidgets', 'seaborn', 'sklearn')]\n"
        "print(','.join(bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if "No module named 'irnb.pooling'" in done.stderr or "No module named 'irnb.intervals'" in done.stderr:
        pytest.skip("pooling/intervals not present yet")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"the core imported {done.stdout.strip()}"


def test_first_notebook_exists_and_lab_finds_it():
    from irnb.lab import FIRST_NOTEBOOK, notebook_source

    assert (REPO / "notebooks" / FIRST_NOTEBOOK).is_file()
    assert notebook_source() == REPO / "notebooks"


def test_copy_notebooks_keeps_user_edits(tmp_path):
    from irnb.lab import FIRST_NOTEBOOK, copy_notebooks

    first = copy_notebooks(tmp_path)
    assert tmp_path / FIRST_NOTEBOOK in first
    (tmp_path / FIRST_NOTEBOOK).write_text("edited", encoding="utf-8")
    second = copy_notebooks(tmp_path)
    assert second == []
    assert (tmp_path / FIRST_NOTEBOOK).read_text(encoding="utf-8") == "edited"


def test_lab_command_opens_the_first_notebook_and_allows_root_only_as_root(tmp_path, monkeypatch):
    import irnb.lab as lab

    monkeypatch.setattr(lab.os, "geteuid", lambda: 0, raising=False)
    command = lab.lab_command(tmp_path, open_browser=False)
    assert command[-1] == str(tmp_path / lab.FIRST_NOTEBOOK)
    assert "--allow-root" in command and "--no-browser" in command
    monkeypatch.setattr(lab.os, "geteuid", lambda: 1000, raising=False)
    assert "--allow-root" not in lab.lab_command(tmp_path)


# --------------------------------------------------------------------------- README code blocks

_FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
_PYTHON = {"python", "py", "python3"}

_RUNNER = '''\
import json, sys, traceback
blocks = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__main__"}
for number, (name, line, code) in enumerate(blocks, start=1):
    try:
        exec(compile(code, f"{name}:{line}", "exec"), namespace)
    except BaseException:
        print(f"{name} python block {number} of {len(blocks)} (line {line}) failed:", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
print(f"{len(blocks)} blocks ran")
'''
#: The pages whose ```python blocks run after README's, in this order, in the same interpreter.
DOC_PAGES = ("docs/usage.md", "docs/simulator.md", "docs/reproductions.md")


def _blocks(name: str, languages=_PYTHON) -> list[tuple[str, int, str]]:
    """(file, line of the first code line, code) of every block of ``name`` (a path under the
    repository) in ``languages``, in order. Code is padded so that each line's number in the
    file is its line in a traceback."""
    text = (REPO / name).read_text(encoding="utf-8")
    blocks = []
    for match in _FENCE.finditer(text):
        if match["info"].strip().split(" ")[0].lower() in languages:
            line = text.count("\n", 0, match.start("body")) + 1
            blocks.append((name, line, "\n" * (line - 1) + match["body"]))
    return blocks


def _readme_blocks() -> list[tuple[str, int, str]]:
    return _blocks("README.md")


def test_readme_and_the_pages_have_python_blocks():
    assert len(_readme_blocks()) >= 1, "README's five-minute example is run by the tests below; is it ```python?"
    for page in DOC_PAGES:
        assert _blocks(page), f"{page} has no ```python block; the test below runs them"


def _run_blocks(tmp_path, blocks) -> Path:
    import json
    import os

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (tmp_path / "blocks.json").write_text(json.dumps(blocks), encoding="utf-8")
    (tmp_path / "runner.py").write_text(_RUNNER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, str(tmp_path / "runner.py"), str(tmp_path / "blocks.json")], cwd=fresh,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip().endswith(f"{len(blocks)} blocks ran")
    return fresh


@pytest.mark.slow
def test_every_python_block_runs_in_order_in_an_empty_folder(tmp_path):
    """Every ```python block of README.md, then of the usage, simulator and reproductions
    pages, runs as written, in order, in one interpreter whose working folder starts empty
    (names defined by a block are seen by the later ones)."""
    fresh = _run_blocks(tmp_path, _readme_blocks() + [block for page in DOC_PAGES for block in _blocks(page)])
    assert (fresh / "qrels.txt").is_file() and (fresh / "runs").is_dir()  # what README's first block writes


def _readme_commands_run_by_users() -> list[str]:
    """The ``irnb …`` lines of README's ```bash blocks, but ``irnb lab`` (it opens a browser)."""
    lines = [line.split("#")[0].strip() for _, _, code in _blocks("README.md", {"bash"}) for line in code.splitlines()]
    return [line for line in lines if line.startswith("irnb ") and not line.startswith("irnb lab")]


@pytest.mark.slow
def test_readme_commands_run_on_the_files_its_first_block_writes(tmp_path):
    """README's example commands, as written, in the folder where README's python block wrote
    the embedded collection: each exits 0 and prints something."""
    import os
    import shlex

    commands = _readme_commands_run_by_users()
    assert len(commands) >= 5, commands
    fresh = _run_blocks(tmp_path, _readme_blocks())
    env = {**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"}
    for command in commands:
        done = subprocess.run([sys.executable, "-m", "irnb", *shlex.split(command)[1:]], cwd=fresh, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}: {done.stderr[-2000:]}"
        assert done.stdout.strip(), f"{command} printed nothing"


def test_readme_speed_figures_are_the_results_files():
    """The ratios README's speed paragraph states are those of benchmarks/RESULTS.md's
    TREC-COVID table (pytrec_eval/irnb: evaluate, and parse + index + evaluate)."""
    results = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    covid = results.split("### TREC-COVID round 1", 1)[1]
    ratio = {row: re.search(rf"^\| {re.escape(row)} \|(?:[^|]*\|){{4}} ([0-9.]+)×", covid, re.M).group(1)
             for row in ("evaluate all runs (s)", "total: parse + index + evaluate (s)")}
    speed = " ".join((REPO / "README.md").read_text(encoding="utf-8").split("## Speed", 1)[1].split())
    assert f"takes 1/{ratio['evaluate all runs (s)']} of pytrec_eval's time" in speed
    assert f"evaluating together 1/{ratio['total: parse + index + evaluate (s)']}" in speed
    scale = (REPO / "benchmarks" / "RESULTS_scale.md").read_text(encoding="utf-8")
    worst, family, within, rounds = re.search(
        r"^Worst CPU ratio: ([0-9.]+) \(([^;]+); (?:meets|MISSES) ≤ 1/3; within it in (\d+) of (\d+) rounds\)", scale,
        re.M).groups()
    assert (f"the worst family, read to result, took {worst} times pytrec_eval's CPU time ({family}, within "
            f"the target in {within} of its {rounds} rounds;") in speed
    header = next(row.split("|") for row in scale.splitlines() if row.startswith("| family"))
    cpu_at, wall_at = (next(i for i, cell in enumerate(header) if cell.strip() == name)
                       for name in ("CPU ratio", "wall ratio"))
    cases = [row.split("|") for row in scale.splitlines()
             if row.startswith("| ") and not row.startswith("| family") and "MS MARCO" not in row]
    cpu_met = sum(float(row[cpu_at]) <= 1 / 3 for row in cases)
    wall_met = sum(float(row[wall_at]) <= 1 / 4 for row in cases)
    assert (f"at most 1/3 of pytrec_eval's CPU time in {cpu_met} of the table's {len(cases)} cases and at most 1/4 "
            f"of its wall time in {wall_met}") in speed
    wall_missed = [f"{row[1].strip()} = {row[2].strip()}" for row in cases if float(row[wall_at]) > 1 / 4]
    if wall_missed:
        named = wall_missed[0] if len(wall_missed) == 1 else f"{', '.join(wall_missed[:-1])} and {wall_missed[-1]}"
        assert f"The wall-time misses are {named}." in speed


def test_readme_describes_the_embedded_default_as_it_is():
    from irnb.datasets import default

    exp = default().experiment
    text = (REPO / "README.md").read_text(encoding="utf-8")
    shape = f"{len(exp.topics)} topics, {len(exp.run_names)} runs in {len(set(exp.groups))} groups"
    assert f"# simulated: {shape}" in text, shape


def test_readme_counts_trec_covid_runs_as_the_manifest_and_the_benchmark_do():
    from irnb.datasets.trec_covid_files import ROUND1

    runs = sum(line.split("\t")[0] == "run" for line in ROUND1.splitlines())
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert f"TREC-COVID round 1 (its {runs} runs," in text
    results = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert f"{runs} runs from" in results and f"TREC-COVID round 1's {runs} runs" in text


def test_readme_is_a_front_door():
    """At most ~250 lines, and no development history (issue numbers, sessions)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert not re.search(r"\b(issue \d+|session \d+|this session)\b", text, re.I)


# --------------------------------------------------------------------------- Binder, .gitignore, extras


def test_readme_binder_links_come_from_the_one_setting():
    from irnb.lab import REPOSITORY, binder_url

    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "OWNER" not in text
    for kind in ("lab", "voila"):
        assert f"`{binder_url(kind)}`" in text, f"README must link {binder_url(kind)} (from irnb.lab.REPOSITORY)"
    links = re.findall(r"https://mybinder\.org/v2/gh/([^/\s`]+/[^/\s`]+)/", text)
    assert links and set(links) == {REPOSITORY}


def test_gitignore_lists_the_lab_working_folder():
    lines = (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "irnb-notebooks/" in lines


# Modules the tests import that need no distribution of their own.
_NOT_DISTRIBUTIONS = {"tomli": "only on Python < 3.11, where tomllib is missing (test_binder.py)"}


def _imported_modules(path: Path, *, top_level_only: bool = False) -> set[str]:
    """Top-level module names a file imports (import, from … import, pytest.importorskip);
    with ``top_level_only``, only the imports the module runs when it is imported (not those
    inside its functions and classes: a helper's optional peers stay optional)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    if top_level_only:
        nodes, stack = [], list(tree.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            nodes.append(node)
            stack.extend(ast.iter_child_nodes(node))
    else:
        nodes = list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "importorskip" and node.args
              and isinstance(node.args[0], ast.Constant)):
            found.add(str(node.args[0].value).split(".")[0])
    return found


def _declared_distributions(requirements: list[str]) -> set[str]:
    """Names of the distributions the requirements install directly, with those their extras
    pull in (``dask[distributed]`` → dask and distributed)."""
    import importlib.metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    names = set()
    for text in requirements:
        req = Requirement(text)
        names.add(canonicalize_name(req.name))
        for extra in req.extras:
            try:
                needs = importlib.metadata.requires(req.name) or []
            except importlib.metadata.PackageNotFoundError:
                continue
            for need in map(Requirement, needs):
                if need.marker is not None and need.marker.evaluate({"extra": extra}):
                    names.add(canonicalize_name(need.name))
    return names


def test_test_extra_installs_every_package_the_tests_import():
    import importlib.metadata

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        tomllib = pytest.importorskip("tomli")
    from packaging.utils import canonicalize_name

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = _declared_distributions(project["dependencies"] + project["optional-dependencies"]["test"])
    local = {p.stem for folder in ("tests", "benchmarks", "tools") for p in (REPO / folder).rglob("*.py")}
    files = list((REPO / "tests").rglob("*.py"))  # the subpackages' folders too
    modules: set[str] = set()
    for path in files:
        modules |= _imported_modules(path)
    for name in sorted(modules & local):  # helpers the tests import from benchmarks/ and tools/
        for folder in ("benchmarks", "tools"):
            if (REPO / folder / f"{name}.py").is_file():
                modules |= _imported_modules(REPO / folder / f"{name}.py", top_level_only=True)
    third_party = modules - set(sys.stdlib_module_names) - local - {"irnb", "tests"} - set(_NOT_DISTRIBUTIONS)
    providers = importlib.metadata.packages_distributions()
    missing = {}
    for module in sorted(third_party):
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        if not dists:
            missing[module] = "not installed: add its distribution to the test extra"
        elif not dists & declared:
            missing[module] = sorted(dists)
    assert missing == {}, f"the tests import modules whose distribution the test extra does not name: {missing}"
