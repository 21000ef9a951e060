"""Chapter 8, ``functional-perturbation``: private distributed convex optimisation by functional
perturbation (paper 004, Nozari, Tallapragada & Cortés, from the first author's talk slides).

The chapter's parameters (:data:`SCHEMA`) and its experiments E0–E7, the book's own design: the slides
publish no figure or number to match. Each experiment takes the resolved parameters (and the agents'
problems, :func:`problems`), computes with :mod:`dpnet.funcpert`, checks the outcome with
:mod:`dpnet.reference.funcpert`, and returns a small frozen dataclass that the chapter records
(:meth:`dpnet.results.Results.record`), tabulates and plots. Every choice the slides leave open is a
module constant here and an entry of the book's reproduction notes (``note-fp-…``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import special, stats

from dpnet import funcpert as fp
from dpnet.estimation import loglog_slope
from dpnet.params import COMMON, Footprint, Param, Parameters, Schema, eps_grid, integer, list_of, real
from dpnet.plotting import SMALL, panel_row, panel_rows
from dpnet.reference import funcpert as ref
from dpnet.reference._check import Check
from dpnet.sweep import sweep

__all__ = [
    "SCHEMA",
    "Anatomy",
    "Calibration",
    "CaseStudy",
    "Distributed",
    "ErrorRegion",
    "MessagePerturbation",
    "RecordLevel",
    "Setup",
    "Summary",
    "Tradeoff",
    "anatomy",
    "calibration",
    "case_study",
    "distributed",
    "hypothesis_testing",
    "message_perturbation",
    "problems",
    "record_level",
    "summary",
    "tradeoff",
]

#: Measured costs on this 2-core machine (one core), see :func:`_footprint`.
_RUN_1D_SECONDS = (5e-4, 3e-5, 1.85e-5)  # one 1-D run (E3): a fixed part, per n·K, per K²
_RUN_2D_SECONDS = 1e-7  # one 2-D logistic run (E4, E7), per n·K₂³
_DGD_SECONDS = 3.5e-6  # one iteration of the distributed gradient method (E5), per n·K
_AGENT_SECONDS = 0.45  # E6's noise-free floors and tuning, per agent
_MESSAGE_RUN_SECONDS = (0.14, 0.5)  # one message-perturbation run at every budget: E6 (1-D), E7 (2-D)
_MESSAGE_BYTES = (2**24, 6200)  # the schedules run side by side: noise block, and per run and agent
_IMPOSSIBILITY_SECONDS = 3.3e-5  # one run of the impossibility demonstration, per agent
_IMPOSSIBILITY_BYTES = 4900  # the same run's messages and log-ratios, per agent
_FIXED_SECONDS = 30.0  # kernel, problems, E0–E2, E7's sensitivities at degrees 14 and 18, figures


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    With ``n = n_agents``, ``K = basis_order``, ``K₂ = (M+1)(M+2)/2`` for ``M = degree_2d``,
    ``Q = len(q)``, ``E = len(eps_values)``:

    * seconds: ``30`` ``+ Q·E·runs·(5·10⁻⁴ + 3·10⁻⁵·n·K + 1.85·10⁻⁵·K²)`` (E3)
      ``+ (8 + 4)·runs_2d·10⁻⁷·n·K₂³`` (E4's 8 and E7's 4 budgets)
      ``+ 3.5·10⁻⁶·dgd_iterations·n·K`` (E5) ``+ 0.45·n + 0.14·message_runs
      + 3.3·10⁻⁵·n·impossibility_runs`` (E6) ``+ 0.5·message_runs`` (E7's tuned messages);
    * memory: the largest of the impossibility demonstration, ``4900·n·impossibility_runs`` bytes,
      a 2-D run's basis on its grid, ``2200·K₂²``, and the message schedules run side by side,
      ``2²⁴ + 6200·n·message_runs`` (a block of noise and the states of E7's 64 schedules).

    Calibrated on this 2-core machine, one core, on the library calls, averaged over E3's grid of
    (q, ε) and over the budgets of E4 and E7: a 1-D run took 9.8 ms at n = 10, K = 20, 28 ms at
    n = 40 and 84 ms at K = 60 (the fit errs high at the defaults); a 2-D run 0.16 s at n = 10,
    M = 10, 0.57 s at n = 40, 0.99 s at M = 14 and 6.7 s at M = 18, about cubic in K₂ (the
    projection's quadratic programme); E5 3.3·10⁻⁶ s per iteration and n·K; E6 8.3 s and 47 MiB at the
    earlier quick defaults (20 message runs), 11.3 s and 0.46 GiB at 10 000 impossibility runs, 16.5 s
    and 0.18 GiB at n = 40. Since the schedules of the tuned baseline run side by side, its 80 schedules
    took 0.85 s at 5 message runs and 7.0 s at 50 (E6), E7's 64 schedules 3.1 to 4.2 s at 5. With
    other jobs on the machine, the quick chapter's experiments took 22 s and its whole run, figures
    included, 71 to 76 s (estimate 65 s); the full chapter's whole run took 139 to 180 s (estimate
    178 s).
    """
    n, K, M = values["n_agents"], values["basis_order"], values["degree_2d"]
    K2 = (M + 1) * (M + 2) // 2
    runs_1d = len(values["q"]) * len(values["eps_values"]) * values["runs"]
    fixed, per_nk, per_k2 = _RUN_1D_SECONDS
    imp, messages = values["impossibility_runs"], values["message_runs"]
    seconds = (
        _FIXED_SECONDS
        + runs_1d * (fixed + per_nk * n * K + per_k2 * K**2)
        + (len(EPS_2D) + len(RECORD_EPS)) * values["runs_2d"] * _RUN_2D_SECONDS * n * K2**3
        + _DGD_SECONDS * values["dgd_iterations"] * n * K
        + _AGENT_SECONDS * n
        + sum(_MESSAGE_RUN_SECONDS) * messages
        + _IMPOSSIBILITY_SECONDS * n * imp
    )
    side_by_side = _MESSAGE_BYTES[0] + _MESSAGE_BYTES[1] * n * messages
    memory = max(float(_IMPOSSIBILITY_BYTES * n * imp), 2200.0 * K2**2, float(side_by_side))
    return Footprint(memory=memory, seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every noise draw in the chapter", default=20160706),
        "n_agents": Param(integer(ge=2, le=200), "agents n (a choice: the slides give none)", default=10),
        "basis_order": Param(integer(ge=3, le=60), "basis functions K of the 1-D problems", default=20),
        "degree_2d": Param(
            integer(ge=4, le=18), "total degree M of the 2-D basis (K = (M+1)(M+2)/2)", default=10
        ),
        "q": Param(list_of(real(gt=1.0, le=8.0)), "adjacency exponents q (p = q/2)", default=[1.5, 2.0, 4.0]),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy levels ε of the 1-D trade-off (E3)",
            default=[0.1, 0.316, 1.0, 3.16, 10.0, 31.6, 100.0, 316.0, 1000.0],
        ),
        "runs": Param(integer(ge=5, le=2000), "noise draws per (q, ε), 1-D", quick=20, full=100),
        "runs_2d": Param(integer(ge=2, le=500), "noise draws per ε, 2-D logistic", quick=5, full=20),
        "impossibility_runs": Param(
            integer(ge=100, le=20_000), "runs of the message-perturbation demonstration (E6)", quick=1000,
            full=4000,
        ),
        "dgd_iterations": Param(
            integer(ge=100, le=50_000), "iterations of the distributed gradient method (E5)", quick=2500,
            full=5000,
        ),
        "message_runs": Param(
            integer(ge=5, le=1000), "runs per schedule and ε of message perturbation (E6, E7)", quick=5,
            full=50,
        ),
        "data_seed": Param(integer(ge=0), "seed of the agents' data, kept apart from the noise", default=0),
    },
    # the integer keys that seeded each experiment's draws before the streams had names
    streams={
        "p004-e1": (1,),
        "p004-e2": (2,),
        "p004-e3": (3,),
        "p004-e4": (4,),
        "p004-e4/boundaries": (5,),
        "p004-e5": (6,),
        "p004-e6/floor-short": (6, 0),
        "p004-e6/floor-long": (6, 1),
        "p004-e6/tuned": (6, 2),
        "p004-e6/impossibility": (6, 3),
        "p004-e6/floor-shifted": (6, 4),
        "p004-e7/functional": (7, 0),
        "p004-e7/messages": (7, 1),
    },
    footprint=_footprint,
)  # fmt: skip

