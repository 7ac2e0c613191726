"""irnb.widgets without a browser: the explorer puts the views in tabs that share controls,
redraws the visible tab and the others when shown; no enabled control is dead, locked ones
say why, every text is legible; one shared-data test builds the explorer on TREC-COVID
round 1. Each view's own tests are in tests/views/."""

from __future__ import annotations

import time

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import expected_rows, interval_segments, shown_rows, shows_error, small_experiment  # noqa: E402

from irnb import widgets  # noqa: E402
from irnb.datasets.real import trec_covid_round1  # noqa: E402
from irnb.intervals import score_intervals  # noqa: E402
from irnb.pooling import depth_pool  # noqa: E402
from irnb.views import frames  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


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


# =============================================================================== real data
@pytest.mark.shared
def test_explorer_on_trec_covid_round1(covid_dir):
    exp = trec_covid_round1(covid_dir)  # groups = teams, contributors from the leaderboard
    assert exp.shape == (143, 30, 1000)
    ex = widgets.explorer(exp)
    view = ex.views["intervals"]
    assert view.canvas == "png"
    assert len(shown_rows(view.axes["runs"])) == 30  # top 30 of 143
    start = time.perf_counter()
    ex.controls["depth"].value = 10
    elapsed = time.perf_counter() - start
    assert not shows_error(view) and "depth-10 pool of 56 contributing runs" in view.status.value
    iv = score_intervals(exp, "P@10", pool=depth_pool(exp, depth=10))
    np.testing.assert_allclose(interval_segments(view, "runs")[:, :, 0],
                               expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, exp.run_names))
    decision = ex.select("decision matrix")
    assert not shows_error(decision) and decision.artists["matrix"]["cases"].get_array().shape == (20, 20)
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
            assert not shows_error(view), (name, control_name, view.status.value)
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


