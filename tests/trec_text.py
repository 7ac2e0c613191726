"""TREC text for the reading and writing tests: a small run file, a file written from text or
bytes, and a run's ranking as (topic, docno, score) triples."""

from __future__ import annotations

from pathlib import Path

from irnb import Run

#: two topics; d2 and d3 tie on 5.0 in topic 1, and the rank column says the opposite of trec_eval's order
RUN = """\
1 Q0 d1 1 3.0 tagA
1 Q0 d2 2 5.0 tagA
1 Q0 d3 3 5.0 tagA
2 Q0 d1 1 1.5 tagA
"""


def write_file(path: Path, text: str | bytes) -> Path:
    """``text`` (UTF-8 when a str) written to ``path``, which is returned."""
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def ranking_of(run: Run) -> list[tuple[str, str, float]]:
    """The run's lines in its table's order, as (topic, docno, score)."""
    return list(zip(run.table["topic"].to_pylist(), run.table["docno"].to_pylist(),
                    run.table["score"].to_pylist(), strict=True))
