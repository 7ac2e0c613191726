"""A measure is two files: its module in irnb/measures/ and its test in tests/measures/.

The witness is the family added last, ERR@k: no other file in the repository names it, its
module or its source paper; everything else that shows it (the definitions page's entry,
the hand-computed table of tests/test_metrics.py, the parser, the reports, the figures) is
derived from the declaration when it runs or when the docs are built."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irnb.measures import FAMILIES

REPO = Path(__file__).resolve().parents[2]
#: The family added last, and the two files that added it.
LAST_ADDED = "ERR"
ITS_FILES = ("irnb/measures/err.py", "tests/measures/test_err.py")


def _terms(family) -> re.Pattern:
    """Whole-word mentions of a family: its names (canonical, aliases, trec_eval's), its
    module (``measures/err``, ``measures.err``), its test module and its source's first author."""
    module = family.module.rpartition(".")[2]
    words = [family.name, *family.aliases, *filter(None, (family.trec_name, family.trec_cut_name))]
    words += [f"measures/{module}", f"measures.{module}", f"test_{module}", family.source.split()[0]]
    return re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in words))


def _mentions(root: Path, paths: list[str], terms: re.Pattern) -> list[str]:
    """The files among ``paths`` (relative to ``root``; binary files skipped) that mention ``terms``."""
    found = []
    for path in paths:
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        if terms.search(text):
            found.append(path)
    return sorted(found)


def _repository_files() -> list[str]:
    """Every file a commit of this checkout would hold: tracked, or new and not ignored (so
    neither docs/_generated nor docs/_build)."""
    if shutil.which("git") is None:
        pytest.skip("needs git to list the repository's files")
    done = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"not a git checkout: {done.stderr.decode(errors='replace').strip()}")
    return [p for p in done.stdout.decode().split("\0") if p]


def test_the_last_family_added_is_named_only_by_its_two_files():
    family = FAMILIES[LAST_ADDED]
    assert family.module == "irnb.measures.err"
    this = Path(__file__).resolve().relative_to(REPO).as_posix()
    files = _repository_files()
    assert set(ITS_FILES) <= set(files)
    found = _mentions(REPO, files, _terms(family))
    assert set(ITS_FILES) <= set(found)  # the check sees the two files themselves
    assert sorted(set(found) - set(ITS_FILES) - {this}) == []


def test_the_mention_check_sees_a_third_file(tmp_path):
    """A made-up repository where the family is also written on a page and named in a README:
    both are found; a variable ``err`` and the word STDERR are not mentions."""
    files = {"irnb/measures/err.py": "register(Family('ERR', ...))",
             "tests/measures/test_err.py": "parse_measure('ERR@20')",
             "docs/definitions.md": "### `ERR@k`: expected reciprocal rank",
             "README.md": "after Chapelle et al. 2009",
             "irnb/cli.py": "except ValueError as err:\n    print(err, file=STDERR)",
             "notebooks/01.md": "ERRATA and ERR-free text, irnb.measures.errors",
             "data.bin": b"\xff\xfeERR"}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            (tmp_path / path).write_bytes(text)
        else:
            (tmp_path / path).write_text(text, encoding="utf-8")
    found = _mentions(tmp_path, list(files), _terms(FAMILIES[LAST_ADDED]))
    assert found == ["README.md", "docs/definitions.md", "irnb/measures/err.py", "tests/measures/test_err.py"]
