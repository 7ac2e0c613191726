"""The reproductions' registry and result types: what a reproduction returns
(:class:`Reproduction`, :class:`Headline`), what it is given (:class:`Source`) and the
:func:`register` decorator by which each paper module declares its reproductions.
:mod:`irnb.papers` lists and runs them; the paper modules import only this module."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..experiment import Experiment
from ..params import HOLDS
from ..pooling import judged_depth

FLOAT_FORMAT = "{:.4g}".format  # how tables print: four significant digits


class ReproductionNeeds(ValueError):
    """The data given lacks what a reproduction needs (manual runs, groups, truth, texts)."""


VERDICTS = ("agrees", "partly", "differs", "depends on the reading", "n/a")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper's headline, tested on the data by a stated rule.

    ``paper``: the paper's statement with its number; ``irnb``: the same quantity on the
    data (text); ``rule``: how the data is judged, in words, with its margin or test (the
    same on every data set); ``holds``: True, False, or None when the data cannot test it
    (``reason`` then says why). ``readings``: where a definitional choice could flip the
    claim (e.g. the three readings of A_p@k), whether it holds under each reading, by name;
    ``holds`` is then the value under irnb's default reading.

    >>> Claim("case 3 falls: .17 → .05", ".10 → .01", "falls by ≥ 0.05 of the pairs", True).holds
    True
    >>> Claim("τ < 0.9", "n/a", "τ below 0.9", None, reason="one run only").outcome
    'untested: one run only'
    """

    paper: str
    irnb: str
    rule: str
    holds: bool | None
    reason: str = ""
    readings: Mapping[str, bool | None] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "holds", HOLDS.validate(self.holds, None))
        if self.holds is None and not self.reason:
            raise ValueError(f"a claim the data cannot test needs a reason (claim: {self.paper!r})")
        readings = {str(k): (None if v is None else bool(v)) for k, v in dict(self.readings).items()}
        object.__setattr__(self, "readings", MappingProxyType(readings))

    @property
    def depends(self) -> bool:
        """The claim holds under one reading and fails under another."""
        values = {v for v in self.readings.values() if v is not None}
        return len(values) == 2

    @property
    def outcome(self) -> str:
        """``holds``, ``fails``, ``depends on the reading (…)`` or ``untested: <reason>``."""
        if self.depends:
            split = ", ".join(f"{name}: {'holds' if v else 'fails'}" for name, v in self.readings.items()
                              if v is not None)
            return f"depends on the reading ({split})"
        if self.holds is None:
            return f"untested: {self.reason}"
        return "holds" if self.holds else "fails"


@dataclass(frozen=True)
class Headline:
    """A reproduction's verdict: the paper's headline as a list of :class:`Claim`.

    ``paper``: the headline in the paper's words with its numbers; ``claims``: each part of
    it tested separately. :attr:`verdict` is ``agrees`` (every claim holds), ``partly``
    (some hold, some fail or cannot be tested: :meth:`summary` says which), ``differs``
    (every testable claim fails), ``depends on the reading`` (a definitional choice flips a
    claim) or ``n/a`` (no claim can be tested).

    >>> h = Headline("case 3 falls, weak rises", [
    ...     Claim("case 3 falls .17 → .05", ".10 → .01", "falls by ≥ .05", True),
    ...     Claim("weak rises .15 → .49", ".43 → .43", "rises by ≥ .05", False)])
    >>> h.verdict
    'partly'
    >>> h.summary()
    'partly — holds: case 3 falls .17 → .05; fails: weak rises .15 → .49'
    """

    paper: str
    claims: Sequence[Claim]

    def __post_init__(self):
        claims = tuple(self.claims)
        if not claims or not all(isinstance(c, Claim) for c in claims):
            raise TypeError("Headline.claims must be a non-empty sequence of irnb.papers.Claim")
        object.__setattr__(self, "claims", claims)

    @property
    def verdict(self) -> str:
        """One of :data:`VERDICTS`."""
        if any(c.depends for c in self.claims):
            return "depends on the reading"
        tested = [c.holds for c in self.claims if c.holds is not None]
        if not tested:
            return "n/a"
        if len(tested) == len(self.claims) and all(tested):
            return "agrees"
        return "partly" if any(tested) else "differs"

    @property
    def irnb(self) -> str:
        """irnb's numbers, claim by claim."""
        return "; ".join(c.irnb for c in self.claims)

    @property
    def agrees(self) -> bool | None:
        """True when the verdict is ``agrees``, False when ``differs``, else None."""
        return {"agrees": True, "differs": False}.get(self.verdict)

    def summary(self) -> str:
        """The verdict and, unless every claim says the same, which claims hold and which not."""
        verdict = self.verdict
        if verdict in ("agrees", "differs") and all(c.holds is not None for c in self.claims):
            return verdict
        groups: dict[str, list[str]] = {}
        for c in self.claims:
            key = ("depends on the reading" if c.depends else "untested" if c.holds is None
                   else "holds" if c.holds else "fails")
            groups.setdefault(key, []).append(c.paper)
        return f"{verdict} — " + "; ".join(f"{k}: {', '.join(v)}" for k, v in groups.items())

    def table(self) -> pd.DataFrame:
        """One row per claim: paper, irnb, rule, outcome."""
        return pd.DataFrame([{"claim (paper)": c.paper, "irnb": c.irnb, "rule": c.rule, "outcome": c.outcome}
                             for c in self.claims])

    def lines(self) -> list[str]:
        """The claims as plain-text lines (for the CLI and ``str(reproduction)``)."""
        out = [f"headline (paper): {self.paper}", f"verdict: {self.summary()}"]
        for i, c in enumerate(self.claims, 1):
            out += [f"  claim {i}: {c.paper}", f"    irnb:    {c.irnb}", f"    rule:    {c.rule}",
                    f"    outcome: {c.outcome}"]
        return out


