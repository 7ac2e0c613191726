"""Completed qrels: which documents are predicted, the classifier run per topic, and the
:class:`CompletedQrels` that evaluates every run on the pool's grades plus the predicted
ones; the completed versions of the leave-one-group-out and pool-subset bias experiments."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..experiment import Experiment
from ..judgments import NOT_IN_QRELS, qrels_row_of
from ..io import read_qrels
from ..kernels import Judged
from ..measures import Measure, parse_measures
from ..metrics import Evaluation, evaluate_view, level_counts_of
from ..params import COMPLETE, PROBABILITIES, TRUTH, WITHIN_QRELS
from ..pooling import DEPTH, judged_mask_of, pool_label
from ..trecdata import Qrels
from .classifiers import EXPECTED_BACKGROUND, RELEVANCE_LEVEL, SEED, ClassifierOptions, classify_topic
from .features import term_counts_covering

# =============================================================================== run lines → cells
def run_lines(experiment: Experiment, s: int, depth: int) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """(topic index, 0-based rank, docno) of the lines of run ``s`` on the Experiment's
    topics at rank < depth (its ranking is in trec_eval order already)."""
    table = experiment.runs[experiment.run_names[s]].table
    topic = pc.index_in(table["topic"], value_set=pa.array(experiment.topics, pa.string()))
    topic = topic.combine_chunks() if isinstance(topic, pa.ChunkedArray) else topic
    topic = topic.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    raw = table["topic"].combine_chunks()
    n = len(raw)
    change = np.ones(n, dtype=bool)
    if n > 1:
        change[1:] = pc.not_equal(raw[1:], raw[:-1]).to_numpy(zero_copy_only=False)
    starts = np.flatnonzero(change)
    rank = np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))
    keep = (topic >= 0) & (rank < min(depth, experiment.depth))
    docno = table["docno"].combine_chunks().filter(pa.array(keep))
    return topic[keep], rank[keep], docno


def topic_positions(experiment: Experiment, topics: np.ndarray) -> np.ndarray:
    """Index of every topic id in ``experiment.topics`` (−1 for an unknown one)."""
    return pd.Index(experiment.topics).get_indexer(np.asarray(topics, dtype=object)).astype(np.int64)


def training_mask(experiment: Experiment, pool, name: str = "pool") -> np.ndarray:
    """The judged mask of ``pool`` (:func:`irnb.pooling.judged_mask_of`); every qrels entry when None."""
    mask = judged_mask_of(experiment, pool, name=name)
    return np.ones(experiment.judgments.num_judgments, dtype=bool) if mask is None else mask


def cells_of_extras(experiment: Experiment, topic: np.ndarray, docno: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Every (run, topic, rank) cell, as a flat index into the (S, T, D) arrays, that holds one
    of the documents (topic[i], docno[i]) that the qrels do not list; and which i it holds."""
    S, T, D = experiment.shape
    doc = experiment.judgments.doc
    cells, items = [], []
    for s in range(S):  # a loop over runs; every run's lines are vectorised
        t, r, names = run_lines(experiment, s, D)
        outside = doc[s, t, r] == NOT_IN_QRELS
        if not outside.any():
            continue
        t, r = t[outside], r[outside]
        item = qrels_row_of(topic.astype(np.int32), docno, t, pa.chunked_array([names.filter(pa.array(outside))]))
        hit = item >= 0
        cells.append((s * T + t[hit]) * D + r[hit])
        items.append(item[hit].astype(np.int64))
    if not cells:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(cells), np.concatenate(items)


