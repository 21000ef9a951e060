"""Sweeps on a Dask distributed cluster: identical results to a local run, and a clear error when
the scheduler cannot be reached."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from dpnet import chapters, power
from dpnet.errors import ClusterError
from dpnet.sweep import Stream, cluster_client

distributed = pytest.importorskip("distributed", reason='dask.distributed is not installed (extra "cluster")')


def _laplace_grid() -> dict:
    """Chapter 1's Laplace power sweep (Figure 2), at a small size."""
    P = chapters.resolve("power-tradeoff", {"mode": "quick"})
    return power.laplace_power_grid(
        [25, 50], [0.6, 0.8], np.linspace(0.1, 2.0, 5), P.alpha, 500,
        stream=Stream(P.seed, (7,), "cluster-test"), repeats=2,
    )  # fmt: skip


def test_a_sweep_on_a_local_cluster_matches_the_local_run_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = _laplace_grid()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        monkeypatch.setenv("DPNET_SCHEDULER", cluster.scheduler_address)
        client = cluster_client(cluster.scheduler_address)
        try:
            remote = _laplace_grid()
            assert len(client.scheduler_info()["workers"]) == 2
        finally:
            client.close()
    assert local.keys() == remote.keys()
    for variant in local:
        for a, b in zip(local[variant], remote[variant], strict=True):
            assert a.tobytes() == b.tobytes()


def test_an_unreachable_scheduler_is_a_clear_error_within_seconds() -> None:
    start = time.monotonic()
    with pytest.raises(ClusterError, match=r"tcp://127\.0\.0\.1:9\b"):
        cluster_client("tcp://127.0.0.1:9")
    assert time.monotonic() - start < 15


def test_the_runner_names_the_unreachable_scheduler_in_one_error_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dpnet.book", "run", "power-tradeoff", "--scheduler", "tcp://127.0.0.1:9"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9"
    )
