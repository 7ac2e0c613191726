"""Sweeps through joblib: serial by default, the same results with worker processes or on a
Dask cluster, a progress bar that can be turned off, and clear errors for bad settings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irnb.bias import leave_one_group_out_bias, subsampling_curves
from irnb.budgets import budget_tests
from irnb.datasets import simulate
from irnb.sweep import sweep


@pytest.fixture(scope="module")
def small():
    return simulate(seed=3, num_topics=6, num_runs=8, num_groups=4, docs_per_topic=600, run_depth=100,
                    pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1).experiment


def _square_plus(x, y):
    return x * x + y


def _square_plus_where(x, y):
    """The result and the process that computed it."""
    import os

    return x * x + y, os.getpid()


def test_serial_sweep_is_the_plain_loop_in_order():
    tasks = [(3, 1), (1, 0), (2, 5)]
    assert sweep(_square_plus, tasks, progress=False) == [10, 1, 9]
    assert sweep(_square_plus, tasks, n_jobs=2, progress=False) == [10, 1, 9]  # loky workers, task order kept


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "2"])
def test_n_jobs_must_be_none_minus_one_or_positive(bad):
    with pytest.raises(ValueError, match=r"budget_tests: n_jobs must be None, -1 \(every core\) or an integer ≥ 1"):
        sweep(_square_plus, [(1, 1)], n_jobs=bad, owner="budget_tests")


def test_progress_must_be_a_boolean_or_none():
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        sweep(_square_plus, [(1, 1)], progress="yes")


def test_progress_bar_counts_tasks_and_can_be_turned_off(capsys):
    sweep(_square_plus, [(1, 1), (2, 2)], progress=True, desc="squares")
    err = capsys.readouterr().err
    assert "squares" in err and "0/2" in err  # the bar counts the 2 tasks (it clears itself when done)
    sweep(_square_plus, [(1, 1), (2, 2)], progress=False, desc="squares")
    assert capsys.readouterr().err == ""


def test_worker_processes_give_the_serial_results(small):
    serial = leave_one_group_out_bias(small, depth=10, measures=["P@10", "AP"], progress=False)
    parallel = leave_one_group_out_bias(small, depth=10, measures=["P@10", "AP"], n_jobs=2, progress=False)
    np.testing.assert_array_equal(serial.reduced_score, parallel.reduced_score)
    assert (serial.reduced_score != serial.reference_score).any()  # the sweep changed something
    a = budget_tests(small, ["P@10"], seed=1, budgets=[50, 150], estimators="SB", progress=False)
    b = budget_tests(small, ["P@10"], seed=1, budgets=[50, 150], estimators="SB", n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(a.separability(), b.separability())


@pytest.mark.slow
def test_dask_cluster_gives_the_serial_results(small):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is in the test extra")
    import joblib

    serial_curves = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP", "infAP"],
                                       progress=False)
    serial_budget = budget_tests(small, ["P@10"], seed=1, budgets=[50, 150], estimators="SB", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"):
            curves = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP", "infAP"],
                                        progress=False)
            budget = budget_tests(small, ["P@10"], seed=1, budgets=[50, 150], estimators="SB", progress=False)
        workers = client.scheduler_info()["workers"]
    assert len(workers) == 2
    pd.testing.assert_frame_equal(curves, serial_curves)
    pd.testing.assert_frame_equal(budget.separability(), serial_budget.separability())
    assert curves["kendall_tau"].between(-1, 1).all() and (curves["judged"] > 0).all()


def test_short_sweep_runs_here_and_a_long_one_goes_to_the_workers(monkeypatch):
    import os

    import irnb.sweep

    tasks = [(k, 1) for k in range(6)]
    here = sweep(_square_plus_where, tasks, n_jobs=2, progress=False)  # microseconds of work: not worth shipping
    assert [value for value, _ in here] == [k * k + 1 for k in range(6)]
    assert {pid for _, pid in here} == {os.getpid()}
    monkeypatch.setattr(irnb.sweep, "MIN_PARALLEL_SECONDS", 0.0)  # every sweep counts as long
    shipped = sweep(_square_plus_where, tasks, n_jobs=2, progress=False)
    assert [value for value, _ in shipped] == [k * k + 1 for k in range(6)]  # task order kept
    assert shipped[0][1] == os.getpid()  # the first task, timed here
    assert {pid for _, pid in shipped[1:]} - {os.getpid()}  # the rest ran in worker processes


def test_worker_path_gives_the_serial_results(small, monkeypatch):
    import irnb.sweep

    serial = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP"], progress=False)
    monkeypatch.setattr(irnb.sweep, "MIN_PARALLEL_SECONDS", 0.0)
    parallel = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP"], n_jobs=2,
                                  progress=False)
    pd.testing.assert_frame_equal(parallel, serial)


@pytest.mark.slow
def test_long_sweep_reaches_the_dask_cluster(small, monkeypatch):
    import os

    distributed = pytest.importorskip("distributed", reason="dask.distributed is in the test extra")
    import joblib

    import irnb.sweep

    serial = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP"], progress=False)
    monkeypatch.setattr(irnb.sweep, "MIN_PARALLEL_SECONDS", 0.0)  # every sweep counts as long
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            curves = subsampling_curves(small, seed=7, fractions=[0.2, 0.5], repeats=2, measures=["AP"],
                                        progress=False)
            where = sweep(_square_plus_where, [(k, 0) for k in range(4)], progress=False)
    pd.testing.assert_frame_equal(curves, serial)
    assert [value for value, _ in where] == [0, 1, 4, 9]
    assert {pid for _, pid in where[1:]} - {os.getpid()}  # the cluster's worker processes computed them
