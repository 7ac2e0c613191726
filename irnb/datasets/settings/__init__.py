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
from types import MappingProxyType
from collections.abc import Mapping

from . import baillie, buttcher, ravana, thesis
from .base import REPORTED_KEYS, Setting
from ...params import SEED

__all__ = ["Setting", "SETTINGS", "REPORTED_KEYS", "paper_setting", "setting_for", "paper_of"]

def _registry() -> dict[str, Setting]:
    out: dict[str, Setting] = {}
    for module in (baillie, buttcher, ravana, thesis):
        for setting in module.SETTINGS:
            out[setting.paper] = setting
    return out


#: paper key → :class:`Setting`, in the papers' order.
SETTINGS: Mapping[str, Setting] = MappingProxyType(_registry())


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


def paper_setting(id_or_paper: str, seed: int = SEED.default):
    """The simulated :class:`~irnb.datasets.Collection` in the design of the paper of
    ``id_or_paper`` (a paper key such as ``"buttcher2007"`` or a reproduction id), on ``seed``.

    Built from the same calibrated model as the embedded default; the same object is returned for
    the same paper and seed within a process (treat its tables as read-only).
    """
    from ...params import SEED

    seed = SEED.validate(seed, "paper_setting")
    return setting_for(id_or_paper).build(seed)
