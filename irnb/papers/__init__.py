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
from dataclasses import replace
from typing import Any
from collections.abc import Sequence

import pandas as pd

from ..experiment import Experiment
from .registry import (REGISTRY, VERDICTS, Claim, Headline, PoolDepth, Reproduction, ReproductionNeeds,
                       ReproductionSpec, Source, pool_depth_rule, register)

__all__ = [
    "Claim",
    "Headline",
    "VERDICTS",
    "Reproduction",
    "Source",
    "PoolDepth",
    "pool_depth_rule",
    "ReproductionNeeds",
    "register",
    "reproduce",
    "reproduction_ids",
    "reproductions",
    "read_groups",
]


def _load() -> None:
    from . import baillie, buttcher, ravana, thesis  # they register on import

    # in the papers' order, whichever module was imported first (a test may import one directly);
    # reproductions declared elsewhere follow, in declaration order
    papers = [m.__name__ for m in (baillie, buttcher, ravana, thesis)]
    rank = {name: i for i, name in enumerate(papers)}
    ordered = sorted(REGISTRY.items(), key=lambda item: rank.get(item[1].run.__module__, len(papers)))
    if list(REGISTRY) != [id for id, _ in ordered]:
        REGISTRY.clear()
        REGISTRY.update(ordered)


def reproduction_ids() -> list[str]:
    """Every reproduction id, in the papers' order."""
    _load()
    return list(REGISTRY)


#: The options by which a reproduction is given its pool depth instead of the data's.
_DEPTH_OPTIONS = ("depth", "pool_depth")


