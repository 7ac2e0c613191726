"""One set of qrels laid over an Experiment's rankings: which entries are judged and relevant,
and the grade of every retrieved document under a judged mask.

Arrays (S runs, T topics, D the Experiment's depth, Q qrels entries; all read-only):

* ``doc[s, t, r]`` (int32): index into the qrels of the document that run ``s`` ranks at
  position ``r`` (0-based) for topic ``t``; :data:`NOT_IN_QRELS` (-1) when the qrels do not
  list it, :data:`NO_DOCUMENT` (-2) when the run is shorter than ``r + 1``.
* ``grade_array()`` (int8): the document's grade, ``UNJUDGED`` (-128) or ``NO_DOC`` (-127)
  for the two cases above.
* ``qrel_topic[q]``, ``qrel_grade[q]``, ``qrel_docno[q]``: the qrels, sorted by topic then
  docno, including judged documents no run retrieved; ``topic_start[t]`` is the first entry
  of topic t (``topic_start[T]`` = Q).
* ``retrieved_rank[s, q]``: the 1-based rank at which run s retrieved entry q.

:class:`irnb.experiment.Experiment` builds the ``doc`` array; :func:`encode_qrels` turns
qrels into the per-entry arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._grades import MAX_GRADE, MIN_GRADE, NO_DOC, UNJUDGED
from .arrow_pool import arrow_pool
from .ordering import QRELS_ORDER, as_arrow, column_numpy, encode_topics, find_keys, key_table, one_array
from .ordering import positions_in, take_rows, topic_blocks
from .params import RELEVANCE_LEVEL
from .poolmask import POOLED_UNJUDGED, PoolMaskError, pooled_unjudged_of
from .trecdata import Qrels

__all__ = ["Judgments", "NOT_IN_QRELS", "NO_DOCUMENT", "encode_qrels", "qrels_row_of", "read_only"]

NOT_IN_QRELS = -1  # doc-index sentinel
NO_DOCUMENT = -2  # doc-index sentinel


def read_only(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only in place (the Experiment's arrays are shared by every view)."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Judgments:
    """One set of qrels laid over the Experiment's rankings (all arrays read-only)."""

    doc: np.ndarray = field(repr=False)  # (S, T, D) int32
    qrel_topic: np.ndarray = field(repr=False)  # (Q,) int32, topic index
    qrel_grade: np.ndarray = field(repr=False)  # (Q,) int8
    qrel_docno: pa.Array = field(repr=False)  # (Q,) strings
    topic_start: np.ndarray = field(repr=False)  # (T + 1,) offsets into the qrels

    def __post_init__(self):
        for array in (self.doc, self.qrel_topic, self.qrel_grade, self.topic_start):
            array.flags.writeable = False

    @property
    def num_judgments(self) -> int:
        return int(self.qrel_grade.shape[0])

    def grade_array(self, judged: np.ndarray | None = None, *, runs=None) -> np.ndarray:
        """Grades at every (run, topic, rank); ``judged`` is an optional boolean mask over the
        qrels entries (a pool): entries read as :meth:`entry_grades` says. ``runs`` (a slice,
        run indices, or (run, topic) cells such as ``np.ix_(runs, topics)``) builds the array
        of those only (no full-size array is made or kept).

        >>> j = Judgments(doc=np.array([[[1, -1, 0, -2]]], np.int32), qrel_topic=np.zeros(2, np.int32),
        ...               qrel_grade=np.array([0, 2], np.int8), qrel_docno=pa.array(["a", "b"]),
        ...               topic_start=np.array([0, 2]))
        >>> j.grade_array().tolist()          # b (grade 2), not in qrels, a (0), no document
        [[[2, -128, 0, -127]]]
        >>> j.grade_array(np.array([True, False])).tolist()   # b left out of the pool
        [[[-128, -128, 0, -127]]]
        """
        if judged is None and (runs is None or "_full_grade" in self.__dict__):
            return self._full_grade if runs is None else self._full_grade[runs]
        return self.grades_at_ranks(self.entry_grades(judged), runs=runs)

    def grades_at_ranks(self, entry_grade: np.ndarray, *, runs=None) -> np.ndarray:
        """(S, T, D) int8: ``entry_grade[q]`` (one grade per qrels entry) at every rank whose
        document is entry q; UNJUDGED where the document is not in the qrels, NO_DOC past the
        end of a run. ``runs`` selects as in :meth:`grade_array`."""
        table = np.concatenate([entry_grade, np.array([NO_DOC, UNJUDGED], dtype=np.int8)])
        # doc = -2 → table[-2] = NO_DOC, doc = -1 → table[-1] = UNJUDGED
        return table[self.doc if runs is None else self.doc[runs]]

    def entry_grades(self, judged: np.ndarray | None = None) -> np.ndarray:
        """(Q,) int8: the grade each qrels entry reads as under the mask ``judged`` — its
        grade when judged, ``UNJUDGED`` (not in the pool) when left out, and
        ``POOLED_UNJUDGED`` (-1, trec_eval's "pooled but not judged") when a
        :class:`~irnb.poolmask.PoolMask` keeps it in the pool unjudged. The one rule the grade views of a
        pool go through (measures, bias experiments, completed qrels, written qrels files);
        the interval bounds need only judged / not judged, which both readings agree on.

        >>> j = Judgments(doc=np.zeros((1, 1, 1), np.int32), qrel_topic=np.zeros(3, np.int32),
        ...               qrel_grade=np.array([1, 0, 2], np.int8), qrel_docno=pa.array(["a", "b", "c"]),
        ...               topic_start=np.array([0, 3]))
        >>> j.entry_grades(np.array([True, False, False])).tolist()
        [1, -128, -128]
        >>> from irnb.poolmask import PoolMask
        >>> j.entry_grades(PoolMask([True, False, False], pooled_unjudged=[False, True, False])).tolist()
        [1, -1, -128]
        """
        if judged is None:
            return self.qrel_grade.copy()
        unjudged = pooled_unjudged_of(judged)
        mask = np.asarray(judged)
        if mask.dtype != bool or mask.shape != (self.num_judgments,):
            raise PoolMaskError(
                f"judged must be a boolean mask over the {self.num_judgments} qrels entries, "
                f"got dtype {mask.dtype} and shape {mask.shape}"
            )
        outside = UNJUDGED if unjudged is None else np.where(unjudged, POOLED_UNJUDGED, UNJUDGED)
        return np.where(mask, self.qrel_grade, outside).astype(np.int8)

    def judged_entries(self, judged: np.ndarray | None = None) -> np.ndarray:
        """(Q,) bool: the qrels entries judged under the mask ``judged`` — in the pool and
        graded (grade ≥ 0); every graded entry when ``judged`` is None."""
        graded = self.qrel_grade >= 0
        return graded if judged is None else np.asarray(judged) & graded

    def relevant_entries(self, judged: np.ndarray | None = None,
                         relevance_level: int = RELEVANCE_LEVEL.default) -> np.ndarray:
        """(Q,) bool: the entries judged under ``judged`` with grade ≥ ``relevance_level``."""
        return self.judged_entries(judged) & (self.qrel_grade >= relevance_level)

    @cached_property
    def _full_grade(self) -> np.ndarray:
        return read_only(self.grades_at_ranks(self.qrel_grade))

    @cached_property
    def retrieved_rank(self) -> np.ndarray:
        """``retrieved_rank[s, q]``: the 1-based rank at which run ``s`` retrieved qrels entry
        ``q``; a value above any depth (``np.iinfo(dtype).max``) when it did not."""
        S, T, D = self.doc.shape
        dtype = np.int16 if D < np.iinfo(np.int16).max else np.int32
        out = np.full((S, self.num_judgments), np.iinfo(dtype).max, dtype=dtype)
        found = self.doc >= 0
        s_idx, _, r_idx = np.nonzero(found)
        out[s_idx, self.doc[found]] = (r_idx + 1).astype(dtype)
        return read_only(out)

    def frame(self, topics: Sequence[str], judged: np.ndarray | None = None) -> pd.DataFrame:
        """The qrels as ``topic, docno, grade`` (qrels order): every entry, or the entries a
        pool mask ``judged`` keeps in the pool, with the grade they read as under it
        (:meth:`entry_grades`: a :class:`~irnb.poolmask.PoolMask`'s pooled-unjudged entries get -1)."""
        grade = self.entry_grades(judged)
        keep = grade != UNJUDGED
        return pd.DataFrame(
            {
                "topic": np.asarray(topics, dtype=object)[self.qrel_topic[keep]],
                "docno": np.asarray(self.qrel_docno.to_pylist(), dtype=object)[keep],
                "grade": grade[keep].astype(np.int64),
            }
        )


