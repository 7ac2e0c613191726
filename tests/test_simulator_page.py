"""The simulator page's calibration section (docs/simulator.md: the simulated default against
TREC-COVID round 1 and CLEF eHealth 2016): every number in its two tables and in the "crowded
middle" paragraph is what the code computes now."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irnb
from irnb.datasets import default
from irnb.datasets.calibration import DESIGN_ROWS, POOL_DEPENDENT, calibration_table, seed_table

PAGE = Path(__file__).resolve().parents[1] / "docs" / "simulator.md"
LABELS = {  # calibration statistic → the page's words
    "judged@10 contributing": "JudgedRet@10, contributing",
    "judged@10 non-contributing": "JudgedRet@10, non-contributing",
    "judged@100 contributing": "JudgedRet@100, contributing",
    "judged@100 non-contributing": "JudgedRet@100, non-contributing",
    "overlap@100": "mean pairwise top-100 overlap",
    "overlap@100 across groups": "… across groups only",
    "relevant if in top-100 of 0%–10% of runs": "relevant, pooled by 0–10 % of runs",
    "relevant if in top-100 of 10%–25% of runs": "relevant, pooled by 10–25 % of runs",
    "relevant if in top-100 of 25%–50% of runs": "relevant, pooled by 25–50 % of runs",
    "relevant if in top-100 of 50%–100% of runs": "relevant, pooled by 50–100 % of runs",
    "MAP max": "MAP max",
    "MAP max−min": "MAP max − min",
    "MAP IQR": "MAP inter-quartile range",
    "AP SD across topics": "AP SD across topics",
    "AP pairs significant": "run pairs significantly different on AP",
    "R CV": "R per topic, coefficient of variation",
}
HELD_OUT = range(10, 30)


def _number(value) -> str:
    return "–" if value is None or (isinstance(value, float) and np.isnan(value)) else f"{value:.3f}"


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def data(shared_dir):
    folder = shared_dir / "data"
    if not (folder / "trec-covid-round1").exists() or not (folder / "clef-ehealth-2016-irtask2").exists():
        pytest.skip(f"needs {folder}/trec-covid-round1 and clef-ehealth-2016-irtask2")
    return folder


@pytest.mark.shared
def test_the_seed_0_table_is_what_the_code_computes(data, real_stats):
    table = calibration_table(data, seed=0, real=real_stats)
    for name, label in LABELS.items():
        row = table.loc[name]
        in_range = "pool-dependent" if name in POOL_DEPENDENT else ("yes" if row["strict"] else "no")
        line = (f"| {label} | {_number(row['simulated'])} | {_number(row['TREC-COVID'])} | "
                f"{_number(row['CLEF 2016'])} | {in_range} | {_number(row['simulated (TREC-COVID design)'])} |")
        assert line in _page(), line
    text = " ".join(_page().split())
    sim, covid, clef = table["simulated"], table["TREC-COVID"], table["CLEF 2016"]
    comparable = [name for name in table.index if name not in POOL_DEPENDENT]
    assert f"All {int(table.loc[comparable, 'strict'].sum())} comparable statistics of the default lie inside" in text
    assert f"the MAP IQR range is only {abs(covid['MAP IQR'] - clef['MAP IQR']):.3f} wide" in text
    relevant = default().topics["relevant"]
    assert f"relevant documents per topic range from {relevant.min()} to {relevant.max()}" in text
    assert (f"AP SD across topics is {sim['AP SD across topics'] - clef['AP SD across topics']:.3f} above CLEF's "
            f"{clef['AP SD across topics']:.3f}, and MAP IQR {covid['MAP IQR'] - sim['MAP IQR']:.3f} below "
            f"TREC-COVID's {covid['MAP IQR']:.3f}") in text
    design = table["simulated (TREC-COVID design)"]
    off = {name: design[name] / covid[name] - 1 for name in DESIGN_ROWS}
    farthest = max(off, key=lambda name: abs(off[name]))
    words = {**LABELS, "R mean": "relevant documents per topic"}
    assert f"(the farthest, {words[farthest]}, is {abs(off[farthest]):.0%} off)".replace("%", " %") in text
    below = {n: 1 - design[n] / covid[n] for n in ("MAP IQR", "AP pairs significant")}
    assert (f"MAP IQR {design['MAP IQR']:.3f} and significant pairs {design['AP pairs significant']:.3f} are "
            f"{below['MAP IQR']:.0%} and {below['AP pairs significant']:.0%} below TREC-COVID"
            ).replace("%", " %") in text


@pytest.mark.shared
@pytest.mark.slow
def test_the_held_out_table_and_counts_are_what_the_code_computes(data, real_stats):
    spread = seed_table(real_stats, HELD_OUT)
    n = len(HELD_OUT)
    for name, row in spread.iterrows():
        line = (f"| {LABELS[name]} | {row['min']:.3f} | {row['mean']:.3f} | {row['max']:.3f} | "
                f"{int(row['inside'])} | {int(row['wide'])} |")
        assert line in _page(), line
    sentence = (f"{int(spread['inside'].sum())} of the {n * len(spread)} statistic–seed pairs "
                f"({spread['inside'].sum() / (n * len(spread)):.0%} ) lie inside the real range, and "
                f"{int(spread['wide'].sum())} lie within ±30 % of it").replace("% )", " %)")
    text = " ".join(_page().split())
    assert sentence in text, sentence
    assert f"its mean over these seeds is {spread.loc['MAP IQR', 'mean']:.3f}" in text
    missed = n * len(spread) - int(spread["wide"].sum())
    assert f"The {missed} exceptions are all MAP IQR" in text
    assert missed == len(HELD_OUT) - spread.loc["MAP IQR", "wide"]
    low, high = sorted(real_stats.loc["MAP IQR"])
    assert f"against the real {low:.3f}–{high:.3f}" in text
    ten = seed_table(real_stats, range(10, 20)).loc["MAP IQR", "mean"]  # the seeds the test asserts on
    assert f"MAP IQR's mean within ±30 % ({ten:.3f} on those ten seeds)" in text


def _crowding(exp) -> tuple[float, dict, dict]:
    """IQR / range of the runs' MAP; the mean MAP gap between neighbouring runs within the top
    quarter, the middle half and the bottom quarter of the ranking; and the share of the run
    pairs within each of those that do not differ significantly on AP (paired t, p ≥ 0.05)."""
    ev = irnb.evaluate(exp, ["AP"])
    means = ev.means()["AP"].sort_values(ascending=False)
    order, values = means.index.tolist(), means.to_numpy()
    quarter = len(order) // 4
    part = ["top" if i < quarter else "bottom" if i >= len(order) - quarter else "middle" for i in range(len(order))]
    gaps = {p: np.mean([values[i] - values[i + 1] for i in range(len(order) - 1) if part[i] == part[i + 1] == p])
            for p in ("top", "middle", "bottom")}
    p_values = irnb.pairwise_test(ev, "AP", test="t").matrix("p_value")
    alike = {}
    for p in gaps:
        runs = [r for r, q in zip(order, part, strict=True) if q == p]
        within = p_values.loc[runs, runs].to_numpy()[np.triu_indices(len(runs), 1)]
        alike[p] = float((within >= 0.05).mean())
    q75, q25 = np.quantile(values, [0.75, 0.25])
    return (q75 - q25) / (values.max() - values.min()), gaps, alike


@pytest.mark.shared
def test_the_crowded_middle_paragraph_is_what_the_code_computes(data):
    from irnb.datasets.real import trec_covid_round1

    ratio, gaps, alike = _crowding(default().experiment)
    covid_ratio, _, covid_alike = _crowding(trec_covid_round1(data / "trec-covid-round1"))
    text = " ".join(_page().split())
    assert f"IQR/range is {ratio:.2f} here and {covid_ratio:.2f} on TREC-COVID" in text
    assert (f"({gaps['middle']:.4f} MAP apart) as in the top quarter ({gaps['top']:.4f}), and further apart in the "
            f"bottom quarter ({gaps['bottom']:.4f})") in text
    assert abs(gaps["middle"] - gaps["top"]) < 0.1 * gaps["top"] < gaps["bottom"] - gaps["top"]  # "about as close"
    assert (f"{alike['top']:.0%} of the pairs within the top quarter do not differ significantly on AP (TREC-COVID "
            f"{covid_alike['top']:.0%}), against {alike['middle']:.0%} in the middle half and {alike['bottom']:.0%} in "
            f"the bottom quarter").replace("%", " %") in text
    assert alike["top"] > max(alike["middle"], alike["bottom"])  # "hardest to tell apart" …
    assert covid_alike["top"] > max(covid_alike["middle"], covid_alike["bottom"])  # … "as on TREC-COVID"


# =============================================================== the mechanisms' paragraphs
def _mechanisms() -> str:
    page = _page()
    return page[page.index("## Mechanisms for the papers' own settings"):]


def test_every_decimal_in_the_mechanisms_is_a_papers_figure_a_setting_or_a_tests_rule():
    """A number typed into prose goes stale: the mechanisms' paragraphs quote only the papers'
    figures (computed here from, or printed in, the papers' tables), the settings' values (read from the
    declarations) and the thresholds the settings' tests assert (read from their source)."""
    import re

    from irnb.datasets.settings import setting_for
    from irnb.papers.buttcher import PAPER_TABLE4, PAPER_TABLE6

    table4 = ((5893 - 4373) / (31984 - 23099)) / (5893 / 31984)  # Büttcher et al., Table 4
    recall = PAPER_TABLE6[("SVM classifier", "Recall")]
    table6 = recall["Automatic-only"].iloc[0] / recall.loc[["60%", "80%"]].mean()
    settings = {f"{v:g}" for paper in ("buttcher2007", "ravana2010", "baillie2008")
                for v in setting_for(paper).params.values() if isinstance(v, float)}
    tests = (Path(__file__).resolve().parent / "datasets" / "test_settings_buttcher.py").read_text(encoding="utf-8")
    rules = {"0.1" if "abs(on - paper) < 0.1" in tests else None, "1.5" if "r_on > 1.5 * r_off" in tests else None}
    printed = {f"{v:.1f}" for v in PAPER_TABLE4.loc["% Relevant"]}  # the paper's own percentages, quoted
    allowed = {f"{table4:.2f}", f"{table6:.2f}"} | printed | settings | rules
    quoted = set(re.findall(r"(?<![\d,])\d+\.\d+", _mechanisms()))
    assert quoted, "the paragraphs quote no decimal at all: the pattern is wrong"
    assert quoted <= allowed, f"typed numbers with no source: {sorted(quoted - allowed)}"


@pytest.mark.shared
def test_facet_decoys_cost_paragraph_holds(covid_dir):
    """The page: with facet decoys the Büttcher setting's manual runs have a lower mean true P@5
    than its automatic runs, while TREC-COVID's manual runs are ahead of its automatic ones."""
    from irnb.datasets.real import trec_covid_manual_runs, trec_covid_round1
    from irnb.datasets.settings import paper_setting

    assert "manual runs' mean true P@5 falls below the automatic runs'" in _mechanisms()
    c = paper_setting("buttcher2007", 0)
    p5 = irnb.evaluate(c.complete_experiment, "P@5").means()["P@5"]
    manual = c.run_info.set_index("run")["manual"].reindex(p5.index).to_numpy(bool)
    assert p5[manual].mean() < p5[~manual].mean()

    covid = trec_covid_round1(covid_dir, qrels="deep")
    p5 = irnb.evaluate(covid, "P@5").means()["P@5"]
    is_manual = p5.index.isin(trec_covid_manual_runs(covid_dir))
    assert p5[is_manual].mean() > p5[~is_manual].mean()
