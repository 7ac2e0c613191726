"""irnb.plots.style: depth axes in plain numbers, the papers' name for assessment precision,
and series told apart by more than colour."""

from __future__ import annotations


import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from irnb import plots  # noqa: E402


from plot_checks import bias_result  # noqa: E402
from plot_checks import every_text_is_legible  # noqa: E402,F401  (autouse: each figure's texts ≥ MIN_FONT)


def test_depth_axes_read_in_plain_numbers():
    results = {d: bias_result([[1, 2, 3]] * 2, [[1, 3, 2]] * 2, tau=(0.9, 0.8 + d / 1000))
               for d in (5, 10, 20, 50, 100)}
    ax = plots.tau_depth_plot(results, current=20)
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
    assert {"10", "20", "50", "100"} <= set(labels) and not any("^" in x or "10^" in x for x in labels), labels


def test_measure_label_gives_the_papers_name_for_assessment_precision():
    assert plots.measure_label("Judged@20") == "A_p@20"
    assert plots.measure_label("Judged") == "A_p"
    assert [plots.measure_label(m) for m in ("P@20", "JudgedRet@20", "MAA", "NotUnj@10")] == [
        "P@20", "JudgedRet@20", "MAA", "NotUnj@10"]   # the other readings keep their own names


def test_series_style_never_leaves_colour_as_the_only_cue():
    styles = [tuple(plots.series_style(i).values()) for i in range(64)]
    assert len(set(styles)) == 64                                     # no two of the first 64 series alike
    assert all(colour in plots.PALETTE for colour, _, _ in styles)    # Okabe–Ito colours only
    assert len({(m, ls) for _, m, ls in styles[:8]}) == 8             # the first 8 differ without colour too
