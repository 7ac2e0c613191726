"""Judged masks that keep some entries in the pool unjudged.

A plain boolean mask over the qrels entries says which entries are judged; an entry outside
it reads as a document the qrels do not list. A :class:`PoolMask` also names the entries it
leaves out that stay in the pool, "pooled but not judged" (trec_eval's negative grade,
:data:`POOLED_UNJUDGED`); :class:`irnb.judgments.Judgments` reads both kinds.
"""

from __future__ import annotations

import numpy as np

__all__ = ["POOLED_UNJUDGED", "PoolMask", "PoolMaskError", "pooled_unjudged_of"]

POOLED_UNJUDGED = -1  # the grade trec_eval reads as "in the pool, not judged" (infAP's sampled pools)


class PoolMaskError(ValueError, TypeError):
    """A pool or judged mask that is not a 1-d boolean mask over the Experiment's qrels
    entries (a wrong type and a wrong length alike: both a ValueError and a TypeError)."""


class PoolMask(np.ndarray):
    """A judged mask over qrels entries (a read-only boolean array) that also says which of
    the entries it leaves out stay in the pool unjudged.

    A plain boolean mask means: an entry outside it is not in the pool (it reads as a
    document the qrels do not list). A ``PoolMask`` keeps that meaning for most entries,
    but the entries in ``pooled_unjudged`` read as "pooled but not judged" — trec_eval's
    negative grade (:data:`POOLED_UNJUDGED`, -1), which infAP uses and every other measure
    treats as a negative grade (non-relevant for P@k or AP, unjudged for bpref or Judged@k).
    :func:`irnb.pooling.random_subsample` returns one: removing judgments at random leaves
    the documents in the pool.

    Anything derived from it (a slice, ``~mask``, ``mask & other``, ``np.asarray(mask)``)
    is a plain mask again.

    >>> m = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    >>> m.tolist(), m.pooled_unjudged.tolist(), type(m[:2]).__name__, m[:2].pooled_unjudged is None
    ([True, False, False], [False, True, False], 'PoolMask', True)
    """

    pooled_unjudged: np.ndarray | None

    def __new__(cls, judged, *, pooled_unjudged):
        judged = np.array(judged, dtype=bool, copy=True)
        unjudged = np.array(pooled_unjudged, dtype=bool, copy=True)
        if judged.ndim != 1 or unjudged.shape != judged.shape:
            raise ValueError(f"PoolMask: judged and pooled_unjudged must be 1-d boolean masks of the same length, "
                             f"got shapes {judged.shape} and {unjudged.shape}")
        if (judged & unjudged).any():
            raise ValueError(f"PoolMask: an entry cannot be both judged and pooled_unjudged; "
                             f"{int((judged & unjudged).sum())} are")
        obj = judged.view(cls)
        unjudged.flags.writeable = False
        obj.pooled_unjudged = unjudged
        obj.flags.writeable = False
        return obj

    def __array_finalize__(self, obj) -> None:
        self.pooled_unjudged = None  # derived arrays are plain masks

    def __reduce__(self):
        return (_pool_mask, (np.asarray(self), self.pooled_unjudged))


def _pool_mask(judged, pooled_unjudged):
    """Rebuild a PoolMask (pickling)."""
    if pooled_unjudged is None:
        return np.asarray(judged)
    return PoolMask(judged, pooled_unjudged=pooled_unjudged)


def pooled_unjudged_of(judged) -> np.ndarray | None:
    """The entries a judged mask keeps in the pool unjudged (a :class:`PoolMask`'s), or None
    for a plain mask."""
    return getattr(judged, "pooled_unjudged", None)
