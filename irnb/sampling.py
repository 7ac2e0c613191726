"""Sampled scores for the holes: every unjudged document relevant with a stated probability,
every measure computed on many such samples (Fröbe et al., ECIR 2023).

A score interval [B, T] (:mod:`irnb.intervals`) says where a run's score lies whatever the
unjudged documents turn out to be; it exists for weighted-precision measures only. Sampling
says how likely each score is, for every measure irnb computes (AP, nDCG@k, bpref, P@k,
RBP, …): Fröbe, Gienapp, Potthast & Hagen, "Bootstrapped nDCG Estimation in the Presence
of Unjudged Documents" (ECIR 2023) draw a relevance judgment for every unjudged document
of a run from a prior, add the drawn judgments to the qrels, score the run, and repeat.

**The method** (:func:`sample_scores`). For every run s, topic t and sample i, each
unjudged document of the run's ranking (not in the qrels, outside the pool ``judged``, or a
negative grade; the glossary's word) is drawn relevant with probability π, else judged
non-relevant (grade 0). The drawn judgments join the qrels *for that run and sample*: its
R, N and ideal ranking count them (Fröbe et al. score each run on the qrels completed with
its own drawn judgments). *irnb's choice:* R also counts the topic's other unjudged
documents — those other runs retrieve, and the run's own below the ranks a cutoff measure
reads (a document counts once however many runs retrieve it) — drawn as a binomial count
with their mean π and split over the grades as below; a run is then not scored as if its
own unjudged documents were the only ones that could be relevant. Each run's holes are
drawn on their own, so the distributions are those of one run's score; a document two
runs share is drawn once for each. The measures are irnb's own kernels
(:func:`irnb.kernels.compute`), run on all samples at once.

**The prior** π (``prior=``):

* a number E in [0, 1]: every unjudged document alike (E = 0 gives B for P@k, E = 1 T);
* ``"estimated"``: E estimated from the pool as Ravana & Moffat do
  (:func:`irnb.background_rate.estimate_background_rate`, depth 100, cubic fit read at zero runs);
* ``"run"`` (the default): Fröbe et al.'s run-based prior — the share of relevant documents
  (grade ≥ 1) among the run's own judged documents for the topic; a run that has no judged
  document for the topic takes the pool-based prior;
* ``"pool"``: Fröbe et al.'s pool-based prior — the share of relevant documents among the
  topic's judged documents;
* for these two, *irnb's choice*: the share is itself uncertain, so each sample draws its
  rate from Beta(relevant + 1, judged − relevant + 1), whose mean (relevant + 1)/(judged + 2)
  is what :func:`relevance_probabilities` gives (1/2 with nothing judged);
* per-document probabilities: an (S, T, D) array per (run, topic, rank), a DataFrame
  ``topic, docno, probability`` (a judge's or a classifier's scores) or
  :class:`irnb.predict.CompletedQrels` (its Platt probabilities); an unjudged document
  with no probability is non-relevant (π = 0), as trec_eval reads it.

**Grades (irnb's choice).** A document drawn relevant gets a grade drawn from the topic's
judged relevant grades (grade ≥ 1, in proportion to how many judged documents have each);
a topic with no judged relevant document gives grade 1. One uniform number u per document
decides both: relevant when u < π, and then the grade from u / π, itself uniform.
Measures read the drawn grades at their own relevance level (AP at rel 2 counts only the
drawn grades ≥ 2).

**Summaries.** Per run and topic: the mean of the samples and the central ``level`` interval
(the (1 − level)/2 and (1 + level)/2 quantiles). Per run: the mean over samples of the run's
aggregate (the measure's own: a mean for most, a sum for the counts, a geometric mean for
GMAP), with a *two-stage bootstrap* interval that also carries the topic sampling: each of
``samples`` draws resamples the run's evaluated topics with replacement and takes, for all
of them, one relevance sample (the draw's own), and aggregates; the interval is the central
``level`` of those draws.

Hand-checkable example: a ranking a (relevant), u (unjudged), c (non-relevant) with E = 0.25.
P@2 is 1/2 when u is drawn non-relevant (three times in four) and 2/2 when relevant: mean
0.5 · 0.75 + 1 · 0.25 = 0.625, the expected P@2 of :func:`irnb.predict.expected_precision`.

>>> import pandas as pd
>>> from irnb import Experiment
>>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "u", "c"], "score": [3.0, 2.0, 1.0]}),
...                  pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]}))
>>> sampled = sample_scores(exp, "P@2", prior=0.25, samples=4000, seed=1)
>>> sorted(set(sampled.values["P@2"][0, 0].tolist()))
[0.5, 1.0]
>>> round(float(sampled.values["P@2"][0, 0].mean()), 2)
0.63
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from collections.abc import Iterable

import numpy as np

from ._grades import unjudged
from .kernels import Judged, compute
from .measures import Measure, parse_measures
from .metrics import aggregate_over_topics, evaluate, judged_view
from .params import LEVEL, PER_TOPIC, PRIOR, SAMPLES, random_generator
from .params import SEED
from .pooling import judged_mask_of, pool_label
from .results import Result

if TYPE_CHECKING:
    import pandas as pd

    from .experiment import Experiment

__all__ = ["SampledScores", "sample_scores", "relevance_probabilities"]

# Cells (sample × run × topic × rank) scored at once: the kernels' temporaries are some 30
# bytes per cell, so a batch stays near 100 MB.
_BATCH_CELLS = 1 << 22


# =============================================================================== the prior
def relevance_probabilities(experiment: Experiment, *, judged=None, prior=PRIOR.default) -> np.ndarray:
    """(S, T, D) probability π that the document at each rank is relevant under ``prior``
    (see the module docstring), at every unjudged rank; 0 at judged ranks and ranks with no
    document.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "u", "c", "d"], "score": [4, 3, 2, 1]}),
    ...                  pd.DataFrame({"qid": "1", "docno": ["a", "c", "d"], "grade": [1, 0, 0]}))
    >>> relevance_probabilities(exp, prior="run").tolist()   # 1 relevant of 3 judged: (1 + 1) / (3 + 2)
    [[[0.0, 0.4, 0.0, 0.0]]]
    """
    owner = "relevance_probabilities"
    mask = judged_mask_of(experiment, judged, name="judged")
    view = judged_view(experiment, judged=mask)
    return _probabilities(experiment, view, mask, prior, owner)


def _probabilities(experiment: Experiment, view: Judged, mask, prior, owner: str) -> np.ndarray:
    """(S, T, D) mean probability π at the unjudged ranks (0 elsewhere)."""
    prob, _ = _prior(experiment, view, mask, prior, owner)
    return prob


def _prior(experiment: Experiment, view: Judged, mask, prior,
           owner: str) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """(S, T, D) mean π at the unjudged ranks (0 elsewhere), and for the run and pool priors
    the Beta parameters (relevant + 1, judged − relevant + 1) per run and topic the rate of
    each sample is drawn from (None: π is given)."""
    holes = unjudged(view.grade)
    per_document = _per_document(experiment, prior, mask, owner)
    if per_document is not None:
        return np.where(holes, np.nan_to_num(per_document, nan=0.0), 0.0), None
    prior = PRIOR.validate(prior, owner)  # a number or a named prior: the arrays are per-document priors
    shape = view.grade.shape[:2]
    if prior in ("run", "pool"):
        judged = np.broadcast_to(view.level_counts.sum(axis=1)[None, :], shape)
        relevant = np.broadcast_to(view.level_counts[:, 1:].sum(axis=1)[None, :], shape)
        if prior == "run":  # the run's own judged documents; the topic's when it has none
            judged_here = (view.grade >= 0).sum(axis=2)
            relevant_here = (view.grade >= 1).sum(axis=2)
            relevant = np.where(judged_here > 0, relevant_here, relevant)
            judged = np.where(judged_here > 0, judged_here, judged)
        a, b = relevant + 1.0, judged - relevant + 1.0
        return np.where(holes, (a / (a + b))[:, :, None], 0.0), (a, b)
    if prior == "estimated":
        from .background_rate import estimate_background_rate

        prior = estimate_background_rate(experiment, pool=mask).rate
    return np.where(holes, float(prior), 0.0), None


def _per_document(experiment: Experiment, prior, mask, owner: str) -> np.ndarray | None:
    """The (S, T, D) probabilities of a per-document prior (NaN: none given), or None for a
    number or a named prior."""
    import pandas as pd

    from .predict import CompletedQrels
    from .predict.expected import expected_relevance

    if not isinstance(prior, (np.ndarray, pd.DataFrame, CompletedQrels)):
        return None
    if isinstance(prior, np.ndarray) and prior.shape != experiment.shape:
        raise ValueError(f"{owner}: prior as an array gives a probability per (run, topic, rank): it must have "
                         f"shape {experiment.shape}, got shape {prior.shape}")
    pool = None if isinstance(prior, CompletedQrels) else mask
    return expected_relevance(experiment, prior, pool=pool, background_rate=0.0, owner=owner)


def _topic_holes(experiment: Experiment, holes: np.ndarray, prob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(T,) distinct unjudged documents that some run retrieves for each topic, and (T,) the
    sum of their probabilities π (a document several runs retrieve counts once, with the π
    of its first rank). A document is its qrels entry, or its docno when the qrels do not list it."""
    import pyarrow as pa

    from .predict.completion import run_lines

    S, T, D = experiment.shape
    doc = experiment.judgments.doc
    listed = holes & (doc >= 0)
    keys = [doc[listed].astype(np.int64)]
    topics = [experiment.judgments.qrel_topic[keys[0]].astype(np.int64)]
    probs = [prob[listed]]
    unlisted = holes & ~listed
    if unlisted.any():
        names, where = [], []
        for s in np.flatnonzero(unlisted.any(axis=(1, 2))):  # a loop over runs: each run's lines are vectorised
            t, r, docno = run_lines(experiment, int(s), D)
            keep = unlisted[s, t, r]
            names.append(docno.filter(pa.array(keep)))
            where.append((np.full(int(keep.sum()), s), t[keep], r[keep]))
        codes = pa.chunked_array(names, type=pa.string()).combine_chunks().dictionary_encode().indices
        code = np.asarray(codes.to_numpy(zero_copy_only=False), dtype=np.int64)
        s_, t_, r_ = (np.concatenate(part) for part in zip(*where, strict=True))
        keys.append(experiment.judgments.num_judgments + t_ * (int(code.max(initial=0)) + 1) + code)
        topics.append(t_)
        probs.append(prob[s_, t_, r_])
    key, topic, pi = np.concatenate(keys), np.concatenate(topics), np.concatenate(probs)
    _, first = np.unique(key, return_index=True)
    return (np.bincount(topic[first], minlength=T).astype(np.int64),
            np.bincount(topic[first], weights=pi[first], minlength=T))


