"""Shared fixtures: the ../shared folder (reference outputs, real data), a seeded rng,
and closing matplotlib figures after each test."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path inside ../shared; the calling test is skipped (with the reason) when absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the project's ../shared folder with reference outputs and real data)")
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"needs {SHARED} (the project's ../shared folder with reference outputs and real data)")
    return SHARED


@pytest.fixture(scope="session")
def covid_dir() -> Path:
    """../shared/data/trec-covid-round1 (TREC-COVID round 1); skips when absent."""
    return shared_path("data", "trec-covid-round1")


@pytest.fixture(scope="session")
def real_stats(shared_dir):
    """The calibration statistics of the two real collections (``real_statistics`` of
    ../shared/data), computed once for every test module that compares with them."""
    from irnb.datasets.calibration import real_statistics

    return real_statistics(shared_dir / "data")


@pytest.fixture(scope="module")
def table_tool():
    """tools/reproduction_table.py (docs/reproductions.md's reproduction table), imported as a module."""
    import importlib

    tools = REPO / "tools"
    sys.path.insert(0, str(tools))
    try:
        return importlib.import_module("reproduction_table")
    finally:
        sys.path.remove(str(tools))


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20071)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


@pytest.fixture(scope="session")
def trec_eval_bin(tmp_path_factory) -> Path:
    """The real trec_eval 10.0 binary, built with make from ../shared/reference's source
    tarball in a temporary folder (once per session). Skips, with the reason, when the
    tarball is absent or no C compiler / make is on PATH (``.ci/run`` installs them)."""
    import shutil
    import subprocess
    import tarfile

    tarball = shared_path("reference", "trec_eval-10.0.tar.gz")
    missing = [tool for tool in ("make", "cc") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"building trec_eval 10.0 needs {' and '.join(missing)} on PATH (a C toolchain)")
    root = tmp_path_factory.mktemp("trec_eval_build")
    with tarfile.open(tarball) as tar:
        tar.extractall(root, filter="data")
    (src,) = [p for p in root.iterdir() if p.is_dir()]
    done = subprocess.run(["make", "-s"], cwd=src, capture_output=True, text=True)
    binary = src / "trec_eval"
    if done.returncode != 0 or not binary.exists():
        pytest.fail(f"make failed building trec_eval 10.0 in {src}:\n{done.stderr[-2000:]}")
    return binary


@pytest.fixture(scope="session")
def clef18_dir(tmp_path_factory) -> Path:
    """The CLEF eHealth 2018 IRTask1 runs extracted once per session (24 files in group
    folders) beside ``qrels.txt`` (a copy-free symlink to the official qrels); skips when
    ../shared is absent."""
    import tarfile

    folder = shared_path("data", "clef-ehealth-2018-irtask1")
    target = tmp_path_factory.mktemp("clef18_runs")
    with tarfile.open(folder / "runs-irtask1.tar.xz") as tar:
        tar.extractall(target / "runs", filter="data")
    (target / "qrels.txt").symlink_to(folder / "CLEF2018_qrel_20180914.txt")
    return target