@dataclass(frozen=True)
class Reproduction:
    """One reproduced table or figure.

    ``table``: the reproduced numbers (tidy or wide, as the paper lays them out);
    ``paper``: the paper's printed numbers in the same layout, or None where the paper
    prints none; ``notes``: the setting, what differs from the paper's and what agrees
    (computed sentences); ``figure(ax=None)`` draws it (figures only; tables raise).
    ``headline``: the paper's headline as claims tested on the data (:class:`Headline`),
    where the reproduction defines one;
    ``details``: further frames the figure is drawn from (e.g. per-depth confidence intervals), by name.
    ``pool_depth``: the data's pool depth d and how it was found (:func:`pool_depth_rule`, or
    the depth given as an option); :func:`irnb.reproduce` fills it.
    """

    id: str
    title: str
    source: str  # the paper and the place in it: "Baillie et al. 2007, Table 1"
    table: pd.DataFrame
    paper: pd.DataFrame | None
    notes: str
    data: str  # which data it was run on: "embedded default (seed 0)", "TREC-COVID round 1", …
    draw: Callable[..., Any] | None = field(default=None, repr=False)
    headline: Headline | None = None
    details: Mapping[str, pd.DataFrame] = field(default_factory=dict, repr=False)
    pool_depth: PoolDepth | None = None

    def __post_init__(self):
        if self.headline is not None and not isinstance(self.headline, Headline):
            raise TypeError(f"{self.id}: headline must be an irnb.papers.Headline or None, "
                            f"got {type(self.headline).__name__}")
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def figure(self, ax=None):
        """Draw the reproduction (matplotlib, imported here); returns what was drawn."""
        if self.draw is None:
            raise ValueError(f"{self.id} is a table; it has no figure (use .table)")
        return self.draw(self, ax=ax)

    def __str__(self) -> str:
        lines = [f"{self.id}: {self.title}", f"source: {self.source}", f"data: {self.data}"]
        if self.pool_depth is not None:
            lines.append(str(self.pool_depth))
        lines += ["", self.table.to_string(float_format=FLOAT_FORMAT)]
        if self.paper is not None:
            lines += ["", "paper:", self.paper.to_string(float_format=FLOAT_FORMAT)]
        if self.headline is not None:
            lines += ["", *self.headline.lines()]
        if self.notes:
            lines += ["", self.notes]
        return "\n".join(lines)


