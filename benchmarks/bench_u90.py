"""Pairwise-Preference's U_90: the adaptive curves against the fixed grid they replaced, printed.

Chapter 7 finds Pairwise-Preference's U_90 adaptively (:func:`dpnet.recommender.adaptive_curves`: five
points over 10³–10⁷ users, then three rounds of one point halfway across the crossing) instead of on a
fixed 17-point grid. Both run 20 recoveries per point. This measures, for two settings of E5 (M-asym,
N = 100, ε = 1, w = 25 and 50), each estimator's mean and spread of log₁₀ U_90 over independent seeds,
and the points each evaluates, against a reference crossing from 400 runs per point on a fine grid
around it. It prints the figures; it asserts nothing.

Run: ``python benchmarks/bench_u90.py [--seeds 8]`` (about 4 minutes on one core).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("DPNET_JOBS", "1")
os.environ.setdefault("DPNET_PROGRESS", "0")

import numpy as np

from dpnet import recommender as rc
from dpnet.sweep import Stream

SETTINGS = {w: rc.Setting("pairwise", rc.m_asym(100, w), 1.0) for w in (25, 50)}
RANGE, FIXED_POINTS, TRIALS = (1e3, 1e7), 17, 20
REFERENCE = {25: (1.6e5, 4e5), 50: (7e4, 1.8e5)}  # around the crossing, 7 points
REFERENCE_TRIALS = 400


def main(seeds: int) -> None:
    settings = list(SETTINGS.values())
    start = time.perf_counter()
    reference = []
    for w, setting in SETTINGS.items():
        grid = [np.geomspace(*REFERENCE[w], 7)]
        stream = Stream(7, (55, w), "reference")
        curves = rc.success_curves([setting], grid, trials=REFERENCE_TRIALS, stream=stream)
        reference.append(float(rc.thresholds(curves)[0]))
    fixed, adaptive, points = [], [], {"fixed": 0, "adaptive": 0}
    for seed in range(seeds):
        grid = [np.geomspace(*RANGE, FIXED_POINTS)] * len(settings)
        curves = rc.success_curves(settings, grid, trials=TRIALS, stream=Stream(seed, (99,), "fixed"))
        fixed.append(np.log10(rc.thresholds(curves)))
        points["fixed"] += len(curves)
        curves = rc.adaptive_curves(settings, [RANGE] * len(settings), points=5, rounds=3, trials=TRIALS,
                                    stream=Stream(seed, (98,), "adaptive"))  # fmt: skip
        adaptive.append(np.log10(rc.thresholds(curves)))
        points["adaptive"] += len(curves)
    print(f"Pairwise-Preference U_90, M-asym N = 100, ε = 1, {TRIALS} runs per point, {seeds} seeds")
    print(f"{'w':>4} {'reference':>10} {'fixed grid: bias ± SE (sd)':>30} {'adaptive: bias ± SE (sd)':>30}")
    for k, w in enumerate(SETTINGS):
        ref = np.log10(reference[k])
        cells = []
        for values in (np.asarray(fixed)[:, k], np.asarray(adaptive)[:, k]):
            bias, sd = values.mean() - ref, values.std(ddof=1)
            cells.append(f"{bias:+.3f} ± {sd / np.sqrt(seeds):.3f} ({sd:.3f})")
        print(f"{w:>4} {reference[k]:>10,.0f} {cells[0]:>30} {cells[1]:>30}")
    print("(log₁₀ U_90; a bias of +0.04 is 10 % too many users)")
    per_run = {k: v / seeds / len(settings) for k, v in points.items()}
    print(f"points per curve: fixed {per_run['fixed']:.1f}, adaptive {per_run['adaptive']:.1f}")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    main(parser.parse_args().seeds)
