"""Writes the teaching notebooks 01–05 (``notebooks/01_*.ipynb`` … ``05_*.ipynb``).

The notebooks are kept as this script so that their source is reviewable; they are written
without outputs. Run it from anywhere::

    python tools/make_notebooks.py            # all five
    python tools/make_notebooks.py 02 04      # some of them

Every notebook has the same shape: a short narrative in the papers' terms, static plots
(made with :mod:`irnb.plots`), the live widget for its topic (:mod:`irnb.widgets`), then
two or three exercises. Each exercise is a question, a scratch cell for the student, the
answer in a collapsed ``<details>`` block (explanation, the code as a fenced block, and the
numbers it gives), and a code cell tagged ``answer`` / ``hide-input`` (its input and output
collapsed in JupyterLab) that recomputes those numbers live.

The numbers quoted inside the ``<details>`` blocks are not typed by hand: this script runs
each answer's code (after the notebook's set-up cell, in the ``notebooks`` folder) and
writes what it returns. Notebook 05 quotes two sets — TREC-COVID round 1 (when the
project's ``../shared`` data is beside the checkout while this script runs) and the
simulated fallback — so regenerate it where the shared data is present.

Nor are the narrative's facts about the simulated collection. Each notebook has a
generation-only ``facts`` block, run after the set-up cell: it *finds* the example runs
and pairs the text talks about (first match in run order), computes every number the
text quotes, and leaves ``facts = {key: text}``; markdown cells, code cells, exercise
questions and code, and comments in the set-up cell hold ``<<key>>`` placeholders filled
from it. Qualitative claims ("on most topics", "two bands", "bpref moves most of them up")
are checked there with ``claim(ok, statement)``, and an exercise's ``checks`` block checks
what its own answer text claims: when the data no longer supports a sentence, generating
the notebook fails with :class:`StaleClaim`, naming the notebook and the sentence, instead
of writing it. ``tests/test_notebook_sources.py`` regenerates every notebook in-process
and compares it with the committed file, so a change of the simulator that makes any
quoted number stale fails the tests until the notebooks are regenerated.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import textwrap
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
ANSWER_METADATA = {"tags": ["answer", "hide-input", "hide-output"],
                   "jupyter": {"source_hidden": True, "outputs_hidden": True}}
SCRATCH = "# Your turn: work out the answer here, then open the answer below.\n"


def _text(s: str) -> str:
    return textwrap.dedent(s).strip("\n")


@dataclass
class Md:
    text: str


@dataclass
class Code:
    source: str
    tags: tuple[str, ...] = ()


@dataclass
class Exercise:
    """``question`` (markdown); ``explanation`` (markdown, may hold ``<<key>>``
    placeholders filled from the ``answer`` dict that ``code`` builds); ``code`` computes
    the answer, prints it and leaves ``answer = {key: text}``."""

    title: str
    question: str
    explanation: str
    code: str
    numbers: str = ""  # markdown line(s) with <<key>> placeholders: the numbers the code gives
    checks: str = ""   # generation only: run after ``code`` in its namespace; claim(ok, statement) for the
                       # qualitative words of ``numbers``/``explanation`` (``facts`` is available)


@dataclass
class Notebook:
    filename: str
    setup: str  # the first code cell; every answer's code runs after it
    cells: list = field(default_factory=list)
    exercises: list = field(default_factory=list)
    references: str = ""
    variants: dict = field(default_factory=lambda: {"": {}})  # label → {regex: replacement} on setup
    facts: str = ""  # generation only: run after the set-up cell, leaves facts = {key: text}; see the docstring


# ============================================================================================ facts
# Generation-only code shared by the facts blocks of notebooks 01–04 (run after a set-up cell that defines np,
# irnb, `collection` and `exp`); see the module docstring. claim(ok, statement, evidence) and search(what,
# candidates, conditions) come from the generator.
_COLLECTION_FACTS = _text('''
    is_contributor = np.asarray(exp.contributors)
    pool_depth = int(collection.params["pool_depth"])
    claim(irnb.depth_pool(exp, depth=pool_depth).judged.all(),
          f"official qrels = depth-{pool_depth} pool of the contributing runs",
          "some qrels entries are outside that pool")
    n_runs = len(exp.run_names)
    facts = {"pool_depth": pool_depth, "n_contributing": int(is_contributor.sum()), "n_runs": n_runs,
             "n_topics": len(exp.topics), "n_groups": len(set(exp.groups)), "n_pairs": n_runs * (n_runs - 1) // 2}
''')

# The pooled baseline and the new system of notebooks 01 and 02: the first pair in run order of a run that
# contributed and a run of the same group that did not, for which every sentence about the pair holds.
_PAIR_FACTS = _text('''
    from irnb.pooling import unjudged_overlap

    k, names, group_of = 20, list(exp.run_names), list(exp.groups)
    pool10 = irnb.depth_pool(exp, depth=10)
    iv20 = irnb.score_intervals(exp, f"P@{k}", pool=pool10)
    est20 = irnb.point_estimates(iv20)                                   # the defaults, as in 01's exercise 3
    true20 = irnb.evaluate(exp, [f"P@{k}"], truth=True)[f"P@{k}"]
    pool_grades = exp.judgments.grade_array(pool10.judged)[:, :, :k]
    true_grades = exp.truth.grade_array()[:, :, :k]
    residual_by_depth = np.stack([irnb.score_intervals(exp, f"P@{k}", pool=irnb.depth_pool(exp, depth=d)).mean_residual
                                  for d in range(1, 101)])                 # (pool depth − 1, run)
    overlap_tables = {}


    def unjudged_totals(a, b):
        if (a, b) not in overlap_tables:
            overlap_tables[a, b] = unjudged_overlap(exp, a, b, measurement_depth=k, pool=pool10)
        table = overlap_tables[a, b]
        more = int((table["unjudged_b"] > table["unjudged_a"]).sum())
        return more, table[["unjudged_a", "unjudged_b", "overlap"]].sum()


    def few_shared(totals):
        return totals["overlap"] <= min(totals["unjudged_a"], totals["unjudged_b"]) / 5


    def rmse(run, key):
        s = names.index(run)
        return float(np.sqrt(((est20.get(key)[s] - true20[s]) ** 2).mean()))


    def closer_topics(run):
        """On how many topics the run's X_I is closer to the true P@20 than B (01's exercise 3)."""
        s = names.index(run)
        return int((np.abs(est20.interpolated[s] - true20[s]) < np.abs(iv20.lower[s] - true20[s])).sum())


    def relevant_rates(run):
        """In the run's top k on the depth-10 pool: true rate of relevance of the unjudged, rate of the judged."""
        s = names.index(run)
        unjudged, judged = pool_grades[s] == irnb.UNJUDGED, pool_grades[s] >= 0
        return (true_grades[s][unjudged] >= 1).mean(), (pool_grades[s][judged] >= 1).mean()


    def residual_depth(run):
        """The first pool depth d ≤ 100 at which the run's mean Δ of P@20 falls below 0.25 (0: none)."""
        below = np.flatnonzero(residual_by_depth[:, names.index(run)] < 0.25)
        return int(below[0]) + 1 if below.size else 0


    n_topics = len(exp.topics)
    pair_conditions = [
        ("01 §3: The new run has more unjudged documents on most topics",
         lambda a, b: unjudged_totals(a, b)[0] > n_topics / 2),
        ("01 §3: the two runs share few of them [at most a fifth of the smaller run's unjudged documents]",
         lambda a, b: few_shared(unjudged_totals(a, b)[1])),
        ("01 §4: The original P@20 … is far too low on most topics [by 0.1 or more on more than half of them]",
         lambda a, b: int((true20[names.index(b)] - iv20.lower[names.index(b)] >= 0.1).sum()) > n_topics / 2),
        ("01 §4: for this run … the simulated one moves towards the truth [its RMSE is below the original's]",
         lambda a, b: rmse(b, "I") < rmse(b, "S")),
        ("01 exercise 3: X_I is closer on N of the topics, but … [N is more than half of them]",
         lambda a, b: closer_topics(b) > n_topics / 2),
        ("01 §4: for this run … but overshoots; exercise 3: its mean overestimates the truth",
         lambda a, b: est20.interpolated[names.index(b)].mean() > true20[names.index(b)].mean()),
        ("01 §4: unjudged documents are relevant less often than the judged ones at the top of the same ranking",
         lambda a, b: relevant_rates(b)[0] < relevant_rates(b)[1]),
        ("01 exercise 3: the best estimator for this run is X_M",
         lambda a, b: min("SBIM", key=lambda key: rmse(b, key)) == "M"),
        ("02 exercise 2: [for this run, mean Δ < 0.25 only at a pool depth] far deeper than the k = 20 it is measured "
         "at [d ≥ 40]",
         lambda a, b: residual_depth(b) >= 2 * k),
    ]
    pair_candidates = [(a, b) for a in names for b in names
                       if exp.contributors[names.index(a)] and not exp.contributors[names.index(b)]
                       and group_of[names.index(a)] == group_of[names.index(b)]]
    base, new = search("pair of a contributing run and a run of its group that did not contribute",
                       pair_candidates, pair_conditions)
    others = [run for run in names if not exp.contributors[names.index(run)]]
    facts |= {"base": base, "new": new, "n_others": len(others)}
