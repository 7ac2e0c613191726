"""Every result as a tidy DataFrame (irnb.results): a result declares its columns once and the base
class builds the frame; per-topic results give one row per evaluated (run, topic) plus the means."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from irnb.results import Result


@dataclass(frozen=True)
class _TwoRuns(Result):
    run_names: tuple
    topics: tuple
    values: np.ndarray
    evaluated: np.ndarray

    def frame_columns(self, *, include_all=True, per_topic=True):
        mean = np.nanmean(np.where(self.evaluated, self.values, np.nan), axis=1)
        return self.topic_rows("P@1", include_all=include_all, per_topic=per_topic, value=(self.values, mean),
                               estimator="B")


def _result() -> _TwoRuns:
    # run b did not answer topic 2: its cell is not evaluated and its mean is over topic 1 alone
    return _TwoRuns(("a", "b"), ("1", "2"), np.array([[1.0, 0.0], [0.5, 9.0]]),
                    np.array([[True, True], [True, False]]))


def test_per_topic_rows_skip_cells_not_evaluated_and_end_with_the_means():
    assert _result().to_frame().values.tolist() == [
        ["a", "1", "P@1", 1.0, "B"], ["a", "2", "P@1", 0.0, "B"], ["b", "1", "P@1", 0.5, "B"],
        ["a", "all", "P@1", 0.5, "B"], ["b", "all", "P@1", 0.5, "B"]]


def test_the_options_leave_out_the_means_or_the_topics():
    assert _result().to_frame(include_all=False)["topic"].tolist() == ["1", "2", "1"]
    assert _result().to_frame(per_topic=False)["topic"].tolist() == ["all", "all"]


def test_a_single_dict_of_columns_is_one_frame():
    @dataclass(frozen=True)
    class Pairs(Result):
        def frame_columns(self):
            return {"run_a": ["a"], "run_b": ["b"], "p_value": [0.04]}

    assert Pairs().to_frame().to_dict("list") == {"run_a": ["a"], "run_b": ["b"], "p_value": [0.04]}


def test_a_result_without_columns_says_so():
    with pytest.raises(NotImplementedError, match="^Result declares no frame columns$"):
        Result().to_frame()
