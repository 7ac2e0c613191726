"""irnb.widgets without a browser: setting a control's ``.value`` changes the numbers the
plot artists show to what the core returns for the new setting; invalid combinations show
a message instead of raising; artists are updated in place; one shared-data test builds
the explorer on TREC-COVID round 1."""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from irnb import Experiment, evaluate  # noqa: E402
from irnb import widgets  # noqa: E402
from irnb.views import layout  # noqa: E402
from irnb.bias import leave_one_group_out_bias  # noqa: E402
from irnb.datasets import simulate  # noqa: E402
from irnb.datasets.real import trec_covid_round1  # noqa: E402
from irnb.decision import case_matrix, case_proportions, compare_table  # noqa: E402
from irnb.intervals import INTERVAL_PARAMS, point_estimates, score_intervals  # noqa: E402
from irnb.pooling import POOL_PARAMS, depth_pool, unjudged_overlap  # noqa: E402
from irnb.views import bias as bias_module  # noqa: E402
from irnb.views import frames, text_cache  # noqa: E402
from irnb.views import unjudged as unjudged_module  # noqa: E402
from irnb.papers.registry import pool_depth_rule  # noqa: E402
from irnb.views.decision import only_runs  # noqa: E402

D = 60  # run depth of the small collection


@pytest.fixture(scope="module")
def experiment() -> Experiment:
    return simulate(seed=3, num_topics=8, num_runs=10, num_groups=4, docs_per_topic=400, run_depth=D,
                    pool_depth=20, median_relevant=10, novel_runs=1, keyword_runs=1).experiment


def _rows(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def _segments(view, panel: str) -> np.ndarray:
    return np.asarray(view.artists[panel]["intervals"].get_segments())


def _expected_rows(view, panel: str, lower: np.ndarray, upper: np.ndarray, names) -> np.ndarray:
    """The core's (B, T) in the order the plot shows its rows."""
    index = {n: i for i, n in enumerate(names)}
    rows = [index[r] for r in _rows(view.axes[panel])]
    return np.column_stack([lower[rows], upper[rows]])


def _error(view) -> bool:
    return "⚠" in view.status.value


# =============================================================================== controls
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


# =============================================================================== intervals view
def test_pool_depth_change_shows_the_cores_intervals_for_the_new_depth(experiment):
    view = widgets.intervals_view(experiment)
    collection = view.artists["runs"]["intervals"]
    shown = {}
    for depth in (2, 15):
        view.controls["depth"].value = depth
        assert not _error(view), view.status.value
        iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=depth))
        est = point_estimates(iv, background_rate=0.01, smoothing="auto").means()["X_M"]
        seg = _segments(view, "runs")
        np.testing.assert_allclose(seg[:, :, 0], _expected_rows(view, "runs", iv.mean_lower, iv.mean_upper,
                                                                experiment.run_names))
        np.testing.assert_allclose(view.artists["runs"]["estimate"].get_xdata(),
                                   est.loc[_rows(view.axes["runs"])].to_numpy())
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
                               expected["X_B"].loc[_rows(view.axes["runs"])].to_numpy())
    c["estimator"].value = "M"
    c["auto_smoothing"].value = False
    c["smoothing"].value = 0.2
    expected = point_estimates(iv, background_rate=0.5, smoothing=0.2).means()
    np.testing.assert_allclose(view.artists["runs"]["estimate"].get_xdata(),
                               expected["X_M"].loc[_rows(view.axes["runs"])].to_numpy())
    assert "λ = 0.2" in view.status.value
    # per-topic panel: the selected run's X_M per evaluated topic
    run = experiment.run_names[5]
    c["run"].value = run
    s = experiment.run_names.index(run)
    per_topic = point_estimates(iv, background_rate=0.5, smoothing=0.2).smoothed[s]
    topics = _rows(view.axes["topics"])
    np.testing.assert_allclose(view.artists["topics"]["estimate"].get_xdata(),
                               [per_topic[experiment.topics.index(t)] for t in topics])


