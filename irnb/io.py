"""Read and write TREC runs and qrels.

Sources: a path to a plain or gzip-compressed file, a directory of run files, a
``.tar``/``.tar.gz``/``.tar.xz`` archive (every regular member is a run), or a pandas
DataFrame. Inputs are never modified.

Rules (trec_eval's, unless stated):

* A run line is ``qid Q0 docno rank score tag``. Column 2 may be any token (``Q0``,
  ``0``); the rank column is ignored; ranking is by score descending, ties broken by docno
  descending (byte order), exactly as trec_eval sorts. Text after the sixth column is
  ignored, as trec_eval ignores it (``results.trunc`` in its test suite relies on it).
* A qrels line is ``qid iteration docno grade``; the iteration column is ignored; the grade
  must be an integer (negative grades mean "pooled but not judged").
* Blank lines and lines whose first character is ``#`` are skipped (trec_eval ≥ 10).
* Errors name ``file:line`` and what was expected: fewer than the required columns, a
  score that is not a finite number, a grade that is not an integer, a docno repeated
  within a topic (an error by default; ``on_duplicate="keep_first"`` keeps the first
  occurrence in file order), an empty file.
"""

from __future__ import annotations

import gzip
import io as _io
import lzma
import math
import os
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Union

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

__all__ = [
    "Run",
    "Qrels",
    "read_run",
    "read_runs",
    "read_qrels",
    "write_run",
    "write_qrels",
    "DUPLICATE_POLICIES",
]

DUPLICATE_POLICIES = ("error", "keep_first")
RUN_COLUMNS = "qid Q0 docno rank score tag"
QRELS_COLUMNS = "qid iteration docno grade"

Source = Union[str, os.PathLike, pd.DataFrame]

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


@dataclass(frozen=True)
class Run:
    """One ranked run: per topic, documents in trec_eval order.

    ``table`` has the columns ``topic`` (string), ``docno`` (string), ``score`` (float64),
    sorted by topic, then score descending, then docno descending; ``rank`` is implied by
    the position within the topic (1-based).
    """

    name: str
    table: pa.Table = field(repr=False)
    tag: str = ""
    source: str = ""

    @property
    def num_lines(self) -> int:
        return self.table.num_rows

    @property
    def topics(self) -> list[str]:
        return pc.unique(self.table["topic"]).to_pylist()

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, rank, score`` (rank 1-based, trec_eval order)."""
        frame = self.table.to_pandas()
        frame.insert(2, "rank", frame.groupby("topic", sort=False).cumcount().to_numpy() + 1)
        return frame


@dataclass(frozen=True)
class Qrels:
    """Relevance judgments: ``table`` has ``topic``, ``docno`` (strings) and ``grade`` (int64),
    sorted by topic then docno."""

    table: pa.Table = field(repr=False)
    source: str = ""

    @property
    def num_judgments(self) -> int:
        return self.table.num_rows

    @property
    def topics(self) -> list[str]:
        return pc.unique(self.table["topic"]).to_pylist()

    def to_frame(self) -> pd.DataFrame:
        """A new DataFrame ``topic, docno, grade``."""
        return self.table.to_pandas()


# --------------------------------------------------------------------------- reading bytes


def _read_bytes(path: Path) -> bytes:
    with open(path, "rb") as handle:
        head = handle.read(6)
        handle.seek(0)
        if head[:2] == b"\x1f\x8b":
            return gzip.decompress(handle.read())
        if head == b"\xfd7zXZ\x00":
            return lzma.decompress(handle.read())
        return handle.read()


def _is_archive(path: Path) -> bool:
    name = path.name.lower()
    return path.is_file() and name.endswith((".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2"))


def _hidden(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    return base.startswith(".") or base.startswith("._")


def _iter_sources(path: Path) -> Iterable[tuple[str, str, bytes]]:
    """Yield (name, label-for-errors, bytes) for every run file under ``path``."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and not _hidden(p.name))
        if not files:
            raise ValueError(f"{path}: directory holds no run files")
        for file in files:
            yield file.relative_to(path).as_posix(), str(file), _read_bytes(file)
    elif _is_archive(path):
        with tarfile.open(path) as archive:
            members = [m for m in archive.getmembers() if m.isfile() and not _hidden(m.name)]
            if not members:
                raise ValueError(f"{path}: archive holds no run files")
            for member in sorted(members, key=lambda m: m.name):
                handle = archive.extractfile(member)
                data = handle.read() if handle is not None else b""
                if data[:2] == b"\x1f\x8b":
                    data = gzip.decompress(data)
                name = member.name[2:] if member.name.startswith("./") else member.name
                yield name, f"{path}::{name}", data
    elif path.is_file():
        yield path.name, str(path), _read_bytes(path)
    else:
        raise ValueError(f"{path}: no such file or directory")


