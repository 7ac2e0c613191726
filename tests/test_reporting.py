"""irnb.report (irnb.reporting) / `irnb report`: values checked against an independent computation
(pytrec_eval's per-topic values, a plain numpy bootstrap, scipy's bootstrap and ttest_rel,
hand-computed Holm and Benjamini–Hochberg) on CLEF eHealth 2018 runs; the four formats;
the letter display; the per-topic difference plot."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from irnb import Experiment, evaluate, read_run, report
from irnb.cli import main
from irnb.reporting import compact_letters, topic_differences
from irnb.corrections import benjamini_hochberg, bonferroni, holm
from irnb.stats import t_test

RUN_FILES = ["CUNI/CUNI_en.run1", "IELAB/IELAB_02.txt", "SINAI/SINAI_Run1_google+cTakes.result",
             "UEvora/UEvoraIRtask1run1.res", "baselines/elastic_BM25f_noqe.out", "baselines/elastic_BM25f_qe.out",
             "baselines/terrier_BM25_noqe.out"]  # elastic_BM25f_qe: unjudged documents in its top 10
BASELINE = "terrier_BM25_noqe.out"
B, SEED = 2000, 3


def _parse(path, columns):
    out: dict = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts:
            if columns == "run":
                out.setdefault(parts[0], {}).setdefault(parts[2], float(parts[4]))  # keep the first
            else:
                out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return out


@pytest.fixture(scope="module")
def clef(clef18_dir):
    paths = [clef18_dir / "runs" / f for f in RUN_FILES]
    exp = Experiment({p.name: read_run(p, on_duplicate="keep_first") for p in paths}, clef18_dir / "qrels.txt")
    return exp, paths, clef18_dir / "qrels.txt"


@pytest.fixture(scope="module")
def peer(clef):
    """Per-topic AP and P@10 of every run from pytrec_eval (trec_eval's own code)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    _, paths, qrels_path = clef
    evaluator = pytrec_eval.RelevanceEvaluator(_parse(qrels_path, "qrels"), {"map", "P"})
    out = {}
    for path in paths:
        per_topic = evaluator.evaluate(_parse(path, "run"))
        topics = sorted(per_topic)  # string order, as irnb's topics
        out[path.name] = {"AP": np.array([per_topic[t]["map"] for t in topics]),
                          "P@10": np.array([per_topic[t]["P_10"] for t in topics]), "topics": topics}
    return out


def _hand_holm(p):
    order = np.argsort(p, kind="stable")
    m, out, running = len(p), np.empty(len(p)), 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def _hand_bh(p):
    order = np.argsort(p, kind="stable")
    m, out, running = len(p), np.empty(len(p)), 1.0
    for i in range(m - 1, -1, -1):
        running = min(running, p[order[i]] * m / (i + 1))
        out[order[i]] = min(1.0, running)
    return out


@pytest.fixture(scope="module")
def with_baseline(clef):
    exp, _, _ = clef
    return report(exp, ["AP", "P@10"], baseline=BASELINE, n_resamples=B, seed=SEED)


def test_means_intervals_p_values_and_effect_sizes_against_peers(with_baseline, peer):
    table = with_baseline.table.set_index(["run", "measure"])
    for measure in ("AP", "P@10"):
        base = peer[BASELINE]
        raw = {}
        for name, values in peer.items():
            row = table.loc[(name, measure)]
            v = values[measure]
            assert row["mean"] == pytest.approx(v.mean(), abs=1e-12)
            assert row["n_topics"] == v.size
            # the documented draws: default_rng(seed).integers(0, n, (B, n)), percentile interval
            idx = np.random.default_rng(SEED).integers(0, v.size, size=(B, v.size))
            low, high = np.quantile(v[idx].mean(axis=1), [0.025, 0.975])
            assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
            scipy_ci = sps.bootstrap((v,), np.mean, n_resamples=B, method="percentile",
                                     random_state=np.random.default_rng(0)).confidence_interval
            assert row["ci_low"] == pytest.approx(scipy_ci.low, abs=0.01)  # another resampling: Monte Carlo error
            assert row["ci_high"] == pytest.approx(scipy_ci.high, abs=0.01)
            if name == BASELINE:
                assert np.isnan(row["p_value"]) and np.isnan(row["d_z"])
                continue
            common = sorted(set(values["topics"]) & set(base["topics"]))
            a = np.array([v[values["topics"].index(t)] for t in common])
            b = np.array([base[measure][base["topics"].index(t)] for t in common])
            raw[name] = sps.ttest_rel(a, b).pvalue
            assert row["p_value"] == pytest.approx(raw[name], rel=1e-9)
            d = a - b
            assert row["d_z"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-9)
            assert row["direction"] == int(np.sign(d.mean())) or d.mean() == 0
        names = list(raw)
        adjusted = dict(zip(names, _hand_holm(np.array([raw[n] for n in names])), strict=True))
        for name in names:
            row = table.loc[(name, measure)]
            assert row["p_adjusted"] == pytest.approx(adjusted[name], rel=1e-9)
            assert row["significant"] == (adjusted[name] <= 0.05)
        assert table.xs(measure, level="measure")["significant"].any()  # the test can show something


def test_bh_and_bonferroni_corrections(clef, with_baseline):
    exp, _, _ = clef
    raw = with_baseline.table.query("measure == 'AP' and run != @BASELINE")
    for correction, hand in (("bh", _hand_bh), ("bonferroni", lambda p: np.minimum(1, p * len(p)))):
        rep = report(exp, ["AP"], baseline=BASELINE, correction=correction, n_resamples=100)
        got = rep.table.query("run != @BASELINE")["p_adjusted"].to_numpy()
        np.testing.assert_allclose(got, hand(raw["p_value"].to_numpy()), rtol=1e-12)
        assert {"bh": "Benjamini–Hochberg (FDR) correction", "bonferroni": "Bonferroni correction"}[correction] \
            in rep.caption


def test_markdown_cells_markers_bold_and_caption(with_baseline):
    text = with_baseline.to_markdown()
    lines = text.splitlines()
    assert lines[0] == "| run | AP | d (baseline) | Judged@10 | P@10 | d (baseline) |"
    table = with_baseline.table.set_index(["run", "measure"])
    rows = {line.split(" | ")[0][2:]: line.split(" | ")[1:] for line in lines[2:2 + len(RUN_FILES)]}
    for name, cells in rows.items():
        run = name.removesuffix(" (baseline)")
        for cell, measure in ((cells[0], "AP"), (cells[3], "P@10")):
            row = table.loc[(run, measure)]
            mean = f"{row['mean']:.4f}"
            assert cell.startswith(f"**{mean}**" if row["best"] else mean)
            assert f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}]" in cell
            marker = ("▲" if row["direction"] > 0 else "▼") if row["significant"] else ""
            assert cell.endswith("]" + (" " + marker if marker else ""))
    best = table.xs("AP", level="measure")["mean"].idxmax()
    assert table.loc[(best, "AP"), "best"] and table.xs("AP", level="measure")["best"].sum() == 1
    caption = lines[3 + len(RUN_FILES)]
    for phrase in ("Mean over 49–50 topics per run", "95 % percentile bootstrap confidence interval",
                   "2,000 resamples, seed 3", f"baseline {BASELINE}", "paired t-test, Holm correction over the 6 "
                   "comparisons per measure, α = 0.05", "Unjudged documents: non-relevant (trec_eval) for AP, P@10",
                   "Judgments are incomplete: Judged@10: the share of each run's top 10 documents that are judged"):
        assert phrase in caption, phrase


