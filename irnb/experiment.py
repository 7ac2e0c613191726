"""The Experiment: runs + qrels turned, once, into dense arrays.

Every later computation (measures at any depth, pools, intervals, tests) is numpy over
these arrays; nothing is re-parsed.

Arrays (S runs, T topics, D = the deepest ranking, or ``max_depth``):

* ``judgments.doc[s, t, r]`` (int32): index into the qrels of the document that run ``s``
  ranks at position ``r`` (0-based) for topic ``t``; ``NOT_IN_QRELS`` (-1) when the qrels
  do not list it, ``NO_DOCUMENT`` (-2) when the run is shorter than ``r + 1``.
* ``judgments.grade`` (int8, ``grade_array()``): the document's grade, ``UNJUDGED``
  (-128) or ``NO_DOC`` (-127) for the two cases above.
* ``length[s, t]``: documents the run retrieved for the topic (after ``max_depth``).
* ``judgments.qrel_topic[q]``, ``qrel_grade[q]``, ``qrel_docno[q]``: the qrels, sorted by
  topic then docno, including judged documents no run retrieved.

Topics are the qrels' topics in string order (trec_eval's). Run topics absent from the
qrels are not evaluated (trec_eval); they are counted in ``ignored_topics``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .io import Qrels, Run, read_qrels, read_runs

__all__ = ["Experiment", "Judgments", "UNJUDGED", "NO_DOC", "NOT_IN_QRELS", "NO_DOCUMENT"]

UNJUDGED = -128  # grade sentinel: the document is not in the (pooled) qrels
NO_DOC = -127  # grade sentinel: the run has no document at this rank
NOT_IN_QRELS = -1  # doc-index sentinel
NO_DOCUMENT = -2  # doc-index sentinel
MIN_GRADE, MAX_GRADE = -126, 127


@dataclass(frozen=True, eq=False)
class Judgments:
    """One set of qrels laid over the Experiment's rankings."""

    doc: np.ndarray = field(repr=False)  # (S, T, D) int32
    qrel_topic: np.ndarray = field(repr=False)  # (Q,) int32, topic index
    qrel_grade: np.ndarray = field(repr=False)  # (Q,) int8
    qrel_docno: pa.Array = field(repr=False)  # (Q,) strings
    topic_start: np.ndarray = field(repr=False)  # (T + 1,) offsets into the qrels

    @property
    def num_judgments(self) -> int:
        return int(self.qrel_grade.shape[0])

    def grade_array(self, judged: np.ndarray | None = None) -> np.ndarray:
        """Grades at every (run, topic, rank); ``judged`` is an optional boolean mask over the
        qrels entries (a pool): entries outside it read as UNJUDGED."""
        if judged is None:
            return self._full_grade
        table = np.concatenate([np.where(judged, self.qrel_grade, UNJUDGED).astype(np.int8),
                                np.array([NO_DOC, UNJUDGED], dtype=np.int8)])
        # doc = -2 → table[-2] = NO_DOC, doc = -1 → table[-1] = UNJUDGED
        return table[self.doc]

    @cached_property
    def _full_grade(self) -> np.ndarray:
        table = np.concatenate([self.qrel_grade, np.array([NO_DOC, UNJUDGED], dtype=np.int8)])
        grade = table[self.doc]
        grade.flags.writeable = False
        return grade

    @cached_property
    def retrieved_rank(self) -> np.ndarray:
        """``retrieved_rank[s, q]``: the 1-based rank at which run ``s`` retrieved qrels entry
        ``q``; a value above any depth (``np.iinfo(dtype).max``) when it did not."""
        S, T, D = self.doc.shape
        dtype = np.int16 if D < np.iinfo(np.int16).max else np.int32
        out = np.full((S, self.num_judgments), np.iinfo(dtype).max, dtype=dtype)
        s_idx, _, r_idx = np.nonzero(self.doc >= 0)
        out[s_idx, self.doc[self.doc >= 0]] = (r_idx + 1).astype(dtype)
        out.flags.writeable = False
        return out

    def frame(self, topics: Sequence[str], judged: np.ndarray | None = None) -> pd.DataFrame:
        """The qrels (optionally only the entries in ``judged``) as ``topic, docno, grade``."""
        keep = np.ones(self.num_judgments, bool) if judged is None else np.asarray(judged, bool)
        return pd.DataFrame(
            {
                "topic": np.asarray(topics, dtype=object)[self.qrel_topic[keep]],
                "docno": np.asarray(self.qrel_docno.to_pylist(), dtype=object)[keep],
                "grade": self.qrel_grade[keep].astype(np.int64),
            }
        )


