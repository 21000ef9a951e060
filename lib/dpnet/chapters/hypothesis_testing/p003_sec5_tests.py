"""Paper 003, the §5 tests: the simple and composite private tests of §4.2 on ACTG ddI against ZDV, their
p-values, and their size and power over the privacy budget.

The same experiment records Proposition 4.6's checks (the tests' size, item ``p003-prop4-6``), whose
module (:mod:`~dpnet.chapters.hypothesis_testing.p003_prop4_6`) measures the sensitivity its privacy
rests on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from dpnet import inference as inf
from dpnet import plotting
from dpnet import survival as sv
from dpnet.chapters.hypothesis_testing._common import THETA1, code_rounds
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.chapters.hypothesis_testing.p003_fig14_1a_b import Likelihoods
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check
from dpnet.survival.binary import centre_cox
from dpnet.survival.private_tests import composite_table, composite_test, risk_set_law

__all__ = ["NOISE_DRAWS", "PrivateTests", "cost", "private_tests"]

#: Draws of the privacy noise N of the §4.2 tests.
NOISE_DRAWS = 20_000

#: Measured costs on this 2-core machine (one core), see :func:`cost`.
_PVALUE_SECONDS = 3e-3  # the noise-aware p-values of one run of both tests (2 × 20 000 null sf values)
_TEST_RUN_SECONDS = 4.5e-7  # one round of one test run, per n²: T iterations of the n × n gossip
_EPS_SECONDS = 0.16  # size and power of both tests at one ε of eps_values
_CENTRE_SECONDS = 2.0  # one centre's Cox fits, likelihood curves and forest rows


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the private tests (:func:`private_tests`), and the chapter's per-centre work.

    With ``R = replications``, ``n = n_centers``, ``E = len(eps_values)`` and the authors' rounds
    ``K = ⌈2 log(2/α)⌉`` (``|Θ| = 2``, η = α):

    * kept: ``48·NOISE_DRAWS·K·n`` bytes, the tests' noise draws. They are freed when the tests return,
      but the chapter's model has always added them to the private MLE studies' peak, so they are
      counted as held for the rest of the run;
    * seconds: ``0.16·E + 2·n + R·(3·10⁻³ + 4.5·10⁻⁷·K·n²)``: the size and power at each ε, each centre's
      Cox fits and likelihood curves (those of every item of the chapter, measured as one term), and the
      p-values and private test runs.

    Calibrated on this 2-core machine, one core: the private tests took 1.6 s at the defaults, 16.4 s
    at R = 5000, 13.1 s at n = 50, R = 1000, 16.8 s at E = 100, R = 20, all with a 0.19 GiB peak. The
    whole chapter at R = 20 took 65 s at n = 2 and 212 s at n = 50 under load from other runs (the
    per-centre term).
    """
    R, n, E = values["replications"], values["n_centers"], len(values["eps_values"])
    K = code_rounds(values)
    return Cost(
        seconds=_EPS_SECONDS * E + _CENTRE_SECONDS * n + R * (_PVALUE_SECONDS + _TEST_RUN_SECONDS * K * n**2),
        kept=48.0 * NOISE_DRAWS * K * n,
    )


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
        the p-values in the limit of many iterations (exact) and over the private runs (Monte Carlo), and
        the operating characteristics, exact and over ``NOISE_DRAWS`` draws of the noise.
    curves
        Exact size and power of both tests over the ε of ``eps_values``.
    nonprivate_power
        The power of the non-private simple test at level α.
    information
        ``I = Σ_i I_i(0)``, the centres' summed Fisher information at 0 (the scale of the simple test's
        normal laws).
    alpha, replications
        The level, and the number of private runs.
    """

    central: sv.LifelinesCox
    central_ours: sv.CoxFit
    central_threshold: float
    rows: list[dict[str, Any]]
    curves: list[dict[str, Any]]
    nonprivate_power: float
    information: float
    alpha: float
    replications: int
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
            "composite_reject_runs": composite["rejects (paper rule), runs"],
            "composite_p_notebook": composite["p (notebook) without noise"],
            "composite_p_rule": composite["p (rule) without noise"],
            "composite_median_p_runs": composite["median p (rule), runs"],
            "composite_median_p_runs_low": composite["median p (rule), runs, 95 % low"],
            "composite_median_p_runs_high": composite["median p (rule), runs, 95 % high"],
            "composite_claim_rate": composite["P[p (rule) below claim]"],
            "composite_claim_rate_runs": composite["P[p (rule) below claim], runs"],
            "composite_p_noise": composite["p (with noise) of X"],
            "composite_size": composite["size"], "composite_size_mc": composite["size, Monte Carlo"],
            "composite_threshold_one_sided": composite["ϱ_d, one-sided"],
            "composite_x_one_sided": composite["non-private X, one-sided"],
            "composite_size_one_sided": composite["size, one-sided"],
            "simple_size": simple["size"], "simple_power": simple["power"],
            "simple_size_mc": simple["size, Monte Carlo"], "simple_power_mc": simple["power, Monte Carlo"],
            "simple_threshold": simple["ϱ_d (paper)"], "simple_calibrated": simple["calibrated threshold"],
            "simple_power_calibrated": simple["power, calibrated"],
            "simple_size_risk_sets": simple["size, risk sets fixed"],
            "simple_power_risk_sets": simple["power, risk sets fixed"],
            "simple_information": self.information, "simple_null_mean": -(THETA1**2) * self.information,
            "simple_null_sd": 2.0 * abs(THETA1) * math.sqrt(self.information),
            "simple_critical": simple["ϱ_d (paper)"] + 1.0,
            "simple_x": simple["non-private X"], "simple_gap_at_threshold": simple["ϱ_d (paper)"] / 2.0,
            "test_replications": self.replications, "test_noise_draws": NOISE_DRAWS,
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``: the size and power curves (the chapter shows the tests'
        rows under ``p003-sec5-tests``)."""
        return {"ht-test-size-power": self.curve_table}

    def figure(self) -> Figure:
        """Size and power of the simple test, and size of the composite test, against ε (exact)."""
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
    """The simple and composite private tests at ``eps`` (``replications`` runs, stream ``tests``), their
    exact operating characteristics there and over ``eps_values``, and the one-sided composite test."""
    d, centres, alpha = data.ddi, data.ddi_centres, P.alpha
    info0 = float(sv.centre_information(d.x, d.time, d.event, centres).sum())  # Σ_i I_i(0)
    central = sv.cox_lifelines(d.time, d.event, d.x, penalizer=P.penalizer)
    central_ours = sv.fit_cox(d.x, d.time, d.event, penalizer=P.penalizer)
    local = sv.centre_fits(d.x, d.time, d.event, centres, penalizer=P.penalizer)
    tables = {"simple": lik.per_centre["paper"], "composite": sv.composite_table(local)}
    deltas = {"simple": sv.cox_sensitivity(abs(THETA1)), "composite": sv.cox_sensitivity(P.b_theta)}
    alternative = {"simple": sv.simple_alternative(THETA1, info0), "composite": None}
    models = list(centre_cox(d.x, d.time, d.event, centres).models)
    fixed = {theta: risk_set_law(models, THETA1, theta) for theta in (0.0, THETA1)}  # risk sets held

    def make(kind: str, eps: float) -> tuple[sv.PrivateTest, sv.RunSchedule]:
        return sv.make_private_test(
            kind, tables[kind], a_star=data.a_star, delta=deltas[kind], eps=eps, alpha=alpha,
            theta_alt=THETA1, information=info0,
        )  # fmt: skip

    rng, rows, kinds = P.rng("tests"), [], ("simple", "composite")
    at_eps = {kind: make(kind, P.eps) for kind in kinds}  # no draws: schedules only
    # the exact size and power (quadratures, most of the item's time), once per budget: the run's ε is
    # usually also on the grid of eps_values
    exact = {
        (kind, eps): make(kind, eps)[0].exact_operating_characteristics(alternative[kind])
        for eps in dict.fromkeys([P.eps, *P.eps_values]) for kind in kinds
    }  # fmt: skip
    for kind, (test, sched) in at_eps.items():
        S = test.statistic(tables[kind], data.A, sched.T, n_reps=P.replications, rng=rng)[:, 0]  # all agree
        noise = test.noise(NOISE_DRAWS, rng)
        observed = sv.observed_statistic(tables[kind])
        drawn = test.operating_characteristics(noise, alternative[kind])
        rows.append({
            "test": kind, "K": sched.K, "T": sched.T, "noise scale b": sched.noise_scale,
            "non-private X": observed, "ϱ_d (paper)": test.threshold,
            "rejects (paper rule)": test.noise_sf(test.threshold - observed),
            **test.limit_summary(observed, claim_p=clinical.CLAIM_DISTRIBUTED_P),
            **{f"{k}, runs" if k == "rejects (paper rule)" else k: v
               for k, v in test.summary(S, noise, claim_p=clinical.CLAIM_DISTRIBUTED_P).items()},
            **exact[kind, P.eps],
            **{f"{k}, Monte Carlo": drawn[k] for k in ("size", "power") if k in drawn},
            **_risk_set_columns(test, fixed, kind),
            **_one_sided_columns(test, local, kind),
        })  # fmt: skip
    curves = [{"test": kind, "eps": eps, **exact[kind, eps]} for eps in P.eps_values for kind in kinds]
    null = at_eps["simple"][0].null
    by_kind = {row["test"]: row for row in rows}
    composite = by_kind["composite"]
    checks = {
        "p003-sec5-tests": clinical.section5_checks(
            central.lrt_p, composite["p (rule) without noise"], composite["P[p (rule) below claim]"],
            composite["median p (rule), runs"], P.replications,
        ),
        "p003-prop4-6": clinical.prop46_checks(
            {**{kind: row["size"] for kind, row in by_kind.items()},
             "composite one-sided": composite["size, one-sided"]}, alpha,
        ),
    }  # fmt: skip
    deviations = (
        *(("p003-sec5-tests", *dev) for dev in clinical.SEC5_DEVIATIONS),
        ("p003-prop4-6", *clinical.PROP46_DEVIATIONS[0]),
    )
    return PrivateTests(
        central, central_ours, inf.glrt_threshold_centralised(alpha), rows, curves,
        float(alternative["simple"].sf(null.isf(alpha))), info0, alpha, P.replications, checks,
        P.is_paper("n_centers", "split", "eps", "alpha", "penalizer"), deviations,
    )  # fmt: skip