''')


# ============================================================================================ 01
NB01 = Notebook(
    filename="01_pools_and_unjudged.ipynb",
    setup=_text('''
        import numpy as np
        import pandas as pd
        import matplotlib.pyplot as plt
        import irnb
        from irnb import plots
        from irnb.datasets import default

        collection = default()        # the embedded default: a simulated TREC-like collection (seed 0)
        exp = collection.experiment   # official qrels = depth-<<pool_depth>> pool of <<n_contributing>> contributing runs; truth known
        info = collection.run_info.set_index("run")
        contributing = np.asarray(exp.contributors)
        exp
    '''),
)
NB01.cells = [
    Md(_text('''
        # 01 — Pools and unjudged documents

        A test collection does not judge every document: it judges a **pool**, the union of the top
        *d* documents that each *contributing* run returned for a topic (*d* is the **pool depth**).
        A run is then scored at a **measurement depth** *k*. Whenever *k* > *d*, or the run did not
        contribute, part of its top *k* was never looked at — and P@k, AP or nDCG silently count
        those documents as non-relevant.

        This notebook asks *how much* of a ranking was judged, before asking what the score is:

        * **Assessment Precision** (Baillie, Azzopardi & Ruthven, ECIR 2007; IP&M 2008):
          $A_p@k = |\\text{judged} \\cap \\text{top } k| \\,/\\, k$, the share of a run's top *k* that is in
          the qrels (irnb: `Judged@k`; a run shorter than *k* divides by its length). It is reported
          beside the measure, so a low score can be told apart from a score computed on little evidence.
        * **Unjudged documents per topic** and a **simulated precision** (a PhD-thesis chapter on
          semantic search over the TREC Medical Records track, Figs 7.1–7.2): a new system that never
          contributed is compared with a pooled baseline topic by topic, and its P@k is re-estimated by
          assuming that its unjudged documents are relevant at the rate of its judged ones.

        The data is irnb's embedded default collection, whose *complete* relevance is known — so every
        statement about unjudged documents can be checked against the truth.
    ''')),
    Code("<<setup>>"),
    Md(_text('''
        ## 1. A pool is a mask over the qrels

        `irnb.depth_pool(exp, depth=d)` keeps the qrels entries that some contributing run ranks at depth
        ≤ *d*; nothing is re-read. Shallower pools judge fewer documents, find fewer of the relevant ones,
        and leave more of every run's top *k* unjudged — most of all for runs that did not contribute.
    ''')),
    Code(_text('''
        true_relevant = int((exp.truth.qrel_grade >= 1).sum())
        rows = []
        for d in (1, 2, 5, 10, 20, 50, 100):
            pool = irnb.depth_pool(exp, depth=d)
            means = irnb.evaluate(exp, ["Judged@10", "Judged@100"], judged=pool.judged).means()
            rows.append({
                "d": d,
                "judgments": pool.num_judged,
                "share of all relevant found": (exp.judgments.qrel_grade[pool.judged] >= 1).sum() / true_relevant,
                "A_p@10 contributing": means["Judged@10"][contributing].mean(),
                "A_p@10 not contributing": means["Judged@10"][~contributing].mean(),
                "A_p@100 contributing": means["Judged@100"][contributing].mean(),
                "A_p@100 not contributing": means["Judged@100"][~contributing].mean(),
            })
        by_depth = pd.DataFrame(rows).set_index("d")
        by_depth.round(3)
    ''')),
    Code(_text('''
        fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
        for column, style in [("A_p@10 contributing", "o-"), ("A_p@10 not contributing", "o--"),
                              ("A_p@100 contributing", "s-"), ("A_p@100 not contributing", "s--"),
                              ("share of all relevant found", "k:")]:
            ax.plot(by_depth.index, by_depth[column], style, label=column)
        ax.set(xscale="log", xlabel="pool depth d", ylabel="mean over runs", ylim=(0, 1.02))
        ax.set_xticks(by_depth.index, [str(d) for d in by_depth.index])
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small");
    ''')),
    Md(_text('''
        A contributing run has $A_p@k = 1$ whenever *k* ≤ *d*: its own top *d* is in the pool. Beyond the
        pool depth even contributors have holes, and a run that did not contribute is judged only where
        it happens to agree with the pool.

        ## 2. Assessment Precision next to the score

        Baillie et al. plot every run, ranked by its score, with its $A_p$ beside it (IP&M 2008, Figs 5–10).
        Here the pool is shallow (*d* = 10) and the runs are measured deeper (*k* = 20): the runs that
        contributed (their A_p@20 is <<ap20_contributing>>) and those that did not (<<ap20_others>>) form
        two bands, and a low P@20 in the lower band may say more about the pool than about the run.
    ''')),
    Code(_text('''
        pool10 = irnb.depth_pool(exp, depth=10)
        at10 = irnb.evaluate(exp, ["P@20", "Judged@20"], judged=pool10.judged).means()
        fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
        plots.ranked_runs_plot(at10, measure="P@20", assessment="Judged@20", ax=ax)
        ax.set_title(f"{pool10.description}: P@20 and A_p@20 per run", fontsize="medium");
    ''')),
    Md(_text('''
        ## 3. Unjudged documents, topic by topic

        The thesis chapter compares a new system with a pooled baseline per topic: how many unjudged
        documents each has in its top *k*, how many of those they share, and the change in P@k. Here the
        baseline is `<<base>>` (it contributed to the pool) and the new system `<<new>>` (same group, not
        pooled), with *d* = 10 and *k* = 20 as in the chapter's P@20.
    ''')),
    Code(_text('''
        from irnb.pooling import unjudged_overlap

        run_a, run_b, k = "<<base>>", "<<new>>", 20
        pair = unjudged_overlap(exp, run_a, run_b, measurement_depth=k, pool=pool10)
        fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
        plots.unjudged_plot(pair, run_a=run_a, run_b=run_b, measure=f"P@{k}", ax=ax)
        pair[["unjudged_a", "unjudged_b", "overlap"]].sum()
    ''')),
    Md(_text('''
        The new run has more unjudged documents on most topics, and the two runs share few of them:
        they retrieve *different* documents, so the baseline's judgments say little about the new run.

        ## 4. Simulated precision

        The chapter's re-estimate: on each topic, treat the unjudged documents in the top *k* as relevant
        with probability $P(r \\mid U) = |\\text{judged relevant}| / |\\text{judged}|$ (within the top *k*),
        and recompute P@k. That is exactly Ravana & Moffat's interpolated estimator $X_I = B / (1 - \\Delta)$
        (notebook 02). Because the default collection knows the truth, we can see how well it does.
    ''')),
    Code(_text('''
        iv = irnb.score_intervals(exp, f"P@{k}", pool=pool10)     # B (original) and Δ per run and topic
        est = irnb.point_estimates(iv)
        true = irnb.evaluate(exp, [f"P@{k}"], truth=True)[f"P@{k}"]
        s = int(exp.run_index(run_b)[0])
        topics = list(exp.topics)

        fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
        plots.simulated_precision_plot(topics, pair["unjudged_b"], iv.lower[s], est.interpolated[s],
                                       run=run_b, estimator="I", measure=f"P@{k}", ax=ax)
        twin = plots.artists(ax)["original"].axes                 # the right-hand axis of the plot
        order = np.lexsort((np.arange(len(topics)), iv.lower[s]))  # the plot's order: by original P@k
        (truth_marks,) = twin.plot(np.arange(len(topics)), true[s][order], "kd", markersize=3, label=f"true P@{k}")
        twin.legend(handles=[truth_marks], loc="lower right", fontsize="small")

        pd.DataFrame({"mean": [iv.lower[s].mean(), est.interpolated[s].mean(), true[s].mean()],
                      "RMSE against the truth": [np.sqrt(((x - true[s]) ** 2).mean())
                                                 for x in (iv.lower[s], est.interpolated[s], true[s])]},
                     index=["original P@20 (B)", "simulated P@20 (X_I)", "true P@20"]).round(3)
    ''')),
    Md(_text('''
        The original P@20 can never overestimate (unjudged counts as non-relevant). For this run it is far too
        low on most topics, and the simulated one moves towards the truth but overshoots: its unjudged documents
        are relevant less often than the judged ones at the top of the same ranking (the judged ones are those
        other runs also found). That is one run, not a rule: of the <<n_others>> runs that did not contribute,
        $X_I$ beats $B$ (has the lower RMSE against the true P@20) for <<xi_beats_b>>.

        ## 5. Live: unjudged documents of any two runs

        Choose the pool depth *d*, the measurement depth *k*, the contributing runs and the pair. The right
        panel shows the simulated precision of run *b* with the chosen estimator ($X_I$ is the chapter's).
        The status line counts the unjudged documents.
    ''')),
    Code(_text('''
        from irnb.widgets import unjudged_view

        view = unjudged_view(exp)
        view.controls["depth"].value = 10
        view.controls["measurement_depth"].value = 20
        view.controls["run_a"].value = "<<base>>"
        view.controls["run_b"].value = "<<new>>"
        view.controls["estimator"].value = "I"
        display(view.widget)
    ''')),
]
NB01.exercises = [
    Exercise(
        title="The least-judged run",
        question=_text('''
            With the official qrels (the depth-<<pool_depth>> pool), which run has the lowest mean A_p@100? How much
            higher is its true P@100 than its official P@100, and is that the largest gap of all runs?
        '''),
        explanation=_text('''
            Evaluate `Judged@100` and `P@100` against the official qrels and `P@100` against the truth
            (`truth=True`), then compare per run.
        '''),
        code=_text('''
            official = irnb.evaluate(exp, ["Judged@100", "P@100"]).means()
            truth_p100 = irnb.evaluate(exp, ["P@100"], truth=True).means()["P@100"]
            gap = truth_p100 - official["P@100"]
            run = official["Judged@100"].idxmin()
            print(f"lowest A_p@100: {run} ({official.loc[run, 'Judged@100']:.3f})")
            print(f"official P@100 {official.loc[run, 'P@100']:.3f}, true P@100 {truth_p100[run]:.3f}, "
                  f"gap {gap[run]:.3f}")
            print(f"largest gap: {gap.idxmax()} ({gap.max():.3f})")
            answer = {"run": run, "ap": f"{official.loc[run, 'Judged@100']:.3f}", "gap": f"{gap[run]:.3f}",
                      "max_run": gap.idxmax(), "max_gap": f"{gap.max():.3f}"}
        '''),
        numbers=_text('''
            **<<run>>** has the lowest A_p@100 (<<ap>>); its true P@100 is <<gap>> higher than the official
            one. The largest gap belongs to <<max_run>> (<<max_gap>>): a low A_p@k warns that the score may
            be too low, but the size of the error also depends on how many of the unjudged documents are
            relevant — a good run with holes loses more than a poor run with holes.
        '''),
    ),
    Exercise(
        title="Unjudged documents of a pair",
        question=_text('''
            With a depth-10 pool and *k* = 20: on how many of the <<n_topics>> topics does `<<new>>` have more
            unjudged documents in its top 20 than `<<base>>`? How many unjudged documents do the two runs
            share over all topics, and how many does each have?
        '''),
        explanation=_text('''
            `irnb.pooling.unjudged_overlap` gives per topic `unjudged_a`, `unjudged_b` and `overlap`
            (the unjudged documents that are in both top-20 lists).
        '''),
        code=_text('''
            from irnb.pooling import unjudged_overlap

            table = unjudged_overlap(exp, "<<base>>", "<<new>>", measurement_depth=20,
                                     pool=irnb.depth_pool(exp, depth=10))
            more = int((table["unjudged_b"] > table["unjudged_a"]).sum())
            totals = table[["unjudged_a", "unjudged_b", "overlap"]].sum()
            print(f"<<new>> has more unjudged documents on {more} of {len(table)} topics")
            print(totals.to_string())
            answer = {"more": more, "a": int(totals["unjudged_a"]), "b": int(totals["unjudged_b"]),
                      "overlap": int(totals["overlap"])}
        '''),
        numbers=_text('''
            On **<<more>> of <<n_topics>> topics**. Over all topics `<<base>>` has <<a>> unjudged documents in its
            top 20, `<<new>>` <<b>>, and only **<<overlap>>** are shared: judging the baseline's unjudged
            documents would do little for the new run.
        '''),
    ),
    Exercise(
        title="Does simulated precision help?",
        question=_text('''
            For `<<new>>` (depth-10 pool, P@20): on how many topics is the simulated P@20 ($X_I$) closer to
            the true P@20 than the original P@20 ($B$)? Does the simulated mean over- or under-estimate the
            true mean, and by how much? Which estimator of notebook 02 does better for this run?
        '''),
        explanation=_text('''
            `irnb.score_intervals` gives $B$ (`lower`), `irnb.point_estimates` gives $X_I$
            (`interpolated`) and the other estimators; the truth comes from `evaluate(..., truth=True)`.
        '''),
        code=_text('''
            iv = irnb.score_intervals(exp, "P@20", pool=irnb.depth_pool(exp, depth=10))
            est = irnb.point_estimates(iv)
            s = int(exp.run_index("<<new>>")[0])
            truth = irnb.evaluate(exp, ["P@20"], truth=True)["P@20"][s]
            closer = int((np.abs(est.interpolated[s] - truth) < np.abs(iv.lower[s] - truth)).sum())
            bias = est.interpolated[s].mean() - truth.mean()
            rmse = {key: float(np.sqrt(((est.get(key)[s] - truth) ** 2).mean())) for key in "SBIM"}
            print(f"X_I closer than B on {closer} of {truth.size} topics; mean X_I − mean truth = {bias:+.3f}")
            print("RMSE per estimator:", {f"X_{k}": round(v, 3) for k, v in rmse.items()})
            best = min(rmse, key=rmse.get)
            answer = {"closer": closer, "bias": f"{bias:+.3f}", "best": f"X_{best}", "best_rmse": f"{rmse[best]:.3f}",
                      "rmse_i": f"{rmse['I']:.3f}", "rmse_s": f"{rmse['S']:.3f}"}
        '''),
        numbers=_text('''
            $X_I$ is closer on **<<closer>> of <<n_topics>> topics**, but its mean overestimates the truth by
            <<bias>>. RMSE against the truth: original <<rmse_s>>, simulated <<rmse_i>>; the best estimator
            for this run is **<<best>>** (<<best_rmse>>), which mixes $X_I$ with the background rate.
        '''),
    ),
]
NB01.references = _text('''
    ## Sources

    * M. Baillie, L. Azzopardi, I. Ruthven. *A retrieval evaluation methodology for incomplete relevance
      assessments.* ECIR 2007 — Assessment Precision, measurement depth beyond pool depth.
    * M. Baillie, L. Azzopardi, I. Ruthven. *Evaluating epistemic uncertainty under incomplete assessments.*
      Information Processing & Management 44(2), 2008 — the journal version (Figs 5–10: runs with their A_p).
    * A PhD-thesis chapter on semantic search in medical records (TREC Medical Records track), Figs 7.1–7.2 —
      unjudged documents per query and simulated precision.
    * S. D. Ravana, A. Moffat. *Score estimation, incomplete judgments, and significance testing in IR
      evaluation.* AIRS 2010 — $X_I$ and the other estimators (notebook 02).
''')

NB01.facts = "\n\n".join([_COLLECTION_FACTS, _PAIR_FACTS, _text('''
    # §1: shallower pools judge fewer documents, find fewer relevant ones and leave more of the top k unjudged,
    # most of all for the runs that did not contribute; a contributing run has A_p@k = 1 when k ≤ d
    rows = []
    for d in (1, 2, 5, 10, 20, 50, 100):
        pool = irnb.depth_pool(exp, depth=d)
        means = irnb.evaluate(exp, ["Judged@10", "Judged@100"], judged=pool.judged).means()
        rows.append([pool.num_judged, (exp.judgments.qrel_grade[pool.judged] >= 1).sum()]
                    + [means[m][mask].mean() for m in ("Judged@10", "Judged@100")
                       for mask in (is_contributor, ~is_contributor)])
    by_depth = np.asarray(rows, dtype=float)   # judgments, relevant found, A_p@10 c/n, A_p@100 c/n
    claim((np.diff(by_depth, axis=0) >= 0).all(), "Shallower pools judge fewer documents, find fewer of the relevant "
          "ones, and leave more of every run's top k unjudged", f"by depth: {by_depth.round(3).tolist()}")
    claim((by_depth[:, 3] < by_depth[:, 2]).all() and (by_depth[:, 5] < by_depth[:, 4]).all(),
          "… — most of all for runs that did not contribute [their mean A_p is lower at every depth]")
    judged10 = irnb.evaluate(exp, ["Judged@10"], judged=pool10.judged).means()["Judged@10"]
    claim((judged10[is_contributor] == 1).all(), "A contributing run has A_p@k = 1 whenever k ≤ d",
          f"A_p@10 on the depth-10 pool: {judged10[is_contributor].round(3).to_dict()}")

    # §2: the contributing runs and the others form two bands of A_p@20 (depth-10 pool)
    ap20 = irnb.evaluate(exp, ["Judged@20"], judged=pool10.judged).means()["Judged@20"]
    upper, lower = ap20[is_contributor], ap20[~is_contributor]
    claim(lower.max() < upper.min(), "the runs that contributed and those that did not form two bands [of A_p@20]",
          f"contributing {upper.min():.3f}–{upper.max():.3f}, the others {lower.min():.3f}–{lower.max():.3f}")
    digits = 2 if round(lower.max(), 2) < round(upper.min(), 2) else 3   # the printed bands must not touch
    facts |= {"ap20_contributing": f"{upper.min():.{digits}f}–{upper.max():.{digits}f}",
              "ap20_others": f"{lower.min():.{digits}f}–{lower.max():.{digits}f}"}

    # §4: the chosen run's X_I beats B, but that is one run, not a rule among the runs that did not contribute
    beats = [run for run in others if rmse(run, "I") < rmse(run, "S")]
    claim(0 < len(beats) < len(others), "That is one run, not a rule: of the runs that did not contribute, X_I beats B "
          "for N [some but not all of them]", f"{len(beats)} of {len(others)}")
    facts["xi_beats_b"] = ("only " if 2 * len(beats) < len(others) else "") + str(len(beats))
''')])
NB01.exercises[0].checks = _text('''
    claim(run != gap.idxmax(), "the size of the error also depends on how many of the unjudged documents are "
          "relevant [the least-judged run does not have the largest gap]", f"both are {run}")
    claim(truth_p100[gap.idxmax()] > truth_p100[run], "a good run with holes loses more than a poor run with holes "
          "[the run with the largest gap has the higher true P@100]")
''')
NB01.exercises[1].checks = _text('''
    claim(more > len(table) / 2, "The new run has more unjudged documents on most topics")
    claim(totals["overlap"] <= min(totals["unjudged_a"], totals["unjudged_b"]) / 5,
          "only N are shared: judging the baseline's unjudged documents would do little for the new run")
''')
NB01.exercises[2].checks = _text('''
    claim(closer > truth.size / 2, "X_I is closer on N of the topics, but its mean overestimates the truth [N is "
          "more than half of them]", f"{closer} of {truth.size}")
    claim(bias > 0, "its mean overestimates the truth", f"bias {bias:+.3f}")
    claim(best == "M", "the best estimator for this run is X_M, which mixes X_I with the background rate", best)
''')


# ============================================================================================ 02
NB02 = Notebook(
    filename="02_intervals_and_estimators.ipynb",
    setup=NB01.setup,
)
NB02.cells = [
    Md(_text('''
        # 02 — Score intervals and point estimators

        For measures that add up a weight per relevant document — P@k, rank-biased precision RBP(p),
        scaled DCG SDCG@k — an unjudged document can move the score only by its own weight. Ravana & Moffat
        (AIRS 2010) turn that into an interval and a family of point estimates, per run and topic:

        * **B**, the lower bound: every unjudged document non-relevant (what trec_eval reports);
        * **T**, the upper bound: every unjudged document relevant;
        * **Δ = T − B**, the *residual*: how much is not known (for RBP it also holds the tail beyond the
          run's last document).

        and four estimators inside [B, T]:

        | | estimator | assumption about unjudged documents |
        |---|---|---|
        | $X_S = B$ | simplistic | never relevant |
        | $X_B = B + E\\,\\Delta$ | background | relevant with a small probability **E** |
        | $X_I = B / (1 - \\Delta)$ | interpolated | relevant as often as the judged ones ($E$ when Δ = 1) |
        | $X_M = \\lambda X_I + (1-\\lambda) X_B$ | smoothed | a mix; with **λ = 1 − Δ**, $X_M = B(1+\\Delta) + \\Delta^2 E$ |

        The paper uses E = 0.01 and estimates E from the data by extrapolating, to zero pooled runs, the
        fraction of judged documents that are relevant. It also studies *judgment budgets*: judging the
        pool in order of the best rank at which any contributing run retrieved a document, and stopping
        after N judgments. With the default collection's complete truth we can measure every estimator's
        error.
    ''')),
    Code("<<setup>>"),
    Md(_text('''
        ## 1. B, T and Δ by hand

        A ranking whose top 10 holds 3 relevant, 2 non-relevant and 5 unjudged documents has, for P@10,
        B = 0.3, T = 0.8, Δ = 0.5; with E = 0.01, $X_B$ = 0.305, $X_I$ = 0.3/0.5 = 0.6 and
        $X_M$(λ = 1 − Δ) = 0.5·0.6 + 0.5·0.305 = 0.4525. irnb agrees:
    ''')),
    Code(_text('''
        tiny_run = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(10)], "score": range(10, 0, -1)})
        tiny_qrels = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(5)], "grade": [1, 1, 1, 0, 0]})
        tiny = irnb.score_intervals(irnb.Experiment(tiny_run, tiny_qrels), "P@10")
        print("B, T, Δ =", float(tiny.lower[0, 0]), float(tiny.upper[0, 0]), float(tiny.residual[0, 0]))
        irnb.point_estimates(tiny, background_rate=0.01).means().round(4)
    ''')),
    Md(_text('''
        ## 2. Intervals per run and per topic, with the true score

        A depth-10 pool, measured at *k* = 20 (so that contributing runs have unjudged documents too).
        Left: each run's mean [B, T] with $X_M$ and the true P@20 — the truth always lies inside the
        interval, because the pool's judgments are a subset of the truth. Right: the topics of `<<new>>`,
        a run that did not contribute.
    ''')),
    Code(_text('''
        pool10 = irnb.depth_pool(exp, depth=10)
        iv = irnb.score_intervals(exp, "P@20", pool=pool10)
        est = irnb.point_estimates(iv, background_rate=0.01, smoothing="auto")
        truth = irnb.evaluate(exp, ["P@20"], truth=True)

        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6.5), layout="constrained")
        plots.intervals_plot(iv, estimates=est, estimator="M", truth=truth.aggregate("P@20"), ax=left)
        plots.topic_intervals_plot(iv, "<<new>>", estimates=est, estimator="M", truth=truth["P@20"], ax=right);
    ''')),
    Md(_text('''
        ## 3. Which estimator is closest?

        `irnb.datasets.estimator_error` compares any (run × topic) estimate with the true score: bias
        (mean signed error) and RMSE, here separately for the runs that built the pool and those that did not.
    ''')),
    Code(_text('''
        from irnb.datasets import estimator_error

        true_p20 = truth["P@20"]
        rows = []
        for key in "SBIM":
            error = est.get(key) - true_p20
            for label, runs in [("contributing", contributing), ("not contributing", ~contributing)]:
                rows.append({"estimator": f"X_{key}", "runs": label, "bias": error[runs].mean(),
                             "RMSE": np.sqrt((error[runs] ** 2).mean())})
        errors = pd.DataFrame(rows).pivot(index="estimator", columns="runs", values=["bias", "RMSE"])
        overall = estimator_error(collection, "P@20", est.smoothed)
        print(f"X_M over all runs and topics: bias {overall.bias:+.3f}, RMSE {overall.rmse:.3f}, "
              f"Kendall's τ of the run ranking with the true one {overall.kendall_tau:.3f}")
        errors.reindex([f"X_{key}" for key in "SBIM"]).round(3)
    ''')),
    Md(_text('''
        $X_S$ and $X_B$ underestimate, $X_I$ overestimates (badly for the runs that did not contribute, as
        Ravana & Moffat found), and $X_M$ with λ = 1 − Δ sits closest to the truth.

        ## 4. E and λ

        The RMSE of $X_M$ over all runs and topics as E varies, for λ = 1 − Δ and three fixed λ.
    ''')),
    Code(_text('''
        grid = np.round(np.arange(0.0, 0.51, 0.02), 2)
        fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
        for lam in ["auto", 0.25, 0.5, 0.75]:
            rmse = [estimator_error(collection, "P@20",
                                    irnb.point_estimates(iv, background_rate=E, smoothing=lam).smoothed).rmse
                    for E in grid]
            ax.plot(grid, rmse, marker=".", label="λ = 1 − Δ" if lam == "auto" else f"λ = {lam}")
        ax.set(xlabel="E (background rate)", ylabel="RMSE of X_M against the true P@20")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small");
    ''')),
    Md(_text('''
        ## 5. Estimator error against the judgment budget

        `irnb.budget_pool(exp, judgments=N, seed=...)` judges the first N qrels entries in pooling order
        (best contributing rank first, ties in a seeded random order), as in Ravana & Moffat's simulation.
        The RMSE of each estimator falls as N grows<<rmse_falls_from>>; $X_M$ is the best choice until almost
        everything is judged: <<xm_best_range>>.
    ''')),
    Code(_text('''
        from irnb.budgets import default_budgets

        budgets = default_budgets(exp.judgments.num_judgments)   # 1 %, 2 %, 5 % … 100 % of the qrels
        rows = []
        for n in budgets:
            budget = irnb.budget_pool(exp, judgments=n, seed=0)
            budget_est = irnb.point_estimates(irnb.score_intervals(exp, "P@20", pool=budget))
            rows.append({"judgments": n, **{f"X_{key}": estimator_error(collection, "P@20", budget_est.get(key)).rmse
                                           for key in "SBIM"}})
        by_budget = pd.DataFrame(rows).set_index("judgments")
        ax = by_budget.plot(marker="o", logx=True, figsize=(6.5, 4), ylabel="RMSE against the true P@20", grid=True)
        by_budget.round(3).T
    ''')),
    Md(_text('''
        ## 6. Estimating E from the data

        Ravana & Moffat's recipe: group the judged documents by how many contributing runs had them in
        their top *d*, take the fraction relevant in each group, fit a cubic through those points and read
        it at zero runs — the documents nobody pooled. On this depth-10 pool <<cubic_reading>>,
        although the unjudged documents in the runs' top 20 are in truth relevant far more often:
    ''')),
    Code(_text('''
        fit = irnb.estimate_background_rate(exp, depth=10, pool=pool10)
        grades = exp.judgments.grade_array(pool10.judged)[:, :, :20]
        unjudged_relevant = (exp.truth.grade_array()[:, :, :20][grades == irnb.UNJUDGED] >= 1).mean()
        print(f"E from the cubic fit: {fit.rate:.3f} (unclipped {fit.intercept:.3f}); "
              f"true rate of relevance among unjudged top-20 documents: {unjudged_relevant:.3f}")
        fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
        plots.background_rate_plot(fit, ax=ax);
    ''')),
    Md(_text('''
        ## 7. Live: intervals and estimators

        Move the pool depth *d* and the measurement depth *k*, change E and λ (or keep λ = 1 − Δ), the
        measure and the estimator. The diamonds are the true scores.
    ''')),
    Code(_text('''
        from irnb.widgets import intervals_view

        view = intervals_view(exp)
        view.controls["depth"].value = 10
        view.controls["measurement_depth"].value = 20
        view.controls["run"].value = "<<new>>"
        display(view.widget)
    ''')),
]
NB02.exercises = [
    Exercise(
        title="Estimators by hand",
        question=_text('''
            A run's top 10 holds 4 relevant, 1 non-relevant and 5 unjudged documents. With E = 0.05,
            compute B, T, Δ, $X_B$, $X_I$ and $X_M$ with λ = 1 − Δ for P@10 by hand, then check with irnb.
        '''),
        explanation=_text('''
            B = 4/10 = 0.4; T = 9/10 = 0.9; Δ = 0.5. $X_B$ = 0.4 + 0.05·0.5 = 0.425. $X_I$ = 0.4/(1 − 0.5) = 0.8
            (= 4 relevant of 5 judged). λ = 1 − Δ = 0.5, so $X_M$ = 0.5·0.8 + 0.5·0.425 = 0.6125, which is also
            B(1 + Δ) + Δ²E = 0.6 + 0.0125.
        '''),
        code=_text('''
            run = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(10)], "score": range(10, 0, -1)})
            qrels = pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(5)], "grade": [1, 1, 1, 1, 0]})
            hand = irnb.score_intervals(irnb.Experiment(run, qrels), "P@10")
            values = irnb.point_estimates(hand, background_rate=0.05).means().iloc[0]
            print(f"B = {hand.lower[0, 0]:.4f}, T = {hand.upper[0, 0]:.4f}, Δ = {hand.residual[0, 0]:.4f}")
            print(values.round(4).to_string())
            answer = {key: f"{values[key]:.4f}" for key in values.index}
        '''),
        numbers="irnb gives $X_S$ = <<X_S>>, $X_B$ = <<X_B>>, $X_I$ = <<X_I>>, $X_M$ = <<X_M>>.",
    ),
    Exercise(
        title="How deep must the pool be?",
        question=_text('''
            For `<<new>>` and P@20, at which pool depth *d* (1 … 100) does its mean residual Δ first fall
            below 0.25? Is its true P@20 inside its mean [B, T] at every depth — and why must it be?
        '''),
        explanation=_text('''
            Loop over *d*, build `irnb.depth_pool(exp, depth=d)` and read `score_intervals(...).mean_residual`.
            The truth is always inside: the pool judges a subset of the documents with their true grades, so
            counting the rest as non-relevant (B) can only undercount and as relevant (T) only overcount.
        '''),
        code=_text('''
            s = int(exp.run_index("<<new>>")[0])
            true_mean = irnb.evaluate(exp, ["P@20"], truth=True).aggregate("P@20")[s]
            first, inside = None, True
            for d in range(1, 101):
                depth_iv = irnb.score_intervals(exp, "P@20", pool=irnb.depth_pool(exp, depth=d))
                inside &= bool(depth_iv.mean_lower[s] <= true_mean <= depth_iv.mean_upper[s])
                if first is None and depth_iv.mean_residual[s] < 0.25:
                    first = (d, float(depth_iv.mean_residual[s]))
            print(f"Δ < 0.25 first at d = {first[0]} (Δ = {first[1]:.3f}); truth inside [B, T] at every depth: {inside}")
            answer = {"d": first[0], "delta": f"{first[1]:.3f}", "inside": "yes" if inside else "no"}
        '''),
        numbers=_text('''
            At **d = <<d>>** (Δ = <<delta>>): for this run, far deeper than the *k* = 20 it is measured at, because
            it did not contribute. <<residual_depths>> Truth inside at every depth: **<<inside>>**.
        '''),
    ),
    Exercise(
        title="Estimating E",
        question=_text('''
            On the depth-10 pool, estimate E with a fit of degree 1, 2 and 3
            (`irnb.estimate_background_rate(exp, depth=10, pool=..., degree=...)`). Which comes closest to
            the true rate at which unjudged top-20 documents are relevant? Which E on a grid 0, 0.01, …, 0.5
            minimises the RMSE of $X_M$ (λ = 1 − Δ) for P@20?
        '''),
        explanation=_text('''
            The extrapolation to zero runs depends heavily on the degree; and the E that minimises the error
            is smaller than the true rate, because $X_M$ already moves towards $X_I$ where Δ is small.
        '''),
        code=_text('''
            from irnb.datasets import estimator_error

            pool = irnb.depth_pool(exp, depth=10)
            grades = exp.judgments.grade_array(pool.judged)[:, :, :20]
            rate = float((exp.truth.grade_array()[:, :, :20][grades == irnb.UNJUDGED] >= 1).mean())
            fits = {deg: irnb.estimate_background_rate(exp, depth=10, pool=pool, degree=deg).rate for deg in (1, 2, 3)}
            closest = min(fits, key=lambda deg: abs(fits[deg] - rate))
            intervals = irnb.score_intervals(exp, "P@20", pool=pool)
            grid = np.round(np.arange(0.0, 0.501, 0.01), 2)
            rmse = [estimator_error(collection, "P@20", irnb.point_estimates(intervals, background_rate=E).smoothed).rmse
                    for E in grid]
            best = float(grid[int(np.argmin(rmse))])
            print(f"true rate {rate:.3f}; fits: " + ", ".join(f"degree {d}: {v:.3f}" for d, v in fits.items()))
            print(f"closest: degree {closest}; best E for X_M: {best:.2f} (RMSE {min(rmse):.4f})")
            answer = {"rate": f"{rate:.3f}", "d1": f"{fits[1]:.3f}", "d2": f"{fits[2]:.3f}", "d3": f"{fits[3]:.3f}",
                      "closest": closest, "best": f"{best:.2f}", "rmse": f"{min(rmse):.3f}"}
        '''),
        numbers=_text('''
            True rate <<rate>>; degree 1 gives <<d1>>, degree 2 <<d2>>, degree 3 <<d3>> — **degree <<closest>>**
            is closest. The RMSE of $X_M$ is smallest at **E = <<best>>** (<<rmse>>).
        '''),
    ),
]
NB02.references = _text('''
    ## Sources

    * S. D. Ravana, A. Moffat. *Score estimation, incomplete judgments, and significance testing in IR
      evaluation.* AIRS 2010 — intervals [B, T] and residuals, $X_S$, $X_B$, $X_I$, $X_M$, E and λ,
      judgment budgets, estimating E (their Fig. 1).
    * A. Moffat, J. Zobel. *Rank-biased precision for measurement of retrieval effectiveness.* ACM TOIS 27(1),
      2008 — the residual of RBP.
