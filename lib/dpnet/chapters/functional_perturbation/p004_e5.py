"""Paper 004, the book's experiment E5: distributed execution, the distributed gradient method run
unchanged on the agents' private functions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check

__all__ = ["E5_EPS", "E5_Q", "E5_RECORD_EVERY", "Distributed", "cost", "distributed"]

#: The budget and exponent of the private functions, and how often the trajectory is recorded.
E5_EPS, E5_Q, E5_RECORD_EVERY = 10.0, 2.0, 10

#: Measured seconds of one iteration of the distributed gradient method, per n·K (see :func:`cost`).
_DGD_SECONDS = 3.5e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """E5's iterations: ``3.5·10⁻⁶·dgd_iterations·n·K`` seconds (``n = n_agents``, ``K = basis_order``).

    Calibrated on this 2-core machine, one core: 3.3·10⁻⁶ s per iteration and n·K.
    """
    return Cost(seconds=_DGD_SECONDS * values["dgd_iterations"] * values["n_agents"] * values["basis_order"])


@dataclass(frozen=True)
class Distributed:
    """E5: the distributed gradient method, unchanged, on the agents' private functions."""

    problem: fp.Problem
    x_tilde: NDArray[np.float64]
    trajectory: NDArray[np.float64]  # (records, n, 1)
    every: int
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E5 that a run could leave.
    paper_setting = True
    #: E5 records no deviation.
    deviations = ()

    @property
    def consensus(self) -> float:
        """``max_i |x_i − x̃*|`` at the last iteration."""
        return float(np.max(np.abs(self.trajectory[-1] - self.x_tilde)))

    @property
    def price(self) -> float:
        """``|x̃* − x*|``, the distance privacy puts between the private and the true optimum."""
        return float(np.linalg.norm(self.x_tilde - self.problem.x_star))

    def metrics(self) -> dict[str, Any]:
        """The final distances."""
        return {"dgd_final_gap": {"max_agent_to_private_optimum": self.consensus,
                                  "private_to_true_optimum": self.price}}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the distances are metrics."""
        return {}

    def figure(self) -> Figure:
        """Every agent's distance to x̃*, and the network average's to x*, against the iteration."""
        ks = np.arange(self.trajectory.shape[0]) * self.every
        x_star = self.problem.x_star[0]
        fig, (ax,) = panel_row(1, width=5.6, height=3.8)
        ax.loglog(ks[1:], np.abs(self.trajectory[1:, :, 0] - self.x_tilde[0]), color="C0", lw=0.5, alpha=0.6)
        ax.loglog(ks[1:], np.abs(self.trajectory[1:, :, 0].mean(axis=1) - x_star), color="C3", lw=2,
                  label="$|\\bar x(k) - x^*|$")  # fmt: skip
        ax.plot([], [], color="C0", label="$|x_i(k) - \\tilde x^*|$, every agent")
        ax.axhline(
            self.price, color="k", ls="--", label=f"$|\\tilde x^* - x^*|$ (ε = {E5_EPS:g}, q = {E5_Q:g})"
        )
        ax.set(xlabel="iteration k", ylabel="distance", title="DGD on the private functions")
        ax.legend(fontsize=SMALL)
        return fig


def distributed(P: Parameters, setup: Setup) -> Distributed:
    """E5 (stream ``p004-e5``): one draw of the private functions at ε = 10, q = 2, then DGD."""
    quad = setup.quadratic
    tilde = fp.private_functions(quad, E5_EPS, E5_Q, E5_Q / 2, P.rng("p004-e5"))
    x_tilde = fp.poly_argmin(quad.basis, tilde.sum(0), quad.lower, quad.upper)
    traj = fp.dgd(
        quad.basis, tilde, setup.W, quad.lower, quad.upper, P.dgd_iterations, record_every=E5_RECORD_EVERY
    )
    consensus = float(np.max(np.abs(traj[-1] - x_tilde)))
    return Distributed(quad, x_tilde, traj, E5_RECORD_EVERY, {"p004-e5": ref.dgd_checks(consensus)})
