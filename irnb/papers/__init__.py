"""Reproductions of the seed papers' tables and figures, live, on any data.

Every table and figure of the five papers the kit teaches has an id named after the
paper's own numbering (``baillie2007-table1``, ``ravana2010-fig2``, …).
:func:`reproduce` runs it on the embedded default collection or on the caller's data and
returns a :class:`Reproduction`: the reproduced numbers (``.table``), the paper's printed
numbers (``.paper``, where the paper prints them), a figure (``.figure()``) and notes
saying what differs from the paper's setting and what agrees.

>>> import irnb
>>> "baillie2007-table1" in irnb.reproduction_ids()
True

Each paper's reproductions live in a module of their own (``baillie``, ``buttcher``,
``ravana``, ``thesis``) and are declared there with :func:`register`.
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..experiment import Experiment

__all__ = [
    "Headline",
    "Reproduction",
    "Source",
    "ReproductionNeeds",
    "register",
    "reproduce",
    "reproduction_ids",
    "reproductions",
    "read_groups",
]


_FLOAT = "{:.4g}".format  # how tables print: four significant digits


class ReproductionNeeds(ValueError):
    """The data given lacks what a reproduction needs (manual runs, groups, truth, texts)."""


@dataclass(frozen=True)
class Headline:
    """A reproduction's one-line verdict, for the README's reproduction table.

    ``paper``: the paper's headline finding with its numbers; ``irnb``: the same quantity
    computed on the data (text); ``agrees``: whether the data shows the paper's finding by
    the rule the reproduction states in its notes (None: the data cannot say).

    >>> Headline("case 3 falls: .17 → .00", "case 3 falls: .09 → .00", True).verdict
    'agrees'
    """

    paper: str
    irnb: str
    agrees: bool | None

    def __post_init__(self):
        if self.agrees is not None and not isinstance(self.agrees, (bool, np.bool_)):
            raise TypeError(f"Headline.agrees must be True, False or None, got {self.agrees!r}")
        object.__setattr__(self, "agrees", None if self.agrees is None else bool(self.agrees))

    @property
    def verdict(self) -> str:
        """``agrees``, ``differs`` or ``n/a``."""
        return {True: "agrees", False: "differs", None: "n/a"}[self.agrees]


@dataclass(frozen=True)
class Reproduction:
    """One reproduced table or figure.

    ``table``: the reproduced numbers (tidy or wide, as the paper lays them out);
    ``paper``: the paper's printed numbers in the same layout, or None where the paper
    prints none; ``notes``: the setting, what differs from the paper's and what agrees
    (computed sentences); ``figure(ax=None)`` draws it (figures only; tables raise).
    ``headline``: the paper's headline against irnb's number (:class:`Headline`, or a
    ``(paper, irnb, agrees)`` tuple turned into one), where the reproduction defines one;
    ``details``: further frames the figure is drawn from (e.g. per-depth confidence intervals), by name.
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

    def __post_init__(self):
        headline = self.headline
        if isinstance(headline, (tuple, list)) and len(headline) == 3:  # (paper, irnb, agrees)
            object.__setattr__(self, "headline", Headline(*headline))
        elif headline is not None and not isinstance(headline, Headline):
            raise TypeError(f"{self.id}: headline must be an irnb.papers.Headline, a (paper, irnb, agrees) "
                            f"tuple or None, got {type(headline).__name__}")
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def figure(self, ax=None):
        """Draw the reproduction (matplotlib, imported here); returns what was drawn."""
        if self.draw is None:
            raise ValueError(f"{self.id} is a table; it has no figure (use .table)")
        return self.draw(self, ax=ax)

    def __str__(self) -> str:
        lines = [f"{self.id}: {self.title}", f"source: {self.source}", f"data: {self.data}", "",
                 self.table.to_string(float_format=_FLOAT)]
        if self.paper is not None:
            lines += ["", "paper:", self.paper.to_string(float_format=_FLOAT)]
        if self.headline is not None:
            lines += ["", f"headline (paper): {self.headline.paper}",
                      f"headline (irnb):  {self.headline.irnb} — {self.headline.verdict}"]
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
        """The pool depth d: the simulator's own for the embedded default; otherwise
        inferred as the deepest d to which every contributing run's top d is judged on
        every topic (None when that is 0, e.g. when every run counts as a contributor but
        only some were pooled). A run shorter than d counts as judged to d when all of its
        documents are judged."""
        if self.collection is not None and "pool_depth" in self.collection.params:
            return int(self.collection.params["pool_depth"])
        return _inferred_pool_depth(self.experiment)

    def describe(self) -> str:
        """One sentence: runs, contributors, groups, topics, pool depth.

        E.g. ``"40 runs (12 contributing, 12 groups), 50 topics, pool depth 100"``."""
        exp = self.experiment
        runs, contributing = len(exp.run_names), int(np.count_nonzero(exp.contributors))
        groups = len(set(exp.groups))
        parts = [f"{contributing} contributing" if 0 < contributing < runs else
                 "all contributing" if contributing else "none marked as contributing"]
        if groups < runs:
            parts.append(f"{groups} groups")
        depth = self.pool_depth
        if depth is None:
            pool = "pool depth unknown"
        elif self.collection is not None and "pool_depth" in self.collection.params:
            pool = f"pool depth {depth}"
        else:
            pool = f"pool depth {depth} (inferred: contributors judged to that depth)"
        return f"{runs} runs ({', '.join(parts)}), {len(exp.topics)} topics, {pool}"

    def require(self, what: str, id: str) -> None:
        """Raise :class:`ReproductionNeeds` naming what ``id`` needs when the data lacks it.

        ``what`` is one of ``groups`` (runs in more than one group, some group with several
        runs), ``manual`` (which runs are manual), ``truth`` (complete judgments),
        ``texts`` (document texts), ``contributors`` (some run did not contribute),
        ``pairs`` (at least two runs).
        """
        exp = self.experiment
        lacking = {
            "groups": lambda: len(set(exp.groups)) in (1, len(exp.groups)),
            "manual": lambda: not self.manual,
            "truth": lambda: exp.truth is None,
            "texts": lambda: self.collection is None,
            "contributors": lambda: bool(exp.contributors.all()),
            "pairs": lambda: len(exp.run_names) < 2,
        }
        if what not in lacking:
            raise ValueError(f"unknown requirement {what!r}; one of {sorted(lacking)}")
        if lacking[what]():
            hint = {
                "groups": "run groups (several runs per group; --groups TSV on the command line)",
                "manual": "which runs are manual (manual=[...]; --manual RUN... on the command line)",
                "truth": "complete judgments to compare with (truth qrels; --truth FILE on the command line)",
                "texts": "document texts (only the embedded default carries them)",
                "contributors": "runs that did not contribute to the pool (contributors=...; --contributors)",
                "pairs": "at least two runs (it compares pairs of runs)",
            }[what]
            has = f"{len(exp.run_names)} run" if what == "pairs" else "none"
            raise ReproductionNeeds(f"{id} needs {hint}; {self.label} has {has}")