''')

NB02.facts = "\n\n".join([_COLLECTION_FACTS, _PAIR_FACTS, _text('''
    from irnb.budgets import default_budgets
    from irnb.datasets import estimator_error

    # §2: the truth always lies inside the interval
    claim(((iv20.lower <= true20 + 1e-12) & (true20 <= iv20.upper + 1e-12))[iv20.evaluated].all(),
          "the truth always lies inside the interval")

    # §3: X_S and X_B underestimate, X_I overestimates (badly for the runs that did not contribute), X_M closest
    est = irnb.point_estimates(iv20, background_rate=0.01, smoothing="auto")
    bias = {key: {group: float((est.get(key) - true20)[mask].mean())
                  for group, mask in (("contributing", is_contributor), ("others", ~is_contributor))} for key in "SBIM"}
    others_rmse = {key: float(np.sqrt(((est.get(key) - true20)[~is_contributor] ** 2).mean())) for key in "SBIM"}
    claim(all(value < 0 for key in "SB" for value in bias[key].values()), "X_S and X_B underestimate", str(bias))
    claim(all(value > 0 for value in bias["I"].values()), "X_I overestimates", str(bias["I"]))
    claim(bias["I"]["others"] > bias["I"]["contributing"] and max(others_rmse, key=others_rmse.get) == "I",
          "X_I overestimates (badly for the runs that did not contribute) [more than for the others, and the "
          "largest RMSE of the four for them]", f"bias {bias['I']}, RMSE of the others {others_rmse}")
    overall = {key: estimator_error(collection, "P@20", est.get(key)).rmse for key in "SBIM"}
    claim(min(overall, key=overall.get) == "M", "X_M with λ = 1 − Δ sits closest to the truth [lowest RMSE]",
          str(overall))

    # §5: every estimator's RMSE falls as the budget grows; X_M is best until almost everything is judged
    total = exp.judgments.num_judgments
    budget_rmse = []
    for n in default_budgets(total):
        budget = irnb.budget_pool(exp, judgments=n, seed=0)
        budget_est = irnb.point_estimates(irnb.score_intervals(exp, "P@20", pool=budget))
        budget_rmse.append((n, {key: estimator_error(collection, "P@20", budget_est.get(key)).rmse for key in "SBIM"}))
    late_start = {}   # estimator → the first budget from which its RMSE falls, when that is not the first budget
    for key in "SBIM":
        series = [errors[key] for _, errors in budget_rmse]
        start = max([i + 1 for i in range(len(series) - 1) if series[i + 1] > series[i]], default=0)
        claim(budget_rmse[start][0] <= np.ceil(0.05 * total), "The RMSE of each estimator falls as N grows "
              f"[X_{key}: from 5 % of the qrels on at the latest]", str(np.round(series, 4).tolist()))
        if start:
            late_start[key] = budget_rmse[start][0]
    exceptions = "; ".join(f"$X_{key}$ only from N = {n} on" for key, n in late_start.items())
    facts["rmse_falls_from"] = f" ({exceptions})" if exceptions else ""
    winners = [min(errors, key=errors.get) for _, errors in budget_rmse]
    best = [i for i, key in enumerate(winners) if key == "M"]
    last_partial = len(budget_rmse) - 2   # the largest budget below all of the qrels
    claim(best and best == list(range(best[0], best[-1] + 1)) and budget_rmse[best[0]][0] <= np.ceil(0.05 * total)
          and best[-1] >= last_partial, "X_M is the best choice until almost everything is judged [it has the lowest "
          "RMSE at every budget from the first where it does, 5 % of the qrels or less, through the largest budget "
          "below 100 %]", f"lowest RMSE by budget: {dict(zip([n for n, _ in budget_rmse], winners))}")


    def share(i):
        return f"{budget_rmse[i][0] / total:.0%}".replace("%", " %")


    def winner(indices):
        keys = sorted({winners[i] for i in indices})
        return f"$X_{keys[0]}$ does better" if len(keys) == 1 else "other estimators do better"


    elsewhere = []   # who wins outside X_M's range: the smallest budgets, and all of the qrels
    if best[0] > 0:
        shares = [share(i) for i in range(best[0])]
        small = shares[0] if len(shares) == 1 else ", ".join(shares[:-1]) + " or " + shares[-1]
        elsewhere.append(f"with only {small} judged, {winner(range(best[0]))}")
    if best[-1] == last_partial:
        elsewhere.append(f"with all of them judged, {winner([last_partial + 1])}")
    facts["xm_best_range"] = "here it has the lowest RMSE at every budget " + (
        f"from {share(best[0])} to {share(best[-1])} of the qrels judged (the last budget before all of them)"
        if best[-1] == last_partial else f"from {share(best[0])} of the qrels judged up to all of them")
    if elsewhere:
        facts["xm_best_range"] += ". " + "; ".join(elsewhere)[0].upper() + "; ".join(elsewhere)[1:]

    # §6: the cubic's E against the true rate of relevance among the unjudged top-20 documents
    fit = irnb.estimate_background_rate(exp, depth=10, pool=pool10)
    unjudged_rate = float((true_grades[pool_grades == irnb.UNJUDGED] >= 1).mean())
    claim(unjudged_rate >= 2 * fit.rate and unjudged_rate - fit.rate >= 0.05,
          "the unjudged documents in the runs' top 20 are in truth relevant far more often [at least twice as often, "
          "and 0.05 more]", f"E = {fit.rate:.3f}, true rate {unjudged_rate:.3f}")
    # an E clipped to 1 (the cubic above 1 at 0 runs) cannot pass that claim, so it needs no sentence of its own
    facts["cubic_reading"] = ("the cubic dips below zero before it reaches 0 runs, so E is clipped to 0"
                              if fit.intercept < 0 else f"the cubic reads E = {fit.rate:.3f} at 0 runs")

    # exercise 2: how deep the pool must be for Δ < 0.25 is this run's answer; among the runs that did not contribute
    depths = [residual_depth(run) for run in others]
    deep = sum(d >= 2 * k for d in depths)
    never, sooner = depths.count(0), sum(0 < d < 2 * k for d in depths)
    claim(residual_depth(new) >= 2 * k, "N (this one among them) first fall below Δ = 0.25 at a depth from 40 to 100")
    rest = ([f"{never} not even at d = 100"] if never else []) + ([f"{sooner} at a shallower pool"] if sooner else [])
    facts["residual_depths"] = (f"Of the {len(others)} runs that did not contribute, "
                                + ("only this one first falls" if deep == 1 else f"{deep} (this one among them) first fall")
                                + f" below Δ = 0.25 at a depth from {2 * k} to 100" + (f", {listing(rest)}." if rest else "."))
    facts["new_residual_depth"] = residual_depth(new)
