"""Paper 003, Figure 3: the chapter's two cohorts split across the centres (the ACTG arm facts are the
figure's first checks), and ddI against ZDV, pooled and in one hospital.

Every other item of the chapter computes on the :class:`Cohorts` that :func:`cohorts` loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import networks, plotting
from dpnet import survival as sv
from dpnet.chapters.hypothesis_testing._common import forest
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check

__all__ = ["Cohorts", "Figure3", "cohorts", "cost", "figure3"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Loading the cohorts and three Cox fits: counted in the chapter's fixed seconds and memory."""
    return Cost()


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
    #: The data are the data set's: there is no paper setting to leave, and no deviation.
    paper_setting = True
    deviations = ()

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
    #: The checks on a published value are made only on the published split (``published=``).
    paper_setting = True

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

    def tables(self) -> dict[str, pd.DataFrame]:
        """No table: the fits are metrics."""
        return {}

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
            forest(self.pooled, "pooled"), forest(self.one, f"centre 1 of {self.split}", "C1"),
            forest(self.own, f"centre 1 of {self.n_centers}", "C2"),
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
