"""Speed of Chapter 6 (distributed-estimation), printed, not asserted.

Targets (the book's budget): one T = 100 run on the 4941-node US grid and one T = 1096 run on the 969-node
German graph each well under a second; the chapter's full mode under 2 minutes on 2 cores. The authors'
published script needs about 12 minutes (wall clock, 2 cores) for Figure 7's US panel alone, because it
advances one run at a time with a dense 4941 × 4941 matrix. This benchmark times such a dense,
one-run-at-a-time loop on a few runs, extrapolates it to the panel's 320 runs (4 mechanisms × 8 ε × 10 draws),
and prints the ratio to this library's sparse, stacked computation of the same panel.

Run: ``python benchmarks/bench_estimation.py`` (or ``make bench``); needs the data (mirror or cache).
"""

from __future__ import annotations

import time

import numpy as np

from dpnet import estimation as est

EPS = [2.0**k for k in range(-4, 4)]
DRAWS = 10


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def dense_run(A: np.ndarray, xi: np.ndarray, scales: np.ndarray, rng: np.random.Generator, T: int) -> None:
    """Algorithm 4 and its twin, one run, dense matrix–vector products (the authors' script's cost)."""
    nu = np.zeros(A.shape[0])
    mu = np.zeros(A.shape[0])
    for t in range(1, T + 1):
        d = rng.laplace(0.0, scales[:, t - 1])
        nu = (t - 1) / t * (A @ nu) + (xi[:, t - 1] + d) / t
        mu = (t - 1) / t * (A @ mu) + xi[:, t - 1] / t


def main() -> None:
    rng = np.random.default_rng(0)
    data = {name: est.load_dataset(name, np.random.default_rng(1)) for name in est.DATASETS}
    print("one run of each mechanism (non-private twin included), authors' calibration, ε = 1, median of 3:")
    for d in data.values():
        for mech in est.MECHANISMS:
            seconds = []
            for _ in range(3):
                start = time.perf_counter()
                est.private_run(d, mech, [1.0], rng, delta=0.01, calibration="authors_code")
                seconds.append(time.perf_counter() - start)
            seconds = float(np.median(seconds))
            print(f"  {d.label:18s} n = {d.n:5d}, T = {d.horizon:5d}, {mech:6s}: {seconds:6.3f} s")

    us = data["us_power_grid"]
    sparse_panel = timed(lambda: est.error_vs_epsilon(
        us, list(est.MECHANISMS), EPS, [np.random.default_rng(k) for k in range(4)], delta=0.01,
        calibration="authors_code", n_draws=DRAWS))  # fmt: skip
    A = us.weights.toarray()
    scales = est.smooth_scales("signal", us.signals, 1.0, delta=0.01, calibration="authors_code")
    k = 3
    dense = timed(lambda: [dense_run(A, us.xi, scales, rng, us.horizon) for _ in range(k)]) / k
    runs = len(est.MECHANISMS) * len(EPS) * DRAWS
    print(f"Figure 7, US panel ({runs} runs), sparse and stacked: {sparse_panel:.1f} s")
    print(
        f"dense one-run-at-a-time loop: {dense:.2f} s per run (mean of {k}), "
        f"{dense * runs:.0f} s extrapolated"
    )
    print(f"ratio dense / this library: {dense * runs / sparse_panel:.0f}×")

    german = data["german_households"]
    both = timed(lambda: [est.error_vs_epsilon(
        d, list(est.MECHANISMS), EPS, [np.random.default_rng(k) for k in range(4)], delta=0.01,
        calibration=cal, n_draws=DRAWS) for d in (us, german)
        for cal in ("paper", "authors_code")])  # fmt: skip
    print(f"Figure 7, both networks and both calibrations (the chapter's sweep): {both:.1f} s")
    facts = timed(lambda: est.graph_facts(us.graph, us.weights))
    print(f"US graph facts (dense eigenvalues of a 4941 × 4941 matrix): {facts:.1f} s")


if __name__ == "__main__":
    main()
