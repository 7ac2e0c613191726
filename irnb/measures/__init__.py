"""Measures: one declared object per family, and the one parser of their names.

Each module of this package declares one family or a few related ones (``precision``: P@k,
R-prec, RR …; ``rbp``: RBP and its residual): a :class:`Family` with its name, parameters,
kernel, trec_eval names, what the intervals, scenarios, decision matrix, reports and figures
may ask of it, its description and its source, passed to :func:`register`. Every module here
is loaded when the package is, and :data:`FAMILIES` lists the families by module name, then in
the order each module declares them, whatever imports what. So a new family is a new module
(``<family>.py``) with its test (``tests/measures/test_<family>.py``, whose ``EXAMPLE_VALUES``
join tests/test_metrics.py's hand-computed table); no other file changes: the definitions page
writes its entry from the declaration and the module's docstring.
Names are parsed in the ir_measures or the trec_eval spelling by :func:`parse_measure`
(:mod:`irnb.measures.names`).

>>> parse_measure("ndcg_cut_20")
Measure('nDCG@20')
>>> FAMILIES["AP"].scenarios, FAMILIES["AP"].source
(True, 'trec_eval map / map_cut')
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import CUTOFF, FAMILIES, REL, Family, Measure, Param, family_names, register, trec_family
from .names import TREC_DEFAULT_CUTOFFS, parse_measure, parse_measures

__all__ = ["Param", "Family", "Measure", "FAMILIES", "TREC_DEFAULT_CUTOFFS", "parse_measure", "parse_measures",
           "family_names", "register", "trec_family", "CUTOFF", "REL", "INTERVAL_FAMILIES", "SCENARIO_FAMILIES",
           "ASSESSMENT_FAMILIES"]

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
# one module importing another registers the other's families early: sort them back (a stable
# sort keeps each module's own order)
_declared = sorted(FAMILIES.values(), key=lambda family: family.module or "")
FAMILIES.clear()
FAMILIES.update((family.name, family) for family in _declared)

#: Measure families with [B, T] score intervals (weighted precision: :mod:`irnb.intervals`).
INTERVAL_FAMILIES = tuple(name for name, f in FAMILIES.items() if f.interval)
#: Measure families with optimistic / pessimistic scenarios instead (:mod:`irnb.measure_scenarios`).
SCENARIO_FAMILIES = tuple(name for name, f in FAMILIES.items() if f.scenarios)
#: Families that measure how much of a ranking is judged: Baillie et al.'s A (:mod:`irnb.decision`).
ASSESSMENT_FAMILIES = tuple(name for name, f in FAMILIES.items() if f.role == "assessment")
