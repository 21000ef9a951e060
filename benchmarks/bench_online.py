"""Speed of Chapter 5 (online-learning), printed, not asserted.

Target (the book's budget): the whole chapter in full mode under 2 minutes on one core. This prints the
full-mode cost of its parts on one core's worth of work: the convergence check, the privacy sweep (every ε on
one set of streams), one graph or arrival-rate curve (the chapter runs six), and the clinical streams.

Run: ``python benchmarks/bench_online.py`` (or ``make bench``); needs the data (mirror or cache).
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

os.environ.setdefault("DPNET_PROGRESS", "0")

from dpnet import inference as inf
from dpnet import networks
from dpnet import survival as sv
from dpnet.chapters import schema
from dpnet.chapters.online_learning.p003_sec4_3 import SWEEP_POINTS
from dpnet.chapters.online_learning.p003_sec4_3_mixing import MIXING_POINTS
from dpnet.survival.streams import patient_changes, stream_information

TARGET_CHAPTER_SECONDS = 120.0


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def main() -> None:
    params = schema("online-learning").params
    R, T, LT = params["replications"].full, params["horizon"].full, params["limit_horizon"].full
    n, m = 10, 3
    rng = np.random.default_rng(0)
    A = networks.metropolis_hastings(networks.make_graph("complete", n)).toarray()
    bern = inf.informative_model(n, m, shift=0.3)
    gauss = inf.informative_model(n, m, kind="gaussian", base=0.0, shift=2.0)
    scales = [0.0] + [inf.noise_scale(bern.sensitivity(), m, e) for e in (0.25, 0.5, 1.0, 2.0, 5.0)]
    times = np.unique(np.geomspace(1, T, SWEEP_POINTS).round()).astype(int)
    fine = np.unique(np.geomspace(1, T, MIXING_POINTS).round()).astype(int)

    def sweep(model: inf.SignalModel, horizon: int, noise: list[float], at: np.ndarray) -> None:
        inf.simulate_online(rng, model, A, xi=1.0, T=horizon, n_reps=R, noise_scales=noise, times=at)

    parts = {
        f"convergence check ({R} runs × {LT} periods)": timed(
            lambda: sweep(gauss, LT, [0.0], np.array([LT]))
        ),
        f"privacy sweep ({len(scales)} scales × {R} runs × {T} periods)": timed(
            lambda: sweep(bern, T, scales, times)
        ),
        "one graph / arrival-rate curve (×6 in the chapter)": timed(
            lambda: sweep(bern, T, scales[3:4], fine)
        ),
    }
    actg = sv.load_actg175()
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    A5 = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()

    def clinical() -> None:
        for v in ("paper", "as_published"):
            stream = sv.period_loglik(ddi.x, ddi.time, ddi.event, centres, np.array([0.0, -math.log(2)]),
                                      period_length=10, variant=v)  # fmt: skip
            inf.online_runs(stream, A5, noise_scale=2.77, n_reps=R, rng=rng)

    parts["ACTG streams, both likelihoods"] = timed(clinical)

    def sensitivity() -> None:
        for change in ("remove", "treatment"):
            patient_changes(ddi.x, ddi.time, ddi.event, centres, np.array([0.0, -math.log(2)]),
                            period_length=10, change=change)  # fmt: skip
        for length in (10.0, None):
            stream_information(ddi.x, ddi.time, ddi.event, centres, 0.0, period_length=length)

    parts["ACTG cut stream: one patient's changes, information"] = timed(sensitivity)
    for name, seconds in parts.items():
        print(f"{name:<62s} {seconds:7.2f} s")
    curves = list(parts.values())
    # cancer streams: about ACTG's cost
    estimate = curves[0] + curves[1] + 6 * curves[2] + 2.5 * curves[3] + curves[4]
    print(f"{'estimated full-mode computation (one core)':<62s} {estimate:7.2f} s "
          f"(target < {TARGET_CHAPTER_SECONDS:.0f} s for the whole chapter)")  # fmt: skip


if __name__ == "__main__":
    main()