def _grade_cdf(level_counts: np.ndarray) -> tuple[np.ndarray, int]:
    """(T, G) cumulative share of the judged relevant grades 1..G per topic (a topic with
    none: every drawn document grade 1), and the width G + 1 of the drawn level counts."""
    positive = level_counts[:, 1:].astype(np.float64)
    if positive.shape[1] == 0:
        positive = np.zeros((level_counts.shape[0], 1))
    none = positive.sum(axis=1) == 0
    positive[none, 0] = 1.0
    cdf = np.cumsum(positive, axis=1) / positive.sum(axis=1, keepdims=True)
    return cdf, max(level_counts.shape[1], cdf.shape[1] + 1)


# =============================================================================== the samples
def _needed_depth(view: Judged, parsed: list[Measure]) -> int:
    """The ranks the measures read: the deepest cutoff, or every rank when one has none."""
    if any(m.cutoff is None for m in parsed):
        return view.depth
    return min(view.depth, max(m.cutoff for m in parsed))


def _draw_values(view: Judged, prob: np.ndarray, beta, parsed: list[Measure], samples: int,
                 rng: np.random.Generator, topic_holes: tuple[np.ndarray, np.ndarray]) -> dict:
    """{measure: (S, T, samples) values}: the kernels on every sample, a batch of runs and
    samples at a time, folded into one view whose "topics" are (run, topic, sample) cells
    (each with its own qrels counts: the topic's judged ones plus its drawn ones)."""
    S, T, _ = view.grade.shape
    depth = _needed_depth(view, parsed)
    grade = view.grade[:, :, :depth]
    prob = prob[:, :, :depth]
    holes = unjudged(grade)
    length = np.minimum(view.length, depth)
    cdf, width = _grade_cdf(view.level_counts)
    shares = np.diff(cdf, axis=1, prepend=0.0)  # (T, G): the judged relevant grades 1..G
    # the topic's other holes (other runs' documents, and the run's own beyond the ranks read):
    # how many, and their mean π, drawn as a binomial count split over the grades
    others = topic_holes[0][None, :] - holes.sum(axis=2)
    others_pi = np.divide(topic_holes[1][None, :] - prob.sum(axis=2), others, out=np.zeros(others.shape),
                          where=others > 0).clip(0.0, 1.0)
    base_counts = np.zeros((T, width), dtype=np.int64)
    base_counts[:, : view.level_counts.shape[1]] = view.level_counts
    out = {m: np.empty((S, T, samples)) for m in parsed}
    per_run = max(T * max(depth, 1), 1)
    runs_at_once = max(1, min(S, _BATCH_CELLS // (per_run * samples)))
    samples_at_once = samples if runs_at_once > 1 or per_run * samples <= _BATCH_CELLS \
        else max(1, _BATCH_CELLS // per_run)
    for lo in range(0, S, runs_at_once):
        runs = slice(lo, min(S, lo + runs_at_once))
        s_n = runs.stop - runs.start
        here = holes[runs][:, :, None, :]
        for first in range(0, samples, samples_at_once):
            n = min(samples_at_once, samples - first)
            cells = s_n * T * n
            if beta is None:  # π given: (s, T, 1, depth)
                pi = prob[runs][:, :, None, :].astype(np.float32)
                rate = np.broadcast_to(others_pi[runs, :, None], (s_n, T, n))
            else:  # each sample's own rate, the same at every rank: (s, T, n, 1)
                rate = rng.beta(beta[0][runs, :, None], beta[1][runs, :, None], size=(s_n, T, n))
                pi = rate[..., None].astype(np.float32)
            # u < π·cdf[g − 1] → grade ≥ g: the thresholds of grades 2..G
            thresholds = [pi * cdf[None, :, None, None, g].astype(np.float32) for g in range(cdf.shape[1] - 1)]
            u = rng.random((s_n, T, n, depth), dtype=np.float32)
            relevant = u < pi
            level = relevant.view(np.int8).copy()
            for threshold in thresholds:
                level += relevant & (u >= threshold)
            drawn = np.where(here, level, grade[runs][:, :, None, :])  # (s, T, n, depth)
            counts = np.repeat(np.repeat(base_counts[None, :, None, :], s_n, axis=0), n, axis=2)
            for g in range(width):
                counts[..., g] += ((level == g) & here).sum(axis=3)
            k = rng.binomial(np.repeat(others[runs, :, None], n, axis=2), rate)
            graded = rng.multinomial(k, np.broadcast_to(shares[None, :, None, :], k.shape + shares.shape[1:]))
            counts[..., 1:1 + graded.shape[-1]] += graded
            counts[..., 0] += np.repeat(others[runs, :, None], n, axis=2) - k
            folded = Judged(grade=drawn.reshape(1, cells, depth), level_counts=counts.reshape(cells, width),
                            length=np.repeat(length[runs, :, None], n, axis=2).reshape(1, cells),
                            relevance_level=1, trec_version=view.trec_version)
            for m in parsed:
                out[m][runs, :, first:first + n] = compute(folded, m).reshape(s_n, T, n)
    return out


def _two_stage(values: np.ndarray, evaluated: np.ndarray, how: str, level: float,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(S,) ends of the two-stage bootstrap interval of each run's aggregate: every draw
    resamples the run's evaluated topics with replacement and takes one relevance sample."""
    S, T, samples = values.shape
    low, high = np.zeros(S), np.zeros(S)
    for s in range(S):  # runs answer different topics: each resamples its own
        topics = np.flatnonzero(evaluated[s])
        if topics.size == 0:
            continue
        picked = topics[rng.integers(0, topics.size, size=(samples, topics.size))]  # (draws, topics)
        which = rng.integers(0, samples, size=samples)  # one relevance sample per draw
        drawn = values[s][picked, which[:, None]]
        agg = aggregate_over_topics(drawn, np.ones(drawn.shape, dtype=bool), how)
        low[s], high[s] = np.quantile(agg, [(1 - level) / 2, (1 + level) / 2])
    return low, high


# =============================================================================== the result
@dataclass(frozen=True, eq=False)
class SampledScores(Result):
    """Sampled scores of several measures: ``values[name]`` is an (S, T, samples) array over
    ``run_names`` × ``topic_ids`` × samples; ``evaluated[s, t]`` marks the topics that count
    in a run's aggregate. :attr:`topics` and :attr:`runs` summarise them (mean and the
    central ``level`` interval), :meth:`beside_bounds` puts them beside [B, T] and the
    condensed-list value."""

    run_names: tuple[str, ...]
    topic_ids: tuple[str, ...]
    measures: tuple[Measure, ...]
    values: dict = field(repr=False)
    evaluated: np.ndarray = field(repr=False)
    run_low: dict = field(repr=False)
    run_high: dict = field(repr=False)
    level: float = 0.95
    prior: str = "run"
    pool: str = "official qrels"
    experiment: Experiment | None = field(default=None, repr=False)
    judged: object = field(default=None, repr=False)

    def __getitem__(self, measure) -> np.ndarray:
        """(S, T, samples) values of one measure, by any of its names (``"num_rel"``, ``"NumRel"``)."""
        m = parse_measures(measure)[0]
        if m.name not in self.values:
            raise KeyError(f"{m.name} was not sampled; sampled: {[x.name for x in self.measures]}")
        return self.values[m.name]

    @property
    def samples(self) -> int:
        return next(iter(self.values.values())).shape[2]

    def topic_summary(self, measure) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(S, T) mean, low and high of one measure's samples per run and topic."""
        x = self[measure]
        low, high = np.quantile(x, [(1 - self.level) / 2, (1 + self.level) / 2], axis=2)
        return x.mean(axis=2), low, high

    def run_mean(self, measure) -> np.ndarray:
        """(S,) mean over the samples of each run's aggregate of one measure."""
        m = parse_measures(measure)[0]
        x = self[m]
        S, T, n = x.shape
        per_sample = aggregate_over_topics(x.transpose(0, 2, 1).reshape(S * n, T),
                                           np.repeat(self.evaluated, n, axis=0), m.spec.aggregate)
        return per_sample.reshape(S, n).mean(axis=1)

    def frame_columns(self, *, per_topic: bool = True) -> list[dict]:
        """Rows ``run, topic, measure, mean, low, high`` (one per evaluated run and topic) or,
        with ``per_topic=False``, ``run, measure, mean, low, high`` (one per run)."""
        per_topic = PER_TOPIC.validate(per_topic, "SampledScores.frame_columns")
        runs = np.asarray(self.run_names, dtype=object)
        parts = []
        if per_topic:
            s, t = np.nonzero(self.evaluated)
            topics = np.asarray(self.topic_ids, dtype=object)
            for m in self.measures:
                mean, low, high = self.topic_summary(m)
                parts.append({"run": runs[s], "topic": topics[t], "measure": m.name, "mean": mean[s, t],
                              "low": low[s, t], "high": high[s, t]})
        else:
            for m in self.measures:
                parts.append({"run": runs, "measure": m.name, "mean": self.run_mean(m), "low": self.run_low[m.name],
                              "high": self.run_high[m.name]})
        return parts

    @property
    def topics(self) -> pd.DataFrame:
        """Per run and topic: ``run, topic, measure, mean, low, high``."""
        return self.to_frame(per_topic=True)

    @property
    def runs(self) -> pd.DataFrame:
        """Per run: ``run, measure, mean, low, high`` (the interval carries the topic sampling)."""
        return self.to_frame(per_topic=False)

    def beside_bounds(self) -> pd.DataFrame:
        """Per run and measure: the sampled ``mean, low, high`` beside the condensed-list
        value (trec_eval -J) and, for the measures with score intervals, the mean lower and
        upper bounds B and T (NaN for the others)."""
        from .intervals import has_interval, score_intervals

        frame = self.runs
        if self.experiment is None:
            return frame
        condensed = evaluate(self.experiment, list(self.measures), judged=self.judged, judged_only=True)
        lower, upper = {}, {}
        for m in self.measures:
            if has_interval(m):
                iv = score_intervals(self.experiment, m, pool=self.judged)
                lower[m.name], upper[m.name] = iv.mean_lower, iv.mean_upper
            else:
                lower[m.name] = upper[m.name] = np.full(len(self.run_names), np.nan)
        frame["condensed"] = np.concatenate([condensed.aggregate(m) for m in self.measures])
        frame["lower"] = np.concatenate([lower[m.name] for m in self.measures])
        frame["upper"] = np.concatenate([upper[m.name] for m in self.measures])
        return frame


# =============================================================================== public API
def sample_scores(experiment: Experiment, measures: str | Measure | Iterable[str | Measure], *, judged=None,
                  prior=PRIOR.default, samples: int = SAMPLES.default, level: float = LEVEL.default,
                  seed=SEED.default) -> SampledScores:
    """Sampled scores of every run on ``measures``: each unjudged document relevant with
    probability π from ``prior``, ``samples`` times (the method, the priors and how a drawn
    relevant document gets its grade are in the module docstring).

    ``judged`` is the pool (:class:`irnb.pooling.Pool` or a boolean mask over the qrels
    entries; default the official qrels); ``level`` the share of the samples inside each
    interval; ``seed`` an integer or a numpy Generator (the same seed gives the same samples
    and the same bootstrap draws). A topic a run did not answer is left out of its mean and
    its rows, as :func:`irnb.evaluate` does by default. The work grows with runs × topics ×
    samples × the ranks read: measures that all have a cutoff (nDCG@10, P@10) read only the
    top ranks, one without (AP) every rank (times: ``benchmarks/RESULTS_sampling.md``).

    Example: one run, a (relevant), u (unjudged), c (non-relevant), E = 0.5. AP is 1 when u
    is drawn non-relevant (R = 1) and (1 + 2/2) / 2 = 1 when relevant (R = 2): every sample
    is 1. P@2 is 0.5 or 1.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "u", "c"], "score": [3.0, 2.0, 1.0]}),
    ...                  pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]}))
    >>> sampled = sample_scores(exp, ["AP", "P@2"], prior=0.5, samples=100)
    >>> sampled.topics[["measure", "mean", "low", "high"]].round(2).values.tolist()[0]
    ['AP', 1.0, 1.0, 1.0]
    >>> sorted(set(sampled.values["P@2"][0, 0].tolist()))
    [0.5, 1.0]
    """
    owner = "sample_scores"
    parsed = parse_measures(measures)
    n = SAMPLES.validate(samples, owner)
    level = LEVEL.validate(level, owner)
    rng = random_generator(seed, owner, note="the same seed draws the same samples")
    mask = judged_mask_of(experiment, judged, name="judged")
    view = judged_view(experiment, judged=mask)
    prob, beta = _prior(experiment, view, mask, prior, owner)
    drawn = _draw_values(view, prob, beta, parsed, n, rng, _topic_holes(experiment, unjudged(view.grade), prob))
    evaluated = experiment.length > 0
    low, high = {}, {}
    for m in parsed:
        low[m.name], high[m.name] = _two_stage(drawn[m], evaluated, m.spec.aggregate, level, rng)
    for x in drawn.values():
        x.flags.writeable = False
    prior_name = prior if isinstance(prior, (str, float, int)) else "per-document probabilities"
    return SampledScores(run_names=experiment.run_names, topic_ids=experiment.topics, measures=tuple(parsed),
                         values={m.name: drawn[m] for m in parsed}, evaluated=evaluated, run_low=low, run_high=high,
                         level=level, prior=str(prior_name), pool=pool_label(judged), experiment=experiment,
                         judged=mask)