#: The 2-D problem: records per agent (note-fp-problems).
RECORDS_2D = 10
#: E0: the budgets of the figure of allowed error pairs.
E0_EPS = (0.1, 0.5, 1.0, 2.0)
#: E1: the agent shown, the number of coefficients of its rough perturbation, and the draws on which the
#: projection is tested; every draw of E1 has ε = 1, q = 2, p = 1.
E1_AGENT, E1_FINE_K, E1_DRAWS = 0, 200, 100
#: E2: the q of the optimal-p search, the p grid, and the Monte Carlo of the noise energy and the privacy
#: loss (K = 20, q = 2, p = 1, ε = 1).
E2_Q = (1.5, 2.0, 3.0, 4.0)
E2_P_GRID = (0.5005, 3.4995, 60_000)
E2_K, E2_ENERGY_DRAWS, E2_SHIFTS, E2_EXTREMAL_K = 20, 20_000, 1000, 1_000_000
#: E3: the exponent of the worst-case accuracy bound in 1-D, −2/(d + 4) (note-fp-accuracy-bound), and
#: the fewest draws at which the RMS ratio at ε ≥ 1000 is compared (note-fp-tolerances).
BOUND_SLOPE_1D = -2 / 5
LINEAR_REGIME_RUNS = 100
#: E4: the budgets of the case study (q = 2), its slope window, and the budgets of the drawn boundaries.
EPS_2D = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 1000.0)
SLOPE_WINDOW_2D = (1.0, 100.0)
BOUNDARY_EPS = (0.1, 1.0, 10.0)
#: E5: the budget and exponent of the private functions, and how often the trajectory is recorded.
E5_EPS, E5_Q, E5_RECORD_EVERY = 10.0, 2.0, 10
#: E6: the message scheme's iterations, the noise-free runs' iterations, the shift of agent 0's θ that
#: makes the adjacent problem, the budgets of the tuned baseline, and the event radius of the
#: impossibility demonstration (note-fp-message-accountant, note-fp-impossibility).
MESSAGE_ITERATIONS, FLOOR_ITERATIONS, ADJACENT_SHIFT = 1500, 3000, 0.8
MESSAGE_EPS = (1.0, 10.0, 100.0, 1000.0, math.inf)
IMPOSSIBILITY_MESSAGES, IMPOSSIBILITY_RADIUS = 100, 0.03
ACCOUNTANT_LABELS = {
    "geometric": "geometric (c, ρ_s, ρ_η) = (0.1, 0.9, 0.95), ε = 1",
    "convergent": "convergent $s_k ∝ k^{−0.7}$, $b_k ∝ 1/k$",
}
#: E7: the record-level budgets compared, and the degrees at which the sensitivity is computed.
RECORD_EPS = (10.0, 100.0, 1000.0, 10_000.0)
RECORD_DEGREES = (14, 18)


