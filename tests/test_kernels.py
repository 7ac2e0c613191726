"""irnb.kernels: the Judged view, the helpers the families' kernels share, and compute, which
runs the kernel a family declares (at the measure's relevance level, condensed for a
condensed family). Every expected value is worked out by hand in the comments."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from irnb._grades import NO_DOC, UNJUDGED
from irnb.kernels import (Judged, compute, cut_depth, dcg, grade_gains, not_judged, safe_divide, sum_at_cells,
                          sum_per_topic, weighted_precision)
from irnb.measures import Measure


def _view(grades, level_counts, relevance_level=1) -> Judged:
    grade = np.array(grades, dtype=np.int8)
    length = (grade != NO_DOC).sum(axis=2)
    return Judged(grade, np.array(level_counts, dtype=np.int64), length, relevance_level)


@pytest.fixture
def view() -> Judged:
    # one topic whose qrels hold grades 0, 1, 2 (one each); run 0: 2, unjudged, 0; run 1: 1, then no document
    return _view([[[2, UNJUDGED, 0]], [[1, NO_DOC, NO_DOC]]], [[1, 1, 1]])


def test_compute_runs_the_declared_kernel_at_the_measures_relevance_level(view):
    seen = []

    def kernel(v, m):
        seen.append(v.relevance_level)
        return v.at(v.cum_rel, None)  # relevant retrieved

    family = SimpleNamespace(kernel=kernel, condensed_of=None)
    values = compute(view, SimpleNamespace(spec=family, rel=2))
    assert values.dtype == np.float64 and values.tolist() == [[1.0], [0.0]]  # grade ≥ 2: run 0 only
    assert seen == [2]
    assert compute(view, SimpleNamespace(spec=family, rel=1)).tolist() == [[1.0], [1.0]]


def test_compute_condenses_for_a_condensed_family(view):
    lengths = []
    family = SimpleNamespace(kernel=lambda v, m: lengths.append(v.length.tolist()) or np.zeros((2, 1)),
                             condensed_of="P")
    compute(view, SimpleNamespace(spec=family, rel=1))
    assert lengths == [[[2], [1]]]  # run 0's unjudged document is removed: 2 judged documents left
    # a made-up counter-example: the same family without condensed_of sees the whole ranking
    compute(view, SimpleNamespace(spec=SimpleNamespace(kernel=family.kernel, condensed_of=None), rel=1))
    assert lengths[-1] == [[3], [1]]


def test_compute_on_real_measures(view):
    assert compute(view, Measure("P", 2)).tolist() == [[0.5], [0.5]]  # 1 relevant in the top 2, / 2
    assert compute(view, Measure("P", 2, rel=2)).tolist() == [[0.5], [0.0]]
    assert compute(view, Measure("Pj", 2)).tolist() == [[0.5], [0.5]]  # condensed: 2, 0
    assert compute(view, Measure("Judged", 3)).ravel().tolist() == pytest.approx([2 / 3, 1 / 3])


def test_cut_depth_is_k_within_the_array(view):
    assert [cut_depth(view, k) for k in (None, 1, 3, 10)] == [3, 1, 3, 3]


def test_sums_at_cells_and_per_topic():
    view = _view(np.full((2, 3, 1), NO_DOC), [[1], [1], [1]])
    # cells s·T + t: (0, 1) → 1, (1, 2) → 5 (twice)
    assert sum_at_cells(view, np.array([1, 5, 5]), np.array([1.0, 2.0, 3.0])).tolist() == [[0, 1, 0], [0, 0, 5]]
    assert sum_per_topic(view, np.array([0, 1, 1]), np.array([1, 2, 2]), np.array([1.0, 2.0, 3.0])).tolist() == \
        [[0, 1, 0], [0, 0, 5]]


def test_gains_discounts_and_safe_division():
    assert grade_gains(np.array([3, 0, -1, UNJUDGED, NO_DOC], dtype=np.int8)).tolist() == [3, 0, 0, 0, 0]
    assert dcg(np.array([[1.0, 0.0, 1.0]]), 3).tolist() == pytest.approx([1 + 1 / 2])  # 1/log2(2) + 1/log2(4)
    assert safe_divide(np.array([1.0, 2.0]), np.array([0.0, 4.0])).tolist() == [0.0, 0.5]  # R = 0 → 0


def test_not_judged_never_counts_a_missing_rank(view):
    assert not_judged(view).tolist() == [[[False, True, False]], [[False, False, False]]]


def test_weighted_precision_names_what_it_takes():
    with pytest.raises(ValueError, match=r"family must be 'P', 'RBP' or 'SDCG', got 'AP'"):
        weighted_precision(np.ones(3), "AP", k=3)
    with pytest.raises(ValueError, match=r"P needs a cutoff k"):
        weighted_precision(np.ones(3), "P")
