"""The book's figure and table ``est-optimal-noise``: Laplace, the staircase and three other zero-mean
noise densities at Δ = ε = 1: which meet the paper's Lipschitz constraint (eq. 9), which are ε-DP, and at
what variance; and the staircase's variance against Laplace's at several ε.
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

__all__ = ["STAIRCASE_EPS", "NoiseComparison", "cost", "optimal_noise"]


#: The budgets at which the staircase's variance is compared with Laplace's.
STAIRCASE_EPS: tuple[float, ...] = (0.5, 1.0, 3.0, 6.0, 10.0)


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing to count: :func:`optimal_noise` evaluates five densities in closed form (negligible)."""
    return Cost()


@dataclass(frozen=True)
class NoiseComparison:
    """Five zero-mean noise densities at Δ = ε = 1 (which meet eq. 9, which are ε-DP, at what variance),
    and the staircase's variance against Laplace's at :data:`STAIRCASE_EPS`."""

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
            "density (Δ = ε = 1)": d.name, "meets eq. 9": d.meets_eq9(1.0, 1.0), "ε-DP": d.is_dp(1.0),
            "variance": d.variance, "variance / Laplace": d.variance / 2.0,
        } for d in self.densities])  # fmt: skip

    @property
    def staircase(self) -> pd.DataFrame:
        """The smallest ε-DP variance (the staircase's) against Laplace's ``2Δ²/ε²``, at Δ = 1."""
        return pd.DataFrame([{
            "ε": e, "staircase": est.staircase_variance(1.0, e), "Laplace": 2.0 / e**2,
            "staircase / Laplace": est.staircase_variance(1.0, e) * e**2 / 2.0,
        } for e in STAIRCASE_EPS])  # fmt: skip

    def ratio(self, epsilon: float) -> float:
        """The staircase's variance over Laplace's at ``epsilon``."""
        return est.staircase_variance(1.0, epsilon) * epsilon**2 / 2.0

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"est-optimal-noise": self.table, "est-optimal-noise-staircase": self.staircase}

    def figure(self) -> Figure:
        """(a) the densities; (b) their log-slopes against eq. 9's bound ε/Δ; (c) their worst log-ratio over
        shifts ``|h| ≤ Δ`` against ε, the ε-DP condition. Dotted: not ε-DP. One legend below the panels."""
        u = np.linspace(-5, 5, 1001)
        fig, axes = plotting.panel_row(3, height=3.2)
        for k, density in enumerate(self.densities):
            style = {"color": f"C{k}", "lw": 1.5, "ls": "-" if density.is_dp(1.0) else ":"}
            axes[0].plot(u, density.pdf(u), label=density.name, **style)
            if np.isfinite(density.max_log_slope) or density.name == "Gaussian":
                axes[1].plot(u, density.log_slope(u), **style)
            axes[2].plot(u, est.worst_log_ratio(density, u, 1.0), **style)
        for ax in axes[1:]:
            ax.axhline(1.0, color="0.2", ls="--", lw=1)
        axes[0].plot([], [], color="0.2", ls="--", lw=1, label="the bound: ε/Δ in (b), ε in (c)")
        axes[0].set(xlabel="u", ylabel="density p(u)", title="(a) noise densities")
        axes[1].set(xlabel="u", ylabel="|d log p / du|", ylim=(0, 2.5), title="(b) eq. 9: log-slope")
        axes[2].set(xlabel="u", ylabel="max over |h| ≤ Δ", ylim=(0, 2.5), title="(c) ε-DP: log-ratio")
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
        return fig


def optimal_noise() -> NoiseComparison:
    """Laplace, the staircase, hyperbolic secant, logistic and Gaussian noise at sensitivity Δ = 1 and
    ε = 1."""
    return NoiseComparison(tuple(est.noise_densities(1.0, 1.0)))
