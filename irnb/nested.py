"""Nested dicts ``{qid: {docno: value}}`` (the pytrec_eval/ranx shape) as flat frames
``qid, docno, value``, checked value by value; :meth:`irnb.Run.from_dict`,
:meth:`irnb.Qrels.from_dict` and :mod:`irnb.adapters` read dicts through here."""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["nested_frame", "looks_nested"]


def nested_frame(mapping: Mapping, what: str, value_name: str) -> pd.DataFrame:
    """``{qid: {docno: value}}`` as a frame ``qid, docno, value`` (keys as strings)."""
    qids, docnos, values = [], [], []
    for qid, docs in mapping.items():
        if not isinstance(docs, Mapping):
            raise TypeError(f"{what}: topic {qid!r}: expected a dict {{docno: {value_name}}}, "
                            f"got {type(docs).__name__}")
        qids.extend([str(qid)] * len(docs))
        docnos.extend(str(d) for d in docs)
        values.extend(docs.values())
    frame = pd.DataFrame({"qid": qids, "docno": docnos, value_name: pd.Series(values, dtype=object)})
    numeric = pd.to_numeric(frame[value_name], errors="coerce").to_numpy(dtype=np.float64)
    if value_name == "score":
        bad = ~np.isfinite(numeric)
        expected = "a finite number"
    else:
        bad = ~np.isfinite(numeric) | (numeric != np.round(numeric))
        expected = "an integer grade"
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what}: topic {frame['qid'].iloc[row]!r}, docno {frame['docno'].iloc[row]!r}: "
                         f"expected {expected}, got {frame[value_name].iloc[row]!r}")
    frame[value_name] = numeric if value_name == "score" else numeric.astype(np.int64)
    return frame


def looks_nested(mapping: Mapping, levels: int) -> bool:
    """Whether the first value of ``mapping`` is a mapping ``levels`` levels down (nesting
    levels: not one of the glossary's three depths)."""
    value: Any = mapping
    for _ in range(levels):
        if not isinstance(value, Mapping) or not value:
            return False
        value = next(iter(value.values()))
    return isinstance(value, Mapping)
