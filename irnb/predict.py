"""Relevance prediction for unjudged documents (Büttcher, Clarke, Yeung & Soboroff, SIGIR 2007).

A classifier is trained, per topic, on the judged documents of a pool and predicts whether
the unjudged documents that the runs retrieve are relevant; the runs are then evaluated on
the *completed* qrels. Two classifiers, as in the paper (Section 3):

* ``method="kld"`` — the Kullback-Leibler divergence between a document's unigram model
  M_D and the model M_R of the topic's judged relevant documents (their concatenation),
  both smoothed with the background model M_C (the concatenation of every document the
  classifier has read) by interpolation: P(x|M) = (1 − λ)·tf(x, M)/|M| + λ·P(x|M_C), with
  λ = ``background_weight`` (the paper's 0.2). A document is relevant when
  KLD(M_D ‖ M_R) = Σ_x P(x|M_D)·log(P(x|M_D)/P(x|M_R)) is below a threshold ϑ; the score
  reported is −KLD (higher = more likely relevant).
* ``method="svm"`` — a linear SVM (scikit-learn's ``LinearSVC`` with the hinge loss of
  SVMlight) on TF-IDF vectors: v_x = tf(x, D)·log(|𝒟| / df_x) over the ``max_features``
  most frequent terms, each vector L1-normalised; 𝒟 is every document the classifier has
  read. ``C=None`` uses SVMlight's default C = 1 / mean(‖v‖²) over the training vectors.
  The score is the decision value. scikit-learn is an optional extra
  (``python3 -m pip install -e ".[predict]"`` in the irnb checkout), imported only when an SVM is trained.

**Threshold rule (both classifiers).** With R judged relevant among the n judged training
documents of a topic, the threshold lies halfway between the R-th and the (R + 1)-th
highest training score, so exactly R training documents pass (precision = recall on the
training data, the paper's choice: about as many documents are then predicted relevant as
are relevant); ties at the threshold all pass. R = 0 → nothing is predicted relevant;
R = n → everything is. A predicted-relevant document gets the grade ``relevant_grade``
(default ``relevance_level``), a predicted non-relevant one grade 0. The classifiers are
binary, as the paper's judgments were: with graded qrels, gain-based measures (nDCG) of
runs that retrieve many highly relevant predicted documents come out lower than with the
true grades — pass ``relevant_grade`` (e.g. the topic set's usual relevant grade) to
choose the grade given.

**Beyond the paper** (its stated future work): every prediction also carries a
*probability* of relevance, by Platt scaling — a logistic fit P = 1 / (1 + exp(A·s + B))
of the training labels on out-of-fold scores (``calibration_folds``-fold, stratified,
seeded), with Platt's smoothed targets (R + 1)/(R + 2) and 1/(n − R + 2). A topic with
fewer relevant or non-relevant training documents than folds gets the smoothed training
rate (R + 1)/(n + 2) for every prediction. :func:`expected_precision` and
:func:`expected_rbp` use the probabilities as expected gains: judged documents count their
relevance, unjudged ones their probability, so the expected score stays inside the
Ravana–Moffat interval [B, T] (:mod:`irnb.intervals`).

Written policy
--------------
* *Judged* = a qrels entry in the pool with a grade ≥ 0. Training data of a topic = its
  judged entries; labels = grade ≥ ``relevance_level``.
* *Which documents are predicted* (:func:`complete_qrels`): every document that one of
  ``runs`` ranks at depth ≤ ``depth`` for a topic and that is not judged — whether the
  qrels list it (left out of the pool, or a negative grade) or not; ``within_qrels=True``
  keeps only those the Experiment's qrels list (the paper's setting: the completed qrels
  reference the same documents as the original qrels). Or ``targets=``: exactly the given
  qrels entries (the paper's Table 6: train on a subset of the qrels, predict the rest).
  The paper warns against predicting beyond the pool depth.
* *Documents*: a mapping docno → text (e.g. ``Collection.documents``; a ``texts(docnos)``
  method is used when present), a DataFrame with columns ``docno`` and ``text``, a callable
  taking a list of docnos and returning their texts (``None`` = missing), or a prebuilt
  :class:`TermCounts` (to read and tokenise the texts once for many completions). A missing
  text is an error that names the docnos (the first few and how many).
* *Tokens*: lowercased runs of letters and digits (Unicode); anything else separates them.
* *Completed qrels* (:class:`CompletedQrels`): the pool's entries with their grades plus
  the predicted documents with the predicted grades. ``completed.evaluate(measures)``
  evaluates every run of the Experiment on them directly (the Experiment's arrays with the
  grades replaced, no rebuild); ``completed.qrels`` is a plain :class:`~irnb.io.Qrels` to
  build an :class:`~irnb.Experiment` from (the same values; a test checks it).

Hand-checkable threshold example: training scores 0.9, 0.7, 0.4, 0.1 with R = 2 judged
relevant → ϑ = (0.7 + 0.4)/2 = 0.55; an unjudged document scoring 0.6 is predicted relevant,
one scoring 0.5 is not.

>>> _threshold(np.array([0.9, 0.7, 0.4, 0.1]), 2)
0.55
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scipy import sparse, special

from .bias import BIAS_MEASURES, BiasResult, _names
from .experiment import NO_DOC, NOT_IN_QRELS, UNJUDGED, Experiment, _few, _lookup
from .io import Qrels, read_qrels
from .lab import install_hint
from . import params
from .measures import Measure, Param, parse_measures
from .metrics import Evaluation, Judged, _check_complete, _evaluate_view, level_counts_of
from .pooling import DEPTH, Pool, contributor_mask, leave_one_group_out, subset_pools

__all__ = [
    "METHODS",
    "PREDICT_PARAMS",
    "INSTALL_HINT",
    "TermCounts",
    "term_counts",
    "CompletedQrels",
    "complete_qrels",
    "leave_one_group_out_completions",
    "contributor_subset_completion",
    "completed_leave_one_group_out_bias",
    "completed_pool_bias",
    "expected_precision",
    "expected_rbp",
]

#: The classifiers of Büttcher et al. (Section 3).
METHODS = ("svm", "kld")
INSTALL_HINT = install_hint("predict")

METHOD = Param("method", str, "svm", choices=METHODS,
               doc="relevance classifier: linear SVM on TF-IDF vectors, or KL divergence to the relevant model")
BACKGROUND_WEIGHT = Param("background_weight", float, 0.2, low=0.0, high=1.0, low_open=True, high_open=True,
                          label="background_weight (λ)",
                          doc="λ: weight of the background (collection) model when the document and relevance "
                              "models are smoothed by interpolation (KLD; Büttcher et al.: 0.2)")
COST = Param("C", float, 1.0, low=0.0, low_open=True,
             doc="SVM cost of a margin violation; None = SVMlight's default 1 / mean(‖v‖²)")
MAX_FEATURES = Param("max_features", int, 1_000_000, low=1,
                     doc="SVM vocabulary: the most frequent terms of the documents read (Büttcher et al.: 10⁶)")
CALIBRATION_FOLDS = Param("calibration_folds", int, 3, low=2, high=20,
                          doc="folds of the out-of-fold scores that Platt scaling fits probabilities on")
RELEVANCE_LEVEL = replace(params.RELEVANCE_LEVEL, high=127)  # grades are int8
RBP_PERSISTENCE = params.PERSISTENCE
EXPECTED_BACKGROUND = replace(params.BACKGROUND_RATE, default=0.0,
                              doc="probability of relevance of an unjudged document without a prediction")

#: Declared bounds of the prediction parameters.
PREDICT_PARAMS: Mapping[str, Param] = MappingProxyType(
    {p.name: p for p in (METHOD, BACKGROUND_WEIGHT, COST, MAX_FEATURES, CALIBRATION_FOLDS, RELEVANCE_LEVEL)})

_TOKEN_SEPARATOR = r"[^\p{L}\p{N}]+"
_NOT_PLAIN = r"[^a-z0-9 \t\n\r]"


def _sklearn_svc():
    try:
        from sklearn.svm import LinearSVC
    except ImportError:  # pragma: no cover - exercised with sklearn hidden in a test
        raise ImportError("method='svm' needs scikit-learn, an optional extra of irnb; install it with "
                          f"{INSTALL_HINT} (or pip install 'scikit-learn>=1.3'), or use method='kld'") from None
    return LinearSVC


# =============================================================================== texts → term counts
@dataclass(frozen=True, eq=False)
class TermCounts:
    """Tokenised documents: ``counts[i, x]`` is how often term ``vocabulary[x]`` occurs in
    document ``docnos[i]`` (a scipy CSR matrix). The background model and the TF-IDF
    vectors are computed over all its documents. Build it with :func:`term_counts`.

    >>> tc = term_counts({"a": "Rain, rain!", "b": "sun and rain"}, ["a", "b"])
    >>> tc.vocabulary.to_pylist(), tc.counts.toarray().tolist()
    (['rain', 'sun', 'and'], [[2.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    >>> tc.background.round(3).tolist()            # 3/5, 1/5, 1/5
    [0.6, 0.2, 0.2]
    """

    docnos: pa.Array = field(repr=False)
    counts: sparse.csr_matrix = field(repr=False)
    vocabulary: pa.Array = field(repr=False)

    def __repr__(self) -> str:
        return f"TermCounts({self.counts.shape[0]} documents, {self.counts.shape[1]} terms, {self.counts.nnz} postings)"

    @property
    def num_documents(self) -> int:
        return int(self.counts.shape[0])

    def index(self, docnos) -> np.ndarray:
        """Row of every docno; a ValueError names the missing ones (first few and count)."""
        array = docnos if isinstance(docnos, (pa.Array, pa.ChunkedArray)) else pa.array(list(docnos), pa.string())
        found = pc.index_in(array, value_set=self.docnos)
        if isinstance(found, pa.ChunkedArray):
            found = found.combine_chunks()
        if found.null_count:
            missing = pc.unique(pc.filter(array, pc.is_null(found))).to_pylist()
            raise ValueError(f"documents: no text for {len(missing)} docnos: {_few(missing)} (the TermCounts "
                             f"was built from {self.num_documents} other documents)")
        return found.to_numpy(zero_copy_only=False).astype(np.int64)

    @cached_property
    def lengths(self) -> np.ndarray:
        """(n,) tokens per document."""
        return np.asarray(self.counts.sum(axis=1)).ravel()

    @cached_property
    def background(self) -> np.ndarray:
        """(V,) the background model M_C: term frequencies of all documents concatenated."""
        totals = np.asarray(self.counts.sum(axis=0)).ravel()
        return totals / max(totals.sum(), 1.0)

    @cached_property
    def document_frequency(self) -> np.ndarray:
        """(V,) documents containing each term."""
        return np.bincount(self.counts.indices, minlength=self.counts.shape[1])

    def tfidf(self, max_features: int = 1_000_000) -> sparse.csr_matrix:
        """L1-normalised TF-IDF vectors tf·log(n / df) over the ``max_features`` most frequent
        terms (ties: first seen first); a document with no weight keeps a zero row.

        >>> tc = term_counts({"a": "x x y", "b": "x z"}, ["a", "b"])
        >>> tc.tfidf().toarray().round(4).tolist()    # idf: x 0, y and z log 2; a = (0, 2·0, log 2)/log 2
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        """
        return self._tfidf(int(max_features))

    def _tfidf(self, max_features: int) -> sparse.csr_matrix:
        cache = self.__dict__.setdefault("_tfidf_cache", {})
        if max_features not in cache:
            counts = self.counts
            V = counts.shape[1]
            idf = np.log(self.num_documents / np.maximum(self.document_frequency, 1))
            if max_features < V:
                frequency = np.asarray(counts.sum(axis=0)).ravel()
                keep = np.zeros(V, dtype=bool)
                keep[np.argsort(-frequency, kind="stable")[:max_features]] = True
                idf = np.where(keep, idf, 0.0)
            weighted = counts @ sparse.diags(idf)
            weighted = sparse.csr_matrix(weighted)
            weighted.eliminate_zeros()
            norms = np.asarray(abs(weighted).sum(axis=1)).ravel()
            scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
            cache[max_features] = sparse.csr_matrix(sparse.diags(scale) @ weighted)
        return cache[max_features]


def _frame_texts(frame: pd.DataFrame, docnos: list[str]) -> list:
    columns = {c.lower(): c for c in frame.columns}
    docno_col = next((columns[c] for c in ("docno", "doc_id", "docid") if c in columns), None)
    text_col = next((columns[c] for c in ("text", "body", "contents") if c in columns), None)
    if docno_col is None or text_col is None:
        raise ValueError(f"documents DataFrame: expected columns 'docno' and 'text', got {list(frame.columns)}")
    keys = frame[docno_col].astype(str)
    duplicated = keys[keys.duplicated()].unique().tolist()
    if duplicated:
        raise ValueError(f"documents DataFrame: {len(duplicated)} docnos appear twice: {_few(duplicated)}")
    where = pd.Index(keys).get_indexer(docnos)
    values = frame[text_col].to_numpy(dtype=object)
    return [values[i] if i >= 0 else None for i in where]


def _texts(documents, docnos: list[str]) -> list[str]:
    """Texts of ``docnos`` from a mapping, a DataFrame or a callable (see the module
    docstring); any missing one is an error naming the docnos."""
    if isinstance(documents, pd.DataFrame):
        texts = _frame_texts(documents, docnos)
    elif isinstance(documents, Mapping):
        missing = [d for d in docnos if d not in documents]  # before reading anything
        if missing:
            raise ValueError(f"documents: no text for {len(missing)} docnos: {_few(missing)}")
        batch = getattr(documents, "texts", None)  # e.g. the simulator's vectorised generator
        texts = list(batch(docnos)) if callable(batch) else [documents[d] for d in docnos]
    elif callable(documents):
        texts = documents(list(docnos))
        if isinstance(texts, (str, bytes)) or not hasattr(texts, "__len__"):
            raise TypeError(f"documents: a callable must take a list of docnos and return a list of texts, got "
                            f"{type(texts).__name__}")
        texts = list(texts)
        if len(texts) != len(docnos):
            raise ValueError(f"documents: the callable returned {len(texts)} texts for {len(docnos)} docnos")
    else:
        raise TypeError(f"documents must be a mapping docno → text, a DataFrame (docno, text), a callable or a "
                        f"TermCounts, got {type(documents).__name__}")
    missing = [d for d, t in zip(docnos, texts, strict=True) if not isinstance(t, str)]
    if missing:
        raise ValueError(f"documents: no text for {len(missing)} docnos: {_few(missing)}")
    return texts


def term_counts(documents, docnos: Iterable[str]) -> TermCounts:
    """Read and tokenise the texts of ``docnos`` (each once) into a :class:`TermCounts`.

    ``documents``: a mapping docno → text, a DataFrame (``docno``, ``text``) or a callable
    (list of docnos → list of texts). Tokens are lowercased runs of letters and digits.
    Tokenising is vectorised with pyarrow (no Python loop over the documents).
    """
    order = pc.unique(pa.array([str(d) for d in docnos] if not isinstance(docnos, (pa.Array, pa.ChunkedArray))
                               else docnos, pa.string()))
    if isinstance(order, pa.ChunkedArray):
        order = order.combine_chunks()
    names = order.to_pylist()
    texts = pc.utf8_lower(pa.array(_texts(documents, names), pa.string()))
    if len(texts) and not pc.any(pc.match_substring_regex(texts, _NOT_PLAIN)).as_py():
        # plain lowercase words and whitespace only: a whitespace split gives the same tokens, 3× faster
        split = pc.ascii_split_whitespace(pc.utf8_trim_whitespace(texts))
    else:
        split = pc.split_pattern_regex(texts, _TOKEN_SEPARATOR)
    per_doc = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
    tokens = pc.list_flatten(split)
    row = np.repeat(np.arange(len(names), dtype=np.int64), per_doc)
    starts = np.r_[0, np.cumsum(per_doc)[:-1]]
    maybe_empty = np.zeros(row.size, dtype=bool)  # empty tokens come only first or last in a document
    if row.size:
        maybe_empty[starts[per_doc > 0]] = True
        maybe_empty[(starts + per_doc - 1)[per_doc > 0]] = True
    check = np.flatnonzero(maybe_empty)
    empty = check[pc.equal(pc.utf8_length(tokens.take(pa.array(check))), 0).to_numpy(zero_copy_only=False)]
    if empty.size:
        keep = np.ones(row.size, dtype=bool)
        keep[empty] = False
        tokens = tokens.filter(pa.array(keep))
        row = row[keep]
    encoded = pc.dictionary_encode(tokens)
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    col = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    vocabulary = encoded.dictionary
    counts = sparse.csr_matrix((np.ones(row.size), (row, col)), shape=(len(names), len(vocabulary)))
    counts.sum_duplicates()
    return TermCounts(docnos=order, counts=counts, vocabulary=vocabulary)


# =============================================================================== classifier kernels
def _threshold(scores: np.ndarray, num_relevant: int) -> float:
    """Halfway between the R-th and (R+1)-th highest training score (module docstring)."""
    n = scores.size
    if num_relevant <= 0:
        return math.inf
    if num_relevant >= n:
        return -math.inf
    ordered = np.sort(scores)[::-1]
    upper, lower = float(ordered[num_relevant - 1]), float(ordered[num_relevant])
    middle = (upper + lower) / 2.0
    if upper > lower and middle <= lower:  # adjacent floats: the halfway point rounds down onto `lower`
        middle = float(np.nextafter(lower, upper))
    return middle


@dataclass(frozen=True)
class _Settings:
    method: str
    relevance_level: int
    relevant_grade: int
    background_weight: float
    C: float | None
    max_features: int
    calibration_folds: int
    probabilities: bool
    seed: int


def _neg_kld(counts: sparse.csr_matrix, lengths: np.ndarray, background: np.ndarray, train: np.ndarray,
             labels: np.ndarray, rows: np.ndarray, lam: float) -> np.ndarray:
    """−KLD(M_D ‖ M_R) for the documents ``rows``; M_R from the relevant ``train`` rows.

    For terms x ∉ D, P(x|M_D) = λ·P_C(x), so Σ over them is a per-topic constant K minus
    the same expression summed over x ∈ D: vectorised over the non-zeros of ``rows``.
    """
    relevant = np.asarray(counts[train[labels]].sum(axis=0)).ravel()
    p_r = (1.0 - lam) * relevant / max(relevant.sum(), 1.0) + lam * background
    lam_c = lam * background
    with np.errstate(divide="ignore", invalid="ignore"):
        k_all = np.where(lam_c > 0, lam_c * np.log(lam_c / p_r), 0.0).sum()  # Σ_x λP_C log(λP_C / P_R)
        empty_kld = np.where(background > 0, background * np.log(background / p_r), 0.0).sum()
    sub = counts[rows]
    owner = np.repeat(np.arange(rows.size), np.diff(sub.indptr))
    x = sub.indices
    length = lengths[rows]
    p_d = (1.0 - lam) * sub.data / length[owner] + lam_c[x]
    terms = p_d * np.log(p_d / p_r[x]) - lam_c[x] * np.log(lam_c[x] / p_r[x])
    kld = np.bincount(owner, weights=terms, minlength=rows.size) + k_all
    return -np.where(length > 0, kld, empty_kld)


def _svm_scores(vectors: sparse.csr_matrix, train: np.ndarray, labels: np.ndarray, rows: np.ndarray,
                C: float | None, seed: int) -> np.ndarray:
    """Decision values of a linear SVM (hinge loss) trained on ``train`` for ``rows``.

    SVMlight's default C = 1/m with m = mean ‖v‖² over the training vectors is the same
    problem as C = 1 on the vectors scaled by 1/√m (w scales by √m): the scaled form is
    what liblinear is given (better conditioned); an explicit C becomes C·m.
    """
    LinearSVC = _sklearn_svc()
    X = vectors[train]
    mean_sq = float(X.multiply(X).sum()) / max(train.size, 1)
    scale = 1.0 / math.sqrt(mean_sq) if mean_sq > 0 else 1.0
    cost = 1.0 if C is None else C * mean_sq if mean_sq > 0 else C
    model = LinearSVC(C=cost, loss="hinge", dual=True, max_iter=20_000, random_state=seed, tol=1e-4)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*converge.*")
        model.fit(X * scale, labels.astype(np.int8))
    return model.decision_function(vectors[rows] * scale)


def _scores(settings: _Settings, corpus: TermCounts, train: np.ndarray, labels: np.ndarray,
            rows: np.ndarray) -> np.ndarray:
    if settings.method == "kld":
        return _neg_kld(corpus.counts, corpus.lengths, corpus.background, train, labels, rows,
                        settings.background_weight)
    return _svm_scores(corpus._tfidf(settings.max_features), train, labels, rows, settings.C, settings.seed)


def _platt(scores: np.ndarray, labels: np.ndarray, *, max_iter: int = 100) -> tuple[float, float]:
    """Platt scaling: (A, B) of P(relevant | s) = 1 / (1 + exp(A·s + B)), fitted by Newton's
    method with backtracking on Platt's smoothed targets (Lin, Lin & Weng 2007's algorithm)."""
    f = np.asarray(scores, dtype=np.float64)
    n_pos = float(labels.sum())
    n_neg = float(labels.size) - n_pos
    target = np.where(labels, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))

    def loss(a: float, b: float) -> float:
        z = a * f + b
        return float(np.sum(np.logaddexp(0.0, z) - (1.0 - target) * z))

    a, b = 0.0, math.log((n_neg + 1.0) / (n_pos + 1.0))
    current = loss(a, b)
    for _ in range(max_iter):
        p = special.expit(-(a * f + b))  # P(relevant)
        g = target - p  # d loss / dz
        grad = np.array([np.dot(g, f), g.sum()])
        if np.max(np.abs(grad)) < 1e-6:
            break
        w = p * (1.0 - p)
        hess = np.array([[np.dot(w, f * f) + 1e-12, np.dot(w, f)], [np.dot(w, f), w.sum() + 1e-12]])
        step = -np.linalg.solve(hess, grad)
        descent = float(grad @ step)
        t = 1.0
        while t >= 1e-10:
            new = loss(a + t * step[0], b + t * step[1])
            if new <= current + 1e-4 * t * descent:
                break
            t /= 2.0
        else:
            break
        a, b, current = a + t * step[0], b + t * step[1], new
    return a, b


def _folds(labels: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Stratified fold of every training document: each class dealt round-robin in a random order."""
    fold = np.empty(labels.size, dtype=np.int64)
    for cls in (False, True):
        idx = np.flatnonzero(labels == cls)
        fold[idx[rng.permutation(idx.size)]] = np.arange(idx.size) % k
    return fold


@dataclass
class _TopicResult:
    score: np.ndarray
    probability: np.ndarray
    threshold: float
    judged: int
    relevant: int
    calibrated: bool


def _classify_topic(settings: _Settings, corpus: TermCounts, train: np.ndarray, labels: np.ndarray,
                    targets: np.ndarray, rng: np.random.Generator) -> _TopicResult:
    n, R = train.size, int(labels.sum())
    prior = (R + 1.0) / (n + 2.0)
    if targets.size == 0:
        empty = np.zeros(0)
        return _TopicResult(empty, empty, math.nan, n, R, False)  # nothing to predict: no classifier trained
    if R == 0 or (R == n and settings.method == "svm"):
        score = np.full(targets.size, np.nan)
        return _TopicResult(score, np.full(targets.size, prior), math.inf if R == 0 else -math.inf, n, R, False)
    both = np.concatenate([train, targets])
    all_scores = _scores(settings, corpus, train, labels, both)
    train_scores, score = all_scores[:n], all_scores[n:]
    threshold = _threshold(train_scores, R)
    probability = np.full(targets.size, prior)
    k = settings.calibration_folds
    calibrated = False
    if settings.probabilities and min(R, n - R) >= k:
        fold = _folds(labels, k, rng)
        oof = np.empty(n)
        for j in range(k):  # a loop over folds; each fold is vectorised
            inside = fold == j
            oof[inside] = _scores(settings, corpus, train[~inside], labels[~inside], train[inside])
        a, b = _platt(oof, labels)
        if a < 0.0:  # probability rises with the score: a usable calibration
            probability = special.expit(-(a * score + b))
            calibrated = True
        # otherwise the out-of-fold scores run against the labels (a weak classifier on few
        # documents): keep the base rate (R + 1) / (n + 2) rather than invert the ranking
    return _TopicResult(score, probability, threshold, n, R, calibrated)


# =============================================================================== run lines → cells
def _run_lines(experiment: Experiment, s: int, depth: int) -> tuple[np.ndarray, np.ndarray, pa.Array]:
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


def _topic_positions(experiment: Experiment, topics: np.ndarray) -> np.ndarray:
    """Index of every topic id in ``experiment.topics`` (−1 for an unknown one)."""
    return pd.Index(experiment.topics).get_indexer(np.asarray(topics, dtype=object)).astype(np.int64)


def _pool_mask(experiment: Experiment, pool, name: str = "pool") -> np.ndarray:
    Q = experiment.judgments.num_judgments
    if pool is None:
        return np.ones(Q, dtype=bool)
    mask = pool.judged if isinstance(pool, Pool) else np.asarray(pool)
    if mask.dtype != bool or mask.shape != (Q,):
        raise ValueError(f"{name} must be an irnb.pooling.Pool or a boolean mask over the Experiment's {Q} qrels "
                         f"entries, got dtype {mask.dtype} and shape {mask.shape}")
    return mask


def _pool_label(pool) -> str:
    if pool is None:
        return "official qrels"
    return pool.description if isinstance(pool, Pool) else f"a pool of {int(np.sum(pool))} qrels entries"


def _cells_of_extras(experiment: Experiment, topic: np.ndarray, docno: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Every (run, topic, rank) cell, as a flat index into the (S, T, D) arrays, that holds one
    of the documents (topic[i], docno[i]) that the qrels do not list; and which i it holds."""
    S, T, D = experiment.shape
    doc = experiment.judgments.doc
    cells, items = [], []
    for s in range(S):  # a loop over runs; every run's lines are vectorised
        t, r, names = _run_lines(experiment, s, D)
        outside = doc[s, t, r] == NOT_IN_QRELS
        if not outside.any():
            continue
        t, r = t[outside], r[outside]
        item = _lookup(topic.astype(np.int32), docno, t, pa.chunked_array([names.filter(pa.array(outside))]))
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
    a single class), ``relevant`` (score ≥ the topic's threshold), ``grade`` (the grade
    given: ``relevant_grade`` or 0) and ``probability`` (Platt-calibrated, see the module
    docstring). ``thresholds`` has one row per topic: ``topic, threshold, judged, relevant``
    (training documents and relevant ones), ``predicted, predicted_relevant, calibrated``;
    the threshold is in score units, ±inf when the training data has a single class, NaN
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
        extra_topic = _topic_positions(self.experiment, self.predicted["topic"].to_numpy()[extra])
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
        table = np.concatenate([grade, np.array([NO_DOC, UNJUDGED], dtype=np.int8)])
        doc = exp.judgments.doc if runs is None else exp.judgments.doc[runs]
        out = table[doc]  # doc -1 → table[-1] = UNJUDGED, -2 → table[-2] = NO_DOC
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

    def evaluate(self, measures: "str | Measure | Iterable[str | Measure]", *, complete: bool = False) -> Evaluation:
        """Every run of the Experiment evaluated on the completed qrels (as
        :func:`irnb.evaluate` on an Experiment built from :attr:`qrels`, without the rebuild;
        a measure left at rel 1 is evaluated at :attr:`relevance_level`)."""
        parsed = parse_measures(measures)
        _check_complete(complete)  # before the view is built
        exp = self.experiment
        return _evaluate_view(self.view(), parsed, run_names=exp.run_names, topics=exp.topics,
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
        """The completed qrels as a :class:`~irnb.io.Qrels` (``Experiment(runs, completed.qrels)``
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
        exp = self.experiment
        p = self.predicted
        T = len(exp.topics)
        t_idx = _topic_positions(exp, p["topic"].to_numpy())
        if truth:
            if exp.truth is None:
                raise ValueError("accuracy(truth=True) needs an Experiment built with truth= qrels")
            j = exp.truth
            entry = _lookup(j.qrel_topic, j.qrel_docno, t_idx, pa.chunked_array([pa.array(p["docno"], pa.string())]))
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
        return _expected_gains(self.experiment, self.judged, self.relevance_level, value, cells, background_rate)


def _expected_gains(experiment: Experiment, judged_mask: np.ndarray, level: int, entry_prob: np.ndarray,
                    cell_prob: np.ndarray | None, background_rate: float) -> np.ndarray:
    """(S, T, D) expected binary gains: judged → relevance; unjudged → probability (entry or
    cell), else the background rate; no document → 0."""
    j = experiment.judgments
    doc = j.doc
    judged_q = judged_mask & (j.qrel_grade >= 0)
    rel_q = judged_q & (j.qrel_grade >= level)
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
def _settings(method, relevance_level, relevant_grade, background_weight, C, max_features, calibration_folds,
              probabilities, seed, owner) -> _Settings:
    method = METHOD.validate(method, owner)
    relevance_level = RELEVANCE_LEVEL.validate(relevance_level, owner)
    if relevant_grade is None:
        relevant_grade = relevance_level
    elif (isinstance(relevant_grade, bool) or not isinstance(relevant_grade, (int, np.integer))
          or not relevance_level <= relevant_grade <= 127):
        raise ValueError(f"{owner}: relevant_grade must be an integer with relevance_level ({relevance_level}) ≤ "
                         f"relevant_grade ≤ 127, or None, got {relevant_grade!r}")
    if C is not None:
        C = COST.validate(C, owner)
    if not isinstance(probabilities, bool):
        raise TypeError(f"{owner}: probabilities must be True or False, got {probabilities!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{owner}: seed must be an integer ≥ 0 (folds and the SVM solver are seeded), got {seed!r}")
    if method == "svm":
        _sklearn_svc()
    return _Settings(method=method, relevance_level=relevance_level, relevant_grade=int(relevant_grade),
                     background_weight=BACKGROUND_WEIGHT.validate(background_weight, owner), C=C,
                     max_features=MAX_FEATURES.validate(max_features, owner),
                     calibration_folds=CALIBRATION_FOLDS.validate(calibration_folds, owner),
                     probabilities=probabilities, seed=int(seed))


def _corpus(documents, docnos: pa.Array) -> TermCounts:
    if isinstance(documents, TermCounts):
        documents.index(docnos)  # every needed docno present, or a ValueError naming them
        return documents
    return term_counts(documents, docnos)


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
    relevance_level: int = 1,
    relevant_grade: int | None = None,
    background_weight: float = 0.2,
    C: float | None = None,
    max_features: int = 1_000_000,
    calibration_folds: int = 3,
    probabilities: bool = True,
    seed: int = 0,
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
    owner = "complete_qrels"
    settings = _settings(method, relevance_level, relevant_grade, background_weight, C, max_features,
                         calibration_folds, probabilities, seed, owner)
    if not isinstance(within_qrels, bool):
        raise TypeError(f"{owner}: within_qrels must be True or False, got {within_qrels!r}")
    j = experiment.judgments
    mask = _pool_mask(experiment, pool)
    judged_q = mask & (j.qrel_grade >= 0)
    extra_topic = np.zeros(0, np.int64)
    extra_docno = pa.array([], pa.string())
    if targets is not None:
        if depth is not None or runs is not None or within_qrels:
            raise ValueError(f"{owner}: pass either targets= (qrels entries to predict) or depth= (with runs= and "
                             "within_qrels=), not both")
        target_mask = _pool_mask(experiment, targets, "targets")
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
                t, r, names = _run_lines(experiment, int(s), depth)
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

    # documents to read: the training documents and the targets
    qrel_docno = j.qrel_docno
    train_q = np.flatnonzero(judged_q)
    train_docno = qrel_docno.take(pa.array(train_q))
    target_docno = pa.concat_arrays([qrel_docno.take(pa.array(target_q)), extra_docno])
    corpus = _corpus(documents, pa.concat_arrays([train_docno, target_docno]))
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
    rows = []
    train_by_topic = np.split(np.argsort(train_topic, kind="stable"),
                              np.cumsum(np.bincount(train_topic, minlength=T))[:-1])
    target_by_topic = np.split(np.argsort(target_topic, kind="stable"),
                               np.cumsum(np.bincount(target_topic, minlength=T))[:-1])
    for t in range(T):  # one classifier per topic; scoring is vectorised over the documents
        tr, tg = train_by_topic[t], target_by_topic[t]
        result = _classify_topic(settings, corpus, train_row[tr], train_label[tr], target_row[tg], rng)
        score[tg] = result.score
        probability[tg] = result.probability
        rows.append((experiment.topics[t], result.threshold, result.judged, result.relevant, tg.size,
                     result.calibrated))
    threshold = np.array([r[1] for r in rows])
    relevant = np.where(np.isnan(score), threshold[target_topic] == -math.inf, score >= threshold[target_topic])
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
        cells, items = _cells_of_extras(experiment, t_idx, pa.array(predicted["docno"].to_numpy()[rows_extra],
                                                                    pa.string()))
        extra_cells, extra_rows = cells, rows_extra[items]
    description = f"{scope}, trained on {_pool_label(pool)}"
    return CompletedQrels(experiment=experiment, method=settings.method, description=description,
                          judged=mask.copy(), predicted=predicted, thresholds=thresholds,
                          relevance_level=settings.relevance_level,
                          settings=MappingProxyType(dict(settings.__dict__)), extra_cells=extra_cells,
                          extra_rows=extra_rows)


def _options_corpus(experiment: Experiment, documents) -> TermCounts:
    """One TermCounts over every document of the Experiment's qrels (shared by the
    completions of a bias experiment, so that texts are read and tokenised once)."""
    return _corpus(documents, experiment.judgments.qrel_docno)


def leave_one_group_out_completions(experiment: Experiment, documents, *, depth: int, contributors=None,
                                    method: str = "svm", **options) -> dict[str, CompletedQrels]:
    """Büttcher et al.'s revised leave-one-out experiment (their Table 7), step 1: for every
    group G with a contributing run, the qrels without G's unique contributions to the
    depth-``depth`` pool (the reduced judgments of
    :func:`irnb.bias.leave_one_group_out_bias` with ``reference="qrels"``) train a
    classifier that predicts exactly the removed documents.

    ``documents`` is read and tokenised once for all groups; ``options`` are
    :func:`complete_qrels`'s classifier options. Returns ``{group: CompletedQrels}``; pass
    it to :func:`completed_leave_one_group_out_bias`.
    """
    owner = "leave_one_group_out_completions"
    depth = DEPTH.validate(depth, owner)
    contributing = contributor_mask(experiment, contributors, owner=owner)
    pools = leave_one_group_out(experiment, depth=depth, runs=_names(experiment, contributing), keep_unpooled=True)
    corpus = _options_corpus(experiment, documents)
    groups = np.asarray(experiment.groups, dtype=object)
    out: dict[str, CompletedQrels] = {}
    for g, group in enumerate(pools.groups):
        if not (contributing & (groups == group)).any():
            continue
        removed = ~pools.judged[g]  # G's unique contributions to the depth-d pool
        training = Pool(~removed, f"official qrels without group {group}'s unique depth-{depth} entries")
        out[group] = complete_qrels(experiment, corpus, pool=training, targets=removed, method=method, **options)
    return out


def contributor_subset_completion(experiment: Experiment, documents, pool_runs: Iterable[str], *, depth: int,
                                  contributors=None, method: str = "svm", **options) -> CompletedQrels:
    """Büttcher et al.'s Table 8, step 1: the qrels without the entries that only
    contributors outside ``pool_runs`` put in the depth-``depth`` pool (e.g. the
    automatic-only pool) train a classifier that predicts exactly those entries."""
    owner = "contributor_subset_completion"
    _, subset, full, kept = subset_pools(experiment, pool_runs, depth=depth, contributors=contributors, owner=owner)
    removed = full & ~kept
    training = Pool(~removed, f"official qrels without the entries only runs outside the {int(subset.sum())} "
                              f"pool runs contributed at depth {depth}")
    corpus = _options_corpus(experiment, documents)
    return complete_qrels(experiment, corpus, pool=training, targets=removed, method=method, **options)


def _check_owner(experiment: Experiment, completed: CompletedQrels, owner: str) -> None:
    if not isinstance(completed, CompletedQrels):
        raise TypeError(f"{owner}: expected CompletedQrels (from complete_qrels), got {type(completed).__name__}")
    if completed.experiment is not experiment:
        raise ValueError(f"{owner}: the completed qrels belong to another Experiment; complete the qrels of this one")


def completed_leave_one_group_out_bias(experiment: Experiment, completions: Mapping[str, CompletedQrels], *,
                                       measures: "str | Measure | Iterable[str | Measure]" = BIAS_MEASURES,
                                       ranked: Iterable[str] | None = None) -> BiasResult:
    """The leave-one-group-out table with completed qrels (Büttcher et al.'s Table 7): the
    runs of every group G in ``completions`` are evaluated on ``completions[G]`` and
    re-ranked among all ranked runs (the others keep their reference scores); the reference
    is the official qrels. Same statistics and rules as
    :func:`irnb.bias.leave_one_group_out_bias` (``.summary()``, ``.table()``)."""
    from .bias import _assemble, _per_topic, _ranked_index, _reference_values

    owner = "completed_leave_one_group_out_bias"
    parsed = tuple(parse_measures(measures))
    idx = _ranked_index(experiment, ranked, owner)
    ref_values = _reference_values(experiment, parsed, None, idx)
    red_values = ref_values.copy()
    run_group = np.asarray(experiment.groups, dtype=object)
    left_out = np.zeros(idx.size, dtype=bool)
    for group, completed in completions.items():
        _check_owner(experiment, completed, owner)
        if group not in set(experiment.groups):
            raise ValueError(f"{owner}: unknown group {group!r}; groups: {_few(sorted(set(experiment.groups)))}")
        members = np.flatnonzero(run_group[idx] == group)
        if members.size == 0:
            continue
        red_values[:, members] = _per_topic(completed.view(runs=idx[members]), parsed)
        left_out[members] = True
    ranked_groups = run_group[idx]
    config = (ranked_groups[:, None] == ranked_groups[None, :]) & left_out[None, :]
    methods = sorted({c.method for c in completions.values()})
    description = f"leave-one-group-out with qrels completed by {'/'.join(methods) or 'nothing'}"
    return _assemble("leave-one-group-out (completed)", description, experiment, parsed, idx, left_out, ref_values,
                     red_values, config)


def completed_pool_bias(experiment: Experiment, completed: CompletedQrels, *, left_out: Iterable[str] | None = None,
                        measures: "str | Measure | Iterable[str | Measure]" = BIAS_MEASURES,
                        ranked: Iterable[str] | None = None) -> BiasResult:
    """Every ranked run evaluated on the ``completed`` qrels against the official qrels
    (Büttcher et al.'s Table 8 with :func:`contributor_subset_completion`); statistics over
    the ``left_out`` runs (default: every ranked run), as :func:`irnb.bias.pool_bias`."""
    from .bias import _assemble, _per_topic, _ranked_index, _reference_values

    owner = "completed_pool_bias"
    _check_owner(experiment, completed, owner)
    parsed = tuple(parse_measures(measures))
    idx = _ranked_index(experiment, ranked, owner)
    ref_values = _reference_values(experiment, parsed, None, idx)
    red_values = _per_topic(completed.view(runs=idx), parsed)
    if left_out is None:
        lo = np.ones(idx.size, dtype=bool)
    else:
        lo = np.isin(idx, experiment.run_index([left_out] if isinstance(left_out, str) else list(left_out)))
    config = np.ones((idx.size, idx.size), dtype=bool)
    return _assemble("reduced pool (completed)", f"every run evaluated with {completed.description} "
                     f"completed by {completed.method}", experiment, parsed, idx, lo, ref_values, red_values, config)


# =============================================================================== expected measures
def _probability_cells(experiment: Experiment, probabilities, pool,
                       owner: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(judged mask, (Q,) probability per qrels entry, (S, T, D) probability per cell);
    NaN = no probability."""
    S, T, D = experiment.shape
    Q = experiment.judgments.num_judgments
    if isinstance(probabilities, CompletedQrels):
        _check_owner(experiment, probabilities, owner)
        if pool is not None and not np.array_equal(_pool_mask(experiment, pool), probabilities.judged):
            raise ValueError(f"{owner}: pool differs from the pool the completed qrels were trained on; "
                             "leave pool=None")
        value, cells = probabilities._probabilities()
        return probabilities.judged, value, cells
    mask = _pool_mask(experiment, pool)
    value = np.full(Q, np.nan)
    if isinstance(probabilities, pd.DataFrame):
        missing = [c for c in ("topic", "docno", "probability") if c not in probabilities.columns]
        if missing:
            raise ValueError(f"{owner}: a probabilities DataFrame needs columns topic, docno, probability; "
                             f"missing {missing}")
        prob = probabilities["probability"].to_numpy(dtype=np.float64)
        t_idx = _topic_positions(experiment, probabilities["topic"].astype(str).to_numpy())
        keep = t_idx >= 0
        docno = pa.array(probabilities["docno"].astype(str).tolist(), pa.string())
        j = experiment.judgments
        entry = np.full(t_idx.size, -1, dtype=np.int64)
        entry[keep] = _lookup(j.qrel_topic, j.qrel_docno, t_idx[keep],
                              pa.chunked_array([docno.filter(pa.array(keep))]))
        value[entry[entry >= 0]] = prob[entry >= 0]
        cells = np.full((S, T, D), np.nan)
        extra = keep & (entry < 0)
        if extra.any():
            rows = np.flatnonzero(extra)
            c, items = _cells_of_extras(experiment, t_idx[rows], docno.take(pa.array(rows)))
            cells.reshape(-1)[c] = prob[rows[items]]
        return mask, value, cells
    cells = np.array(probabilities, dtype=np.float64)  # a probability per rank, whatever document is there
    if cells.shape != (S, T, D):
        raise ValueError(f"{owner}: probabilities must be CompletedQrels, a DataFrame (topic, docno, probability) "
                         f"or an array of shape {(S, T, D)} (run, topic, rank), got shape {cells.shape}")
    return mask, value, cells


def _check_probabilities(value: np.ndarray, cells: np.ndarray, owner: str) -> None:
    for array in (value, cells):
        finite = array[~np.isnan(array)]
        if finite.size and (finite.min() < 0.0 or finite.max() > 1.0):
            bad = finite[(finite < 0) | (finite > 1)][0]
            raise ValueError(f"{owner}: probabilities must lie in [0, 1] (NaN = no prediction), got {bad!r}")


def _expected(experiment, probabilities, pool, relevance_level, background_rate, owner) -> np.ndarray:
    level = RELEVANCE_LEVEL.validate(relevance_level, owner)
    rate = EXPECTED_BACKGROUND.validate(background_rate, owner)
    mask, value, cells = _probability_cells(experiment, probabilities, pool, owner)
    _check_probabilities(value, cells, owner)
    return _expected_gains(experiment, mask, level, value, cells, rate)


def _cutoff(k, owner: str) -> int:
    return DEPTH.validate(k, owner)


def expected_precision(experiment: Experiment, probabilities, k: int, pool=None, *, relevance_level: int = 1,
                       background_rate: float = 0.0) -> np.ndarray:
    """(S, T) expected P@k: judged documents count 1 if relevant and 0 if not, unjudged
    documents their probability of relevance (``probabilities``: a :class:`CompletedQrels`,
    a DataFrame ``topic, docno, probability``, or an (S, T, D) array per rank with NaN =
    none), other unjudged documents ``background_rate`` (E, default 0); divided by k.
    ``pool`` = the judgments (default: the completed qrels' training pool, else the
    official qrels). Always inside [B, T] of :func:`irnb.intervals.score_intervals`.

    Example: ranking a (relevant), u (unjudged, p = 0.25), c (non-relevant), k = 2:
    (1 + 0.25) / 2 = 0.625, inside [B, T] = [0.5, 1].

    >>> from irnb import Experiment
    >>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "u", "c"], "score": [3, 2, 1]}),
    ...                  pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]}))
    >>> probs = pd.DataFrame({"topic": ["1"], "docno": ["u"], "probability": [0.25]})
    >>> expected_precision(exp, probs, 2).tolist()
    [[0.625]]
    """
    owner = "expected_precision"
    k = _cutoff(k, owner)
    gains = _expected(experiment, probabilities, pool, relevance_level, background_rate, owner)
    return gains[:, :, :k].sum(axis=2) / k


def expected_rbp(experiment: Experiment, probabilities, p: float = 0.8, pool=None, *, k: int | None = None,
                 relevance_level: int = 1, background_rate: float = 0.0) -> np.ndarray:
    """(S, T) expected RBP(p) = (1 − p) Σ_i p^(i−1) E[g_i] over the top min(k, run length)
    documents, with the expected gains of :func:`expected_precision` (binary relevance).
    Documents beyond the run add nothing, as in RBP itself, so the value lies in [B, T]
    of the RBP interval (whose residual also holds the tail p^n).

    Example, p = 0.5: a (relevant), u (p = 0.25), c (non-relevant):
    0.5 · (1 + 0.5 · 0.25) = 0.5625.

    >>> from irnb import Experiment
    >>> exp = Experiment(pd.DataFrame({"qid": "1", "docno": ["a", "u", "c"], "score": [3, 2, 1]}),
    ...                  pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]}))
    >>> probs = pd.DataFrame({"topic": ["1"], "docno": ["u"], "probability": [0.25]})
    >>> expected_rbp(exp, probs, 0.5).tolist()
    [[0.5625]]
    """
    owner = "expected_rbp"
    p = RBP_PERSISTENCE.validate(p, owner)
    k = None if k is None else _cutoff(k, owner)
    gains = _expected(experiment, probabilities, pool, relevance_level, background_rate, owner)
    d = gains.shape[2] if k is None else min(k, gains.shape[2])
    weights = (1.0 - p) * p ** np.arange(d, dtype=np.float64)
    return gains[:, :, :d] @ weights
