"""The reproductions' figures (irnb.papers.figures) draw what a Reproduction holds and nothing
else: hand-made tables give exactly the lines, labels and panels they describe, and a wrong
number of Axes is refused with a message that says what was expected."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irnb.papers import Reproduction
from irnb.papers import figures

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def _reproduction(table: pd.DataFrame, **details) -> Reproduction:
    return Reproduction("made-up", "made-up", "nowhere", table, None, "", "hand-made data", details=details)


def test_panel_axes_reuses_one_axes_and_refuses_a_wrong_count():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert figures.panel_axes(ax, 3) == [ax, ax, ax]
    _, two = plt.subplots(1, 2)
    assert figures.panel_axes(two, 2) == list(two)
    with pytest.raises(ValueError, match=r"ax must be one Axes or 3 \(one per panel\), got 2"):
        figures.panel_axes(two, 3)
    assert len(figures.panel_axes(None, 4)) == 4


def test_subsampling_panels_draw_one_line_per_measure_and_panel_from_the_table():
    shares = pd.Index([0.5, 1.0], name="fraction of qrels kept")
    table = pd.DataFrame([[0.2, 0.3, 0.8, 0.9], [0.4, 0.3, 1.0, 1.0]], index=shares,
                         columns=pd.MultiIndex.from_product([["(a) mean score", "(b) Kendall's τ"], ["AP", "bpref"]],
                                                            names=["panel", "measure"]))
    axes = figures.subsampling_panels(_reproduction(table))
    assert [a.get_title() for a in axes] == ["(a) mean score", "(b) Kendall's τ"]
    assert [[line.get_label() for line in a.get_lines()] for a in axes] == [["AP", "bpref"], ["AP", "bpref"]]
    # the first panel's AP line is the table's AP column, point for point
    np.testing.assert_array_equal(axes[0].get_lines()[0].get_ydata(), [0.2, 0.4])
    np.testing.assert_array_equal(axes[1].get_lines()[1].get_ydata(), [0.9, 1.0])


def test_separability_curves_draw_the_methods_given_in_their_order_and_name_alpha():
    budgets = pd.Index([10, 100], name="judgments")
    table = pd.DataFrame([[0.1, 0.2, 0.3, 0.0, 0.0, 0.0], [0.4, 0.5, 0.6, 0.0, 0.0, 0.0]], index=budgets,
                         columns=pd.MultiIndex.from_product([["P@10", "RBP"], ["X_S", "X_B", "interval"]],
                                                            names=["measure", "method"]))
    axes = figures.separability_curves(_reproduction(table), methods=("interval", "X_S"), alpha=0.01)
    assert [a.get_title() for a in axes] == ["P@10", "RBP"]
    labels = [line.get_label() for line in axes[-1].get_lines()]
    assert labels == ["interval", "X_S"]  # X_B is in the table but was not asked for
    assert axes[0].get_ylabel() == "fraction of pairs, paired t-test p < 0.01"
    np.testing.assert_array_equal(axes[0].get_lines()[0].get_ydata(), [0.3, 0.6])