def test_latex_html_and_csv(with_baseline):
    latex = with_baseline.to_latex()
    assert latex.startswith("\\begin{table}") and "\\toprule" in latex and "\\caption{" in latex
    worse = int((with_baseline.table["significant"] & (with_baseline.table["direction"] < 0)).sum())
    assert latex.count("$^{\\downarrow}$") == worse and "▼" not in latex and "_" not in latex.replace("\\_", "")
    assert latex.count("\\textbf{") == int(with_baseline.table["best"].sum())
    html = with_baseline.to_html()
    assert html.count("<tr>") == len(RUN_FILES) + 1 and html.count("<b>") == int(with_baseline.table["best"].sum())
    csv = pd.read_csv(io.StringIO(with_baseline.to_csv()), keep_default_na=False, na_values=[""])
    assert list(csv["run"]) == list(with_baseline.table["run"])
    np.testing.assert_array_equal(csv["ci_low"].to_numpy(), with_baseline.table["ci_low"].to_numpy())
    np.testing.assert_array_equal(csv["p_adjusted"].to_numpy(), with_baseline.table["p_adjusted"].to_numpy())
    with pytest.raises(ValueError, match=re.escape("format must be one of 'markdown', 'latex', 'html' or 'csv', "
                                                   "got 'pdf'")):
        with_baseline.render("pdf")


