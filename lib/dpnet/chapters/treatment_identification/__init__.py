"""Chapter 4, ``treatment-identification``: best treatment, first-order baseline, encryption (paper 003,
§5, §14.3, §14.4, Figures 5, 6 and 14.2).

The chapter's parameters (:data:`SCHEMA`) and its experiments, one module per published item and per
experiment of the book's own. Each experiment takes the resolved parameters, computes with the topic
modules (:mod:`dpnet.survival`, :mod:`dpnet.inference`, :mod:`dpnet.runtime`), checks the outcome
against paper 003 with :mod:`dpnet.reference.identification`, and returns a small frozen dataclass that
the chapter records (:meth:`dpnet.results.Results.record`), tabulates and plots:

- :func:`~dpnet.chapters.treatment_identification.p003_fig5.four_arms`: the centres' likelihood table
  over the four ACTG 175 arms;
- :func:`~dpnet.chapters.treatment_identification.ti_arm_sensitivity.arm_sensitivity`: how far one patient
  moves an entry of that table, against the sensitivity it is released with;
- :func:`~dpnet.chapters.treatment_identification.p003_fig5.best_treatment` (Figure 5): one run and
  Monte Carlo rates, with the paper's noise and as published;
- :func:`~dpnet.chapters.treatment_identification.ti_best_arm_probability.best_arm_curve`: the
  probability of naming the best arm against ε;
- :func:`~dpnet.chapters.treatment_identification.p003_fig6.first_order_comparison` (Figure 6):
  distances to the non-private twins, against the first-order baseline;
- :func:`~dpnet.chapters.treatment_identification.p003_fig14_2.runtime_study` (Figure 14.2): the
  private test timed on both cohorts, and against a homomorphic-encryption baseline.

The footprint of a run is 30 s (kernel, data, Cox fits, figures) plus the seconds of every module's
``cost``, and the largest of their peaks (no experiment keeps memory beyond its result).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters._items import footprint
from dpnet.chapters.treatment_identification._common import ALGORITHMS, CONTROL
from dpnet.chapters.treatment_identification.p003_fig5 import (
    BestTreatment,
    FourArms,
    best_treatment,
    four_arms,
)
from dpnet.chapters.treatment_identification.p003_fig6 import FirstOrderComparison, first_order_comparison
from dpnet.chapters.treatment_identification.p003_fig14_2 import RuntimeStudy, runtime_study
from dpnet.chapters.treatment_identification.ti_arm_sensitivity import ArmSensitivity, arm_sensitivity
from dpnet.chapters.treatment_identification.ti_best_arm_probability import BestArmCurve, best_arm_curve
from dpnet.errors import ParameterError
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Param,
    Schema,
    choice,
    eps_grid,
    integer,
    list_of,
    real,
)
from dpnet.reference import identification as ref
from dpnet.reference.clinical import PAPER_PENALIZER

__all__ = [
    "ALGORITHMS",
    "CONTROL",
    "SCHEMA",
    "ArmSensitivity",
    "BestArmCurve",
    "BestTreatment",
    "FirstOrderComparison",
    "FourArms",
    "RuntimeStudy",
    "arm_sensitivity",
    "best_arm_curve",
    "best_treatment",
    "first_order_comparison",
    "four_arms",
    "runtime_study",
]

#: What no experiment accounts for: kernel, data, Cox fits, figures (seconds).
_FIXED_SECONDS = 30.0


def _runtime_rows_fit(values: Mapping[str, Any]) -> None:
    if min(values["runtime_rows"]) < max(values["runtime_n_values"]):
        raise ParameterError(
            f"every runtime_rows value must be at least the largest of runtime_n_values "
            f"{max(values['runtime_n_values'])}, so that no centre is empty (got {values['runtime_rows']})"
        )


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250214),
        "n_centers": Param(
            integer(ge=2, le=20), "centres n of the best-treatment runs (complete graph)",
            default=ref.FIG5_N_CENTRES, paper=AS_DEFAULT,
        ),
        "split": Param(
            choice("round_robin", "random"),
            "how patients are assigned to centres: the authors' row index mod n, or a seeded balanced split",
            default=ref.FIG5_SPLIT, paper=AS_DEFAULT,
        ),
        "eps": Param(
            real(gt=0.0), "privacy budget ε of Figure 5's runs", default=ref.FIG5_EPS, paper=AS_DEFAULT
        ),
        "alpha": Param(
            real(gt=0.0, lt=0.5), "α = 1 − β of Figure 5's runs", default=ref.FIG5_ALPHA, paper=AS_DEFAULT
        ),
        "threshold": Param(
            real(gt=0.0, lt=0.5),
            "belief threshold τ of AM, GM and the frequencies (below 1/2: τ = 1/(1 + e^ϱ) needs ϱ > 0)",
            default=ref.FIG5_THRESHOLD, paper=AS_DEFAULT,
        ),
        "penalizer": Param(
            real(ge=0.0), "ridge penalty of the centres' GLRT fits (lifelines' convention; notebook: 0.1)",
            default=PAPER_PENALIZER, paper=AS_DEFAULT,
        ),
        "b_theta": Param(
            real(gt=0.0),
            "public bound B_θ on |θ|: the four-arm fits are restricted to it, their sensitivity is Δ = 2B_θ; "
            "and §14.4's B_θ",
            default=ref.FIRST_ORDER_B_THETA, paper=AS_DEFAULT,
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per probability and per TVD point", quick=200, full=1000
        ),
        "best_arm_eps": Param(
            eps_grid(allow_zero=False), "ε of the best-arm probability curve",
            default=[0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0],
        ),
        "reliable": Param(
            real(gt=0.0, lt=1.0), "probability of naming the best arm that counts as reliable", default=0.95
        ),
        "published_eps": Param(
            real(gt=0.0), "ε of the as-published Figure 5 (the authors' notebook; the caption says 1)",
            default=ref.FIG5_NOTEBOOK_EPS, paper=AS_DEFAULT,
        ),
        "published_rounds": Param(
            integer(ge=1, le=1000), "K of the as-published Figure 5 (the authors' notebook)",
            default=ref.FIG5_NOTEBOOK_ROUNDS, paper=AS_DEFAULT,
        ),
        "published_iterations": Param(
            integer(ge=1, le=5000), "T of the as-published Figure 5 (the authors' notebook)",
            default=ref.FIG5_NOTEBOOK_ITERATIONS, paper=AS_DEFAULT,
        ),
        "fig6_n_values": Param(
            list_of(integer(ge=2, le=50)), "numbers of centres of Figure 6", default=list(ref.FIG6_N),
            paper=AS_DEFAULT,
        ),
        "fig6_eps": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of Figure 6", default=list(ref.FIG6_EPS),
            paper=AS_DEFAULT,
        ),
        "fig6_alpha": Param(
            real(gt=0.0, lt=0.5), "α = 1 − β of Figure 6's K and T", default=ref.FIG6_ALPHA, paper=AS_DEFAULT
        ),
        "fig6_rho": Param(real(gt=0.0), "ϱ of Figure 6's K and T", default=ref.FIG6_RHO, paper=AS_DEFAULT),
        "period_days": Param(
            real(gt=0.0), "online-learning period, in days (Figure 6's OL curve)",
            default=ref.FIG6_PERIOD_DAYS, paper=AS_DEFAULT,
        ),
        "learning_rate": Param(
            real(gt=0.0, le=1.0), "learning rate η of the first-order baseline",
            default=ref.FIRST_ORDER_LR, paper=AS_DEFAULT,
        ),
        "runtime_cohorts": Param(
            list_of(choice(*ref.RUNTIME_COHORTS)),
            "cohorts of the runtime study, Figure 14.2's panels: (a) cancer (also timed with encryption), "
            "(b) ACTG 175",
            default=list(ref.RUNTIME_COHORTS), paper=AS_DEFAULT,
        ),
        "runtime_n_values": Param(
            list_of(integer(ge=2, le=500)), "numbers of centres of the runtime study",
            default=list(ref.RUNTIME_N), paper=AS_DEFAULT,
        ),
        "runtime_rows": Param(
            list_of(integer(ge=100, le=200_000)), "sizes of the resampled cohorts of the runtime study",
            default=list(ref.RUNTIME_ROWS), paper=AS_DEFAULT,
        ),
        "runtime_repeats": Param(
            integer(ge=1, le=20), "timed repetitions per point (the median is reported)", quick=1, full=3
        ),
    },
    constraints=(_runtime_rows_fit,),
    # the published runs drew from task_generators(seed, 6, [(400, k) ...]) and from sweeps keyed
    # (600, variant, n, ε position) and (700, rows) (the cancer cohort of the runtime study)
    streams={
        "split": (400, 0),
        "p003-fig5/demo": (400, 1),
        "p003-fig5/mc": (400, 2),
        "p003-fig5/as-published-demo": (400, 3),
        "p003-fig5/as-published-mc": (400, 4),
        "best-arm-curve": (400, 5),
        "p003-fig6": (600,),
        "p003-fig14-2": (700,),
    },
    # memory: the largest of the items' peaks, as calibrated (no base, nothing kept)
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
