"""irnb.plots: every plot draws the numbers it is given (hand-made inputs: the plots compute
nothing), respects ``ax=``, and its ``update_*`` twin changes the same artists in place."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from irnb import plots  # noqa: E402
from irnb.plots.static import DODGE  # noqa: E402
from irnb.bias import BiasResult  # noqa: E402
from irnb.intervals import BackgroundRateFit, ScoreIntervals, point_estimates  # noqa: E402
from irnb.measures import parse_measure  # noqa: E402

from figure_checks import figure_problems  # noqa: E402


def _segments(ax) -> np.ndarray:
    """(n, 2, 2) segments of the [B, T] LineCollection."""
    return np.asarray(plots.artists(ax)["intervals"].get_segments())


def _yticks(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def _xticks(ax) -> list[str]:
    return [t.get_text() for t in ax.get_xticklabels()]


@pytest.fixture
def intervals():
    """Three runs × two topics, P@10 bounds by hand. Means over evaluated topics:
    a: B (0.2 + 0.4)/2 = 0.3, T (0.6 + 0.8)/2 = 0.7; b: B 0.5, T 0.5 (topic 2 not
    evaluated: only 0.5 counts); c: B (0.1 + 0.1)/2 = 0.1, T (0.9 + 0.3)/2 = 0.6."""
    lower = np.array([[0.2, 0.4], [0.5, 0.0], [0.1, 0.1]])
    upper = np.array([[0.6, 0.8], [0.5, 0.0], [0.9, 0.3]])
    evaluated = np.array([[True, True], [True, False], [True, True]])
    return ScoreIntervals(parse_measure("P@10"), ("a", "b", "c"), ("t1", "t2"), lower, upper, upper - lower,
                          evaluated, pool="hand-made pool")


# =============================================================================== import rules
def test_import_irnb_and_irnb_plots_load_no_matplotlib():
    code = ("import sys, irnb, irnb.plots; "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'seaborn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_irnb_plots_reexports_every_plot_from_the_module_that_owns_it():
    """Every plot of irnb.plots.live and irnb.plots.static (and the helpers irnb.plots names) is
    the owner's own object under irnb.plots, so a new plot cannot be left out of the package."""
    import inspect

    from irnb.plots import legends, live, roles, static, style

    owned = {name: module for module in (live, static) for name, obj in vars(module).items()
             if inspect.isfunction(obj) and obj.__module__ == module.__name__ and not name.startswith("_")}
    assert len(owned) == 23 and all(name.endswith("_plot") for name in owned)
    for module in (style, roles, legends):
        owned.update({name: module for name in module.__all__ if name in plots.__all__})
    assert sorted(plots.__all__) == sorted(owned)
    for name, module in owned.items():
        assert getattr(plots, name) is getattr(module, name), name


# =============================================================================== intervals
def test_intervals_plot_draws_the_mean_bounds_sorted_by_the_estimate(intervals):
    est = point_estimates(intervals, background_rate=0.0)  # X_S = B: a 0.3, b 0.5, c 0.1
    ax = plots.intervals_plot(intervals, estimates=est, estimator="S", truth=[0.35, 0.5, 0.2])
    assert _yticks(ax) == ["b", "a", "c"]  # best (highest X_S) on top
    seg = _segments(ax)
    np.testing.assert_allclose(seg[:, 0, 0], [0.5, 0.3, 0.1])  # B
    np.testing.assert_allclose(seg[:, 1, 0], [0.5, 0.7, 0.6])  # T
    np.testing.assert_allclose(seg[:, 0, 1], [0, 1, 2])  # one row per run
    found = plots.artists(ax)
    np.testing.assert_allclose(found["estimate"].get_xdata(), [0.5, 0.3, 0.1])
    np.testing.assert_allclose(found["truth"].get_xdata(), [0.5, 0.35, 0.2])
    assert found["estimate"].get_label() == "X_S (simplistic)"


def test_intervals_plot_without_estimates_sorts_by_b_and_hides_missing_series(intervals):
    ax = plots.intervals_plot(intervals)
    assert _yticks(ax) == ["b", "a", "c"]
    found = plots.artists(ax)
    assert not found["estimate"].get_visible() and not found["truth"].get_visible()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["[B, T]"]


