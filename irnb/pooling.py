"""Simulated pools: judged masks over an Experiment's qrels entries.

A pool never re-reads or re-parses anything: it is a boolean mask ``judged[q]`` over the
official qrels entries (``experiment.judgments``), True where the entry counts as judged.
Every evaluation function takes it as ``judged=pool.judged``::

    pool = depth_pool(experiment, depth=10)
    evaluate(experiment, ["P@10", "AP"], judged=pool.judged)

Kinds of pool (each a pure function of the Experiment's arrays and its arguments):

* :func:`depth_pool` — the official qrels restricted to the documents that some contributing
  run ranks at depth ≤ d (TREC's pooling, simulated: a document not in the official qrels
  can never become judged).
* :func:`leave_one_group_out` — for every group G at once, the depth-d pool built without
  G's runs (Büttcher et al. 2007): a (G, Q) mask array.
* :func:`budget_pool` — a judgment budget: the first N qrels entries ordered by the best
  (smallest) rank at which a contributing run retrieved them, ties in a seeded random order
  (Ravana & Moffat 2010's simulation of shallow judging). Entries no contributing run
  retrieved come last, in the same seeded random order.
* :func:`random_subsample` — a uniform random (unbiased) subset of each topic's qrels
  (5%–100%, seeded).

Rules:

* "Retrieved at depth ≤ d" uses trec_eval's ranking order (``retrieved_rank`` is 1-based).
* Contributors default to ``experiment.contributors`` (every run unless the Experiment was
  built with ``contributors=``); ``runs=`` names another subset.
* A qrels entry with a negative grade ("pooled but not judged") stays in the mask when its
  document is pooled; the measures decide what a negative grade means.
* An entry outside a pool's mask is not in the pool (as if the qrels did not list it),
  except in :func:`random_subsample`, whose mask is a :class:`~irnb.poolmask.PoolMask`:
  the entries it removes stay in the pool unjudged (trec_eval's grade -1, which infAP
  uses), so ``evaluate(..., judged=pool.judged)`` computes infAP as trec_eval does on the
  file :meth:`Pool.write` writes.
* Parameters are validated against the declared bounds in :data:`POOL_PARAMS` (the widgets
  build their sliders from the same declarations).

A hand-checkable example of nested depth pools is in :func:`depth_pool`'s docstring.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator

import numpy as np
import pandas as pd

from .experiment import Experiment
from .judgments import NO_DOCUMENT
from .poolmask import PoolMask, PoolMaskError, pooled_unjudged_of
from .params import FRACTION, JUDGMENTS, KEEP_UNPOOLED, Param, random_generator
from .params import POOL_DEPTH as DEPTH
from .writing import write_qrels

__all__ = [
    "Pool",
    "GroupPools",
    "POOL_PARAMS",
    "depth_pool",
    "subset_pools",
    "contributor_mask",
    "leave_one_group_out",
    "budget_pool",
    "judgment_order",
    "random_subsample",
    "official_pool",
    "judged_depth",
    "judged_mask_of",
    "pool_label",
]


#: Declared bounds of the pool parameters (for validation and for the widgets' sliders).
POOL_PARAMS: dict[str, Param] = {p.name: p for p in (DEPTH, JUDGMENTS, FRACTION)}


@dataclass(frozen=True, eq=False)
class Pool:
    """A judged mask over the qrels entries of an Experiment.

    ``judged[q]`` is True when qrels entry ``q`` (``experiment.judgments`` order: topic, then
    docno) counts as judged; ``description`` says how the pool was made; ``depth`` and
    ``contributors`` (run names) are set for depth pools and budgets, else None.
    ``judged`` may be a :class:`~irnb.poolmask.PoolMask`, whose ``pooled_unjudged``
    entries stay in the pool unjudged (grade -1); :attr:`pooled_unjudged` gives them.
    """

    judged: np.ndarray = field(repr=False)
    description: str
    depth: int | None = None
    contributors: tuple[str, ...] | None = None

    def __post_init__(self):
        unjudged = pooled_unjudged_of(self.judged)
        mask = np.asarray(self.judged)
        if mask.dtype != bool or mask.ndim != 1:
            raise TypeError(f"Pool.judged must be a 1-d boolean mask over qrels entries, got "
                            f"dtype {mask.dtype} with shape {mask.shape}")
        if unjudged is not None:
            mask = PoolMask(mask, pooled_unjudged=unjudged)
        elif mask is self.judged and mask.flags.writeable:
            mask = mask.copy()
        mask.flags.writeable = False
        object.__setattr__(self, "judged", mask)

    @property
    def num_judged(self) -> int:
        """Number of qrels entries judged in the pool."""
        return int(np.count_nonzero(self.judged))

    @property
    def pooled_unjudged(self) -> np.ndarray:
        """(Q,) bool: entries in the pool but not judged (read as grade -1); all False
        except for :func:`random_subsample`'s pools."""
        unjudged = pooled_unjudged_of(self.judged)
        return np.zeros(self.judged.shape, dtype=bool) if unjudged is None else unjudged

    def _check(self, experiment: Experiment) -> None:
        expected = experiment.judgments.num_judgments
        if self.judged.shape[0] != expected:
            raise PoolMaskError(f"pool {self.description!r} masks {self.judged.shape[0]} qrels entries, but the "
                             f"Experiment has {expected}: a pool belongs to the Experiment it was built from")

    def per_topic(self, experiment: Experiment) -> np.ndarray:
        """(T,) number of judged entries per topic (experiment.topics order)."""
        self._check(experiment)
        return np.bincount(experiment.judgments.qrel_topic[self.judged], minlength=len(experiment.topics))

    def frame(self, experiment: Experiment) -> pd.DataFrame:
        """The pool as qrels, a DataFrame ``topic, docno, grade`` (qrels order): the judged
        entries with their grades, and the entries pooled but not judged
        (:attr:`pooled_unjudged`) with grade -1."""
        self._check(experiment)
        return experiment.judgments.frame(experiment.topics, self.judged)

    def write(self, experiment: Experiment, path: str | os.PathLike) -> None:
        """Write the pool as a TREC qrels file (``qid 0 docno grade``): :meth:`frame`, so
        entries pooled but not judged carry grade -1 and trec_eval's infAP on the file
        equals irnb's ``evaluate(..., judged=pool.judged)``."""
        frame = self.frame(experiment)
        if frame.empty:
            raise ValueError(f"pool {self.description!r} judges no document; a qrels file needs at least one")
        write_qrels(frame, path)


