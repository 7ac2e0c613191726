"""Binder's pins stay consistent with pyproject.toml."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

packaging = pytest.importorskip("packaging.requirements")
from packaging.requirements import Requirement  # noqa: E402
from packaging.version import Version  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]


def _pyproject_requirements() -> dict[str, Requirement]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    reqs = list(project["dependencies"]) + list(project["optional-dependencies"]["notebook"])
    return {Requirement(r).name.lower(): Requirement(r) for r in reqs}


def _binder_pins() -> dict[str, Version]:
    pins = {}
    for line in (REPO / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", f"binder pin {line!r} must be exact (==)"
            pins[req.name.lower()] = Version(spec.version)
    return pins


def test_every_runtime_and_notebook_dependency_is_pinned_for_binder():
    missing = sorted(set(_pyproject_requirements()) - set(_binder_pins()))
    assert missing == [], f"binder/requirements.txt lacks pins for {missing}"


def test_binder_pins_satisfy_pyproject_ranges():
    reqs = _pyproject_requirements()
    outside = {name: str(v) for name, v in _binder_pins().items() if name in reqs and v not in reqs[name].specifier}
    assert outside == {}, f"binder pins outside pyproject ranges: {outside}"


def test_binder_python_matches_requires_python():
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    runtime = (REPO / "binder" / "runtime.txt").read_text(encoding="utf-8").strip()
    version = Version(runtime.removeprefix("python-"))
    from packaging.specifiers import SpecifierSet

    assert version in SpecifierSet(data["project"]["requires-python"])


def test_post_build_installs_irnb_without_dependencies():
    script = (REPO / "binder" / "postBuild").read_text(encoding="utf-8")
    assert "pip install --no-deps" in script and " -e ." in script


def test_voila_settings_name_a_shipped_template_and_post_build_installs_both():
    """binder/voila.json chooses the "irnb" Voila template, which lives in binder/share/jupyter
    (extending the lab template); postBuild copies both where Voila looks for them."""
    import json

    settings = json.loads((REPO / "binder" / "voila.json").read_text(encoding="utf-8"))["VoilaConfiguration"]
    template = REPO / "binder" / "share" / "jupyter" / "voila" / "templates" / settings["template"]
    assert (template / "index.html.j2").is_file(), f"binder/voila.json names template {settings['template']!r}"
    assert json.loads((template / "conf.json").read_text(encoding="utf-8"))["base_template"] == "lab"
    script = (REPO / "binder" / "postBuild").read_text(encoding="utf-8")
    assert f"binder/share/jupyter/voila/templates/{settings['template']}" in script
    assert "binder/voila.json" in script and "jupyter_server_config.d" in script
