"""The decision matrix on real data (TREC-COVID round 1, official qrels): the numbers that
docs/definitions.md and docs/usage.md give for it are what irnb.decision computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irnb.datasets.real import trec_covid_round1
from irnb.decision import compare_table

pytestmark = pytest.mark.shared

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _page(name: str) -> str:
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())  # one line: sentences wrap anywhere


@pytest.fixture(scope="module")
def covid(covid_dir):
    return trec_covid_round1(covid_dir)


def test_shares_of_pairs_that_differ_by_procedure_are_the_docs(covid):
    t = compare_table(covid, "P@10", test="t")
    anova = compare_table(covid, "P@10", test="anova")
    pairs = len(t)
    assert pairs == len(anova) == 143 * 142 // 2
    plain = 100 * (t["p_measure"] < 0.05).mean()
    bonferroni = 100 * (np.minimum(1.0, t["p_measure"] * pairs) < 0.05).mean()
    papers = 100 * (anova["p_measure"] < 0.05).mean()
    assert papers < bonferroni < plain  # ANOVA + Bonferroni is the strictest of the three here
    definitions, usage = _page("definitions.md"), _page("usage.md")
    assert (f"on TREC-COVID round 1 (143 runs, {pairs:,} pairs, official qrels), P@10 differs significantly at "
            f"α = 0.05 for {plain:.1f} % of the pairs with the uncorrected paired t-test and for {papers:.1f} % with "
            f"the papers' ANOVA + Bonferroni in irnb's reading ({bonferroni:.1f} % with the t-test and Bonferroni "
            f"alone)") in definitions
    assert (f"On TREC-COVID round 1, {plain:.1f} % of the {pairs:,} pairs differ in P@10 with the uncorrected paired "
            f"t-test and {papers:.1f} % with the papers' ANOVA + Bonferroni in irnb's reading") in usage


def test_runs_shorter_than_100_documents_are_the_docs(covid):
    length = covid.length  # run × topic: documents retrieved (0: the topic not answered)
    short = int(((length > 0) & (length < 100)).any(axis=1).sum())
    assert short > 0
    assert f"On TREC-COVID round 1, where {short} runs return fewer than 100 documents for some topic" in _page(
        "definitions.md")
