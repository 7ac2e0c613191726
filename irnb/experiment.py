"""The Experiment: runs + qrels turned, once, into dense arrays.

Every later computation (measures at any depth, pools, intervals, tests) is numpy over
these arrays; nothing is re-parsed.

Arrays (S runs, T topics, D = the deepest ranking on a qrels topic, or ``max_depth``):

* ``judgments.doc[s, t, r]`` (int32): index into the qrels of the document that run ``s``
  ranks at position ``r`` (0-based) for topic ``t``; ``NOT_IN_QRELS`` (-1) when the qrels
  do not list it, ``NO_DOCUMENT`` (-2) when the run is shorter than ``r + 1``.
* ``judgments.grade`` (int8, ``grade_array()``): the document's grade, ``UNJUDGED``
  (-128) or ``NO_DOC`` (-127) for the two cases above.
* ``length[s, t]``: documents the run retrieved for the topic (after ``max_depth``); 0 for
  a qrels topic the run did not answer.
* ``judgments.qrel_topic[q]``, ``qrel_grade[q]``, ``qrel_docno[q]``: the qrels, sorted by
  topic then docno, including judged documents no run retrieved; ``topic_start[t]`` is the
  first entry of topic t (``topic_start[T]`` = Q).
* ``judgments.retrieved_rank[s, q]``: the 1-based rank at which run s retrieved entry q.

Every array is read-only.

Rules:

* Topics are the official qrels' topics in string order (trec_eval's). A run topic absent
  from the qrels is not evaluated (trec_eval); it is listed in ``ignored_topics[run]``. A
  qrels topic that a run did not answer has ``length`` 0 and is listed in
  ``missing_topics[run]`` (in topic order: the first is the one trec_eval 10.0 names when
  it refuses such a run, "result qid '…' not found in qrels", exit status 4); measures skip
  it unless asked for ``complete=True`` (trec_eval ``-c``), and
  :func:`irnb.metrics.evaluate` says so with a :class:`MissingTopicsWarning`. A run that
  answers none of the qrels topics is an error (usually a sign of the wrong qrels file).
* Runs may have different lengths; the depth D is the longest ranking (on qrels topics),
  cut at ``max_depth`` (trec_eval ``-M``) when given; shorter rankings are padded with
  ``NO_DOCUMENT``.
* Rankings are in trec_eval order (see :mod:`irnb.io`); a :class:`~irnb.Run` built by
  hand is put in that order first.
* Grades are integers in [-126, 127] (stored as int8); negative grades are kept as they are
  ("pooled but not judged": non-relevant for most measures, unjudged for bpref and the like).
* ``truth``, optional complete qrels (e.g. the simulator's ground truth), is laid over the
  same rankings and the same topics: its topics outside the official qrels are dropped, and
  an official topic missing from it has no truth judgments.
* ``groups`` maps every run name to a group (default: each run its own group); ``contributors``
  names the runs that contributed to the pool (default: all). Unknown run names in either
  are errors with a did-you-mean.
"""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._grades import MAX_GRADE, MIN_GRADE, NO_DOC, UNJUDGED
from .adapters import as_qrels, as_runs
from .params import COMPLETE, RUN_DEPTH
from .params import ON_DUPLICATE, RELEVANCE_LEVEL, TREC_VERSION
from .trecdata import Qrels, Run, check_duplicate_policy
from .ordering import (KeyTable, check_compat, encode_topics, find_keys, key_table, remember_blocks, sorted_blocks,
                       topic_blocks)

__all__ = ["Experiment", "Judgments", "PoolMask", "UNJUDGED", "NO_DOC", "POOLED_UNJUDGED", "NOT_IN_QRELS",
           "NO_DOCUMENT", "MissingTopicsWarning", "missing_topics_note", "PoolMaskError"]

POOLED_UNJUDGED = -1  # the grade trec_eval reads as "in the pool, not judged" (infAP's sampled pools)
NOT_IN_QRELS = -1  # doc-index sentinel
NO_DOCUMENT = -2  # doc-index sentinel


class MissingTopicsWarning(UserWarning):
    """Some qrels topics have no ranking in a run: they are left out of its mean (trec_eval
    9.x; trec_eval 10.0 refuses the run), or scored 0 with ``complete=True`` (``-c``)."""


