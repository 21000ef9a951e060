"""The machine's cores, shared between the chapters a build runs at once.

A build with ``--jobs N`` runs up to ``N`` chapters side by side. It makes ``N`` core slots (lock files in
the directory ``DPNET_CORE_SLOTS`` names) and each running chapter holds one, for its own work. A
chapter's Monte Carlo sweep (:func:`dpnet.sweep.sweep`) also borrows every slot nobody holds, as slots
free up, and keeps that many more of its tasks running at once: when the other chapters are done, the
last one gets every core. Slots are ``flock`` locks, so a process that dies frees its slots with it.

Results do not depend on this: each task has its own random stream, and results are put back in task
order, whatever ran where and when.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "ENV",
    "WORKER_BYTES",
    "Slots",
    "chapter_slot",
    "machine_memory",
    "max_workers",
    "shared",
    "slots_from_env",
]

#: The environment variable naming the slot directory of the build in progress.
ENV = "DPNET_CORE_SLOTS"
#: How often a chapter waiting for a core looks again.
POLL_SECONDS = 0.2
#: The memory a worker process of a sweep holds before its first task: the interpreter, NumPy, SciPy and
#: the library (a loky worker that imported NumPy, SciPy, pandas and the inference package held 216 MiB
#: resident on this machine), rounded up.
WORKER_BYTES = 256 * 2**20


def machine_memory() -> int:
    """Bytes of memory this process may use: the physical memory, or the cgroup's limit when lower."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        with open("/sys/fs/cgroup/memory.max") as handle:
            limit = handle.read().strip()
        if limit.isdigit():
            total = min(total, int(limit))
    except OSError:
        pass
    return total


def max_workers() -> int:
    """The most worker processes this machine can hold: its memory over :data:`WORKER_BYTES`."""
    return max(1, machine_memory() // WORKER_BYTES)


class Slots:
    """``count`` core slots: lock files ``slot-<k>.lock`` in ``directory`` (see :meth:`create`).

    Parameters
    ----------
    directory
        Where the lock files live.
    count
        How many cores the build may use.
    """

    def __init__(self, directory: Path, count: int) -> None:
        self.directory, self.count = Path(directory), count

    @classmethod
    def create(cls, directory: Path, count: int) -> Slots:
        """Make ``count`` slots (their lock files and the count) in ``directory``."""
        if count < 1:
            raise ValueError(f"count must be at least 1 (got {count})")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        for k in range(count):
            (directory / f"slot-{k}.lock").touch()
        (directory / "count").write_text(f"{count}\n", encoding="utf-8")
        return cls(directory, count)

    def _try(self, k: int) -> int | None:
        fd = os.open(self.directory / f"slot-{k}.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return fd

    def borrow(self, most: int) -> list[int]:
        """Take up to ``most`` free slots without waiting; returns their handles (maybe none)."""
        taken: list[int] = []
        for k in range(self.count):
            if len(taken) >= most:
                break
            fd = self._try(k)
            if fd is not None:
                taken.append(fd)
        return taken

    def hold_one(self) -> int:
        """Wait for a slot and take it (a chapter's own core); returns its handle."""
        while not (fds := self.borrow(1)):
            time.sleep(POLL_SECONDS)  # every core is busy: a sweep gives its borrowed ones back soon
        return fds[0]

    @staticmethod
    def release(handles: list[int]) -> None:
        """Give slots back."""
        while handles:
            os.close(handles.pop())  # closing the descriptor drops its lock


def slots_from_env() -> Slots | None:
    """The slots of the build this process runs in, or None outside a build."""
    directory = os.environ.get(ENV)
    if not directory:
        return None
    try:
        count = int((Path(directory) / "count").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Slots(Path(directory), count)


@contextlib.contextmanager
def shared(count: int, directory: Path) -> Iterator[Slots]:
    """Share ``count`` cores among the processes started inside (they inherit ``DPNET_CORE_SLOTS``).

    The slots live in ``directory`` (a fresh temporary directory), which is removed on the way out.
    """
    slots = Slots.create(directory, count)
    os.environ[ENV] = str(directory)
    try:
        yield slots
    finally:
        os.environ.pop(ENV, None)
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def chapter_slot() -> Iterator[None]:
    """Hold one slot for a chapter while it runs (nothing outside a build)."""
    slots = slots_from_env()
    if slots is None:
        yield
        return
    handle = [slots.hold_one()]
    try:
        yield
    finally:
        Slots.release(handle)
