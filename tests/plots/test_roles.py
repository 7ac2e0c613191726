"""irnb.plots.roles: artists tagged by role are found again by role (on a twin Axes too), an
untagged or foreign gid is not, a missing role names the plot to draw first, a twin is made
once, and ``ax=None`` draws on a new figure."""

from __future__ import annotations

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from irnb.plots.roles import artists, axes_or_new, require_artist, tag, twin_axes  # noqa: E402


def test_tagged_artists_are_found_by_role_on_the_axes_and_its_twin():
    fig, ax = plt.subplots()
    line = tag(ax.plot([0, 1], [0, 1])[0], "estimate")
    ax.plot([0, 1], [1, 0])                                   # untagged: not an irnb artist
    ax.plot([0, 1], [0.5, 0.5])[0].set_gid("someone-else")    # another library's gid
    twin = twin_axes(ax)
    assert twin_axes(ax) is twin and len(fig.axes) == 2      # made on first use, found again after
    other = tag(twin.plot([0, 1], [3, 4])[0], "difference")
    assert artists(ax) == {"estimate": line, "difference": other}
    assert require_artist(ax, "estimate", "update_intervals_plot") is line


def test_a_missing_role_names_the_plot_to_draw_first():
    _, ax = plt.subplots()
    with pytest.raises(ValueError) as error:
        require_artist(ax, "cases", "update_case_matrix_plot")
    assert str(error.value) == ("update_case_matrix_plot: the Axes holds no irnb 'cases' artist; draw it first with "
                                "case_matrix_plot(..., ax=ax)")


def test_axes_or_new_keeps_a_given_axes_and_otherwise_makes_a_figure_of_the_size():
    _, ax = plt.subplots()
    assert axes_or_new(ax, (9.0, 9.0)) is ax
    made = axes_or_new(None, (3.0, 2.0))
    assert made is not ax and tuple(made.figure.get_size_inches()) == (3.0, 2.0)
