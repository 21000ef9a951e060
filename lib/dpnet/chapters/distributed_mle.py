"""Chapter 2, ``distributed-mle``: private distributed maximum-likelihood estimation.

Paper 003 §3–4.1 and Table 1, with the earlier version, paper 000, and its Table 2. The chapter's
parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved parameters (and
what an earlier experiment built), computes with :mod:`dpnet.inference` and :mod:`dpnet.networks`, and
returns a small frozen dataclass that the chapter records (:meth:`dpnet.results.Results.record`),
tabulates and plots. The only published numbers the chapter can compare with are those behind Table 1
(:mod:`dpnet.reference.complexity`); everything else is the book's own experiment on a synthetic
instance, set against the theorems' guarantees.

Every random draw comes from a named stream of the chapter's seed (``SCHEMA.streams``): the graph
(Erdős–Rényi only), the data, the trajectories' noise, and one stream per Monte Carlo sweep, each task
of a sweep keyed by what it is (the index of its ε or gap, its rule, its K).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.mechanisms import clopper_pearson
from dpnet.networks import GRAPH_KINDS
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Footprint,
    Param,
    Parameters,
    Schema,
    choice,
    eps_grid,
    integer,
    list_of,
    real,
)
from dpnet.plotting import (
    SMALL,
    error_rate_axes,
    fixed_ticks,
    guarantee_line,
    log_ticks,
    panel_grid,
    panel_row,
    plain_log,
    plot_error_rates,
)
from dpnet.reference import complexity
from dpnet.reference._check import Check
from dpnet.sweep import Stream, sweep

__all__ = [
    "CODE_RHO",
    "SCHEMA",
    "Complexity",
    "EpsSweep",
    "ExactRecovery",
    "GapSweep",
    "Instance",
    "KSweep",
    "LowerBound",
    "Paper000",
    "RoundsExercise",
    "Scaling",
    "Schedules",
    "Summary",
    "Ties",
    "Trajectories",
    "WinFloor",
    "complexity_checks",
    "eps_sweep",
    "exact_recovery",
    "gap_sweep",
    "instance",
    "interval",
    "k_sweep",
    "lower_bound",
    "paper000",
    "rounds_exercise",
    "scaling",
    "schedules",
    "summary",
    "ties",
    "trajectories",
    "win_floor",
]


def _connected_graph(values: Mapping[str, Any]) -> None:
    n, p = values["n_agents"], values["edge_prob"]
    if values["graph"] == "erdos_renyi" and p < math.log(n) / n:
        raise ParameterError(
            f"edge_prob must be at least ln(n)/n = {math.log(n) / n:.3g} for an Erdős–Rényi graph on "
            f"n_agents = {n}: below it a connected graph is too rare to draw (got {p:g})"
        )


#: Measured costs on this 2-core machine (one core, DPNET_JOBS=1), see :func:`_footprint`.
_DRAW_SECONDS = 1e-7  # one Laplace draw of one agent, state, round and replication (as bounded below)
_REPLICATION_SECONDS = 1.4e-5  # one replication of one task: its beliefs, sets and counts
_ROUND_SECONDS = 5e-4  # one round of one task, per chunk of 1000 replications (its per-round passes)
_FIXED_SECONDS = 20.0  # kernel, imports, schedules, the scaling tables, figures
_CHUNK = 1000  # replications simulated at once (inf.ErrorRateTask.chunk)


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    The Monte Carlo sweeps dominate. A task of ``R`` replications and ``K`` rounds draws ``R·K·n·|Θ|``
    Laplace variables, ``1000`` replications at a time, and keeps ``R × |Θ|`` beliefs and sets. The
    rounds are bounded by ``K_r = max(⌈|Θ| log(1/(1−β))⌉, ⌈2 log((|Θ|−1)/α)⌉)`` (Thms 4.1–4.2,
    corrected) and, for the frequency-threshold rules of Thm 4.3 and Cor 4.4,
    ``K_f = ⌈log(|Θ|/min(α, 1−β))/(2π²)⌉`` (π → 0 makes it explode). With ``E = len(eps_values)``,
    ``G = len(gap_values)``, ``L = len(K_values)``:

    * draws: ``R·n·|Θ|·(E·(3K_r + 2K_f) + ΣK_values + G·(4K_r + 2K_f))`` plus the win-probability
      count's ``R′·d``, ``R′ = max(R, min(10 R, 4·10⁷/d))``, ``d = n·(10·Σ_{m≤max(6,|Θ|)} m + |Θ|·ΣK_grid)``;
    * seconds: ``20 + 10⁻⁷ × draws + 1.4·10⁻⁵ × (R·(5E + L + 6G) + R′·(|K_grid| + 5))
      + 5·10⁻⁴ × rounds``: the per-replication work of each task, and each task's per-round passes
      (its rounds ``E·(3K_r + 2K_f) + ΣK_values + G·(4K_r + 2K_f)`` and the count's, once per chunk
      of 1000 replications), which dominate when π is small;
    * memory: ``44·min(R, 1000)·K_max·n·|Θ|`` bytes (a chunk's noise and log-ratios, about 5
      float64 arrays) ``+ 80·R′·max(6, |Θ|)`` (the beliefs and sets kept, and their concatenation).

    Calibrated on this 2-core machine, one core, by least squares on the four sweeps' measured time:
    3.7 s at the quick defaults (2.1·10⁷ bounded draws, 1.1·10⁵ task replications), 22.7 s at
    R = 4000 (1.3·10⁸, 6.6·10⁵) and 38.3 s at n = 20, |Θ| = 8, R = 1000 (3.7·10⁸, 1.3·10⁵); the
    bounds K_r, K_f exceed the schedules' K by up to 1.5 ×, which the draw cost absorbs. A K sweep
    at K = 200, n = 50, |Θ| = 12, R = 1000 peaked at 3.7 GiB (3.9 × its noise array); at
    R = 200 000, K = 1 it kept 304 bytes a replication (|Θ| = 4). At π = 0.01 (K_f = 20 472), R = 20,
    two ε and two gaps, the ε sweep took 52.5 s and peaked at 0.44 GiB (8.2·10⁴ task rounds:
    6·10⁻⁴ s a round), the gap sweep 31.8 s (3.5·10⁻⁴ s a round).
    """
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    alpha, beta, pi = values["alpha"], values["beta"], values["pi"]
    E, G, L = len(values["eps_values"]), len(values["gap_values"]), len(values["K_values"])
    K_paper = inf.to_int_ceil(inf.rounds_am(m, 1, beta), minimum=1)
    K_am = inf.to_int_ceil(inf.rounds_am(m, 1, beta, corrected=True), minimum=1)
    K_r = max(K_am, math.ceil(2 * math.log((m - 1) / alpha)), 1)
    K_f = max(math.ceil(math.log(m / min(alpha, 1 - beta)) / (2 * pi**2)), 1)
    K_grid = _never_rounds(K_paper, K_am)  # the win-probability count's rounds, as in win_floor
    task_rounds = E * (3 * K_r + 2 * K_f) + sum(values["K_values"]) + G * (4 * K_r + 2 * K_f)
    d = n * (FLOOR_ROUNDS * sum(range(2, max(6, m) + 1)) + m * sum(K_grid))
    floor_reps = max(R, min(10 * R, 4e7 / d))
    draws = R * n * m * task_rounds + floor_reps * d
    task_reps = R * (5 * E + L + 6 * G) + floor_reps * (len(K_grid) + 5)
    floor_rounds = FLOOR_ROUNDS * (max(6, m) - 1) + sum(K_grid)
    rounds = task_rounds * math.ceil(R / _CHUNK) + floor_rounds * math.ceil(floor_reps / _CHUNK)
    chunk = max(min(R, _CHUNK) * max(K_r, K_f, *values["K_values"]), min(floor_reps, _CHUNK) * K_grid[-1])
    memory = 44.0 * chunk * n * m + 80.0 * floor_reps * max(6, m)
    seconds = (
        _FIXED_SECONDS + _DRAW_SECONDS * draws + _REPLICATION_SECONDS * task_reps + _ROUND_SECONDS * rounds
    )
    return Footprint(memory=memory, seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250302),
        "n_agents": Param(
            integer(ge=3, le=50), "number of agents n (a cycle needs n ≥ 3)", default=complexity.TABLE1_N,
            paper=AS_DEFAULT,
        ),
        "graph": Param(
            choice(*GRAPH_KINDS), "communication graph", default=complexity.TABLE1_GRAPH, paper=AS_DEFAULT
        ),
        "edge_prob": Param(
            real(gt=0.0, le=1.0), "edge probability of the Erdős–Rényi graph (ignored by the others)",
            default=0.5,
        ),
        "n_states": Param(
            integer(ge=2, le=12), "number of states |Θ|, evenly spaced in [0.2, 0.8]", default=4
        ),
        "n_signals": Param(integer(ge=1, le=100_000), "Bernoulli signals held by each agent", default=100),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of the error-rate sweep",
            default=[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0],
        ),
        "alpha": Param(
            real(gt=0.0, lt=1.0), "target Type I error α", default=complexity.TABLE1_ALPHA, paper=AS_DEFAULT
        ),
        "beta": Param(
            real(gt=0.0, lt=1.0), "target probability β of keeping every MLE state",
            default=complexity.TABLE1_BETA, paper=AS_DEFAULT,
        ),
        "replications": Param(integer(ge=20), "Monte Carlo replications per point", quick=400, full=2000),
        "eps_demo": Param(
            real(gt=0.0), "ε of the belief trajectories and of the sweep over K",
            default=complexity.ACTG_SETTING["eps"], paper=AS_DEFAULT,
        ),
        "K_values": Param(
            list_of(integer(ge=1, le=200)), "numbers of rounds K of the sweep over K",
            default=[1, 2, 3, 4, 6, 9, 12, 16, 24],
        ),
        "gap_values": Param(
            list_of(real(ge=0.0, le=100.0), min_len=2),
            "likelihood gaps, in Laplace noise scales, of the guarantee check",
            default=[0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0],
        ),
        "iterations": Param(
            integer(ge=1, le=5000), "iterations T of the trajectories and of the finite-T check", default=60
        ),
        "pi": Param(real(gt=0.0, lt=1.0), "slack π₁ = π₂ of the two-threshold rule", default=0.5),
        "q1": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₁ on a non-MLE state's round rate", default=0.2),
        "q2": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₂ on an MLE state's round rate", default=0.8),
    },
    constraints=(_connected_graph,),
    # the integer keys that seeded these draws before the streams had names
    streams={
        "graph": (100, 0),
        "data": (100, 1),
        "trajectories": (100, 2),
        "eps-sweep": (0,),
        "k-sweep": (1,),
        "gap-sweep": (2,),
        "win-floor": (3,),
    },
    footprint=_footprint,
)  # fmt: skip

