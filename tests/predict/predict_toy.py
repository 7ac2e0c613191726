"""A toy topic for the relevance-prediction tests: two runs, three judged documents, and the
texts of every document (one of them retrieved but not in the qrels); and the small simulated
collection several prediction test modules share (each wraps it in its own module-scoped fixture)."""

from __future__ import annotations

import pandas as pd

from irnb import Experiment


def toy_experiment() -> tuple[Experiment, dict[str, str]]:
    """Topic 1: a relevant (cats), b not (stocks); runs r1 and r2; u unjudged, v not in qrels."""
    runs = pd.DataFrame({
        "run": ["r1"] * 4 + ["r2"] * 4,
        "qid": "1",
        "docno": ["a", "u", "b", "v", "v", "b", "a", "u"],
        "score": [4, 3, 2, 1, 4, 3, 2, 1],
    })
    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b", "u"], "grade": [1, 0, 1]})
    texts = {"a": "cat cat purr whisker", "b": "stock market bond yield", "u": "cat purr whisker",
             "v": "market stock yield", "w": "unused text"}
    return Experiment(runs, qrels), texts


#: The pool depth of :func:`small_collection`'s qrels.
POOL_DEPTH = 20


def small_collection():
    """A small simulated collection: 12 topics, 16 runs in 6 groups, depth-20 pool."""
    from irnb.datasets import simulate

    return simulate(seed=1, num_topics=12, num_runs=16, num_groups=6, docs_per_topic=1000, run_depth=100,
                    pool_depth=POOL_DEPTH, median_relevant=30, novel_runs=2, keyword_runs=3)


def small_corpus_of(collection):
    """The term counts of ``collection``'s judged documents."""
    from irnb.predict import term_counts

    return term_counts(collection.documents, collection.experiment.judgments.qrel_docno)
