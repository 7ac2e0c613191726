"""Run and Qrels: a run's and the judgments' rows as checked Arrow tables, and how parsed
tables become them.

:mod:`irnb.io` reads files into tables (through :mod:`irnb.sources` and
:mod:`irnb.parsing`) and hands them here; DataFrames (their columns found by their usual
names: ``qid``/``query_id``, ``doc_id``, ``relevance``...) and ``{qid: {docno: value}}``
dicts become tables here and go through the same checks. :mod:`irnb.io` (reading) and
:mod:`irnb.writing` (writing) both stand on this module; neither imports the other.

The checks are :mod:`irnb.io`'s rules: a docno repeated within a topic is an error naming
both places (``on_duplicate="keep_first"`` keeps the first occurrence in file or row order
instead), grades must be integers in [MIN_GRADE, MAX_GRADE]; a run's rows take trec_eval's
order (:mod:`irnb.ordering`), qrels are ordered by topic then docno.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._grades import MAX_GRADE, MIN_GRADE
from .arrow_pool import allocating_from, arrow_pool, return_freed_memory
from .lines import check_grades
from ._text import position, shorten, where
from .lines import empty_file_message, repeated_docno_message
from .nested import looks_nested, nested_frame
from .ordering import QRELS_ORDER, as_arrow, encode_topics, remember_blocks, repeated_in_stretches, repeated_rows
from .ordering import BLOCK_ROWS, column_numpy, sorted_blocks, sorted_parts, stretch_heads, stretches_joined, take_rows
from .ordering import topic_docno_order, topic_docno_order_and_repeats
from .params import ON_DUPLICATE

__all__ = ["Run", "Qrels", "check_duplicate_policy", "run_from_table", "runs_from_joined_table", "run_from_frame",
           "qrels_from_table", "qrels_from_frame"]


class _TopicTable:
    """What a run and qrels share: a ``table`` with a ``topic`` column, its topics and rows."""

    table: pa.Table

    @property
    def topics(self) -> list[str]:
        """The topics, in the table's order (sorted by topic)."""
        return pc.unique(self.table["topic"]).to_pylist()

    @property
    def _rows(self) -> int:
        """The table's rows: a run's lines (``num_lines``), the qrels' judgments (``num_judgments``)."""
        return self.table.num_rows


@dataclass(frozen=True)
class Run(_TopicTable):
    """One ranked run: per topic, documents in trec_eval order.

    ``table`` has the columns ``topic`` (string), ``docno`` (string), ``score`` (float64),
    sorted by topic (string order), then score descending (compared as float32, see
    :mod:`irnb.io`'s docstring), then docno descending; ``rank`` is implied by the position
    within the topic (1-based).
    """

    name: str
    table: pa.Table = field(repr=False)
    tag: str = ""
    source: str = ""
    #: the file's ``#`` comment lines (text after ``#``) and its ir_metadata block (irnb.runmeta)
    comments: tuple[str, ...] = field(default=(), repr=False)
    metadata: Mapping = field(default_factory=dict, repr=False, compare=False)

    num_lines = _TopicTable._rows

    @classmethod
    def from_dict(cls, scores: Mapping, *, name: str = "run") -> Run:
        """A run from the pytrec_eval/ranx shape ``{qid: {docno: score}}`` (see
        :mod:`irnb.adapters`, which also reads ranx and ir_datasets objects)."""
        if not isinstance(scores, Mapping) or (scores and not looks_nested(scores, 1)):
            raise TypeError(f"Run.from_dict: expected a dict {{qid: {{docno: score}}}}, got {type(scores).__name__}"
                            + (" whose values are not {docno: score} dicts" if isinstance(scores, Mapping) else ""))
        frame = nested_frame(scores, f"run {name!r}", "score")
        return run_from_frame(frame, name or "run", "error")

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, rank, score`` (rank 1-based, trec_eval order)."""
        frame = self.table.select(["topic", "docno", "score"]).to_pandas()
        frame.insert(2, "rank", frame.groupby("topic", sort=False).cumcount().to_numpy() + 1)
        return frame


@dataclass(frozen=True)
class Qrels(_TopicTable):
    """Relevance judgments: ``table`` has ``topic``, ``docno`` (strings) and ``grade`` (int64),
    sorted by topic then docno."""

    table: pa.Table = field(repr=False)
    source: str = ""

    num_judgments = _TopicTable._rows

    @classmethod
    def from_dict(cls, grades: Mapping) -> Qrels:
        """Qrels from the pytrec_eval/ranx shape ``{qid: {docno: grade}}`` (see :mod:`irnb.adapters`)."""
        if not isinstance(grades, Mapping) or (grades and not looks_nested(grades, 1)):
            raise TypeError(f"Qrels.from_dict: expected a dict {{qid: {{docno: grade}}}}, got {type(grades).__name__}"
                            + (" whose values are not {docno: grade} dicts" if isinstance(grades, Mapping) else ""))
        if not grades:
            raise ValueError("qrels dict: expected at least one judgment, got an empty dict")
        frame = nested_frame(grades, "qrels dict", "grade")
        return qrels_from_frame(frame, "error")

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, grade``."""
        return self.table.select(["topic", "docno", "grade"]).to_pandas()


