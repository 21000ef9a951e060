"""Chapter 3, ``hypothesis-testing``: private hypothesis tests on clinical trials (paper 003 §2.1, §4.2,
§5, §12, §14.1 and §14.5; Figures 3, 4, 14.1a–b, 14.3–14.5 and the §5 tests).

The chapter's parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved
parameters (and what earlier experiments computed), computes with :mod:`dpnet.survival` and
:mod:`dpnet.inference`, checks the outcome against paper 003 with :mod:`dpnet.reference.clinical`, and
returns a small frozen dataclass that the chapter records (:meth:`dpnet.results.Results.record`),
tabulates and plots.

Random streams: ``split`` (the random split of the cohorts, drawn for the ACTG cohort first, then for
the cancer cohort), ``tests`` (the §4.2 tests), ``demo`` and ``monte-carlo`` (the drawn run and the
replications of the ACTG estimation), ``cancer`` (the cancer-cohort estimation). Their keys are those
of the published runs, so naming them changed no number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks, plotting
from dpnet import survival as sv
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Footprint,
    Param,
    Parameters,
    Schema,
    choice,
    eps_grid,
    integer,
    real,
)
from dpnet.reference import clinical, complexity
from dpnet.reference._check import Check

__all__ = [
    "LABEL",
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
    "actg_estimation",
    "cancer_cohort",
    "cancer_estimation",
    "cohorts",
    "figure3",
    "figure4",
    "likelihoods",
    "private_tests",
]

#: The simple alternative of the ACTG runs: hazard ratio 1/2.
THETA1 = -math.log(2.0)
#: The cancer cohort's alternative: hazard ratio 0.15.
THETA_TMB = math.log(0.15)
#: The two likelihoods: the paper's eq. (3), and the authors' notebook's.
VARIANTS = ("paper", "as_published")
LABEL = {"paper": "paper's likelihood", "as_published": "as published (authors' code)"}
#: The noise convention that goes with each likelihood (the notebook's is twice the paper's scale).
NOISE = {"paper": "paper", "as_published": "authors_code"}
#: Replications of the T → ∞ oracle, and draws of the privacy noise N of the §4.2 tests.
ORACLE_REPS = 50_000
NOISE_DRAWS = 20_000
#: Where each pooled likelihood's maximum is sought (step 0.001), and the plotted range of θ.
PEAK_GRID = (-6.0, 2.0, 8001)
PLOT_GRID = (-1.5, 0.5, 201)

#: Measured costs on this 2-core machine (one core), see :func:`_footprint`.
_PVALUE_SECONDS = 3e-3  # the noise-aware p-values of one run of both tests (2 × 20 000 null sf values)
_TEST_RUN_SECONDS = 4.5e-7  # one round of one test run, per n²: T iterations of the n × n gossip
_MLE_SECONDS = 1.34e-6  # one round, one centre, one replication of both likelihoods' ACTG runs
_ORACLE_SECONDS = 1.16e-6  # the same, of the T → ∞ oracle's ORACLE_REPS runs
_CANCER_SECONDS = 1.5e-6  # the same, of the cancer cohort's runs (both covariates)
_EPS_SECONDS = 0.16  # size and power of both tests at one ε of eps_values
_CENTRE_SECONDS = 2.0  # one centre's Cox fits, likelihood curves and forest rows
_FIXED_SECONDS = 20.0  # kernel, data, Cox fits, likelihood grids, figures
_FIXED_BYTES = 200 * 2**20  # the p-values' bounded (chunk, draws) temporaries and the likelihood grids


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    With ``R = replications``, ``n = n_centers``, ``E = len(eps_values)`` and the authors' rounds
    ``K = ⌈2 log(2/α)⌉`` (``|Θ| = 2``, η = α):

    * memory: ``16·K·n·(14·R + 4·ORACLE_REPS) + 48·NOISE_DRAWS·K·n + 200 MiB`` bytes: a private MLE
      study holds its ``(R, K, n, 2)`` noise and log-ratios and their temporaries (about 12 such
      float64 arrays, both likelihoods' runs kept), the oracle its ``ORACLE_REPS`` runs; the tests'
      noise draws; the p-values' fixed temporaries;
    * seconds: ``20 + 0.16·E + 2·n + R·(3·10⁻³ + 4.5·10⁻⁷·K·n²) + 1.34·10⁻⁶·K·n·R
      + 1.16·10⁻⁶·K·n·ORACLE_REPS + 1.5·10⁻⁶·K·n·R`` (p-values and private test runs, ACTG runs,
      oracle, cancer-cohort runs; ``2·n``, each centre's Cox fits and curves).

    Calibrated on this 2-core machine, one core: the ACTG estimation took 1.9 s at the quick
    defaults, 9.5 s and 0.63 GiB at R = 10⁵, 10.7 s and 0.78 GiB at n = 20, R = 2·10⁴, 26.9 s and
    1.67 GiB at n = 50, R = 5000; the cancer-cohort runs 6.5 s and 0.63 GiB at R = 10⁵; the private
    tests 1.6 s at the defaults, 16.4 s at R = 5000, 13.1 s at n = 50, R = 1000, 16.8 s at E = 100,
    R = 20, all with a 0.19 GiB peak. The whole chapter at R = 20 took 65 s at n = 2 and 212 s at
    n = 50 under load from other runs (the per-centre term).
    """
    R, n, E = values["replications"], values["n_centers"], len(values["eps_values"])
    K = math.ceil(2 * math.log(2 / values["alpha"]))
    memory = 16.0 * K * n * (14 * R + 4 * ORACLE_REPS) + 48.0 * NOISE_DRAWS * K * n + _FIXED_BYTES
    seconds = (
        _FIXED_SECONDS
        + _EPS_SECONDS * E
        + _CENTRE_SECONDS * n
        + R * (_PVALUE_SECONDS + _TEST_RUN_SECONDS * K * n**2)
        + K * n * (R * (_MLE_SECONDS + _CANCER_SECONDS) + ORACLE_REPS * _ORACLE_SECONDS)
    )
    return Footprint(memory=memory, seconds=seconds)


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
        "split": (300, 0), "demo": (300, 1), "monte-carlo": (300, 2), "tests": (300, 3), "cancer": (300, 4)
    },
    footprint=_footprint,
)  # fmt: skip


