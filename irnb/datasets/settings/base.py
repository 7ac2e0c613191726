"""A paper's design as the simulator builds it: :class:`Setting`."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping
from ...params import SEED

__all__ = ["Setting", "REPORTED_KEYS"]

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

    def build(self, seed: int = SEED.default):
        """The simulated collection of this setting on ``seed`` (cached: the same object per seed)."""
        return _simulate(tuple(self.params.items()), seed)

    def label(self, seed: int = SEED.default) -> str:
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


@lru_cache(maxsize=8)
def _simulate(params: tuple, seed: int):
    from ..collection import simulate

    return simulate(seed, **dict(params))
