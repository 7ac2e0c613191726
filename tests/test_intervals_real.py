"""Score intervals on real data (TREC-COVID round 1): the round-1 qrels are the judged
set, the complete TREC-COVID qrels (topics 1–30, plus the round-1 judgments they lack) the
deeper truth. Every run's P@10, P@20 and RBP(0.8) under the deeper truth must lie inside
its [B, T] on every topic."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from irnb import evaluate, read_qrels
from irnb.datasets.real import trec_covid_round1
from irnb.intervals import estimate_background_rate, point_estimates, score_intervals

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


def test_usage_page_quotes_what_the_code_computes(covid):
    """docs/usage.md's TREC-COVID paragraph (benchmarks/intervals_real.py computes it): the mean
    residuals, the RMSE table (bold: the estimator closest for pooled and non-pooled runs alike),
    E read from the data, and which estimator is closest with each E."""
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "benchmarks"))
    try:
        bench = importlib.import_module("intervals_real")
    finally:
        sys.path.remove(str(root / "benchmarks"))
    page = (root / "docs" / "usage.md").read_text(encoding="utf-8")
    prose = " ".join(page.split())
    exp, _ = covid
    fit = estimate_background_rate(exp, depth=10)
    widths, rmse = bench.report(exp, background_rates={"0.01": 0.01, "fit": fit.rate})
    width = widths.set_index(["measure", "runs"])
    pooled, others = int(exp.contributors.sum()), int((~exp.contributors).sum())
    assert f"| measure | {pooled} pooled runs | {others} non-pooled runs |" in page
    names = {"P@10": "P@10", "P@20": "P@20", "RBP(p=0.8)": "RBP(0.8)", "SDCG@20": "SDCG@20"}
    for m, shown in names.items():
        row = f"| {shown} | {width.loc[(m, 'pooled'), 'mean residual']:.3f} | " \
              f"{width.loc[(m, 'not pooled'), 'mean residual']:.3f} |"
        assert row in page, row
    table = rmse.set_index(["measure", "E", "runs"])
    keys = ("S", "B", "I", "M")

    def closest(m, e, runs):
        return min(keys, key=lambda k: table.loc[(m, e, runs), f"X_{k} topic"])

    for m, shown in names.items():
        cells = []
        for k in keys:
            cell = " / ".join(f"{table.loc[(m, '0.01', r), f'X_{k} topic']:.3f}".lstrip("0")
                              for r in ("pooled", "not pooled"))
            both = closest(m, "0.01", "pooled") == closest(m, "0.01", "not pooled") == k
            cells.append(f"**{cell}**" if both else cell)
        row = f"| {shown} | " + " | ".join(cells) + " |"
        assert row in page, row
    assert all(closest(m, "0.01", r) == "M" for m in names for r in ("pooled", "not pooled"))
    assert "With E = 0.01, X_M is closest everywhere" in prose
    assert f"read at zero runs) is {fit.rate:.3f} at pool depth 10" in prose
    pooled_best = {m: closest(m, "fit", "pooled") for m in names}
    assert [m for m, k in pooled_best.items() if k != "B"] == ["P@10"] and pooled_best["P@10"] == "M"
    assert all(closest(m, "fit", "not pooled") == "S" for m in names)
    assert ("with that E, X_B is closest for pooled runs except on P@10 (X_M), and X_S for non-pooled ones"
            in prose)
    # "X_I overestimates runs that did not contribute": its mean lies above the deeper truth's
    for m in names:
        iv = score_intervals(exp, m)
        truth = evaluate(exp, m, truth=True)[m]
        x_i = point_estimates(iv, background_rate=0.01).interpolated
        rows = iv.evaluated & ~exp.contributors[:, None]
        assert np.mean(x_i[rows] - truth[rows]) > 0, m
    assert "X_I overestimates runs that did not contribute" in prose
