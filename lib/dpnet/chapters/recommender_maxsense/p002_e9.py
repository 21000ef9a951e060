"""Paper 002, experiment E9 (the book's): distortion, the users at which MaxSense's mean misclassified
fraction falls to 5 %, read from E4's runs, against exact recovery."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import SMALL, eps_label
from dpnet.chapters.recommender_maxsense.p002_e4 import ScarceMaxSense
from dpnet.params import Cost
from dpnet.plotting import panel_row
from dpnet.results import Check

#: E9: the mean misclassified fraction compared with exact recovery, and the allowed gap to the
#: Gaussian ratio.
E9_ERROR, E9_TOLERANCE = 0.05, 0.25


def cost(values: Mapping[str, Any]) -> Cost:
    """E9's time and memory: negligible (it reads E4's curves; counted in the chapter's fixed seconds)."""
    return Cost()


@dataclass(frozen=True)
class Distortion:
    """E9: the users at which MaxSense's mean misclassified fraction falls to 5 %, against exact recovery."""

    table: pd.DataFrame
    reference_curve: pd.DataFrame  # U, success, error at the reference case
    reference_row: int
    checks: Mapping[str, list[Check]]
    #: E9 has no paper setting to leave: it reads E4's runs.
    paper_setting = True

    def at_reference(self, column: str) -> float:
        """A column of the table at the reference case."""
        return float(self.table[column].iloc[self.reference_row])

    @property
    def gaussian_gap(self) -> NDArray[np.float64]:
        """Measured over Gaussian ratio, per configuration."""
        return (self.table["ratio"] / self.table["Gaussian ratio"]).to_numpy()

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues what it reports."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every configuration of E4."""
        return {"p002-e9": self.table}

    def figure(self) -> Figure:
        """Mean misclassified fraction and P(not exact) against U at the reference case."""
        c = self.reference_curve
        fig, (ax,) = panel_row(1, width=5.4, height=3.8)
        ax.loglog(c["U"], c["error"].clip(lower=1e-4), "o-", label="mean misclassified fraction")
        ax.loglog(c["U"], (1 - c["success"]).clip(lower=1e-4), "s--", label="P(not exact)")
        ax.axhline(E9_ERROR, color="grey", lw=0.6)
        ax.axvline(
            self.at_reference("Thm A.5 bound (d = 0.05 N)"), color="k", ls=":", label="Thm A.5 lower bound"
        )
        ax.set(xlabel="users U", title="MaxSense, N = 100, w = 10, ε = 1 (floor 10⁻⁴)")
        ax.legend(fontsize=SMALL)
        return fig


def distortion(e4: ScarceMaxSense) -> Distortion:
    """E9: from E4's curves, U at a mean misclassified fraction of ``E9_ERROR`` for every setting."""
    u5 = rc.thresholds(e4.curves, error=E9_ERROR)
    rows = []
    for s, u in zip(e4.unique, u5, strict=True):
        n = s.model.n_items
        rows.append(
            {
                "N": n,
                "w": s.model.w,
                "ε": eps_label(s.eps),
                "U_90 (exact)": e4.u90[s],
                "U (mean error ≤ 5%)": u,
                "ratio": e4.u90[s] / u,
                "Gaussian ratio": rc.distortion_ratio(n),
                "Thm A.5 bound (d = 0.05 N)": rc.thmA5_users(n, s.eps, 2, 0.05 * n)
                if math.isfinite(s.eps)
                else math.nan,
            }
        )
    table = pd.DataFrame(rows)
    ok = table["ratio"] / table["Gaussian ratio"]
    check = Check(
        "U_90/U(mean error ≤ 5%) within ±25% of the Gaussian ratio, every configuration",
        bool(np.all(np.isfinite(ok)) and np.all(np.abs(ok - 1) <= E9_TOLERANCE)),
        f"measured/Gaussian {ok.min():.2f}–{ok.max():.2f}",
        "gaussian-ratio",
        "reference",
    )
    j = e4.unique.index(e4.reference_case)
    curve = e4.curves[e4.curves["setting"] == j][["U", "success", "error"]]
    return Distortion(table, curve, j, {"p002-e9": [check]})