def _inferred_pool_depth(experiment: Experiment) -> int | None:
    """The shallowest depth to which a contributing run is judged on every topic
    (:func:`irnb.papers._common.judged_depth`, the rule the Büttcher and Ravana
    reproductions use too), or None when no run contributes or it is 0."""
    from ._common import judged_depth

    idx = np.flatnonzero(experiment.contributors)
    if idx.size == 0:
        return None
    return int(judged_depth(experiment)[idx].min()) or None


@dataclass(frozen=True)
class _Spec:
    id: str
    title: str
    source: str
    run: Callable[..., Reproduction]
    needs: tuple[str, ...]


_REGISTRY: dict[str, _Spec] = {}


def register(id: str, title: str, source: str, *, needs: Sequence[str] = ()):
    """Declare a reproduction: ``fn(source: Source, **options) -> Reproduction``."""

    def decorate(fn):
        if id in _REGISTRY:
            raise ValueError(f"reproduction {id!r} declared twice")
        _REGISTRY[id] = _Spec(id, title, source, fn, tuple(needs))
        return fn

    return decorate


def _load() -> None:
    from . import baillie, buttcher, ravana, thesis  # noqa: F401  (they register on import)


def reproduction_ids() -> list[str]:
    """Every reproduction id, in the papers' order."""
    _load()
    return list(_REGISTRY)