def test_intervals_plot_respects_ax_runs_and_top(intervals):
    fig, (left, right) = plt.subplots(1, 2)
    returned = plots.intervals_plot(intervals, runs=["c", "a"], top=1, ax=right)
    assert returned is right and len(fig.axes) == 2
    assert _yticks(right) == ["a"]  # of c (B 0.1) and a (B 0.3), the top 1
    np.testing.assert_allclose(_segments(right)[0, :, 0], [0.3, 0.7])
    assert plots.artists(left) == {}


def test_update_intervals_plot_changes_the_same_artists(intervals):
    ax = plots.intervals_plot(intervals)
    collection = plots.artists(ax)["intervals"]
    wider = ScoreIntervals(intervals.measure, intervals.run_names, intervals.topics, intervals.lower * 0,
                           intervals.upper, intervals.upper.copy(), intervals.evaluated)
    # every B is 0 now: ties keep run order a, b, c
    assert plots.update_intervals_plot(ax, wider) is ax
    assert plots.artists(ax)["intervals"] is collection
    np.testing.assert_allclose(_segments(ax)[:, 1, 0], [0.7, 0.5, 0.6])
    assert _yticks(ax) == ["a", "b", "c"]


def test_topic_intervals_plot_shows_one_runs_evaluated_topics(intervals):
    truth = np.array([[0.3, 0.5], [0.5, 0.0], [0.2, 0.2]])
    est = point_estimates(intervals, background_rate=0.0)
    ax = plots.topic_intervals_plot(intervals, "a", estimates=est, estimator="simplistic", truth=truth)
    assert _yticks(ax) == ["t2", "t1"]  # a's B: t1 0.2, t2 0.4
    np.testing.assert_allclose(_segments(ax)[:, :, 0], [[0.4, 0.8], [0.2, 0.6]])
    np.testing.assert_allclose(plots.artists(ax)["truth"].get_xdata(), [0.5, 0.3])
    plots.update_topic_intervals_plot(ax, intervals, "b")
    assert _yticks(ax) == ["t1"]  # t2 is not evaluated for b


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


# =============================================================================== decision matrix
@pytest.fixture
def matrix() -> pd.DataFrame:
    cases = np.array([[np.nan, 1, 2], [1, np.nan, 4], [2, 4, np.nan]])
    runs = pd.Index(["x", "y", "z"], name="run")
    return pd.DataFrame(cases, index=runs, columns=pd.Index(["x", "y", "z"], name="versus"))


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
    assert _xticks(ax) == ["z", "y"] and _yticks(ax) == ["z", "y"]
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
    assert _yticks(ax) == ["P@10", "P@100", "AP"]  # the table's order, not sorted
    assert plots.artists(ax)["label:0:3"].get_text() == "0.40"
    with pytest.raises(ValueError, match="unknown setting 'd = 5'"):
        plots.update_case_proportions_plot(ax, table, setting="d = 5")

    # a table from irnb.decision carries what produced it: the title and the row labels say it
    table.attrs = {"procedure": "one-way ANOVA + Bonferroni multiple comparisons, α = 0.05",
                   "pairing": {"P@10": "Judged@10", "P@100": "Judged@100", "AP": "MAA"}}
    ax = plots.case_proportions_plot(table)
    # lines wrapped at 44 characters to fit beside the matrix
    assert ax.get_title().endswith("d = 10\none-way ANOVA + Bonferroni multiple\ncomparisons, α = 0.05")
    assert _yticks(ax) == ["P@10 · A_p@10", "P@100 · A_p@100", "AP · MAA"]   # the papers' name for Judged@k
    assert plots.procedure_caption(pd.DataFrame()) is None


# =============================================================================== bias
def _bias_result(ref_rank, red_rank, *, tau=(0.9, 0.8), description="hand-made") -> BiasResult:
    ref_rank = np.asarray(ref_rank)
    red_rank = np.asarray(red_rank)
    M, S = ref_rank.shape
    score = np.linspace(0.5, 0.1, S)[None, :].repeat(M, 0)
    return BiasResult(kind="leave-one-group-out", description=description,
                      measures=tuple(parse_measure(m) for m in ("AP", "Bpref")[:M]), run_names=("r1", "r2", "r3"),
                      groups=("g1", "g2", "g2"), left_out=np.array([True, True, False]), reference_score=score,
                      reduced_score=score + np.array([[-0.1], [0.05]])[:M], reference_rank=ref_rank,
                      reduced_rank=red_rank, p_value=np.full((M, S), 0.5), kendall_tau=np.array(tau[:M]),
                      tau_ap=np.array(tau[:M]) - 0.1, kendall_tau_left_out=np.array(tau[:M]))


