"""Speed of the privacy–power computations (Chapter 1), printed, not asserted.

Target (issue 2): the full-mode Laplace heat map — 16 (n, p) cells × 100 ε × (5000 + 5000) draws,
for both noise models — in under 10 s on one core. The authors' notebook needs 3–4 minutes.

Run: ``python benchmarks/bench_power.py`` (or ``make bench``).
"""

from __future__ import annotations

import os
import time

import numpy as np

os.environ.setdefault("DPNET_PROGRESS", "0")

from dpnet import power, reference

TARGET_SECONDS = 10.0


def best_of(repeats: int, func) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    eps = np.linspace(0, 5, 100)
    n, p = reference.FIG1_N, reference.FIG1_P
    laplace = best_of(3, lambda: power.laplace_power_grid(n, p, eps, 0.05, 5000, seed=0, n_jobs=1))
    rr = best_of(3, lambda: power.critical_budget_table(eps, power.rr_power_grid(n, p, eps, 0.05), p, 0.05))
    rr_inf = best_of(1, lambda: [power.rr_critical_budget_inf(k, q, 0.05) for k in n for q in p])
    verdict = "meets" if laplace < TARGET_SECONDS else "MISSES"
    print(f"Laplace heat map, full mode, both noise models, 1 core: {laplace:.2f} s "
          f"({verdict} the {TARGET_SECONDS:.0f} s target)")  # fmt: skip
    print(f"Randomized-response heat map (exact, grid argmin):       {rr * 1e3:.1f} ms")
    print(f"Randomized-response exact infima (16 bisections):        {rr_inf * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
