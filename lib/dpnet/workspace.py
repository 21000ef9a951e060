"""Where a chapter runs: its lock, its staging directory, its kernel's files, and the swap into place.

A run of chapter ``<id>`` holds ``results/.locks/<id>.lock`` (an advisory ``flock``) for as long as it
runs, so a second run of the same chapter is refused with the first one's pid instead of silently
racing it. It executes into ``results/.staging-<id>-<pid>-<token>/``; the kernel's connection file lives
in a ``.kernel`` folder inside it, and its IPC sockets (no TCP port) in a short-named folder
``<tmp>/dpnet-kernel-<pid>-<token>/`` (a socket's path must be short), removed with the kernel. On
success the staging directory replaces ``results/<id>/`` (:func:`swap_into_place`, serialised by a lock
so that concurrent swaps never collide); on any failure or interrupt it is removed. Staging left by a
process that is no longer alive (killed with SIGKILL, a power cut), and its socket folder, are swept by
the next run (:func:`sweep_stale`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dpnet.errors import ChapterError

try:  # POSIX; elsewhere runs are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "chapter_lock",
    "kernel_manager",
    "new_staging",
    "shutdown",
    "start_kernel",
    "swap_into_place",
    "sweep_stale",
]

STAGING_PREFIX = ".staging-"
OLD_PREFIX = ".old-"
KERNEL_DIR = ".kernel"
SOCKETS_PREFIX = "dpnet-kernel-"


def _disk_error(action: str, path: Path, exc: OSError) -> ChapterError:
    return ChapterError(f"cannot {action} {path}: {exc.strerror or exc} (errno {exc.errno})")


@contextlib.contextmanager
def _locked(path: Path, *, wait: bool) -> Iterator[int]:
    """Hold an exclusive ``flock`` on ``path``; without ``wait``, raise BlockingIOError when it is taken."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _disk_error("create the lock file", path, exc) from exc
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


@contextlib.contextmanager
def chapter_lock(results: Path, cid: str) -> Iterator[None]:
    """Run chapter ``cid`` alone: a second process asking for the same chapter gets a ChapterError."""
    path = results / ".locks" / f"{cid}.lock"
    try:
        with _locked(path, wait=False) as fd:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
            try:
                yield
            finally:
                os.ftruncate(fd, 0)
    except BlockingIOError:
        holder = path.read_text(encoding="utf-8").strip() or "another process"
        raise ChapterError(
            f"chapter {cid!r} is being run by pid {holder}: wait for it to finish (or stop it) and run again"
        ) from None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _owner(path: Path) -> int | None:
    """The pid in a directory's name: ``.staging-<id>-<pid>-<token>``, ``dpnet-kernel-<pid>-<token>``."""
    parts = path.name.rsplit("-", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def sweep_stale(results: Path) -> list[Path]:
    """Remove the staging directories, swapped-out results (directories, or a file that stood in their
    place) and kernel-socket directories whose process is no longer alive."""
    removed = []
    ours = [*results.glob(f"{STAGING_PREFIX}*"), *results.glob(f"{OLD_PREFIX}*")]
    sockets = Path(tempfile.gettempdir()).glob(f"{SOCKETS_PREFIX}*")  # shared: only those with a dead pid
    for path in sorted([*ours, *sockets]):
        pid = _owner(path)
        if (path.is_dir() or path in ours) and (not _alive(pid) if pid is not None else path in ours):
            _remove(path)
            removed.append(path)
    return removed


def _remove(path: Path) -> None:
    """Remove a directory tree, or a file (what was swapped out may have been a file)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def new_staging(results: Path, cid: str) -> Path:
    """A fresh, empty staging directory for chapter ``cid``, owned by this process."""
    path = results / f"{STAGING_PREFIX}{cid}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        (path / KERNEL_DIR).mkdir(parents=True)
    except OSError as exc:
        shutil.rmtree(path, ignore_errors=True)
        raise _disk_error("create the staging directory", path, exc) from exc
    return path


def kernel_manager(staging: Path, kernel_name: str = "python3") -> Any:
    """A kernel manager whose connection file lives in ``staging/.kernel`` and whose IPC sockets live in
    a fresh short-named folder of the temporary directory (see the module's docstring).

    The caller owns the kernel: shut it down when the run ends (:func:`shutdown`).
    """
    from jupyter_client import AsyncKernelManager

    sockets = Path(tempfile.mkdtemp(prefix=f"{SOCKETS_PREFIX}{os.getpid()}-"))
    km = AsyncKernelManager(
        kernel_name=kernel_name,
        connection_file=str(staging / KERNEL_DIR / "kernel.json"),
        transport="ipc",
        ip=str(sockets / "k"),
    )
    km.dpnet_sockets = sockets
    return km


def start_kernel(km: Any, cwd: Path) -> Path:
    """Start the kernel in ``cwd``, its own output (not the notebook's) going to a log in its folder.

    The notebook's outputs reach the notebook as usual; what the kernel process itself prints (its
    warnings, a crash) goes to the log, whose path is returned, instead of the terminal.
    """
    from jupyter_core.utils import run_sync

    log = Path(km.connection_file).with_name("kernel.log")
    with open(log, "ab") as sink:
        run_sync(km.start_kernel)(cwd=str(cwd), stdout=sink, stderr=sink)
    return log


def shutdown(km: Any) -> None:
    """Shut a kernel down (if it runs) and remove its connection file and sockets."""
    from jupyter_core.utils import run_sync

    with contextlib.suppress(Exception):  # a kernel that died already has nothing left to stop
        if run_sync(km.is_alive)():
            run_sync(km.shutdown_kernel)(now=False)
    with contextlib.suppress(Exception):
        run_sync(km.cleanup_resources)()
    shutil.rmtree(km.dpnet_sockets, ignore_errors=True)


def swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` (both in one directory), one swap at a time."""
    shutil.rmtree(staging / KERNEL_DIR, ignore_errors=True)
    old = target.with_name(f"{OLD_PREFIX}{target.name}-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    with _locked(target.parent / ".locks" / f"swap-{target.name}.lock", wait=True):
        try:
            if target.exists():
                target.rename(old)
            staging.rename(target)
        except OSError as exc:
            if old.exists() and not target.exists():
                old.rename(target)  # put the previous results back
            raise _disk_error("move the new results into", target, exc) from exc
    _remove(old)
