"""Writes notebooks/00_tour.ipynb (kept as a script so the notebook's source is reviewable)."""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell(
        "# irnb — a two-minute tour\n\n"
        "Test collections judge only a *pool*: the top documents of the runs that took part. "
        "Everything else is **unjudged**, and every score computed against the pool quietly treats "
        "unjudged documents as non-relevant. This tour uses irnb's embedded default collection — a "
        "simulated TREC-like test collection whose *complete* truth is known — so every score can "
        "be compared with the score a complete judgment would give."
    ),
    new_code_cell(
        "import matplotlib.pyplot as plt\n"
        "import irnb\n"
        "from irnb.datasets import default\n\n"
        "collection = default()          # seeded: the same collection on every machine\n"
        "exp = collection.experiment\n"
        "exp"
    ),
    new_markdown_cell(
        "## Scores against the official pool\n\n"
        "`irnb.evaluate` reproduces trec_eval. `Judged@10` is Baillie et al.'s *Assessment Precision* "
        "A_p@10: the share of a run's top 10 that was judged at all."
    ),
    new_code_cell(
        "measures = [\"P@10\", \"AP\", \"nDCG@10\", \"Bpref\", \"Judged@10\"]\n"
        "official = irnb.evaluate(exp, measures).means()\n"
        "official.sort_values(\"AP\", ascending=False).round(3).head(8)"
    ),
    new_markdown_cell(
        "## …and against the truth\n\n"
        "The pool knows fewer relevant documents than the truth (a smaller R), which lifts the AP of "
        "every run that built the pool. Runs that did not contribute gain less, and many lose: the "
        "relevant documents only they found count as non-relevant. So what matters is the *ranking*: "
        "compare each run's rank by official "
        "AP with its rank by true AP (positive = the pool moved the run down)."
    ),
    new_code_cell(
        "true = irnb.evaluate(exp, [\"AP\", \"P@10\"], truth=True).means()\n"
        "table = official[[\"AP\", \"Judged@10\"]].assign(**{\"AP (true)\": true[\"AP\"]})\n"
        "table[\"contributed\"] = exp.contributors\n"
        "table[\"AP error\"] = table[\"AP\"] - table[\"AP (true)\"]\n"
        "table[\"rank moved down\"] = (table[\"AP\"].rank(ascending=False)\n"
        "                             - table[\"AP (true)\"].rank(ascending=False))\n"
        "table.groupby(\"contributed\")[[\"Judged@10\", \"AP error\", \"rank moved down\"]].mean().round(3)"
    ),
    new_code_cell(
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
    new_markdown_cell(
        "## Your own TREC files\n\n"
        "The same two lines evaluate real runs. If the project's `../shared` folder is beside this "
        "checkout, the next cell evaluates the 143 TREC-COVID round-1 runs and compares them with the "
        "official leaderboard."
    ),
    new_code_cell(
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
    new_markdown_cell(
        "## Move the pool depth\n\n"
        "Every number above depends on how deep the pool was. Drag **pool depth d** (or click it and "
        "use the arrow keys): each run's score interval [B, T] — lowest and highest score the unjudged "
        "documents allow — is recomputed from the same arrays, with the point estimate and the true "
        "score. The other sliders set the measurement depth k, the background rate E and the smoothing λ."
    ),
    new_code_cell(
        "from irnb.widgets import intervals_view\n\n"
        "intervals_view(exp).widget"
    ),
]
for number, cell in enumerate(cells):
    cell.id = f"tour-{number:02d}"  # fixed ids: regenerating gives the same file
nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
Path(__file__).resolve().parents[1].joinpath("notebooks", "00_tour.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
