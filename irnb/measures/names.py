"""The one parser of measure names, in either spelling:

* ir_measures: ``P@10``, ``AP``, ``AP@100``, ``nDCG@20``, ``RR``, ``R@100``, ``Rprec``,
  ``Bpref``, ``Bpref10``, ``infAP``, ``RBP(p=0.8)``, ``Judged@10``, ``JudgedRet@10``,
  ``NotUnj@10``, ``MAA``, ``MAAR``, ``P(rel=2)@10``, ``IPrec@0.1``,
  ``SetF(beta=1)``, ``nDCG(gains=1:3,2:9)@10`` (a gain per grade level), and the
  condensed-list forms ``P@20(j)``, ``AP(j)``, ``nDCG@20(j)``;
* trec_eval: ``P_10`` (or ``P.10``), ``map``, ``map_cut_100``, ``ndcg``, ``ndcg_cut_20``,
  ``recip_rank``, ``recall_100``, ``Rprec``, ``bpref``, ``infAP``, ``num_ret``, ``unj_10``,
  ``success_5``, ``rbp``, ``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``11pt_avg`` …
  A trec_eval name means what trec_eval computes: ``rbp`` is graded RBP with p = 0.9 and
  ``rbp_resid`` trec_eval's residual rule (see the RBP families); a list name (``P``,
  ``ndcg_cut``, ``P.5,10``) is its list (:data:`TREC_DEFAULT_CUTOFFS`), which
  :func:`parse_measures` expands and :func:`parse_measure` refuses; a cutoff on a trec_eval
  measure that takes none (``map.5``, ``ndcg_5``) is refused, naming ``map_cut_5``.

The names come from the declarations (:data:`irnb.measures.FAMILIES`): a family's name, its
aliases and its trec_eval names. Canonical names (``str(measure)``) list every numeric
parameter and the choice parameters that differ from their default, in declared order, so
that ``parse_measure(str(m)) == m``: ``RBP(p=0.8)``, ``RBP(p=0.9,gain=graded)``,
``P(rel=2)@10``, ``P@20(j)``.

Unknown names get a did-you-mean. Names are never matched by substring.

>>> parse_measure("ndcg_cut_20")
Measure('nDCG@20')
>>> parse_measure("RBP(p=0.8)").params
(('p', 0.8), ('gain', 'binary'))
>>> str(parse_measure("rbp"))
'RBP(p=0.9,gain=graded)'
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Iterable

from .base import (CUTOFF, FAMILIES, REL, Family, Measure, alias_family, did_you_mean, format_value, trec_family,
                   trec_names)

__all__ = ["TREC_DEFAULT_CUTOFFS", "parse_measure", "parse_measures"]

_IRM = re.compile(r"^(?P<fam>[A-Za-z][A-Za-z0-9_\-]*?)(?:\((?P<args>[^)]*)\))?(?:@(?P<cut>[^@()]+))?$")
_CONDENSED_RE = re.compile(r"^(?P<fam>[A-Za-z][A-Za-z0-9_\-]*?)(?:\((?P<args>[^)]*)\))?(?:@(?P<cut>[^@()]+))?\(j\)$")
_NUMBER = re.compile(r"^(?:\d+(?:\.\d*)?|\.\d+)$")


def _parse_args(args: str, owner: str) -> dict[str, str]:
    """``name=value,…`` as a dict of texts; a part without ``=`` continues the value before
    it, a list (``gains=1:3,2:9``), which its parameter reads."""
    out: dict[str, str] = {}
    for part in filter(None, (a.strip() for a in args.split(","))):
        if "=" not in part and out:
            key = list(out)[-1]
            out[key] += "," + part
            continue
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
    values = {k: known[k].convert(v, owner) if isinstance(v, str) else known[k].validate(v, owner)
              for k, v in params.items()}
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
            raise ValueError(f"{owner}: {family.name} with {key}={format_value(value)} does not depend on the "
                             "relevance level; drop rel=")
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
        return [f"{raw}_{format_value(float(c)) if isinstance(c, float) else c}" for c in TREC_DEFAULT_CUTOFFS[raw]]
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
    named = trec_family(raw)
    if named is not None:
        family = FAMILIES[named[0]]
        return _build(family, None, dict(family.trec_defaults), raw)
    for base in trec_names():
        if len(raw) > len(base) + 1 and raw.startswith(base) and raw[len(base)] in "_.":
            tail = raw[len(base) + 1:]
            if not _NUMBER.match(tail):
                continue
            family = FAMILIES[trec_family(base)[0]]
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
    condensed = [f for f in FAMILIES.values() if f.condensed_of == m.group("fam")] if m else []
    if condensed:  # P@20(j): the condensed form of the family named before "(j)"
        return _build(condensed[0], m.group("cut"), _parse_args(m.group("args") or "", f"measure {raw!r}"), raw)
    trec = _parse_trec(raw)
    if trec is not None:
        return trec
    m = _IRM.match(raw)
    if m:
        fam = alias_family(m.group("fam")) or m.group("fam")
        if fam in FAMILIES:
            args = _parse_args(m.group("args") or "", f"measure {raw!r}")
            return _build(FAMILIES[fam], m.group("cut"), args, raw)
    guess = m.group("fam") if m else re.split(r"[@(]", raw)[0]
    raise ValueError(f"unknown measure {raw!r}{did_you_mean(guess)}")


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
