"""trec_eval's ndcg, G, ndcg_rel and Rndcg with gains given on the command line
(``-m ndcg.1=3,2=9,4=4.5``): each grade level's gain, the levels of the qrels not given
gaining their grade, a document not in the qrels counting as level −1 and one pooled but
unjudged (a negative grade) as −2, and the ideal ranking walked as trec_eval walks it
(levels sorted by C's ``(int) (gain1 − gain2)``, so gains less than 1 apart keep the order
they were listed in).
"""

from __future__ import annotations

import math
import re

import numpy as np

from .._grades import UNJUDGED
from ..kernels import Judged

__all__ = ["GAIN_MEASURES", "with_gains"]


def _gain_levels(counts: np.ndarray, given: list[tuple[int, float]]) -> list[list]:
    """trec_eval's setup_gains for one topic: [level, gain, documents of that level in the
    qrels], the levels given on the command line first, then those of the qrels not given
    (gain = level), sorted by C's ``(int) (gain1 − gain2)`` (gains less than 1 apart compare
    equal there, so their order is qsort's, which may differ)."""
    import functools

    present = np.flatnonzero(counts)
    levels = [[level, gain, 0] for level, gain in given]
    for i in range(int(present[-1]) + 1 if present.size else 0):
        match = next((entry for entry in levels if entry[0] == i), None)
        if match is not None:
            match[2] = int(counts[i])
        else:
            levels.append([i, float(i), int(counts[i])])
    return sorted(levels, key=functools.cmp_to_key(lambda a, b: int(a[1] - b[1])))


class _Ideal:
    """The ideal ranking's gains, highest gain level first, one rank per :meth:`step` (C's
    cur_level / num_at_level walk)."""

    def __init__(self, levels: list[list]):
        self.levels, self.cur, self.at = levels, len(levels) - 1, 0
        self.gain = levels[-1][1] if levels else 0.0

    def step(self) -> float:
        self.at += 1
        while self.cur >= 0 and self.at > self.levels[self.cur][2]:
            self.at, self.cur = 1, self.cur - 1
            self.gain = self.levels[self.cur][1] if self.cur >= 0 else 0.0
        return self.gain


def _div(a: float, b: float) -> float:
    """a / b as C's doubles divide (inf or nan for b = 0)."""
    return float(np.divide(np.float64(a), np.float64(b))) if b == 0 else a / b


def with_gains(view: Judged, measure: str, pairs: list[tuple[str, float]]) -> np.ndarray:
    """trec_eval's ndcg, G, ndcg_rel and Rndcg with gains given as ``rel_level=gain``
    (``-m ndcg.1=3,2=9,4=4.5``), ported from m_ndcg.c, m_G.c, m_ndcg_rel.c and m_Rndcg.c:
    a document not in the qrels counts as level −1, one pooled but unjudged as −2; a level
    without a gain gains 0."""
    given = [(int(key), gain) for key, gain in pairs if re.fullmatch(r"[+-]?\d+", key)]
    out = np.zeros(view.grade.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in range(view.grade.shape[1]):
            levels = _gain_levels(view.level_counts[t], given)
            gain_of: dict[int, float] = {}
            for level, gain, _ in levels:
                gain_of.setdefault(level, gain)
            grades = view.grade[0, t, : int(view.length[0, t])].tolist()
            gains = [gain_of.get(-1 if g == UNJUDGED else -2 if g < 0 else g, 0.0) for g in grades]
            if measure == "Rndcg" and view.num_rel[t] == 0:
                continue
            out[t] = GAIN_MEASURES[measure](gains, _Ideal(levels))
    return out


def _ndcg_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = 0.0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    for j in range(i, len(gains)):
        if gains[j] != 0:
            dcg += gains[j] / math.log2(j + 2)
    i = max(i, len(gains))
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    return dcg / idcg if idcg > 0.0 else 0.0


def _g_gains(gains: list[float], ideal: _Ideal) -> float:
    total = ideal_sum = cost = g = 0.0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        total += gains[i]
        step = ideal.step()
        if step > 0.0:
            ideal_sum += step
        cost += step if step >= 1.0 else 1.0
        if gains[i] != 0:
            g += gains[i] / math.log2(2 + cost - total)
        i += 1
    for j in range(i, len(gains)):
        total += gains[j]
        cost += 1.0
        if gains[j] != 0:
            g += gains[j] / math.log2(2 + cost - total)
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            ideal_sum += ideal.gain
    return g / ideal_sum if ideal_sum > 0.0 else 0.0


def _ndcg_rel_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = total = 0.0
    rel_ret = rel = 0
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if ideal.step() > 0.0:
            rel += 1
            idcg += ideal.gain / math.log2(i + 2)
        if gains[i] > 0:
            total += _div(dcg, idcg)
            rel_ret += 1
        i += 1
    for j in range(i, len(gains)):
        if gains[j] != 0:
            dcg += gains[j] / math.log2(j + 2)
        if gains[j] > 0:
            total += _div(dcg, idcg)
            rel_ret += 1
    i = max(i, len(gains))
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            rel += 1
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    total += (rel - rel_ret) * _div(dcg, idcg)
    return _div(total, rel) if total > 0.0 else 0.0


def _rndcg_gains(gains: list[float], ideal: _Ideal) -> float:
    dcg = idcg = total = 0.0
    changes = 0
    old = ideal.gain
    i = 0
    while i < len(gains) and ideal.gain > 0.0:
        step = ideal.step()
        if old != step:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            old = step
        if gains[i] != 0:
            dcg += gains[i] / math.log2(i + 2)
        if step > 0.0:
            idcg += step / math.log2(i + 2)
        i += 1
    if i < len(gains):
        for j in range(i, len(gains)):
            if gains[j] != 0:
                dcg += gains[j] / math.log2(j + 2)
        i = len(gains)
        if idcg > 0.0:
            total += dcg / idcg
            changes += 1
    while ideal.gain > 0.0:
        step = ideal.step()
        if old != step:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            old = step
        if step > 0.0:
            idcg += step / math.log2(i + 2)
        i += 1
    return _div(total, changes)


GAIN_MEASURES = {"ndcg": _ndcg_gains, "G": _g_gains, "ndcg_rel": _ndcg_rel_gains, "Rndcg": _rndcg_gains}
