"""The sweep helper: results depend on the seed only, never on the number of workers."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet.errors import ParameterError
from dpnet.sweep import Stream, run_sweep, sweep, task_generators


def draw(task: int, rng: np.random.Generator) -> float:
    return float(rng.normal(size=task).sum())


def test_results_identical_across_worker_counts() -> None:
    tasks = [10, 20, 30, 40]
    serial = sweep(draw, tasks, Stream(7, (), "t"), n_jobs=1)
    parallel = sweep(draw, tasks, Stream(7, (), "t"), n_jobs=2)
    assert serial == parallel
    assert serial != sweep(draw, tasks, Stream(8, (), "t"), n_jobs=1)


def test_task_streams_are_distinct() -> None:
    a, b = task_generators(0, 2)
    assert a.random() != b.random()


def test_bad_jobs_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DPNET_JOBS", "0")
    with pytest.raises(ParameterError, match="DPNET_JOBS"):
        sweep(draw, [1], Stream(0, (), "t"))


def test_keyed_streams_do_not_depend_on_position() -> None:
    a = run_sweep(draw, [5, 6], seed=1, keys=[(0, 5), (0, 6)])
    b = run_sweep(draw, [4, 6, 5], seed=1, keys=[(0, 4), (0, 6), (0, 5)])
    assert a == [b[2], b[1]]
    with pytest.raises(ParameterError, match="distinct"):
        run_sweep(draw, [1, 2], seed=0, keys=[(1,), (1,)])


def test_stream_is_seed_sequence_of_seed_and_key() -> None:
    """A stream named by a key draws exactly what ``SeedSequence([seed, *key])`` draws."""
    from dpnet.sweep import Stream, name_key

    stream = Stream(11, (4, 5), "demo")
    expected = np.random.default_rng(np.random.SeedSequence([11, 4, 5])).random(3)
    assert np.array_equal(stream.rng().random(3), expected)
    assert np.array_equal(stream.rng().random(3), expected)  # a fresh generator every time
    assert stream.child(6).key == (4, 5, 6)
    assert name_key("fig5") == name_key("fig5") != name_key("fig6")
    assert len(name_key("fig5")) == 4 and all(0 <= k < 2**32 for k in name_key("fig5"))
    with pytest.raises(ParameterError, match="non-negative"):
        Stream(1, (-1,), "bad")


def test_sweep_is_keyed_by_task_and_independent_of_order_and_workers() -> None:
    from dpnet.sweep import Stream, sweep

    stream = Stream(3, (9,), "demo")
    a = sweep(draw, [5, 6, 7], stream, key=lambda t: (t,), n_jobs=1)
    b = sweep(draw, [7, 5], stream, key=lambda t: (t,), n_jobs=2)
    assert list(a) == [5, 6, 7] and a[5] == b[5] and a[7] == b[7]
    assert a[5] == draw(5, stream.child(5).rng())
    by_repr = sweep(draw, [5, 6], stream)  # default key: the task's repr
    assert by_repr == sweep(draw, [6, 5], stream)
    with pytest.raises(ParameterError, match="distinct"):
        sweep(draw, [1, 1], stream)
    with pytest.raises(ParameterError, match="its own key"):
        sweep(draw, [1, 2], stream, key=lambda t: (0,))
