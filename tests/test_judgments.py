"""One set of qrels laid over the rankings (irnb.judgments): the grade of every retrieved document
under a judged mask, which entries are judged and relevant, the rank at which each run retrieved
each entry, and the qrels encoded per topic; every value computed by hand on a few entries."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from irnb import read_qrels
from irnb._grades import NO_DOC, UNJUDGED
from irnb.ordering import encode_topics
from irnb.judgments import NO_DOCUMENT, NOT_IN_QRELS, Judgments, encode_qrels, qrels_row_of
from irnb.poolmask import PoolMask, PoolMaskError


def _judgments() -> Judgments:
    """Qrels a (grade 0), b (2), c (-1, pooled but not assessed) on one topic; run 0 ranks b, a
    document the qrels do not list, a, then nothing; run 1 ranks c, a."""
    doc = np.array([[[1, NOT_IN_QRELS, 0, NO_DOCUMENT]], [[2, 0, NO_DOCUMENT, NO_DOCUMENT]]], np.int32)
    return Judgments(doc=doc, qrel_topic=np.zeros(3, np.int32), qrel_grade=np.array([0, 2, -1], np.int8),
                     qrel_docno=pa.array(["a", "b", "c"]), topic_start=np.array([0, 3]))


def test_grades_at_every_rank_with_and_without_a_mask():
    j = _judgments()
    assert j.grade_array().tolist() == [[[2, UNJUDGED, 0, NO_DOC]], [[-1, 0, NO_DOC, NO_DOC]]]
    # b left out of the pool reads as a document the qrels do not list
    assert j.grade_array(np.array([True, False, True]))[0, 0].tolist() == [UNJUDGED, UNJUDGED, 0, NO_DOC]
    # a PoolMask keeps b in the pool unjudged: trec_eval's -1
    mask = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    assert j.grade_array(mask)[0, 0].tolist() == [-1, UNJUDGED, 0, NO_DOC]
    assert j.grade_array(runs=[1]).tolist() == [[[-1, 0, NO_DOC, NO_DOC]]]  # one run's array only


def test_judged_and_relevant_entries():
    j = _judgments()
    assert j.judged_entries().tolist() == [True, True, False]  # c's negative grade: pooled, not assessed
    assert j.judged_entries(np.array([False, True, True])).tolist() == [False, True, False]
    assert j.relevant_entries().tolist() == [False, True, False]
    assert j.relevant_entries(relevance_level=3).tolist() == [False, False, False]


def test_retrieved_rank_is_the_one_based_rank_or_a_value_past_every_depth():
    j = _judgments()
    never = np.iinfo(j.retrieved_rank.dtype).max
    # run 0: a at rank 3, b at rank 1; run 1: a at rank 2, c at rank 1
    assert j.retrieved_rank.tolist() == [[3, 1, never], [2, never, 1]]


def test_the_qrels_frame_under_a_pool_mask():
    frame = _judgments().frame(["t1"], PoolMask([True, False, False], pooled_unjudged=[False, True, False]))
    assert frame.values.tolist() == [["t1", "a", 0], ["t1", "b", -1]]  # c is outside the pool


def test_a_mask_of_the_wrong_length_or_type_names_what_it_got():
    with pytest.raises(PoolMaskError, match=r"judged must be a boolean mask over the 3 qrels entries, got dtype bool "
                                            r"and shape \(2,\)"):
        _judgments().entry_grades(np.ones(2, dtype=bool))
    with pytest.raises(PoolMaskError, match=r"got dtype int64 and shape \(3,\)"):
        _judgments().entry_grades(np.ones(3, dtype=np.int64))


def test_encode_qrels_keeps_the_given_topics_sorted_by_topic_then_docno():
    qrels = read_qrels(pd.DataFrame({"qid": ["2", "1", "1", "3"], "docno": ["x", "b", "a", "y"],
                                     "grade": [1, 0, 2, -1]}))
    topic, grade, docno, start = encode_qrels(qrels, pa.array(["1", "2"]))  # topic 3 is not evaluated
    assert topic.tolist() == [0, 0, 1] and grade.tolist() == [2, 0, 1] and docno.to_pylist() == ["a", "b", "x"]
    assert start.tolist() == [0, 2, 3]  # topic t's entries: start[t]:start[t + 1]
    # the row of (topic, docno) pairs in those qrels: b of topic 1, x of topic 2, z unknown
    row = qrels_row_of(topic, docno, np.array([0, 1, 0], np.int32), pa.chunked_array([pa.array(["b", "x", "z"])]))
    assert row.tolist() == [1, 2, NOT_IN_QRELS]


def test_encode_qrels_of_every_topic_in_order_is_that_of_any_other_topics():
    """Qrels whose topics are exactly the topics asked for, met in their order (as read_qrels
    leaves them), give the same arrays as through the topic lookup; the codes passed in are
    copied, not taken (the Judgments make theirs read-only); a topic without entries starts
    where the next does."""
    qrels = read_qrels(pd.DataFrame({"qid": ["2", "1", "1", "2"], "docno": ["x", "b", "a", "w"],
                                     "grade": [1, 0, 2, 3]}))
    codes = encode_topics(qrels.table["topic"])
    topic, grade, docno, start = encode_qrels(qrels, pa.array(["1", "2"]), codes)
    assert topic.tolist() == [0, 0, 1, 1] and grade.tolist() == [2, 0, 3, 1]
    assert docno.to_pylist() == ["a", "b", "w", "x"] and start.tolist() == [0, 2, 4]
    assert not np.shares_memory(topic, codes[0])
    topic, grade, docno, start = encode_qrels(qrels, pa.array(["0", "1", "2", "3"]))  # 0 and 3 have no entries
    assert topic.tolist() == [1, 1, 2, 2] and grade.tolist() == [2, 0, 3, 1] and start.tolist() == [0, 0, 2, 4, 4]


def test_the_arrays_are_read_only():
    j = _judgments()
    for array in (j.doc, j.qrel_topic, j.qrel_grade, j.topic_start, j.retrieved_rank, j.grade_array()):
        assert not array.flags.writeable


@pytest.mark.parametrize("wanted", [["1", "10", "2"], ["10", "2"], ["1", "2", "3"], ["10"]])
def test_encode_qrels_from_remembered_starts(tmp_path, wanted):
    """Qrels read by irnb give encode_qrels their topic starts; the answer equals the one
    from encoding the topic column, for every topic list (a topic left out or not in the
    qrels makes the remembered starts wrong: they must not be used then)."""
    from trec_text import write_file

    qrels = read_qrels(write_file(tmp_path / "q", "2 0 b 1\n2 0 a 0\n10 0 c 3\n1 0 z -1\n1 0 y 2\n10 0 a 1\n"))
    topics = pa.array(wanted, pa.string())
    remembered = encode_qrels(qrels, topics)
    encoded = encode_qrels(qrels, topics, encode_topics(qrels.table["topic"]))
    for mine, theirs in zip(remembered, encoded, strict=True):
        assert mine.equals(theirs) if isinstance(mine, pa.Array) else np.array_equal(mine, theirs)
        assert isinstance(mine, pa.Array) or mine.dtype == theirs.dtype
    by_topic = {"1": [("y", 2), ("z", -1)], "10": [("a", 1), ("c", 3)], "2": [("a", 0), ("b", 1)]}
    topic_idx, grade, docno, starts = remembered
    expected = [pair for t in wanted for pair in by_topic.get(t, [])]
    assert list(zip(docno.to_pylist(), grade.tolist(), strict=True)) == expected
    assert np.diff(starts).tolist() == [len(by_topic.get(t, [])) for t in wanted]
    assert topic_idx.tolist() == [i for i, t in enumerate(wanted) for _ in by_topic.get(t, [])]