#: Iterations of the check of the closed form ``2^{-T} φ_T → Λ/n``.
CLOSED_FORM_ITERATIONS = 40
#: A gap of 0 in the gap sweep means this many noise scales, so that Θ* has one state.
GAP_FLOOR = 1e-6
#: Rounds per replication of the zero-gap win-probability count over |Θ|.
FLOOR_ROUNDS = 10
#: Randomized-response signal gap ε_gap of the lower-bound example (Be(1/2) against Be(1/2 + ε_gap/2)).
LOWER_BOUND_EPS_GAP = 0.2
#: The log-belief threshold ϱ of the published ACTG runs, which the authors' code schedule uses.
CODE_RHO = complexity.ACTG_SETTING["rho"]

Record = dict[str, Any]


# ------------------------------------------------------------------------------------------------
# The instance: data, network, constants
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """The chapter's synthetic instance: heterogeneous Bernoulli agents on a graph.

    Attributes
    ----------
    graph
        The graph family.
    thetas
        The states Θ, success probabilities evenly spaced in [0.2, 0.8].
    p_agents
        Each agent's own success probability, evenly spaced in [0.3, 0.9].
    successes, n_signals
        Each agent's count of ones among its ``n_signals`` signals.
    loglik
        ``log γ_i(θ)``, shape ``(n, |Θ|)``.
    weights
        The Metropolis–Hastings weights ``A`` (dense).
    edges
        Number of edges of the graph.
    spectral
        ``λ₂``, ``λₙ``, ``a*``, ``b*`` and the diameter.
    problem
        ``n``, ``|Θ|``, ``|Θ*|``, ``Γ`` and the gap ``l``.
    mle
        The maximum-likelihood set Θ* as a mask over Θ.
    delta
        The per-signal sensitivity ``Δ = max_θ |log(θ/(1−θ))|``.
    """

    graph: str
    thetas: NDArray[np.float64]
    p_agents: NDArray[np.float64]
    successes: NDArray[np.int64]
    n_signals: int
    loglik: NDArray[np.float64]
    weights: NDArray[np.float64]
    edges: int
    spectral: networks.SpectralConstants
    problem: inf.ProblemConstants
    mle: NDArray[np.bool_]
    delta: float

    @property
    def n(self) -> int:
        """Number of agents."""
        return self.loglik.shape[0]

    @property
    def n_states(self) -> int:
        """Number of states ``|Θ|``."""
        return self.loglik.shape[1]

    @property
    def network_loglik(self) -> NDArray[np.float64]:
        """``Λ(θ) = Σ_i log γ_i(θ)``."""
        return self.loglik.sum(axis=0)

    @property
    def agents(self) -> pd.DataFrame:
        """One row per agent: its success probability, its data and its own maximum-likelihood state."""
        return pd.DataFrame({
            "agent": np.arange(1, self.n + 1), "success probability": self.p_agents,
            "successes": self.successes, "signals": self.n_signals,
            "own MLE θ": self.thetas[np.argmax(self.loglik, axis=1)],
        })  # fmt: skip

    @property
    def states(self) -> pd.DataFrame:
        """One row per state: the network log-likelihood and membership of Θ*."""
        lam = self.network_loglik
        return pd.DataFrame({
            "θ": self.thetas, "Λ(θ)": lam, "Λ(θ) − max Λ": lam - lam.max(),
            "in Θ*": np.where(self.mle, "yes", ""),
        })  # fmt: skip

    @property
    def constants(self) -> pd.DataFrame:
        """The constants the theorems use (counts stay whole numbers: the values are an object column)."""
        s, p = self.spectral, self.problem
        values = [
            ("agents n", self.n), ("edges", self.edges), ("diameter", s.diameter), ("λ₂(A)", s.lambda_2),
            ("λₙ(A)", s.lambda_n), ("a* = SLEM((A+I)/2)", s.a_star), ("b* = SLEM(A)", s.b_star),
            ("|Θ*|", p.n_mle), ("gap l", p.gap), ("Γ", p.gamma), ("sensitivity Δ", self.delta),
        ]  # fmt: skip
        return pd.DataFrame({"constant": [k for k, _ in values],
                             "value": pd.Series([v for _, v in values], dtype=object)})  # fmt: skip

    def closed_form_error(self, T: int = CLOSED_FORM_ITERATIONS) -> float:
        """Largest relative error of ``2^{-T} φ_{i,T}(θ, θ₁)`` against ``Λ(θ, θ₁)/n``, over agents and θ."""
        psi = inf.scaled_log_ratios(self.loglik, self.weights, T)  # ψ_T / 2^T, up to a common shift
        lam = self.network_loglik
        limit = (lam - lam[0]) / self.n
        rel_err = np.abs((psi - psi[:, :1]) - limit) / np.maximum(np.abs(limit), 1e-300)
        return float(rel_err[:, 1:].max())

    def metrics(self) -> dict[str, Any]:
        """The instance, under its metrics.json name."""
        s, p = self.spectral, self.problem
        return {
            "instance": {
                "thetas": self.thetas, "p_agents": self.p_agents, "successes": self.successes,
                "Lambda": self.network_loglik, "mle": self.mle, "gap": p.gap, "gamma": p.gamma,
                "delta": self.delta, "lambda_2": s.lambda_2, "lambda_n": s.lambda_n, "a_star": s.a_star,
                "b_star": s.b_star, "diameter": s.diameter, "edges": self.edges,
            }
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"states": self.states, "agents": self.agents, "constants": self.constants}


def instance(P: Parameters) -> Instance:
    """Draw the data (stream ``data``) and build the graph (stream ``graph``, Erdős–Rényi only)."""
    n, m = P.n_agents, P.n_states
    if P.graph == "erdos_renyi":
        G = networks.make_graph("erdos_renyi", n, p=P.edge_prob, rng=P.rng("graph"))
    else:
        G = networks.make_graph(P.graph, n)
    A = networks.metropolis_hastings(G).toarray()
    thetas = np.linspace(0.2, 0.8, m)
    p_agents = np.linspace(0.3, 0.9, n)  # each agent's own success probability: the agents differ
    successes = P.rng("data").binomial(P.n_signals, p_agents)
    loglik = inf.bernoulli_loglik(successes, P.n_signals, thetas)
    return Instance(
        P.graph, thetas, p_agents, successes, P.n_signals, loglik, A, G.number_of_edges(),
        networks.spectral_constants(A), inf.problem_constants(loglik), inf.mle_mask(loglik),
        float(inf.bernoulli_sensitivity(thetas, 1)),
    )  # fmt: skip


def _span(x: NDArray[np.float64], fmt: str = ".3f") -> str:
    """A value shared by every agent (at the precision of ``fmt``), or the range across agents."""
    lo, hi = format(float(np.min(x)), fmt), format(float(np.max(x)), fmt)
    return lo if lo == hi else f"{lo}–{hi}"


