"""irnb.ranking: trec_eval's ranking order on scores that differ only past float32, -0.0 and
scores beyond float32's range, and irnb.ordering's vectorised order agreeing with it."""

from __future__ import annotations

import numpy as np

from irnb.ranking import comparable_scores, trec_ranking


def test_ranking_is_score_descending_then_docno_descending():
    # equal scores: docno descending in byte order ('b' > 'B' > 'A')
    assert trec_ranking([b"A", b"b", b"c", b"B"], [1.0, 1.0, 3.0, 1.0], compat="10") == [b"c", b"b", b"B", b"A"]


def test_scores_equal_in_float32_tie_in_9_and_differ_in_10():
    scores = [1.0, 1.0 + 2 ** -40]  # one float32, two doubles
    assert np.float32(scores[0]) == np.float32(scores[1]) and scores[0] != scores[1]
    assert trec_ranking([b"b", b"a"], scores, compat="9") == [b"b", b"a"]  # a tie: docno descending
    assert trec_ranking([b"b", b"a"], scores, compat="10") == [b"a", b"b"]  # a's score is higher


def test_minus_zero_ties_with_zero():
    assert comparable_scores([-0.0], compat="10").tobytes() == comparable_scores([0.0], compat="10").tobytes()
    assert comparable_scores([-0.0], compat="9").tobytes() == comparable_scores([0.0], compat="9").tobytes()
    assert trec_ranking([b"a", b"b"], [-0.0, 0.0], compat="10") == [b"b", b"a"]


def test_a_score_beyond_float32_is_infinite_in_9():
    assert comparable_scores([1e300, -1e300], compat="9").tolist() == [np.inf, -np.inf]
    assert trec_ranking([b"a", b"b"], [1e300, 1e301], compat="9") == [b"b", b"a"]  # both inf: a tie
    assert trec_ranking([b"b", b"a"], [1e300, 1e301], compat="10") == [b"a", b"b"]


def test_the_table_ranking_follows_the_same_rule():
    """irnb.ordering's vectorised order (irnb.io's) agrees with trec_ranking on docno ties,
    float32 ties and -0.0, in both versions."""
    import pyarrow as pa

    from irnb.ordering import sorted_blocks

    docnos = [b"b", b"a", b"c", b"d", b"B"]
    scores = [1.0, 1.0 + 2 ** -40, -0.0, 0.0, 1.0]  # a's score is higher in doubles only
    table = pa.table({"topic": ["1"] * 5, "docno": [d.decode() for d in docnos], "score": scores})
    assert trec_ranking(docnos, scores, compat="9") == [b"b", b"a", b"B", b"d", b"c"]
    assert trec_ranking(docnos, scores, compat="10") == [b"a", b"b", b"B", b"d", b"c"]
    for compat in ("9", "10"):
        ordered, _, _ = sorted_blocks(table, compat=compat)
        assert ordered["docno"].to_pylist() == [d.decode() for d in trec_ranking(docnos, scores, compat=compat)]
