"""Packaging: a wheel (built from the tree, as pip does) ships every ``notebooks/*.ipynb`` as
``irnb/_notebooks/*.ipynb``, byte for byte, and ``irnb lab``'s lookup finds them there when
there is no checkout beside the package; the sdist carries the notebooks and the build hook.

Builds run on a copy of the repository in a tmp folder (no ``build/`` left in the checkout).
The wheel build needs pip's isolated build environment (setuptools from the package index).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
_IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".hypothesis",
                                 ".pytest_cache", ".ipynb_checkpoints", "irnb-notebooks")


def _copy_of_repository(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    shutil.copytree(REPO, source, ignore=_IGNORE)
    return source


def _run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, \
        f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _load_lab_module(site: Path):
    """irnb/lab.py as installed from the wheel into ``site`` (it imports only the stdlib)."""
    spec = importlib.util.spec_from_file_location("irnb_lab_from_wheel", site / "irnb" / "lab.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_are_notebooks_to_ship():
    names = [p.name for p in NOTEBOOKS]
    assert "00_tour.ipynb" in names and "dashboard.ipynb" in names, names


@pytest.mark.slow
def test_wheel_ships_notebooks_as_package_data(tmp_path):
    source = _copy_of_repository(tmp_path)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", ".", "-w", str(dist)], source,
         timeout=240)
    (wheel,) = dist.glob("irnb-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        shipped = {n.removeprefix("irnb/_notebooks/") for n in names if n.startswith("irnb/_notebooks/")}
        assert shipped == {p.name for p in NOTEBOOKS}
        for path in NOTEBOOKS:
            assert archive.read(f"irnb/_notebooks/{path.name}") == path.read_bytes(), path.name
        assert not any(n.startswith(("notebooks/", "tests/", "tools/")) for n in names)
        assert "irnb/lab.py" in names
        site = tmp_path / "site"
        archive.extractall(site)

    # Installed from the wheel (no checkout beside the package), irnb lab copies these.
    lab = _load_lab_module(site)
    assert lab.notebook_source() == site / "irnb" / "_notebooks"
    work = tmp_path / "work"
    copied = lab.copy_notebooks(work)
    assert sorted(p.name for p in copied) == sorted(p.name for p in NOTEBOOKS)
    assert (work / lab.FIRST_NOTEBOOK).read_bytes() == (REPO / "notebooks" / lab.FIRST_NOTEBOOK).read_bytes()


def test_sdist_carries_notebooks_and_build_hook(tmp_path):
    source = _copy_of_repository(tmp_path)
    out = tmp_path / "sdist"
    code = "import sys; from setuptools.build_meta import build_sdist; print(build_sdist(sys.argv[1]))"
    name = _run([sys.executable, "-c", code, str(out)], source, timeout=120).stdout.strip().splitlines()[-1]
    with tarfile.open(out / name) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    missing = {f"notebooks/{p.name}" for p in NOTEBOOKS} - members
    assert missing == set(), f"sdist lacks {sorted(missing)} (MANIFEST.in)"
    assert {"setup.py", "MANIFEST.in", "pyproject.toml"} <= members
