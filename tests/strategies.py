"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

import pandas as pd
from hypothesis import strategies as st

from irnb import Experiment


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


#: a qid or docno as a TREC file may hold it (never starting with a comment's #)
TREC_TOKEN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789-_.:#é", min_size=1, max_size=8).filter(
    lambda s: not s.startswith("#"))
#: a run score, with the values whose float32 ties and signs trec_eval's ranking must get right
RUN_SCORE = st.one_of(
    st.floats(min_value=-1e300, max_value=1e300, allow_nan=False),
    st.integers(-10**6, 10**6).map(float),
    st.sampled_from([0.1, 1 / 3, 1e-300, -0.0, 5e-324, 0.4820330048251339, 0.4820330048251338]),
)


@st.composite
def run_frames(draw, min_topics=1):
    """Runs as DataFrames (qid, docno, score): 1-4 topics of 1-8 distinct docnos with any float scores."""
    topics = draw(st.lists(TREC_TOKEN, min_size=min_topics, max_size=4, unique=True))
    rows = []
    for topic in topics:
        docnos = draw(st.lists(TREC_TOKEN, min_size=1, max_size=8, unique=True))
        rows += [(topic, d, draw(RUN_SCORE)) for d in docnos]
    return pd.DataFrame(rows, columns=["qid", "docno", "score"])


@st.composite
def ranked_collections(draw, *, all_judged: bool = False):
    """Random runs (strictly decreasing scores, so the ranking is the list order), qrels with grades
    -1 to 2 (every document judged 0 to 2 when ``all_judged``), and the contributing runs."""
    runs, n_topics, universe = draw(rankings(max_runs=4, max_universe=14))
    qrels = {}
    for t in range(n_topics):
        if all_judged:
            ids = range(universe)
        else:
            ids = draw(st.lists(st.integers(0, universe + 2), min_size=1, max_size=universe + 3, unique=True))
        for i in ids:
            qrels[(str(t), f"d{i}")] = draw(st.integers(0 if all_judged else -1, 2))
    contributors = draw(st.lists(st.sampled_from(sorted(runs)), min_size=1, unique=True))
    return runs, qrels, contributors


def build_experiment(runs, qrels, contributors) -> Experiment:
    """The Experiment of a :func:`ranked_collections` draw."""
    rows = [(name, t, d, float(len(docs) - i)) for name, topics in runs.items() for t, docs in topics
            for i, d in enumerate(docs)]
    q = pd.DataFrame([(t, d, g) for (t, d), g in qrels.items()], columns=["qid", "docno", "grade"])
    return Experiment(pd.DataFrame(rows, columns=["run", "qid", "docno", "score"]), q, contributors=contributors)