def _options(spec: ReproductionSpec) -> dict[str, Any]:
    """The reproduction's own keyword options and their defaults."""
    params = inspect.signature(spec.run).parameters.values()
    return {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def reproductions() -> pd.DataFrame:
    """One row per reproduction: ``id, title, source, needs, options`` (its keyword
    options with their defaults, e.g. ``test='anova', alpha=0.05``)."""
    _load()
    return pd.DataFrame(
        [(s.id, s.title, s.source, ", ".join(s.needs),
          ", ".join(f"{k}={v!r}" for k, v in _options(s).items())) for s in REGISTRY.values()],
        columns=["id", "title", "source", "needs", "options"],
    )


def _collection_label(params: dict) -> str:
    """How a simulated collection is named in a reproduction: the embedded default only when it
    is one (seed 0, every parameter at its default), else the seed and the parameters changed.

    >>> _collection_label({"seed": 0, "num_topics": 50})
    'embedded default (seed 0)'
    >>> _collection_label({"seed": 6, "num_topics": 6})
    'simulated collection (seed 6; num_topics=6)'
    """
    from ..datasets.params import defaults

    default = defaults()
    changed = {k: v for k, v in params.items() if k in default and v != default[k]}
    seed = params.get("seed")
    if not changed and seed == 0:
        return "embedded default (seed 0)"
    listed = ("; " + ", ".join(f"{k}={v}" for k, v in changed.items())) if changed else ""
    return f"simulated collection (seed {seed}{listed})"


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
        return Source(experiment.experiment, label or _collection_label(experiment.params),
                      collection=experiment, manual=man)
    raise TypeError(f"experiment must be None (the embedded default), an irnb.Experiment or a "
                    f"irnb.datasets.Collection, got {type(experiment).__name__}")


def reproduce(id: str, experiment=None, *, seed: int | None = None, manual: Sequence[str] | None = None,
              label: str | None = None, **options) -> Reproduction:
    """Reproduce the table or figure ``id`` on ``experiment``; without one, on its paper's
    simulated setting (:func:`irnb.datasets.paper_setting`: the paper's topics, runs, groups,
    manual runs, contributors and depths, from the same calibrated model as the embedded default).

    ``seed`` is the seed of everything random in the reproduction: of the paper's setting when no
    experiment is given (default 0), and of the reproduction's own draws where it has any (random
    subsets, training folds). An Experiment or Collection given explicitly is used as it is.
    ``manual`` names the manual runs (a simulated collection knows its own); ``label`` names
    the data in the output. Other keyword options are the reproduction's own (see
    :func:`reproductions`). Raises :class:`ReproductionNeeds` (a ValueError) naming what the
    data lacks, e.g. groups for leave-one-group-out.
    """
    _load()
    if id not in REGISTRY:
        close = difflib.get_close_matches(id, list(REGISTRY), n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"unknown reproduction id {id!r}{hint} (irnb.reproduction_ids() lists them)")
    spec = REGISTRY[id]
    allowed = _options(spec)
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(spec.run).parameters.values())
    unknown = [name for name in options if name not in allowed]
    if unknown and not takes_any:
        close = difflib.get_close_matches(unknown[0], list(allowed), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise TypeError(f"{id}: unknown option {unknown[0]!r}{hint} (its options: "
                        f"{', '.join(allowed) or 'none'})")
    setting = None
    if seed is not None:
        from ..params import SEED

        seed = SEED.validate(seed, "reproduce")
        if "seed" in allowed:
            options = {**options, "seed": seed}
    if experiment is None:
        from ..datasets.settings import setting_for

        setting = setting_for(id)
        experiment = setting.build(0 if seed is None else seed)
        label = label or setting.label(0 if seed is None else seed)
    source = _source(experiment, manual=manual, label=label)
    source.require_all(spec.needs, id)  # names everything the data lacks, not only the first
    result = spec.run(source, **options)
    if not isinstance(result, Reproduction) or result.id != id:
        raise TypeError(f"reproduction {id!r} returned {type(result).__name__} "
                        f"{getattr(result, 'id', '')!r}; expected a Reproduction with id {id!r}")
    depth = result.pool_depth
    if depth is None:  # the data's, by the one rule; a depth given as an option replaces it
        given = next((options[k] for k in _DEPTH_OPTIONS if options.get(k) is not None), None)
        depth = source.pool_depth_rule if given is None else PoolDepth(int(given), "given")
    notes = result.notes if setting is None else f"{setting.describe()}\n\n{result.notes}".rstrip()
    # a reproduction may leave title and source empty: the registered ones fill them
    return replace(result, title=result.title or spec.title, source=result.source or spec.source, pool_depth=depth,
                   notes=notes)


def read_groups(path) -> dict[str, str]:
    r"""Run groups from a tab-separated file — what ``irnb reproduce --groups`` reads: one
    ``run<TAB>group`` per line (blank lines and lines starting with ``#`` are skipped), or a
    table whose first line names its columns, two of them ``run`` and ``group`` (the
    ``runs.tsv`` that ``irnb simulate`` writes).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    ...     _ = f.write("# run\tgroup\nbm25\tuni\nbm25+rm3\tuni\nbert\tlab\n")
    >>> read_groups(f.name)
    {'bm25': 'uni', 'bm25+rm3': 'uni', 'bert': 'lab'}
    >>> with open(f.name, "w") as g:
    ...     _ = g.write("run\tgroup\tmanual\nbm25\tuni\t0\nbert\tlab\t1\n")
    >>> read_groups(f.name)
    {'bm25': 'uni', 'bert': 'lab'}
    >>> os.remove(f.name)
    """
    out: dict[str, str] = {}
    columns, width, header = (0, 1), 2, False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.rstrip("\n").rstrip("\r")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            cells = [cell.strip() for cell in text.split("\t")]
            if not out and not header and {"run", "group"} <= set(cells):
                columns, width, header = (cells.index("run"), cells.index("group")), len(cells), True
                continue
            if len(cells) != width or not cells[columns[0]] or not cells[columns[1]]:
                shape = "as the header names them" if header else "run<TAB>group"
                raise ValueError(f"{path}:{number}: expected {width} tab-separated columns ({shape}), "
                                 f"got {len(cells)}: {text!r}")
            run, group = cells[columns[0]], cells[columns[1]]
            if run in out:
                raise ValueError(f"{path}:{number}: run {run!r} listed twice (first as group {out[run]!r})")
            out[run] = group
    if not out:
        raise ValueError(f"{path}: no run<TAB>group lines")
    return out