def test_letters_group_runs_that_do_not_differ(clef):
    exp, _, _ = clef
    rep = report(exp, ["AP"], n_resamples=100)
    ev = evaluate(exp, ["AP"])
    tests = t_test(ev, "AP")
    adjusted = holm(tests.p_value)
    letters = rep.table.set_index("run")["letters"]
    names = exp.run_names
    for a, b, p in zip(tests.run_a, tests.run_b, adjusted, strict=True):
        share = bool(set(letters[names[a]]) & set(letters[names[b]]))
        assert share == (p > 0.05), (names[a], names[b], p)
    best = rep.table.loc[rep.table["mean"].idxmax(), "run"]
    assert letters[best].startswith("a") and "d (best)" in rep.to_markdown().splitlines()[0]


def test_compact_letters_hand_example():
    # a > b > c > d; a differs from c and d, b from d: {a, b}, {b, c}, {c, d}
    differ = {("a", "c"): True, ("a", "d"): True, ("b", "d"): True, ("a", "b"): False}
    assert compact_letters("abcd", [4, 3, 2, 1], differ) == {"a": "a", "b": "ab", "c": "bc", "d": "c"}
    assert compact_letters("abcd", [1, 2, 3, 4], {("d", "a"): True}, higher_is_better=False) == \
        {"a": "a", "b": "ab", "c": "ab", "d": "b"}


def test_benjamini_hochberg_hand_example():
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205]
    # p·m/i = .008 .032 .104 .082 .0672 .08 .592/7 .205; running minimum from the largest
    expected = [0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.592 / 7, 0.205]
    np.testing.assert_allclose(benjamini_hochberg(p), expected, rtol=1e-12)
    np.testing.assert_allclose(benjamini_hochberg([0.5, np.nan, 0.01]), [0.5, np.nan, 0.02])
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for values in (p, np.random.default_rng(5).random(40) ** 3):
        np.testing.assert_allclose(benjamini_hochberg(values), multitest.multipletests(values, method="fdr_bh")[1],
                                   rtol=1e-12)
        np.testing.assert_allclose(holm(values), multitest.multipletests(values, method="holm")[1], rtol=1e-12)
    tests = t_test([[0.5, 0.6, 0.7], [0.4, 0.4, 0.4], [0.3, 0.2, 0.4]])
    np.testing.assert_array_equal(tests.adjust("bh").p_value, benjamini_hochberg(tests.p_value))
    with pytest.raises(ValueError, match=re.escape("adjustment method must be one of 'bonferroni', 'holm' or 'bh', "
                                                   "got 'fdr'")):
        tests.adjust("fdr")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_bh_lies_between_raw_and_holm(p):
    p = np.array(p)
    bh = benjamini_hochberg(p)
    assert (bh >= p - 1e-15).all() and (bh <= holm(p) + 1e-15).all() and (holm(p) <= bonferroni(p) + 1e-15).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(bh[order]) >= -1e-15).all()  # monotone in p


def test_cli_report_matches_the_api(clef):
    exp, paths, qrels = clef
    out, notes = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(notes):
        code = main(["report", str(qrels), *map(str, paths), "-m", "AP", "--baseline", BASELINE, "--keep-first",
                     "--correction", "bh", "--resamples", "300", "--format", "csv"])
    assert code == 0
    assert notes.getvalue() == ("irnb: warning: run 'UEvoraIRtask1run1.res' answers 49 of the 50 qrels topics; the 1 "
                                "other ('167001') is left out of its mean (trec_eval 9.x; trec_eval 10.0 refuses such "
                                "a run); use -c to score it 0\n")
    assert out.getvalue() == report(exp, ["AP"], baseline=BASELINE, correction="bh", n_resamples=300).to_csv()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["report", str(qrels), str(paths[0]), "-m", "AP", "--keep-first", "--baseline", "bm2"]) == 2
    assert "irnb: error: baseline: unknown run 'bm2'" in err.getvalue()


