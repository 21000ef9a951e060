"""Paper 003, the §5 tests: the simple and composite private tests of §4.2 on ACTG ddI against ZDV, their
p-values, and their size and power over the privacy budget."""

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
        """The tables written to ``tables/``: the tests' rows with their ``test`` column once (without
        ``table``'s index of the same labels), and the size and power curves."""
        return {"p003-sec5-tests": pd.DataFrame(self.rows), "ht-test-size-power": self.curve_table}

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
