"""One run ranking one topic, evaluated: the small cases that the measure modules' tests
(tests/measures/test_<module>.py) work out by hand."""

from __future__ import annotations

import pandas as pd

from irnb import Experiment
from irnb.metrics import evaluate


def one_topic(ranking: str, grades: dict[str, int], measures: list[str]) -> dict[str, float]:
    """Each measure's value for run ``r`` on topic ``1``: ``ranking`` lists the docnos in rank
    order (scores n, n−1, …, 1), ``grades`` is the topic's qrels (a docno absent is unjudged)."""
    docs = ranking.split()
    run = pd.DataFrame({"qid": "1", "docno": docs, "score": [float(len(docs) - i) for i in range(len(docs))]})
    qrels = pd.DataFrame({"qid": "1", "docno": list(grades), "grade": list(grades.values())})
    ev = evaluate(Experiment({"r": run}, qrels), measures)
    return {m: float(ev[m][0, 0]) for m in measures}