# --------------------------------------------------------------------------- DataFrames


_RUN_ALIASES = {
    "topic": ("topic", "qid", "query_id", "q_id", "query"),
    "docno": ("docno", "doc_id", "docid", "doc"),
    "score": ("score", "sim"),
}
_QRELS_ALIASES = {
    "topic": ("topic", "qid", "query_id", "q_id", "query"),
    "docno": ("docno", "doc_id", "docid", "doc"),
    "grade": ("grade", "relevance", "rel", "label", "judgment"),
}


def _show_value(value) -> str:
    """repr of a DataFrame cell, numpy scalars as plain Python values (``nan``, not
    ``np.float64(nan)``), cut to a readable length."""
    return shorten(value.item() if isinstance(value, np.generic) else value)


def _column(frame: pd.DataFrame, aliases: dict, role: str, label: str) -> str:
    for candidate in aliases[role]:
        if candidate in frame.columns:
            return candidate
    raise ValueError(
        f"{label}: expected a column for {role} (one of {', '.join(aliases[role])}), "
        f"got columns {list(map(str, frame.columns))}"
    )


def _label(frame: pd.DataFrame, row: int) -> str:
    """The index label of positional row ``row`` (what ``frame.loc`` takes)."""
    return position(frame.index.to_numpy(), row, "row")


def _id_column(frame: pd.DataFrame, column: str, label: str) -> pa.Array:
    """A topic or docno column as strings; each must be non-empty text without whitespace
    (so that it can be written as a TREC line)."""
    values = frame[column]
    missing = np.flatnonzero(values.isna().to_numpy())
    if missing.size:
        row = int(missing[0])
        raise ValueError(
            f"{label}: row {_label(frame, row)}: expected a value in column {column!r}, "
            f"got {_show_value(values.iloc[row])}"
        )
    array = pa.array(values.astype(str).to_numpy(dtype=object), pa.string())
    bad = pc.or_(pc.equal(pc.utf8_length(array), 0), pc.match_substring_regex(array, r"\s"))
    bad = bad.to_numpy(zero_copy_only=False)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{label}: row {_label(frame, row)}: expected a non-empty {column!r} without whitespace, "
            f"got {shorten(array[row].as_py())}"
        )
    return array


def run_frame_table(frame: pd.DataFrame, label: str) -> pa.Table:
    """A run DataFrame's (topic, docno, score) table in row order, its columns found by
    their aliases; errors name the row by its index label."""
    if len(frame) == 0:
        raise ValueError(f"{label}: empty run: expected at least one row")
    cols = {role: _column(frame, _RUN_ALIASES, role, label) for role in _RUN_ALIASES}
    raw = frame[cols["score"]]
    scores = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64, copy=True)
    _first_bad_value(frame, label, np.flatnonzero(~np.isfinite(scores)), "a finite number", cols["score"])
    return _frame_ids_with(frame, cols, label, "score", pa.array(scores, pa.float64()))


