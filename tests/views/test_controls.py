"""irnb.views.controls: the controls carry their tooltips under ipywidgets 8 and under
ipywidgets 7 (Colab's widget stack), each by the trait that release has."""

from __future__ import annotations

import warnings

import pytest

ipywidgets = pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from irnb.datasets import simulate  # noqa: E402
from irnb.pooling import POOL_PARAMS  # noqa: E402
from irnb.views.controls import ALL_CONTROLS, build_controls, sync_controls, tooltip_trait  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return simulate(seed=3, num_topics=8, num_runs=10, num_groups=4, docs_per_topic=400, run_depth=60,
                    pool_depth=20, median_relevant=10, novel_runs=1, keyword_runs=1).experiment


@pytest.mark.parametrize("version, trait", [("7.7.1", "description_tooltip"), ("7.8.5", "description_tooltip"),
                                            ("8.0.0", "tooltip"), ("8.1.5", "tooltip"), ("9.0.0a1", "tooltip")])
def test_the_tooltip_trait_is_the_one_the_release_has(version, trait):
    assert tooltip_trait(version) == trait


def test_the_installed_release_names_its_own_trait():
    major = int(ipywidgets.__version__.split(".")[0])
    assert tooltip_trait() == ("tooltip" if major >= 8 else "description_tooltip")


def test_every_control_gets_its_tooltip_without_a_deprecated_keyword(experiment):
    # ipywidgets 8 warns on description_tooltip and 7 on an unknown tooltip= keyword: either
    # mistake fails here as an error
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        controls = build_controls(experiment, ALL_CONTROLS)
        trait = tooltip_trait()
        assert all(c.has_trait(trait) for c in controls.values())
        assert getattr(controls["depth"], trait) == POOL_PARAMS["depth"].doc
        assert getattr(controls["run_a"], trait) == "the baseline run"
        sync_controls(controls, {"run_a": "the intervals view shows one run's topics"})
        assert controls["run_a"].disabled
        assert getattr(controls["run_a"], trait) == "locked: the intervals view shows one run's topics"
        sync_controls(controls, {})
        assert not controls["run_a"].disabled and getattr(controls["run_a"], trait) == "the baseline run"
