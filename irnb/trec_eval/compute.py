"""trec_eval's values through irnb's kernels: each marked measure's rows (its parameters or
defaults, one row per cutoff), the kernels' view of the run (:func:`build_view`: grades in
trec_eval's ranking order, :func:`irnb.ranking.trec_ranking`), the per-topic values, trec_eval
10.0's and 9.x's rules for a topic the run does not answer, and the ``all`` row of each.

>>> from .options import parse_args
>>> options = parse_args(["-m", "P.1,2", "-m", "map", "q", "r"])[0]
>>> scores = score({b"1": {b"d1": 1, b"d2": 0}}, {b"1": {b"d2": 2.0, b"d1": 1.0}}, options)
>>> [(row.name, scores.totals[row.name]) for row in scores.rows]
[('map', 0.5), ('P_1', 0.0), ('P_2', 0.5)]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from .._grades import NO_DOC, UNJUDGED
from ..kernels import Judged, compute
from ..ranking import trec_ranking
from ..measures import FAMILIES, Measure
from ..measures.precision import interpolated_precision
from ..measures.set_measures import set_f, set_utility
from ..metrics import level_counts_of
from .options import Options
from .table import TREC_MEASURES, TrecMeasure

__all__ = ["EXIT_CALC", "MeasureInitError", "MissingTopic", "NoTopics", "Row", "Scores", "measure_rows",
           "build_view", "score"]

EXIT_CALC = 4  # trec_eval: a measure that cannot be computed for a topic


class MeasureInitError(ValueError):
    """A measure's parameters refused (``P.100,1,100``, ``ndcg.1``): trec_eval reads them when it
    initialises the measure, after the files, and stops with exit status 2 ("Cannot initialize
    measure"); utility's coefficients are counted when a topic is scored: exit status 4."""

    def __init__(self, message: str, *, status: int = 2):
        super().__init__(message)
        self.status = status


class MissingTopic(Exception):
    """trec_eval 10.0's stop at a qrels topic the run does not answer (without -c)."""


class NoTopics(ValueError):
    """No qrels topic has results (9.x without -c): trec_eval's exit status 7."""


def _numbers(text: str, what: str) -> list[float]:
    out = []
    for part in text.split(","):
        try:
            out.append(float(part))
        except ValueError:
            raise MeasureInitError(f"{what}: expected numbers separated by commas, got {part!r} in {text!r}") from None
    return out


def _fmt_double(value: float) -> str:
    """C's ``%3.2f``, as trec_eval names fractional cutoffs (``iprec_at_recall_0.10``)."""
    return f"{value:3.2f}"


@dataclass(frozen=True)
class Row:
    """One printed row per topic: its name and how to compute it."""

    name: str
    measure: TrecMeasure
    value: Callable  # (view, ctx) → (T,) values


def measure_rows(spec: TrecMeasure, param: str | None, options: Options) -> list[Row]:
    """The rows of one trec_eval measure with its parameters (or defaults), in print order."""
    what = f"-m {spec.name}.{param}" if param else f"-m {spec.name}"
    level = options.relevance_level

    def irnb(family: str, cutoff=None, **params) -> Measure:
        m = Measure(family, cutoff, tuple(params.items()))
        return Measure(family, cutoff, m.params, level) if m.uses_rel and level != 1 else m

    def kernel(measure: Measure):
        return lambda view, ctx: compute(view, measure)[0]

    if spec.kind == "cut_long":
        if param is None:
            cuts = list(spec.default)
        else:
            values = _numbers(param, what)
            cuts = sorted(int(v) for v in values)  # atol, then sorted as trec_eval does
            if cuts[0] <= 0:
                raise MeasureInitError(f"{what}: cutoffs must be integers ≥ 1 (trec_eval: negative cutoff), "
                                       f"got {param!r}")
            if len(set(cuts)) < len(cuts):
                raise MeasureInitError(f"{what}: cutoffs must differ (trec_eval: duplicate cutoffs), got {param!r}")
        return [Row(f"{spec.name}_{k}", spec, kernel(irnb(spec.family, k))) for k in cuts]
    if spec.kind == "cut_double":
        values = sorted(spec.default if param is None else _numbers(param, what))
        if len(set(values)) < len(values):
            raise MeasureInitError(f"{what}: cutoffs must differ (trec_eval: duplicate cutoffs), got {param!r}")
        if spec.name == "iprec_at_recall":
            return [Row(f"{spec.name}_{_fmt_double(x)}", spec, _iprec([x])) for x in values]
        if any(x <= 0 for x in values):
            raise MeasureInitError(f"{what}: multiples of R must be > 0, got {param!r}")
        return [Row(f"{spec.name}_{_fmt_double(x)}", spec, kernel(irnb("RprecMult", mult=x))) for x in values]
    # trec_eval names a measure after its parameters only where they take any (map.5 is map)
    name = spec.name if param is None or spec.kind == "single" else f"{spec.name}_{param}"
    if spec.kind == "params":
        values = list(spec.default) if param is None else _numbers(param, what)
        if spec.name == "relstring":
            return [Row(name, spec, lambda view, ctx, n=int(values[0]): _relstring(view, n))]
        if spec.name == "utility":
            if len(values) != 4:
                raise MeasureInitError(f"{what}: utility takes 4 coefficients (relevant retrieved, non-relevant "
                                       f"retrieved, relevant missed, non-relevant missed), got {len(values)}",
                                       status=EXIT_CALC)
            return [Row(name, spec, lambda view, ctx: set_utility(view, *values, num_docs=options.num_docs)[0])]
        if spec.name == "11pt_avg":
            return [Row(name, spec, _iprec(values, mean=True))]
        if spec.name == "set_F":
            return [Row(name, spec, lambda view, ctx, x=values[0]: set_f(view, x)[0])]
    if spec.kind == "pairs" and spec.pairs:  # rbp, rbp_resid: p=…; trec_eval's defaults as the family declares
        params = dict(FAMILIES[spec.family].trec_defaults)
        if param is not None:
            pairs = _pairs(param, what)
            unknown = [k for k in pairs if k not in spec.pairs]
            if unknown:
                raise MeasureInitError(f"{what}: {spec.name} takes {', '.join(p + '=…' for p in spec.pairs)}, "
                                       f"got {unknown[0]!r}")
            if not 0 < pairs["p"] < 1:
                raise MeasureInitError(f"{what}: persistence p must satisfy 0 < p < 1, got {pairs['p']:g}")
            params.update(pairs)
        return [Row(name, spec, kernel(irnb(spec.family, **params)))]
    if spec.kind == "pairs" and param is not None:  # ndcg, G, ndcg_rel, Rndcg: rel_level=gain,…
        # trec_eval reads a level with atol: a name that is not an integer gives no level
        given = tuple((int(key), gain) for key, gain in _pairs(param, what, keep_order=True)
                      if re.fullmatch(r"[+-]?\d+", key))
        try:
            measure = irnb(spec.family, gains=given)
        except ValueError as error:  # a gain the measure refuses (NaN)
            raise MeasureInitError(f"{what}: {error}") from None
        return [Row(name, spec, kernel(measure))]
    if spec.name == "runid":
        return [Row(name, spec, lambda view, ctx: None)]
    return [Row(name, spec, kernel(irnb(spec.family)))]


def _pairs(text: str, what: str, *, keep_order: bool = False):
    """``name=value,…`` as a dict (the first value of a name counts), or as a list of pairs
    in the order given (``keep_order``)."""
    out = []
    for part in text.split(","):
        key, eq, value = part.partition("=")
        try:
            if not eq or not key:
                raise ValueError
            out.append((key, float(value)))
        except ValueError:
            raise MeasureInitError(f"{what}: expected name=value pairs separated by commas, "
                                   f"got {part!r}") from None
    return out if keep_order else dict(reversed(out))


def _iprec(levels, *, mean: bool = False):
    """iprec_at_recall (or 11pt_avg, their mean). trec_eval's quirk kept: a ranking left
    empty by -J starts from precision 0/0, so a level whose c is 0 (x·R < 0.5 in 10.0,
    x·R + 0.9 < 1 in 9.x) is NaN, printed ``-nan``."""
    def value(view, ctx):
        out = interpolated_precision(view, levels)[:, 0]
        empty = view.length[0] == 0  # a ranking emptied by -J
        if empty.any():
            R = view.num_rel.astype(np.float64)
            for i, x in enumerate(levels):
                zero = x * R < 0.5 if view.trec_version >= 10 else np.floor(x * R + 0.9) == 0
                out[i] = np.where(empty & zero, np.nan, out[i])
        return out.mean(axis=0) if mean else out[0]

    return value


def _relstring(view: Judged, n: int) -> list[str]:
    """The grades of the top n documents as characters: 0-9, '>' above 9, '-' not in the
    qrels, '.' pooled but unjudged (a negative grade)."""
    out = []
    for grades, length in zip(view.grade[0], view.length[0], strict=True):
        chars = []
        for g in grades[: max(0, min(n, int(length)))]:
            g = int(g)
            chars.append(">" if g > 9 else str(g) if g >= 0 else "-" if g == UNJUDGED else ".")
        out.append("".join(chars))
    return out


def build_view(qrels, run, topics: list[bytes], options: Options) -> Judged:
    """The kernels' view of one run: (1, T, D) grades in ranking order, per-topic qrels
    counts, lengths. A topic the run does not answer (-c) is trec_eval 10.0's stand-in
    ranking of one document, ``ceci_nest_pas_un_docno``, or empty for 9.x (not evaluated)."""
    rankings = []
    for topic in topics:
        if topic in run:
            docs = run[topic]
            ranking = trec_ranking(list(docs), list(docs.values()), compat=options.compat)
        else:
            ranking = [_STAND_IN] if options.compat == "10" else []
        rankings.append(ranking[: options.max_depth] if options.max_depth else ranking)
    depth = max((len(r) for r in rankings), default=0)
    grade = np.full((1, len(topics), depth), NO_DOC, dtype=np.int8)
    for t, (topic, ranking) in enumerate(zip(topics, rankings, strict=True)):
        judged = qrels[topic]
        grade[0, t, : len(ranking)] = [judged.get(d, UNJUDGED) for d in ranking]
    topic_of = np.repeat(np.arange(len(topics)), [len(qrels[t]) for t in topics])
    grades = np.fromiter((g for t in topics for g in qrels[t].values()), dtype=np.int64, count=topic_of.size)
    length = np.array([[len(r) for r in rankings]], dtype=np.int64)
    view = Judged(grade=grade, level_counts=level_counts_of(topic_of, grades, len(topics)), length=length,
                  relevance_level=options.relevance_level, trec_version=int(options.compat))
    return view.condensed if options.judged_only else view


_STAND_IN = b"ceci_nest_pas_un_docno"  # trec_eval 10.0's one document for a topic without results (-c)
# rows trec_eval 10.0 resets (to 0, or '') after computing them on the stand-in ranking: these
# names exactly (so not utility_2,-1,0,0 nor relstring_20), and every name starting unj


def _reset(name: str) -> bool:
    return name in ("num_ret", "utility", "relstring", "rbp_resid") or name.startswith("unj")


@dataclass(frozen=True)
class Scores:
    """A run's trec_eval values: the topics evaluated (qrels order), the rows in print order,
    each row's per-topic values, the topics printed with ``-q`` (indices), where trec_eval
    10.0 stops (the index of the first qrels topic the run does not answer, without ``-c``;
    None when it does not), and each row's ``all`` value."""

    topics: list[bytes]
    rows: list[Row]
    values: dict[str, object]
    shown: list[int]
    stop: int | None
    totals: dict[str, float]


def score(qrels, run, options: Options) -> Scores:
    """The values of every marked measure (:attr:`Options.measures`) for the run, as
    trec_eval computes them."""
    topics = sorted(qrels)
    answered = [t in run for t in topics]
    stop = None  # trec_eval 10.0 stops at the first qrels topic the run does not answer (without -c)
    if not options.complete:
        missing = [i for i, a in enumerate(answered) if not a]
        if options.compat == "10" and missing:
            stop = missing[0]
        else:
            topics = [t for t, a in zip(topics, answered, strict=True) if a]
            answered = [True] * len(topics)
    marked = [(m, options.measures[m.name]) for m in TREC_MEASURES if m.name in options.measures]
    rows = [row for spec, param in marked for row in measure_rows(spec, param, options)]
    if not topics:
        raise NoTopics("no qrels topic has results in the run (trec_eval: No queries with both results and "
                       "relevance info); is this the right qrels file?")
    view = build_view(qrels, run, topics, options)
    with np.errstate(divide="ignore", invalid="ignore"):  # C's doubles: x/0 and log2 of x < 0 quietly inf or NaN
        values = {row.name: row.value(view, None) for row in rows}
    for row in rows:  # an unanswered topic under -c: 10.0 resets some rows, 9.x did not evaluate it
        if not all(answered) and (options.compat == "9" or _reset(row.name)):
            if row.measure.fmt == "string":
                values[row.name] = [v if a else "" for v, a in zip(values[row.name], answered, strict=True)]
            else:
                values[row.name] = np.where(answered, values[row.name], 0.0)
    shown = [t for t, a in enumerate(answered) if a or options.compat == "10"]
    if stop is not None:
        shown = [t for t in shown if t < stop]
    totals = {}
    for row in rows:
        spec = row.measure
        if spec.name == "num_q":
            totals[row.name] = float(len(topics))
        elif spec.name == "num_rel" and options.complete:
            totals[row.name] = float(sum(1 for t in qrels.values() for g in t.values() if g > 0))  # trec_eval: > 0
        elif spec.summary != "none":
            totals[row.name] = _summary(values[row.name], spec.summary, len(topics))
    return Scores(topics, rows, values, shown, stop, totals)


def _summary(values: np.ndarray, how: str, count: int) -> float:
    """trec_eval's summary: a sum in topic order, a mean, or a geometric mean of values
    floored at 1e-5."""
    total = 0.0
    if how == "gmean":
        for v in values.tolist():
            total += math.log(max(v, 1e-5))
        return math.exp(total / count) if count else 0.0
    for v in values.tolist():
        total += v
    return total if how == "sum" else (total / count if count else 0.0)
