"""Judgment budgets: separability and recanting (Ravana & Moffat, AIRS 2010).

How many judgments does an experiment need before its significance tests can be trusted?
The qrels entries are judged in pooling order (:func:`irnb.pooling.judgment_order`: by the
best rank at which a contributing run retrieved them, ties in a seeded random order), and
an experiment with a budget of N judgments sees only the first N. For each budget, measure
(P@10, SDCG@100, RBP(p=0.95) by default — weighted precision, which has [B, T] intervals)
and point estimator (X_S, X_B, X_I, X_M from :mod:`irnb.intervals`), every pair of runs is
compared with a paired two-sided t-test over topics (:func:`irnb.stats.t_test`), within
each run set separately (the paper does not say which sides its tests used; two-sided is
irnb's choice; one-sided p < α is two-sided p < 2α, so ``alpha=0.02`` gives the one-sided
reading at 0.01). Estimator ``"P"`` (named ``interval`` in tables) is irnb's reading of the
paper's pessimistic comparison, which it describes per topic, as a test over topics:
:func:`irnb.intervals.pessimistic_t_test`, B of one run against T of the other.

* ``"contributing"``: the runs that built the pool (the paper's "59-con");
* ``"non-contributing"``: the others (the paper's "46-non", the judgment-reuse case).
  A run set with fewer than two runs is left out.

:func:`budget_tests` computes every p-value once; its result gives

* :meth:`BudgetTests.separability` — the paper's Figure 2 (and Table 2): the fraction of
  the pairs of a run set with p < ``alpha`` (default 0.01, as in the paper), per budget;
* :meth:`BudgetTests.recanting` — the paper's Table 3: of the pairs significant at budget
  a, the share that *recant* at budget b ≥ a, i.e. are no longer significant (the paper's
  count) or are significant in the opposite direction (irnb's addition: a two-sided test can
  turn significant the other way); both counts are reported. Same measure, same estimator,
  same run set. The share is NaN when no pair was significant at a.

Rules (those of :func:`irnb.stats.t_test`): a pair's p-value is NaN only when it cannot be
tested (no common topic); a pair whose scores are identical on every topic gets p = 1 (never
significant, but counted in the separability denominator); NaN is never significant, and
pairs with a NaN p-value do not count in the denominator (``pairs`` = testable pairs).
Direction is the sign of the mean difference (+1: the first run of the pair scores
higher). Budgets from the same ``seed`` are nested (a larger budget judges everything a
smaller one does), and each equals ``irnb.pooling.budget_pool(judgments=N, seed=seed)``.

Cost: per budget and measure, one :func:`irnb.intervals.score_intervals` call (a gather and
two bincounts) and one vectorised all-pairs t-test per estimator and run set.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .experiment import Experiment
from .intervals import (ESTIMATORS, check_background_rate, check_smoothing, estimator_key, interval_measure,
                        pessimistic_p_values, point_estimates, score_intervals)
from .measures import Measure, parse_measure
from .params import ALPHA, JUDGMENTS, PROGRESS, RUN_SET
from .params import BACKGROUND_RATE, SMOOTHING
from .pooling import contributor_mask, judgment_order
from .stats import t_test
from .sweep import sweep

__all__ = ["BUDGET_MEASURES", "BUDGET_SHARES", "RUN_SETS", "BudgetTests", "budget_tests", "default_budgets"]

#: Ravana & Moffat's three weighted-precision measures.
BUDGET_MEASURES = ("P@10", "SDCG@100", "RBP(p=0.95)")
#: The run sets compared separately.
RUN_SETS = ("contributing", "non-contributing")
#: Default budgets as shares of the qrels (the paper: 1,000 / 10,000 / 69,100 of 69,100).
BUDGET_SHARES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)

_INTERVAL_NAMES = ("interval", "pessimistic")
_ALPHA = ALPHA.with_default(0.01)  # a pair of runs is separable when its t-test p < alpha


@dataclass(frozen=True, eq=False)
class _SetTests:
    """p-values and directions of one (measure, run set): arrays (E, B, P)."""

    run_names: tuple[str, ...]
    run_a: np.ndarray
    run_b: np.ndarray
    p_value: np.ndarray
    direction: np.ndarray


@dataclass(frozen=True, eq=False)
class BudgetTests:
    """All-pairs t-tests for every measure, run set, estimator and budget.

    ``p_value(measure, run_set)`` and ``direction(measure, run_set)`` are (E, B, P) arrays:
    estimators × budgets × pairs (pairs in ``np.triu_indices`` order over the run set's
    runs, ``pairs(measure, run_set)`` names them).
    """

    measures: tuple[Measure, ...]
    budgets: tuple[int, ...]
    estimators: tuple[str, ...]
    run_sets: tuple[str, ...]
    total_judgments: int
    background_rate: float
    smoothing: float | str
    _tests: dict = field(repr=False)  # (measure name, run set) → _SetTests

    def _get(self, measure, run_set: str) -> _SetTests:
        key = (parse_measure(measure).name, run_set)
        if key not in self._tests:
            raise KeyError(f"no tests for measure {key[0]!r} and run set {run_set!r}; measures: "
                           f"{[m.name for m in self.measures]}, run sets: {list(self.run_sets)}")
        return self._tests[key]

    def p_value(self, measure, run_set: str) -> np.ndarray:
        """(E, B, P) p-values."""
        return self._get(measure, run_set).p_value

    def direction(self, measure, run_set: str) -> np.ndarray:
        """(E, B, P) sign of the mean difference, +1 when the pair's first run is higher."""
        return self._get(measure, run_set).direction

    def pairs(self, measure, run_set: str) -> pd.DataFrame:
        """The pairs of a run set: ``run_a, run_b``."""
        t = self._get(measure, run_set)
        names = np.asarray(t.run_names, dtype=object)
        return pd.DataFrame({"run_a": names[t.run_a], "run_b": names[t.run_b]})

    def separability(self, *, alpha: float = 0.01) -> pd.DataFrame:
        """Tidy rows ``measure, run_set, estimator, budget, pairs, significant, fraction``:
        ``fraction`` = significant / testable pairs (p < ``alpha``)."""
        alpha = _ALPHA.validate(alpha, "BudgetTests.separability")
        rows = []
        for (name, run_set), t in self._tests.items():
            testable = ~np.isnan(t.p_value)
            with np.errstate(invalid="ignore"):
                significant = (t.p_value < alpha).sum(axis=2)
            pairs = testable.sum(axis=2)
            for e, est in enumerate(self.estimators):
                for b, budget in enumerate(self.budgets):
                    n = int(pairs[e, b])
                    rows.append({"measure": name, "run_set": run_set, "estimator": _label(est), "budget": budget,
                                 "pairs": n, "significant": int(significant[e, b]),
                                 "fraction": significant[e, b] / n if n else np.nan})
        return pd.DataFrame(rows)

    def recanting(self, *, alpha: float = 0.01) -> pd.DataFrame:
        """Tidy rows ``measure, run_set, estimator, budget_from, budget_to,
        significant_from, no_longer_significant, reversed, recanted, share`` for every
        budget_from ≤ budget_to: of the pairs with p < ``alpha`` at budget_from, how many are
        not significant at budget_to (``no_longer_significant``) or significant the other
        way (``reversed``); ``share`` = recanted / significant_from (NaN when 0/0)."""
        alpha = _ALPHA.validate(alpha, "BudgetTests.recanting")
        rows = []
        B = len(self.budgets)
        a_idx, b_idx = np.triu_indices(B, 0)
        for (name, run_set), t in self._tests.items():
            with np.errstate(invalid="ignore"):
                sig = t.p_value < alpha  # (E, B, P)
            sig_a, sig_b = sig[:, a_idx], sig[:, b_idx]  # (E, K, P)
            flipped = t.direction[:, a_idx] != t.direction[:, b_idx]
            n_from = sig_a.sum(axis=2)
            lost = (sig_a & ~sig_b).sum(axis=2)
            rev = (sig_a & sig_b & flipped).sum(axis=2)
            for e, est in enumerate(self.estimators):
                for k in range(a_idx.size):
                    n = int(n_from[e, k])
                    recanted = int(lost[e, k] + rev[e, k])
                    rows.append({"measure": name, "run_set": run_set, "estimator": _label(est),
                                 "budget_from": self.budgets[a_idx[k]], "budget_to": self.budgets[b_idx[k]],
                                 "significant_from": n, "no_longer_significant": int(lost[e, k]),
                                 "reversed": int(rev[e, k]), "recanted": recanted,
                                 "share": recanted / n if n else np.nan})
        return pd.DataFrame(rows)

    def recanting_table(self, run_set: str = RUN_SET.default, *, alpha: float = 0.01) -> pd.DataFrame:
        """The paper's Table 3 layout for one run set: rows (measure, estimator,
        budget_from), columns budget_to, cells the recanting share (a > b cells empty)."""
        run_set = RUN_SET.among(self.run_sets).validate(run_set, None)
        frame = self.recanting(alpha=alpha)
        frame = frame[frame["run_set"] == run_set]
        return frame.pivot_table(index=["measure", "estimator", "budget_from"], columns="budget_to",
                                 values="share", aggfunc="first", dropna=False)


