"""Cores shared between the chapters of a build: a sweep uses the cores the others leave free."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from dpnet import cores
from dpnet.sweep import Stream, sweep

HOLD = "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(float(sys.argv[2]))"  # noqa: E501


def _hold(path: Path, seconds: float) -> subprocess.Popen:
    """Another process (another chapter) holding a slot for ``seconds``."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    return child


def _timed(task: int, rng: np.random.Generator) -> tuple[float, float, float]:
    start = time.monotonic()  # system-wide on Linux: comparable across processes
    time.sleep(0.15)
    return start, time.monotonic(), float(rng.random())


def _most_at_once(spans: list[tuple[float, float]], after: float = -np.inf) -> int:
    events = sorted([(s, 1) for s, e in spans if e > after] + [(e, -1) for s, e in spans if e > after])
    level = most = 0
    for _, step in events:
        level += step
        most = max(most, level)
    return most


@pytest.fixture
def slots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> cores.Slots:
    monkeypatch.delenv("DPNET_JOBS", raising=False)
    monkeypatch.setenv(cores.ENV, str(tmp_path))
    return cores.Slots.create(tmp_path, 3)


def test_borrow_takes_only_free_slots_and_release_gives_them_back(slots: cores.Slots) -> None:
    child = _hold(slots.directory / "slot-1.lock", 30)
    try:
        taken = slots.borrow(5)
        assert len(taken) == 2  # 3 slots, one held elsewhere
        assert slots.borrow(1) == []  # ours now: nothing left
        cores.Slots.release(taken)
        again = slots.borrow(5)
        assert len(again) == 2
        cores.Slots.release(again)
    finally:
        child.kill()
        child.wait()
    taken = slots.borrow(5)
    assert len(taken) == 3  # a dead holder frees its slot
    cores.Slots.release(taken)


def test_a_sweep_uses_every_free_core_and_gives_the_same_results(slots: cores.Slots) -> None:
    tasks = list(range(12))
    stream = Stream(5, (1,), "cores-test")
    with cores.chapter_slot():
        shared = sweep(_timed, tasks, stream)
    os.environ.pop(cores.ENV)
    alone = sweep(_timed, tasks, stream, n_jobs=1)
    assert [r[2] for r in shared.values()] == [r[2] for r in alone.values()]  # same draws, same order
    assert _most_at_once([r[:2] for r in shared.values()]) == 3  # its own core and the two free ones


def test_a_sweep_borrows_a_core_when_another_chapter_frees_it(slots: cores.Slots) -> None:
    sweep(_timed, [0, 1, 2], Stream(5, (3,), "warm-up"))  # start the worker processes first
    holders = [_hold(slots.directory / f"slot-{k}.lock", 3.0) for k in (1, 2)]  # two chapters still running
    try:
        freed = time.monotonic() + 3.0
        with cores.chapter_slot():  # this chapter's own core (slot 0, the one left)
            out = sweep(_timed, list(range(48)), Stream(5, (2,), "cores-test"))
    finally:
        for child in holders:
            child.wait()
    spans = [r[:2] for r in out.values()]
    assert _most_at_once([s for s in spans if s[1] < freed - 0.1]) == 1  # alone while the others ran
    assert _most_at_once(spans, after=freed + 0.4) >= 2  # then on the freed cores


def test_outside_a_build_nothing_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cores.ENV, raising=False)
    assert cores.slots_from_env() is None
    with cores.chapter_slot():
        pass