def _encode_qrels(qrels: Qrels, topics: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array, np.ndarray]:
    """Qrels restricted to ``topics``: topic index, grade, docno and per-topic offsets."""
    table = qrels.table
    topic_idx = pc.index_in(table["topic"], value_set=topics).fill_null(-1).to_numpy().astype(np.int64)
    keep = topic_idx >= 0
    grades = table["grade"].to_numpy()[keep]
    if grades.size and (grades.min() < MIN_GRADE or grades.max() > MAX_GRADE):
        bad = grades[(grades < MIN_GRADE) | (grades > MAX_GRADE)][0]
        raise ValueError(f"{qrels.source}: grade {bad} is outside the supported range [{MIN_GRADE}, {MAX_GRADE}]")
    docno = table["docno"].filter(pa.array(keep)).combine_chunks()
    topic_idx = topic_idx[keep].astype(np.int32)
    order = np.lexsort((np.arange(topic_idx.size), topic_idx))  # already topic-sorted; stable
    topic_idx, grades = topic_idx[order], grades[order]
    docno = docno.take(pa.array(order))
    starts = np.searchsorted(topic_idx, np.arange(len(topics) + 1)).astype(np.int64)
    return topic_idx, grades.astype(np.int8), docno, starts


class _DocnoIndex:
    """Maps (topic index, docno) to the qrels entry, looking docnos up only among judged ones."""

    def __init__(self, topic_idx: np.ndarray, docno: pa.Array):
        self.vocab = pc.unique(docno)
        ids = pc.index_in(docno, value_set=self.vocab).to_numpy().astype(np.int64)
        self.width = max(len(self.vocab), 1)
        keys = topic_idx.astype(np.int64) * self.width + ids
        self.order = np.argsort(keys, kind="stable")
        self.keys = keys[self.order]

    def lookup(self, topic_idx: np.ndarray, docno: pa.Array) -> np.ndarray:
        ids = pc.index_in(docno, value_set=self.vocab)
        found = ids.is_valid().to_numpy(zero_copy_only=False)
        ids = ids.fill_null(0).to_numpy().astype(np.int64)
        keys = topic_idx.astype(np.int64) * self.width + ids
        pos = np.searchsorted(self.keys, keys)
        pos = np.minimum(pos, max(self.keys.size - 1, 0))
        hit = found & (self.keys.size > 0) & (self.keys[pos] == keys) if self.keys.size else np.zeros(len(keys), bool)
        out = np.full(len(keys), NOT_IN_QRELS, dtype=np.int32)
        out[hit] = self.order[pos[hit]]
        return out