def test_bias_plot_draws_each_left_out_runs_rank_change_per_measure():
    # AP: r1 1 → 2 (−1), r2 2 → 3 (−1); bpref: r1 stays 1 (0), r2 2 → 1 (+1); r3 is not left out
    result = _bias_result([[1, 2, 3], [1, 2, 3]], [[2, 3, 1], [1, 1, 3]])
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
    results = {20: _bias_result([[1, 2, 3]] * 2, [[1, 2, 3]] * 2, tau=(0.7, 0.95)),
               5: _bias_result([[1, 2, 3]] * 2, [[1, 2, 3]] * 2, tau=(0.4, 0.9))}
    ax = plots.tau_depth_plot(results, current=20)
    found = plots.artists(ax)
    np.testing.assert_array_equal(found["tau:AP"].get_xdata(), [5, 20])
    np.testing.assert_allclose(found["tau:AP"].get_ydata(), [0.4, 0.7])
    np.testing.assert_allclose(found["tau:Bpref"].get_ydata(), [0.9, 0.95])
    assert list(found["current"].get_xdata()) == [20, 20]
    plots.update_tau_depth_plot(ax, results, value="tau_ap", current=5)
    np.testing.assert_allclose(found["tau:AP"].get_ydata(), [0.3, 0.6])
    assert list(found["current"].get_xdata()) == [5, 5]


# =============================================================================== unjudged documents
def test_unjudged_plot_orders_topics_by_run_b_and_draws_the_table():
    table = pd.DataFrame({"topic": ["1", "2", "3", "4"], "unjudged_a": [1, 0, 2, 9], "unjudged_b": [5, 2, 7, 0],
                          "overlap": [1, 0, 2, 0], "score_a": [0.3, 0.1, 0.2, 0.0],
                          "score_b": [0.2, 0.3, 0.2, 0.0], "score_difference": [-0.1, 0.2, 0.0, 0.0],
                          "evaluated": [True, True, True, False]})
    fig, ax = plt.subplots()
    assert plots.unjudged_plot(table, run_a="base", run_b="new", ax=ax) is ax
    found = plots.artists(ax)
    assert _xticks(ax) == ["2", "1", "3"]  # unjudged_b ascending; topic 4 not evaluated
    np.testing.assert_array_equal(found["unjudged_b"].get_ydata(), [2, 5, 7])
    np.testing.assert_array_equal(found["unjudged_a"].get_ydata(), [0, 1, 2])
    np.testing.assert_array_equal(found["overlap"].get_ydata(), [0, 1, 2])
    np.testing.assert_allclose(found["difference"].get_ydata(), [0.2, -0.1, 0.0])
    assert found["difference"].axes is not ax and len(fig.axes) == 2  # Δ on a twin axis
    plots.update_unjudged_plot(ax, table.assign(unjudged_b=[0, 1, 2, 3]), run_a="base", run_b="new")
    assert len(fig.axes) == 2 and _xticks(ax) == ["1", "2", "3"]


def test_simulated_precision_plot_orders_by_the_original_score():
    ax = plots.simulated_precision_plot(["a", "b", "c"], [3, 0, 5], [0.4, 0.1, 0.2], [0.8, 0.1, 0.9],
                                        run="new", estimator="X_I", measure="P@10")
    found = plots.artists(ax)
    assert _xticks(ax) == ["b", "c", "a"]
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