def test_measure_and_measurement_depth_and_truth(experiment):
    view = widgets.intervals_view(experiment)
    view.controls["measure"].value = "SDCG@k"
    view.controls["measurement_depth"].value = 20
    iv = score_intervals(experiment, "SDCG@20")  # d = 60 covers the whole official pool
    np.testing.assert_allclose(_segments(view, "runs")[:, :, 0],
                               _expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    truth = evaluate(experiment, "SDCG@20", truth=True).aggregate("SDCG@20")
    index = [experiment.run_names.index(r) for r in _rows(view.axes["runs"])]
    np.testing.assert_allclose(view.artists["runs"]["truth"].get_xdata(), truth[index])
    assert "SDCG@20" in view.axes["runs"].get_xlabel()


def test_groups_and_top_choose_the_runs_shown(experiment):
    view = widgets.intervals_view(experiment, top=3)
    assert len(_rows(view.axes["runs"])) == 3 and "top 3 of 10 runs" in view.status.value
    group = experiment.groups[-1]
    view.controls["groups"].value = (group,)
    members = {n for n, g in zip(experiment.run_names, experiment.groups, strict=True) if g == group}
    assert set(_rows(view.axes["runs"])) <= members and len(_rows(view.axes["runs"])) == min(3, len(members))


def test_invalid_combinations_show_a_message_and_keep_the_plot(experiment):
    view = widgets.intervals_view(experiment)
    before = _segments(view, "runs").copy()
    view.controls["contributors"].value = ()
    assert _error(view) and "no contributing run selected" in view.status.value
    np.testing.assert_array_equal(_segments(view, "runs"), before)
    view.controls["contributors"].value = (experiment.run_names[0],)
    assert not _error(view)  # a pool of that one run's top d documents
    iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=view.controls["depth"].value,
                                                             runs=[experiment.run_names[0]]))
    np.testing.assert_allclose(_segments(view, "runs")[:, :, 0],
                               _expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    assert not np.allclose(_segments(view, "runs"), before)
    view.controls["groups"].value = ()
    assert "no group selected" in view.status.value
    view.controls["groups"].value = tuple(dict.fromkeys(experiment.groups))
    view.controls["measure"].value = "AP@k"  # AP has no score interval: the core says so
    with pytest.raises(ValueError) as core:
        score_intervals(experiment, "AP@10")
    assert _error(view) and str(core.value).split(";")[0] in view.status.value
    view.controls["measure"].value = "P@k"
    assert not _error(view)


def test_k_beyond_a_runs_depth_shows_a_message():
    runs = pd.DataFrame({"run": ["short"] * 3 + ["long"] * 8, "qid": "1",
                         "docno": [f"d{i}" for i in range(3)] + [f"d{i}" for i in range(8)],
                         "score": list(range(3, 0, -1)) + list(range(8, 0, -1))})
    qrels = pd.DataFrame({"qid": "1", "docno": ["d0", "d1", "d5"], "grade": [1, 0, 1]})
    exp = Experiment(runs, qrels)
    view = widgets.unjudged_view(exp)
    view.controls["run_a"].value, view.controls["run_b"].value = "long", "long"
    view.controls["measurement_depth"].value = 5
    assert not _error(view)
    view.controls["run_a"].value = "short"
    assert _error(view) and "measurement depth k = 5 is beyond the depth of short (3 documents" in view.status.value
    view.controls["measurement_depth"].value = 3
    assert not _error(view)
    intervals = widgets.intervals_view(exp)
    intervals.controls["groups"].value = ("short",)  # each run is its own group
    intervals.controls["measurement_depth"].value = 6
    assert "beyond the depth of short" in intervals.status.value


# =============================================================================== other views
def test_decision_view_shows_the_cores_cases_for_the_new_pool(experiment):
    view = widgets.decision_view(experiment, top=6)
    image = view.artists["matrix"]["cases"]
    view.controls["depth"].value = 4
    pool = depth_pool(experiment, depth=4)
    ev = evaluate(experiment, ["P@10", "Judged@10"], judged=pool.judged)
    order = ev.means()["P@10"].sort_values(ascending=False, kind="stable").index[:6]
    expected = case_matrix(compare_table(ev, "P@10")).loc[order, order].to_numpy()
    shown = view.artists["matrix"]["cases"].get_array()
    np.testing.assert_array_equal(np.where(shown.mask, 0, shown.data), np.nan_to_num(expected))
    assert [t.get_text() for t in view.axes["matrix"].get_xticklabels()] == list(order)
    assert view.artists["matrix"]["cases"] is image
    table = case_proportions({pool.description: (experiment, pool.judged)}, measures=["P@10", "P@30", "AP"])
    np.testing.assert_allclose(view.artists["proportions"]["proportions"].get_array(),
                               table.iloc[0].to_numpy().reshape(3, 4))  # P@100 … P@1000 exceed depth 60
    # the papers' procedure by default, and both panels say so
    assert view.test == "anova" and view.alpha == 0.05
    caption = "one-way ANOVA + Bonferroni multiple comparisons, α = 0.05"
    assert view.axes["matrix"].get_title().endswith(caption)
    assert view.axes["proportions"].get_title().replace("\n", " ").endswith(caption)  # wrapped to fit


def test_bias_view_shows_the_left_out_runs_for_the_new_depth(experiment):
    view = widgets.bias_view(experiment, depths=(5, 20))
    view.controls["depth"].value = 8
    contributors = [n for n, x in zip(experiment.run_names, experiment.contributors, strict=True) if x]
    result = leave_one_group_out_bias(experiment, depth=8, measures=["AP", "Bpref"], contributors=contributors,
                                      reference="pool")
    lines = view.artists["rank"]
    for m, name in enumerate(("AP", "Bpref")):
        np.testing.assert_array_equal(lines[f"bias:{name}"].get_xdata(), result.reference_rank[m, result.left_out])
        np.testing.assert_array_equal(lines[f"bias:{name}"].get_ydata(), result.rank_change[m, result.left_out])
    tau = view.artists["tau"]["tau:AP"]
    np.testing.assert_array_equal(tau.get_xdata(), [5, 8, 20])
    assert tau.get_ydata()[1] == pytest.approx(result.kendall_tau[0])
    assert list(view.artists["tau"]["current"].get_xdata()) == [8, 8]


def test_bias_view_redraws_a_recent_contributor_set_from_its_results(experiment, monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append((kwargs["depth"], tuple(kwargs["contributors"])))
        return leave_one_group_out_bias(*args, **kwargs)

    monkeypatch.setattr(bias_module, "leave_one_group_out_bias", counted)
    view = widgets.bias_view(experiment, depths=(5, 10))  # the slider starts off the curve (the data's depth)
    contributors = view.controls["contributors"]
    everyone = tuple(contributors.value)
    first = view.artists["rank"]["bias:AP"].get_ydata().copy()
    assert sorted(d for d, _ in calls) == [5, 10, view.controls["depth"].value]
    contributors.value = everyone[1:]  # a run toggled off: every depth of the τ curve again
    assert len(calls) == 6 and {c for _, c in calls[3:]} == {everyone[1:]}
    contributors.value = everyone  # ... and on again: the same picture, from the kept results
    assert len(calls) == 6
    np.testing.assert_array_equal(view.artists["rank"]["bias:AP"].get_ydata(), first)
    for _ in range(view.kept_sets):  # other sets push it out: computed again
        contributors.value = everyone[: len(everyone) - 1 - _]
    calls.clear()
    contributors.value = everyone
    assert len(calls) == 3


def test_bias_view_keeps_the_last_depths_off_its_curve(experiment, monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs["depth"])
        return leave_one_group_out_bias(*args, **kwargs)

    monkeypatch.setattr(bias_module, "leave_one_group_out_bias", counted)
    view = widgets.bias_view(experiment, depths=(5, 20))
    depth = view.controls["depth"]
    depth.value = 8
    depth.value = 12
    first = view.artists["rank"]["bias:AP"].get_ydata().copy()
    calls.clear()
    depth.value = 8  # back and forth: both kept
    depth.value = 12
    assert calls == []
    np.testing.assert_array_equal(view.artists["rank"]["bias:AP"].get_ydata(), first)
    for d in range(21, 21 + view.kept_depths):  # newer depths push 8 and 12 out: computed again
        depth.value = d
    calls.clear()
    depth.value = 8
    assert calls == [8]


def test_unjudged_view_shows_the_cores_counts_and_simulated_precision(experiment):
    view = widgets.unjudged_view(experiment)
    a, b = experiment.run_names[0], experiment.run_names[7]
    view.controls["run_a"].value, view.controls["run_b"].value = a, b
    view.controls["depth"].value = 5
    view.controls["measurement_depth"].value = 15
    pool = depth_pool(experiment, depth=5)
    table = unjudged_overlap(experiment, a, b, measurement_depth=15, pool=pool)
    order = np.argsort(table["unjudged_b"].to_numpy(), kind="stable")
    found = view.artists["unjudged"]
    np.testing.assert_array_equal(found["unjudged_a"].get_ydata(), table["unjudged_a"].to_numpy()[order])
    np.testing.assert_array_equal(found["overlap"].get_ydata(), table["overlap"].to_numpy()[order])
    np.testing.assert_allclose(found["difference"].get_ydata(), table["score_difference"].to_numpy()[order])
    iv = score_intervals(experiment, "P@15", pool=pool)
    s = experiment.run_names.index(b)
    original, simulated = iv.lower[s], point_estimates(iv).smoothed[s]
    order = np.lexsort((np.arange(original.size), original))
    np.testing.assert_allclose(view.artists["simulated"]["original"].get_ydata(), original[order])
    np.testing.assert_allclose(view.artists["simulated"]["simulated"].get_ydata(), simulated[order])


def test_unjudged_view_keeps_the_overlap_while_only_the_estimate_changes(experiment, monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs["measurement_depth"])
        return unjudged_overlap(*args, **kwargs)

    monkeypatch.setattr(unjudged_module, "unjudged_overlap", counted)
    view = widgets.unjudged_view(experiment)
    b = view.controls["run_b"].value
    view.controls["background_rate"].value = 0.02
    view.controls["estimator"].value = "I"
    assert len(calls) == 1  # E and the estimator cannot change the overlap
    view.controls["measurement_depth"].value = 7
    assert calls[-1] == 7 and len(calls) == 2
    # Fig. 7.2's unjudged counts (k·Δ of the P@k interval) are the overlap table's, topic by topic
    table = unjudged_overlap(experiment, view.controls["run_a"].value, b, measurement_depth=7,
                             pool=depth_pool(experiment, depth=view.controls["depth"].value))
    answered = table["evaluated"].to_numpy(bool)
    iv = score_intervals(experiment, "P@7", pool=depth_pool(experiment, depth=view.controls["depth"].value))
    original = iv.lower[experiment.run_names.index(b)][answered]
    order = np.lexsort((np.arange(original.size), original))
    np.testing.assert_array_equal(view.artists["simulated"]["unjudged"].get_ydata(),
                                  table["unjudged_b"].to_numpy(np.float64)[answered][order])


# =============================================================================== explorer, rendering
def test_explorer_redraws_the_visible_tab_and_the_others_when_shown(experiment):
    ex = widgets.explorer(experiment)
    assert list(ex.views) == ["intervals", "decision matrix", "bias", "unjudged documents"]
    assert [ex.tabs.get_title(i) for i in range(len(ex.views))] == list(ex.views)  # in ipywidgets 7 and 8
    assert ex.artists["bias"]["rank"] == {}  # hidden tabs draw when first shown
    ex.controls["depth"].value = 6
    assert "depth-6 pool" in ex.views["intervals"].status.value
    assert ex.views["bias"].stale and ex.artists["bias"]["rank"] == {}
    bias = ex.select("bias")
    assert not bias.stale and "depth 6" in bias.status.value
    ex.select("intervals")
    ex.controls["depth"].value = 9
    assert "depth 6" in bias.status.value and bias.stale  # hidden: not recomputed
    assert "depth 9" in ex.select("bias").status.value
    with pytest.raises(ValueError, match="unknown view 'tau'"):
        ex.select("tau")


def test_png_fallback_rerenders_the_same_figure(experiment):
    view = widgets.intervals_view(experiment)
    assert view.canvas == "png" and isinstance(view._canvas_widget, ipywidgets.Image)
    first = view._canvas_widget.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    figure, axes = view.figure, list(view.figure.axes)
    start = view.controls["depth"].value
    for depth in (2, 7, 1, 30):
        view.controls["depth"].value = depth
        assert view._canvas_widget.value != first
    assert view.figure is figure and list(view.figure.axes) == axes
    view.controls["depth"].value = start  # back to the first setting: the very same picture
    assert view._canvas_widget.value == first
    assert view.layouts == 1  # laid out once, with room for the longest run name
    assert set(view.timings) >= {"core", "artists", "draw", "total"}


@pytest.fixture
def keep_backend():
    """Importing ipympl makes it matplotlib's backend (ipympl/__init__.py): restore Agg."""
    backend = matplotlib.get_backend()
    yield
    matplotlib.use(backend)


@pytest.mark.filterwarnings("ignore:Passing unrecognized arguments:DeprecationWarning")  # ipympl's Toolbar
def test_ipympl_canvas_is_the_widget_when_asked(experiment, keep_backend):
    pytest.importorskip("ipympl")
    view = widgets.intervals_view(experiment, canvas="ipympl")
    assert view.canvas == "ipympl" and view._canvas_widget is view.figure.canvas
    assert isinstance(view.figure.canvas, ipywidgets.DOMWidget)
    from ipympl.backend_nbagg import Canvas

    assert type(view.figure.canvas) is text_cache.text_cache_canvas(Canvas)  # ipympl's own, text from bitmaps
    view.controls["depth"].value = 2
    iv = score_intervals(experiment, "P@10", pool=depth_pool(experiment, depth=2))
    np.testing.assert_allclose(_segments(view, "runs")[:, :, 0],
                               _expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    # with the ipympl backend active, "auto" picks the ipympl canvas too
    assert widgets.unjudged_view(experiment).canvas == "ipympl"


def test_the_ipympl_canvas_without_ipympl_says_what_to_use(experiment, monkeypatch):
    monkeypatch.setitem(sys.modules, "ipympl.backend_nbagg", None)  # as where ipympl is not installed (Colab)
    with pytest.raises(ImportError, match="canvas='ipympl' needs the ipympl package.*canvas='auto' or 'png'"):
        widgets.intervals_view(experiment, canvas="ipympl")
    assert widgets.intervals_view(experiment).canvas == "png"  # auto, with the inline/Agg backend


def test_views_reject_bad_arguments(experiment):
    with pytest.raises(TypeError, match="expected an irnb.Experiment"):
        widgets.intervals_view("not an experiment")
    with pytest.raises(ValueError, match="top \\(runs shown in a plot\\) must be an integer ≥ 1, got 0"):
        widgets.decision_view(experiment, top=0)
    with pytest.raises(ValueError, match="canvas must be one of"):
        widgets.unjudged_view(experiment, canvas="svg")


# =============================================================================== real data
@pytest.mark.shared
def test_explorer_on_trec_covid_round1(covid_dir):
    exp = trec_covid_round1(covid_dir)  # groups = teams, contributors from the leaderboard
    assert exp.shape == (143, 30, 1000)
    ex = widgets.explorer(exp)
    view = ex.views["intervals"]
    assert view.canvas == "png"
    assert len(_rows(view.axes["runs"])) == 30  # top 30 of 143
    start = time.perf_counter()
    ex.controls["depth"].value = 10
    elapsed = time.perf_counter() - start
    assert not _error(view) and "depth-10 pool of 56 contributing runs" in view.status.value
    iv = score_intervals(exp, "P@10", pool=depth_pool(exp, depth=10))
    np.testing.assert_allclose(_segments(view, "runs")[:, :, 0],
                               _expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, exp.run_names))
    decision = ex.select("decision matrix")
    assert not _error(decision) and decision.artists["matrix"]["cases"].get_array().shape == (20, 20)
    assert "the top 20 of 143 runs" in decision.status.value  # at most 20: names ≥ 9 pt without overlap
    assert elapsed < 5.0  # generous on a shared machine; benchmarks/bench_widgets.py measures ≤ 500 ms
    columns = [t.get_text() for t in decision.axes["matrix"].get_xticklabels()]
    assert columns == [str(i) for i in range(1, 21)]  # long names: the columns numbered, the rows keyed
    assert decision.axes["matrix"].get_yticklabels()[0].get_text().startswith("1 ")
    for name in ex.views:  # TREC-COVID's long run names and titles: no text runs into another
        view = ex.select(name)
        assert overlapping_texts(view.figure) == [], (name, overlapping_texts(view.figure)[:3])
        renderer, (width, height) = view.figure.canvas.get_renderer(), view.figure.canvas.get_width_height()
        for ax in view.figure.axes:
            box = ax.get_tightbbox(renderer)
            assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, (name, box)


# =============================================================================== speed-ups keep the numbers
def _top_cases(experiment, depth, test, top=4):
    """(top runs, cases of the all-pairs table among them, cases of a table over them alone)."""
    ev = evaluate(experiment, ["P@10", "Judged@10"], judged=depth_pool(experiment, depth=depth).judged)
    order = list(ev.means()["P@10"].sort_values(ascending=False, kind="stable").index[:top])
    expected = np.nan_to_num(case_matrix(compare_table(ev, "P@10", test=test)).loc[order, order].to_numpy())
    alone = case_matrix(compare_table(only_runs(ev, order, ev.measures), "P@10", test=test))
    return order, expected, np.nan_to_num(alone.loc[order, order].to_numpy())


@pytest.mark.parametrize("test", ["anova", "wilcoxon"])
def test_decision_matrix_of_the_top_runs_is_the_all_pairs_matrix(experiment, test):
    """The view tests only the shown runs' pairs when the test is pair-local (Wilcoxon),
    every pair when the family matters (ANOVA + Bonferroni): either way the cells equal
    those of the table over all runs. The pool depth is chosen where ANOVA over the top 4
    runs alone gives other cases than over all 10 (a wrong shortcut would show there);
    Wilcoxon gives the same cases either way at every depth."""
    depths = range(1, 21)
    differs = [d for d in depths if not np.array_equal(*_top_cases(experiment, d, "anova")[1:])]
    assert differs, "no pool depth where ANOVA over the top 4 alone differs: the test could not fail"
    depth = differs[0]
    view = widgets.decision_view(experiment, top=4, test=test)
    view.controls["depth"].value = depth
    assert not _error(view), view.status.value
    order, expected, alone = _top_cases(experiment, depth, test)
    shown = view.artists["matrix"]["cases"].get_array()
    np.testing.assert_array_equal(np.where(shown.mask, 0, shown.data), expected)
    assert "45 pairs" in view.status.value  # 10 runs: 10·9/2 pairs, whatever the matrix shows
    assert np.array_equal(alone, expected) == (test == "wilcoxon")


def test_png_frames_are_the_rendered_pixels():
    """A view's frame is the canvas's buffer written as PNG: 3 × 2 pixels placed with
    figimage decode to exactly those pixels, top row first."""
    from io import BytesIO

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    figure = Figure(figsize=(3 / 80, 2 / 80), dpi=80)
    FigureCanvasAgg(figure)
    top = [[250, 100, 0], [1, 2, 3], [255, 255, 255]]
    bottom = [[10, 200, 0], [1, 2, 3], [0, 0, 0]]
    figure.figimage(np.asarray([bottom, top], dtype=np.uint8), origin="lower")  # row 0 at the bottom
    figure.canvas.draw()
    data = frames.png(figure)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = np.asarray(Image.open(BytesIO(data)).convert("RGBA"))
    assert pixels.shape == (2, 3, 4)
    np.testing.assert_array_equal(pixels, np.asarray(figure.canvas.buffer_rgba()))
    np.testing.assert_array_equal(pixels[:, :, :3], [top, bottom])


def _ink(pixels: np.ndarray) -> tuple[float, float, float]:
    """Total darkness of an RGBA picture on white and its centroid (x, y) in pixels."""
    dark = 255.0 - pixels[:, :, :3].astype(np.float64).mean(axis=2)
    total = dark.sum()
    ys, xs = np.indices(dark.shape)
    return total, float((xs * dark).sum() / total), float((ys * dark).sum() / total)


@pytest.mark.parametrize("text, options", [
    ("acorn-a1 · P@10", {"fontsize": 9}),
    ("topic 107", {"fontsize": 7, "rotation": 90, "color": "#D55E00"}),
    ("λ = 1 − Δ", {"fontsize": 11, "rotation": 30, "alpha": 0.5}),
    ("$\\alpha^2$", {"fontsize": 10}),  # mathtext: drawn by matplotlib as usual
])
def test_cached_text_is_matplotlibs_text_on_whole_pixels(text, options):
    """The views' canvas draws each text from a bitmap cache: the same ink as matplotlib's
    own drawing (within 3 %), at most half a pixel away (the origin snaps to a whole
    pixel), in the text's colour; drawn again, the very same pixels, with no new
    rasterisation."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    pictures = []
    for canvas in (FigureCanvasAgg, text_cache.text_cache_canvas(FigureCanvasAgg)):
        figure = Figure(figsize=(2.0, 1.2), dpi=80)
        canvas(figure)
        figure.text(0.3, 0.3, text, **options)
        figure.canvas.draw()
        pictures.append(np.asarray(figure.canvas.buffer_rgba()).copy())
    plain, cached = pictures
    (ink_p, x_p, y_p), (ink_c, x_c, y_c) = _ink(plain), _ink(cached)
    assert ink_c == pytest.approx(ink_p, rel=0.03)
    assert abs(x_c - x_p) <= 0.5 and abs(y_c - y_p) <= 0.5
    if "color" in options:  # fully covered pixels are the text's colour in both
        for picture in (plain, cached):
            darkest = picture[np.unravel_index(np.argmin(picture[:, :, :3].sum(axis=2)), picture.shape[:2])]
            assert list(darkest[:3]) == [0xD5, 0x5E, 0x00]
    entries = len(figure.canvas.text_bitmaps)
    assert entries >= (0 if text.startswith("$") else 1)
    figure.canvas.draw()
    np.testing.assert_array_equal(np.asarray(figure.canvas.buffer_rgba()), cached)
    assert len(figure.canvas.text_bitmaps) == entries


def test_a_redraw_with_the_same_labels_rasterises_no_text(experiment):
    view = widgets.intervals_view(experiment)
    cache = view.figure.canvas.text_bitmaps
    first, entries, start = view._canvas_widget.value, len(cache), view.controls["depth"].value
    view.controls["depth"].value = 7
    view.controls["depth"].value = start  # back: every label seen before
    assert len(cache) > entries  # depth 7 had its own title
    entries = len(cache)
    view.refresh()
    assert len(cache) == entries and view._canvas_widget.value == first


@pytest.mark.parametrize("family", ["sans-serif", "serif", "monospace"])
def test_the_text_canvas_lays_text_out_where_matplotlib_does(family):
    """The text canvas leaves text layout to matplotlib: every text's box — titles, tick
    labels, a two-line rotated label, sizes 7 to 14 pt — is where matplotlib's own Agg
    canvas puts it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    boxes = []
    for canvas in (FigureCanvasAgg, text_cache.text_cache_canvas(FigureCanvasAgg)):
        figure = Figure(figsize=(4.0, 3.0), dpi=80)
        canvas(figure)
        ax = figure.add_subplot()
        ax.set_title("depth-20 pool · P@10", fontsize=14, family=family)
        ax.set_yticks(range(3), ["acorn-a1", "birch-m2", "cedar-k3"], fontsize=9, family=family)
        ax.set_ylabel("rank change\n(reduced − full)", fontsize=11, family=family)
        figure.text(0.5, 0.05, "λ = 1 − Δ", fontsize=7, rotation=30, family=family)
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        texts = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text()]
        boxes.append([(t.get_text(), tuple(np.round(t.get_window_extent(renderer).bounds, 6))) for t in texts])
    plain, cached = boxes
    assert len(plain) >= 6 and cached == plain


@pytest.mark.parametrize("base", ["agg", "ipympl"])
def test_the_canvases_use_no_private_matplotlib_method(base, keep_backend):
    """The text canvas and its renderer change matplotlib's drawing only
    through public methods: none of their own single-underscore methods bears a name that
    matplotlib's or ipympl's source uses (the text canvas once answered matplotlib's private
    ``_get_font_height_metrics``, which matplotlib asks a renderer for by name)."""
    import inspect
    from pathlib import Path

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    packages = [matplotlib]
    if base == "ipympl":
        ipympl = pytest.importorskip("ipympl.backend_nbagg")
        packages.append(pytest.importorskip("ipympl"))
        canvas_class = text_cache.text_cache_canvas(ipympl.Canvas)
    else:
        canvas_class = text_cache.text_cache_canvas(FigureCanvasAgg)
    renderer_class = type(text_cache.text_cache_canvas(FigureCanvasAgg)(Figure()).get_renderer())
    ours = [c for c in (*canvas_class.__mro__, *renderer_class.__mro__) if c.__module__.startswith("irnb.")]
    assert len(ours) == 2  # text canvas, text renderer
    names = {name for c in ours for name, value in vars(c).items()
             if inspect.isfunction(value) and name.startswith("_") and not name.startswith("__")}
    assert names  # the renderer's own helper at least: the check below reads something
    source = "\n".join(path.read_text(encoding="utf-8", errors="replace") for package in packages
                       for path in Path(package.__file__).parent.rglob("*.py"))
    assert sorted(name for name in names if name in source) == []


def test_png_keeps_transparency():
    from io import BytesIO

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    for alpha in (0.5, 1.0):
        figure = Figure(figsize=(0.5, 0.25), dpi=80, facecolor=(1.0, 0.5, 0.0, alpha))
        FigureCanvasAgg(figure)
        image = np.asarray(Image.open(BytesIO(frames.png(figure))).convert("RGBA"))
        assert image.shape == (20, 40, 4)
        np.testing.assert_array_equal(image[0, 0], [255, 128, 0, round(alpha * 255)])



# =============================================================================== no dead controls
def _other_value(experiment, control, name):
    """A value of ``control`` other than its current one that should matter to a view using it."""
    value = control.value
    if name == "depth":
        return 5 if value != 5 else 6
    if name == "measurement_depth":
        return 5 if value != 5 else 20
    if name == "auto_smoothing":
        return not value
    if name == "smoothing":
        return 0.1 if value != 0.1 else 0.9
    if name == "contributors":
        return value[:1] if len(value) > 1 else tuple(experiment.run_names[:3])
    if name == "groups":
        return value[:2] if len(value) > 2 else tuple(dict.fromkeys(experiment.groups))
    if not hasattr(control, "options"):  # a float slider (E before it took 1-2-5 steps)
        return min(control.max, value + 0.01)
    options = [o[1] if isinstance(o, tuple) else o for o in control.options]
    return options[(options.index(value) + 1) % len(options)]  # the next option


def _dead_pairs(ex, experiment, *, respect_locks: bool = True) -> tuple[list[tuple[str, str]], int]:
    """(view, control) pairs where changing an enabled control leaves the view's picture as it
    was, and how many pairs were checked; every control is put back after its change."""
    dead, checked = [], 0
    for name, view in ex.views.items():
        ex.select(name)
        for control_name, control in ex.controls.items():
            checked += 1
            if respect_locks and control.disabled:
                assert control.tooltip.startswith("locked: "), (name, control_name, control.tooltip)
                continue
            before, value = view._canvas_widget.value, control.value
            control.value = _other_value(experiment, control, control_name)
            assert not _error(view), (name, control_name, view.status.value)
            if view._canvas_widget.value == before:
                dead.append((name, control_name))
            control.value = value
            assert view._canvas_widget.value == before, (name, control_name)  # back to the same picture
    return dead, checked


@pytest.mark.parametrize("setting", [{}, {"auto_smoothing": False}, {"estimator": "S"}, {"estimator": "B"},
                                     {"estimator": "I", "auto_smoothing": False}])
def test_every_enabled_control_changes_the_visible_view(experiment, setting):
    ex = widgets.explorer(experiment)
    for name, value in setting.items():
        ex.controls[name].value = value
    dead, checked = _dead_pairs(ex, experiment)
    assert checked == 4 * 12 and dead == []


def test_locked_controls_say_why(experiment):
    ex = widgets.explorer(experiment)
    c = ex.controls
    assert c["smoothing"].disabled and "λ = 1 − Δ" in c["smoothing"].tooltip  # auto λ by default, and why
    assert not c["run"].disabled and c["run_a"].disabled and "unjudged" in c["run_a"].tooltip
    ex.select("bias")
    locked = ex.locked_controls()
    assert set(locked) == {"measurement_depth", "background_rate", "smoothing", "auto_smoothing", "measure",
                           "estimator", "groups", "run", "run_a", "run_b"}
    assert "AP" in c["measure"].tooltip and c["measure"].disabled
    ex.select("decision matrix")
    assert not c["measure"].disabled and c["measure"].tooltip == "the measure; @k takes the measurement depth k"
    assert c["estimator"].disabled and not c["groups"].disabled
    ex.select("unjudged documents")
    assert c["run_a"].disabled is False and c["run"].disabled and c["measure"].disabled
    c["estimator"].value = "S"
    assert c["background_rate"].disabled and "X_S" in c["background_rate"].tooltip


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


def overlapping_texts(figure) -> list[tuple[str, str]]:
    """Pairs of visible texts of ``figure`` (tick labels, titles, axis labels, legend entries)
    whose drawn boxes overlap by more than a pixel each way."""
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    renderer = figure.canvas.get_renderer()
    hidden = {id(t) for legend in figure.findobj(Legend) if not legend.get_visible() for t in legend.findobj(Text)}
    for ax in figure.axes:  # a tick outside the axis's limits keeps its label but is not drawn
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            slack = (high - low) * 1e-9
            hidden |= {id(label) for tick in axis.get_major_ticks() if not low - slack <= tick.get_loc() <= high + slack
                       for label in (tick.label1, tick.label2)}
    boxes = [(text.get_window_extent(renderer), text.get_text()) for text in figure.findobj(Text)
             if text.get_visible() and text.get_text().strip() and id(text) not in hidden]
    return [(a, b) for i, (box, a) in enumerate(boxes) for other, b in boxes[i + 1:]
            if min(box.x1, other.x1) - max(box.x0, other.x0) > 1 and min(box.y1, other.y1) - max(box.y0, other.y0) > 1]


def test_overlapping_texts_finds_a_made_up_overlap():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(3, 2), dpi=80)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.set_yticks([0, 0.01], ["a-long-run-name", "another-run"])  # 0.01 apart: the labels overlap
    figure.canvas.draw()
    assert ("a-long-run-name", "another-run") in overlapping_texts(figure)
    ax.set_yticks([0, 1], ["a-long-run-name", "another-run"])
    figure.canvas.draw()
    assert overlapping_texts(figure) == []


