"""Runs and qrels from the Python IR ecosystem: the one place where other tools' shapes
become irnb :class:`~irnb.Run` and :class:`~irnb.Qrels` objects.

Runs (:func:`as_runs`, what :class:`~irnb.experiment.Experiment` accepts):

* what :func:`irnb.io.read_runs` reads: paths (files, directories, tar archives), a
  DataFrame (PyTerrier's ``qid, docno, score``; ir_measures' ``query_id, doc_id, score``;
  a ``run`` column splits it into runs), ``{name: path or DataFrame}``;
* irnb Runs: one, a list, or ``{name: Run}``;
* the pytrec_eval / ranx dict shape: one run ``{qid: {docno: score}}`` (named ``"run"``)
  or several ``{name: {qid: {docno: score}}}``;
* ranx ``Run`` objects: one, a list, or ``{name: ranx.Run}`` (recognised by duck typing:
  irnb never imports ranx);
* anything with ir_datasets' ``scoreddocs_iter()`` (items with ``query_id``, ``doc_id``,
  ``score``), such as an ``ir_datasets.load(...)`` dataset that has scoreddocs; named by its ``dataset_id()``
  when it has one, else ``"scoreddocs"``.

Qrels (:func:`as_qrels`): what :func:`irnb.io.read_qrels` reads (a path, a DataFrame with
``qid/query_id``, ``docno/doc_id`` and ``label/relevance/grade``), a :class:`Qrels`, the
dict shape ``{qid: {docno: grade}}``, a ranx ``Qrels``, or anything with ir_datasets'
``qrels_iter()`` (items with ``query_id``, ``doc_id``, ``relevance``).

Every shape becomes the same table a TREC file with the same lines gives, so it gives the
same values (tests check it on the CLEF eHealth 2018 runs). Topic ids and docnos are
turned into strings (``str(key)``); scores must be finite numbers and grades integers.
Anything else is a ``TypeError`` listing the shapes accepted.

>>> run = as_run({"q1": {"d1": 2.0, "d2": 1.0}}, name="bm25")
>>> run.name, run.to_frame()["docno"].tolist()
('bm25', ['d1', 'd2'])
>>> as_qrels({"q1": {"d1": 1, "d2": 0}}).to_frame().values.tolist()
[['q1', 'd1', 1], ['q1', 'd2', 0]]
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any
from collections.abc import Mapping

import pandas as pd

from .io import read_qrels, read_run, read_runs
from .nested import looks_nested, nested_frame
from .trecdata import Qrels, Run
from .params import ON_DUPLICATE

__all__ = ["as_run", "as_runs", "as_qrels", "RUN_SHAPES", "QRELS_SHAPES"]

RUN_SHAPES = (
    "a path (run file, directory of runs, .tar archive) or a list of paths",
    "a DataFrame with qid/query_id, docno/doc_id and score columns (PyTerrier, ir_measures; "
    "a 'run' column splits it), or {name: DataFrame or path}",
    "an irnb Run, a list of Runs or {name: Run}",
    "a pytrec_eval/ranx dict {qid: {docno: score}} or {name: {qid: {docno: score}}}",
    "a ranx Run, a list of them or {name: ranx Run}",
    "an object with ir_datasets' scoreddocs_iter()",
)
QRELS_SHAPES = (
    "a path to a qrels file (qid iteration docno grade)",
    "a DataFrame with qid/query_id, docno/doc_id and label/relevance/grade columns",
    "an irnb Qrels",
    "a pytrec_eval/ranx dict {qid: {docno: grade}}",
    "a ranx Qrels",
    "an object with ir_datasets' qrels_iter()",
)


def _shape_error(what: str, shapes: tuple[str, ...], value: Any, detail: str = "") -> TypeError:
    listed = "".join(f"\n  - {s}" for s in shapes)
    return TypeError(f"{what}: expected one of:{listed}\ngot {type(value).__name__}{detail}")


def _is_ranx(value: Any, kind: str) -> bool:
    """A ranx ``Run``/``Qrels`` (by type name and module: ranx is never imported here)."""
    cls = type(value)
    return cls.__name__ == kind and cls.__module__.split(".")[0] == "ranx"


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def _scoreddocs_frame(source: Any) -> pd.DataFrame:
    qids, docnos, scores = [], [], []
    for item in source.scoreddocs_iter():
        qids.append(str(item.query_id))
        docnos.append(str(item.doc_id))
        scores.append(item.score)
    return pd.DataFrame({"qid": qids, "docno": docnos, "score": pd.to_numeric(pd.Series(scores, dtype=object),
                                                                                errors="coerce")})


def _dataset_name(source: Any, default: str) -> str:
    name = getattr(source, "dataset_id", None)
    if callable(name):
        try:
            name = name()
        except Exception:  # noqa: BLE001 - a name is a nicety, never a failure
            name = None
    return str(name) if name else default


def as_run(source: Any, *, name: str | None = None, on_duplicate: str = ON_DUPLICATE.default) -> Run:
    """One run from any single-run shape of :func:`as_runs` (a Run, a path, a DataFrame, a
    dict ``{qid: {docno: score}}``, a ranx Run, an ir_datasets scoreddocs source).

    >>> as_run({1: {"a": 1.0, "b": 1.0}}).to_frame()["docno"].tolist()   # a tie: docno descending
    ['b', 'a']
    """
    if isinstance(source, Run):
        return source if name is None or name == source.name else dataclasses.replace(source, name=name)
    if _is_ranx(source, "Run"):
        label = name or getattr(source, "name", None) or "run"
        return read_run(nested_frame(source.to_dict(), f"ranx Run {label!r}", "score"), name=label,
                        on_duplicate=on_duplicate)
    if hasattr(source, "scoreddocs_iter"):
        label = name or _dataset_name(source, "scoreddocs")
        return read_run(_scoreddocs_frame(source), name=label, on_duplicate=on_duplicate)
    if isinstance(source, Mapping):
        if source and not looks_nested(source, 1):
            raise _shape_error("run", RUN_SHAPES, source, ": a dict whose values are not {docno: score} dicts")
        label = name or "run"
        return read_run(nested_frame(source, f"run {label!r}", "score"), name=label, on_duplicate=on_duplicate)
    if isinstance(source, pd.DataFrame) or _is_path(source):
        return read_run(source, name=name, on_duplicate=on_duplicate)
    raise _shape_error("run", RUN_SHAPES, source)


def as_runs(source: Any, *, on_duplicate: str = ON_DUPLICATE.default) -> dict[str, Run]:
    """``{name: Run}`` from any shape in the module docstring; names must be unique.

    >>> sorted(as_runs({"a": {"q1": {"d1": 1.0}}, "b": {"q1": {"d2": 1.0}}}))
    ['a', 'b']
    >>> as_runs(3.5)
    Traceback (most recent call last):
    ...
    TypeError: runs: expected one of:
      - a path (run file, directory of runs, .tar archive) or a list of paths
    ...
    got float
    """
    if isinstance(source, Run) or _is_ranx(source, "Run") or hasattr(source, "scoreddocs_iter"):
        run = as_run(source, on_duplicate=on_duplicate)
        return {run.name: run}
    if isinstance(source, Mapping):
        if not source:
            raise ValueError("runs: expected at least one run, got none (an empty dict)")
        first = next(iter(source.values()))
        if looks_nested(source, 2) or isinstance(first, Run) or _is_ranx(first, "Run") or hasattr(
                first, "scoreddocs_iter"):  # {name: run in any shape}
            return {str(key): as_run(value, name=str(key), on_duplicate=on_duplicate)
                    for key, value in source.items()}
        if looks_nested(source, 1):  # one run {qid: {docno: score}}
            run = as_run(source, on_duplicate=on_duplicate)
            return {run.name: run}
        if all(isinstance(v, pd.DataFrame) or _is_path(v) for v in source.values()):
            return read_runs(source, on_duplicate=on_duplicate)
        raise _shape_error("runs", RUN_SHAPES, source, f" with values of type {type(first).__name__}")
    if isinstance(source, pd.DataFrame) or _is_path(source):
        return read_runs(source, on_duplicate=on_duplicate)
    if isinstance(source, (list, tuple)) and not source:
        raise ValueError("runs: expected at least one run, got none (an empty list)")
    if isinstance(source, (list, tuple)):
        if all(isinstance(r, pd.DataFrame) or _is_path(r) for r in source):
            return read_runs(source, on_duplicate=on_duplicate)
        runs: dict[str, Run] = {}
        for item in source:
            if not (isinstance(item, Run) or _is_ranx(item, "Run") or hasattr(item, "scoreddocs_iter")):
                raise _shape_error("runs", RUN_SHAPES, source, f" holding a {type(item).__name__}")
            run = as_run(item, on_duplicate=on_duplicate)
            if run.name in runs:
                raise ValueError(f"runs: two runs are named {run.name!r}; expected unique run names: "
                                 "pass a dict {name: run}")
            runs[run.name] = run
        return runs
    raise _shape_error("runs", RUN_SHAPES, source)


def as_qrels(source: Any, *, on_duplicate: str = ON_DUPLICATE.default) -> Qrels:
    """Qrels from any shape in the module docstring.

    >>> as_qrels({"q1": {"d1": 2.5}})
    Traceback (most recent call last):
    ...
    ValueError: qrels dict: topic 'q1', docno 'd1': expected an integer grade, got 2.5
    """
    if isinstance(source, Qrels):
        return source
    if isinstance(source, pd.DataFrame) or _is_path(source):
        return read_qrels(source, on_duplicate=on_duplicate)
    if _is_ranx(source, "Qrels"):
        return read_qrels(nested_frame(source.to_dict(), "ranx Qrels", "grade"), on_duplicate=on_duplicate)
    if hasattr(source, "qrels_iter"):
        qids, docnos, grades = [], [], []
        for item in source.qrels_iter():
            qids.append(str(item.query_id))
            docnos.append(str(item.doc_id))
            grades.append(item.relevance)
        return read_qrels(pd.DataFrame({"qid": qids, "docno": docnos, "grade": pd.Series(grades, dtype=object)}),
                          on_duplicate=on_duplicate)
    if isinstance(source, Mapping) and (not source or looks_nested(source, 1)):
        if not source:
            raise ValueError("qrels dict: expected at least one judgment, got an empty dict")
        return read_qrels(nested_frame(source, "qrels dict", "grade"), on_duplicate=on_duplicate)
    raise _shape_error("qrels", QRELS_SHAPES, source)
