"""trec_eval's command line: its options (getopt's syntax, short and long), the measures
marked with ``-m`` (names, parameters after a dot, nicknames), and the usage text.

>>> options, files, wanted = parse_args(["-q", "-mP.5,10", "-l2", "qrels", "run"])
>>> options.per_topic, options.relevance_level, options.measures, files
(True, 2, {'P': '5,10'}, ['qrels', 'run'])
"""

from __future__ import annotations

import getopt
import re
from dataclasses import dataclass
from collections.abc import Sequence

from ..params import NUM_DOCS, RELEVANCE_LEVEL, RUN_DEPTH, TREC_VERSION, Param
from .table import BY_NAME, NEW_IN_10, NICKNAMES, OUTSIDE, REFUSED_NICKNAMES

__all__ = ["Options", "USAGE", "VERSIONS", "UsageError", "parse_args"]

VERSIONS = ("10", "9")


@dataclass
class Options:
    """What the command line asked for (trec_eval's flags: ``-q``, ``-c``, ``-n``, ``-l``, ``-M``,
    ``-J``, ``-N``; ``--compat``) and the marked measures: name → its parameter text, None for
    the defaults."""

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
        if name in NICKNAMES or name in REFUSED_NICKNAMES:
            if name in REFUSED_NICKNAMES:
                raise UsageError(f"-m {name}: irnb trec_eval computes the all_trec measures only, not "
                                 f"{REFUSED_NICKNAMES[name]}")
            names = [n for n in NICKNAMES[name] if not (compat == "9" and n in NEW_IN_10)]
        else:
            names = [name]
        for n in names:
            if n not in BY_NAME:
                raise UsageError(f"-m {text}: {_why_unknown(n)}")
            if compat == "9" and n in NEW_IN_10:
                raise UsageError(f"-m {text}: trec_eval 9.x has no measure {n!r} (it is new in 10.0); "
                                 "drop --compat 9")
            marked.setdefault(n, None)
    for name, param in params.items():
        if name in marked:
            marked[name] = param
    return marked


def _why_unknown(name: str) -> str:
    if name in OUTSIDE:
        return f"trec_eval's {name!r} is {OUTSIDE[name]}; irnb trec_eval computes the all_trec measures"
    base, _, tail = name.rpartition("_")
    if base in BY_NAME and BY_NAME[base].kind.startswith("cut") and tail:
        return f"illegal measure {name!r}: trec_eval writes its parameters after a dot, e.g. {base}.{tail}"
    import difflib

    close = difflib.get_close_matches(name, list(BY_NAME) + list(NICKNAMES), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    return f"illegal measure {name!r}{hint}"
