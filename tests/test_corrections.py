"""Multiple-comparison corrections of p-values (irnb.corrections): Bonferroni, Holm and
Benjamini-Hochberg by hand, NaNs left out of m, and the errors for a p-value outside [0, 1]."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb.corrections import ADJUSTMENTS, adjust_p_values, benjamini_hochberg, bonferroni, holm, p_value_array


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 1), st.just(np.nan)), min_size=1, max_size=30))
def test_property_holm_between_raw_and_bonferroni(p):
    p = np.asarray(p, dtype=float)
    h, b = holm(p), bonferroni(p)
    ok = ~np.isnan(p)
    assert np.array_equal(np.isnan(h), ~ok)
    assert np.all(h[ok] >= p[ok] - 1e-15) and np.all(h[ok] <= b[ok] + 1e-15) and np.all(h[ok] <= 1)
    order = np.argsort(p[ok], kind="stable")
    assert np.all(np.diff(h[ok][order]) >= 0)  # Holm keeps the order of the raw p-values


def test_bonferroni_and_holm_hand_examples():
    p = [0.01, 0.04, 0.03, 0.005]
    assert bonferroni(p) == pytest.approx([0.04, 0.16, 0.12, 0.02])
    # Holm: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.06
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1, NaN ignored (m = 3)
    assert np.isnan(holm([0.5, np.nan, 0.4, 0.01])[1])  # NaN stays NaN and does not count in m
    assert holm([0.5, np.nan, 0.4, 0.01])[[0, 2, 3]] == pytest.approx([0.8, 0.8, 0.03])
    assert bonferroni([0.5, np.nan, 0.2]) == pytest.approx([1.0, np.nan, 0.4], nan_ok=True)
    assert bonferroni([0.01], m=10)[0] == pytest.approx(0.1)
    with pytest.raises(ValueError, match="m \\(number of comparisons\\) must be an integer ≥ 2"):
        bonferroni([0.1, 0.2], m=1)
    with pytest.raises(ValueError, match="p-values must lie in \\[0, 1\\], got 1.5"):
        holm([0.1, 1.5])


def test_benjamini_hochberg_by_hand_with_a_nan():
    # m = 3 (the NaN does not count): sorted 0.01·3/1 = 0.03, 0.03·3/2 = 0.045, 0.04·3/3 = 0.04;
    # the running minimum from the largest lowers 0.045 to 0.04
    got = benjamini_hochberg([0.04, np.nan, 0.01, 0.03])
    assert np.isnan(got[1]) and got[[0, 2, 3]] == pytest.approx([0.04, 0.03, 0.04])


def test_corrections_keep_the_shape_of_a_matrix():
    # the same four p-values as the hand example above, as a 2 × 2 matrix of pairs
    got = holm(np.array([[0.01, 0.04], [0.03, 0.005]]))
    assert got.shape == (2, 2) and got.ravel() == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_adjust_p_values_by_name():
    p = [0.01, 0.04, 0.03, 0.005]
    assert adjust_p_values(p, "bh") == pytest.approx(benjamini_hochberg(p))
    assert adjust_p_values(p, "holm") == pytest.approx(holm(p))
    same = adjust_p_values(np.array(p), "none")
    assert same.tolist() == p and same is not p  # a copy, unchanged
    assert set(ADJUSTMENTS) == {"bonferroni", "holm", "bh"}
    with pytest.raises(ValueError, match=r"correction must be one of 'bonferroni', 'holm', 'bh' or 'none', "
                                         r"got 'sidak'"):
        adjust_p_values(p, "sidak")


def test_a_p_value_outside_0_1_is_named():
    with pytest.raises(ValueError, match=r"p-values must lie in \[0, 1\], got -0.1"):
        p_value_array([0.2, -0.1])
    assert np.isnan(p_value_array([np.nan, 0.5])[0])  # NaN (a pair with no shared topic) passes