# ------------------------------------------------------------------------------------------------
# One private run, iteration by iteration
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trajectories:
    """One private run of Alg 1 at ``eps`` with Theorem 4.1's K, and the non-private Alg 4, for t = 0..T.

    Attributes
    ----------
    eps, graph, K, noise_scale, gap
        The budget, the graph, the rounds of Theorem 4.1, the Laplace scale b and the gap l.
    mle
        The mask of Θ*.
    alg4, rounds, am, gm, counts
        Beliefs over the iterations: Alg 4 ``(T+1, n, |Θ|)``; every round ``(T+1, K, n, |Θ|)``; the
        AM and GM aggregates and the two-threshold frequencies ``N`` (``τ̂ = 0``), ``(T+1, n, |Θ|)``.
    tau1, tau2
        The frequency thresholds τ¹, τ² of Theorem 4.3 (τ¹ at least 1/K).
    """

    eps: float
    graph: str
    K: int
    noise_scale: float
    gap: float
    mle: NDArray[np.bool_]
    alg4: NDArray[np.float64]
    rounds: NDArray[np.float64]
    am: NDArray[np.float64]
    gm: NDArray[np.float64]
    counts: NDArray[np.float64]
    tau1: float
    tau2: float

    @property
    def iterations(self) -> int:
        """The last iteration T."""
        return self.alg4.shape[0] - 1

    def on_mle(self, beliefs: NDArray[np.float64]) -> NDArray[np.float64]:
        """Belief (or frequency) summed over Θ*."""
        return beliefs[..., self.mle].sum(-1)

    @property
    def settled(self) -> int:
        """The first iteration from which every curve of the figure is constant (to 1e−9)."""
        T = self.iterations
        curves = [self.on_mle(x) for x in (self.alg4, self.rounds, self.am, self.gm, self.counts)]
        moving = [np.nonzero(np.abs(x - x[-1]).reshape(T + 1, -1).max(axis=1) > 1e-9)[0] for x in curves]
        return max(int(m.max()) + 1 if m.size else 0 for m in moving)

    @property
    def shown(self) -> int:
        """The last iteration the figure shows: twice the settling time, at least 10, at most T."""
        return min(self.iterations, max(10, 2 * self.settled))

    @property
    def rounds_won(self) -> int:
        """Rounds won by a maximum-likelihood state, at agent 1 and the last iteration."""
        return int(self.on_mle(self.counts[-1, 0]) * self.K + 0.5)

    def final(self, which: str) -> str:
        """Belief on Θ* at the last iteration (``"am"``, ``"gm"`` or ``"alg4"``): one value or a range."""
        return _span(self.on_mle(getattr(self, which)[-1]))

    def figure(self) -> Figure:
        """Alg 4, AM (with agent 1's rounds in grey), GM and the two-threshold frequencies against t."""
        T, K, n = self.iterations, self.K, self.alg4.shape[1]
        t = np.arange(T + 1)
        fig, grid = panel_grid(2, 2, height=2.5)
        ax = grid.ravel()
        panels = [(self.alg4, "Alg 4 (no privacy)"), (self.am, f"AM of K = {K} rounds"), (self.gm, "GM")]
        for a, (traj, title) in zip(ax[:3], panels, strict=True):
            if traj is self.am:
                for k in range(K):
                    a.plot(t, self.on_mle(self.rounds[:, k, 0]), color="0.75", lw=0.8, zorder=1)
            for i in range(n):
                a.plot(t, self.on_mle(traj[:, i]), lw=1.3, color=f"C{i % 10}", zorder=2)
            a.set(title=title, xlabel="iteration t", ylim=(-0.03, 1.03))
        for a in ax[[0, 2]]:
            a.set_ylabel("belief on Θ*")
        for i in range(n):
            ax[3].plot(t, self.on_mle(self.counts[:, i]), lw=1.3, color=f"C{i % 10}")
            ax[3].plot(t, self.counts[:, i][:, ~self.mle].max(-1), lw=1.0, ls=":", color=f"C{i % 10}")
        ax[3].axhline(self.tau1, color="0.2", ls="--", lw=1, label=f"τ¹ = {self.tau1:.3f}")
        ax[3].axhline(self.tau2, color="0.5", ls="-.", lw=1, label=f"τ² = {self.tau2:.3f}")
        ax[3].set(
            title="two thresholds (τ̂ = 0)", xlabel="iteration t", ylabel="frequency N", ylim=(-0.03, 1.03)
        )
        ax[3].legend(loc="upper right")
        for a in ax:
            a.set_xlim(0, self.shown)
        fig.suptitle(f"One private run on the {self.graph} graph, n = {n}, ε = {self.eps:g}")
        return fig


def trajectories(P: Parameters, inst: Instance) -> Trajectories:
    """One private run at ``eps_demo`` for ``iterations`` iterations (noise from stream ``trajectories``)."""
    target = {"delta": inst.delta, "eps": P.eps_demo, "alpha": P.alpha, "beta": P.beta}
    s41 = inf.schedule_thm41(inst.problem, **target)
    s43 = inf.schedule_thm43(inst.problem, **target, pi1=P.pi, pi2=P.pi)
    K, T = s41.K, P.iterations
    noise = inf.laplace_noise(
        P.rng("trajectories"), s41.noise_scale, n_reps=1, K=K, n_agents=inst.n, n_states=inst.n_states
    )[0]  # (K, n, |Θ|)
    ll, A = inst.loglik, inst.weights
    tau1, tau2 = inf.frequency_thresholds(s43.freq_1, s43.freq_2, K)  # τ¹ ≥ 1/K
    return Trajectories(
        P.eps_demo, P.graph, K, float(s41.noise_scale), inst.problem.gap, inst.mle,
        inf.belief_trajectory(ll, A, T), inf.belief_trajectory(ll, A, T, noise),
        inf.belief_trajectory(ll, A, T, noise, aggregate="am"),
        inf.belief_trajectory(ll, A, T, noise, aggregate="gm"),
        inf.belief_trajectory(ll, A, T, noise, aggregate="counts"), tau1, tau2,
    )  # fmt: skip