def _actg_setting(P: Parameters) -> bool:
    """The run uses the setting of the published ACTG runs (Figure 14.1a–b)."""
    return P.is_paper("n_centers", "split", "eps", "alpha", "rho")


def _fit_row(model: sv.LifelinesCox, /, **labels: Any) -> dict[str, Any]:
    return {**labels, "coef": model.coef, "ci_low": model.ci_low, "ci_high": model.ci_high, "p": model.p}


def _forest(fit: sv.LifelinesCox, label: str, color: str = "C0") -> dict[str, Any]:
    return {"label": label, "color": color, **vars(fit)}


def _setting(fig: Figure, ax: Axes, run: ActgEstimation | CancerEstimation, *extra: str) -> None:
    """Title a private run's figure with its setting, and put the centres' legend (from ``ax``) below."""
    title = f"n = {run.n_centers} centres, ε = {run.eps:g}, α = 1 − β = {run.alpha:g}, ϱ = {run.rho:g}"
    fig.suptitle(", ".join((title, *extra)))
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=min(run.n_centers, 5))


# ----------------------------------------------------------------------------------------------------------
# The cohorts


@dataclass(frozen=True, eq=False)
class Cohorts:
    """The two cohorts, their split across the centres, and the centres' network.

    Attributes
    ----------
    actg
        ACTG 175, all four arms (:func:`~dpnet.survival.data.load_actg175`).
    ddi
        ddI (``x = 1``) against ZDV (``x = 0``), with the CSV's row index.
    ddi_centres
        Centre label of each ddI/ZDV patient under the chapter's split.
    tmb
        The Samstein et al. cohort (:func:`~dpnet.survival.data.load_samstein2019`).
    tmb_centres
        Centre label of each cancer patient under the chapter's split.
    A, a_star
        Metropolis–Hastings weights of the complete graph on the centres, and ``a* = SLEM((A+I)/2)``.
    checks
        The data facts of ACTG 175 against the paper's, keyed by item.
    """

    actg: pd.DataFrame
    ddi: pd.DataFrame
    ddi_centres: NDArray[np.int64]
    tmb: pd.DataFrame
    tmb_centres: NDArray[np.int64]
    A: NDArray[np.float64]
    a_star: float
    checks: Mapping[str, list[Check]]

    @property
    def arms(self) -> pd.DataFrame:
        """Patients, events and event rate per ACTG arm."""
        return _arms(self.actg)

    def metrics(self) -> dict[str, Any]:
        """The arm sizes and events, under their metrics.json names."""
        return _arm_counts(self.arms)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"ht-actg-arms": self.arms}


def _arms(actg: pd.DataFrame) -> pd.DataFrame:
    arms = (
        actg.groupby("arm_name", observed=False)
        .agg(patients=("time", "size"), events=("event", "sum"))
        .reset_index()
        .rename(columns={"arm_name": "arm"})
    )
    arms["event rate"] = arms["events"] / arms["patients"]
    return arms


def _arm_counts(arms: pd.DataFrame) -> dict[str, dict[str, int]]:
    names = arms["arm"].astype(str)
    return {
        "actg_arm_sizes": dict(zip(names, arms["patients"].astype(int), strict=True)),
        "actg_arm_events": dict(zip(names, arms["events"].astype(int), strict=True)),
    }


def cohorts(P: Parameters) -> Cohorts:
    """Load both cohorts and split them across ``n_centers`` centres (stream ``split``, ACTG first)."""
    actg = sv.load_actg175()
    ddi = sv.arm_cohort(actg, "ddI")
    tmb = sv.load_samstein2019()
    rng = P.rng("split")  # drawn from only when the split is random
    ddi_centres = sv.cohort_centres(ddi.index.to_numpy(), P.n_centers, method=P.split, rng=rng)
    tmb_centres = sv.cohort_centres(tmb.index.to_numpy(), P.n_centers, method=P.split, rng=rng)
    A = networks.dense_weights("complete", P.n_centers)
    counts = _arm_counts(_arms(actg))
    checks = clinical.actg_data_checks(counts["actg_arm_sizes"], counts["actg_arm_events"])
    a_star = networks.spectral_constants(A).a_star
    return Cohorts(actg, ddi, ddi_centres, tmb, tmb_centres, A, a_star, {"p003-fig3": checks})


# ----------------------------------------------------------------------------------------------------------
# Figures 3 and 4: Kaplan–Meier curves and hazard ratios