# =============================================================================== static plots
def test_depth_curves_plot_draws_means_with_intervals_and_cases():
    rows = []
    for depth, case in ((10, 3), (100, 4)):
        for kind, family in (("measure", "P"), ("assessment", "Judged")):
            for run, base in (("s1", 0.5), ("s2", 0.3)):
                mean = base / (1 if depth == 10 else 2) + (0.2 if kind == "assessment" else 0)
                rows.append({"depth": depth, "kind": kind, "measure": f"{family}@{depth}", "run": run,
                             "mean": mean, "lower": mean - 0.05, "upper": mean + 0.05, "case": case})
    ax = plots.depth_curves_plot(pd.DataFrame(rows))
    found = plots.artists(ax)
    np.testing.assert_allclose(found["measure:s1"].get_ydata(), [0.5, 0.25])
    np.testing.assert_allclose(found["assessment:s2"].get_ydata(), [0.5, 0.35])
    # the two runs dodged sideways by DODGE (log10) around each depth; ticks at the depths themselves
    np.testing.assert_allclose(found["measure:s1"].get_xdata(), np.array([10, 100]) * 10 ** (-DODGE / 2))
    np.testing.assert_allclose(found["measure:s2"].get_xdata(), np.array([10, 100]) * 10 ** (DODGE / 2))
    np.testing.assert_array_equal(ax.get_xticks(), [10, 100])
    assert DODGE > 0 and (found["measure:s2"].get_xdata() > found["measure:s1"].get_xdata()).all()
    assert {t.get_text() for t in ax.texts} == {"case 3", "case 4"}
    # the papers' names, with k the measurement depth (d is the pool depth in every notebook)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == [
        "A_p@k — s1", "A_p@k — s2", "P@k — s1", "P@k — s2"]
    assert ax.get_xlabel() == "measurement depth k"
    curves = pd.DataFrame(rows)
    curves.attrs = {"procedure": "paired t-test (no correction), α = 0.01"}
    assert plots.depth_curves_plot(curves).get_title() == "cases by paired t-test (no correction), α = 0.01"


def test_depth_curves_plot_case_labels_and_title_do_not_overlap_at_the_papers_depths():
    depths = (10, 30, 100, 500, 1000)
    rows = [{"depth": d, "kind": kind, "measure": f"{family}@{d}", "run": run, "mean": 0.3, "lower": 0.2,
             "upper": 0.4, "case": 2}
            for d in depths for kind, family in (("measure", "P"), ("assessment", "Judged")) for run in ("s1", "s2")]
    ax = plots.depth_curves_plot(pd.DataFrame(rows), title="a pair: P@d")
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts] + [ax.title.get_window_extent(renderer)]
    assert len(boxes) == len(depths) + 1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)
    assert ax.get_title() == "a pair: P@d"