''')])
NB02.exercises[1].checks = _text('''
    claim(first[0] >= 40, "for this run, far deeper than the k = 20 it is measured at [d ≥ 40]", f"d = {first[0]}")
    claim(str(first[0]) == facts["new_residual_depth"], "Of the runs that did not contribute, N (this one among them) "
          "first fall below Δ = 0.25 at a depth from 40 to 100 [the facts find this run's d too]",
          f"the answer finds d = {first[0]}, the facts {facts['new_residual_depth']}")
    claim(inside, "Truth inside at every depth")
''')
NB02.exercises[2].checks = _text('''
    claim(best < rate, "the E that minimises the error is smaller than the true rate", f"E = {best}, rate {rate:.3f}")
    claim(max(fits.values()) - min(fits.values()) >= 0.1,
          "The extrapolation to zero runs depends heavily on the degree [the fits differ by 0.1 or more]", str(fits))
''')


# ============================================================================================ 03
NB03 = Notebook(
    filename="03_decision_matrix.ipynb",
    setup=_text('''
        import numpy as np
        import pandas as pd
        import matplotlib.pyplot as plt
        import irnb
        from irnb import plots
        from irnb.datasets import default
        from irnb.decision import CASES, STRENGTH, case_matrix, case_proportions, compare_table, depth_curves

        collection = default()        # the embedded default: a simulated TREC-like collection (seed 0)
        exp = collection.experiment   # official qrels = depth-<<pool_depth>> pool of <<n_contributing>> contributing runs; truth known
        exp
    '''),
)
NB03.cells = [
    Md(_text('''
        # 03 — The System Evaluation Decision Matrix

        A significance test says whether two runs' scores differ; it does not say whether both scores rest
        on the same amount of evidence. Baillie, Azzopardi & Ruthven (ECIR 2007; IP&M 2008) run a second
        paired test over topics, on the **assessment measure** A — Assessment Precision $A_p@k$ for P@k
        (notebook 01), MAA (mean Average Assessment) for MAP — and read the two outcomes together:

        | case | P@k (s₁ vs s₂) | A of the better run | strength |
        |---|---|---|---|
        | 1 | equal | equal | strong: equal on comparable evidence |
        | 2 | equal | different | weak: one run was judged on more of its ranking |
        | 3 | different | equal or lower | strong: more judgments could not make the worse run catch up |
        | 4 | different | higher | weak: the difference may come from unequal judging |

        "Different" means *p* < α (α = 0.05, paired *t*-test here; the papers used ANOVA with Bonferroni
        comparisons, `test="anova"`). Their Table 1 gives the share of all run pairs in each case at
        measurement depths @10 … @1000 and for MAP: the deeper the measurement beyond the pool depth, the
        more comparisons are weak.
    ''')),
    Code("<<setup>>"),
    Md(_text('''
        ## 1. One pair

        `<<c2_contributor>>` contributed to the pool; `<<c2_other>>` (same group) did not. For P@10 their
        means do not differ significantly, but their $A_p@10$ do: case 2.
    ''')),
    Code(_text('''
        table = compare_table(exp, "P@10", test="t", alpha=0.05)
        columns = ["run_a", "run_b", "mean_a", "mean_b", "p_measure", "assessment_a", "assessment_b",
                   "p_assessment", "case", "strength", "better", "more_assessed"]
        table.loc[(table["run_a"] == "<<c2_run_a>>") & (table["run_b"] == "<<c2_run_b>>"), columns]
    ''')),
    Md(_text('''
        ## 2. Every pair: the matrix

        All <<n_pairs>> pairs of the <<n_runs>> runs, runs ordered by P@10 (best first). Strong cases are dark,
        weak ones light and marked ×.
    ''')),
    Code(_text('''
        order = list(irnb.evaluate(exp, ["P@10"]).means()["P@10"].sort_values(ascending=False).index)
        fig, ax = plt.subplots(figsize=(10, 8), layout="constrained")
        plots.case_matrix_plot(case_matrix(table), order=order, title="P@10 with A_p@10, official qrels", ax=ax)
        table["case"].value_counts().sort_index().rename("pairs").to_frame().assign(
            share=lambda t: (t["pairs"] / t["pairs"].sum()).round(3), meaning=lambda t: t.index.map(CASES))
    ''')),
    Md(_text('''
        The largest share of pairs (<<case4_share>>) is in case 4: P differs, and the better run is also the
        better judged one. Better runs
        tend to retrieve the documents the pool was built from, so a higher P@10 usually comes with a higher
        A_p@10 — most clearly for a contributing run (A_p@10 = 1) against one that did not contribute.

        ## 3. Table 1: case proportions across measurement depths

        The same classification at @10, @30, @100, @500, @1000 and for MAP (with MAA), for the official
        depth-<<pool_depth>> pool and for a shallower depth-10 pool of the same contributing runs.
    ''')),
    Code(_text('''
        pool10 = irnb.depth_pool(exp, depth=10)
        settings = {"official qrels (d = 100)": exp, "depth-10 pool": (exp, pool10.judged)}
        table1 = case_proportions(settings, test="t", alpha=0.05)
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
        for ax, setting in zip(axes, table1.index):
            plots.case_proportions_plot(table1, setting=setting, ax=ax)
        table1.round(2)
    ''')),
    Md(_text('''
        ## 4. A pair across measurement depths

        Baillie et al.'s Fig. 2 (IP&M Fig. 11): two runs' P@d and $A_p@d$ means with 95 % confidence
        intervals, and the pair's case written above each depth. `<<dc_a>>` and `<<dc_b>>` are equal at
        <<dc_equal>> (case 1); from @<<dc_first>> on `<<dc_better>>` is significantly better — at
        <<dc_strong>> on evenly judged rankings (case 3, strong), at <<dc_weak>> while also being the more
        judged run (case 4, weak): measured beyond the pool depth, its advantage may partly be the pool's.
    ''')),
    Code(_text('''
        curves = depth_curves(exp, "<<dc_a>>", "<<dc_b>>", test="t", alpha=0.05)
        fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
        plots.depth_curves_plot(curves, ax=ax)
        wide = curves.pivot_table(index="depth", columns=["kind", "run"], values="mean").round(3)
        wide[("case", "")] = curves.drop_duplicates("depth").set_index("depth")["case"]
        wide
    ''')),
    Md(_text('''
        ## 5. Live: the decision matrix

        Change the pool depth *d*, the measurement depth *k*, the measure, the contributing runs and the
        groups shown; the left panel is the run × run matrix, the right panel Table 1 for the current pool.
    ''')),
    Code(_text('''
        from irnb.widgets import decision_view

        view = decision_view(exp, test="t", alpha=0.05)
        display(view.widget)
    ''')),
]
NB03.exercises = [
    Exercise(
        title="Counting cases",
        question=_text('''
            With the official qrels, P@10 and the paired *t*-test (α = 0.05): how many of the <<n_pairs>> pairs fall in
            each case, and what share of all comparisons is weak (cases 2 and 4)?
        '''),
        explanation="`compare_table(exp, \"P@10\")` has one row per pair with its `case` and `strength`.",
        code=_text('''
            pairs = compare_table(exp, "P@10", test="t", alpha=0.05)
            counts = pairs["case"].value_counts().sort_index()
            weak = float((pairs["strength"] == "weak").mean())
            print(counts.to_string(), f"\\nweak share: {weak:.3f}")
            answer = {f"c{c}": int(counts.get(c, 0)) for c in (1, 2, 3, 4)} | {"weak": f"{weak:.3f}"}
        '''),
        numbers=_text('''
            Case 1: <<c1>>, case 2: <<c2>>, case 3: <<c3>>, case 4: <<c4>> pairs; weak share **<<weak>>**.
        '''),
    ),
    Exercise(
        title="A pair across depths",
        question=_text('''
            For `<<ex_a>>` and `<<ex_b>>`: what is the pair's case at @10, @30, @100, @500 and @1000? At which
            depth does a significant difference in P first appear, and which run is better there?
        '''),
        explanation=_text('''
            `depth_curves` gives one row per depth, kind and run with the pair's `case` and the measure's
            `significant` flag; the better run is the one with the higher mean.
        '''),
        code=_text('''
            curves = depth_curves(exp, "<<ex_a>>", "<<ex_b>>", test="t", alpha=0.05)
            cases = curves.drop_duplicates("depth").set_index("depth")["case"]
            measure_rows = curves[curves["kind"] == "measure"]
            first = int(measure_rows.loc[measure_rows["significant"], "depth"].min())
            at_first = measure_rows[measure_rows["depth"] == first].set_index("run")["mean"]
            print(cases.to_string(), f"\\nfirst significant at @{first}: {at_first.idxmax()} better", at_first.round(3).to_dict())
            answer = {"cases": ", ".join(f"@{d}: {c}" for d, c in cases.items()), "first": first,
                      "better": at_first.idxmax()}
        '''),
        numbers=_text('''
            Cases <<cases>>. P first differs significantly at **@<<first>>**, where **<<better>>** is better —
            although `<<ex_higher10>>` has the higher (non-significant) P@10.
        '''),
    ),
    Exercise(
        title="Are strong cases more reliable?",
        question=_text('''
            Use the depth-10 pool and P@10. For the pairs in case 3 and in case 4, what share keeps the same
            significant winner (*t*-test, α = 0.05) when the runs are evaluated with the complete truth?
        '''),
        explanation=_text('''
            Classify the pairs on the pool, classify them again on an Evaluation made with `truth=True`
            (`compare_table` accepts an Evaluation), and join the two tables on the pair. A weak case 4
            decision is confirmed less often than a strong case 3 decision.
        '''),
        code=_text('''
            pool_table = compare_table(exp, "P@10", judged=irnb.depth_pool(exp, depth=10).judged)
            true_table = compare_table(irnb.evaluate(exp, ["P@10", "Judged@10"], truth=True), "P@10")
            joined = pool_table.merge(true_table[["run_a", "run_b", "p_measure", "better"]], on=["run_a", "run_b"],
                                      suffixes=("", "_true"))
            joined["confirmed"] = (joined["p_measure_true"] < 0.05) & (joined["better_true"] == joined["better"])
            shares = joined[joined["case"].isin([3, 4])].groupby("case")["confirmed"].agg(["mean", "sum", "size"])
            print(shares.round(3).to_string())
            answer = {f"s{c}": f"{shares.loc[c, 'mean']:.3f}" for c in (3, 4)} | {
                f"n{c}": f"{int(shares.loc[c, 'sum'])} of {int(shares.loc[c, 'size'])}" for c in (3, 4)}
        '''),
        numbers=_text('''
            Case 3: **<<s3>>** (<<n3>>); case 4: **<<s4>>** (<<n4>>) — the weak decisions are wrong noticeably
            more often.
        '''),
    ),
]
NB03.references = _text('''
    ## Sources

    * M. Baillie, L. Azzopardi, I. Ruthven. *A retrieval evaluation methodology for incomplete relevance
      assessments.* ECIR 2007 — the decision matrix, Table 1, Fig. 2.
    * M. Baillie, L. Azzopardi, I. Ruthven. *Evaluating epistemic uncertainty under incomplete assessments.*
      Information Processing & Management 44(2), 2008 — Average Assessment and MAA, Fig. 11.