# ------------------------------------------------------------------------------------------------
# Exact ties
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ties:
    """Alg 4 on two states tied exactly in Λ (with different local terms), on four graph families."""

    iterations: int
    table: pd.DataFrame

    @property
    def kept_on(self) -> list[str]:
        """The graphs on which every agent ends at 1/2 on each tied state (to 1e−3)."""
        rows = self.table.itertuples(index=False)
        return [r[0] for r in rows if abs(r[2] - 0.5) < 1e-3 and abs(r[3] - 0.5) < 1e-3]

    @property
    def kept(self) -> str:
        """:attr:`kept_on` as a list for the prose ("none" when empty)."""
        return ", ".join(self.kept_on) or "none"

    @property
    def broken(self) -> str:
        """The other graphs, as a list for the prose ("none" when empty)."""
        return ", ".join(g for g in self.table["graph"] if g not in self.kept_on) or "none"

    def metrics(self) -> dict[str, Any]:
        """The table, under its metrics.json name."""
        return {"ties": self.table.to_dict(orient="records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ties": self.table}


def ties(P: Parameters) -> Ties:
    """The beliefs on the first tied state after ``iterations`` iterations, on each graph family."""
    n, T = P.n_agents, P.iterations
    table = np.zeros((n, 3))
    local = np.resize([1.0, -1.0], n)
    local[-1] -= local.sum()  # the two first states tie exactly in Λ, with different local terms
    table[:, 1], table[:, 2] = local, -5.0
    rows = []
    for kind in ("complete", "cycle", "path", "star"):
        W = networks.metropolis_hastings(networks.make_graph(kind, n))
        beliefs = np.exp(inf.nonprivate_log_beliefs(table, W, T))
        rows.append((kind, networks.spectral_constants(W).lambda_2, beliefs[:, 0].min(), beliefs[:, 0].max()))
    columns = ["graph", "λ₂(A)", "min_i μ_i,T(θ₁)", "max_i μ_i,T(θ₁)"]
    return Ties(T, pd.DataFrame(rows, columns=columns))


# ------------------------------------------------------------------------------------------------
# Monte Carlo error rates
# ------------------------------------------------------------------------------------------------


def _task(
    loglik: NDArray[np.float64],
    eps: float,
    K: int,
    T: int | None = None,
    *,
    weights: NDArray[np.float64],
    delta: float,
    reps: int,
    rho: tuple[float, float] | None = None,
    freq: tuple[float, float] | None = None,
) -> inf.ErrorRateTask:
    """One error-rate point: log-belief thresholds ϱ (AM, GM) if given, else the oracle's τ = 1/K."""
    return inf.ErrorRateTask(
        loglik=loglik, eps=eps, K=K, T=T, delta=delta, n_reps=reps,
        tau_am=None if rho is not None else 1.0 / K, rho_am=None if rho is None else rho[0],
        tau_gm=None if rho is not None else 1.0 / K, rho_gm=None if rho is None else rho[1], weights=weights,
        freq_1=None if freq is None else freq[0], freq_2=None if freq is None else freq[1],
    )  # fmt: skip


def _keyed_sweep(
    tasks: Mapping[tuple[int, ...], inf.ErrorRateTask], stream: Stream, desc: str
) -> dict[tuple[int, ...], dict[str, float]]:
    """Run error-rate tasks, task ``key`` drawing from ``stream.child(*key)``; results keyed by ``key``."""
    key_of = {task: key for key, task in tasks.items()}
    out = sweep(inf.error_rate_task, list(key_of), stream, key=key_of.__getitem__, desc=desc)
    return {key_of[task]: result for task, result in out.items()}


def _record(out: Mapping[str, float], sweep_name: str, algorithm: str, est: str, **extra: Any) -> Record:
    """One row of the error-rate table: algorithm, ε, K, T and the rates of ``est`` with their intervals."""
    rec: Record = {
        "sweep": sweep_name, "algorithm": algorithm, "eps": out["eps"], "K": int(out["K"]),
        "T": None if math.isinf(out["T"]) else int(out["T"]), "noise_scale": out["noise_scale"],
        "n_reps": int(out["n_reps"]), **extra,
    }  # fmt: skip
    for kind in ("type1", "type2", "exact"):
        for suffix in ("", "_lo", "_hi"):
            rec[kind + suffix] = out[f"{est}_{kind}{suffix}"]
    return rec


def interval(record: Mapping[str, Any], kind: str, digits: int = 3) -> str:
    """The 95 % Clopper–Pearson interval of a rate of an error-rate record, as ``"lo–hi"``."""
    return f"{record[kind + '_lo']:.{digits}f}–{record[kind + '_hi']:.{digits}f}"


def _fails(records: Sequence[Record], kind: str, target: float) -> int:
    """How many rates exceed ``target`` beyond Monte Carlo error (interval entirely above it)."""
    return sum(inf.exceeds_target(r, kind, target) for r in records)


#: The ε sweep's estimators: key → (name, rule, theorem); the rule "amgm" or "thres" picks the tasks.
_ESTIMATORS = {
    "am": ("AM", "amgm", "4.1"),
    "gm": ("GM", "amgm", "4.1"),
    "thres1": ("two-threshold Θ̂¹", "thres", "4.3"),
    "thres2": ("two-threshold Θ̂²", "thres", "4.3"),
}


@dataclass(frozen=True)
class EpsSweep:
    """Error rates of agent 1 against ε: the ``T → ∞`` oracle with K from Theorems 4.1 and 4.3, Theorem
    4.2's finite T and thresholds ϱ*, and ``T = iterations`` on the same noise (common random numbers).

    Attributes
    ----------
    eps, n_agents, alpha, beta, replications, iterations
        The grid and the setting.
    schedules
        Per ε, Theorems 4.1, 4.2 and 4.3's schedules (keys ``"41"``, ``"42"``, ``"43"``).
    records
        Curve → one error-rate record per ε. Curves: ``"am"``, ``"gm"``, ``"thres1"``, ``"thres2"``
        (the oracle), ``"am-thm42"``, ``"gm-thm42"`` (Theorem 4.2's T and ϱ*), and the oracle's four
        with ``"-T"`` (``T = iterations``); each record's ``algorithm`` names its curve in full.
    gap_per_unit_eps
        ``l/b`` at ε = 1 with the K of Theorem 4.1 (``l/b`` is proportional to ε).
    """

    eps: tuple[float, ...]
    n_agents: int
    alpha: float
    beta: float
    replications: int
    iterations: int
    schedules: Mapping[float, Mapping[str, Any]]
    records: Mapping[str, list[Record]]
    gap_per_unit_eps: float

    @property
    def rows(self) -> list[Record]:
        """Every record, curve by curve."""
        return [r for recs in self.records.values() for r in recs]

    @property
    def freq43(self) -> tuple[float, float]:
        """Theorem 4.3's frequency thresholds (they depend on neither ε nor K)."""
        s = self.schedules[self.eps[0]]["43"]
        return s.freq_1, s.freq_2

    def fails(self, curve: str, kind: str, target: float) -> int:
        """How many budgets of ``curve`` exceed ``target`` beyond Monte Carlo error."""
        return _fails(self.records[curve], kind, target)

    def rate(self, curve: str, kind: str, stat: Any = max) -> float:
        """A statistic (``max``, ``min``) of the curve's rates over ε."""
        return float(stat(r[kind] for r in self.records[curve]))

    @property
    def agreement(self) -> pd.DataFrame:
        """Largest ``|oracle − (T = iterations)|`` over ε, for each estimator and error type."""
        rows = []
        for curve, (name, _, _) in _ESTIMATORS.items():
            for kind, what in (("type1", "Type I"), ("type2", "Type II")):
                pairs = zip(self.records[curve], self.records[f"{curve}-T"], strict=True)
                rows.append((name, what, max(abs(a[kind] - b[kind]) for a, b in pairs)))
        return pd.DataFrame(
            rows, columns=["estimator", "error", f"largest |T → ∞ − T = {self.iterations}| over ε"]
        )

    @property
    def finite_gm_difference(self) -> float:
        """Largest absolute difference over ε between GM's Type I error in the limit and with
        Theorem 4.2's T and ϱ*."""
        a, b = self.records["gm"], self.records["gm-thm42"]
        return max(abs(x["type1"] - y["type1"]) for x, y in zip(a, b, strict=True))

    def thm42(self, what: str) -> list[float]:
        """Theorem 4.2's ``T``, ``rho`` (both ϱ*) or ``margin`` (``nϱ*_GM/2^T``) over the grid."""
        plans = [s["42"] for s in self.schedules.values()]
        return {
            "T": [s.T for s in plans],
            "rho": [r for s in plans for r in (s.rho_am, s.rho_gm)],
            "margin": [self.n_agents * s.rho_gm / 2.0**s.T for s in plans],
        }[what]

    def tables(self) -> dict[str, pd.DataFrame]:
        """The oracle against finite T, written to ``tables/``."""
        return {"oracle_vs_finite_T": self.agreement}

    def figure(self) -> Figure:
        """Type I (left) and Type II (right) against ε, with the guarantees and a top axis in noise scales."""
        eps, rec, spread = self.eps, self.records, 1.06
        colour = {"am": "C1", "gm": "C0", "thres1": "C2", "thres2": "C3"}
        panels = (  # the error; the aggregate that bounds it; the two-threshold set; the other aggregate
            ("type1", "gm", ("thres1", "Θ̂¹", "^"), "am", self.alpha, "α", "2α"),
            ("type2", "am", ("thres2", "Θ̂²", "v"), "gm", 1 - self.beta, "1 − β", "2(1 − β)"),
        )
        nice = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]  # top-axis ticks
        to_snr, K41 = self.gap_per_unit_eps, self.schedules[eps[0]]["41"].K
        lo_snr, hi_snr = eps[0] * to_snr, eps[-1] * to_snr
        fig, ax = panel_row(2, height=3.9)
        for a, panel in zip(ax, panels, strict=True):
            kind, agg, (thres, thres_name, marker), other, target, name, name42 = panel
            c, agg_name = colour[agg], agg.upper()
            plot_error_rates(a, eps, rec[agg], kind, label=f"{agg_name}, T → ∞", color=c)
            plot_error_rates(a, eps, rec[f"{agg}-thm42"], kind, label=f"{agg_name}, Thm 4.2's T", color=c,
                             marker="s", ls=":", shift=spread)  # fmt: skip
            plot_error_rates(a, eps, rec[thres], kind, label=f"{thres_name}, T → ∞", color=colour[thres],
                             marker=marker, shift=1 / spread)  # fmt: skip
            plot_error_rates(a, eps, rec[other], kind, label=f"{other.upper()} (not controlled)",
                             color=colour[other], marker=".", faint=True)  # fmt: skip
            guarantee_line(a, target, name)
            guarantee_line(a, 2 * target, f"{name42} (Thm 4.2)", ls=":")
            error_rate_axes(a, kind)
            a.set_xscale("log")
            fixed_ticks(a.xaxis, eps)
            a.set_xlabel("privacy budget ε")
            top = a.secondary_xaxis("top", functions=(lambda e: e * to_snr, lambda s: s / to_snr))
            fixed_ticks(top.xaxis, [v for v in nice if lo_snr <= v <= hi_snr] or [lo_snr, hi_snr])
            top.set_xlabel(f"gap in noise scales l/b (K = {K41})")
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=SMALL)
        return fig  # fmt: skip


def eps_sweep(P: Parameters, inst: Instance) -> EpsSweep:
    """The sweep over ε (stream ``eps-sweep``; task ``(j, 0)`` AM/GM, ``(j, 1)`` two thresholds at ε_j)."""
    eps, T, prob = tuple(P.eps_values), P.iterations, inst.problem
    target = {"delta": inst.delta, "alpha": P.alpha, "beta": P.beta}
    sched = {
        e: {
            "41": inf.schedule_thm41(prob, eps=e, **target),
            "42": inf.schedule_thm42(prob, a_star=inst.spectral.a_star, eps=e, **target),
            "43": inf.schedule_thm43(prob, eps=e, **target, pi1=P.pi, pi2=P.pi),
        }
        for e in eps
    }
    s0 = sched[eps[0]]["43"]
    freq43 = (s0.freq_1, s0.freq_2)  # thresholds do not depend on ε or K
    opts = {"weights": inst.weights, "delta": inst.delta, "reps": P.replications}
    ll, stream = inst.loglik, P.stream("eps-sweep")

    def tasks(T_: int | None) -> dict[tuple[int, ...], inf.ErrorRateTask]:
        out = {(j, 0): _task(ll, e, sched[e]["41"].K, T_, **opts) for j, e in enumerate(eps)}
        out |= {(j, 1): _task(ll, e, sched[e]["43"].K, T_, freq=freq43, **opts) for j, e in enumerate(eps)}
        return out

    oracle = _keyed_sweep(tasks(None), stream, "ε sweep, T → ∞")
    finite42 = _keyed_sweep(
        {(j, 0): _task(ll, e, s.K, s.T, rho=(s.rho_am, s.rho_gm), **opts)
         for j, (e, s) in enumerate((e, sched[e]["42"]) for e in eps)},
        stream, "ε sweep, Thm 4.2's T",
    )  # fmt: skip
    big_T = _keyed_sweep(tasks(T), stream, f"ε sweep, T = {T}")
    est = _ESTIMATORS.items()
    curves = [  # (curve, label, results, estimator, rule, theorem)
        *((e, f"{name} (Thm {th}, T → ∞)", oracle, e, rule, th) for e, (name, rule, th) in est),
        ("am-thm42", "AM (Thm 4.2, finite T)", finite42, "am", "amgm", "4.2"),
        ("gm-thm42", "GM (Thm 4.2, finite T)", finite42, "gm", "amgm", "4.2"),
        *((f"{e}-T", f"{name} (T = {T})", big_T, e, rule, th) for e, (name, rule, th) in est),
    ]  # fmt: skip
    records = {
        curve: [
            _record(out[(j, int(rule == "thres"))], "epsilon", label, est, theorem=th)
            for j in range(len(eps))
        ]
        for curve, label, out, est, rule, th in curves
    }
    K41 = sched[eps[0]]["41"].K
    to_snr = prob.gap / inf.noise_scale(inst.delta, inst.n_states, 1.0, K41)  # l/b ∝ ε: its value at ε = 1
    return EpsSweep(eps, inst.n, P.alpha, P.beta, P.replications, T, sched, records, float(to_snr))


