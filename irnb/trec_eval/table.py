"""trec_eval 10.0's measure table: the measures ``irnb trec_eval`` prints, in trec_eval's
print order, how each takes parameters, the nicknames, and the measures it refuses.

What a measure computes is the irnb family that declares its trec_eval name
(:func:`irnb.measures.trec_family`); this table says only how trec_eval names, parameterises
and prints it.

>>> BY_NAME["map_cut"].family, BY_NAME["num_ret"].fmt, BY_NAME["runid"].fmt
('AP', 'long', 'string')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..measures import FAMILIES, TREC_DEFAULT_CUTOFFS as _CUTS, trec_family

__all__ = ["TrecMeasure", "TREC_MEASURES", "BY_NAME", "NEW_IN_10", "OUTSIDE", "NICKNAMES", "REFUSED_NICKNAMES"]


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
BY_NAME = {m.name: m for m in TREC_MEASURES}
NEW_IN_10 = ("unj", "rbp", "rbp_resid")  # trec_eval 9.x has none of these
# trec_eval measures outside all_trec: refused with this reason
OUTSIDE = {
    "dcg": "not in all_trec", "ideal_dcg": "not in all_trec", "ndcg_p": "not in all_trec",
    "yaap": "not in all_trec", "map_avgjg": "needs -R qrels_jg", "P_avgjg": "needs -R qrels_jg",
    "Rprec_mult_avgjg": "needs -R qrels_jg",
}
OUTSIDE.update({n: "a preference measure (needs -R prefs)" for n in (
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
REFUSED_NICKNAMES = {"all_prefs": "preference measures (-R prefs)", "prefs": "preference measures (-R prefs)",
                     "qrels_jg": "judgment-group measures (-R qrels_jg)"}