@dataclass(frozen=True, eq=False)
class GroupPools:
    """Leave-one-group-out pools for every group at once.

    ``judged[g, q]`` is the depth-d pool built from the contributing runs *not* in group
    ``groups[g]``; ``pools[name]`` gives one of them as a :class:`Pool`.
    """

    judged: np.ndarray = field(repr=False)  # (G, Q) bool
    groups: tuple[str, ...]
    depth: int
    contributors: tuple[str, ...]
    run_names: tuple[str, ...] = field(repr=False)
    run_groups: tuple[str, ...] = field(repr=False)  # group of each run, run_names order

    def __post_init__(self):
        self.judged.flags.writeable = False

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self) -> Iterator[Pool]:
        return (self[g] for g in self.groups)

    def index(self, group: str) -> int:
        """Row of ``group`` in ``judged``; an unknown name raises with a did-you-mean."""
        if group not in self.groups:
            import difflib

            close = difflib.get_close_matches(str(group), self.groups, n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise ValueError(f"unknown group {group!r}{hint}")
        return self.groups.index(group)

    def __getitem__(self, group: str) -> Pool:
        g = self.index(group)
        contributing = set(self.contributors)
        kept = tuple(r for r, grp in zip(self.run_names, self.run_groups, strict=True)
                     if r in contributing and grp != group)
        return Pool(self.judged[g], f"depth-{self.depth} pool without group {group}", self.depth, kept)


# ----------------------------------------------------------------------------- helpers
def judged_mask_of(experiment: Experiment, pool, *, name: str = "pool") -> np.ndarray | None:
    """The judged mask a ``pool=`` (or ``judged=``) argument stands for — the one rule every
    function that takes a pool asks: None → None (the official qrels); a :class:`Pool` → its
    ``judged`` mask (a :class:`~irnb.poolmask.PoolMask` keeps its pooled-unjudged
    entries); anything else must be a 1-d boolean mask over the Experiment's qrels entries,
    or :class:`~irnb.poolmask.PoolMaskError` (a ValueError and a TypeError) says what it got.

    >>> from irnb import Experiment
    >>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "b"], "score": [2, 1]}),
    ...                  pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [1, 0]}))
    >>> judged_mask_of(exp, depth_pool(exp, depth=1)).tolist()
    [True, False]
    >>> try:
    ...     judged_mask_of(exp, [True])
    ... except ValueError as error:   # a PoolMaskError
    ...     print(str(error).partition(", got ")[2].partition(" (build")[0])
    dtype bool with shape (1,): pool masks 1 qrels entries, but the Experiment has 2
    """
    if pool is None:
        return None
    mask = np.asarray(pool.judged if isinstance(pool, Pool) else pool)
    expected = experiment.judgments.num_judgments
    if mask.dtype != bool or mask.ndim != 1 or mask.shape[0] != expected:
        got = f"got dtype {mask.dtype} with shape {mask.shape}"
        if mask.dtype == bool and mask.ndim == 1:
            got += (f": {name} masks {mask.shape[0]} qrels entries, but the Experiment has {expected} "
                    "(build the pool from the same Experiment)")
        raise PoolMaskError(f"{name} must be an irnb.pooling.Pool or a 1-d boolean mask over the Experiment's "
                            f"{expected} qrels entries, {got}")
    return pool.judged if isinstance(pool, Pool) else mask


def pool_label(pool) -> str:
    """How results name a ``pool=`` argument: "official qrels", the :class:`Pool`'s
    description, or "a mask of N judgments" (N judged entries)."""
    if pool is None:
        return "official qrels"
    return pool.description if isinstance(pool, Pool) else f"a mask of {int(np.sum(pool))} judgments"


def contributor_index(experiment: Experiment, runs: str | Iterable[str] | None, owner: str,
                      name: str = "runs") -> np.ndarray:
    """Indices of the named runs, or (``runs=None``) of the Experiment's contributors;
    errors name the caller's parameter ``name``."""
    if runs is None:
        idx = np.flatnonzero(experiment.contributors)
        if idx.size == 0:
            raise ValueError(f"{owner}: the Experiment has no contributing runs; pass {name}=[...]")
        return idx
    names = [runs] if isinstance(runs, str) else list(runs)
    if not names:
        raise ValueError(f"{owner}: {name} must name at least one run, got an empty list")
    return np.unique(experiment.run_index(names))


def contributor_mask(experiment: Experiment, runs: str | Iterable[str] | None = None, *,
                     owner: str = "contributors", name: str = "runs") -> np.ndarray:
    """A boolean mask over the Experiment's runs: the named runs, or (``runs=None``) the
    Experiment's contributors; the rules and messages of :func:`contributor_index`, whose
    errors call the runs by the caller's parameter ``name`` (``pass contributors=[...]``)."""
    mask = np.zeros(len(experiment.run_names), dtype=bool)
    mask[contributor_index(experiment, runs, owner, name)] = True
    return mask


def subset_pools(experiment: Experiment, pool_runs: str | Iterable[str], *, depth: int, contributors=None,
                 owner: str = "subset_pools") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a contributor-subset experiment (e.g. an automatic-only pool): the contributors'
    mask over runs, the subset's mask over runs, and the judged masks over the qrels of the
    depth-d pool of all contributors and of the subset only (``full``, ``kept``). The subset
    must name contributing runs only; ``full & ~kept`` are the entries only the other
    contributors pooled.

    Returns ``(contributing, subset, full, kept)``.
    """
    depth = DEPTH.validate(depth, owner)
    contributing = contributor_mask(experiment, contributors, owner=owner, name="contributors")
    names = [pool_runs] if isinstance(pool_runs, str) else list(pool_runs)
    if not names:
        raise ValueError(f"{owner}: pool_runs must name at least one contributing run, got an empty list")
    subset = np.zeros_like(contributing)
    subset[experiment.run_index(names)] = True
    outside = subset & ~contributing
    if outside.any():
        shown = [experiment.run_names[i] for i in np.flatnonzero(outside)][:5]
        raise ValueError(f"{owner}: pool_runs must be contributing runs (a subset of the pool's contributors); "
                         f"not contributing: {shown}")
    full = _best_rank(experiment, np.flatnonzero(contributing)) <= reachable_depth(experiment, depth)
    kept = _best_rank(experiment, np.flatnonzero(subset)) <= reachable_depth(experiment, depth)
    return contributing, subset, full, kept


def _names(experiment: Experiment, idx: np.ndarray) -> tuple[str, ...]:
    return tuple(experiment.run_names[i] for i in idx)


def seeded_rng(seed, owner: str, what: str = "pools") -> np.random.Generator:
    """``seed`` itself if a Generator, else a new one seeded by the integer ``seed``; the
    error says that ``what`` (pools, curves) are reproducible."""
    return random_generator(seed, owner, note=f"{what} are reproducible")


def judged_depth(experiment: Experiment) -> np.ndarray:
    """(S,) for every run, the largest d such that its top d is judged (grade ≥ 0) on
    every topic it answers; a run shorter than d counts as judged past its end."""
    j = experiment.judgments
    doc = j.doc
    grade_ok = np.concatenate([j.judged_entries(), [False]])  # index -1 (not in qrels) → False
    judged = np.where(doc == NO_DOCUMENT, True, grade_ok[np.where(doc >= 0, doc, -1)])
    depth = judged.shape[2]
    first = np.where(judged.all(axis=2), depth, np.argmin(judged, axis=2))
    answered = experiment.length > 0
    return np.where(answered, first, depth).min(axis=1)


def reachable_depth(experiment: Experiment, depth: int) -> int:
    """``depth`` capped at the deepest ranking: a pool deeper than every run judges what the
    runs retrieved, never more (``retrieved_rank`` marks "not retrieved" with the int
    maximum, which an uncapped depth could reach)."""
    return min(int(depth), experiment.depth)


def _best_rank(experiment: Experiment, idx: np.ndarray) -> np.ndarray:
    """(Q,) the best 1-based rank at which any run in ``idx`` retrieved each qrels entry."""
    return experiment.judgments.retrieved_rank[idx].min(axis=0)


def _runs_label(experiment: Experiment, idx: np.ndarray) -> str:
    if idx.size == len(experiment.run_names):
        return "all runs"
    if np.array_equal(np.flatnonzero(experiment.contributors), idx):
        return f"{idx.size} contributing runs"
    return f"{idx.size} runs"


# ----------------------------------------------------------------------------- pools
def official_pool(experiment: Experiment) -> Pool:
    """Every official qrels entry judged (the pool that ``judged=None`` means)."""
    return Pool(np.ones(experiment.judgments.num_judgments, dtype=bool), "official qrels")


def depth_pool(experiment: Experiment, *, depth: int, runs: str | Iterable[str] | None = None) -> Pool:
    """The depth-d pool of ``runs`` (default: the Experiment's contributors): the official
    qrels entries that some of those runs rank at depth ≤ d.

    ``depth`` is the pool depth d (an integer ≥ 1). Pools are nested: a deeper pool judges
    every entry a shallower one does.

    Example: run a ranks x, y, z and run b ranks y, w; qrels judge w, x, y, z. At d = 1,
    x (a@1) and y (b@1) are judged; at d = 2, w (b@2) joins them; z (a@3) needs d = 3.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 2, "qid": "1",
    ...                      "docno": ["x", "y", "z", "y", "w"], "score": [3, 2, 1, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["w", "x", "y", "z"], "grade": [1, 0, 1, 1]})
    >>> exp = Experiment(runs, qrels)
    >>> [depth_pool(exp, depth=d).num_judged for d in (1, 2, 3)]
    [2, 3, 4]
    """
    depth = DEPTH.validate(depth, "depth_pool")
    idx = contributor_index(experiment, runs, "depth_pool")
    judged = _best_rank(experiment, idx) <= reachable_depth(experiment, depth)
    return Pool(judged, f"depth-{depth} pool of {_runs_label(experiment, idx)}", depth, _names(experiment, idx))


def leave_one_group_out(experiment: Experiment, *, depth: int,
                        runs: str | Iterable[str] | None = None, keep_unpooled: bool = False) -> GroupPools:
    """For every group G of the Experiment at once: the depth-d pool of the contributing
    runs outside G (Büttcher et al. 2007: the documents only G contributed become unjudged).

    Returns :class:`GroupPools` whose ``judged`` is a (G, Q) mask; a group with no
    contributing run gets the full depth-d pool. Vectorised: each entry is counted once per
    group that pooled it; leaving G out keeps it if some other group pooled it too.
    ``keep_unpooled=True`` starts from the official qrels instead of the depth-d pool:
    entries that no contributing run ranks at depth ≤ d (judged for other reasons) stay
    judged in every leave-out pool, and only G's unique contributions are removed.

    Example: groups A = {a} and B = {b}; a ranks x, y and b ranks y, w (all judged).
    At d = 1 the full pool is {x, y}; without A it is {y}; without B it is {x}.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1",
    ...                      "docno": ["x", "y", "y", "w"], "score": [2, 1, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["w", "x", "y"], "grade": [1, 1, 0]})
    >>> exp = Experiment(runs, qrels, groups={"a": "A", "b": "B"})
    >>> logo = leave_one_group_out(exp, depth=1)
    >>> logo["A"].frame(exp)["docno"].tolist(), logo["B"].frame(exp)["docno"].tolist()
    (['y'], ['x'])
    """
    depth = DEPTH.validate(depth, "leave_one_group_out")
    idx = contributor_index(experiment, runs, "leave_one_group_out")
    group_names = tuple(dict.fromkeys(experiment.groups))
    code = {g: i for i, g in enumerate(group_names)}
    run_group = np.array([code[g] for g in experiment.groups], dtype=np.int64)
    pooled_by_run = experiment.judgments.retrieved_rank[idx] <= reachable_depth(experiment, depth)  # (C, Q)
    G, Q = len(group_names), experiment.judgments.num_judgments
    pooled_by_group = np.zeros((G, Q), dtype=bool)
    # OR-reduce the contributors' masks per group: sort contributors by group, reduceat.
    order = np.argsort(run_group[idx], kind="stable")
    grp_sorted = run_group[idx][order]
    starts = np.flatnonzero(np.r_[True, grp_sorted[1:] != grp_sorted[:-1]])
    pooled_by_group[grp_sorted[starts]] = np.logical_or.reduceat(pooled_by_run[order], starts, axis=0)
    count = pooled_by_group.sum(axis=0, dtype=np.int32)  # groups that pooled each entry
    judged = (count[None, :] - pooled_by_group) > 0
    if KEEP_UNPOOLED.validate(keep_unpooled, "leave_one_group_out"):
        judged |= (count == 0)[None, :]
    return GroupPools(judged=judged, groups=group_names, depth=depth, contributors=_names(experiment, idx),
                      run_names=tuple(experiment.run_names), run_groups=tuple(experiment.groups))


def judgment_order(experiment: Experiment, *, runs: str | Iterable[str] | None = None, seed) -> np.ndarray:
    """The order in which a judgment budget judges the qrels entries (Ravana & Moffat 2010):
    by the best rank at which a contributing run retrieved each entry, ties (and entries no
    contributing run retrieved, which come last) in a random order fixed by ``seed``.

    Returns a permutation of ``range(Q)``; ``budget_pool(judgments=N)`` judges its first N.
    """
    idx = contributor_index(experiment, runs, "judgment_order")
    rng = seeded_rng(seed, "judgment_order")
    best = _best_rank(experiment, idx).astype(np.int64)
    tie_break = rng.permutation(best.size)
    return np.lexsort((tie_break, best))


def budget_pool(experiment: Experiment, *, judgments: int, runs: str | Iterable[str] | None = None,
                seed) -> Pool:
    """A judgment budget: the first ``judgments`` (N) qrels entries in pooling order
    (:func:`judgment_order`), over all topics together, as in Ravana & Moffat's simulation.

    Budgets with the same seed are nested: N + 1 judges what N judged and one more.

    Example: run a ranks x, y, z; qrels judge x, y, z. With a budget of 2, x (rank 1) and
    y (rank 2) are judged, whatever the seed.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["x", "y", "z"], "score": [3, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y", "z"], "grade": [1, 0, 1]})
    >>> exp = Experiment(run, qrels)
    >>> budget_pool(exp, judgments=2, seed=7).frame(exp)["docno"].tolist()
    ['x', 'y']
    """
    total = experiment.judgments.num_judgments
    n = JUDGMENTS.within(high=total, note="the number of qrels entries").validate(judgments, "budget_pool")
    idx = contributor_index(experiment, runs, "budget_pool")
    order = judgment_order(experiment, runs=_names(experiment, idx), seed=seed)
    judged = np.zeros(total, dtype=bool)
    judged[order[:n]] = True
    return Pool(judged, f"first {n} judgments in pooling order of {_runs_label(experiment, idx)}", None,
                _names(experiment, idx))


def random_subsample(experiment: Experiment, *, fraction: float, seed) -> Pool:
    """A uniform random subset of the qrels, drawn per topic (Büttcher et al. 2007's
    unbiased incomplete judgments): each topic keeps ``max(1, round(fraction · n_t))`` of its
    n_t entries, chosen uniformly at random with ``seed``. ``fraction`` is in [0.05, 1].

    The removed entries stay in the pool unjudged: the mask is a
    :class:`~irnb.poolmask.PoolMask` whose ``pooled_unjudged`` are the removed entries,
    read as trec_eval's grade -1 ("pooled but not judged"). infAP uses them (so with
    judgments removed it differs from AP, as intended by Yilmaz & Aslam); the other
    measures see a negative grade (non-relevant for P@k and AP, unjudged for bpref and
    Judged@k), exactly as if the entries had been dropped. :meth:`Pool.write` writes them
    with grade -1.

    Example: a topic with 10 entries keeps 5 at fraction 0.5; one with 3 keeps
    round(1.5) = 2 (round half to even); fraction 1 keeps everything.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["d0"], "score": [1.0]})
    >>> qrels = pd.DataFrame({"qid": ["1"] * 10 + ["2"] * 3, "docno": [f"d{i}" for i in range(13)], "grade": 1})
    >>> random_subsample(Experiment(run, qrels), fraction=0.5, seed=1).num_judged
    7
    """
    fraction = FRACTION.validate(fraction, "random_subsample")
    rng = seeded_rng(seed, "random_subsample")
    topic = experiment.judgments.qrel_topic.astype(np.int64)
    Q, T = topic.size, len(experiment.topics)
    per_topic = np.bincount(topic, minlength=T)
    keep = np.where(per_topic > 0, np.maximum(1, np.round(fraction * per_topic)), 0).astype(np.int64)
    order = np.lexsort((rng.random(Q), topic))  # entries of each topic in a random order
    position = np.empty(Q, dtype=np.int64)
    starts = experiment.judgments.topic_start[:-1]
    position[order] = np.arange(Q) - np.repeat(starts, per_topic)
    judged = position < keep[topic]
    return Pool(PoolMask(judged, pooled_unjudged=~judged), f"random {fraction:g} of each topic's qrels")


# ----------------------------------------------------------------------------- unjudged documents
# (added for irnb.plots / irnb.widgets: the data behind the thesis chapter's Fig. 7.1)
def unjudged_overlap(experiment: Experiment, run_a: str, run_b: str, *, measurement_depth: int, pool=None,
                     measure=None) -> pd.DataFrame:
    """Per topic: the unjudged documents in the top k of two runs, how many of them the two
    runs share, and both runs' scores (the thesis chapter's Fig. 7.1).

    A document is *unjudged* when it is not in the qrels, has a negative grade, or lies
    outside ``pool`` (a :class:`Pool` or a boolean mask over the qrels entries; default:
    the official qrels) — the rule of ``Unj@k``, so ``unjudged_a`` = k · Unj@k of ``run_a``.
    ``overlap`` counts the unjudged documents that are in both top-k lists (same docno).
    ``measure`` (default ``P@k``) is evaluated against the same pool; ``score_difference``
    is ``score_b − score_a`` (the thesis plots the new system minus the baseline).

    Columns: ``topic, unjudged_a, unjudged_b, overlap, score_a, score_b, score_difference,
    evaluated`` (both runs answered the topic); one row per topic of the Experiment.

    Example (hand-checkable): run a ranks x, y, z and run b ranks y, w; the qrels judge
    x and w. In the top 2, a has y unjudged, b has y unjudged (w is judged): 1, 1, and the
    overlap is 1 (y). P@2: a = 1/2 (x relevant), b = 0/2, difference −0.5.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 2, "qid": "1",
    ...                      "docno": ["x", "y", "z", "y", "w"], "score": [3, 2, 1, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["w", "x"], "grade": [0, 1]})
    >>> row = unjudged_overlap(Experiment(runs, qrels), "a", "b", measurement_depth=2).iloc[0]
    >>> [int(row[c]) for c in ("unjudged_a", "unjudged_b", "overlap")], float(row["score_difference"])
    ([1, 1, 1], -0.5)
    """
    import pyarrow as pa

    from .judgments import NOT_IN_QRELS
    from .kernels import weighted_precision
    from .measures import CUTOFF, parse_measure
    from .metrics import evaluate
    from .ordering import positions_in

    owner = "unjudged_overlap"
    k = CUTOFF.validate(measurement_depth, owner)
    idx = experiment.run_index([run_a, run_b])
    j = experiment.judgments
    mask = judged_mask_of(experiment, pool)
    judged_entry = j.judged_entries(mask)
    T, cut = len(experiment.topics), min(k, experiment.shape[2])
    doc = j.doc[idx, :, :cut]  # (2, T, cut)
    unjudged = (doc == NOT_IN_QRELS) | ((doc >= 0) & ~judged_entry[np.maximum(doc, 0)])
    counts = unjudged.sum(axis=2)
    qrel_docno = np.asarray(j.qrel_docno.to_numpy(zero_copy_only=False), dtype=object)
    keys = []
    for which, s in enumerate(idx):
        table = experiment.runs[experiment.run_names[s]].table  # trec_eval order: topic blocks, rank order
        codes = positions_in(table["topic"], pa.array(experiment.topics, pa.string()))
        rows = np.flatnonzero(codes >= 0)
        first = np.zeros(T, dtype=np.int64)
        first[codes[rows[::-1]]] = rows[::-1]  # first row of each topic's block
        t, r = np.nonzero(unjudged[which])
        q = doc[which, t, r]
        docno = np.empty(t.size, dtype=object)
        inside = q >= 0
        docno[inside] = qrel_docno[q[inside]]
        outside = np.flatnonzero(~inside)
        if outside.size:
            taken = table["docno"].take(pa.array(first[t[outside]] + r[outside]))
            docno[outside] = np.asarray(taken.to_numpy(zero_copy_only=False), dtype=object)
        keys.append(pd.DataFrame({"t": t, "docno": docno}))
    shared = keys[0].merge(keys[1], on=["t", "docno"], how="inner")
    overlap = np.bincount(shared["t"].to_numpy(np.int64), minlength=T)
    if measure is None:  # P@k (its interval's lower bound B) of the two runs alone
        relevant_entry = j.relevant_entries(mask, parse_measure(f"P@{k}").rel)
        values = weighted_precision((doc >= 0) & relevant_entry[np.maximum(doc, 0)], "P", k=k)
    else:
        m = parse_measure(measure)
        values = evaluate(experiment, m, judged=mask).values[m][idx]
    return pd.DataFrame({
        "topic": list(experiment.topics),
        "unjudged_a": counts[0].astype(np.int64), "unjudged_b": counts[1].astype(np.int64),
        "overlap": overlap.astype(np.int64),
        "score_a": values[0], "score_b": values[1], "score_difference": values[1] - values[0],
        "evaluated": (experiment.length[idx[0]] > 0) & (experiment.length[idx[1]] > 0),
    })


__all__.append("unjudged_overlap")
