"""Chapter 3, ``hypothesis-testing``: private hypothesis tests on clinical trials (paper 003)."""

from __future__ import annotations

from dpnet.params import COMMON, Param, Schema, choice, eps_grid, integer, real

__all__ = ["SCHEMA"]


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_centers": Param(integer(ge=2, le=50), "number of centres (hospitals) n, on a complete graph"),
        "split": Param(choice("round_robin", "random"), "how patients are assigned to centres"),
        "eps": Param(real(gt=0.0), "privacy budget ε of the private runs"),
        "alpha": Param(real(gt=0.0, lt=0.5), "level α of the tests; α = 1 − β of the private MLE runs"),
        "likelihood": Param(
            choice("paper", "as_published"),
            "likelihood and noise of the headline success rates and the cancer-cohort runs: the paper's "
            "or the authors' code's (Fig 14.1 shows both; the §4.2 tests use the paper's)",
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per success rate", quick=200, full=1000
        ),
        "rho": Param(real(gt=0.0), "log-belief threshold ϱ_AM = ϱ_GM of the ACTG runs (Fig 14.1)"),
        "rho_cancer": Param(real(gt=0.0), "log-belief threshold ϱ of the cancer-cohort runs (Fig 14.4)"),
        "penalizer": Param(
            real(ge=0.0), "ridge penalty of the composite test's Cox fits (lifelines' convention)"
        ),
        "b_theta": Param(real(gt=0.0), "public bound B_θ on |θ| for the composite test's sensitivity"),
        "one_hospital_split": Param(
            integer(ge=2, le=100), "split whose centre 1 the 'one hospital' panels show"
        ),
        "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the size and power curves"),
    }
)