def qrels_frame_table(frame: pd.DataFrame, label: str) -> pa.Table:
    """A qrels DataFrame's (topic, docno, grade) table in row order, its columns found by
    their aliases; errors name the row by its index label (grades are checked by the caller
    with :func:`check_grades`)."""
    if len(frame) == 0:
        raise ValueError(f"{label}: empty qrels: expected at least one row")
    cols = {role: _column(frame, _QRELS_ALIASES, role, label) for role in _QRELS_ALIASES}
    raw = frame[cols["grade"]]
    numeric = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(numeric) | (numeric != np.round(numeric)) | (np.abs(numeric) > 2**53))
    _first_bad_value(frame, label, bad, "an integer grade", cols["grade"])
    return _frame_ids_with(frame, cols, label, "grade", pa.array(numeric.astype(np.int64), pa.int64()))


def _first_bad_value(frame: pd.DataFrame, label: str, bad: np.ndarray, expected: str, column: str) -> None:
    """An error naming the first of the ``bad`` rows, if any, and the value it holds."""
    if bad.size:
        row = int(bad[0])
        raise ValueError(
            f"{label}: row {_label(frame, row)}: expected {expected} in column {column!r}, "
            f"got {_show_value(frame[column].iloc[row])}"
        )


def _frame_ids_with(frame: pd.DataFrame, cols: dict, label: str, name: str, values: pa.Array) -> pa.Table:
    """The (topic, docno, ``name``) table: the id columns checked, then ``values``."""
    return pa.table(
        {
            "topic": _id_column(frame, cols["topic"], label),
            "docno": _id_column(frame, cols["docno"], label),
            name: values,
        }
    )


# --------------------------------------------------------------------------- checks


def check_duplicate_policy(on_duplicate: str) -> None:
    ON_DUPLICATE.validate(on_duplicate, None)