# --------------------------------------------------------------------------------------------------
# the agents' problems
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """The agents' two problems (drawn from ``data_seed``), their graph and its weights."""

    quadratic: fp.Problem
    logistic: fp.Problem
    graph: nx.Graph
    W: NDArray[np.float64]


def problems(P: Parameters) -> Setup:
    """The 1-D quadratics, then the 2-D logistic records, from one generator seeded by ``data_seed``."""
    data = np.random.default_rng(P.data_seed)
    quad = fp.quadratic_problem(P.n_agents, P.basis_order, data)
    logit = fp.logistic_problem(P.n_agents, RECORDS_2D, P.degree_2d, data)
    graph = fp.chorded_ring(P.n_agents)
    return Setup(quad, logit, graph, fp.lazy_metropolis(graph))


# --------------------------------------------------------------------------------------------------
# E0: what ε means for a test
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorRegion:
    """E0: the error pairs an ε-DP test allows, and the floor of the larger error, per ε."""

    floors: Mapping[float, float]
    checks: Mapping[str, list[Check]]

    def metrics(self) -> dict[str, Any]:
        """The numerical floors of max(p_FA, p_MD), by ε."""
        return {"error_rate_floor": {f"{eps:g}": f for eps, f in self.floors.items()}}

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


# --------------------------------------------------------------------------------------------------
# E1: anatomy of the mechanism
# --------------------------------------------------------------------------------------------------


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
        axes[1].set(xlabel="x", ylabel="second derivative", title="(b) curvature against the band of S")
        axes[1].legend(fontsize=SMALL)
        return fig


def anatomy(P: Parameters, setup: Setup) -> Anatomy:
    """E1 (stream ``p004-e1``): the mechanism on agent ``E1_AGENT`` at ε = 1, q = 2, p = 1, and the
    projection's properties on ``E1_DRAWS`` draws."""
    rng = P.rng("p004-e1")
    quad, K = setup.quadratic, setup.quadratic.basis.K
    fine = fp.Basis1D(-1.0, 1.0, E1_FINE_K)
    a, theta = quad.data["a"][E1_AGENT], quad.data["theta"][E1_AGENT]
    c_true = fine.project(lambda x: a / 2 * (x - theta) ** 2)
    eta = fp.perturbation(E1_FINE_K, 1.0, 2.0, 1.0, rng)
    smoothed = c_true[:K] + eta[:K]
    projected = fp.project(smoothed, quad.S)
    draws = quad.coefficients[E1_AGENT] + fp.perturbation(K, 1.0, 2.0, 1.0, rng, E1_DRAWS)
    diag = fp.projection_diagnostics(draws, quad.S, quad.coefficients[E1_AGENT])
    violations = {
        "1-D quadratic": float(quad.S.violation(quad.coefficients).max()),
        "2-D logistic": float(setup.logistic.S.violation(setup.logistic.coefficients).max()),
    }
    checks = ref.projection_checks(diag["expansion"], diag["variational"]) + ref.feasibility_checks(
        violations
    )
    return Anatomy(fine, quad, c_true, eta, smoothed, projected, diag, violations, {"p004-e1": checks})


# --------------------------------------------------------------------------------------------------
# E2: calibration
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """E2: γ against ε, the noise energy against p, the Monte Carlo energy, and the privacy loss of
    random and extremal shifts of the coefficients (K = 20, q = 2, p = 1, ε = 1)."""

    q_values: tuple[float, ...]
    p_grid: NDArray[np.float64]
    optimal_p: Mapping[float, float]
    energy_error: float
    loss_ratios: NDArray[np.float64]
    worst_ratio: float
    checks: Mapping[str, list[Check]]

    def metrics(self) -> dict[str, Any]:
        """The optimal p by q, and the largest privacy-loss ratio of the random shifts."""
        return {
            "optimal_p": {f"{q:g}": p for q, p in self.optimal_p.items()},
            "loss_ratio_max": float(self.loss_ratios.max()),
        }

    @property
    def table(self) -> pd.DataFrame:
        """γ at ε = 1 and the bound √2 ζ(q) on the expected noise norm, for the run's q (p = q/2)."""
        return pd.DataFrame([
            {"q": q, "p = q/2": q / 2, "γ at ε = 1": fp.gamma(1.0, q, q / 2),
             "√2 ζ(q) (bound on E‖Φ(η)‖ at ε = 1)": math.sqrt(2) * special.zeta(q)}
            for q in self.q_values
        ])  # fmt: skip

    def figure(self) -> Figure:
        """(a) γ against ε; (b) the energy factor against p/q; (c) the privacy-loss ratios."""
        fig, axes = panel_row(3, height=3.4)
        eps_line = np.geomspace(0.1, 1000, 50)
        for k, q in enumerate(E2_Q):
            ps = self.p_grid[self.p_grid < q - 0.5]
            axes[1].semilogy(ps / q, fp.noise_energy_factor(q, ps), color=f"C{k}", label=f"q = {q:g}")
            if q in self.q_values:
                gammas = [fp.gamma(e, q, q / 2) for e in eps_line]
                axes[0].loglog(eps_line, gammas, color=f"C{k}", label=f"q = {q:g}, p = q/2")
        axes[0].set(xlabel="ε", ylabel="γ", title="(a) noise scale constant")
        axes[0].legend(fontsize=SMALL)
        axes[1].axvline(0.5, color="grey", lw=0.6)
        axes[1].set(
            xlabel="p / q", ylabel="ζ(2p) ζ(2(q−p))", title="(b) noise energy × ε²/2,\nleast at p = q/2"
        )
        axes[1].legend(fontsize=SMALL)
        axes[2].hist(self.loss_ratios, bins=40, color="C0", alpha=0.7, label="random Δ")
        axes[2].axvline(self.worst_ratio, color="C3", label="extremal $Δ_k ∝ k^{p−2q}$")
        axes[2].set(xlabel="privacy loss / (ε‖Δ‖$_{V_q}$)", title="(c) q = 2, p = 1, ε = 1")
        axes[2].legend(fontsize=SMALL)
        return fig


