"""Each seed paper's experiment in its own simulated setting.

The papers ran on different test collections: Büttcher et al. pooled TREC 2006 Terabyte to depth 50
from 42 runs of 20 groups, Baillie et al. measured TREC-3 … Robust 2005 runs to depth 1,000 beyond
pools of depth 47–100, Ravana & Moffat used TREC-9's Web Track (105 runs, 59 pooled), the thesis
chapter TREC MedTrack's 85 queries. A :class:`Setting` declares one paper's design as the paper
reports it (``reported``), the simulator's keywords that build it from the same calibrated model as
the embedded default (``params``), and what still differs from the paper's (``differs``).
:func:`paper_setting` builds it; :func:`irnb.reproduce` runs a reproduction on its paper's setting
when it is given no data.

>>> from irnb.datasets.settings import setting_for
>>> setting_for("buttcher2007-table3").paper
'buttcher2007'
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping

__all__ = ["Setting", "SETTINGS", "paper_setting", "setting_for", "paper_of"]

#: What a setting's ``reported`` may name: the paper's design, in the paper's own numbers.
REPORTED_KEYS = ("collection", "topics", "runs", "groups", "manual_runs", "contributors", "pool_depth",
                 "run_depth", "judged", "relevant")


@dataclass(frozen=True)
class Setting:
    """One paper's design (``reported``, as the paper prints it, with ``where`` it prints it) and
    the simulator's keywords that build it (``params``, passed to :func:`irnb.datasets.simulate`);
    ``differs`` lists, in sentences, what the simulated setting does not share with the paper's.
    """

    paper: str
    name: str
    reported: Mapping[str, Any]
    where: str
    params: Mapping[str, Any]
    differs: tuple[str, ...] = ()
    mechanisms: tuple[str, ...] = field(default=())

    def __post_init__(self):
        unknown = sorted(set(self.reported) - set(REPORTED_KEYS))
        if unknown:
            raise ValueError(f"setting {self.paper}: unknown reported key(s) {unknown}; one of {REPORTED_KEYS}")
        object.__setattr__(self, "reported", MappingProxyType(dict(self.reported)))
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def build(self, seed: int = 0):
        """The simulated collection of this setting on ``seed`` (cached: the same object per seed)."""
        return _build(self.paper, seed)

    def label(self, seed: int = 0) -> str:
        """How a reproduction names its data, e.g. ``"simulated TREC 2006 Terabyte setting (seed 0)"``."""
        return f"simulated {self.name} setting (seed {seed})"

    def describe(self) -> str:
        """The notes' paragraph: the paper's design, the simulated one, and what differs."""
        design = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.reported.items() if k != "collection")
        text = (f"Simulated setting: {self.name} as {self.where} reports it ({design}); simulated with "
                f"{', '.join(f'{k}={v}' for k, v in self.params.items())}.")
        if self.mechanisms:
            text += " Mechanisms of the model this setting relies on: " + "; ".join(self.mechanisms) + "."
        if self.differs:
            text += " Differs from the paper's: " + "; ".join(self.differs) + "."
        return text


def _registry() -> dict[str, Setting]:
    from . import baillie, buttcher, ravana, thesis

    out: dict[str, Setting] = {}
    for module in (baillie, buttcher, ravana, thesis):
        for setting in module.SETTINGS:
            out[setting.paper] = setting
    return out


class _Settings(Mapping):
    """paper key → :class:`Setting`, loaded on first use."""

    def _all(self) -> dict[str, Setting]:
        return _cached_registry()

    def __getitem__(self, key):
        return self._all()[key]

    def __iter__(self):
        return iter(self._all())

    def __len__(self):
        return len(self._all())


@lru_cache(maxsize=1)
def _cached_registry() -> dict[str, Setting]:
    return _registry()


SETTINGS: Mapping[str, Setting] = _Settings()


def paper_of(id_or_paper: str) -> str:
    """The paper key of a reproduction id or paper key: ``"buttcher2007-table3"`` → ``"buttcher2007"``."""
    if not isinstance(id_or_paper, str):
        raise TypeError(f"paper_setting: expected a reproduction id or paper key (str), got "
                        f"{type(id_or_paper).__name__}")
    key = id_or_paper.split("-", 1)[0]
    if key not in SETTINGS:
        close = difflib.get_close_matches(key, list(SETTINGS), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"paper_setting: no setting for {id_or_paper!r}{hint} (papers: {', '.join(SETTINGS)})")
    return key


def setting_for(id_or_paper: str) -> Setting:
    """The :class:`Setting` of a paper key (``"baillie2008"``) or of a reproduction id."""
    return SETTINGS[paper_of(id_or_paper)]


@lru_cache(maxsize=8)
def _build(paper: str, seed: int):
    from ..collection import simulate

    return simulate(seed, **SETTINGS[paper].params)


def paper_setting(id_or_paper: str, seed: int = 0):
    """The simulated :class:`~irnb.datasets.Collection` in the design of the paper of
    ``id_or_paper`` (a paper key such as ``"buttcher2007"`` or a reproduction id), on ``seed``.

    Built from the same calibrated model as the embedded default; the same object is returned for
    the same paper and seed within a process (treat its tables as read-only).
    """
    from ...params import SEED

    seed = SEED.validate(seed, "paper_setting")
    return setting_for(id_or_paper).build(seed)
