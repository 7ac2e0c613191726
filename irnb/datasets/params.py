"""Declared parameters of the simulator: type, bounds, default, meaning.

The same declarations validate ``simulate(...)`` keywords, build the ``irnb simulate``
options and can build widget sliders. Bounds between parameters (a pool cannot be deeper
than the runs) are declared too (:data:`RELATIONS`, each an :class:`irnb.params.Relation`)
and checked by :func:`validate_params` with an error that names both parameters.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING
from typing import Any
from collections.abc import Mapping

from ..params import SEED, Param, Relation, add_option

if TYPE_CHECKING:
    import argparse

__all__ = ["SIMULATION_PARAMS", "RELATIONS", "validate_params", "defaults", "configure_simulate_parser"]

_P = [
    Param("num_topics", int, 50, low=1, high=500, doc="topics (queries)"),
    Param("num_runs", int, 40, low=2, high=400, doc="runs (ranked lists per topic), all groups together"),
    Param("num_groups", int, 12, low=1, high=200, doc="participating groups; each group submits ≥ 1 run"),
    Param("run_depth", int, 1000, low=10, high=10_000, doc="documents each run retrieves per topic"),
    Param("docs_per_topic", int, 5000, low=100, high=100_000,
          doc="documents per topic that a run can retrieve (the topic's slice of the corpus)"),
    Param("pool_depth", int, 100, low=1, high=10_000,
          doc="pool depth d: the top d documents of every contributing run are judged"),
    Param("pooled_runs_per_group", int, 1, low=1, high=400,
          doc="contributing runs per group (the group's manual runs first, then its first runs)"),
    Param("median_relevant", float, 220.0, low=1.0, high=10_000.0,
          doc="median over topics of the true number of relevant documents"),
    Param("relevant_spread", float, 0.8, low=0.0, high=3.0,
          doc="log-scale spread (σ of a log-normal) of relevant documents per topic"),
    Param("difficulty_spread", float, 1.0, low=0.0, high=1.0,
          doc="spread (σ) of the topics' ease: every run's signal on topic t is scaled by "
              "1 + σ·z_t (kept in [0.2, 2]), so some topics are hard for all runs"),
    Param("novel_runs", int, 4, low=0, high=400,
          doc="manual 'novel' runs that weight a facet of relevance the other runs ignore"),
    Param("keyword_runs", int, 8, low=0, high=400,
          doc="keyword-like runs that favour documents matching the title words"),
    Param("title_share", float, 0.3, low=0.0, high=0.9,
          doc="share of relevant documents in the title-matching family"),
    Param("novel_share", float, 0.18, low=0.0, high=0.9,
          doc="share of relevant documents in the family only novel runs see well"),
    Param("pooled_manual_runs", int, -1, low=0, high=400, sentinels=(-1,),
          meanings=((-1, "as pooled_runs_per_group picks them"),),
          doc="manual runs in the pool, spread over the groups (a group with fewer runs pooled first); "
              "-1: as pooled_runs_per_group picks them"),
    Param("pooled_automatic_runs", int, -1, low=0, high=400, sentinels=(-1,),
          meanings=((-1, "as pooled_runs_per_group picks them"),),
          doc="automatic runs in the pool, spread over groups as the manual ones; -1: as pooled_runs_per_group "
              "picks them"),
    Param("facet_decoys", float, 0.0, low=0.0, high=10.0,
          doc="non-relevant near-topic documents per relevant-novel one that look like relevant-novel documents "
              "(manual formulations' own mistakes); 0: none"),
    Param("max_runs_per_group", int, 0, low=0, high=400,
          doc="a track's limit on runs per group (excess runs go to the smallest groups; × num_groups must be "
              "≥ num_runs); 0: no limit"),
    Param("novel_subject_share", float, 0.0, low=0.0, high=1.0,
          doc="share of the relevant-novel documents' facet words that their text (the classifiers') takes from "
              "the topic's subject words instead, as the other relevant documents' text; 0: none"),
]

SIMULATION_PARAMS: Mapping[str, Param] = MappingProxyType({p.name: p for p in _P})


def defaults() -> dict[str, Any]:
    """``{name: default}`` for every simulation parameter."""
    return {name: p.default for name, p in SIMULATION_PARAMS.items()}


#: The bounds between the simulator's parameters, checked in this order after each parameter's own.
RELATIONS: tuple[Relation, ...] = (
    Relation(("num_groups",), "num_runs", note="every group submits a run"),
    Relation(("run_depth",), "docs_per_topic", note="a run cannot retrieve more documents than the topic has"),
    Relation(("pool_depth",), "run_depth", note="a pool cannot be deeper than the runs"),
    Relation(("novel_runs", "keyword_runs"), "num_runs", sign="<", note="at least one run must be 'popular'"),
    Relation(("title_share", "novel_share"), 0.9,
             note="the rest of the relevant documents form the mainstream family"),
    Relation(("median_relevant",), "docs_per_topic", divisor=10,
             note="relevant documents are a small part of a topic's documents"),
    Relation(("pooled_manual_runs",), "novel_runs", note="only manual runs can be pooled as manual runs"),
    Relation(("pooled_automatic_runs", "novel_runs"), "num_runs",
             note="only automatic runs (num_runs − novel_runs) can be pooled as automatic runs"),
)


def validate_params(values: Mapping[str, Any], *, owner: str = "simulate") -> dict[str, Any]:
    """Check every parameter against its declared bounds, then the bounds between them
    (:data:`RELATIONS`); return the converted values.

    >>> validate_params({**defaults(), "pool_depth": 2000})["pool_depth"]
    Traceback (most recent call last):
    ...
    ValueError: simulate: pool_depth (2000) must be ≤ run_depth (1000): a pool cannot be deeper than the runs
    """
    out = {name: SIMULATION_PARAMS[name].validate(values[name], owner) for name in SIMULATION_PARAMS}
    for relation in RELATIONS:
        relation.check(out, owner)
    return out


def configure_simulate_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``irnb simulate``'s options to ``parser`` (one option per declared parameter)."""
    add_option(parser, "--seed", param=SEED, help="random seed (default 0: the embedded default)")
    parser.add_argument("--out", required=True, help="directory to write the collection to")
    parser.add_argument("--force", action="store_true", help="replace files that already exist")
    for name, param in SIMULATION_PARAMS.items():
        add_option(parser, f"--{name.replace('_', '-')}", param=param)
    return parser