def calibration(P: Parameters) -> Calibration:
    """E2 (stream ``p004-e2``): the optimal p on a grid, the Monte Carlo noise energy, and the privacy loss
    of ``E2_SHIFTS`` random shifts and of the extremal shift with ``E2_EXTREMAL_K`` terms."""
    rng = P.rng("p004-e2")
    p_grid = np.linspace(*E2_P_GRID)
    optimal_p = {}
    for q in E2_Q:
        ps = p_grid[p_grid < q - 0.5]
        optimal_p[q] = float(ps[np.argmin(fp.noise_energy_factor(q, ps))])
    q, p = 2.0, 1.0
    gam = fp.gamma(1.0, q, p)
    energy = np.sum(fp.perturbation(E2_K, 1.0, q, p, rng, E2_ENERGY_DRAWS) ** 2, axis=1)
    energy_error = abs(energy.mean() / fp.noise_energy(E2_K, gam, p) - 1)
    shifts = rng.standard_normal((E2_SHIFTS, E2_K)) * rng.uniform(0, 1, (E2_SHIFTS, 1)) ** 3
    ratios = fp.privacy_loss(shifts, fp.laplace_scales(E2_K, gam, p)) / fp.vq_norm(shifts, q)
    worst = fp.extremal_shift(E2_EXTREMAL_K, q, p)
    worst_ratio = float(fp.privacy_loss(worst, fp.laplace_scales(worst.size, gam, p)) / fp.vq_norm(worst, q))
    checks = ref.calibration_checks(optimal_p, float(energy_error))
    return Calibration(
        tuple(P.q), p_grid, optimal_p, float(energy_error), ratios, worst_ratio, {"p004-e2": checks}
    )


# --------------------------------------------------------------------------------------------------
# E3: the privacy–accuracy trade-off (1-D quadratics)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorTask:
    """One cell of a trade-off sweep: ``runs`` draws of Algorithm 1 on ``problem`` at (q, ε), p = q/2."""

    q: float
    eps: float
    runs: int
    problem: fp.Problem = field(compare=False, repr=False)


def _errors(task: ErrorTask, rng: np.random.Generator) -> NDArray[np.float64]:
    return fp.tradeoff_errors((task.problem, task.q, task.eps, task.runs), rng)


