"""trec_eval's output: one line per measure and topic (``%-22s\\t%s\\t%6.4f``, counts as
integers, text quoted), the per-topic lines (``-q``) before the ``all`` lines, and the
help text (``-h``) listing the measures.

>>> from .table import BY_NAME
>>> from .compute import Row
>>> line(Row("P_5", BY_NAME["P"], None), "301", 0.4), line(Row("num_ret", BY_NAME["num_ret"], None), "all", 1000.0)
('P_5                   \\t301\\t0.4000\\n', 'num_ret               \\tall\\t1000\\n')
"""

from __future__ import annotations

from ..measures import FAMILIES
from .compute import Row, Scores
from .options import USAGE, Options
from .table import NICKNAMES, TREC_MEASURES

__all__ = ["line", "write", "help_text"]


def line(row: Row, topic: str, value) -> str:
    """One output line, as trec_eval prints it."""
    if row.measure.fmt == "string":
        return f"{row.name:<22}\t{topic}\t'{value}'\n"
    if row.measure.fmt == "long":
        return f"{row.name:<22}\t{topic}\t{int(value)}\n"
    if value != value:  # NaN: C's printf of 0.0/0.0 on x86 (sign bit set)
        return f"{row.name:<22}\t{topic}\t  -nan\n"
    return f"{row.name:<22}\t{topic}\t{value:6.4f}\n"


def write(scores: Scores, runid: bytes, options: Options, out) -> None:
    """Write the per-topic lines (``-q``) and then, unless ``-n`` or trec_eval 10.0 stopped
    at an unanswered topic, the ``all`` lines to ``out`` (a binary stream)."""
    lines = []
    if options.per_topic:
        for t in scores.shown:
            topic = scores.topics[t].decode("utf-8")
            lines.extend(line(row, topic, scores.values[row.name][t]) for row in scores.rows
                         if row.measure.per_topic)
    if options.summary and scores.stop is None:
        for row in scores.rows:
            if row.name == "runid":
                lines.append(f"{'runid':<22}\tall\t{runid.decode('utf-8', errors='replace')}\n")
            elif row.name in scores.totals:
                lines.append(line(row, "all", scores.totals[row.name]))
    out.write("".join(lines).encode("utf-8"))
    out.flush()


def help_text() -> str:
    """``irnb trec_eval -h``: the usage, every measure with its defaults and description, the
    nicknames."""
    lines = [USAGE, "Measures (trec_eval 10.0's all_trec; defaults in brackets):"]
    for m in TREC_MEASURES:
        extra = f" [{','.join(_fmt_default(v) for v in m.default)}]" if m.default else ""
        about = FAMILIES[m.family].description if m.family else (
            "the run id (last line's 6th column)" if m.name == "runid" else "grades of the top N documents")
        lines.append(f"  {m.name}{extra}: {about}")
    lines.append("Nicknames: " + ", ".join(f"{k} ({len(v)} measures)" for k, v in NICKNAMES.items()))
    return "\n".join(lines) + "\n"


def _fmt_default(value) -> str:
    return str(int(value)) if float(value).is_integer() and not isinstance(value, float) else f"{value:g}"
