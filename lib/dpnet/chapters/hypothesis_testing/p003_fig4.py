"""Paper 003, Figure 4: the four ACTG arms, pooled and in one hospital, and each treatment's log hazard
ratio against ZDV and (as published) against all the other arms."""

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
from dpnet.chapters.hypothesis_testing._common import fit_row, forest
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check

__all__ = ["Figure4", "cost", "figure4"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nine Cox fits on the loaded trial: counted in the chapter's fixed seconds and memory."""
    return Cost()


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
    #: The pairwise fits use the whole data set, whatever the parameters: no paper setting to leave.
    paper_setting = True

    @property
    def pairwise(self) -> dict[str, sv.LifelinesCox]:
        """Each treatment against ZDV, pooled."""
        return {arm: fits["pooled, vs ZDV"] for arm, fits in self.fits.items()}

    @property
    def table(self) -> pd.DataFrame:
        """One row per treatment and fit: log hazard ratio, 95 % interval, Wald p."""
        return pd.DataFrame(
            [fit_row(fit, arm=arm, fit=what) for arm, fits in self.fits.items() for what, fit in fits.items()]
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
        rows = [forest(fit, f"{arm}: {what}", f"C{j}")
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
    pairwise = {arm: f["pooled, vs ZDV"] for arm, f in fits.items()}
    checks = [
        *clinical.figure4_checks({arm: fit.coef for arm, fit in pairwise.items()}),
        clinical.figure4_interval_check({arm: fit.ci_high for arm, fit in pairwise.items()}),
    ]
    one = sv.cohort_centres(a.index.to_numpy(), H) == 1
    return Figure4(a, one, H, fits, {"p003-fig4": checks}, (("p003-fig4", *clinical.FIG4_DEVIATION),))
