"""A toy topic for the relevance-prediction tests: two runs, three judged documents, and the
texts of every document (one of them retrieved but not in the qrels)."""

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
