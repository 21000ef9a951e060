"""The book's figure ``est-naive-noise``: Algorithm 3 against fresh noise every round, with unit Laplace
noise, against the exact root mean squares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import estimation as est
from dpnet import plotting
from dpnet.chapters.distributed_estimation._common import sizes
from dpnet.params import Cost, Parameters
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["NaiveNoise", "cost", "naive_noise"]

#: Seconds of one node-round-column of the naive-noise runs (2 runs × 21 columns), measured on one core.
_NAIVE_SECONDS = 1e-7


def cost(values: Mapping[str, Any]) -> Cost:
    """Time of :func:`naive_noise`: ``42·10⁻⁷·n·T`` seconds on the households (or the run's first
    dataset), two runs of 21 columns (the statistic and 20 draws). At horizon = 2000 they took 8.8 s.
    Its arrays are small beside the sample paths' (no memory counted)."""
    n_T = sizes(values)
    naive_n, naive_T = n_T["german_households" if "german_households" in n_T else next(iter(n_T))]
    return Cost(seconds=2 * 21 * _NAIVE_SECONDS * naive_n * naive_T)


@dataclass(frozen=True)
class NaiveNoise:
    """Algorithm 3 against fresh noise every round, with unit Laplace noise (20 draws each)."""

    label: str
    times: NDArray[np.int64]
    rms: Mapping[str, NDArray[np.float64]]
    exact: Mapping[str, NDArray[np.float64]]
    slope: float
    paper_setting: bool = True

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, Any]:
        return {}

    def figure(self) -> Figure:
        fig, ax = plotting.panel_row(1, width=5.5, height=3.4)
        labels = {"naive": ("fresh noise every round", "C3"), "once": ("noise once (Algorithm 3)", "C0")}
        for key, (label, colour) in labels.items():
            ax[0].plot(self.times, self.rms[key], color=colour, label=f"{label}, 20 draws")
            ax[0].plot(self.times, self.exact[key], ":", color="0.2")
        ax[0].plot([], [], ":", color="0.2", label="exact RMS")
        ax[0].set(xscale="log", yscale="log", xlabel="t", ylabel="RMS of ‖ν_t − μ_t‖₂",
                  title=f"{self.label}, Lap(1) noise")  # fmt: skip
        ax[0].legend(fontsize=plotting.SMALL)
        return fig


def naive_noise(P: Parameters, nets: Networks) -> NaiveNoise:
    """Cost of privacy of fresh noise every round and of noise once, on the German households (or the run's
    first dataset), from one generator of the stream ``naive-noise``."""
    name = "german_households" if "german_households" in nets.data else nets.names[0]
    data, lam = nets.data[name], nets.facts[name].eigenvalues
    rng = P.rng("naive-noise")
    unit = np.ones((1, data.n))  # Lap(1): sensitivity 1 at ε = 1
    runs = {
        "naive": est.simulate(
            "mvue_naive", data.weights, data.xi, unit, rng, horizon=data.horizon, n_draws=20
        ),
        "once": est.simulate("mvue", data.weights, data.xi, unit, rng, horizon=data.horizon, n_draws=20),
    }
    t = runs["naive"].times[1:]
    rms = {k: np.sqrt(np.mean(run.cost_of_privacy()[1:, 0] ** 2, axis=-1)) for k, run in runs.items()}
    exact = {
        "naive": np.sqrt(2.0 * np.array([est.naive_noise_moment(lam, int(s)) for s in t])),
        "once": np.sqrt(2.0 * np.array([est.mvue_moments(lam, int(s))[0] for s in t])),
    }
    slope = est.loglog_slope(t, rms["naive"], t[-1] / 10, t[-1])
    return NaiveNoise(data.label, t, rms, exact, slope)