@dataclass(frozen=True)
class Source:
    """What a reproduction runs on: the experiment, and what else is known about it.

    ``collection`` is the simulated :class:`~irnb.datasets.Collection` when the data is the
    embedded default (truth, manual runs, document texts known); ``manual`` names the manual
    runs where the user says which they are; ``label`` names the data in notes and tables.
    """

    experiment: Experiment
    label: str
    collection: Any = None
    manual: tuple[str, ...] | None = None

    @property
    def truth(self):
        return self.experiment.truth

    @property
    def pool_depth(self) -> int | None:
        """The pool depth d by :func:`pool_depth_rule` (None when the data gives none)."""
        return self.pool_depth_rule.depth

    @property
    def pool_depth_rule(self) -> PoolDepth:
        """The pool depth d with how it was found and a warning when the data cannot tell
        (:func:`pool_depth_rule`, the one rule every reproduction uses)."""
        return pool_depth_rule(self.experiment, collection=self.collection)

    def describe(self) -> str:
        """One sentence: runs, contributors, groups, topics, pool depth.

        E.g. ``"40 runs (12 contributing, 12 groups), 50 topics, pool depth 100 (the simulated collection's)"``."""
        exp = self.experiment
        runs, contributing = len(exp.run_names), int(np.count_nonzero(exp.contributors))
        groups = len(set(exp.groups))
        parts = [f"{contributing} contributing" if 0 < contributing < runs else
                 "all contributing" if contributing else "none marked as contributing"]
        if groups < runs:
            parts.append(f"{groups} groups")
        return f"{runs} runs ({', '.join(parts)}), {len(exp.topics)} topics, {self.pool_depth_rule}"

    def require(self, what: str, id: str) -> None:
        """Raise :class:`ReproductionNeeds` naming what ``id`` needs when the data lacks it.

        ``what`` is one of ``groups`` (runs in more than one group, some group with several
        runs), ``manual`` (which runs are manual), ``truth`` (complete judgments),
        ``texts`` (document texts), ``contributors`` (some run did not contribute),
        ``pairs`` (at least two runs).
        """
        self.require_all((what,), id)

    def require_all(self, needs: Sequence[str], id: str) -> None:
        """:meth:`require` for several needs at once: one :class:`ReproductionNeeds` naming
        every one the data lacks (e.g. manual runs *and* document texts), not only the first."""
        exp = self.experiment
        lacking = {
            "groups": lambda: len(set(exp.groups)) in (1, len(exp.groups)),
            "manual": lambda: not self.manual,
            "truth": lambda: exp.truth is None,
            "texts": lambda: self.collection is None,
            "contributors": lambda: bool(exp.contributors.all()),
            "pairs": lambda: len(exp.run_names) < 2,
        }
        unknown = [what for what in needs if what not in lacking]
        if unknown:
            raise ValueError(f"unknown requirement {unknown[0]!r}; one of {sorted(lacking)}")
        missing = [what for what in needs if lacking[what]()]
        if not missing:
            return
        hints = {
            "groups": "run groups (several runs per group; --groups TSV on the command line)",
            "manual": "which runs are manual (manual=[...]; --manual RUN... on the command line)",
            "truth": "complete judgments to compare with (truth qrels; --truth FILE on the command line)",
            "texts": "document texts (only the embedded default carries them)",
            "contributors": "runs that did not contribute to the pool (contributors=...; --contributors)",
            "pairs": "at least two runs (it compares pairs of runs)",
        }
        if missing == ["pairs"]:
            has = f"{len(exp.run_names)} run"
        else:
            has = "none" if len(missing) == 1 else "none of these"
        raise ReproductionNeeds(f"{id} needs {' and '.join(hints[m] for m in missing)}; {self.label} has {has}")


#: The share of the contributing runs that must be exceeded by those judged to depth d on every
#: topic for the data to show a pool of depth d: more than half, so that a few contributors whose
#: top d holds a document the assessors skipped (TREC-COVID round 1: 4 of its 56) do not lower
#: the depth every other contributor shows, and one run cannot raise it.
POOL_DEPTH_QUORUM = 0.5
#: Below this depth the qrels cannot tell a pool from scattered judgments: a pool of depth 1
#: judges one document per run and topic, which any qrels of the runs' top documents shows too.
POOL_DEPTH_TELLS = 2


@dataclass(frozen=True)
class PoolDepth:
    """A data set's pool depth d: ``depth`` (None when the data gives none), ``basis`` (how
    it was found, in words) and ``warning`` (non-empty when the data cannot tell).

    >>> str(PoolDepth(7, "inferred: 52 of the 56 contributing runs judged to that depth"))
    'pool depth 7 (inferred: 52 of the 56 contributing runs judged to that depth)'
    """

    depth: int | None
    basis: str
    warning: str = ""

    def __str__(self) -> str:
        return f"pool depth {'unknown' if self.depth is None else self.depth} ({self.basis})"

    @property
    def used(self) -> int:
        """The depth a reproduction uses: ``depth``, or 1 when the data gives none (with the warning)."""
        return max(1, self.depth or 0)


