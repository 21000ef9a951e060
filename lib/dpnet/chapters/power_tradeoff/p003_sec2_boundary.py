"""Paper 003, §2 (below eq. 1): the group test's non-randomised boundary and what it does to ε*_RR.

The paper's randomized-response group test rejects only when the count of ones exceeds ``τ_RR``, and
says the case where a level-α test would have to randomise on ``τ_RR`` 'does not arise' for its n, p
and α. The experiment (:func:`boundary`) measures the test's actual size on the grid, and computes the
exact critical budget of the test that does randomise on its boundary (the most powerful test of exact
level α, like the individual test it is compared with), beside the paper's. Its result with its table
and figure (:class:`Boundary`), and its share of the chapter's footprint (:func:`cost`).
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
from dpnet.chapters.power_tradeoff._common import BISECTION_SECONDS, RR_POINT_SECONDS, cells, fig1_setting
from dpnet.chapters.power_tradeoff.p003_fig1 import RandomizedResponse
from dpnet.params import Cost, Parameters
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["FINE_POINTS", "Boundary", "LargestDrop", "PowerGap", "boundary", "cost", "largest_power_gap"]

#: Points of the fine ε grid (over the run's range of ε) on which the figure draws the test's size and
#: the two tests' powers: the run's grid, with steps of 0.05, would hide their jumps.
FINE_POINTS = 1001


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`boundary`, from the resolved parameter values.

    With ``N = len(n_values)``, ``K = len(p_values)`` and ``E = len(eps_grid)``:

    * seconds: ``10⁻³·K·N`` (an exact ε* of the randomised test by bisection per cell,
      ``_common.BISECTION_SECONDS``) ``+ 4·10⁻⁶·N·K·(2E + 3F)`` (the test's size and the randomised
      test's power on the grid, and the size and both tests' powers on the fine grid of
      ``F = FINE_POINTS`` points, each point a binomial quantile and tail like a point of Figure 1's power
      grid);
    * kept: the size grid and the fine grids, ``8·N·K·(E + 3F)`` bytes (the randomised power on the
      grid is kept only as its grid-argmin ε*);
    * peak: not counted (its temporaries are of the size of the grids it keeps).
    """
    N, K, E = len(values["n_values"]), len(values["p_values"]), len(values["eps_grid"])
    kept = N * K * (E + 3 * FINE_POINTS)
    return Cost(seconds=BISECTION_SECONDS * K * N + RR_POINT_SECONDS * (kept + N * K * E), kept=8.0 * kept)


@dataclass(frozen=True)
class LargestDrop:
    """The cell where randomising on the boundary lowers the exact ε*_RR the most, relatively."""

    n: int
    p: float
    paper: float
    randomized: float

    @property
    def fraction(self) -> float:
        """``1 − randomized/paper``: how much smaller the randomised test's ε* is."""
        return 1.0 - self.randomized / self.paper


@dataclass(frozen=True)
class PowerGap:
    """A point (n, p, ε) of the grid, with the power of the paper's test and of the randomised one."""

    n: int
    p: float
    eps: float
    paper: float
    randomized: float

    @property
    def difference(self) -> float:
        """``randomized − paper``: the power the paper's test gives up by leaving part of α unused."""
        return self.randomized - self.paper

    @property
    def ratio(self) -> float:
        """``randomized / paper``."""
        return self.randomized / self.paper


def largest_power_gap(
    eps: NDArray[np.float64],
    n_values: tuple[int, ...],
    p_values: tuple[float, ...],
    paper: NDArray[np.float64],
    randomized: NDArray[np.float64],
    *,
    relative: bool = False,
) -> PowerGap | None:
    """The grid point (ε > 0) where the randomised test's power exceeds the paper's the most.

    ``paper`` and ``randomized`` are the two tests' powers, shape ``(n, p, ε)``. By their difference, or
    with ``relative`` by their ratio (over the points where the paper's power is positive). ``None`` when
    there is no such point. Ties go to the first point in (n, p, ε) order.
    """
    positive = np.asarray(eps) > 0
    a, b = np.asarray(paper, dtype=float)[..., positive], np.asarray(randomized, dtype=float)[..., positive]
    if relative:
        score = np.full(a.shape, -np.inf)
        np.divide(b, a, out=score, where=a > 0)
    else:
        score = b - a
    if score.size == 0 or not np.isfinite(score).any():
        return None
    i, j, k = np.unravel_index(int(np.argmax(np.where(np.isfinite(score), score, -np.inf))), score.shape)
    return PowerGap(
        n_values[i], p_values[j], float(np.asarray(eps)[positive][k]), float(a[i, j, k]), float(b[i, j, k])
    )