@dataclass(frozen=True, eq=False)
class Figure3:
    """Paper 003, Figure 3: ddI against ZDV, pooled and in one hospital.

    Attributes
    ----------
    ddi
        The ddI/ZDV cohort.
    one_hospital, own_centre
        Masks of centre 1 of the "one hospital" split and of centre 1 of the chapter's own split.
    split, n_centers
        The two splits' sizes.
    pooled, one, own
        Unpenalised lifelines fits of the pooled cohort and of the two centres.
    logrank_p
        The pooled log-rank p-value.
    """

    ddi: pd.DataFrame
    one_hospital: NDArray[np.bool_]
    own_centre: NDArray[np.bool_]
    split: int
    n_centers: int
    pooled: sv.LifelinesCox
    one: sv.LifelinesCox
    own: sv.LifelinesCox
    logrank_p: float
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...]

    @property
    def one_size(self) -> int:
        """Patients of the published panel's "one hospital"."""
        return int(self.one_hospital.sum())

    def metrics(self) -> dict[str, Any]:
        """The fits, under their metrics.json names."""
        return {
            "fig3_coef": self.pooled.coef, "fig3_p": self.pooled.p, "fig3_one_p": self.one.p,
            "fig3_one_size": self.one_size, "fig3_one_n_p": self.own.p, "fig3_logrank_p": self.logrank_p,
        }  # fmt: skip

    def figure(self) -> Figure:
        """Kaplan–Meier curves pooled and in one hospital, and the three log hazard ratios."""
        d, one = self.ddi, self.one_hospital
        arms = d["arm_name"].cat.remove_unused_categories()
        fig, (top, bottom) = plotting.panel_rows([2, 1], heights=[3.0, 1.8])
        axes = [*top, *bottom]
        plotting.km_curves(axes[0], sv.kaplan_meier(d.time, d.event, arms), title="pooled", xlabel="days")
        plotting.km_curves(axes[1], sv.kaplan_meier(d.time[one], d.event[one], arms[one]),
                           title=f"one hospital (centre 1 of {self.split})", xlabel="days")  # fmt: skip
        plotting.forest_plot(axes[2], [
            _forest(self.pooled, "pooled"), _forest(self.one, f"centre 1 of {self.split}", "C1"),
            _forest(self.own, f"centre 1 of {self.n_centers}", "C2"),
        ])  # fmt: skip
        axes[2].set_title("log hazard ratio, ddI vs ZDV")
        return fig


