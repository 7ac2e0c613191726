"""Optimistic and pessimistic scenarios of AP, nDCG and bpref (Ravana & Moffat's remark).

AP, nDCG and bpref have no monotone bounds (a newly found relevant document can lower
them), so unlike P@k, RBP and SDCG (:mod:`irnb.intervals`) they get two named *scenarios*,
not an interval: ``optimistic`` (every unjudged retrieved document relevant, R grows by
their number) and ``pessimistic`` (every unjudged retrieved document non-relevant; for bpref
they count as judged non-relevant, N grows). Each family declares its scenarios
(``Family.scenario`` in :mod:`irnb.measures`), computed by the kernels
(:func:`irnb.kernels.average_precision_dense`, :func:`irnb.kernels.ndcg_dense`,
:func:`irnb.kernels.bpref_dense`) fed with each run's own counts; this module runs them on
the Experiment's view and holds the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .experiment import Experiment
from .kernels import compute
from .measures import SCENARIO_FAMILIES, Measure, parse_measure
from .metrics import aggregate_over_topics, judged_view
from .pooling import judged_mask_of
from .results import Result
from .params import COMPLETE

__all__ = ["SCENARIO_FAMILIES", "Scenarios", "scenarios"]


@dataclass(frozen=True, eq=False)
class Scenarios(Result):
    """Optimistic and pessimistic *scenario* values of AP, nDCG or bpref (not bounds: the
    true value may lie outside them), with the official value (trec_eval's rules)."""

    measure: Measure
    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    pessimistic: np.ndarray = field(repr=False)
    official: np.ndarray = field(repr=False)
    optimistic: np.ndarray = field(repr=False)
    evaluated: np.ndarray = field(repr=False)

    def means(self) -> pd.DataFrame:
        return pd.DataFrame({name: aggregate_over_topics(getattr(self, name), self.evaluated, "mean")
                             for name in ("pessimistic", "official", "optimistic")},
                            index=pd.Index(self.run_names, name="run"))

    def frame_columns(self, *, include_all: bool = True) -> list[dict]:
        """Tidy rows ``run, topic, measure, scenario, value``."""
        means = self.means()
        return [part for name in ("pessimistic", "official", "optimistic")
                for part in self.topic_rows(self.measure.name, include_all=include_all, scenario=name,
                                            value=(getattr(self, name), means[name].to_numpy()))]


def scenarios(experiment: Experiment, measure: str | Measure, *, pool=None, complete: bool = False) -> Scenarios:
    """Optimistic / pessimistic scenario values of AP (@k), nDCG (@k) or bpref.

    * optimistic: every unjudged document the run retrieved (anywhere in its ranking) is
      relevant with the top grade of the official qrels; R (and nDCG's ideal list) grows by
      their number;
    * pessimistic: they are non-relevant; R is unchanged; for bpref they also count as
      judged non-relevant (n_r and N grow). Pessimistic bpref can still exceed the
      official value, because a larger N raises min(N, R) in bpref's denominator.

    For AP and nDCG the pessimistic scenario equals the official (trec_eval) value. Neither
    scenario bounds the truth: finding a relevant document can lower AP, nDCG or bpref.

    Example: ranking a (relevant), b (unjudged), R = 1. AP: official = 1/1 = 1;
    optimistic R = 2, AP = (1/1 + 2/2)/2 = 1; pessimistic = 1.
    Ranking b (unjudged), a (relevant): optimistic AP = (1 + 1)/2 = 1, official = 1/2.

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> run = pd.DataFrame({"qid": "1", "docno": ["b", "a"], "score": [2.0, 1.0]})
    >>> qrels = pd.DataFrame({"qid": "1", "docno": ["a", "z"], "grade": [1, 0]})
    >>> sc = scenarios(Experiment(run, qrels), "AP")
    >>> float(sc.pessimistic[0, 0]), float(sc.official[0, 0]), float(sc.optimistic[0, 0])
    (0.5, 0.5, 1.0)
    """
    complete = COMPLETE.validate(complete, "scenarios")
    m = parse_measure(measure)
    if not m.spec.scenarios:
        hint = "; P@k, RBP and SDCG@k have intervals: use score_intervals()" if m.spec.interval else ""
        raise ValueError(f"scenarios exist for AP, nDCG and Bpref, got {m.name}{hint}")
    mask = judged_mask_of(experiment, pool)
    view = judged_view(experiment, judged=mask, relevance_level=m.rel)
    official = compute(view, m)
    pess, opt = m.spec.scenario(view, m, official, int(experiment.judgments.qrel_grade.max(initial=0)))
    evaluated = np.ones(official.shape, dtype=bool) if complete else experiment.length > 0
    for arr in (pess, official, opt, evaluated):
        arr.flags.writeable = False
    return Scenarios(measure=m, run_names=experiment.run_names, topics=experiment.topics, pessimistic=pess,
                     official=official, optimistic=opt, evaluated=evaluated.copy())


