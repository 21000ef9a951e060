"""Paper 004, the book's experiment E0: what ε means for a test, the error pairs an ε-DP test allows
and the floor of the larger error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import funcpert as fp
from dpnet.params import Cost
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check

__all__ = ["E0_EPS", "ErrorRegion", "cost", "hypothesis_testing"]

#: The budgets of the figure of allowed error pairs.
E0_EPS = (0.1, 0.5, 1.0, 2.0)


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: E0's four minimisations are part of the chapter's fixed seconds."""
    return Cost()


@dataclass(frozen=True)
class ErrorRegion:
    """E0: the error pairs an ε-DP test allows, and the floor of the larger error, per ε."""

    floors: Mapping[float, float]
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E0 that a run could leave.
    paper_setting = True
    #: E0 records no deviation.
    deviations = ()

    def metrics(self) -> dict[str, Any]:
        """The numerical floors of max(p_FA, p_MD), by ε."""
        return {"error_rate_floor": {f"{eps:g}": f for eps, f in self.floors.items()}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the floors are metrics."""
        return {}

    def figure(self) -> Figure:
        """The allowed region of (p_FA, p_MD) for each ε, with the equal-error point."""
        fig, (ax,) = panel_row(1, width=4.8, height=4.2)
        p_fa = np.linspace(0, 1, 401)
        for k, (eps, floor) in enumerate(self.floors.items()):
            curve = fp.min_miss_probability(p_fa, eps)
            ax.fill_between(p_fa, curve, 1, color=f"C{k}", alpha=0.12)
            ax.plot(p_fa, curve, color=f"C{k}", label=f"ε = {eps:g}")
            ax.plot([floor], [floor], "o", color=f"C{k}")
        ax.plot([0, 1], [1, 0], "k:", lw=0.8, label="no privacy needed: p_MD = 1 − p_FA")
        ax.set(xlabel="false-alarm probability $p_{FA}$", ylabel="miss probability $p_{MD}$", xlim=(0, 1),
               ylim=(0, 1), title="Tests allowed under ε-DP (dots: 1/(1 + e^ε))")  # fmt: skip
        ax.legend(fontsize=SMALL)
        return fig


def hypothesis_testing() -> ErrorRegion:
    """E0: the smallest larger error of an ε-DP test, numerically, for each ε of ``E0_EPS``."""
    floors = {eps: fp.error_rate_floor(eps) for eps in E0_EPS}
    return ErrorRegion(floors, {"p004-e0": ref.floor_checks(floors)})
