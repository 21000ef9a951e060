"""Paper 003, Figure 14.3: the cancer cohort's Kaplan–Meier curves by TMB group, its Cox fits, and the
top-10 % group under each rule for the patients tied at the cut-off."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import plotting
from dpnet import survival as sv
from dpnet.chapters.hypothesis_testing._common import THETA_TMB, fit_row, forest
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check

__all__ = ["CancerCohort", "cancer_cohort", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Six Cox fits and a few likelihood gaps on the loaded cohort: counted in the chapter's fixed seconds
    and memory."""
    return Cost()


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
        Per tie rule, the top-10 % group (its size, the tied patients it takes, its gap) and the size of
        the top-20 % group.
    ties
        The facts of the cut-offs (``_tie_facts``): the cohort's size, each top group's intended size
        ``⌊fN⌋``, the TMB at its cut-off, how many patients share that value, and how many of those a row
        rule takes.
    reference_gap
        The reference top-10 % gap under eq. (3) (an independent computation; the paper prints none).
    """

    tmb: pd.DataFrame
    groups: pd.Series
    cohorts: Mapping[str, pd.DataFrame]
    one_hospital: NDArray[np.bool_]
    n_centers: int
    fits: Mapping[str, Mapping[str, sv.LifelinesCox]]
    gap: Mapping[str, float]
    tie_rules: pd.DataFrame
    ties: Mapping[str, float]
    reference_gap: float
    checks: Mapping[str, list[Check]]
    #: The checks on a published value are made only under the reference tie rule (``published=``).
    paper_setting = True
    deviations = ()

    @property
    def table(self) -> pd.DataFrame:
        """One row per covariate and place: log hazard ratio, 95 % interval, Wald p."""
        return pd.DataFrame([fit_row(fit, covariate=cov, fit=where)
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
            "tmb_reference_gap_top10": self.reference_gap,
            **{f"tmb_{key}": value for key, value in self.ties.items()},
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
        rows = [forest(fit, f"{cov}, {where}", "C0" if where == "pooled" else "C1")
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
    """For each tie rule, the top-10 % group's size, which tied patients it takes, and its gap; and the
    top-20 % group's size."""
    tied = sv.tied_at_cutoff(tmb["tmb"], 0.1)
    rows = []
    for rule in sv.TMB_TIE_RULES:
        cohort = sv.tmb_cohort(tmb, "top10", ties=rule)
        taken = ", ".join(str(i) for i in tied if cohort.x.iloc[i] == 1) or "none"
        top20 = int(sv.top_fraction(tmb["tmb"], 0.2, ties=rule).sum())
        rows.append({"rule": rule, "patients": int(cohort.x.sum()), "tied rows taken": taken,
                     "top-20 % group": top20, "Λ(log 0.15) − Λ(0)": _gap(cohort)})  # fmt: skip
    return pd.DataFrame(rows)


def _tie_facts(tmb: pd.DataFrame) -> dict[str, float]:
    """The cohort's size and, for the top 10 % and 20 %: the intended group size ``⌊fN⌋``, the TMB at the
    cut-off, the patients sharing it and how many of them the row rules take."""
    values = tmb["tmb"]
    out: dict[str, float] = {"patients": len(values)}
    for name, fraction in (("top10", 0.1), ("top20", 0.2)):
        k = int(fraction * len(values))
        tied = sv.tied_at_cutoff(values, fraction)
        inside = sv.top_fraction(values, fraction, ties="later_row_first")
        out |= {f"{name}_size": k, f"{name}_cut": float(np.sort(values.to_numpy())[::-1][k - 1]),
                f"{name}_tied": len(tied), f"{name}_tied_in": int(inside[tied].sum())}  # fmt: skip
    return out


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
    rules = _tie_rules(tmb)
    raw = fits["raw"]["pooled"]
    checks = clinical.tmb_checks(
        gap,
        raw.coef,
        raw.ci_high,
        dict(zip(rules.rule, rules["Λ(log 0.15) − Λ(0)"], strict=True)),
        published=P.is_paper("tmb_ties"),
    )
    groups = sv.tmb_groups(tmb, ties=P.tmb_ties)
    return CancerCohort(
        tmb, groups, cohorts, one, P.n_centers, fits, gap, rules, _tie_facts(tmb),
        clinical.TMB_LAMBDA_GAP["top10"], {"p003-fig14-3": checks},
    )  # fmt: skip