def _drop_duplicates(
    table: pa.Table, topic_codes: np.ndarray, numbers: np.ndarray | None, label: str,
    on_duplicate: str, what: str, unit: str, repeats: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[pa.Table, np.ndarray]:
    """Detect a docno repeated within a topic; error, or keep the first in file order
    (``repeats``: :func:`repeated_rows`' answer, when the caller has it)."""
    rows, firsts = repeated_rows(table, topic_codes) if repeats is None else repeats
    if rows.size == 0:
        return table, topic_codes
    if on_duplicate == "error":
        row, first = int(rows.min()), int(firsts[np.argmin(rows)])
        topic = table["topic"][row].as_py()
        docno = table["docno"][row].as_py()
        first_at = f"{'row' if unit == 'row' else 'line'} {position(numbers, first, unit)}"
        raise ValueError(
            f"{repeated_docno_message(where(label, numbers, row, unit), docno, topic, first_at, what)}; "
            f"pass on_duplicate='keep_first' (irnb evaluate: --keep-first) to keep the first occurrence"
        )
    keep = np.ones(table.num_rows, dtype=bool)
    keep[rows] = False
    return pc.filter(table, as_arrow(keep), memory_pool=arrow_pool()), topic_codes[keep]


def run_from_table(
    table: pa.Table, numbers: np.ndarray | None, name: str, tag: str, label: str, on_duplicate: str,
    unit: str = "line",
) -> Run:
    """A :class:`Run` from a parsed table (``numbers``: each row's line or index label, for
    errors), repeated docnos checked, in trec_eval order."""
    codes, dictionary = encode_topics(table["topic"])
    heads = stretch_heads(codes)
    repeats = None if heads is None else repeated_in_stretches(table["docno"], heads)
    table, codes = _drop_duplicates(table, codes, numbers, label, on_duplicate, "run", unit, repeats=repeats)
    ordered, starts, topics = sorted_blocks(table, codes, dictionary)
    remember_blocks(ordered, starts, topics)
    return Run(name=name, table=ordered, tag=tag, source=label)


def runs_from_joined_table(table: pa.Table, sizes: np.ndarray, names: list[str], tags: list[str],
                           labels: list[str]) -> list[Run] | None:
    """The :class:`Run` of every file whose lines lie end to end in ``table`` (``sizes[i]``
    rows each, see :func:`irnb.parsing.parse_joined_runs`), each as :func:`run_from_table`
    gives it, checked and ordered all at once. None when a docno repeats within a topic of
    some file: each file then goes to :func:`run_from_table`, which reports it (or keeps
    the first)."""
    codes, dictionary = encode_topics(table["topic"])
    heads = stretch_heads(codes, sizes=sizes)
    if heads is not None:
        repeated = repeated_in_stretches(table["docno"], heads)[0]
    else:
        part = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        part *= len(dictionary)
        part += codes  # one code per (file, topic)
        repeated = repeated_rows(table, part)[0]
        del part
    if repeated.size:
        return None
    done = sorted_parts(table, sizes, codes, dictionary)
    if done is None:
        return None
    ordered, blocks = done
    first = np.r_[0, np.cumsum(sizes)[:-1]]
    runs = []
    for start, size, (starts, topics), name, tag, label in zip(first.tolist(), sizes.tolist(), blocks, names, tags,
                                                                labels, strict=True):
        part_table = ordered.slice(start, size)
        remember_blocks(part_table, starts, topics)
        runs.append(Run(name=name, table=part_table, tag=tag, source=label))
    return runs


def run_from_frame(frame: pd.DataFrame, name: str, on_duplicate: str) -> Run:
    """A :class:`Run` from a DataFrame (copied, never modified; errors name the row)."""
    label = f"DataFrame {name!r}"
    table = run_frame_table(frame, label)
    tag = str(frame["tag"].iloc[0]) if "tag" in frame.columns else name
    return run_from_table(table, frame.index.to_numpy(), name, tag, label, on_duplicate, unit="row")


def qrels_from_table(
    tables: list[pa.Table], numbers: np.ndarray | None, label: str, on_duplicate: str, unit: str = "line"
) -> Qrels:
    """:class:`Qrels` from a parsed table, handed over as a one-item list that this empties
    (so that each column can be freed once its reordered copy is made): not empty, grades
    checked, repeated docnos checked, ordered by topic then docno."""
    table = tables.pop()
    if table.num_rows == 0:
        raise ValueError(empty_file_message(label, "qrels"))
    if not _grades_in_range(table["grade"]):
        check_grades(column_numpy(table["grade"]), numbers, label, unit)  # raises, naming the first line
    codes, dictionary = encode_topics(table["topic"])
    table = table.select(["topic", "docno", "grade"])
    # the (topic, docno) order finds the repeated docnos too: they tie, next to each other
    order, *repeats = topic_docno_order_and_repeats(table["docno"], codes, dictionary)
    rows = table.num_rows
    table, codes = _drop_duplicates(table, codes, numbers, label, on_duplicate, "qrels", unit, repeats=repeats)
    if table.num_rows < rows:  # duplicates dropped (keep_first): the order of the rows kept
        order = topic_docno_order(table["docno"], codes, dictionary)
    tables.append(table)
    del table
    ordered, starts, topics = _in_topic_docno_order(tables, order, codes, dictionary)
    remember_blocks(ordered, starts, topics, QRELS_ORDER)
    return Qrels(table=ordered, source=label)


def _grades_in_range(grade: pa.ChunkedArray) -> bool:
    """Whether every grade lies in [MIN_GRADE, MAX_GRADE], chunk by chunk: no copy of the
    column (a deep file's grades as one array are 8 bytes a line of fresh memory).

    >>> _grades_in_range(pa.chunked_array([[0, 3], [127]])), _grades_in_range(pa.chunked_array([[1], [-127]]))
    (True, False)
    """
    for chunk in grade.chunks:
        values = column_numpy(chunk)
        if values.size and (int(values.min()) < MIN_GRADE or int(values.max()) > MAX_GRADE):
            return False
    return True


def _in_topic_docno_order(tables: list[pa.Table], order: np.ndarray | None, codes: np.ndarray,
                          dictionary: pa.Array) -> tuple[pa.Table, np.ndarray, pa.Array]:
    """The qrels table (handed over as a one-item list that this empties) with its rows in
    ``order`` (None: as they are), ``order`` being the (topic, docno) order of rows whose
    topic codes are ``codes``; and where each topic's rows start in it (``starts``, one more
    than ``topics``, the topics in string order).

    When every topic's rows lie in one stretch (as files list them), the topic column is
    not gathered row by row: a topic's rows keep their topic whatever their docno order, so
    the column is its stretches laid end to end in topic order (:func:`stretches_joined`;
    itself, when the topics already come in string order); only docno and grade are
    gathered, and not even they when every topic's docnos already come in order.

    The columns are reordered one at a time, each dropped as soon as its copy is made: the
    memory it and its copy's temporaries held is free for the next column's copy, and the
    reordering needs fresh memory for about the largest column and its temporaries, not for
    a copy of every column beside the table."""
    table = tables.pop()
    heads = np.flatnonzero(codes[1:] != codes[:-1]) + 1 if codes.size else np.zeros(0, np.int64)
    one_stretch = heads.size + 1 == len(dictionary)
    if one_stretch:  # no count per row
        heads = np.r_[0, heads]
        counts = np.zeros(len(dictionary), dtype=np.int64)
        counts[codes[heads]] = np.diff(np.r_[heads, codes.size])
    else:
        counts = np.bincount(codes, minlength=len(dictionary))
    by_name = pc.sort_indices(dictionary, memory_pool=arrow_pool()).to_numpy()
    counts = counts[by_name]
    present = counts > 0
    topics = take_rows(dictionary, by_name[present])
    starts = np.r_[0, np.cumsum(counts[present])].astype(np.int64)
    if order is None:
        return table, starts, topics
    schema, rows = table.schema, table.num_rows
    source = dict(zip(table.column_names, table.columns, strict=True))
    del table
    # A table in Arrow's pool (a large file's parse): each column is dropped as soon as its copy
    # is made, and the memory the pool keeps of it handed back to the system for the next copy.
    # One already in the C allocator's memory is kept whole until all are copied: freed early,
    # its columns leave the C allocator trimming its heap and faulting it in again during the
    # Experiment's build (benchmarks/README.md).
    handing_back = arrow_pool() is None
    columns = []
    # The copies come from the C allocator, which maps and unmaps a block this large whole:
    # Arrow's pool would give them fresh huge pages (zeroed, at times compacted first).
    with allocating_from(pa.system_memory_pool()):
        topic, whole = None, False  # the topic column laid end to end; docno and grade too
        if one_stretch:
            first_row = np.zeros(len(dictionary), dtype=np.int64)
            first_row[codes[heads]] = heads
            firsts, sizes = first_row[by_name[present]], counts[present]
            max_blocks = max(1, rows // BLOCK_ROWS)
            topic = stretches_joined(source["topic"], firsts, sizes, max_blocks=max_blocks)
            # docnos in order within each topic: no gather at all
            whole = topic is not None and _moves_stretches_whole(order, starts, firsts)
        for name in schema.names:  # topic, docno, grade
            column = source.pop(name) if handing_back else source[name]
            if name == "topic" and topic is not None:
                columns.append(topic)
            elif whole:
                columns.append(stretches_joined(column, firsts, sizes, max_blocks=max_blocks))
            else:
                columns.append(take_rows(column, order))
            del column
            if handing_back:
                return_freed_memory()
    return pa.Table.from_arrays(columns, schema=schema), starts, topics


def _moves_stretches_whole(order: np.ndarray, starts: np.ndarray, firsts: np.ndarray) -> bool:
    """Whether ``order`` puts the stretch of rows starting at ``firsts[i]`` whole at
    ``starts[i]`` for every i: a topic's first row, then the rows that follow it in the file.

    >>> _moves_stretches_whole(np.array([2, 3, 0, 1]), np.array([0, 2, 4]), np.array([2, 0]))
    True
    >>> _moves_stretches_whole(np.array([3, 2, 0, 1]), np.array([0, 2, 4]), np.array([2, 0]))
    False
    """
    if not bool((order[starts[:-1]] == firsts).all()):  # the first row of each topic, checked first: few
        return False
    step = np.diff(order)
    step[starts[1:-1] - 1] = 1  # from one topic's last row to the next one's first: any jump
    return bool((step == 1).all())


def qrels_from_frame(frame: pd.DataFrame, on_duplicate: str) -> Qrels:
    """:class:`Qrels` from a DataFrame (copied, never modified; errors name the row)."""
    label = "qrels DataFrame"
    return qrels_from_table([qrels_frame_table(frame, label)], frame.index.to_numpy(), label, on_duplicate,
                            unit="row")
