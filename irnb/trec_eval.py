"""``irnb trec_eval``: a drop-in for trec_eval 10.0 that prints what it prints, line for line.

``irnb trec_eval [options] QRELS RUN`` takes trec_eval's options for TREC qrels and results
(``-q``, ``-m name[.params]``, ``-c``, ``-n``, ``-l N``, ``-M N``, ``-J``, ``-N N``,
``-R qrels``, ``-T trec_results``, ``-v``, ``-h``; RUN ``-`` reads standard input) and
writes trec_eval's rows (``runid``, ``num_q``, ``num_ret`` … ``map``, ``P_5`` …) in its
order and format (``%-22s\\t%s\\t%6.4f``). ``--compat 9`` follows trec_eval 9.x instead.

Measures are trec_eval's table (:data:`TREC_MEASURES`, in its print order), each mapped to
an irnb :class:`~irnb.measures.Measure` whose kernel (:mod:`irnb.metrics`) computes it;
the nicknames ``official``, ``set`` and ``all_trec`` expand as in trec_eval. Measures
outside ``all_trec`` (preference measures, ``qrels_jg``, ``yaap``, ``dcg``) are refused
with a message saying so; gain parameters (``ndcg.1=3,2=9``) are computed as trec_eval does.

Rules where trec_eval 10.0 and 9.x differ (``--compat 9``):

* Scores: 10.0 compares them as doubles, 9.x as 32-bit floats (so do pytrec_eval and
  ir_measures): scores equal in float32 tie and are ordered by docno.
* ``iprec_at_recall`` and ``11pt_avg`` find the c-th relevant document with
  c = round(x·R) in 10.0, c = floor(x·R + 0.9) in 9.x.
* ``all_trec`` holds ``unj``, ``rbp`` and ``rbp_resid`` in 10.0 only (9.x has no such
  measures).
* A qrels topic the run does not answer stops trec_eval 10.0 without ``-c`` (exit status 4,
  after the per-topic rows printed so far); 9.x skips it. With ``-c`` both score it as an
  empty ranking; 10.0 prints its per-topic rows with ``-q``, 9.x does not.

Files are opened and decompressed by :mod:`irnb.sources` (gzip, xz or bzip2 recognised by
their magic bytes, as :mod:`irnb.io` reads them). Lines follow :mod:`irnb.io`'s rules
(comments, blank lines, CRLF, a UTF-8 BOM, at least 6 columns in a run line, exactly 4 in a
qrels line, an integer grade, a finite score, a docno once per topic), with plain Python
instead of pyarrow so that a call starts in about the time numpy takes to import. Errors
name file and line and go to standard error.
"""

from __future__ import annotations

import getopt
import math
import re
import sys
from dataclasses import dataclass
from functools import cached_property
from collections.abc import Callable, Sequence

import numpy as np

from ._grades import MAX_GRADE, MIN_GRADE, NO_DOC, UNJUDGED
from ._text import clean_text, show_token
from .measures import FAMILIES, TREC_DEFAULT_CUTOFFS as _CUTS, Measure, trec_family
from .kernels import Judged, compute
from .measures.precision import interpolated_precision
from .measures.set_measures import set_f, set_utility
from .metrics import level_counts_of
from .params import NUM_DOCS, RELEVANCE_LEVEL, RUN_DEPTH, TREC_VERSION, Param

__all__ = ["TREC_MEASURES", "NICKNAMES", "main", "VERSIONS"]

VERSIONS = ("10", "9")
_EXIT_USAGE, _EXIT_INPUT, _EXIT_MISSING_TOPIC = 1, 2, 4  # trec_eval's exit statuses (4 also: duplicate docs)
_EXIT_CALC = 4  # trec_eval: a measure that cannot be computed for a topic


