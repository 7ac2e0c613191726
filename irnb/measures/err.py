"""Expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, CIKM 2009): ERR@k.

A cascade user scans the ranking from the top and stops at rank i with probability R_i, the
satisfaction of the document there; ERR is the expected reciprocal of the rank where they
stop:

    ERR@k = Σ_{i ≤ k} (1/i) · R_i · Π_{j < i} (1 − R_j),   R_i = (2^{g_i} − 1) / 2^{g_max}

with g_i the document's grade (0 for a negative grade, an unjudged document or a missing
rank) and g_max the top grade of the scale: 4, as ir_measures' ERR@k (computed by gdeval,
the TREC Web track's script) has it, or the qrels' top grade when that is higher (gdeval
refuses such qrels), so that every R_i stays below 1. Gains are the grades: the relevance
level is not used (as for nDCG). trec_eval 10.0 has no ERR.

Example, grades 2, 0, 3 at ranks 1-3 (g_max = 4): R = 3/16, 0, 7/16, so
ERR@3 = 3/16 + (13/16)·(7/16)/3 = 0.3060, and ERR@2 = 3/16 = 0.1875.
"""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, cut_depth, sum_at_cells
from .base import Family, register

#: The top grade of ERR's scale unless the qrels hold a higher one (gdeval's MAX_JUDGMENT).
SCALE_TOP = 4


def expected_reciprocal_rank(view: Judged, k: int | None) -> np.ndarray:
    """(S, T) ERR@k (the whole ranking when k is None), computed at the documents with a
    positive grade only: the probability of reaching one is the product of (1 − R_j) over
    the positive-grade documents above it in the same ranking."""
    d = cut_depth(view, k)
    grade = view.grade[:, :, :d]
    flat = np.flatnonzero(grade > 0)  # C order: each (run, topic) cell's positions together, in rank order
    cell, rank = np.divmod(flat, max(d, 1))
    top = max(SCALE_TOP, view.level_counts.shape[1] - 1)
    satisfied = (2.0 ** grade.reshape(-1)[flat] - 1.0) / 2.0 ** top
    log_pass = np.log1p(-satisfied)  # finite: R < 1 as 2^g − 1 < 2^top
    before = np.cumsum(log_pass) - log_pass  # Σ log(1 − R_j) over every earlier position of the array …
    starts = np.ones(cell.size, dtype=bool)
    starts[1:] = cell[1:] != cell[:-1]
    first = np.flatnonzero(starts)[np.cumsum(starts) - 1]  # … minus those before the cell's first
    reach = np.exp(before - before[first])
    return sum_at_cells(view, cell, satisfied * reach / (rank + 1.0))


register(Family("ERR", "expected reciprocal rank: Σ_i (1/i) R_i Π_{j<i} (1 − R_j), R_i = (2^g_i − 1) / 2^g_max, "
                f"g_max = {SCALE_TOP} (or the qrels' top grade when higher); gains are the grades",
                "Chapelle et al. 2009 (CIKM); as ir_measures' ERR@k (gdeval, TREC Web track)", cutoff="optional",
                uses_rel=False, kernel=lambda v, m: expected_reciprocal_rank(v, m.cutoff)))
