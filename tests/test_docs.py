"""The documentation site: every notebook is in it, README's build command is what CI runs, and
the pages build without a single warning.

The full build (``.ci/run``'s last step) executes every notebook; here Sphinx runs with notebook
execution switched off, which still parses every page, notebook, docstring and the CLI parser, so
a warning in any of them fails this test in seconds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
BUILD = "python3 -m sphinx -W --keep-going -b html docs docs/_build/html"


def test_every_notebook_is_in_the_site():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^notebooks/(\S+)$", index, re.MULTILINE))
    assert listed == {p.stem for p in (REPO / "notebooks").glob("*.md")}
    assert (DOCS / "notebooks").resolve() == (REPO / "notebooks").resolve()


def test_readme_builds_the_site_as_ci_does():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f'python3 -m pip install -e ".[docs]" && {BUILD}' in readme
    assert BUILD in (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert BUILD in (REPO / ".github" / "workflows" / "docs.yml").read_text(encoding="utf-8")


@pytest.mark.slow
def test_site_builds_without_a_warning(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    pytest.importorskip("sphinxarg")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-D", "nb_execution_mode=off", "-d", str(tmp_path / "doctrees"), str(DOCS),
                           str(tmp_path / "html")], capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    api = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    import irnb

    missing = [name for name in irnb.__all__ if name != "__version__" and f'id="irnb.{name}"' not in api]
    assert missing == [], f"the API page lacks {missing}"
    cli = (tmp_path / "html" / "cli.html").read_text(encoding="utf-8")
    assert "irnb evaluate" in cli or 'id="irnb-evaluate"' in cli