def test_every_text_of_every_live_view_is_legible(experiment):
    from matplotlib.text import Text

    from irnb.plots import MIN_FONT

    ex = widgets.explorer(experiment)
    for name, view in ex.views.items():
        ex.select(name)
        texts = [t for t in view.figure.findobj(Text) if t.get_visible() and t.get_text().strip()]
        assert texts and min(t.get_fontsize() for t in texts) >= MIN_FONT, name
        # ... and inside the figure (its PNG): every panel with its drawn tick labels, axis labels,
        # title and legend, none cut off at an edge of the narrow figure
        renderer = view.figure.canvas.get_renderer()
        width, height = view.figure.canvas.get_width_height()
        for ax in view.figure.axes:
            box = ax.get_tightbbox(renderer)
            assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, \
                (name, ax.get_title(), box.bounds, (width, height))
        assert overlapping_texts(view.figure) == [], name


def test_the_unjudged_tab_titles_its_upper_panel_aligns_the_zeros_and_joins_no_topics(experiment):
    from irnb.plots.live import _aligned_zero_limits

    view = widgets.unjudged_view(experiment, canvas="png")
    upper = view.axes["unjudged"]
    found = view.artists["unjudged"]
    twin = found["difference"].axes
    assert "unjudged documents per topic" in upper.get_title()
    zero = upper.transData.transform((0, 0))[1], twin.transData.transform((0, 0))[1]
    assert zero[0] == pytest.approx(zero[1], abs=0.5)  # the two zeros at one height (pixels)
    lines = [found["difference"], *(view.artists["simulated"][r] for r in ("original", "simulated"))]
    assert all(line.get_linestyle() in ("None", "none", "") for line in lines)  # topics are categories
    # hand-computed: counts 0..10 with a 2 % margin, Δ from −0.1 to 1: the zero a tenth of the way up
    assert _aligned_zero_limits((0.0, 10.0), (-0.1, 1.0), margin=0.02) == ((-1.0, 10.0), (-0.1, 1.0))
    # a twin mostly below zero gets room above it rather than squashing the counts
    assert _aligned_zero_limits((0.0, 10.0), (-3.0, 0.05)) == ((-10.0, 10.0), (-3.0, 3.0))
    with pytest.raises(ValueError, match="must hold 0"):
        _aligned_zero_limits((1.0, 10.0), (-1.0, 1.0))
