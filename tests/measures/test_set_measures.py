"""Set measures (irnb.measures.set_measures) with trec_eval's own parameters, by hand: set_f
with x = β² and set_utility's 4th coefficient over the collection size, as irnb trec_eval
prints them."""

from __future__ import annotations

import pandas as pd
import pytest

from irnb import Experiment
from irnb.measures import parse_measure
from irnb.measures.set_measures import set_f, set_utility
from irnb.metrics import evaluate, judged_view

# one topic; the run retrieves a b c d e f, of which a c e are relevant; R = 4 (g is not retrieved)
RUN = pd.DataFrame({"qid": "1", "docno": list("abcdef"), "score": [6.0, 5, 4, 3, 2, 1]})
QRELS = pd.DataFrame({"qid": "1", "docno": list("abcdeg"), "grade": [1, 0, 1, 0, 1, 1]})


@pytest.fixture(scope="module")
def view():
    return judged_view(Experiment(RUN, QRELS))


def test_set_f_takes_beta_squared(view):
    P, R = 3 / 6, 3 / 4
    assert float(set_f(view, 1.0)[0, 0]) == pytest.approx(2 * P * R / (P + R))  # 0.6
    assert float(set_f(view, 4.0)[0, 0]) == pytest.approx(5 * P * R / (4 * P + R))  # β = 2: 0.6818
    assert float(evaluate(Experiment(RUN, QRELS), ["SetF(beta=2)"])["SetF(beta=2)"][0, 0]) == \
        pytest.approx(5 * P * R / (4 * P + R))


def test_set_f_is_zero_when_nothing_relevant_is_retrieved():
    miss = Experiment(RUN.assign(docno=list("uvwxyz")), QRELS)
    assert float(set_f(judged_view(miss), 1.0)[0, 0]) == 0.0


def test_utility_fourth_coefficient_counts_the_collection(view):
    # relevant retrieved 3, non-relevant retrieved 3, relevant missed 1; with 100 documents
    # in the collection the non-relevant missed are 100 + 3 − 6 − 4 = 93
    assert float(set_utility(view, 2, -1, -0.5)[0, 0]) == 2 * 3 - 3 - 0.5 * 1
    assert float(set_utility(view, 2, -1, -0.5, 0.25, num_docs=100)[0, 0]) == 2 * 3 - 3 - 0.5 + 0.25 * 93
    assert parse_measure("utility").name == "Utility(a=1,b=-1,c=0)"  # the family keeps three coefficients
