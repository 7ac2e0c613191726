"""What the tests of irnb.plots share: hand-made inputs (score intervals, a case matrix, a bias
result), readers of a drawn plot, and the check, after each test, that every text it left open
is legible (an autouse fixture: import it into a test module to have it run there)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irnb.bias import BiasResult
from irnb.intervals import ScoreIntervals
from irnb.measures import parse_measure


def plotted_segments(ax) -> np.ndarray:
    """(n, 2, 2) segments of the [B, T] LineCollection."""
    from irnb import plots

    return np.asarray(plots.artists(ax)["intervals"].get_segments())


def ytick_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def xtick_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_xticklabels()]


def hand_intervals() -> ScoreIntervals:
    """Three runs × two topics, P@10 bounds by hand. Means over evaluated topics:
    a: B (0.2 + 0.4)/2 = 0.3, T (0.6 + 0.8)/2 = 0.7; b: B 0.5, T 0.5 (topic 2 not
    evaluated: only 0.5 counts); c: B (0.1 + 0.1)/2 = 0.1, T (0.9 + 0.3)/2 = 0.6."""
    lower = np.array([[0.2, 0.4], [0.5, 0.0], [0.1, 0.1]])
    upper = np.array([[0.6, 0.8], [0.5, 0.0], [0.9, 0.3]])
    evaluated = np.array([[True, True], [True, False], [True, True]])
    return ScoreIntervals(parse_measure("P@10"), ("a", "b", "c"), ("t1", "t2"), lower, upper, upper - lower,
                          evaluated, pool="hand-made pool")


def hand_matrix() -> pd.DataFrame:
    cases = np.array([[np.nan, 1, 2], [1, np.nan, 4], [2, 4, np.nan]])
    runs = pd.Index(["x", "y", "z"], name="run")
    return pd.DataFrame(cases, index=runs, columns=pd.Index(["x", "y", "z"], name="versus"))


def bias_result(ref_rank, red_rank, *, tau=(0.9, 0.8), description="hand-made") -> BiasResult:
    ref_rank = np.asarray(ref_rank)
    red_rank = np.asarray(red_rank)
    M, S = ref_rank.shape
    score = np.linspace(0.5, 0.1, S)[None, :].repeat(M, 0)
    return BiasResult(kind="leave-one-group-out", description=description,
                      measures=tuple(parse_measure(m) for m in ("AP", "Bpref")[:M]), run_names=("r1", "r2", "r3"),
                      groups=("g1", "g2", "g2"), left_out=np.array([True, True, False]), reference_score=score,
                      reduced_score=score + np.array([[-0.1], [0.05]])[:M], reference_rank=ref_rank,
                      reduced_rank=red_rank, p_value=np.full((M, S), 0.5), kendall_tau=np.array(tau[:M]),
                      tau_ap=np.array(tau[:M]) - 0.1, kendall_tau_left_out=np.array(tau[:M]))


SMALLEST_FONT: dict[str, float] = {}  # test → smallest text size (points) in its figures


def drawn_texts(figure):
    """Every visible, non-empty text of a drawn figure (titles, labels, tick labels, legends)."""
    from matplotlib.text import Text

    figure.canvas.draw()
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


@pytest.fixture(autouse=True)
def every_text_is_legible(request):
    """After each test: every text in every figure it left open is at least 9 pt
    (:data:`irnb.plots.MIN_FONT`); the smallest size per test is kept in SMALLEST_FONT."""
    import matplotlib.pyplot as plt

    from irnb import plots

    yield
    sizes = []
    for number in plt.get_fignums():
        texts = drawn_texts(plt.figure(number))
        small = [(t.get_text()[:30], t.get_fontsize()) for t in texts if t.get_fontsize() < plots.MIN_FONT]
        assert small == [], f"{request.node.name}: texts under {plots.MIN_FONT} pt: {small[:5]}"
        sizes += [t.get_fontsize() for t in texts]
    if sizes:
        SMALLEST_FONT[request.node.name] = min(sizes)
    plt.close("all")