def test_ranked_runs_plot_ranks_by_the_measure_and_keeps_each_runs_assessment():
    means = pd.DataFrame({"AP": [0.2, 0.4, 0.1], "Judged@100": [0.9, 0.5, 0.7]},
                         index=pd.Index(["a", "b", "c"], name="run"))
    ax = plots.ranked_runs_plot(means, measure="AP", assessment="Judged@100")
    found = plots.artists(ax)
    np.testing.assert_allclose(found["measure"].get_ydata(), [0.4, 0.2, 0.1])
    np.testing.assert_allclose(found["assessment"].get_ydata(), [0.5, 0.9, 0.7])
    assert _xticks(ax) == ["b", "a", "c"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["AP", "A_p@100"]   # not "Judged@100"
    with pytest.raises(ValueError, match="no column 'MAP'"):
        plots.ranked_runs_plot(means, measure="MAP", assessment="Judged@100")


def test_background_rate_plot_draws_the_fit_and_e():
    # fractions 0.1·x at 1..4 runs; the line 0.1·x reads 0 at zero runs
    fit = BackgroundRateFit(num_runs=np.array([0, 1, 2, 3, 4]), judged=np.array([5, 10, 10, 10, 10]),
                            relevant=np.array([1, 1, 2, 3, 4]), fraction=np.array([0.2, 0.1, 0.2, 0.3, 0.4]),
                            in_fit=np.array([False, True, True, True, True]), coefficients=np.array([0.1, 0.0]),
                            rate=0.0, intercept=0.0, overall=0.2, depth=10, degree=1)
    ax = plots.background_rate_plot(fit)
    found = plots.artists(ax)
    np.testing.assert_allclose(found["fraction"].get_ydata(), [0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(found["outside"].get_ydata(), [0.2])
    np.testing.assert_allclose(found["fit"].get_ydata(), 0.1 * found["fit"].get_xdata())
    assert found["rate"].get_ydata()[0] == 0.0 and found["rate"].get_label() == "E = 0.000"
    assert "not in the fit" in [t.get_text() for t in ax.get_legend().get_texts()]
    # the estimate beside the truth, and a clipped fit says so
    clipped = BackgroundRateFit(num_runs=np.array([1, 2]), judged=np.array([10, 10]), relevant=np.array([2, 6]),
                                fraction=np.array([0.2, 0.6]), in_fit=np.array([True, True]),
                                coefficients=np.array([0.4, -0.2]), rate=0.0, intercept=-0.2, overall=0.4,
                                depth=10, degree=1)
    ax = plots.background_rate_plot(clipped, truth=0.25)
    found = plots.artists(ax)
    # every point is in the fit: no legend entry for points that do not exist (notebook 02's Fig. 1)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "fraction relevant", "degree-1 fit", "E = 0.000 (fit -0.200, clipped)", "true rate 0.250"]
    assert found["rate"].get_label() == "E = 0.000 (fit -0.200, clipped)"
    assert found["truth"].get_ydata()[0] == 0.25 and found["truth"].get_label() == "true rate 0.250"
    assert ax.get_ylim()[0] == pytest.approx(-0.2)
    with pytest.raises(ValueError, match="truth must be a rate in \\[0, 1\\], got 1.5"):
        plots.background_rate_plot(clipped, truth=1.5)


def test_separability_and_subsampling_plots_draw_the_tidy_rows():
    sep = pd.DataFrame({"measure": "P@10", "run_set": "contributing", "estimator": ["X_S"] * 3 + ["X_M"] * 3,
                        "budget": [10, 100, 1000] * 2, "fraction": [0.1, 0.3, 0.6, 0.2, 0.4, 0.6]})
    ax = plots.separability_plot(sep, measure="P_10")
    line = plots.artists(ax)["separability:P@10:contributing:X_M"]
    np.testing.assert_allclose(line.get_ydata(), [0.2, 0.4, 0.6])
    with pytest.raises(ValueError, match="no run_set 'other'"):
        plots.separability_plot(sep, run_set="other")
    curves = pd.DataFrame({"fraction": [0.8, 0.05, 0.4] * 2, "repeat": 0, "measure": ["AP"] * 3 + ["Bpref"] * 3,
                           "kendall_tau": [0.9, 0.5, 0.8, 0.95, 0.9, 0.93], "mean_score": 0.2, "tau_ap": 0.5})
    ax = plots.subsampling_plot(curves)
    np.testing.assert_allclose(plots.artists(ax)["subsampling:AP:0"].get_ydata(), [0.5, 0.8, 0.9])
    np.testing.assert_allclose(plots.artists(ax)["subsampling:Bpref:0"].get_xdata(), [0.05, 0.4, 0.8])


# =============================================================================== legibility
SMALLEST_FONT: dict[str, float] = {}  # test → smallest text size (points) in its figures


def _texts(figure):
    """Every visible, non-empty text of a drawn figure (titles, labels, tick labels, legends)."""
    from matplotlib.text import Text

    figure.canvas.draw()
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


@pytest.fixture(autouse=True)
def every_text_is_legible(request):
    """After each test: every text in every figure it left open is at least 9 pt
    (:data:`irnb.plots.MIN_FONT`); the smallest size per test is kept in SMALLEST_FONT."""
    yield
    sizes = []
    for number in plt.get_fignums():
        texts = _texts(plt.figure(number))
        small = [(t.get_text()[:30], t.get_fontsize()) for t in texts if t.get_fontsize() < plots.MIN_FONT]
        assert small == [], f"{request.node.name}: texts under {plots.MIN_FONT} pt: {small[:5]}"
        sizes += [t.get_fontsize() for t in texts]
    if sizes:
        SMALLEST_FONT[request.node.name] = min(sizes)
    plt.close("all")


def test_legends_sit_outside_the_data_and_name_only_drawn_artists(intervals):
    ax = plots.intervals_plot(intervals)  # no estimates, no truth: their entries are left out
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["[B, T]"]
    ax.figure.canvas.draw()
    box, data = legend.get_window_extent(), ax.get_window_extent()
    assert box.y1 <= data.y0  # below the Axes


def test_depth_axes_read_in_plain_numbers():
    results = {d: _bias_result([[1, 2, 3]] * 2, [[1, 3, 2]] * 2, tau=(0.9, 0.8 + d / 1000))
               for d in (5, 10, 20, 50, 100)}
    ax = plots.tau_depth_plot(results, current=20)
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
    assert {"10", "20", "50", "100"} <= set(labels) and not any("^" in x or "10^" in x for x in labels), labels


def test_measure_label_gives_the_papers_name_for_assessment_precision():
    assert plots.measure_label("Judged@20") == "A_p@20"
    assert plots.measure_label("Judged") == "A_p"
    assert [plots.measure_label(m) for m in ("P@20", "JudgedRet@20", "MAA", "NotUnj@10")] == [
        "P@20", "JudgedRet@20", "MAA", "NotUnj@10"]   # the other readings keep their own names


def test_figure_checks_catch_each_problem():
    """The checks the notebooks' figures pass (tests/figure_checks.py) do fail on each problem."""
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "o-", label="a")
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "o-", label="b")        # on top of a, same cue: hidden, colour only
    ax.plot([], [], "s", label="nothing")                        # an entry without points
    ax.set_xscale("log")
    ax.legend(loc="center")                                      # over the data
    problems = " | ".join(figure_problems(fig))
    for words in ("the legend covers", "'a' is drawn exactly under 'b'", "told apart by colour only",
                  "names 'nothing', which has no points", "not plain numbers"):
        assert words in problems, (words, problems)
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], color="0.7", linewidth=6, label="wide, underneath")
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "s--", linewidth=1.5, label="thin, on top")
    ax.set_xscale("log")
    ax.set_xticks([1, 2, 3], ["1", "2", "3"])
    ax.xaxis.set_minor_formatter("")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    assert figure_problems(fig) == []


