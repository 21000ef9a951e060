"""The book's figure ``rr-critical-budget-vs-n``: the exact ε*_RR for every n, one curve per p, for the
paper's group test and for the one that randomises on its boundary.

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
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["CriticalBudgetCurve", "cost", "critical_budget_curve"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`critical_budget_curve`, from the resolved parameter values.

    With ``K = len(p_values)`` and ``n_max = max(n_values)``:

    * seconds: ``2·10⁻³·K·2·n_max`` (an exact ε*_RR by bisection per point of each of the two curves,
      ``_common.BISECTION_SECONDS``);
    * peak: ``2·n_max·(80 + 48·K)`` bytes (the ``arange``, the nested lists of Python floats and the
      array built from them, one curve at a time); calibrated on this 2-core machine, the curve held
      275 bytes per ``n`` at K = 4;
    * kept: not counted (the curves, ``2·16·n_max·K`` bytes, are small beside their peak).
    """
    K, n_max = len(values["p_values"]), max(values["n_values"])
    return Cost(seconds=2 * BISECTION_SECONDS * K * 2 * n_max, peak=2.0 * n_max * (80 + 48 * K))


@dataclass(frozen=True)
class CriticalBudgetCurve:
    """The exact ε*_RR for every n from 1 to twice the largest n of the run, one curve per p.

    ``eps_star`` is for the paper's group test (non-randomised boundary), ``eps_star_randomized`` for
    the one that randomises on its boundary; both of shape ``(p, n)``, +∞ where never reached. The
    book's own figure: it checks nothing against the paper and needs no deviation. Its two checks, that
    the paper's test rises at some step of n and the randomised one falls at every step, are the book's
    claims about what the group test's boundary does, recorded under the §2 boundary item.
    """

    n: NDArray[np.int64]
    p_values: tuple[float, ...]
    eps_star: NDArray[np.float64]
    eps_star_randomized: NDArray[np.float64]
    #: The curve has no paper setting to leave.
    paper_setting: ClassVar[bool] = True
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        """The book's claims about the curve (:func:`dpnet.reference.dilemma.curve_checks`), under the §2
        boundary item."""
        n = tuple(int(k) for k in self.n)
        return {
            "p003-sec2-boundary": dilemma.curve_checks(
                self.eps_star, self.eps_star_randomized, n, self.p_values
            )
        }

    def metrics(self) -> dict[str, Any]:
        """The curve, under its metrics.json name."""
        return {
            "rr_critical_budget_inf_curve": {
                "n": self.n,
                "p_values": self.p_values,
                "eps_star": self.eps_star,
                "eps_star_randomized": self.eps_star_randomized,
            }
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the curve is recorded in metrics.json and drawn, not tabulated."""
        return {}

    def figure(self) -> Figure:
        """ε* against n on a log scale, the paper's test (left, drawn as steps) beside the randomised one
        (right), on one y axis."""
        fig, axes = plotting.panel_grid(1, 2, height=3.0, sharey=True)
        ax = axes[0]
        panels = (
            (self.eps_star, "paper's test (non-randomised boundary)"),
            (self.eps_star_randomized, "randomised boundary (exact level α)"),
        )
        for a, (curves, title) in zip(ax, panels, strict=True):
            for p, curve in zip(self.p_values, curves, strict=True):
                a.plot(self.n, curve, drawstyle="steps-mid", lw=1.1, label=f"p = {p:g}")
            a.set(xlabel="agents $n$", yscale="log", title=title)
        ax[0].set_ylabel(r"exact $\varepsilon^*_{\mathrm{RR}}$")
        ax[1].legend(frameon=False)
        return fig


def critical_budget_curve(P: Parameters) -> CriticalBudgetCurve:
    """Exact ε*_RR (eq. 2 as the text defines it) for n = 1, …, 2 max(n_values), both group tests."""
    n = np.arange(1, 2 * max(P.n_values) + 1)
    return CriticalBudgetCurve(
        n,
        tuple(P.p_values),
        power.rr_critical_budget_inf_grid(n, P.p_values, P.alpha).T,
        power.rr_critical_budget_inf_grid(n, P.p_values, P.alpha, randomized=True).T,
    )
