"""One owner per rule (docs/architecture.md, "One owner per rule"), checked from the source
with ast (nothing is imported): a rule that a second module writes again is a failing test.
Each check is shown to fail on a made-up source."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


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
