"""Assessment measures: how much of a ranking is judged (Baillie et al.'s A in the decision
matrix, never a performance measure P): A_p@k and its readings, Average Assessment, recall
of assessment, and trec_eval's unj."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, cut_depth, not_judged, safe_divide, sum_per_topic
from .base import Family, register


def _unjudged(view: Judged, k: int) -> np.ndarray:
    d = cut_depth(view, k)
    return not_judged(view)[:, :, :d].sum(axis=2) / k


def _judged_at(view: Judged, k: int) -> np.ndarray:
    """A_p@k = Judged@k (Baillie et al.): judged documents in the top k / k; a run shorter
    than k has its missing ranks counted as unjudged (like P@k).

    Example: a run of 3 documents, 2 of them judged: Judged@10 = 2/10 = 0.2.
    """
    return view.at(view.cum_judged, k) / k


def _judged_retrieved_at(view: Judged, k: int) -> np.ndarray:
    """JudgedRet@k (ir_measures' Judged@k): judged documents in the top k / min(k, documents
    retrieved); 0 for an empty ranking.

    Example: a run of 3 documents, 2 of them judged: JudgedRet@10 = 2/3 = 0.6667.
    """
    return safe_divide(view.at(view.cum_judged, k), np.minimum(view.length, k))


def _not_unjudged_at(view: Judged, k: int) -> np.ndarray:
    """NotUnj@k = 1 − trec_eval's unj@k: missing ranks of a run shorter than k count as
    judged (trec_eval m_unjudged.c fills them with "irrelevant (not unjudged)" documents).

    Example: a run of 3 documents, 2 of them judged: unj@10 = 1/10, NotUnj@10 = 0.9.
    """
    return 1.0 - _unjudged(view, k)


def _assessment_sums(view: Judged, k: int | None) -> np.ndarray:
    """(S, T) Σ of A_p@r over the ranks r ≤ k of judged documents, computed at the judged
    positions only (MAA and MAAR share it and differ in what they divide by)."""
    d = cut_depth(view, k)
    s, t, r = np.nonzero(view.judged[:, :, :d])
    assessment_at = view.cum_judged[s, t, r] / (r + 1.0)
    return sum_per_topic(view, s, t, assessment_at)


def _average_assessment(view: Judged, k: int | None) -> np.ndarray:
    """Average Assessment (Baillie et al. 2007: "the average over all ranks where an
    assessed document occurred"): the mean of A_p@r over the ranks r ≤ k of judged
    documents; 0 when none is judged. One judged document at rank 1 gives 1.0 whatever
    follows (1/1 averaged over one rank).

    Example: judged at ranks 1 and 3 of 4: (1/1 + 2/3) / 2 = 0.8333.
    """
    return safe_divide(_assessment_sums(view, k), view.at(view.cum_judged, cut_depth(view, k)))


def _average_assessment_recall(view: Judged, k: int | None) -> np.ndarray:
    """MAAR, the AP-like Average Assessment: Σ of A_p@r over the ranks r ≤ k of judged
    documents divided by the judged documents in the qrels (as AP divides by R); 0 when the
    qrels judge nothing.

    Example: judged at ranks 1 and 3, 4 judged documents in the qrels:
    (1/1 + 2/3) / 4 = 0.4167 (MAA: 0.8333).
    """
    return safe_divide(_assessment_sums(view, k), view.num_judged[None, :])


def _recall_assessment(view: Judged, k: int | None) -> np.ndarray:
    return safe_divide(view.at(view.cum_judged, k), view.num_judged[None, :])


_COUNTED = "counted as unjudged"

register(Family("Judged", "Assessment Precision A_p@k: judged documents in the top k / k (missing ranks of a run "
                "shorter than k count as unjudged)", "Baillie et al. 2007 §2.1 (A_p@k, \"exactly the definition for "
                "standard Precision\")", cutoff="required", uses_rel=False, role="assessment", unjudged=_COUNTED,
                symbol="A_p", kernel=lambda v, m: _judged_at(v, m.cutoff)))
register(Family("JudgedRet", "judged documents in the top k / min(k, documents retrieved): a run shorter than k is "
                "judged over its own length", "ir_measures Judged@k; Baillie et al. 2007's |X ∩ A| / |X| with X the "
                "retrieved list", cutoff="required", uses_rel=False, role="assessment", unjudged=_COUNTED,
                kernel=lambda v, m: _judged_retrieved_at(v, m.cutoff)))
register(Family("NotUnj", "1 − trec_eval's unj@k: (judged documents in the top k + missing ranks) / k (missing "
                "ranks of a run shorter than k count as judged)", "trec_eval 10 unj (m_unjudged.c)", cutoff="required",
                uses_rel=False, role="assessment", unjudged=_COUNTED,
                kernel=lambda v, m: _not_unjudged_at(v, m.cutoff)))
register(Family("MAA", "Average Assessment: mean of A_p@r over the ranks r of judged documents (MAA over topics); "
                "one judged document at rank 1 gives 1.0 whatever follows",
                "Baillie et al. 2007 §2.1 (\"the average over all ranks where an assessed document occurred\")",
                cutoff="optional", uses_rel=False, role="assessment", unjudged=_COUNTED,
                kernel=lambda v, m: _average_assessment(v, m.cutoff)))
register(Family("MAAR", "AP-like Average Assessment: Σ A_p@r over the ranks r of judged documents / judged "
                "documents in the qrels (as AP divides by R)", "irnb variant of Baillie et al. 2007's MAA",
                cutoff="optional", uses_rel=False, role="assessment", unjudged=_COUNTED,
                kernel=lambda v, m: _average_assessment_recall(v, m.cutoff)))
register(Family("RecallAssessment", "judged documents retrieved / judged documents in the qrels",
                "Baillie et al. 2008 (recall of assessment)", cutoff="optional", uses_rel=False, role="assessment",
                unjudged=_COUNTED, kernel=lambda v, m: _recall_assessment(v, m.cutoff)))
register(Family("Unj", "fraction of the top k not judged (not in the qrels, or a negative grade), over k",
                "trec_eval unj", cutoff="required", trec_name="unj", uses_rel=False, higher_is_better=False,
                role="assessment", unjudged=_COUNTED, kernel=lambda v, m: _unjudged(v, m.cutoff)))
