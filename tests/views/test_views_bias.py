"""irnb.views.bias without a browser: the bias view shows the core's left-out runs for the
chosen depth, and redraws recent depths and contributor sets from the results it kept."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import small_experiment  # noqa: E402

from irnb import widgets  # noqa: E402
from irnb.bias import leave_one_group_out_bias  # noqa: E402
from irnb.views import bias as bias_module  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


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
