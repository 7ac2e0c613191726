"""irnb.datasets.fast_experiment: the simulator's Experiment, built straight from its ranking,
equals the one the public constructor builds from the same runs and qrels."""

from __future__ import annotations

import numpy as np
import pytest

from irnb import Experiment
from irnb.datasets import (
    Collection,
    simulate,
)

from sim_collections import SMALL


@pytest.fixture(scope="module")
def small() -> Collection:
    return simulate(7, **SMALL)


def test_fast_experiment_equals_the_public_constructor(small):
    info = small.run_info
    public = Experiment(dict(small.runs), small.qrels, truth=small.truth,
                        groups=dict(zip(info["run"], info["group"], strict=True)),
                        contributors=info.loc[info["contributor"], "run"].tolist())
    fast = small.experiment
    assert set(vars(public)) == set(vars(fast))
    for name in ("run_names", "topics", "depth", "max_depth", "ignored_topics", "groups"):
        assert getattr(public, name) == getattr(fast, name), name
    assert np.array_equal(public.length, fast.length)
    assert np.array_equal(public.contributors, fast.contributors)
    for which in ("judgments", "truth"):
        a, b = getattr(public, which), getattr(fast, which)
        for field in ("doc", "qrel_topic", "qrel_grade", "topic_start"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), (which, field)
        assert a.qrel_docno.equals(b.qrel_docno)
