"""Write a simulated collection as TREC files, and the ``irnb simulate`` command.

Layout of ``write_collection(collection, out_dir)``::

    out_dir/
      runs/<run>         qid Q0 docno rank score tag   (scores with exactly six decimals; the file
                         name is the run name, as read_runs() names runs)
      qrels.txt          qid 0 docno grade             (official: the pooled documents)
      qrels.truth.txt    qid 0 docno grade             (every document of every topic)
      runs.tsv           run group manual contributor kind quality
      topics.tsv         topic title relevant relevant_judged judged documents
      params.json        the parameters (seed included), keys sorted

Bytes depend only on the seed and parameters: scores are printed from integers (micro-
units), rows are in trec_eval order, line ends are ``\\n``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ..writing import write_qrels
from .collection import Collection, simulate
from .params import SIMULATION_PARAMS, configure_simulate_parser
from ..params import OVERWRITE

__all__ = ["write_collection", "main_simulate", "configure_simulate_parser", "run_simulate", "format_micro"]

_LINES = pacsv.WriteOptions(include_header=False, quoting_style="none")


def format_micro(micro: np.ndarray) -> pa.Array:
    """Integers in micro-units as decimal strings with six decimals, no float formatting.

    >>> format_micro(np.array([1_500_000, -250, 0])).to_pylist()
    ['1.500000', '-0.000250', '0.000000']
    """
    micro = np.asarray(micro, dtype=np.int64)
    magnitude = np.abs(micro)
    whole = pc.cast(pa.array(magnitude // 1_000_000), pa.string())
    frac = pc.utf8_lpad(pc.cast(pa.array(magnitude % 1_000_000), pa.string()), 6, "0")
    sign = pa.array(np.where(micro < 0, "-", ""))
    return pc.binary_join_element_wise(sign, whole, ".", frac, "")


def _write_lines(lines: pa.Array, path: Path) -> None:
    pacsv.write_csv(pa.table({"line": lines}), path, _LINES)


def write_collection(collection: Collection, out_dir, *, overwrite: bool = False) -> Path:
    """Write ``collection`` as TREC files under ``out_dir`` (created if needed); return it.

    Existing files are an error unless ``overwrite=True``.
    """
    overwrite = OVERWRITE.validate(overwrite, "write_collection")
    if not isinstance(collection, Collection):
        raise TypeError(f"write_collection: expected a Collection from irnb.datasets.simulate(), "
                        f"got {type(collection).__name__}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"write_collection: {out} exists and is not a directory")
    runs_dir = out / "runs"
    targets = [out / name for name in ("qrels.txt", "qrels.truth.txt", "runs.tsv", "topics.tsv", "params.json")]
    targets += [runs_dir / name for name in collection.runs]
    existing = [p for p in targets if p.exists()]
    if existing and not overwrite:
        raise ValueError(f"write_collection: {existing[0]} exists ({len(existing)} of the files to write do); "
                         "pass overwrite=True (irnb simulate --force) to replace them")
    runs_dir.mkdir(parents=True, exist_ok=True)

    S, T, D = collection.ranking.shape
    rank = pc.cast(pa.array(np.tile(np.arange(1, D + 1), T)), pa.string())
    for s, (name, run) in enumerate(collection.runs.items()):
        table = run.table
        lines = pc.binary_join_element_wise(
            table["topic"], "Q0", table["docno"], rank, format_micro(collection.scores[s].ravel()), run.tag, " ")
        _write_lines(lines, runs_dir / name)
    write_qrels(collection.qrels, out / "qrels.txt")
    write_qrels(collection.truth, out / "qrels.truth.txt")

    info = collection.run_info
    with open(out / "runs.tsv", "w", encoding="utf-8", newline="\n") as handle:
        handle.write("run\tgroup\tmanual\tcontributor\tkind\tquality\n")
        for row in info.itertuples(index=False):
            handle.write(f"{row.run}\t{row.group}\t{int(row.manual)}\t{int(row.contributor)}\t{row.kind}\t"
                         f"{row.quality:.6f}\n")
    with open(out / "topics.tsv", "w", encoding="utf-8", newline="\n") as handle:
        handle.write("topic\ttitle\trelevant\trelevant_judged\tjudged\tdocuments\n")
        for row in collection.topics.itertuples(index=False):
            handle.write(f"{row.topic}\t{row.title}\t{row.relevant}\t{row.relevant_judged}\t{row.judged}\t"
                         f"{row.documents}\n")
    with open(out / "params.json", "w", encoding="utf-8", newline="\n") as handle:
        json.dump(dict(collection.params), handle, indent=1, sort_keys=True)
        handle.write("\n")
    return out


# --------------------------------------------------------------------------- command line
def run_simulate(args: argparse.Namespace) -> int:
    """Simulate and write; print a one-line summary. Raises ValueError on bad parameters."""
    collection = simulate(args.seed, **{name: getattr(args, name) for name in SIMULATION_PARAMS})
    out = write_collection(collection, args.out, overwrite=args.force)
    print(f"wrote {out}: {len(collection.runs)} runs, {collection.qrels.num_judgments} official judgments "
          f"(qrels.txt), {collection.truth.num_judgments} true judgments (qrels.truth.txt)")
    return 0


def main_simulate(argv: Sequence[str] | None = None) -> int:
    """``irnb simulate --seed 0 --out DIR [--num-topics 50 …]``; returns the exit status
    (0, or 2 with a one-line error on stderr)."""
    parser = configure_simulate_parser(argparse.ArgumentParser(
        prog="irnb simulate", description="Write a simulated TREC-like test collection with complete truth."))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse already printed its message
        return int(stop.code or 0)
    try:
        return run_simulate(args)
    except (ValueError, TypeError, OSError) as err:
        print(f"irnb simulate: error: {err}", file=sys.stderr)
        return 2
