"""irnb.views.decision without a browser: the decision view shows the core's cases for the
pool the controls choose, and its top runs' cells are those of the table over all runs."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import shows_error, small_experiment  # noqa: E402

from irnb import evaluate, widgets  # noqa: E402
from irnb.decision import case_matrix, case_proportions, compare_table  # noqa: E402
from irnb.pooling import depth_pool  # noqa: E402
from irnb.views.decision import only_runs  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


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
    assert not shows_error(view), view.status.value
    order, expected, alone = _top_cases(experiment, depth, test)
    shown = view.artists["matrix"]["cases"].get_array()
    np.testing.assert_array_equal(np.where(shown.mask, 0, shown.data), expected)
    assert "45 pairs" in view.status.value  # 10 runs: 10·9/2 pairs, whatever the matrix shows
    assert np.array_equal(alone, expected) == (test == "wilcoxon")
