"""Büttcher et al.'s bias experiments with completed qrels (their Tables 7 and 8): the
reduced judgments of each left-out group or pool subset train a classifier that predicts
exactly the removed documents (:func:`leave_one_group_out_completions`,
:func:`contributor_subset_completion`), and the runs are re-ranked on the completed qrels
(:func:`completed_leave_one_group_out_bias`, :func:`completed_pool_bias`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from ..bias import (BIAS_MEASURES, BiasResult, assemble_bias_result, per_topic_values, ranked_index, reference_values,
                    runs_in_mask)
from ..experiment import Experiment, few_names
from ..measures import Measure, parse_measures
from ..pooling import DEPTH, Pool, contributor_mask, leave_one_group_out, subset_pools
from .completion import CompletedQrels, check_completed_for, complete_qrels
from .features import TermCounts, term_counts_covering


def _options_corpus(experiment: Experiment, documents) -> TermCounts:
    """One TermCounts over every document of the Experiment's qrels (shared by the
    completions of a bias experiment, so that texts are read and tokenised once)."""
    return term_counts_covering(documents, experiment.judgments.qrel_docno)


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
    pools = leave_one_group_out(experiment, depth=depth, runs=runs_in_mask(experiment, contributing),
                                keep_unpooled=True)
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


def completed_leave_one_group_out_bias(experiment: Experiment, completions: Mapping[str, CompletedQrels], *,
                                       measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
                                       contributors=None, ranked: Iterable[str] | None = None) -> BiasResult:
    """The leave-one-group-out table with completed qrels (Büttcher et al.'s Table 7): the
    contributing runs of every group G in ``completions`` (its left-out runs; ``contributors``
    defaults to ``experiment.contributors``) are evaluated on ``completions[G]`` and
    re-ranked among all ranked runs (the others keep their reference scores); the reference
    is the official qrels. Same statistics and rules as
    :func:`irnb.bias.leave_one_group_out_bias` (``.summary()``, ``.table()``)."""
    owner = "completed_leave_one_group_out_bias"
    parsed = tuple(parse_measures(measures))
    idx = ranked_index(experiment, ranked, owner)
    contributing = contributor_mask(experiment, contributors, owner=owner)
    ref_values = reference_values(experiment, parsed, None, idx)
    red_values = ref_values.copy()
    run_group = np.asarray(experiment.groups, dtype=object)
    left_out = np.zeros(idx.size, dtype=bool)
    for group, completed in completions.items():
        check_completed_for(experiment, completed, owner)
        if group not in set(experiment.groups):
            raise ValueError(f"{owner}: unknown group {group!r}; groups: {few_names(sorted(set(experiment.groups)))}")
        members = np.flatnonzero((run_group[idx] == group) & contributing[idx])  # G's pooled runs
        if members.size == 0:
            continue
        red_values[:, members] = per_topic_values(completed.view(runs=idx[members]), parsed)
        left_out[members] = True
    ranked_groups = run_group[idx]
    config = (ranked_groups[:, None] == ranked_groups[None, :]) & left_out[None, :]
    methods = sorted({c.method for c in completions.values()})
    description = f"leave-one-group-out with qrels completed by {'/'.join(methods) or 'nothing'}"
    return assemble_bias_result("leave-one-group-out (completed)", description, experiment, parsed, idx, left_out,
                                ref_values, red_values, config)


def completed_pool_bias(experiment: Experiment, completed: CompletedQrels, *, left_out: Iterable[str] | None = None,
                        measures: str | Measure | Iterable[str | Measure] = BIAS_MEASURES,
                        ranked: Iterable[str] | None = None) -> BiasResult:
    """Every ranked run evaluated on the ``completed`` qrels against the official qrels
    (Büttcher et al.'s Table 8 with :func:`contributor_subset_completion`); statistics over
    the ``left_out`` runs (default: every ranked run), as :func:`irnb.bias.pool_bias`."""
    owner = "completed_pool_bias"
    check_completed_for(experiment, completed, owner)
    parsed = tuple(parse_measures(measures))
    idx = ranked_index(experiment, ranked, owner)
    ref_values = reference_values(experiment, parsed, None, idx)
    red_values = per_topic_values(completed.view(runs=idx), parsed)
    if left_out is None:
        lo = np.ones(idx.size, dtype=bool)
    else:
        lo = np.isin(idx, experiment.run_index([left_out] if isinstance(left_out, str) else list(left_out)))
    config = np.ones((idx.size, idx.size), dtype=bool)
    return assemble_bias_result("reduced pool (completed)", f"every run evaluated with {completed.description} "
                                f"completed by {completed.method}", experiment, parsed, idx, lo, ref_values,
                                red_values, config)
