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
from dpnet.chapters.power_tradeoff._common import (
    BISECTION_SECONDS,
    RR_POINT_SECONDS,
    cells,
    fig1_setting,
    place_legends,
)
from dpnet.params import Cost, Parameters
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["PrintedShortfall", "RandomizedResponse", "Step", "cost", "randomized_response"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`randomized_response`, from the resolved parameter values.

    With ``N = len(n_values)``, ``K = len(p_values)`` and ``E = len(eps_grid)``:

    * seconds: ``2·10⁻³·K·N`` (two bisections per cell, ``_common.BISECTION_SECONDS``: the exact ε*_RR,
      and eq. 2 as printed) ``+ 4·10⁻⁶·N·K·E`` (the exact power grid);
    * kept: the exact power grid, ``8·N·K·E`` bytes;
    * peak: not counted (its temporaries are of the size of the grid it keeps).
    """
    N, K, E = len(values["n_values"]), len(values["p_values"]), len(values["eps_grid"])
    return Cost(
        seconds=2 * BISECTION_SECONDS * K * N + RR_POINT_SECONDS * N * K * E,
        kept=8.0 * N * K * E,
    )


@dataclass(frozen=True)
class PrintedShortfall:
    """The cell where eq. (2) coded as printed falls furthest short: at its budget ``eps`` the paper's
    test has power ``power``, the smallest fraction of ``beta_ind`` over the cells."""

    n: int
    p: float
    eps: float
    power: float
    beta_ind: float


@dataclass(frozen=True)
class Step:
    """A step from ``n_from`` to the next larger ``n_to`` at ``p`` where the exact ε*_RR does not fall:
    from ``before`` to ``after``."""

    p: float
    n_from: int
    n_to: int
    before: float
    after: float


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
        ε* as the paper computes it: the grid point minimising ``|β_IND − β_RR(ε)|``. Everything here
        is for the paper's group test, with its non-randomised boundary (:func:`dpnet.power.rr_power`);
        :mod:`~dpnet.chapters.power_tradeoff.p003_sec2_boundary` adds the randomised one.
    star_exact
        The exact infimum of eq. (2) as the text defines it, ``inf{ε > 0 : β_RR(ε) ≥ β_IND}``, by
        bisection (+∞ where the power never reaches β_IND; the grid argmin is then ``nan``).
    star_printed
        Eq. (2) coded as printed, in its quantile form
        (:func:`dpnet.power.rr_critical_budget_as_printed_grid`): never larger than ``star_exact``, and a
        budget at which the paper's test is still less powerful than the individual one.
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
    star_printed: NDArray[np.float64]
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @property
    def table(self) -> pd.DataFrame:
        """ε* per cell: the paper's grid argmin, the exact infimum, and eq. (2) coded as printed."""
        return cells(
            self.n_values, self.p_values, **{
                "ε* grid argmin (published)": self.star_grid, "ε* exact infimum": self.star_exact,
                "difference": self.star_grid - self.star_exact, "ε* eq. 2 as printed": self.star_printed,
            },
        )  # fmt: skip

    @property
    def printed_shortfall(self) -> PrintedShortfall | None:
        """The cell where the paper's test, at the budget eq. (2) as printed gives, has the smallest power
        relative to β_IND (``None`` when no cell has a finite printed budget)."""
        finite = np.isfinite(self.star_printed)
        if not finite.any():
            return None
        eps = np.where(finite, self.star_printed, 0.0)
        at = np.array(
            [[power.rr_power(n, p, eps[i, j], self.alpha) for j, p in enumerate(self.p_values)]
             for i, n in enumerate(self.n_values)]
        )  # fmt: skip
        ratio = np.where(finite, at / self.beta_ind[None, :], np.inf)
        i, j = np.unravel_index(int(np.argmin(ratio)), ratio.shape)
        return PrintedShortfall(
            self.n_values[i], self.p_values[j], float(eps[i, j]), float(at[i, j]), float(self.beta_ind[j])
        )

    @property
    def steps(self) -> int:
        """The steps of n (between consecutive n of the run, at every p) where the exact ε*_RR of either
        end is reached."""
        t = np.where(np.isnan(self.star_exact), np.inf, self.star_exact)[np.argsort(self.n_values)]
        return int(np.sum(~(np.isinf(t[1:]) & np.isinf(t[:-1]))))

    @property
    def rising_steps(self) -> tuple[Step, ...]:
        """The steps of n where the exact ε*_RR (the intersection points) does not fall, largest rise
        first: where the claim of the figure's caption fails (``falls-with-n``)."""
        order = np.argsort(self.n_values)
        n = np.asarray(self.n_values)[order]
        t = np.where(np.isnan(self.star_exact), np.inf, self.star_exact)[order]
        out = [
            Step(self.p_values[j], int(n[k]), int(n[k + 1]), float(t[k, j]), float(t[k + 1, j]))
            for k in range(len(n) - 1)
            for j in range(len(self.p_values))
            if t[k + 1, j] >= t[k, j] and not np.isinf(t[k, j])
        ]
        return tuple(sorted(out, key=lambda s: s.before - s.after))

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        return {
            "beta_ind": {str(p): b for p, b in zip(self.p_values, self.beta_ind, strict=True)},
            "rr_power": {
                "eps": self.eps, "n_values": self.n_values, "p_values": self.p_values, "power": self.power
            },
            "rr_critical_budget": self.star_grid,
            "rr_critical_budget_inf": self.star_exact,
            "rr_critical_budget_as_printed": self.star_printed,
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig1": self.table}

    def figure(self, n_panel: int, p_panel: float) -> Figure:
        """Figure 1's three panels: power over n, power over p, and the ε* heat map."""
        return place_legends(plotting.dilemma_figure(
            self.eps, self.power, self.beta_ind, self.star_grid, self.n_values, self.p_values,
            n_panel=n_panel, p_panel=p_panel, steps=True,
            heatmap_title=r"$\varepsilon^*_{\mathrm{RR}}$ (grid argmin, as printed)",
            title="Randomized response, the paper's group test: exact binomial power and critical budget",
        ))  # fmt: skip


def randomized_response(P: Parameters) -> RandomizedResponse:
    """Exact randomized-response power and critical budgets for every (n, p) of the run."""
    eps, n, p = np.asarray(P.eps_grid), tuple(P.n_values), tuple(P.p_values)
    rr = power.rr_power_grid(n, p, eps, P.alpha)
    star_grid = power.critical_budget_table(eps, rr, p, P.alpha)
    star_exact = power.rr_critical_budget_inf_grid(n, p, P.alpha)
    star_printed = power.rr_critical_budget_as_printed_grid(n, p, P.alpha)
    setting = fig1_setting(P)
    checks = dilemma.figure1_checks(star_grid, star_exact, n, p, published=setting)
    beta_ind = np.array([power.individual_power(q, P.alpha) for q in p])
    return RandomizedResponse(
        eps, n, p, P.alpha, beta_ind, rr, star_grid, star_exact, star_printed, {"p003-fig1": checks}, setting
    )