def _risk_set_columns(test: sv.PrivateTest, laws: Mapping[float, Any], kind: str) -> dict[str, float]:
    """The simple test's exact size and power when ``X`` follows
    :func:`~dpnet.survival.private_tests.risk_set_law` (risk sets held at their observed counts) instead
    of the normal laws; nothing for the composite test."""
    if kind != "simple":
        return {}
    return {
        "size, risk sets fixed": test.exact_rejection_probability(laws[0.0]),
        "power, risk sets fixed": test.exact_rejection_probability(laws[THETA1]),
    }


def _one_sided_columns(test: sv.PrivateTest, local: list[sv.CoxFit], kind: str) -> dict[str, float]:
    """The composite test against §5's one-sided alternative ``θ < 0``: its non-private statistic, its
    threshold from the ``χ̄²`` null law and its exact size, with the same noise; nothing for the simple
    test."""
    if kind != "composite":
        return {}
    one = composite_test(alpha=test.alpha, n_agents=test.n_agents, K=test.K, noise_scale=test.noise_scale,
                         one_sided=True)  # fmt: skip
    return {
        "non-private X, one-sided": sv.observed_statistic(composite_table(local, one_sided=True)),
        "ϱ_d, one-sided": one.threshold,
        "size, one-sided": one.exact_rejection_probability(one.null),
    }
