"""The reproductions' entry point (irnb.papers): options and ids checked with a suggestion, the
data a reproduction runs on, the run-groups file, the package's docstring examples."""

from __future__ import annotations

import importlib

import pytest

import irnb
from irnb.datasets import default

R = importlib.import_module("irnb.papers")  # the package holding the reproductions


@pytest.fixture(scope="module")
def exp():
    return default().experiment


def test_unknown_id_and_option_are_named_with_a_suggestion():
    with pytest.raises(ValueError, match="unknown reproduction id 'baillie2007-tabel1'; did you mean "
                                         "'baillie2007-table1'"):
        irnb.reproduce("baillie2007-tabel1")
    with pytest.raises(TypeError, match="unknown option 'dephts'; did you mean 'depths'"):
        irnb.reproduce("baillie2008-table3", dephts=(10,))
    with pytest.raises(ValueError, match=r"depths \(measurement depths k\) must be an integer ≥ 1, got 0"):
        irnb.reproduce("baillie2008-table3", depths=(10, 0))
    with pytest.raises(ValueError, match="pairs: unknown run 'nope'"):
        irnb.reproduce("baillie2007-fig2", depths=(10,), pairs=[("nope", "acorn-a1"), ("acorn-a1", "birch-m1")])


def test_docstring_examples_hold():
    import doctest

    result = doctest.testmod(R)
    assert result.attempted >= 4 and result.failed == 0


def test_pool_depth_is_the_simulators_or_inferred(exp):
    assert R._source(None).pool_depth == 100
    # as user data (no collection): inferred from the contributors, every one judged to depth 100
    assert R.Source(exp, "x").pool_depth == 100
    assert R.Source(exp, "x").describe() == ("40 runs (12 contributing, 12 groups), 50 topics, pool depth 100 "
                                             "(inferred: 12 of the 12 contributing runs are judged to that depth "
                                             "on every topic)")


def test_read_groups_names_file_and_line(tmp_path):
    path = tmp_path / "groups.tsv"
    path.write_text("# run\tgroup\na\tg1\nb g2\n")
    with pytest.raises(ValueError, match=r"groups.tsv:3: expected 2 tab-separated columns \(run<TAB>group\)"):
        R.read_groups(path)
    path.write_text("a\tg1\na\tg2\n")
    with pytest.raises(ValueError, match="groups.tsv:2: run 'a' listed twice"):
        R.read_groups(path)
