"""The linter is configured in pyproject.toml, installed by the test extra, run by README's
test command (and so by .ci/run), and clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_ruff_is_configured_and_installed_by_the_test_extra():
    config = _pyproject()
    ruff = config["tool"]["ruff"]
    assert {"E", "F", "W", "B", "UP"} <= set(ruff["lint"]["select"])
    assert "I" not in ruff["lint"]["select"], "import sorting would reorder every helper's imports"
    assert any(dep.startswith("ruff") for dep in config["project"]["optional-dependencies"]["test"])


def test_readme_test_command_runs_ruff_before_pytest():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    command = next(line for line in text.splitlines() if 'pip install -e ".[test]"' in line)
    assert command.index("ruff check") < command.index("pytest")


def test_ruff_check_is_clean():
    if shutil.which("ruff") is None:
        try:
            import ruff  # noqa: F401
        except ImportError:
            pytest.skip("ruff is not installed (pip install -e '.[test]' installs it)")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "irnb", "tests", "benchmarks", "tools"],
                          cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
