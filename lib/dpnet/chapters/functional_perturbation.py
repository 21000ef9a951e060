"""Chapter 8, ``functional-perturbation``: private convex optimisation by functional perturbation (004)."""

from __future__ import annotations

from dpnet.params import COMMON, Param, Schema, eps_grid, integer, list_of, real

__all__ = ["SCHEMA"]


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_agents": Param(integer(ge=2, le=200), "agents n (companion choice: 10)"),
        "basis_order": Param(integer(ge=3, le=60), "basis functions K of the 1-D problems (companion: 20)"),
        "degree_2d": Param(integer(ge=4, le=18), "total degree M of the 2-D basis (companion: 10, K = 66)"),
        "q": Param(list_of(real(gt=1.0, le=8.0)), "adjacency exponents q (p = q/2)"),
        "eps_values": Param(eps_grid(allow_zero=False), "privacy levels ε of the trade-off (E3)"),
        "runs": Param(integer(ge=5, le=2000), "noise draws per (q, ε), 1-D", quick=20, full=100),
        "runs_2d": Param(integer(ge=2, le=500), "noise draws per ε, 2-D logistic", quick=5, full=20),
        "impossibility_runs": Param(
            integer(ge=100, le=20_000),
            "runs of the message-perturbation demo (E6c)",
            quick=1000,
            full=4000,
        ),
        "dgd_iterations": Param(integer(ge=100, le=50_000), "iterations of the distributed gradient method"),
        "message_runs": Param(
            integer(ge=5, le=1000),
            "runs per schedule and ε of message perturbation (E6, E7)",
            quick=20,
            full=50,
        ),
        "data_seed": Param(integer(ge=0), "seed of the agents' data, kept apart from the noise"),
    }
)