@dataclass(frozen=True)
class TrecMeasure:
    """One entry of trec_eval's measure table: how trec_eval prints a measure; what it
    computes is the irnb family that declares its trec_eval name (:attr:`family`).

    ``kind``: ``single`` (no parameters), ``cut_long`` (a list of integer cutoffs, one row
    each: ``P_5``), ``cut_double`` (a list of fractions, ``iprec_at_recall_0.10``),
    ``params`` (a list of numbers that change one value: ``utility_2,-1,0,0``), ``pairs``
    (``name=value`` pairs: ``rbp_p=0.8``). ``per_topic``: printed for each topic with ``-q``.
    """

    name: str
    kind: str = "single"
    default: tuple = ()
    per_topic: bool = True
    pairs: tuple[str, ...] = ()  # the pair names accepted (kind == "pairs")

    @cached_property
    def family(self) -> str | None:
        """The irnb family that declares this trec_eval name (``map_cut`` → ``AP``); None for
        ``runid`` and ``relstring``, which are text."""
        named = trec_family(self.name)
        return None if named is None else named[0]

    @cached_property
    def summary(self) -> str:
        """How the ``all`` row combines topics: the family's aggregate (``mean``, ``sum``,
        ``gmean``), ``none`` for text."""
        return "none" if self.family is None else FAMILIES[self.family].aggregate

    @cached_property
    def fmt(self) -> str:
        """``string`` for text, ``long`` for counts (summed families), else ``double`` (``%6.4f``)."""
        if self.family is None:
            return "string"
        return "long" if FAMILIES[self.family].aggregate == "sum" else "double"


