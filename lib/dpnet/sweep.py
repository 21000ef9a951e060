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

import contextlib
import hashlib
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from dpnet.cores import WORKER_BYTES, Slots, machine_memory, max_workers, slots_from_env
from dpnet.errors import ClusterError, ParameterError

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)
R = TypeVar("R")

__all__ = [
    "CONNECT_SECONDS",
    "Stream",
    "check_scheduler",
    "close_clients",
    "cluster_client",
    "default_jobs",
    "name_key",
    "progress_enabled",
    "run_sweep",
    "scheduler_address",
    "sweep",
    "task_generators",
    "watch_parent",
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
    """Number of worker processes: ``DPNET_JOBS`` if set, else 1 (``-1`` means every core).

    A value above what the machine can hold (:func:`dpnet.cores.max_workers`) is refused: each worker is
    a process with its own interpreter and libraries.
    """
    raw = os.environ.get("DPNET_JOBS", "1")
    if len(raw) > 20 or not re.fullmatch(r"\s*-?\d+\s*", raw):
        raise ParameterError(f"DPNET_JOBS must be an integer ≥ 1 or -1 (got {raw[:40]!r})")
    jobs = int(raw)
    if jobs == 0 or jobs < -1:
        raise ParameterError(f"DPNET_JOBS must be an integer ≥ 1 or -1 (got {jobs})")
    top = max_workers()
    if jobs > top:
        raise ParameterError(
            f"DPNET_JOBS = {jobs:,} is more worker processes than this machine can hold: each needs about "
            f"{WORKER_BYTES // 2**20} MiB, and its {machine_memory() / 2**30:.1f} GiB hold {top}; "
            f"set DPNET_JOBS to at most {top}"
        )
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
    check_scheduler(address)
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


def close_clients() -> None:
    """Disconnect from every Dask scheduler this process connected to (the cluster keeps running)."""
    while _CLIENTS:
        _, client = _CLIENTS.popitem()
        with contextlib.suppress(Exception):
            client.close(timeout=2)


#: A Dask address: a protocol, a host (a name, an IPv4 address, or an IPv6 one in brackets) and a port.
_ADDRESS = re.compile(r"(tcp|tls|ucx|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})/?")
#: How long a TCP scheduler has to send its greeting.
PROBE_SECONDS = 3.0


def check_scheduler(address: str) -> None:
    """Refuse, within seconds, an address that cannot be a Dask scheduler.

    The address must read ``protocol://host:port``. At a ``tcp://`` address something must answer, and
    answer as a Dask scheduler does: it greets every connection at once with a message (a frame count
    and frame lengths, 8-byte integers), where a web server, say, waits for a request and would leave a
    client hanging.

    Raises
    ------
    ClusterError
        Naming the address and what is wrong with it.
    """
    found = _ADDRESS.fullmatch(address)
    if found is None or not 0 < int(found.group(3)) < 65536:
        raise ClusterError(
            f"{address[:80]!r} is not a Dask scheduler address: write it as tcp://host:port "
            "(DPNET_SCHEDULER or --scheduler)"
        )
    if found.group(1) != "tcp":
        return
    host, port = found.group(2).strip("[]"), int(found.group(3))
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS) as probe:
            probe.settimeout(PROBE_SECONDS)
            greeting = _receive(probe, 16)
    except OSError as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}; check the address, or "
            "unset DPNET_SCHEDULER to run here"
        ) from None
    frames = int.from_bytes(greeting[8:16], "little") if len(greeting) == 16 else 0
    if not 0 < frames < 1024:
        raise ClusterError(
            f"something answers at {address}, but not as a Dask scheduler (no greeting within "
            f"{PROBE_SECONDS:g} s): check the address and port, or unset DPNET_SCHEDULER to run here"
        )


def _receive(sock: socket.socket, size: int) -> bytes:
    """Up to ``size`` bytes from ``sock``, fewer if it closes or goes quiet."""
    data = b""
    while len(data) < size:
        try:
            chunk = sock.recv(size - len(data))
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data


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
                with parallel_config(backend="loky", initializer=watch_parent, initargs=(os.getpid(),)):
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


#: How often a worker process looks whether the process that started it is still alive.
WATCH_SECONDS = 1.0


def watch_parent(parent: int) -> None:
    """Run in each worker process of a sweep as it starts: end the process when ``parent`` (the pid of
    the process that started it) is no longer its parent.

    Worker processes would outlive a chapter's kernel killed outright (SIGKILL gives no process a chance
    to stop its children) and keep computing, or waiting, for nobody. A thread watches the parent's pid
    and ends the worker when it changes (the orphan has been adopted; the pid is passed in, not read, in
    case the parent died before the worker got this far).
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="dpnet-orphan-guard", daemon=True).start()


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
    executor = get_memmapping_executor(slots.count, initializer=watch_parent, initargs=(os.getpid(),))
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
