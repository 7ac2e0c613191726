"""One owner per rule (docs/architecture.md, "One owner per rule"), checked from the source
with ast (nothing is imported): a rule that a second module writes again is a failing test.
Each check is shown to fail on a made-up source."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "architecture.md"
NAME = re.compile(r"`(irnb(?:\.\w+)*)`")


def _sources() -> dict[str, str]:
    return {path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted((REPO / "irnb").rglob("*.py"))}


def to_frame_definitions(source: str, where: str) -> list[str]:
    """``where:Class`` of every class that defines ``to_frame`` itself."""
    return [f"{where}:{node.name}" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ClassDef)
            and any(isinstance(f, ast.FunctionDef) and f.name == "to_frame" for f in node.body)]


def unjudged_rules(source: str, where: str) -> list[str]:
    """``where:line`` of every comparison with the no-document sentinel by ``!=``: the
    unjudged rule, ``(grade < 0) & (grade != NO_DOC)``, written again."""
    return [f"{where}:{node.lineno}" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Compare)
            and any(isinstance(op, ast.NotEq) and getattr(c, "id", None) == "NO_DOC"
                    for op, c in zip(node.ops, node.comparators, strict=True))]


def pool_unwrappers(source: str, where: str) -> list[str]:
    """``where:line`` of every ``isinstance(x, Pool)``: a pool argument turned into its
    judged mask somewhere other than ``irnb.pooling.judged_mask_of``."""
    return [f"{where}:{node.lineno}" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2
            and {getattr(n, "id", getattr(n, "attr", None)) for n in ast.walk(node.args[1])} & {"Pool", "PoolMask"}]


def test_the_checks_find_a_rule_written_again():
    source = ("class Scores:\n"
              "    def to_frame(self):\n"
              "        return None\n"
              "def holes(grade, pool):\n"
              "    mask = pool.judged if isinstance(pool, Pool) else pool\n"
              "    return (grade < 0) & (grade != NO_DOC)\n")
    assert to_frame_definitions(source, "m.py") == ["m.py:Scores"]
    assert unjudged_rules(source, "m.py") == ["m.py:6"]
    assert pool_unwrappers(source, "m.py") == ["m.py:5"]


def test_every_result_gets_to_frame_from_the_results_base_class():
    found = [hit for where, source in _sources().items() for hit in to_frame_definitions(source, where)]
    # the base class itself, and the two input tables (a run, qrels: read, not computed)
    assert sorted(found) == ["irnb/results.py:Result", "irnb/trecdata.py:Qrels", "irnb/trecdata.py:Run"]


def test_the_unjudged_rule_is_written_once():
    found = [hit for where, source in _sources().items() for hit in unjudged_rules(source, where)]
    assert [hit.rsplit(":", 1)[0] for hit in found] == ["irnb/_grades.py"], "call irnb._grades.unjudged"


def test_a_pool_becomes_a_judged_mask_in_one_place():
    found = {where for where, source in _sources().items() if pool_unwrappers(source, where)}
    assert found == {"irnb/pooling.py"}, "ask irnb.pooling.judged_mask_of (or pool_label) instead"


def _rows(heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading`` in docs/architecture.md."""
    lines = DOC.read_text(encoding="utf-8").split(heading, 1)[1].splitlines()[1:]
    rows = []
    for line in lines:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return [r for r in rows[1:] if not set(r[0]) <= set("-: ")]


def _module_name(relative: str) -> str:
    parts = list(Path(relative).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_module_has_one_job_on_the_page():
    named = [NAME.findall(cells[0])[0] for cells in _rows("## One job per module")]
    assert len(named) == len(set(named)), "a module with two rows"
    expected = {"irnb"}
    for relative in _sources():
        parts = _module_name(relative).split(".")
        expected.add(".".join(parts[:2]))  # a top-level module, or the subpackage holding a module
    assert sorted(expected - set(named)) == [], "modules without their one job in docs/architecture.md"
    assert sorted(set(named) - expected) == [], "rows for modules that do not exist"
    assert all(cells[1] for cells in _rows("## One job per module"))


def module_level_state(source: str, where: str) -> list[str]:
    """``where:name`` of every cached function (``functools.cache``, ``lru_cache``) and every
    module-level name bound to an empty container or a weak dictionary: state that outlives
    a call."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                called = decorator.func if isinstance(decorator, ast.Call) else decorator
                if getattr(called, "id", getattr(called, "attr", None)) in ("cache", "lru_cache"):
                    found.append(f"{where}:{node.name}")
    containers = {"WeakKeyDictionary", "WeakValueDictionary", "dict", "list", "set", "OrderedDict", "defaultdict"}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            called = getattr(value, "func", None)
            empty = (isinstance(value, ast.Dict) and not value.keys) or (
                isinstance(value, (ast.List, ast.Set)) and not value.elts) or (
                isinstance(value, ast.Call) and getattr(called, "attr", getattr(called, "id", None)) in containers)
            names = [ast.unparse(t) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
            if empty and names != ["__all__"]:
                found += [f"{where}:{name}" for name in names]
    return found


def test_the_state_scanner_finds_caches_and_registries():
    source = ("import functools, weakref\n"
              "__all__ = []\n"
              "_SEEN = weakref.WeakKeyDictionary()\n"
              "REGISTRY: dict = {}\n"
              "LIMITS = {'a': 1}\n"
              "@functools.lru_cache(maxsize=1)\n"
              "def table():\n"
              "    return 1\n")
    assert module_level_state(source, "m") == ["m:table", "m:_SEEN", "m:REGISTRY"]


def test_module_level_state_is_listed():
    listed = {NAME.findall(cells[0])[0] for cells in _rows("## State kept between calls")}
    unlisted = [hit for where, source in _sources().items() for hit in module_level_state(source, where)
                if _module_name(hit.split(":")[0]) not in listed]
    assert unlisted == [], "list this state in docs/architecture.md (State kept between calls), or remove it"


def test_the_tests_named_on_the_architecture_page_exist():
    named = set(re.findall(r"`(tests/(?:\w+/)?test_\w+\.py)(?:::(\w+))?`", DOC.read_text(encoding="utf-8")))
    assert len(named) > 20
    for path, test in sorted(named):
        source = (REPO / path).read_text(encoding="utf-8")
        assert not test or re.search(rf"^def {test}\(", source, re.M), f"docs/architecture.md names {path}::{test}"
