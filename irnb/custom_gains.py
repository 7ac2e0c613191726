"""A judged view whose gains are given per grade level — trec_eval's ``rel_level=gain``
parameters (``ndcg.1=3,2=9,4=4.5``) — so that every graded kernel (nDCG, G, ndcg_rel,
Rndcg) computes with them as it does with the default gains (the grades).

trec_eval's rules (its ``setup_gains`` and the ideal ranking its graded measures walk):

* The levels given come first, in the order given, then every grade from 0 to the topic's
  highest judged grade that is not given, gaining its grade. They are sorted by gain with C's
  comparison ``(int) (gain1 − gain2)``: gains less than 1 apart compare equal and keep that
  order (a stable sort, as glibc's ``qsort``).
* A retrieved document gains its level's gain: its grade, −1 when the qrels do not hold it,
  −2 when they hold it with a negative grade (pooled, not judged); a level without an entry
  gains 0. A level given twice gains its first entry in sorted order; its documents are
  counted once, in its first entry as given.
* The ideal ranking walks the sorted levels from the last (highest gain) down, each level's
  judged documents in turn, and stops at the first document whose gain is not positive (and
  at once when the highest level's gain is not positive).

>>> import numpy as np
>>> from irnb.kernels import Judged
>>> view = Judged(grade=np.array([[[1, 2, -128]]], dtype=np.int8), level_counts=np.array([[3, 1, 1]]),
...               length=np.array([[3]]))
>>> gained = with_gains(view, ((1, 3.0), (2, 9.0), (-1, 0.5)))
>>> gained.gain.tolist(), gained.ideal_gains(3).tolist(), gained.num_positive.tolist()
([[[3.0, 9.0, 0.5]]], [[9.0, 3.0, 0.0]], [2])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ._grades import NO_DOC, UNJUDGED
from .kernels import Judged, condense

__all__ = ["GainedView", "with_gains", "measure_gains", "trec_gain_order"]

_LOWEST_LEVEL = -2  # pooled but not judged; -1: not in the qrels


def trec_gain_order(top_level: int, given: tuple[tuple[int, float], ...]) -> list[tuple[int, float, bool]]:
    """(level, gain, counted) in trec_eval's sorted order for a topic whose highest judged
    grade is ``top_level`` (−1: none); ``counted``: this entry holds the level's documents.

    Gains 0.5 and 0 are less than 1 apart: they compare equal and keep their order (given
    levels first), so the ideal ranking walks grade 0 before grade 2:

    >>> trec_gain_order(2, ((1, 3.0), (2, 0.5)))
    [(2, 0.5, True), (0, 0.0, True), (1, 3.0, True)]
    """
    entries = []
    seen = set()
    for level, gain in given:
        entries.append((level, float(gain), level not in seen))
        seen.add(level)
    entries += [(level, float(level), True) for level in range(top_level + 1) if level not in seen]
    return sorted(entries, key=functools.cmp_to_key(lambda a, b: int(a[1] - b[1])))


@dataclass(frozen=True, eq=False)
class GainedView(Judged):
    """A :class:`~irnb.kernels.Judged` view whose gains are ``given`` per level (see the
    module's rules): :attr:`gain`, :meth:`ideal_gains`, :attr:`num_positive` (the documents
    of the ideal ranking) and :attr:`ideal_runs` follow them. Built by :func:`with_gains`."""

    given: tuple[tuple[int, float], ...] = ()

    @cached_property
    def _tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(T, L) gains and document counts of the ideal ranking's levels, highest first,
        and (T, V) the gain of each level from −2 up (column level + 2)."""
        counts = self.level_counts
        T, width = counts.shape
        present = counts > 0
        top = np.where(present.any(axis=1), width - 1 - np.argmax(present[:, ::-1], axis=1), -1)
        orders = {int(m): trec_gain_order(int(m), self.given)[::-1] for m in np.unique(top)}
        L = max((len(o) for o in orders.values()), default=0)
        ideal_gain = np.zeros((T, L))
        ideal_count = np.zeros((T, L), dtype=np.int64)
        level_gain = np.zeros((T, width - _LOWEST_LEVEL))
        for m, walk in orders.items():
            rows = np.flatnonzero(top == m)
            gains = np.array([gain for _, gain, _ in walk])
            docs = np.zeros((rows.size, L), dtype=np.int64)
            for j, (level, _, counted) in enumerate(walk):
                if counted and 0 <= level < width:
                    docs[:, j] = counts[rows, level]
            stops = (docs[:, : len(walk)] > 0) & (gains <= 0)[None, :]
            # the walk stops at the first document gaining nothing, or at once when the top gain is not positive
            kept = (np.cumsum(stops, axis=1) == 0) & (gains > 0)[None, :] & bool(len(walk) and gains[0] > 0)
            ideal_gain[rows, : len(walk)] = gains
            ideal_count[rows, : len(walk)] = np.where(kept, docs[:, : len(walk)], 0)
            first: dict[int, float] = {}
            for level, gain, _ in walk[::-1]:  # a level given twice: its first entry in sorted order
                first.setdefault(level, gain)
            for level, gain in first.items():
                if _LOWEST_LEVEL <= level < width:
                    level_gain[rows, level - _LOWEST_LEVEL] = gain
        return ideal_gain, ideal_count, level_gain

    @cached_property
    def gain(self) -> np.ndarray:
        """(S, T, D) gains: each document's level's gain; 0 where the run has no document."""
        level = np.where(self.grade == UNJUDGED, -1, np.where(self.grade < 0, -2, self.grade)).astype(np.int64)
        level_gain = self._tables[2]
        topic = np.arange(self.grade.shape[1])[None, :, None]
        return np.where(self.grade == NO_DOC, 0.0, level_gain[topic, level - _LOWEST_LEVEL])

    @cached_property
    def num_positive(self) -> np.ndarray:
        """The documents of the ideal ranking per topic (those with a positive gain)."""
        return self._tables[1].sum(axis=1)

    @cached_property
    def ideal_runs(self) -> np.ndarray:
        """(T, L) documents in each run of equal gain along the ideal ranking, highest first."""
        gains, counts, _ = self._tables
        T, L = counts.shape
        if L == 0:
            return counts
        filled = counts > 0
        last = np.maximum.accumulate(np.where(filled, np.arange(L)[None, :], -1), axis=1)
        before = np.concatenate([np.full((T, 1), -1), last[:, :-1]], axis=1)
        previous = np.where(before >= 0, np.take_along_axis(gains, np.maximum(before, 0), axis=1), np.nan)
        run = np.cumsum(filled & (gains != previous), axis=1) - 1
        runs = np.zeros((T, L), dtype=np.int64)
        t, j = np.nonzero(filled)
        np.add.at(runs, (t, run[t, j]), counts[t, j])
        return runs

    def ideal_gains(self, k: int) -> np.ndarray:
        """(T, k) gains of the ideal ranking, zeros after its last document."""
        gains, counts, _ = self._tables
        ends = np.cumsum(counts, axis=1)
        position = np.arange(k)[None, :]
        out = np.zeros((counts.shape[0], k))
        for j in range(counts.shape[1]):
            inside = (position >= (ends[:, j] - counts[:, j])[:, None]) & (position < ends[:, j][:, None])
            out += np.where(inside, gains[:, j, None], 0.0)
        return out

    def at_level(self, relevance_level: int) -> Judged:
        """This view at another relevance level, with the same gains."""
        if relevance_level == self.relevance_level:
            return self
        return with_gains(Judged(self.grade, self.level_counts, self.length, int(relevance_level),
                                 self.trec_version), self.given)

    @cached_property
    def condensed(self) -> Judged:
        """The condensed list (unjudged documents removed), with the same gains."""
        return with_gains(condense(self), self.given)


def with_gains(view: Judged, given: tuple[tuple[int, float], ...]) -> GainedView:
    """``view`` with the gains ``given`` as (level, gain) pairs, trec_eval's order kept."""
    gained = GainedView(view.grade, view.level_counts, view.length, view.relevance_level, view.trec_version,
                        tuple((int(level), float(gain)) for level, gain in given))
    gained.gain  # noqa: B018 - computed now: kernels read a view's gains from its cache when there
    return gained


def measure_gains(view: Judged, measure) -> Judged:
    """``view`` with a graded measure's ``gains`` parameter (:data:`irnb.params.GAINS`), for
    its kernel; the view itself when none are given (the grades are the gains)."""
    given = measure.param("gains")
    return with_gains(view, given) if given else view
