"""irnb.plots as a package: importing it loads no matplotlib, it re-exports every plot from the
module that owns it, and the kit's figures (and the notebooks' reproduced ones) pass the figure
checks. Each plotting module's own tests are in a file of its name (test_live.py, ...)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from irnb import plots  # noqa: E402
from irnb.intervals import BackgroundRateFit, point_estimates  # noqa: E402

from figure_checks import figure_problems  # noqa: E402
from plot_checks import bias_result, hand_intervals  # noqa: E402
from plot_checks import every_text_is_legible  # noqa: E402,F401  (autouse: each figure's texts ≥ MIN_FONT)


@pytest.fixture
def intervals():
    return hand_intervals()


# =============================================================================== import rules
def test_import_irnb_and_irnb_plots_load_no_matplotlib():
    code = ("import sys, irnb, irnb.plots; "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'seaborn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_irnb_plots_reexports_every_plot_from_the_module_that_owns_it():
    """Every plot of irnb.plots.live and irnb.plots.static (and the helpers irnb.plots names) is
    the owner's own object under irnb.plots, so a new plot cannot be left out of the package."""
    import inspect

    from irnb.plots import legends, live, roles, static, style

    owned = {name: module for module in (live, static) for name, obj in vars(module).items()
             if inspect.isfunction(obj) and obj.__module__ == module.__name__ and not name.startswith("_")}
    assert len(owned) == 23 and all(name.endswith("_plot") for name in owned)
    for module in (style, roles, legends):
        owned.update({name: module for name in module.__all__ if name in plots.__all__})
    assert sorted(plots.__all__) == sorted(owned)
    for name, module in owned.items():
        assert getattr(plots, name) is getattr(module, name), name


# =============================================================================== legibility


def test_figure_checks_catch_each_problem():
    """The checks the notebooks' figures pass (tests/figure_checks.py) do fail on each problem."""
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "o-", label="a")
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "o-", label="b")        # on top of a, same cue: hidden, colour only
    ax.plot([], [], "s", label="nothing")                        # an entry without points
    ax.set_xscale("log")
    ax.legend(loc="center")                                      # over the data
    problems = " | ".join(figure_problems(fig))
    for words in ("the legend covers", "'a' is drawn exactly under 'b'", "told apart by colour only",
                  "names 'nothing', which has no points", "not plain numbers"):
        assert words in problems, (words, problems)
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], color="0.7", linewidth=6, label="wide, underneath")
    ax.plot([1, 2, 3], [0.1, 0.5, 0.9], "s--", linewidth=1.5, label="thin, on top")
    ax.set_xscale("log")
    ax.set_xticks([1, 2, 3], ["1", "2", "3"])
    ax.xaxis.set_minor_formatter("")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    assert figure_problems(fig) == []


@pytest.mark.parametrize("draw", ["ranked_runs", "depth_curves", "background_rate", "tau_depth", "intervals"])
def test_the_kits_figures_pass_the_figure_checks(draw, intervals):
    if draw == "ranked_runs":
        means = pd.DataFrame({"P@20": [0.2, 0.4, 0.1], "Judged@20": [0.9, 0.5, 0.7]}, index=["a", "b", "c"])
        ax = plots.ranked_runs_plot(means, measure="P@20", assessment="Judged@20")
    elif draw == "depth_curves":
        rows = [{"depth": d, "kind": kind, "measure": f"{family}@{d}", "run": run, "mean": m + up,
                 "lower": m + up - 0.05, "upper": m + up + 0.05, "case": 3} for d in (10, 100) for kind, family, up in
                (("measure", "P", 0.0), ("assessment", "Judged", 0.3)) for run, m in (("s1", 0.5), ("s2", 0.3))]
        ax = plots.depth_curves_plot(pd.DataFrame(rows))
    elif draw == "background_rate":
        fit = BackgroundRateFit(num_runs=np.array([1, 2, 3]), judged=np.array([10, 10, 10]),
                                relevant=np.array([2, 5, 8]), fraction=np.array([0.2, 0.5, 0.8]),
                                in_fit=np.array([True, True, True]), coefficients=np.array([0.3, -0.1]),
                                rate=0.0, intercept=-0.1, overall=0.5, depth=10, degree=1)
        ax = plots.background_rate_plot(fit, truth=0.1)
    elif draw == "tau_depth":
        results = {d: bias_result([[1, 2, 3]] * 2, [[1, 3, 2]] * 2, tau=(0.9, 0.8 + d / 1000)) for d in (5, 10, 50)}
        ax = plots.tau_depth_plot(results, current=10)
    else:
        ax = plots.intervals_plot(intervals, estimates=point_estimates(intervals), truth=[0.3, 0.5, 0.2])
    assert figure_problems(ax.figure) == []


@pytest.mark.parametrize("reproduction", [r for r in __import__("irnb").reproduction_ids() if "-fig" in r])
def test_reproduction_figures_the_notebooks_show_pass_the_figure_checks(reproduction):
    """Every reproduced figure the notebooks show (irnb.teaching.show_reproduction) passes the checks; three
    broke them (Baillie 2008 Fig. 12's legend over the runs, Büttcher Fig. 1's ten measures told apart by
    colour alone, Ravana Fig. 2's X_S hidden under X_B and its judgments axis in 10²/10³)."""
    import irnb

    drawn = irnb.reproduce(reproduction).figure()
    first = np.ravel(np.asarray(drawn, dtype=object))[0] if isinstance(drawn, (list, tuple, np.ndarray)) else drawn
    figure = first if hasattr(first, "savefig") else first.figure
    assert figure_problems(figure) == []
    texts = [t.get_text() for t in figure.findobj(lambda a: hasattr(a, "get_text"))]
    assert not any("Judged@" in t for t in texts), [t for t in texts if "Judged@" in t]   # A_p@k, as in the text
