"""Automatic judges: qrels written by a machine, and what they do to a ranking of runs.

Relevance judgments are now often made, or completed, by language models (Thomas, Spielman,
Craswell & Mitra, SIGIR 2024). This module makes a
judge's qrels three ways and measures them against the reference qrels (the complete truth
of a simulated collection, or the human qrels):

* (a) the classifiers of :mod:`irnb.predict` (KLD, SVM; Büttcher et al. 2007), trained on a
  pool: :func:`classifier_judge`;
* (b) a simulated judge on a simulated collection, with a stated accuracy per grade, a
  leniency (false positives) and a susceptibility to documents that contain the topic's
  words: :func:`simulated_judge` (:func:`simulated_grades` gives the same grades as an array);
* (c) any qrels file a real judge wrote (UMBRELA's output, say), read with
  :func:`irnb.io.read_qrels`.

:func:`judge_study` then reads, for one judge, what the literature warns about:

* agreement with the reference, Cohen's κ per relevance level (:func:`agreement`);
* Kendall's τ between the system ranking under the reference and under the judge's qrels,
  over all runs and among the top k runs by the reference (:func:`top_tau`): Clarke & Dietz
  (2024) report that a high overall τ hides weak agreement among the best systems;
* "fill only the holes" (the human pool, the judge's grades for the documents it left out)
  against "judge the whole pool" (the judge's grades everywhere): Abbasiantaeb, Meng,
  Azzopardi & Aliannejadi (2024) find that filling the holes correlates substantially less
  with the human ranking than judging the whole pool automatically, and that runs are
  favoured or penalised in proportion to their holes;
* how far a run that reranks with the judge moves under the judge's own qrels against the
  truth: Clarke & Dietz (2024) find that such a run wins under the judge's qrels.

Alaofi, Thomas, Scholer & Sanderson ("LLMs can be fooled into labelling a document as
relevant", SIGIR-AP 2024) find automatic judges more lenient than human ones and swayed by
the query's words in a non-relevant text: the simulated judge's ``leniency`` and
``word_bias``.

**Written policy.** *The simulated judge* (:func:`simulated_grades`) grades every document of every topic of a
:class:`~irnb.datasets.Collection`, from its true grade g and two uniform draws per document
(one numpy Generator from ``seed``; the same seed gives the same draws whatever the other
parameters, so a judge with more leniency makes the same false positives and more):

* a non-relevant document (g = 0) is called relevant (grade 1) with probability ℓ
  (``leniency``); if it contains the topic's title words (the simulator's *near-title*
  family, :data:`TITLE_FAMILIES`) with probability ℓ + β·(1 − ℓ), β = ``word_bias``. Its
  accuracy, the chance of keeping grade 0, is 1 − ℓ (1 − ℓ − β·(1 − ℓ) with the words);
* a relevant document keeps its grade g with probability ``accuracy[g]`` (one number for
  every relevant grade, or one per grade 1..G); otherwise it gets one of the other grades
  0..G, each as likely. ``word_bias`` does not act on relevant documents.

Accuracy 1, leniency 0 and word bias 0 give the truth exactly.

*Holes and pools* (:func:`judge_study`): the human judgments are ``pool``, a judged mask over
the Experiment's qrels entries; the *holes* are the entries outside it that some run of the
Experiment ranks at depth ≤ d. Four sets of grades over the same entries:

* ``reference`` — every entry with its qrels grade (the truth, for a collection's
  ``complete_experiment``);
* ``human pool`` — the pool's entries with their reference grades, the rest unjudged;
* ``fill holes`` — the pool's entries with their reference grades, the holes with the judge's;
* ``whole pool`` — the pool's entries and the holes, all with the judge's grades.

An entry the judge did not grade stays unjudged (non-relevant for AP, P@k and nDCG; see the
measures' rules). A judge's qrels entry that the Experiment's qrels do not list is left out
(build the Experiment on qrels that list every document judged: ``truth=`` or the union).

*Reranking with the judge*: each run's *twin* ranks the run's own top ``rerank_depth``
documents by the judge's grade (highest first; ungraded documents after the judged
non-relevant ones; ties keep the run's order) and keeps the rest of the ranking. A twin's rank is its place among
the original runs under the same qrels (1 + the runs scoring strictly higher, scores
rounded to 12 decimals: a tie goes to the twin); ``shift`` = its rank under the reference −
its rank under the judge's whole-pool qrels (how many places the judge's qrels flatter it);
``inflation`` = the twin's score under the judge's qrels minus under the reference, less the
same difference averaged over the original runs (how much more the judge flatters the twin
than it flatters a run).

*Rank correlations* are Kendall's τ with ties counted as concordant and τ_AP, as in
:mod:`irnb.bias`; τ among the top k reads the k runs best under the reference (ties broken
by run order, :func:`irnb.bias.ranks`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from ._grades import UNJUDGED
from .bias import kendall_tau, ranks, rms_error, tau_ap
from .experiment import Experiment
from .judgments import qrels_row_of
from .io import read_qrels
from .kernels import Judged
from .measures import Measure, parse_measures
from .metrics import evaluate_view, level_counts_of
from .params import (JUDGE_ACCURACY, LENIENCY, POOL_DEPTH, RELEVANCE_LEVEL, RERANK_DEPTH, SEED, TOP_TAU_RUNS,
                     WORD_BIAS, random_generator)
from .pooling import judged_mask_of
from .trecdata import Qrels

__all__ = ["JUDGE_PARAMS", "JUDGE_MEASURES", "QRELS_KINDS", "TITLE_FAMILIES", "simulated_grades", "simulated_judge",
           "classifier_judge", "judge_entries", "cohen_kappa", "agreement", "top_tau", "JudgeStudy", "judge_study"]

#: The simulated judge's parameters (their bounds build the notebook's sliders).
JUDGE_PARAMS = {p.name: p for p in (JUDGE_ACCURACY, LENIENCY, WORD_BIAS)}
#: The measures a study reads by default.
JUDGE_MEASURES = ("nDCG@10", "P@10", "AP")
#: The four sets of grades a study compares (see the module docstring).
QRELS_KINDS = ("reference", "human pool", "fill holes", "whole pool")
#: The simulator's families whose documents contain the topic's title words (:mod:`irnb.datasets.model`).
TITLE_FAMILIES = ("near-title", "relevant-title")

_DECIMALS = 12  # scores equal to 12 decimals tie (as irnb.bias)
_UNGRADED_KEY = -1  # a document the judge did not grade sorts after the judged non-relevant ones
_NO_DOC_KEY = -1000  # past the end of a run: stays last


# =============================================================================== (b) the simulated judge
def _accuracy_per_grade(accuracy, top_grade: int, owner: str) -> np.ndarray:
    """(G + 1,) accuracy for grades 0..G (index 0 unused): one number for every relevant
    grade, or one number per grade 1..G."""
    given = list(accuracy) if isinstance(accuracy, (list, tuple, np.ndarray)) else [accuracy] * top_grade
    if len(given) != top_grade:
        raise ValueError(f"{owner}: accuracy must be one number, or one per relevant grade 1..{top_grade} "
                         f"({top_grade} numbers), got {accuracy!r}")
    return np.array([1.0] + [JUDGE_ACCURACY.validate(a, owner) for a in given])


def _judge_kernel(grade: np.ndarray, has_title_words: np.ndarray, u: np.ndarray, v: np.ndarray,
                  accuracy: np.ndarray, leniency: float, word_bias: float) -> np.ndarray:
    """The simulated judge's grades (int8, the shape of ``grade``) from the true grades, the
    title-word mask and two uniform draws per document (see the module docstring).

    >>> g = np.array([0, 0, 0, 1, 2]); title = np.array([False, True, True, False, False])
    >>> u = np.array([0.25, 0.25, 0.75, 0.9, 0.1]); v = np.array([0.0, 0.0, 0.0, 0.9, 0.0])
    >>> _judge_kernel(g, title, u, v, np.array([1.0, 0.8, 0.8]), 0.2, 0.5).tolist()
    [0, 1, 0, 2, 2]

    ℓ = 0.2: the first document (u = 0.25 ≥ ℓ) stays 0; with the title words the rate is
    0.2 + 0.5·0.8 = 0.6, so u = 0.25 is a false positive and u = 0.75 is not; the grade-1
    document (u = 0.9 ≥ 0.8) errs to the second of the other grades (0, 2): v = 0.9 → 2;
    the grade-2 document (u = 0.1 < 0.8) keeps its grade.
    """
    top_grade = accuracy.size - 1
    false_positive = np.where(has_title_words, leniency + word_bias * (1.0 - leniency), leniency)
    out = grade.astype(np.int8, copy=True)
    out[(grade == 0) & (u < false_positive)] = 1
    relevant = grade > 0
    wrong = relevant & (u >= accuracy[np.clip(grade, 0, top_grade)])
    # another grade, uniformly among the G others: the k-th of 0..G without g
    k = np.minimum((v * top_grade).astype(np.int64), top_grade - 1)
    other = np.where(k < grade, k, k + 1)
    out[wrong] = other[wrong]
    return out


def simulated_grades(collection, *, accuracy=JUDGE_ACCURACY.default, leniency: float = LENIENCY.default,
                     word_bias: float = WORD_BIAS.default, seed=SEED.default) -> np.ndarray:
    """The simulated judge's grade of every document of every topic of ``collection``, as a
    (topics, documents) int8 array in the order of ``collection.family`` (document i of
    topic t), which is also the order of the entries of ``collection.complete_experiment``
    (``.ravel()`` lines them up). See the module docstring for the judge's rules.

    >>> from irnb.datasets import simulate
    >>> c = simulate(seed=0, num_topics=2, num_runs=4, num_groups=2, docs_per_topic=300, run_depth=20,
    ...              pool_depth=5, median_relevant=10, novel_runs=1, keyword_runs=1)
    >>> bool((simulated_grades(c) == c.complete_experiment.judgments.qrel_grade.reshape(2, 300)).all())
    True
    """
    owner = "simulated_judge"
    leniency = LENIENCY.validate(leniency, owner)
    word_bias = WORD_BIAS.validate(word_bias, owner)
    rng = random_generator(seed, owner, note="the same seed gives the same judge")
    grade = np.asarray(collection.truth.table["grade"].to_numpy()).reshape(collection.family.shape)
    top_grade = max(int(grade.max()), 1)
    per_grade = _accuracy_per_grade(accuracy, top_grade, owner)
    from .datasets.model import FAMILY_NAMES

    title = np.isin(collection.family, [FAMILY_NAMES.index(f) for f in TITLE_FAMILIES])
    u, v = rng.random((2, *grade.shape))
    return _judge_kernel(grade, title, u, v, per_grade, leniency, word_bias)


def simulated_judge(collection, *, accuracy=JUDGE_ACCURACY.default, leniency: float = LENIENCY.default,
                    word_bias: float = WORD_BIAS.default, seed=SEED.default) -> Qrels:
    """A simulated judge's qrels for every document of every topic of a simulated
    ``collection`` (:func:`irnb.datasets.simulate`): a plain :class:`~irnb.Qrels`, as
    :func:`irnb.read_qrels` returns, with the judge's grades (:func:`simulated_grades`).

    ``accuracy`` (a): the chance that a relevant document keeps its true grade, one number or
    one per relevant grade; ``leniency`` (ℓ): the false-positive rate on non-relevant
    documents; ``word_bias`` (β): non-relevant documents with the topic's title words are
    called relevant with probability ℓ + β·(1 − ℓ) (Alaofi et al.'s gullibility to query
    words); ``seed``: an integer or a numpy Generator.

    >>> from irnb.datasets import simulate
    >>> c = simulate(seed=0, num_topics=2, num_runs=4, num_groups=2, docs_per_topic=300, run_depth=20,
    ...              pool_depth=5, median_relevant=10, novel_runs=1, keyword_runs=1)
    >>> simulated_judge(c).table.equals(c.truth.table)         # a = 1, ℓ = 0, β = 0: the truth
    True
    >>> lenient = simulated_judge(c, leniency=0.5).to_frame().merge(c.truth.to_frame(), on=["topic", "docno"])
    >>> bool(((lenient.grade_x == 1) | (lenient.grade_y != 0)).any())
    True
    """
    grades = simulated_grades(collection, accuracy=accuracy, leniency=leniency, word_bias=word_bias, seed=seed)
    table = collection.truth.table
    table = table.set_column(table.schema.get_field_index("grade"), "grade", pa.array(grades.ravel().astype(np.int64)))
    shown_seed = seed if not isinstance(seed, np.random.Generator) else "a Generator"
    return Qrels(table=table, source=f"simulated judge (accuracy={accuracy!r}, leniency={leniency!r}, "
                                     f"word_bias={word_bias!r}, seed={shown_seed}) on {collection.truth.source}")


# =============================================================================== (a) the classifiers as a judge
def classifier_judge(experiment: Experiment, documents, *, pool, depth: int = POOL_DEPTH.default, method: str = "kld",
                     seed: int = SEED.default) -> Qrels:
    """The classifiers of :mod:`irnb.predict` as a judge: qrels for the holes (the documents
    outside ``pool`` that a run ranks at depth ≤ ``depth``), predicted by a classifier
    trained on the pool (:func:`irnb.predict.complete_qrels`), and for the pool's own
    entries, each predicted by a classifier trained on the other half of the pool (two
    halves drawn per entry from ``seed``), so that no judgment is of a document the
    classifier was trained on. ``method``: ``"kld"`` or ``"svm"`` (scikit-learn).

    The classifier is binary: a predicted-relevant document gets the relevance level's
    grade (1), as in :mod:`irnb.predict`.
    """
    from .predict import complete_qrels

    owner = "classifier_judge"
    depth = POOL_DEPTH.validate(depth, owner)
    mask = judged_mask_of(experiment, pool)
    mask = np.ones(experiment.judgments.num_judgments, dtype=bool) if mask is None else np.asarray(mask)
    seed = SEED.validate(seed, owner)  # an integer: the classifiers take it too
    half = np.random.default_rng(seed).random(mask.size) < 0.5
    parts = [complete_qrels(experiment, documents, pool=mask, depth=depth, method=method, seed=seed).predicted]
    for train, target in ((mask & ~half, mask & half), (mask & half, mask & ~half)):
        if target.any():
            parts.append(complete_qrels(experiment, documents, pool=train, targets=target, method=method,
                                        seed=seed).predicted)
    frame = pd.concat([p[["topic", "docno", "grade"]] for p in parts], ignore_index=True)
    qrels = read_qrels(frame)
    return Qrels(table=qrels.table, source=f"{method} classifier judge (trained on the pool; depth {depth})")


# =============================================================================== grades over an Experiment's entries
def judge_entries(experiment: Experiment, judge) -> np.ndarray:
    """(Q,) int8: the grade ``judge`` gives each qrels entry of ``experiment`` (``UNJUDGED``
    where it gives none). ``judge``: a :class:`~irnb.Qrels`, a qrels file or DataFrame
    (read with :func:`irnb.read_qrels`), or already a (Q,) array of grades over the entries.
    Entries of the judge's qrels that the Experiment's qrels do not list are left out."""
    return _judge_entries(experiment, judge)[0]


def _judge_entries(experiment: Experiment, judge) -> tuple[np.ndarray, int]:
    """:func:`judge_entries`, and how many of the judge's qrels entries were left out."""
    Q = experiment.judgments.num_judgments
    if isinstance(judge, np.ndarray):
        if judge.shape != (Q,) or judge.dtype.kind not in "iu":
            raise ValueError(f"judge as an array must hold one integer grade per qrels entry of the Experiment "
                             f"(shape ({Q},)), got dtype {judge.dtype} and shape {judge.shape}")
        return judge.astype(np.int8), 0
    if isinstance(judge, (str, os.PathLike, pd.DataFrame)):
        judge = read_qrels(judge)
    if not isinstance(judge, Qrels):
        raise TypeError(f"judge must be irnb Qrels, a qrels file or DataFrame, or an array of grades over the "
                        f"Experiment's qrels entries, got {type(judge).__name__}")
    table = judge.table
    topic = pd.Index(experiment.topics).get_indexer(np.asarray(table["topic"].to_pylist(), dtype=object))
    j = experiment.judgments
    known = topic >= 0
    entry = np.full(table.num_rows, -1, dtype=np.int64)
    if known.any():
        docno = table["docno"].filter(pa.array(known))
        entry[known] = qrels_row_of(j.qrel_topic, j.qrel_docno, topic[known].astype(np.int32),
                                    pa.chunked_array(docno.chunks if isinstance(docno, pa.ChunkedArray) else [docno]))
    out = np.full(Q, UNJUDGED, dtype=np.int8)
    found = entry >= 0
    out[entry[found]] = table["grade"].to_numpy()[found].astype(np.int8)
    return out, int((~found).sum())


