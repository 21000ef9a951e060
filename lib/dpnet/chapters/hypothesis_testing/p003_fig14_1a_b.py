"""Paper 003, Figure 14.1a–b: the Cox log-likelihoods of ddI against ZDV as the paper writes them and
as the authors' notebook computed them, and the private AM, GM and two-threshold runs on them."""

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
from dpnet.chapters.hypothesis_testing._common import LABEL, NOISE, THETA1, VARIANTS, code_rounds, titled
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical, complexity
from dpnet.results import Check
from dpnet.survival import studies as sv_studies

__all__ = ["ORACLE_REPS", "PI", "ActgEstimation", "Likelihoods", "actg_estimation", "cost", "likelihoods"]

#: Replications of the T → ∞ oracle.
ORACLE_REPS = 50_000
#: π₁ = π₂ of the two-threshold rule's frequency thresholds (Theorem 4.3, Cor 4.4), which the paper does
#: not state for these runs: with ``|Θ| = 2`` and ``|Θ*| = 1``, π = ½ asks for K ≥ 6 rounds (Theorem 4.3) and
#: K ≥ 7.4 (Cor 4.4), so the runs' K = 8 meets both.
PI = 0.5
#: Where each pooled likelihood's maximum is sought (step 0.001), and the plotted range of θ.
PEAK_GRID = (-6.0, 2.0, 8001)
PLOT_GRID = (-1.5, 0.5, 201)