''')

NB03.facts = "\n\n".join([_COLLECTION_FACTS, _text('''
    import re

    from irnb.decision import DEPTHS

    names, group_of, alpha = list(exp.run_names), list(exp.groups), 0.05
    tables = {d: compare_table(exp, f"P@{d}", test="t", alpha=alpha).set_index(["run_a", "run_b"]) for d in DEPTHS}
    t10 = tables[10]


    def in_table(a, b):
        """The pair as the tables list it (in run order)."""
        return (a, b) if names.index(a) < names.index(b) else (b, a)


    # §1: a contributing run and a run of its group that did not contribute, in case 2 for P@10
    pairs_in_group = [(a, b) for a in names for b in names if is_contributor[names.index(a)]
                      and not is_contributor[names.index(b)] and group_of[names.index(a)] == group_of[names.index(b)]]
    c2_contributor, c2_other = search(
        "pair of a contributing run and a run of its group that did not contribute", pairs_in_group,
        [("03 §1: For P@10 their means do not differ significantly, but their A_p@10 do: case 2",
          lambda a, b: t10.loc[in_table(a, b), "case"] == 2)])
    facts |= {"c2_contributor": c2_contributor, "c2_other": c2_other}
    facts["c2_run_a"], facts["c2_run_b"] = in_table(c2_contributor, c2_other)

    # §2: case 4 holds the largest share; a higher P@10 usually comes with a higher A_p@10, most clearly for a
    # contributing run (A_p@10 = 1) against one that did not contribute
    counts = t10["case"].value_counts()
    claim(counts.idxmax() == 4, "The largest share of pairs is in case 4", counts.to_dict())
    facts["case4_share"] = f"{counts[4] / counts.sum():.0%}".replace("%", " %")
    differ = t10[t10["mean_diff"] != 0]
    together = float((np.sign(differ["mean_diff"]) == np.sign(differ["assessment_diff"])).mean())
    claim(together > 0.5, "a higher P@10 usually comes with a higher A_p@10", f"share {together:.3f}")
    judged10 = irnb.evaluate(exp, ["Judged@10"]).means()["Judged@10"]
    claim((judged10[is_contributor] == 1).all(), "a contributing run (A_p@10 = 1)")
    significant = t10[t10["case"].isin([3, 4])].reset_index()
    worse = np.where(significant["better"] == significant["run_a"], significant["run_b"], significant["run_a"])
    mixed = np.array([is_contributor[names.index(b)] and not is_contributor[names.index(w)]
                      for b, w in zip(significant["better"], worse)])
    share_mixed, share_all = float((significant["case"][mixed] == 4).mean()), float((significant["case"] == 4).mean())
    claim(share_mixed > share_all, "most clearly for a contributing run (A_p@10 = 1) against one that did not "
          "contribute [case 4 is commoner among the significant pairs such a run wins]",
          f"{share_mixed:.3f} against {share_all:.3f}")

    # §4: a pair equal at the shallow depths (case 1), then significantly different — first on evenly judged
    # rankings (case 3), beyond the pool depth with the better run also the more judged (case 4)
    cases = pd.DataFrame({d: tables[d]["case"] for d in DEPTHS})


    def depths_in(a, b, *which):
        return [d for d in DEPTHS if cases.loc[(a, b), d] in which]


    dc_conditions = [
        ("03 §4: equal at the shallow depths (case 1); from some depth on one run is significantly better — at "
         "first on evenly judged rankings (case 3, strong), deeper while also being the more judged run (case 4, "
         "weak)",
         lambda a, b: re.fullmatch("1+3+4+", "".join(str(c) for c in cases.loc[(a, b)])) is not None),
        ("03 §4: from @d on X is significantly better [the same run at every depth from d on]",
         lambda a, b: len({tables[d].loc[(a, b), "better"] for d in depths_in(a, b, 3, 4)}) == 1),
        ("03 §4: on evenly judged rankings (case 3) [A_p not significantly different]",
         lambda a, b: all(tables[d].loc[(a, b), "p_assessment"] >= alpha for d in depths_in(a, b, 3))),
        ("03 §4: (case 4, weak): measured beyond the pool depth [every case-4 depth is deeper than the pool]",
         lambda a, b: min(depths_in(a, b, 4)) > pool_depth),
    ]
    dc_a, dc_b = search("pair of runs", list(cases.index), dc_conditions)
    curves = depth_curves(exp, dc_a, dc_b, test="t", alpha=alpha)
    claim(curves.drop_duplicates("depth").set_index("depth")["case"].to_dict() == cases.loc[(dc_a, dc_b)].to_dict(),
          "03 §4: the cases of the found pair [depth_curves agrees with compare_table]")
    facts |= {"dc_a": dc_a, "dc_b": dc_b, "dc_better": tables[DEPTHS[-1]].loc[(dc_a, dc_b), "better"],
              "dc_first": depths_in(dc_a, dc_b, 3, 4)[0], "dc_equal": listing(depths_in(dc_a, dc_b, 1), prefix="@"),
              "dc_strong": listing(depths_in(dc_a, dc_b, 3), prefix="@"),
              "dc_weak": listing(depths_in(dc_a, dc_b, 4), prefix="@")}

    # exercise 2: a pair whose P@10 difference is not significant, that differs significantly deeper — in favour
    # of the run with the lower P@10
    def higher10(a, b):
        return a if t10.loc[(a, b), "mean_diff"] > 0 else b


    ex_a, ex_b = search("pair of runs (other than section 4's)", [p for p in cases.index if p != (dc_a, dc_b)], [
        ("03 exercise 2: `X` has the higher (non-significant) P@10",
         lambda a, b: cases.loc[(a, b), 10] in (1, 2) and t10.loc[(a, b), "mean_diff"] != 0),
        ("03 exercise 2: At which depth does a significant difference in P first appear [one does]",
         lambda a, b: bool(depths_in(a, b, 3, 4))),
        ("03 exercise 2: [the better run there is the other one,] although `X` has the higher P@10",
         lambda a, b: tables[depths_in(a, b, 3, 4)[0]].loc[(a, b), "better"] != higher10(a, b)),
    ])
    facts |= {"ex_a": ex_a, "ex_b": ex_b, "ex_higher10": higher10(ex_a, ex_b)}
''')])
NB03.exercises[1].checks = _text('''
    claim(at_first.idxmax() != facts["ex_higher10"], "P first differs significantly at @d, where Y is better — "
          "although X has the higher (non-significant) P@10", f"{at_first.idxmax()} is better at @{first}")
    claim(int(cases[10]) in (1, 2), "X has the higher (non-significant) P@10")
''')
NB03.exercises[2].checks = _text('''
    claim(shares.loc[3, "mean"] - shares.loc[4, "mean"] >= 0.05, "the weak decisions are wrong noticeably more often "
          "[case 4 confirmed at least 0.05 less often than case 3]", shares["mean"].round(3).to_dict())