def _options(spec: _Spec) -> dict[str, Any]:
    """The reproduction's own keyword options and their defaults."""
    params = inspect.signature(spec.run).parameters.values()
    return {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def reproductions() -> pd.DataFrame:
    """One row per reproduction: ``id, title, source, needs, options`` (its keyword
    options with their defaults, e.g. ``test='anova', alpha=0.05``)."""
    _load()
    return pd.DataFrame(
        [(s.id, s.title, s.source, ", ".join(s.needs),
          ", ".join(f"{k}={v!r}" for k, v in _options(s).items())) for s in _REGISTRY.values()],
        columns=["id", "title", "source", "needs", "options"],
    )


def _source(experiment, *, manual=None, label=None) -> Source:
    if experiment is None:
        from ..datasets import default

        collection = default()
        experiment = collection
    if isinstance(experiment, Experiment):
        return Source(experiment, label or "your data", manual=None if manual is None else tuple(manual))
    from ..datasets import Collection

    if isinstance(experiment, Collection):
        info = experiment.run_info
        man = tuple(info.loc[info["manual"], "run"]) if manual is None else tuple(manual)
        seed = experiment.params.get("seed")
        return Source(experiment.experiment, label or f"embedded default (seed {seed})",
                      collection=experiment, manual=man)
    raise TypeError(f"experiment must be None (the embedded default), an irnb.Experiment or a "
                    f"irnb.datasets.Collection, got {type(experiment).__name__}")


def reproduce(id: str, experiment=None, *, manual: Sequence[str] | None = None, label: str | None = None,
              **options) -> Reproduction:
    """Reproduce the table or figure ``id`` on ``experiment`` (default: the embedded default).

    ``manual`` names the manual runs (the default collection knows its own); ``label`` names
    the data in the output. Other keyword options are the reproduction's own (see
    :func:`reproductions`). Raises :class:`ReproductionNeeds` (a ValueError) naming what the
    data lacks, e.g. groups for leave-one-group-out.
    """
    _load()
    if id not in _REGISTRY:
        close = difflib.get_close_matches(id, list(_REGISTRY), n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"unknown reproduction id {id!r}{hint} (irnb.reproduction_ids() lists them)")
    spec = _REGISTRY[id]
    allowed = _options(spec)
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(spec.run).parameters.values())
    unknown = [name for name in options if name not in allowed]
    if unknown and not takes_any:
        close = difflib.get_close_matches(unknown[0], list(allowed), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise TypeError(f"{id}: unknown option {unknown[0]!r}{hint} (its options: "
                        f"{', '.join(allowed) or 'none'})")
    source = _source(experiment, manual=manual, label=label)
    for need in spec.needs:
        source.require(need, id)
    result = spec.run(source, **options)
    if not isinstance(result, Reproduction) or result.id != id:
        raise TypeError(f"reproduction {id!r} returned {type(result).__name__} "
                        f"{getattr(result, 'id', '')!r}; expected a Reproduction with id {id!r}")
    # a reproduction may leave title and source empty: the registered ones fill them
    return replace(result, title=result.title or spec.title, source=result.source or spec.source)


def read_groups(path) -> dict[str, str]:
    r"""Run groups from a tab-separated file, one ``run<TAB>group`` per line (blank lines and
    lines starting with ``#`` are skipped) — what ``irnb reproduce --groups`` reads.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    ...     _ = f.write("# run\tgroup\nbm25\tuni\nbm25+rm3\tuni\nbert\tlab\n")
    >>> read_groups(f.name)
    {'bm25': 'uni', 'bm25+rm3': 'uni', 'bert': 'lab'}
    >>> os.remove(f.name)
    """
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.rstrip("\n").rstrip("\r")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            cells = text.split("\t")
            if len(cells) != 2 or not cells[0].strip() or not cells[1].strip():
                raise ValueError(f"{path}:{number}: expected 2 tab-separated columns (run<TAB>group), "
                                 f"got {len(cells)}: {text!r}")
            run, group = cells[0].strip(), cells[1].strip()
            if run in out:
                raise ValueError(f"{path}:{number}: run {run!r} listed twice (first as group {out[run]!r})")
            out[run] = group
    if not out:
        raise ValueError(f"{path}: no run<TAB>group lines")
    return out
