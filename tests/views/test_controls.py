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


# =============================================================================== locked controls say why, visibly
def test_a_locked_control_shows_its_reason_on_the_line_beside_it(experiment):
    controls = build_controls(experiment, ALL_CONTROLS)
    sync_controls(controls, {"estimator": "the decision matrix compares measured scores", "smoothing": "unused"})
    line = controls["estimator"]._irnb_reason
    assert line.layout.display == "" and "locked here:</b> the decision matrix compares measured scores" in line.value
    assert controls["run"]._irnb_reason.layout.display == "none" and controls["run"]._irnb_reason.value == ""
    assert controls["smoothing"].readout is False  # a locked λ shows no number it does not use
    sync_controls(controls, {})
    assert controls["estimator"]._irnb_reason.layout.display == "none" and controls["smoothing"].readout is True


def test_every_locked_control_of_every_tab_has_a_reason_line_in_the_sidebar(experiment):
    from irnb.widgets import explorer

    ex = explorer(experiment, canvas="png")
    sidebar = ex.widget.children[0]
    rows = list(sidebar.children)
    counted = 0
    for tab in ex.views:
        ex.select(tab)
        locked = ex.locked_controls()
        assert locked, tab
        for name, control in ex.controls.items():
            line = rows[rows.index(control) + 1]  # the line right after the control
            assert line is control._irnb_reason
            assert (line.layout.display == "") == (name in locked), (tab, name)
            counted += name in locked
    assert counted >= len(ex.views)


def test_no_help_names_a_control_the_page_does_not_have(experiment):
    from irnb.views.layout import sidebar

    controls = build_controls(experiment, ALL_CONTROLS)
    texts = " ".join(child.value for child in sidebar(controls).children if isinstance(child, ipywidgets.HTML))
    assert "'auto'" not in texts and "λ = 1 − Δ" in texts  # the tick box is named as the page shows it


# =============================================================================== the pool depth
def test_the_depth_slider_starts_at_the_datas_pool_depth_on_a_log_like_scale(experiment):
    from irnb.papers.registry import pool_depth_rule

    depth = build_controls(experiment, ["depth"])["depth"]
    own = pool_depth_rule(experiment).depth
    assert depth.value == own
    values = [v for _, v in depth.options]
    assert values == sorted(values) and (depth.min, depth.max) == (1, experiment.shape[2])
    assert set(range(1, 21)) <= set(values)
    assert values.index(20) / (len(values) - 1) >= 0.4  # 1–20 take at least two fifths of the track
    marked = [label for label, v in depth.options if label.endswith("*")]
    assert marked == [label for label, v in depth.options if v > own]  # deeper than the qrels' own pool
    assert "*" in depth._irnb_help


def test_a_collections_pool_is_judged_from_its_truth_and_the_slider_marks_nothing():
    from irnb.datasets import simulate
    from irnb.widgets import explorer

    collection = simulate(seed=3, num_topics=8, num_runs=10, num_groups=4, docs_per_topic=400, run_depth=60,
                          pool_depth=20, median_relevant=10, novel_runs=1, keyword_runs=1)
    ex = explorer(collection, canvas="png")
    assert ex.controls["depth"].value == collection.params["pool_depth"]
    assert not any(label.endswith("*") for label, _ in ex.controls["depth"].options)
    assert "complete truth is known" in ex.controls["contributors"]._irnb_help
    view = ex.select("unjudged documents")
    run_b = ex.controls["run_b"].value
    assert run_b not in ex.controls["contributors"].value
    before = int(view._overlap[1]["unjudged_b"].sum())
    assert before > 0
    ex.controls["contributors"].value = tuple(ex.controls["contributors"].value) + (run_b,)
    assert int(view._overlap[1]["unjudged_b"].sum()) == 0  # run b's top k judged from the truth now
    # on the Experiment alone (official qrels) the same run adds no judgment of documents the qrels lack
    official = explorer(collection.experiment, canvas="png")
    assert "qrels" in official.controls["contributors"]._irnb_help
    official_view = official.select("unjudged documents")
    official.controls["run_b"].value = run_b
    official.controls["contributors"].value = tuple(official.controls["contributors"].value) + (run_b,)
    assert int(official_view._overlap[1]["unjudged_b"].sum()) == before
