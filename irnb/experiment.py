"""The Experiment: runs + qrels turned, once, into dense arrays.

Every later computation (measures at any depth, pools, intervals, tests) is numpy over
these arrays; nothing is re-parsed.

Arrays (S runs, T topics, D = the deepest ranking on a qrels topic, or ``max_depth``):

* ``judgments``: the official qrels laid over the rankings, a
  :class:`~irnb.judgments.Judgments` (its ``doc[s, t, r]`` codes, the qrels entries, and
  the grade of every retrieved document under a judged mask); ``truth`` the same for the
  complete qrels, when given.
* ``length[s, t]``: documents the run retrieved for the topic (after ``max_depth``); 0 for
  a qrels topic the run did not answer.
* ``contributors[s]``: the run contributed to the pool.

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
from typing import NamedTuple
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .adapters import as_qrels, as_runs
from .arrow_pool import allocating_from, arrow_pool
from .judgments import NO_DOCUMENT, NOT_IN_QRELS, Judgments, encode_qrels, read_only
from .params import COMPLETE, RUN_DEPTH
from .params import ON_DUPLICATE, TREC_VERSION
from .trecdata import Qrels, Run, check_duplicate_policy
from .ordering import (QRELS_ORDER, KeyTable, check_compat, encode_topics, find_keys, key_table, positions_in,
                       remember_blocks, sorted_blocks, take_rows, topic_blocks)

__all__ = ["Experiment", "MissingTopicsWarning", "check_max_depth", "few_names", "missing_topics_note"]


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


def few_names(names: Sequence[str], n: int = 5) -> str:
    """The first ``n`` names, each cut to 40 characters."""
    shown = [name if len(name) <= 40 else name[:40] + "…" for name in names[:n]]
    return f"{shown}{'…' if len(names) > n else ''}"


def _did_you_mean(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(str(name), list(choices), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(map(repr, close))}?" if close else ""


class _Blocks(NamedTuple):
    """Where the evaluated lines of every run go: one block per (run, qrels topic) the run
    answers, ``first`` row in the run's table and ``count`` lines (after ``max_depth``)."""

    run: np.ndarray  # (B,) run index
    topic: np.ndarray  # (B,) Experiment topic index
    first: np.ndarray  # (B,) first row in the run's table
    count: np.ndarray  # (B,) lines laid out


# Lines looked up at a time (the runs' lines in several batches): each batch's temporary arrays
# are small enough that the allocator hands the next batch the same memory again, where larger
# ones come as fresh pages from the kernel, whose faulting and zeroing costs more than the
# lookups themselves; a batch still holds enough lines that the per-call overhead stays small.
_BATCH_LINES = 1 << 16


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
        # the build's own Arrow arrays (topic lists, judged docnos) are few: they come from the C
        # allocator, which spares a fresh process Arrow's arena (irnb.arrow_pool); the readers
        # called from here choose for themselves
        with allocating_from(pa.system_memory_pool()):
            run_map = as_runs(runs, on_duplicate=on_duplicate)  # every accepted shape: irnb.adapters
            if not run_map:
                raise ValueError("expected at least one run, got none")
            run_map = {name: _in_trec_order(name, run, self.compat) for name, run in run_map.items()}
            if not isinstance(qrels, Qrels):
                qrels = as_qrels(qrels, on_duplicate=on_duplicate)

            self.runs: dict[str, Run] = run_map
            self.run_names: tuple[str, ...] = tuple(run_map)
            self.groups: tuple[str, ...] = self._groups(groups)  # validated before the arrays are built
            self.contributors = read_only(self._contributors(contributors))
            self.qrels = qrels
            known = topic_blocks(qrels.table, QRELS_ORDER)  # qrels that irnb ordered: their topics known
            qrels_codes = None if known is not None else encode_topics(qrels.table["topic"])
            if known is not None:
                topics_pa = known[1]
            else:
                by_name = pc.sort_indices(qrels_codes[1], memory_pool=arrow_pool()).to_numpy()
                topics_pa = take_rows(qrels_codes[1], by_name)
            topics_pa = topics_pa.cast(pa.string(), memory_pool=arrow_pool())
            self.topics: tuple[str, ...] = tuple(topics_pa.to_pylist())  # string order, as sorted() gives
            self.max_depth = None if max_depth is None else int(max_depth)

            blocks, self.ignored_topics = self._blocks(self.max_depth, topics_pa)
            S, T = len(run_map), len(self.topics)
            self.depth = int(blocks.count.max())
            length = np.zeros((S, T), dtype=np.int32)
            length[blocks.run, blocks.topic] = blocks.count
            self.length = read_only(length)
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
        seen: tuple[pa.Array, np.ndarray] | None = None  # the last run's topics and their positions
        for s, (name, run) in enumerate(self.runs.items()):
            starts, run_topics = topic_blocks(run.table, self.compat)  # in string order
            if seen is not None and run_topics.equals(seen[0]):  # runs mostly answer the same topics
                mapped = seen[1]
            else:
                mapped = positions_in(run_topics, topics)
                seen = (run_topics, mapped)
            keep = mapped >= 0
            if not keep.any():
                names = run_topics.to_pylist()
                raise ValueError(
                    f"{run.source or name}: run {name!r} shares no topic with the qrels "
                    f"({self.qrels.source or 'qrels'}): run topics {few_names(names)}, "
                    f"qrels topics {few_names(self.topics)}"
                )
            if not keep.all():
                ignored[name] = pc.filter(run_topics, pa.array(~keep), memory_pool=arrow_pool()).to_pylist()
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
        doc = np.empty((S, T, depth), dtype=np.int32)
        ranks = np.arange(depth, dtype=np.int32)
        for s in range(S):  # run by run: no (S, T, D) mask beside the array; one write of each cell
            # within the ranking NO_DOCUMENT + 1 (NOT_IN_QRELS, the next sentinel), beyond it NO_DOCUMENT
            np.add(ranks < length[s, :, None], NO_DOCUMENT, out=doc[s], dtype=np.int32)
        if qrel_topic.size:
            tables = [self.runs[name].table for name in self.run_names]
            # only the judged documents: an unjudged one needs no id
            index = key_table(qrel_topic, qrel_docno, code_start=starts)
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
        return take_rows(column, np.repeat(first - before, count) + np.arange(n))

    @staticmethod
    def _scatter(doc: np.ndarray, index: KeyTable, docno: pa.ChunkedArray, run: np.ndarray,
                 topic: np.ndarray, count: np.ndarray) -> None:
        """Write into ``doc`` the qrels entry of every line whose docno the qrels list for its
        topic; the lines are the blocks (run, topic, count) laid end to end, ranks from 0."""
        _, T, depth = doc.shape
        entry = find_keys(index, np.repeat(topic, count), docno, NOT_IN_QRELS)  # each line's topic
        hit = np.flatnonzero(entry >= 0)
        line_start = np.r_[0, np.cumsum(count)[:-1]]
        block_cell = (run * T + topic) * depth - line_start  # line i of a block: its cell is block_cell + i
        cell = np.repeat(block_cell, count)[hit]
        cell += hit
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
