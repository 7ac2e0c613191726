"""Comments say why, not when: no comment or docstring in irnb/ or tests/ narrates the project's
history (issue numbers, rounds or sessions of work, what the code was or did before, past
timings); history lives in git and in benchmarks' results files. Read from the source with
tokenize and ast (nothing is imported), and shown failing on a made-up module."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "irnb"
TESTS = REPO / "tests"

#: Test files whose history is being rewritten on another branch at the same time, each with its
#: lines that still narrate it. The list only shrinks: a listed file whose lines are clean fails.
NOT_YET_CLEAN = {
}

_NUMBER = r"\d[\d.,]*(?:\s*[–-]\s*\d[\d.,]*)?"
_TIME = rf"{_NUMBER}\s*(?:ms|s|seconds?|minutes?|min)\b"
#: what narrates history, each with the reason the check gives
HISTORY = {
    "an issue number": re.compile(r"\bissues?\s*#?\d+|(?<![\w&/#])#\d+\b(?![\w-])", re.I),
    "the issue that asked for it": re.compile(r"\bthe issue(?:'s|s')?\b", re.I),
    "a round or session of work": re.compile(
        r"\b(?:this|last|previous|earlier|next|later|that|one|each|every)\s+(?:round|session)\s+of\s+work\b"
        r"|\b(?:this|last|previous|earlier|later)\s+(?:round|session)\b|\bsession\s+\d+\b", re.I),
    "what the code was before": re.compile(
        r"\bwhen this was\b|\bused to (?:be|take|run|hold|live|read|call)\b|\bpreviously\b|\bformerly\b"
        r"|\b(?:before|since|after) the (?:split|splits|rewrite|refactor|refactoring|move)\b"
        r"|\bthe old (?:code|path|module|layout|version|way)\b|\bbefore the glossary\b", re.I),
    "a past timing": re.compile(
        rf"\b(?:took|was|were|used to take)\s+(?:about\s+|~\s*)?{_TIME}|{_TIME}\s+before\b"
        rf"|\bdown from\s+{_TIME}", re.I),
}


#: a function or class named after an issue, a session or a round of work
NAMED_AFTER_HISTORY = re.compile(r"(?:^|_)(?:issue|session|round)_?\d+(?:_|$)", re.I)


def _texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and every line of every docstring, and the name of every
    function or class named after history (its underscores read as spaces)."""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and NAMED_AFTER_HISTORY.search(node.name):
            found.append((node.lineno, node.name.replace("_", " ")))
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found += [(first.lineno + k, line) for k, line in enumerate(first.value.value.splitlines())]
    return sorted(found)


def history_comments(package: Path = PACKAGE) -> list[str]:
    """``path:line: reason: text`` for every comment or docstring line that narrates history."""
    hits = []
    for path in sorted(package.rglob("*.py")):
        for line, text in _texts(path.read_text(encoding="utf-8")):
            for reason, pattern in HISTORY.items():
                if pattern.search(text):
                    hits.append(f"{path.relative_to(package.parent)}:{line}: {reason}: {text.strip()}")
                    break
    return hits


def unlisted_history(hits: list[str], listed: dict[str, int]) -> list[str]:
    """The hits outside the listed files, and a line for every listed file whose count of hits
    is not the listed one (fewer: lower or drop its entry; more: a new one was added)."""
    by_file: dict[str, list[str]] = {}
    for hit in hits:
        by_file.setdefault(hit.split(":")[0], []).append(hit)
    problems = [hit for path, found in by_file.items() if path not in listed for hit in found]
    problems += [f"{path}: listed with {count} history line(s), has {len(by_file.get(path, []))}"
                 for path, count in listed.items() if len(by_file.get(path, [])) != count]
    return problems


def test_no_comment_narrates_history():
    hits = history_comments()
    assert hits == [], "comments say why, not when (history lives in git):\n" + "\n".join(hits)


def test_no_test_comment_narrates_history():
    problems = unlisted_history(history_comments(TESTS), NOT_YET_CLEAN)
    assert problems == [], "comments say why, not when (history lives in git):\n" + "\n".join(problems)


def test_the_listed_files_only_shrink():
    hits = ["tests/a.py:3: an issue number: x", "tests/b.py:1: a past timing: y", "tests/b.py:9: a past timing: z",
            "tests/c.py:2: an issue number: w"]
    assert unlisted_history(hits, {"tests/b.py": 2}) == ["tests/a.py:3: an issue number: x",
                                                          "tests/c.py:2: an issue number: w"]
    assert unlisted_history(hits, {"tests/a.py": 1, "tests/b.py": 1, "tests/c.py": 1, "tests/d.py": 1}) == [
        "tests/b.py: listed with 1 history line(s), has 2", "tests/d.py: listed with 1 history line(s), has 0"]


def test_the_check_sees_history_and_lets_why_pass(tmp_path):
    """Each kind of history is found in a made-up module, comments, docstrings and names alike; the
    package's own words that look alike (TREC-COVID round 1, a judging session, a docno
    with ``#``, a colour, what was passed) are not."""
    package = tmp_path / "irnb"
    package.mkdir()
    (package / "made_up.py").write_text('''"""A module.

Kept for issue #31; the issue's list of measures.
"""

x = 1  # see issue 12
y = 2  # done in the last round of work
z = 3  # as it did when this was one module


def f():
    """Fast: the parse took 0.8 s; 80–110 ms before the layout froze."""
    return round(x, 2)  # the old code path, previously in io


def test_fix_of_issue_21():
    pass


def g():
    """TREC-COVID round 1's runs; a judging session; docno doc_00#4_1633; colour #0072B2;
    the error shows what was passed; one round per 8 bytes; ``depth=`` is the old name."""
''', encoding="utf-8")
    hits = history_comments(package)
    assert [h.split(": ")[0:2] for h in hits] == [
        ["irnb/made_up.py:3", "an issue number"],
        ["irnb/made_up.py:6", "an issue number"],
        ["irnb/made_up.py:7", "a round or session of work"],
        ["irnb/made_up.py:8", "what the code was before"],
        ["irnb/made_up.py:12", "a past timing"],
        ["irnb/made_up.py:13", "what the code was before"],
        ["irnb/made_up.py:16", "an issue number"],
    ]
