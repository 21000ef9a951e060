"""Chapter 1, ``power-tradeoff``: the privacy–power dilemma (paper 003, §2, Figures 1 and 2).

The chapter's parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved
parameters, computes with :mod:`dpnet.power`, checks the outcome against paper 003 with
:mod:`dpnet.reference.dilemma`, and returns a small frozen dataclass that the chapter records
(:meth:`dpnet.results.Results.record`), tabulates and plots.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import plotting, power
from dpnet.errors import ParameterError
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Footprint,
    Param,
    Parameters,
    Schema,
    eps_grid,
    integer,
    list_of,
    real,
)
from dpnet.reference import dilemma
from dpnet.reference._check import Check

__all__ = [
    "SCHEMA",
    "Comparison",
    "CriticalBudgetCurve",
    "Laplace",
    "RandomizedResponse",
    "compare",
    "critical_budget_curve",
    "laplace",
    "randomized_response",
]

#: The p of the power curves over n, when p_values has it (the paper's panels use p = 0.7).
PAPER_P_PANEL = 0.7


def _largest_n(values: Mapping[str, Any]) -> int:
    return max(values["n_values"])


def _p_panel(values: Mapping[str, Any]) -> float:
    p_values = values["p_values"]
    return min(p_values, key=lambda p: (abs(p - PAPER_P_PANEL), p))


def _panels_in_grid(values: Mapping[str, Any]) -> None:
    if values["n_panel"] not in values["n_values"]:
        raise ParameterError(
            f"n_panel must be one of n_values {values['n_values']} (got {values['n_panel']})"
        )
    if values["p_panel"] not in values["p_values"]:
        raise ParameterError(
            f"p_panel must be one of p_values {values['p_values']} (got {values['p_panel']})"
        )


#: Measured costs on this 2-core machine (one core, DPNET_JOBS=1), see :func:`_footprint`.
_BISECTION_SECONDS = 0.03  # one exact ε*_RR: ~40 rr_power calls, whatever n
_RR_POINT_SECONDS = 4e-6  # one (n, p, ε) point of the exact power grid
_LAPLACE_POINT_SECONDS = 1.8e-7  # one (ε, draw) of one Laplace cell: quantile, comparisons, density
_DRAW_SECONDS = 1e-7  # one Monte Carlo draw per hypothesis: binomial and four gamma sums
_FIXED_SECONDS = 20.0  # kernel, imports, figures


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    With ``N = len(n_values)``, ``K = len(p_values)``, ``E = len(eps_grid)``, ``M = mc_samples``,
    ``R = mc_repeats`` and ``n_max = max(n_values)``:

    * memory: the larger of (a) one Laplace cell, ``8·(4.5·E·M + 10·M)`` bytes (the null and
      alternative statistics at every ε, the quantile's copy and the density's temporaries, all
      ``E × M`` float64; ten length-``M`` draws), and (b) the ε*_RR curve over ``n = 1 … 2·n_max``,
      ``2·n_max·(80 + 48·K)`` bytes (the ``arange``, the nested lists of Python floats and the array
      built from them); plus the results kept, ``8·N·K·E·(1 + 8·R)`` bytes;
    * seconds: ``0.03·K·(N + 2·n_max)`` (an exact ε*_RR by bisection, per cell and per curve point)
      ``+ 4·10⁻⁶·N·K·E`` (exact power grid) ``+ R·N·K·(1.8·10⁻⁷·E·M + 10⁻⁷·M)`` (Laplace cells)
      ``+ 20`` (kernel and figures).

    Calibrated on this 2-core machine, one core: an exact ε*_RR took 27–31 ms at every n from 10 to
    10⁸; the Laplace experiment took 3.7 s at the quick defaults (R·N·K = 48, E = 100, M = 5000),
    36 s at M = 50 000, 4.4 s at E = 400, R = 1, and 4.5 s and 0.64 GiB peak for one cell at
    E = 100, M = 200 000 (4.2 × the ``E × M`` array); the ε*_RR curve held 275 bytes per ``n`` at
    K = 4.
    """
    N, K, E = len(values["n_values"]), len(values["p_values"]), len(values["eps_grid"])
    M, R, n_max = values["mc_samples"], values["mc_repeats"], max(values["n_values"])
    laplace_cell = 8.0 * (4.5 * E * M + 10 * M)
    curve = 2.0 * n_max * (80 + 48 * K)
    kept = 8.0 * N * K * E * (1 + 8 * R)
    seconds = (
        _BISECTION_SECONDS * K * (N + 2 * n_max)
        + _RR_POINT_SECONDS * N * K * E
        + R * N * K * (_LAPLACE_POINT_SECONDS * E * M + _DRAW_SECONDS * M)
        + _FIXED_SECONDS
    )
    return Footprint(memory=max(laplace_cell, curve) + kept, seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250301),
        "n_values": Param(
            list_of(integer(ge=1)), "numbers of agents n (heat-map rows)", default=list(dilemma.FIG1_N),
            paper=AS_DEFAULT,
        ),
        "p_values": Param(
            list_of(real(gt=0.5, lt=1.0)), "signal accuracies p (heat-map columns)",
            default=list(dilemma.FIG1_P), paper=AS_DEFAULT,
        ),
        "alpha": Param(real(gt=0.0, lt=1.0), "test level α", default=dilemma.FIG1_ALPHA, paper=AS_DEFAULT),
        "eps_grid": Param(
            eps_grid(), "privacy budgets ε of the power curves and of the argmin ε* (numpy.linspace)",
            default=dict(dilemma.FIG1_EPS_GRID), paper=AS_DEFAULT,
        ),
        "mc_samples": Param(
            integer(ge=2), "Monte Carlo draws per hypothesis and ε (Laplace)", default=dilemma.FIG2_SAMPLES,
            paper=AS_DEFAULT,
        ),
        "mc_repeats": Param(
            integer(ge=1), "independent Monte Carlo runs of the Laplace heat map", quick=3, full=10
        ),
        "n_panel": Param(
            integer(ge=1), "n of the power curves over p (middle panels)", derive=_largest_n,
            derive_help="the largest of n_values",
        ),
        "p_panel": Param(
            real(gt=0.5, lt=1.0), "p of the power curves over n (left panels)", derive=_p_panel,
            derive_help="the value of p_values nearest 0.7",
        ),
    },
    constraints=(_panels_in_grid,),
    # the published runs seeded each Laplace cell by (run, n, p in millionths) alone
    streams={"p003-fig2": ()},
    footprint=_footprint,
)  # fmt: skip


