"""Writes notebooks/00_tour.ipynb (kept as a script so the notebook's source is reviewable)::

    python tools/make_tour_notebook.py

As in ``make_notebooks.py``, the facts the text states about the simulated default collection
are computed, not typed: ``FACTS`` runs after the set-up cell at generation time, checks each
claim (raising ``StaleClaim`` naming the sentence when the data no longer supports it) and
fills the ``<<key>>`` placeholders of the cells. ``tests/test_notebook_sources.py`` checks that
the committed notebook is what :func:`build` writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_notebooks import NOTEBOOKS, KERNELSPEC, _fill, _helpers, _in_folder, _run  # noqa: E402

FILENAME = "00_tour.ipynb"

CELLS = [
    ("markdown",
        "# irnb — a two-minute tour\n\n"
        "Test collections judge only a *pool*: the top documents of the runs that took part. "
        "Everything else is **unjudged**, and every score computed against the pool quietly treats "
        "unjudged documents as non-relevant. This tour uses irnb's embedded default collection — a "
        "simulated TREC-like test collection whose *complete* truth is known — so every score can "
        "be compared with the score a complete judgment would give."
    ),
    ("code",
        "import matplotlib.pyplot as plt\n"
        "import irnb\n"
        "from irnb.datasets import default\n\n"
        "collection = default()          # seeded: the same collection on every machine\n"
        "exp = collection.experiment\n"
        "exp"
    ),
    ("markdown",
        "## Scores against the official pool\n\n"
        "`irnb.evaluate` reproduces trec_eval. `Judged@10` is Baillie et al.'s *Assessment Precision* "
        "A_p@10: the share of a run's top 10 that was judged at all."
    ),
    ("code",
        "measures = [\"P@10\", \"AP\", \"nDCG@10\", \"Bpref\", \"Judged@10\"]\n"
        "official = irnb.evaluate(exp, measures).means()\n"
        "official.sort_values(\"AP\", ascending=False).round(3).head(8)"
    ),
    ("markdown",
        "## …and against the truth\n\n"
        "The pool knows fewer relevant documents than the truth (a smaller R), which lifts the AP of "
        "<<lifted>>. Runs that did not contribute gain less, and <<lose>>: the "
        "relevant documents only they found count as non-relevant. So what matters is the *ranking*: "
        "compare each run's rank by official "
        "AP with its rank by true AP (positive = the pool moved the run down)."
    ),
    ("code",
        "true = irnb.evaluate(exp, [\"AP\", \"P@10\"], truth=True).means()\n"
        "table = official[[\"AP\", \"Judged@10\"]].assign(**{\"AP (true)\": true[\"AP\"]})\n"
        "table[\"contributed\"] = exp.contributors\n"
        "table[\"AP error\"] = table[\"AP\"] - table[\"AP (true)\"]\n"
        "table[\"rank moved down\"] = (table[\"AP\"].rank(ascending=False)\n"
        "                             - table[\"AP (true)\"].rank(ascending=False))\n"
        "table.groupby(\"contributed\")[[\"Judged@10\", \"AP error\", \"rank moved down\"]].mean().round(3)"
    ),
    ("code",
        "fig, ax = plt.subplots(figsize=(4.5, 4.5))\n"
        "for flag, marker, label in [(True, \"o\", \"contributed to the pool\"), (False, \"^\", \"did not contribute\")]:\n"
        "    part = table[table[\"contributed\"] == flag]\n"
        "    ax.scatter(part[\"AP (true)\"], part[\"AP\"], marker=marker, label=label)\n"
        "lim = [0, table[[\"AP\", \"AP (true)\"]].to_numpy().max() * 1.05]\n"
        "ax.plot(lim, lim, color=\"grey\", lw=0.8)\n"
        "ax.set(xlabel=\"true AP (complete judgments)\", ylabel=\"official AP (pooled judgments)\")\n"
        "ax.legend(loc=\"upper left\")\n"
        "fig.tight_layout()"
    ),
    ("markdown",
        "## Your own TREC files\n\n"
        "The same two lines evaluate real runs. If the project's `../shared` folder is beside this "
        "checkout, the next cell evaluates the 143 TREC-COVID round-1 runs and compares them with the "
        "official leaderboard."
    ),
    ("code",
        "from pathlib import Path\n"
        "import pandas as pd\n\n"
        "covid = next((p / \"shared/data/trec-covid-round1\" for p in Path.cwd().resolve().parents\n"
        "              if (p / \"shared/data/trec-covid-round1\").is_dir()), None)\n"
        "if covid is None:\n"
        "    print(\"TREC-COVID data not found beside this checkout; skipping.\")\n"
        "else:\n"
        "    real = irnb.Experiment(covid / \"runs-round1.tar.xz\", covid / \"qrels-rnd1.txt\")\n"
        "    ours = irnb.evaluate(real, [\"P@5\", \"nDCG@10\", \"Bpref\", \"AP\"]).means()\n"
        "    board = pd.read_csv(covid / \"leaderboard-round1.csv\").set_index(\"run\")\n"
        "    both = ours.join(board[[\"p@5\", \"ndcg@10\", \"bpref\", \"MAP\"]], how=\"inner\")\n"
        "    print(real)\n"
        "    print(\"largest difference from the official leaderboard:\",\n"
        "          float((both[[\"P@5\", \"nDCG@10\", \"Bpref\", \"AP\"]].to_numpy()\n"
        "                 - both[[\"p@5\", \"ndcg@10\", \"bpref\", \"MAP\"]].to_numpy()).__abs__().max()))\n"
        "    display(ours.sort_values(\"nDCG@10\", ascending=False).round(4).head())"
    ),
    ("markdown",
        "## Move the pool depth\n\n"
        "Every number above depends on how deep the pool was. Drag **pool depth d** (or click it and "
        "use the arrow keys): each run's score interval [B, T] — lowest and highest score the unjudged "
        "documents allow — is recomputed from the same arrays, with the point estimate and the true "
        "score. The other sliders set the measurement depth k, the background rate E and the smoothing λ."
    ),
    ("code",
        "from irnb.widgets import intervals_view\n\n"
        "intervals_view(exp).widget"
    ),
]

# Generation only: run after the set-up cell (CELLS[1]); leaves facts for the placeholders and checks each claim.
FACTS = """
import numpy as np

