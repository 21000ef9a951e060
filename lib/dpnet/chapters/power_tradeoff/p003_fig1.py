"""Paper 003, Figure 1: exact power of the collective test under randomized response.

The experiment (:func:`randomized_response`), its result with its table and figure
(:class:`RandomizedResponse`), and its share of the chapter's footprint (:func:`cost`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import plotting, power
from dpnet.chapters.power_tradeoff._common import BISECTION_SECONDS, cells, fig1_setting
from dpnet.params import Cost, Parameters
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["RandomizedResponse", "cost", "randomized_response"]

#: Measured on this 2-core machine (one core, DPNET_JOBS=1): one (n, p, ε) point of the exact power grid.
_RR_POINT_SECONDS = 4e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`randomized_response`, from the resolved parameter values.

    With ``N = len(n_values)``, ``K = len(p_values)`` and ``E = len(eps_grid)``:

    * seconds: ``0.03·K·N`` (an exact ε*_RR by bisection per cell, ``_common.BISECTION_SECONDS``)
      ``+ 4·10⁻⁶·N·K·E`` (the exact power grid);
    * kept: the exact power grid, ``8·N·K·E`` bytes;
    * peak: not counted (its temporaries are of the size of the grid it keeps).
    """
    N, K, E = len(values["n_values"]), len(values["p_values"]), len(values["eps_grid"])
    return Cost(
        seconds=BISECTION_SECONDS * K * N + _RR_POINT_SECONDS * N * K * E,
        kept=8.0 * N * K * E,
    )


@dataclass(frozen=True)
class RandomizedResponse:
    """Paper 003, Figure 1: exact power of the collective test under randomized response.

    Attributes
    ----------
    eps, n_values, p_values, alpha
        The grid and the setting.
    beta_ind
        The individual test's power ``β_IND`` for each p.
    power
        Exact power, shape ``(n, p, ε)``.
    star_grid
        ε* as the paper computes it: the grid point minimising ``|β_IND − β_RR(ε)|``.
    star_exact
        The exact infimum of eq. (2), by bisection (+∞ where the power never reaches β_IND; the grid
        argmin is then ``nan``).
    checks
        Against the paper, keyed by item.
    paper_setting
        Whether the run uses Figure 1's n, p, α and ε grid.
    deviations
        None: Figure 1 is reproduced as the paper describes it.
    """

    eps: NDArray[np.float64]
    n_values: tuple[int, ...]
    p_values: tuple[float, ...]
    alpha: float
    beta_ind: NDArray[np.float64]
    power: NDArray[np.float64]
    star_grid: NDArray[np.float64]
    star_exact: NDArray[np.float64]
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @property
    def table(self) -> pd.DataFrame:
        """ε* per cell, by the paper's grid argmin and exactly."""
        return cells(
            self.n_values, self.p_values, **{
                "ε* grid argmin (published)": self.star_grid, "ε* exact infimum": self.star_exact,
                "difference": self.star_grid - self.star_exact,
            },
        )  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        return {
            "beta_ind": {str(p): b for p, b in zip(self.p_values, self.beta_ind, strict=True)},
            "rr_power": {
                "eps": self.eps, "n_values": self.n_values, "p_values": self.p_values, "power": self.power
            },
            "rr_critical_budget": self.star_grid,
            "rr_critical_budget_inf": self.star_exact,
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig1": self.table}

    def figure(self, n_panel: int, p_panel: float) -> Figure:
        """Figure 1's three panels: power over n, power over p, and the ε* heat map."""
        return plotting.dilemma_figure(
            self.eps, self.power, self.beta_ind, self.star_grid, self.n_values, self.p_values,
            n_panel=n_panel, p_panel=p_panel, steps=True,
            heatmap_title=r"$\varepsilon^*_{\mathrm{RR}}$ (grid argmin)",
            title="Randomized response: power and critical budget (exact)",
        )  # fmt: skip


def randomized_response(P: Parameters) -> RandomizedResponse:
    """Exact randomized-response power and critical budgets for every (n, p) of the run."""
    eps, n, p = np.asarray(P.eps_grid), tuple(P.n_values), tuple(P.p_values)
    rr = power.rr_power_grid(n, p, eps, P.alpha)
    star_grid = power.critical_budget_table(eps, rr, p, P.alpha)
    star_exact = power.rr_critical_budget_inf_grid(n, p, P.alpha)
    setting = fig1_setting(P)
    checks = dilemma.figure1_checks(star_grid, star_exact, n, published=setting)
    beta_ind = np.array([power.individual_power(q, P.alpha) for q in p])
    return RandomizedResponse(
        eps, n, p, P.alpha, beta_ind, rr, star_grid, star_exact, {"p003-fig1": checks}, setting
    )