def deepest_depth_of_most(judged_depths, *, quorum: float = POOL_DEPTH_QUORUM) -> int:
    """The deepest d to which more than ``quorum`` of the runs are judged on every topic,
    given each run's judged depth (:func:`irnb.pooling.judged_depth`); 0 for no runs.

    >>> deepest_depth_of_most([7, 7, 7, 5])        # 3 of 4 judged to 7
    7
    >>> deepest_depth_of_most([7, 5, 5, 0])        # 3 of 4 judged to 5, only 1 of 4 to 7
    5
    >>> deepest_depth_of_most([3, 2])              # 1 of 2 is not more than half: 2
    2
    >>> deepest_depth_of_most([7, 7, 7, 5], quorum=0.75)   # more than 3 of 4: every run
    5
    """
    if not 0.0 <= quorum < 1.0:
        raise ValueError(f"quorum must be in [0, 1), got {quorum!r}")
    depths = np.sort(np.asarray(judged_depths, dtype=np.int64))[::-1]
    if depths.size == 0:
        return 0
    return int(depths[int(np.floor(quorum * depths.size))])


def pool_depth_rule(experiment: Experiment, *, collection=None) -> PoolDepth:
    """The one rule for a data set's pool depth d, used by every reproduction.

    1. A simulated collection (``collection`` with a ``pool_depth`` parameter): its own.
    2. Otherwise inferred from the qrels: the deepest d to which more than half
       (:data:`POOL_DEPTH_QUORUM`) of the contributing runs are judged on every topic they
       answer (:func:`irnb.pooling.judged_depth`; a run shorter than d counts as judged to d
       when all of its documents are). When no run is marked as contributing, every run
       counts (irnb's fallback: d must be known before Büttcher et al.'s rule — the runs whose
       top d the qrels cover on every topic are the pool's — can pick the contributors).

    ``warning`` says when the data cannot tell: no run marked as contributing, or an inferred
    depth below :data:`POOL_DEPTH_TELLS` (no more than half the contributors judged to depth 2,
    e.g. when every run counts as a contributor but only some were pooled). ``depth`` is None
    when the inferred depth is 0.
    """
    if collection is not None and "pool_depth" in getattr(collection, "params", {}):
        return PoolDepth(int(collection.params["pool_depth"]), "the simulated collection's")
    marked = np.asarray(experiment.contributors, dtype=bool)
    runs = marked if marked.any() else np.ones(len(experiment.run_names), dtype=bool)
    judged = judged_depth(experiment)[runs]
    d = deepest_depth_of_most(judged)
    n, at = int(runs.sum()), int(np.count_nonzero(judged >= max(d, 1)))
    who = "contributing runs" if marked.any() else "runs (none is marked as contributing)"
    to = "that depth" if d else "depth 1"
    basis = (f"inferred: {at} of the {n} {who} are judged to {to} on every topic"
             + (f", the shallowest to {int(judged.min())}" if judged.size and judged.min() < d else ""))
    reasons = []
    if not marked.any():
        reasons.append("no run is marked as contributing to the pool")
    if d < POOL_DEPTH_TELLS:
        reasons.append(f"no more than half of the {n} {'contributing ' if marked.any() else ''}runs are judged to "
                       f"depth {POOL_DEPTH_TELLS} on every topic")
    warning = (f"the data cannot tell the pool depth: {'; '.join(reasons)}; using {max(d, 1)} (say which runs were "
               "pooled: contributors=... in Python, --contributors on the command line)" if reasons else "")
    if d < POOL_DEPTH_TELLS:
        basis = f"{basis}; the data cannot tell"
    return PoolDepth(d or None, basis, warning)


@dataclass(frozen=True)
class ReproductionSpec:
    id: str
    title: str
    source: str
    run: Callable[..., Reproduction]
    needs: tuple[str, ...]


#: Every declared reproduction by id, in declaration order (filled by :func:`register`).
REGISTRY: dict[str, ReproductionSpec] = {}


def register(id: str, title: str, source: str, *, needs: Sequence[str] = ()):
    """Declare a reproduction: ``fn(source: Source, **options) -> Reproduction``."""

    def decorate(fn):
        if id in REGISTRY:
            raise ValueError(f"reproduction {id!r} declared twice")
        REGISTRY[id] = ReproductionSpec(id, title, source, fn, tuple(needs))
        return fn

    return decorate