# --------------------------------------------------------------------------- parsing


def _needs_slow_path(data: bytes) -> bool:
    return (
        data.startswith((b"#", b"\n", b"\r"))
        or b"\n#" in data
        or b"\n\n" in data
        or b"\r" in data
        or b"\n\r" in data
    )


def _fast_columns(data: bytes, names: list[str], types: dict) -> pa.Table | None:
    """Arrow's multi-threaded CSV reader, for the common well-formed file; None if the file
    needs the exact line-by-line parser (mixed whitespace, comments, errors)."""
    if _needs_slow_path(data):
        return None
    first = data[: data.find(b"\n")] if b"\n" in data else data
    delimiter = "\t" if b"\t" in first else " "
    if delimiter == " " and (b"\t" in data or b"  " in data or data.startswith(b" ") or b"\n " in data):
        return None
    if delimiter == "\t" and (b" " in data):
        return None
    try:
        table = pacsv.read_csv(
            _io.BytesIO(data),
            read_options=pacsv.ReadOptions(column_names=names),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False, double_quote=False),
            convert_options=pacsv.ConvertOptions(
                column_types=types, strings_can_be_null=False, quoted_strings_can_be_null=False
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    for name, typ in types.items():
        if table[name].null_count:
            return None
        if pa.types.is_string(typ) and pc.any(pc.equal(pc.utf8_length(table[name]), 0)).as_py():
            return None
    return table


def _lines(data: bytes, label: str) -> Iterable[tuple[int, list[str]]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ValueError(f"{label}:{line}: expected UTF-8 text, got byte {data[err.start]:#04x}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        yield number, stripped.split()


def _parse_run_slow(data: bytes, label: str) -> tuple[pa.Table, np.ndarray]:
    topics: list[str] = []
    docnos: list[str] = []
    scores: list[float] = []
    tags: list[str] = []
    numbers: list[int] = []
    for number, parts in _lines(data, label):
        if len(parts) < 6:
            raise ValueError(
                f"{label}:{number}: expected 6 columns ({RUN_COLUMNS}), got {len(parts)}: {' '.join(parts)!r}"
            )
        try:
            score = float(parts[4])
        except ValueError:
            raise ValueError(f"{label}:{number}: expected a number in column 5 (score), got {parts[4]!r}") from None
        if not math.isfinite(score):
            raise ValueError(f"{label}:{number}: expected a finite score in column 5, got {parts[4]!r}")
        topics.append(parts[0])
        docnos.append(parts[2])
        scores.append(score)
        tags.append(parts[5])
        numbers.append(number)
    table = pa.table(
        {
            "topic": pa.array(topics, pa.string()),
            "docno": pa.array(docnos, pa.string()),
            "score": pa.array(scores, pa.float64()),
            "tag": pa.array(tags, pa.string()),
        }
    )
    return table, np.asarray(numbers, dtype=np.int64)


def _parse_run_bytes(data: bytes, label: str) -> tuple[pa.Table, np.ndarray | None]:
    table = _fast_columns(
        data,
        ["topic", "q0", "docno", "rank", "score", "tag"],
        {"topic": pa.string(), "q0": pa.string(), "docno": pa.string(), "rank": pa.string(),
         "score": pa.float64(), "tag": pa.string()},
    )
    if table is not None and pc.all(pc.is_finite(table["score"])).as_py() is not False:
        return table.select(["topic", "docno", "score", "tag"]), None
    return _parse_run_slow(data, label)


def _line_of(numbers: np.ndarray | None, row: int) -> int:
    return int(numbers[row]) if numbers is not None else row + 1


def _where(label: str, numbers: np.ndarray | None, row: int, unit: str) -> str:
    """``file:line`` for files, ``DataFrame 'x': row N`` (0-based, as pandas) for frames."""
    if unit == "row":
        return f"{label}: row {row}"
    return f"{label}:{_line_of(numbers, row)}"


def _drop_duplicates(
    table: pa.Table,
    numbers: np.ndarray | None,
    label: str,
    on_duplicate: str,
    what: str,
    unit: str = "line",
) -> tuple[pa.Table, np.ndarray | None]:
    """Detect a docno repeated within a topic; error or keep the first in file order."""
    topic_codes = pc.dictionary_encode(table["topic"]).combine_chunks().indices.to_numpy()
    doc_codes = pc.dictionary_encode(table["docno"]).combine_chunks().indices.to_numpy()
    key = topic_codes.astype(np.int64) * (int(doc_codes.max(initial=0)) + 1) + doc_codes
    order = np.argsort(key, kind="stable")
    repeated = np.flatnonzero(key[order][1:] == key[order][:-1]) + 1
    if repeated.size == 0:
        return table, numbers
    if on_duplicate == "error":
        row, first = int(order[repeated[0]]), int(order[repeated[0] - 1])
        topic = table["topic"][row].as_py()
        docno = table["docno"][row].as_py()
        first_at = f"row {first}" if unit == "row" else f"line {_line_of(numbers, first)}"
        raise ValueError(
            f"{_where(label, numbers, row, unit)}: docno {docno!r} repeated for topic {topic!r} "
            f"(first at {first_at}); expected each docno once per topic "
            f"({what}); pass on_duplicate='keep_first' to keep the first occurrence"
        )
    keep = np.ones(table.num_rows, dtype=bool)
    keep[order[repeated]] = False
    table = table.filter(pa.array(keep))
    return table, (numbers[keep] if numbers is not None else None)


def _check_policy(on_duplicate: str) -> None:
    if on_duplicate not in DUPLICATE_POLICIES:
        raise ValueError(f"on_duplicate must be one of {DUPLICATE_POLICIES}, got {on_duplicate!r}")


def _sorted_run(table: pa.Table) -> pa.Table:
    order = pc.sort_indices(
        table, sort_keys=[("topic", "ascending"), ("score", "descending"), ("docno", "descending")]
    )
    return table.select(["topic", "docno", "score"]).take(order)


def _run_from_bytes(data: bytes, name: str, label: str, on_duplicate: str) -> Run:
    table, numbers = _parse_run_bytes(data, label)
    if table.num_rows == 0:
        raise ValueError(f"{label}: empty run: expected lines of '{RUN_COLUMNS}', found none")
    table, numbers = _drop_duplicates(table, numbers, label, on_duplicate, "run")
    tag = table["tag"][0].as_py()
    return Run(name=name, table=_sorted_run(table), tag=tag, source=label)


def _column(frame: pd.DataFrame, aliases: dict, role: str, label: str) -> str:
    for candidate in aliases[role]:
        if candidate in frame.columns:
            return candidate
    raise ValueError(
        f"{label}: expected a column for {role} (one of {', '.join(aliases[role])}), "
        f"got columns {list(map(str, frame.columns))}"
    )


def _run_from_frame(frame: pd.DataFrame, name: str, on_duplicate: str) -> Run:
    label = f"DataFrame {name!r}"
    if len(frame) == 0:
        raise ValueError(f"{label}: empty run: expected at least one row")
    cols = {role: _column(frame, _RUN_ALIASES, role, label) for role in _RUN_ALIASES}
    scores = pd.to_numeric(frame[cols["score"]], errors="coerce").to_numpy(dtype=np.float64, copy=True)
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        row = int(bad[0])
        raise ValueError(
            f"{label}: row {row}: expected a finite number in column {cols['score']!r}, "
            f"got {frame[cols['score']].iloc[row]!r}"
        )
    table = pa.table(
        {
            "topic": pa.array(frame[cols["topic"]].astype(str).to_numpy(), pa.string()),
            "docno": pa.array(frame[cols["docno"]].astype(str).to_numpy(), pa.string()),
            "score": pa.array(scores, pa.float64()),
        }
    )
    table, _ = _drop_duplicates(table, None, label, on_duplicate, "run", unit="row")
    tag = str(frame["tag"].iloc[0]) if "tag" in frame.columns else name
    return Run(name=name, table=_sorted_run(table), tag=tag, source=label)


# --------------------------------------------------------------------------- public readers


def read_run(source: Source, *, name: str | None = None, on_duplicate: str = "error") -> Run:
    """Read one run from a file (plain or gzip) or a DataFrame.

    A DataFrame needs columns for topic (``topic``/``qid``/``query_id``), docno
    (``docno``/``doc_id``) and ``score``; it is copied, never modified. The run's name is
    ``name``, else the file's name.

    >>> import pandas as pd
    >>> run = read_run(pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, 1.0]}), name="r")
    >>> run.to_frame()["docno"].tolist()   # tie on score: docno descending, as trec_eval
    ['b', 'a']
    """
    _check_policy(on_duplicate)
    if isinstance(source, pd.DataFrame):
        return _run_from_frame(source, name or "run", on_duplicate)
    path = Path(source)
    if path.is_dir() or _is_archive(path):
        raise ValueError(f"{path}: holds several runs; use read_runs() for directories and archives")
    ((file_name, label, data),) = list(_iter_sources(path))
    return _run_from_bytes(data, name or file_name, label, on_duplicate)


def read_runs(
    sources: Source | Iterable[Source] | Mapping[str, Source], *, on_duplicate: str = "error"
) -> dict[str, Run]:
    """Read runs from files, directories, tar archives or DataFrames; return ``{name: Run}``.

    Names are file names (paths inside a directory or archive when two files share a
    name). A DataFrame with a ``run`` column yields one run per distinct value; a mapping
    ``{name: source}`` names its runs explicitly. Two runs with the same name are an error.
    """
    _check_policy(on_duplicate)
    if isinstance(sources, Mapping):
        items = [(str(k), v) for k, v in sources.items()]
    elif isinstance(sources, (str, os.PathLike, pd.DataFrame)):
        items = [(None, sources)]
    else:
        items = [(None, s) for s in sources]
    found: list[Run] = []
    for given, source in items:
        if isinstance(source, pd.DataFrame):
            if given is None and "run" in source.columns:
                for run_name, part in source.groupby("run", sort=True):
                    found.append(_run_from_frame(part, str(run_name), on_duplicate))
            else:
                found.append(_run_from_frame(source, given or "run", on_duplicate))
            continue
        entries = list(_iter_sources(Path(source)))
        base_names = [e[0].rsplit("/", 1)[-1] for e in entries]
        for (rel, label, data), base in zip(entries, base_names, strict=True):
            run_name = given if (given and len(entries) == 1) else (base if base_names.count(base) == 1 else rel)
            found.append(_run_from_bytes(data, run_name, label, on_duplicate))
    runs: dict[str, Run] = {}
    for run in found:
        if run.name in runs:
            raise ValueError(
                f"two runs are named {run.name!r} ({runs[run.name].source} and {run.source}); "
                "expected unique run names: pass a mapping {name: source}"
            )
        runs[run.name] = run
    return runs


def _parse_qrels_slow(data: bytes, label: str) -> tuple[pa.Table, np.ndarray]:
    topics: list[str] = []
    docnos: list[str] = []
    grades: list[int] = []
    numbers: list[int] = []
    for number, parts in _lines(data, label):
        if len(parts) != 4:
            raise ValueError(
                f"{label}:{number}: expected 4 columns ({QRELS_COLUMNS}), got {len(parts)}: {' '.join(parts)!r}"
            )
        try:
            grade = int(parts[3])
        except ValueError:
            raise ValueError(
                f"{label}:{number}: expected an integer grade in column 4, got {parts[3]!r}"
            ) from None
        topics.append(parts[0])
        docnos.append(parts[2])
        grades.append(grade)
        numbers.append(number)
    table = pa.table(
        {
            "topic": pa.array(topics, pa.string()),
            "docno": pa.array(docnos, pa.string()),
            "grade": pa.array(grades, pa.int64()),
        }
    )
    return table, np.asarray(numbers, dtype=np.int64)


def _qrels_from_table(table: pa.Table, numbers, label: str, on_duplicate: str, unit: str = "line") -> Qrels:
    if table.num_rows == 0:
        raise ValueError(f"{label}: empty qrels: expected lines of '{QRELS_COLUMNS}', found none")
    table, _ = _drop_duplicates(table, numbers, label, on_duplicate, "qrels", unit)
    order = pc.sort_indices(table, sort_keys=[("topic", "ascending"), ("docno", "ascending")])
    return Qrels(table=table.select(["topic", "docno", "grade"]).take(order), source=label)


def read_qrels(source: Source, *, on_duplicate: str = "error") -> Qrels:
    """Read qrels (``qid iteration docno grade``) from a file (plain or gzip) or a DataFrame.

    >>> import pandas as pd
    >>> q = read_qrels(pd.DataFrame({"query_id": [1, 1], "doc_id": ["a", "b"], "relevance": [2, 0]}))
    >>> q.to_frame().values.tolist()
    [['1', 'a', 2], ['1', 'b', 0]]
    """
    _check_policy(on_duplicate)
    if isinstance(source, pd.DataFrame):
        label = "qrels DataFrame"
        if len(source) == 0:
            raise ValueError(f"{label}: empty qrels: expected at least one row")
        cols = {role: _column(source, _QRELS_ALIASES, role, label) for role in _QRELS_ALIASES}
        raw = source[cols["grade"]]
        numeric = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(numeric) | (numeric != np.round(numeric)))
        if bad.size:
            row = int(bad[0])
            raise ValueError(f"{label}: row {row}: expected an integer grade, got {raw.iloc[row]!r}")
        table = pa.table(
            {
                "topic": pa.array(source[cols["topic"]].astype(str).to_numpy(), pa.string()),
                "docno": pa.array(source[cols["docno"]].astype(str).to_numpy(), pa.string()),
                "grade": pa.array(numeric.astype(np.int64), pa.int64()),
            }
        )
        return _qrels_from_table(table, None, label, on_duplicate, unit="row")
    path = Path(source)
    if not path.is_file():
        raise ValueError(f"{path}: no such qrels file")
    data = _read_bytes(path)
    table = _fast_columns(
        data,
        ["topic", "iteration", "docno", "grade"],
        {"topic": pa.string(), "iteration": pa.string(), "docno": pa.string(), "grade": pa.int64()},
    )
    numbers = None
    if table is None:
        table, numbers = _parse_qrels_slow(data, str(path))
    return _qrels_from_table(table, numbers, str(path), on_duplicate)


# --------------------------------------------------------------------------- writing


def _format_score(value: float) -> str:
    return repr(float(value))


def write_run(run: Run, path: str | os.PathLike, *, tag: str | None = None) -> None:
    """Write a run as ``qid Q0 docno rank score tag`` in trec_eval order (rank from 1)."""
    frame = run.to_frame()
    label = tag or run.tag or run.name
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for topic, docno, rank, score in zip(
            frame["topic"], frame["docno"], frame["rank"], frame["score"], strict=True
        ):
            out.write(f"{topic} Q0 {docno} {rank} {_format_score(score)} {label}\n")


def write_qrels(qrels: Qrels | pd.DataFrame, path: str | os.PathLike) -> None:
    """Write qrels as ``qid 0 docno grade``."""
    frame = qrels.to_frame() if isinstance(qrels, Qrels) else read_qrels(qrels).to_frame()
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for topic, docno, grade in zip(frame["topic"], frame["docno"], frame["grade"], strict=True):
            out.write(f"{topic} 0 {docno} {int(grade)}\n")