def missing_topics_note(run: str, missing: Sequence[str], num_topics: int, *, complete: bool, shown: int = 5,
                        consequence: str | None = None) -> str:
    """One sentence saying which qrels topics ``run`` does not answer and what the mean
    does with them (the words of :class:`MissingTopicsWarning` and of ``irnb evaluate``);
    ``consequence`` replaces what the mean does (e.g. for paired tests).

    >>> missing_topics_note("bm25", ["3", "4"], 3, complete=False)  # doctest: +NORMALIZE_WHITESPACE
    "run 'bm25' answers 1 of the 3 qrels topics; the 2 others ('3', '4') are left out of its mean
    (trec_eval 9.x; trec_eval 10.0 refuses such a run); use complete=True (trec_eval -c) to score them 0"
    """
    complete = COMPLETE.validate(complete, "missing_topics_note")
    names = ", ".join(repr(t if len(t) <= 40 else t[:40] + "…") for t in missing[:shown])
    more = f", … {len(missing) - shown} more" if len(missing) > shown else ""
    head = (f"run {run!r} answers {num_topics - len(missing)} of the {num_topics} qrels topics; "
            f"the {len(missing)} other{'s' if len(missing) > 1 else ''} ({names}{more})")
    verb, them = ("are", "them") if len(missing) > 1 else ("is", "it")
    if consequence is not None:
        return f"{head} {verb} {consequence}"
    if complete:
        return f"{head} {verb} scored 0 (complete=True, trec_eval -c)"
    return (f"{head} {verb} left out of its mean (trec_eval 9.x; trec_eval 10.0 refuses such a run); "
            f"use complete=True (trec_eval -c) to score {them} 0")


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def few_names(names: Sequence[str], n: int = 5) -> str:
    """The first ``n`` names, each cut to 40 characters."""
    shown = [name if len(name) <= 40 else name[:40] + "…" for name in names[:n]]
    return f"{shown}{'…' if len(names) > n else ''}"


