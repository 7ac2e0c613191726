"""Write runs and qrels as TREC text that :mod:`irnb.io` (and trec_eval) read back as they were
(writing, here, and reading, in :mod:`irnb.io`, both stand on :mod:`irnb.trecdata`; neither imports the other).

A run is written as ``qid Q0 docno rank score tag`` in trec_eval order (rank from 1, the
score in the shortest form that reads back as the same 64-bit float), qrels as
``qid 0 docno grade`` in topic then docno order. A path ending in ``.gz`` is
gzip-compressed (:func:`irnb.sources.open_for_writing`). The lines are built without a
Python loop over rows.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .ordering import raw_offsets, sorted_blocks, topic_blocks
from .sources import open_for_writing
from .trecdata import Qrels, Run, qrels_from_frame

__all__ = ["write_run", "write_qrels"]


def _lines_buffer(columns: list[pa.Array]) -> memoryview:
    """The bytes of ``' '.join(columns) + '\\n'`` for every row, built without a Python
    loop over rows (the joined strings lie back to back in one Arrow buffer)."""
    last = pc.binary_join_element_wise(columns[-1], "\n", "")
    joined = pc.binary_join_element_wise(*columns[:-1], last, " ")
    if isinstance(joined, pa.ChunkedArray):
        joined = joined.combine_chunks()
    offsets = raw_offsets(joined)  # only the first and the last are needed
    data = joined.buffers()[2]
    return memoryview(data)[int(offsets[0]): int(offsets[-1])] if data is not None else memoryview(b"")


def _check_token(value: str, what: str) -> None:
    if not value or re.search(r"\s", value):
        raise ValueError(f"{what} must be a non-empty token without whitespace, got {value!r}")


def write_run(run: Run, path: str | os.PathLike, *, tag: str | None = None) -> None:
    """Write a run as ``qid Q0 docno rank score tag`` in trec_eval order (rank from 1).

    Scores are written in the shortest form that reads back as the same 64-bit float, so
    ``read_run(path)`` gives back the same table. A path ending in ``.gz`` is gzip-compressed.
    """
    label = tag or run.tag or run.name
    _check_token(label, "tag")
    known = topic_blocks(run.table)
    table, starts = (run.table, known[0]) if known is not None else sorted_blocks(run.table)[:2]
    n = table.num_rows
    rank = np.arange(n) - np.repeat(starts[:-1], np.diff(starts)) + 1
    columns = [
        table["topic"].combine_chunks(),
        pa.array(np.full(n, "Q0", dtype=object), pa.string()),
        table["docno"].combine_chunks(),
        pc.cast(pa.array(rank, pa.int64()), pa.string()),
        pc.cast(table["score"].combine_chunks(), pa.string()),
        pa.array(np.full(n, label, dtype=object), pa.string()),
    ]
    with open_for_writing(path) as out:
        out.write(_lines_buffer(columns))


def write_qrels(qrels: Qrels | pd.DataFrame, path: str | os.PathLike) -> None:
    """Write qrels as ``qid 0 docno grade`` (topic then docno order). A DataFrame is read
    as :func:`irnb.io.read_qrels` reads one first (and so checked). A path ending in ``.gz``
    is gzip-compressed."""
    if isinstance(qrels, Qrels):
        table = qrels.table
    elif isinstance(qrels, pd.DataFrame):
        table = qrels_from_frame(qrels, "error").table
    else:
        raise TypeError(f"write_qrels: expected Qrels or a pandas DataFrame, got {type(qrels).__name__} "
                        "(read a qrels file with irnb.read_qrels first)")
    n = table.num_rows
    columns = [
        table["topic"].combine_chunks(),
        pa.array(np.full(n, "0", dtype=object), pa.string()),
        table["docno"].combine_chunks(),
        pc.cast(table["grade"].combine_chunks(), pa.string()),
    ]
    with open_for_writing(path) as out:
        out.write(_lines_buffer(columns))
