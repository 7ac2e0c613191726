"""The completed bias tables of Büttcher et al. (2007) (irnb.predict.completed_bias): completion
reduces the rank change of left-out runs, a contributor subset's completion moves manual runs
less, and completions must belong to the experiment they are used with."""

from __future__ import annotations

import numpy as np
import pytest

from predict_toy import POOL_DEPTH, small_collection, small_corpus_of, toy_experiment
from irnb.bias import leave_one_group_out_bias
from irnb.pooling import depth_pool
from irnb.predict import (
    CompletedQrels,
    TermCounts,
    complete_qrels,
    completed_leave_one_group_out_bias,
    completed_pool_bias,
    contributor_subset_completion,
    leave_one_group_out_completions,
)


@pytest.fixture(scope="module")
def small():
    return small_collection()


@pytest.fixture(scope="module")
def small_corpus(small) -> TermCounts:
    return small_corpus_of(small)


@pytest.mark.parametrize("method", ["kld", "svm"])
def test_completion_reduces_the_rank_change_of_left_out_runs(small, small_corpus, method):
    if method == "svm":
        pytest.importorskip("sklearn")
    exp = small.experiment
    measures = ["P@20", "AP", "Bpref"]
    plain = leave_one_group_out_bias(exp, depth=POOL_DEPTH, measures=measures)
    completions = leave_one_group_out_completions(exp, small_corpus, depth=POOL_DEPTH, method=method,
                                                  probabilities=False)
    assert set(completions) == set(np.asarray(exp.groups)[exp.contributors])
    done = completed_leave_one_group_out_bias(exp, completions, measures=measures)
    np.testing.assert_array_equal(done.reference_score, plain.reference_score)
    np.testing.assert_array_equal(done.left_out, plain.left_out)
    # a group's left-out runs are its pooled runs; its other runs keep their reference scores
    assert done.left_out.tolist() == exp.contributors.tolist() and not exp.contributors.all()
    before = plain.summary().loc["P@20", "mean_abs_rank_change"]
    after = done.summary().loc["P@20", "mean_abs_rank_change"]
    assert before > 0 and after < before
    assert done.summary().loc["P@20", "rms_error"] < plain.summary().loc["P@20", "rms_error"]
    # each completion predicts exactly the entries its group alone pooled
    group = next(iter(completions))
    c = completions[group]
    others = [r for r, g, on in zip(exp.run_names, exp.groups, exp.contributors, strict=True) if on and g != group]
    full = depth_pool(exp, depth=POOL_DEPTH).judged
    removed = full & ~depth_pool(exp, depth=POOL_DEPTH, runs=others).judged
    assert sorted(c.predicted["entry"]) == np.flatnonzero(removed).tolist()


def test_completed_contributor_subset_moves_manual_runs_less(small, small_corpus):
    from irnb.bias import contributor_subset_bias

    exp = small.experiment
    info = small.run_info
    automatic = info.loc[info["contributor"] & ~info["manual"], "run"].tolist()
    manual = info.loc[info["contributor"] & info["manual"], "run"].tolist()
    assert manual and automatic
    plain = contributor_subset_bias(exp, automatic, depth=POOL_DEPTH, measures=["P@20", "AP"])
    completed = contributor_subset_completion(exp, small_corpus, automatic, depth=POOL_DEPTH, method="kld",
                                              probabilities=False)
    done = completed_pool_bias(exp, completed, left_out=manual, measures=["P@20", "AP"])
    np.testing.assert_array_equal(done.left_out, plain.left_out)
    assert (done.summary().loc["P@20", "rms_error"] < plain.summary().loc["P@20", "rms_error"])
    assert done.summary().loc["P@20", "kendall_tau"] >= plain.summary().loc["P@20", "kendall_tau"]


def test_completions_must_belong_to_the_experiment(small, small_corpus):
    exp, texts = toy_experiment()
    other = complete_qrels(exp, texts, depth=4, method="kld")
    with pytest.raises(ValueError, match="belong to another Experiment"):
        completed_pool_bias(small.experiment, other)
    assert isinstance(other, CompletedQrels) and "kld" in repr(other)
