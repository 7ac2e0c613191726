"""Helpers shared by the Büttcher and Ravana reproductions (private)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..params import POOL_DEPTH
from .registry import Reproduction, ReproductionNeeds, Source

_DEPTH = dataclasses.replace(POOL_DEPTH, doc="pool depth d of the reproduction (default: the data's own)")


@dataclass(frozen=True)
class Setting:
    """Pool depth and contributing runs of a reproduction, with how they were chosen."""

    depth: int
    contributors: tuple[str, ...]
    notes: tuple[str, ...]


def setting(source: Source, depth, owner: str) -> Setting:
    """The pool depth and contributors a Büttcher/Ravana reproduction uses on ``source``.

    Depth: ``depth`` if given; else the data's by the one rule every reproduction uses
    (:func:`irnb.papers.pool_depth_rule`: the simulated collection's, or the deepest d to which
    more than half of the contributing runs are judged on every topic; 1 when the data cannot
    tell, with the warning in the notes). Contributors: the Experiment's; when no run is marked
    as one, every run (as Büttcher et al. counted every run whose top 50 the qrels covered).
    """
    exp = source.experiment
    notes = []
    contributing = np.asarray(exp.contributors, dtype=bool)
    if not contributing.any():
        contributing = np.ones(len(exp.run_names), dtype=bool)
        notes.append(f"{source.label} marks no run as a contributor; every run is treated as one "
                     f"(as Büttcher et al. treated every run whose top 50 the qrels covered)")
    if depth is not None:
        d = _DEPTH.validate(depth, owner)
        notes.append(f"pool depth {d} (given)")
    else:
        rule = source.pool_depth_rule
        d = rule.used
        notes.append(f"pool depth {d} ({rule.basis})" + (f" — {rule.warning}" if rule.warning else ""))
    names = tuple(exp.run_names[i] for i in np.flatnonzero(contributing))
    return Setting(depth=d, contributors=names, notes=tuple(notes))


def manual_split(source: Source, st: Setting, id: str) -> tuple[list[str], list[str]]:
    """(automatic contributors, manual contributors); raises ReproductionNeeds when the
    contributors hold no manual or no automatic run."""
    source.require("manual", id)
    manual = set(source.manual)
    unknown = sorted(manual - set(source.experiment.run_names))
    if unknown:
        raise ValueError(f"{id}: manual names runs the data lacks: {unknown[:5]}")
    auto = [r for r in st.contributors if r not in manual]
    man = [r for r in st.contributors if r in manual]
    if not man or not auto:
        raise ReproductionNeeds(f"{id} needs manual and automatic runs among the contributing runs; "
                                f"{source.label} has {len(man)} manual and {len(auto)} automatic contributors")
    return auto, man


def make(**fields) -> Reproduction:
    """A Reproduction from keyword fields (those the Reproduction class has)."""
    names = {f.name for f in dataclasses.fields(Reproduction)}
    return Reproduction(**{k: v for k, v in fields.items() if k in names})
