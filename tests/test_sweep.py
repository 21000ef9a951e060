"""The sweep helper: results depend on the seed only, never on the number of workers."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet.errors import ParameterError
from dpnet.sweep import run_sweep, task_generators


def draw(task: int, rng: np.random.Generator) -> float:
    return float(rng.normal(size=task).sum())


def test_results_identical_across_worker_counts() -> None:
    tasks = [10, 20, 30, 40]
    serial = run_sweep(draw, tasks, seed=7, n_jobs=1)
    parallel = run_sweep(draw, tasks, seed=7, n_jobs=2)
    assert serial == parallel
    assert serial != run_sweep(draw, tasks, seed=8, n_jobs=1)


def test_task_streams_are_distinct() -> None:
    a, b = task_generators(0, 2)
    assert a.random() != b.random()


def test_bad_jobs_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DPNET_JOBS", "0")
    with pytest.raises(ParameterError, match="DPNET_JOBS"):
        run_sweep(draw, [1], seed=0)


def test_keyed_streams_do_not_depend_on_position() -> None:
    a = run_sweep(draw, [5, 6], seed=1, keys=[(0, 5), (0, 6)])
    b = run_sweep(draw, [4, 6, 5], seed=1, keys=[(0, 4), (0, 6), (0, 5)])
    assert a == [b[2], b[1]]
    with pytest.raises(ParameterError, match="distinct"):
        run_sweep(draw, [1, 2], seed=0, keys=[(1,), (1,)])
