"""What a measure is: its family's declaration (:class:`Family`), the registry that holds every
declaration (:func:`register`, :data:`FAMILIES`), and a fully specified measure
(:class:`Measure`: family, cutoff, parameters, relevance level).

A family is declared once, in one module of this package, and everything else asks it: its
names (canonical, aliases, trec_eval's), parameters, kernel, whether it has score intervals,
scenarios or a condensed form, its role in the decision matrix, how it treats unjudged
documents, its symbol in figures, its description and its source.

>>> FAMILIES["Judged"].symbol, FAMILIES["P"].interval, FAMILIES["Pj"].condensed_of
('A_p', True, 'P')
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from ..params import MEASUREMENT_DEPTH, RELEVANCE_LEVEL, Param

if TYPE_CHECKING:
    import numpy as np

    from ..kernels import Judged

__all__ = ["Param", "Family", "Measure", "FAMILIES", "register", "family_names", "trec_family", "trec_names",
           "alias_family", "did_you_mean",
           "format_value", "CUTOFF", "REL", "NONRELEVANT"]


CUTOFF = MEASUREMENT_DEPTH.renamed("cutoff", default=None, label="measurement depth k",
                                   doc="measurement depth k: only the top k documents count")
REL = RELEVANCE_LEVEL.renamed("rel", doc="relevance level: a grade ≥ rel is relevant (trec_eval -l)")
#: How most families treat a document the qrels do not judge (trec_eval's rule).
NONRELEVANT = "non-relevant (trec_eval)"


@dataclass(frozen=True)
class Family:
    """A measure family: how it is named, what it takes, how it is computed and aggregated
    over topics, and what the rest of irnb may ask of it.

    Names: ``name`` is the canonical (ir_measures-like) spelling, ``aliases`` other accepted
    spellings. ``trec_name`` is trec_eval's name without a suffix (``map``), ``trec_cut_name``
    the name of its cutoff variant (``map_cut``); ``trec_suffix`` says which parameter a
    numeric trec_eval suffix sets (``cutoff`` for ``P_10``, ``recall`` for
    ``iprec_at_recall_0.10``); ``trec_defaults`` are the parameters trec_eval uses when its
    name is given without any. ``at_param`` names a parameter written after ``@`` instead of
    a cutoff (``IPrec@0.1``).

    Computing: ``kernel(view, measure)`` returns the (S, T) per-topic values over a
    :class:`~irnb.kernels.Judged` view (already at the measure's relevance level, and
    condensed for a condensed family: :func:`irnb.kernels.compute`). ``aggregate`` is how
    topics combine (``mean``, ``sum``, ``gmean``); ``unit_range``: every per-topic value lies
    in [0, 1].

    What others ask: ``interval`` — Ravana & Moffat's score intervals [B, T] exist
    (:mod:`irnb.intervals`), for the parameter values ``interval_when`` names (RBP's
    ``gain=binary``: an unjudged document made relevant gains 1; :attr:`Measure.has_interval`);
    ``scenario(view, measure, official, top_grade)`` — optimistic and pessimistic scenarios
    instead (:mod:`irnb.measure_scenarios`): the family's (pessimistic, optimistic) (S, T)
    values from the view, its official values and the top grade of the official qrels
    (:attr:`scenarios` says whether it has one); ``condensed_of`` — the family computed on the
    condensed list (trec_eval -J) for a condensed family (:meth:`condensed_form`); ``role`` —
    ``performance`` or ``assessment`` (how much of a ranking is judged: an A of Baillie et al.'s
    decision matrix, never a P); ``average_assessment`` — the papers pair it with MAA rather
    than A_p@k (AP-like families, :func:`irnb.decision.assessment_measure`); ``unjudged`` — what
    it does with unjudged documents, in a report's caption words; ``symbol`` — the papers'
    symbol that figures print instead of the name (``A_p``).

    ``module`` — the module that declared it, set by :func:`register` (the definitions page
    groups the families by it).
    """

    name: str
    description: str
    source: str
    cutoff: str = "none"  # "none" | "optional" | "required"
    params: tuple[Param, ...] = ()
    kernel: Callable[[Judged, Measure], np.ndarray] | None = dataclasses.field(default=None, repr=False,
                                                                                compare=False)
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
    interval: bool = False
    interval_when: tuple[tuple[str, Any], ...] = ()  # parameter values the intervals need
    scenario: Callable[[Judged, Measure, np.ndarray, int], tuple[np.ndarray, np.ndarray]] | None = \
        dataclasses.field(default=None, repr=False, compare=False)
    condensed_of: str | None = None
    role: str = "performance"  # "performance" | "assessment"
    average_assessment: bool = False
    unjudged: str = NONRELEVANT
    symbol: str | None = None
    module: str | None = dataclasses.field(default=None, compare=False)

    @property
    def scenarios(self) -> bool:
        """Whether the family has optimistic and pessimistic scenarios (:mod:`irnb.measure_scenarios`)."""
        return self.scenario is not None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}; parameters: {[p.name for p in self.params]}")

    def condensed_form(self, name: str, description: str, source: str) -> Family:
        """This family on the condensed list (unjudged documents removed before ranking,
        trec_eval -J, Sakai 2007): the same parameters and kernel, no trec_eval name, no
        intervals or scenarios, written ``P@20(j)``."""
        return dataclasses.replace(self, name=name, description=description, source=source, condensed_of=self.name,
                                   trec_name=None, trec_cut_name=None, trec_defaults=(), aliases=(), interval=False,
                                   interval_when=(),
                                   scenario=None, unjudged="removed before ranking (condensed list)", symbol=None)


#: Every declared family by name, in the order the declaring modules register them.
FAMILIES: dict[str, Family] = {}
_TREC_NAMES: dict[str, tuple[str, bool]] = {}  # trec name → (family, is the cutoff variant)
_ALIASES: dict[str, str] = {}
# the words a declaration's fields may take
_FIELDS = (Param("cutoff", str, "none", choices=("none", "optional", "required"),
                 doc="whether a family takes a measurement depth k"),
           Param("aggregate", str, "mean", choices=("mean", "sum", "gmean"), doc="how a family combines topics"),
           Param("role", str, "performance", choices=("performance", "assessment"),
                 doc="performance measure P or assessment measure A (Baillie et al.)"))


def register(family: Family) -> Family:
    """Add a declared family to :data:`FAMILIES` (and its trec_eval names and aliases to the
    parser's tables); returns it, with ``module`` set to the module that calls this (the one
    that declares it), so a module can write ``P = register(Family("P", …))``.
    A name taken twice, a family without a kernel, or a word outside its field's choices is
    an error naming the family."""
    caller = inspect.currentframe().f_back
    family = dataclasses.replace(family, module=caller.f_globals.get("__name__") if caller else None)
    owner = f"measure family {family.name!r}"
    if family.kernel is None:
        raise ValueError(f"{owner} declares no kernel(view, measure)")
    for field in _FIELDS:
        field.validate(getattr(family, field.name), owner)
    if family.condensed_of is not None and family.condensed_of not in FAMILIES:
        raise ValueError(f"{owner} is the condensed form of {family.condensed_of!r}, which is not declared (yet)")
    names = [family.name, *family.aliases, *filter(None, (family.trec_name, family.trec_cut_name))]
    taken = [n for n in names if n in FAMILIES or n in _ALIASES or n in _TREC_NAMES]
    if taken:
        raise ValueError(f"{owner}: the name {taken[0]!r} is already taken")
    FAMILIES[family.name] = family
    _ALIASES.update((a, family.name) for a in family.aliases)
    if family.trec_name:
        _TREC_NAMES[family.trec_name] = (family.name, False)
    if family.trec_cut_name:
        _TREC_NAMES[family.trec_cut_name] = (family.name, True)
    return family


def family_names() -> list[str]:
    return list(FAMILIES)


def trec_family(name: str) -> tuple[str, bool] | None:
    """The family a trec_eval measure name means, and whether it is its cutoff variant:
    ``map`` → ``("AP", False)``, ``map_cut`` → ``("AP", True)``; None for any other text."""
    return _TREC_NAMES.get(name)


def trec_names() -> list[str]:
    """Every trec_eval name a family declares, longest first (a parser tries ``map_cut``
    before ``map``)."""
    return sorted(_TREC_NAMES, key=len, reverse=True)


def alias_family(name: str) -> str | None:
    """The family an alias names (``MAP`` → ``AP``), None for any other text."""
    return _ALIASES.get(name)


def did_you_mean(text: str) -> str:
    """The did-you-mean tail of an unknown-name error, from every declared spelling."""
    if text in _TREC_NAMES:  # a trec_eval name written with @k or (…): suggest the family
        return f"; did you mean {_TREC_NAMES[text][0]!r}? (trec_eval names take no @ or parameters)"
    names = [n for n, f in FAMILIES.items() if f.condensed_of is None] + list(_ALIASES) + list(_TREC_NAMES)
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
    close += [n for n in names if n.lower() == text.lower() and n not in close]
    return f"; did you mean {', '.join(map(repr, close[:3]))}?" if close else ""


def format_value(value: Any) -> str:
    """Shortest text that parses back to the same value: 0.8 → '0.8', 1.0 → '1', level:gain
    pairs ((1, 3.0), (2, 9.0)) → '1:3,2:9'."""
    if isinstance(value, tuple):
        return ",".join(f"{level}:{format_value(gain)}" for level, gain in value)
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
            raise ValueError(f"unknown measure family {self.family!r}{did_you_mean(self.family)}")
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
            why = ", ".join(f"{k}={format_value(v)}" for k, v in spec.rel_unused_when if self.param(k) == v)
            raise ValueError(f"{owner} with {why} does not depend on the relevance level; drop rel=")

    @property
    def uses_rel(self) -> bool:
        """Whether the relevance level changes this measure's values: not for graded-gain
        measures (nDCG, G) nor for RBP with gain=graded, whose gains are the grades."""
        spec = self.spec
        return spec.uses_rel and not any(self.param(k) == v for k, v in spec.rel_unused_when)

    @property
    def has_interval(self) -> bool:
        """Whether this measure has score intervals: its family's, with the parameter values
        they need (``RBP(p=0.8)`` has, ``RBP(p=0.8,gain=graded)`` has not)."""
        spec = self.spec
        return spec.interval and all(self.param(k) == v for k, v in spec.interval_when)

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
        ``IPrec@0.1``, ``P@20(j)``, ``nDCG(gains=1:3,2:9)@10``. A parameter that is not a number
        is written only where it differs from its default."""
        spec = self.spec
        inner = []
        for p, (key, value) in zip(spec.params, self.params, strict=True):
            if key == spec.at_param or (p.type not in (int, float) and value == p.default):
                continue
            inner.append(f"{key}={format_value(value)}")
        if self.rel != 1:
            inner.append(f"rel={self.rel}")
        base = spec.condensed_of or self.family
        text = base + (f"({','.join(inner)})" if inner else "")
        if spec.at_param is not None:
            text += f"@{format_value(self.param(spec.at_param))}"
        elif self.cutoff is not None:
            text += f"@{self.cutoff}"
        return text + ("(j)" if spec.condensed_of else "")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Measure({self.name!r})"
