"""irnb.datasets.collection: ``simulate`` and the cached ``default()`` — seeds, sizes, the
official qrels as the depth-d pool judged with the truth, scores in trec_eval order, and
parameter errors that name what was allowed."""

from __future__ import annotations

import numpy as np
import pytest

from irnb import evaluate
from irnb.datasets import (
    SIMULATION_PARAMS,
    Collection,
    default,
    simulate,
)

from sim_collections import SMALL


@pytest.fixture(scope="module")
def small() -> Collection:
    return simulate(7, **SMALL)


@pytest.fixture(scope="module")
def coll() -> Collection:
    return default()


def test_default_is_cached_and_equals_seed_zero(coll):
    assert default() is coll
    fresh = simulate(0)
    assert np.array_equal(fresh.ranking, coll.ranking) and np.array_equal(fresh.scores, coll.scores)
    assert fresh.qrels.table.equals(coll.qrels.table) and fresh.truth.table.equals(coll.truth.table)


def test_other_seed_differs(small):
    other = simulate(8, **SMALL)
    assert not np.array_equal(other.ranking, small.ranking)
    assert not other.truth.table.equals(small.truth.table)


def test_default_sizes(coll):
    info = coll.run_info
    assert len(coll.topics) == 50 and len(coll.runs) == 40 and info["group"].nunique() == 12
    assert coll.ranking.shape == (40, 50, 1000)
    assert all(run.num_lines == 50 * 1000 for run in coll.runs.values())
    assert coll.truth.num_judgments == 50 * 5000
    sizes = info.groupby("group").size()
    assert sizes.max() >= 2 and sizes.min() >= 1  # some groups submit several runs
    assert int(info["manual"].sum()) == 4 and (info.loc[info["manual"], "kind"] == "novel").all()
    assert info["kind"].value_counts().to_dict() == {"popular": 28, "keyword": 8, "novel": 4}
    # one pooled run per group, manual runs first
    assert info.groupby("group")["contributor"].sum().eq(1).all()
    for _, runs in info.groupby("group"):
        if runs["manual"].any():
            assert runs.loc[runs["contributor"], "manual"].all()
    assert list(info.columns) == ["run", "group", "manual", "contributor", "kind", "quality"]


def test_official_qrels_are_the_depth_d_pool_judged_with_the_truth(small):
    info = small.run_info
    d = small.params["pool_depth"]
    contrib = info["contributor"].to_numpy()
    T, N = small.family.shape
    expected = np.zeros((T, N), dtype=bool)
    for s in np.flatnonzero(contrib):
        for t in range(T):
            expected[t, small.ranking[s, t, :d]] = True
    assert np.array_equal(small.pooled, expected)
    qrels = small.qrels.to_frame().merge(small.truth.to_frame(), on=["topic", "docno"], suffixes=("", "_true"))
    assert len(qrels) == small.qrels.num_judgments == expected.sum()
    assert (qrels["grade"] == qrels["grade_true"]).all()
    judged = evaluate(small.experiment, [f"Judged@{d}"]).values
    value = next(iter(judged.values()))
    assert np.all(value[contrib] == 1.0)
    assert value[~contrib].min() < 1.0


def test_custom_sizes(small):
    assert small.ranking.shape == (8, 4, 100)
    assert small.truth.num_judgments == 4 * 600
    assert small.topics["topic"].tolist() == ["101", "102", "103", "104"]
    assert small.run_info["group"].nunique() == 3
    assert small.documents.texts(["D104-00599"])[0]


def test_topic_documents_do_not_depend_on_the_number_of_topics():
    a = simulate(5, **{**SMALL, "num_topics": 2})
    b = simulate(5, **{**SMALL, "num_topics": 5})
    assert np.array_equal(a.family, b.family[:2])
    assert a.truth.to_frame().equals(b.truth.to_frame().iloc[: 2 * 600].reset_index(drop=True))
    names = ["D101-00003", "D102-00597"]
    assert a.documents.texts(names) == b.documents.texts(names)  # word tables are per (seed, topic)


def test_scores_are_six_decimal_values_in_trec_eval_order(small):
    for s, run in enumerate(small.runs.values()):
        scores = run.table["score"].to_numpy()
        assert np.array_equal(scores, small.scores[s].ravel() / 1e6)
        s32 = scores.reshape(4, 100).astype(np.float32)
        assert np.all(np.diff(s32, axis=1) <= 0)  # float32 scores descending within each topic
        docs = small.ranking[s]
        tie = np.diff(s32, axis=1) == 0
        assert np.all(np.diff(docs, axis=1)[tie] < 0)  # ties: docno descending


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_topics": 0}, r"simulate: num_topics must be an integer with 1 ≤ num_topics ≤ 500, got 0"),
        ({"num_runs": 2.5}, r"num_runs must be an integer.*got 2.5"),
        ({"pool_depth": 2000}, r"pool_depth \(2000\) must be ≤ run_depth \(1000\)"),
        ({"num_groups": 50}, r"num_groups \(50\) must be ≤ num_runs \(40\)"),
        ({"run_depth": 6000}, r"run_depth \(6000\) must be ≤ docs_per_topic \(5000\)"),
        ({"novel_runs": 20, "keyword_runs": 20}, r"novel_runs \+ keyword_runs \(20 \+ 20\) must be < num_runs"),
        ({"title_share": 0.5, "novel_share": 0.5}, r"title_share \+ novel_share .* must be ≤ 0.9"),
        ({"median_relevant": 900.0}, r"median_relevant \(900.0\) must be ≤ docs_per_topic / 10"),
    ],
)
def test_bad_parameters_are_named_with_what_was_allowed(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate(0, **kwargs)


@pytest.mark.parametrize("seed", [-1, 1.5, True, "0", 2 ** 63])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match=r"seed must be an integer with 0 ≤ seed < 2\*\*63, got"):
        simulate(seed)


def test_keyword_only_options():
    with pytest.raises(TypeError):
        simulate(0, 50)  # the sizes are keyword-only


def test_declared_parameters_match_the_signature():
    import inspect

    sig = inspect.signature(simulate)
    for name, param in SIMULATION_PARAMS.items():
        assert sig.parameters[name].default == param.default
        assert sig.parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert param.low is not None and param.high is not None and param.doc
