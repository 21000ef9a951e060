"""Speed of Chapter 4 (treatment-identification), printed, not asserted.

The book's targets: the whole chapter in full mode under 5 minutes on 2 cores (here: on one), encryption
timings included; the DP test for n = 96 centres and 40,960 rows under 1 s on one core (the top of the
range paper 003 §14.3 reports, the chapter's headline check for Figure 14.2). This prints the full-mode
cost of each part: one Figure 6 point (1000 replications, both variants), the best-arm curve, and the
runtime study (which is itself a measurement, one core: the cancer cohort with encryption, ACTG 175
without).

Run: ``python benchmarks/bench_treatment.py`` (or ``make bench``); needs the data (mirror or cache).
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

os.environ.setdefault("DPNET_PROGRESS", "0")

from dpnet import encrypted, networks, runtime
from dpnet import survival as sv
from dpnet.chapters import schema
from dpnet.survival import comparison, treatments

TARGET_CHAPTER_SECONDS = 300.0
TARGET_DP_SECONDS = 1.0


def timed(func) -> tuple[float, object]:
    start = time.perf_counter()
    out = func()
    return time.perf_counter() - start, out


def main() -> None:
    params = schema("treatment-identification").params
    R = params["replications"].full
    actg = sv.load_actg175()
    ddi = sv.arm_cohort(actg, "ddI")
    cohort = dict(x=ddi.x.to_numpy(float), time=ddi.time.to_numpy(float), event=ddi.event.to_numpy(float),
                  row_index=ddi.index.to_numpy())  # fmt: skip
    n_values, eps_values = [10, 15, 20], [0.1, 0.35, 0.6, 0.85, 1.1, 1.35, 1.6]
    point = {}
    for variant in comparison.VARIANTS:
        task = comparison.ComparisonTask(
            **cohort, n_centres=20, eps=0.6, variant=variant, theta_alt=-math.log(2), alpha=0.1, rho=0.1,
            period_length=10, lr=0.001, b_theta=1.0, n_reps=R,
        )  # fmt: skip
        point[variant], _ = timed(lambda task=task: comparison.tvd_comparison(task, np.random.default_rng(0)))
    fig6 = sum(point.values()) * len(n_values) * len(eps_values)

    centres = sv.cohort_centres(actg.index.to_numpy(), 5)
    table, _ = treatments.arm_glrt_table(actg, centres, penalizer=0.05)
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star = networks.spectral_constants(A).a_star
    target = np.array([False, True, False, False])

    def curve_point() -> None:
        paper = sv.code_schedule(table, a_star=a_star, delta=2.0, eps=1.0, alpha=0.05, rho=math.log(3),
                                 convention="paper")  # fmt: skip
        sv.mle_study(table, A, paper, rho=math.log(3), target=target, freq=0.25, n_reps=R,
                     rng_demo=np.random.default_rng(1), rng_mc=np.random.default_rng(2),
                     trajectories=False)  # fmt: skip
        sched = treatments.published_schedule(2.0, 1.0, K=10, T=1000)
        sv.mle_study(table, A, sched, rho=math.log(3), target=target, freq=0.25, n_reps=R,
                     rng_demo=np.random.default_rng(1), rng_mc=np.random.default_rng(2), noise="reseeded",
                     trajectories=False)  # fmt: skip

    one_eps, _ = timed(curve_point)
    curve = one_eps * 9

    tmb = sv.tmb_cohort(sv.load_samstein2019(), "top10")
    task = runtime.RuntimeTask(x=tmb.x.to_numpy(float), time=tmb.time.to_numpy(float),
                               event=tmb.event.to_numpy(float), rows=40960, n_values=(96,),
                               repeats=params["runtime_repeats"].full, theta_alt=math.log(0.15),
                               with_he=encrypted.tenseal_available())  # fmt: skip
    biggest, records = timed(lambda: runtime.runtime_task(task, np.random.default_rng(0)))
    dp_total = next(
        r["seconds"] for r in records if r["method"] == runtime.METHODS[0] and r["phase"] == "total"
    )
    runtime_study = (biggest + dp_total * task.repeats) * 5 * 3  # an upper bound: 5 n values × 3 sizes,
    # the cancer cohort with encryption and ACTG 175 without

    total = fig6 + curve + runtime_study  # on one core: DPNET_JOBS=2 would spread Figure 6 over two
    rows = [
        (f"Figure 6, one point (n = 20, ε = 0.6, {R} reps), paper", f"{point['paper']:.2f} s"),
        (f"Figure 6, one point (n = 20, ε = 0.6, {R} reps), as published", f"{point['as_published']:.2f} s"),
        ("Figure 6, all 42 points (estimate, 1 core)", f"{fig6:.1f} s"),
        ("Best-arm curve, all 9 ε, both noises (estimate)", f"{curve:.1f} s"),
        ("Runtime study, largest point (n = 96, 40,960 rows)", f"{biggest:.1f} s"),
        ("DP test total at n = 96, 40,960 rows (median)",
         f"{dp_total:.3f} s ({'meets' if dp_total < TARGET_DP_SECONDS else 'MISSES'} the 1 s target)"),
        ("Chapter in full mode, 1 core (upper estimate)",
         f"{total:.0f} s ({'meets' if total < TARGET_CHAPTER_SECONDS else 'MISSES'} the 300 s target)"),
    ]  # fmt: skip
    for label, value in rows:
        print(f"{label + ':':<62} {value}")


if __name__ == "__main__":
    main()
