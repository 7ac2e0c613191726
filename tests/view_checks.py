"""What the tests of the live views share: the small simulated experiment they run on (each
test module wraps it in its own module-scoped fixture), how to read a view's rows, intervals
and status line, and restoring matplotlib's backend after a test that imports ipympl."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

D = 60  # run depth of the small collection


def small_experiment():
    """Ten runs of four groups on eight topics, pooled to depth 20 (one novel and one keyword run)."""
    from irnb.datasets import simulate

    return simulate(seed=3, num_topics=8, num_runs=10, num_groups=4, docs_per_topic=400, run_depth=D,
                    pool_depth=20, median_relevant=10, novel_runs=1, keyword_runs=1).experiment


def shown_rows(ax) -> list[str]:
    """The row labels of a per-run (or per-topic) panel, bottom to top."""
    return [t.get_text() for t in ax.get_yticklabels()]


def interval_segments(view, panel: str) -> np.ndarray:
    """The (row, end, x/y) segments of ``panel``'s interval lines."""
    return np.asarray(view.artists[panel]["intervals"].get_segments())


def expected_rows(view, panel: str, lower: np.ndarray, upper: np.ndarray, names) -> np.ndarray:
    """The core's (B, T) in the order the plot shows its rows."""
    index = {n: i for i, n in enumerate(names)}
    rows = [index[r] for r in shown_rows(view.axes[panel])]
    return np.column_stack([lower[rows], upper[rows]])


def shows_error(view) -> bool:
    """Whether the view's status line shows a message instead of a result."""
    return "⚠" in view.status.value


@contextmanager
def restored_backend():
    """Importing ipympl makes it matplotlib's backend (ipympl/__init__.py): restore Agg."""
    import matplotlib

    backend = matplotlib.get_backend()
    yield
    matplotlib.use(backend)
