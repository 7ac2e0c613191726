"""Pool-bias experiments (Büttcher, Clarke, Yeung & Soboroff, SIGIR 2007).

How unfair is a pool to a run that did not help build it? Three experiments, each a pure
function of an :class:`~irnb.Experiment` and returning plain data:

* :func:`leave_one_group_out_bias` — the paper's Table 2: for every group G at once, G's
  unique contributions to the depth-d pool become unjudged, G's runs are re-evaluated and
  re-ranked among all runs;
* :func:`contributor_subset_bias` — the paper's Table 3: the pool is built from a subset of
  the contributing runs only (e.g. the automatic ones), every run is re-evaluated;
  :func:`pool_bias` does the same for any reduced pool;
* :func:`subsampling_curves` — the paper's Figure 1: unbiased random subsets of the qrels
  (5%–80%), mean score and rank correlation versus the share of qrels kept.

Exactly what is computed (written policy)
-----------------------------------------
*Reference* and *reduced* judgments. ``reference="qrels"`` (default, the paper's step 2
literally): the reference is the official qrels; the reduced judgments are the official
qrels minus the entries that only the left-out runs put in the depth-d pool (an entry no
contributing run ranks at depth ≤ d is never removed). ``reference="pool"``: the reference
is the depth-d pool of all contributing runs (:func:`irnb.pooling.depth_pool`) and the
reduced judgments the depth-d pool without the left-out runs — use it when the
Experiment's qrels are a deeper truth from which a shallow pool is simulated. When the
official qrels are exactly the depth-d pool of the contributors (as in TREC and in
:func:`irnb.datasets.simulate`), both choices are the same.

Leave-one-group-out. A group is *left out* only if it has a contributing run, and its
*left-out runs* are its contributing runs among the ranked runs (Büttcher et al.: the runs
"that contributed documents to the qrels"): each is evaluated against the judgments without
G's unique contributions; its *reduced rank* is its rank among ALL ranked runs (default
every run of the Experiment), where G's left-out runs have their reduced scores and every
other run keeps its reference score (irnb's choice; the paper does not say). A run that did not contribute
— of G or of a group without a contributing run — is not left out (its pool is the full
pool: nothing it alone pooled is removed) and counts in no statistic except the rankings.
Kendall's τ and τ_AP compare the reference ranking with the ranking of every run by its
reduced score (each left-out run scored as if its own group had not contributed — Zobel's
leave-one-out ranking; every other run at its reference score).

Contributor subset / any reduced pool. Every ranked run is evaluated against the reduced
judgments; a left-out run's reduced rank is its rank in that reduced ranking of all
ranked runs; τ and τ_AP compare the two full rankings. ``left_out`` defaults to the
contributing runs outside the subset (the paper's "manual runs").

Ranks, ties, rounding. Rank 1 is the best run (the highest score; the lowest for a measure
whose ``higher_is_better`` is False). Scores are rounded to 12 decimals first, so that
values equal up to floating-point noise tie. Reference ties are broken by run order; in a
reduced ranking, ties are broken by the reference rank, so a run whose score does not
change does not move. ``rank_change = reference_rank − reduced_rank``: positive means
the run moved *up*.

Statistics per measure, over the left-out runs (the rows of the paper's Tables 2 and 3):
mean absolute rank change, mean signed rank change, largest move up / down, runs moved
up / down, RMS error of the mean scores √(Σ (o_i − n_i)² / N), mean score change, the % of
runs whose per-topic scores differ significantly (paired two-sided t-test over the topics
the run answered, p < ``alpha`` = 0.05; all-zero differences give p = 1, a constant
non-zero difference p = 0, fewer than two topics p = NaN = not significant), Kendall's τ
and τ_AP over all ranked runs, and τ over the left-out runs only.

Kendall's τ here follows Büttcher et al.: "whenever a tie is encountered, it is assumed
that the two entries are ranked in the correct order", i.e. τ = 1 − 2·D / (n(n−1)/2) with
D the pairs ordered oppositely by the two score vectors (a tie in either counts as
concordant). τ_AP (Yilmaz, Aslam & Robertson 2008) is top-weighted and asymmetric: walk
down the *reduced* ranking; for the run at position i (i = 2..n) let C(i) be the runs above
it that the reference ranks at least as high; τ_AP = 2/(n−1) · Σ_i C(i)/(i−1) − 1.

Binary judgments. Büttcher et al. read every judgment as binary ("relevant" and "highly
relevant" both simply relevant), nDCG@20 included. The experiments here evaluate the
Experiment as given (trec_eval's graded nDCG on graded qrels); :func:`binary_judgments`
returns the Experiment with every grade ≥ the relevance level read as 1, as the paper's
reproductions (:mod:`irnb.papers.buttcher`) use it. Only gain-based measures (nDCG) change:
every other measure of the tables reads grade ≥ 1 as relevant either way.

infAP equals AP here (to ~1e-5, trec_eval's ε): a reduced pool leaves documents out of the
qrels altogether, and trec_eval's infAP differs from AP only through qrels entries marked
"pooled but not judged" (negative grades), which these experiments never create.

Speed: the reference is one :func:`irnb.evaluate` call for all runs; each left-out group
evaluates only its own runs (one kernel pass per measure over those runs), so the whole
leave-one-group-out table costs about two evaluations of every run. Ranks, tests and
correlations are numpy over (measure, run, run) arrays.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from .experiment import Experiment
from .kernels import Judged, compute
from .measures import Measure, parse_measures
from .params import ALPHA, BIAS_REFERENCE, HIGHER_IS_BETTER, PROGRESS, RELEVANCE_LEVEL, REPEATS
from .metrics import aggregate_over_topics, evaluate, judged_level_counts, level_counts_beside
from .pooling import (DEPTH, contributor_mask, depth_pool, judged_mask_of, leave_one_group_out, pool_label,
                      random_subsample, seeded_rng, subset_pools)
from .results import Result
from .pair_kernels import paired_summaries, paired_t_kernel
from .sweep import sweep

__all__ = [
    "BIAS_MEASURES",
    "binary_judgments",
    "REFERENCES",
    "SUBSAMPLING_FRACTIONS",
    "BiasResult",
    "leave_one_group_out_bias",
    "contributor_subset_bias",
    "pool_bias",
    "subsampling_curves",
    "kendall_tau",
    "tau_ap",
    "rms_error",
    "ranks",
]

#: The measures of Büttcher et al.'s tables (MRR = mean RR), plus infAP.
BIAS_MEASURES = ("RR", "P@10", "P@20", "nDCG@20", "AP", "Bpref", "P@20(j)", "RankEff", "infAP")
#: What the reduced judgments are compared with (see the module docstring).
REFERENCES = BIAS_REFERENCE.choices
#: Büttcher et al.'s subsampling levels (share of the qrels kept).
SUBSAMPLING_FRACTIONS = (0.05, 0.1, 0.2, 0.4, 0.6, 0.8)

_DECIMALS = 12  # scores equal to 12 decimals tie


# =============================================================================== correlations
def _as_scores(values, name: str) -> np.ndarray:
    try:
        array = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of numbers (one score per system), got "
                        f"{type(values).__name__}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-d (one score per system), got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must hold finite numbers, got {array[~np.isfinite(array)][0]!r}")
    return array


def _pair(reference, other) -> tuple[np.ndarray, np.ndarray]:
    a, b = _as_scores(reference, "reference"), _as_scores(other, "other")
    if a.shape != b.shape:
        raise ValueError(f"reference and other must score the same systems, got {a.size} and {b.size} scores")
    if a.size < 2:
        raise ValueError(f"a rank correlation needs at least 2 systems, got {a.size}")
    return a, b


def _tau(reference: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Kendall's τ (ties concordant) along the last axis; (..., n) → (...)."""
    n = reference.shape[-1]
    if n < 2:
        return np.full(reference.shape[:-1], np.nan)
    i, j = np.triu_indices(n, 1)
    discordant = (np.sign(reference[..., i] - reference[..., j]) * np.sign(other[..., i] - other[..., j])) < 0
    return 1.0 - 2.0 * discordant.sum(axis=-1) / i.size


