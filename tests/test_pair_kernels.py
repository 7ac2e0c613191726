"""The all-pairs kernels of the paired tests (irnb.pair_kernels): paired summaries and moments by hand,
Student's t as a finite series and the studentized range against scipy within their documented bounds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from scipy import stats as sps

from irnb.pair_kernels import Scores, pair_moments, paired_t_kernel, pairs, studentized_range_sf, t_two_sided_p


@settings(max_examples=25, deadline=None, derandomize=True)
@given(k=st.integers(2, 1000), df=st.sampled_from([1, 2, 3, 5, 10, 29, 100, 1_000, 4_147, 50_000]),
       q=st.lists(st.floats(0.0, 30.0), min_size=1, max_size=4))
def test_studentized_range_tail_within_documented_bound_of_scipy(k, df, q):

    mine = studentized_range_sf(np.asarray(q), k, df)
    assert np.max(np.abs(mine - sps.studentized_range.sf(q, k, df))) <= 1e-8


@settings(max_examples=60, deadline=None, derandomize=True)
@given(df=st.lists(st.integers(0, 130), min_size=1, max_size=6),
       t=st.lists(st.one_of(st.floats(-60.0, 60.0), st.floats(-1e-6, 1e-6), st.sampled_from([np.inf, -np.inf, 1e8])),
                  min_size=6, max_size=6))
def test_t_series_within_documented_bound_of_scipy(df, t):

    df = np.resize(np.asarray(df), 6)  # several ν in one call: each evaluated on its own pairs
    t = np.asarray(t)
    mine = t_two_sided_p(t, df)
    ref = np.where(df >= 1, 2.0 * special.stdtr(np.maximum(df, 1), -np.abs(t)), np.nan)
    assert np.array_equal(np.isnan(mine), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.all(np.abs(mine[ok] - ref[ok]) <= 1e-14 + 1e-10 * ref[ok])
    small = ok & (ref < 0.9e-4)  # (the switch is made on the series value, 1e-4)
    assert np.array_equal(mine[small], ref[small])  # the tail comes from scipy itself


def test_t_series_hand_values():

    # ν = 2: p = 1 − t/√(2 + t²), t = 2 → 1 − 2/√6 = 0.1835;
    # ν = 3, t = √3: θ = atan(1) = π/4, p = 1 − (2/π)(θ + sin θ cos θ) = 1/2 − 1/π = 0.1817
    got = t_two_sided_p(np.array([2.0, np.sqrt(3.0)]), np.array([2, 3]))
    assert got[0] == pytest.approx(1 - 2 / np.sqrt(6), abs=1e-15)
    assert got[1] == pytest.approx(0.5 - 1 / np.pi, abs=1e-15)


def test_pairs_summarise_every_pair_over_its_shared_topics_by_hand():
    # runs a, b, c over topics 1-3; c has no score on topic 2 (NaN), so its pairs use topics 1 and 3
    X = np.array([[0.5, 0.2, 0.9], [0.1, 0.2, 0.3], [0.5, np.nan, 0.9]])
    pr = pairs(Scores(X, ("a", "b", "c"), ("1", "2", "3"), None))
    assert (pr.a.tolist(), pr.b.tolist(), pr.n.tolist()) == ([0, 0, 1], [1, 2, 2], [3, 2, 2])
    # a − b = 0.4, 0, 0.6: mean 1/3, sd² = ((1/15)² + (1/3)² + (4/15)²) / 2 = 7/75
    # a − c = 0, 0 (shared topics): every difference zero, sd 0, d_z 0 by policy
    # b − c = −0.4, −0.6: mean −1/2, sd² = 0.1² + 0.1² = 0.02
    assert pr.mean == pytest.approx([1 / 3, 0.0, -0.5])
    assert pr.sd == pytest.approx([np.sqrt(7 / 75), 0.0, np.sqrt(0.02)])
    assert pr.all_zero.tolist() == [False, True, False]
    assert pr.d_z == pytest.approx([(1 / 3) / np.sqrt(7 / 75), 0.0, -0.5 / np.sqrt(0.02)])
    # the runs' means are over the pair's shared topics: (0.5 + 0.9) / 2 for a beside c
    assert pr.mean_a == pytest.approx([1.6 / 3, 0.7, 0.2]) and pr.mean_b == pytest.approx([0.2, 0.7, 0.7])
    assert np.isnan(pr.diff[1, 1])  # the topic c lacks stays NaN in the differences
    assert pairs(Scores(X, ("a", "b", "c"), ("1", "2", "3"), None), keep_diff=False).diff is None


def test_pair_moments_and_the_t_kernel_by_hand():
    # a − b = 1, 2, 6 on three topics: mean 3, sd² = (4 + 1 + 9) / 2 = 7 (from the Gram matrix)
    pm = pair_moments(Scores(np.array([[1.0, 2.0, 6.0], [0.0, 0.0, 0.0]]), ("a", "b"), ("1", "2", "3"), None))
    assert pm.diff is None and pm.n.tolist() == [3]
    assert (pm.mean[0], pm.sd[0] ** 2, pm.d_z[0]) == pytest.approx((3.0, 7.0, 3 / np.sqrt(7)))
    # t = 3 / (√7 / √3) = √(27/7), ν = 2: p = 1 − t / √(2 + t²) = 1 − √(27/41)
    t, p = paired_t_kernel(pm)
    assert t[0] == pytest.approx(np.sqrt(27 / 7)) and p[0] == pytest.approx(1 - np.sqrt(27 / 41), abs=1e-15)


def test_pair_moments_equal_the_direct_summaries_where_the_gram_matrix_cancels():
    # b = a + 2⁻³⁰ on every topic (dyadic values: every difference is exactly −2⁻³⁰): the Gram
    # matrix's mean difference cancels, so the pair is recomputed from its differences — mean
    # −2⁻³⁰, sd exactly 0 (a constant difference), not every difference zero
    a = np.array([0.25, 0.75, 0.125, 0.875])
    pm = pair_moments(Scores(np.vstack([a, a + 2.0 ** -30]), ("a", "b"), tuple("1234"), None))
    assert (pm.mean[0], pm.sd[0], bool(pm.all_zero[0])) == (-(2.0 ** -30), 0.0, False)
