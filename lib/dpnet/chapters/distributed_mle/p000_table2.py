"""Paper 000, Table 2 (the earlier version's summary of estimators): its headline, and where its
constants differ from paper 003's.

Table 2 states orders of growth with the log-belief threshold ϱ held constant: the AM/GM estimators
reach error η within ``K·T = O(log(1/η)(log(1/η) + log(1/ε)))`` belief exchanges. Its headline check
``amgm-row`` runs paper 000's Theorem 3.2 at one constant ϱ: the ε sweep's runs with ``T = iterations``
use the belief threshold ``τ = 1/K``, i.e. ``ϱ = log(K − 1)``, and every budget at which ``T`` meets
Theorem 3.2's bound at that ϱ is a case of the theorem (GM's Type I error at most ``2η₁``, AM's Type II
error at most ``2η₂``). Its hand-worked values are unit tests. What the chapter also computes for it:
Theorem 4.2's two optimal thresholds, where paper 000 uses one ϱ, and paper 000's Network-DP
sensitivities of the graph against the Signal-DP Δ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import _cases, _span
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.reference import complexity
from dpnet.results import Check, Deviation

__all__ = ["Paper000", "cost", "paper000", "table2_check"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: one schedule and n sensitivities."""
    return Cost()


@dataclass(frozen=True)
class Paper000:
    """Where paper 000's constants differ from paper 003's, on the instance at ``eps``.

    Attributes
    ----------
    eps
        The budget.
    rho_am, rho_gm
        Theorem 4.2's optimal thresholds ϱ*_AM, ϱ*_GM (paper 000 uses one ϱ for both).
    signal_delta, network_delta
        The Signal-DP sensitivity Δ and paper 000's Network-DP Δ_i of every agent.
    checks
        ``p000-table2``: ``amgm-row``, Table 2's headline (:func:`table2_check`).
    """

    eps: float
    rho_am: float
    rho_gm: float
    signal_delta: float
    network_delta: NDArray[np.float64]
    checks: Mapping[str, list[Check]]

    #: Table 2's claim holds for any data and budget: every run tests it.
    paper_setting: ClassVar[bool] = True
    deviations: ClassVar[tuple[Deviation, ...]] = ()

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues what it quotes."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None."""
        return {}

    @property
    def network_range(self) -> str:
        """Network DP's Δ_i: one value when every agent has it (to four digits), else the range."""
        return _span(self.network_delta, ".4g")

    @property
    def rho_ratio(self) -> float:
        """The larger optimal threshold over the smaller."""
        return max(self.rho_am, self.rho_gm) / min(self.rho_am, self.rho_gm)


def table2_check(P: Parameters, inst: Instance, eps: EpsSweep) -> Check:
    """Table 2's AM/GM row with ϱ constant: paper 000's Theorem 3.2 at ``ϱ = log(K − 1)`` (the ε sweep's
    runs with ``T = iterations``, belief threshold ``1/K``), at every budget where ``T`` meets the
    theorem's bound at that ϱ: GM's Type I error at most ``2η₁ = 2α``, AM's Type II at most ``2η₂``."""
    gm, am, left_out = [], [], []
    for e, r_gm, r_am in zip(eps.eps, eps.records["gm-T"], eps.records["am-T"], strict=True):
        K = int(r_gm["K"])
        rho = math.log(K - 1) if K > 2 else 0.0
        bound = math.inf
        if rho > 0:  # the theorem needs ϱ > 0
            bound = inf.schedule_thm42(inst.problem, a_star=inst.spectral.a_star, delta=inst.delta, eps=e,
                                       alpha=P.alpha, beta=P.beta, rho_am=rho, rho_gm=rho).T  # fmt: skip
        if eps.iterations < bound:
            left_out.append(f"{e:g}")
            continue
        gm += _cases([r_gm], "type1", "GM")
        am += _cases([r_am], "type2", "AM")
    empty = f"T = {eps.iterations} is below Theorem 3.2's bound at every budget (ϱ = log(K − 1))"
    parts = [complexity.bound_check("", gm, 2 * P.alpha, "amgm-row", empty=empty),
             complexity.bound_check("", am, 2 * (1 - P.beta), "amgm-row", empty=empty)]  # fmt: skip
    outcomes = [c.passed for c in parts]
    out = f"; left out (T below the bound): ε = {', '.join(left_out)}" if left_out else ""
    return Check(
        f"Table 2 (ϱ constant): paper 000's Theorem 3.2 at ϱ = log(K − 1) and T = {eps.iterations} "
        f"brings GM's Type I error within 2η₁ = {2 * P.alpha:.3g} and AM's Type II error within "
        f"2η₂ = {2 * (1 - P.beta):.3g} at every budget where T meets the theorem's bound",
        False if False in outcomes else None if None in outcomes else True,
        f"GM: {parts[0].detail}; AM: {parts[1].detail}{out}", "amgm-row",
    )  # fmt: skip


def paper000(P: Parameters, inst: Instance, eps: EpsSweep) -> Paper000:
    """Table 2's headline check on the ε sweep, Theorem 4.2's two optimal thresholds at ``eps_demo`` and
    the Network-DP sensitivities of the graph."""
    s42 = inf.schedule_thm42(
        inst.problem,
        a_star=inst.spectral.a_star,
        delta=inst.delta,
        eps=P.eps_demo,
        alpha=P.alpha,
        beta=P.beta,
    )
    network = inf.network_dp_sensitivity(inst.delta, inst.weights)
    checks = {"p000-table2": [table2_check(P, inst, eps)]}
    return Paper000(P.eps_demo, s42.rho_am, s42.rho_gm, inst.delta, network, checks)
