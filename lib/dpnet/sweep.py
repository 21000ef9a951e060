"""The one Monte Carlo sweep helper every chapter uses.

A sweep maps a function over a list of tasks. Task ``k`` receives its own
:class:`numpy.random.Generator`, spawned from the chapter seed with
:class:`numpy.random.SeedSequence`, so results depend only on ``(seed, tasks)``: never on the
number of workers, on the order tasks finish in, or on what ran before. Tasks run in parallel
over processes with joblib, with a progress bar: in the notebook when run interactively, relayed
to the terminal by the book runner (never stored in an executed notebook).

Randomness is addressed by name: a :class:`Stream` is the chapter seed plus a key, and
:meth:`Stream.child` extends the key, so a task's draws depend only on what the task *is*.
:func:`sweep` runs a function over tasks, each with its child stream, and returns the results keyed
by task.

A sweep runs on a Dask distributed cluster instead when a scheduler is named (``DPNET_SCHEDULER``, or
the runner's ``--scheduler``): the same tasks with the same generators go to the cluster's workers, so
the results are identical to a local run. Dask is an optional extra (``pip install -e ".[cluster]"``);
nothing imports it unless a scheduler is named.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from dpnet.cores import Slots, slots_from_env
from dpnet.errors import ClusterError, ParameterError

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)
R = TypeVar("R")

__all__ = [
    "CONNECT_SECONDS",
    "Stream",
    "cluster_client",
    "default_jobs",
    "name_key",
    "progress_enabled",
    "run_sweep",
    "scheduler_address",
    "sweep",
    "task_generators",
]

#: How long to wait for a Dask scheduler before giving up.
CONNECT_SECONDS = 5


def name_key(name: str) -> tuple[int, ...]:
    """Four 32-bit words derived from a name (SHA-256): the key of a stream that has no other."""
    digest = hashlib.sha256(name.encode()).digest()
    return tuple(int.from_bytes(digest[4 * k : 4 * k + 4], "little") for k in range(4))


@dataclass(frozen=True)
class Stream:
    """A named source of random numbers: the chapter seed and a key of non-negative integers.

    The generator is seeded by ``SeedSequence([seed, *key])``, so a stream's draws depend on its
    name alone, never on what else the chapter draws or in which order.

    Attributes
    ----------
    seed
        The chapter seed.
    key
        The integers that name the stream under that seed.
    name
        A readable name, for messages.
    """

    seed: int
    key: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        if any(int(k) < 0 for k in self.key):
            raise ParameterError(f"stream {self.name!r}: key {self.key} must hold non-negative integers")

    def rng(self) -> np.random.Generator:
        """A fresh generator of this stream (the same draws every time it is asked for)."""
        return np.random.default_rng(np.random.SeedSequence([int(self.seed), *map(int, self.key)]))

    def child(self, *key: int) -> Stream:
        """The stream named by this one's key followed by ``key``."""
        return Stream(self.seed, (*self.key, *map(int, key)), f"{self.name}/{'/'.join(map(str, key))}")


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


def scheduler_address() -> str | None:
    """The Dask scheduler the sweeps run on (``DPNET_SCHEDULER``), or None to run them here."""
    return os.environ.get("DPNET_SCHEDULER") or None


_CLIENTS: dict[str, Any] = {}


