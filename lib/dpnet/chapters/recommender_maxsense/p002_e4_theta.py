"""Paper 002, experiment E4 (the book's), continued: E4b, MaxSense's U_90 against its sensing constant θ
at the reference case; E4c (full mode), the exact w-subset simulator against the fast one."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_EXACT_GRID,
    E4_GRID,
    EPS_REF,
    N_REF,
    SMALL,
    W_REF,
    ms_grid,
    ms_seconds,
    sweep_curves,
)
from dpnet.params import Cost, Parameters
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.results import Check

#: E4b: the θ of the sweep. E4c: the (N, w) of the comparison (its grid is ``E4_EXACT_GRID``).
E4_THETAS = (0.25, 0.5, 1.0, 2.0, 4.0)
E4_EXACT_CASES = ((50, 10), (50, 5))
#: E4c: the largest allowed ratio between the two simulators' U_90 (note-rec-tolerances).
EXACT_TOLERANCE = 0.25
#: Measured on this 2-core machine (one core): one exact w-subset recovery, per item (5 ms at N = 50).
SUBSET_SECONDS = 1e-4


def cost(values: Mapping[str, Any]) -> Cost:
    """E4b's and E4c's time: ``trials`` recoveries of MaxSense at each of the 15 points of its grid, at
    every θ of ``E4_THETAS``; with ``exact_simulators``, ``trials`` recoveries of both simulators at the
    7 points of E4c's grid for each (N, w) of ``E4_EXACT_CASES``, the exact one costing a further
    ``SUBSET_SECONDS`` per item. Its memory is negligible."""
    trials = values["trials"]
    seconds = len(E4_THETAS) * E4_GRID[2] * trials * ms_seconds(N_REF)
    if values["exact_simulators"]:
        per_point = sum(ms_seconds(n) + SUBSET_SECONDS * n for n, _ in E4_EXACT_CASES)
        seconds += E4_EXACT_GRID[2] * trials * per_point
    return Cost(seconds=seconds)


@dataclass(frozen=True)
class SensingConstant:
    """E4b and E4c: MaxSense against θ at the reference case, and (full mode) the exact w-subset simulator
    against the fast one."""

    thetas: tuple[float, ...]
    u90: tuple[float, ...]
    theta_grid: NDArray[np.float64]
    theta_curve: NDArray[np.float64]
    exact: pd.DataFrame | None  # N, w, U_90 fast, U_90 exact, exact/fast
    checks: Mapping[str, list[Check]]
    #: E4b has no paper setting to leave: the paper leaves θ free.
    paper_setting = True

    @property
    def settings(self) -> list[rc.Setting]:
        """One setting per θ."""
        return [rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), EPS_REF, theta=t) for t in self.thetas]

    @property
    def best_theta(self) -> float:
        """The θ of the grid at which the prediction is lowest."""
        return float(self.theta_grid[np.argmin(self.theta_curve)])

    @property
    def cost_at_one(self) -> float:
        """The predicted U_90 at θ = 1 over the lowest predicted U_90."""
        return rc.predicted_u(rc.m_asym(N_REF, W_REF), EPS_REF, theta=1.0) / float(self.theta_curve.min())

    def exact_ratio(self, n: int, w: int) -> float:
        """Exact over fast U_90 at (N, w) (``nan`` when the comparison did not run)."""
        if self.exact is None:
            return math.nan
        row = self.exact[(self.exact["N"] == n) & (self.exact["w"] == w)]
        return float(row["exact/fast"].iloc[0])

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The simulators compared (full mode)."""
        return {} if self.exact is None else {"p002-e4-exact": self.exact}

    def figure(self) -> Figure:
        """(a) U_90 against θ with the prediction; (b) exact over fast U_90 (full mode)."""
        fig, axes = panel_row(2 if self.exact is not None else 1, width=3.9, height=3.6)
        axes[0].loglog(self.thetas, self.u90, "o", label="measured U_90")
        axes[0].loglog(self.theta_grid, self.theta_curve, "-", label="Gaussian prediction")
        axes[0].set(xlabel="θ (probes θN/w items)", ylabel="U_90", title="(a) N = 100, w = 10, ε = 1")
        fixed_ticks(axes[0].xaxis, self.thetas)
        axes[0].legend(fontsize=SMALL)
        if self.exact is not None:
            axes[1].bar(
                [f"N={n}, w={w}" for n, w in zip(self.exact["N"], self.exact["w"], strict=True)],
                self.exact["exact/fast"],
            )
            axes[1].axhline(1.0, color="k", lw=0.8)
            axes[1].set(ylabel="U_90 exact / U_90 fast", title="(b) exactly w rated items per user")
        return fig


def sensing_constant(P: Parameters) -> SensingConstant:
    """E4b (stream ``p002-e4/theta``): MaxSense at every θ of ``E4_THETAS``; E4c (with
    ``exact_simulators``, streams ``p002-e4/exact-fast`` and ``-subset``): both simulators at
    ``E4_EXACT_CASES``."""
    grid = np.geomspace(0.1, 8, 60)
    curve = np.array([rc.predicted_u(rc.m_asym(N_REF, W_REF), EPS_REF, theta=t) for t in grid])
    out = SensingConstant(E4_THETAS, (), grid, curve, None, {})
    grids = [ms_grid(s) for s in out.settings]
    _, u90 = sweep_curves(P, "p002-e4/theta", out.settings, grids, P.trials, "MaxSense across θ")
    exact, checks = None, []
    claim = (
        f"E4c: exact w-subset U_90 within ±{EXACT_TOLERANCE:.0%} of the fast simulator's"
        " (N = {}, w = {})"  # filled in per case below
    )
    if not P.exact_simulators:
        undefined = "undefined: runs with exact_simulators (full mode)"
        checks = [
            Check(claim.format(n, w), None, undefined, f"exact-{n}-{w}", "reference")
            for n, w in E4_EXACT_CASES
        ]
    else:
        fast = [rc.Setting("maxsense", rc.m_asym(n, w), EPS_REF, theta=P.theta) for n, w in E4_EXACT_CASES]
        grids = [ms_grid(s, E4_EXACT_GRID) for s in fast]
        _, u_fast = sweep_curves(P, "p002-e4/exact-fast", fast, grids, P.trials, "MaxSense, fast simulator")
        _, u_exact = sweep_curves(
            P,
            "p002-e4/exact-subset",
            [s.but(simulator="subset") for s in fast],
            grids,
            P.trials,
            "MaxSense, exact w-subset simulator",
        )
        exact = pd.DataFrame(
            {
                "N": [n for n, _ in E4_EXACT_CASES],
                "w": [w for _, w in E4_EXACT_CASES],
                "U_90 fast (Bernoulli ratings)": u_fast,
                "U_90 exact (w-subset)": u_exact,
                "exact/fast": np.asarray(u_exact) / np.asarray(u_fast),
            }
        )
        for (n, w), uf, ue in zip(E4_EXACT_CASES, u_fast, u_exact, strict=True):
            ok = math.isfinite(ue / uf) and abs(ue / uf - 1) <= EXACT_TOLERANCE
            checks.append(
                Check(claim.format(n, w), ok, f"{ue:,.0f} vs {uf:,.0f}", f"exact-{n}-{w}", "reference")
            )
    return replace(out, u90=tuple(u90), exact=exact, checks={"p002-e4": checks})