@dataclass(frozen=True)
class Boundary:
    """Paper 003, §2: the group test's boundary, its size on the grid, and ε*_RR with and without it.

    Attributes
    ----------
    eps, n_values, p_values, alpha
        The grid and the setting.
    size
        Actual size of the paper's non-randomised test, shape ``(n, p, ε)``.
    fine_eps, fine_size, fine_power
        A fine ε grid over the run's range (:data:`FINE_POINTS` points), the paper's test's size on it
        and, per test (``"paper"``, ``"randomized"``), its power on it, each of shape ``(n, p, fine ε)``:
        for the figure.
    star_paper
        Exact ε* of the paper's test (eq. 2 as the text defines it, β_RR ≥ β_IND), as in Figure 1.
    star_randomized
        Exact ε* of the test that randomises on its boundary (+∞ where never reached).
    star_grid_randomized
        The grid-argmin ε* of the randomised test on the run's grid, as the paper computes its heat maps
        (``nan`` where never reached): to compare it like with like with the Laplace test's.
    power_gap, power_ratio
        The grid points (ε > 0) where the randomised test's power exceeds the paper's test's most, by
        difference and by ratio (:func:`largest_power_gap`; ``None`` when there is none): what §2's
        "minimal effect on the power" is, measured.
    checks
        Against the paper, keyed by item.
    paper_setting
        Whether the run uses Figure 1's n, p, α and ε grid.
    deviations
        None: the randomised test is shown beside the paper's, not instead of it.
    """

    eps: NDArray[np.float64]
    n_values: tuple[int, ...]
    p_values: tuple[float, ...]
    alpha: float
    size: NDArray[np.float64]
    fine_eps: NDArray[np.float64]
    fine_size: NDArray[np.float64]
    fine_power: Mapping[str, NDArray[np.float64]]
    star_paper: NDArray[np.float64]
    star_randomized: NDArray[np.float64]
    star_grid_randomized: NDArray[np.float64]
    power_gap: PowerGap | None
    power_ratio: PowerGap | None
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @property
    def positive_size(self) -> NDArray[np.float64]:
        """The test's size at the grid's budgets ε > 0 (eq. 2 takes ε > 0), flattened."""
        return self.size[..., self.eps > 0].ravel()

    @property
    def size_range(self) -> tuple[float, float]:
        """The smallest and the largest size of the paper's test over the grid's ε > 0 (``nan`` if none)."""
        sizes = self.positive_size
        return (float(sizes.min()), float(sizes.max())) if sizes.size else (float("nan"), float("nan"))

    @property
    def shortfall(self) -> float:
        """The smallest amount by which the test's size falls short of α where the case arises (``nan``
        where it never does)."""
        short = self.alpha - self.positive_size
        short = short[short > dilemma.SIZE_TOLERANCE]
        return float(short.min()) if short.size else float("nan")

    @property
    def points(self) -> int:
        """The grid's (n, p, ε > 0) points."""
        return int(self.positive_size.size)

    @property
    def arises(self) -> int:
        """The grid's (n, p, ε > 0) points where the test's size falls short of α: where a level-α test
        would randomise on its boundary."""
        return int(np.sum(self.alpha - self.positive_size > dilemma.SIZE_TOLERANCE))

    @property
    def largest_drop(self) -> LargestDrop | None:
        """The cell where the randomised ε* is smallest relative to the paper's (``None`` when no cell
        has both finite and positive)."""
        ratio = self.table["randomised / paper's"].to_numpy().reshape(self.star_paper.shape)
        if np.isnan(ratio).all():
            return None
        i, j = np.unravel_index(int(np.nanargmin(ratio)), ratio.shape)
        paper, randomized = float(self.star_paper[i, j]), float(self.star_randomized[i, j])
        return LargestDrop(self.n_values[i], self.p_values[j], paper, randomized)

    @property
    def table(self) -> pd.DataFrame:
        """Per cell: the paper's test's smallest size on the grid, and its exact ε* beside the randomised
        test's."""
        sizes = self.size[..., self.eps > 0]
        smallest = sizes.min(axis=-1) if sizes.shape[-1] else np.full(sizes.shape[:-1], np.nan)
        both = np.isfinite(self.star_paper) & np.isfinite(self.star_randomized) & (self.star_paper > 0)
        ratio = np.full(both.shape, np.nan)
        ratio[both] = self.star_randomized[both] / self.star_paper[both]
        return cells(
            self.n_values, self.p_values, **{
                "smallest size of the paper's test (ε > 0)": smallest,
                "ε* exact, paper's test": self.star_paper,
                "ε* exact, randomised test": self.star_randomized,
                "randomised / paper's": ratio,
            },
        )  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        return {
            "rr_size": {
                "eps": self.eps, "n_values": self.n_values, "p_values": self.p_values, "size": self.size
            },
            "rr_critical_budget_inf_randomized": self.star_randomized,
            "rr_critical_budget_randomized": self.star_grid_randomized,
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-sec2-boundary": self.table}

    def figure(self, p_panel: float) -> Figure:
        """Top left: the paper's test's size against ε at ``p_panel``, one curve per n, α dashed. Top
        right: both tests' power in the cell of the largest drop of ε*, with β_IND dashed. Bottom: the
        exact ε* heat maps of the paper's test and of the randomised one, on one colour scale."""
        fig, ax = plotting.panel_grid(2, 2, height=3.0)
        j = list(self.p_values).index(p_panel)
        for k, n in enumerate(self.n_values):
            ax[0, 0].plot(self.fine_eps, self.fine_size[k, j], color=f"C{k}", lw=1.0, label=f"n = {n}")
        ax[0, 0].axhline(self.alpha, color="0.3", ls="--", lw=1, label=rf"$\alpha$ = {self.alpha:g}")
        ax[0, 0].set(
            xlabel=r"privacy budget $\varepsilon$",
            ylabel="actual size",
            ylim=(0, 1.3 * self.alpha),
            xlim=(self.fine_eps[0], self.fine_eps[-1]),
            title=f"size of the paper's test, p = {p_panel:g}",
        )
        ax[0, 0].legend(loc="lower right", frameon=False, ncols=3)
        self._power_panel(ax[0, 1])
        finite = np.concatenate([t[np.isfinite(t)] for t in (self.star_paper, self.star_randomized)])
        vmax = float(finite.max()) if finite.size else 1.0
        for a, table, title in (
            (ax[1, 0], self.star_paper, "exact ε*, paper's test"),
            (ax[1, 1], self.star_randomized, "exact ε*, randomised boundary"),
        ):
            image = plotting.critical_budget_heatmap(
                a, table, self.n_values, self.p_values, title=title, vmax=vmax, colorbar=False
            )
        fig.colorbar(image, ax=list(ax[1]), label=r"exact $\varepsilon^*_{\mathrm{RR}}$")
        return fig

    def _power_panel(self, ax: Any) -> None:
        drop = self.largest_drop
        if drop is None:
            ax.set_axis_off()
            ax.text(0.5, 0.5, "no cell reaches β_IND", ha="center", va="center", transform=ax.transAxes)
            return
        i, j = self.n_values.index(drop.n), self.p_values.index(drop.p)
        target = power.individual_power(drop.p, self.alpha)
        for k, (test, label, star) in enumerate(
            (("paper", "paper's test", drop.paper), ("randomized", "randomised boundary", drop.randomized))
        ):
            ax.plot(self.fine_eps, self.fine_power[test][i, j], color=f"C{k}", lw=1.4, label=label)
            ax.axvline(star, color=f"C{k}", ls=":", lw=1)
        ax.axhline(target, color="0.3", ls="--", lw=1, label=r"$\beta_{\mathrm{IND}}$")
        top = min(float(self.fine_eps[-1]), 3.0 * drop.paper)
        ax.set(
            xlabel=r"privacy budget $\varepsilon$",
            ylabel=r"power $\beta$",
            xlim=(0, top),
            ylim=(0, min(1.0, 3.0 * target)),
            title=f"power, n = {drop.n}, p = {drop.p:g}",
        )
        ax.legend(loc="lower right", frameon=False)


def boundary(P: Parameters, rr: RandomizedResponse) -> Boundary:
    """The paper's test's size on the grid, and the exact ε*_RR of the test that randomises on its
    boundary beside the paper's (``rr``, Figure 1's result on the same parameters)."""
    n, p, eps = tuple(P.n_values), tuple(P.p_values), np.asarray(P.eps_grid)
    size = np.array([[power.rr_size(k, q, eps, P.alpha) for q in p] for k in n])
    fine = np.linspace(float(eps.min()), float(eps.max()), FINE_POINTS)
    fine_size = np.array([[power.rr_size(k, q, fine, P.alpha) for q in p] for k in n])
    fine_power = {
        "paper": power.rr_power_grid(n, p, fine, P.alpha),
        "randomized": power.rr_power_grid(n, p, fine, P.alpha, randomized=True),
    }
    randomized = power.rr_critical_budget_inf_grid(n, p, P.alpha, randomized=True)
    grid_power = power.rr_power_grid(n, p, eps, P.alpha, randomized=True)
    grid_randomized = power.critical_budget_table(eps, grid_power, p, P.alpha)
    gap, ratio = (largest_power_gap(eps, n, p, rr.power, grid_power, relative=r) for r in (False, True))
    checks = dilemma.boundary_checks(size, eps, P.alpha, rr.star_exact, randomized, n, p)
    return Boundary(
        eps, n, p, P.alpha, size, fine, fine_size, fine_power, rr.star_exact, randomized, grid_randomized,
        gap, ratio, {"p003-sec2-boundary": checks}, fig1_setting(P),
    )  # fmt: skip