''')


# ============================================================================================ 04
NB04 = Notebook(
    filename="04_pool_bias.ipynb",
    setup=_text('''
        import numpy as np
        import pandas as pd
        import matplotlib.pyplot as plt
        import irnb
        from irnb import plots
        from irnb.bias import contributor_subset_bias, leave_one_group_out_bias, subsampling_curves
        from irnb.datasets import default

        collection = default()        # the embedded default: a simulated TREC-like collection (seed 0)
        exp = collection.experiment   # official qrels = depth-<<pool_depth>> pool of <<n_contributing>> contributing runs; truth known
        info = collection.run_info.set_index("run")
        exp
    '''),
)
NB04.cells = [
    Md(_text('''
        # 04 — Pool bias

        A pool is built from the runs that took part, so it favours them: a later run that finds relevant
        documents nobody pooled is scored as if they were non-relevant. Büttcher, Clarke, Yeung & Soboroff
        (SIGIR 2007) measure this bias with a **leave-one-group-out** experiment: for each group G, the
        documents only G's runs put in the pool become unjudged, G's runs are re-evaluated and re-ranked
        among all runs (which keep their full-pool scores), and the damage is reported as rank changes,
        the RMS error of the scores, the share of runs whose per-topic scores change significantly, and
        Kendall's τ (and τ_AP) between the full and the reduced rankings.

        Their headline: **AP underestimates** the runs left out of the pool (it counts their unjudged
        documents as non-relevant), while **bpref overestimates** them (it ignores unjudged documents, so a
        run whose judged documents are few and good looks better). They contrast this with *unbiased*
        incompleteness — a uniform random subset of the qrels — under which bpref is stable.
    ''')),
    Code("<<setup>>"),
    Md(_text('''
        ## 1. Leave one group out, on the official pool

        The official qrels are exactly the depth-<<pool_depth>> pool of the <<n_contributing>> contributing
        runs. For each of the <<n_groups>> groups (all have a contributor), its unique contributions are
        removed; the table has the paper's layout (Table 2): statistics as rows, measures as columns.
    ''')),
    Code(_text('''
        measures = ["AP", "Bpref", "P@10", "nDCG@20", "P@20(j)", "RankEff", "infAP"]
        official = leave_one_group_out_bias(exp, depth=<<pool_depth>>, measures=measures)
        official.table().round(3)
    ''')),
    Md(_text('''
        AP, P@10 and nDCG@20 move left-out runs down; bpref and P@20(j) (P@20 over the judged documents
        only) move them up; RankEff moves them least. (infAP equals AP here: removing a group's
        contributions leaves documents out of the qrels entirely, and infAP differs from AP only through
        documents marked "pooled but not judged".)

        ## 2. A shallower pool: AP versus bpref

        With a depth-20 pool the same experiment (reference: the full depth-20 pool) moves the left-out runs
        much further down under AP (by <<ap20_down>> places on average, against <<ap_official_down>> in
        section 1), while bpref still moves most of them up. Each point is a left-out run, at its reference
        rank.
    ''')),
    Code(_text('''
        shallow = leave_one_group_out_bias(exp, depth=20, measures=["AP", "Bpref"], reference="pool")
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained")
        plots.bias_plot(shallow, value="rank", ax=left)
        plots.bias_plot(shallow, value="score", ax=right)
        shallow.summary()[["moved_down", "moved_up", "mean_rank_change", "mean_score_change", "kendall_tau"]].round(3)
    ''')),
    Md(_text('''
        ## 3. τ against pool depth

        The ranking of all runs by their leave-one-out scores against the reference ranking, for pools of
        depth 5 to 100.
    ''')),
    Code(_text('''
        by_depth = {d: leave_one_group_out_bias(exp, depth=d, measures=["AP", "Bpref", "P@10", "RankEff"],
                                                reference="pool")
                    for d in (5, 10, 20, 50, 100)}
        fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
        plots.tau_depth_plot(by_depth, value="kendall_tau", ax=ax)
        pd.DataFrame({d: r.summary()["kendall_tau"] for d, r in by_depth.items()}).round(3)
    ''')),
    Md(_text('''
        ## 4. Unbiased incompleteness: random subsampling

        Büttcher et al.'s Figure 1: keep a uniform random 5 %–80 % of each topic's qrels
        (`irnb.random_subsample`, seeded) and compare the ranking with the full-qrels ranking. Nothing
        here favours any run; mean AP falls with the share kept (<<subsample_ap>>), mean bpref barely
        moves (<<subsample_bpref>>).
    ''')),
    Code(_text('''
        curves = subsampling_curves(exp, seed=0, measures=["AP", "Bpref", "P@10", "nDCG@20"])
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
        plots.subsampling_plot(curves, value="kendall_tau", ax=left)
        plots.subsampling_plot(curves, value="mean_score", ax=right)
        curves.pivot(index="fraction", columns="measure", values="kendall_tau").round(3)
    ''')),
    Md(_text('''
        Büttcher et al. go on to *complete* the qrels by predicting the relevance of unjudged documents
        with classifiers (KLD, linear SVM) trained on the judged ones; irnb has that in `irnb.predict`
        (it needs the optional `irnb[predict]` dependencies).

        ## 5. Live: pool bias

        Choose the pool depth *d* and the contributing runs; every group with a contributing run is left
        out in turn. The right panel shows Kendall's τ against pool depth, the current *d* dotted.
    ''')),
    Code(_text('''
        from irnb.widgets import bias_view

        view = bias_view(exp, measures=("AP", "Bpref"))
        view.controls["depth"].value = 20
        display(view.widget)
    ''')),
]
NB04.exercises = [
    Exercise(
        title="Down with AP, up with bpref",
        question=_text('''
            With a depth-20 pool (`reference="pool"`): of the <<n_left_out20>> left-out runs, how many does AP move
            down and how many up? And bpref?
        '''),
        explanation="`BiasResult.summary()` counts `moved_down` and `moved_up` per measure.",
        code=_text('''
            result = leave_one_group_out_bias(exp, depth=20, measures=["AP", "Bpref"], reference="pool")
            moves = result.summary()[["left_out", "moved_down", "moved_up"]]
            print(moves.to_string())
            answer = {f"{m}_{c}": int(moves.loc[m, c]) for m in ("AP", "Bpref") for c in ("moved_down", "moved_up")}
        '''),
        numbers=_text('''
            AP: **<<AP_moved_down>> down**, <<AP_moved_up>> up; bpref: <<Bpref_moved_down>> down,
            **<<Bpref_moved_up>> up**.
        '''),
    ),
    Exercise(
        title="The biggest loser",
        question=_text('''
            With a depth-10 pool (`reference="pool"`): which run loses the most places under AP when its group
            is left out, from which rank to which? What kind of run is it (`collection.run_info`)?
        '''),
        explanation=_text('''
            `BiasResult.to_frame()` has `reference_rank`, `reduced_rank` and `rank_change` per run; the run's
            kind and whether it is manual are in `collection.run_info`. <<loser_hint>>
        '''),
        code=_text('''
            frame = leave_one_group_out_bias(exp, depth=10, measures=["AP"], reference="pool").to_frame()
            row = frame.loc[frame["rank_change"].idxmin()]
            kind = info.loc[row["run"], "kind"]
            manual = bool(info.loc[row["run"], "manual"])
            print(f"{row['run']}: rank {row['reference_rank']} → {row['reduced_rank']} ({row['rank_change']}); "
                  f"kind {kind}, manual {manual}")
            answer = {"run": row["run"], "from": int(row["reference_rank"]), "to": int(row["reduced_rank"]),
                      "kind": kind, "manual": "a manual" if manual else "an automatic"}
        '''),
        numbers=_text('''
            **<<run>>** falls from rank <<from>> to <<to>>; it is <<manual>> run of kind *<<kind>>*.
        '''),
    ),
    Exercise(
        title="An automatic-only pool",
        question=_text('''
            Büttcher et al.'s Table 3 builds the pool from the automatic runs only. Pool the automatic
            contributing runs at depth <<pool_depth>> (`contributor_subset_bias`): by how many places do the manual
            contributing runs move on average under AP, and under bpref?
        '''),
        explanation=_text('''
            The automatic contributors are the contributing runs with `manual == False`; the left-out runs
            default to the contributors outside the subset (the manual ones).
        '''),
        code=_text('''
            automatic = [run for run in exp.run_names if info.loc[run, "contributor"] and not info.loc[run, "manual"]]
            result = contributor_subset_bias(exp, automatic, depth=<<pool_depth>>, measures=["AP", "Bpref"])
            summary = result.summary()
            print(summary[["left_out", "mean_rank_change", "mean_score_change"]].round(3).to_string())
            answer = {"n": int(summary.loc["AP", "left_out"]), "ap": f"{summary.loc['AP', 'mean_rank_change']:+.2f}",
                      "bpref": f"{summary.loc['Bpref', 'mean_rank_change']:+.2f}"}
        '''),
        numbers=_text('''
            The <<n>> manual runs move **<<ap>>** places on average under AP and **<<bpref>>** under bpref
            (negative = down): <<bpref_verdict>>.
        '''),
    ),
]
NB04.references = _text('''
    ## Sources

    * S. Büttcher, C. L. A. Clarke, P. C. K. Yeung, I. Soboroff. *Reliable information retrieval evaluation
      with incomplete and biased judgements.* SIGIR 2007 — leave-one-group-out (Table 2), automatic-only
      pools (Table 3), random subsampling (Fig. 1), bpref versus AP, RankEff.
    * E. Yilmaz, J. A. Aslam, S. Robertson. *A new rank correlation coefficient for information retrieval.*
      SIGIR 2008 — τ_AP.
''')

NB04.facts = "\n\n".join([_COLLECTION_FACTS, _text('''
    with_contributor = {group for group, c in zip(exp.groups, exp.contributors) if c}
    claim(len(with_contributor) == len(set(exp.groups)), "For each of the groups (all have a contributor)",
          f"groups without a contributing run: {sorted(set(exp.groups) - with_contributor)}")

    # §1: AP, P@10 and nDCG@20 move left-out runs down; bpref and P@20(j) up; RankEff least; infAP equals AP
    measures = ["AP", "Bpref", "P@10", "nDCG@20", "P@20(j)", "RankEff", "infAP"]
    official = leave_one_group_out_bias(exp, depth=pool_depth, measures=measures)
    summary = official.summary()
    for m in ("AP", "P@10", "nDCG@20"):
        claim(summary.loc[m, "mean_rank_change"] < 0 and summary.loc[m, "moved_down"] > summary.loc[m, "moved_up"],
              f"{m} moves left-out runs down", summary.loc[m, ["mean_rank_change", "moved_down", "moved_up"]].to_dict())
    for m in ("Bpref", "P@20(j)"):
        claim(summary.loc[m, "mean_rank_change"] > 0 and summary.loc[m, "moved_up"] > summary.loc[m, "moved_down"],
              f"{m} moves them up", summary.loc[m, ["mean_rank_change", "moved_down", "moved_up"]].to_dict())
    claim(summary["mean_abs_rank_change"].idxmin() == "RankEff", "RankEff moves them least",
          summary["mean_abs_rank_change"].to_dict())
    table = official.table()
    claim(np.allclose(table["infAP"], table["AP"], rtol=0, atol=1e-6), "infAP equals AP here",
          f"largest difference {(table['infAP'] - table['AP']).abs().max():.2g}")

    # §2: with a depth-20 pool AP moves the left-out runs much further down, bpref still moves most of them up
    shallow = leave_one_group_out_bias(exp, depth=20, measures=["AP", "Bpref"], reference="pool").summary()
    down20, down_official = -shallow.loc["AP", "mean_rank_change"], -summary.loc["AP", "mean_rank_change"]
    claim(down20 >= 1.5 * down_official > 0, "With a depth-20 pool … moves the left-out runs much further down under "
          "AP [at least 1.5 times as far on average]", f"{down20:.2f} against {down_official:.2f} places")
    claim(shallow.loc["Bpref", "moved_up"] > shallow.loc["Bpref", "left_out"] / 2, "bpref still moves most of them up",
          shallow.loc["Bpref", ["left_out", "moved_up"]].to_dict())
    facts |= {"ap20_down": f"{down20:.1f}", "ap_official_down": f"{down_official:.1f}",
              "n_left_out20": int(shallow.loc["AP", "left_out"])}

    # §4: under random subsampling mean AP falls with the share kept, mean bpref barely moves
    curves = subsampling_curves(exp, seed=0, measures=["AP", "Bpref"])
    means = curves.groupby(["fraction", "measure"])["mean_score"].mean().unstack()
    ap, bpref = means["AP"], means["Bpref"]
    claim((np.diff(ap) >= -0.05 * ap.max()).all() and ap.iloc[0] <= ap.iloc[-1] / 2, "mean AP falls with the share "
          "kept [to half or less, never rising by more than 5 % of its top value]", ap.round(3).to_dict())
    ap_spread, bpref_spread = (ap.max() - ap.min()) / ap.max(), (bpref.max() - bpref.min()) / bpref.max()
    claim(bpref_spread <= min(0.25, ap_spread / 3), "mean bpref barely moves [by at most a quarter, and a third as "
          "much as AP]", f"bpref {bpref.round(3).to_dict()}, AP {ap.round(3).to_dict()}")
    facts |= {"subsample_ap": f"from {ap.iloc[-1]:.3f} with {ap.index[-1]:.0%} kept to {ap.iloc[0]:.3f} with "
                              f"{ap.index[0]:.0%}".replace("%", " %"),
              "subsample_bpref": f"{bpref.min():.3f}–{bpref.max():.3f}"}

    # exercise 2: the run that loses most under AP at depth 10; the hint in its explanation follows its kind
    frame = leave_one_group_out_bias(exp, depth=10, measures=["AP"], reference="pool").to_frame()
    loser = frame.loc[frame["rank_change"].idxmin(), "run"]
    facts["loser"] = loser
    if info.loc[loser, "kind"] == "novel":
        facts["loser_hint"] = ("A *novel* run finds relevant documents the other runs do not rank high, so it owns "
                               "many of the pool's unique documents.")
    else:
        from irnb.pooling import leave_one_group_out

        full, without = irnb.depth_pool(exp, depth=10).judged, leave_one_group_out(exp, depth=10)
        relevant = exp.judgments.qrel_grade >= 1
        unique = {g: int((full & ~without.judged[i] & relevant).sum()) for i, g in enumerate(without.groups)}
        group = info.loc[loser, "group"]
        place = 1 + sum(n > unique[group] for n in unique.values())   # groups tied with it share its place
        tied = sorted(g for g, n in unique.items() if n == unique[group] and g != group)
        claim(place <= 3, "how many places a run loses depends on how many relevant documents only its group pooled "
              "[the biggest loser's group has one of the three highest counts]",
              f"group {group}: {unique[group]}, place {place} of {len(unique)}; all groups: {unique}")
        ordinal = {1: "highest", 2: "second-highest", 3: "third-highest"}[place]
        standing = (f"the {ordinal} count among the {len(unique)} groups" if not tied else
                    f"tied with group{'s' if len(tied) > 1 else ''} {listing(tied)} for the {ordinal} count among the "
                    f"{len(unique)} groups")
        facts["loser_hint"] = (
            "Here the biggest loser is not a *novel* run (one that finds relevant documents the other runs do not "
            "rank high, so it owns many of the pool's unique documents): how many places a run loses depends on how many "
            f"relevant documents only its group pooled — {unique[group]} for group {group}, {standing} — and on how "
            "close its neighbours in the ranking are.")

    # exercise 3: the automatic-only pool; the closing words follow the sign of bpref's mean rank change
    automatic = [run for run in exp.run_names if info.loc[run, "contributor"] and not info.loc[run, "manual"]]
    subset = contributor_subset_bias(exp, automatic, depth=pool_depth, measures=["AP", "Bpref"]).summary()
    ap_move, bpref_move = (round(float(subset.loc[m, "mean_rank_change"]), 2) for m in ("AP", "Bpref"))  # as printed
    claim(ap_move < 0, "The manual runs move N places on average under AP (negative = down) [AP moves them down]",
          f"AP {ap_move:+.2f}")
    if bpref_move > 0:
        facts["bpref_verdict"] = "bpref even moves them up"
    elif bpref_move == 0:
        facts["bpref_verdict"] = "bpref leaves them where they were, on average"
    else:
        claim(bpref_move > ap_move / 2, "bpref hurts them much less [it moves them down less than half as far as AP]",
              f"AP {ap_move:+.2f}, bpref {bpref_move:+.2f}")
        facts["bpref_verdict"] = "bpref hurts them much less"
    facts |= {"subset_ap": f"{ap_move:+.2f}", "subset_bpref": f"{bpref_move:+.2f}"}
