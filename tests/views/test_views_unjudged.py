"""irnb.views.unjudged without a browser: the unjudged-documents view shows the core's counts
and simulated precision, recomputes the overlap only when it can change, and says when k is
beyond a run's depth."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import shows_error, small_experiment  # noqa: E402

from irnb import Experiment, widgets  # noqa: E402
from irnb.intervals import point_estimates, score_intervals  # noqa: E402
from irnb.pooling import depth_pool, unjudged_overlap  # noqa: E402
from irnb.views import unjudged as unjudged_module  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


def test_k_beyond_a_runs_depth_shows_a_message():
    runs = pd.DataFrame({"run": ["short"] * 3 + ["long"] * 8, "qid": "1",
                         "docno": [f"d{i}" for i in range(3)] + [f"d{i}" for i in range(8)],
                         "score": list(range(3, 0, -1)) + list(range(8, 0, -1))})
    qrels = pd.DataFrame({"qid": "1", "docno": ["d0", "d1", "d5"], "grade": [1, 0, 1]})
    exp = Experiment(runs, qrels)
    view = widgets.unjudged_view(exp)
    view.controls["run_a"].value, view.controls["run_b"].value = "long", "long"
    view.controls["measurement_depth"].value = 5
    assert not shows_error(view)
    view.controls["run_a"].value = "short"
    assert shows_error(view) and ("measurement depth k = 5 is beyond the depth of short (3 documents"
                                  in view.status.value)
    view.controls["measurement_depth"].value = 3
    assert not shows_error(view)
    intervals = widgets.intervals_view(exp)
    intervals.controls["groups"].value = ("short",)  # each run is its own group
    intervals.controls["measurement_depth"].value = 6
    assert "beyond the depth of short" in intervals.status.value


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