@dataclass(frozen=True)
class Tradeoff:
    """E3: the error of Algorithm 1 on the 1-D quadratics for every (q, ε) of the run.

    Attributes
    ----------
    table
        One row per (q, ε): mean and RMS error, 10 % and 90 % quantiles, the linearised RMS.
    slopes
        Per q, the fitted log-log slope of the mean error over ε ∈ [10, 1000] (``nan`` when fewer than two
        ε of the grid lie there).
    diameter
        diam(X), the largest possible error.
    """

    q_values: tuple[float, ...]
    eps: NDArray[np.float64]
    table: pd.DataFrame
    slopes: Mapping[float, float]
    diameter: float
    checks: Mapping[str, list[Check]]

    @property
    def worst_over_diameter(self) -> float:
        """The largest mean error over diam(X)."""
        return float(np.max(self.table["mean_error"].to_numpy()) / self.diameter)

    @property
    def slope_range(self) -> tuple[float, float]:
        """The smallest and largest fitted slope (``nan`` when no slope is defined)."""
        fitted = [s for s in self.slopes.values() if math.isfinite(s)]
        return (min(fitted), max(fitted)) if fitted else (math.nan, math.nan)

    @property
    def mean_errors(self) -> pd.DataFrame:
        """Mean error, one row per ε and one column per q."""
        return self.table.pivot(index="eps", columns="q", values="mean_error")

    @property
    def slope_table(self) -> pd.DataFrame:
        """The fitted slope per q, beside the bound's exponent and the linearised law's."""
        return pd.DataFrame({
            "q": list(self.slopes), "fitted slope, ε ∈ [10, 1000]": list(self.slopes.values()),
            "bound's exponent −2/(d+4)": BOUND_SLOPE_1D, "linearised law": -1.0,
        })  # fmt: skip

    @property
    def error_rows(self) -> list[dict[str, Any]]:
        """``error_vs_eps`` rows of the 1-D problem."""
        return self.table[["problem", "q", "eps", "mean_error", "rms_error"]].to_dict("records")

    @property
    def slope_rows(self) -> list[dict[str, Any]]:
        """``fitted_slope`` rows of the 1-D problem."""
        return [{"problem": "quadratic", "q": q, "slope": s} for q, s in self.slopes.items()]

    def tables(self) -> dict[str, pd.DataFrame]:
        """The trade-off table."""
        return {"fp-tradeoff-1d": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The accuracy bound's κ is the book's derivation."""
        return (("p004-e3", "The accuracy bound's κ is derived, not the paper's", "note-fp-accuracy-bound"),)

    def figure(self) -> Figure:
        """(a) mean error with its 10–90 % band and the linearised RMS; (b) RMS over the linearised RMS."""
        fig, axes = panel_row(2, height=4.0)
        for j, q in enumerate(self.q_values):
            colour = plt.cm.viridis(j / max(len(self.q_values) - 1, 1))
            cell = self.table[self.table["q"] == q]
            axes[0].loglog(cell["eps"], cell["mean_error"], "o-", color=colour, label=f"q = {q:g}: mean")
            axes[0].fill_between(cell["eps"], cell["q10"], cell["q90"], color=colour, alpha=0.15)
            axes[0].loglog(cell["eps"], cell["linearised_rms"], "--", color=colour, lw=0.8)
            axes[1].semilogx(cell["eps"], cell["rms_error"] / cell["linearised_rms"], "o-", color=colour,
                             label=f"q = {q:g}")  # fmt: skip
        guide = self.table["mean_error"].max() * (self.eps / self.eps[0]) ** BOUND_SLOPE_1D
        axes[0].loglog(self.eps, guide, "k:", label="the bound's exponent −2/(d+4), shape only")
        axes[0].axhline(self.diameter, color="grey", lw=0.6, label="diam(X)")
        axes[0].set(xlabel="ε", ylabel="$|\\tilde x^* - x^*|$",
                    title="(a) 1-D quadratics: mean,\n10–90 % band, linearised RMS")  # fmt: skip
        axes[0].legend(fontsize=SMALL)
        axes[1].axhline(1, color="k", lw=0.6)
        axes[1].set(xlabel="ε", ylabel="RMS / linearised RMS",
                    title="(b) the projection denoises\nat small ε")  # fmt: skip
        axes[1].legend(fontsize=SMALL)
        return fig


def _error_row(problem: fp.Problem, q: float, eps: float, err: NDArray[np.float64]) -> dict[str, Any]:
    return {"problem": problem.name, "q": q, "eps": eps, "mean_error": float(err.mean()),
            "rms_error": float(np.sqrt(np.mean(err**2)))}  # fmt: skip


def tradeoff(P: Parameters, setup: Setup) -> Tradeoff:
    """E3 (stream ``p004-e3``, one child per (q, ε) named by their positions in ``q`` and ``eps_values``)."""
    quad, q_values, eps = setup.quadratic, tuple(P.q), np.array(P.eps_values)
    tasks = [ErrorTask(q, float(e), P.runs, quad) for q in q_values for e in eps]
    position = {(q, float(e)): (i, j) for i, q in enumerate(q_values) for j, e in enumerate(eps)}
    errors = sweep(_errors, tasks, P.stream("p004-e3"), key=lambda t: position[(t.q, t.eps)],
                   desc="functional perturbation, 1-D")  # fmt: skip
    rows = [
        {**_error_row(quad, t.q, t.eps, err), "q10": float(np.quantile(err, 0.1)),
         "q90": float(np.quantile(err, 0.9)), "linearised_rms": fp.linearised_rms(quad, t.eps, t.q)}
        for t, err in errors.items()
    ]  # fmt: skip
    table = pd.DataFrame(rows)
    lo, hi = ref.SLOPE_WINDOW
    in_window = np.sum((eps >= lo) & (eps <= hi))
    slopes, spearman = {}, {}
    for q in q_values:
        cell = table[table["q"] == q]
        slopes[q] = loglog_slope(cell["eps"], cell["mean_error"], lo, hi) if in_window >= 2 else math.nan
        spearman[q] = float(stats.spearmanr(cell["eps"], cell["mean_error"])[0])
    checks = ref.tradeoff_checks(spearman, slopes, BOUND_SLOPE_1D, *_tradeoff_inputs(table, P.runs))
    return Tradeoff(q_values, eps, table, slopes, quad.diameter, {"p004-e3": checks})


def _tradeoff_inputs(
    table: pd.DataFrame, runs: int
) -> tuple[dict[tuple[float, float], float], dict[float, float], float]:
    """The RMS ratios compared, the mean errors at ε = 10 by q, and the smallest mean error at ε = 0.1.

    An RMS of heavy-tailed errors at ε = 1000 has a Monte Carlo standard error of about 1/√(2 runs), so
    the linear regime is compared only with at least :data:`LINEAR_REGIME_RUNS` draws (note-fp-tolerances).
    """
    at = table.set_index(["q", "eps"])
    cases = ((2.0, 10.0),) if runs < LINEAR_REGIME_RUNS else ((2.0, 1000.0), (4.0, 1000.0), (2.0, 10.0))
    ratios = {c: float(at.loc[c, "rms_error"] / at.loc[c, "linearised_rms"]) for c in cases if c in at.index}
    at_10 = table[table["eps"] == ref.ORDER_EPS].set_index("q")["mean_error"]
    at_smallest = table[table["eps"] == ref.SATURATION_EPS]["mean_error"]
    smallest = float(at_smallest.min()) if len(at_smallest) else math.nan
    return ratios, {float(q): float(e) for q, e in at_10.items()}, smallest


# --------------------------------------------------------------------------------------------------
# E4: the case study, 2-D logistic regression
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseStudy:
    """E4: Algorithm 1 on the 2-D logistic problem with q = 2, for every ε of ``EPS_2D``."""

    problem: fp.Problem
    table: pd.DataFrame
    bias: float
    boundaries: Mapping[float, NDArray[np.float64]]
    checks: Mapping[str, list[Check]]

    @property
    def error(self) -> pd.Series:
        """Mean error by ε."""
        return self.table.set_index("eps")["mean_error"]

    @property
    def slope(self) -> float:
        """Fitted log-log slope of the mean error over ε ∈ [1, 100]."""
        return loglog_slope(self.table["eps"], self.table["mean_error"], *SLOPE_WINDOW_2D)

    @property
    def error_rows(self) -> list[dict[str, Any]]:
        """``error_vs_eps`` rows of the 2-D problem."""
        return self.table.to_dict("records")

    def metrics(self) -> dict[str, Any]:
        """The private optima behind the drawn decision boundaries."""
        return {"private_optima_2d": {f"{e:g}": x for e, x in self.boundaries.items()}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The 2-D trade-off table."""
        return {"fp-tradeoff-2d": self.table}

    def figure(self) -> Figure:
        """(a) error against ε with the linearised RMS and the truncation bias; (b) decision boundaries."""
        logit = self.problem
        fig, axes = panel_row(2, height=4.0)
        axes[0].loglog(EPS_2D, self.table["mean_error"], "o-", label="mean $|\\tilde x^* - x^*|$")
        axes[0].loglog(
            EPS_2D, [fp.linearised_rms(logit, e, 2.0) for e in EPS_2D], "--", label="linearised RMS"
        )
        axes[0].axhline(self.bias, color="grey", ls=":", label="truncation bias $|x^*_K - x^*|$")
        axes[0].set(xlabel="ε", ylabel="error", title=f"(a) logistic regression, q = 2, K = {logit.basis.K}")
        axes[0].legend(fontsize=SMALL)
        feats, labels = logit.data["features"].reshape(-1, 2), logit.data["labels"].ravel()
        axes[1].scatter(*feats[labels > 0].T, s=8, color="C0", label="b = +1")
        axes[1].scatter(*feats[labels < 0].T, s=8, color="C3", label="b = −1")
        line = np.linspace(0, 1, 2)
        for (e, x), colour in zip(self.boundaries.items(), ("C1", "C2", "C4"), strict=True):
            axes[1].plot(line, -x[0] * line / x[1], color=colour, label=f"private boundary, ε = {e:g}")
        axes[1].plot(
            line, -logit.x_star[0] * line / logit.x_star[1], "k-", lw=2, label="true boundary xᵀa = 0"
        )
        axes[1].set(xlim=(0, 1), ylim=(0, 1), xlabel="$a_1$", ylabel="$a_2$", title="(b) decision boundaries")
        axes[1].legend(fontsize=SMALL)
        return fig


def case_study(P: Parameters, setup: Setup) -> CaseStudy:
    """E4 (streams ``p004-e4``, one child per ε, and ``p004-e4/boundaries``, one child per drawn ε)."""
    logit = setup.logistic
    tasks = [ErrorTask(2.0, e, P.runs_2d, logit) for e in EPS_2D]
    errors = sweep(_errors, tasks, P.stream("p004-e4"), key=lambda t: (EPS_2D.index(t.eps),),
                   desc="functional perturbation, 2-D")  # fmt: skip
    table = pd.DataFrame([_error_row(logit, t.q, t.eps, err) for t, err in errors.items()])
    x_k = fp.poly_argmin(logit.basis, logit.coefficients.sum(0), logit.lower, logit.upper)
    bias = float(np.linalg.norm(x_k - logit.x_star))
    stream = P.stream("p004-e4/boundaries")
    boundaries = {
        e: fp.private_optimum(logit, e, 2.0, 1.0, stream.child(j).rng()) for j, e in enumerate(BOUNDARY_EPS)
    }
    error = table.set_index("eps")["mean_error"]
    checks = ref.truncation_checks({"logistic": bias}) + ref.case_study_checks(
        float(error[1.0]), float(error[10.0])
    )
    return CaseStudy(logit, table, bias, boundaries, {"p004-e4": checks})


# --------------------------------------------------------------------------------------------------
# E5: distributed execution
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Distributed:
    """E5: the distributed gradient method, unchanged, on the agents' private functions."""

    problem: fp.Problem
    x_tilde: NDArray[np.float64]
    trajectory: NDArray[np.float64]  # (records, n, 1)
    every: int
    checks: Mapping[str, list[Check]]

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


# --------------------------------------------------------------------------------------------------
# E6: message perturbation
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MessagePerturbation:
    """E6: the message-perturbing baseline (noise-free floors, a tuned grid of geometric schedules, two
    accountants) and the impossibility result measured on adjacent inputs."""

    shifted: fp.Problem
    floors: Mapping[str, float]
    tuned: pd.DataFrame
    accountants: Mapping[str, NDArray[np.float64]]
    impossibility: Mapping[str, NDArray[np.float64]]
    impossibility_runs: int
    checks: Mapping[str, list[Check]]

    @property
    def best(self) -> pd.DataFrame:
        """The best schedule of the grid at each ε, chosen after the fact."""
        return self.tuned.loc[self.tuned.groupby("eps")["error"].idxmin()].sort_values("eps")

    @property
    def schedules(self) -> int:
        """How many schedules the grid has."""
        return len(self.tuned.groupby(["c", "rho_s", "rho_eta"]))

    def log_ratio(self, K: int) -> float:
        """The measured log-ratio at message ``K``."""
        return float(self.impossibility["log_ratio"][K - 1])

    @property
    def log_ratio_cap(self) -> float:
        """The largest log-ratio the Monte Carlo can show, ``log(R + 1)``."""
        return math.log(self.impossibility_runs + 1)

    @property
    def best_rows(self) -> list[dict[str, Any]]:
        """``message_perturbation`` rows of the 1-D problem, one per ε."""
        return [
            {"schedule": f"geometric c={r.c:g}, ρ_s={r.rho_s:g}, ρ_η={r.rho_eta:.4g}",
             "eps": r.eps if math.isfinite(r.eps) else "inf", "error": r.error,
             "privacy_loss": r.eps if math.isfinite(r.eps) else "inf"}
            for r in self.best.itertuples()
        ]  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The accountants' last values (the floors are glued by the chapter)."""
        return {"accountant_final": {k: float(v[-1]) for k, v in self.accountants.items()}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every schedule of the grid at every ε."""
        return {"fp-message-perturbation-grid": self.tuned}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The baseline's accountant and constants are the book's derivation."""
        title = "The message-perturbation baseline's accountant and constants are derived by the book"
        return (("p004-e6", title, "note-fp-message-accountant"),)

    def figure(self, functional: Tradeoff) -> Figure:
        """(a) both methods at their nominal ε (functional perturbation from E3, q = 2); (b) the
        accountants; (c) the impossibility, measured."""
        fig, (top, bottom) = panel_rows([2, 1], heights=[3.6, 2.8])
        axes = [*top, *bottom]
        fp_q2 = functional.table[functional.table["q"] == 2.0]
        best = self.best
        finite = best[np.isfinite(best["eps"])]
        axes[0].loglog(fp_q2["eps"], fp_q2["mean_error"], "o-", label="functional perturbation, q = 2")
        axes[0].loglog(
            finite["eps"], finite["error"], "s-", label=f"message perturbation, best of {self.schedules}"
        )
        axes[0].axhline(float(best[~np.isfinite(best["eps"])]["error"].iloc[0]), color="C1", ls=":",
                        label="message perturbation, no noise")  # fmt: skip
        axes[0].set(
            xlabel="nominal ε (each method's own adjacency)", ylabel="mean error", title="(a) 1-D quadratics"
        )
        axes[0].legend(fontsize=SMALL)
        for name, loss in self.accountants.items():
            axes[1].loglog(np.arange(1, loss.size + 1), loss, label=ACCOUNTANT_LABELS[name])
        axes[1].set(xlabel="messages K", ylabel="privacy-loss bound $L_K$", title="(b) accountants")
        axes[1].legend(fontsize=SMALL)
        imp = self.impossibility
        axes[2].plot(imp["K"], imp["p_I"], label="$P_I(O)$")
        axes[2].plot(imp["K"], imp["p_I_prime"], label="$P_{I'}(O)$")
        twin = axes[2].twinx()
        twin.plot(imp["K"], imp["log_ratio"], "k--", label="log ratio")
        twin.set_ylabel("log((R P_I + 1)/(R P_I′ + 1))")
        axes[2].set(xlabel="message K", ylabel="probability", title="(c) a convergent scheme leaks")
        axes[2].legend(fontsize=SMALL, loc="center right")
        return fig


def message_perturbation(P: Parameters, setup: Setup) -> MessagePerturbation:
    """E6 (streams ``p004-e6/…``): noise-free floors, the tuned baseline at the ε of ``MESSAGE_EPS``,
    the accountants, and the impossibility demonstration on the problem with agent 0's θ shifted."""
    quad, W = setup.quadratic, setup.W
    shifted = fp.shifted_quadratic(quad, 0, ADJACENT_SHIFT)
    floors = {
        name: fp.noise_free_floor(problem, W, 0.1, rho, P.rng(f"p004-e6/{name}"), iterations=FLOOR_ITERATIONS)
        for name, problem, rho in (("floor-short", quad, 0.9), ("floor-long", quad, 0.99),
                                   ("floor-shifted", shifted, 0.9))
    }  # fmt: skip
    delta = 2 * quad.S.u_bar  # Δ = 2ū: the largest change of one agent's gradient in S
    tuned = fp.tuned_message_errors(
        quad, W, np.array(MESSAGE_EPS), delta, P.rng("p004-e6/tuned"), runs=P.message_runs,
        iterations=MESSAGE_ITERATIONS,
    )  # fmt: skip
    b0 = fp.geometric_b0(1.0, 0.1, 0.9, 0.95, delta)
    accountants = {
        "geometric": fp.privacy_loss_bound(*fp.geometric_schedule(5000, 0.1, 0.9, 0.95, b0), delta),
        "convergent": fp.privacy_loss_bound(*fp.convergent_schedule(10_000), delta),
    }
    steps, scales = fp.convergent_schedule(IMPOSSIBILITY_MESSAGES)
    imp = fp.impossibility_curve(quad, shifted, W, steps, scales, IMPOSSIBILITY_RADIUS, P.impossibility_runs,
                                 P.rng("p004-e6/impossibility"))  # fmt: skip
    checks = ref.huang_floor_checks(floors["floor-short"], floors["floor-long"]) + ref.impossibility_checks(
        float(imp["log_ratio"][9]), float(imp["log_ratio"][99])
    )
    return MessagePerturbation(
        shifted,
        floors,
        pd.DataFrame(tuned),
        accountants,
        imp,
        P.impossibility_runs,
        {"p004-e6": checks},
    )


# --------------------------------------------------------------------------------------------------
# E7: record-level sensitivity
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordLevel:
    """E7: what one record changes in the logistic objective, and both methods calibrated to one record."""

    degree: int
    sensitivity: Mapping[int, Mapping[str, float]]  # by degree, q = 2
    sensitivity_q15: Mapping[str, float]
    table: pd.DataFrame  # record-level ε, both methods' errors
    nominal_ratio: Mapping[float, float]  # message / functional error at nominal ε (1-D, q = 2)
    checks: Mapping[str, list[Check]]

    @property
    def sensitivity_table(self) -> pd.DataFrame:
        """The record-level sensitivities by degree."""
        return pd.DataFrame([
            {"degree M": M, "sup ‖h‖_Vq, q = 2": s["vq"], "sup ‖h‖_L2": s["l2"],
             "sup |∇h| on X": s["gradient"]}
            for M, s in self.sensitivity.items()
        ])  # fmt: skip

    @property
    def nominal_range(self) -> tuple[float, float]:
        """The smallest and largest error ratio at nominal ε (``nan`` when E3 and E6 share no ε at q = 2)."""
        ratios = list(self.nominal_ratio.values())
        return (min(ratios), max(ratios)) if ratios else (math.nan, math.nan)

    @property
    def record_range(self) -> tuple[float, float]:
        """The smallest and largest error ratio at record-level ε."""
        return float(self.record_ratio.min()), float(self.record_ratio.max())

    @property
    def record_ratio(self) -> NDArray[np.float64]:
        """Message over functional perturbation's error at each record-level ε."""
        return (self.table["message perturbation (best)"] / self.table["functional perturbation"]).to_numpy()

    @property
    def record_rows(self) -> list[dict[str, Any]]:
        """``message_perturbation`` rows of the record-level comparison."""
        return [{"schedule": "best geometric, record-level (logistic)", "eps": float(e), "error": float(v),
                 "privacy_loss": float(e)}
                for e, v in zip(self.table["record-level ε"], self.table["message perturbation (best)"],
                                strict=True)]  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The error ratios of the two comparisons."""
        return {"nominal_ratio": {f"{e:g}": r for e, r in self.nominal_ratio.items()},
                "record_ratio": self.record_ratio}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The sensitivities and the record-level comparison."""
        return {"fp-record-sensitivity": self.sensitivity_table, "fp-record-level": self.table}

    def figure(self) -> Figure:
        """Both methods' errors against the record-level ε."""
        t = self.table
        fig, (ax,) = panel_row(1, width=5.4, height=3.8)
        ax.loglog(t["record-level ε"], t["functional perturbation"], "o-",
                  label="functional perturbation, q = 2, ε = ε_record / sup‖h‖$_{V_q}$")  # fmt: skip
        ax.loglog(t["record-level ε"], t["message perturbation (best)"], "s-",
                  label="message perturbation, Δ = sup|∇h|, best schedule")  # fmt: skip
        ax.set(
            xlabel="record-level ε",
            ylabel="mean $|x - x^*|$",
            title="Logistic regression, one record protected",
        )
        ax.legend(fontsize=SMALL)
        return fig


def record_level(
    P: Parameters, setup: Setup, functional: Tradeoff, messages: MessagePerturbation
) -> RecordLevel:
    """E7 (streams ``p004-e7/functional`` and ``p004-e7/messages``): sensitivities at the run's degree and
    at ``RECORD_DEGREES``, both methods at the record-level ε of ``RECORD_EPS``, and the nominal
    comparison of E6 (a) as error ratios."""
    logit, M = setup.logistic, setup.logistic.basis.M
    sens = {
        m: fp.record_sensitivities(fp.Basis2D(logit.basis.R, m), 2.0) for m in sorted({M, *RECORD_DEGREES})
    }
    sens_q15 = fp.record_sensitivities(logit.basis, 1.5)
    change = abs(sens[RECORD_DEGREES[1]]["vq"] / sens[RECORD_DEGREES[0]]["vq"] - 1)
    rng = P.rng("p004-e7/functional")  # one generator through the budgets, in order
    functional_errors = [
        float(np.mean(fp.tradeoff_errors((logit, 2.0, float(e / sens[M]["vq"]), P.runs_2d), rng)))
        for e in RECORD_EPS
    ]
    rows = fp.tuned_message_errors(
        logit,
        setup.W,
        np.array(RECORD_EPS),
        sens[M]["gradient"],
        P.rng("p004-e7/messages"),
        runs=P.message_runs,
        iterations=MESSAGE_ITERATIONS,
    )
    best = pd.DataFrame(rows).groupby("eps")["error"].min()
    table = pd.DataFrame({
        "record-level ε": np.array(RECORD_EPS), "functional perturbation": functional_errors,
        "message perturbation (best)": best.loc[list(RECORD_EPS)].to_numpy(),
    })  # fmt: skip
    at = functional.table.set_index(["q", "eps"])["mean_error"]
    nominal = messages.best.set_index("eps")["error"]
    ratio = {e: float(nominal.loc[e] / at.loc[(2.0, e)]) for e in MESSAGE_EPS[:-1] if (2.0, e) in at.index}
    return RecordLevel(M, sens, sens_q15, table, ratio, {"p004-e7": ref.record_checks(change)})


# --------------------------------------------------------------------------------------------------
# summary
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """The rows that join experiments: errors and slopes of E3 and E4, message perturbation of E6 and E7."""

    error_vs_eps: list[dict[str, Any]]
    fitted_slope: list[dict[str, Any]]
    message: list[dict[str, Any]]

    def metrics(self) -> dict[str, Any]:
        """Under their metrics.json names."""
        return {"error_vs_eps": self.error_vs_eps, "fitted_slope": self.fitted_slope,
                "message_perturbation": self.message}  # fmt: skip


def summary(e3: Tradeoff, e4: CaseStudy, e6: MessagePerturbation, e7: RecordLevel) -> Summary:
    """Join the rows of E3 and E4 (errors, slopes) and of E6 and E7 (message perturbation)."""
    slope_2d = {"problem": "logistic", "q": 2.0, "slope": e4.slope}
    return Summary(
        [*e3.error_rows, *e4.error_rows], [*e3.slope_rows, slope_2d], [*e6.best_rows, *e7.record_rows]
    )
