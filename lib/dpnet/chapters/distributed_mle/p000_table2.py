"""Paper 000, Table 2 (the earlier version's summary of estimators): where its constants differ from
paper 003's.

Table 2 states formulas only, so it has no check of its own (its hand-worked values are unit tests;
:func:`~dpnet.chapters.distributed_mle.p003_table1.complexity_checks` records its empty list of checks
beside Table 1's). What the chapter computes for it: Theorem 4.2's two optimal thresholds, where paper
000 uses one ϱ, and paper 000's Network-DP sensitivities of the graph against the Signal-DP Δ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import _span
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters

__all__ = ["Paper000", "cost", "paper000"]


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
    """

    eps: float
    rho_am: float
    rho_gm: float
    signal_delta: float
    network_delta: NDArray[np.float64]

    @property
    def network_range(self) -> str:
        """Network DP's Δ_i: one value when every agent has it (to four digits), else the range."""
        return _span(self.network_delta, ".4g")

    @property
    def rho_ratio(self) -> float:
        """The larger optimal threshold over the smaller."""
        return max(self.rho_am, self.rho_gm) / min(self.rho_am, self.rho_gm)


def paper000(P: Parameters, inst: Instance) -> Paper000:
    """Theorem 4.2's two optimal thresholds at ``eps_demo`` and the Network-DP sensitivities of the graph."""
    s42 = inf.schedule_thm42(
        inst.problem,
        a_star=inst.spectral.a_star,
        delta=inst.delta,
        eps=P.eps_demo,
        alpha=P.alpha,
        beta=P.beta,
    )
    network = inf.network_dp_sensitivity(inst.delta, inst.weights)
    return Paper000(P.eps_demo, s42.rho_am, s42.rho_gm, inst.delta, network)
