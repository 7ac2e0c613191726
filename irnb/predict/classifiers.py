"""The per-topic relevance classifiers of Büttcher et al. (SIGIR 2007): their declared
options (:class:`ClassifierOptions`), the threshold rule, −KLD and linear-SVM scores, and
Platt scaling of the scores into probabilities (see :mod:`irnb.predict` for the rules)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from types import MappingProxyType
from collections.abc import Mapping

import numpy as np
from scipy import sparse, special

from .. import params
from ..lab import install_hint
from ..params import Param
from .features import TermCounts

#: The classifiers of Büttcher et al. (Section 3).
METHODS = ("svm", "kld")
#: How a classifier's scores become relevant / non-relevant: ``sign`` marks a document
#: relevant when its decision value is positive (SVMlight's default classification, the
#: paper's SVM); ``count`` puts the threshold where exactly as many training documents pass
#: as the training data has relevant ones (the paper's KLD classifier, §3.1).
DECISION_RULES = ("sign", "count")
#: Each classifier's decision rule when none is given, as the paper's.
DEFAULT_DECISION_RULE = {"svm": "sign", "kld": "count"}
INSTALL_HINT = install_hint("predict")

METHOD = Param("method", str, "svm", choices=METHODS,
               doc="relevance classifier: linear SVM on TF-IDF vectors, or KL divergence to the relevant model")
BACKGROUND_WEIGHT = Param("background_weight", float, 0.2, low=0.0, high=1.0, low_open=True, high_open=True,
                          label="background_weight (λ)",
                          doc="λ: weight of the background (collection) model when the document and relevance "
                              "models are smoothed by interpolation (KLD; Büttcher et al. print λ = 0.2; reading "
                              "λ as the background's weight is irnb's)")
COST = Param("C", float, 1.0, low=0.0, low_open=True,
             doc="SVM cost of a margin violation; None = SVMlight's default 1 / mean(‖v‖²)")
MAX_FEATURES = Param("max_features", int, 1_000_000, low=1,
                     doc="SVM vocabulary: the most frequent terms of the documents read (Büttcher et al.: 10⁶)")
CALIBRATION_FOLDS = Param("calibration_folds", int, 3, low=2, high=20,
                          doc="folds of the out-of-fold scores that Platt scaling fits probabilities on")
DECISION_RULE = Param("decision_rule", str, None, choices=DECISION_RULES, note="or None: the method's own",
                      doc="sign: relevant when the decision value is positive (the SVM's default, SVMlight's); "
                          "count: as many training documents pass as training had relevant (the KLD classifier's)")
RELEVANCE_LEVEL = replace(params.RELEVANCE_LEVEL, high=127)  # grades are int8
RELEVANT_GRADE = Param("relevant_grade", int, None, low="relevance_level", high=127,
                       note="or None: the relevance level",
                       doc="grade written for a document predicted relevant (None: the relevance level)")
#: Seeds of the calibration folds and the SVM solver (scikit-learn takes seeds < 2**32).
SEED = params.SEED.within(high=2 ** 32, note="folds and the SVM solver are seeded")
RBP_PERSISTENCE = params.PERSISTENCE
EXPECTED_BACKGROUND = replace(params.BACKGROUND_RATE, default=0.0,
                              doc="probability of relevance of an unjudged document without a prediction")

#: Declared bounds of the prediction parameters.
PREDICT_PARAMS: Mapping[str, Param] = MappingProxyType(
    {p.name: p for p in (METHOD, DECISION_RULE, BACKGROUND_WEIGHT, COST, MAX_FEATURES, CALIBRATION_FOLDS,
                         RELEVANCE_LEVEL, RELEVANT_GRADE)})


def sklearn_svc():
    try:
        from sklearn.svm import LinearSVC
    except ImportError:  # pragma: no cover - exercised with sklearn hidden in a test
        raise ImportError("method='svm' needs scikit-learn, an optional extra of irnb; install it with "
                          f"{INSTALL_HINT} (or pip install 'scikit-learn>=1.3'), or use method='kld'",
                          name="sklearn") from None
    return LinearSVC

# =============================================================================== classifier kernels
def relevance_threshold(scores: np.ndarray, num_relevant: int) -> float:
    """The ``count`` rule: halfway between the R-th and (R+1)-th highest training score
    (module docstring of :mod:`irnb.predict`); a score ≥ the threshold is relevant."""
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
class ClassifierOptions:
    """The classifier options of :func:`~irnb.predict.complete_qrels` (Büttcher et al.'s KLD or
    linear SVM, the relevance level and grade, and Platt scaling), validated once by
    :meth:`validated` and passed as one object to every classifier kernel."""

    method: str
    decision_rule: str
    relevance_level: int
    relevant_grade: int
    background_weight: float
    C: float | None
    max_features: int
    calibration_folds: int
    probabilities: bool
    seed: int

    @classmethod
    def validated(cls, owner: str, *, method="svm", decision_rule=None, relevance_level=RELEVANCE_LEVEL.default,
                  relevant_grade=None,
                  background_weight=0.2, C=None, max_features=1_000_000, calibration_folds=3, probabilities=True,
                  seed=SEED.default) -> ClassifierOptions:
        """The options checked against their declared bounds (errors name ``owner``)."""
        method = METHOD.validate(method, owner)
        if decision_rule is None:
            decision_rule = DEFAULT_DECISION_RULE[method]
        decision_rule = DECISION_RULE.validate(decision_rule, owner)
        if decision_rule == "sign" and method == "kld":
            raise ValueError(f"{owner}: decision_rule='sign' needs decision values that change sign (the SVM's); "
                             "the KLD classifier's scores −KLD are never positive: use decision_rule='count' "
                             "(its default)")
        relevance_level = RELEVANCE_LEVEL.validate(relevance_level, owner)
        if relevant_grade is None:
            relevant_grade = relevance_level
        else:
            relevant_grade = RELEVANT_GRADE.validate(relevant_grade, owner, given={"relevance_level": relevance_level})
        if C is not None:
            C = COST.validate(C, owner)
        probabilities = params.PROBABILITIES.validate(probabilities, owner)
        seed = SEED.validate(seed, owner)
        if method == "svm":
            sklearn_svc()
        return cls(method=method, decision_rule=decision_rule, relevance_level=relevance_level,
                   relevant_grade=int(relevant_grade),
                   background_weight=BACKGROUND_WEIGHT.validate(background_weight, owner), C=C,
                   max_features=MAX_FEATURES.validate(max_features, owner),
                   calibration_folds=CALIBRATION_FOLDS.validate(calibration_folds, owner),
                   probabilities=probabilities, seed=int(seed))


def neg_kld(counts: sparse.csr_matrix, lengths: np.ndarray, background: np.ndarray, train: np.ndarray,
            labels: np.ndarray, rows: np.ndarray, lam: float) -> np.ndarray:
    """−KLD(M_D ‖ M_R) for the documents ``rows``; M_R from the relevant ``train`` rows.

    For terms x ∉ D, P(x|M_D) = λ·P_C(x), so Σ over them is a per-topic constant K minus
    the same expression summed over x ∈ D: vectorised over the non-zeros of ``rows``. A term
    in none of the documents read (a background that sums to less than 1: the collection's)
    has P(x|M_D) = P(x|M_R) = λ·P_C(x) and adds nothing, except to an empty document, whose
    model is P_C itself: P_C(x)·log(1/λ) each.
    """
    relevant = np.asarray(counts[train[labels]].sum(axis=0)).ravel()
    p_r = (1.0 - lam) * relevant / max(relevant.sum(), 1.0) + lam * background
    lam_c = lam * background
    with np.errstate(divide="ignore", invalid="ignore"):
        k_all = np.where(lam_c > 0, lam_c * np.log(lam_c / p_r), 0.0).sum()  # Σ_x λP_C log(λP_C / P_R)
        empty_kld = np.where(background > 0, background * np.log(background / p_r), 0.0).sum()
    empty_kld += max(1.0 - float(background.sum()), 0.0) * math.log(1.0 / lam)  # the terms no document read has
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

    SVMlight's default C = 1/m with m = mean ‖v‖² over the training vectors gives, for w, the
    same problem as C = 1 on the vectors scaled by 1/√m (w scales by √m): the scaled form is
    what liblinear is given (better conditioned); an explicit C becomes C·m. It is not the same
    problem for the intercept b: liblinear (LinearSVC) regularises b with w, as a weight on a
    constant feature, so its objective has an extra b²/(2m) that SVMlight's lacks.
    """
    LinearSVC = sklearn_svc()
    X = vectors[train]
    mean_sq = float(X.multiply(X).sum()) / max(train.size, 1)
    scale = 1.0 / math.sqrt(mean_sq) if mean_sq > 0 else 1.0
    cost = 1.0 if C is None else C * mean_sq if mean_sq > 0 else C
    model = LinearSVC(C=cost, loss="hinge", dual=True, max_iter=20_000, random_state=seed, tol=1e-4)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*converge.*")
        model.fit(X * scale, labels.astype(np.int8))
    return model.decision_function(vectors[rows] * scale)


def _scores(settings: ClassifierOptions, corpus: TermCounts, train: np.ndarray, labels: np.ndarray,
            rows: np.ndarray) -> np.ndarray:
    if settings.method == "kld":
        return neg_kld(corpus.counts, corpus.lengths, corpus.background, train, labels, rows,
                       settings.background_weight)
    return _svm_scores(corpus._tfidf(settings.max_features), train, labels, rows, settings.C, settings.seed)


def platt_fit(scores: np.ndarray, labels: np.ndarray, *, max_iter: int = 100) -> tuple[float, float]:
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


def decide(scores: np.ndarray, threshold: float, rule: str) -> np.ndarray:
    """Which ``scores`` are predicted relevant: ``count`` — score ≥ ``threshold`` (ties at the
    threshold pass); ``sign`` — score > 0 (SVMlight's classification: the sign of the decision
    value w·x + b; a value of exactly 0 is not relevant). The threshold of ``sign`` is 0.

    >>> from irnb.predict.classifiers import decide
    >>> decide(np.array([0.6, 0.55, 0.5]), 0.55, "count").tolist()
    [True, True, False]
    >>> decide(np.array([0.2, 0.0, -0.1]), 0.0, "sign").tolist()
    [True, False, False]
    """
    if rule == "sign":
        return scores > 0.0
    return scores >= threshold


@dataclass
class TopicResult:
    score: np.ndarray
    probability: np.ndarray
    threshold: float
    judged: int
    relevant: int
    calibrated: bool
    predicted_relevant: np.ndarray  # (targets,) bool: the decision for each target


def classify_topic(settings: ClassifierOptions, corpus: TermCounts, train: np.ndarray, labels: np.ndarray,
                   targets: np.ndarray, rng: np.random.Generator) -> TopicResult:
    n, R = train.size, int(labels.sum())
    prior = (R + 1.0) / (n + 2.0)
    if targets.size == 0:
        empty = np.zeros(0)
        return TopicResult(empty, empty, math.nan, n, R, False, np.zeros(0, dtype=bool))  # no classifier trained
    if R == 0 or (R == n and settings.method == "svm"):
        # one class in training: that class for every target (no classifier is trained)
        score = np.full(targets.size, np.nan)
        return TopicResult(score, np.full(targets.size, prior), math.inf if R == 0 else -math.inf, n, R, False,
                           np.full(targets.size, R > 0))
    both = np.concatenate([train, targets])
    all_scores = _scores(settings, corpus, train, labels, both)
    train_scores, score = all_scores[:n], all_scores[n:]
    threshold = 0.0 if settings.decision_rule == "sign" else relevance_threshold(train_scores, R)
    probability = np.full(targets.size, prior)
    k = settings.calibration_folds
    calibrated = False
    if settings.probabilities and min(R, n - R) >= k:
        fold = _folds(labels, k, rng)
        oof = np.empty(n)
        for j in range(k):  # a loop over folds; each fold is vectorised
            inside = fold == j
            oof[inside] = _scores(settings, corpus, train[~inside], labels[~inside], train[inside])
        a, b = platt_fit(oof, labels)
        if a < 0.0:  # probability rises with the score: a usable calibration
            probability = special.expit(-(a * score + b))
            calibrated = True
        # otherwise the out-of-fold scores run against the labels (a weak classifier on few
        # documents): keep the base rate (R + 1) / (n + 2) rather than invert the ranking
    return TopicResult(score, probability, threshold, n, R, calibrated, decide(score, threshold,
                                                                                settings.decision_rule))