# trec_eval 10.0's measures.c order (the order rows are printed in), restricted to all_trec
TREC_MEASURES: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", per_topic=False),
    TrecMeasure("num_q", per_topic=False),
    TrecMeasure("num_ret"),
    TrecMeasure("num_rel"),
    TrecMeasure("num_rel_ret"),
    TrecMeasure("map"),
    TrecMeasure("gm_map", per_topic=False),
    TrecMeasure("Rprec"),
    TrecMeasure("bpref"),
    TrecMeasure("recip_rank"),
    TrecMeasure("iprec_at_recall", "cut_double", _CUTS["iprec_at_recall"]),
    TrecMeasure("P", "cut_long", _CUTS["P"]),
    TrecMeasure("relstring", "params", (10.0,)),
    TrecMeasure("recall", "cut_long", _CUTS["recall"]),
    TrecMeasure("infAP"),
    TrecMeasure("gm_bpref", per_topic=False),
    TrecMeasure("Rprec_mult", "cut_double", _CUTS["Rprec_mult"]),
    TrecMeasure("utility", "params", (1.0, -1.0, 0.0, 0.0)),
    TrecMeasure("11pt_avg", "params", _CUTS["iprec_at_recall"]),
    TrecMeasure("binG"),
    TrecMeasure("G", "pairs"),
    TrecMeasure("ndcg", "pairs"),
    TrecMeasure("ndcg_rel", "pairs"),
    TrecMeasure("Rndcg", "pairs"),
    TrecMeasure("ndcg_cut", "cut_long", _CUTS["ndcg_cut"]),
    TrecMeasure("map_cut", "cut_long", _CUTS["map_cut"]),
    TrecMeasure("relative_P", "cut_long", _CUTS["relative_P"]),
    TrecMeasure("success", "cut_long", _CUTS["success"]),
    TrecMeasure("set_P"),
    TrecMeasure("set_relative_P"),
    TrecMeasure("set_recall"),
    TrecMeasure("set_map"),
    TrecMeasure("set_F", "params", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret"),
    TrecMeasure("rbp", "pairs", pairs=("p",)),
    TrecMeasure("rbp_resid", "pairs", pairs=("p",)),
    TrecMeasure("unj", "cut_long", _CUTS["unj"]),
)
_BY_NAME = {m.name: m for m in TREC_MEASURES}
_NEW_IN_10 = ("unj", "rbp", "rbp_resid")  # trec_eval 9.x has none of these
# trec_eval measures outside all_trec: refused with this reason
_OUTSIDE = {
    "dcg": "not in all_trec", "ideal_dcg": "not in all_trec", "ndcg_p": "not in all_trec",
    "yaap": "not in all_trec", "map_avgjg": "needs -R qrels_jg", "P_avgjg": "needs -R qrels_jg",
    "Rprec_mult_avgjg": "needs -R qrels_jg",
}
_OUTSIDE.update({n: "a preference measure (needs -R prefs)" for n in (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp")})

_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank", "iprec_at_recall", "P")
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_trec": tuple(m.name for m in TREC_MEASURES),
}
_REFUSED_NICKNAMES = {"all_prefs": "preference measures (-R prefs)", "prefs": "preference measures (-R prefs)",
                      "qrels_jg": "judgment-group measures (-R qrels_jg)"}


# =========================================================================== options
@dataclass
class Options:
    per_topic: bool = False
    complete: bool = False
    summary: bool = True
    relevance_level: int = 1
    max_depth: int | None = None
    judged_only: bool = False
    num_docs: int = 0
    compat: str = "10"
    measures: dict | None = None  # name → raw parameter text (None: the defaults)


USAGE = """Usage: irnb trec_eval [-h] [-q] [-m measure[.params]]* [-c] [-n] [-l <num>] [-N <num>] [-M <num>]
                       [-J] [-R qrels] [-T trec_results] [-v] [--compat 10|9] rel_info_file results_file
   A drop-in for trec_eval 10.0 (TREC qrels and results); results_file '-' reads standard input.
   -q: per-topic values too; -m: measure or nickname (official, set, all_trec), e.g. -m P.5,10 -m ndcg_cut.10
   -c: average over every qrels topic (unanswered ones score 0); -n: no summary; -l: relevance level
   -M: use the top <num> documents only; -J: judged documents only; -N: documents in the collection (utility)
   --compat 9: follow trec_eval 9.x (32-bit scores, 9.x's measure list), as pytrec_eval and ir_measures do
"""

_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted", "level_for_rel=",
         "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=", "Max_retrieved_per_topic=",
         "Rel_info_format=", "Results_format=", "Output_old_results_format", "Zscore=", "compat="]


class UsageError(ValueError):
    """A command-line error: trec_eval's exit status 1."""


class MeasureInitError(ValueError):
    """A measure's parameters refused (``P.100,1,100``, ``ndcg.1``): trec_eval reads them when it
    initialises the measure, after the files, and stops with exit status 2 ("Cannot initialize
    measure"); utility's coefficients are counted when a topic is scored: exit status 4."""

    def __init__(self, message: str, *, status: int = 2):
        super().__init__(message)
        self.status = status


def _declared(param: Param, value, option: str, **how) -> object:
    """``value`` through ``param``'s declaration, its error as a usage error (exit status 1)."""
    try:
        return param.validate(value, None, label=option, **how)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _integer(text: str, option: str, param: Param) -> int:
    """An integer option (-l, -N, -M) as trec_eval reads it: digits only (``1.0`` is no
    integer here), then ``param``'s declared bounds; the error shows the text given."""
    if re.fullmatch(r"\s*[+-]?\d+\s*", text):
        try:
            return param.validate(int(text), None, label=option)
        except ValueError:
            pass
    raise UsageError(str(param.error(text, None, label=option, part="bounds")))


def parse_args(argv: Sequence[str]) -> tuple[Options, list[str], str | None]:
    """Options, the positional arguments, and ``help``/``version`` when asked for."""
    try:
        pairs, rest = getopt.gnu_getopt(list(argv), "hvqm:cl:nD:JN:M:R:T:oZ:", _LONG)
    except getopt.GetoptError as err:
        raise UsageError(str(err)) from None
    options = Options()
    marked: list[str] = []
    wanted = None
    for flag, value in pairs:
        if flag in ("-h", "--help"):
            wanted = "help"
        elif flag in ("-v", "--version"):
            wanted = wanted or "version"
        elif flag in ("-q", "--query_eval_wanted"):
            options.per_topic = True
        elif flag in ("-m", "--measure"):
            marked.append(value)
        elif flag in ("-c", "--complete_rel_info_wanted"):
            options.complete = True
        elif flag in ("-l", "--level_for_rel"):
            options.relevance_level = _integer(value, "-l (relevance level)", RELEVANCE_LEVEL)
        elif flag in ("-n", "--nosummary"):
            options.summary = False
        elif flag in ("-J", "--Judged_docs_only"):
            options.judged_only = True
        elif flag in ("-N", "--Number_docs_in_coll"):
            options.num_docs = _integer(value, "-N (documents in the collection)", NUM_DOCS)
        elif flag in ("-M", "--Max_retrieved_per_topic"):
            options.max_depth = _integer(value, "-M (documents per topic)", RUN_DEPTH)
        elif flag in ("-R", "--Rel_info_format"):
            if value != "qrels":
                raise UsageError(f"-R: irnb trec_eval reads rel_info format 'qrels' only, got {value!r}")
        elif flag in ("-T", "--Results_format"):
            if value != "trec_results":
                raise UsageError(f"-T: irnb trec_eval reads results format 'trec_results' only, got {value!r}")
        elif flag == "--compat":
            options.compat = _declared(TREC_VERSION.among(VERSIONS), value, "--compat",
                                       note="trec_eval major version")
        else:  # -D, -o, -Z
            raise UsageError(f"{flag}: not supported by irnb trec_eval (debug output, old output format and "
                             "Z scores are trec_eval's own)")
    options.measures = _mark(marked, options.compat) if marked else _mark(["official"], options.compat)
    return options, rest, wanted


def _mark(texts: list[str], compat: str) -> dict[str, str | None]:
    """trec_eval's mark_measure: ``name[.params]`` or a nickname → {measure: its parameter text}.
    The first parameters given for a measure count (as in trec_eval)."""
    marked: dict[str, str | None] = {}
    params: dict[str, str] = {}
    for text in texts:
        name, dot, param = text.partition(".")
        if dot:
            if not param:
                raise UsageError(f"-m {text}: empty parameter list after '.'")
            params.setdefault(name, param)
        if name in NICKNAMES or name in _REFUSED_NICKNAMES:
            if name in _REFUSED_NICKNAMES:
                raise UsageError(f"-m {name}: irnb trec_eval computes the all_trec measures only, not "
                                 f"{_REFUSED_NICKNAMES[name]}")
            names = [n for n in NICKNAMES[name] if not (compat == "9" and n in _NEW_IN_10)]
        else:
            names = [name]
        for n in names:
            if n not in _BY_NAME:
                raise UsageError(f"-m {text}: {_why_unknown(n)}")
            if compat == "9" and n in _NEW_IN_10:
                raise UsageError(f"-m {text}: trec_eval 9.x has no measure {n!r} (it is new in 10.0); "
                                 "drop --compat 9")
            marked.setdefault(n, None)
    for name, param in params.items():
        if name in marked:
            marked[name] = param
    return marked


def _why_unknown(name: str) -> str:
    if name in _OUTSIDE:
        return f"trec_eval's {name!r} is {_OUTSIDE[name]}; irnb trec_eval computes the all_trec measures"
    base, _, tail = name.rpartition("_")
    if base in _BY_NAME and _BY_NAME[base].kind.startswith("cut") and tail:
        return f"illegal measure {name!r}: trec_eval writes its parameters after a dot, e.g. {base}.{tail}"
    import difflib

    close = difflib.get_close_matches(name, list(_BY_NAME) + list(NICKNAMES), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    return f"illegal measure {name!r}{hint}"


# =========================================================================== parameters
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


def _rows(spec: TrecMeasure, param: str | None, options: Options) -> list[Row]:
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
                                       status=_EXIT_CALC)
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
        gains = _pairs(param, what, keep_order=True)
        return [Row(name, spec, lambda view, ctx: _with_gains(view, spec.name, gains))]
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


def _gain_levels(counts: np.ndarray, given: list[tuple[int, float]]) -> list[list]:
    """trec_eval's setup_gains for one topic: [level, gain, documents of that level in the
    qrels], the levels given on the command line first, then those of the qrels not given
    (gain = level), sorted by C's ``(int) (gain1 − gain2)`` (gains less than 1 apart compare
    equal there, so their order is qsort's, which may differ)."""
    import functools

    present = np.flatnonzero(counts)
    levels = [[level, gain, 0] for level, gain in given]
    for i in range(int(present[-1]) + 1 if present.size else 0):
        match = next((entry for entry in levels if entry[0] == i), None)
        if match is not None:
            match[2] = int(counts[i])
        else:
            levels.append([i, float(i), int(counts[i])])
    return sorted(levels, key=functools.cmp_to_key(lambda a, b: int(a[1] - b[1])))


class _Ideal:
    """The ideal ranking's gains, highest gain level first, one rank per :meth:`step` (C's
    cur_level / num_at_level walk)."""

    def __init__(self, levels: list[list]):
        self.levels, self.cur, self.at = levels, len(levels) - 1, 0
        self.gain = levels[-1][1] if levels else 0.0

    def step(self) -> float:
        self.at += 1
        while self.cur >= 0 and self.at > self.levels[self.cur][2]:
            self.at, self.cur = 1, self.cur - 1
            self.gain = self.levels[self.cur][1] if self.cur >= 0 else 0.0
        return self.gain


def _div(a: float, b: float) -> float:
    """a / b as C's doubles divide (inf or nan for b = 0)."""
    return float(np.divide(np.float64(a), np.float64(b))) if b == 0 else a / b


def _with_gains(view: Judged, measure: str, pairs: list[tuple[str, float]]) -> np.ndarray:
    """trec_eval's ndcg, G, ndcg_rel and Rndcg with gains given as ``rel_level=gain``
    (``-m ndcg.1=3,2=9,4=4.5``), ported from m_ndcg.c, m_G.c, m_ndcg_rel.c and m_Rndcg.c:
    a document not in the qrels counts as level −1, one pooled but unjudged as −2; a level
    without a gain gains 0."""
    given = [(int(key), gain) for key, gain in pairs if re.fullmatch(r"[+-]?\d+", key)]
    out = np.zeros(view.grade.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in range(view.grade.shape[1]):
            levels = _gain_levels(view.level_counts[t], given)
            gain_of: dict[int, float] = {}
            for level, gain, _ in levels:
                gain_of.setdefault(level, gain)
            grades = view.grade[0, t, : int(view.length[0, t])].tolist()
            gains = [gain_of.get(-1 if g == UNJUDGED else -2 if g < 0 else g, 0.0) for g in grades]
            if measure == "Rndcg" and view.num_rel[t] == 0:
                continue
            out[t] = _GAIN_MEASURES[measure](gains, _Ideal(levels))
    return out


def _ndcg_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = 0.0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    for j in range(i, len(gains)):
        if gains[j] != 0:
            dcg += gains[j] / math.log2(j + 2)
    i = max(i, len(gains))
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    return dcg / idcg if idcg > 0.0 else 0.0


def _g_gains(gains: list[float], ideal: _Ideal) -> float:
    total = ideal_sum = cost = g = 0.0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        total += gains[i]
        step = ideal.step()
        if step > 0.0:
            ideal_sum += step
        cost += step if step >= 1.0 else 1.0
        if gains[i] != 0:
            g += gains[i] / math.log2(2 + cost - total)
        i += 1
    for j in range(i, len(gains)):
        total += gains[j]
        cost += 1.0
        if gains[j] != 0:
            g += gains[j] / math.log2(2 + cost - total)
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            ideal_sum += ideal.gain
    return g / ideal_sum if ideal_sum > 0.0 else 0.0


def _ndcg_rel_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = total = 0.0
    rel_ret = rel = 0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if ideal.step() > 0.0:
            rel += 1
            idcg += ideal.gain / math.log2(i + 2)
        if gains[i] > 0:
            total += _div(dcg, idcg)
            rel_ret += 1
        i += 1
    for j in range(i, len(gains)):
        if gains[j] != 0:
            dcg += gains[j] / math.log2(j + 2)
        if gains[j] > 0:
            total += _div(dcg, idcg)
            rel_ret += 1
    i = max(i, len(gains))
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            rel += 1
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    total += (rel - rel_ret) * _div(dcg, idcg)
    return _div(total, rel) if total > 0.0 else 0.0


def _rndcg_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = total = 0.0
    changes = 0
    old = ideal.gain
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        step = ideal.step()
        if old != step:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            old = step
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if step > 0.0:
            idcg += step / math.log2(i + 2)
        i += 1
    if i < len(gains):
        for j in range(i, len(gains)):
            if gains[j] != 0:
                dcg += gains[j] / math.log2(j + 2)
        i = len(gains)
        if idcg > 0.0:
            total += dcg / idcg
            changes += 1
    while ideal.gain > 0.0:
        step = ideal.step()
        if old != step:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            old = step
        if step > 0.0:
            idcg += step / math.log2(i + 2)
        i += 1
    return _div(total, changes)


_GAIN_MEASURES = {"ndcg": _ndcg_gains, "G": _g_gains, "ndcg_rel": _ndcg_rel_gains, "Rndcg": _rndcg_gains}


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


# =========================================================================== reading
_INTEGER = re.compile(rb"[+-]?[0-9]+")


def _read_bytes(path: str) -> bytes:
    """The bytes of a file (``-``: standard input), read and decompressed (gzip, xz or bzip2,
    by their magic bytes) by :mod:`irnb.sources` as :mod:`irnb.io` reads them. A path that
    cannot be read — missing, permission denied, a directory, a device or pipe (never read:
    it could block) — is an error naming the path and the cause in the operating system's
    words."""
    if path == "-":
        return sys.stdin.buffer.read()
    from .sources import file_kind, read_bytes

    if file_kind(path, "file") == "dir":
        raise ValueError(f"{path}: cannot read file: a directory")
    return read_bytes(path)


def _lines(data: bytes, label: str):
    """(line number, fields) of the data lines, as :mod:`irnb.io` reads them: fields split
    at ASCII whitespace (C's isspace), blank lines and lines starting with ``#`` skipped,
    and irnb's text rules (:func:`irnb._text.clean_text`: line ends, BOM, NUL bytes, long lines)."""
    number = 0
    for line in clean_text(data, label).split(b"\n"):
        number += 1
        parts = line.split()
        if parts and parts[0][:1] != b"#":
            yield number, parts


def _utf8(token: bytes, label: str, number: int, what: str) -> bytes:
    try:
        token.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{label}:{number}: expected UTF-8 text in the {what}, got byte {token[err.start]:#04x}") \
            from None
    return token


class RepeatedDocno(ValueError):
    """A docno given twice for a topic: trec_eval stops with exit status 4 ("duplicate docs")."""


def _repeated(data: bytes, label: str, number: int, topic: bytes, docno: bytes, what: str) -> ValueError:
    first = next(n for n, parts in _lines(data, label) if parts[0] == topic and parts[2] == docno)
    return RepeatedDocno(f"{label}:{number}: docno {docno.decode(errors='replace')!r} repeated for topic "
                         f"{topic.decode(errors='replace')!r} (first at line {first}); expected each docno once "
                         f"per topic in a {what}")


def read_qrels(data: bytes, label: str) -> dict[bytes, dict[bytes, int]]:
    """topic → {docno: grade}; errors name ``label:line``.

    >>> read_qrels(b"1 0 d1 2\\n# a comment\\n1 0 d2 -1\\n", "q.txt")
    {b'1': {b'd1': 2, b'd2': -1}}
    """
    qrels: dict[bytes, dict[bytes, int]] = {}
    check_utf8 = not data.isascii()
    integer = _INTEGER.fullmatch
    for number, parts in _lines(data, label):
        if len(parts) != 4:
            raise ValueError(f"{label}:{number}: expected 4 columns (qid iteration docno grade), got {len(parts)}: "
                             f"{show_token(b' '.join(parts))}")
        topic, _, docno, token = parts
        if not integer(token):
            raise ValueError(f"{label}:{number}: expected an integer grade in column 4, got {show_token(token)}")
        grade = int(token)
        if not MIN_GRADE <= grade <= MAX_GRADE:
            raise ValueError(f"{label}:{number}: topic {topic.decode(errors='replace')!r}, docno "
                             f"{docno.decode(errors='replace')!r}: expected a grade in [{MIN_GRADE}, {MAX_GRADE}], "
                             f"got {grade}")
        docs = qrels.get(topic)
        if docs is None:
            docs = qrels[topic] = {}
        elif docno in docs:
            raise _repeated(data, label, number, topic, docno, "qrels")
        if check_utf8:
            _utf8(topic, label, number, "qid (column 1)")
            _utf8(docno, label, number, "docno (column 3)")
        docs[docno] = grade
    if not qrels:
        raise ValueError(f"{label}: empty qrels: expected lines of 'qid iteration docno grade', found none")
    return qrels


def read_run(data: bytes, label: str) -> tuple[dict[bytes, dict[bytes, float]], bytes]:
    """topic → {docno: score} in file order, and the run id (trec_eval's: the last line's
    6th column). Scores must be finite numbers (no ``_``: C's atof stops there).

    >>> read_run(b"1 Q0 d1 1 2.5 tag\\n1 Q0 d2 2 2.5 tag\\n", "r.txt")
    ({b'1': {b'd1': 2.5, b'd2': 2.5}}, b'tag')
    """
    run: dict[bytes, dict[bytes, float]] = {}
    runid = b""
    check_utf8 = not data.isascii()
    for number, parts in _lines(data, label):
        if len(parts) < 6:
            raise ValueError(f"{label}:{number}: expected 6 columns (qid Q0 docno rank score tag), got {len(parts)}: "
                             f"{show_token(b' '.join(parts))}")
        topic, docno, token = parts[0], parts[2], parts[4]
        try:
            if b"_" in token:  # Python's float() accepts 1_000; C's atof does not
                raise ValueError
            score = float(token)
        except ValueError:
            raise ValueError(f"{label}:{number}: expected a number in column 5 (score), "
                             f"got {show_token(token)}") from None
        if score - score != 0:  # inf or nan
            raise ValueError(f"{label}:{number}: expected a finite number in column 5 (score), got {show_token(token)}")
        docs = run.get(topic)
        if docs is None:
            docs = run[topic] = {}
        elif docno in docs:
            raise _repeated(data, label, number, topic, docno, "run")
        if check_utf8:
            _utf8(topic, label, number, "qid (column 1)")
            _utf8(docno, label, number, "docno (column 3)")
        docs[docno] = score
        runid = parts[5]
    if not run:
        raise ValueError(f"{label}: empty run: expected lines of 'qid Q0 docno rank score tag', found none")
    return run, runid


def _ranking(docs: dict[bytes, float], compat: str) -> list[bytes]:
    """Docnos by score descending, ties by docno descending (byte order, C's strcmp); 9.x
    compares the scores as 32-bit floats.

    >>> _ranking({b"a": 1.00000001, b"c": 1.0, b"b": 2.0}, "10"), _ranking({b"a": 1.00000001, b"c": 1.0}, "9")
    ([b'b', b'a', b'c'], [b'c', b'a'])
    """
    if compat == "9":
        scores = np.fromiter(docs.values(), dtype=np.float64, count=len(docs)).astype(np.float32).tolist()
        pairs = zip(scores, docs, strict=True)
    else:
        pairs = zip(docs.values(), docs, strict=True)
    return [docno for _, docno in sorted(pairs, reverse=True)]


def build_view(qrels, run, topics: list[bytes], options: Options) -> Judged:
    """The kernels' view of one run: (1, T, D) grades in ranking order, per-topic qrels
    counts, lengths. A topic the run does not answer (-c) is trec_eval 10.0's stand-in
    ranking of one document, ``ceci_nest_pas_un_docno``, or empty for 9.x (not evaluated)."""
    rankings = []
    for topic in topics:
        if topic in run:
            ranking = _ranking(run[topic], options.compat)
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


# =========================================================================== evaluating
def evaluate(qrels, run, runid: bytes, options: Options, out) -> int:
    """Write trec_eval's rows to ``out`` (a binary stream); the exit status."""
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
    rows = [row for name, param in _ordered(options.measures) for row in _rows(_BY_NAME[name], param, options)]
    if not topics:
        raise NoTopics("no qrels topic has results in the run (trec_eval: No queries with both results and "
                       "relevance info); is this the right qrels file?")
    view = build_view(qrels, run, topics, options)
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
    lines = []
    if options.per_topic:
        for t in shown:
            topic = topics[t].decode("utf-8")
            for row in rows:
                if row.measure.per_topic:
                    lines.append(_line(row, topic, values[row.name][t]))
    if stop is not None:
        out.write("".join(lines).encode("utf-8"))
        out.flush()
        raise MissingTopic(topics[stop].decode("utf-8"))
    if options.summary:
        count = len(topics)
        for row in rows:
            spec = row.measure
            if spec.summary == "none":
                if spec.name == "runid":
                    lines.append(f"{'runid':<22}\tall\t{runid.decode('utf-8', errors='replace')}\n")
                continue
            if spec.name == "num_q":
                total = float(count)
            elif spec.name == "num_rel" and options.complete:
                total = float(sum(1 for t in qrels.values() for g in t.values() if g > 0))  # trec_eval: grade > 0
            else:
                total = _summary(values[row.name], spec.summary, count)
            lines.append(_line(row, "all", total))
    out.write("".join(lines).encode("utf-8"))
    return 0


class MissingTopic(Exception):
    """trec_eval 10.0's stop at a qrels topic the run does not answer (without -c)."""


class NoTopics(ValueError):
    """No qrels topic has results (9.x without -c): trec_eval's exit status 7."""


def _ordered(measures: dict) -> list[tuple[str, str | None]]:
    return [(m.name, measures[m.name]) for m in TREC_MEASURES if m.name in measures]


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


def _line(row: Row, topic: str, value) -> str:
    if row.measure.fmt == "string":
        return f"{row.name:<22}\t{topic}\t'{value}'\n"
    if row.measure.fmt == "long":
        return f"{row.name:<22}\t{topic}\t{int(value)}\n"
    if value != value:  # NaN: C's printf of 0.0/0.0 on x86 (sign bit set)
        return f"{row.name:<22}\t{topic}\t  -nan\n"
    return f"{row.name:<22}\t{topic}\t{value:6.4f}\n"


# =========================================================================== entry point
def _help() -> str:
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


def main(argv: Sequence[str] | None = None) -> int:
    """``irnb trec_eval ARGS``: the exit status (0, or trec_eval's: 1 usage, 2 input, 4 a
    qrels topic without results or a docno repeated within a topic, 7 no topic in common)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options, rest, wanted = parse_args(argv)
        if wanted == "help":
            sys.stdout.write(_help())
            return 0
        if wanted == "version":
            print(f"irnb trec_eval: trec_eval version {options.compat}.0 compatible", file=sys.stderr)
            return 0
        if len(rest) != 2:
            raise UsageError(f"expected rel_info_file and results_file, got {len(rest)} argument(s)")
        qrels_path, run_path = rest
        qrels = read_qrels(_read_bytes(qrels_path), qrels_path)
        label = "<stdin>" if run_path == "-" else run_path
        run, runid = read_run(_read_bytes(run_path), label)
        return evaluate(qrels, run, runid, options, sys.stdout.buffer)
    except UsageError as err:
        sys.stderr.write(f"irnb trec_eval: error: {err}\n{USAGE}")
        return _EXIT_USAGE
    except MeasureInitError as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return err.status
    except NoTopics as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return 7
    except RepeatedDocno as err:  # trec_eval: "duplicate docs", exit status 4
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return _EXIT_MISSING_TOPIC
    except MissingTopic as err:
        print(f"irnb trec_eval: error: qrels topic {err.args[0]!r} has no results in the run; trec_eval 10.0 "
              "stops here (exit status 4). Use -c to score it as an empty ranking, or --compat 9 to skip it",
              file=sys.stderr)
        return _EXIT_MISSING_TOPIC
    except (ValueError, OSError) as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return _EXIT_INPUT
