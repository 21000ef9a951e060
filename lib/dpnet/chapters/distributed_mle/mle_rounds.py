"""The book's figure ``mle-rounds``: how the prescribed K and T grow with n, with ``|Θ|`` and with 1/ε.

Theorem 4.2's T on four graph families for n = 3…50, K and K·T for ``|Θ|`` = 2…20 (with the corrected
two-threshold rule's K from Hoeffding's inequality, as the proof uses it, and from the multiplicative
Chernoff bound, and the rounds Θ̂² needs exactly at zero gap), K·T of Theorems 4.2 and 4.5 and of the
authors' code for 41 budgets, and the growth of T as ε → 0 (Table 1's ε column).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks
from dpnet.chapters.distributed_mle._common import CODE_RHO
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.inference.rounds import rounds_thres2_exact, rounds_thres_chernoff, win_probabilities_corrected
from dpnet.inference.schedules import schedule_thm43_corrected
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, fixed_ticks, log_ticks, panel_row, plain_log
from dpnet.results import Check, Deviation

__all__ = ["Scaling", "cost", "scaling"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed forms on fixed grids (independent of the parameters' sizes): counted in the chapter's
    fixed seconds."""
    return Cost()


@dataclass(frozen=True)
class Scaling:
    """How the prescribed K and T grow with n (four graph families), with ``|Θ|`` and with 1/ε.

    Attributes
    ----------
    eps
        The budget of the first two panels.
    n_grid, by_graph
        Agents, and Theorem 4.2's T on each graph family (per-agent data as in the chapter: Γ fixed,
        the gap growing like n).
    state_grid, by_states
        ``|Θ|``, and K of Theorems 4.1 (paper's and corrected) and 4.3 (paper's, corrected with
        Hoeffding's inequality and with the multiplicative Chernoff bound, and what Θ̂² needs exactly at
        zero gap with the corrected τ²), and K·T of Theorem 4.2.
    eps_grid, by_eps
        Budgets, and K·T of Theorems 4.2 and 4.5 and of the authors' code.
    slope_fixed, slope_optimal
        Growth of Theorem 4.2's T per unit of log(1/ε) at the ACTG runs' fixed ϱ and at the optimal ϱ*.
    """

    eps: float
    n_grid: list[int]
    by_graph: dict[str, list[int]]
    state_grid: list[int]
    by_states: dict[str, list[int]]
    eps_grid: NDArray[np.float64]
    by_eps: dict[str, list[int]]
    slope_fixed: inf.EpsSlope
    slope_optimal: inf.EpsSlope

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting
    #: (its identities with Table 1 hold by construction: unit tests).
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    def metrics(self) -> dict[str, Any]:
        """The three curves, under their metrics.json names."""
        return {
            "rounds_vs_n": {"n": self.n_grid, "eps": self.eps, **self.by_graph},
            "rounds_vs_states": {"n_states": self.state_grid, "eps": self.eps, **self.by_states},
            "rounds_vs_eps": {"eps": self.eps_grid, **self.by_eps},
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the curves are in metrics.json."""
        return {}

    def figure(self) -> Figure:
        """Left: T against n; middle: K and K·T against ``|Θ|``; right: K·T against ε."""
        fig, ax = panel_row(3, height=3.6)
        for kind, Ts in self.by_graph.items():
            ax[0].plot(self.n_grid, Ts, lw=1.5, label=kind)
        ax[0].set(xlabel="agents n", ylabel=f"Thm 4.2's T (ε = {self.eps:g})", ylim=(0, None))
        ax[0].legend()
        style = {  # a corrected count: dashed; the exact requirement: dotted
            "K Thm 4.1": ("C0", "-"), "K Thm 4.1 corrected": ("C0", "--"), "K Thm 4.3": ("C2", "-"),
            "K Thm 4.3 corrected": ("C2", "--"), "K Thm 4.3 corrected, Chernoff": ("C8", "--"),
            "K Θ̂² needs exactly": ("C3", ":"), "K·T Thm 4.2": ("C4", "-"),
        }  # fmt: skip
        shown = {"K Thm 4.3 corrected": "K Thm 4.3 corrected, Hoeffding",
                 "K Θ̂² needs exactly": "K Θ̂² needs exactly (zero gap)"}  # fmt: skip
        for name, vals in self.by_states.items():
            color, ls = style[name]
            ax[1].plot(
                self.state_grid, vals, lw=1.5, marker=".", label=shown.get(name, name), color=color, ls=ls
            )
        ax[1].set(xlabel="states |Θ|", ylabel="rounds K / communication K·T", yscale="log")
        log_ticks(ax[1].yaxis, [v for vals in self.by_states.values() for v in vals])
        fixed_ticks(ax[1].xaxis, [m for m in self.state_grid if m % 2 == 0])
        ax[1].legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=SMALL)
        for name, vals in self.by_eps.items():
            ax[2].plot(self.eps_grid, vals, lw=1.5, label=name, drawstyle="steps-mid")
        ax[2].set(xlabel="privacy budget ε", ylabel="communication K·T", xscale="log", yscale="log")
        plain_log(ax[2].xaxis)
        log_ticks(ax[2].yaxis, [v for vals in self.by_eps.values() for v in vals])
        ax[2].legend()
        return fig  # fmt: skip


def scaling(P: Parameters, inst: Instance) -> Scaling:
    """Theorem 4.2's T for n = 3…50 on four graph families, K and K·T for ``|Θ|`` = 2…20 (both at
    ``eps_demo``), K·T for 41 budgets from 10⁻³ to 10², and the growth of T as ε → 0."""
    prob, e, a = inst.problem, P.eps_demo, inst.spectral.a_star
    t = {"delta": inst.delta, "alpha": P.alpha, "beta": P.beta}
    n_grid = list(range(3, 51))
    by_graph = {}
    for kind in ("complete", "cycle", "star", "path"):
        Ts = []
        for n in n_grid:
            a_n = networks.spectral_constants(networks.make_graph(kind, n)).a_star
            p_n = inf.ProblemConstants(n=n, n_states=prob.n_states, n_mle=prob.n_mle, gamma=prob.gamma,
                                       gap=prob.gap * n / inst.n)  # fmt: skip
            Ts.append(inf.schedule_thm42(p_n, a_star=a_n, eps=e, **t).T)
        by_graph[kind] = Ts
    state_grid = list(range(2, 21))
    by_states: dict[str, list[int]] = {
        "K Thm 4.1": [],
        "K Thm 4.1 corrected": [],
        "K Thm 4.3": [],
        "K Thm 4.3 corrected": [],
        "K Thm 4.3 corrected, Chernoff": [],
        "K Θ̂² needs exactly": [],
        "K·T Thm 4.2": [],
    }
    for m in state_grid:
        p_m = inf.ProblemConstants(n=inst.n, n_states=m, n_mle=1, gamma=prob.gamma, gap=prob.gap)
        by_states["K Thm 4.1"].append(inf.schedule_thm41(p_m, eps=e, **t).K)
        by_states["K Thm 4.1 corrected"].append(inf.schedule_thm41(p_m, eps=e, **t, corrected=True).K)
        by_states["K Thm 4.3"].append(inf.schedule_thm43(p_m, eps=e, **t, pi1=P.pi, pi2=P.pi).K)
        fixed = schedule_thm43_corrected(p_m, eps=e, **t, pi1=P.pi, pi2=P.pi)
        by_states["K Thm 4.3 corrected"].append(fixed.K)
        q1, q2 = win_probabilities_corrected(m, 1)
        chernoff = rounds_thres_chernoff(m, 1, P.alpha, P.beta, P.pi, P.pi, q1, q2)
        by_states["K Thm 4.3 corrected, Chernoff"].append(inf.to_int_ceil(max(chernoff), minimum=1))
        by_states["K Θ̂² needs exactly"].append(rounds_thres2_exact(m, P.beta, fixed.freq_2))
        s = inf.schedule_thm42(p_m, a_star=a, eps=e, **t)
        by_states["K·T Thm 4.2"].append(s.K * s.T)
    eps_grid = np.logspace(-3, 2, 41)
    by_eps: dict[str, list[int]] = {"Thm 4.2": [], "Thm 4.5": [], "authors' code": []}
    rho = CODE_RHO
    for x in eps_grid:
        plans = (
            inf.schedule_thm42(prob, a_star=a, eps=x, **t),
            inf.schedule_thm45(prob, a_star=a, eps=x, **t, q1=P.q1, q2=P.q2, pi1=P.pi, pi2=P.pi),
            inf.schedule_authors_code(prob, a_star=a, eps=x, **t, rho=rho),
        )
        for name, s in zip(by_eps, plans, strict=True):
            by_eps[name].append(s.K * s.T)
    slope_fixed = inf.iterations_eps_slope(prob, a_star=a, **t, rho=rho)
    slope_optimal = inf.iterations_eps_slope(prob, a_star=a, **t)  # with the optimal ϱ*
    return Scaling(e, n_grid, by_graph, state_grid, by_states, eps_grid, by_eps, slope_fixed, slope_optimal)
