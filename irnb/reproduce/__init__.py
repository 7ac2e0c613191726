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
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from ..experiment import Experiment

__all__ = [
    "Reproduction",
    "Source",
    "ReproductionNeeds",
    "register",
    "reproduce",
    "reproduction_ids",
    "reproductions",
]


class ReproductionNeeds(ValueError):
    """The data given lacks what a reproduction needs (manual runs, groups, truth, texts)."""


@dataclass(frozen=True)
class Reproduction:
    """One reproduced table or figure.

    ``table``: the reproduced numbers (tidy or wide, as the paper lays them out);
    ``paper``: the paper's printed numbers in the same layout, or None where the paper
    prints none; ``notes``: the setting, what differs from the paper's and what agrees
    (computed sentences); ``figure(ax=None)`` draws it (figures only; tables raise).
    """

    id: str
    title: str
    source: str  # the paper and the place in it: "Baillie et al. 2007, Table 1"
    table: pd.DataFrame
    paper: pd.DataFrame | None
    notes: str
    data: str  # which data it was run on: "embedded default (seed 0)", "TREC-COVID round 1", …
    draw: Callable[..., Any] | None = field(default=None, repr=False)

    def figure(self, ax=None):
        """Draw the reproduction (matplotlib, imported here); returns what was drawn."""
        if self.draw is None:
            raise ValueError(f"{self.id} is a table; it has no figure (use .table)")
        return self.draw(self, ax=ax)

    def __str__(self) -> str:
        lines = [f"{self.id}: {self.title}", f"source: {self.source}", f"data: {self.data}", "",
                 self.table.to_string()]
        if self.paper is not None:
            lines += ["", "paper:", self.paper.to_string()]
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

    def require(self, what: str, id: str) -> None:
        """Raise :class:`ReproductionNeeds` naming what ``id`` needs when the data lacks it.

        ``what`` is one of ``groups`` (runs in more than one group, some group with several
        runs), ``manual`` (which runs are manual), ``truth`` (complete judgments),
        ``texts`` (document texts), ``contributors`` (some run did not contribute).
        """
        exp = self.experiment
        lacking = {
            "groups": lambda: len(set(exp.groups)) in (1, len(exp.groups)),
            "manual": lambda: not self.manual,
            "truth": lambda: exp.truth is None,
            "texts": lambda: self.collection is None,
            "contributors": lambda: bool(exp.contributors.all()),
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
            }[what]
            raise ReproductionNeeds(f"{id} needs {hint}; {self.label} has none")


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


def reproductions() -> pd.DataFrame:
    """One row per reproduction: ``id, title, source, needs``."""
    _load()
    return pd.DataFrame(
        [(s.id, s.title, s.source, ", ".join(s.needs)) for s in _REGISTRY.values()],
        columns=["id", "title", "source", "needs"],
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
    source = _source(experiment, manual=manual, label=label)
    for need in spec.needs:
        source.require(need, id)
    return spec.run(source, **options)
