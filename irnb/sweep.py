"""Sweeps: experiments that loop over settings, run through joblib, with a progress bar.

Every experiment in irnb that repeats one computation over many settings (groups left out,
subsampling fractions × repeats, judgment budgets, bootstrap resamples) hands its tasks to
:func:`sweep`. By default (``n_jobs=None``) the tasks run one after another in this
process, exactly as a plain loop would; ``n_jobs=2`` (or ``-1``: every core) runs them in
joblib's worker processes; and inside ``with joblib.parallel_config(backend="dask"):`` the
same call sends them to the Dask cluster of the active ``distributed.Client``, unchanged.
Results come back in task order, so every backend gives identical results: randomness is
drawn before the tasks are handed out, never inside them. With workers, the tasks go out
as one chunk per worker, so that what they share (an Experiment) is pickled and sent once
per worker rather than once per task; the progress bar then advances a chunk at a time.

Workers pay only for sweeps long enough to cover their cost: sending the shared arguments
and collecting the results costs a fraction of a second or more (more when the workers
start; benchmarks/bench_scale.py measures it, benchmarks/RESULTS_scale.md has the figures).
So with workers, the first task runs here and is timed; when the other tasks would take
less than :data:`MIN_PARALLEL_SECONDS` (2 s) here at that pace, they run here too, one
after another, and never reach joblib's workers or the cluster. Otherwise they go out as
above (the first task's result stands: every task gives the same result wherever it runs).

A progress bar (``tqdm.auto``: a widget in a notebook, text in a terminal) counts finished
tasks; ``progress=False`` turns it off, ``progress=None`` (the default) shows it only where
someone is watching (a terminal or a notebook, not a log file or a test run).

>>> from irnb.sweep import sweep
>>> sweep(pow, [(2, 3), (3, 2), (10, 0)], progress=False)
[8, 9, 1]
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from .params import N_JOBS, PROGRESS

__all__ = ["sweep", "N_JOBS_DOC", "MIN_PARALLEL_SECONDS"]

# The shortest sweep (its remaining tasks, at the pace of the first) handed to workers; a
# shorter one runs in this process (see the module docstring). bench_scale measures both sides.
MIN_PARALLEL_SECONDS = 2.0

N_JOBS_DOC = ("``n_jobs``: parallel workers for the sweep (None: this process, one task after another; -1: "
              "every core; inside ``joblib.parallel_config(backend=...)`` that backend, e.g. Dask); "
              "``progress``: show a progress bar (None: only in a terminal or notebook; False: never)")


def _watched() -> bool:
    """A person can see the bar: stderr is a terminal, or we run in an IPython kernel."""
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def sweep(fn: Callable[..., Any], tasks: Iterable[Sequence[Any]], *, n_jobs: int | None = None,
          progress: bool | None = None, desc: str | None = None, owner: str = "sweep") -> list:
    """``[fn(*task) for task in tasks]``, through joblib, in task order.

    ``fn`` must be a module-level function (workers import it by name) and every task a
    tuple of picklable arguments. See the module docstring for ``n_jobs`` and ``progress``.
    """
    n_jobs = N_JOBS.validate(n_jobs, owner)
    progress = PROGRESS.validate(progress, owner)
    show = _watched() if progress is None else progress
    tasks = [tuple(t) for t in tasks]
    import joblib

    workers = joblib.effective_n_jobs(n_jobs)  # 1 unless n_jobs or the active parallel_config ask for more
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), desc=desc or owner, leave=False)
    out: list = []

    def collect(part: list) -> None:
        out.extend(part)
        if bar is not None:
            bar.update(len(part))

    rest = tasks
    if workers > 1 and len(tasks) > 1:  # time the first task here: is the rest worth shipping?
        began = time.perf_counter()
        collect(_run_chunk(fn, tasks[:1]))
        rest = tasks[1:]
        if (time.perf_counter() - began) * len(rest) < MIN_PARALLEL_SECONDS:
            for task in rest:
                collect(_run_chunk(fn, [task]))
            rest = []
    if rest:
        parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
        for part in parallel(joblib.delayed(_run_chunk)(fn, rest[lo:hi]) for lo, hi in _chunks(len(rest), workers)):
            collect(part)
    if bar is not None:
        bar.close()
    return out


def _chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Task ranges handed out at once: one task at a time in this process; else one
    contiguous chunk per worker, so that what the tasks share (an Experiment) is pickled
    and sent once per worker instead of once per task."""
    if workers <= 1 or n <= 1:
        return [(i, i + 1) for i in range(n)]
    bounds = [round(n * k / min(workers, n)) for k in range(min(workers, n) + 1)]
    return list(itertools.pairwise(bounds))


def _run_chunk(fn: Callable[..., Any], tasks: Sequence[tuple]) -> list:
    """``[fn(*task) for task in tasks]`` in one worker (the tasks' shared arguments are
    unpickled once for the whole chunk)."""
    return [fn(*task) for task in tasks]
