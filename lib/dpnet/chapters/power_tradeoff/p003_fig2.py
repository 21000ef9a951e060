"""Paper 003, Figure 2: Monte Carlo power of the collective test on Laplace-noised LLRs.

The experiment (:func:`laplace`), its result with its table and figures (:class:`Laplace`), and its
share of the chapter's footprint (:func:`cost`).
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
from dpnet.chapters.power_tradeoff._common import cells, fig1_setting, place_legends
from dpnet.params import Cost, Parameters
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["Laplace", "cost", "laplace"]

#: Measured on this 2-core machine (one core, DPNET_JOBS=1), see :func:`cost`.
_LAPLACE_POINT_SECONDS = 1.8e-7  # one (ε, draw) of one Laplace cell: quantile, comparisons, density
_DRAW_SECONDS = 1e-7  # one Monte Carlo draw per hypothesis: binomial and four gamma sums


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`laplace`, from the resolved parameter values.

    With ``N = len(n_values)``, ``K = len(p_values)``, ``E = len(eps_grid)``, ``M = mc_samples`` and
    ``R = mc_repeats``:

    * seconds: ``R·N·K·(1.8·10⁻⁷·E·M + 10⁻⁷·M)`` (the Laplace cells);
    * peak: one Laplace cell, ``8·(4.5·E·M + 10·M)`` bytes (the null and alternative statistics at
      every ε, the quantile's copy and the density's temporaries, all ``E × M`` float64; ten
      length-``M`` draws);
    * kept: its results (the powers and standard errors of both noise models, every run), counted as
      ``64·N·K·E·R`` bytes.

    Calibrated on this 2-core machine, one core: the Laplace experiment took 3.7 s at the quick
    defaults (R·N·K = 48, E = 100, M = 5000), 36 s at M = 50 000, 4.4 s at E = 400, R = 1, and 4.5 s
    and 0.64 GiB peak for one cell at E = 100, M = 200 000 (4.2 × the ``E × M`` array).
    """
    N, K, E = len(values["n_values"]), len(values["p_values"]), len(values["eps_grid"])
    M, R = values["mc_samples"], values["mc_repeats"]
    return Cost(
        seconds=R * N * K * (_LAPLACE_POINT_SECONDS * E * M + _DRAW_SECONDS * M),
        peak=8.0 * (4.5 * E * M + 10 * M),
        kept=8.0 * N * K * E * 8 * R,
    )


def _fig2_setting(P: Parameters) -> bool:
    return fig1_setting(P) and P.is_paper("mc_samples")


def _nan_stat(stat: Any, runs: NDArray[np.float64]) -> NDArray[np.float64]:
    """A nan-ignoring statistic over runs that is ``nan`` (not a warning) where every run is ``nan``."""
    out = np.full(runs.shape[1:], np.nan)
    seen = ~np.all(np.isnan(runs), axis=0)
    out[seen] = stat(runs[:, seen], axis=0)
    return out


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
        return cells(
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
        return place_legends(plotting.dilemma_figure(
            self.eps, self.power[variant][0], self.beta_ind, self.star[variant], self.n_values, self.p_values,
            n_panel=n_panel, p_panel=p_panel, errors=self.std_error[variant][0],
            heatmap_title=r"$\varepsilon^*_{\mathrm{Laplace}}$ (median over runs)",
            title=f"Laplace noise, {label[variant]}: power and critical budget",
        ))  # fmt: skip

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
