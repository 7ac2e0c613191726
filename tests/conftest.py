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


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20071)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
