"""Chapter 3, ``hypothesis-testing``: private hypothesis tests on clinical trials (paper 003 §2.1, §4.2,
§5, §12, §14.1 and §14.5; Figures 3, 4, 14.1a–b, 14.3–14.5, the §5 tests and Proposition 4.6).

The chapter's parameters (:data:`SCHEMA`) and, re-exported, its experiments. Each experiment lives in
the module of the published item it records (``p003_fig3``, ``p003_sec5_tests``, …): it takes the
resolved parameters (and what earlier experiments computed), computes with :mod:`dpnet.survival` and
:mod:`dpnet.inference`, checks the outcome against paper 003 with :mod:`dpnet.reference.clinical`, and
returns a small frozen dataclass that the chapter records (:meth:`dpnet.results.Results.record`),
tabulates and plots.

Random streams: ``split`` (the random split of the cohorts, drawn for the ACTG cohort first, then for
the cancer cohort), ``tests`` (the §4.2 tests), ``demo`` and ``monte-carlo`` (the drawn run and the
replications of the ACTG estimation), ``cancer`` (the cancer-cohort estimation). Their keys are those
of the published runs, so naming them changed no number. ``hospitals`` (the random splits over which
Figure 3's headline is judged) is the book's own, with the next key.

The footprint adds up the items' ``cost`` terms (``dpnet.chapters._items.footprint``) to what no
item accounts for: 20 s for the kernel, the data, the Cox fits, the likelihood grids and the figures,
and 200 MiB for the p-values' bounded ``(chunk, draws)`` temporaries and the likelihood grids.
"""

from __future__ import annotations

from dpnet import survival as sv
from dpnet.chapters._items import footprint
from dpnet.chapters.hypothesis_testing._common import LABEL, THETA1, THETA_TMB
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts, Figure3, cohorts, figure3
from dpnet.chapters.hypothesis_testing.p003_fig4 import Figure4, figure4
from dpnet.chapters.hypothesis_testing.p003_fig14_1a_b import (
    ORACLE_REPS,
    PI,
    ActgEstimation,
    Likelihoods,
    actg_estimation,
    likelihoods,
)
from dpnet.chapters.hypothesis_testing.p003_fig14_3 import CancerCohort, cancer_cohort
from dpnet.chapters.hypothesis_testing.p003_fig14_4 import CancerEstimation, cancer_estimation
from dpnet.chapters.hypothesis_testing.p003_fig14_5 import two_threshold_figure
from dpnet.chapters.hypothesis_testing.p003_prop4_6 import Sensitivity, sensitivity
from dpnet.chapters.hypothesis_testing.p003_sec5_tests import PrivateTests, private_tests
from dpnet.params import AS_DEFAULT, COMMON, Param, Schema, choice, eps_grid, integer, real
from dpnet.reference import clinical

__all__ = [
    "LABEL",
    "ORACLE_REPS",
    "PI",
    "SCHEMA",
    "THETA1",
    "THETA_TMB",
    "ActgEstimation",
    "CancerCohort",
    "CancerEstimation",
    "Cohorts",
    "Figure3",
    "Figure4",
    "Likelihoods",
    "PrivateTests",
    "Sensitivity",
    "actg_estimation",
    "cancer_cohort",
    "cancer_estimation",
    "cohorts",
    "figure3",
    "figure4",
    "likelihoods",
    "private_tests",
    "sensitivity",
    "two_threshold_figure",
]

#: What no item accounts for: kernel, data, Cox fits, likelihood grids, figures (seconds, one core), and
#: the p-values' bounded (chunk, draws) temporaries and the likelihood grids (bytes).
_FIXED_SECONDS = 20.0
_FIXED_BYTES = 200 * 2**20

#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250214),
        "n_centers": Param(
            integer(ge=2, le=50), "number of centres (hospitals) n, on a complete graph",
            default=clinical.ACTG_RUN["n_centers"], paper=AS_DEFAULT,
        ),
        "split": Param(
            choice("round_robin", "random"),
            "how patients are assigned to centres: the authors' round robin on the CSV row, or random and "
            "balanced", default=clinical.ACTG_RUN["split"], paper=AS_DEFAULT,
        ),
        "eps": Param(real(gt=0.0), "privacy budget ε of the private runs", default=clinical.ACTG_RUN["eps"],
                     paper=AS_DEFAULT),
        "alpha": Param(
            real(gt=0.0, lt=0.5), "level α of the tests; α = 1 − β of the private MLE runs",
            default=clinical.ACTG_RUN["alpha"], paper=AS_DEFAULT,
        ),
        "likelihood": Param(
            choice("paper", "as_published"),
            "likelihood and noise of the headline success rates and the cancer-cohort runs: the paper's "
            "or the authors' code's (Figure 14.1 shows both; the §4.2 tests use the paper's)",
            default="paper", paper=AS_DEFAULT,
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per success rate", quick=200, full=1000
        ),
        "rho": Param(
            real(gt=0.0), "log-belief threshold ϱ_AM = ϱ_GM of the ACTG runs (Figure 14.1)",
            default=clinical.ACTG_RUN["rho"], paper=AS_DEFAULT,
        ),
        "rho_cancer": Param(
            real(gt=0.0), "log-belief threshold ϱ of the cancer-cohort runs (Figure 14.4)",
            default=clinical.FIG144_RHO, paper=AS_DEFAULT,
        ),
        "penalizer": Param(
            real(ge=0.0), "ridge penalty of the composite test's Cox fits (lifelines' convention)",
            default=clinical.PAPER_PENALIZER, paper=AS_DEFAULT,
        ),
        "b_theta": Param(
            real(gt=0.0), "public bound B_θ on |θ| for the composite test's sensitivity", default=1.0
        ),
        "one_hospital_split": Param(
            integer(ge=2, le=100), "split whose centre 1 the 'one hospital' panels show",
            default=clinical.FIG3_ONE_HOSPITAL_SPLIT, paper=AS_DEFAULT,
        ),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of the size and power curves",
            default=[0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0],
        ),
        "tmb_ties": Param(
            choice(*sv.TMB_TIE_RULES),
            "which of the patients tied at a TMB cut-off join the top group: the later sheet row, the "
            "earlier one, or every patient at or above the cut-off", default=clinical.TMB_TIES,
            paper=AS_DEFAULT,
        ),
    },
    # the published runs drew from task_generators(seed, 5, [(300, k) for k in range(5)]), in this order
    streams={
        "split": (300, 0), "demo": (300, 1), "monte-carlo": (300, 2), "tests": (300, 3), "cancer": (300, 4),
        "hospitals": (300, 5),
    },
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=_FIXED_BYTES),
)  # fmt: skip
