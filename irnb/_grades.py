"""Grade sentinels shared by the Experiment's arrays and the measure kernels, and the range a
grade read from a file or DataFrame must lie in (:func:`irnb.lines.check_grades` checks it);
a module of its own, importing nothing of irnb, so that the kernels import without pandas or
pyarrow."""

from __future__ import annotations

UNJUDGED = -128  # grade sentinel: the document is not in the (pooled) qrels
NO_DOC = -127  # grade sentinel: the run has no document at this rank
MIN_GRADE, MAX_GRADE = -126, 127  # the grades an int8 array holds besides the sentinels


def unjudged(grade):
    """Where a grade array (numpy, the judgments' ``grade_array`` under a judged mask) holds an
    unjudged document (the glossary's word): not in the qrels or outside the mask (UNJUDGED),
    or a negative grade (pooled, not assessed); never a rank with no document (NO_DOC).

    >>> import numpy as np
    >>> unjudged(np.array([1, 0, -1, UNJUDGED, NO_DOC])).tolist()
    [False, False, True, True, False]
    """
    return (grade < 0) & (grade != NO_DOC)