''')])
NB04.exercises[0].checks = _text('''
    claim(moves.loc["AP", "moved_down"] > moves.loc["AP", "moved_up"], "AP: **N down**, M up [more down than up]")
    claim(moves.loc["Bpref", "moved_up"] > moves.loc["Bpref", "moved_down"], "bpref: N down, **M up** [more up]")
''')
NB04.exercises[1].checks = _text('''
    claim(row["run"] == facts["loser"], "the explanation's hint is about the biggest loser",
          f"the answer finds {row['run']}, the facts {facts['loser']}")
''')
NB04.exercises[2].checks = _text('''
    claim(answer["ap"] == facts["subset_ap"] and answer["bpref"] == facts["subset_bpref"], "(negative = down): "
          f"{facts['bpref_verdict']} [the facts chose those words from the same numbers]",
          f"the answer gives AP {answer['ap']}, bpref {answer['bpref']}; the facts {facts['subset_ap']}, "
          f"{facts['subset_bpref']}")
''')


# ============================================================================================ 05
NB05 = Notebook(
    filename="05_your_own_data.ipynb",
    setup=_text('''
        import tempfile
        import time
        from pathlib import Path

        import numpy as np
        import pandas as pd
        import matplotlib.pyplot as plt
        import irnb
        from irnb import plots

        USE_SHARED_DATA = True   # False: always use the simulated collection written as TREC files


        def find_shared(name):
            """The folder ``shared/data/<name>`` beside this checkout (or beside the irnb package), if any."""
            for start in (Path.cwd().resolve(), Path(irnb.__file__).resolve()):
                for parent in start.parents:
                    if (parent / "shared" / "data" / name).is_dir():
                        return parent / "shared" / "data" / name
            return None


        covid = find_shared("trec-covid-round1") if USE_SHARED_DATA else None
        if covid is not None:
            # TREC-COVID round 1: 143 runs of 56 teams, official round-1 qrels; teams and pooled runs from the
            # leaderboard; the complete TREC-COVID qrels (topics 1–30) as a deeper truth
            from irnb.datasets.real import trec_covid_deep_truth, trec_covid_leaderboard

            board = trec_covid_leaderboard(covid)
            DATA = "TREC-COVID round 1"
            RUNS = covid / "runs-round1.tar.xz"
            QRELS = covid / "qrels-rnd1.txt"
            TRUTH = trec_covid_deep_truth(covid)
            GROUPS = board["team"].astype(str).to_dict()
            CONTRIBUTORS = board.index[board["contributed"]].tolist()
            POOL_DEPTH = 7           # the pool depth the round-1 judgments show (see the README)
        else:
            # the simulator writes its collection as TREC files; the notebook reads them back like any other
            from irnb.datasets import default, write_collection

            workdir = tempfile.TemporaryDirectory(prefix="irnb-")   # removed when the kernel stops
            folder = write_collection(default(), Path(workdir.name) / "simulated")
            table = pd.read_csv(folder / "runs.tsv", sep="\\t")
            DATA = "simulated collection (seed 0)"
            RUNS = folder / "runs"
            QRELS = folder / "qrels.txt"
            TRUTH = folder / "qrels.truth.txt"
            GROUPS = dict(zip(table["run"], table["group"]))
            CONTRIBUTORS = table.loc[table["contributor"] == 1, "run"].tolist()
            POOL_DEPTH = default().params["pool_depth"]   # <<sim_pool_depth>>

        start = time.perf_counter()
        exp = irnb.Experiment(RUNS, QRELS, groups=GROUPS, contributors=CONTRIBUTORS, truth=TRUTH)
        contributing = np.asarray(exp.contributors)
        print(f"{DATA}: {exp} — read in {time.perf_counter() - start:.1f} s")
    '''),
    variants={"TREC-COVID round 1": {}, "the simulated fallback": {r"USE_SHARED_DATA = True": "USE_SHARED_DATA = False"}},
)
NB05.facts = _text('''
    from irnb.datasets import default

    judged10 = irnb.evaluate(exp, ["Judged@10"]).means()["Judged@10"]
    least = (judged10.rank(method="first") <= len(judged10) / 4).to_numpy()   # the least-judged quarter of the runs
    claim(judged10[~contributing].mean() < judged10[contributing].mean() and (~contributing[least]).mean() > 0.5,
          "Runs that did not contribute to the pool are usually the least judged [lower mean A_p@10, and most of the "
          "least-judged quarter]", f"{DATA}: mean A_p@10 {judged10[contributing].mean():.3f} (contributing) against "
          f"{judged10[~contributing].mean():.3f}; {int((~contributing[least]).sum())} of {int(least.sum())}")
    if covid is not None:
        claim(len(exp.run_names) == 143 and len(set(exp.groups)) == 56, "TREC-COVID round 1: 143 runs of 56 teams",
              f"{len(exp.run_names)} runs of {len(set(exp.groups))} teams")
    facts = {"sim_pool_depth": default().params["pool_depth"]}
''')
NB05.cells = [
    Md(_text('''
        # 05 — Your own data

        Everything in notebooks 01–04 works on any TREC-format runs and qrels. This notebook loads files —
        by default TREC-COVID round 1 from the project's `../shared/data` folder when it is there
        (the README's real-data numbers come from it), otherwise the simulated collection written to a
        temporary folder as TREC files — and runs the same views on them. At the end, an upload widget loads
        your own files from the browser.

        **What irnb needs**

        * `RUNS`: a run file (`qid Q0 docno rank score tag`), a list of them, a folder of them, or a
          `.tar`/`.tar.gz`/`.tar.xz` archive; plain, gzip, bzip2 or xz. Ranking is trec_eval's: by score,
          ties by docno descending; the rank column is ignored.
        * `QRELS`: `qid iteration docno grade`; negative grades mean "pooled but not judged".
        * optional `GROUPS` (run → group, for leave-one-group-out), `CONTRIBUTORS` (the runs that built the
          pool; default every run) and `TRUTH` (deeper or complete qrels, e.g. judgments from a later round);
          `POOL_DEPTH` is the depth the pool was built to (for the bias experiment).

        Edit the paths in the next cell to use your own files.
    ''')),
    Code("<<setup>>"),
    Md(_text('''
        ## 1. Scores and Assessment Precision

        trec_eval's numbers plus $A_p@10$ (`Judged@10`, notebook 01). Runs that did not contribute to the
        pool are usually the least judged.
    ''')),
    Code(_text('''
        means = irnb.evaluate(exp, ["P@10", "nDCG@10", "AP", "Bpref", "Judged@10"]).means()
        means["contributed"] = contributing
        display(means.groupby("contributed")[["P@10", "AP", "Judged@10"]].mean().round(3))
        fig, ax = plt.subplots(figsize=(12, 4), layout="constrained")
        plots.ranked_runs_plot(means, measure="P@10", assessment="Judged@10", ax=ax)
        ax.set_title(f"{DATA}: P@10 and A_p@10 per run", fontsize="medium");
    ''')),
    Md(_text('''
        ## 2. Intervals, estimators and E

        [B, T] of P@10 against the official qrels with $X_M$ (E = 0.01, λ = 1 − Δ), and the truth when
        `TRUTH` is given (notebook 02); then E estimated from the data.
    ''')),
    Code(_text('''
        iv = irnb.score_intervals(exp, "P@10")
        est = irnb.point_estimates(iv, background_rate=0.01, smoothing="auto")
        true_means = irnb.evaluate(exp, ["P@10"], truth=True).aggregate("P@10") if exp.truth is not None else None
        fit = irnb.estimate_background_rate(exp, depth=10)
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6), layout="constrained", width_ratios=(3, 2))
        plots.intervals_plot(iv, estimates=est, estimator="M", truth=true_means, top=30, ax=left)
        plots.background_rate_plot(fit, ax=right)
        print(f"E estimated at depth 10: {fit.rate:.3f} (share of judged documents relevant: {fit.overall:.3f})")
    ''')),
    Md(_text('''
        ## 3. Unjudged documents of a pair

        The best contributing run against the best run of another group that did not contribute (by P@10),
        at *k* = 20.
    ''')),
    Code(_text('''
        from irnb.pooling import unjudged_overlap

        group = pd.Series(exp.groups, index=exp.run_names)
        run_a = means.loc[contributing, "P@10"].idxmax()
        others = means.index[(group != group[run_a]).to_numpy() & ~contributing]   # another group, not pooled
        run_b = means.loc[others, "P@10"].idxmax() if len(others) else means["P@10"].drop(run_a).idxmax()
        pair = unjudged_overlap(exp, run_a, run_b, measurement_depth=20)
        fig, ax = plt.subplots(figsize=(10, 4), layout="constrained")
        plots.unjudged_plot(pair, run_a=run_a, run_b=run_b, measure="P@20", ax=ax)
        pair[["unjudged_a", "unjudged_b", "overlap"]].sum()
    ''')),
    Md(_text('''
        ## 4. Decision matrix and pool bias

        Table 1 of Baillie et al. (notebook 03) at the depths the runs reach, and Büttcher et al.'s
        leave-one-group-out (notebook 04) at the collection's pool depth, over the official qrels.
    ''')),
    Code(_text('''
        from irnb.bias import leave_one_group_out_bias
        from irnb.decision import case_proportions

        depths = [m for m in ("P@10", "P@30", "P@100", "P@1000") if int(m[2:]) <= exp.depth] + ["AP"]
        display(case_proportions({DATA: exp}, measures=depths, test="t", alpha=0.05).round(3))
        bias = leave_one_group_out_bias(exp, depth=POOL_DEPTH, measures=["AP", "Bpref", "P@10"])
        bias.table().round(3)
    ''')),
    Md(_text('''
        ## 5. Live: every view on your data

        The explorer holds the four views of notebooks 01–04 in tabs, driven by one set of controls.
    ''')),
    Code(_text('''
        from irnb.widgets import explorer

        explore = explorer(exp)
        display(explore.widget)
    ''')),
    Md(_text('''
        ## 6. Upload your own files

        In JupyterLab (or on Binder), choose your run files (several at once, or one `.tar.gz` archive) and
        your qrels, optionally a deeper "truth" qrels, then press **Load**. The files are written to a
        temporary folder and read by the same reader as above, so every file rule applies; an error names
        the file and line. `experiment_from_upload` takes the widgets' `.value` — in ipywidgets 8 a tuple of
        dicts with `name` and `content` (a memoryview) — so it can also be called from code.
    ''')),
    Code(_text('''
        import ipywidgets as widgets


        def _uploaded_files(value):
            """(name, bytes) of a FileUpload's value: ipywidgets 8's tuple of dicts, or ipywidgets 7's dict."""
            if isinstance(value, dict):   # ipywidgets 7: {name: {"content": bytes, "metadata": {...}}}
                value = [{"name": name, **item} for name, item in value.items()]
            return [(Path(item["name"]).name, bytes(item["content"])) for item in value]


        def experiment_from_upload(runs_value, qrels_value, truth_value=(), *, groups=None, contributors=None):
            """An irnb.Experiment from FileUpload values: run files (or archives) and one qrels file."""
            runs, qrels, truth = (_uploaded_files(v) for v in (runs_value, qrels_value, truth_value))
            if not runs or len(qrels) != 1 or len(truth) > 1:
                raise ValueError(f"expected at least one run file and exactly one qrels file (and at most one truth "
                                 f"file), got {len(runs)} run files, {len(qrels)} qrels and {len(truth)} truth files")
            with tempfile.TemporaryDirectory(prefix="irnb-upload-") as tmp:   # the Experiment keeps no file open
                folder = Path(tmp)
                paths = {}
                for kind, files in (("runs", runs), ("qrels", qrels), ("truth", truth)):
                    (folder / kind).mkdir()
                    paths[kind] = [folder / kind / name for name, _ in files]
                    for path, (_, data) in zip(paths[kind], files):
                        path.write_bytes(data)
                return irnb.Experiment(paths["runs"], paths["qrels"][0], groups=groups, contributors=contributors,
                                       truth=paths["truth"][0] if truth else None)


        run_upload = widgets.FileUpload(description="runs", multiple=True)
        qrels_upload = widgets.FileUpload(description="qrels", multiple=False)
        truth_upload = widgets.FileUpload(description="truth (optional)", multiple=False)
        load = widgets.Button(description="Load", button_style="primary")
        shown = widgets.Output()


        def on_load(_):
            global exp
            shown.clear_output()
            with shown:
                try:
                    exp = experiment_from_upload(run_upload.value, qrels_upload.value, truth_upload.value)
                except (ValueError, TypeError) as err:
                    print(f"⚠ {err}")
                    return
                print(exp)
                display(explorer(exp).widget)


        load.on_click(on_load)
        display(widgets.VBox([widgets.HBox([run_upload, qrels_upload, truth_upload, load]), shown]))
    ''')),
    Md(_text('''
        After **Load**, `exp` is your data: re-run sections 1–5 (not the set-up cell) to see it in every view.
        The same function, called with what a FileUpload holds after choosing three runs and the qrels
        (this is how the notebook checks it without a browser):
    ''')),
    Code(_text('''
        import datetime

        def as_upload(*paths):
            """What ipywidgets 8's FileUpload.value holds for these files."""
            return tuple({"name": p.name, "type": "text/plain", "size": p.stat().st_size,
                          "content": memoryview(p.read_bytes()),
                          "last_modified": datetime.datetime.fromtimestamp(p.stat().st_mtime, datetime.timezone.utc)}
                         for p in paths)

        with tempfile.TemporaryDirectory(prefix="irnb-sample-") as tmp:   # three of the runs above and the qrels
            sample = Path(tmp)
            (sample / "runs").mkdir()
            for name in sorted(exp.run_names)[:3]:
                irnb.write_run(exp.runs[name], sample / "runs" / Path(name).name)
            irnb.write_qrels(exp.qrels, sample / "qrels.txt")
            uploaded = experiment_from_upload(as_upload(*sorted((sample / "runs").iterdir())),
                                              as_upload(sample / "qrels.txt"))
        print(uploaded)
        irnb.evaluate(uploaded, ["P@10", "Judged@10"]).means().round(3).head()
    ''')),
]
NB05.exercises = [
    Exercise(
        title="The least-judged runs",
        question=_text('''
            How many runs have a mean $A_p@10$ below 0.5, and how many of them contributed to the pool? Which
            run is the least judged?
        '''),
        explanation="Evaluate `Judged@10` against the official qrels and compare with `exp.contributors`.",
        code=_text('''
            judged10 = irnb.evaluate(exp, ["Judged@10"]).means()["Judged@10"]
            low = judged10 < 0.5
            n_low, n_low_contributing = int(low.sum()), int((low & np.asarray(exp.contributors)).sum())
            print(f"{DATA}: {n_low} of {len(judged10)} runs below 0.5 ({n_low_contributing} contributed); "
                  f"least judged: {judged10.idxmin()} ({judged10.min():.3f})")
            answer = {"n": n_low, "of": len(judged10), "c": n_low_contributing, "run": judged10.idxmin(),
                      "min": f"{judged10.min():.3f}"}
        '''),
        numbers="<<n>> of <<of>> runs (<<c>> of them contributed); the least judged is `<<run>>` (A_p@10 = <<min>>).",
    ),
    Exercise(
        title="Is the truth inside the intervals?",
        question=_text('''
            If your data has a deeper `TRUTH`, check Ravana & Moffat's guarantee: for how many (run, topic)
            pairs does the true P@10 fall outside [B, T]? What is the mean residual Δ of the contributing and
            of the other runs?
        '''),
        explanation=_text('''
            B ≤ true ≤ T holds whenever the qrels agree with the truth on what they judge; a violation points
            at a judgment that changed between the two qrels.
        '''),
        code=_text('''
            intervals = irnb.score_intervals(exp, "P@10")
            if exp.truth is None:
                print("no TREC truth given: set TRUTH to a deeper qrels file")
                answer = {"outside": "–", "cells": "–", "dc": "–", "dn": "–"}
            else:
                true = irnb.evaluate(exp, ["P@10"], truth=True)["P@10"]
                outside = ((true < intervals.lower - 1e-12) | (true > intervals.upper + 1e-12)) & intervals.evaluated
                delta = intervals.mean_residual
                c = np.asarray(exp.contributors)
                print(f"{int(outside.sum())} of {int(intervals.evaluated.sum())} (run, topic) pairs outside [B, T]; "
                      f"mean Δ contributing {delta[c].mean():.3f}, others {delta[~c].mean() if (~c).any() else float('nan'):.3f}")
                answer = {"outside": int(outside.sum()), "cells": int(intervals.evaluated.sum()),
                          "dc": f"{delta[c].mean():.3f}", "dn": f"{delta[~c].mean():.3f}" if (~c).any() else "–"}
        '''),
        numbers="<<outside>> of <<cells>> pairs outside; mean Δ <<dc>> (contributing) and <<dn>> (the others).",
    ),
    Exercise(
        title="Who gains from bpref?",
        question=_text('''
            In the leave-one-group-out experiment at the pool depth (section 4), which left-out run moves up the most
            under bpref, and how does the same run move under AP?
        '''),
        explanation="Take `bias.to_frame()`, keep `left_out` rows, and compare `rank_change` under the two measures.",
        code=_text('''
            from irnb.bias import leave_one_group_out_bias

            moves = leave_one_group_out_bias(exp, depth=POOL_DEPTH, measures=["AP", "Bpref"]).to_frame()
            moves = moves[moves["left_out"]].pivot(index="run", columns="measure", values="rank_change")
            run = moves["Bpref"].idxmax()
            print(f"{run}: bpref {moves.loc[run, 'Bpref']:+d} places, AP {moves.loc[run, 'AP']:+d} places")
            answer = {"run": run, "bpref": f"{moves.loc[run, 'Bpref']:+d}", "ap": f"{moves.loc[run, 'AP']:+d}"}
        '''),
        numbers="`<<run>>` moves <<bpref>> places under bpref and <<ap>> under AP.",
    ),
]
NB05.references = _text('''
    ## Sources

    * E. Voorhees et al. *TREC-COVID: constructing a pandemic information retrieval test collection.* SIGIR
      Forum 54(1), 2020 — the round-1 runs and qrels.
    * The papers behind each view are listed at the end of notebooks 01–04.