def _topic_positions(run: Run, topics: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """For each run line: the Experiment topic index (-1 if not a qrels topic), the 0-based
    rank and the docno."""
    enc = pc.dictionary_encode(run.table["topic"]).combine_chunks()
    local = enc.indices.to_numpy().astype(np.int64)
    n = local.size
    starts = np.flatnonzero(np.r_[True, local[1:] != local[:-1]])
    group_start = np.repeat(starts, np.diff(np.r_[starts, n]))
    rank = np.arange(n) - group_start
    mapped = pc.index_in(enc.dictionary, value_set=topics).fill_null(-1).to_numpy().astype(np.int64)
    return mapped[local], rank, run.table["docno"].combine_chunks()


class Experiment:
    """Runs and qrels as dense arrays (see the module docstring).

    Parameters
    ----------
    runs : mapping name → Run, a list of Runs, or anything ``read_runs`` accepts.
    qrels : Qrels or anything ``read_qrels`` accepts: the official judgments.
    groups : optional mapping run name → group (default: each run its own group).
    contributors : optional collection of run names that contributed to the pool
        (default: every run).
    truth : optional deeper/complete qrels (e.g. the simulator's ground truth).
    max_depth : optional run cutoff (trec_eval ``-M``): only the first ``max_depth``
        documents of each ranking are kept.

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "c"], "grade": [1, 0]})
    >>> run = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> exp = Experiment(run, qrels)
    >>> exp.grade.tolist()     # a relevant, b not in qrels (UNJUDGED), c judged 0
    [[[1, -128, 0]]]
    """

    def __init__(
        self,
        runs,
        qrels,
        *,
        groups: Mapping[str, str] | None = None,
        contributors: Iterable[str] | None = None,
        truth=None,
        max_depth: int | None = None,
        on_duplicate: str = "error",
    ):
        if isinstance(runs, Mapping) and all(isinstance(r, Run) for r in runs.values()):
            run_map = dict(runs)
        elif isinstance(runs, Run):
            run_map = {runs.name: runs}
        elif isinstance(runs, (list, tuple)) and runs and all(isinstance(r, Run) for r in runs):
            run_map = {}
            for r in runs:
                if r.name in run_map:
                    raise ValueError(f"two runs are named {r.name!r}; expected unique run names")
                run_map[r.name] = r
        else:
            run_map = read_runs(runs, on_duplicate=on_duplicate)
        if not run_map:
            raise ValueError("expected at least one run, got none")
        if not isinstance(qrels, Qrels):
            qrels = read_qrels(qrels, on_duplicate=on_duplicate)
        if max_depth is not None and (not isinstance(max_depth, (int, np.integer)) or max_depth < 1):
            raise ValueError(f"max_depth (run cutoff, trec_eval -M) must be an integer ≥ 1, got {max_depth!r}")

        self.runs: dict[str, Run] = run_map
        self.run_names: tuple[str, ...] = tuple(run_map)
        self.qrels = qrels
        topic_list = sorted(set(qrels.topics))
        self.topics: tuple[str, ...] = tuple(topic_list)
        topics_pa = pa.array(topic_list, pa.string())
        self.max_depth = max_depth

        positions = {name: _topic_positions(run, topics_pa) for name, run in run_map.items()}
        ignored: dict[str, list[str]] = {}
        for name, (tidx, _, _) in positions.items():
            answered = set(np.unique(tidx[tidx >= 0]).tolist())
            if not answered:
                run_topics = run_map[name].topics
                raise ValueError(
                    f"{run_map[name].source}: run {name!r} shares no topic with the qrels "
                    f"({qrels.source or 'qrels'}): run topics {run_topics[:5]}{'…' if len(run_topics) > 5 else ''}, "
                    f"qrels topics {topic_list[:5]}{'…' if len(topic_list) > 5 else ''}"
                )
            dropped = sorted(set(run_map[name].topics) - set(topic_list))
            if dropped:
                ignored[name] = dropped
        self.ignored_topics: dict[str, list[str]] = ignored

        deepest = max(int(rank.max()) + 1 for _, rank, _ in positions.values())
        depth = min(deepest, max_depth) if max_depth is not None else deepest
        self.depth = depth
        S, T = len(run_map), len(topic_list)

        self.judgments = self._lay_out(qrels, topics_pa, positions, S, T, depth)
        self.truth: Judgments | None = None
        if truth is not None:
            truth_qrels = truth if isinstance(truth, Qrels) else read_qrels(truth, on_duplicate=on_duplicate)
            self.truth = self._lay_out(truth_qrels, topics_pa, positions, S, T, depth)

        length = (self.judgments.doc != NO_DOCUMENT).sum(axis=2).astype(np.int32)
        self.length = length
        self.length.flags.writeable = False

        group_map = dict(groups) if groups is not None else {n: n for n in self.run_names}
        missing = [n for n in self.run_names if n not in group_map]
        if missing:
            raise ValueError(f"groups: expected a group for every run, missing {missing[:5]}")
        self.groups: tuple[str, ...] = tuple(str(group_map[n]) for n in self.run_names)
        if contributors is None:
            self.contributors = np.ones(S, dtype=bool)
        else:
            contributors = list(contributors)
            unknown = sorted(set(contributors) - set(self.run_names))
            if unknown:
                raise ValueError(
                    f"contributors: unknown run names {unknown[:5]}; expected names among {list(self.run_names)[:5]}…"
                )
            self.contributors = np.isin(np.array(self.run_names, dtype=object), contributors)
        self.contributors.flags.writeable = False

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _lay_out(qrels: Qrels, topics_pa, positions, S: int, T: int, depth: int) -> Judgments:
        qrel_topic, qrel_grade, qrel_docno, starts = _encode_qrels(qrels, topics_pa)
        index = _DocnoIndex(qrel_topic, qrel_docno)
        doc = np.full((S, T, depth), NO_DOCUMENT, dtype=np.int32)
        for s, (tidx, rank, docno) in enumerate(positions.values()):
            keep = (tidx >= 0) & (rank < depth)
            doc[s, tidx[keep], rank[keep]] = index.lookup(tidx[keep], docno.filter(pa.array(keep)))
        doc.flags.writeable = False
        qrel_topic.flags.writeable = False
        qrel_grade.flags.writeable = False
        return Judgments(doc=doc, qrel_topic=qrel_topic, qrel_grade=qrel_grade, qrel_docno=qrel_docno,
                         topic_start=starts)

    # ------------------------------------------------------------------ views
    @property
    def grade(self) -> np.ndarray:
        """(S, T, D) int8 grades against the official qrels (sentinels UNJUDGED, NO_DOC)."""
        return self.judgments.grade_array()

    @property
    def answered(self) -> np.ndarray:
        """(S, T) bool: the run retrieved at least one document for the topic."""
        return self.length > 0

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.judgments.doc.shape

    def __repr__(self) -> str:
        S, T, D = self.shape
        truth = f", truth={self.truth.num_judgments} judgments" if self.truth is not None else ""
        return (f"Experiment({S} runs × {T} topics × depth {D}, "
                f"{self.judgments.num_judgments} judgments{truth})")

    def run_index(self, names: str | Iterable[str]) -> np.ndarray:
        """Positions of the named runs; unknown names raise with a did-you-mean."""
        names = [names] if isinstance(names, str) else list(names)
        lookup = {n: i for i, n in enumerate(self.run_names)}
        out = []
        for n in names:
            if n not in lookup:
                import difflib

                close = difflib.get_close_matches(n, self.run_names, n=3)
                hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
                raise ValueError(f"unknown run {n!r}{hint}")
            out.append(lookup[n])
        return np.asarray(out, dtype=np.int64)
