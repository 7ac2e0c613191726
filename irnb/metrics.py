"""``evaluate``: every run's per-topic values of several measures, and the
:class:`Evaluation` that holds them (means over topics, tidy frames).

The measures' rules live in :mod:`irnb.kernels` (one kernel per measure family over a
:class:`~irnb.kernels.Judged` view); this module builds the view from an Experiment and a
pool mask (:func:`judged_view`), runs the kernels in chunks and aggregates over topics.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from collections.abc import Iterable, Sequence

import numpy as np

from .kernels import Judged, compute, condense, safe_divide
from .measures import Measure, parse_measures
from .params import COMPLETE, JUDGED_ONLY, TRUTH
from .params import RELEVANCE_LEVEL as _RELEVANCE_LEVEL
from .results import Result

if TYPE_CHECKING:  # pandas and the Experiment are imported where used: the kernels need numpy only
    import pandas as pd

    from .experiment import Experiment
    from .judgments import Judgments

__all__ = ["Judged", "Evaluation", "evaluate", "judged_view", "condense"]

GMAP_FLOOR = 1e-5  # trec_eval MIN_GEO_MEAN


def level_counts_of(topic: np.ndarray, grade: np.ndarray, T: int) -> np.ndarray:
    """(T, G + 1) count of entries of each grade g ≥ 0 per topic (negative grades are not
    judged and are left out); G is the highest grade present (0 when none).

    >>> level_counts_of(np.array([0, 0, 1, 1]), np.array([1, 0, 2, -1]), 2).tolist()
    [[1, 1, 0], [0, 0, 1]]
    """
    grade, topic = np.asarray(grade), np.asarray(topic)
    if grade.dtype.kind not in "iu":
        grade = grade.astype(np.int64)
    keep = grade >= 0
    if not keep.all():
        grade, topic = grade[keep], topic[keep]
    G = int(grade.max(initial=0))
    counts = np.zeros(T * (G + 1), dtype=np.int64)
    step = max(_COUNT_PART, counts.size)  # a part's counts cost no more than its cells
    for lo in range(0, grade.size, step):  # a bincount over (topic, grade) cells, not np.add.at
        cell = topic[lo:lo + step].astype(np.int64) * (G + 1)
        cell += grade[lo:lo + step]
        counts += np.bincount(cell, minlength=counts.size)
    return counts.reshape(T, G + 1)


# Entries counted at a time: a part's cells (int64) are a temporary the allocator reuses part
# after part, where deep qrels' cells in one array are fresh pages from the kernel.
_COUNT_PART = 1 << 20


def judged_level_counts(judgments: Judgments, T: int, judged: np.ndarray | None) -> np.ndarray:
    """(T, G + 1) judged documents of each grade per topic under the pool mask ``judged``."""
    return level_counts_of(judgments.qrel_topic, judgments.entry_grades(judged), T)


def level_counts_beside(judgments: Judgments, T: int, judged: np.ndarray | None, base_judged: np.ndarray | None,
                        base_counts: np.ndarray) -> np.ndarray:
    """``judged_level_counts(judgments, T, judged)`` from the counts under another mask
    (``base_counts``, those of ``base_judged``): only the entries judged under one mask
    and not the other are counted in or out — few when a group is left out of a pool.
    The same array (shape included: columns up to the highest grade counted)."""
    now = judgments.judged_entries(judged)
    differ = np.flatnonzero(now != judgments.judged_entries(base_judged))
    if differ.size == 0:
        return base_counts.copy()
    grade = judgments.qrel_grade[differ].astype(np.int64)
    width = base_counts.shape[1]
    if int(grade.max()) >= width:  # a grade the base has no column for: count afresh
        return judged_level_counts(judgments, T, judged)
    cell = judgments.qrel_topic[differ].astype(np.int64) * width + grade
    change = np.bincount(cell, weights=np.where(now[differ], 1.0, -1.0), minlength=base_counts.size)
    counts = base_counts + change.astype(np.int64).reshape(base_counts.shape)
    present = np.flatnonzero(counts.any(axis=0))
    return np.ascontiguousarray(counts[:, : int(present[-1]) + 1 if present.size else 1])


def judged_view(
    experiment: Experiment,
    *,
    judged: np.ndarray | None = None,
    relevance_level: int = _RELEVANCE_LEVEL.default,
    truth: bool = False,
    max_depth: int | None = None,
    depth: int | None = None,
) -> Judged:
    """The kernels' view of an Experiment: official qrels (or ``truth=True`` for the complete
    qrels), optionally restricted to a pool (``judged``: bool mask over qrels entries) and
    cut at the run depth ``max_depth`` (trec_eval -M). ``depth=`` is the old name of
    ``max_depth`` (deprecated: in the glossary's words a depth alone is a pool depth)."""
    truth = TRUTH.validate(truth, "judged_view")
    if depth is not None:
        warnings.warn("judged_view(depth=) is now judged_view(max_depth=): the run depth (trec_eval -M)",
                      DeprecationWarning, stacklevel=2)
        max_depth = depth
    from .experiment import check_max_depth

    relevance_level = _RELEVANCE_LEVEL.validate(relevance_level, "judged_view")
    return _view_of_runs(experiment, judged=judged, relevance_level=relevance_level, truth=truth,
                         depth=check_max_depth(max_depth))


def _view_of_runs(experiment: Experiment, *, judged, relevance_level, truth, depth,
                  runs: slice | tuple[slice, slice] = slice(None),
                  counts: np.ndarray | None = None, grade: np.ndarray | None = None) -> Judged:
    """:func:`judged_view` of the runs ``runs`` only, or of (run, topic) cells (a pair of
    slices); ``counts``, the level counts of those topics, and ``grade``, their grades, when
    known. Its options are checked by the public caller."""
    judgments = experiment.truth if truth else experiment.judgments
    if judgments is None:
        raise ValueError("truth=True needs an Experiment built with truth= qrels")
    whole = runs == slice(None)
    if grade is None:
        grade = judgments.grade_array(judged, runs=None if whole else runs)
    length = experiment.length if whole else experiment.length[runs]
    if depth is not None:
        grade = grade[:, :, :depth]
        length = np.minimum(length, depth)
    if counts is None:
        counts = judged_level_counts(judgments, len(experiment.topics), judged)
    return Judged(grade=grade, level_counts=counts, length=length, relevance_level=int(relevance_level),
                  trec_version=int(getattr(experiment, "compat", "9")))


# =================================================================== results
@dataclass(frozen=True, eq=False)
class Evaluation(Result):
    """Per-topic values of several measures for every run.

    ``values[m]`` is an (S, T) array; ``evaluated[s, t]`` says which topics count in the
    run's aggregate (answered topics, or all topics with ``complete=True``);
    ``missing_topics[run]`` lists the qrels topics the run does not answer (only runs that
    miss some are keys), whatever the averaging rule.
    """

    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    measures: tuple[Measure, ...]
    values: dict = field(repr=False)
    evaluated: np.ndarray = field(repr=False)
    complete: bool = False
    missing_topics: dict = field(default_factory=dict, repr=False)  # run → qrels topics it does not answer

    def __getitem__(self, measure) -> np.ndarray:
        m = parse_measures(measure)[0]
        if m not in self.values:
            raise KeyError(f"{m.name} was not evaluated; evaluated: {[x.name for x in self.measures]}")
        return self.values[m]

    def aggregate(self, measure) -> np.ndarray:
        """(S,) the 'all' value of a measure per run, as trec_eval aggregates it."""
        m = parse_measures(measure)[0]
        return aggregate_over_topics(self[m], self.evaluated, m.spec.aggregate)

    def means(self) -> pd.DataFrame:
        """A run × measure table of aggregates (columns in canonical names)."""
        import pandas as pd

        return pd.DataFrame({m.name: self.aggregate(m) for m in self.measures},
                            index=pd.Index(self.run_names, name="run"))

    def frame_columns(self, *, per_topic: bool = True, include_all: bool = True) -> list[dict]:
        """Tidy rows ``run, topic, measure, value`` (:meth:`to_frame`); ``topic == "all"``
        holds the aggregate."""
        return [part for m in self.measures
                for part in self.topic_rows(m.name, per_topic=per_topic, include_all=include_all,
                                            value=(self.values[m], self.aggregate(m) if include_all else None))]


def aggregate_over_topics(values: np.ndarray, evaluated: np.ndarray, how: str) -> np.ndarray:
    count = evaluated.sum(axis=1)
    if how == "sum":
        return np.where(evaluated, values, 0.0).sum(axis=1)
    if how == "gmean":
        logs = np.where(evaluated, np.log(np.maximum(values, GMAP_FLOOR)), 0.0).sum(axis=1)
        return np.where(count > 0, np.exp(logs / np.maximum(count, 1)), 0.0)
    return safe_divide(np.where(evaluated, values, 0.0).sum(axis=1), count)


def evaluate(
    experiment: Experiment,
    measures: str | Measure | Iterable[str | Measure],
    *,
    judged: np.ndarray | None = None,
    relevance_level: int = _RELEVANCE_LEVEL.default,
    complete: bool = False,
    max_depth: int | None = None,
    judged_only: bool = False,
    truth: bool = False,
    view: Judged | None = None,
) -> Evaluation:
    """Evaluate every run of ``experiment`` on ``measures``.

    Parameters mirror trec_eval: ``relevance_level`` (-l), ``complete`` (-c: average over
    every qrels topic, scoring unanswered ones as empty rankings), ``max_depth`` (-M),
    ``judged_only`` (-J: condensed lists). ``judged`` restricts the qrels to a pool (a bool
    mask over qrels entries, see :mod:`irnb.pooling`); ``truth=True`` evaluates against the
    Experiment's complete qrels. ``view`` is a prebuilt :func:`judged_view` of ``experiment``
    (every run) to reuse instead of building one — it already holds the pool, the qrels
    and the cutoff, so it excludes ``judged``, ``truth`` and ``max_depth``; a view kept
    between calls keeps its cached arrays (condensed list, other relevance levels).

    Example (hand-checkable): relevant at ranks 1 and 3, R = 2:
    AP = (1/1 + 2/3) / 2 = 0.8333, P@2 = 1/2.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "grade": [1, 0, 1]})
    >>> ev = evaluate(Experiment(run, qrels), ["AP", "P@2"])
    >>> [round(float(x), 4) for x in ev.means().iloc[0]]
    [0.8333, 0.5]
    """
    judged_only = JUDGED_ONLY.validate(judged_only, None)
    truth = TRUTH.validate(truth, None)
    from .experiment import check_max_depth

    parsed = parse_measures(measures)
    complete = COMPLETE.validate(complete, None)
    max_depth = check_max_depth(max_depth)
    relevance_level = _RELEVANCE_LEVEL.validate(relevance_level, "evaluate")
    if view is None:
        S, T, D = experiment.shape
        per_chunk = max(1, _CHUNK_CELLS // max(T * D, 1))
        if S * T * D > _CHUNK_CELLS:  # a few runs (or topics) at a time: the kernels' temporaries stay small
            return _evaluate_in_chunks(experiment, parsed, per_chunk, judged=judged, relevance_level=relevance_level,
                                       complete=complete, max_depth=max_depth, judged_only=judged_only, truth=truth)
        view = _view_of_runs(experiment, judged=judged, relevance_level=relevance_level, truth=truth,
                             depth=max_depth)  # judged_view's own checks are this function's, done above
    else:
        if not isinstance(view, Judged):
            raise TypeError(f"view must be a Judged view (irnb.metrics.judged_view), got {type(view).__name__}")
        given = [name for name, on in (("judged", judged is not None), ("truth", truth is not False),
                                       ("max_depth", max_depth is not None)) if on]
        if given:
            raise ValueError(f"view= already holds the pool, qrels and cutoff; drop {'=, '.join(given)}=")
        if view.length.shape != experiment.length.shape:
            raise ValueError(f"view covers {view.length.shape[0]} runs × {view.length.shape[1]} topics, the "
                             f"experiment {experiment.length.shape[0]} × {experiment.length.shape[1]}")
    if judged_only:
        view = view.condensed
    return _evaluation(_measure_values(view, parsed, relevance_level), parsed, run_names=experiment.run_names,
                       topics=experiment.topics, length=experiment.length, complete=complete)


# Cells (run × topic × rank) evaluated at once (whole runs, or the topics of one run a few at a
# time when it has more cells): the kernels make temporaries of about 30 bytes per cell
# (cumulative counts, float gains), so a chunk's are about the size of a core's cache and the
# allocator hands the next chunk the same memory again, where larger ones come as fresh pages
# from the kernel, whose faulting and zeroing costs more than the kernels' sums themselves.
_CHUNK_CELLS = 1 << 16


def _evaluate_in_chunks(experiment: Experiment, parsed: list, per_chunk: int, *, judged, relevance_level: int,
                        complete: bool, max_depth, judged_only: bool, truth: bool) -> Evaluation:
    """:func:`evaluate` over ``per_chunk`` runs at a time (one run: a few of its topics at a
    time, when it has more than ``_CHUNK_CELLS`` cells), joined into one Evaluation. Every
    kernel works run by run and topic by topic, and sums each ranking in an order of its own
    (:func:`irnb.kernels.rank_sums`), so the values are those of one call over all runs."""
    judgments = experiment.truth if truth else experiment.judgments
    if judgments is None:
        raise ValueError("truth=True needs an Experiment built with truth= qrels")
    counts = judged_level_counts(judgments, len(experiment.topics), judged)
    S, T, D = experiment.shape
    per_topics = T if per_chunk > 1 else min(T, max(1, _CHUNK_CELLS // max(D, 1)))
    values = {m: np.empty((S, T)) for m in parsed}
    for lo in range(0, S, per_chunk):
        runs = slice(lo, lo + per_chunk)
        grade = None if per_topics == T else judgments.grade_array(judged, runs=runs)  # the run's, once
        for first in range(0, T, per_topics):
            topics = slice(first, first + per_topics)
            view = _view_of_runs(experiment, judged=judged, relevance_level=relevance_level, truth=truth,
                                 depth=max_depth, runs=runs if grade is None else (runs, topics),
                                 counts=counts if grade is None else counts[topics],
                                 grade=None if grade is None else grade[:, topics])
            if judged_only:
                view = view.condensed
            for m, part in _measure_values(view, parsed, relevance_level).items():
                values[m][runs, topics] = part
            del view
    for array in values.values():
        array.flags.writeable = False
    return _evaluation(values, parsed, run_names=experiment.run_names, topics=experiment.topics,
                       length=experiment.length, complete=complete, stacklevel=4)


def evaluate_view(
    view: Judged,
    measures: str | Measure | Iterable[str | Measure],
    *,
    run_names: tuple[str, ...],
    topics: tuple[str, ...],
    length: np.ndarray,
    relevance_level: int = _RELEVANCE_LEVEL.default,
    complete: bool = False,
) -> Evaluation:
    """The shared tail of :func:`evaluate` and ``CompletedQrels.evaluate``: every measure
    computed on ``view`` (a measure left at rel 1 that uses the relevance level is
    evaluated at ``relevance_level``), frozen, in an :class:`Evaluation` whose topics
    count when answered (``length > 0``) or always (``complete``)."""
    parsed = parse_measures(measures)
    complete = COMPLETE.validate(complete, None)
    values = _measure_values(view, parsed, relevance_level)
    return _evaluation(values, parsed, run_names=run_names, topics=topics, length=length, complete=complete)


def _measure_values(view: Judged, parsed: Sequence[Measure], relevance_level: int) -> dict:
    """{measure: (S, T) read-only values} on a view; a measure left at rel 1 that uses the
    relevance level is evaluated at ``relevance_level``."""
    values = {}
    for m in parsed:
        if m.rel == 1 and relevance_level != 1 and m.uses_rel:
            m_eval = Measure(m.family, m.cutoff, m.params, relevance_level)
        else:
            m_eval = m
        arr = compute(view, m_eval)
        arr.flags.writeable = False
        values[m] = arr
    return values


def _evaluation(values: dict, parsed: Sequence[Measure], *, run_names: tuple[str, ...], topics: tuple[str, ...],
                length: np.ndarray, complete: bool, stacklevel: int = 3) -> Evaluation:
    """The Evaluation of computed values: topics count when answered (``length > 0``) or
    always (``complete``); runs that miss qrels topics are listed, with a warning that points
    at the line calling the public function (``stacklevel`` frames up: 3 when that function
    calls this one itself)."""
    answered = length > 0
    evaluated = np.ones_like(answered) if complete else answered
    missing = {run_names[s]: tuple(topics[t] for t in np.flatnonzero(~answered[s]))
               for s in np.flatnonzero(~answered.all(axis=1))}
    if missing:
        from .experiment import MissingTopicsWarning, missing_topics_note

        notes = [missing_topics_note(run, topics_, len(topics), complete=complete)
                 for run, topics_ in list(missing.items())[:3]]
        more = f"; and {len(missing) - 3} more runs" if len(missing) > 3 else ""
        warnings.warn("; ".join(notes) + more, MissingTopicsWarning, stacklevel=stacklevel)
    return Evaluation(run_names=run_names, topics=topics, measures=tuple(parsed),
                      values=values, evaluated=evaluated, complete=complete, missing_topics=missing)