''')

ALL = {nb.filename[:2]: nb for nb in (NB01, NB02, NB03, NB04, NB05)}


# ============================================================================================ building
_PLACEHOLDER = re.compile(r"<<(\w+)>>")


def _fill(template: str, values: dict, *, where: str = "") -> str:
    def repl(match):
        key = match.group(1)
        if key not in values:
            raise KeyError(f"{where + ': ' if where else ''}placeholder <<{key}>> has no value; "
                           f"the facts/answer code gives {sorted(values)}")
        return str(values[key])

    return _PLACEHOLDER.sub(repl, template)


class StaleClaim(ValueError):
    """A sentence of a notebook's text that the data no longer supports (see the module docstring)."""


def _claim_function(where: str):
    def claim(ok, statement: str, evidence: str = "") -> None:
        """Raise :class:`StaleClaim` unless ``ok``: ``statement`` quotes the sentence, ``evidence`` the numbers."""
        if not bool(ok):
            raise StaleClaim(f"{where}: the text says “{statement}”, but the data no longer supports it"
                             + (f" ({evidence})" if evidence else "")
                             + ". Rewrite that sentence (or the search that finds its example) in "
                               "tools/make_notebooks.py or tools/make_tour_notebook.py, then regenerate.")

    return claim


def _search_function(where: str):
    def search(what: str, candidates, conditions):
        """The first candidate (a tuple, in the given order) for which every ``(statement, test)`` of
        ``conditions`` holds; the tests run in order and stop at the first that fails. Raises
        :class:`StaleClaim` with, per statement, how many candidates it ruled out."""
        ruled_out, n = Counter(), 0
        for candidate in candidates:
            n += 1
            for statement, test in conditions:
                if not test(*candidate):
                    ruled_out[statement] += 1
                    break
            else:
                return candidate
        detail = "; ".join(f"“{statement}” ruled out {ruled_out[statement]}" for statement, _ in conditions)
        raise StaleClaim(f"{where}: no {what} fits the text any more — of {n} candidates, {detail}. Rewrite those "
                         "sentences (or relax the search) in tools/make_notebooks.py, then regenerate.")

    return search


def listing(items, *, prefix: str = "") -> str:
    """``["@10", "@30", "@100"]`` → ``"@10, @30 and @100"`` (with ``prefix`` before each item)."""
    items = [f"{prefix}{item}" for item in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _helpers(where: str) -> dict:
    return {"claim": _claim_function(where), "search": _search_function(where), "listing": listing}


@contextlib.contextmanager
def _in_folder(folder: Path):
    old = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(old)


def _apply(setup: str, replacements: dict) -> str:
    for pattern, replacement in replacements.items():
        setup, n = re.subn(pattern, replacement, setup)
        if n != 1:
            raise ValueError(f"variant replacement {pattern!r} matched {n} times in the set-up cell, expected once")
    return setup


def _check_setup_placeholders(nb: Notebook) -> None:
    """The set-up cell runs before the facts exist, so its placeholders may only sit in comments."""
    for number, line in enumerate(nb.setup.splitlines(), 1):
        match = _PLACEHOLDER.search(line)
        if match and ("#" not in line or line.index("#") > match.start()):
            raise ValueError(f"{nb.filename} set-up line {number}: placeholder {match.group(0)} outside a comment "
                             f"(the set-up cell runs before the facts are computed): {line.strip()!r}")


def _run(code: str, namespace: dict, label: str) -> None:
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        exec(compile(code, label, "exec"), namespace)


def compute(nb: Notebook) -> tuple[dict, dict[str, list[dict]]]:
    """Run the set-up cell, the facts block and every answer's code (in ``notebooks/``,
    matplotlib on Agg). Returns the facts (the keys on which all variants agree) and
    variant label → one ``answer`` dict per exercise. Raises :class:`StaleClaim` when a
    claim of the text does not hold."""
    import matplotlib

    matplotlib.use("Agg")
    _check_setup_placeholders(nb)
    results, per_variant = {}, []
    with _in_folder(NOTEBOOKS):
        for label, replacements in nb.variants.items():
            where = f"notebooks/{nb.filename}" + (f" ({label})" if label else "")
            setup = _apply(nb.setup, replacements)
            namespace: dict = {"display": lambda *a, **k: None, "__name__": "__notebook__"}
            _run(setup, namespace, f"{nb.filename}:setup")
            if label == "TREC-COVID round 1" and namespace.get("covid") is None:
                print(f"  {nb.filename}: no ../shared/data/trec-covid-round1 here; its TREC-COVID answers are left out",
                      file=sys.stderr)
                continue
            facts: dict = {}
            if nb.facts:
                local = dict(namespace) | _helpers(f"{where}, facts")
                _run(nb.facts, local, f"{nb.filename}:facts")
                if not isinstance(local.get("facts"), dict):
                    raise ValueError(f"{where}: the facts code must leave a dict named facts")
                facts = {key: str(value) for key, value in local["facts"].items()}
            per_variant.append(facts)
            answers = []
            for i, ex in enumerate(nb.exercises, 1):
                local = dict(namespace)
                _run(_fill(ex.code, facts, where=f"{where} exercise {i}"), local, f"{nb.filename}:exercise {i}")
                if not isinstance(local.get("answer"), dict):
                    raise ValueError(f"{nb.filename} exercise {i}: the answer code must leave a dict named answer")
                clash = sorted(set(local["answer"]) & set(facts))
                if clash:
                    raise ValueError(f"{where} exercise {i}: answer keys {clash} are also facts keys; rename one")
                if ex.checks:
                    local |= _helpers(f"{where}, exercise {i} ({ex.title})") | {"facts": facts}
                    _run(ex.checks, local, f"{nb.filename}:exercise {i} checks")
                answers.append(local["answer"])
            results[label] = answers
    common = {key: value for key, value in per_variant[0].items()
              if all(other.get(key) == value for other in per_variant[1:])} if per_variant else {}
    return common, results


def _fenced(code: str) -> str:
    return "```python\n" + code + "\n```"


def _cells(nb: Notebook, facts: dict, answers: dict[str, list[dict]]) -> list:
    where = f"notebooks/{nb.filename}"
    cells = []
    for block in nb.cells:
        if isinstance(block, Md):
            cells.append(new_markdown_cell(_fill(block.text, facts, where=where)))
        else:
            source = nb.setup if block.source == "<<setup>>" else block.source
            cell = new_code_cell(_fill(source, facts, where=where))
            if block.tags:
                cell.metadata["tags"] = list(block.tags)
            cells.append(cell)
    if nb.exercises:
        cells.append(new_markdown_cell(
            "## Exercises\n\nEach exercise has a scratch cell for your work. The answer is folded below it: "
            "click **Answer** to open it. The hidden cell after it recomputes the numbers (in JupyterLab, click "
            "the collapsed cell to show its code and output)."))
    for i, ex in enumerate(nb.exercises, 1):
        here = f"{where} exercise {i}"
        question, explanation, code = (_fill(text, facts, where=here)
                                       for text in (ex.question, ex.explanation, ex.code))
        cells.append(new_markdown_cell(f"### Exercise {i} — {ex.title}\n\n{question}"))
        cells.append(new_code_cell(SCRATCH))
        numbers = []
        for label, per_exercise in answers.items():
            text = _fill(ex.numbers, facts | per_exercise[i - 1], where=here)
            numbers.append(f"**{label}:** {text}" if label else text)
        body = "\n\n".join([explanation, _fenced(code)] + numbers)
        cells.append(new_markdown_cell(f"<details>\n<summary>Answer</summary>\n\n{body}\n\n</details>"))
        answer_cell = new_code_cell(code)
        answer_cell.metadata.update({"tags": list(ANSWER_METADATA["tags"]),
                                     "jupyter": dict(ANSWER_METADATA["jupyter"])})
        cells.append(answer_cell)
    if nb.references:
        cells.append(new_markdown_cell(nb.references))
    prefix = nb.filename[:2]
    for j, cell in enumerate(cells):
        cell["id"] = f"nb{prefix}-{j:02d}"  # stable ids: regenerating gives the same file
    return cells


def build(nb: Notebook) -> nbformat.NotebookNode:
    facts, answers = compute(nb)
    notebook = new_notebook(cells=_cells(nb, facts, answers), metadata={
        "kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}})
    nbformat.validate(notebook)
    return notebook


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*", help=f"notebook numbers to write (default all: {' '.join(ALL)})")
    args = parser.parse_args(argv)
    unknown = [w for w in args.which if w not in ALL]
    if unknown:
        parser.error(f"unknown notebook number(s) {unknown}; choose from {list(ALL)}")
    for key in args.which or list(ALL):
        start = time.perf_counter()
        nb = ALL[key]
        notebook = build(nb)
        (NOTEBOOKS / nb.filename).write_text(nbformat.writes(notebook), encoding="utf-8")
        print(f"wrote notebooks/{nb.filename} ({len(notebook.cells)} cells, {time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
