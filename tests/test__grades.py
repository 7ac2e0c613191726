"""What a grade array holds (irnb._grades): the two sentinels, which documents are unjudged, and the
range a grade read from a file or DataFrame must lie in."""

from __future__ import annotations

import numpy as np
from irnb._grades import MAX_GRADE, MIN_GRADE, NO_DOC, UNJUDGED, unjudged


def test_the_sentinels_sit_just_below_the_grades_an_int8_holds():
    assert (UNJUDGED, NO_DOC) == (np.iinfo(np.int8).min, np.iinfo(np.int8).min + 1)
    assert (MIN_GRADE, MAX_GRADE) == (NO_DOC + 1, np.iinfo(np.int8).max)


def test_unjudged_is_a_negative_grade_or_not_in_the_qrels_never_a_missing_document():
    grade = np.array([[2, 0, -1, UNJUDGED], [NO_DOC, MIN_GRADE, MAX_GRADE, 1]], dtype=np.int8)
    assert unjudged(grade).tolist() == [[False, False, True, True], [False, True, False, False]]
