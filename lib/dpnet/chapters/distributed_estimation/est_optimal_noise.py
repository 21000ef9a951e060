"""The book's figure and table ``est-optimal-noise``: Laplace and three other zero-mean noise densities
at Δ = ε = 1, which are ε-DP and at what variance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import estimation as est
from dpnet import plotting
from dpnet.estimation import NoiseDensity
from dpnet.params import Cost
from dpnet.results import Check

__all__ = ["NoiseComparison", "cost", "optimal_noise"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing to count: :func:`optimal_noise` evaluates four densities in closed form (negligible)."""
    return Cost()


@dataclass(frozen=True)
class NoiseComparison:
    """Laplace and three other zero-mean noise densities at Δ = ε = 1: which are ε-DP, at what variance."""

    densities: tuple[NoiseDensity, ...]
    paper_setting: bool = True

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    @property
    def table(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "density (Δ = ε = 1)": d.name, "ε-DP": d.is_dp(1.0, 1.0), "variance": d.variance,
            "variance / Laplace": d.variance / 2.0,
        } for d in self.densities])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"est-optimal-noise": self.table}

    def figure(self) -> Figure:
        """(a) the densities; (b) their log-slopes against the ε-DP bound ε/Δ (dotted: not ε-DP)."""
        u = np.linspace(-6, 6, 1201)
        fig, axes = plotting.panel_row(2, height=3.2)
        for k, density in enumerate(self.densities):
            style = {"color": f"C{k}", "lw": 1.5, "ls": "-" if density.is_dp(1.0, 1.0) else ":"}
            axes[0].plot(u, density.pdf(u), label=density.name, **style)
            axes[1].plot(u, density.log_slope(u), **style)
        axes[1].axhline(1.0, color="0.2", ls="--", lw=1, label="ε/Δ")
        axes[0].set(xlabel="u", ylabel="density p(u)", title="(a) noise densities")
        axes[1].set(xlabel="u", ylabel="|d log p / du|", ylim=(0, 2.5), title="(b) the ε-DP constraint")
        axes[0].legend(fontsize=plotting.SMALL)
        axes[1].legend(fontsize=plotting.SMALL)
        return fig


def optimal_noise() -> NoiseComparison:
    """Laplace, hyperbolic secant, logistic and Gaussian noise at sensitivity Δ = 1 and ε = 1."""
    return NoiseComparison(tuple(est.noise_densities(1.0, 1.0)))