@dataclass(frozen=True)
class KSweep:
    """Error rates of agent 1 against the number of rounds K at ``eps`` (``T → ∞``).

    Attributes
    ----------
    eps, alpha, beta, K_thm41
        The budget, the targets, and Theorem 4.1's K at that budget (marked on the figure).
    records
        Estimator (``"am"``, ``"gm"``, ``"thres1"``, ``"thres2"``) → one record per K, K increasing.
    """

    eps: float
    alpha: float
    beta: float
    K_thm41: int
    records: Mapping[str, list[Record]]

    @property
    def Ks(self) -> list[int]:
        """The rounds of the sweep, increasing."""
        return [r["K"] for r in self.records["am"]]

    @property
    def rows(self) -> list[Record]:
        """Every record, estimator by estimator."""
        return [r for recs in self.records.values() for r in recs]

    def at(self, est: str, K: int) -> Record:
        """The record of estimator ``est`` at ``K`` rounds."""
        return next(r for r in self.records[est] if r["K"] == K)

    @property
    def best_gm(self) -> int:
        """The K with the smallest GM Type I error (the first, on ties)."""
        return min(self.Ks, key=lambda K: self.at("gm", K)["type1"])

    def figure(self) -> Figure:
        """Type I (left) and Type II (right) against K on a log₂ axis, Theorem 4.1's K marked."""
        Ks, rec = self.Ks, self.records
        fig, ax = panel_row(2, height=3.6)
        plot_error_rates(ax[0], Ks, rec["gm"], "type1", label="GM", color="C0")
        plot_error_rates(ax[0], Ks, rec["thres1"], "type1", label="Θ̂¹", color="C2", marker="^")
        plot_error_rates(
            ax[0], Ks, rec["am"], "type1", label="AM (not controlled)", color="C1", marker=".", faint=True
        )
        guarantee_line(ax[0], self.alpha, "α")
        plot_error_rates(ax[1], Ks, rec["am"], "type2", label="AM", color="C1")
        plot_error_rates(ax[1], Ks, rec["thres2"], "type2", label="Θ̂²", color="C3", marker="v")
        plot_error_rates(
            ax[1], Ks, rec["gm"], "type2", label="GM (not controlled)", color="C0", marker=".", faint=True
        )
        guarantee_line(ax[1], 1 - self.beta, "1 − β")
        for a, kind in zip(ax, ("type1", "type2"), strict=True):
            error_rate_axes(a, kind)
            a.set_xscale("log", base=2)
            fixed_ticks(a.xaxis, Ks)
            a.axvline(self.K_thm41, color="0.5", lw=1, ls="-.", label=f"Thm 4.1: K = {self.K_thm41}")
            a.set_xlabel(f"rounds K (ε = {self.eps:g})")
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=SMALL)
        return fig  # fmt: skip


def k_sweep(P: Parameters, inst: Instance, thresholds: tuple[float, float]) -> KSweep:
    """The sweep over K at ``eps_demo`` (stream ``k-sweep``, task ``(K,)``); ``thresholds``: Thm 4.3's."""
    Ks = sorted(P.K_values)
    opts = {"weights": inst.weights, "delta": inst.delta, "reps": P.replications}
    tasks = {(K,): _task(inst.loglik, P.eps_demo, K, freq=thresholds, **opts) for K in Ks}
    out = _keyed_sweep(tasks, P.stream("k-sweep"), "K sweep")
    names = {"am": "AM (T → ∞)", "gm": "GM (T → ∞)", "thres1": "two-threshold Θ̂¹ (T → ∞)",
             "thres2": "two-threshold Θ̂² (T → ∞)"}  # fmt: skip
    records = {
        est: [
            _record(out[(K,)], "rounds", name, est, theorem="4.1" if est in ("am", "gm") else "4.3")
            for K in Ks
        ]
        for est, name in names.items()
    }
    target = {"delta": inst.delta, "eps": P.eps_demo, "alpha": P.alpha, "beta": P.beta}
    return KSweep(P.eps_demo, P.alpha, P.beta, inf.schedule_thm41(inst.problem, **target).K, records)


# ------------------------------------------------------------------------------------------------
# The gap in noise scales
# ------------------------------------------------------------------------------------------------


def _gap_table(n_agents: int, n_states: int, gap: float) -> NDArray[np.float64]:
    """Log-likelihoods whose one MLE state leads by ``gap`` noise scales when b = 1 (0: :data:`GAP_FLOOR`)."""
    return inf.gap_loglik(n_agents, n_states, max(gap, GAP_FLOOR))


@dataclass(frozen=True)
class GapSweep:
    """Error rates against the likelihood gap in Laplace noise scales (``T → ∞``, ``|Θ*| = 1``, ``b = 1``).

    Attributes
    ----------
    gaps, n_agents, n_states, alpha, beta
        The gaps (increasing) and the setting.
    rounds
        The round counts of Theorem 4.1: ``"AM, paper"``, ``"AM, corrected"``, ``"GM, paper"``,
        ``"GM, corrected"``.
    thm43, thm43_corrected, cor44
        Theorem 4.3's schedule with the paper's and the corrected ``p₂``, and Corollary 4.4's.
    records
        ``"AM, paper"``, …, ``"thres1"``, ``"thres2"``, ``"cor44"`` → one record per gap.
    p_win
        Per gap, the fraction of rounds the MLE state wins (the rounds of ``"GM, paper"``).
    """

    gaps: tuple[float, ...]
    n_agents: int
    n_states: int
    alpha: float
    beta: float
    rounds: Mapping[str, int]
    thm43: Any
    thm43_corrected: Any
    cor44: Any
    records: Mapping[str, list[Record]]
    p_win: tuple[float, ...]

    @property
    def rows(self) -> list[Record]:
        """Every record, rule by rule."""
        return [r for recs in self.records.values() for r in recs]

    def met_from(self, name: str, kind: str, target: float) -> float:
        """The smallest gap from which every rate of ``name`` meets ``target`` within Monte Carlo error.

        The first gap when every rate meets it; ``nan`` when the rate at the largest gap does not.
        """
        ok = [not inf.exceeds_target(r, kind, target) for r in self.records[name]]
        return next((g for i, g in enumerate(self.gaps) if all(ok[i:])), math.nan)

    @property
    def verdicts(self) -> pd.DataFrame:
        """Per rule: its K, the error it bounds, the target, and the smallest gap from which every rate
        stays within the target (within Monte Carlo error; "none tested" when the largest gap fails)."""
        a, miss, fail = self.alpha, 1 - self.beta, 1 - (self.beta - self.alpha)
        rules = [
            ("AM, paper's K", "AM, paper", self.rounds["AM, paper"], "Type II", "type2", miss),
            ("AM, corrected K", "AM, corrected", self.rounds["AM, corrected"], "Type II", "type2", miss),
            ("GM, paper's K", "GM, paper", self.rounds["GM, paper"], "Type I", "type1", a),
            ("GM, corrected K", "GM, corrected", self.rounds["GM, corrected"], "Type I", "type1", a),
            ("two-threshold Θ̂¹ (Thm 4.3)", "thres1", self.thm43.K, "Type I", "type1", a),
            ("two-threshold Θ̂² (Thm 4.3)", "thres2", self.thm43.K, "Type II", "type2", miss),
            ("single threshold (Cor 4.4)", "cor44", self.cor44.K, "Θ̂ ≠ Θ*", "miss_exact", fail),
        ]  # fmt: skip
        rows = []
        for label, name, K, error, kind, target in rules:
            start = self.met_from(name, kind, target)
            shown = "none tested" if math.isnan(start) else f"{start:g}"
            rows.append(
                {"rule": label, "K": K, "error": error, "target": target, "within target from gap": shown}
            )
        return pd.DataFrame(rows)

    def at(self, name: str, gap: float) -> Record:
        """The record of ``name`` at the gap tested nearest ``gap``."""
        return min(self.records[name], key=lambda r: abs(r["gap"] - gap))

    def p_win_at(self, gap: float) -> float:
        """The fraction of rounds the MLE state wins at ``gap`` (a gap of the sweep; ``nan`` for ``nan``)."""
        return math.nan if math.isnan(gap) else self.p_win[self.gaps.index(gap)]

    @property
    def exact_from(self) -> float:
        """The smallest gap at which Corollary 4.4 recovers Θ* with probability at least β − α (``nan``:
        none)."""
        ok = [r["gap"] for r in self.records["cor44"] if r["exact"] >= self.beta - self.alpha]
        return min(ok) if ok else math.nan

    def tau2(self, corrected: bool) -> float:
        """Theorem 4.3's τ² with the paper's ``p₂ = 1/|Θ̄|`` or the corrected ``1/|Θ|``."""
        s = self.thm43_corrected if corrected else self.thm43
        return inf.frequency_thresholds(s.freq_1, s.freq_2, s.K)[1]

    def wins_needed(self, corrected: bool) -> int:
        """Rounds a state must win to enter Θ̂² (``N ≥ τ²``, N a multiple of 1/K)."""
        s = self.thm43_corrected if corrected else self.thm43
        return inf.to_int_ceil(self.tau2(corrected) * s.K)

    @property
    def headline(self) -> dict[str, Any]:
        """The numbers the chapter's summary quotes, under the metrics.json name ``headline``."""
        gm_half = self.at("GM, paper", 0.5)
        am_zero = min(self.records["AM, paper"], key=lambda r: r["gap"])
        exact_from = self.exact_from
        return {
            "gm_type1_gap_half": gm_half["type1"], "gm_gap": gm_half["gap"], "gm_K": gm_half["K"],
            "am_type2_gap_zero": am_zero["type2"], "am_K": am_zero["K"],
            "am_type2_gap_zero_corrected": min(self.records["AM, corrected"], key=lambda r: r["gap"])[
                "type2"
            ],
            "thres1_type1_gap_2": self.at("thres1", 2)["type1"],
            "cor44_exact_recovery_from_gap": None if math.isnan(exact_from) else exact_from,
        }  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The win probability against the gap, under its metrics.json name."""
        return {"win_probability_vs_gap": {"gap": self.gaps, "p_win": self.p_win}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Where each rule meets its target, written to ``tables/``."""
        return {"gap_verdicts": self.verdicts}

    def figure(self) -> Figure:
        """AM's Type II, GM's Type I, and the two-threshold and exact-recovery errors against the gap."""
        gaps, rec, K, K43, K44 = self.gaps, self.records, self.rounds, self.thm43.K, self.cor44.K
        curves = (  # panel, record, error, label, colour, marker
            (0, "AM, paper", "type2", f"AM, paper: K = {K['AM, paper']}", "C1", "o"),
            (0, "AM, corrected", "type2", f"AM, corrected: K = {K['AM, corrected']}", "C5", "s"),
            (1, "GM, paper", "type1", f"GM, paper: K = {K['GM, paper']}", "C0", "o"),
            (1, "GM, corrected", "type1", f"GM, corrected: K = {K['GM, corrected']}", "C9", "s"),
            (2, "thres1", "type1", f"Θ̂¹ Type I (K = {K43})", "C2", "^"),
            (2, "thres2", "type2", f"Θ̂² Type II (K = {K43})", "C3", "v"),
            (2, "cor44", "miss_exact", f"Cor 4.4: Θ̂ ≠ Θ* (K = {K44})", "C4", "D"),
        )
        fig, ax = panel_row(3, height=4.2)
        for j, name, kind, label, color, marker in curves:
            plot_error_rates(ax[j], gaps, rec[name], kind, label=label, color=color, marker=marker)
        guarantee_line(ax[0], 1 - self.beta, "1 − β")
        guarantee_line(ax[1], self.alpha, "α")
        guarantee_line(ax[2], self.alpha, "α")
        guarantee_line(ax[2], 1 - (self.beta - self.alpha), "1 − (β − α)", ls="-.")
        am_top = max(0.2, max(r["type2_hi"] for name in ("AM, paper", "AM, corrected") for r in rec[name]))
        frames = (("type2", "AM (Thm 4.1)", am_top), ("type1", "GM (Thm 4.1)", 1.0),
                  ("exact", "two thresholds\n(Thm 4.3, Cor 4.4)", 1.0))  # fmt: skip
        for a, (kind, title, top) in zip(ax, frames, strict=True):
            error_rate_axes(a, kind, top)
            a.set(xlabel="gap l/b (noise scales)", title=title)
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=SMALL)
        ax[2].set_ylabel("error")
        fig.suptitle(
            f"Guarantees against the likelihood gap: n = {self.n_agents}, |Θ| = {self.n_states}, |Θ*| = 1"
        )
        return fig  # fmt: skip