# =============================================================================== completed qrels
@dataclass(frozen=True, eq=False)
class CompletedQrels:
    """The qrels of a pool completed with predicted judgments.

    ``predicted`` has one row per predicted document: ``topic, docno, entry`` (its index in
    the Experiment's qrels, −1 if the qrels do not list it), ``score`` (higher = more
    likely relevant; −KLD for the KLD classifier; NaN when the topic's training data has
    a single class), ``relevant`` (the decision rule's verdict: score > 0 for ``sign``,
    score ≥ the topic's threshold for ``count``), ``grade`` (the grade
    given: ``relevant_grade`` or 0) and ``probability`` (Platt-calibrated, see the module
    docstring). ``thresholds`` has one row per topic: ``topic, threshold, judged, relevant``
    (training documents and relevant ones), ``predicted, predicted_relevant, calibrated``;
    the threshold is in score units (0 under the ``sign`` rule), ±inf when the training data
    has a single class, NaN
    when the topic has nothing to predict (no classifier is trained for it).
    ``judged`` is the training pool (a mask over the Experiment's qrels entries).
    """

    experiment: Experiment = field(repr=False)
    method: str
    description: str
    judged: np.ndarray = field(repr=False)
    predicted: pd.DataFrame = field(repr=False)
    thresholds: pd.DataFrame = field(repr=False)
    relevance_level: int = 1
    settings: Mapping[str, Any] = field(default_factory=dict, repr=False)
    extra_cells: np.ndarray = field(default=None, repr=False)  # flat (S, T, D) cells of predicted docs not in qrels
    extra_rows: np.ndarray = field(default=None, repr=False)  # the row of ``predicted`` each of them holds

    def __post_init__(self):
        self.judged.flags.writeable = False

    def __repr__(self) -> str:
        p = self.predicted
        return (f"CompletedQrels({self.method}: {int(self.judged.sum())} judged + {len(p)} predicted "
                f"({int(p['relevant'].sum())} relevant); {self.description})")

    # ------------------------------------------------------------ grades over the arrays
    @cached_property
    def _entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(grade, topic, extra grade/topic) of the completed qrels: the Experiment's Q entries
        (pool grade, predicted grade or UNJUDGED) followed by the predicted documents the
        qrels do not list."""
        j = self.experiment.judgments
        grade = j.entry_grades(self.judged)
        entry = self.predicted["entry"].to_numpy()
        listed = entry >= 0
        grade[entry[listed]] = self.predicted["grade"].to_numpy()[listed]
        extra = ~listed
        extra_topic = topic_positions(self.experiment, self.predicted["topic"].to_numpy()[extra])
        extra_grade = self.predicted["grade"].to_numpy()[extra].astype(np.int8)
        all_grade = np.concatenate([grade, extra_grade])
        all_topic = np.concatenate([j.qrel_topic.astype(np.int64), extra_topic])
        row_to_entry = np.full(len(self.predicted), -1, dtype=np.int64)
        row_to_entry[extra] = j.num_judgments + np.arange(int(extra.sum()))
        return all_grade, all_topic, row_to_entry

    def grade_array(self, runs: np.ndarray | None = None) -> np.ndarray:
        """(S, T, D) int8 completed grades (sentinels UNJUDGED, NO_DOC) of every run, or of
        the runs at positions ``runs``."""
        exp = self.experiment
        S, T, D = exp.shape
        grade, _, row_to_entry = self._entries
        out = exp.judgments.grades_at_ranks(grade[: exp.judgments.num_judgments], runs=runs)
        if self.extra_cells is not None and self.extra_cells.size:
            s, rest = np.divmod(self.extra_cells, T * D)
            entries = row_to_entry[self.extra_rows]
            if runs is None:
                out.reshape(-1)[self.extra_cells] = grade[entries]
            else:
                runs = np.asarray(runs)
                position = np.full(S, -1, dtype=np.int64)
                position[runs] = np.arange(runs.size)
                sel = position[s] >= 0
                out.reshape(-1)[position[s[sel]] * T * D + rest[sel]] = grade[entries[sel]]
        return out

    def level_counts(self) -> np.ndarray:
        """(T, G + 1) judged documents of each grade per topic in the completed qrels."""
        grade, topic, _ = self._entries
        return level_counts_of(topic, grade, len(self.experiment.topics))

    def view(self, runs: np.ndarray | None = None) -> Judged:
        """The measure kernels' view (:class:`irnb.metrics.Judged`) of every run, or of the
        runs at positions ``runs``, on the completed qrels (at :attr:`relevance_level`)."""
        length = self.experiment.length if runs is None else self.experiment.length[runs]
        return Judged(grade=self.grade_array(runs), level_counts=self.level_counts(), length=length,
                      relevance_level=self.relevance_level)

    def evaluate(self, measures: str | Measure | Iterable[str | Measure], *, complete: bool = False) -> Evaluation:
        """Every run of the Experiment evaluated on the completed qrels (as
        :func:`irnb.evaluate` on an Experiment built from :attr:`qrels`, without the rebuild;
        a measure left at rel 1 is evaluated at :attr:`relevance_level`)."""
        parsed = parse_measures(measures)
        complete = COMPLETE.validate(complete, None)  # before the view is built
        exp = self.experiment
        return evaluate_view(self.view(), parsed, run_names=exp.run_names, topics=exp.topics,
                             length=exp.length, relevance_level=self.relevance_level, complete=complete)

    # ------------------------------------------------------------ tables
    def frame(self) -> pd.DataFrame:
        """The completed qrels as ``topic, docno, grade, predicted`` (the pool's entries, then
        the predictions; sorted by topic and docno)."""
        exp = self.experiment
        judged = exp.judgments.frame(exp.topics, self.judged)
        predicted_entries = self.predicted["entry"].to_numpy()
        if predicted_entries.size:
            drop = np.isin(np.flatnonzero(self.judged), predicted_entries[predicted_entries >= 0])
            judged = judged.loc[~drop]
        judged = judged.assign(predicted=False)
        guessed = self.predicted[["topic", "docno", "grade"]].assign(predicted=True)
        frame = pd.concat([judged, guessed], ignore_index=True)
        frame["grade"] = frame["grade"].astype(np.int64)
        return frame.sort_values(["topic", "docno"], kind="stable").reset_index(drop=True)

    @property
    def qrels(self) -> Qrels:
        """The completed qrels as a :class:`~irnb.Qrels` (``Experiment(runs, completed.qrels)``
        evaluates like :meth:`evaluate`, provided every topic keeps at least one entry)."""
        frame = self.frame()
        qrels = read_qrels(frame[["topic", "docno", "grade"]])
        return Qrels(table=qrels.table, source=f"completed qrels ({self.method}; {self.description})")

    def accuracy(self, *, truth: bool = False) -> pd.DataFrame:
        """Per-topic precision, recall and F1 of the predictions against the official qrels
        grades of the predicted documents (those the qrels list with a grade ≥ 0), or against
        the Experiment's complete ``truth``. Columns ``topic, assessed, relevant,
        predicted_relevant, true_positive, precision, recall, f1``; 0/0 is NaN (skipped by
        ``.mean()``, the paper's macro-average).

        Example: 3 assessed, predictions (1, 1, 0), true (1, 0, 1): TP = 1, precision 1/2,
        recall 1/2, F1 = 0.5.
        """
        truth = TRUTH.validate(truth, "accuracy")
        exp = self.experiment
        p = self.predicted
        T = len(exp.topics)
        t_idx = topic_positions(exp, p["topic"].to_numpy())
        if truth:
            if exp.truth is None:
                raise ValueError("accuracy(truth=True) needs an Experiment built with truth= qrels")
            j = exp.truth
            entry = qrels_row_of(j.qrel_topic, j.qrel_docno, t_idx,
                                 pa.chunked_array([pa.array(p["docno"], pa.string())]))
        else:
            j = exp.judgments
            entry = p["entry"].to_numpy()
        known = entry >= 0
        true_grade = np.where(known, j.qrel_grade[np.maximum(entry, 0)] if entry.size else 0, -1)
        known &= true_grade >= 0
        actual = known & (true_grade >= self.relevance_level)
        guess = known & p["relevant"].to_numpy(dtype=bool)

        def count(mask):
            return np.bincount(t_idx[mask], minlength=T)

        assessed, relevant, predicted_relevant, tp = count(known), count(actual), count(guess), count(actual & guess)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = tp / predicted_relevant
            recall = tp / relevant
            f1 = np.where(tp > 0, 2 * precision * recall / (precision + recall),
                          np.where((predicted_relevant > 0) | (relevant > 0), 0.0, np.nan))
        return pd.DataFrame({"topic": list(exp.topics), "assessed": assessed, "relevant": relevant,
                             "predicted_relevant": predicted_relevant, "true_positive": tp,
                             "precision": np.where(predicted_relevant > 0, precision, np.nan),
                             "recall": np.where(relevant > 0, recall, np.nan), "f1": f1})

    def _probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        """(Q,) probability per qrels entry and (S, T, D) per cell for the predicted documents
        the qrels do not list; NaN elsewhere."""
        exp = self.experiment
        entry = self.predicted["entry"].to_numpy()
        prob = self.predicted["probability"].to_numpy(dtype=np.float64)
        value = np.full(exp.judgments.num_judgments, np.nan)
        value[entry[entry >= 0]] = prob[entry >= 0]
        cells = np.full(exp.shape, np.nan)
        if self.extra_cells is not None and self.extra_cells.size:
            cells.reshape(-1)[self.extra_cells] = prob[self.extra_rows]
        return value, cells

    def probability_array(self, *, background_rate: float = 0.0) -> np.ndarray:
        """(S, T, D) probability of relevance at every rank: 1 or 0 for judged documents
        (grade ≥ ``relevance_level``), the predicted probability for predicted ones,
        ``background_rate`` for other unjudged documents, 0 where there is no document."""
        background_rate = EXPECTED_BACKGROUND.validate(background_rate, "probability_array")
        value, cells = self._probabilities()
        return expected_gains(self.experiment, self.judged, self.relevance_level, value, cells, background_rate)


def expected_gains(experiment: Experiment, judged_mask: np.ndarray, level: int, entry_prob: np.ndarray,
                   cell_prob: np.ndarray | None, background_rate: float) -> np.ndarray:
    """(S, T, D) expected binary gains: judged → relevance; unjudged → probability (entry or
    cell), else the background rate; no document → 0."""
    j = experiment.judgments
    doc = j.doc
    judged_q = j.judged_entries(judged_mask)
    rel_q = j.relevant_entries(judged_mask, level)
    q = np.maximum(doc, 0)
    is_doc = doc != -2
    in_qrels = doc >= 0
    judged = in_qrels & judged_q[q]
    prob = np.where(in_qrels, entry_prob[q], np.nan)
    if cell_prob is not None:
        prob = np.where(np.isnan(prob), cell_prob, prob)
    prob = np.where(np.isnan(prob), background_rate, prob)
    return np.where(judged, rel_q[q].astype(np.float64), np.where(is_doc, prob, 0.0))

# =============================================================================== public: completion


def complete_qrels(
    experiment: Experiment,
    documents,
    *,
    depth: int | None = None,
    runs: str | Iterable[str] | None = None,
    pool=None,
    targets=None,
    within_qrels: bool = False,
    method: str = "svm",
    decision_rule: str | None = None,
    relevance_level: int = RELEVANCE_LEVEL.default,
    relevant_grade: int | None = None,
    background_weight: float = 0.2,
    C: float | None = None,
    max_features: int = 1_000_000,
    calibration_folds: int = 3,
    probabilities: bool = True,
    seed: int = SEED.default,
) -> CompletedQrels:
    """Predict the relevance of the unjudged documents in the top ``depth`` of ``runs`` with
    a classifier trained, per topic, on the judged documents of ``pool``.

    Parameters
    ----------
    documents : texts (mapping docno → text, DataFrame ``docno, text``, callable) or a
        :class:`TermCounts` covering the training and predicted documents.
    depth : pool depth d: documents ranked at depth ≤ d by one of ``runs`` are predicted
        (not beyond: the paper's warning).
    runs : the runs whose top ``depth`` is completed (default: every run).
    pool : the training judgments: an :class:`irnb.pooling.Pool` or a boolean mask over the
        qrels entries (default: the official qrels).
    targets : instead of ``depth``/``runs``: a boolean mask over the qrels entries to
        predict (e.g. ``~pool.judged``: Büttcher et al.'s Table 6).
    within_qrels : with ``depth``, predict only documents the qrels list.
    method : ``"svm"`` (needs scikit-learn) or ``"kld"``.
    decision_rule : ``"sign"`` (relevant when the decision value is positive: the SVM's
        default, SVMlight's classification) or ``"count"`` (as many training documents pass
        as the training data has relevant ones: the KLD classifier's default and only rule);
        None = the method's default (:data:`~irnb.predict.classifiers.DEFAULT_DECISION_RULE`).
    relevance_level : grade at which a training document counts as relevant.
    relevant_grade : the grade given to predicted-relevant documents (default
        ``relevance_level``).
    background_weight : λ of the KLD classifier's interpolation smoothing.
    C, max_features : SVM cost (None = SVMlight's default) and vocabulary size.
    calibration_folds, probabilities, seed : Platt scaling of the probabilities on
        ``calibration_folds``-fold out-of-fold scores (skipped with
        ``probabilities=False``: every probability is then the smoothed training rate);
        ``seed`` fixes the folds and the SVM solver.

    Example: two topics; the relevant training documents talk about cats (topic 1) and
    dogs (topic 2); the unjudged ``u1``/``u2`` are predicted by the KLD classifier.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docno": ["a", "u1", "b", "c", "u2", "d"],
    ...                      "score": [3, 2, 1, 3, 2, 1]})
    >>> qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["a", "b", "c", "d"], "grade": [1, 0, 1, 0]})
    >>> texts = {"a": "cat cat purr", "b": "stock market", "u1": "cat purr", "c": "dog bark",
    ...          "d": "tax law", "u2": "law tax court"}
    >>> done = complete_qrels(Experiment(runs, qrels), texts, depth=3, method="kld")
    >>> done.predicted[["topic", "docno", "relevant", "grade"]].values.tolist()
    [['1', 'u1', True, 1], ['2', 'u2', False, 0]]
    >>> done.evaluate(["P@3"]).means()["P@3"].round(4).tolist()    # (2/3 + 1/3) / 2
    [0.5]
    """
    within_qrels = WITHIN_QRELS.validate(within_qrels, "complete_qrels")
    probabilities = PROBABILITIES.validate(probabilities, "complete_qrels")
    owner = "complete_qrels"
    settings = ClassifierOptions.validated(owner, method=method, decision_rule=decision_rule,
                                           relevance_level=relevance_level,
                                           relevant_grade=relevant_grade, background_weight=background_weight, C=C,
                                           max_features=max_features, calibration_folds=calibration_folds,
                                           probabilities=probabilities, seed=seed)
    chosen = PredictionTargets._select(experiment, pool=pool, targets=targets, depth=depth, runs=runs,
                                      within_qrels=within_qrels, owner=owner)
    return _predict(experiment, documents, chosen, settings, f"{chosen.scope}, trained on {pool_label(pool)}")


@dataclass(frozen=True, eq=False)
class PredictionTargets:
    """What :func:`complete_qrels` trains on and predicts: the training ``pool`` mask and its
    judged entries, the qrels entries to predict, and the (topic, docno) pairs the qrels do
    not list; ``scope`` says which in words."""

    pool: np.ndarray = field(repr=False)  # (Q,) bool: the training pool
    judged: np.ndarray = field(repr=False)  # (Q,) bool: its judged entries (the training documents)
    entries: np.ndarray = field(repr=False)  # qrels entries to predict
    extra_topic: np.ndarray = field(repr=False)  # topic index of each document outside the qrels to predict
    extra_docno: pa.Array = field(repr=False)  # and its docno
    scope: str = ""

    @classmethod
    def _select(cls, experiment: Experiment, *, pool, targets, depth, runs, within_qrels: bool,
                owner: str) -> PredictionTargets:
        """The targets of :func:`complete_qrels` (its written policy): ``targets`` (qrels
        entries), or the unjudged documents in the top ``depth`` of ``runs``; the flag is
        checked by :func:`complete_qrels`."""
        j = experiment.judgments
        mask = training_mask(experiment, pool)
        judged_q = j.judged_entries(mask)
        extra_topic = np.zeros(0, np.int64)
        extra_docno = pa.array([], pa.string())
        if targets is not None:
            if depth is not None or runs is not None or within_qrels:
                raise ValueError(f"{owner}: pass either targets= (qrels entries to predict) or depth= (with runs= and "
                                 "within_qrels=), not both")
            target_mask = training_mask(experiment, targets, "targets")
            target_q = np.flatnonzero(target_mask & ~judged_q)
            scope = f"{target_q.size} qrels entries"
        else:
            if depth is None:
                raise ValueError(f"{owner}: depth (the pool depth d: documents ranked at depth ≤ d are predicted) is "
                                 "required, e.g. depth=100; or pass targets=")
            depth = DEPTH.validate(depth, owner)
            if runs is None:
                run_idx = np.arange(len(experiment.run_names))
            else:
                names = [runs] if isinstance(runs, str) else list(runs)
                if not names:
                    raise ValueError(f"{owner}: runs must name at least one run, got an empty list")
                run_idx = np.unique(experiment.run_index(names))
            top = j.doc[run_idx, :, :depth]
            listed = top[top >= 0]
            target_q = np.unique(listed[~judged_q[listed]])
            if not within_qrels and (top == NOT_IN_QRELS).any():
                tops, docs = [], []
                for s in run_idx:
                    t, r, names = run_lines(experiment, int(s), depth)
                    outside = j.doc[s, t, r] == NOT_IN_QRELS
                    tops.append(t[outside])
                    docs.append(names.filter(pa.array(outside)))
                pairs = pd.DataFrame({"t": np.concatenate(tops),
                                      "docno": pa.chunked_array(docs, pa.string()).to_numpy(zero_copy_only=False)})
                pairs = pairs.drop_duplicates().sort_values(["t", "docno"], kind="stable")
                extra_topic = pairs["t"].to_numpy(dtype=np.int64)
                extra_docno = pa.array(pairs["docno"].tolist(), pa.string())
            label = "all runs" if runs is None else f"{run_idx.size} runs"
            scope = f"unjudged documents at depth ≤ {depth} of {label}{' (qrels only)' if within_qrels else ''}"
        return cls(pool=mask, judged=judged_q, entries=target_q, extra_topic=extra_topic, extra_docno=extra_docno,
                   scope=scope)


def _predict(experiment: Experiment, documents, chosen: PredictionTargets, settings: ClassifierOptions,
             description: str) -> CompletedQrels:
    """One classifier per topic trained on ``chosen.judged``, predicting ``chosen``'s targets."""
    j = experiment.judgments
    judged_q, target_q = chosen.judged, chosen.entries
    extra_topic, extra_docno = chosen.extra_topic, chosen.extra_docno
    # documents to read: the training documents and the targets
    qrel_docno = j.qrel_docno
    train_q = np.flatnonzero(judged_q)
    train_docno = qrel_docno.take(pa.array(train_q))
    target_docno = pa.concat_arrays([qrel_docno.take(pa.array(target_q)), extra_docno])
    corpus = term_counts_covering(documents, pa.concat_arrays([train_docno, target_docno]))
    train_row = corpus.index(train_docno)
    target_row = corpus.index(target_docno)
    target_topic = np.concatenate([j.qrel_topic[target_q].astype(np.int64), extra_topic])
    target_entry = np.concatenate([target_q, np.full(extra_topic.size, -1)])
    train_topic = j.qrel_topic[train_q].astype(np.int64)
    train_label = j.qrel_grade[train_q] >= settings.relevance_level

    T = len(experiment.topics)
    rng = np.random.default_rng(settings.seed)
    score = np.full(target_row.size, np.nan)
    probability = np.zeros(target_row.size)
    relevant = np.zeros(target_row.size, dtype=bool)
    rows = []
    train_by_topic = np.split(np.argsort(train_topic, kind="stable"),
                              np.cumsum(np.bincount(train_topic, minlength=T))[:-1])
    target_by_topic = np.split(np.argsort(target_topic, kind="stable"),
                               np.cumsum(np.bincount(target_topic, minlength=T))[:-1])
    for t in range(T):  # one classifier per topic; scoring is vectorised over the documents
        tr, tg = train_by_topic[t], target_by_topic[t]
        result = classify_topic(settings, corpus, train_row[tr], train_label[tr], target_row[tg], rng)
        score[tg] = result.score
        probability[tg] = result.probability
        relevant[tg] = result.predicted_relevant
        rows.append((experiment.topics[t], result.threshold, result.judged, result.relevant, tg.size,
                     result.calibrated))
    threshold = np.array([r[1] for r in rows])
    topics = np.asarray(experiment.topics, dtype=object)
    predicted = pd.DataFrame({
        "topic": topics[target_topic],
        "docno": target_docno.to_numpy(zero_copy_only=False).astype(object),
        "entry": target_entry.astype(np.int64),
        "score": score,
        "relevant": relevant,
        "grade": np.where(relevant, settings.relevant_grade, 0).astype(np.int64),
        "probability": probability,
    })
    order = np.lexsort((predicted["docno"].to_numpy(), target_topic))
    predicted = predicted.iloc[order].reset_index(drop=True)
    per_topic_relevant = np.bincount(target_topic, weights=relevant, minlength=T).astype(np.int64)
    thresholds = pd.DataFrame({
        "topic": [r[0] for r in rows], "threshold": threshold, "judged": [r[2] for r in rows],
        "relevant": [r[3] for r in rows], "predicted": [r[4] for r in rows],
        "predicted_relevant": per_topic_relevant, "calibrated": [r[5] for r in rows],
    })
    extra_cells = extra_rows = None
    is_extra = predicted["entry"].to_numpy() < 0
    if is_extra.any():
        rows_extra = np.flatnonzero(is_extra)
        t_idx = target_topic[order][rows_extra]
        cells, items = cells_of_extras(experiment, t_idx, pa.array(predicted["docno"].to_numpy()[rows_extra],
                                                                    pa.string()))
        extra_cells, extra_rows = cells, rows_extra[items]
    return CompletedQrels(experiment=experiment, method=settings.method, description=description,
                          judged=chosen.pool.copy(), predicted=predicted, thresholds=thresholds,
                          relevance_level=settings.relevance_level,
                          settings=MappingProxyType(dict(settings.__dict__)), extra_cells=extra_cells,
                          extra_rows=extra_rows)


def check_completed_for(experiment: Experiment, completed: CompletedQrels, owner: str) -> None:
    if not isinstance(completed, CompletedQrels):
        raise TypeError(f"{owner}: expected CompletedQrels (from complete_qrels), got {type(completed).__name__}")
    if completed.experiment is not experiment:
        raise ValueError(f"{owner}: the completed qrels belong to another Experiment; complete the qrels of this one")
