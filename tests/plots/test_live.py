"""irnb.plots.live: every live plot draws the numbers it is given (hand-made inputs: the plots
compute nothing), respects ``ax=``, and its ``update_*`` twin changes the same artists in place."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from irnb import plots  # noqa: E402
from irnb.intervals import ScoreIntervals, point_estimates  # noqa: E402

from figure_checks import figure_problems  # noqa: E402

from plot_checks import bias_result, hand_intervals, hand_matrix, plotted_segments, xtick_texts, ytick_texts  # noqa: E402
from plot_checks import every_text_is_legible  # noqa: E402,F401  (autouse: each figure's texts ≥ MIN_FONT)


@pytest.fixture
def intervals():
    return hand_intervals()


@pytest.fixture
def matrix() -> pd.DataFrame:
    return hand_matrix()


def test_intervals_plot_draws_the_mean_bounds_sorted_by_the_estimate(intervals):
    est = point_estimates(intervals, background_rate=0.0)  # X_S = B: a 0.3, b 0.5, c 0.1
    ax = plots.intervals_plot(intervals, estimates=est, estimator="S", truth=[0.35, 0.5, 0.2])
    assert ytick_texts(ax) == ["b", "a", "c"]  # best (highest X_S) on top
    seg = plotted_segments(ax)
    np.testing.assert_allclose(seg[:, 0, 0], [0.5, 0.3, 0.1])  # B
    np.testing.assert_allclose(seg[:, 1, 0], [0.5, 0.7, 0.6])  # T
    np.testing.assert_allclose(seg[:, 0, 1], [0, 1, 2])  # one row per run
    found = plots.artists(ax)
    np.testing.assert_allclose(found["estimate"].get_xdata(), [0.5, 0.3, 0.1])
    np.testing.assert_allclose(found["truth"].get_xdata(), [0.5, 0.35, 0.2])
    assert found["estimate"].get_label() == "X_S (simplistic)"


def test_intervals_plot_without_estimates_sorts_by_b_and_hides_missing_series(intervals):
    ax = plots.intervals_plot(intervals)
    assert ytick_texts(ax) == ["b", "a", "c"]
    found = plots.artists(ax)
    assert not found["estimate"].get_visible() and not found["truth"].get_visible()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["[B, T]"]


def test_intervals_plot_respects_ax_runs_and_top(intervals):
    fig, (left, right) = plt.subplots(1, 2)
    returned = plots.intervals_plot(intervals, runs=["c", "a"], top=1, ax=right)
    assert returned is right and len(fig.axes) == 2
    assert ytick_texts(right) == ["a"]  # of c (B 0.1) and a (B 0.3), the top 1
    np.testing.assert_allclose(plotted_segments(right)[0, :, 0], [0.3, 0.7])
    assert plots.artists(left) == {}


def test_update_intervals_plot_changes_the_same_artists(intervals):
    ax = plots.intervals_plot(intervals)
    collection = plots.artists(ax)["intervals"]
    wider = ScoreIntervals(intervals.measure, intervals.run_names, intervals.topics, intervals.lower * 0,
                           intervals.upper, intervals.upper.copy(), intervals.evaluated)
    # every B is 0 now: ties keep run order a, b, c
    assert plots.update_intervals_plot(ax, wider) is ax
    assert plots.artists(ax)["intervals"] is collection
    np.testing.assert_allclose(plotted_segments(ax)[:, 1, 0], [0.7, 0.5, 0.6])
    assert ytick_texts(ax) == ["a", "b", "c"]


def test_topic_intervals_plot_shows_one_runs_evaluated_topics(intervals):
    truth = np.array([[0.3, 0.5], [0.5, 0.0], [0.2, 0.2]])
    est = point_estimates(intervals, background_rate=0.0)
    ax = plots.topic_intervals_plot(intervals, "a", estimates=est, estimator="simplistic", truth=truth)
    assert ytick_texts(ax) == ["t2", "t1"]  # a's B: t1 0.2, t2 0.4
    np.testing.assert_allclose(plotted_segments(ax)[:, :, 0], [[0.4, 0.8], [0.2, 0.6]])
    np.testing.assert_allclose(plots.artists(ax)["truth"].get_xdata(), [0.5, 0.3])
    plots.update_topic_intervals_plot(ax, intervals, "b")
    assert ytick_texts(ax) == ["t1"]  # t2 is not evaluated for b


def test_plot_errors_name_what_was_wrong(intervals):
    ax = plots.intervals_plot(intervals)
    with pytest.raises(ValueError, match="update_intervals_plot: estimator must be one of 'S' \\(simplistic\\), "
                                         ".*got 'Q'"):
        plots.update_intervals_plot(ax, intervals, estimates=point_estimates(intervals), estimator="Q")
    with pytest.raises(ValueError, match="truth must be 3 values"):
        plots.update_intervals_plot(ax, intervals, truth=[0.1, 0.2])
    with pytest.raises(ValueError, match="unknown run 'aa'"):
        plots.topic_intervals_plot(intervals, "aa")
    _, empty = plt.subplots()
    with pytest.raises(ValueError, match="holds no irnb 'intervals' artist; draw it first with intervals_plot"):
        plots.update_intervals_plot(empty, intervals)


def test_case_matrix_plot_shows_the_cases_and_marks_weak_ones(matrix):
    ax = plots.case_matrix_plot(matrix, title="P@10")
    found = plots.artists(ax)
    data = found["cases"].get_array()
    np.testing.assert_array_equal(data.filled(0), [[0, 1, 2], [1, 0, 4], [2, 4, 0]])
    assert data.mask.tolist() == np.eye(3, dtype=bool).tolist()  # the diagonal is "no comparison"
    weak = sorted(zip(found["weak"].get_xdata(), found["weak"].get_ydata(), strict=True))
    assert weak == [(0, 2), (1, 2), (2, 0), (2, 1)]  # (column, row) of cases 2 and 4
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["1 strong: no score difference,\nno judged-share difference",
                      "2 weak: no score difference,\njudged shares differ", "3 strong: better score, not\nmore judged",
                      "4 weak: better score and\nmore judged"]
    assert ax.get_title() == "P@10"


def test_case_matrix_colours_are_the_colour_blind_safe_palette(matrix):
    ax = plots.case_matrix_plot(matrix)
    image = plots.artists(ax)["cases"]
    rgba = image.to_rgba(np.array([1.0, 2.0, 3.0, 4.0]))
    expected = [matplotlib.colors.to_rgba(plots.CASE_COLOURS[c]) for c in (1, 2, 3, 4)]
    np.testing.assert_allclose(rgba, expected)


def test_update_case_matrix_plot_reorders_and_subsets_in_place(matrix):
    ax = plots.case_matrix_plot(matrix)
    image = plots.artists(ax)["cases"]
    plots.update_case_matrix_plot(ax, matrix, order=["z", "y"])
    assert plots.artists(ax)["cases"] is image
    np.testing.assert_array_equal(image.get_array().filled(0), [[0, 4], [4, 0]])
    assert xtick_texts(ax) == ["z", "y"] and ytick_texts(ax) == ["z", "y"]
    with pytest.raises(ValueError, match="order names runs the matrix lacks"):
        plots.update_case_matrix_plot(ax, matrix, order=["w"])


def test_case_proportions_plot_is_depth_by_case_with_printed_values():
    columns = pd.MultiIndex.from_tuples([(m, c) for m in ("P@10", "P@100", "AP") for c in (1, 2, 3, 4)],
                                        names=["measure", "case"])
    values = np.array([[0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.25, 0.25, 0.5, 0.0, 0.5, 0.0]])
    table = pd.DataFrame(values, index=pd.Index(["d = 10"], name="setting"), columns=columns)
    ax = plots.case_proportions_plot(table)
    grid = plots.artists(ax)["proportions"].get_array()
    np.testing.assert_allclose(grid, values.reshape(3, 4))
    assert ytick_texts(ax) == ["P@10", "P@100", "AP"]  # the table's order, not sorted
    assert plots.artists(ax)["label:0:3"].get_text() == "0.40"
    with pytest.raises(ValueError, match="unknown setting 'd = 5'"):
        plots.update_case_proportions_plot(ax, table, setting="d = 5")

    # a table from irnb.decision carries what produced it: the title and the row labels say it
    table.attrs = {"procedure": "one-way ANOVA + Bonferroni multiple comparisons, α = 0.05",
                   "pairing": {"P@10": "Judged@10", "P@100": "Judged@100", "AP": "MAA"}}
    ax = plots.case_proportions_plot(table)
    # lines wrapped at 44 characters to fit beside the matrix
    assert ax.get_title().endswith("d = 10\none-way ANOVA + Bonferroni multiple\ncomparisons, α = 0.05")
    assert ytick_texts(ax) == ["P@10 · A_p@10", "P@100 · A_p@100", "AP · MAA"]   # the papers' name for Judged@k
    assert plots.procedure_caption(pd.DataFrame()) is None


def test_bias_plot_draws_each_left_out_runs_rank_change_per_measure():
    # AP: r1 1 → 2 (−1), r2 2 → 3 (−1); bpref: r1 stays 1 (0), r2 2 → 1 (+1); r3 is not left out
    result = bias_result([[1, 2, 3], [1, 2, 3]], [[2, 3, 1], [1, 1, 3]])
    ax = plots.bias_plot(result)
    found = plots.artists(ax)
    np.testing.assert_array_equal(found["bias:AP"].get_xdata(), [1, 2])  # reference ranks
    np.testing.assert_array_equal(found["bias:AP"].get_ydata(), [-1, -1])
    np.testing.assert_array_equal(found["bias:Bpref"].get_ydata(), [0, 1])
    plots.update_bias_plot(ax, result, value="score", measures=["bpref"])
    np.testing.assert_allclose(found["bias:Bpref"].get_ydata(), [0.05, 0.05])  # reduced − reference
    assert not found["bias:AP"].get_visible()
    with pytest.raises(ValueError, match="value must be 'rank' or 'score'"):
        plots.update_bias_plot(ax, result, value="tau")


def test_tau_depth_plot_has_one_line_per_measure_and_marks_the_current_depth():
    results = {20: bias_result([[1, 2, 3]] * 2, [[1, 2, 3]] * 2, tau=(0.7, 0.95)),
               5: bias_result([[1, 2, 3]] * 2, [[1, 2, 3]] * 2, tau=(0.4, 0.9))}
    ax = plots.tau_depth_plot(results, current=20)
    found = plots.artists(ax)
    np.testing.assert_array_equal(found["tau:AP"].get_xdata(), [5, 20])
    np.testing.assert_allclose(found["tau:AP"].get_ydata(), [0.4, 0.7])
    np.testing.assert_allclose(found["tau:Bpref"].get_ydata(), [0.9, 0.95])
    assert list(found["current"].get_xdata()) == [20, 20]
    plots.update_tau_depth_plot(ax, results, value="tau_ap", current=5)
    np.testing.assert_allclose(found["tau:AP"].get_ydata(), [0.3, 0.6])
    assert list(found["current"].get_xdata()) == [5, 5]


def test_unjudged_plot_orders_topics_by_run_b_and_draws_the_table():
    table = pd.DataFrame({"topic": ["1", "2", "3", "4"], "unjudged_a": [1, 0, 2, 9], "unjudged_b": [5, 2, 7, 0],
                          "overlap": [1, 0, 2, 0], "score_a": [0.3, 0.1, 0.2, 0.0],
                          "score_b": [0.2, 0.3, 0.2, 0.0], "score_difference": [-0.1, 0.2, 0.0, 0.0],
                          "evaluated": [True, True, True, False]})
    fig, ax = plt.subplots()
    assert plots.unjudged_plot(table, run_a="base", run_b="new", ax=ax) is ax
    found = plots.artists(ax)
    assert xtick_texts(ax) == ["2", "1", "3"]  # unjudged_b ascending; topic 4 not evaluated
    np.testing.assert_array_equal(found["unjudged_b"].get_ydata(), [2, 5, 7])
    np.testing.assert_array_equal(found["unjudged_a"].get_ydata(), [0, 1, 2])
    np.testing.assert_array_equal(found["overlap"].get_ydata(), [0, 1, 2])
    np.testing.assert_allclose(found["difference"].get_ydata(), [0.2, -0.1, 0.0])
    assert found["difference"].axes is not ax and len(fig.axes) == 2  # Δ on a twin axis
    plots.update_unjudged_plot(ax, table.assign(unjudged_b=[0, 1, 2, 3]), run_a="base", run_b="new")
    assert len(fig.axes) == 2 and xtick_texts(ax) == ["1", "2", "3"]


def test_simulated_precision_plot_orders_by_the_original_score():
    ax = plots.simulated_precision_plot(["a", "b", "c"], [3, 0, 5], [0.4, 0.1, 0.2], [0.8, 0.1, 0.9],
                                        run="new", estimator="X_I", measure="P@10")
    found = plots.artists(ax)
    assert xtick_texts(ax) == ["b", "c", "a"]
    np.testing.assert_allclose(found["original"].get_ydata(), [0.1, 0.2, 0.4])
    np.testing.assert_allclose(found["simulated"].get_ydata(), [0.1, 0.9, 0.8])
    np.testing.assert_allclose(found["unjudged"].get_ydata(), [0, 5, 3])
    assert found["simulated"].get_label() == "simulated P@10: X_I (interpolated)"
    assert not found["truth"].get_visible() and "true P@10" not in [t.get_text() for t in ax.get_legend().get_texts()]
    with pytest.raises(ValueError, match="original must be 3 values"):
        plots.update_simulated_precision_plot(ax, ["a", "b", "c"], [1, 2, 3], [0.1], [0.1, 0.2, 0.3])
    # with the truth: black diamonds in the topics' order, named in the same legend outside the data
    ax = plots.simulated_precision_plot(["a", "b", "c"], [3, 0, 5], [0.4, 0.1, 0.2], [0.8, 0.1, 0.9],
                                        truth=[0.6, 0.2, 0.3], measure="P@10")
    found = plots.artists(ax)
    np.testing.assert_allclose(found["truth"].get_ydata(), [0.2, 0.3, 0.6])
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "true P@10"
    assert figure_problems(ax.figure) == []
    with pytest.raises(ValueError, match="truth must be 3 values"):
        plots.simulated_precision_plot(["a", "b", "c"], [3, 0, 5], [0.4, 0.1, 0.2], [0.8, 0.1, 0.9], truth=[0.1])
