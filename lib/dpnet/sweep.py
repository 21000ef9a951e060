"""The one Monte Carlo sweep helper every chapter uses.

A sweep maps a function over a list of tasks. Task ``k`` receives its own
:class:`numpy.random.Generator`, spawned from the chapter seed with
:class:`numpy.random.SeedSequence`, so results depend only on ``(seed, tasks)``: never on the
number of workers, on the order tasks finish in, or on what ran before. Tasks run in parallel
over processes with joblib, with a progress bar: in the notebook when run interactively, relayed
to the terminal by the book runner (never stored in an executed notebook).

A cluster backend (dask, ray, …) can be added here and nowhere else: chapters only call
:func:`run_sweep`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from dpnet.errors import ParameterError

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["default_jobs", "progress_enabled", "run_sweep", "task_generators"]


def default_jobs() -> int:
    """Number of worker processes: ``DPNET_JOBS`` if set, else 1 (``-1`` means every core)."""
    raw = os.environ.get("DPNET_JOBS", "1")
    try:
        jobs = int(raw)
    except ValueError as exc:
        raise ParameterError(f"DPNET_JOBS must be an integer ≥ 1 or -1 (got {raw!r})") from exc
    if jobs == 0 or jobs < -1:
        raise ParameterError(f"DPNET_JOBS must be an integer ≥ 1 or -1 (got {jobs})")
    return jobs


def progress_enabled() -> bool:
    """Progress bars are on unless ``DPNET_PROGRESS=0`` (the tests set it)."""
    return os.environ.get("DPNET_PROGRESS", "1") != "0"


def task_generators(
    seed: int, n_tasks: int, keys: Sequence[Sequence[int]] | None = None
) -> list[np.random.Generator]:
    """Independent generators for ``n_tasks`` tasks.

    Without ``keys``, the children of ``SeedSequence(seed)`` (spawning, rather than ``seed + k``,
    gives statistically independent streams). With ``keys``, task ``k`` is seeded by
    ``SeedSequence([seed, *keys[k]])``: its draws then depend only on what the task *is* (say a grid
    cell), not on its position, so adding a cell to a grid leaves the others' draws unchanged.
    """
    if n_tasks < 0:
        raise ParameterError(f"n_tasks must be ≥ 0 (got {n_tasks})")
    if keys is None:
        return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(n_tasks)]
    if len(keys) != n_tasks or len({tuple(k) for k in keys}) != n_tasks:
        raise ParameterError(f"keys must give {n_tasks} distinct integer tuples, one per task")
    return [np.random.default_rng(np.random.SeedSequence([seed, *map(int, key)])) for key in keys]


def run_sweep(
    func: Callable[[T, np.random.Generator], R],
    tasks: Sequence[T],
    *,
    seed: int,
    n_jobs: int | None = None,
    desc: str = "sweep",
    keys: Sequence[Sequence[int]] | None = None,
) -> list[R]:
    """Evaluate ``func(task, rng)`` for every task, each with its own seeded generator.

    Parameters
    ----------
    func
        A picklable function (module level) of one task and a generator.
    tasks
        The task descriptions, in the order results are returned.
    seed
        The chapter seed; task ``k`` gets the ``k``-th child of ``SeedSequence(seed)``, or, with
        ``keys``, ``SeedSequence([seed, *keys[k]])``.
    n_jobs
        Worker processes (default :func:`default_jobs`). Results are identical for every value.
    desc
        Label of the progress bar.
    keys
        Optional non-negative integer tuples identifying each task (see :func:`task_generators`).

    Returns
    -------
    list
        ``[func(tasks[0], rng_0), func(tasks[1], rng_1), ...]``.
    """
    tasks = list(tasks)
    jobs = default_jobs() if n_jobs is None else n_jobs
    rngs = task_generators(seed, len(tasks), keys)
    # Under the book runner (DPNET_PROGRESS_LOG set) the bar goes to a log file that the runner relays to
    # the terminal, so it never lands in the executed notebook; interactively it shows in the notebook.
    log_path = os.environ.get("DPNET_PROGRESS_LOG")
    stream = open(log_path, "a", encoding="utf-8") if log_path else sys.stderr
    bar = tqdm(
        total=len(tasks),
        desc=desc,
        file=stream,
        disable=not progress_enabled(),
        mininterval=1.0,
        leave=False,
    )
    results: list[R] = []
    try:
        with bar:
            if jobs == 1 or len(tasks) <= 1:
                for task, rng in zip(tasks, rngs, strict=True):
                    results.append(func(task, rng))
                    bar.update()
            else:
                parallel = Parallel(n_jobs=jobs, return_as="generator")
                for result in parallel(delayed(func)(t, g) for t, g in zip(tasks, rngs, strict=True)):
                    results.append(result)
                    bar.update()
    finally:
        if log_path:
            stream.close()
    return results
