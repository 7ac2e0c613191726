"""Nested dicts {qid: {docno: value}} as flat frames (irnb.nested): keys as strings, grades as
integers and scores as finite numbers, and errors that name the topic and docno."""

from __future__ import annotations

import numpy as np
import pytest

from irnb.nested import looks_nested, nested_frame


def test_a_nested_dict_becomes_a_flat_frame_with_string_keys():
    frame = nested_frame({"1": {"a": 1, "b": 0}, 2: {"c": 2.0}}, "qrels", "grade")
    assert frame.values.tolist() == [["1", "a", 1], ["1", "b", 0], ["2", "c", 2]]
    assert frame["grade"].dtype == np.int64
    scores = nested_frame({"q": {"d": 1.5}}, "run", "score")
    assert scores["score"].tolist() == [1.5] and scores["score"].dtype == np.float64


@pytest.mark.parametrize("mapping, value_name, error, message", [
    ({"1": [1]}, "grade", TypeError, r"^x: topic '1': expected a dict \{docno: grade\}, got list$"),
    ({"1": {"a": 0.5}}, "grade", ValueError, r"^x: topic '1', docno 'a': expected an integer grade, got 0.5$"),
    ({"1": {"a": float("inf")}}, "score", ValueError, r"^x: topic '1', docno 'a': expected a finite number, got inf$"),
    ({"1": {"a": "high"}}, "grade", ValueError, r"^x: topic '1', docno 'a': expected an integer grade, got 'high'$"),
])
def test_a_bad_value_names_its_topic_and_docno(mapping, value_name, error, message):
    with pytest.raises(error, match=message):
        nested_frame(mapping, "x", value_name)


def test_looks_nested_counts_levels_of_mappings():
    assert looks_nested({"1": {"a": 1}}, 1) and not looks_nested({"1": {"a": 1}}, 2)
    assert looks_nested({"1": {"a": {"x": 1}}}, 2)
    assert not looks_nested({}, 1) and not looks_nested({"1": {}}, 2)