def gap_sweep(P: Parameters, inst: Instance) -> GapSweep:
    """The sweep over the gap (stream ``gap-sweep``; task ``(i, 0, K)`` AM/GM with K rounds at the i-th
    gap, ``(i, 1, K)`` Theorem 4.3, ``(i, 2, K)`` Corollary 4.4).

    The instance only lends its weights (unused by the ``T → ∞`` oracle); ``ε = K|Θ|`` and ``Δ = 1`` make
    the Laplace scale 1, so a gap of g is g noise scales.
    """
    n, m, alpha, beta = P.n_agents, P.n_states, P.alpha, P.beta
    gaps = tuple(sorted(P.gap_values))
    gap_prob = inf.problem_constants(_gap_table(n, m, 1.0))
    rounds = {
        "AM, paper": inf.to_int_ceil(inf.rounds_am(m, 1, beta), minimum=1),
        "AM, corrected": inf.to_int_ceil(inf.rounds_am(m, 1, beta, corrected=True), minimum=1),
        "GM, paper": inf.to_int_ceil(inf.rounds_gm(m, 1, alpha), minimum=1),
        "GM, corrected": inf.to_int_ceil(inf.rounds_gm(m, 1, alpha, corrected=True), minimum=1),
    }
    target = {"delta": 1.0, "eps": 1.0, "alpha": alpha, "beta": beta}
    s43 = inf.schedule_thm43(gap_prob, **target, pi1=P.pi, pi2=P.pi)
    s43_fixed = inf.schedule_thm43(gap_prob, **target, pi1=P.pi, pi2=P.pi, corrected=True)
    c44 = inf.schedule_cor44(gap_prob, **target, pi2=P.pi)
    opts = {"weights": inst.weights, "delta": 1.0, "reps": P.replications}
    tasks = {}
    for i, g in enumerate(gaps):
        table = _gap_table(n, m, g)
        for K in sorted(set(rounds.values())):
            tasks[(i, 0, K)] = _task(table, K * m, K, **opts)  # b = ΔK|Θ|/ε = 1
        for kind, s in ((1, s43), (2, c44)):
            tasks[(i, kind, s.K)] = _task(table, s.K * m, s.K, freq=(s.freq_1, s.freq_2), **opts)
    out = _keyed_sweep(tasks, P.stream("gap-sweep"), "gap sweep")
    records: dict[str, list[Record]] = {}
    for name, K in rounds.items():
        algorithm = f"{name.split(',')[0]} (K {name.split(', ')[1]})"
        est = "am" if name.startswith("AM") else "gm"
        records[name] = [
            _record(out[(i, 0, K)], "gap", algorithm, est, gap=g, theorem="4.1") for i, g in enumerate(gaps)
        ]
    for name, algorithm, kind, est, th, s in (
        ("thres1", "two-threshold Θ̂¹ (Thm 4.3)", 1, "thres1", "4.3", s43),
        ("thres2", "two-threshold Θ̂² (Thm 4.3)", 1, "thres2", "4.3", s43),
        ("cor44", "single threshold (Cor 4.4)", 2, "thres2", "4.4", c44),
    ):
        records[name] = [
            _record(out[(i, kind, s.K)], "gap", algorithm, est, gap=g, theorem=th) for i, g in enumerate(gaps)
        ]
    for r in records["cor44"]:  # plot the failure probability P[Θ̂ ≠ Θ*] = 1 − exact
        r["miss_exact"], r["miss_exact_lo"], r["miss_exact_hi"] = (
            1 - r["exact"],
            1 - r["exact_hi"],
            1 - r["exact_lo"],
        )
    p_win = tuple(out[(i, 0, rounds["GM, paper"])]["am_belief_mle"] for i in range(len(gaps)))
    return GapSweep(gaps, n, m, alpha, beta, rounds, s43, s43_fixed, c44, records, p_win)  # fmt: skip