def default_budgets(total: int) -> tuple[int, ...]:
    """Budgets at the shares :data:`BUDGET_SHARES` of ``total`` judgments (rounded up,
    duplicates dropped), always ending with ``total``.

    >>> default_budgets(1000)
    (10, 20, 50, 100, 200, 300, 500, 750, 1000)
    """
    total = JUDGMENTS.validate(total, None, label="total (number of qrels entries)")
    values = np.ceil(np.asarray(BUDGET_SHARES) * int(total) - 1e-9).astype(np.int64)
    return tuple(int(v) for v in np.unique(np.clip(values, 1, int(total))))


def _check_budgets(budgets, total: int, owner: str) -> tuple[int, ...]:
    if budgets is None:
        return default_budgets(total)
    values = [budgets] if isinstance(budgets, (int, np.integer)) else list(budgets)
    if not values:
        raise ValueError(f"{owner}: budgets must list at least one number of judgments, got none")
    budget = replace(JUDGMENTS, name="budget", high=total)
    return tuple(sorted({budget.validate(v, owner, label="every budget", note="the number of qrels entries")
                         for v in values}))


def _check_estimators(estimators, owner: str) -> tuple[str, ...]:
    """Estimator keys from "SBIMP", a name ("smoothed", "X_M", "interval") or a sequence of
    them; "P" (also "interval", "pessimistic") is the pessimistic interval test."""
    if isinstance(estimators, str):
        whole = estimators in ESTIMATORS.values() or estimators.startswith("X_") or estimators in _INTERVAL_NAMES
        items = [estimators] if whole else list(estimators)
    else:
        items = list(estimators)
    keys = []
    for item in items:
        if item in _INTERVAL_NAMES or item == "P":
            keys.append("P")
            continue
        try:
            keys.append(estimator_key(item))
        except ValueError as err:
            raise ValueError(f"{owner}: {err}; or P (the pessimistic interval test)") from None
    if not keys:
        raise ValueError(f"{owner}: estimators must name at least one of S, B, I, M, P, got none")
    return tuple(dict.fromkeys(keys))


