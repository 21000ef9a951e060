"""Speed of the privacy–power computations (Chapter 1), printed, not asserted.

Target: one Laplace heat map — 16 (n, p) cells × 100 ε × (5000 + 5000) draws, for both
noise models — in under 10 s on one core. Full mode repeats that heat map ``mc_repeats`` times
(the chapter's full-mode default), so its time is printed too.

Run: ``python benchmarks/bench_power.py`` (or ``make bench``).
"""

from __future__ import annotations

import os
import time

import numpy as np

os.environ.setdefault("DPNET_PROGRESS", "0")

from dpnet import power, reference
from dpnet.chapters import schema
from dpnet.sweep import Stream

TARGET_SECONDS = 10.0


def best_of(repeats: int, func) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    full = schema("power-tradeoff").params
    samples, runs = full["mc_samples"].default_for("full"), full["mc_repeats"].default_for("full")
    eps = np.linspace(0, 5, 100)
    n, p = reference.dilemma.FIG1_N, reference.dilemma.FIG1_P

    def heat_maps(repeats: int) -> None:
        power.laplace_power_grid(n, p, eps, 0.05, samples, stream=Stream(0, ()), repeats=repeats, n_jobs=1)

    one = best_of(3, lambda: heat_maps(1))
    full_mode = best_of(1, lambda: heat_maps(runs))
    rr = best_of(3, lambda: power.critical_budget_table(eps, power.rr_power_grid(n, p, eps, 0.05), p, 0.05))
    rr_inf = best_of(1, lambda: power.rr_critical_budget_inf_grid(n, p, 0.05))
    rr_rand = best_of(1, lambda: power.rr_critical_budget_inf_grid(n, p, 0.05, randomized=True))
    rr_printed = best_of(1, lambda: power.rr_critical_budget_as_printed_grid(n, p, 0.05))
    curve = np.arange(1, 2 * max(n) + 1)
    rr_curves = best_of(
        1,
        lambda: [power.rr_critical_budget_inf_grid(curve, p, 0.05, randomized=r) for r in (False, True)],
    )
    verdict = "meets" if one < TARGET_SECONDS else "MISSES"
    rows = [
        ("Laplace heat map, one run, both noise models, 1 core", f"{one:.2f} s "
         f"({verdict} the {TARGET_SECONDS:.0f} s target)"),
        (f"Laplace heat maps, full mode ({runs} runs), 1 core", f"{full_mode:.2f} s"),
        ("Randomized-response heat map (exact, grid argmin)", f"{rr * 1e3:.1f} ms"),
        (f"Randomized-response exact infima ({len(n) * len(p)} bisections)", f"{rr_inf * 1e3:.1f} ms"),
        ("The same, randomised boundary", f"{rr_rand * 1e3:.1f} ms"),
        ("Eq. (2) as printed (quantile form), the same cells", f"{rr_printed * 1e3:.1f} ms"),
        (f"ε*_RR curves over n = 1…{curve[-1]}, both tests", f"{rr_curves * 1e3:.1f} ms"),
    ]  # fmt: skip
    for label, value in rows:
        print(f"{label + ':':<56} {value}")


if __name__ == "__main__":
    main()