# =============================================================================== agreement
def cohen_kappa(judge, reference) -> float:
    """Cohen's κ between two raters' labels of the same items: κ = (p_o − p_e) / (1 − p_e),
    p_o the share of items they label alike, p_e = Σ_c P_judge(c)·P_reference(c) the share
    expected by chance. NaN when p_e = 1 (both raters use one and the same label: agreement
    cannot be told from chance) or when there are no items.

    Example: judge (1, 1, 0, 0), reference (1, 0, 0, 0): p_o = 3/4;
    p_e = ½·¼ + ½·¾ = ½; κ = (¾ − ½) / (1 − ½) = 0.5.

    >>> cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0])
    0.5
    """
    a, b = np.asarray(judge).ravel(), np.asarray(reference).ravel()
    if a.shape != b.shape:
        raise ValueError(f"judge and reference must label the same items, got {a.size} and {b.size} labels")
    return _kappa_parts(a, b)[2]


def _kappa_parts(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """(p_o, p_e, κ) of :func:`cohen_kappa` for two label arrays of the same size."""
    if a.size == 0:
        return float("nan"), float("nan"), float("nan")
    observed = float(np.mean(a == b))
    labels, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    share_a = np.bincount(inverse[: a.size], minlength=labels.size) / a.size
    share_b = np.bincount(inverse[a.size:], minlength=labels.size) / b.size
    expected = float(share_a @ share_b)
    kappa = float("nan") if expected >= 1.0 else (observed - expected) / (1.0 - expected)
    return observed, expected, kappa


def agreement(judge, reference, *, levels: Sequence[int] | None = None) -> pd.DataFrame:
    """The judge's agreement with the reference grades of the same documents: one row per
    relevance level (``≥1``, ``≥2``, …: relevant at that level or not) and one for the grades
    themselves (``grades``). Columns ``level, documents, observed, expected, kappa``
    (:func:`cohen_kappa`'s p_o, p_e and κ), ``judge_relevant`` and ``reference_relevant``
    (shares called relevant at the level), ``false_positive_rate`` (of the documents the
    reference calls non-relevant at the level) and ``false_negative_rate`` (of those it calls
    relevant); NaN for the grades row and for 0/0. ``levels`` default: 1 up to the highest
    reference grade.

    >>> agreement([1, 1, 0, 0], [1, 0, 0, 0])[["level", "kappa", "false_positive_rate"]].values.tolist()
    [['≥1', 0.5, 0.3333333333333333], ['grades', 0.5, nan]]
    """
    a, b = np.asarray(judge).ravel(), np.asarray(reference).ravel()
    if a.shape != b.shape:
        raise ValueError(f"judge and reference must grade the same documents, got {a.size} and {b.size} grades")
    if levels is None:
        levels = range(1, max(int(b.max(initial=0)), 1) + 1)
    rows = []
    for level in levels:
        level = RELEVANCE_LEVEL.validate(level, "agreement")
        x, y = a >= level, b >= level
        rows.append(_agreement_row(f"≥{level}", x, y))
    rows.append(_agreement_row("grades", a, b, binary=False))
    return pd.DataFrame(rows)


def _agreement_row(level: str, x: np.ndarray, y: np.ndarray, *, binary: bool = True) -> dict:
    observed, expected, kappa = _kappa_parts(x, y)
    row = {"level": level, "documents": int(x.size), "observed": observed, "expected": expected, "kappa": kappa,
           "judge_relevant": np.nan, "reference_relevant": np.nan, "false_positive_rate": np.nan,
           "false_negative_rate": np.nan}
    if binary and x.size:
        negatives, positives = int((~y).sum()), int(y.sum())
        row.update(judge_relevant=float(x.mean()), reference_relevant=float(y.mean()),
                   false_positive_rate=float((x & ~y).sum() / negatives) if negatives else np.nan,
                   false_negative_rate=float((~x & y).sum() / positives) if positives else np.nan)
    return row


# =============================================================================== rank correlation among the top runs
def top_tau(reference, other, *, top: int = TOP_TAU_RUNS.default) -> float:
    """Kendall's τ (ties concordant, :func:`irnb.bias.kendall_tau`) among the ``top`` systems
    best under ``reference`` (ties broken by position, :func:`irnb.bias.ranks`); every system
    when there are no more than ``top``.

    Example: reference (4, 3, 2, 1), other (1, 2, 3, 4): every pair is swapped; among the
    top 2 (the systems scoring 4 and 3) the one pair is swapped too, τ = −1; other (4, 3, 1, 2)
    swaps only the bottom pair: τ over all = 1 − 2·1/6 = 0.6667, among the top 2 τ = 1.

    >>> top_tau([4, 3, 2, 1], [1, 2, 3, 4], top=2), top_tau([4, 3, 2, 1], [4, 3, 1, 2], top=2)
    (-1.0, 1.0)
    """
    ref = np.asarray(reference, dtype=np.float64)
    top = TOP_TAU_RUNS.validate(top, "top_tau")
    best = np.argsort(ranks(ref))[: min(top, ref.size)]
    return kendall_tau(ref[best], np.asarray(other, dtype=np.float64)[best])


# =============================================================================== the study
@dataclass(frozen=True, eq=False)
class JudgeStudy:
    """What one judge does to the evaluation of an Experiment's runs (:func:`judge_study`).

    * ``agreement``: Cohen's κ and error rates per relevance level (:func:`agreement`), with
      a column ``documents_judged`` (``pool``, ``holes``): the judge against the reference on
      the pool's entries and on the holes it graded;
    * ``correlation``: one row per measure and qrels (``human pool``, ``fill holes``,
      ``whole pool``): ``tau`` (Kendall's τ against the reference ranking), ``tau_top``
      (among the ``top`` runs by the reference), ``tau_ap``, ``rms_error`` of the mean
      scores, ``holes_error_r`` (Pearson's r over runs between a run's share of holes and its
      score error, score − reference score; NaN when either is constant);
    * ``scores``: one row per run, measure and qrels (:data:`QRELS_KINDS`): ``score`` (the
      mean over topics), ``rank`` (among the runs, 1 = best), ``error`` (score − reference
      score) and ``holes`` (the run's share of its top-d documents outside the pool);
    * ``rerank``: one row per run and measure: ``rank`` (the run's own under the reference),
      the twin's scores and ranks among the original runs under the reference and under the
      judge's whole-pool qrels (``twin_reference_*``, ``twin_judge_*``), ``shift`` =
      twin_reference_rank − twin_judge_rank, and ``inflation`` (the twin's score gain under
      the judge's qrels beyond the runs' mean gain);
    * ``depth``, ``top``, ``rerank_depth``: the settings; ``pool_entries``, ``hole_entries``:
      how many qrels entries the pool and the holes hold; ``outside``: the judge's qrels
      entries that the Experiment's qrels do not list (left out).
    """

    agreement: pd.DataFrame = field(repr=False)
    correlation: pd.DataFrame = field(repr=False)
    scores: pd.DataFrame = field(repr=False)
    rerank: pd.DataFrame = field(repr=False)
    depth: int
    top: int
    rerank_depth: int
    pool_entries: int
    hole_entries: int
    outside: int = 0

    def summary(self) -> pd.DataFrame:
        """The correlation table with the twins' mean shift and inflation per measure beside it."""
        twins = self.rerank.groupby("measure", sort=False)[["shift", "inflation"]].mean()
        twins.columns = ["mean_twin_shift", "mean_twin_inflation"]
        return self.correlation.merge(twins, left_on="measure", right_index=True, how="left")


def _holes(judgments, pool: np.ndarray, depth: int) -> np.ndarray:
    """(Q,) bool: the entries outside ``pool`` that some run ranks at depth ≤ depth."""
    top = judgments.doc[:, :, :depth]
    hole = np.zeros(judgments.num_judgments, dtype=bool)
    hole[top[top >= 0]] = True
    return hole & ~pool


def _twin_order(judgments, judge: np.ndarray, depth: int) -> np.ndarray:
    """(S, T, d) the order of each run's top d documents by the judge's grade (highest
    first, ungraded after judged non-relevant, ties in the run's order)."""
    top = judgments.doc[:, :, :depth]
    grade = np.where(judge >= 0, judge.astype(np.int64), _UNGRADED_KEY)
    key = np.where(top >= 0, grade[np.maximum(top, 0)], np.where(top == -1, _UNGRADED_KEY, _NO_DOC_KEY))
    return np.argsort(-key, axis=2, kind="stable")


def _means(experiment: Experiment, entry_grade: np.ndarray, order: np.ndarray, parsed: Sequence[Measure],
           relevance_level: int) -> dict[Measure, np.ndarray]:
    """{measure: (2S,) mean scores}: the runs, then their twins, on the grades ``entry_grade``."""
    j = experiment.judgments
    grade = j.grades_at_ranks(entry_grade)
    d = order.shape[2]
    twin = grade.copy()
    twin[:, :, :d] = np.take_along_axis(grade[:, :, :d], order, axis=2)
    length = np.concatenate([experiment.length, experiment.length])
    view = Judged(grade=np.concatenate([grade, twin]), level_counts=level_counts_of(j.qrel_topic, entry_grade,
                                                                                    len(experiment.topics)),
                  length=length, relevance_level=relevance_level, trec_version=int(getattr(experiment, "compat", "9")))
    names = tuple(experiment.run_names) + tuple(f"{r} (twin)" for r in experiment.run_names)
    ev = evaluate_view(view, parsed, run_names=names, topics=experiment.topics, length=length,
                       relevance_level=relevance_level)
    return {m: np.round(np.asarray(ev.aggregate(m), dtype=np.float64), _DECIMALS) for m in parsed}


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def judge_study(experiment: Experiment, judge, *, pool, depth: int = POOL_DEPTH.default,
                measures: str | Measure | Iterable[str | Measure] = JUDGE_MEASURES, top: int = TOP_TAU_RUNS.default,
                rerank_depth: int = RERANK_DEPTH.default, relevance_level: int = RELEVANCE_LEVEL.default) -> JudgeStudy:
    """What the automatic ``judge`` does to the evaluation of ``experiment``'s runs.

    ``experiment``'s qrels are the reference (for a simulated collection its
    ``complete_experiment``, whose qrels are the complete truth); ``pool`` is what human
    assessors judged (an :class:`irnb.pooling.Pool` or a boolean mask over the qrels
    entries); the holes are the entries outside it that a run ranks at depth ≤ ``depth``
    (d). ``judge``: the judge's :class:`~irnb.Qrels` (:func:`simulated_judge`,
    :func:`classifier_judge`, or a real judge's file through :func:`irnb.read_qrels`), a
    qrels file or DataFrame, or an array of grades over the qrels entries
    (:func:`judge_entries`). ``top``: the runs best under the reference among which τ is
    also read; ``rerank_depth``: the top documents of each run its twin reorders. See the
    module docstring for the four sets of grades and the twins.

    Example: two runs, one topic; the reference grades a, b relevant, c not; the humans
    judged a only; the judge calls every document relevant. Run x ranks a, c, b; run y
    ranks c, b, a. Under the reference P@2 is ½ for both; filling the holes gives x and y
    P@2 = 1 (c and b called relevant), as does the judge's whole pool.

    >>> from irnb import Experiment, Qrels
    >>> runs = pd.DataFrame({"run": ["x"] * 3 + ["y"] * 3, "qid": "1", "docno": list("acbcba"),
    ...                      "score": [3, 2, 1] * 2})
    >>> exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": list("abc"), "grade": [1, 1, 0]}))
    >>> lenient = Qrels.from_dict({"1": {"a": 1, "b": 1, "c": 1}})
    >>> study = judge_study(exp, lenient, pool=np.array([True, False, False]), depth=3, measures=["P@2"], top=2)
    >>> study.scores.pivot(index="run", columns="qrels", values="score")[list(QRELS_KINDS)].values.tolist()
    [[0.5, 0.5, 1.0, 1.0], [0.5, 0.0, 1.0, 1.0]]
    """
    owner = "judge_study"
    depth = POOL_DEPTH.validate(depth, owner)
    relevance_level = RELEVANCE_LEVEL.validate(relevance_level, owner)
    S = len(experiment.run_names)
    top = TOP_TAU_RUNS.validate(top, owner)  # more than the runs: τ over every run
    rerank_depth = RERANK_DEPTH.validate(rerank_depth, owner)
    parsed = parse_measures(measures)
    j = experiment.judgments
    pool_mask = judged_mask_of(experiment, pool)
    pool_mask = np.ones(j.num_judgments, dtype=bool) if pool_mask is None else np.asarray(pool_mask, dtype=bool)
    judge_grade, outside = _judge_entries(experiment, judge)
    reference = j.qrel_grade.astype(np.int8)
    hole = _holes(j, pool_mask, depth)
    grades = {
        "reference": reference,
        "human pool": np.where(pool_mask, reference, UNJUDGED).astype(np.int8),
        "fill holes": np.where(pool_mask, reference, np.where(hole, judge_grade, UNJUDGED)).astype(np.int8),
        "whole pool": np.where(pool_mask | hole, judge_grade, UNJUDGED).astype(np.int8),
    }
    order = _twin_order(j, judge_grade, rerank_depth)
    means = {kind: _means(experiment, g, order, parsed, relevance_level) for kind, g in grades.items()}

    top_doc = j.doc[:, :, :depth]
    retrieved = top_doc != -2
    outside_pool = retrieved & ~np.where(top_doc >= 0, pool_mask[np.maximum(top_doc, 0)], False)
    holes_share = outside_pool.sum(axis=(1, 2)) / np.maximum(retrieved.sum(axis=(1, 2)), 1)

    names = np.asarray(experiment.run_names, dtype=object)
    score_rows, corr_rows, rerank_rows = [], [], []
    for m in parsed:
        ref = means["reference"][m][:S]
        for kind in QRELS_KINDS:
            score = means[kind][m][:S]
            score_rows.append(pd.DataFrame({"run": names, "measure": m.name, "qrels": kind, "score": score,
                                            "rank": ranks(score), "error": score - ref, "holes": holes_share}))
            if kind != "reference":
                corr_rows.append({"measure": m.name, "qrels": kind, "tau": kendall_tau(ref, score),
                                  "tau_top": top_tau(ref, score, top=top), "tau_ap": tau_ap(ref, score),
                                  "rms_error": rms_error(ref, score), "holes_error_r": _pearson(holes_share,
                                                                                                score - ref)})
        twin_ref, twin_judge = means["reference"][m][S:], means["whole pool"][m][S:]
        judge_runs = means["whole pool"][m][:S]
        rank_ref = 1 + (ref[None, :] > twin_ref[:, None]).sum(axis=1)
        rank_judge = 1 + (judge_runs[None, :] > twin_judge[:, None]).sum(axis=1)
        inflation = (twin_judge - twin_ref) - float(np.mean(judge_runs - ref))
        rerank_rows.append(pd.DataFrame({"run": names, "measure": m.name, "rank": ranks(ref),
                                         "twin_reference_score": twin_ref, "twin_judge_score": twin_judge,
                                         "twin_reference_rank": rank_ref, "twin_judge_rank": rank_judge,
                                         "shift": rank_ref - rank_judge, "inflation": inflation}))

    graded = judge_grade >= 0
    parts = []
    for where, mask in (("pool", pool_mask & graded), ("holes", hole & graded)):
        part = agreement(judge_grade[mask], reference[mask])
        part.insert(0, "documents_judged", where)
        parts.append(part)
    return JudgeStudy(agreement=pd.concat(parts, ignore_index=True), correlation=pd.DataFrame(corr_rows),
                      scores=pd.concat(score_rows, ignore_index=True),
                      rerank=pd.concat(rerank_rows, ignore_index=True), depth=depth, top=top,
                      rerank_depth=rerank_depth,
                      pool_entries=int(pool_mask.sum()), hole_entries=int(hole.sum()), outside=outside)
