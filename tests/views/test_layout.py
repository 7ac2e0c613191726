"""irnb.views.layout: a live view's box also offers a still picture of its figure."""

from __future__ import annotations

import base64
import io

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from PIL import Image  # noqa: E402

from irnb.datasets import simulate  # noqa: E402
from irnb.lab import binder_url  # noqa: E402
from irnb.views.layout import STILL_DPI, STILL_NOTE, display_method, still  # noqa: E402
from irnb.widgets import explorer, intervals_view  # noqa: E402

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def experiment():
    return simulate(seed=3, num_topics=8, num_runs=10, num_groups=4, docs_per_topic=400, run_depth=60,
                    pool_depth=20, median_relevant=10, novel_runs=1, keyword_runs=1).experiment


def test_a_view_offers_its_widget_and_a_still_of_its_figure(experiment):
    view = intervals_view(experiment, canvas="png")
    bundle = view.widget._repr_mimebundle_()
    assert bundle[WIDGET]["model_id"] == view.widget.model_id
    picture = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
    assert picture.size == (round(view.figure.get_figwidth() * STILL_DPI),
                            round(view.figure.get_figheight() * STILL_DPI))
    # 9 pt (plots.MIN_FONT) drawn at least 12 px high: what a browser shows 9 pt as, when the
    # page shows the picture at its drawn size (tests/test_docs_browser.py checks that)
    from irnb.plots import MIN_FONT

    assert MIN_FONT >= 9 and round(picture.info["dpi"][0]) * MIN_FONT / 72 >= 12
    assert STILL_NOTE in bundle["text/html"] and bundle["image/png"] in bundle["text/html"]
    assert f'href="{binder_url("lab")}"' in bundle["text/html"]


def test_the_explorers_still_is_the_visible_tabs_figure(experiment):
    shown = explorer(experiment, canvas="png")
    shown.select("bias")
    bundle = shown.widget._repr_mimebundle_()
    assert bundle["image/png"] == still(shown.views["bias"].figure)["image/png"]
    assert bundle["image/png"] != still(shown.views["intervals"].figure)["image/png"]


def test_the_assessors_still_is_its_text_as_it_reads_now():
    from irnb.datasets import default
    from irnb.widgets_judge import assessor

    judge = assessor(default().experiment, documents=default().documents)
    bundle = judge.widget._repr_mimebundle_()
    assert "image/png" not in bundle and STILL_NOTE in bundle["text/html"]
    assert judge.counters.value in bundle["text/html"] and judge.document.value in bundle["text/html"]
    assert bundle[WIDGET]["model_id"] == judge.widget.model_id


@pytest.mark.parametrize("version, method", [("7.7.1", "_ipython_display_"), ("7.8.5", "_ipython_display_"),
                                             ("8.0.0", "_repr_mimebundle_"), ("8.1.5", "_repr_mimebundle_")])
def test_the_display_method_is_the_one_ipython_calls_for_the_release(version, method):
    assert display_method(version) == method


def test_a_live_box_as_a_cells_result_is_its_widget_and_its_still(experiment, monkeypatch):
    """IPython's display formatter (what a cell's last expression goes through): under
    ipywidgets 8 the bundle is the cell's result; under 7 the box displays it itself."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shown = []
    monkeypatch.setattr(shell.display_pub, "publish", lambda data, *args, **kwargs: shown.append(data))
    view = intervals_view(experiment, canvas="png")
    data, _metadata = shell.display_formatter.format(view.widget)
    if display_method() == "_repr_mimebundle_":
        assert not hasattr(view.widget, "_ipython_display_") and shown == []
    else:
        assert data == {} and len(shown) == 1
        data = shown[0]
    assert data[WIDGET]["model_id"] == view.widget.model_id and "image/png" in data and STILL_NOTE in data["text/html"]
