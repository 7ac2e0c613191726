"""Helpers shared by the Büttcher and Ravana reproductions (private)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..params import POOL_DEPTH
from ..pooling import judged_depth
from .registry import Reproduction, ReproductionNeeds, Source

_DEPTH = dataclasses.replace(POOL_DEPTH, doc="pool depth d of the reproduction (default: the data's own)")


@dataclass(frozen=True)
class Setting:
    """Pool depth and contributing runs of a reproduction, with how they were chosen."""

    depth: int
    contributors: tuple[str, ...]
    notes: tuple[str, ...]


def setting(source: Source, depth, owner: str, *, covered: bool = False) -> Setting:
    """The pool depth and contributors a Büttcher/Ravana reproduction uses on ``source``.

    Depth: ``depth`` if given; else the data's by the one rule every reproduction uses
    (:func:`irnb.papers.pool_depth_rule`: the simulated collection's, or the deepest d to which
    more than half of the contributing runs are judged on every topic; 1 when the data cannot
    tell, with the warning in the notes). Contributors: the Experiment's. When no run is marked
    as one: with ``covered``, Büttcher et al.'s rule (§4: they counted as the pool's the 42 runs
    "for which the top 50 documents were completely covered by the qrels for every topic"),
    the runs judged to depth d on every topic they answer (:func:`irnb.pooling.judged_depth`);
    otherwise, or when no run is judged that deep, every run (irnb's fallback).
    """
    exp = source.experiment
    notes = []
    if depth is not None:
        d = _DEPTH.validate(depth, owner)
        depth_note = f"pool depth {d} (given)"
    else:
        rule = source.pool_depth_rule
        d = rule.used
        depth_note = f"pool depth {d} ({rule.basis})" + (f" — {rule.warning}" if rule.warning else "")
    contributing = np.asarray(exp.contributors, dtype=bool)
    if not contributing.any():
        judged = judged_depth(exp) >= d if covered else np.zeros(len(exp.run_names), dtype=bool)
        if judged.any():
            contributing = judged
            notes.append(f"{source.label} marks no run as a contributor; the {int(judged.sum())} runs whose top {d} "
                         f"the qrels judge on every topic they answer are treated as the contributors (Büttcher et "
                         f"al.'s rule for their 42 runs)")
        else:
            contributing = np.ones(len(exp.run_names), dtype=bool)
            notes.append(f"{source.label} marks no run as a contributor; every run is treated as one (irnb's fallback"
                         + (f": no run's top {d} is judged on every topic it answers)" if covered else ")"))
    notes.append(depth_note)
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
