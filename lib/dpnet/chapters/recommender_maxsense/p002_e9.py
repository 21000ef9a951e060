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
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E9: the mean misclassified fraction compared with exact recovery, and the allowed gap to the
#: Gaussian ratio.
E9_ERROR, E9_TOLERANCE = 0.05, 0.25
#: E9: the columns of Thm A.5's bound (d = 0.05 N, p_max = 1/2), as the theorem prints it and as Cor A.4
#: gives it (Fano's +1 kept).
A5_PRINTED, A5 = "Thm A.5 bound, as printed", "Thm A.5 bound, from Cor A.4"


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
    def a5_margin(self) -> float:
        """The smallest U_90 over Thm A.5's bound (from Cor A.4), over the configurations with finite ε
        (``nan`` with none)."""
        ratio = (self.table["U_90 (exact)"] / self.table[A5]).dropna()
        return float(ratio.min()) if len(ratio) else math.nan

    @property
    def gaussian_gap(self) -> NDArray[np.float64]:
        """Measured over Gaussian ratio, per configuration."""
        return (self.table["ratio"] / self.table["Gaussian ratio"]).to_numpy()

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm A.5's bound as its Cor A.4 gives it."""
        return (("p002-e9", "Thm A.5's bound, with Cor A.4's Fano term kept", "note-rec-a5"),)

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
        ax.axvline(self.at_reference(A5), color="k", ls=":", label="Thm A.5 lower bound (from Cor A.4)")
        ax.set(xlabel="users U", title="MaxSense, N = 100, w = 10, ε = 1 (floor 10⁻⁴)")
        ax.legend(fontsize=SMALL)
        return fig


def distortion(e4: ScarceMaxSense) -> Distortion:
    """E9: from E4's curves, U at a mean misclassified fraction of ``E9_ERROR`` for every setting."""
    u5 = rc.thresholds(e4.curves, error=E9_ERROR)
    rows = []
    for s, u in zip(e4.unique, u5, strict=True):
        n = s.model.n_items
        finite = math.isfinite(s.eps)
        rows.append(
            {
                "N": n,
                "w": s.model.w,
                "ε": eps_label(s.eps),
                "U_90 (exact)": e4.u90[s],
                "U (mean error ≤ 5%)": u,
                "ratio": e4.u90[s] / u,
                "Gaussian ratio": rc.distortion_ratio(n),
                A5_PRINTED: rc.thmA5_users(n, s.eps, 2, 0.05 * n) if finite else math.nan,
                A5: rc.thmA5_users(n, s.eps, 2, 0.05 * n, from_cor_a4=True) if finite else math.nan,
            }
        )
    table = pd.DataFrame(rows)
    finite = table[np.isfinite(table[A5])]
    checks = ref.distortion_checks(
        (table["ratio"] / table["Gaussian ratio"]).tolist(),
        list(zip(finite["U_90 (exact)"], finite[A5], strict=True)),
        E9_TOLERANCE,
    )
    j = e4.unique.index(e4.reference_case)
    curve = e4.curves[e4.curves["setting"] == j][["U", "success", "error"]]
    return Distortion(table, curve, j, {"p002-e9": checks})