# ------------------------------------------------------------------------------------------------
# The per-round win probability at zero gap
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WinFloor:
    """The probability that the MLE state wins a round when the gap vanishes, and that it never wins.

    Attributes
    ----------
    n_states, beta, rounds
        The chapter's ``|Θ|``, β and Theorem 4.1's AM rounds (``"AM, paper"``, ``"AM, corrected"``).
    states
        The ``|Θ|`` of the win-probability count.
    win, lo, hi
        Per ``|Θ|``: the fraction of rounds won, and its 95 % Clopper–Pearson interval.
    n_rounds
        Rounds behind each fraction (replications × ``FLOOR_ROUNDS``).
    factor, replications
        The multiple of the chapter's replications used, and the replications per point.
    never
        Per K of the grid: AM's record at zero gap with the chapter's ``|Θ|`` (its Type II error is the
        probability that θ* never wins).
    """

    n_states: int
    beta: float
    rounds: Mapping[str, int]
    states: tuple[int, ...]
    win: NDArray[np.float64]
    lo: NDArray[np.float64]
    hi: NDArray[np.float64]
    n_rounds: int
    factor: int
    replications: int
    never: list[Record]

    @property
    def rows(self) -> list[Record]:
        """The zero-gap records of AM."""
        return list(self.never)

    @property
    def Ks(self) -> list[int]:
        """The rounds of the never-wins curve."""
        return [r["K"] for r in self.never]

    def at(self, K: int) -> Record:
        """AM's zero-gap record with ``K`` rounds."""
        return next(r for r in self.never if r["K"] == K)

    def exact_never(self, K: int) -> float:
        """``(1 − 1/|Θ|)^K``: the probability that θ* never wins in K rounds when the gap vanishes."""
        return (1 - 1 / self.n_states) ** K

    def win_at(self, n_states: int) -> tuple[float, float, float]:
        """The fraction of rounds won with ``n_states`` states, and its interval."""
        j = self.states.index(n_states)
        return float(self.win[j]), float(self.lo[j]), float(self.hi[j])

    def metrics(self) -> dict[str, Any]:
        """The win probabilities, under their metrics.json name."""
        return {
            "win_probability": {
                "n_states": self.states, "rate": self.win, "lo": self.lo, "hi": self.hi,
                "rounds": self.n_rounds,
                "paper_floor": [1 / (m - 1) for m in self.states],
            }
        }  # fmt: skip

    def figure(self) -> Figure:
        """Left: the win probability against ``|Θ|``; right: the probability that θ* never wins, against K."""
        M, ms = self.n_states, np.array(self.states)
        fig, ax = panel_row(2, height=3.4)
        ax[0].errorbar(
            ms,
            self.win,
            yerr=[self.win - self.lo, self.hi - self.win],
            fmt="o",
            color="C0",
            capsize=3,
            label="simulated, gap → 0",
        )
        ax[0].plot(ms, 1 / ms, color="C0", lw=1, label="1/|Θ| (exchangeable)")
        ax[0].plot(ms, 1 / (ms - 1), color="0.2", ls="--", lw=1, label="1/|Θ̄| (the proofs)")
        ax[0].set(xlabel="states |Θ|", ylabel="P[θ* wins a round]", xticks=list(self.states))
        ax[0].legend()
        plot_error_rates(
            ax[1], np.array(self.Ks), self.never, "type2", label="simulated", color="C1", ls="none"
        )
        Kd = np.arange(1, self.Ks[-1] + 1)
        ax[1].plot(Kd, (1 - 1 / M) ** Kd, color="C1", lw=1, label="(1 − 1/|Θ|)^K")
        ax[1].plot(
            Kd, (1 - 1 / (M - 1)) ** Kd, color="0.2", ls="--", lw=1, label="(1 − 1/|Θ̄|)^K (the proofs)"
        )
        guarantee_line(ax[1], 1 - self.beta, "1 − β", ls="-.")
        for name, ls in (("AM, paper", ":"), ("AM, corrected", "-")):
            ax[1].axvline(
                self.rounds[name], color="0.5", lw=1, ls=ls, label=f"{name} K = {self.rounds[name]}"
            )
        ax[1].set(xlabel="rounds K", ylabel="P[θ* never wins]", yscale="log")
        plain_log(ax[1].yaxis)
        ax[1].legend(fontsize=SMALL)
        return fig  # fmt: skip


def _never_rounds(paper: int, corrected: int) -> list[int]:
    """The rounds K of the never-wins curve: 14 points from 1 to ``max(16, corrected + 2)`` on a log
    scale, and AM's paper and corrected K (``paper ≤ corrected``)."""
    top = max(16, corrected + 2)
    return sorted({*np.unique(np.round(np.geomspace(1, top, 14)).astype(int)).tolist(), paper, corrected})


