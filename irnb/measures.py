"""Measures as declared specs, and one parser for their names.

Each measure family is declared once (name, parameters with types, bounds and defaults, a
one-line description, its source) and parsed from text in either spelling:

* ir_measures: ``P@10``, ``AP``, ``AP@100``, ``nDCG@20``, ``RR``, ``R@100``, ``Rprec``,
  ``Bpref``, ``Bpref10``, ``infAP``, ``RBP(p=0.8)``, ``Judged@10``, ``JudgedRet@10``,
  ``NotUnj@10``, ``MAA``, ``MAAR``, ``P(rel=2)@10``, ``IPrec@0.1``,
  ``SetF(beta=1)``, and the condensed-list forms ``P@20(j)``, ``AP(j)``, ``nDCG@20(j)``;
* trec_eval: ``P_10`` (or ``P.10``), ``map``, ``map_cut_100``, ``ndcg``, ``ndcg_cut_20``,
  ``recip_rank``, ``recall_100``, ``Rprec``, ``bpref``, ``infAP``, ``num_ret``, ``unj_10``,
  ``success_5``, ``rbp``, ``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``11pt_avg`` …
  A trec_eval name means what trec_eval computes: ``rbp`` is graded RBP with p = 0.9 and
  ``rbp_resid`` trec_eval's residual rule (see the RBP families); a list name (``P``,
  ``ndcg_cut``, ``P.5,10``) is its list (:data:`TREC_DEFAULT_CUTOFFS`), which
  :func:`parse_measures` expands and :func:`parse_measure` refuses; a cutoff on a trec_eval
  measure that takes none (``map.5``, ``ndcg_5``) is refused, naming ``map_cut_5``.

Canonical names (``str(measure)``) list every numeric parameter and the choice parameters
that differ from their default, in declared order, so that ``parse_measure(str(m)) == m``:
``RBP(p=0.8)``, ``RBP(p=0.9,gain=graded)``, ``P(rel=2)@10``, ``P@20(j)``.

Unknown names get a did-you-mean. Names are never matched by substring.

>>> parse_measure("ndcg_cut_20")
Measure('nDCG@20')
>>> parse_measure("RBP(p=0.8)").params
(('p', 0.8), ('gain', 'binary'))
>>> str(parse_measure("rbp"))
'RBP(p=0.9,gain=graded)'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable

from .params import MEASUREMENT_DEPTH, PERSISTENCE, RELEVANCE_LEVEL, Param

__all__ = ["Param", "Family", "Measure", "FAMILIES", "TREC_DEFAULT_CUTOFFS", "parse_measure", "parse_measures",
           "family_names", "INTERVAL_FAMILIES", "SCENARIO_FAMILIES"]


CUTOFF = MEASUREMENT_DEPTH.renamed("cutoff", default=None, label="measurement depth k",
                                   doc="measurement depth k: only the top k documents count")
REL = RELEVANCE_LEVEL.renamed("rel", doc="relevance level: a grade ≥ rel is relevant (trec_eval -l)")


@dataclass(frozen=True)
class Family:
    """A measure family: how it is named, what it takes, how it aggregates over topics.

    ``trec_name`` is trec_eval's name without a suffix (``map``), ``trec_cut_name`` the name
    of its cutoff variant (``map_cut``); ``trec_suffix`` says which parameter a numeric
    trec_eval suffix sets (``cutoff`` for ``P_10``, ``recall`` for
    ``iprec_at_recall_0.10``); ``trec_defaults`` are the parameters trec_eval uses when its
    name is given without any. ``at_param`` names a parameter written after ``@`` instead of
    a cutoff (``IPrec@0.1``). ``unit_range``: every per-topic value lies in [0, 1].
    """

    name: str  # canonical (ir_measures-like) spelling
    description: str
    source: str
    cutoff: str = "none"  # "none" | "optional" | "required"
    params: tuple[Param, ...] = ()
    aggregate: str = "mean"  # "mean" | "sum" | "gmean"
    trec_name: str | None = None
    trec_cut_name: str | None = None
    trec_suffix: str = "cutoff"
    trec_defaults: tuple[tuple[str, Any], ...] = ()
    aliases: tuple[str, ...] = ()
    uses_rel: bool = True  # does the relevance level matter
    rel_unused_when: tuple[tuple[str, Any], ...] = ()  # parameter values under which it does not
    higher_is_better: bool = True
    unit_range: bool = True
    at_param: str | None = None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}; parameters: {[p.name for p in self.params]}")


_P_TREC = (("p", 0.9),)  # trec_eval m_rbp.c / m_rbp_resid.c: p = 0.9 unless given

_FAMILIES: tuple[Family, ...] = (
    # ------------------------------------------------------------------ counts
    Family("num_q", "number of topics evaluated", "trec_eval num_q", aggregate="sum", trec_name="num_q",
           aliases=("NumQ",), uses_rel=False, unit_range=False),
    Family("NumRet", "documents retrieved (in the top k)", "trec_eval num_ret", cutoff="optional", aggregate="sum",
           trec_name="num_ret", uses_rel=False, unit_range=False),
    Family("NumRel", "relevant documents in the qrels (R)", "trec_eval num_rel", aggregate="sum",
           trec_name="num_rel", unit_range=False),
    Family("NumRelRet", "relevant documents retrieved (in the top k)", "trec_eval num_rel_ret", cutoff="optional",
           aggregate="sum", trec_name="num_rel_ret", unit_range=False),
    Family("NumNonRelJudgedRet", "judged non-relevant documents retrieved", "trec_eval num_nonrel_judged_ret",
           aggregate="sum", trec_name="num_nonrel_judged_ret", unit_range=False),
    # ------------------------------------------------------------------ ranked measures
    Family("P", "precision: relevant in the top k divided by k", "trec_eval P", cutoff="required",
           trec_name="P", aliases=("Precision",)),
    Family("AP", "average precision: mean of precision at each relevant document's rank, over R",
           "trec_eval map / map_cut", cutoff="optional", trec_name="map", trec_cut_name="map_cut",
           aliases=("MAP",)),
    Family("GMAP", "geometric mean over topics of AP (AP floored at 1e-5)", "trec_eval gm_map",
           aggregate="gmean", trec_name="gm_map"),
    Family("nDCG", "normalised discounted cumulative gain, graded gains, log2(rank+1) discount",
           "trec_eval ndcg / ndcg_cut (Järvelin & Kekäläinen 2002)", cutoff="optional", trec_name="ndcg",
           trec_cut_name="ndcg_cut", aliases=("NDCG",), uses_rel=False),
    Family("Rprec", "precision at rank R", "trec_eval Rprec", trec_name="Rprec", aliases=("RPrec", "R-prec")),
    Family("RR", "reciprocal rank of the first relevant document", "trec_eval recip_rank", cutoff="optional",
           trec_name="recip_rank", aliases=("MRR",)),
    Family("R", "recall: relevant retrieved in the top k divided by R", "trec_eval recall", cutoff="required",
           trec_name="recall", aliases=("Recall",)),
    Family("Success", "1 if a relevant document is in the top k", "trec_eval success", cutoff="required",
           trec_name="success"),
    Family("IPrec", "interpolated precision at a recall level: max precision at or after the rank where "
           "floor(recall·R + 0.9) relevant documents are retrieved", "trec_eval iprec_at_recall",
           params=(Param("recall", float, None, low=0.0, high=1.0, doc="recall level"),),
           trec_name="iprec_at_recall", trec_suffix="recall", at_param="recall"),
    Family("ElevenPointAP", "11-point interpolated average precision: mean of IPrec at recall 0, 0.1, …, 1",
           "trec_eval 11pt_avg", trec_name="11pt_avg"),
    Family("RprecMult", "precision at rank floor(mult·R + 0.9) (a run shorter than that counts as non-relevant)",
           "trec_eval Rprec_mult", params=(Param("mult", float, None, low=0.0, low_open=True,
                                                 doc="multiple of R"),),
           trec_name="Rprec_mult", trec_suffix="mult"),
    Family("RelP", "relative precision: relevant in the top k divided by min(k, R)", "trec_eval relative_P",
           cutoff="required", trec_name="relative_P"),
    Family("Bpref", "binary preference: (1/R) Σ_r (1 − min(n_r, R)/min(N, R))",
           "Buckley & Voorhees 2004; trec_eval bpref",
           trec_name="bpref"),
    Family("Bpref10", "bpref-10: (1/R) Σ_r (1 − min(n_r, R+10)/min(N, R+10)), the top R + 10 judged non-relevant "
           "documents count", "Buckley & Voorhees 2004 (bpref-10), as described by Büttcher et al. 2007; "
           "trec_eval 8 bpref_top10pRnonrel", aliases=("bpref_top10pRnonrel", "bpref-10")),
    Family("GMBpref", "geometric mean over topics of bpref (floored at 1e-5)", "trec_eval gm_bpref",
           aggregate="gmean", trec_name="gm_bpref"),
    Family("infAP", "inferred AP (Yilmaz & Aslam 2006), trec_eval m_infap.c", "trec_eval infAP",
           trec_name="infAP"),
    Family("nDCGRel", "nDCG averaged over the relevant (positive-gain) documents of the qrels; an unretrieved "
           "one counts the nDCG at the end of the run", "trec_eval ndcg_rel", trec_name="ndcg_rel",
           uses_rel=False),
    Family("RnDCG", "nDCG averaged at the R-level points (where the ideal gain changes) and at the run's end; "
           "0 when no document reaches the relevance level (gains are the grades)",
           "trec_eval Rndcg", trec_name="Rndcg"),
    Family("G", "normalised gain G: Σ gain_i / log2(2 + ideal cost_i − gain so far_i) over Σ ideal gains",
           "trec_eval G (Buckley, experimental)", trec_name="G", uses_rel=False),
    Family("BinG", "binary G: (1/R) Σ over retrieved relevant of 1 / log2(2 + non-relevant above)",
           "trec_eval binG (Buckley, experimental)", trec_name="binG"),
    # ------------------------------------------------------------------ set measures
    Family("SetP", "set precision: relevant retrieved / retrieved", "trec_eval set_P", trec_name="set_P"),
    Family("SetR", "set recall: relevant retrieved / R", "trec_eval set_recall", trec_name="set_recall"),
    Family("SetF", "set F_β: (1 + β²)·P·R / (β²·P + R) over the retrieved set (trec_eval's x is β²)",
           "trec_eval set_F (van Rijsbergen)", trec_name="set_F",
           params=(Param("beta", float, 1.0, low=0.0, doc="β: recall is β² times as important as precision"),)),
    Family("SetAP", "set AP: relevant retrieved² / (retrieved · R)", "trec_eval set_map", trec_name="set_map"),
    Family("SetRelP", "set relative precision: relevant retrieved / min(retrieved, R)", "trec_eval set_relative_P",
           trec_name="set_relative_P"),
    Family("Utility", "set utility a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant not retrieved);"
           " trec_eval's 4th coefficient (needs the collection size) is not supported", "trec_eval utility",
           trec_name="utility", unit_range=False,
           params=(Param("a", float, 1.0, doc="worth of a relevant retrieved document"),
                   Param("b", float, -1.0, doc="worth of a non-relevant retrieved document"),
                   Param("c", float, 0.0, doc="worth of a relevant document not retrieved"))),
    # ------------------------------------------------------------------ judgment coverage
    Family("Unj", "fraction of the top k not judged (not in the qrels, or a negative grade), over k",
           "trec_eval unj", cutoff="required", trec_name="unj", uses_rel=False, higher_is_better=False),
    Family("Judged", "Assessment Precision A_p@k: judged documents in the top k / k (missing ranks of a run "
           "shorter than k count as unjudged)", "Baillie et al. 2007 §2.1 (A_p@k, \"exactly the definition for "
           "standard Precision\")", cutoff="required", uses_rel=False),
    Family("JudgedRet", "judged documents in the top k / min(k, documents retrieved): a run shorter than k is "
           "judged over its own length", "ir_measures Judged@k; Baillie et al. 2007's |X ∩ A| / |X| with X the "
           "retrieved list", cutoff="required", uses_rel=False),
    Family("NotUnj", "1 − trec_eval's unj@k: (judged documents in the top k + missing ranks) / k (missing ranks "
           "of a run shorter than k count as judged)", "trec_eval 10 unj (m_unjudged.c)", cutoff="required",
           uses_rel=False),
    Family("MAA", "Average Assessment: mean of A_p@r over the ranks r of judged documents (MAA over topics); "
           "one judged document at rank 1 gives 1.0 whatever follows",
           "Baillie et al. 2007 §2.1 (\"the average over all ranks where an assessed document occurred\")",
           cutoff="optional", uses_rel=False),
    Family("MAAR", "AP-like Average Assessment: Σ A_p@r over the ranks r of judged documents / judged documents "
           "in the qrels (as AP divides by R)", "irnb variant of Baillie et al. 2007's MAA", cutoff="optional",
           uses_rel=False),
    Family("RecallAssessment", "judged documents retrieved / judged documents in the qrels",
           "Baillie et al. 2008 (recall of assessment)", cutoff="optional", uses_rel=False),
    Family("RankEff", "(1/R) Σ over retrieved relevant r of (1 − n_r/N); n_r judged non-relevant above r",
           "Ahlgren & Grönqvist 2006, as used by Büttcher et al. 2007"),
    # ------------------------------------------------------------------ weighted precision
    Family("RBP", "rank-biased precision (1−p) Σ_i p^(i−1) g_i; g_i = 1 if relevant (gain=binary) or the grade "
           "over the topic's top grade (gain=graded, trec_eval's rbp); the residual is reported apart",
           "Moffat & Zobel 2008; trec_eval rbp", cutoff="optional", trec_name="rbp",
           trec_defaults=_P_TREC + (("gain", "graded"),), rel_unused_when=(("gain", "graded"),),
           params=(PERSISTENCE, Param("gain", str, "binary", choices=("binary", "graded"),
                             doc="binary: 1 for grade ≥ rel; graded: grade / top grade of the topic's qrels"))),
    Family("RBPResidual", "RBP residual: (1−p) Σ over unjudged i of p^(i−1) + p^n (tail beyond a run of n); "
           "tail=if_unjudged is trec_eval's rbp_resid (0 when no retrieved document is unjudged)",
           "Moffat & Zobel 2008; trec_eval rbp_resid", cutoff="optional", trec_name="rbp_resid", uses_rel=False,
           higher_is_better=False, trec_defaults=_P_TREC + (("tail", "if_unjudged"),),
           params=(PERSISTENCE, Param("tail", str, "always", choices=("always", "if_unjudged"),
                             doc="always: the tail p^n always counts; if_unjudged: only when some retrieved "
                                 "document is unjudged (trec_eval)"))),
    Family("SDCG", "scaled DCG@k: binary-gain DCG@k over the DCG@k of an all-relevant ranking",
           "Ravana & Moffat 2010", cutoff="required"),
    # ------------------------------------------------------------------ condensed lists
    Family("Pj", "condensed-list precision P@k(j): unjudged documents removed before ranking",
           "Sakai 2007; trec_eval -J", cutoff="required"),
    Family("APj", "condensed-list AP (AP'): unjudged documents removed before ranking", "Sakai 2007",
           cutoff="optional"),
    Family("nDCGj", "condensed-list nDCG (nDCG'): unjudged documents removed before ranking", "Sakai 2007",
           cutoff="optional", uses_rel=False),
)

FAMILIES: dict[str, Family] = {f.name: f for f in _FAMILIES}
CONDENSED_FAMILIES = {"Pj": "P", "APj": "AP", "nDCGj": "nDCG"}  # family → the measure on the condensed list
#: Measure families with [B, T] score intervals (weighted precision: :mod:`irnb.intervals`).
INTERVAL_FAMILIES = ("P", "RBP", "SDCG")
#: Measure families with optimistic / pessimistic scenarios instead (:mod:`irnb.measure_scenarios`).
SCENARIO_FAMILIES = ("AP", "nDCG", "Bpref")


def family_names() -> list[str]:
    return list(FAMILIES)


def _fmt(value: Any) -> str:
    """Shortest text that parses back to the same value: 0.8 → '0.8', 1.0 → '1'."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