is_contributor = np.asarray(exp.contributors)
error = irnb.evaluate(exp, ["AP"]).means()["AP"] - irnb.evaluate(exp, ["AP"], truth=True).means()["AP"]
relevant_pool, relevant_truth = int((exp.judgments.qrel_grade >= 1).sum()), int((exp.truth.qrel_grade >= 1).sum())
claim(relevant_pool < relevant_truth, "The pool knows fewer relevant documents than the truth (a smaller R)",
      f"{relevant_pool} against {relevant_truth}")
n_lifted, n_contributing = int((error[is_contributor] > 0).sum()), int(is_contributor.sum())
claim(n_lifted >= 0.75 * n_contributing, "which lifts the AP of (almost) every run that built the pool [three "
      "quarters or more]", f"official − true AP of the contributing runs: {error[is_contributor].round(4).to_dict()}")
lifted = ("every run that built the pool" if n_lifted == n_contributing
          else f"{n_lifted} of the {n_contributing} runs that built the pool")
claim(error[~is_contributor].mean() < error[is_contributor].mean(), "Runs that did not contribute gain less",
      f"mean official − true AP {error[~is_contributor].mean():+.4f} against {error[is_contributor].mean():+.4f}")
n_lose, n_others = int((error[~is_contributor] < 0).sum()), int((~is_contributor).sum())
claim(n_lose >= 2, "and many (or some) lose [at least two]", f"{n_lose} of {n_others}")
lose = f"{'many' if n_lose >= n_others / 4 else 'some'} lose ({n_lose} of the {n_others})"
facts = {"lifted": lifted, "lose": lose}
"""


def compute_facts() -> dict:
    """Run the set-up cell and ``FACTS`` (in ``notebooks/``); returns the facts as text."""
    where = f"notebooks/{FILENAME}"
    with _in_folder(NOTEBOOKS):
        namespace: dict = {"display": lambda *a, **k: None, "__name__": "__notebook__"}
        _run(CELLS[1][1], namespace, f"{FILENAME}:setup")
        namespace |= _helpers(f"{where}, facts")
        _run(FACTS, namespace, f"{FILENAME}:facts")
    return {key: str(value) for key, value in namespace["facts"].items()}


def build() -> nbformat.NotebookNode:
    facts = compute_facts()
    cells = []
    for number, (kind, source) in enumerate(CELLS):
        text = _fill(source, facts, where=f"notebooks/{FILENAME}")
        cell = new_markdown_cell(text) if kind == "markdown" else new_code_cell(text)
        cell.id = f"tour-{number:02d}"  # fixed ids: regenerating gives the same file
        cells.append(cell)
    notebook = new_notebook(cells=cells, metadata={"kernelspec": dict(KERNELSPEC)})
    nbformat.validate(notebook)
    return notebook


def main() -> int:
    notebook = build()
    (NOTEBOOKS / FILENAME).write_text(nbformat.writes(notebook), encoding="utf-8")
    print(f"wrote notebooks/{FILENAME} ({len(notebook.cells)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
