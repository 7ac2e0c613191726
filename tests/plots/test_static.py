"""irnb.plots.static: the papers' static plots (depth curves, ranked runs, background rate,
separability and subsampling) draw the tidy rows they are given."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from irnb import plots  # noqa: E402
from irnb.plots.static import DODGE  # noqa: E402
from irnb.intervals import BackgroundRateFit  # noqa: E402


from plot_checks import xtick_texts  # noqa: E402
from plot_checks import every_text_is_legible  # noqa: E402,F401  (autouse: each figure's texts ≥ MIN_FONT)


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
    assert xtick_texts(ax) == ["b", "a", "c"]
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
