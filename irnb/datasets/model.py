"""The generative model behind the simulated collection (arrays only; no strings, no I/O).

Per topic t, ``docs_per_topic`` documents each belong to one *family*:

========  =====================  ==================================================
family    name                   what it is
========  =====================  ==================================================
0         background             off-topic; no run prefers it except by noise
1         near                   on the topic's subject but not relevant
2         near-title             not relevant, but contains the title words
3         relevant-main          relevant; visible to every approach
4         relevant-title         relevant and contains the title words (title bias)
5         relevant-novel         relevant, but described with words other than the
                                 title's; visible mainly through the "facet" feature
========  =====================  ==================================================

A document has four latent *features* — content match, title match, facet match and a
query-independent prior — each its family's mean (``FEATURE_MEANS``, plus a grade-2 bonus on
the family's main feature) plus normal noise (σ per family: ``FEATURE_NOISE``) shared by
every run. Main and title relevant documents, and near-topic ones, are also about one of
``NUM_ASPECTS`` aspects of the topic; each run's query formulation matches some aspects
(``aspect_cover``, mostly shared within a group). A run scores every document of a topic with

    raw = q_s · h_t · (w_s · f_d + b_d · cover_s[aspect_d]) + √ρ · η_{g(s),d} + √(1−ρ) · ξ_{s,d}

where h_t is the topic's *ease* (``Latents.difficulty``: 1 + σ_h·z_t, kept in
[``EASE_LOW``, ``EASE_HIGH``], σ_h = ``difficulty_spread``), shared by every run — on a hard
topic (small h_t) relevant documents stand out less for all runs at once, so topics differ
in difficulty as much as real ones do (the SD of a run's AP across topics) —, q_s is the
run's quality times its form on the topic, 1 + τ·z_{s,t} (τ = ``RUN_TOPIC_JITTER``, kept in
[0.2, 2]: runs are not equally good on every topic, so not every pair of runs differs
significantly), ``w_s`` is its approach's weight vector (``APPROACH_WEIGHTS``: popular, keyword, novel,
each jittered per group and per run), ``q_s`` its quality
(signal-to-noise), η a noise shared by the runs of group g (ρ = ``GROUP_NOISE_SHARE``) and ξ
its own noise; b_d = ``ASPECT_BOOST`` for a relevant document and ``NEAR_ASPECT_BOOST`` for a
near-topic one. The run returns the ``run_depth`` best.

Structure then emerges instead of being painted on: popular runs agree with each other
through the shared features and so overlap; keyword runs rank the title families (relevant
or not) high; novel runs find the relevant-novel family that others rank low; runs that
match different aspects find different relevant documents; better runs (larger q) find more
relevant documents.

Three switches serve Ravana & Moffat's background-rate estimate
(``benchmarks/RESULTS_background_rate.md`` has what they do to it and to the calibration); the
default turns the first two on and leaves ``TOPICALITY`` off: ``NEAR_ASPECT_BOOST`` > 0 makes
runs that match an aspect also rank its non-relevant documents higher (mistakes several runs
share); a share ``DECOY_SHARE`` of the near-topic documents gets ``DECOY_SPREAD`` times its
family's content noise (the few non-relevant documents that look relevant to every run);
``TOPICALITY`` is added, outside
the quality factor, to the score of every on-topic document (every family but background),
times 1 − a + a·cover_s[aspect_d] with a = ``ASPECT_TOPICALITY`` (documents without an
aspect count as covered), so that even a poor run retrieves documents about the topic, as
real poor runs do, rather than background noise — and with a = 1 only about the aspects its
formulation matches.

Three mechanisms serve the papers' own settings (:mod:`irnb.datasets.settings`) and are off in
the default: :func:`pooled_runs` pools a declared number of manual and of automatic runs
spread over the groups (TREC 2006 Terabyte's 11 + 31), :func:`facet_decoys_of` gives
manual formulations non-relevant documents of their own, so that what only manual runs pool
is about as often relevant as the pool (as in TREC 2006 Terabyte and TREC-COVID round 1), and
:func:`capped_group_sizes` limits the runs per group as tracks do (TREC-COVID round 1: 3), so
that the runs left out of a pool come from many groups, not from the few largest.

The constants were chosen by a search scored on seeds 0–7 and finished on seed 0
(``benchmarks/tune_simulator.py``; ``benchmarks/calibration.py`` prints the comparison) so
that the default collection lies within [min, max] of TREC-COVID round 1 and CLEF eHealth
2016 on all 13 comparable statistics (JudgedRet@10 of non-pooled runs, run overlap, the
relevance of pooled documents by how many runs pooled them, the spread of MAP and of AP
across topics, significant pairs, the spread of R); that on held-out seeds (10–19 are tested)
they stay within 30% of that range (MAP IQR, whose real range is narrower than its seed-to-seed
spread, on its mean over those seeds); that a collection simulated with TREC-COVID's design
(143 runs from 56 groups, one pooled run per group, pool depth 7) stays within 30% of
TREC-COVID's JudgedRet@10/@100 and relevant documents per topic
(``calibration.WIDE_TOLERANCE``); that Ravana & Moffat's background-rate estimate, with every
run pooled, lands within a factor of 2 of the true rate at pool depths 10 and 100 on seed 0
and the held-out seeds 10–14 (tests/test_background_rate_simulated.py; on fresh seeds 70–99 at
both depths on 14 of 30); and that the claims of notebooks 00–01 and the realism tests hold
(``tune_simulator.REALISM`` scores some of them). The search's E term was scored on seeds 0–7
and on 0 + 20–43.
The per-topic normals behind R_t and h_t are standardized over blocks of ``TOPIC_BLOCK``
topics (:func:`_topic_normals`), so the default's topics have nearly the same spread of
size and ease for every seed (exactly, before the ease is clipped to [EASE_LOW, EASE_HIGH] and R to docs_per_topic / 5).

Randomness: every component draws from its own ``np.random.Generator(PCG64)`` seeded by
``SeedSequence([seed, component, index])``; a topic's documents, for instance, do not
depend on how many topics or runs there are. Scores are built from the draws with IEEE
operations only (+, −, ×, ÷, √, rounding, ``math.fsum``; no BLAS, no exp/log/pow — the
per-topic numbers of relevant documents use exp but are rounded to integers), so every
machine computes the same bits from the same draws. The draws themselves come from numpy:
PCG64's bit stream is fixed, while ``normal``, ``dirichlet`` and ``multinomial`` also call
the platform's maths library in rare rejection steps, and numpy promises stable streams only
for the same build. The test suite checks the default's files against a digest recorded with
numpy 2.4 on x86_64 (``tests/datasets/test_files.py``), so CI notices a machine that differs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["FAMILY_NAMES", "FEATURE_MEANS", "APPROACH_WEIGHTS", "KINDS", "Latents", "Design",
           "draw_latents", "draw_design", "pooled_runs", "facet_decoys_of", "capped_group_sizes",
           "rank_documents"]

FAMILY_NAMES = ("background", "near", "near-title", "relevant-main", "relevant-title", "relevant-novel")
BACKGROUND, NEAR, NEAR_TITLE, REL_MAIN, REL_TITLE, REL_NOVEL = range(6)

#                content title facet prior        (feature means per family)
FEATURE_MEANS = np.array([
    [0.0, 0.0, 0.0, 0.0],   # background
    [1.6, 0.3, 0.6, 0.0],   # near
    [1.2, 2.0, 0.3, 0.0],   # near-title
    [2.3, 0.5, 0.4, 0.0],   # relevant-main
    [1.9, 2.4, 0.2, 0.0],   # relevant-title
    [0.6, 0.0, 3.0, 0.0],   # relevant-novel
])
#                content title facet prior        (σ of the document noise, shared by all runs)
FEATURE_NOISE = np.array([
    [0.8, 0.4, 0.4, 1.0],   # background
    [0.55, 0.4, 0.4, 1.0],  # near: some near-topic documents look relevant to every run
    [0.55, 0.4, 0.4, 1.0],  # near-title
    [0.8, 0.4, 0.4, 1.0],   # relevant-main
    [0.8, 0.4, 0.4, 1.0],   # relevant-title
    [0.8, 0.4, 0.4, 1.0],   # relevant-novel
])
NUM_ASPECTS = 6  # aspects of a topic; each main/title relevant and each near-topic document is about one
ASPECT_BOOST = 0.85  # content-score boost when a run's query formulation matches the aspect
NEAR_ASPECT_BOOST = 0.7  # the same boost for a near-topic (non-relevant) document of the aspect
ASPECT_COVER = 0.55  # probability that a group's formulation matches an aspect …
ASPECT_FLIP = 0.2  # … and that one of its runs differs from the group on it
DECOY_SHARE, DECOY_SPREAD = 0.01, 1.5  # share of near-topic documents whose content σ is DECOY_SPREAD times
#   their family's: the few that look relevant to every run (shared mistakes), without making near
#   documents as a whole look more relevant
TOPICALITY = 0.0  # score added to on-topic documents whatever the run's quality (0: off; see the docstring) …
ASPECT_TOPICALITY = 0.0  # … of which this share only for the aspects the run's formulation matches
GRADE2_BONUS = 0.6  # added to the family's main feature for grade-2 documents
MAIN_FEATURE = np.array([0, 0, 1, 0, 1, 2])

KINDS = ("popular", "keyword", "novel")
#                content title facet prior
APPROACH_WEIGHTS = np.array([
    [1.00, 0.35, 0.10, 0.40],  # popular: content first, some title, a shared prior
    [0.45, 1.20, 0.00, 0.15],  # keyword: title words above all
    [0.90, 0.15, 1.10, 0.00],  # novel (manual): content as the others, plus the facet they ignore
])
WEIGHT_JITTER = 0.15  # σ of group and run deviations (relative) from the approach's weights
GROUP_NOISE_SHARE = 0.6  # ρ: share of a run's noise variance common to its group
NEAR_PER_RELEVANT = 7.0  # near-topic non-relevant documents per relevant one …
NEAR_BASE = 1400  # … plus this many
NEAR_TITLE_SHARE = 0.3  # share of near-topic documents that contain the title words
GRADE2_SHARE = 0.35  # share of relevant documents with grade 2
QUALITY_LOW, QUALITY_HIGH, QUALITY_BEND = 0.19, 3.4, 6.0  # run quality (signal-to-noise), see _quality_curve
MANUAL_BONUS = 0.8  # manual runs' head start when qualities are handed out

TOPIC_BLOCK = 50  # topic-level normals (size, ease) are standardized over blocks of this many topics
EASE_LOW, EASE_HIGH = 0.2, 2.0  # bounds of a topic's ease h_t (see the module docstring)
RUN_TOPIC_JITTER = 0.75  # τ: σ of a run's topic-specific form, q_s·(1 + τ·z_{s,t}) kept in [0.2, 2]·q_s

# SeedSequence component keys (never reorder: they define the streams)
_TOPIC_SIZES, _DOCS, _DESIGN, _GROUP_NOISE, _RUN_NOISE, _DIFFICULTY, _RUN_TOPIC = 1, 2, 3, 4, 5, 6, 7


def _rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, *key])))


def _standardized(z: np.ndarray) -> np.ndarray:
    """``z`` shifted and scaled to mean 0 and SD 1 (population form); zeros when it has
    fewer than two values or no spread. The sums are ``math.fsum`` (correctly rounded), so
    every machine gets the same bits.

    >>> _standardized(np.array([1.0, 2.0, 3.0, 6.0])).tolist()   # mean 3, SD √3.5
    [-1.0690449676496976, -0.5345224838248488, 0.0, 1.6035674514745464]
    """
    n = z.size
    if n < 2:
        return np.zeros_like(z)
    d = z - math.fsum(z.tolist()) / n
    sd = math.sqrt(math.fsum((d * d).tolist()) / n)
    return d / sd if sd > 0 else np.zeros_like(z)


def _topic_normals(seed: int, component: int, num_topics: int) -> np.ndarray:
    """One standard-normal value per topic, drawn in blocks of TOPIC_BLOCK topics, each
    block standardized (:func:`_standardized`) over all its TOPIC_BLOCK draws. Topic t's
    value depends only on its block, never on ``num_topics`` (the first 10 topics of a
    50-topic collection are a 10-topic collection), and every full block has exactly mean
    0 and SD 1: the default's 50 topics have the same spread of size and ease for every
    seed (up to clipping); the seed decides which topic gets which."""
    blocks = -(-num_topics // TOPIC_BLOCK)
    z = [_standardized(_rng(seed, component, b).standard_normal(TOPIC_BLOCK)) for b in range(blocks)]
    return np.concatenate(z)[:num_topics]


@dataclass(frozen=True, eq=False)
class Latents:
    """Per-topic document truth: ``family[t, i]``, ``grade[t, i]`` (0/1/2),
    ``features[t, i, :]``, ``aspect[t, i]``; ``num_relevant[t]``; ``difficulty[t]``, the
    topic's ease h_t that multiplies every run's signal (larger = easier)."""

    family: np.ndarray  # (T, N) int8
    grade: np.ndarray  # (T, N) int8
    features: np.ndarray  # (T, N, 4) float64
    aspect: np.ndarray  # (T, N) int8: aspect of a near-topic or main/title relevant document, else -1
    num_relevant: np.ndarray  # (T,) int64
    difficulty: np.ndarray  # (T,) float64 ease h_t in [EASE_LOW, EASE_HIGH]


def draw_latents(seed: int, *, num_topics: int, docs_per_topic: int, median_relevant: float,
                 relevant_spread: float, title_share: float, novel_share: float,
                 difficulty_spread: float = 0.0, facet_decoys: float = 0.0) -> Latents:
    """Families, grades and features of every document of every topic, and each topic's
    ease h_t = clip(1 + difficulty_spread · z_t, EASE_LOW, EASE_HIGH), with z_t from
    :func:`_topic_normals` (standardized per block of topics; no exp, so the same bits
    everywhere). The topic sizes R_t = rint(median_relevant · exp(relevant_spread · z'_t))
    use another stream of :func:`_topic_normals`. ``facet_decoys`` > 0 makes that many
    near-topic documents per relevant-novel one look like relevant-novel documents
    (:func:`facet_decoys`); 0 draws the same bits as before it existed."""
    T, N = num_topics, docs_per_topic
    z = _topic_normals(seed, _TOPIC_SIZES, T)
    R = np.rint(median_relevant * np.exp(relevant_spread * z)).astype(np.int64)
    R = np.clip(R, 1, N // 5)
    near = np.minimum(np.rint(NEAR_PER_RELEVANT * R + NEAR_BASE).astype(np.int64), N - R)
    family = np.empty((T, N), dtype=np.int8)
    grade = np.zeros((T, N), dtype=np.int8)
    features = np.empty((T, N, 4), dtype=np.float64)
    aspect = np.empty((T, N), dtype=np.int8)
    shares = np.array([1.0 - title_share - novel_share, title_share, novel_share])
    for t in range(T):  # per-topic streams: topic t does not depend on num_topics
        rng = _rng(seed, _DOCS, t)
        position = rng.permutation(N)  # document i takes latent slot position[i]
        u_family = rng.random(N)
        u_grade = rng.random(N)
        noise = rng.standard_normal((N, 4))
        u_aspect = rng.random(N)
        rel_family = REL_MAIN + np.searchsorted(np.cumsum(shares)[:-1], u_family, side="right")
        nonrel_family = np.where(u_family < NEAR_TITLE_SHARE, NEAR_TITLE, NEAR)
        fam = np.where(position < R[t], rel_family,
                       np.where(position < R[t] + near[t], nonrel_family, BACKGROUND)).astype(np.int8)
        g = np.where(fam >= REL_MAIN, np.where(u_grade < GRADE2_SHARE, 2, 1), 0).astype(np.int8)
        means = FEATURE_MEANS[fam].copy()
        means[np.arange(N), MAIN_FEATURE[fam]] += GRADE2_BONUS * (g == 2)
        sigma = FEATURE_NOISE[fam].copy()
        near_topic = (fam == NEAR) | (fam == NEAR_TITLE)
        sigma[near_topic & (u_grade < DECOY_SHARE), 0] *= DECOY_SPREAD  # u_grade: unused off the relevant families
        about = near_topic | (fam == REL_MAIN) | (fam == REL_TITLE)
        if facet_decoys:
            decoy = facet_decoys_of(fam, u_family, per_novel=facet_decoys)
            means[decoy], sigma[decoy] = FEATURE_MEANS[REL_NOVEL], FEATURE_NOISE[REL_NOVEL]
            about &= ~decoy  # described, as the relevant-novel documents, with none of the title's aspects
        family[t], grade[t], features[t] = fam, g, means + sigma * noise
        aspect[t] = np.where(about, (u_aspect * NUM_ASPECTS).astype(np.int8), -1)
    ease = np.clip(1.0 + difficulty_spread * _topic_normals(seed, _DIFFICULTY, T), EASE_LOW, EASE_HIGH)
    for arr in (family, grade, features, aspect, R, ease):
        arr.flags.writeable = False
    return Latents(family=family, grade=grade, features=features, aspect=aspect, num_relevant=R,
                   difficulty=ease)


def facet_decoys_of(family: np.ndarray, u_family: np.ndarray, *, per_novel: float) -> np.ndarray:
    """Which near-topic documents of one topic are *facet decoys*: non-relevant documents
    whose features are drawn as a relevant-novel document's (they match the words a manual
    formulation adds as well as the relevant-novel documents do), ``per_novel`` of them per
    relevant-novel document (at most every plain near document).

    Why: without them the facet that manual ("novel") runs weight finds relevant documents
    only, so the documents only manual runs pool are far richer in relevant ones than the
    pool as a whole. In real pools they are not: a manual formulation retrieves documents
    the automatic runs miss, relevant and non-relevant alike — TREC 2006 Terabyte's documents
    pooled only by manual runs are about as often relevant as its pool (Büttcher et al.,
    Table 4), and so are TREC-COVID round 1's (``tests/datasets/test_settings_buttcher.py``
    measures the ratio on the shared data). These decoys are what bpref no longer counts
    above a manual run's relevant documents once the manual runs leave the pool.

    The choice reuses the family draw ``u_family`` (a plain near document has u ≥
    ``NEAR_TITLE_SHARE``, uniform above it), so it draws nothing new.

    >>> fam = np.array([REL_NOVEL, NEAR, NEAR, NEAR, NEAR_TITLE])
    >>> u = np.array([0.5, 0.40, 0.90, 0.60, 0.1])
    >>> facet_decoys_of(fam, u, per_novel=2.0).tolist()    # 2 of the 3 plain near documents: u = 0.40, 0.60
    [False, True, False, True, False]
    """
    plain = family == NEAR
    available = int(plain.sum())
    if available == 0 or per_novel <= 0:
        return np.zeros(family.shape, dtype=bool)
    wanted = min(available, int(round(per_novel * int((family == REL_NOVEL).sum()))))
    v = np.where(plain, u_family, np.inf)
    chosen = np.zeros(family.shape, dtype=bool)
    chosen[np.argsort(v, kind="stable")[:wanted]] = True
    return chosen


@dataclass(frozen=True, eq=False)
class Design:
    """Who submitted what: per run (in output order) its group index, approach (index into
    KINDS), manual flag, contributor flag, quality and weight vector."""

    group: np.ndarray  # (S,) int64
    kind: np.ndarray  # (S,) int64
    manual: np.ndarray  # (S,) bool
    contributor: np.ndarray  # (S,) bool
    quality: np.ndarray  # (S,) float64
    weights: np.ndarray  # (S, 4) float64
    aspect_cover: np.ndarray  # (S, NUM_ASPECTS) 0/1: the run's query formulation matches the aspect
    score_scale: np.ndarray  # (S,) > 0: output score = scale · raw + offset
    score_offset: np.ndarray  # (S,)
    index_in_group: np.ndarray  # (S,) 1-based run number within its kind (manual/automatic)


def _quality_curve(n: int) -> np.ndarray:
    """n increasing qualities: QUALITY_LOW + (QUALITY_HIGH − QUALITY_LOW) · f(p) at the evenly
    spaced ranks p = (i + ½)/n, with the concave f(p) = (1 + a)·p / (p + a), a = QUALITY_BEND
    (f(½) = 7·½/6.5 = 0.538 for a = 6): nearly even steps from a weak run to the best,
    slightly crowded towards the top, as TREC-COVID round
    1's MAP (quartiles 0.08, 0.16, 0.22; maximum 0.31). Only +, ×, ÷: the same bits on
    every machine."""
    p = (np.arange(n) + 0.5) / n
    a = QUALITY_BEND
    return QUALITY_LOW + (QUALITY_HIGH - QUALITY_LOW) * ((1.0 + a) * p / (p + a))


def draw_design(seed: int, *, num_runs: int, num_groups: int, novel_runs: int, keyword_runs: int,
                pooled_runs_per_group: int, pooled_manual_runs: int = -1, pooled_automatic_runs: int = -1,
                max_runs_per_group: int = 0) -> Design:
    """Group sizes (capped by :func:`capped_group_sizes` when ``max_runs_per_group`` > 0), approaches,
    manual and contributing runs (:func:`pooled_runs`), run quality."""
    rng = _rng(seed, _DESIGN)
    S, G = num_runs, num_groups
    sizes = 1 + rng.multinomial(S - G, rng.dirichlet(np.full(G, 1.5)))
    if max_runs_per_group:
        sizes = capped_group_sizes(sizes, cap=max_runs_per_group)
    group = np.repeat(np.arange(G), sizes)
    kind = np.zeros(S, dtype=np.int64)
    # keyword approaches belong to whole groups (a group's style), filled in a random order
    filled = 0
    for g in rng.permutation(G):
        if filled >= keyword_runs:
            break
        members = np.flatnonzero(group == g)[: keyword_runs - filled]
        kind[members] = 1
        filled += members.size
    # novel (manual) runs: spread over groups (one per group before any group gets two),
    # preferring groups that also submit automatic runs, otherwise in a random order
    cand = np.flatnonzero(kind == 0)[rng.permutation(int((kind == 0).sum()))]
    rank_in_group = np.zeros(cand.size, dtype=np.int64)
    seen = np.zeros(G, dtype=np.int64)
    for i, s in enumerate(cand):
        rank_in_group[i] = seen[group[s]]
        seen[group[s]] += 1
    lonely = sizes[group[cand]] == 1
    chosen = cand[np.lexsort((np.arange(cand.size), lonely, rank_in_group))[:novel_runs]]
    kind[chosen] = 2
    manual = kind == 2
    # quality: group effect + run effect + a manual bonus decide the order; a fixed, nearly
    # even spread of qualities (_quality_curve) gives the spread of MAP of TREC-COVID
    latent = 0.9 * rng.standard_normal(G)[group] + 0.5 * rng.standard_normal(S) + MANUAL_BONUS * manual
    quality = np.empty(S)
    quality[np.argsort(latent, kind="stable")] = _quality_curve(S)
    # multiplicative jitter 1 + σ·(z_group + z_run), kept in [0.5, 1.5] (no exp: see the module docstring)
    jitter = np.clip(1.0 + WEIGHT_JITTER * (rng.standard_normal((G, 4))[group] + rng.standard_normal((S, 4))),
                     0.5, 1.5)
    weights = APPROACH_WEIGHTS[kind] * jitter
    cover = (rng.random((G, NUM_ASPECTS))[group] < ASPECT_COVER) ^ (rng.random((S, NUM_ASPECTS)) < ASPECT_FLIP)
    scale = rng.uniform(0.5, 12.0, S)
    offset = scale * np.where(rng.random(S) < 0.5, 0.0, rng.uniform(5.0, 15.0, S))
    # output order: by group; within a group manual runs first, then automatic
    order = np.lexsort((np.arange(S), ~manual, group))
    group, kind, manual = group[order], kind[order], manual[order]
    quality, weights, scale, offset = quality[order], weights[order], scale[order], offset[order]
    cover = cover[order].astype(np.float64)
    index_in_group = np.zeros(S, dtype=np.int64)
    for g in range(G):
        members = np.flatnonzero(group == g)
        for flag in (True, False):
            same = members[manual[members] == flag]
            index_in_group[same] = np.arange(1, same.size + 1)
    contributor = pooled_runs(group, manual, index_in_group, per_group=pooled_runs_per_group,
                              manual_count=pooled_manual_runs, automatic_count=pooled_automatic_runs)
    out = Design(group=group, kind=kind, manual=manual, contributor=contributor, quality=quality,
                 weights=weights, aspect_cover=cover, score_scale=scale, score_offset=offset,
                 index_in_group=index_in_group)
    for arr in vars(out).values():
        arr.flags.writeable = False
    return out


def capped_group_sizes(sizes: np.ndarray, *, cap: int) -> np.ndarray:
    """Group sizes with no group above ``cap`` runs: a TREC track's limit on submissions per group.

    The drawn sizes (1 + a Dirichlet-multinomial share) leave a few groups with many runs; a
    track caps them, and most groups submit up to the cap: TREC-COVID round 1's 56 teams
    submitted at most 3 runs each and most of them exactly 3
    (``tests/datasets/test_settings_ravana.py`` measures it on the shared data). Which runs a
    track pools then matters: with the pooled runs spread over the groups, the runs left out of
    the pool come from every group, not from the few largest, so few pairs of non-pooled runs
    share a group (and its noise and quality). Each excess run, taken from the largest group
    (the first of equals), goes to the smallest (the first of equals); the total is kept.

    >>> capped_group_sizes(np.array([7, 1, 2, 2]), cap=4).tolist()   # 7 → 4; the 3 runs go to 1, 2, 2
    [4, 3, 3, 2]
    """
    sizes = np.asarray(sizes, dtype=np.int64).copy()
    if cap * sizes.size < int(sizes.sum()):
        raise ValueError(f"max_runs_per_group ({cap}) × num_groups ({sizes.size}) must be ≥ num_runs "
                         f"({int(sizes.sum())}): the groups cannot hold every run")
    while sizes.max() > cap:
        sizes[int(np.argmax(sizes))] -= 1
        sizes[int(np.argmin(sizes))] += 1
    return sizes


def pooled_runs(group: np.ndarray, manual: np.ndarray, index_in_group: np.ndarray, *, per_group: int,
                manual_count: int = -1, automatic_count: int = -1) -> np.ndarray:
    """Which runs (in output order: by group, manual runs first) contribute to the pool.

    By default each group's first ``per_group`` runs, its manual runs first, as TREC groups
    chose. A count ≥ 0 for a kind (``manual_count``, ``automatic_count``) replaces that
    kind's choice: that many runs of the kind, manual runs first, spread over the groups — a
    run's turn is the number of its group's runs already pooled plus its number within its
    kind; earlier turns go first, within a turn (while the other kind is still to choose) a
    group with no run of the other kind, which would pool nothing otherwise, then group
    order — as TREC 2006
    Terabyte pooled 11 of its 19 manual and 31 of its 61 automatic runs, up to three from
    each of its 20 groups.

    >>> group, manual = np.array([0, 0, 0, 1, 1, 2]), np.array([True, False, False, True, False, False])
    >>> index = np.array([1, 1, 2, 1, 1, 1])
    >>> pooled_runs(group, manual, index, per_group=1).astype(int).tolist()   # each group's first run
    [1, 0, 0, 1, 0, 1]
    >>> pooled_runs(group, manual, index, per_group=1, manual_count=1, automatic_count=4).astype(int).tolist()
    [1, 1, 1, 0, 1, 1]
    """
    contributor = np.zeros(group.size, dtype=bool)
    for g in np.unique(group):
        contributor[np.flatnonzero(group == g)[:per_group]] = True
    counted = [(flag, count) for flag, count in ((True, manual_count), (False, automatic_count)) if count >= 0]
    for flag, _ in counted:
        contributor[manual == flag] = False
    for k, (flag, count) in enumerate(counted):
        same = np.flatnonzero(manual == flag)
        already = np.bincount(group[contributor], minlength=int(group.max()) + 1)
        turn = already[group[same]] + index_in_group[same]
        pending = k + 1 < len(counted)  # the other kind is still to choose: it can pool for groups that have it
        has_other = np.isin(group[same], group[manual != flag]) & pending
        contributor[same[np.lexsort((group[same], has_other, turn))[:count]]] = True
    return contributor


def trec_order_key(micro: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """uint64 keys whose descending order is trec_eval's: the printed score read back and
    compared as float32 (as trec_eval stores it), then docno (= document index) descending.

    >>> k = trec_order_key(np.array([1_000_000, 1_000_000, 2_500_000]), np.array([3, 7, 0]))
    >>> np.argsort(~k).tolist()     # largest key first: 2.5, then the tie 1.0 by docno descending
    [2, 1, 0]
    """
    s32 = (np.asarray(micro, dtype=np.int64) / 1e6).astype(np.float32)
    s32[s32 == 0] = 0.0  # -0.0 and 0.0 tie
    bits = s32.view(np.uint32)
    ascending = np.where(bits & np.uint32(0x80000000), ~bits, bits | np.uint32(0x80000000))
    return (ascending.astype(np.uint64) << np.uint64(32)) | np.asarray(doc).astype(np.uint64)


def _descending(key: np.ndarray) -> np.ndarray:
    """argsort of uint64 keys, largest first, along the last axis."""
    return np.argsort(~key, axis=-1)


def rank_documents(seed: int, latents: Latents, design: Design, *, run_depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Every run's ranking: ``doc[s, t, r]`` (document index within topic t) and
    ``score[s, t, r]`` in micro-units (int64: the printed score × 10⁶), in trec_eval order
    (:func:`trec_order_key`: float32 score descending, then docno descending)."""
    T, N, _ = latents.features.shape
    S, D = design.group.size, run_depth
    G = int(design.group.max()) + 1
    rho = GROUP_NOISE_SHARE
    doc = np.empty((S, T, D), dtype=np.int32)
    score = np.empty((S, T, D), dtype=np.int64)
    group_noise: dict[int, np.ndarray] = {}
    for g in range(G):
        group_noise[g] = _rng(seed, _GROUP_NOISE, g).standard_normal((T, N))
    rows = np.arange(T)[:, None]
    margin = min(N - D, 64)  # candidates beyond D, so that rounding cannot change the top D
    doc_index = np.broadcast_to(np.arange(N), (T, N))
    ease = latents.difficulty[:, None]
    near_topic = (latents.family == NEAR) | (latents.family == NEAR_TITLE)
    on_topic = latents.family != BACKGROUND
    relevant_aspect = np.where(near_topic, -1, latents.aspect)  # -1 → the appended 0 of the boosts below
    near_aspect = np.where(near_topic, latents.aspect, -1)
    for s in range(S):  # one vectorised (T, N) draw per run
        boost = np.append(ASPECT_BOOST * design.aspect_cover[s], 0.0)  # aspect -1 → no boost
        near_boost = np.append(NEAR_ASPECT_BOOST * design.aspect_cover[s], 0.0)
        f, w = latents.features, design.weights[s]
        # elementwise, not a matrix product: BLAS may fuse multiply-adds differently per CPU
        match = f[:, :, 0] * w[0] + f[:, :, 1] * w[1] + f[:, :, 2] * w[2] + f[:, :, 3] * w[3]
        form = np.clip(1.0 + RUN_TOPIC_JITTER * _rng(seed, _RUN_TOPIC, s).standard_normal(T), 0.2, 2.0)
        match += boost[relevant_aspect]
        if NEAR_ASPECT_BOOST:
            match += near_boost[near_aspect]
        raw = (design.quality[s] * form[:, None] * ease) * match
        if TOPICALITY:
            covered = np.append(design.aspect_cover[s], 1.0)[latents.aspect]  # no aspect (novel): always seen
            raw += TOPICALITY * on_topic * ((1.0 - ASPECT_TOPICALITY) + ASPECT_TOPICALITY * covered)
        raw += np.sqrt(rho) * group_noise[int(design.group[s])]
        raw += np.sqrt(1.0 - rho) * _rng(seed, _RUN_NOISE, s).standard_normal((T, N))
        printed = design.score_scale[s] * raw + design.score_offset[s]
        if D + margin < N:
            cand = np.argpartition(-printed, D + margin - 1, axis=1)[:, : D + margin]
        else:
            cand = doc_index
        micro = np.rint(printed[rows, cand] * 1e6).astype(np.int64)
        key = trec_order_key(micro, cand)
        order = _descending(key)[:, :D]
        picked = cand[rows, order]
        top_micro = micro[rows, order]
        if D + margin < N:
            # exactness guard: argpartition put the lowest candidate last and every document
            # left out scores at most as high; it must compare strictly below the D-th
            boundary = key[:, -1] >> np.uint64(32)
            if np.any(boundary >= key[rows, order][:, -1] >> np.uint64(32)):  # pragma: no cover
                all_micro = np.rint(printed * 1e6).astype(np.int64)
                picked = _descending(trec_order_key(all_micro, doc_index))[:, :D]
                top_micro = all_micro[rows, picked]
        doc[s] = picked
        score[s] = top_micro
    doc.flags.writeable = False
    score.flags.writeable = False
    return doc, score