def _order(scores: np.ndarray, tie_break: np.ndarray) -> np.ndarray:
    """Indices from best to worst along the last axis: score descending, then tie_break
    ascending."""
    return np.lexsort((tie_break, -scores), axis=-1)


def _positions(scores: np.ndarray, tie_break: np.ndarray) -> np.ndarray:
    """1-based rank of every entry (the inverse of :func:`_order`)."""
    order = _order(scores, tie_break)
    out = np.empty_like(order)
    np.put_along_axis(out, order, np.arange(1, order.shape[-1] + 1), axis=-1)
    return out


def _tau_ap(reference: np.ndarray, other: np.ndarray) -> np.ndarray:
    """τ_AP along the last axis; (..., n) → (...). ``other`` is the estimated ranking."""
    n = reference.shape[-1]
    if n < 2:
        return np.full(reference.shape[:-1], np.nan)
    index = np.broadcast_to(np.arange(n), reference.shape)
    ref_rank = _positions(reference, index)
    order = _order(other, ref_rank)  # ties in `other` follow the reference: counted correct
    ref_sorted = np.take_along_axis(reference, order, axis=-1)
    above_ok = ref_sorted[..., :, None] >= ref_sorted[..., None, :]  # [i, j]: i above j is correct
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    correct = (above_ok & upper).sum(axis=-2)[..., 1:]  # C(j) for positions j = 2..n
    return 2.0 / (n - 1) * (correct / np.arange(1, n)).sum(axis=-1) - 1.0


def kendall_tau(reference, other) -> float:
    """Kendall's τ between two score vectors over the same systems, ties counted as
    concordant (Büttcher et al. 2007): τ = 1 − 2·D / (n(n−1)/2).

    Example: scores (3, 2, 1) and (3, 1, 2): one of three pairs is swapped,
    τ = 1 − 2·1/3 = 0.3333; a tie in either vector is never a swap.

    >>> round(kendall_tau([3, 2, 1], [3, 1, 2]), 4), kendall_tau([3, 2, 1], [1, 2, 3])
    (0.3333, -1.0)
    >>> kendall_tau([3, 2, 1], [2, 2, 1])
    1.0
    """
    a, b = _pair(reference, other)
    return float(_tau(a, b))


