"""The runner under faults: real signals to a real child process, concurrent runs, data errors, bad
environment. Each ends in one ``error:`` or ``interrupted:`` line, leaves no staging directory and no
kernel file behind, and keeps the previous results."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_book import fake_root

from dpnet import book, workspace
from dpnet.errors import ChapterError

CLI = (
    "import sys; from pathlib import Path; import dpnet.book as b; "
    "b.repo_root = lambda: Path(sys.argv[1]); sys.exit(b.main(sys.argv[2:]))"
)
SLEEPER = "__import__('time').sleep(120)"


def start(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CLI, str(root), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
    )  # fmt: skip


def wait_for_kernel(root: Path, timeout: float = 180.0) -> None:
    """Until the chapter's kernel has started and the chapter has opened its results."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if list((root / "results").glob(".staging-*/metrics.json")):
            time.sleep(0.5)
            return
        time.sleep(0.2)
    raise AssertionError("the chapter never started")


def leftovers(root: Path, *pids: int) -> list[str]:
    """Staging and swapped-out directories and kernel files under ``root``, and the kernel-socket folders
    of the processes ``pids`` (this one's if none: other runs on the machine may own others)."""
    results = root / "results"
    found = [p.name for p in results.glob(".staging-*")] + [p.name for p in results.glob(".old-*")]
    sockets = [
        p for pid in pids or (os.getpid(),) for p in Path(tempfile.gettempdir()).glob(f"dpnet-kernel-{pid}-*")
    ]
    return found + [str(p) for p in results.rglob("kernel.json")] + [str(p) for p in sockets]


@pytest.fixture
def previous(tmp_path: Path) -> tuple[Path, str]:
    """A root whose only chapter ran once (value 41): its metrics.json, to compare after each trial."""
    root = fake_root(tmp_path, "41")
    assert book.run_chapter("reproducibility", root=root) == "ran"
    return root, (root / "results" / "reproducibility" / "metrics.json").read_text()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_ends_in_one_line_and_leaves_nothing(
    previous: tuple[Path, str], sig: int, code: int
) -> None:
    root, before = previous
    fake_root(root, SLEEPER)
    tmp_json = set(Path("/tmp").glob("tmp*.json"))
    child = start(root, "run", "reproducibility", "--force")
    wait_for_kernel(root)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1] == "interrupted: reproducibility not run, previous results kept", err
    assert "Traceback" not in err
    assert leftovers(root, child.pid) == []
    assert set(Path("/tmp").glob("tmp*.json")) <= tmp_json  # no kernel connection file of ours
    assert (root / "results" / "reproducibility" / "metrics.json").read_text() == before


def test_a_second_run_of_the_same_chapter_is_refused(previous: tuple[Path, str]) -> None:
    root, before = previous
    fake_root(root, SLEEPER)
    first = start(root, "run", "reproducibility", "--force")
    try:
        wait_for_kernel(root)
        second = subprocess.run(
            [sys.executable, "-c", CLI, str(root), "run", "reproducibility", "--force"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 2
        assert second.stderr.strip().splitlines()[-1] == (
            f"error: chapter 'reproducibility' is being run by pid {first.pid}: wait for it to finish "
            "(or stop it) and run again"
        )
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    assert (
        leftovers(root) == []
        and (root / "results" / "reproducibility" / "metrics.json").read_text() == before
    )


def test_a_killed_run_is_swept_by_the_next(previous: tuple[Path, str]) -> None:
    root, _ = previous
    fake_root(root, SLEEPER)
    child = start(root, "run", "reproducibility", "--force")
    wait_for_kernel(root)
    child.kill()  # SIGKILL: no chance to clean up
    child.communicate(timeout=60)
    assert leftovers(root, child.pid)  # its staging and the kernel's files are still there
    fake_root(root, "42")
    assert book.run_chapter("reproducibility", root=root, force=True) == "ran"
    assert leftovers(root, child.pid) == [] and leftovers(root) == []
    assert json.loads((root / "results" / "reproducibility" / "metrics.json").read_text())["value"] == 42


def test_a_data_error_is_shown_whole(previous: tuple[Path, str]) -> None:
    root, before = previous
    message = (
        "dataset 'actg175': the mirror copy fails its sha256 checksum\\n  expected sha256: e063\\n"
        "  actual sha256:   0000\\nThe cached copy is corrupted: delete it and fetch again.\\n"
        "To provide the file by hand, download it from URL"
    )
    body = f"__import__('dpnet.errors').errors.DataError(\"{message}\")"
    fake_root(root, f"(_ for _ in ()).throw({body})")
    with pytest.raises(ChapterError) as info:
        book.run_chapter("reproducibility", root=root, force=True)
    message = str(info.value)
    for part in ("fails its sha256 checksum", "expected sha256: e063", "actual sha256:   0000",
                 "delete it and fetch again", "To provide the file by hand"):  # fmt: skip
        assert part in message, message
    assert (
        leftovers(root) == []
        and (root / "results" / "reproducibility" / "metrics.json").read_text() == before
    )


def test_a_bad_jobs_environment_stops_before_any_kernel(previous: tuple[Path, str]) -> None:
    root, _ = previous
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(root), "run", "reproducibility", "--force"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "DPNET_JOBS": "abc"},
    )  # fmt: skip
    assert proc.returncode == 2  # and nothing started: no "[reproducibility] running" line, no staging
    assert proc.stderr.strip().splitlines() == ["error: DPNET_JOBS must be an integer ≥ 1 or -1 (got 'abc')"]
    assert not list((root / "results").glob(".staging-*"))


