"""Chapter 5, ``online-learning``: private online learning from intermittent streams (paper 003 §4.3)."""

from __future__ import annotations

from typing import Any

from dpnet.errors import ParameterError
from dpnet.params import COMMON, Param, Schema, choice, eps_grid, integer, list_of, real

__all__ = ["SCHEMA"]


def _aperiodic_graphs(values: dict[str, Any]) -> None:
    graphs = [values["graph"], *values["graphs"]]
    if "cycle" in graphs and values["n_agents"] % 2 == 0:
        raise ParameterError(
            f"a cycle of even length n_agents = {values['n_agents']} is periodic under Metropolis–Hastings "
            "weights (b* = 1, Theorem 4.7 gives no horizon): use an odd n_agents or another graph"
        )
    if values["n_agents"] < values["n_states"] - 1:
        raise ParameterError(
            f"n_agents must be at least n_states − 1 = {values['n_states'] - 1}, so that every wrong state "
            f"is told apart by some agent (got n_agents = {values['n_agents']})"
        )


_OL_GRAPHS = ("complete", "star", "path", "cycle")


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_agents": Param(integer(ge=2, le=100), "agents n of the synthetic streams"),
        "n_states": Param(integer(ge=2, le=10), "states |Θ| of the synthetic streams (θ° is the first)"),
        "signal_shift": Param(
            real(gt=0.0, lt=0.5), "Bernoulli signals: p = 0.5 + shift at an agent's own state, else 0.5"
        ),
        "gaussian_shift": Param(real(gt=0.0, le=10.0), "Gaussian signals: mean shift, in units of σ"),
        "graph": Param(choice(*_OL_GRAPHS), "graph of the privacy sweep"),
        "graphs": Param(list_of(choice(*_OL_GRAPHS)), "graphs of the mixing comparison"),
        "arrival_rate": Param(real(gt=0.0, le=1.0), "chance ξ that an agent gets a signal in a period"),
        "arrival_rates": Param(list_of(real(gt=0.0, le=1.0)), "arrival chances ξ of the comparison"),
        "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the synthetic sweep"),
        "eps_compare": Param(real(gt=0.0), "ε of the mixing and arrival-rate comparisons"),
        "eta": Param(real(gt=0.0, lt=0.5), "error probability η of Theorem 4.7's horizon"),
        "horizon": Param(
            integer(ge=10, le=200_000), "periods T of the synthetic sweeps", quick=2000, full=12000
        ),
        "limit_horizon": Param(
            integer(ge=100, le=200_000), "periods of the convergence check", quick=5000, full=20000
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per curve and cohort", quick=100, full=200
        ),
        "n_centers": Param(integer(ge=2, le=50), "centres n of the clinical streams (complete graph)"),
        "eps": Param(real(gt=0.0), "privacy budget ε of the clinical streams (paper: 1)"),
        "period_days": Param(real(gt=0.0), "period of the ACTG 175 stream, in days (paper: 10)"),
        "period_months": Param(real(gt=0.0), "period of the cancer-cohort stream, in months (paper: 1)"),
    },
    constraints=(_aperiodic_graphs,),
)