def tau_ap(reference, other) -> float:
    """τ_AP (Yilmaz, Aslam & Robertson 2008): AP-style rank correlation that weighs swaps
    near the top more. ``reference`` gives the true order, ``other`` the estimated one
    (not symmetric). τ_AP = 2/(n−1) · Σ_{i=2..n} C(i)/(i−1) − 1, C(i) = systems above
    position i of ``other``'s ranking that ``reference`` ranks at least as high.

    Example: reference (3, 2, 1) = a, b, c; other (2, 3, 1) ranks b, a, c. Position 2 (a):
    b above it is wrong, C = 0; position 3 (c): a and b above it are right, C = 2;
    τ_AP = 2/2 · (0/1 + 2/2) − 1 = 0. Swapping the bottom pair instead costs less:
    other (3, 1, 2): C = 1, 1 → τ_AP = (1 + 1/2) − 1 = 0.5 (Kendall's τ is 1/3 for both).

    >>> tau_ap([3, 2, 1], [2, 3, 1]), tau_ap([3, 2, 1], [3, 1, 2])
    (0.0, 0.5)
    """
    a, b = _pair(reference, other)
    return float(_tau_ap(a, b))


def rms_error(old, new) -> float:
    """Root mean square error between old and new scores: √(Σ (o_i − n_i)² / N)
    (Büttcher et al.'s equation 3).

    >>> round(rms_error([0.3, 0.5], [0.2, 0.5]), 4)     # √((0.01 + 0) / 2)
    0.0707
    """
    o, n = _as_scores(old, "old"), _as_scores(new, "new")
    if o.shape != n.shape or o.size == 0:
        raise ValueError(f"old and new must hold the same number (≥ 1) of scores, got {o.size} and {n.size}")
    return float(np.sqrt(np.mean((o - n) ** 2)))