def test_report_refuses_bad_options(clef):
    exp, _, _ = clef
    with pytest.raises(ValueError, match=re.escape("measures: NumRet is a count summed over topics")):
        report(exp, ["num_ret"])
    with pytest.raises(ValueError, match=re.escape("correction must be one of 'bonferroni', 'holm', 'bh' or 'none', "
                                                   "got 'fdr'")):
        report(exp, ["AP"], correction="fdr")
    with pytest.raises(ValueError, match=re.escape("test must be one of 't' (paired t-test), 'wilcoxon' (Wilcoxon "
                                                   "signed-rank test), 'sign' (sign test) or 'randomization' (paired "
                                                   "randomization test), "
                                                   "got 'anova'")):
        report(exp, ["AP"], test="anova")
    with pytest.raises(TypeError, match="experiment must be an irnb.Experiment"):
        report({"r": {}}, ["AP"])


def test_complete_judgments_say_so():
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["a", "b", "a", "b"], "grade": [1, 0, 0, 1]})
    runs = pd.DataFrame({"run": ["x"] * 4 + ["y"] * 4, "qid": ["1", "1", "2", "2"] * 2,
                         "docno": ["a", "b"] * 4, "score": [2, 1, 2, 1, 1, 2, 1, 2]})
    rep = report(Experiment(runs, qrels), ["P@1"], baseline="y", n_resamples=50)
    assert "Judged@" not in rep.to_markdown().splitlines()[0]
    assert "Every document in the measured top k of every run is judged." in rep.caption
    # P@1: x = 1, 0; y = 0, 1 → means 0.5 and 0.5, both best; differences +1, −1: d_z = 0
    assert rep.table["best"].all() and rep.table.loc[0, "d_z"] == 0.0
    # AP (no cutoff): Judged@10 = 2/10 for rankings of 2 documents, yet every retrieved document is judged
    ap = report(Experiment(runs, qrels), ["AP"], n_resamples=50)
    assert ap.table["judged"].tolist() == [0.2, 0.2] and (ap.table["judged_measure"] == "").all()


def test_topic_differences_and_plot(clef):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from irnb.plots import artists, topic_difference_plot

    exp, _, _ = clef
    ev = evaluate(exp, ["AP"])
    frame = topic_differences(ev, "AP", "elastic_BM25f_noqe.out", BASELINE)
    s, b = exp.run_names.index("elastic_BM25f_noqe.out"), exp.run_names.index(BASELINE)
    both = ev.evaluated[s] & ev.evaluated[b]
    expected = np.sort((ev["AP"][s] - ev["AP"][b])[both])[::-1]
    np.testing.assert_array_equal(frame["difference"].to_numpy(), expected)
    ax = topic_difference_plot(frame, run="elastic", baseline="terrier", measure="AP")
    bars = artists(ax)["difference"]
    heights = np.array([path.vertices[1, 1] for path in bars.get_paths()])
    np.testing.assert_allclose(heights, expected)
    wins, losses = int((expected > 0).sum()), int((expected < 0).sum())
    ties = expected.size - wins - losses
    assert ax.get_title() == f"elastic − terrier: {wins} topics better, {losses} worse, {ties} tied"
    with pytest.raises(ValueError, match="baseline: unknown run 'nope'"):
        topic_differences(ev, "AP", "elastic_BM25f_noqe.out", "nope")


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.booleans(), min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2),
    st.lists(st.floats(0, 1), min_size=n, max_size=n))))
def test_letters_share_exactly_when_runs_do_not_differ(case):
    n, flags, means = case
    names = [f"r{i}" for i in range(n)]
    pairs = [(names[i], names[j]) for i in range(n) for j in range(i + 1, n)]
    differ = dict(zip(pairs, flags, strict=True))
    letters = compact_letters(names, means, differ)
    for (a, b), different in differ.items():
        assert bool(set(letters[a]) & set(letters[b])) == (not different), (a, b, letters)
    assert all(letters[name] for name in names)
