"""trec_eval's ranking order, stated once and without pyarrow: by score descending, ties by
docno descending in byte order (C's ``strcmp``); trec_eval 10.0 compares the scores as
doubles, 9.x as 32-bit floats (so do pytrec_eval and ir_measures), and -0.0 ties with 0.0.

:mod:`irnb.ordering` sorts whole tables by it (vectorised), the ``irnb trec_eval`` drop-in one
topic at a time (:func:`trec_ranking`); both take the scores from :func:`comparable_scores`.

>>> trec_ranking([b"a", b"c", b"b"], [1.00000001, 1.0, 2.0], compat="10")
[b'b', b'a', b'c']
>>> trec_ranking([b"a", b"c"], [1.00000001, 1.0], compat="9")
[b'c', b'a']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["DOCNO_TIES", "comparable_scores", "trec_ranking"]

DOCNO_TIES = "descending"  # how documents with equal scores are ordered (trec_eval's strcmp, reversed)


def comparable_scores(scores, *, compat: str) -> np.ndarray:
    """The scores as trec_eval compares them: float64 for trec_eval 10.0 (``compat="10"``),
    float32 for 9.x (beyond float32's range: ±inf, as C's double → float); -0.0 made 0.0 so
    that the two zeros tie.

    >>> comparable_scores([1.00000001, -0.0], compat="9").tolist()
    [1.0, 0.0]
    >>> comparable_scores([1.00000001, -0.0], compat="10").tolist()
    [1.00000001, 0.0]
    """
    scores = np.asarray(scores, dtype=np.float64)
    if compat == "10":
        return scores + 0.0  # a new array; -0.0 + 0.0 = +0.0
    with np.errstate(over="ignore"):
        out = scores.astype(np.float32)
    out += np.float32(0.0)
    return out


def trec_ranking(docnos: Sequence[bytes], scores, *, compat: str) -> list[bytes]:
    """``docnos`` in trec_eval's order: :func:`comparable_scores` descending, then docno
    descending (bytes compare as C's ``strcmp`` does)."""
    keyed = zip(comparable_scores(scores, compat=compat).tolist(), docnos, strict=True)
    return [docno for _, docno in sorted(keyed, reverse=True)]  # both keys descending (DOCNO_TIES)
