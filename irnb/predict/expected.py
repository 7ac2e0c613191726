"""Expected measures from probabilities of relevance: judged documents count their
relevance, unjudged ones their probability (:func:`expected_precision`, :func:`expected_rbp`),
so the value stays inside the Ravana–Moffat interval [B, T]."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from ..experiment import Experiment
from ..judgments import qrels_row_of
from ..kernels import weighted_precision
from ..pooling import DEPTH
from .classifiers import EXPECTED_BACKGROUND, RBP_PERSISTENCE, RELEVANCE_LEVEL
from .completion import (CompletedQrels, cells_of_extras, check_completed_for, expected_gains, topic_positions,
                         training_mask)

# =============================================================================== expected measures
def _probability_cells(experiment: Experiment, probabilities, pool,
                       owner: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(judged mask, (Q,) probability per qrels entry, (S, T, D) probability per cell);
    NaN = no probability."""
    S, T, D = experiment.shape
    Q = experiment.judgments.num_judgments
    if isinstance(probabilities, CompletedQrels):
        check_completed_for(experiment, probabilities, owner)
        if pool is not None and not np.array_equal(training_mask(experiment, pool), probabilities.judged):
            raise ValueError(f"{owner}: pool differs from the pool the completed qrels were trained on; "
                             "leave pool=None")
        value, cells = probabilities._probabilities()
        return probabilities.judged, value, cells
    mask = training_mask(experiment, pool)
    value = np.full(Q, np.nan)
    if isinstance(probabilities, pd.DataFrame):
        missing = [c for c in ("topic", "docno", "probability") if c not in probabilities.columns]
        if missing:
            raise ValueError(f"{owner}: a probabilities DataFrame needs columns topic, docno, probability; "
                             f"missing {missing}")
        prob = probabilities["probability"].to_numpy(dtype=np.float64)
        t_idx = topic_positions(experiment, probabilities["topic"].astype(str).to_numpy())
        keep = t_idx >= 0
        docno = pa.array(probabilities["docno"].astype(str).tolist(), pa.string())
        j = experiment.judgments
        entry = np.full(t_idx.size, -1, dtype=np.int64)
        entry[keep] = qrels_row_of(j.qrel_topic, j.qrel_docno, t_idx[keep],
                                   pa.chunked_array([docno.filter(pa.array(keep))]))
        value[entry[entry >= 0]] = prob[entry >= 0]
        cells = np.full((S, T, D), np.nan)
        extra = keep & (entry < 0)
        if extra.any():
            rows = np.flatnonzero(extra)
            c, items = cells_of_extras(experiment, t_idx[rows], docno.take(pa.array(rows)))
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
    return expected_gains(experiment, mask, level, value, cells, rate)


def expected_relevance(experiment: Experiment, probabilities, *, pool=None,
                       relevance_level: int = RELEVANCE_LEVEL.default,
                       background_rate: float = 0.0, owner: str = "expected_relevance") -> np.ndarray:
    """(S, T, D) expected binary gain at every rank, the gains :func:`expected_precision` and
    :func:`expected_rbp` weigh: 1 or 0 for a judged document, its probability of relevance
    for an unjudged one with a prediction (``probabilities`` as there), ``background_rate``
    for another unjudged one, 0 where the run has no document. ``owner`` names the caller in
    errors."""
    return _expected(experiment, probabilities, pool, relevance_level, background_rate, owner)


def _cutoff(k, owner: str) -> int:
    return DEPTH.validate(k, owner)


def expected_precision(experiment: Experiment, probabilities, k: int, pool=None, *,
                       relevance_level: int = RELEVANCE_LEVEL.default,
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
    return weighted_precision(gains, "P", k=k)


def expected_rbp(experiment: Experiment, probabilities, p: float = RBP_PERSISTENCE.default, pool=None, *,
                 k: int | None = None, relevance_level: int = RELEVANCE_LEVEL.default,
                 background_rate: float = 0.0) -> np.ndarray:
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
    return weighted_precision(gains, "RBP", k=k, p=p)
