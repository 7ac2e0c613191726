"""Measures as declared specs, and one parser for their names.

Each measure family is declared once (name, parameters with types, bounds and defaults, a
one-line description, its source) and parsed from text in either spelling:

* ir_measures: ``P@10``, ``AP``, ``AP@100``, ``nDCG@20``, ``RR``, ``R@100``, ``Rprec``,
  ``Bpref``, ``infAP``, ``RBP(p=0.8)``, ``Judged@10``, ``P(rel=2)@10``;
* trec_eval: ``P_10`` (or ``P.10``), ``map``, ``map_cut_100``, ``ndcg``, ``ndcg_cut_20``,
  ``recip_rank``, ``recall_100``, ``Rprec``, ``bpref``, ``infAP``, ``num_ret``, ``unj_10``,
  ``success_5``, ``rbp``.

Unknown names get a did-you-mean. Names are never matched by substring.

>>> parse_measure("ndcg_cut_20")
Measure('nDCG@20')
>>> parse_measure("RBP(p=0.8)").params
(('p', 0.8),)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

__all__ = ["Param", "Family", "Measure", "FAMILIES", "parse_measure", "parse_measures", "family_names"]


@dataclass(frozen=True)
class Param:
    """A declared parameter: type, bounds (inclusive unless stated), default, description.
    Widgets build their controls from the same declaration."""

    name: str
    type: type
    default: Any
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    doc: str = ""

    def validate(self, value: Any, owner: str) -> Any:
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, (int,)) and not (
                isinstance(value, float) and value.is_integer()
            ):
                raise ValueError(f"{owner}: {self.name} must be an integer, got {value!r}")
            value = int(value)
        elif self.type is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{owner}: {self.name} must be a number, got {value!r}")
            value = float(value)
        bad_low = self.low is not None and (value <= self.low if self.low_open else value < self.low)
        bad_high = self.high is not None and (value >= self.high if self.high_open else value > self.high)
        if bad_low or bad_high:
            lo = "" if self.low is None else f"{self.low} {'<' if self.low_open else '≤'} "
            hi = "" if self.high is None else f" {'<' if self.high_open else '≤'} {self.high}"
            raise ValueError(f"{owner}: {self.name} must satisfy {lo}{self.name}{hi}, got {value!r}")
        return value


CUTOFF = Param("cutoff", int, None, low=1, doc="measurement depth k: only the top k documents count")
REL = Param("rel", int, 1, low=1, doc="relevance level: a grade ≥ rel is relevant (trec_eval -l)")


@dataclass(frozen=True)
class Family:
    """A measure family: how it is named, what it takes, how it aggregates over topics."""

    name: str  # canonical (ir_measures-like) spelling
    description: str
    source: str
    cutoff: str = "none"  # "none" | "optional" | "required"
    params: tuple[Param, ...] = ()
    aggregate: str = "mean"  # "mean" | "sum" | "gmean"
    trec_name: str | None = None  # trec_eval base name (without cutoff), if any
    trec_cut_name: str | None = None  # trec_eval name of the cutoff variant (e.g. map_cut)
    aliases: tuple[str, ...] = ()
    uses_rel: bool = True  # does the relevance level matter
    higher_is_better: bool = True

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


_FAMILIES: tuple[Family, ...] = (
    Family("num_q", "number of topics evaluated", "trec_eval", aggregate="sum", trec_name="num_q", uses_rel=False),
    Family("NumRet", "documents retrieved", "trec_eval num_ret", cutoff="optional", aggregate="sum",
           trec_name="num_ret", uses_rel=False),
    Family("NumRel", "relevant documents in the qrels (R)", "trec_eval num_rel", aggregate="sum",
           trec_name="num_rel"),
    Family("NumRelRet", "relevant documents retrieved", "trec_eval num_rel_ret", cutoff="optional",
           aggregate="sum", trec_name="num_rel_ret"),
    Family("NumNonRelJudgedRet", "judged non-relevant documents retrieved", "trec_eval num_nonrel_judged_ret",
           aggregate="sum", trec_name="num_nonrel_judged_ret"),
    Family("P", "precision: relevant in the top k divided by k", "trec_eval P", cutoff="required",
           trec_name="P", aliases=("Precision",)),
    Family("AP", "average precision: mean of precision at each relevant document's rank, over R",
           "trec_eval map / map_cut", cutoff="optional", trec_name="map", trec_cut_name="map_cut",
           aliases=("MAP",)),
    Family("GMAP", "geometric mean over topics of AP (AP floored at 1e-5)", "trec_eval gm_map",
           aggregate="gmean", trec_name="gm_map"),
    Family("nDCG", "normalised discounted cumulative gain, graded gains, log2(rank+1) discount",
           "trec_eval ndcg / ndcg_cut (Järvelin & Kekäläinen)", cutoff="optional", trec_name="ndcg",
           trec_cut_name="ndcg_cut", aliases=("NDCG",)),
    Family("Rprec", "precision at rank R", "trec_eval Rprec", trec_name="Rprec", aliases=("RPrec", "R-prec")),
    Family("RR", "reciprocal rank of the first relevant document", "trec_eval recip_rank", cutoff="optional",
           trec_name="recip_rank", aliases=("MRR",)),
    Family("R", "recall: relevant retrieved in the top k divided by R", "trec_eval recall", cutoff="required",
           trec_name="recall", aliases=("Recall",)),
    Family("Success", "1 if a relevant document is in the top k", "trec_eval success", cutoff="required",
           trec_name="success"),
    Family("Bpref", "binary preference: (1/R) Σ_r (1 − min(n_r, R)/min(N, R))", "Buckley & Voorhees 2004; trec_eval bpref",
           trec_name="bpref"),
    Family("infAP", "inferred AP (Yilmaz & Aslam 2006), trec_eval m_infap.c", "trec_eval infAP",
           trec_name="infAP"),
    Family("Unj", "fraction of the top k not in the qrels (trec_eval unj_k)", "trec_eval unj", cutoff="required",
           trec_name="unj", uses_rel=False, higher_is_better=False),
    Family("Judged", "Assessment Precision A_p@k: judged documents in the top k / min(k, run length)",
           "Baillie et al. 2007 (A_p@k); ir_measures Judged@k", cutoff="required", uses_rel=False),
    Family("MAA", "Average Assessment: mean of A_p at the ranks of judged documents (MAA over topics)",
           "Baillie et al. 2007", cutoff="optional", uses_rel=False),
    Family("RecallAssessment", "judged documents retrieved / judged documents in the qrels",
           "Baillie et al. 2008 (recall of assessment)", cutoff="optional", uses_rel=False),
    Family("RankEff", "(1/R) Σ over retrieved relevant r of (1 − n_r/N); n_r judged non-relevant above r",
           "Ahlgren & Grönqvist 2006, as used by Büttcher et al. 2007"),
    Family("RBP", "rank-biased precision (1−p) Σ_i p^(i−1) g_i (Moffat & Zobel 2008); the residual is reported apart",
           "Moffat & Zobel 2008; trec_eval rbp", cutoff="optional", trec_name="rbp",
           params=(Param("p", float, 0.8, low=0.0, high=1.0, low_open=True, high_open=True,
                         doc="persistence p: probability of moving on to the next document"),)),
    Family("RBPResidual", "RBP residual: the weight of unjudged documents and of the tail beyond the run",
           "Moffat & Zobel 2008", cutoff="optional", trec_name="rbp_resid", uses_rel=False,
           higher_is_better=False,
           params=(Param("p", float, 0.8, low=0.0, high=1.0, low_open=True, high_open=True,
                         doc="persistence p"),)),
    Family("SDCG", "scaled DCG@k: binary-gain DCG@k over the DCG@k of an all-relevant ranking",
           "Ravana & Moffat 2010", cutoff="required"),
    Family("Pj", "condensed-list precision P@k(j): unjudged documents removed before ranking",
           "Sakai 2007; trec_eval -J", cutoff="required"),
    Family("APj", "condensed-list AP (AP'): unjudged documents removed before ranking", "Sakai 2007",
           cutoff="optional"),
    Family("nDCGj", "condensed-list nDCG (nDCG'): unjudged documents removed before ranking", "Sakai 2007",
           cutoff="optional"),
)

FAMILIES: dict[str, Family] = {f.name: f for f in _FAMILIES}

# trec_eval defaults: rbp uses p = 0.5 in trec_eval 10 when no parameter is given.
_TREC_DEFAULT_PARAMS = {"rbp": (("p", 0.5),), "rbp_resid": (("p", 0.5),)}


def family_names() -> list[str]:
    return list(FAMILIES)


@dataclass(frozen=True)
class Measure:
    """A fully specified measure: family, cutoff (k) and parameters."""

    family: str
    cutoff: int | None = None
    params: tuple[tuple[str, Any], ...] = ()
    rel: int = 1
    _name: str | None = field(default=None, compare=False, repr=False)

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
        """The canonical name: ``P@10``, ``AP``, ``nDCG@20``, ``RBP(p=0.8)``, ``P(rel=2)@10``."""
        inner = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self.params]
        if self.rel != 1:
            inner.append(f"rel={self.rel}")
        text = self.family + (f"({','.join(inner)})" if inner else "")
        return text + (f"@{self.cutoff}" if self.cutoff is not None else "")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Measure({self.name!r})"


def _did_you_mean(text: str) -> str:
    names = list(FAMILIES) + [a for f in _FAMILIES for a in f.aliases] + list(_TREC_NAMES)
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
    close += [n for n in names if n.lower() == text.lower() and n not in close]
    return f"; did you mean {', '.join(map(repr, close[:3]))}?" if close else ""


_TREC_NAMES: dict[str, tuple[str, bool]] = {}  # trec name → (family, takes cutoff)
for _f in _FAMILIES:
    if _f.trec_name:
        _TREC_NAMES[_f.trec_name] = (_f.name, _f.cutoff == "required")
    if _f.trec_cut_name:
        _TREC_NAMES[_f.trec_cut_name] = (_f.name, True)
_ALIASES = {a: f.name for f in _FAMILIES for a in f.aliases}
_ALIASES.update({"Judged": "Judged", "P(j)": "Pj"})

_IRM = re.compile(r"^(?P<fam>[A-Za-z_\-]+?)(?:\((?P<args>[^)]*)\))?(?:@(?P<cut>[^@]+))?$")
_PJ = re.compile(r"^P@(?P<cut>\d+)\(j\)$")


def _parse_args(args: str, owner: str) -> dict[str, str]:
    out = {}
    for part in filter(None, (a.strip() for a in args.split(","))):
        if "=" not in part:
            raise ValueError(f"{owner}: expected parameters as name=value, got {part!r}")
        key, value = (s.strip() for s in part.split("=", 1))
        out[key] = value
    return out


def _convert(param: Param, raw: str, owner: str) -> Any:
    try:
        value = param.type(float(raw)) if param.type is int and re.fullmatch(r"\d+(\.0*)?", raw) else param.type(raw)
    except ValueError:
        raise ValueError(f"{owner}: {param.name} must be {param.type.__name__}, got {raw!r}") from None
    return param.validate(value, owner)


def _build(family: Family, cutoff: Any, params: dict[str, Any], text: str) -> Measure:
    owner = f"measure {text!r}"
    rel = 1
    if "rel" in params:
        if not family.uses_rel:
            raise ValueError(f"{owner}: {family.name} does not depend on the relevance level; drop rel=")
        rel = _convert(REL, str(params.pop("rel")), owner)
    known = {p.name: p for p in family.params}
    for key in params:
        if key not in known:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{owner}: unknown parameter {key!r} for {family.name} (allowed: {allowed})")
    values = tuple((k, _convert(known[k], str(v), owner)) for k, v in params.items())
    if cutoff is not None:
        if family.cutoff == "none":
            raise ValueError(f"{owner}: {family.name} takes no cutoff (@k)")
        cutoff = _convert(CUTOFF, str(cutoff), owner)
    elif family.cutoff == "required":
        raise ValueError(f"{owner}: {family.name} needs a measurement depth, e.g. {family.name}@10")
    return Measure(family.name, cutoff, values, rel)


def parse_measure(text: "str | Measure") -> Measure:
    """Parse a measure name in the ir_measures or the trec_eval spelling.

    >>> [str(parse_measure(t)) for t in ["P_10", "map", "map_cut_100", "recip_rank", "Judged@10"]]
    ['P@10', 'AP', 'AP@100', 'RR', 'Judged@10']
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise TypeError(f"a measure name must be a string, got {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise ValueError("measure name is empty; expected e.g. 'P@10' or 'map'")
    m = _PJ.match(raw)
    if m:
        return _build(FAMILIES["Pj"], m.group("cut"), {}, raw)
    # trec_eval spelling: name, name_k, name.k
    for sep in ("_", "."):
        if sep in raw:
            base, _, tail = raw.rpartition(sep)
            if base in _TREC_NAMES and re.fullmatch(r"\d+", tail):
                fam, _ = _TREC_NAMES[base]
                params = dict(_TREC_DEFAULT_PARAMS.get(base, ()))
                return _build(FAMILIES[fam], tail, params, raw)
    if raw in _TREC_NAMES and raw not in FAMILIES:
        fam, _ = _TREC_NAMES[raw]
        return _build(FAMILIES[fam], None, dict(_TREC_DEFAULT_PARAMS.get(raw, ())), raw)
    m = _IRM.match(raw)
    if m:
        fam = m.group("fam")
        fam = _ALIASES.get(fam, fam)
        if fam in FAMILIES:
            args = _parse_args(m.group("args") or "", f"measure {raw!r}")
            return _build(FAMILIES[fam], m.group("cut"), args, raw)
    raise ValueError(f"unknown measure {raw!r}{_did_you_mean(m.group('fam') if m else raw)}")


def parse_measures(texts: "str | Measure | Iterable[str | Measure]") -> list[Measure]:
    """Parse one or several names; duplicates (same canonical measure) are kept once."""
    items = [texts] if isinstance(texts, (str, Measure)) else list(texts)
    out: list[Measure] = []
    for item in items:
        measure = parse_measure(item)
        if measure not in out:
            out.append(measure)
    if not out:
        raise ValueError("expected at least one measure, got none")
    return out
