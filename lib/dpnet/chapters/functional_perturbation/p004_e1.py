"""Paper 004, the book's experiment E1: anatomy of the mechanism, one agent's function perturbed,
smoothed by truncation and projected onto S, and the projection tested on noisy draws."""

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

__all__ = ["E1_AGENT", "E1_DRAWS", "E1_FINE_K", "Anatomy", "anatomy", "cost"]

#: The agent shown, the number of coefficients of its rough perturbation, and the draws on which the
#: projection is tested; every draw of E1 has ε = 1, q = 2, p = 1.
E1_AGENT, E1_FINE_K, E1_DRAWS = 0, 200, 100


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: E1's projections are part of the chapter's fixed seconds."""
    return Cost()


@dataclass(frozen=True)
class Anatomy:
    """E1: one agent's function, perturbed, smoothed by truncation and projected onto S; and the projection
    tested on ``E1_DRAWS`` noisy versions of it."""

    fine: fp.Basis1D
    problem: fp.Problem
    c_true: NDArray[np.float64]
    eta: NDArray[np.float64]
    smoothed: NDArray[np.float64]
    projected: NDArray[np.float64]
    diagnostics: Mapping[str, float | bool]
    violations: Mapping[str, float]
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E1 that a run could leave.
    paper_setting = True

    @property
    def projection_moved(self) -> float:
        """``‖f̃ − f̂^s‖`` in L²: how far the projection moved the smoothed function."""
        return float(np.linalg.norm(self.projected - self.smoothed))

    @property
    def noise_norm(self) -> float:
        """``‖Φ_K(η)‖`` in L²: the size of the truncated noise."""
        return float(np.linalg.norm(self.eta[: self.problem.basis.K]))

    def metrics(self) -> dict[str, Any]:
        """The projection's diagnostics on the test draws, and the truth's largest violation of S."""
        return {"projection_diagnostics": dict(self.diagnostics), "truth_violation": dict(self.violations)}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the diagnostics are metrics."""
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The basis, the domains, the problems and S are the book's choices."""
        title = "The basis, the domains, the problems and the constants of S are the book's"
        return (("p004-e1", title, "note-fp-choices"),)

    def figure(self) -> Figure:
        """(a) the function at each step; (b) its curvature against the band [α, β] of S."""
        xs = np.linspace(-1, 1, 801)
        v_fine = self.fine.tables(xs)[0]
        v, _, s = self.problem.basis.tables(xs)
        K, S = self.problem.basis.K, self.problem.S
        fig, axes = panel_row(2, height=3.8)
        axes[0].plot(xs, v_fine @ self.c_true, "k-", lw=2, label="$f_i$")
        axes[0].plot(xs, v_fine @ (self.c_true + self.eta), "C0-", lw=0.6, alpha=0.7,
                     label=f"$f_i + \\Phi(\\eta)$, K = {self.fine.K}")  # fmt: skip
        axes[0].plot(xs, v @ self.smoothed, "C1-", label=f"smoothed: truncated at K = {K}")
        axes[0].plot(xs, v @ self.projected, "C3--", lw=2, label="projected onto S")
        axes[0].set(xlabel="x", title="(a) one agent's function, ε = 1, q = 2")
        axes[0].legend(fontsize=SMALL)
        axes[1].plot(xs, s @ self.smoothed, "C1-", label="smoothed")
        axes[1].plot(xs, s @ self.projected, "C3--", lw=2, label="projected")
        axes[1].axhspan(S.alpha, S.beta, color="grey", alpha=0.15, label="[α, β]")
        # symmetric-log: the smoothed curvature reaches 10⁴ at the ends of D, the band [α, β] is O(1)
        axes[1].set_yscale("symlog", linthresh=4.0)
        axes[1].set(xlabel="x", ylabel="second derivative (symmetric log)",
                    title="(b) curvature against the band of S")  # fmt: skip
        axes[1].legend(fontsize=SMALL)
        return fig


def anatomy(P: Parameters, setup: Setup) -> Anatomy:
    """E1 (stream ``p004-e1``): the mechanism on agent ``E1_AGENT`` at ε = 1, q = 2, p = 1, and the
    projection's properties on ``E1_DRAWS`` draws: non-expansive on consecutive pairs, and the variational
    inequality against every agent's true function and every draw's projection, all points of S."""
    rng = P.rng("p004-e1")
    quad, K = setup.quadratic, setup.quadratic.basis.K
    fine = fp.Basis1D(-1.0, 1.0, E1_FINE_K)
    a, theta = quad.data["a"][E1_AGENT], quad.data["theta"][E1_AGENT]
    c_true = fine.project(lambda x: a / 2 * (x - theta) ** 2)  # E1_FINE_K nodes: exact for a quadratic
    eta = fp.perturbation(E1_FINE_K, 1.0, 2.0, 1.0, rng)
    smoothed = c_true[:K] + eta[:K]
    projected = fp.project(smoothed, quad.S)
    draws = quad.coefficients[E1_AGENT] + fp.perturbation(K, 1.0, 2.0, 1.0, rng, E1_DRAWS)
    # every agent's true quadratic lies in S: a_i ∈ [1, 2] ⊂ [α, β] and |f_i′| ≤ 3 < ū on X
    diag = fp.projection_diagnostics(draws, quad.S, quad.coefficients)
    violations = {
        "1-D quadratic": float(quad.S.violation(quad.coefficients).max()),
        "2-D logistic": float(setup.logistic.S.violation(setup.logistic.coefficients).max()),
    }
    # the quadratics lie in S by construction (a unit test), whatever the parameters: only the logistic
    # objectives' truncation, which the degree and the data change, is a check

    checks = ref.projection_checks(diag["expansion"], diag["variational"], diag["pairs"])
    checks += ref.feasibility_checks({"2-D logistic": violations["2-D logistic"]})
    return Anatomy(fine, quad, c_true, eta, smoothed, projected, diag, violations, {"p004-e1": checks})
