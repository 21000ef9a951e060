"""Survival data, the Cox model and private distributed hypothesis tests (paper 003 §2.1, §4.2, §12).

- :mod:`~dpnet.survival.data` — the ACTG 175 and Samstein et al. (2019) cohorts through the registry,
  two-arm and TMB cohorts with a single covariate ``x``, Fig 14.3's TMB groups;
- :mod:`~dpnet.survival.cox` — the partial log-likelihood (paper and as-published) and its gap between
  two states, score and information, penalised fits, §12's sensitivity;
- :mod:`~dpnet.survival.binary` — the likelihood of a binary covariate as risk-set counts (fast in θ,
  and what centres can pool);
- :mod:`~dpnet.survival.centres` — splits across centres, per-centre likelihood tables and fits;
- :mod:`~dpnet.survival.fits` — Kaplan–Meier curves, Cox fits with confidence intervals and the
  log-rank test, by lifelines;
- :mod:`~dpnet.survival.private_tests` — the simple and composite private tests of §4.2;
- :mod:`~dpnet.survival.streams` — a cohort as a stream of per-period likelihoods (online learning);
- :mod:`~dpnet.survival.treatments` — best-treatment identification over the ACTG arms;
- :mod:`~dpnet.survival.comparison` — the total-variation comparison of Fig 6 with the first-order baseline;
- :mod:`~dpnet.survival.studies` — one private maximum-likelihood study (schedule, a drawn run, rates).

Every public name is re-exported here.
"""

from __future__ import annotations

from dpnet.survival.binary import (
    COUNT_COLUMNS,
    BinaryCox,
    binary_cox,
    counts_likelihood,
    risk_set_counts,
)
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
    legacy_order,
    loglik_gap,
)
from dpnet.survival.data import (
    ACTG175_ARMS,
    TMB_COVARIATES,
    TMB_GROUPS,
    TMB_TIE_RULES,
    TmbTies,
    arm_cohort,
    load_actg175,
    load_samstein2019,
    tied_at_cutoff,
    tmb_cohort,
    tmb_groups,
    top_fraction,
)
from dpnet.survival.fits import LifelinesCox, cox_lifelines, kaplan_meier, logrank_pvalue
from dpnet.survival.private_tests import (
    PrivateTest,
    composite_table,
    composite_test,
    make_private_test,
    observed_statistic,
    prop46_schedule,
    simple_alternative,
    simple_test,
)
from dpnet.survival.streams import period_loglik, periods
from dpnet.survival.studies import (
    MLEStudy,
    RunSchedule,
    code_schedule,
    mle_study,
    reseeded_noise,
)

__all__ = [
    "ACTG175_ARMS",
    "COUNT_COLUMNS",
    "LEGACY_LOG_OFFSET",
    "TMB_COVARIATES",
    "TMB_GROUPS",
    "TMB_TIE_RULES",
    "BinaryCox",
    "CoxFit",
    "LifelinesCox",
    "MLEStudy",
    "PrivateTest",
    "RunSchedule",
    "TmbTies",
    "arm_cohort",
    "binary_cox",
    "centre_fits",
    "centre_information",
    "centre_loglik",
    "code_schedule",
    "cohort_centres",
    "composite_table",
    "composite_test",
    "counts_likelihood",
    "cox_lifelines",
    "cox_partial_loglik",
    "cox_score_information",
    "cox_sensitivity",
    "fit_cox",
    "kaplan_meier",
    "legacy_order",
    "load_actg175",
    "load_samstein2019",
    "loglik_gap",
    "logrank_pvalue",
    "make_private_test",
    "mle_study",
    "observed_statistic",
    "period_loglik",
    "periods",
    "prop46_schedule",
    "reseeded_noise",
    "risk_set_counts",
    "simple_alternative",
    "simple_test",
    "split_centres",
    "tied_at_cutoff",
    "tmb_cohort",
    "tmb_groups",
    "top_fraction",
]