def _swap_many(target: str, rounds: int, errors: multiprocessing.Queue) -> None:
    for k in range(rounds):
        staging = workspace.new_staging(Path(target).parent, "demo")
        (staging / "value").write_text(f"{os.getpid()}-{k}")
        try:
            workspace.swap_into_place(staging, Path(target))
        except Exception as exc:
            errors.put(repr(exc))


def test_concurrent_swaps_never_collide(tmp_path: Path) -> None:
    target = tmp_path / "results" / "demo"
    target.parent.mkdir()
    errors: multiprocessing.Queue = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=_swap_many, args=(str(target), 300, errors)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    found = [errors.get() for _ in range(errors.qsize())]
    assert found == []
    assert (target / "value").exists() and leftovers(tmp_path) == []


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


@pytest.fixture
def mounted(previous: tuple[Path, str]) -> Iterator[tuple[Path, str, list[Path]]]:
    """The root of ``previous``; each test mounts something over its results/, unmounted afterwards."""
    points: list[Path] = []
    yield (*previous, points)
    for point in reversed(points):
        subprocess.run(["umount", "-l", str(point)], capture_output=True, check=False)


def test_read_only_results_end_in_one_error_line(mounted: tuple[Path, str, list[Path]]) -> None:
    root, before, points = mounted
    results = root / "results"
    if os.geteuid() != 0 or not _mount("--bind", str(results), str(results)):
        pytest.skip("needs root and mount (a read-only bind mount of results/)")
    points.append(results)
    if not _mount("-o", "remount,bind,ro", str(results)):
        pytest.skip("this machine refuses a read-only remount")
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(root), "run", "reproducibility", "--force"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: cannot create the lock file ") and "Read-only file system" in last, last
    assert str(results) in last
    assert (results / "reproducibility" / "metrics.json").read_text() == before


def test_a_full_disk_ends_in_one_error_line_and_frees_what_it_wrote(
    mounted: tuple[Path, str, list[Path]],
) -> None:
    root, before, points = mounted
    results = root / "results"
    saved = root / "saved"
    shutil.copytree(results, saved)
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(results)):
        pytest.skip("needs root and mount (a 2 MiB tmpfs for results/)")
    points.append(results)
    shutil.copytree(saved, results, dirs_exist_ok=True)
    fake_root(root, "open(__import__('os').environ['DPNET_RESULTS_DIR'] + '/big', 'wb').write(b'0' * 10**7)")
    free = shutil.disk_usage(results).free
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(root), "run", "reproducibility", "--force"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    (error,) = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert error.startswith("error: chapter 'reproducibility' failed") and "No space left on device" in error
    assert str(results) in proc.stderr  # the details name where it could not write
    assert leftovers(root) == [] and shutil.disk_usage(results).free >= free - 64 * 1024
    assert not [
        p for p in results.rglob("*") if p.is_file() and p.stat().st_size == 0 and "_failed" in p.parts
    ]
    assert (results / "reproducibility" / "metrics.json").read_text() == before


def test_the_sweep_removes_only_what_a_dead_run_left(tmp_path: Path) -> None:
    results = tmp_path / "results"
    dead = 2**22 + 12345  # above the kernel's pid_max default: no such process
    mine = workspace.new_staging(results, "demo")
    stale = results / f".staging-demo-{dead}-abcdef12"
    stale.mkdir()
    sockets = Path(tempfile.mkdtemp(prefix=f"dpnet-kernel-{dead}-"))
    other = Path(tempfile.mkdtemp(prefix="dpnet-something-else-"))  # not ours: never touched
    try:
        assert set(workspace.sweep_stale(results)) == {stale, sockets}
        assert mine.is_dir() and other.is_dir() and not stale.exists() and not sockets.exists()
    finally:
        shutil.rmtree(other, ignore_errors=True)
        shutil.rmtree(mine, ignore_errors=True)
