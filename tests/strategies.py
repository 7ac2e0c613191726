"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def rankings(draw, *, max_runs: int, max_topics: int = 3, max_universe: int):
    """Random runs as ``{run: [(topic, [docno, ...]), ...]}``: documents d0… of a per-topic
    universe in a random order, lengths 0…universe (every run answers topic "0").
    Returns ``(runs, n_topics, universe)``."""
    n_runs, n_topics = draw(st.integers(1, max_runs)), draw(st.integers(1, max_topics))
    universe = draw(st.integers(2, max_universe))
    runs = {}
    for s in range(n_runs):
        topics = []
        for t in range(n_topics):
            docs = draw(st.permutations([f"d{i}" for i in range(universe)]))
            length = draw(st.integers(1 if t == 0 else 0, universe))
            if length:
                topics.append((str(t), list(docs[:length])))
        runs[f"r{s}"] = topics
    return runs, n_topics, universe
