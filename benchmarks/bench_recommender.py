"""Speed of Chapter 7 (recommender-maxsense), printed, not asserted.

The target: simulators that reach millions of users (E5 runs up to 10⁷). The aggregate simulators draw
the server's sufficient statistics directly, so their cost does not grow with the number of users U; the
per-user simulators (kept for checking) grow linearly. This prints the time of one draw of each at
several U, and the speed-up of the aggregate over the per-user simulator at the largest U both can run.

Run: ``python benchmarks/bench_recommender.py`` (or ``make bench``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from dpnet import recommender as rc


def median_time(func: Callable[..., object], *args: object, **kwargs: object) -> float:
    """Median wall time of three calls ``func(*args, **kwargs)``."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        func(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    rng = np.random.default_rng(0)
    model = rc.m_asym(100, 10)
    labels = rc.item_labels(model, rng)
    print("MaxSense scores, M-asym N = 100, w = 10, ε = 1 (median of 3)")
    header = ("users", "aggregate (s)", "per user (s)", "w-subset, aggregate (s)", "w-subset, per user (s)")
    print(" ".join(f"{h:>{n}}" for h, n in zip(header, (12, 14, 13, 24, 23), strict=True)))
    for users in (10**4, 10**5, 10**6, 10**7, 10**9):
        args = (model, labels, users, 1.0, rng)
        agg = median_time(rc.maxsense_scores, *args)
        sub_agg = median_time(rc.maxsense_scores_subset, *args)
        if users <= 10**6:
            per = median_time(rc.maxsense_scores_per_user, *args)
            sub = median_time(rc.maxsense_scores_per_user, *args, ratings="subset")
            print(f"{users:>12,} {agg:>14.5f} {per:>13.3f} {sub_agg:>24.5f} {sub:>23.3f}   aggregates "
                  f"{per / agg:,.0f}× and {sub / sub_agg:,.0f}× faster")  # fmt: skip
        else:
            print(f"{users:>12,} {agg:>14.5f} {'—':>13} {sub_agg:>24.5f} {'—':>23}")
    print("\nPairwise-Preference, one recovery (matrix, eigendecomposition, k-means), M-sym, w = N, U = 10⁶")
    for n in (50, 100, 200, 400):
        setting = rc.Setting("pairwise", rc.m_sym(n, n), 1.0)
        print(f"  N = {n:>3}: {median_time(rc.recover, setting, 10**6, rng):.4f} s")
    sym = rc.m_sym(100, 30)
    labels = rc.item_labels(sym, rng)
    agg = median_time(lambda: rc.pairwise_matrix(sym, labels, 10**6, 1.0, rng))
    per = median_time(lambda: rc.pairwise_matrix_per_user(sym, labels, 10**6, 1.0, rng))
    print(
        f"  pair matrix at U = 10⁶, N = 100: aggregate {agg:.4f} s, per user {per:.3f} s ({per / agg:,.0f}×)"
    )


if __name__ == "__main__":
    main()
