"""Score intervals on real data (TREC-COVID round 1): the round-1 qrels are the judged
set, the complete TREC-COVID qrels (topics 1–30, plus the round-1 judgments they lack) the
deeper truth. Every run's P@10, P@20 and RBP(0.8) under the deeper truth must lie inside
its [B, T] on every topic."""

from __future__ import annotations

import pytest

from irnb import evaluate, read_qrels
from irnb.datasets.real import trec_covid_round1
from irnb.intervals import score_intervals

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def covid(covid_dir):
    folder = covid_dir
    exp = trec_covid_round1(folder, with_truth=True)
    # the premise of containment: the deeper qrels never regrade a round-1 judgment
    round1 = read_qrels(folder / "qrels-rnd1.txt").to_frame()
    complete = read_qrels(folder / "qrels.covid-complete.txt.gz").to_frame()
    merged = round1.merge(complete, on=["topic", "docno"], how="left", suffixes=("", "_complete"))
    return exp, merged


def test_truth_extends_round1_without_regrading(covid):
    # SOURCES.md: the complete qrels hold 8,408 of the 8,691 round-1 judgments, same grade;
    # 283 are absent (we add them). A changed grade would break containment.
    exp, merged = covid
    shared = merged["grade_complete"].notna()
    assert len(merged) == 8691 and int(shared.sum()) == 8408
    assert (merged.loc[shared, "grade"] == merged.loc[shared, "grade_complete"]).all()
    assert exp.truth.num_judgments > 5 * exp.judgments.num_judgments
    assert exp.shape == (143, 30, 1000) and int(exp.contributors.sum()) == 56


@pytest.mark.parametrize("measure", ["P@10", "P@20", "RBP(p=0.8)"])
def test_deeper_truth_lies_inside_every_interval(covid, measure):
    exp, _ = covid
    iv = score_intervals(exp, measure)
    truth = evaluate(exp, measure, truth=True)[measure]
    ev = iv.evaluated
    assert ev.sum() == 143 * 30
    below = ev & (truth < iv.lower - 1e-12)
    above = ev & (truth > iv.upper + 1e-12)
    assert not below.any(), f"{below.sum()} (run, topic) pairs below B"
    assert not above.any(), f"{above.sum()} (run, topic) pairs above T"
    # the intervals are informative: the deeper truth moved many scores up from B
    assert (truth[ev] > iv.lower[ev] + 1e-12).mean() > 0.2


@pytest.mark.parametrize("measure", ["P@10", "RBP(p=0.8)"])
def test_runs_outside_the_pool_have_wider_intervals(covid, measure):
    # Ravana & Moffat's Table 1(b): non-contributing runs carry larger residuals
    exp, _ = covid
    iv = score_intervals(exp, measure)
    pooled = iv.residual[exp.contributors].mean()
    others = iv.residual[~exp.contributors].mean()
    assert others > 1.5 * pooled