def _fig1_setting(P: Parameters) -> bool:
    return P.is_paper("n_values", "p_values", "alpha", "eps_grid")


def _fig2_setting(P: Parameters) -> bool:
    return _fig1_setting(P) and P.is_paper("mc_samples")


def _cells(n_values: tuple[int, ...], p_values: tuple[float, ...], **columns: NDArray) -> pd.DataFrame:
    """A long table with one row per (n, p) cell and one column per named (n, p) array."""
    index = pd.MultiIndex.from_product([n_values, p_values], names=["n", "p"])
    return pd.DataFrame(
        {name: np.asarray(v).ravel() for name, v in columns.items()}, index=index
    ).reset_index()


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

    @property
    def table(self) -> pd.DataFrame:
        """ε* per cell, by the paper's grid argmin and exactly."""
        return _cells(
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
    setting = _fig1_setting(P)
    checks = dilemma.figure1_checks(star_grid, star_exact, n, published=setting)
    beta_ind = np.array([power.individual_power(q, P.alpha) for q in p])
    return RandomizedResponse(
        eps, n, p, P.alpha, beta_ind, rr, star_grid, star_exact, {"p003-fig1": checks}, setting
    )


@dataclass(frozen=True)
class CriticalBudgetCurve:
    """The exact ε*_RR for every n from 1 to twice the largest n of the run, one curve per p."""

    n: NDArray[np.int64]
    p_values: tuple[float, ...]
    eps_star: NDArray[np.float64]  # shape (p, n)

    def metrics(self) -> dict[str, Any]:
        """The curve, under its metrics.json name."""
        return {
            "rr_critical_budget_inf_curve": {
                "n": self.n,
                "p_values": self.p_values,
                "eps_star": self.eps_star,
            }
        }

    def figure(self) -> Figure:
        """ε* against n on a log scale, drawn as steps."""
        fig, ax = plotting.panel_row(1, width=7.0)
        for p, curve in zip(self.p_values, self.eps_star, strict=True):
            ax[0].plot(self.n, curve, drawstyle="steps-mid", lw=1.2, label=f"p = {p:g}")
        ax[0].set(xlabel="agents $n$", ylabel=r"exact $\varepsilon^*_{\mathrm{RR}}$", yscale="log")
        ax[0].legend(frameon=False)
        return fig


def critical_budget_curve(P: Parameters) -> CriticalBudgetCurve:
    """Exact ε*_RR (the infimum of eq. 2) for n = 1, …, 2 max(n_values)."""
    n = np.arange(1, 2 * max(P.n_values) + 1)
    return CriticalBudgetCurve(
        n, tuple(P.p_values), power.rr_critical_budget_inf_grid(n, P.p_values, P.alpha).T
    )


@dataclass(frozen=True)
class Laplace:
    """Paper 003, Figure 2: Monte Carlo power of the collective test on Laplace-noised LLRs.

    Attributes
    ----------
    eps, n_values, p_values, alpha, samples
        The grid and the setting (``samples`` draws under each hypothesis per ε).
    beta_ind
        The individual test's power for each p.
    power, std_error
        Per noise model (``"paper"``, ``"as_published"``): shape ``(runs, n, p, ε)``.
    star_runs
        Per noise model: the grid-argmin ε* of each run, shape ``(runs, n, p)``.
    checks
        Against the paper, keyed by item.
    paper_setting
        Whether the run uses Figure 2's setting (Figure 1's, with 5000 draws per hypothesis).
    """

    eps: NDArray[np.float64]
    n_values: tuple[int, ...]
    p_values: tuple[float, ...]
    alpha: float
    samples: int
    beta_ind: NDArray[np.float64]
    power: Mapping[str, NDArray[np.float64]]
    std_error: Mapping[str, NDArray[np.float64]]
    star_runs: Mapping[str, NDArray[np.float64]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def star(self) -> dict[str, NDArray[np.float64]]:
        """Per noise model, the median ε* over the runs."""
        return {v: _nan_stat(np.nanmedian, runs) for v, runs in self.star_runs.items()}

    @property
    def spread(self) -> dict[str, NDArray[np.float64]]:
        """Per noise model, the range of ε* over the runs (largest minus smallest)."""
        return {v: _nan_stat(np.nanmax, r) - _nan_stat(np.nanmin, r) for v, r in self.star_runs.items()}

    @property
    def table(self) -> pd.DataFrame:
        """Median ε* and its range over the runs, for both noise models."""
        star, spread = self.star, self.spread
        return _cells(
            self.n_values, self.p_values, **{
                "ε* paper-faithful (median)": star["paper"], "range over runs": spread["paper"],
                "ε* as published (median)": star["as_published"], "range over runs ": spread["as_published"],
            },
        )  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        out: dict[str, Any] = {}
        for variant, suffix in (("paper", ""), ("as_published", "_as_published")):
            out[f"laplace_power{suffix}"] = {
                "eps": self.eps, "n_values": self.n_values, "p_values": self.p_values,
                "samples": self.samples, "run": 0, "power": self.power[variant][0],
                "std_error": self.std_error[variant][0],
            }  # fmt: skip
            out[f"laplace_critical_budget{suffix}"] = self.star[variant]
            out[f"laplace_critical_budget_runs{suffix}"] = self.star_runs[variant]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig2": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: the printed heat map needs the notebook's noise model."""
        return (("p003-fig2", *dilemma.FIG2_DEVIATION),) if self.paper_setting else ()

    def figure(self, variant: str, n_panel: int, p_panel: float) -> Figure:
        """Figure 2's three panels for one noise model: the first run's curves, the median heat map."""
        label = {
            "paper": "one Laplace draw per LLR (paper-faithful)",
            "as_published": "Laplace per state (as published)",
        }
        return plotting.dilemma_figure(
            self.eps, self.power[variant][0], self.beta_ind, self.star[variant], self.n_values, self.p_values,
            n_panel=n_panel, p_panel=p_panel, errors=self.std_error[variant][0],
            heatmap_title=r"$\varepsilon^*_{\mathrm{Laplace}}$ (median over runs)",
            title=f"Laplace noise, {label[variant]}: power and critical budget",
        )  # fmt: skip

    def side_by_side(self) -> Figure:
        """Median ε* of both noise models, beside the printed heat map when the grid is the paper's."""
        tables = [
            (self.star["paper"], "paper-faithful\n(one Lap(Δ/ε) per LLR)"),
            (self.star["as_published"], "as published\n(Lap(Δ/ε) per state)"),
        ]
        if self.paper_setting:
            printed = np.array(dilemma.FIG2_LAPLACE_CRITICAL_BUDGET)
            tables.append((printed, "printed in paper 003\n(Figure 2)"))
        vmax = float(np.nanmax([table for table, _ in tables])) if np.isfinite(tables[0][0]).any() else 1.0
        fig, ax = plotting.panel_row(len(tables), height=3.1)
        for a, (table, title) in zip(ax, tables, strict=True):
            image = plotting.critical_budget_heatmap(
                a, table, self.n_values, self.p_values, title=title, vmax=vmax, colorbar=False
            )
        fig.colorbar(image, ax=list(ax), label=r"$\varepsilon^*$")
        fig.suptitle(r"$\varepsilon^*_{\mathrm{Laplace}}$ under the two noise models")
        return fig


def _nan_stat(stat: Any, runs: NDArray[np.float64]) -> NDArray[np.float64]:
    """A nan-ignoring statistic over runs that is ``nan`` (not a warning) where every run is ``nan``."""
    out = np.full(runs.shape[1:], np.nan)
    seen = ~np.all(np.isnan(runs), axis=0)
    out[seen] = stat(runs[:, seen], axis=0)
    return out


def laplace(P: Parameters) -> Laplace:
    """Laplace power and ε* for both noise models, ``mc_repeats`` independent runs (stream ``p003-fig2``)."""
    eps, n, p = np.asarray(P.eps_grid), tuple(P.n_values), tuple(P.p_values)
    grid = power.laplace_power_grid(
        n, p, eps, P.alpha, P.mc_samples, stream=P.stream("p003-fig2"), repeats=P.mc_repeats
    )
    runs = {v: power.critical_budget_table(eps, grid[v][0], p, P.alpha) for v in grid}
    setting = _fig2_setting(P)
    checks = dilemma.figure2_checks(
        _nan_stat(np.nanmedian, runs["paper"]),
        _nan_stat(np.nanmedian, runs["as_published"]),
        n,
        p,
        published=setting,
    )
    return Laplace(
        eps, n, p, P.alpha, P.mc_samples, np.array([power.individual_power(q, P.alpha) for q in p]),
        {v: grid[v][0] for v in grid}, {v: grid[v][1] for v in grid}, runs, {"p003-fig2": checks}, setting,
    )  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """Randomized response against Laplace noise, and the two Laplace noise models, cell by cell.

    ε* that is never reached on the grid counts as +∞. Mechanisms are compared like with like: grid
    argmin for both, and for Laplace the median over runs.
    """

    cells: int
    rr_wins: int
    laplace_wins: int
    ties: int
    raised: int
    lowered: int
    mean_ratio: float
    largest_spread: float
    gap_as_published: float
    gap_paper: float


def compare(rr: RandomizedResponse, lap: Laplace) -> Comparison:
    """Count the cells where each mechanism, and each Laplace noise model, needs the smaller ε*."""
    rr_t = np.where(np.isnan(rr.star_grid), np.inf, rr.star_grid)
    star = {v: np.where(np.isnan(t), np.inf, t) for v, t in lap.star.items()}
    tie = np.isclose(rr_t, star["paper"])
    both = np.isfinite(star["paper"]) & np.isfinite(star["as_published"])
    ratio = float(np.mean(star["as_published"][both] / star["paper"][both])) if both.any() else np.nan
    spreads = np.concatenate([s.ravel() for s in lap.spread.values()])
    gaps = {
        v: float(dilemma.figure2_gap(t).max()) if lap.paper_setting else np.nan for v, t in lap.star.items()
    }
    return Comparison(
        cells=rr_t.size,
        rr_wins=int(np.sum((rr_t < star["paper"]) & ~tie)),
        laplace_wins=int(np.sum((star["paper"] < rr_t) & ~tie)),
        ties=int(np.sum(tie)),
        raised=int(np.sum(star["as_published"] > star["paper"])),
        lowered=int(np.sum(star["as_published"] < star["paper"])),
        mean_ratio=ratio,
        largest_spread=float(np.nanmax(spreads)) if np.isfinite(spreads).any() else np.nan,
        gap_as_published=gaps["as_published"],
        gap_paper=gaps["paper"],
    )
