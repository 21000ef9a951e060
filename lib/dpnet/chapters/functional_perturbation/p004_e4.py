"""Paper 004, the book's experiment E4: the case study, Algorithm 1 on the 2-D logistic regression
with q = 2, its error against ε and private decision boundaries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import stats

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation._common import (
    ErrorTask,
    cell_errors,
    error_row,
    run_2d_bytes,
    run_2d_seconds,
)
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check
from dpnet.sweep import sweep

__all__ = ["BOUNDARY_EPS", "EPS_2D", "SLOPE_WINDOW_2D", "CaseStudy", "case_study", "cost"]

#: The budgets of the case study (q = 2), its slope window, and the budgets of the drawn boundaries.
EPS_2D = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 1000.0)
SLOPE_WINDOW_2D = (1.0, 100.0)
BOUNDARY_EPS = (0.1, 1.0, 10.0)


def cost(values: Mapping[str, Any]) -> Cost:
    """E4's 2-D runs, ``runs_2d`` at each of the 8 budgets of ``EPS_2D``, each ``10⁻⁷·n·K₂³`` seconds
    (``K₂ = (M+1)(M+2)/2`` for ``M = degree_2d``), holding their basis on its grid, ``2200·K₂²``
    bytes (calibration: ``dpnet.chapters.functional_perturbation._common``)."""
    seconds = len(EPS_2D) * values["runs_2d"] * run_2d_seconds(values)
    return Cost(seconds=seconds, peak=run_2d_bytes(values))


@dataclass(frozen=True)
class CaseStudy:
    """E4: Algorithm 1 on the 2-D logistic problem with q = 2, for every ε of ``EPS_2D``."""

    problem: fp.Problem
    table: pd.DataFrame
    bias: float
    boundaries: Mapping[float, NDArray[np.float64]]
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E4 that a run could leave.
    paper_setting = True
    #: E4 records no deviation.
    deviations = ()

    @property
    def error(self) -> pd.Series:
        """Mean error by ε."""
        return self.table.set_index("eps")["mean_error"]

    @property
    def slope(self) -> float:
        """Fitted log-log slope of the mean error over ε ∈ [1, 100]."""
        return loglog_slope(self.table["eps"], self.table["mean_error"], *SLOPE_WINDOW_2D)

    @property
    def error_rows(self) -> list[dict[str, Any]]:
        """``error_vs_eps`` rows of the 2-D problem."""
        return self.table.to_dict("records")

    def metrics(self) -> dict[str, Any]:
        """The private optima behind the drawn decision boundaries."""
        return {"private_optima_2d": {f"{e:g}": x for e, x in self.boundaries.items()}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The 2-D trade-off table."""
        return {"fp-tradeoff-2d": self.table}

    def figure(self) -> Figure:
        """(a) error against ε with the linearised RMS and the truncation bias; (b) decision boundaries."""
        logit = self.problem
        fig, axes = panel_row(2, height=4.0)
        axes[0].loglog(EPS_2D, self.table["mean_error"], "o-", label="mean $|\\tilde x^* - x^*|$")
        axes[0].loglog(
            EPS_2D, [fp.linearised_rms(logit, e, 2.0) for e in EPS_2D], "--", label="linearised RMS"
        )
        axes[0].axhline(self.bias, color="grey", ls=":", label="truncation bias $|x^*_K - x^*|$")
        axes[0].set(xlabel="ε", ylabel="error", title=f"(a) logistic regression, q = 2, K = {logit.basis.K}")
        axes[0].legend(fontsize=SMALL)
        feats, labels = logit.data["features"].reshape(-1, 2), logit.data["labels"].ravel()
        axes[1].scatter(*feats[labels > 0].T, s=8, color="C0", label="b = +1")
        axes[1].scatter(*feats[labels < 0].T, s=8, color="C3", label="b = −1")
        line = np.linspace(0, 1, 2)
        # the true boundary wide and underneath, the private ones dashed on top: at ε ≥ 1 they lie on it
        axes[1].plot(line, -logit.x_star[0] * line / logit.x_star[1], "-", color="0.6", lw=5, zorder=1,
                     label="true boundary xᵀa = 0")  # fmt: skip
        styles = ((0, (6, 2)), (0, (3, 3)), (0, (1, 2)))
        for (e, x), colour, ls in zip(self.boundaries.items(), ("C1", "C2", "C4"), styles, strict=True):
            axes[1].plot(line, -x[0] * line / x[1], color=colour, ls=ls, lw=1.6, zorder=3,
                         label=f"private boundary, ε = {e:g}")  # fmt: skip
        axes[1].set(xlim=(0, 1), ylim=(0, 1), xlabel="$a_1$", ylabel="$a_2$", title="(b) decision boundaries")
        axes[1].legend(fontsize=SMALL)
        return fig


def case_study(P: Parameters, setup: Setup) -> CaseStudy:
    """E4 (streams ``p004-e4``, one child per ε, and ``p004-e4/boundaries``, one child per drawn ε)."""
    logit = setup.logistic
    tasks = [ErrorTask(2.0, e, P.runs_2d, logit) for e in EPS_2D]
    errors = sweep(cell_errors, tasks, P.stream("p004-e4"), key=lambda t: (EPS_2D.index(t.eps),),
                   desc="functional perturbation, 2-D")  # fmt: skip
    table = pd.DataFrame([error_row(logit, t.q, t.eps, err) for t, err in errors.items()])
    x_k = fp.poly_argmin(logit.basis, logit.coefficients.sum(0), logit.lower, logit.upper)
    bias = float(np.linalg.norm(x_k - logit.x_star))
    stream = P.stream("p004-e4/boundaries")
    boundaries = {
        e: fp.private_optimum(logit, e, 2.0, 1.0, stream.child(j).rng()) for j, e in enumerate(BOUNDARY_EPS)
    }
    error = table.set_index("eps")["mean_error"]
    spearman = float(stats.spearmanr(table["eps"], table["mean_error"])[0])
    checks = ref.case_study_checks(spearman, float(error[1.0]), float(error[10.0]))
    checks += ref.truncation_checks({"logistic": bias})
    return CaseStudy(logit, table, bias, boundaries, {"p004-e4": checks})
