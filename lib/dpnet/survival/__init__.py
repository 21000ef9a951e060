"""Survival data, the Cox model and private distributed hypothesis tests (paper 003 §2.1, §4.2, §12).

- :mod:`~dpnet.survival.data` — the ACTG 175 and Samstein et al. (2019) cohorts through the registry,
  two-arm and TMB cohorts with a single covariate ``x``, Fig 14.3's TMB groups;
- :mod:`~dpnet.survival.cox` — the partial log-likelihood (paper and as-published), score and
  information, penalised fits, §12's sensitivity;
- :mod:`~dpnet.survival.centres` — splits across centres, per-centre likelihood tables and fits;
- :mod:`~dpnet.survival.fits` — Kaplan–Meier curves, Cox fits with confidence intervals and the
  log-rank test, by lifelines;
- :mod:`~dpnet.survival.private_tests` — the simple and composite private tests of §4.2;
- :mod:`~dpnet.survival.studies` — one private maximum-likelihood study (schedule, a drawn run, rates).

Every public name is re-exported here.
"""

from __future__ import annotations

from dpnet.survival.centres import (
    centre_fits,
    centre_information,
    centre_loglik,
    cohort_centres,
    split_centres,
)
from dpnet.survival.cox import (
    LEGACY_LOG_OFFSET,
    CoxFit,
    cox_partial_loglik,
    cox_score_information,
    cox_sensitivity,
    fit_cox,
)
from dpnet.survival.data import (
    ACTG175_ARMS,
    TMB_COVARIATES,
    TMB_GROUPS,
    arm_cohort,
    load_actg175,
    load_samstein2019,
    tmb_cohort,
    tmb_groups,
)
from dpnet.survival.fits import LifelinesCox, cox_lifelines, kaplan_meier, logrank_pvalue
from dpnet.survival.private_tests import (
    PrivateTest,
    TestSchedule,
    composite_table,
    composite_test,
    observed_statistic,
    prop46_schedule,
    simple_alternative,
    simple_test,
)
from dpnet.survival.studies import MLEStudy, private_mle_study

__all__ = [
    "ACTG175_ARMS",
    "LEGACY_LOG_OFFSET",
    "TMB_COVARIATES",
    "TMB_GROUPS",
    "CoxFit",
    "LifelinesCox",
    "MLEStudy",
    "PrivateTest",
    "TestSchedule",
    "arm_cohort",
    "centre_fits",
    "centre_information",
    "centre_loglik",
    "cohort_centres",
    "composite_table",
    "composite_test",
    "cox_lifelines",
    "cox_partial_loglik",
    "cox_score_information",
    "cox_sensitivity",
    "fit_cox",
    "kaplan_meier",
    "load_actg175",
    "load_samstein2019",
    "logrank_pvalue",
    "observed_statistic",
    "private_mle_study",
    "prop46_schedule",
    "simple_alternative",
    "simple_test",
    "split_centres",
    "tmb_cohort",
    "tmb_groups",
]
