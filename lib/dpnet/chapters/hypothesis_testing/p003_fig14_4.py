"""Paper 003, Figure 14.4: AM, GM and the two-threshold rule on the cancer cohort, with raw TMB (the
authors' covariate) and with the top-10 % indicator.

The same runs make Figure 14.5 (:mod:`~dpnet.chapters.hypothesis_testing.p003_fig14_5`): one experiment,
:func:`cancer_estimation`, records both items.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import plotting
from dpnet import survival as sv
from dpnet.chapters.hypothesis_testing._common import LABEL, NOISE, THETA_TMB, code_rounds, titled
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.chapters.hypothesis_testing.p003_fig14_3 import CancerCohort
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check
from dpnet.survival import studies as sv_studies

__all__ = ["CancerEstimation", "cancer_estimation", "cost"]

#: Measured cost on this 2-core machine (one core), see :func:`cost`: one round, one centre, one replication
#: of the cancer cohort's runs (both covariates).
_CANCER_SECONDS = 1.5e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the cancer cohort's runs (:func:`cancer_estimation`).

    With ``R = replications``, ``n = n_centers`` and the authors' rounds ``K = ⌈2 log(2/α)⌉``
    (``|Θ| = 2``, η = α):

    * peak: ``16·K·n·14·R`` bytes: a private MLE study's ``(R, K, n, 2)`` noise and log-ratios and their
      temporaries, as in the ACTG runs (:func:`dpnet.chapters.hypothesis_testing.p003_fig14_1a_b.cost`),
      whose peak, with the oracle's runs, is the larger;
    * seconds: ``1.5·10⁻⁶·K·n·R`` (both covariates' runs).

    Calibrated on this 2-core machine, one core: the cancer-cohort runs took 6.5 s and 0.63 GiB at
    R = 10⁵.
    """
    R, n, K = values["replications"], values["n_centers"], code_rounds(values)
    return Cost(seconds=K * n * R * _CANCER_SECONDS, peak=16.0 * K * n * 14 * R)