def win_floor(P: Parameters, inst: Instance, rounds: Mapping[str, int]) -> WinFloor:
    """Count wins at zero gap (stream ``win-floor``; task ``(0, ``|Θ|``)`` per ``|Θ|``, ``(1, K)`` per K).

    Uses up to ten times the chapter's replications, at most about 4·10⁷ Laplace draws in all;
    ``rounds`` are the AM round counts of :class:`GapSweep`.
    """
    n, M, R = P.n_agents, P.n_states, P.replications
    states = tuple(range(2, max(6, M) + 1))
    K_grid = _never_rounds(rounds["AM, paper"], rounds["AM, corrected"])
    draws_per_rep = n * (FLOOR_ROUNDS * sum(states) + M * sum(K_grid))
    factor = int(max(1, min(10, 4e7 // (R * draws_per_rep))))
    opts = {"weights": inst.weights, "delta": 1.0, "reps": factor * R}
    tasks = {(0, m): _task(_gap_table(n, m, 0.0), FLOOR_ROUNDS * m, FLOOR_ROUNDS, **opts) for m in states}
    tasks |= {(1, K): _task(_gap_table(n, M, 0.0), K * M, K, **opts) for K in K_grid}
    out = _keyed_sweep(tasks, P.stream("win-floor"), "win probability")
    win = np.array([out[(0, m)]["am_belief_mle"] for m in states])  # fraction of rounds won
    n_rounds = factor * R * FLOOR_ROUNDS
    lo, hi = clopper_pearson(np.round(win * n_rounds).astype(int), n_rounds, 0.975)
    never = [
        _record(out[(1, K)], "floor", f"AM at zero gap, |Θ| = {M}", "am", gap=0.0, theorem="4.1")
        for K in K_grid
    ]
    return WinFloor(M, P.beta, rounds, states, win, lo, hi, n_rounds, factor, factor * R, never)  # fmt: skip


@dataclass(frozen=True)
class Summary:
    """Every error-rate record of the chapter and its headline numbers, under their metrics.json names."""

    rows: list[Record]
    headline: dict[str, Any]

    def metrics(self) -> dict[str, Any]:
        """``error_rates`` (every record, sweep by sweep) and ``headline``."""
        return {"error_rates": self.rows, "headline": self.headline}


def summary(eps: EpsSweep, ks: KSweep, gap: GapSweep, floor: WinFloor) -> Summary:
    """Collect the records of the four sweeps, in the order the chapter runs them."""
    return Summary([*eps.rows, *ks.rows, *gap.rows, *floor.rows], gap.headline)


# ------------------------------------------------------------------------------------------------
# Exact recovery (Corollary 4.4)
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactRecovery:
    """Corollary 4.4's condition ``p₂ > p₁`` for every ``|Θ*| < |Θ|`` up to ``max_states``."""

    table: pd.DataFrame

    @property
    def counterexamples(self) -> pd.DataFrame:
        """The (``|Θ|``, ``|Θ*|``) with ``|Θ|`` ≤ 4 where the condition fails, against the paper's clause."""
        t = self.table
        return t[t["paper: any f* when |Θ| ≤ 4"] & ~t["feasible (p₂ > p₁)"]]

    @staticmethod
    def boundaries(n_states: int) -> tuple[float, float]:
        """The densities f* between which exact recovery is infeasible, for ``|Θ|`` > 4."""
        return inf.exact_recovery_boundaries(n_states)

    def metrics(self) -> dict[str, Any]:
        """The counterexamples, under their metrics.json name."""
        return {"cor44_counterexamples": self.counterexamples[["|Θ|", "|Θ*|"]].to_dict(orient="records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"cor44_feasibility": self.table}


def exact_recovery(max_states: int = 6) -> ExactRecovery:
    """``p₁``, ``p₂`` and feasibility for ``|Θ| = 2, …, max_states``, beside the paper's ``|Θ| ≤ 4``
    clause."""
    rows = []
    for m in range(2, max_states + 1):
        for s in range(1, m):
            p1, p2 = inf.win_probabilities(m, s)
            rows.append((m, s, s / m, p1, p2, inf.exact_recovery_feasible(m, s), m <= 4))
    columns = ["|Θ|", "|Θ*|", "f*", "p₁", "p₂", "feasible (p₂ > p₁)", "paper: any f* when |Θ| ≤ 4"]
    return ExactRecovery(pd.DataFrame(rows, columns=columns))


# ------------------------------------------------------------------------------------------------
# Rounds and iterations
# ------------------------------------------------------------------------------------------------


def _plans(P: Parameters, inst: Instance, e: float) -> dict[str, Any]:
    """Every schedule of the chapter at budget ``e`` on the instance."""
    prob, a = inst.problem, inst.spectral.a_star
    t = {"delta": inst.delta, "eps": e, "alpha": P.alpha, "beta": P.beta}
    plans = {
        "Thm 4.1 (T → ∞)": inf.schedule_thm41(prob, **t),
        "Thm 4.1, corrected": inf.schedule_thm41(prob, **t, corrected=True),
        "Thm 4.2 (finite T)": inf.schedule_thm42(prob, a_star=a, **t),
        "Thm 4.3 (two thresholds, T → ∞)": inf.schedule_thm43(prob, **t, pi1=P.pi, pi2=P.pi),
        "Thm 4.5 (two thresholds, finite T)": inf.schedule_thm45(
            prob, a_star=a, **t, q1=P.q1, q2=P.q2, pi1=P.pi, pi2=P.pi
        ),
        "authors' code": inf.schedule_authors_code(prob, a_star=a, **t, rho=CODE_RHO),
    }
    if inf.exact_recovery_feasible(inst.n_states, prob.n_mle):
        plans["Cor 4.4 (exact recovery, T → ∞)"] = inf.schedule_cor44(prob, **t, pi2=P.pi)
    return plans


@dataclass(frozen=True)
class Schedules:
    """K, T, K·T and the noise scale of every schedule at every ε of the sweep, on the instance."""

    rows: list[Record]

    @property
    def frame(self) -> pd.DataFrame:
        """One row per schedule and ε."""
        return pd.DataFrame(self.rows)

    @property
    def table(self) -> pd.DataFrame:
        """Schedules × ε, each cell ``K / T`` (``∞`` for the asymptotic theorems)."""
        df = self.frame
        cells = [
            f"{k} / {'∞' if t is None or pd.isna(t) else int(t)}"
            for k, t in zip(df["K"], df["T"], strict=True)
        ]
        shown = df.assign(cell=cells).pivot(index="schedule", columns="eps", values="cell")
        shown.columns = [f"ε = {e:g}" for e in shown.columns]
        shown.index.name = "K / T"
        return shown.loc[list(dict.fromkeys(df["schedule"]))]

    def kt(self, schedule: str, eps: float) -> int:
        """K·T of ``schedule`` at budget ``eps``."""
        return int(next(r["KT"] for r in self.rows if r["schedule"] == schedule and r["eps"] == eps))

    def metrics(self) -> dict[str, Any]:
        """The rows, under their metrics.json name."""
        return {"rounds_iterations": self.rows}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The long table written to ``tables/``."""
        return {"rounds_iterations": self.frame}


def schedules(P: Parameters, inst: Instance) -> Schedules:
    """Theorems 4.1–4.5, Corollary 4.4 (when feasible) and the authors' code at every ε of ``eps_values``."""
    rows = []
    for e in P.eps_values:
        for name, s in _plans(P, inst, e).items():
            kt = None if s.T is None else s.K * s.T
            scale = float(np.mean(s.noise_scale))
            rows.append({"schedule": name, "eps": e, "K": s.K, "T": s.T, "KT": kt, "noise_scale": scale,
                         "convention": s.convention})  # fmt: skip
    return Schedules(rows)


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
        ``|Θ|``, and K of Theorems 4.1 (paper's and corrected) and 4.3, and K·T of Theorem 4.2.
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

    def metrics(self) -> dict[str, Any]:
        """The three curves, under their metrics.json names."""
        return {
            "rounds_vs_n": {"n": self.n_grid, "eps": self.eps, **self.by_graph},
            "rounds_vs_states": {"n_states": self.state_grid, "eps": self.eps, **self.by_states},
            "rounds_vs_eps": {"eps": self.eps_grid, **self.by_eps},
        }

    def figure(self) -> Figure:
        """Left: T against n; middle: K and K·T against ``|Θ|``; right: K·T against ε."""
        fig, ax = panel_row(3, height=3.6)
        for kind, Ts in self.by_graph.items():
            ax[0].plot(self.n_grid, Ts, lw=1.5, label=kind)
        ax[0].set(xlabel="agents n", ylabel=f"Thm 4.2's T (ε = {self.eps:g})", ylim=(0, None))
        ax[0].legend()
        for name, vals in self.by_states.items():
            ax[1].plot(
                self.state_grid, vals, lw=1.5, marker=".", label=name, ls="--" if "corrected" in name else "-"
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
        "K·T Thm 4.2": [],
    }
    for m in state_grid:
        p_m = inf.ProblemConstants(n=inst.n, n_states=m, n_mle=1, gamma=prob.gamma, gap=prob.gap)
        by_states["K Thm 4.1"].append(inf.schedule_thm41(p_m, eps=e, **t).K)
        by_states["K Thm 4.1 corrected"].append(inf.schedule_thm41(p_m, eps=e, **t, corrected=True).K)
        by_states["K Thm 4.3"].append(inf.schedule_thm43(p_m, eps=e, **t, pi1=P.pi, pi2=P.pi).K)
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


# ------------------------------------------------------------------------------------------------
# Paper 000 against paper 003, and the lower bound of §13
# ------------------------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class LowerBound:
    """Theorem 13.1's lower bound on K·T for randomized response, as printed and with the proof's numerator.

    Attributes
    ----------
    eps_gap, diameter, alpha, beta
        The signal gap, the graph's diameter and the targets.
    rows
        Per ε: the bound of Theorem 13.1 and of the §13 remark as printed, and with ``(β − α)²``.
    """

    eps_gap: float
    diameter: int
    alpha: float
    beta: float
    rows: list[Record]

    @property
    def table(self) -> pd.DataFrame:
        """One row per ε."""
        return pd.DataFrame(self.rows)

    def column(self, name: str) -> NDArray[np.float64]:
        """``"printed"``, ``"remark"`` or ``"proof"`` over the ε grid."""
        return self.table.iloc[:, {"printed": 1, "remark": 2, "proof": 3}[name]].to_numpy(dtype=float)

    @property
    def remark_ratio(self) -> float:
        """The remark's bound over the theorem's (as printed), at the smallest ε; ``nan`` where both are 0."""
        printed, remark = self.column("printed")[0], self.column("remark")[0]
        return remark / printed if printed > 0 else math.nan

    @property
    def proof_growth(self) -> float:
        """The proof's bound at the smallest ε over the bound at the largest; ``nan`` where it is zero."""
        proof = self.column("proof")
        return proof[0] / proof[-1] if proof[-1] > 0 else math.nan

    def metrics(self) -> dict[str, Any]:
        """The table, under its metrics.json name."""
        return {"lower_bound": {"eps_gap": self.eps_gap, "diameter": self.diameter, "rows": self.rows}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"lower_bound": self.table}


def lower_bound(P: Parameters, inst: Instance, eps_gap: float = LOWER_BOUND_EPS_GAP) -> LowerBound:
    """Theorem 13.1 at every ε of ``eps_values`` on the instance's graph, ``Be(1/2)`` against
    ``Be(1/2 + ε_gap/2)`` signals under randomized response."""
    diam, n, alpha, beta = inst.spectral.diameter, inst.n, P.alpha, P.beta
    rows = []
    for e in P.eps_values:
        kl_sum = n * inf.kl_bound_rr(e, eps_gap)
        proof = inf.kt_lower_bound(alpha, beta, diam, kl_sum, numerator="proof")
        rows.append({
            "ε": e,
            "Thm 13.1 as printed": inf.kt_lower_bound(alpha, beta, diam, kl_sum),
            "§13 remark as printed (RR)": inf.kt_lower_bound_rr(alpha, beta, e, eps_gap, diam, n),
            "with (β − α)² (the proof's step)": proof,
        })  # fmt: skip
    return LowerBound(eps_gap, diam, alpha, beta, rows)


# ------------------------------------------------------------------------------------------------
# Tables 1 and 2: what can be checked
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Complexity:
    """The authors' code's K and T in the setting of the published ACTG runs, checked against that run.

    Tables 1 and 2 are tables of orders of growth. Their one number-for-number counterpart in the
    published work is the run of the authors' notebook behind paper 003's Figure 14.1a, which set K and
    T from Table 1's orders with unit constants (:data:`dpnet.reference.complexity.ACTG_CODE_K_T`).

    Attributes
    ----------
    code
        The authors' code schedule (:func:`~dpnet.inference.schedules.schedule_authors_code`) in
        :data:`dpnet.reference.complexity.ACTG_SETTING`.
    checks
        Against the notebook's run, keyed by item.
    """

    code: inf.AMGMSchedule
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The authors' code departs from the paper in its noise and in how it sets K and T."""
        return tuple(("p003-table1", title, note) for title, note in complexity.TABLE1_DEVIATIONS)

    def metrics(self) -> dict[str, Any]:
        """The code's K and T, under their metrics.json name."""
        return {"table1_code_schedule": {"K": self.code.K, "T": self.code.T}}


def complexity_checks() -> Complexity:
    """The authors' code formulas on the ACTG constants (independent of the chapter's parameters)."""
    actg = complexity.ACTG_SETTING
    problem = inf.ProblemConstants(
        n=actg["n"], n_states=actg["n_states"], n_mle=actg["n_mle"], gamma=actg["gamma"], gap=actg["gap"]
    )
    code = inf.schedule_authors_code(
        problem, a_star=actg["a_star"], delta=actg["delta"], eps=actg["eps"], alpha=actg["alpha"],
        beta=actg["beta"], rho=actg["rho"],
    )  # fmt: skip
    # paper 000's Table 2 states formulas only: it is shown, with nothing to compare (its identities are
    # unit tests), which the report says when the run is the paper's setting
    return Complexity(code, {"p003-table1": complexity.table1_checks(code.K, code.T), "p000-table2": []})


# ------------------------------------------------------------------------------------------------
# The first exercise
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundsExercise:
    """AM's rounds at zero gap for ``n_states`` states: exact, corrected and the paper's count.

    Attributes
    ----------
    n_states, miss
        ``|Θ|`` and the target miss probability 1 − β.
    exact
        ``log(1 − β)/log(1 − 1/|Θ|)``: the rounds that make ``(1 − 1/|Θ|)^K ≤ 1 − β``.
    corrected, paper
        ``|Θ| log(1/(1 − β))`` and ``|Θ̄| log(1/(1 − β))`` (``|Θ*| = 1``).
    """

    n_states: int
    miss: float
    exact: float
    corrected: float
    paper: float

    def rounded(self, which: str) -> int:
        """``exact``, ``corrected`` or ``paper``, rounded up."""
        return inf.to_int_ceil(getattr(self, which), minimum=1)

    @property
    def paper_miss(self) -> float:
        """The probability that θ* never wins in the paper's (rounded) number of rounds."""
        return (1 - 1 / self.n_states) ** self.rounded("paper")


def rounds_exercise(P: Parameters, n_states: int = 6) -> RoundsExercise:
    """The numbers of the first exercise, at the chapter's β."""
    miss = 1 - P.beta
    return RoundsExercise(
        n_states,
        miss,
        math.log(miss) / math.log(1 - 1 / n_states),  # (1 − 1/|Θ|)^K ≤ 1 − β
        inf.rounds_am(n_states, 1, P.beta, corrected=True),
        inf.rounds_am(n_states, 1, P.beta),
    )
