"""Chapter 2, ``distributed-mle``: private distributed maximum-likelihood estimation (papers 003, 000)."""

from __future__ import annotations

from dpnet.networks import GRAPH_KINDS
from dpnet.params import COMMON, Param, Schema, choice, eps_grid, integer, list_of, real

__all__ = ["SCHEMA"]


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_agents": Param(integer(ge=3, le=50), "number of agents n (a cycle needs n ≥ 3)"),
        "graph": Param(choice(*GRAPH_KINDS), "communication graph"),
        "edge_prob": Param(real(gt=0.0, le=1.0), "edge probability of the Erdős–Rényi graph"),
        "n_states": Param(integer(ge=2, le=12), "number of states |Θ|"),
        "n_signals": Param(integer(ge=1, le=100_000), "Bernoulli signals held by each agent"),
        "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the error-rate sweep"),
        "alpha": Param(real(gt=0.0, lt=1.0), "target Type I error α"),
        "beta": Param(real(gt=0.0, lt=1.0), "target probability β of keeping every MLE state"),
        "replications": Param(integer(ge=20), "Monte Carlo replications per point", quick=400, full=2000),
        "eps_demo": Param(real(gt=0.0), "ε of the belief trajectories and of the sweep over K"),
        "K_values": Param(list_of(integer(ge=1, le=200)), "numbers of rounds K of the sweep over K"),
        "gap_values": Param(
            list_of(real(ge=0.0, le=100.0), min_len=2),
            "likelihood gaps, in Laplace noise scales, of the guarantee check",
        ),
        "iterations": Param(
            integer(ge=1, le=5000), "iterations T of the trajectories and of the finite-T check"
        ),
        "pi": Param(real(gt=0.0, lt=1.0), "slack π₁ = π₂ of the two-threshold rule"),
        "q1": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₁ on a non-MLE state's per-round rate"),
        "q2": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₂ on an MLE state's per-round rate"),
    }
)
