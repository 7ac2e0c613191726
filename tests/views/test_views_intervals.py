"""irnb.views.intervals without a browser: the intervals view's sliders come from the core's
declarations; setting a control's ``.value`` changes the intervals and estimates the plot's
artists show to what the core returns for the new setting; invalid combinations show a
message instead of raising."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import D, expected_rows, interval_segments, shown_rows, shows_error, small_experiment  # noqa: E402

from irnb import evaluate, widgets  # noqa: E402
from irnb.intervals import INTERVAL_PARAMS, point_estimates, score_intervals  # noqa: E402
from irnb.papers.registry import pool_depth_rule  # noqa: E402
from irnb.pooling import POOL_PARAMS, depth_pool  # noqa: E402
from irnb.views import layout  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


def test_sliders_take_bounds_defaults_and_symbols_from_the_declarations(experiment):
    view = widgets.intervals_view(experiment)
    c = view.controls
    d, k = POOL_PARAMS["depth"], INTERVAL_PARAMS["measurement_depth"]
    E, lam = INTERVAL_PARAMS["background_rate"], INTERVAL_PARAMS["smoothing"]
    # the pool depth starts at the data's own (the simulated qrels were pooled to depth 20)
    assert (c["depth"].min, c["depth"].max, c["depth"].value) == (d.low, D, pool_depth_rule(experiment).depth)
    assert c["depth"].value == 20
    assert (c["measurement_depth"].min, c["measurement_depth"].max, c["measurement_depth"].value) == (k.low, D, 10)
    rates = c["background_rate"].options
    assert (rates[0], rates[-1], c["background_rate"].value) == (E.low, E.high, 0.01)
    assert (c["smoothing"].min, c["smoothing"].max) == (lam.low, lam.high)
    assert c["depth"].description == "pool depth d" and c["measurement_depth"].description == "measurement depth k"
    assert c["background_rate"].description == "E (background rate)" and c["smoothing"].description == "λ (smoothing)"
    assert c["depth"].tooltip == d.doc and c["background_rate"].tooltip == E.doc
    assert c["auto_smoothing"].description == "λ = 1 − Δ" and c["auto_smoothing"].value is True
    assert c["smoothing"].disabled  # λ = 1 − Δ: the λ slider is off
    c["auto_smoothing"].value = False
    assert not c["smoothing"].disabled
    # the one-line description sits beside each slider
    sidebar, plot = view.widget.children  # the controls beside the plot
    assert sidebar.layout.width == layout.SIDEBAR_WIDTH and view._canvas_widget in plot.children
    helps = [child.value for child in sidebar.children if isinstance(child, ipywidgets.HTML)]
    assert any("a contributing run ranks it at depth ≤ d" in h for h in helps)
    assert any("probability that an unjudged document is relevant" in h for h in helps)
    contributing = zip(experiment.run_names, experiment.contributors, strict=True)
    assert list(c["contributors"].value) == [n for n, x in contributing if x]


def test_pool_depth_change_shows_the_cores_intervals_for_the_new_depth(experiment):
    view = widgets.intervals_view(experiment)
    collection = view.artists["runs"]["intervals"]
    shown = {}
    for depth in (2, 15):
        view.controls["depth"].value = depth
        assert not shows_error(view), view.status.value
        iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=depth))
        est = point_estimates(iv, background_rate=0.01, smoothing="auto").means()["X_M"]
        seg = interval_segments(view, "runs")
        np.testing.assert_allclose(seg[:, :, 0], expected_rows(view, "runs", iv.mean_lower, iv.mean_upper,
                                                                experiment.run_names))
        np.testing.assert_allclose(view.artists["runs"]["estimate"].get_xdata(),
                                   est.loc[shown_rows(view.axes["runs"])].to_numpy())
        assert f"depth-{depth} pool" in view.status.value
        shown[depth] = seg[:, :, 0].copy()
    assert not np.allclose(np.sort(shown[2], axis=0), np.sort(shown[15], axis=0))  # the depth mattered
    assert view.artists["runs"]["intervals"] is collection  # updated in place
    assert len(view.figure.axes) == 2


def test_estimator_e_and_lambda_controls_change_the_point_estimates(experiment):
    view = widgets.intervals_view(experiment)
    c = view.controls
    c["depth"].value = 3
    c["estimator"].value = "B"
    c["background_rate"].value = 0.5
    iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=3))
    expected = point_estimates(iv, background_rate=0.5).means()
    np.testing.assert_allclose(view.artists["runs"]["estimate"].get_xdata(),
                               expected["X_B"].loc[shown_rows(view.axes["runs"])].to_numpy())
    c["estimator"].value = "M"
    c["auto_smoothing"].value = False
    c["smoothing"].value = 0.2
    expected = point_estimates(iv, background_rate=0.5, smoothing=0.2).means()
    np.testing.assert_allclose(view.artists["runs"]["estimate"].get_xdata(),
                               expected["X_M"].loc[shown_rows(view.axes["runs"])].to_numpy())
    assert "λ = 0.2" in view.status.value
    # per-topic panel: the selected run's X_M per evaluated topic
    run = experiment.run_names[5]
    c["run"].value = run
    s = experiment.run_names.index(run)
    per_topic = point_estimates(iv, background_rate=0.5, smoothing=0.2).smoothed[s]
    topics = shown_rows(view.axes["topics"])
    np.testing.assert_allclose(view.artists["topics"]["estimate"].get_xdata(),
                               [per_topic[experiment.topics.index(t)] for t in topics])


def test_measure_and_measurement_depth_and_truth(experiment):
    view = widgets.intervals_view(experiment)
    view.controls["measure"].value = "SDCG@k"
    view.controls["measurement_depth"].value = 20
    iv = score_intervals(experiment, "SDCG@20")  # d = 60 covers the whole official pool
    np.testing.assert_allclose(interval_segments(view, "runs")[:, :, 0],
                               expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    truth = evaluate(experiment, "SDCG@20", truth=True).aggregate("SDCG@20")
    index = [experiment.run_names.index(r) for r in shown_rows(view.axes["runs"])]
    np.testing.assert_allclose(view.artists["runs"]["truth"].get_xdata(), truth[index])
    assert "SDCG@20" in view.axes["runs"].get_xlabel()


def test_groups_and_top_choose_the_runs_shown(experiment):
    view = widgets.intervals_view(experiment, top=3)
    assert len(shown_rows(view.axes["runs"])) == 3 and "top 3 of 10 runs" in view.status.value
    group = experiment.groups[-1]
    view.controls["groups"].value = (group,)
    members = {n for n, g in zip(experiment.run_names, experiment.groups, strict=True) if g == group}
    assert set(shown_rows(view.axes["runs"])) <= members and len(shown_rows(view.axes["runs"])) == min(3, len(members))


def test_invalid_combinations_show_a_message_and_keep_the_plot(experiment):
    view = widgets.intervals_view(experiment)
    before = interval_segments(view, "runs").copy()
    view.controls["contributors"].value = ()
    assert shows_error(view) and "no contributing run selected" in view.status.value
    np.testing.assert_array_equal(interval_segments(view, "runs"), before)
    view.controls["contributors"].value = (experiment.run_names[0],)
    assert not shows_error(view)  # a pool of that one run's top d documents
    iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=view.controls["depth"].value,
                                                             runs=[experiment.run_names[0]]))
    np.testing.assert_allclose(interval_segments(view, "runs")[:, :, 0],
                               expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    assert not np.allclose(interval_segments(view, "runs"), before)
    view.controls["groups"].value = ()
    assert "no group selected" in view.status.value
    view.controls["groups"].value = tuple(dict.fromkeys(experiment.groups))
    view.controls["measure"].value = "AP@k"  # AP has no score interval: the core says so
    with pytest.raises(ValueError) as core:
        score_intervals(experiment, "AP@10")
    assert shows_error(view) and str(core.value).split(";")[0] in view.status.value
    view.controls["measure"].value = "P@k"
    assert not shows_error(view)


def test_each_step_of_e_changes_the_picture_and_moves_the_estimates(experiment):
    view = widgets.intervals_view(experiment)
    c = view.controls
    c["depth"].value = 5  # a shallow pool: many unjudged documents, as in a lecture's first example
    ax = view.axes["topics"]
    rates = list(c["background_rate"].options)
    assert rates[:3] == [0.0, 0.01, 0.02] and 0.001 not in rates
    moves = []
    for low, high in zip(rates, rates[1:], strict=False):
        xs, pictures = [], []
        for rate in (low, high):
            c["background_rate"].value = rate
            xs.append(np.sort(view.artists["topics"]["estimate"].get_xdata()))
            pictures.append(view._canvas_widget.value)
        assert pictures[0] != pictures[1], (low, high)
        assert f"E = {high:g}" in view.artists["topics"]["estimate"].get_label()  # the legend says which E
        width = ax.get_window_extent().width
        x0, x1 = ax.get_xlim()
        moves.append(float(np.max(np.abs(xs[1] - xs[0]))) * width / (x1 - x0))
    # X_M = B(1 + Δ) + Δ²E: the topic with the largest Δ moves by about Δ² times the step in E (≥ 0.01):
    # in the 560-px figure (layout.PLOT_WIDTH) that is about half a pixel, enough to change the antialiased picture
    assert min(moves) >= 0.4, moves
