"""The book's tables ``agents``, ``states`` and ``constants``: the chapter's synthetic instance.

Heterogeneous Bernoulli agents on a graph (drawn from the streams ``data`` and ``graph``), with the
constants the theorems use. Every other experiment of the chapter runs on this instance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["CLOSED_FORM_ITERATIONS", "Instance", "cost", "instance"]

#: Iterations of the check of the closed form ``2^{-T} φ_T → Λ/n``.
CLOSED_FORM_ITERATIONS = 40


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: n binomial draws and the spectral constants of an n × n matrix (n ≤ 50)."""
    return Cost()


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

    #: The book's own instance: it checks nothing, departs from no paper and has no paper setting to leave.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

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