#: Measured costs on this 2-core machine (one core), see :func:`cost`.
_MLE_SECONDS = 1.34e-6  # one round, one centre, one replication of both likelihoods' ACTG runs
_ORACLE_SECONDS = 1.16e-6  # the same, of the T → ∞ oracle's ORACLE_REPS runs


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the ACTG runs (:func:`actg_estimation`); the likelihoods are in the chapter's
    fixed seconds and memory.

    With ``R = replications``, ``n = n_centers`` and the authors' rounds ``K = ⌈2 log(2/α)⌉``
    (``|Θ| = 2``, η = α):

    * peak: ``16·K·n·(14·R + 4·ORACLE_REPS)`` bytes: a private MLE study holds its ``(R, K, n, 2)`` noise
      and log-ratios and their temporaries (about 12 such float64 arrays, both likelihoods' runs kept),
      the oracle its ``ORACLE_REPS`` runs;
    * seconds: ``1.34·10⁻⁶·K·n·R + 1.16·10⁻⁶·K·n·ORACLE_REPS`` (the runs of both likelihoods, the oracle).

    Calibrated on this 2-core machine, one core: the ACTG estimation took 1.9 s at the quick defaults,
    9.5 s and 0.63 GiB at R = 10⁵, 10.7 s and 0.78 GiB at n = 20, R = 2·10⁴, 26.9 s and 1.67 GiB at
    n = 50, R = 5000.
    """
    R, n, K = values["replications"], values["n_centers"], code_rounds(values)
    return Cost(
        seconds=K * n * (R * _MLE_SECONDS + ORACLE_REPS * _ORACLE_SECONDS),
        peak=16.0 * K * n * (14 * R + 4 * ORACLE_REPS),
    )


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
    quicksort_gap
        The as-published gap pooled (``"as_published"``) and summed over the centres
        (``"as_published_5"``) with the notebook's own sort on this machine (NumPy's quicksort, which
        pandas' ``sort_values`` uses), whose order of ties depends on the machine.
    """

    per_centre: Mapping[str, NDArray[np.float64]]
    pooled_gap: Mapping[str, float]
    peak: Mapping[str, float]
    theta: NDArray[np.float64]
    curves: Mapping[str, NDArray[np.float64]]
    quicksort_gap: Mapping[str, float]
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
        frame = pd.DataFrame({"centre": [f"{i}" for i in range(n)] + ["sum", "pooled"]})
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
                f"centre {i}": {v: float(gaps[v][i]) for v in VARIANTS} for i in range(len(gaps["paper"]))
            },
            "lambda_gap_sum_paper": float(gaps["paper"].sum()),
            "lambda_gap_sum_as_published": float(gaps["as_published"].sum()),
            "loglik_argmax": dict(self.peak),
            "lambda_gap_quicksort": self.quicksort_gap["as_published"],
            "lambda_gap_sum_quicksort": self.quicksort_gap["as_published_5"],
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
    quick = sv.centre_loglik(d.x, d.time, d.event, centres, states, variant="as_published", ties="quicksort")
    quicksort = {
        "as_published": sv.loglik_gap(d.x, d.time, d.event, THETA1, variant="as_published", ties="quicksort"),
        "as_published_5": float((quick[:, 1] - quick[:, 0]).sum()),
    }
    published = P.is_paper("n_centers", "split")  # the reference gaps are pooled and over the 5-way split
    checks = []
    if published:
        summed = {f"{v}_5": float((t[:, 1] - t[:, 0]).sum()) for v, t in tables.items()}
        checks = clinical.lambda_gap_checks({**pooled, **summed}, _tie_ranges(d, centres, states), quicksort)
    deviation = ("p003-fig14-1a-b", *clinical.FIG141_DEVIATIONS[0])
    return Likelihoods(
        tables, pooled, peak, theta, curves, quicksort, {"p003-fig14-1a-b": checks}, published, (deviation,)
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
# Private maximum-likelihood estimation on ACTG


@dataclass(frozen=True, eq=False)
class ActgEstimation:
    """Paper 003, Figure 14.1a–b: AM, GM and the two-threshold rule on ACTG ddI against ZDV.

    Attributes
    ----------
    studies
        Per likelihood variant, the :class:`~dpnet.survival.studies.MLEStudy` (schedule, one drawn run,
        rates).
    oracle
        Per variant, the exact-recovery rates in the limit ``T → ∞`` (``ORACLE_REPS`` runs).
    promises
        Per variant and regime (``"finite T"``, ``"T → ∞"``), how often each estimator keeps the promise
        of its theorem (:func:`~dpnet.survival.studies.promise_rates`).
    cor44_applies
        Per variant, whether its two-threshold rule uses Cor 4.4's frequency threshold (so that Cor 4.4's
        promise applies to it).
    freq
        Per variant, the single frequency threshold of the two-threshold rates: Cor 4.4's
        ``τ = (1 − π₂)p₂`` with the paper's likelihood, the ``1/(1 + e^ϱ)`` the published figure draws as
        published (note ``note-ht-two-threshold``).
    thm43, cor44
        Theorem 4.3's and Cor 4.4's schedules at ``π₁ = π₂ = PI`` (their ``K`` and frequency thresholds).
    two_threshold
        Per variant and regime (``"finite T"``, ``"T → ∞"``), Alg 2's rates with Theorem 4.3's thresholds
        (:func:`~dpnet.survival.studies.two_threshold_rates`).
    main
        The variant of the headline success rates (the ``likelihood`` parameter).
    replications, rho, n_centers, eps, alpha
        The setting.
    """

    studies: Mapping[str, sv.MLEStudy]
    oracle: Mapping[str, Mapping[str, float]]
    promises: Mapping[str, Mapping[str, Mapping[str, float]]]
    cor44_applies: Mapping[str, bool]
    freq: Mapping[str, float]
    thm43: inf.ThresholdSchedule
    cor44: inf.ThresholdSchedule
    two_threshold: Mapping[str, Mapping[str, Mapping[str, float]]]
    main: str
    replications: int
    rho: float
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

    def rates(self, variant: str, regime: str) -> dict[str, float]:
        """The exact-recovery rates and the promise rates of ``variant`` in ``regime`` (``"finite T"`` or
        ``"T → ∞"``)."""
        exact = self.success[variant] if regime == "finite T" else self.oracle[variant]
        return {**exact, **self.promises[variant][regime]}

    @property
    def table(self) -> pd.DataFrame:
        """Per variant and algorithm: how often every centre's set keeps the promise of its theorem (GM's
        inside Θ* = {−log 2}, AM's covering it, the two-threshold rule's equal to it at Cor 4.4's
        threshold), how often it is exactly {−log 2} (the caption read literally), and AM's mean belief on
        −log 2 (a different quantity), in the runs and in the limit T → ∞."""
        rows = (
            ("GM", "GM inside", "P[set ⊆ Θ*]", "1 − α", "Theorem 4.1"),
            ("GM", "GM", "P[set = Θ*]", None, "the caption"),
            ("AM", "AM covers", "P[Θ* ⊆ set]", "β", "Theorem 4.1"),
            ("AM", "AM", "P[set = Θ*]", None, "the caption"),
            ("AM", "AM belief", "mean belief on −log 2", None, ""),
            ("two-threshold", "two-threshold", "P[set = Θ*]", "β − α", "Cor 4.4"),
        )
        out = []
        for v in VARIANTS:
            finite, limit = self.rates(v, "finite T"), self.rates(v, "T → ∞")
            for name, key, what, level, source in rows:
                promise = level is not None and (key != "two-threshold" or self.cor44_applies[v])
                out.append({
                    "likelihood": LABEL[v], "algorithm": name, "quantity": what,
                    "promised": clinical.promised(level, self.alpha) if promise else math.nan,
                    "by": source if promise or source == "the caption" else "",
                    "frequency threshold": self.freq[v] if key == "two-threshold" else math.nan,
                    "finite T": finite[key], "T → ∞": limit[key],
                })  # fmt: skip
        return pd.DataFrame(out)

    @property
    def two_threshold_table(self) -> pd.DataFrame:
        """Theorem 4.3's two sets with its frequency thresholds (the theorem's value, and the one applied: a
        state must win at least one of the K rounds), what each promises, and how often it keeps the
        promise in the runs and in the limit T → ∞, per variant."""
        applied = inf.frequency_thresholds(self.thm43.freq_1, self.thm43.freq_2, self.studies["paper"].K)
        sets = (
            ("Θ̂¹", "τ¹ = (1 + π₁)p₁", self.thm43.freq_1, applied[0], "Θ̂¹ ⊆ Θ*", "inside", 1.0 - self.alpha),
            ("Θ̂²", "τ² = (1 − π₂)p₂", self.thm43.freq_2, applied[1], "Θ* ⊆ Θ̂²", "covers", 1.0 - self.alpha),
        )
        return pd.DataFrame([
            {"likelihood": LABEL[v], "set": name, "threshold": rule, "value": value, "applied": used,
             "event": event, "promised": promise,
             **{regime: rates[key] for regime, rates in self.two_threshold[v].items()}}
            for v in VARIANTS for name, rule, value, used, event, key, promise in sets
        ])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The success rates, the oracle and the two-threshold rates, under their metrics.json names."""
        success, paper = self.success, self.two_threshold["paper"]
        out = {
            "noise_paper": self.studies["paper"].noise_scale, "replications": self.replications,
            "success_rate": {k: success[self.main][k] for k in ("GM", "AM", "two-threshold")},
            "success_rate_by_likelihood": success, "success_rate_oracle": dict(self.oracle),
            "promise_rates": dict(self.promises),
            "two_threshold_freq": dict(self.freq), "two_threshold_rates": dict(self.two_threshold),
            "thm43_K": self.thm43.K, "thm43_k_needed": max(self.thm43.k_1, self.thm43.k_2),
            "cor44_K": self.cor44.K, "cor44_k_needed": max(self.cor44.k_1, self.cor44.k_2),
            "thm43_freq_1": self.thm43.freq_1, "thm43_freq_2": self.thm43.freq_2,
            "thm43_inside_limit": paper["T → ∞"]["inside"], "thm43_covers_limit": paper["T → ∞"]["covers"],
            "thm43_inside_runs": paper["finite T"]["inside"],
            "thm43_covers_runs": paper["finite T"]["covers"],
            "schedule_K": self.studies["paper"].K,
            "schedule_T": {v: st.T for v, st in self.studies.items()},
        }  # fmt: skip
        for v in VARIANTS:
            for k, name in (("GM", "gm"), ("AM", "am"), ("two-threshold", "thr"), ("AM belief", "am_belief")):
                out[f"success_{name}_{v}"] = success[v][k]
                out[f"oracle_{name}_{v}"] = self.oracle[v][k]
            for k, name in (("GM inside", "gm_inside"), ("AM covers", "am_covers")):
                out[f"promise_{name}_{v}"] = self.promises[v]["T → ∞"][k]
                out[f"promise_{name}_{v}_runs"] = self.promises[v]["finite T"][k]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {
            "p003-fig14-1a-b": self.table, "p003-fig14-1a-b-schedules": self.schedules,
            "p003-fig14-1a-b-two-threshold": self.two_threshold_table,
        }  # fmt: skip

    def figure(self) -> Figure:
        """Per variant (rows): final GM and AM beliefs, two-threshold frequencies, TVD to non-private."""
        states = ["θ = 0", "θ = −log 2"]
        fig, axes = plotting.panel_grid(2, 4, height=2.7, row_titles=[LABEL[v] for v in VARIANTS])
        tau = inf.belief_threshold(self.rho)
        for row, v in enumerate(VARIANTS):
            st = self.studies[v]
            plotting.belief_bars(axes[row, 0], st.gm[-1], states, title="GM", threshold=tau)
            plotting.belief_bars(axes[row, 1], st.am[-1], states, title="AM", threshold=tau)
            plotting.belief_bars(axes[row, 2], st.counts, states, title="two-threshold",
                                 threshold=self.freq[v], ylabel="fraction of rounds won")  # fmt: skip
            tvd = {
                k.upper(): inf.total_variation(getattr(st, k), st.nonprivate).mean(axis=-1)[1:]
                for k in ("gm", "am")
            }
            plotting.distance_paths(axes[row, 3], tvd, title="TVD, floored at 10⁻³")
        titled(fig, axes[0, 0], self)
        return fig


def _actg_setting(P: Parameters) -> bool:
    """The run uses the setting of the published ACTG runs (Figure 14.1a–b)."""
    return P.is_paper("n_centers", "split", "eps", "alpha", "rho")


def actg_estimation(P: Parameters, data: Cohorts, lik: Likelihoods) -> ActgEstimation:
    """Both likelihoods' private MLE runs with the authors' K and T: a drawn run (stream ``demo``),
    ``replications`` runs and the T → ∞ oracle (stream ``monte-carlo``); the two-threshold rule's rates
    with Theorem 4.3's and Cor 4.4's frequency thresholds on the same runs."""
    target = np.array([False, True])  # Θ* = {−log 2}
    demo, mc = P.rng("demo"), P.rng("monte-carlo")
    delta = sv.cox_sensitivity(abs(THETA1))
    problem = inf.problem_constants(lik.per_centre["paper"])
    rules = {"delta": delta, "eps": P.eps, "alpha": P.alpha, "beta": 1.0 - P.alpha}
    thm43 = inf.schedule_thm43(problem, **rules, pi1=PI, pi2=PI)
    cor44 = inf.schedule_cor44(problem, **rules, pi2=PI)
    freq = {"paper": cor44.freq_1, "as_published": inf.belief_threshold(P.rho)}
    studies = {}
    for v in VARIANTS:  # the paper's likelihood first, then the published one: both draw from demo and mc
        table = lik.per_centre[v]
        schedule = sv.code_schedule(table, a_star=data.a_star, delta=delta, eps=P.eps, alpha=P.alpha,
                                    rho=P.rho, convention=NOISE[v])  # fmt: skip
        studies[v] = sv.mle_study(table, data.A, schedule, rho=P.rho, target=target, freq=freq[v],
                                  n_reps=P.replications, rng_demo=demo, rng_mc=mc)  # fmt: skip
    oracle, two_threshold, promises = {}, {}, {}
    for v, st in studies.items():
        limit = inf.run_private_mle(
            lik.per_centre[v], None, K=st.K, T=None, scale=st.noise_scale, n_reps=ORACLE_REPS, rng=mc
        )
        oracle[v] = inf.recovery_rates(limit, target, rho=P.rho, freq=freq[v])
        promises[v] = {
            regime: sv_studies.promise_rates(run, target, rho=P.rho, freq=freq[v])
            for regime, run in (("finite T", st.run), ("T → ∞", limit))
        }
        thresholds = {"freq_1": thm43.freq_1, "freq_2": thm43.freq_2}
        two_threshold[v] = {
            "finite T": sv_studies.two_threshold_rates(st.run, target, **thresholds),
            "T → ∞": sv_studies.two_threshold_rates(limit, target, **thresholds),
        }
    setting = _actg_setting(P)
    rates = {v: st.rates for v, st in studies.items()}
    cor44_applies = {"paper": True, "as_published": False}  # the published figure's threshold is AM's τ
    checks = [
        *clinical.recovery_checks(
            {v: {**oracle[v], **promises[v]["T → ∞"]} for v in VARIANTS},
            {v: {**rates[v], **promises[v]["finite T"]} for v in VARIANTS},
            alpha=P.alpha, n_reps=ORACLE_REPS, cor44=cor44_applies,
        ),
        *clinical.two_threshold_checks(
            two_threshold["paper"]["T → ∞"], alpha=P.alpha, pi=PI, n_reps=ORACLE_REPS
        ),
    ]  # fmt: skip
    if setting:
        published = studies["as_published"]
        checks += [
            *clinical.success_checks(rates, oracle, P.replications),
            *complexity.table1_checks(published.K, published.T),
        ]
    return ActgEstimation(
        studies, oracle, promises, cor44_applies, freq, thm43, cor44, two_threshold, P.likelihood,
        P.replications, P.rho, P.n_centers, P.eps, P.alpha, {"p003-fig14-1a-b": checks}, setting,
        tuple(("p003-fig14-1a-b", *dev) for dev in clinical.FIG141_DEVIATIONS[1:]),
    )  # fmt: skip
