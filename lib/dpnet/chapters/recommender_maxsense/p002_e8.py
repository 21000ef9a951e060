"""Paper 002, experiment E8 (the book's): adaptive queries, Thm 6.1's recursion and its N log N growth,
and MaxSense at w = 1 against both lower bounds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    EPS_REF,
    SMALL,
    ms_grid,
    ms_seconds,
    sweep_curves,
)
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E8: the budgets of panel (a), MaxSense's N at w = 1 (quick, full) and its sensing constant there.
E8_EPS = (0.1, 0.5, 1.0)
E8_N = {"quick": (26, 50), "full": (26, 50, 100)}
E8_THETA = 0.5


def cost(values: Mapping[str, Any]) -> Cost:
    """E8's time: ``trials`` recoveries of MaxSense at the 15 points of its grid, at every N of ``E8_N``
    (the recursion is closed form). Its memory is negligible."""
    return Cost(seconds=sum(E4_GRID[2] * values["trials"] * ms_seconds(n) for n in E8_N[values["mode"]]))


@dataclass(frozen=True)
class Adaptive:
    """E8: Thm 6.1's recursion, its N log N growth, and MaxSense at w = 1 against both lower bounds."""

    n_w1: tuple[int, ...]
    u90: tuple[float, ...]
    growth: Mapping[int, float]
    checks: Mapping[str, list[Check]]
    #: E8 has no paper setting to leave: its sizes are the book's.
    paper_setting = True

    @property
    def settings(self) -> list[rc.Setting]:
        """MaxSense at w = 1, θ = ``E8_THETA``, one per N."""
        return [rc.Setting("maxsense", rc.m_asym(n, 1), EPS_REF, theta=E8_THETA) for n in self.n_w1]

    @staticmethod
    def bounds_at(n: int, eps: float = EPS_REF) -> tuple[int, float]:
        """Thm 6.1's adaptive and Thm 4.10's non-adaptive lower bound at N (w = 1)."""
        return rc.adaptive_lower_bound(n, eps), float(rc.fano_users(n, rc.thm410_information(n, 1, eps)))

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: E8 shows a figure only."""
        return {}

    def figure(self) -> Figure:
        """(a) T_LB C/N against N; (b) the adaptive and non-adaptive bounds and MaxSense at w = 1."""
        n_grid = np.geomspace(1e2, 1e6, 13)
        fig, axes = panel_row(2, width=3.9, height=3.6)
        for e, colour in zip(E8_EPS, ("C0", "C1", "C2"), strict=True):
            t = np.array([rc.adaptive_lower_bound(n, e) for n in n_grid])
            axes[0].semilogx(
                n_grid, t * rc.adaptive_constant(e) / n_grid, "o", color=colour, label=f"ε = {e}"
            )
        axes[0].semilogx(
            n_grid,
            rc.adaptive_lower_bound_asymptote(n_grid, 1.0) * rc.adaptive_constant(1.0) / n_grid,
            "k-",
            lw=0.8,
            label="1 + ln(N ln2 / 2)",
        )
        axes[0].set(xlabel="items N", ylabel="T_LB · C / N", title="(a) the recursion grows like N log N")
        axes[0].legend(fontsize=SMALL)
        fine = np.geomspace(20, 1e4, 40)
        axes[1].loglog(
            fine, [rc.adaptive_lower_bound(n, EPS_REF) for n in fine], "C0-", label="Thm 6.1 (adaptive)"
        )
        axes[1].loglog(
            fine,
            rc.fano_users(fine, rc.thm410_information(fine, 1, EPS_REF)),
            "C1--",
            label="Thm 4.10 (non-adaptive)",
        )
        axes[1].loglog(self.n_w1, self.u90, "ks", label="MaxSense U_90, θ = 1/2")
        axes[1].set(xlabel="items N", ylabel="users", title="(b) the open gap, ε = 1, w = 1")
        axes[1].legend(fontsize=SMALL)
        return fig


def adaptive(P: Parameters) -> Adaptive:
    """E8 (stream ``p002-e8``): the recursion's growth over a decade at N = 10³, 10⁴, 10⁵ (ε = 1), and
    MaxSense at w = 1, θ = ``E8_THETA``, for the N of ``E8_N``."""
    growth = {
        int(n): rc.adaptive_lower_bound(10 * n, EPS_REF) / (10 * rc.adaptive_lower_bound(n, EPS_REF))
        for n in (1e3, 1e4, 1e5)
    }
    checks = ref.adaptive_checks(growth)
    out = Adaptive(E8_N[P.mode], (), growth, {"p002-e8": checks})
    grids = [ms_grid(s) for s in out.settings]
    _, u90 = sweep_curves(P, "p002-e8", out.settings, grids, P.trials, "MaxSense at w = 1")
    return replace(out, u90=tuple(u90))
