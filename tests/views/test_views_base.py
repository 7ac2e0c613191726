"""irnb.views.base without a browser: what every view shares — the canvas it draws on (PNG by
default, ipympl's when asked), a figure laid out once and rerendered, and arguments checked."""

from __future__ import annotations

import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import expected_rows, interval_segments, restored_backend, small_experiment  # noqa: E402

from irnb import widgets  # noqa: E402
from irnb.intervals import score_intervals  # noqa: E402
from irnb.pooling import depth_pool  # noqa: E402
from irnb.views import text_cache  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


@pytest.fixture
def keep_backend():
    with restored_backend():
        yield


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
    np.testing.assert_allclose(interval_segments(view, "runs")[:, :, 0],
                               expected_rows(view, "runs", iv.mean_lower, iv.mean_upper, experiment.run_names))
    # with the ipympl backend active, "auto" picks the ipympl canvas too (made active here: importing
    # ipympl activates it only the first time in a process)
    import matplotlib

    matplotlib.use("module://ipympl.backend_nbagg")
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