def _label(key: str) -> str:
    """The name of an estimator key in tables: X_S … X_M, and "interval" for P."""
    return "interval" if key == "P" else f"X_{key}"


def _budget_task(experiment: Experiment, judged: np.ndarray, measures, keys, background_rate, smoothing,
                 sets) -> dict:
    """One budget of :func:`budget_tests`: (measure, run set, estimator) → (p-values, directions)."""
    out = {}
    for m in measures:
        iv = score_intervals(experiment, m, pool=judged)
        est = point_estimates(iv, background_rate=background_rate, smoothing=smoothing)
        for e, key in enumerate(keys):
            if key == "P":  # pessimistic interval test: B of one run against T of the other
                for s, idx in sets.items():
                    out[(m.name, s, e)] = pessimistic_p_values(iv.lower[idx], iv.upper[idx], iv.evaluated[idx])
                continue
            values = np.where(iv.evaluated, est.get(key), np.nan)
            for s, idx in sets.items():
                res = t_test(values[idx], run_names=[experiment.run_names[i] for i in idx])
                out[(m.name, s, e)] = (res.p_value, res.direction)
    return out


def budget_tests(experiment: Experiment, measures: str | Measure | Iterable[str | Measure] = BUDGET_MEASURES, *,
                 seed, budgets: Sequence[int] | None = None, estimators: str | Sequence[str] = "SBIM",
                 background_rate: float = BACKGROUND_RATE.default, smoothing=SMOOTHING.default,
                 contributors: Iterable[str] | None = None, n_jobs: int | None = None,
                 progress: bool | None = None) -> BudgetTests:
    """Paired t-tests of all run pairs, per judgment budget, measure, estimator and run set.

    Parameters: ``measures`` weighted-precision measures (P@k, SDCG@k, RBP(p)); ``seed``
    fixes the random order of ties in the judgment order; ``budgets`` numbers of judgments
    (default :func:`default_budgets` of the qrels size); ``estimators`` letters of
    S, B, I, M (default all four) and P (the pessimistic interval test);
    ``background_rate`` E and ``smoothing`` λ (or "auto") as in
    :func:`irnb.intervals.point_estimates`; ``contributors`` the runs whose rankings order
    the judgments and who form the "contributing" set (default the Experiment's);
    ``n_jobs``, ``progress``: one task per budget, see :mod:`irnb.sweep`.

    Example (hand-checkable): two topics; run a ranks the relevant x first on both, run b
    ranks the non-relevant y first. With all 4 judgments P@1 is 1 vs 0 on both topics: a
    constant difference, p = 0, so the one pair is separable (both runs contributed; the
    non-contributing set is empty and left out).

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> runs = pd.DataFrame({"run": ["a"] * 4 + ["b"] * 4, "qid": ["1", "1", "2", "2"] * 2,
    ...                      "docno": ["x", "y", "x", "y", "y", "x", "y", "x"], "score": [2, 1] * 4})
    >>> qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["x", "y"] * 2, "grade": [1, 0] * 2})
    >>> tests = budget_tests(Experiment(runs, qrels), ["P@1"], seed=0, budgets=[4], estimators="S")
    >>> tests.separability()[["run_set", "budget", "pairs", "significant", "fraction"]].values.tolist()
    [['contributing', 4, 1, 1, 1.0]]
    """
    progress = PROGRESS.validate(progress, "budget_tests")
    owner = "budget_tests"
    names = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    parsed = tuple(dict.fromkeys(interval_measure(m, None, owner) for m in names))
    if not parsed:
        raise ValueError(f"{owner}: measures must name at least one of P@k, SDCG@k, RBP(p), got none")
    keys = _check_estimators(estimators, owner)
    background_rate = check_background_rate(background_rate, owner)
    smoothing = check_smoothing(smoothing, owner)
    total = experiment.judgments.num_judgments
    budget_list = _check_budgets(budgets, total, owner)
    contributing = contributor_mask(experiment, contributors, owner=owner, name="contributors")
    contributor_names = [experiment.run_names[i] for i in np.flatnonzero(contributing)]
    order = judgment_order(experiment, runs=contributor_names, seed=seed)
    sets = {"contributing": np.flatnonzero(contributing), "non-contributing": np.flatnonzero(~contributing)}
    sets = {k: v for k, v in sets.items() if v.size >= 2}
    if not sets:
        raise ValueError(f"{owner}: no run set has two runs to compare (contributing: {int(contributing.sum())}, "
                         f"non-contributing: {int((~contributing).sum())})")
    E, B = len(keys), len(budget_list)
    p = {(m.name, s): np.full((E, B, idx.size * (idx.size - 1) // 2), np.nan)
         for m in parsed for s, idx in sets.items()}
    d = {key: np.zeros(value.shape, dtype=np.int8) for key, value in p.items()}
    tasks = []
    for budget in budget_list:  # nested budgets: the first `budget` judgments of one order
        judged = np.zeros(total, dtype=bool)
        judged[order[:budget]] = True
        tasks.append((experiment, judged, parsed, keys, background_rate, smoothing, sets))
    results = sweep(_budget_task, tasks, n_jobs=n_jobs, progress=progress, desc="budgets", owner=owner)
    for b, result in enumerate(results):
        for (name, s, e), (p_value, direction) in result.items():
            p[(name, s)][e, b] = p_value
            d[(name, s)][e, b] = direction
    tests = {}
    for (name, s), pv in p.items():
        idx = sets[s]
        a, bb = np.triu_indices(idx.size, 1)
        for arr in (pv, d[(name, s)]):
            arr.flags.writeable = False
        tests[(name, s)] = _SetTests(run_names=tuple(experiment.run_names[i] for i in idx), run_a=a, run_b=bb,
                                     p_value=pv, direction=d[(name, s)])
    return BudgetTests(measures=parsed, budgets=budget_list, estimators=keys, run_sets=tuple(sets),
                       total_judgments=total, background_rate=background_rate, smoothing=smoothing,
                       _tests=tests)
