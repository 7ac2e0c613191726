"""The base of the core's result objects: every result turns into a tidy pandas DataFrame
the same way.

A result declares its columns (:meth:`Result.frame_columns`: one dict of equal-length
columns, or a list of such dicts stacked in order) and :meth:`Result.to_frame` builds the
frame. Per-topic results — (S, T) arrays over ``run_names`` × ``topics`` where only the
``evaluated`` cells count — declare theirs with :meth:`Result.topic_rows`: one row per
evaluated (run, topic), plus one row per run with topic ``"all"`` holding the mean.

>>> import numpy as np
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Scores(Result):
...     run_names: tuple
...     topics: tuple
...     values: np.ndarray
...     evaluated: np.ndarray
...     def frame_columns(self, *, include_all=True):
...         return self.topic_rows("P@1", include_all=include_all, value=(self.values, self.values.mean(axis=1)))
>>> Scores(("a",), ("1", "2"), np.array([[1.0, 0.0]]), np.array([[True, True]])).to_frame()
  run topic measure  value
0   a     1     P@1    1.0
1   a     2     P@1    0.0
2   a   all     P@1    0.5
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .params import INCLUDE_ALL, PER_TOPIC

if TYPE_CHECKING:  # pandas is imported where a frame is built
    import pandas as pd

__all__ = ["Result"]


class Result:
    """A result that can be laid out as a tidy DataFrame (see the module docstring)."""

    def frame_columns(self, **options) -> dict | list[dict]:
        """The frame's columns: a dict, or a list of dicts stacked in order."""
        raise NotImplementedError(f"{type(self).__name__} declares no frame columns")

    def to_frame(self, **options) -> pd.DataFrame:
        """A new tidy DataFrame of this result: the columns its class declares in
        :meth:`frame_columns`, which takes the same keyword options (for per-topic results
        ``include_all=False`` leaves out the ``"all"`` rows)."""
        import pandas as pd

        columns = self.frame_columns(**options)
        if isinstance(columns, dict):
            return pd.DataFrame(columns)
        return pd.concat([pd.DataFrame(part) for part in columns], ignore_index=True)

    def topic_rows(self, measure: str, *, include_all: bool = True, per_topic: bool = True,
                   **values: tuple[np.ndarray, np.ndarray]) -> list[dict]:
        """Rows ``run, topic, measure, <labels and values>`` of a per-topic result:
        ``values`` maps a column to ``(per_topic, mean)`` — an (S, T) array read at the
        evaluated cells and an (S,) array for the ``"all"`` rows — or to a plain label
        (the same in every row, such as an estimator's letter)."""
        include_all = INCLUDE_ALL.validate(include_all, "topic_rows")
        per_topic = PER_TOPIC.validate(per_topic, "topic_rows")
        runs = np.asarray(self.run_names, dtype=object)
        topics = np.asarray(self.topics, dtype=object)
        s, t = np.nonzero(self.evaluated)
        parts = []
        if per_topic:
            parts.append({"run": runs[s], "topic": topics[t], "measure": measure,
                          **{k: v[0][s, t] if isinstance(v, tuple) else v for k, v in values.items()}})
        if include_all:
            parts.append({"run": runs, "topic": "all", "measure": measure,
                          **{k: v[1] if isinstance(v, tuple) else v for k, v in values.items()}})
        return parts