def _did_you_mean(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(str(name), list(choices), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(map(repr, close))}?" if close else ""


class PoolMaskError(ValueError, TypeError):
    """A pool or judged mask that is not a 1-d boolean mask over the Experiment's qrels
    entries (a wrong type and a wrong length alike: both a ValueError and a TypeError)."""


class PoolMask(np.ndarray):
    """A judged mask over qrels entries (a read-only boolean array) that also says which of
    the entries it leaves out stay in the pool unjudged.

    A plain boolean mask means: an entry outside it is not in the pool (it reads as a
    document the qrels do not list). A ``PoolMask`` keeps that meaning for most entries,
    but the entries in ``pooled_unjudged`` read as "pooled but not judged" — trec_eval's
    negative grade (:data:`POOLED_UNJUDGED`, -1), which infAP uses and every other measure
    treats as a negative grade (non-relevant for P@k or AP, unjudged for bpref or Judged@k).
    :func:`irnb.pooling.random_subsample` returns one: removing judgments at random leaves
    the documents in the pool.

    Anything derived from it (a slice, ``~mask``, ``mask & other``, ``np.asarray(mask)``)
    is a plain mask again.

    >>> m = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    >>> m.tolist(), m.pooled_unjudged.tolist(), type(m[:2]).__name__, m[:2].pooled_unjudged is None
    ([True, False, False], [False, True, False], 'PoolMask', True)
    """

    pooled_unjudged: np.ndarray | None

    def __new__(cls, judged, *, pooled_unjudged):
        judged = np.array(judged, dtype=bool, copy=True)
        unjudged = np.array(pooled_unjudged, dtype=bool, copy=True)
        if judged.ndim != 1 or unjudged.shape != judged.shape:
            raise ValueError(f"PoolMask: judged and pooled_unjudged must be 1-d boolean masks of the same length, "
                             f"got shapes {judged.shape} and {unjudged.shape}")
        if (judged & unjudged).any():
            raise ValueError(f"PoolMask: an entry cannot be both judged and pooled_unjudged; "
                             f"{int((judged & unjudged).sum())} are")
        obj = judged.view(cls)
        unjudged.flags.writeable = False
        obj.pooled_unjudged = unjudged
        obj.flags.writeable = False
        return obj

    def __array_finalize__(self, obj) -> None:
        self.pooled_unjudged = None  # derived arrays are plain masks

    def __reduce__(self):
        return (_pool_mask, (np.asarray(self), self.pooled_unjudged))


def _pool_mask(judged, pooled_unjudged):
    """Rebuild a PoolMask (pickling)."""
    if pooled_unjudged is None:
        return np.asarray(judged)
    return PoolMask(judged, pooled_unjudged=pooled_unjudged)


def pooled_unjudged_of(judged) -> np.ndarray | None:
    """The entries a judged mask keeps in the pool unjudged (a :class:`PoolMask`'s), or None
    for a plain mask."""
    return getattr(judged, "pooled_unjudged", None)


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
        :class:`PoolMask` keeps it in the pool unjudged. The one rule the grade views of a
        pool go through (measures, bias experiments, completed qrels, written qrels files);
        the interval bounds need only judged / not judged, which both readings agree on.

        >>> j = Judgments(doc=np.zeros((1, 1, 1), np.int32), qrel_topic=np.zeros(3, np.int32),
        ...               qrel_grade=np.array([1, 0, 2], np.int8), qrel_docno=pa.array(["a", "b", "c"]),
        ...               topic_start=np.array([0, 3]))
        >>> j.entry_grades(np.array([True, False, False])).tolist()
        [1, -128, -128]
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
        return _read_only(self.grades_at_ranks(self.qrel_grade))

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
        return _read_only(out)

    def frame(self, topics: Sequence[str], judged: np.ndarray | None = None) -> pd.DataFrame:
        """The qrels as ``topic, docno, grade`` (qrels order): every entry, or the entries a
        pool mask ``judged`` keeps in the pool, with the grade they read as under it
        (:meth:`entry_grades`: a :class:`PoolMask`'s pooled-unjudged entries get -1)."""
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
    ``codes`` is ``encode_topics(qrels.table["topic"])`` when the caller has it."""
    table = qrels.table
    codes, dictionary = encode_topics(table["topic"]) if codes is None else codes
    position = pc.index_in(dictionary, value_set=topics).fill_null(-1).to_numpy(zero_copy_only=False)
    topic_idx = position.astype(np.int32)[codes]  # hashes the distinct topics only, not every row
    keep = topic_idx >= 0
    everything = bool(keep.all())
    grades = table["grade"].to_numpy() if everything else table["grade"].to_numpy()[keep]
    if grades.size and (grades.min() < MIN_GRADE or grades.max() > MAX_GRADE):
        row = int(np.flatnonzero(keep)[np.flatnonzero((grades < MIN_GRADE) | (grades > MAX_GRADE))[0]])
        raise ValueError(
            f"{qrels.source or 'qrels'}: topic {table['topic'][row].as_py()!r}, docno "
            f"{table['docno'][row].as_py()!r}: expected a grade in [{MIN_GRADE}, {MAX_GRADE}], "
            f"got {table['grade'][row].as_py()}"
        )
    docno = (table["docno"] if everything else table["docno"].filter(pa.array(keep))).combine_chunks()
    topic_idx = (topic_idx if everything else topic_idx[keep]).astype(np.int32, copy=False)
    if topic_idx.size and not (topic_idx[1:] >= topic_idx[:-1]).all():  # read_qrels' tables are topic-sorted
        order = np.argsort(topic_idx, kind="stable")  # stable keeps docno order
        topic_idx, grades = topic_idx[order], grades[order]
        docno = docno.take(pa.array(order))
    starts = np.zeros(len(topics) + 1, dtype=np.int64)  # entries of topic t: starts[t]:starts[t + 1]
    np.cumsum(np.bincount(topic_idx, minlength=len(topics)), out=starts[1:])
    return topic_idx, grades.astype(np.int8), docno, starts


def qrels_row_of(qrel_topic: np.ndarray, qrel_docno: pa.Array, topic: np.ndarray, docno: pa.ChunkedArray) -> np.ndarray:
    """The qrels entry of every (topic, docno), or NOT_IN_QRELS (the first entry, should the
    qrels list a docno twice for a topic; see :func:`irnb.ordering.find_keys`)."""
    if qrel_topic.size == 0 or topic.size == 0:
        return np.full(topic.size, NOT_IN_QRELS, dtype=np.int32)
    return find_keys(key_table(qrel_topic, qrel_docno), topic, docno, NOT_IN_QRELS)



class _Blocks(NamedTuple):
    """Where the evaluated lines of every run go: one block per (run, qrels topic) the run
    answers, ``first`` row in the run's table and ``count`` lines (after ``max_depth``)."""

    run: np.ndarray  # (B,) run index
    topic: np.ndarray  # (B,) Experiment topic index
    first: np.ndarray  # (B,) first row in the run's table
    count: np.ndarray  # (B,) lines laid out


# Lines looked up at a time (a large run's lines in several batches): few calls, bounded
# temporary arrays.
_BATCH_LINES = 1 << 20


def check_max_depth(value, name: str = "max_depth") -> int | None:
    """The run cutoff (trec_eval ``-M``) as an int, or None; the one rule for
    :class:`Experiment` and :func:`irnb.metrics.evaluate`: an integer ≥ 1 (numpy integers
    count; booleans, floats and strings do not)."""
    if value is None:
        return None
    return RUN_DEPTH.validate(value, None, label=f"{name} (run cutoff, trec_eval -M)")


def _in_trec_order(name: str, run: Run, compat: str = TREC_VERSION.default) -> Run:
    """The run with its table in trec_eval order, scores compared as trec_eval ``compat``
    does (the same object when it already is)."""
    table = run.table
    if topic_blocks(table, compat) is not None:  # read by irnb.io (or seen here before): in order
        return run
    missing = [c for c in ("topic", "docno", "score") if c not in table.column_names]
    if missing:
        raise ValueError(f"run {name!r}: expected table columns topic, docno, score; missing {missing}")
    for column in ("topic", "docno"):
        if not pa.types.is_string(table.schema.field(column).type):
            table = table.set_column(table.schema.get_field_index(column), column, pc.cast(table[column], pa.string()))
    if not pa.types.is_float64(table.schema.field("score").type):
        table = table.set_column(table.schema.get_field_index("score"), "score", pc.cast(table["score"], pa.float64()))
    ordered, starts, topics = sorted_blocks(table, compat=compat)
    remember_blocks(ordered, starts, topics, compat)
    return run if ordered is run.table else dataclasses.replace(run, table=ordered)


class Experiment:
    """Runs and qrels as dense arrays (see the module docstring for the rules).

    Parameters
    ----------
    runs : mapping name → Run, a Run, a list of Runs, anything ``read_runs`` accepts
        (paths, directories, archives, DataFrames), pytrec_eval/ranx dicts, ranx Runs or an
        ir_datasets scoreddocs source (every shape: :mod:`irnb.adapters`).
    qrels : Qrels, anything ``read_qrels`` accepts, a ``{qid: {docno: grade}}`` dict, ranx
        Qrels or an ir_datasets qrels source: the official judgments.
    groups : optional mapping run name → group (default: each run its own group); every
        run needs a group and every name must be a run.
    contributors : optional run names that contributed to the pool (default: every run),
        or a boolean mask over the runs.
    truth : optional deeper/complete qrels (e.g. the simulator's ground truth).
    max_depth : optional run cutoff (trec_eval ``-M``): only the first ``max_depth``
        documents of each ranking are kept.
    on_duplicate : ``"error"`` or ``"keep_first"``, for files read here (see :mod:`irnb.io`).
    compat : ``"9"`` (default) or ``"10"``: the trec_eval version whose ranking rule is
        followed. trec_eval 9.x (and pytrec_eval, ir_measures, the TREC-COVID leaderboard)
        compares scores as 32-bit floats, so scores equal in float32 tie and are ordered by
        docno; trec_eval 10.0 compares doubles. 9 is the default so that values match
        published leaderboards and the Python peers; ``irnb trec_eval`` follows 10.0.
        Evaluation follows the same version (interpolated precision's rank rule too).

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "c"], "grade": [1, 0]})
    >>> run = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> exp = Experiment(run, qrels)
    >>> exp.grade.tolist()     # a relevant, b not in qrels (UNJUDGED), c judged 0
    [[[1, -128, 0]]]

    Scores that differ only beyond float32's precision tie in trec_eval 9.x (docno
    descending: c before a) but not in 10.0:

    >>> close = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "c"], "score": [1.00000001, 1.0]})
    >>> Experiment(close, qrels).grade.tolist(), Experiment(close, qrels, compat="10").grade.tolist()
    ([[[0, 1]]], [[[1, 0]]])
    """

    def __init__(
        self,
        runs,
        qrels,
        *,
        groups: Mapping[str, str] | None = None,
        contributors: Iterable[str] | np.ndarray | None = None,
        truth=None,
        max_depth: int | None = None,
        on_duplicate: str = ON_DUPLICATE.default,
        compat: str = TREC_VERSION.default,
    ):
        check_duplicate_policy(on_duplicate)
        max_depth = check_max_depth(max_depth)
        self.compat: str = check_compat(compat)
        run_map = as_runs(runs, on_duplicate=on_duplicate)  # every accepted shape: irnb.adapters
        if not run_map:
            raise ValueError("expected at least one run, got none")
        run_map = {name: _in_trec_order(name, run, self.compat) for name, run in run_map.items()}
        if not isinstance(qrels, Qrels):
            qrels = as_qrels(qrels, on_duplicate=on_duplicate)

        self.runs: dict[str, Run] = run_map
        self.run_names: tuple[str, ...] = tuple(run_map)
        self.groups: tuple[str, ...] = self._groups(groups)  # validated before the arrays are built
        self.contributors = _read_only(self._contributors(contributors))
        self.qrels = qrels
        qrels_codes = encode_topics(qrels.table["topic"])
        topics_pa = qrels_codes[1].take(pc.sort_indices(qrels_codes[1])).cast(pa.string())
        self.topics: tuple[str, ...] = tuple(topics_pa.to_pylist())  # string order, as sorted() gives
        self.max_depth = None if max_depth is None else int(max_depth)

        blocks, self.ignored_topics = self._blocks(self.max_depth, topics_pa)
        S, T = len(run_map), len(self.topics)
        self.depth = int(blocks.count.max())
        length = np.zeros((S, T), dtype=np.int32)
        length[blocks.run, blocks.topic] = blocks.count
        self.length = _read_only(length)
        self.missing_topics: dict[str, list[str]] = {
            self.run_names[s]: [self.topics[t] for t in np.flatnonzero(length[s] == 0)]
            for s in np.flatnonzero((length == 0).any(axis=1))}
        self.judgments = self._lay_out(qrels, topics_pa, blocks, self.length, self.depth, qrels_codes)
        self.truth: Judgments | None = None
        if truth is not None:
            truth_qrels = as_qrels(truth, on_duplicate=on_duplicate)
            self.truth = self._lay_out(truth_qrels, topics_pa, blocks, self.length, self.depth)

    # ------------------------------------------------------------------ construction
    def _blocks(self, max_depth: int | None, topics: pa.Array) -> tuple[_Blocks, dict[str, list[str]]]:
        """The (run, topic) blocks of evaluated lines (a loop over runs, numpy within each;
        each run's topic stretches are known from its trec_eval ordering)."""
        parts: list[tuple[np.ndarray, ...]] = []
        ignored: dict[str, list[str]] = {}
        for s, (name, run) in enumerate(self.runs.items()):
            starts, run_topics = topic_blocks(run.table, self.compat)  # in string order
            mapped = pc.index_in(run_topics, value_set=topics).fill_null(-1).to_numpy(zero_copy_only=False)
            mapped = mapped.astype(np.int64)
            keep = mapped >= 0
            if not keep.any():
                names = run_topics.to_pylist()
                raise ValueError(
                    f"{run.source or name}: run {name!r} shares no topic with the qrels "
                    f"({self.qrels.source or 'qrels'}): run topics {few_names(names)}, "
                    f"qrels topics {few_names(self.topics)}"
                )
            if not keep.all():
                ignored[name] = run_topics.filter(pa.array(~keep)).to_pylist()
            count = np.diff(starts)[keep]
            if max_depth is not None:
                count = np.minimum(count, max_depth)
            parts.append((np.full(count.size, s, dtype=np.int64), mapped[keep], starts[:-1][keep], count))
        run, topic, first, count = (np.concatenate(column) for column in zip(*parts, strict=True))
        return _Blocks(run, topic, first, count), ignored

    def _lay_out(self, qrels: Qrels, topics_pa: pa.Array, blocks: _Blocks, length: np.ndarray,
                 depth: int, codes: tuple[np.ndarray, pa.Array] | None = None) -> Judgments:
        """``doc[s, t, r]``: NO_DOCUMENT beyond ``length[s, t]``, NOT_IN_QRELS before it,
        then the qrels entry of every line whose docno the qrels list for its topic — looked
        up a batch of lines at a time (a large run in several), each line's place in ``doc`` found from its
        block."""
        qrel_topic, qrel_grade, qrel_docno, starts = encode_qrels(qrels, topics_pa, codes)
        S, T = length.shape
        doc = np.full((S, T, depth), NO_DOCUMENT, dtype=np.int32)
        ranks = np.arange(depth, dtype=np.int32)
        for s in range(S):  # run by run: no (S, T, D) mask beside the array
            np.copyto(doc[s], NOT_IN_QRELS, where=ranks < length[s, :, None])
        if qrel_topic.size:
            tables = [self.runs[name].table for name in self.run_names]
            index = key_table(qrel_topic, qrel_docno)  # only the judged documents: an unjudged one needs no id
            run_blocks = np.searchsorted(blocks.run, np.arange(S + 1))  # run s: blocks run_blocks[s]:[s + 1]
            laid = np.cumsum(blocks.count)  # lines laid out up to and with each block
            lo = 0
            while lo < laid.size:  # blocks lo:hi, at most _BATCH_LINES lines (at least one block)
                before = int(laid[lo - 1]) if lo else 0
                hi = max(lo + 1, int(np.searchsorted(laid, before + _BATCH_LINES, side="right")))
                docno = []
                for s in range(int(blocks.run[lo]), int(blocks.run[hi - 1]) + 1):  # the runs of these blocks
                    part = slice(max(lo, int(run_blocks[s])), min(hi, int(run_blocks[s + 1])))
                    docno.append(self._laid_out_docnos(tables[s], blocks.first[part], blocks.count[part]))
                self._scatter(doc, index, pa.chunked_array(
                    [chunk for column in docno for chunk in column.chunks], type=pa.string()),
                    blocks.run[lo:hi], blocks.topic[lo:hi], blocks.count[lo:hi])
                lo = hi
        return Judgments(doc=doc, qrel_topic=qrel_topic, qrel_grade=qrel_grade, qrel_docno=qrel_docno,
                         topic_start=starts)

    @staticmethod
    def _laid_out_docnos(table: pa.Table, first: np.ndarray, count: np.ndarray) -> pa.ChunkedArray:
        """The docnos of some of a run's blocks (rows ``first[i]:first[i] + count[i]``, in
        increasing order), in order."""
        column = table["docno"]
        n = int(count.sum())
        if n == 0 or int(first[-1]) + int(count[-1]) - int(first[0]) == n:  # no gap between them: no copy
            return column.slice(int(first[0]) if n else 0, n)
        before = np.r_[0, np.cumsum(count)[:-1]]
        return column.take(pa.array(np.repeat(first - before, count) + np.arange(n)))

    @staticmethod
    def _scatter(doc: np.ndarray, index: KeyTable, docno: pa.ChunkedArray, run: np.ndarray,
                 topic: np.ndarray, count: np.ndarray) -> None:
        """Write into ``doc`` the qrels entry of every line whose docno the qrels list for its
        topic; the lines are the blocks (run, topic, count) laid end to end, ranks from 0."""
        _, T, depth = doc.shape
        block = np.repeat(np.arange(count.size, dtype=np.int32), count)  # the block of each line
        entry = find_keys(index, topic[block], docno, NOT_IN_QRELS)
        hit = np.flatnonzero(entry >= 0)
        block = block[hit]
        line_start = np.r_[0, np.cumsum(count)[:-1]]
        cell = (run[block] * T + topic[block]) * depth + (hit - line_start[block])
        doc.reshape(-1)[cell] = entry[hit]

    def _groups(self, groups) -> tuple[str, ...]:
        if groups is None:
            return self.run_names
        if not isinstance(groups, Mapping):
            raise TypeError(f"groups must be a mapping run name → group, got {type(groups).__name__}")
        for name in groups:
            if name not in self.runs:
                raise ValueError(
                    f"groups: unknown run {name!r}{_did_you_mean(name, self.run_names)} "
                    f"(expected names of the {len(self.run_names)} runs)"
                )
        missing = [n for n in self.run_names if n not in groups]
        if missing:
            raise ValueError(
                f"groups: expected a group for every run, missing {missing[:5]}{'…' if len(missing) > 5 else ''}"
            )
        return tuple(str(groups[n]) for n in self.run_names)

    def _contributors(self, contributors) -> np.ndarray:
        S = len(self.run_names)
        if contributors is None:
            return np.ones(S, dtype=bool)
        if isinstance(contributors, str):
            contributors = [contributors]
        contributors = list(contributors)
        if contributors and all(isinstance(c, (bool, np.bool_)) for c in contributors):
            if len(contributors) != S:
                raise ValueError(f"contributors: a boolean mask needs one value per run ({S}), got {len(contributors)}")
            return np.asarray(contributors, dtype=bool)
        for name in contributors:
            if name not in self.runs:
                raise ValueError(
                    f"contributors: unknown run {name!r}{_did_you_mean(name, self.run_names)} "
                    f"(expected names of the {S} runs)"
                )
        return np.isin(np.array(self.run_names, dtype=object), np.array(contributors, dtype=object))

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
        described = [(name, self._metadata_text(name)) for name in self.run_names]
        described = [(name, text) for name, text in described if text]
        meta = "".join(f"\n  {name}: {text}" for name, text in described[:10])
        if len(described) > 10:
            meta += f"\n  … and {len(described) - 10} more runs with metadata (see .summary())"
        return (f"Experiment({S} runs × {T} topics × depth {D}, "
                f"{self.judgments.num_judgments} judgments{truth})"
                + (f"\nrun metadata:{meta}" if meta else ""))

    def _metadata_text(self, name: str) -> str:
        from .runmeta import describe_metadata

        run = self.runs[name]
        return describe_metadata(run.comments, run.metadata)

    def summary(self) -> pd.DataFrame:
        """One row per run: ``group``, ``contributor``, ``topics`` (qrels topics answered),
        ``documents`` (lines laid out), ``tag``, ``source`` and ``metadata`` (the run file's
        ir_metadata entries or first ``#`` comment, see :mod:`irnb.runmeta`; ``""`` when none).

        >>> import pandas as pd
        >>> qrels = pd.DataFrame({"qid": ["1"], "docno": ["a"], "grade": [1]})
        >>> run = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "b"], "score": [2.0, 1.0]})
        >>> Experiment(run, qrels).summary()[["topics", "documents"]].values.tolist()
        [[1, 2]]
        """
        return pd.DataFrame({
            "group": list(self.groups),
            "contributor": self.contributors.tolist(),
            "topics": self.answered.sum(axis=1).tolist(),
            "documents": self.length.sum(axis=1).tolist(),
            "tag": [self.runs[n].tag for n in self.run_names],
            "source": [self.runs[n].source for n in self.run_names],
            "metadata": [self._metadata_text(n) for n in self.run_names],
        }, index=pd.Index(self.run_names, name="run"))

    def run_index(self, names: str | Iterable[str]) -> np.ndarray:
        """Positions of the named runs; unknown names raise with a did-you-mean."""
        names = [names] if isinstance(names, str) else list(names)
        lookup = {n: i for i, n in enumerate(self.run_names)}
        out = []
        for n in names:
            if n not in lookup:
                raise ValueError(f"unknown run {n!r}{_did_you_mean(n, self.run_names)}")
            out.append(lookup[n])
        return np.asarray(out, dtype=np.int64)