@dataclass(frozen=True, eq=False)
class CancerEstimation:
    """Paper 003, Figures 14.4 and 14.5: AM, GM and the two-threshold rule on the cancer cohort, with raw
    TMB (the authors' covariate) and with the top-10 % indicator.

    Attributes
    ----------
    studies
        Per covariate (``"raw"``, ``"top10"``), the :class:`~dpnet.survival.studies.MLEStudy`.
    delta, mle, gap
        Per covariate: the sensitivity ``Δ = 2 |log 0.15| max|x|``, the maximum-likelihood states (a mask
        over ``{0, log 0.15}``) and the centres' summed ``Λ(log 0.15) − Λ(0)``.
    to_claim
        Per covariate, how often each algorithm returns the published ``{log 0.15}``.
    limit
        Per covariate, GM's probability of returning the maximum-likelihood state in the limit of many
        iterations (:func:`~dpnet.survival.studies.gm_limit_probability`, normal approximation).
    main, rho, n_centers, eps, alpha
        The setting.
    """

    studies: Mapping[str, sv.MLEStudy]
    delta: Mapping[str, float]
    mle: Mapping[str, NDArray[np.bool_]]
    gap: Mapping[str, float]
    to_claim: Mapping[str, Mapping[str, float]]
    limit: Mapping[str, float]
    main: str
    rho: float
    n_centers: int
    eps: float
    alpha: float
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...]
    #: The check is of a published claim, made for any parameters.
    paper_setting = True

    @property
    def table(self) -> pd.DataFrame:
        """Per covariate and algorithm: Δ, K, T, noise scale, the MLE, and the recovery rates."""
        return pd.DataFrame([
            {"covariate": cov, "algorithm": k, "Δ": self.delta[cov], "K": st.K, "T": st.T,
             "noise scale b": st.noise_scale, "MLE": " and ".join(np.array(["0", "log 0.15"])[self.mle[cov]]),
             "P[returns the MLE]": st.rates[k], "P[returns {log 0.15}]": self.to_claim[cov][k]}
            for cov, st in self.studies.items() for k in ("GM", "AM", "two-threshold")
        ])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The runs, under their metrics.json names."""
        raw = self.studies["raw"]
        return {
            "tmb_delta_raw": self.delta["raw"], "tmb_delta_top10": self.delta["top10"],
            "tmb_raw_gm_mle": raw.rates["GM"], "tmb_top10_gm_mle": self.studies["top10"].rates["GM"],
            "tmb_noise_raw": raw.noise_scale,
            "tmb_noise_over_gap_raw": raw.noise_scale / abs(self.gap["raw"]),
            "tmb_raw_gm_claim": self.to_claim["raw"]["GM"], "tmb_success": self.table.to_dict("records"),
            "tmb_noise_top10": self.studies["top10"].noise_scale, "tmb_gap_top10": self.gap["top10"],
            "tmb_noise_over_gap_top10": self.studies["top10"].noise_scale / abs(self.gap["top10"]),
            "tmb_top10_gm_limit": self.limit["top10"],
            "tmb_top10_noise_sd": 2.0 * self.studies["top10"].noise_scale
            * math.sqrt(self.n_centers / self.studies["top10"].K),
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig14-4": self.table}

    def figure(self) -> Figure:
        """Figure 14.4: final beliefs per centre without privacy, with GM and with AM (rows: covariates)."""
        states, tau = ["θ = 0", "θ = log 0.15"], inf.belief_threshold(self.rho)
        fig, axes = plotting.panel_grid(2, 3, height=2.8, row_titles=[f"{cov} TMB" for cov in self.studies])
        for row, st in enumerate(self.studies.values()):
            plotting.belief_bars(axes[row, 0], st.nonprivate[-1], states, title="no DP")
            plotting.belief_bars(axes[row, 1], st.gm[-1], states, title="GM", threshold=tau)
            plotting.belief_bars(axes[row, 2], st.am[-1], states, title="AM", threshold=tau)
        titled(fig, axes[0, 0], self, LABEL[self.main])
        return fig


def cancer_estimation(P: Parameters, data: Cohorts, cancer: CancerCohort) -> CancerEstimation:
    """Private MLE runs on the cancer cohort with raw TMB and the top-10 % indicator (stream ``cancer``:
    for each covariate, the drawn run, then the replications)."""
    rng, claimed = P.rng("cancer"), np.array([False, True])  # the published estimate {log 0.15}
    states = np.array([0.0, THETA_TMB])
    studies, delta, mle, gap, to_claim, limit = {}, {}, {}, {}, {}, {}
    for cov in ("raw", "top10"):
        c = cancer.cohorts[cov]
        table = sv.centre_loglik(c.x, c.time, c.event, data.tmb_centres, states, variant=P.likelihood)
        mle[cov] = inf.mle_mask(table)
        # B_x = max |x|, as in the authors' code
        delta[cov] = sv.cox_sensitivity(abs(THETA_TMB), float(np.abs(c.x).max()))
        schedule = sv.code_schedule(table, a_star=data.a_star, delta=delta[cov], eps=P.eps, alpha=P.alpha,
                                    rho=P.rho_cancer, convention=NOISE[P.likelihood])  # fmt: skip
        studies[cov] = sv.mle_study(
            table, data.A, schedule, rho=P.rho_cancer, target=mle[cov], freq=clinical.FIG145_FREQ,
            n_reps=P.replications, rng_demo=rng, rng_mc=rng,
        )  # fmt: skip
        to_claim[cov] = inf.recovery_rates(
            studies[cov].run, claimed, rho=P.rho_cancer, freq=clinical.FIG145_FREQ
        )
        gap[cov] = float(np.diff(table.sum(axis=0))[0])
        limit[cov] = sv_studies.gm_limit_probability(
            abs(gap[cov]), studies[cov].noise_scale, n_agents=P.n_centers, K=studies[cov].K
        )
    check = clinical.tmb_mle_check(cancer.gap["raw"])
    items = ("p003-fig14-4", "p003-fig14-5")
    checks = {
        "p003-fig14-4": [check, clinical.tmb_chance_check(studies["top10"].rates["GM"], P.replications)],
        "p003-fig14-5": [check],
    }
    return CancerEstimation(
        studies, delta, mle, gap, to_claim, limit, P.likelihood, P.rho_cancer, P.n_centers, P.eps, P.alpha,
        checks, tuple((item, *clinical.TMB_DEVIATION) for item in items),
    )  # fmt: skip