@dataclass(frozen=True)
class Measure:
    """A fully specified measure: family, cutoff (k), parameters and relevance level.

    Parameters are stored canonically: every declared parameter, in declared order, with
    its default filled in, so ``Measure("RBP") == Measure("RBP", params=(("p", 0.8),))``.
    """

    family: str
    cutoff: int | None = None
    params: tuple[tuple[str, Any], ...] = ()
    rel: int = 1

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"unknown measure family {self.family!r}{_did_you_mean(self.family)}")
        spec = FAMILIES[self.family]
        owner = f"measure {self.family}"
        given = dict(self.params)
        unknown = [k for k in given if k not in {p.name for p in spec.params}]
        if unknown:
            allowed = ", ".join(p.name for p in spec.params) or "none"
            raise ValueError(f"{owner}: unknown parameter {unknown[0]!r} (allowed: {allowed})")
        values = []
        for p in spec.params:
            value = given.get(p.name, p.default)
            if value is None:
                raise ValueError(f"{owner}: needs {p.name}, {p.describe()}"
                                 + (f", e.g. {spec.name}@0.5" if spec.at_param == p.name else ""))
            values.append((p.name, p.validate(value, owner)))
        object.__setattr__(self, "params", tuple(values))
        if self.cutoff is not None:
            if spec.cutoff == "none":
                raise ValueError(f"{owner} takes no cutoff (@k), got {self.cutoff!r}")
            object.__setattr__(self, "cutoff", CUTOFF.validate(self.cutoff, owner))
        elif spec.cutoff == "required":
            raise ValueError(f"{owner} needs a measurement depth k, an integer ≥ 1, e.g. {spec.name}@10")
        rel = REL.validate(self.rel, owner)
        if rel != 1 and not spec.uses_rel:
            raise ValueError(f"{owner} does not depend on the relevance level; drop rel=")
        object.__setattr__(self, "rel", rel)
        if rel != 1 and not self.uses_rel:
            why = ", ".join(f"{k}={_fmt(v)}" for k, v in spec.rel_unused_when if self.param(k) == v)
            raise ValueError(f"{owner} with {why} does not depend on the relevance level; drop rel=")

    @property
    def uses_rel(self) -> bool:
        """Whether the relevance level changes this measure's values: not for graded-gain
        measures (nDCG, G) nor for RBP with gain=graded, whose gains are the grades."""
        spec = self.spec
        return spec.uses_rel and not any(self.param(k) == v for k, v in spec.rel_unused_when)

    @property
    def spec(self) -> Family:
        return FAMILIES[self.family]

    def param(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        return self.spec.param(name).default

    @property
    def name(self) -> str:
        """The canonical name: ``P@10``, ``AP``, ``nDCG@20``, ``RBP(p=0.8)``, ``P(rel=2)@10``,
        ``IPrec@0.1``, ``P@20(j)``."""
        spec = self.spec
        inner = []
        for p, (key, value) in zip(spec.params, self.params, strict=True):
            if key == spec.at_param or (p.type is str and value == p.default):
                continue
            inner.append(f"{key}={_fmt(value)}")
        if self.rel != 1:
            inner.append(f"rel={self.rel}")
        base = CONDENSED_FAMILIES.get(self.family, self.family)
        text = base + (f"({','.join(inner)})" if inner else "")
        if spec.at_param is not None:
            text += f"@{_fmt(self.param(spec.at_param))}"
        elif self.cutoff is not None:
            text += f"@{self.cutoff}"
        return text + ("(j)" if self.family in CONDENSED_FAMILIES else "")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Measure({self.name!r})"


# ====================================================================== parsing
_TREC_NAMES: dict[str, tuple[str, bool]] = {}  # trec name → (family, is the cutoff variant)
for _f in _FAMILIES:
    if _f.trec_name:
        _TREC_NAMES[_f.trec_name] = (_f.name, False)
    if _f.trec_cut_name:
        _TREC_NAMES[_f.trec_cut_name] = (_f.name, True)
_TREC_BY_LENGTH = sorted(_TREC_NAMES, key=len, reverse=True)
_ALIASES = {a: f.name for f in _FAMILIES for a in f.aliases}

_IRM = re.compile(r"^(?P<fam>[A-Za-z][A-Za-z0-9_\-]*?)(?:\((?P<args>[^)]*)\))?(?:@(?P<cut>[^@()]+))?$")
_CONDENSED_RE = re.compile(r"^(?P<fam>P|AP|nDCG)(?:\((?P<args>[^)]*)\))?(?:@(?P<cut>[^@()]+))?\(j\)$")
_NUMBER = re.compile(r"^(?:\d+(?:\.\d*)?|\.\d+)$")


def _did_you_mean(text: str) -> str:
    if text in _TREC_NAMES:  # a trec_eval name written with @k or (…): suggest the family
        return f"; did you mean {_TREC_NAMES[text][0]!r}? (trec_eval names take no @ or parameters)"
    names = [f for f in FAMILIES if f not in CONDENSED_FAMILIES] + list(_ALIASES) + list(_TREC_NAMES)
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
    close += [n for n in names if n.lower() == text.lower() and n not in close]
    return f"; did you mean {', '.join(map(repr, close[:3]))}?" if close else ""


def _parse_args(args: str, owner: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in filter(None, (a.strip() for a in args.split(","))):
        if "=" not in part:
            raise ValueError(f"{owner}: expected parameters as name=value, got {part!r}")
        key, value = (s.strip() for s in part.split("=", 1))
        if key in out:
            raise ValueError(f"{owner}: parameter {key!r} given twice")
        out[key] = value
    return out


def _build(family: Family, cutoff: str | None, params: dict[str, Any], text: str) -> Measure:
    """A Measure from parsed text pieces; errors name the measure text, the parameter and
    what is allowed."""
    owner = f"measure {text!r}"
    params = dict(params)
    rel = 1
    if "rel" in params:
        if not family.uses_rel:
            raise ValueError(f"{owner}: {family.name} does not depend on the relevance level; drop rel=")
        rel = REL.convert(str(params.pop("rel")), owner)
    known = {p.name: p for p in family.params}
    for key in params:
        if key not in known:
            allowed = ", ".join(["rel"] * family.uses_rel + list(known)) or "none"
            raise ValueError(f"{owner}: unknown parameter {key!r} for {family.name} (allowed: {allowed})")
    values = {k: (v if not isinstance(v, str) else known[k].convert(v, owner)) for k, v in params.items()}
    for key, value in values.items():
        values[key] = known[key].validate(value, owner)
    if cutoff is not None and family.at_param is not None:
        if family.at_param in values:
            raise ValueError(f"{owner}: {family.at_param} given twice (after @ and as a parameter)")
        values[family.at_param] = known[family.at_param].convert(cutoff, owner)
        cutoff = None
    cut: int | None = None
    if cutoff is not None:
        if family.cutoff == "none":
            raise ValueError(f"{owner}: {family.name} takes no cutoff (@k)")
        cut = CUTOFF.convert(cutoff, owner)
    elif family.cutoff == "required":
        raise ValueError(f"{owner}: {family.name} needs a measurement depth k, an integer ≥ 1, "
                         f"e.g. {family.name}@10")
    for p in family.params:
        if p.default is None and p.name not in values:
            example = f"{family.name}@0.5" if family.at_param == p.name else f"{family.name}({p.name}=…)"
            raise ValueError(f"{owner}: {family.name} needs {p.name}, {p.describe()}, e.g. {example}")
    for key, value in family.rel_unused_when:
        if rel != 1 and values.get(key, family.param(key).default) == value:
            raise ValueError(f"{owner}: {family.name} with {key}={_fmt(value)} does not depend on the relevance "
                             "level; drop rel=")
    return Measure(family.name, cut, tuple(values.items()), rel)


_TREC_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
# trec_eval measures that take a list of cutoffs (recall levels, multiples of R), and the
# list their bare name means in trec_eval 10.0 (``-m P`` is P at 5, 10, …, 1000)
TREC_DEFAULT_CUTOFFS: dict[str, tuple] = {
    "P": _TREC_CUTS, "recall": _TREC_CUTS, "relative_P": _TREC_CUTS, "map_cut": _TREC_CUTS,
    "ndcg_cut": _TREC_CUTS, "success": (1, 5, 10), "unj": (5, 10, 20),
    "iprec_at_recall": (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    "Rprec_mult": (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
}


def _trec_list(raw: str) -> list[str] | None:
    """The single-measure trec_eval names a list name stands for: ``ndcg_cut`` → its nine
    default cutoffs, ``P.5,10`` → ``P_5, P_10``; None for any other text."""
    if raw in TREC_DEFAULT_CUTOFFS:
        return [f"{raw}_{_fmt(float(c)) if isinstance(c, float) else c}" for c in TREC_DEFAULT_CUTOFFS[raw]]
    base, dot, tail = raw.partition(".")
    if dot and "," in tail and base in TREC_DEFAULT_CUTOFFS:
        return [f"{base}_{part.strip()}" for part in tail.split(",")]
    return None


def _parse_trec(raw: str) -> Measure | None:
    """trec_eval spelling: ``name``, ``name_k`` or ``name.k`` (k may be a decimal for the
    families whose suffix is a recall level or a multiple of R). Only the measures that take
    cutoffs in trec_eval (:data:`TREC_DEFAULT_CUTOFFS`) take a suffix: ``map.5`` is no
    trec_eval measure (trec_eval would ignore the ``.5``), so it is refused, naming
    ``map_cut_5``."""
    listed = _trec_list(raw)
    if listed is not None:
        one = parse_measure(listed[1])
        raise ValueError(f"measure {raw!r} is trec_eval's list {', '.join(listed)} ({len(listed)} measures): "
                         f"name one (e.g. {listed[1]!r} or {one.name!r}), or pass {raw!r} to parse_measures, "
                         "which expands it")
    if raw in _TREC_NAMES:
        family = FAMILIES[_TREC_NAMES[raw][0]]
        return _build(family, None, dict(family.trec_defaults), raw)
    for base in _TREC_BY_LENGTH:
        if len(raw) > len(base) + 1 and raw.startswith(base) and raw[len(base)] in "_.":
            tail = raw[len(base) + 1:]
            if not _NUMBER.match(tail):
                continue
            family = FAMILIES[_TREC_NAMES[base][0]]
            if base not in TREC_DEFAULT_CUTOFFS:
                raise ValueError(_no_trec_cutoff(raw, base, family, tail))
            params: dict[str, Any] = dict(family.trec_defaults)
            if family.trec_suffix == "cutoff":
                return _build(family, tail, params, raw)
            params[family.trec_suffix] = family.param(family.trec_suffix).convert(tail, f"measure {raw!r}")
            return _build(family, None, params, raw)
    return None


def _no_trec_cutoff(raw: str, base: str, family: Family, tail: str) -> str:
    """The error for a trec_eval name given a cutoff its measure does not take."""
    text = f"measure {raw!r} is not a trec_eval measure: trec_eval's {base} takes no cutoff"
    if family.cutoff == "none":
        return text
    right = [f"{family.trec_cut_name}_{tail}"] if family.trec_cut_name else []
    return text + f"; {family.name} at cutoff {tail} is " + " or ".join(map(repr, right + [f"{family.name}@{tail}"]))


def parse_measure(text: str | Measure) -> Measure:
    """Parse a measure name in the ir_measures or the trec_eval spelling.

    >>> [str(parse_measure(t)) for t in ["P_10", "map", "map_cut_100", "recip_rank", "Judged@10"]]
    ['P@10', 'AP', 'AP@100', 'RR', 'Judged@10']
    >>> [str(parse_measure(t)) for t in ["iprec_at_recall_0.10", "Rprec_mult_0.20", "P@20(j)"]]
    ['IPrec@0.1', 'RprecMult(mult=0.2)', 'P@20(j)']
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise TypeError(f"a measure name must be a string, got {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise ValueError("measure name is empty; expected e.g. 'P@10' or 'map'")
    m = _CONDENSED_RE.match(raw)
    if m:
        family = FAMILIES[{v: k for k, v in CONDENSED_FAMILIES.items()}[m.group("fam")]]
        return _build(family, m.group("cut"), _parse_args(m.group("args") or "", f"measure {raw!r}"), raw)
    trec = _parse_trec(raw)
    if trec is not None:
        return trec
    m = _IRM.match(raw)
    if m:
        fam = _ALIASES.get(m.group("fam"), m.group("fam"))
        if fam in FAMILIES:
            args = _parse_args(m.group("args") or "", f"measure {raw!r}")
            return _build(FAMILIES[fam], m.group("cut"), args, raw)
    guess = m.group("fam") if m else re.split(r"[@(]", raw)[0]
    raise ValueError(f"unknown measure {raw!r}{_did_you_mean(guess)}")


def parse_measures(texts: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    """Parse one or several names; duplicates (same canonical measure) are kept once. A
    trec_eval list name means its list, as in trec_eval: ``ndcg_cut`` is nDCG at 5, 10, 15,
    20, 30, 100, 200, 500 and 1000; ``P.5,10`` is P@5 and P@10.

    >>> [m.name for m in parse_measures(["map", "P.5,10", "success"])]
    ['AP', 'P@5', 'P@10', 'Success@1', 'Success@5', 'Success@10']
    """
    items = [texts] if isinstance(texts, (str, Measure)) else list(texts)
    out: list[Measure] = []
    for item in items:
        listed = _trec_list(item.strip()) if isinstance(item, str) else None
        for one in listed or [item]:
            measure = parse_measure(one)
            if measure not in out:
                out.append(measure)
    if not out:
        raise ValueError("expected at least one measure, got none")
    return out
