"""Chapter 4, ``treatment-identification``: best treatment, first-order baseline, encryption (003)."""

from __future__ import annotations

from typing import Any

from dpnet.errors import ParameterError
from dpnet.params import COMMON, Param, Schema, choice, eps_grid, integer, list_of, real

__all__ = ["SCHEMA"]


def _runtime_rows_fit(values: dict[str, Any]) -> None:
    if min(values["runtime_rows"]) < max(values["runtime_n_values"]):
        raise ParameterError(
            f"every runtime_rows value must be at least the largest of runtime_n_values "
            f"{max(values['runtime_n_values'])}, so that no centre is empty (got {values['runtime_rows']})"
        )


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_centers": Param(integer(ge=2, le=20), "centres n of the best-treatment runs (complete graph)"),
        "split": Param(choice("round_robin", "random"), "how patients are assigned to centres"),
        "eps": Param(real(gt=0.0), "privacy budget ε of Figure 5's runs"),
        "alpha": Param(real(gt=0.0, lt=0.5), "α = 1 − β of Figure 5's runs"),
        "threshold": Param(real(gt=0.0, le=0.5), "belief threshold τ of AM, GM and the frequencies"),
        "penalizer": Param(real(ge=0.0), "ridge penalty of the centres' GLRT fits (lifelines' convention)"),
        "b_theta": Param(real(gt=0.0), "public bound B_θ on |θ|: the GLRTs' sensitivity Δ = 2B_θ"),
        "replications": Param(
            integer(ge=20),
            "Monte Carlo replications per probability and per TVD point",
            quick=200,
            full=1000,
        ),
        "best_arm_eps": Param(eps_grid(allow_zero=False), "ε of the best-arm probability curve"),
        "reliable": Param(real(gt=0.0, lt=1.0), "probability of naming the best arm that counts as reliable"),
        "published_eps": Param(real(gt=0.0), "ε of the as-published Figure 5 (the notebook's 0.1)"),
        "published_rounds": Param(integer(ge=1, le=1000), "K of the as-published Figure 5 (notebook: 10)"),
        "published_iterations": Param(
            integer(ge=1, le=5000), "T of the as-published Figure 5 (notebook: 1000)"
        ),
        "fig6_n_values": Param(list_of(integer(ge=2, le=50)), "numbers of centres of Figure 6"),
        "fig6_eps": Param(eps_grid(allow_zero=False), "privacy budgets ε of Figure 6"),
        "fig6_alpha": Param(real(gt=0.0, lt=0.5), "α = 1 − β of Figure 6's K and T"),
        "fig6_rho": Param(real(gt=0.0), "ϱ of Figure 6's K and T"),
        "period_days": Param(real(gt=0.0), "online-learning period, in days (Figure 6's OL curve)"),
        "learning_rate": Param(real(gt=0.0, le=1.0), "learning rate η of the first-order baseline"),
        "runtime_dataset": Param(choice("cancer", "actg"), "cohort of the runtime study (Figure 14.2)"),
        "runtime_n_values": Param(list_of(integer(ge=2, le=500)), "numbers of centres of the runtime study"),
        "runtime_rows": Param(
            list_of(integer(ge=100, le=200_000)), "sizes of the resampled cohorts of the runtime study"
        ),
        "runtime_repeats": Param(
            integer(ge=1, le=20), "timed repetitions per point (the median is reported)", quick=1, full=3
        ),
    },
    constraints=(_runtime_rows_fit,),
)
