"""The book's figure ``rr-critical-budget-vs-n``: the exact ε*_RR for every n, one curve per p.

The experiment (:func:`critical_budget_curve`), its result with its figure
(:class:`CriticalBudgetCurve`), and its share of the chapter's footprint (:func:`cost`).
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
from dpnet.chapters.power_tradeoff._common import BISECTION_SECONDS
from dpnet.params import Cost, Parameters
from dpnet.results import Check

__all__ = ["CriticalBudgetCurve", "cost", "critical_budget_curve"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`critical_budget_curve`, from the resolved parameter values.

    With ``K = len(p_values)`` and ``n_max = max(n_values)``:

    * seconds: ``0.03·K·2·n_max`` (an exact ε*_RR by bisection per point of the curve,
      ``_common.BISECTION_SECONDS``);
    * peak: ``2·n_max·(80 + 48·K)`` bytes (the ``arange``, the nested lists of Python floats and the
      array built from them); calibrated on this 2-core machine, the curve held 275 bytes per ``n``
      at K = 4;
    * kept: not counted (the curve, ``16·n_max·K`` bytes, is small beside its peak).
    """
    K, n_max = len(values["p_values"]), max(values["n_values"])
    return Cost(seconds=BISECTION_SECONDS * K * 2 * n_max, peak=2.0 * n_max * (80 + 48 * K))


@dataclass(frozen=True)
class CriticalBudgetCurve:
    """The exact ε*_RR for every n from 1 to twice the largest n of the run, one curve per p.

    The book's own figure: it checks nothing against the paper and needs no deviation.
    """

    n: NDArray[np.int64]
    p_values: tuple[float, ...]
    eps_star: NDArray[np.float64]  # shape (p, n)
    #: The curve has no paper setting to leave.
    paper_setting: ClassVar[bool] = True
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        """None: no published claim bears on the curve."""
        return {}

    def metrics(self) -> dict[str, Any]:
        """The curve, under its metrics.json name."""
        return {
            "rr_critical_budget_inf_curve": {
                "n": self.n,
                "p_values": self.p_values,
                "eps_star": self.eps_star,
            }
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the curve is recorded in metrics.json and drawn, not tabulated."""
        return {}

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
