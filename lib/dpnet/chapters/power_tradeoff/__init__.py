"""Chapter 1, ``power-tradeoff``: the privacy–power dilemma (paper 003, §2, Figures 1 and 2).

The chapter's parameters (:data:`SCHEMA`) and its experiments, one module each. Each experiment takes
the resolved parameters, computes with :mod:`dpnet.power`, checks the outcome against paper 003 with
:mod:`dpnet.reference.dilemma`, and returns a small frozen dataclass that the chapter records
(:meth:`dpnet.results.Results.record`), tabulates and plots:

* :mod:`~dpnet.chapters.power_tradeoff.p003_fig1`: Figure 1, randomized response (exact);
* :mod:`~dpnet.chapters.power_tradeoff.p003_fig2`: Figure 2, the Laplace mechanism (Monte Carlo);
* :mod:`~dpnet.chapters.power_tradeoff.p003_sec2_boundary`: §2's claim that the group test need not
  randomise on its boundary, and ε*_RR with a test that does;
* :mod:`~dpnet.chapters.power_tradeoff.rr_critical_budget_vs_n`: the book's ε*_RR curve over n;
* :mod:`~dpnet.chapters.power_tradeoff.mechanism_comparison`: the book's comparison of the two
  mechanisms and of the two Laplace noise models.

The footprint adds up the modules' ``cost`` terms (``dpnet.chapters._items.footprint``), plus 20 s
for the kernel, the imports and the figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters._items import footprint
from dpnet.chapters.power_tradeoff.mechanism_comparison import Comparison, compare
from dpnet.chapters.power_tradeoff.p003_fig1 import RandomizedResponse, randomized_response
from dpnet.chapters.power_tradeoff.p003_fig2 import Laplace, laplace
from dpnet.chapters.power_tradeoff.p003_sec2_boundary import Boundary, boundary
from dpnet.chapters.power_tradeoff.rr_critical_budget_vs_n import CriticalBudgetCurve, critical_budget_curve
from dpnet.errors import ParameterError
from dpnet.params import AS_DEFAULT, COMMON, Param, Schema, eps_grid, integer, list_of, real
from dpnet.reference import dilemma

__all__ = [
    "SCHEMA",
    "Boundary",
    "Comparison",
    "CriticalBudgetCurve",
    "Laplace",
    "RandomizedResponse",
    "boundary",
    "compare",
    "critical_budget_curve",
    "laplace",
    "randomized_response",
]

#: The p of the power curves over n, when p_values has it (the paper's panels use p = 0.7).
PAPER_P_PANEL = 0.7

#: Measured on this 2-core machine: the kernel, imports and figures, which no experiment accounts for.
_FIXED_SECONDS = 20.0


def _largest_n(values: Mapping[str, Any]) -> int:
    return max(values["n_values"])


def _p_panel(values: Mapping[str, Any]) -> float:
    p_values = values["p_values"]
    return min(p_values, key=lambda p: (abs(p - PAPER_P_PANEL), p))


def _panels_in_grid(values: Mapping[str, Any]) -> None:
    if values["n_panel"] not in values["n_values"]:
        raise ParameterError(
            f"n_panel must be one of n_values {values['n_values']} (got {values['n_panel']})"
        )
    if values["p_panel"] not in values["p_values"]:
        raise ParameterError(
            f"p_panel must be one of p_values {values['p_values']} (got {values['p_panel']})"
        )


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250301),
        "n_values": Param(
            list_of(integer(ge=1)), "numbers of agents n (heat-map rows)", default=list(dilemma.FIG1_N),
            paper=AS_DEFAULT,
        ),
        "p_values": Param(
            list_of(real(gt=0.5, lt=1.0)), "signal accuracies p (heat-map columns)",
            default=list(dilemma.FIG1_P), paper=AS_DEFAULT,
        ),
        "alpha": Param(real(gt=0.0, lt=1.0), "test level α", default=dilemma.FIG1_ALPHA, paper=AS_DEFAULT),
        "eps_grid": Param(
            eps_grid(), "privacy budgets ε of the power curves and of the argmin ε* (numpy.linspace)",
            default=dict(dilemma.FIG1_EPS_GRID), paper=AS_DEFAULT,
        ),
        "mc_samples": Param(
            integer(ge=2), "Monte Carlo draws per hypothesis and ε (Laplace)", default=dilemma.FIG2_SAMPLES,
            paper=AS_DEFAULT,
        ),
        "mc_repeats": Param(
            integer(ge=1), "independent Monte Carlo runs of the Laplace heat map", quick=3, full=10
        ),
        "n_panel": Param(
            integer(ge=1), "n of the power curves over p (middle panels)", derive=_largest_n,
            derive_help="the largest of n_values",
        ),
        "p_panel": Param(
            real(gt=0.5, lt=1.0), "p of the power curves over n (left panels)", derive=_p_panel,
            derive_help="the value of p_values nearest 0.7",
        ),
    },
    constraints=(_panels_in_grid,),
    # the published runs seeded each Laplace cell by (run, n, p in millionths) alone
    streams={"p003-fig2": ()},
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
