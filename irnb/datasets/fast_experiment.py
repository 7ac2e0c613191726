"""Build the simulated collection's :class:`~irnb.Experiment` from integer arrays.

``Experiment(runs, qrels, truth=...)`` looks every retrieved docno up in the qrels (string
hashing: ~7 s for the default collection, whose truth lists 250,000 documents). The simulator
already knows, for every (run, topic, rank), which document it is, so the qrels index of
that document is arithmetic: truth entries are in (topic, document index) order, so entry
``t·N + i``; official entries are the pooled ones in the same order, so a cumulative count.

The result is the same object the public constructor builds (a test compares every
attribute and array on a small collection).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..experiment import Experiment
from ..judgments import NO_DOCUMENT, NOT_IN_QRELS, Judgments, encode_qrels
from ..trecdata import Qrels

__all__ = ["experiment_from_ranking"]


def _judgments(qrels: Qrels, topics_pa: pa.Array, index_of_doc: np.ndarray, ranking: np.ndarray) -> Judgments:
    """``index_of_doc[t, i]``: the qrels entry of document i of topic t, or -1."""
    qrel_topic, qrel_grade, qrel_docno, starts = encode_qrels(qrels, topics_pa)
    T = ranking.shape[1]
    doc = index_of_doc[np.arange(T)[None, :, None], ranking].astype(np.int32)
    return Judgments(doc=doc, qrel_topic=qrel_topic, qrel_grade=qrel_grade, qrel_docno=qrel_docno,
                     topic_start=starts)


def experiment_from_ranking(
    runs: dict, qrels: Qrels, truth: Qrels, *, ranking: np.ndarray, pooled: np.ndarray,
    topics: list[str], groups: list[str], contributors: np.ndarray,
) -> Experiment:
    """The Experiment of a simulated collection: ``ranking[s, t, r]`` document index (every
    run answers every topic to the same depth), ``pooled[t, i]`` whether document i of topic
    t is in the official qrels; ``qrels``/``truth`` must list documents in (topic, index)
    order, as the simulator writes them."""
    S, T, D = ranking.shape
    N = pooled.shape[1]
    topics_pa = pa.array(topics, pa.string())
    truth_index = np.arange(T * N, dtype=np.int64).reshape(T, N)
    official_index = np.where(pooled, np.cumsum(pooled.ravel()).reshape(T, N) - 1, NOT_IN_QRELS)

    exp = Experiment.__new__(Experiment)
    exp.runs = dict(runs)
    exp.run_names = tuple(runs)
    exp.qrels = qrels
    exp.topics = tuple(topics)
    exp.max_depth = None
    exp.compat = "9"  # the Experiment default (simulated scores have no float32 ties to settle)
    exp.ignored_topics = {}
    exp.missing_topics = {}  # every run answers every topic
    exp.depth = D
    exp.judgments = _judgments(qrels, topics_pa, official_index, ranking)
    exp.truth = _judgments(truth, topics_pa, truth_index, ranking)
    length = (exp.judgments.doc != NO_DOCUMENT).sum(axis=2).astype(np.int32)
    length.flags.writeable = False
    exp.length = length
    exp.groups = tuple(groups)
    contributors = np.asarray(contributors, dtype=bool).copy()
    contributors.flags.writeable = False
    exp.contributors = contributors
    return exp
