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
