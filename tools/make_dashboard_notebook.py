"""Writes notebooks/dashboard.ipynb, the Voila dashboard (kept as a script so its source is reviewable).

The dashboard is :func:`irnb.widgets.explorer` on the embedded default collection, without
code: Voila shows the markdown and the widget, never the code cells. Run it with

    voila notebooks/dashboard.ipynb

(on Binder: ``…/voila/render/notebooks/dashboard.ipynb``). ``tests/test_browser.py`` opens it
in headless Chromium, moves the pool-depth slider with the keyboard and checks the plot.
"""

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from irnb.datasets.params import defaults

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_notebooks import KERNELSPEC, NOTEBOOKS  # noqa: E402

params = defaults()
cells = [
    new_markdown_cell(
        "# Incomplete relevance judgments, live\n\n"
        f"A simulated TREC-like test collection ({params['num_topics']} topics, {params['num_runs']} runs in "
        f"{params['num_groups']} groups, runs {params['run_depth']} deep) whose "
        "*complete* relevance judgments are known. The official pool judged only the top documents of "
        "some runs; the sliders change that pool and the way scores are computed from it.\n\n"
        "- **pool depth d**: how many top documents of each contributing run were judged.\n"
        "- **measurement depth k**: the cutoff of the measure (P@k, SDCG@k, RBP, AP@k).\n"
        "- **E**: the probability that an unjudged document is relevant (Ravana & Moffat's background rate).\n"
        "- **λ**: how the interpolated and background estimates are mixed (or λ = 1 − Δ per topic).\n\n"
        "Tabs: *intervals* — each run's score interval [B, T] with the point estimate and the true score; "
        "*decision matrix* — Baillie et al.'s cases for every pair of runs; *bias* — what leaving a group's "
        "runs out of the pool does to AP and bpref (Büttcher et al.); *unjudged documents* — per topic, for "
        "two runs."
    ),
    new_code_cell(
        "from irnb.datasets import default\n"
        "from irnb.widgets import explorer\n\n"
        "dashboard = explorer(default().experiment)\n"
        "dashboard.widget"
    ),
]
for cell, cell_id in zip(cells, ("about", "explorer"), strict=True):
    cell.id = cell_id  # fixed ids: regenerating gives the same file
nb = new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
(NOTEBOOKS / "dashboard.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
