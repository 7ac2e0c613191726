"""trec_eval 10.0's own test files in ../shared/reference, as a fixture for the drop-in's tests
(imported by the test modules that read them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import shared_path


@pytest.fixture(scope="module")
def ref() -> Path:
    return shared_path("reference", "trec_eval")
