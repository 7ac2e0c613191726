"""irnb.plots.legends: a plot's legend sits outside its data and names only drawn artists."""

from __future__ import annotations


import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from irnb import plots  # noqa: E402


from plot_checks import hand_intervals  # noqa: E402
from plot_checks import every_text_is_legible  # noqa: E402,F401  (autouse: each figure's texts ≥ MIN_FONT)


@pytest.fixture
def intervals():
    return hand_intervals()


def test_legends_sit_outside_the_data_and_name_only_drawn_artists(intervals):
    ax = plots.intervals_plot(intervals)  # no estimates, no truth: their entries are left out
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["[B, T]"]
    ax.figure.canvas.draw()
    box, data = legend.get_window_extent(), ax.get_window_extent()
    assert box.y1 <= data.y0  # below the Axes