def figure3(P: Parameters, data: Cohorts) -> Figure3:
    """Cox fits of ddI against ZDV: pooled, in centre 1 of ``one_hospital_split`` and of the own split."""
    d = data.ddi
    one = sv.cohort_centres(d.index.to_numpy(), P.one_hospital_split) == 1
    own = data.ddi_centres == 1
    pooled = sv.cox_lifelines(d.time, d.event, d.x)
    fit_one = sv.cox_lifelines(d.time[one], d.event[one], d.x[one])
    fit_own = sv.cox_lifelines(d.time[own], d.event[own], d.x[own])
    checks = clinical.figure3_checks(
        vars(pooled), fit_one.p, alpha=P.alpha, published=P.is_paper("one_hospital_split")
    )
    return Figure3(
        d, one, own, P.one_hospital_split, P.n_centers, pooled, fit_one, fit_own,
        sv.logrank_pvalue(d.time, d.event, d.x), {"p003-fig3": checks},
        (("p003-fig3", *clinical.FIG3_DEVIATION),),
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class Figure4:
    """Paper 003, Figure 4: the four ACTG arms, pooled and in one hospital.

    Attributes
    ----------
    actg, one_hospital, split
        The trial, the mask of centre 1 of the "one hospital" split, and its size.
    fits
        Per treatment arm, three lifelines fits: ``"pooled, vs ZDV"``, ``"centre 1 of <split>, vs ZDV"``
        and ``"pooled, vs all others (as published)"``.
    """

    actg: pd.DataFrame
    one_hospital: NDArray[np.bool_]
    split: int
    fits: Mapping[str, Mapping[str, sv.LifelinesCox]]
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...]

    @property
    def pairwise(self) -> dict[str, sv.LifelinesCox]:
        """Each treatment against ZDV, pooled."""
        return {arm: fits["pooled, vs ZDV"] for arm, fits in self.fits.items()}

    @property
    def table(self) -> pd.DataFrame:
        """One row per treatment and fit: log hazard ratio, 95 % interval, Wald p."""
        return pd.DataFrame(
            [
                _fit_row(fit, arm=arm, fit=what)
                for arm, fits in self.fits.items()
                for what, fit in fits.items()
            ]
        )

    def metrics(self) -> dict[str, Any]:
        """The pairwise fits, under their metrics.json name."""
        return {"actg_loghr": {arm: {"coef": f.coef, "p": f.p} for arm, f in self.pairwise.items()}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig4": self.table}

    def figure(self) -> Figure:
        """Kaplan–Meier curves of the four arms pooled and in one hospital, and every log hazard ratio."""
        a, one = self.actg, self.one_hospital
        fig, (top, bottom) = plotting.panel_rows([2, 1], heights=[3.0, 3.2])
        axes = [*top, *bottom]
        plotting.km_curves(
            axes[0], sv.kaplan_meier(a.time, a.event, a.arm_name), title="pooled", xlabel="days"
        )
        plotting.km_curves(axes[1], sv.kaplan_meier(a.time[one], a.event[one], a.arm_name[one]),
                           title=f"one hospital (centre 1 of {self.split})", xlabel="days")  # fmt: skip
        rows = [_forest(fit, f"{arm}: {what}", f"C{j}")
                for arm, fits in self.fits.items() for j, (what, fit) in enumerate(fits.items())]  # fmt: skip
        plotting.forest_plot(axes[2], rows)
        axes[2].set_title("log hazard ratios")
        return fig


def figure4(P: Parameters, data: Cohorts) -> Figure4:
    """Cox fits of each treatment: against ZDV pooled and in one hospital, and against all other arms."""
    a, H = data.actg, P.one_hospital_split
    fits = {}
    for arm in (arm for arm in sv.ACTG175_ARMS if arm != "ZDV"):
        c = sv.arm_cohort(a, arm)
        hosp = sv.cohort_centres(c.index.to_numpy(), H) == 1
        vs_rest = (a.arm_name == arm).astype(int)
        fits[arm] = {
            "pooled, vs ZDV": sv.cox_lifelines(c.time, c.event, c.x),
            f"centre 1 of {H}, vs ZDV": sv.cox_lifelines(c.time[hosp], c.event[hosp], c.x[hosp]),
            "pooled, vs all others (as published)": sv.cox_lifelines(a.time, a.event, vs_rest),
        }
    checks = clinical.figure4_checks({arm: f["pooled, vs ZDV"].coef for arm, f in fits.items()})
    one = sv.cohort_centres(a.index.to_numpy(), H) == 1
    return Figure4(a, one, H, fits, {"p003-fig4": checks}, (("p003-fig4", *clinical.FIG4_DEVIATION),))


# ----------------------------------------------------------------------------------------------------------
# The likelihood, as written and as published


@dataclass(frozen=True, eq=False)
class Likelihoods:
    """The Cox log-likelihoods of ddI against ZDV on Θ = {0, −log 2}, as the paper writes them and as the
    authors' notebook computed them.

    Attributes
    ----------
    per_centre
        Per variant, each centre's ``(Λ_i(0), Λ_i(−log 2))``, shape ``(n, 2)``.
    pooled_gap
        Per variant, the pooled ``Λ(−log 2) − Λ(0)``.
    peak
        Per variant, where the pooled likelihood peaks (on a grid of step 0.001).
    theta, curves
        The plotted θ grid and, per variant, ``Λ(θ) − Λ(0)`` on it.
    """

    per_centre: Mapping[str, NDArray[np.float64]]
    pooled_gap: Mapping[str, float]
    peak: Mapping[str, float]
    theta: NDArray[np.float64]
    curves: Mapping[str, NDArray[np.float64]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: tuple[tuple[str, str, str], ...]

    @property
    def centre_gap(self) -> dict[str, NDArray[np.float64]]:
        """Per variant, each centre's ``Λ_i(−log 2) − Λ_i(0)``."""
        return {v: t[:, 1] - t[:, 0] for v, t in self.per_centre.items()}

    @property
    def table(self) -> pd.DataFrame:
        """The gap per centre, summed over the centres, and pooled, under both likelihoods."""
        gaps = self.centre_gap
        n = len(gaps["paper"])
        frame = pd.DataFrame({"centre": [f"{i + 1}" for i in range(n)] + ["sum", "pooled"]})
        for v in VARIANTS:
            frame[LABEL[v]] = [*gaps[v], gaps[v].sum(), self.pooled_gap[v]]
        return frame

    def metrics(self) -> dict[str, Any]:
        """The gaps and the peaks, under their metrics.json names."""
        gaps = self.centre_gap
        return {
            "lambda_gap_paper": self.pooled_gap["paper"],
            "lambda_gap_as_published": self.pooled_gap["as_published"],
            "lambda_gap_ratio": self.pooled_gap["as_published"] / self.pooled_gap["paper"],
            "lambda_gap_by_center": {
                f"centre {i + 1}": {v: float(gaps[v][i]) for v in VARIANTS} for i in range(len(gaps["paper"]))
            },
            "lambda_gap_sum_paper": float(gaps["paper"].sum()),
            "lambda_gap_sum_as_published": float(gaps["as_published"].sum()),
            "loglik_argmax": dict(self.peak),
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"ht-lambda-gaps": self.table}

    def figure(self) -> Figure:
        """``Λ(θ) − Λ(0)`` under both likelihoods, with the alternative ``−log 2`` dotted."""
        fig, axes = plotting.panel_row(2, height=3.0)
        for ax, v in zip(axes, VARIANTS, strict=True):
            ax.plot(self.theta, self.curves[v], color="C0")
            ax.axvline(THETA1, color="0.3", ls=":")
            ax.axhline(0, color="0.6", lw=0.8)
            ax.set(title=LABEL[v], xlabel="log hazard ratio θ", ylabel="Λ(θ) − Λ(0)")
        return fig


def likelihoods(P: Parameters, data: Cohorts) -> Likelihoods:
    """Both likelihoods per centre and pooled, their peaks, and the as-published gap over tie orders."""
    d, centres, states = data.ddi, data.ddi_centres, np.array([0.0, THETA1])
    tables = {v: sv.centre_loglik(d.x, d.time, d.event, centres, states, variant=v) for v in VARIANTS}
    pooled = {v: sv.loglik_gap(d.x, d.time, d.event, THETA1, variant=v) for v in VARIANTS}
    wide, theta = np.linspace(*PEAK_GRID), np.linspace(*PLOT_GRID)
    peak = {
        v: float(wide[np.argmax(sv.cox_partial_loglik(d.x, d.time, d.event, wide, variant=v))])
        for v in VARIANTS
    }
    curves = {
        v: sv.cox_partial_loglik(d.x, d.time, d.event, theta, variant=v)
        - sv.cox_partial_loglik(d.x, d.time, d.event, 0.0, variant=v) for v in VARIANTS
    }  # fmt: skip
    published = P.is_paper("n_centers", "split")  # the reference gaps are pooled and over the 5-way split
    checks = []
    if published:
        summed = {f"{v}_5": float((t[:, 1] - t[:, 0]).sum()) for v, t in tables.items()}
        checks = clinical.lambda_gap_checks({**pooled, **summed}, _tie_ranges(d, centres, states))
    deviation = ("p003-fig14-1a-b", *clinical.FIG141_DEVIATIONS[0])
    return Likelihoods(
        tables, pooled, peak, theta, curves, {"p003-fig14-1a-b": checks}, published, (deviation,)
    )


def _tie_ranges(d: pd.DataFrame, centres: NDArray[np.int64], states: NDArray[np.float64]) -> dict[str, tuple]:
    """The as-published gap, pooled and summed over the centres, with tied times ordered larger covariate
    first and smaller first: the extremes over every order of ties."""
    orders = ("x_desc", "x_asc")
    pooled = [sv.loglik_gap(d.x, d.time, d.event, THETA1, variant="as_published", ties=t) for t in orders]
    summed = [
        sv.centre_loglik(d.x, d.time, d.event, centres, states, variant="as_published", ties=t).sum(axis=0)
        for t in orders
    ]
    return {
        "as_published": tuple(pooled),
        "as_published_5": tuple(float(np.diff(s)[0]) for s in summed),
    }


# ----------------------------------------------------------------------------------------------------------
# The private tests of §4.2


@dataclass(frozen=True, eq=False)
class PrivateTests:
    """Paper 003 §4.2 and the §5 tests on ACTG ddI against ZDV.

    Attributes
    ----------
    central, central_ours
        The pooled penalised Cox fit by lifelines (Efron ties) and by :func:`~dpnet.survival.cox.fit_cox`
        (Breslow), with their likelihood-ratio statistics.
    central_threshold
        The centralised GLRT threshold ``F⁻¹_{χ²_1}(1 − α)``.
    rows
        Per test (``"simple"``, ``"composite"``): schedule, non-private statistic, the paper's threshold,
        how the private runs came out and the operating characteristics.
    curves
        Size and power of both tests over the ε of ``eps_values``.
    nonprivate_power
        The power of the non-private simple test at level α.
    alpha
        The level.
    """

    central: sv.LifelinesCox
    central_ours: sv.CoxFit
    central_threshold: float
    rows: list[dict[str, Any]]
    curves: list[dict[str, Any]]
    nonprivate_power: float
    alpha: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: tuple[tuple[str, str, str], ...]

    @property
    def table(self) -> pd.DataFrame:
        """One row per test (indexed by test)."""
        return pd.DataFrame(self.rows).set_index("test", drop=False)

    @property
    def curve_table(self) -> pd.DataFrame:
        """Size and power per test and ε."""
        return pd.DataFrame(self.curves)

    def row(self, kind: str) -> pd.Series:
        """The row of the test of ``kind``."""
        return self.table.loc[kind]

    def valid_from(self, kind: str) -> float:
        """The smallest ε of ``eps_values`` at which the paper's rule for ``kind`` has size at most α
        (``nan`` when there is none)."""
        curves = self.curve_table
        curve = curves[curves.test == kind]
        valid = curve.eps[curve["size"] <= self.alpha]
        return float(valid.min()) if len(valid) else math.nan

    def metrics(self) -> dict[str, Any]:
        """The tests, under their metrics.json names."""
        simple, composite = self.row("simple"), self.row("composite")
        return {
            "private_tests": self.table.to_dict("records"),
            "test_size_power": self.curve_table.to_dict("records"),
            "central_lrt": self.central.lrt, "central_p": self.central.lrt_p,
            "central_lrt_ours": self.central_ours.lrt, "central_threshold": self.central_threshold,
            "glrt_nonprivate": composite["non-private X"], "composite_threshold": composite["ϱ_d (paper)"],
            "composite_reject": composite["rejects (paper rule)"],
            "composite_median_p_paper": composite["median p (paper)"],
            "composite_claim_rate": composite["P[p (paper) < claim]"],
            "composite_median_p_noise": composite["median p (with noise)"],
            "composite_size": composite["size"],
            "simple_size": simple["size"], "simple_power": simple["power"],
            "simple_threshold": simple["ϱ_d (paper)"], "simple_calibrated": simple["calibrated threshold"],
            "simple_power_calibrated": simple["power, calibrated"],
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-sec5-tests": self.table, "ht-test-size-power": self.curve_table}

    def figure(self) -> Figure:
        """Size and power of the simple test, and size of the composite test, against ε."""
        curves = self.curve_table
        simple, composite = curves[curves.test == "simple"], curves[curves.test == "composite"]
        fig, axes = plotting.panel_row(2, height=3.4)
        axes[0].plot(simple.eps, simple["size"], "o-", color="C3", label="size, paper's rule")
        axes[0].plot(simple.eps, simple["power"], "o-", color="C0", label="power, paper's rule")
        axes[0].plot(simple.eps, simple["power, calibrated"], "s--", color="C0", label="power, calibrated")
        axes[0].axhline(self.nonprivate_power, color="0.6", lw=1.2, label="power, no privacy")
        axes[1].plot(composite.eps, composite["size"], "o-", color="C3", label="size, paper's rule")
        for ax, title in zip(axes, ("simple test", "composite test"), strict=True):
            plotting.guarantee_line(ax, self.alpha, "α")
            ax.set_xscale("log")
            plotting.plain_log(ax.xaxis)
            ax.set(
                title=title,
                xlabel="privacy budget ε",
                ylabel="probability of rejecting θ = 0",
                ylim=(0, 1.02),
            )
            ax.legend()
        return fig


def private_tests(P: Parameters, data: Cohorts, lik: Likelihoods) -> PrivateTests:
    """The simple and composite private tests at ``eps`` (``replications`` runs), and their size and power
    over ``eps_values`` (stream ``tests``)."""
    d, centres, alpha = data.ddi, data.ddi_centres, P.alpha
    info0 = float(sv.centre_information(d.x, d.time, d.event, centres).sum())  # Σ_i I_i(0)
    central = sv.cox_lifelines(d.time, d.event, d.x, penalizer=P.penalizer)
    central_ours = sv.fit_cox(d.x, d.time, d.event, penalizer=P.penalizer)
    local = sv.centre_fits(d.x, d.time, d.event, centres, penalizer=P.penalizer)
    tables = {"simple": lik.per_centre["paper"], "composite": sv.composite_table(local)}
    deltas = {"simple": sv.cox_sensitivity(abs(THETA1)), "composite": sv.cox_sensitivity(P.b_theta)}
    alternative = {"simple": sv.simple_alternative(THETA1, info0), "composite": None}

    def make(kind: str, eps: float) -> tuple[sv.PrivateTest, sv.RunSchedule]:
        return sv.make_private_test(
            kind, tables[kind], a_star=data.a_star, delta=deltas[kind], eps=eps, alpha=alpha,
            theta_alt=THETA1, information=info0,
        )  # fmt: skip

    rng, rows = P.rng("tests"), []
    at_eps = {kind: make(kind, P.eps) for kind in ("simple", "composite")}  # no draws: schedules only
    for kind, (test, sched) in at_eps.items():
        S = test.statistic(tables[kind], data.A, sched.T, n_reps=P.replications, rng=rng)[:, 0]  # all agree
        noise = test.noise(NOISE_DRAWS, rng)
        rows.append({
            "test": kind, "K": sched.K, "T": sched.T, "noise scale b": sched.noise_scale,
            "non-private X": sv.observed_statistic(tables[kind]), "ϱ_d (paper)": test.threshold,
            **test.summary(S, noise, claim_p=clinical.CLAIM_DISTRIBUTED_P),
            **test.operating_characteristics(noise, alternative[kind]),
        })  # fmt: skip
    curves = []
    for eps in P.eps_values:
        for kind in ("simple", "composite"):
            test = make(kind, eps)[0]
            noise = test.noise(NOISE_DRAWS, rng)
            curves.append(
                {"test": kind, "eps": eps, **test.operating_characteristics(noise, alternative[kind])}
            )
    null = at_eps["simple"][0].null
    by_kind = {row["test"]: row for row in rows}
    composite = by_kind["composite"]
    checks = clinical.section5_checks(
        central.lrt_p, composite["median p (paper)"], composite["P[p (paper) < claim]"],
        {kind: row["size"] for kind, row in by_kind.items()}, alpha,
    )  # fmt: skip
    return PrivateTests(
        central, central_ours, inf.glrt_threshold_centralised(alpha), rows, curves,
        float(alternative["simple"].sf(null.isf(alpha))), alpha, {"p003-sec5-tests": checks},
        P.is_paper("n_centers", "split", "eps", "alpha", "penalizer"),
        tuple(("p003-sec5-tests", *dev) for dev in clinical.SEC5_DEVIATIONS),
    )  # fmt: skip


# ----------------------------------------------------------------------------------------------------------
# Private maximum-likelihood estimation on ACTG (Figure 14.1a–b)


@dataclass(frozen=True, eq=False)
class ActgEstimation:
    """Paper 003, Figure 14.1a–b: AM, GM and the two-threshold rule on ACTG ddI against ZDV.

    Attributes
    ----------
    studies
        Per likelihood variant, the :class:`~dpnet.survival.studies.MLEStudy` (schedule, one drawn run,
        rates).
    oracle
        Per variant, the recovery rates in the limit ``T → ∞`` (``ORACLE_REPS`` runs).
    main
        The variant of the headline success rates (the ``likelihood`` parameter).
    replications, rho, freq, n_centers, eps, alpha
        The setting.
    """

    studies: Mapping[str, sv.MLEStudy]
    oracle: Mapping[str, Mapping[str, float]]
    main: str
    replications: int
    rho: float
    freq: float
    n_centers: int
    eps: float
    alpha: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: tuple[tuple[str, str, str], ...]

    @property
    def success(self) -> dict[str, dict[str, float]]:
        """Per variant, the recovery rates of {−log 2} over the replications."""
        return {v: st.rates for v, st in self.studies.items()}

    @property
    def schedules(self) -> pd.DataFrame:
        """K, T and the noise scale of each variant's runs."""
        return pd.DataFrame([{"likelihood": LABEL[v], "K": st.K, "T": st.T, "noise scale b": st.noise_scale}
                             for v, st in self.studies.items()])  # fmt: skip

    @property
    def table(self) -> pd.DataFrame:
        """Success rate and T → ∞ oracle per variant and algorithm."""
        return pd.DataFrame([
            {"likelihood": LABEL[v], "algorithm": k, "success rate": self.success[v][k],
             "T → ∞ oracle": self.oracle[v][k]}
            for v in VARIANTS for k in ("GM", "AM", "two-threshold", "AM belief")
        ])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The success rates and the oracle, under their metrics.json names."""
        success = self.success
        out = {
            "noise_paper": self.studies["paper"].noise_scale, "replications": self.replications,
            "success_rate": {k: success[self.main][k] for k in ("GM", "AM", "two-threshold")},
            "success_rate_by_likelihood": success, "success_rate_oracle": dict(self.oracle),
        }  # fmt: skip
        for v in VARIANTS:
            for k, name in (("GM", "gm"), ("AM", "am"), ("two-threshold", "thr")):
                out[f"success_{name}_{v}"] = success[v][k]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig14-1a-b": self.table, "p003-fig14-1a-b-schedules": self.schedules}

    def figure(self) -> Figure:
        """Per variant (rows): final GM and AM beliefs, two-threshold frequencies, TVD to non-private."""
        states = ["θ = 0", "θ = −log 2"]
        fig, axes = plotting.panel_grid(2, 4, height=2.7, row_titles=[LABEL[v] for v in VARIANTS])
        tau = inf.belief_threshold(self.rho)
        for row, v in enumerate(VARIANTS):
            st = self.studies[v]
            plotting.belief_bars(axes[row, 0], st.gm[-1], states, title="GM", threshold=tau)
            plotting.belief_bars(axes[row, 1], st.am[-1], states, title="AM", threshold=tau)
            plotting.belief_bars(axes[row, 2], st.counts, states, title="two-threshold", threshold=self.freq,
                                 ylabel="fraction of rounds won")  # fmt: skip
            tvd = {
                k.upper(): inf.total_variation(getattr(st, k), st.nonprivate).mean(axis=-1)[1:]
                for k in ("gm", "am")
            }
            plotting.distance_paths(axes[row, 3], tvd, title="TVD, floored at 10⁻³")
        _setting(fig, axes[0, 0], self)
        return fig


def actg_estimation(P: Parameters, data: Cohorts, lik: Likelihoods) -> ActgEstimation:
    """Both likelihoods' private MLE runs with the authors' K and T: a drawn run (stream ``demo``),
    ``replications`` runs and the T → ∞ oracle (stream ``monte-carlo``)."""
    target = np.array([False, True])  # Θ* = {−log 2}
    freq = inf.belief_threshold(P.rho)  # the two-threshold rule's frequency threshold (τ̂ = 0: won the round)
    demo, mc = P.rng("demo"), P.rng("monte-carlo")
    delta = sv.cox_sensitivity(abs(THETA1))
    studies = {}
    for v in VARIANTS:  # the paper's likelihood first, then the published one: both draw from demo and mc
        table = lik.per_centre[v]
        schedule = sv.code_schedule(table, a_star=data.a_star, delta=delta, eps=P.eps, alpha=P.alpha,
                                    rho=P.rho, convention=NOISE[v])  # fmt: skip
        studies[v] = sv.mle_study(table, data.A, schedule, rho=P.rho, target=target, freq=freq,
                                  n_reps=P.replications, rng_demo=demo, rng_mc=mc)  # fmt: skip
    oracle = {}
    for v, st in studies.items():
        limit = inf.run_private_mle(
            lik.per_centre[v], None, K=st.K, T=None, scale=st.noise_scale, n_reps=ORACLE_REPS, rng=mc
        )
        oracle[v] = inf.recovery_rates(limit, target, rho=P.rho, freq=freq)
    setting = _actg_setting(P)
    checks = []
    if setting:
        published = studies["as_published"]
        rates = {v: st.rates for v, st in studies.items()}
        checks = [
            *clinical.success_checks(rates, oracle, P.replications),
            *complexity.table1_checks(published.K, published.T),
        ]
    return ActgEstimation(
        studies, oracle, P.likelihood, P.replications, P.rho, freq, P.n_centers, P.eps, P.alpha,
        {"p003-fig14-1a-b": checks}, setting,
        tuple(("p003-fig14-1a-b", *dev) for dev in clinical.FIG141_DEVIATIONS[1:]),
    )  # fmt: skip


# ----------------------------------------------------------------------------------------------------------
# The cancer cohort (Figures 14.3–14.5)


@dataclass(frozen=True, eq=False)
class CancerCohort:
    """Paper 003, Figure 14.3: the cancer cohort's Kaplan–Meier curves by TMB group and Cox fits.

    Attributes
    ----------
    tmb
        The cohort.
    groups
        Figure 14.3's TMB groups (top 10 %, next 10 %, bottom 80 %) under the run's tie rule.
    cohorts
        Per covariate (``"raw"``, ``"top10"``, ``"top20"``), the one-covariate cohort.
    one_hospital, n_centers
        The mask of centre 1 of the chapter's split, and the number of centres.
    fits
        Lifelines fits per covariate and place (``"pooled"``, ``"centre 1 of <n>"``).
    gap
        Per covariate, the pooled ``Λ(log 0.15) − Λ(0)`` (paper's likelihood).
    tie_rules
        Per tie rule, the top-10 % group: its size, the tied patients it takes, and its gap.
    """

    tmb: pd.DataFrame
    groups: pd.Series
    cohorts: Mapping[str, pd.DataFrame]
    one_hospital: NDArray[np.bool_]
    n_centers: int
    fits: Mapping[str, Mapping[str, sv.LifelinesCox]]
    gap: Mapping[str, float]
    tie_rules: pd.DataFrame
    checks: Mapping[str, list[Check]]

    @property
    def table(self) -> pd.DataFrame:
        """One row per covariate and place: log hazard ratio, 95 % interval, Wald p."""
        return pd.DataFrame([_fit_row(fit, covariate=cov, fit=where)
                             for cov, fits in self.fits.items() for where, fit in fits.items()])  # fmt: skip

    @property
    def group_sizes(self) -> tuple[int, ...]:
        """Patients per TMB group."""
        return tuple(int(n) for n in self.groups.value_counts(sort=False))

    def metrics(self) -> dict[str, Any]:
        """The fits and gaps, under their metrics.json names."""
        rules = self.tie_rules.set_index("rule")["Λ(log 0.15) − Λ(0)"]
        return {
            "tmb_lambda_gap_raw": self.gap["raw"], "tmb_lambda_gap_top10": self.gap["top10"],
            "tmb_raw_coef": self.fits["raw"]["pooled"].coef,
            "tmb_top10_coef": self.fits["top10"]["pooled"].coef,
            "tmb_lambda_gap_by_covariate": dict(self.gap), "tmb_group_sizes": self.group_sizes,
            "tmb_top10_gap_by_tie_rule": rules.to_dict(),
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig14-3": self.table, "ht-tmb-tie-rules": self.tie_rules}

    def figure(self) -> Figure:
        """Kaplan–Meier curves by TMB group, pooled and in one hospital, and the Cox log hazard ratios."""
        t, g, one = self.tmb, self.groups, self.one_hospital
        fig, (top, bottom) = plotting.panel_rows([2, 1], heights=[3.0, 2.2])
        axes = [*top, *bottom]
        plotting.km_curves(
            axes[0], sv.kaplan_meier(t.time, t.event, g), title="pooled", xlabel="months", xmax=48
        )
        plotting.km_curves(
            axes[1], sv.kaplan_meier(t.time[one], t.event[one], g[one]),
            title=f"one hospital (centre 1 of {self.n_centers})", xlabel="months", xmax=48,
        )  # fmt: skip
        rows = [_forest(fit, f"{cov}, {where}", "C0" if where == "pooled" else "C1")
                for cov, fits in self.fits.items() for where, fit in fits.items()]  # fmt: skip
        plotting.forest_plot(axes[2], rows)
        axes[2].set_title("log hazard ratio")
        for ax in (axes[0], axes[1]):
            ax.set_xticks(range(0, 49, 12))
        return fig


def _gap(cohort: pd.DataFrame) -> float:
    """The pooled ``Λ(log 0.15) − Λ(0)`` of a one-covariate cohort (the paper's likelihood)."""
    return sv.loglik_gap(cohort.x, cohort.time, cohort.event, THETA_TMB)


def _tie_rules(tmb: pd.DataFrame) -> pd.DataFrame:
    """For each tie rule, the top-10 % group's size, which tied patients it takes, and its gap."""
    tied = sv.tied_at_cutoff(tmb["tmb"], 0.1)
    rows = []
    for rule in sv.TMB_TIE_RULES:
        cohort = sv.tmb_cohort(tmb, "top10", ties=rule)
        taken = ", ".join(str(i) for i in tied if cohort.x.iloc[i] == 1) or "none"
        rows.append({"rule": rule, "patients": int(cohort.x.sum()), "tied rows taken": taken,
                     "Λ(log 0.15) − Λ(0)": _gap(cohort)})  # fmt: skip
    return pd.DataFrame(rows)


def cancer_cohort(P: Parameters, data: Cohorts) -> CancerCohort:
    """Figure 14.3: TMB groups and Cox fits of raw TMB and of the top-10 % and top-20 % indicators, pooled
    and in centre 1 of the chapter's split; the top-10 % gap under each tie rule."""
    tmb, one = data.tmb, data.tmb_centres == 1
    cohorts = {cov: sv.tmb_cohort(tmb, cov, ties=P.tmb_ties) for cov in sv.TMB_COVARIATES}
    fits = {
        cov: {where: sv.cox_lifelines(c.time[mask], c.event[mask], c.x[mask])
              for where, mask in (("pooled", np.ones(len(c), bool)), (f"centre 1 of {P.n_centers}", one))}
        for cov, c in cohorts.items()
    }  # fmt: skip
    gap = {cov: _gap(c) for cov, c in cohorts.items()}
    checks = clinical.tmb_checks(gap, fits["raw"]["pooled"].coef, published=P.is_paper("tmb_ties"))
    groups = sv.tmb_groups(tmb, ties=P.tmb_ties)
    return CancerCohort(
        tmb, groups, cohorts, one, P.n_centers, fits, gap, _tie_rules(tmb), {"p003-fig14-3": checks}
    )


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
    main, rho, n_centers, eps, alpha
        The setting.
    """

    studies: Mapping[str, sv.MLEStudy]
    delta: Mapping[str, float]
    mle: Mapping[str, NDArray[np.bool_]]
    gap: Mapping[str, float]
    to_claim: Mapping[str, Mapping[str, float]]
    main: str
    rho: float
    n_centers: int
    eps: float
    alpha: float
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...]

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
        _setting(fig, axes[0, 0], self, LABEL[self.main])
        return fig

    def threshold_figure(self) -> Figure:
        """Figure 14.5: the two-threshold rule's frequencies per centre (panels: covariates)."""
        states = ["θ = 0", "θ = log 0.15"]
        fig, axes = plotting.panel_row(2, height=3.4)
        for ax, (cov, st) in zip(axes, self.studies.items(), strict=True):
            plotting.belief_bars(ax, st.counts, states, title=f"two-threshold, {cov} TMB",
                                 threshold=clinical.FIG145_FREQ, ylabel="fraction of rounds won")  # fmt: skip
        _setting(fig, axes[0], self, LABEL[self.main])
        return fig


def cancer_estimation(P: Parameters, data: Cohorts, cancer: CancerCohort) -> CancerEstimation:
    """Private MLE runs on the cancer cohort with raw TMB and the top-10 % indicator (stream ``cancer``:
    for each covariate, the drawn run, then the replications)."""
    rng, claimed = P.rng("cancer"), np.array([False, True])  # the published estimate {log 0.15}
    states = np.array([0.0, THETA_TMB])
    studies, delta, mle, gap, to_claim = {}, {}, {}, {}, {}
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
    check = clinical.tmb_mle_check(cancer.gap["raw"])
    items = ("p003-fig14-4", "p003-fig14-5")
    return CancerEstimation(
        studies, delta, mle, gap, to_claim, P.likelihood, P.rho_cancer, P.n_centers, P.eps, P.alpha,
        {item: [check] for item in items}, tuple((item, *clinical.TMB_DEVIATION) for item in items),
    )  # fmt: skip