def cluster_client(address: str) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address`` (one per process).

    Raises
    ------
    ClusterError
        dask.distributed is not installed, or no scheduler answers at ``address`` within
        :data:`CONNECT_SECONDS` seconds (the message names the address).
    """
    if address in _CLIENTS:
        return _CLIENTS[address]
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            f"the sweeps are to run on the Dask scheduler {address}, but dask.distributed is not "
            'installed: pip install -e ".[cluster]"'
        ) from None
    try:
        client = Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} (waited {CONNECT_SECONDS} s): {exc}; "
            "check the address, or unset DPNET_SCHEDULER to run here"
        ) from None
    _CLIENTS[address] = client
    return client


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


def sweep(
    func: Callable[[H, np.random.Generator], R],
    tasks: Sequence[H],
    stream: Stream,
    *,
    key: Callable[[H], Sequence[int]] | None = None,
    n_jobs: int | None = None,
    desc: str = "",
) -> dict[H, R]:
    """Evaluate ``func(task, rng)`` for every task; results keyed by task.

    Parameters
    ----------
    func
        A picklable function (module level) of one task and a generator.
    tasks
        Distinct, hashable task descriptions (for example frozen dataclasses or tuples).
    stream
        The sweep's stream; task ``t`` draws from ``stream.child(*key(t))``.
    key
        Non-negative integers naming a task within the sweep. By default, :func:`name_key` of the
        task's ``repr``, so a task's draws depend on what it is, not on its position.
    n_jobs
        Worker processes (default :func:`default_jobs`). Results are identical for every value.
    desc
        Label of the progress bar (default: the stream's name).

    Returns
    -------
    dict
        ``{task: func(task, rng_task)}``, in the order of ``tasks``.
    """
    tasks = list(tasks)
    if len(set(tasks)) != len(tasks):
        raise ParameterError(f"sweep {stream.name!r}: tasks must be distinct")
    keys = [tuple(key(t)) if key is not None else name_key(repr(t)) for t in tasks]
    if len(set(keys)) != len(keys):
        raise ParameterError(f"sweep {stream.name!r}: the key function must give each task its own key")
    rngs = [stream.child(*k).rng() for k in keys]
    out = _map(func, tasks, rngs, n_jobs=n_jobs, desc=desc or stream.name or "sweep")
    return dict(zip(tasks, out, strict=True))


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
    return _map(func, tasks, task_generators(seed, len(tasks), keys), n_jobs=n_jobs, desc=desc)


def _map(
    func: Callable[[T, np.random.Generator], R],
    tasks: list[T],
    rngs: list[np.random.Generator],
    *,
    n_jobs: int | None,
    desc: str,
) -> list[R]:
    """``[func(t, g) for t, g in zip(tasks, rngs)]``, over worker processes, with a progress bar."""
    jobs = default_jobs() if n_jobs is None else n_jobs
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
    address = scheduler_address()
    shared = slots_from_env() if n_jobs is None and "DPNET_JOBS" not in os.environ else None
    try:
        with bar:
            if address is not None:
                results = _map_on_cluster(cluster_client(address), func, tasks, rngs, bar)
            elif shared is not None and len(tasks) > 1:
                results = _map_on_shared_cores(shared, func, tasks, rngs, bar)
            elif jobs == 1 or len(tasks) <= 1:
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


def _map_on_cluster(
    client: Any,
    func: Callable[[T, np.random.Generator], R],
    tasks: list[T],
    rngs: list[np.random.Generator],
    bar: tqdm,
) -> list[R]:
    """``_map`` on a Dask cluster: each task with its own generator, results in task order."""
    from distributed import as_completed

    futures = client.map(func, tasks, rngs, pure=False)
    for _ in as_completed(futures, loop=client.loop):
        bar.update()
    return client.gather(futures)


def _run_chunk(
    func: Callable[[T, np.random.Generator], R], chunk: list[tuple[T, np.random.Generator]]
) -> list[R]:
    return [func(task, rng) for task, rng in chunk]


def _map_on_shared_cores(
    slots: Slots,
    func: Callable[[T, np.random.Generator], R],
    tasks: list[T],
    rngs: list[np.random.Generator],
    bar: tqdm,
) -> list[R]:
    """``_map`` inside a build: one chunk of tasks at a time on the chapter's own core, plus one more per
    core slot it can borrow (:mod:`dpnet.cores`), looked for again each time a chunk finishes."""
    from joblib.executor import get_memmapping_executor  # the one joblib's Parallel reuses

    size = max(1, len(tasks) // (8 * slots.count))  # chunks: few enough to keep pickling cheap
    chunks = [
        list(zip(tasks[k : k + size], rngs[k : k + size], strict=True)) for k in range(0, len(tasks), size)
    ]
    executor = get_memmapping_executor(slots.count)
    out: list[list[R]] = [[] for _ in chunks]
    queue = iter(range(len(chunks)))
    running: dict[Future[list[R]], int] = {}
    borrowed: list[int] = []
    left = len(chunks)
    try:
        while left:
            borrowed += slots.borrow(min(slots.count, left) - 1 - len(borrowed))
            while len(running) < 1 + len(borrowed) and (k := next(queue, None)) is not None:
                running[executor.submit(_run_chunk, func, chunks[k])] = k
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                k = running.pop(future)
                out[k] = future.result()
                left -= 1
                bar.update(len(out[k]))
            while len(borrowed) > max(0, left - 1):  # give back what the remaining chunks cannot use
                Slots.release([borrowed.pop()])
    finally:
        Slots.release(borrowed)
    return [result for chunk in out for result in chunk]
