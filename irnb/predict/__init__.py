"""Relevance prediction for unjudged documents (Büttcher, Clarke, Yeung & Soboroff, SIGIR 2007).

A classifier is trained, per topic, on the judged documents of a pool and predicts whether
the unjudged documents that the runs retrieve are relevant; the runs are then evaluated on
the *completed* qrels. Two classifiers, as in the paper (Section 3):

* ``method="kld"`` — the Kullback-Leibler divergence between a document's unigram model
  M_D and the model M_R of the topic's judged relevant documents (their concatenation),
  both smoothed with the background model M_C (the concatenation of every document of the
  collection when :class:`CollectionStatistics` give it, as the paper's; otherwise of every
  document the classifier has read) by interpolation:
  P(x|M) = (1 − λ)·tf(x, M)/|M| + λ·P(x|M_C), with λ = ``background_weight`` = 0.2 (the
  paper prints "simple interpolation smoothing with λ = 0.2"; reading λ as the background's
  weight is irnb's). A document is relevant when
  KLD(M_D ‖ M_R) = Σ_x P(x|M_D)·log(P(x|M_D)/P(x|M_R)) is below a threshold ϑ; the score
  reported is −KLD (higher = more likely relevant).
* ``method="svm"`` — a linear SVM (scikit-learn's ``LinearSVC`` with the hinge loss of
  SVMlight) on TF-IDF vectors: v_x = tf(x, D)·log(|𝒟| / df_x) over the ``max_features``
  most frequent terms, each vector L1-normalised; 𝒟, the document frequencies df_x and the
  most frequent terms are the whole collection's when :class:`CollectionStatistics` give
  them (the paper's), otherwise those of every document the classifier has read.
  ``C=None`` uses SVMlight's default C = 1 / mean(‖v‖²) over the training vectors (for w;
  LinearSVC also regularises the intercept b, SVMlight does not). The score is the decision
  value. scikit-learn is an optional extra
  (``python3 -m pip install -e ".[predict]"`` in the irnb checkout), imported only when an SVM is trained.

**Decision rules** (``decision_rule``; each classifier's default is the paper's).
``count`` (the KLD classifier, §3.1): with R judged relevant among the n judged training
documents of a topic, the threshold lies halfway between the R-th and the (R + 1)-th
highest training score, so exactly R training documents pass (precision = recall on the
training data: about as many documents are then predicted relevant as are relevant); ties
at the threshold all pass. ``sign`` (the SVM, §3.2: SVMlight with its default settings
classifies by sign(w·x + b)): a document is relevant when its decision value is positive,
however many that makes; the SVM can use ``count`` too, KLD cannot use ``sign`` (−KLD is
never positive). Either way: R = 0 → nothing is predicted relevant; R = n → everything is.
A predicted-relevant document gets the grade ``relevant_grade`` (default
``relevance_level``), a predicted non-relevant one grade 0. The classifiers are binary, as
the paper's judgments were: with graded qrels, gain-based measures (nDCG) of
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
  grades replaced, no rebuild); ``completed.qrels`` is a plain :class:`~irnb.Qrels` to
  build an :class:`~irnb.Experiment` from (the same values; a test checks it).

Layout: :mod:`~irnb.predict.features` (texts → term counts), :mod:`~irnb.predict.classifiers`
(the options, the threshold rule, KLD and SVM scores, Platt scaling),
:mod:`~irnb.predict.completion` (which documents are predicted; :class:`CompletedQrels`),
:mod:`~irnb.predict.completed_bias` (the bias experiments on completed qrels) and
:mod:`~irnb.predict.expected` (expected P@k and RBP).

Hand-checkable threshold example: training scores 0.9, 0.7, 0.4, 0.1 with R = 2 judged
relevant → ϑ = (0.7 + 0.4)/2 = 0.55; an unjudged document scoring 0.6 is predicted relevant,
one scoring 0.5 is not.

>>> classifiers.relevance_threshold(np.array([0.9, 0.7, 0.4, 0.1]), 2)
0.55
"""

from __future__ import annotations

import inspect

import numpy as np  # noqa: F401  (the examples below and the submodules' examples run here)
import pandas as pd  # noqa: F401

from . import classifiers, completed_bias, completion, expected, features
from .classifiers import (DECISION_RULES, DEFAULT_DECISION_RULE, INSTALL_HINT, METHODS, PREDICT_PARAMS,
                          ClassifierOptions)
from .completed_bias import (completed_leave_one_group_out_bias, completed_pool_bias, contributor_subset_completion,
                             leave_one_group_out_completions)
from .completion import CompletedQrels, complete_qrels
from .expected import expected_precision, expected_rbp, expected_relevance
from .features import CollectionStatistics, TermCounts, term_counts

__all__ = [
    "METHODS",
    "DECISION_RULES",
    "DEFAULT_DECISION_RULE",
    "PREDICT_PARAMS",
    "INSTALL_HINT",
    "ClassifierOptions",
    "CollectionStatistics",
    "TermCounts",
    "term_counts",
    "CompletedQrels",
    "complete_qrels",
    "leave_one_group_out_completions",
    "contributor_subset_completion",
    "completed_leave_one_group_out_bias",
    "completed_pool_bias",
    "expected_precision",
    "expected_relevance",
    "expected_rbp",
]


def _examples() -> dict:
    """The submodules' docstring examples (functions, classes and their methods), so that
    ``doctest.testmod(irnb.predict)`` runs them all from the package."""
    found = {}
    for module in (features, classifiers, completion, completed_bias, expected):
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            members = [(name, obj)]
            if inspect.isclass(obj):
                members += [(f"{name}.{k}", v) for k, v in vars(obj).items() if inspect.isfunction(v)]
            for label, member in members:
                if ">>>" in (member.__doc__ or ""):
                    found[f"{module.__name__.rpartition('.')[2]}.{label}"] = member
    return found


__test__ = _examples()