def encode_qrels(qrels: Qrels, topics: pa.Array, codes: tuple[np.ndarray, pa.Array] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, pa.Array, np.ndarray]:
    """Qrels restricted to ``topics``: topic index, grade, docno and per-topic offsets.
    ``codes`` is ``encode_topics(qrels.table["topic"])`` when the caller has it; without
    it, the topic boundaries that :func:`irnb.trecdata.qrels_from_table` remembered for the
    table give the codes (no pass over the topic strings), else the topics are encoded."""
    table = qrels.table
    remembered = topic_blocks(table, QRELS_ORDER) if codes is None else None  # (starts, topics) or None
    if remembered is not None:
        dictionary = remembered[1]
        codes = np.repeat(np.arange(len(dictionary), dtype=np.int32), np.diff(remembered[0]))  # made here: ours
    else:
        codes, dictionary = encode_topics(table["topic"]) if codes is None else codes
    position = positions_in(dictionary, topics)  # hashes the distinct topics only, not every row
    in_order = position.size == len(topics) and bool((position == np.arange(position.size)).all())
    if in_order:  # topics met in their order (read_qrels sorts them): every entry kept, codes as they are
        topic_idx = codes if remembered is not None else np.array(codes, dtype=np.int32)
        keep = None
    else:
        topic_idx = position.astype(np.int32)[codes]
        keep = topic_idx >= 0
    everything = keep is None or bool(keep.all())
    grades = column_numpy(table["grade"]) if everything else column_numpy(table["grade"])[keep]
    if grades.size and (grades.min() < MIN_GRADE or grades.max() > MAX_GRADE):
        bad = int(np.flatnonzero((grades < MIN_GRADE) | (grades > MAX_GRADE))[0])
        row = bad if everything else int(np.flatnonzero(keep)[bad])
        raise ValueError(
            f"{qrels.source or 'qrels'}: topic {table['topic'][row].as_py()!r}, docno "
            f"{table['docno'][row].as_py()!r}: expected a grade in [{MIN_GRADE}, {MAX_GRADE}], "
            f"got {table['grade'][row].as_py()}"
        )
    docno = table["docno"] if everything else pc.filter(table["docno"], as_arrow(keep), memory_pool=arrow_pool())
    docno = one_array(docno)  # one chunk: no copy
    topic_idx = (topic_idx if everything else topic_idx[keep]).astype(np.int32, copy=False)
    if in_order and remembered is not None:  # the table's own topic starts: already in topic order
        return topic_idx, grades.astype(np.int8), docno, np.array(remembered[0], dtype=np.int64)
    if topic_idx.size and not (topic_idx[1:] >= topic_idx[:-1]).all():  # read_qrels' tables are topic-sorted
        order = np.argsort(topic_idx, kind="stable")  # stable keeps docno order
        topic_idx, grades = topic_idx[order], grades[order]
        docno = take_rows(docno, order)
    # entries of topic t: starts[t]:starts[t + 1] (topic_idx ascends: a search per topic, no count per entry)
    starts = np.searchsorted(topic_idx, np.arange(len(topics) + 1, dtype=np.int32)).astype(np.int64)
    return topic_idx, grades.astype(np.int8), docno, starts


def qrels_row_of(qrel_topic: np.ndarray, qrel_docno: pa.Array, topic: np.ndarray, docno: pa.ChunkedArray) -> np.ndarray:
    """The qrels entry of every (topic, docno), or NOT_IN_QRELS (the first entry, should the
    qrels list a docno twice for a topic; see :func:`irnb.ordering.find_keys`)."""
    if qrel_topic.size == 0 or topic.size == 0:
        return np.full(topic.size, NOT_IN_QRELS, dtype=np.int32)
    return find_keys(key_table(qrel_topic, qrel_docno), topic, docno, NOT_IN_QRELS)