@pytest.mark.parametrize("draw", ["ranked_runs", "depth_curves", "background_rate", "tau_depth", "intervals"])
def test_the_kits_figures_pass_the_figure_checks(draw, intervals):
    if draw == "ranked_runs":
        means = pd.DataFrame({"P@20": [0.2, 0.4, 0.1], "Judged@20": [0.9, 0.5, 0.7]}, index=["a", "b", "c"])
        ax = plots.ranked_runs_plot(means, measure="P@20", assessment="Judged@20")
    elif draw == "depth_curves":
        rows = [{"depth": d, "kind": kind, "measure": f"{family}@{d}", "run": run, "mean": m + up,
                 "lower": m + up - 0.05, "upper": m + up + 0.05, "case": 3} for d in (10, 100) for kind, family, up in
                (("measure", "P", 0.0), ("assessment", "Judged", 0.3)) for run, m in (("s1", 0.5), ("s2", 0.3))]
        ax = plots.depth_curves_plot(pd.DataFrame(rows))
    elif draw == "background_rate":
        fit = BackgroundRateFit(num_runs=np.array([1, 2, 3]), judged=np.array([10, 10, 10]),
                                relevant=np.array([2, 5, 8]), fraction=np.array([0.2, 0.5, 0.8]),
                                in_fit=np.array([True, True, True]), coefficients=np.array([0.3, -0.1]),
                                rate=0.0, intercept=-0.1, overall=0.5, depth=10, degree=1)
        ax = plots.background_rate_plot(fit, truth=0.1)
    elif draw == "tau_depth":
        results = {d: _bias_result([[1, 2, 3]] * 2, [[1, 3, 2]] * 2, tau=(0.9, 0.8 + d / 1000)) for d in (5, 10, 50)}
        ax = plots.tau_depth_plot(results, current=10)
    else:
        ax = plots.intervals_plot(intervals, estimates=point_estimates(intervals), truth=[0.3, 0.5, 0.2])
    assert figure_problems(ax.figure) == []


def test_series_style_never_leaves_colour_as_the_only_cue():
    styles = [tuple(plots.series_style(i).values()) for i in range(64)]
    assert len(set(styles)) == 64                                     # no two of the first 64 series alike
    assert all(colour in plots.PALETTE for colour, _, _ in styles)    # Okabe–Ito colours only
    assert len({(m, ls) for _, m, ls in styles[:8]}) == 8             # the first 8 differ without colour too


@pytest.mark.parametrize("reproduction", [r for r in __import__("irnb").reproduction_ids() if "-fig" in r])
def test_reproduction_figures_the_notebooks_show_pass_the_figure_checks(reproduction):
    """Every reproduced figure the notebooks show (irnb.teaching.show_reproduction) passes the checks; three
    broke them (Baillie 2008 Fig. 12's legend over the runs, Büttcher Fig. 1's ten measures told apart by
    colour alone, Ravana Fig. 2's X_S hidden under X_B and its judgments axis in 10²/10³)."""
    import irnb

    drawn = irnb.reproduce(reproduction).figure()
    first = np.ravel(np.asarray(drawn, dtype=object))[0] if isinstance(drawn, (list, tuple, np.ndarray)) else drawn
    figure = first if hasattr(first, "savefig") else first.figure
    assert figure_problems(figure) == []
    texts = [t.get_text() for t in figure.findobj(lambda a: hasattr(a, "get_text"))]
    assert not any("Judged@" in t for t in texts), [t for t in texts if "Judged@" in t]   # A_p@k, as in the text
