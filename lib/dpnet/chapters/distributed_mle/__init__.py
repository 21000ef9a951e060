"""Chapter 2, ``distributed-mle``: private distributed maximum-likelihood estimation.

Paper 003 §3–4.1 (Theorems 4.1–4.3, Corollary 4.4) and Table 1, with the earlier version, paper 000
(Theorems 3.1 and 3.3) and its Table 2. The package declares the chapter's parameters (:data:`SCHEMA`)
and re-exports its experiments, one module per published item
(:mod:`~dpnet.chapters.distributed_mle.p003_thm4_1`, …, :mod:`~dpnet.chapters.distributed_mle.p003_table1`,
:mod:`~dpnet.chapters.distributed_mle.p000_table2`) and per experiment of the book's own, named for the
figure or table it records (:mod:`~dpnet.chapters.distributed_mle.mle_errors_vs_eps`, …). Each
experiment takes the resolved parameters (and what an earlier experiment built), computes with
:mod:`dpnet.inference` and :mod:`dpnet.networks`, and returns a small frozen dataclass that the chapter
records (:meth:`dpnet.results.Results.record`), tabulates and plots. The theorems' items read the
records of the book's Monte Carlo sweeps on a synthetic instance and check the theorems' bounds in every
case (:mod:`dpnet.reference.complexity`); the only published numbers are those behind Table 1.

Every random draw comes from a named stream of the chapter's seed (``SCHEMA.streams``): the graph
(Erdős–Rényi only), the data, the trajectories' noise, and one stream per Monte Carlo sweep, each task
of a sweep keyed by what it is (the index of its ε or gap, its rule, its K).

The footprint (``dpnet.chapters._items.footprint``) adds up the item modules' ``cost`` terms: the
five Monte Carlo sweeps dominate (their common cost model is described in
``dpnet.chapters.distributed_mle._common``); the rest are closed forms. Its memory is the largest
chunk a sweep holds plus what the win-probability count keeps; its time is the sweeps' plus 20 s
that no item accounts for (kernel, imports, schedules, the scaling tables, figures).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dpnet.chapters._items import footprint
from dpnet.chapters.distributed_mle._common import CODE_RHO, Verdict, verdict_table
from dpnet.chapters.distributed_mle.cor44_feasibility import ExactRecovery, exact_recovery
from dpnet.chapters.distributed_mle.error_rates import Summary, interval, summary
from dpnet.chapters.distributed_mle.ex_mle_floor import RoundsExercise, rounds_exercise
from dpnet.chapters.distributed_mle.exact_ties import Ties, ties
from dpnet.chapters.distributed_mle.kt_lower_bound import LowerBound, lower_bound
from dpnet.chapters.distributed_mle.mle_constants import Constants, constants
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep, eps_sweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep, gap_sweep
from dpnet.chapters.distributed_mle.mle_errors_vs_k import KSweep, k_sweep
from dpnet.chapters.distributed_mle.mle_gm_every_round import EveryRound, every_round
from dpnet.chapters.distributed_mle.mle_rounds import Scaling, scaling
from dpnet.chapters.distributed_mle.mle_trajectories import Trajectories, trajectories
from dpnet.chapters.distributed_mle.mle_win_probability import WinFloor, win_floor
from dpnet.chapters.distributed_mle.p000_table2 import Paper000, paper000
from dpnet.chapters.distributed_mle.p000_thm3_1 import theorem_3_1
from dpnet.chapters.distributed_mle.p000_thm3_3 import theorem_3_3
from dpnet.chapters.distributed_mle.p003_cor4_4 import corollary_4_4
from dpnet.chapters.distributed_mle.p003_table1 import Complexity, complexity_checks
from dpnet.chapters.distributed_mle.p003_thm4_1 import theorem_4_1
from dpnet.chapters.distributed_mle.p003_thm4_2 import theorem_4_2
from dpnet.chapters.distributed_mle.p003_thm4_3 import theorem_4_3
from dpnet.chapters.distributed_mle.rounds_iterations import Schedules, schedules
from dpnet.chapters.distributed_mle.synthetic_instance import CLOSED_FORM_ITERATIONS, Instance, instance
from dpnet.errors import ParameterError
from dpnet.networks import GRAPH_KINDS
from dpnet.params import AS_DEFAULT, COMMON, Param, Schema, choice, eps_grid, integer, list_of, real
from dpnet.reference import complexity

__all__ = [
    "CLOSED_FORM_ITERATIONS",
    "CODE_RHO",
    "SCHEMA",
    "Complexity",
    "Constants",
    "EpsSweep",
    "EveryRound",
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
    "Verdict",
    "WinFloor",
    "complexity_checks",
    "constants",
    "corollary_4_4",
    "eps_sweep",
    "every_round",
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
    "theorem_3_1",
    "theorem_3_3",
    "theorem_4_1",
    "theorem_4_2",
    "theorem_4_3",
    "ties",
    "trajectories",
    "verdict_table",
    "win_floor",
]

#: Seconds no item accounts for: kernel, imports, schedules, the scaling tables, figures (measured on
#: this 2-core machine, one core, with the sweeps' costs of ``_common``).
_FIXED_SECONDS = 20.0


def _connected_graph(values: Mapping[str, Any]) -> None:
    n, p = values["n_agents"], values["edge_prob"]
    if values["graph"] == "erdos_renyi" and p < math.log(n) / n:
        raise ParameterError(
            f"edge_prob must be at least ln(n)/n = {math.log(n) / n:.3g} for an Erdős–Rényi graph on "
            f"n_agents = {n}: below it a connected graph is too rare to draw (got {p:g})"
        )


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
    },  # new streams (gm-every-round) are keyed by their names
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