def ranks(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """1-based ranks (1 = best); ties broken by position (the first listed ranks higher).

    >>> ranks([0.2, 0.5, 0.2, 0.1]).tolist()
    [2, 1, 3, 4]
    """
    higher_is_better = HIGHER_IS_BETTER.validate(higher_is_better, "ranks")
    s = _as_scores(scores, "scores")
    s = s if higher_is_better else -s
    return _positions(s, np.arange(s.size)).astype(np.int64)


# =============================================================================== result
_SUMMARY_COLUMNS = ("left_out", "mean_abs_rank_change", "mean_rank_change", "max_rank_up", "max_rank_down",
                    "moved_up", "moved_down", "rms_error", "mean_score_change", "pct_significant",
                    "kendall_tau", "tau_ap", "kendall_tau_left_out")


@dataclass(frozen=True, eq=False)
class BiasResult(Result):
    """Reference versus reduced judgments for every ranked run and measure.

    Arrays are (M, S): measures × ranked runs (``run_names`` order). ``reference_score`` /
    ``reduced_score`` are the runs' mean scores (over the topics each run answered) with
    the reference and the reduced judgments; ``reduced_rank`` is the rank in the run's
    reduced configuration (see the module docstring); ``p_value`` is the paired t-test
    of the per-topic scores. ``left_out[s]`` marks the runs whose judgments were reduced.
    """

    kind: str
    description: str
    measures: tuple[Measure, ...]
    run_names: tuple[str, ...]
    groups: tuple[str, ...]
    left_out: np.ndarray = field(repr=False)  # (S,) bool
    reference_score: np.ndarray = field(repr=False)
    reduced_score: np.ndarray = field(repr=False)
    reference_rank: np.ndarray = field(repr=False)
    reduced_rank: np.ndarray = field(repr=False)
    p_value: np.ndarray = field(repr=False)
    kendall_tau: np.ndarray = field(repr=False)  # (M,)
    tau_ap: np.ndarray = field(repr=False)  # (M,)
    kendall_tau_left_out: np.ndarray = field(repr=False)  # (M,)

    def __post_init__(self):
        for name in ("left_out", "reference_score", "reduced_score", "reference_rank", "reduced_rank", "p_value",
                     "kendall_tau", "tau_ap", "kendall_tau_left_out"):
            getattr(self, name).flags.writeable = False

    @property
    def rank_change(self) -> np.ndarray:
        """(M, S) reference rank − reduced rank: positive = moved up."""
        return self.reference_rank - self.reduced_rank

    def frame_columns(self) -> dict:
        """Tidy rows, one per (measure, ranked run): ``measure, run, group, left_out,
        reference_score, reduced_score, score_change, reference_rank, reduced_rank,
        rank_change, p_value``."""
        M, S = self.reference_score.shape
        names = np.asarray(self.run_names, dtype=object)
        return {
            "measure": np.repeat([m.name for m in self.measures], S),
            "run": np.tile(names, M),
            "group": np.tile(np.asarray(self.groups, dtype=object), M),
            "left_out": np.tile(self.left_out, M),
            "reference_score": self.reference_score.ravel(),
            "reduced_score": self.reduced_score.ravel(),
            "score_change": (self.reduced_score - self.reference_score).ravel(),
            "reference_rank": self.reference_rank.ravel(),
            "reduced_rank": self.reduced_rank.ravel(),
            "rank_change": self.rank_change.ravel(),
            "p_value": self.p_value.ravel(),
        }

    def summary(self, *, alpha: float = ALPHA.default) -> pd.DataFrame:
        """One row per measure, one column per statistic (over the left-out runs; τ over
        all ranked runs): ``left_out`` (how many), ``mean_abs_rank_change``,
        ``mean_rank_change`` (+ = up), ``max_rank_up``, ``max_rank_down``, ``moved_up``,
        ``moved_down``, ``rms_error``, ``mean_score_change``, ``pct_significant``
        (% with p < ``alpha``), ``kendall_tau``, ``tau_ap``, ``kendall_tau_left_out``."""
        alpha = ALPHA.validate(alpha, "BiasResult.summary")
        L = self.left_out
        n = int(L.sum())
        change = self.rank_change[:, L].astype(np.float64)
        diff = self.reduced_score[:, L] - self.reference_score[:, L]
        with np.errstate(invalid="ignore"):
            significant = (self.p_value[:, L] < alpha).sum(axis=1)
        nan = np.full(len(self.measures), np.nan)
        rows = {
            "left_out": np.full(len(self.measures), n),
            "mean_abs_rank_change": np.abs(change).mean(axis=1) if n else nan,
            "mean_rank_change": change.mean(axis=1) if n else nan,
            "max_rank_up": np.maximum(change, 0).max(axis=1, initial=0).astype(np.int64),
            "max_rank_down": np.maximum(-change, 0).max(axis=1, initial=0).astype(np.int64),
            "moved_up": (change > 0).sum(axis=1),
            "moved_down": (change < 0).sum(axis=1),
            "rms_error": np.sqrt((diff ** 2).mean(axis=1)) if n else nan,
            "mean_score_change": diff.mean(axis=1) if n else nan,
            "pct_significant": 100.0 * significant / n if n else nan,
            "kendall_tau": self.kendall_tau,
            "tau_ap": self.tau_ap,
            "kendall_tau_left_out": self.kendall_tau_left_out,
        }
        return pd.DataFrame(rows, index=pd.Index([m.name for m in self.measures], name="measure"))

    def table(self, *, alpha: float = ALPHA.default) -> pd.DataFrame:
        """The paper's layout (Tables 2 and 3): statistics as rows, measures as columns."""
        return self.summary(alpha=alpha).T.rename_axis(index="statistic", columns="measure")


# =============================================================================== kernels
def _check_reference(reference: str, owner: str) -> str:
    return BIAS_REFERENCE.validate(reference, owner)


def ranked_index(experiment: Experiment, ranked, owner: str) -> np.ndarray:
    if ranked is None:
        return np.arange(len(experiment.run_names))
    names = [ranked] if isinstance(ranked, str) else list(ranked)
    if len(names) < 2:
        raise ValueError(f"{owner}: ranked must name at least 2 runs (a ranking), got {names!r}")
    idx = experiment.run_index(names)
    if np.unique(idx).size != idx.size:
        raise ValueError(f"{owner}: ranked names a run twice: {sorted({n for n in names if names.count(n) > 1})}")
    return np.sort(idx)


def runs_in_mask(experiment: Experiment, mask: np.ndarray) -> list[str]:
    return [experiment.run_names[i] for i in np.flatnonzero(mask)]


def _subset_view(experiment: Experiment, judged: np.ndarray | None, idx: np.ndarray,
                 topics: np.ndarray | None = None, base: tuple | None = None) -> Judged:
    """The kernels' view of runs ``idx`` only (and of ``topics`` only, when given), with the
    qrels restricted to ``judged`` (a private shortcut: :func:`irnb.metrics.judged_view`
    lays out every run and topic). ``base``: (a mask, its level counts), from which the
    counts under ``judged`` are found by the entries that differ."""
    j = experiment.judgments
    T = len(experiment.topics)
    counts = judged_level_counts(j, T, judged) if base is None else level_counts_beside(j, T, judged, *base)
    if topics is None:
        return Judged(grade=j.grade_array(judged, runs=idx), level_counts=counts, length=experiment.length[idx])
    cells = np.ix_(idx, topics)
    return Judged(grade=j.grade_array(judged, runs=cells), level_counts=counts[topics],
                  length=experiment.length[cells])


def per_topic_values(view: Judged, measures: Sequence[Measure]) -> np.ndarray:
    """(M, S, T) per-topic values on a view."""
    return np.stack([compute(view, m) for m in measures])


def _means(values: np.ndarray, evaluated: np.ndarray, measures: Sequence[Measure]) -> np.ndarray:
    return np.stack([aggregate_over_topics(values[i], evaluated, m.spec.aggregate) for i, m in enumerate(measures)])


def _paired_t_p(a: np.ndarray, b: np.ndarray, evaluated: np.ndarray) -> np.ndarray:
    """Two-sided paired t-test p-value of a − b over the evaluated topics, per row:
    (..., S, T) → (..., S); equals ``scipy.stats.ttest_rel``. The kernel and policy of
    :func:`irnb.stats.t_test`: all differences 0 → p = 1; constant non-zero difference →
    p = 0; n < 2 otherwise → NaN."""
    a, b = np.broadcast_arrays(a, b, evaluated)[:2]
    shape, T = a.shape[:-1], a.shape[-1]
    x = np.where(evaluated, a, np.nan).reshape(-1, T)
    y = np.where(evaluated, b, np.nan).reshape(-1, T)
    return paired_t_kernel(paired_summaries(x, y))[1].reshape(shape)


def assemble_bias_result(kind: str, description: str, experiment: Experiment, measures: tuple[Measure, ...],
                         idx: np.ndarray, left_out: np.ndarray, reference: np.ndarray, reduced: np.ndarray,
                         config: np.ndarray) -> BiasResult:
    """From (M, S, T) per-topic values to a BiasResult. ``config[s, r]``: in run s's reduced
    configuration, run r has its reduced score (else its reference score)."""
    evaluated = experiment.length[idx] > 0
    reference = np.round(reference, _DECIMALS)
    reduced = np.round(reduced, _DECIMALS)
    ref_mean = np.round(_means(reference, evaluated, measures), _DECIMALS)
    red_mean = np.round(_means(reduced, evaluated, measures), _DECIMALS)
    sign = np.array([1.0 if m.spec.higher_is_better else -1.0 for m in measures])[:, None]
    ref_key, red_key = sign * ref_mean, sign * red_mean  # higher key = better
    M, S = ref_mean.shape
    ref_rank = _positions(ref_key, np.broadcast_to(np.arange(S), (M, S)))
    # each run's rank in its own configuration: (M, s, r) scores seen by run s
    seen = np.where(config[None, :, :], red_key[:, None, :], ref_key[:, None, :])
    own = red_key[:, :, None]
    better = (seen > own) | ((seen == own) & (ref_rank[:, None, :] < ref_rank[:, :, None]))
    better &= ~np.eye(S, dtype=bool)[None]
    red_rank = 1 + better.sum(axis=2)
    p_value = _paired_t_p(reference, reduced, evaluated[None])
    tau_left = _tau(ref_key[:, left_out], red_key[:, left_out])
    return BiasResult(kind=kind, description=description, measures=measures,
                      run_names=tuple(experiment.run_names[i] for i in idx),
                      groups=tuple(experiment.groups[i] for i in idx), left_out=left_out.copy(),
                      reference_score=ref_mean, reduced_score=red_mean, reference_rank=ref_rank.astype(np.int64),
                      reduced_rank=red_rank.astype(np.int64), p_value=p_value,
                      kendall_tau=_tau(ref_key, red_key), tau_ap=_tau_ap(ref_key, red_key),
                      kendall_tau_left_out=tau_left)


def _reduced_values(experiment: Experiment, judged: np.ndarray, runs: np.ndarray,
                    measures: tuple[Measure, ...], topics: np.ndarray | None = None,
                    base: tuple | None = None) -> np.ndarray:
    """Per-topic values of ``runs`` (on ``topics``, default all) on the qrels restricted to
    ``judged`` (one sweep task; ``base`` as in :func:`_subset_view`)."""
    return per_topic_values(_subset_view(experiment, judged, runs, topics, base), measures)


def _for_workers(experiment: Experiment) -> Experiment:
    """A shallow copy of ``experiment`` without its runs' tables (``runs`` is empty) and
    without the complete qrels (``truth`` is None): the sweep tasks read the official
    judgments' dense arrays only, and the rest is most of what a worker process would
    otherwise be sent (71 of 81 MB for the default collection)."""
    light = copy.copy(experiment)
    light.runs, light.truth = {}, None
    return light


def _changed_topics(experiment: Experiment, judged: np.ndarray, reference: np.ndarray | None) -> np.ndarray:
    """Topics with a qrels entry judged in ``reference`` (None: every entry) but not in
    ``judged`` or the other way round: the only topics whose values can differ."""
    j = experiment.judgments
    differ = ~judged if reference is None else judged != reference
    return np.unique(j.qrel_topic[differ])


def _subsample_means(experiment: Experiment, measures: tuple[Measure, ...], judged: np.ndarray,
                     idx: np.ndarray) -> np.ndarray:
    """Rounded mean scores of the runs ``idx`` on the qrels restricted to ``judged`` (one sweep task)."""
    evaluated = experiment.length[idx] > 0
    return np.round(_means(reference_values(experiment, measures, judged, idx), evaluated, measures), _DECIMALS)


def reference_values(experiment: Experiment, measures: tuple[Measure, ...], judged, idx) -> np.ndarray:
    ev = evaluate(experiment, measures, judged=judged)  # one call, every run
    return np.stack([ev.values[m][idx] for m in measures])


# =============================================================================== public API
def binary_judgments(experiment: Experiment, *, relevance_level: int = RELEVANCE_LEVEL.default) -> Experiment:
    """The Experiment with binary judgments, as Büttcher et al. read every judgment: a grade ≥
    ``relevance_level`` becomes 1, a lower grade ≥ 0 becomes 0; negative grades (trec_eval's
    "pooled but not judged") stay as they are. The official and the complete (``truth``)
    qrels both; runs, groups and contributors are shared with ``experiment`` (not copied).

    Only gain-based measures change: nDCG with grades 0, 1, 2 gives a grade-2 document the
    gain 2; here it gets 1. E.g. one topic, a run ranking a (grade 2) then b (grade 1), both
    the only judged: nDCG@2 is 1.0 either way (the ideal order is the run's), but a run
    ranking b then a scores (1 + 2/log2(3)) / (2 + 1/log2(3)) = 0.8597 on the graded qrels
    and 1.0 on the binary ones.

    >>> import pandas as pd
    >>> from irnb import Experiment, evaluate
    >>> run = pd.DataFrame({"run": "r", "qid": "1", "docno": ["b", "a"], "score": [2, 1]})
    >>> exp = Experiment(run, pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [2, 1]}))
    >>> round(float(evaluate(exp, ["nDCG@2"]).aggregate("nDCG@2")[0]), 4)
    0.8597
    >>> float(evaluate(binary_judgments(exp), ["nDCG@2"]).aggregate("nDCG@2")[0])
    1.0
    """
    level = RELEVANCE_LEVEL.validate(relevance_level, "binary_judgments")
    binary = copy.copy(experiment)
    binary.judgments = _binary(experiment.judgments, level)
    binary.truth = None if experiment.truth is None else _binary(experiment.truth, level)
    table = experiment.qrels.table
    grade = table["grade"].to_numpy()
    grade = np.where(grade >= level, 1, np.where(grade >= 0, 0, grade)).astype(grade.dtype)
    column = table.schema.get_field_index("grade")
    binary.qrels = replace(experiment.qrels, table=table.set_column(column, "grade", pa.array(grade)),
                           source=f"{experiment.qrels.source} (binary: grade ≥ {level} → 1)")
    return binary


def _binary(judgments, level: int):
    grade = judgments.qrel_grade
    return replace(judgments, qrel_grade=np.where(grade >= level, 1, np.where(grade >= 0, 0, grade)).astype(np.int8))


def leave_one_group_out_bias(experiment: Experiment, *, depth: int,
                             measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
                             contributors: Iterable[str] | None = None, ranked: Iterable[str] | None = None,
                             reference: str = BIAS_REFERENCE.default, n_jobs: int | None = None,
                             progress: bool | None = None) -> BiasResult:
    """Büttcher et al.'s leave-one-out experiment (their Table 2) for every group at once.

    For each group G with a contributing run: the entries only G's contributing runs put
    in the depth-``depth`` pool become unjudged; each of G's contributing runs (its
    left-out runs) is re-evaluated and re-ranked among all ranked runs, the other runs
    keeping their reference scores.
    See the module docstring for every rule (reference judgments, ranks, ties, τ).

    Parameters: ``depth`` the pool depth d; ``measures`` (default :data:`BIAS_MEASURES`);
    ``contributors`` the runs that built the pool (default ``experiment.contributors``);
    ``ranked`` the runs ranked and evaluated (default: every run); ``reference``
    ``"qrels"`` or ``"pool"``; ``n_jobs``, ``progress``: one task per group, see
    :mod:`irnb.sweep`.

    Example (hand-checkable): one topic, groups A = {a} and B = {b}; a ranks x, y and
    b ranks y, w; all three are relevant, d = 2. Without A, x (only a pooled it) is
    unjudged: a's AP falls from (1/1 + 2/2)/3 = 0.6667 to (1/2)/2 = 0.25 (R = 2) and a
    drops below b, which keeps its reference AP (1/1 + 2/2)/3 = 0.6667 (the tie was a's by
    run order). Without B, w is unjudged: b's AP = (1/1)/2 = 0.5 < 0.6667, b stays 2nd.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "y", "y", "w"],
    ...                      "score": [2, 1, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["w", "x", "y"], "grade": 1})
    >>> exp = Experiment(runs, qrels, groups={"a": "A", "b": "B"})
    >>> res = leave_one_group_out_bias(exp, depth=2, measures=["AP"])
    >>> res.reference_score.round(4).tolist(), res.reduced_score.round(4).tolist()
    ([[0.6667, 0.6667]], [[0.25, 0.5]])
    >>> res.reference_rank.tolist(), res.reduced_rank.tolist()    # each alone with the other at full score
    ([[1, 2]], [[2, 2]])
    """
    progress = PROGRESS.validate(progress, "leave_one_group_out_bias")
    return _leave_one_group_out(experiment, depth=depth, measures=measures, contributors=contributors,
                                ranked=ranked, reference=reference, n_jobs=n_jobs, progress=progress)


def _leave_one_group_out(experiment: Experiment, *, depth: int, measures, contributors, ranked, reference: str,
                         n_jobs: int | None, progress: bool | None, reuse: bool = True) -> BiasResult:
    """:func:`leave_one_group_out_bias`. Leaving a group out unjudges only the entries it
    alone pooled, so only the topics of those entries can change: with ``reuse`` (the
    default) each group's runs keep their reference values on every other topic and are
    re-evaluated on those topics only (the same values as re-evaluating everything: a
    test compares the two)."""
    owner = "leave_one_group_out_bias"
    reference = _check_reference(reference, owner)
    depth = DEPTH.validate(depth, owner)
    parsed = tuple(parse_measures(measures))
    idx = ranked_index(experiment, ranked, owner)
    contributing = contributor_mask(experiment, contributors, owner=owner, name="contributors")
    runs = runs_in_mask(experiment, contributing)
    # qrels reference: drop only G's unique entries from the official qrels (keep_unpooled)
    pools = leave_one_group_out(experiment, depth=depth, runs=runs, keep_unpooled=reference == "qrels")
    ref_judged = None if reference == "qrels" else depth_pool(experiment, depth=depth, runs=runs).judged
    ref_values = reference_values(experiment, parsed, ref_judged, idx)
    red_values = ref_values.copy()
    run_group = np.asarray(experiment.groups, dtype=object)
    contributing_groups = set(run_group[contributing])
    left_out = np.zeros(idx.size, dtype=bool)
    tasks = []
    shipped = _for_workers(experiment)
    # each group's pool differs from the reference in its unique entries only: its level
    # counts are the reference's with those counted out
    base = (ref_judged, judged_level_counts(experiment.judgments, len(experiment.topics), ref_judged))
    for g, name in enumerate(pools.groups):
        members = np.flatnonzero((run_group[idx] == name) & contributing[idx])  # G's pooled runs
        if name in contributing_groups and members.size:
            left_out[members] = True
            topics = _changed_topics(experiment, pools.judged[g], ref_judged) if reuse else None
            if topics is None or topics.size:  # else: nothing changes, the reference values stand
                tasks.append((members, topics, (shipped, pools.judged[g], idx[members], parsed, topics, base)))
    values = sweep(_reduced_values, [args for _, _, args in tasks], n_jobs=n_jobs, progress=progress,
                   desc="groups left out", owner=owner)
    for (members, topics, _), reduced in zip(tasks, values, strict=True):
        if topics is None:
            red_values[:, members] = reduced
        else:
            red_values[:, members[:, None], topics] = reduced
    ranked_groups = run_group[idx]
    config = (ranked_groups[:, None] == ranked_groups[None, :]) & left_out[None, :]
    description = (f"leave-one-group-out at depth {depth} ({int(contributing.sum())} contributing runs, "
                   f"reference: {'official qrels' if reference == 'qrels' else f'depth-{depth} pool'})")
    return assemble_bias_result("leave-one-group-out", description, experiment, parsed, idx, left_out, ref_values,
                                red_values, config)


def pool_bias(experiment: Experiment, reduced, *, left_out: Iterable[str] | None = None, reference_pool=None,
              measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
              ranked: Iterable[str] | None = None, description: str | None = None) -> BiasResult:
    """Every ranked run evaluated with the ``reduced`` judgments (a :class:`~irnb.pooling.Pool`
    or a boolean mask over the qrels entries) against ``reference_pool`` (default: the
    official qrels); statistics over the ``left_out`` runs (default: every ranked run).

    Example: one topic, run a ranks x, y (x relevant, y not), run b ranks y, x. Leaving
    x unjudged drops both to P@1 = 0 and RR = 0; their ranking keeps its order (ties follow
    the reference), so nothing moves and τ = 1; RMS error of RR over both runs
    = √((1² + 0.5²)/2) = 0.7906.

    >>> import numpy as np, pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "y", "y", "x"],
    ...                      "score": [2, 1, 2, 1]})
    >>> exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]}))
    >>> res = pool_bias(exp, np.array([False, True]), measures=["RR"])
    >>> res.reduced_score.tolist(), res.rank_change.tolist(), round(float(res.summary()["rms_error"].iloc[0]), 4)
    ([[0.0, 0.0]], [[0, 0]], 0.7906)
    """
    owner = "pool_bias"
    parsed = tuple(parse_measures(measures))
    idx = ranked_index(experiment, ranked, owner)
    red_mask = judged_mask_of(experiment, reduced, name="reduced")
    ref_mask = judged_mask_of(experiment, reference_pool, name="reference_pool")
    ref_values = reference_values(experiment, parsed, ref_mask, idx)
    red_values = reference_values(experiment, parsed, red_mask, idx)
    if left_out is None:
        lo = np.ones(idx.size, dtype=bool)
    else:
        lo = np.isin(idx, experiment.run_index([left_out] if isinstance(left_out, str) else list(left_out)))
    config = np.ones((idx.size, idx.size), dtype=bool)
    if description is None:
        label = pool_label(reduced)
        description = f"every run evaluated with {label}"
    return assemble_bias_result("reduced pool", description, experiment, parsed, idx, lo, ref_values, red_values,
                                config)


def contributor_subset_bias(experiment: Experiment, pool_runs: Iterable[str], *, depth: int,
                            measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
                            contributors: Iterable[str] | None = None, left_out: Iterable[str] | None = None,
                            ranked: Iterable[str] | None = None, reference: str = BIAS_REFERENCE.default) -> BiasResult:
    """Büttcher et al.'s automatic-only experiment (their Table 3) for any subset of the
    contributing runs: the depth-``depth`` pool of ``pool_runs`` only; every ranked run is
    re-evaluated and re-ranked; statistics over ``left_out`` (default: the contributing
    runs outside ``pool_runs``).

    With ``reference="qrels"`` the reduced judgments are the official qrels minus the
    entries that only contributors outside ``pool_runs`` pooled at depth ≤ d; with
    ``"pool"``, the depth-d pool of ``pool_runs`` against that of all contributors.

    Example: run a (automatic) ranks x, y; run m (manual) ranks w, x; all relevant, d = 1.
    The automatic-only pool judges x only: m's P@1 falls from 1 to 0, a's stays 1.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a", "a", "m", "m"], "qid": "1", "docno": ["x", "y", "w", "x"],
    ...                      "score": [2, 1, 2, 1]})
    >>> exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["w", "x", "y"], "grade": 1}))
    >>> res = contributor_subset_bias(exp, ["a"], depth=1, measures=["P@1"])
    >>> res.left_out.tolist(), res.reduced_score.tolist()
    ([False, True], [[1.0, 0.0]])
    """
    owner = "contributor_subset_bias"
    reference = _check_reference(reference, owner)
    contributing, subset, full, kept = subset_pools(experiment, pool_runs, depth=depth, contributors=contributors,
                                                    owner=owner)
    if reference == "qrels":
        ref_pool, reduced = None, ~(full & ~kept)
    else:
        ref_pool, reduced = full, kept
    if left_out is None:
        left_out = runs_in_mask(experiment, contributing & ~subset)
    description = (f"depth-{depth} pool of {int(subset.sum())} of {int(contributing.sum())} contributing runs "
                   f"(reference: {'official qrels' if reference == 'qrels' else f'depth-{depth} pool'})")
    result = pool_bias(experiment, reduced, left_out=left_out, reference_pool=ref_pool, measures=measures,
                       ranked=ranked, description=description)
    return replace(result, kind="contributor subset")


def subsampling_curves(experiment: Experiment, *, seed, fractions: Sequence[float] = SUBSAMPLING_FRACTIONS,
                       repeats: int = REPEATS.default,
                       measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
                       ranked: Iterable[str] | None = None, n_jobs: int | None = None,
                       progress: bool | None = None) -> pd.DataFrame:
    """Büttcher et al.'s Figure 1: unbiased, incomplete judgments. For every fraction f and
    repeat, a uniform random subset of each topic's official qrels
    (:func:`irnb.pooling.random_subsample`, drawn from one generator seeded by ``seed``);
    every ranked run is evaluated on it.

    Returns tidy rows ``fraction, repeat, measure, judged, mean_score, kendall_tau,
    tau_ap``: ``mean_score`` averages the ranked runs' mean scores; τ and τ_AP compare the
    ranking on the subset with the ranking on the full qrels (ties as in
    :func:`kendall_tau`). Average over repeats with ``groupby(["fraction", "measure"])``.
    ``n_jobs``, ``progress``: one task per (fraction, repeat), see :mod:`irnb.sweep`; the
    subsets are drawn before the tasks run, so every backend gives the same rows.

    Example: with f = 1 every judgment is kept, so the rankings agree (τ = τ_AP = 1).

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": "1", "docno": ["x", "y", "y", "x"],
    ...                      "score": [2, 1, 2, 1]})
    >>> exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]}))
    >>> subsampling_curves(exp, seed=1, fractions=[1.0], measures=["RR"])[["kendall_tau", "tau_ap"]].values.tolist()
    [[1.0, 1.0]]
    """
    progress = PROGRESS.validate(progress, "subsampling_curves")
    owner = "subsampling_curves"
    parsed = tuple(parse_measures(measures))
    idx = ranked_index(experiment, ranked, owner)
    repeats = REPEATS.validate(repeats, owner)
    fractions = [fractions] if isinstance(fractions, (int, float)) else list(fractions)
    if not fractions:
        raise ValueError(f"{owner}: fractions must list at least one share of the qrels in [0.05, 1], got none")
    rng = seeded_rng(seed, owner, "curves")
    sign = np.array([1.0 if m.spec.higher_is_better else -1.0 for m in parsed])[:, None]
    full = _subsample_means(experiment, parsed, None, idx)
    settings = [(float(fraction), r, random_subsample(experiment, fraction=fraction, seed=rng))
                for fraction in fractions for r in range(int(repeats))]  # drawn in order, before any task runs
    shipped = _for_workers(experiment)
    results = sweep(_subsample_means, [(shipped, parsed, pool.judged, idx) for _, _, pool in settings],
                    n_jobs=n_jobs, progress=progress, desc="subsamples", owner=owner)
    rows = []
    for (fraction, r, pool), means in zip(settings, results, strict=True):
        taus = _tau(sign * full, sign * means)
        taps = _tau_ap(sign * full, sign * means)
        for i, m in enumerate(parsed):
            rows.append({"fraction": fraction, "repeat": r, "measure": m.name, "judged": pool.num_judged,
                         "mean_score": float(means[i].mean()), "kendall_tau": float(taus[i]),
                         "tau_ap": float(taps[i])})
    return pd.DataFrame(rows)


