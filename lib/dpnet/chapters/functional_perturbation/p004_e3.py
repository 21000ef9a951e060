"""Paper 004, the book's experiment E3: the privacy–accuracy trade-off of Algorithm 1 on the 1-D
quadratics, for every (q, ε) of the run."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import stats

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation._common import ErrorTask, cell_errors, error_row
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check
from dpnet.sweep import sweep

__all__ = ["BOUND_SLOPE_1D", "LINEAR_DRAWS_PER_RUN", "LINEAR_REGIME_RUNS", "Tradeoff", "cost", "tradeoff"]

#: The exponent of the worst-case accuracy bound in 1-D, −2/(d + 4) (note-fp-accuracy-bound); the study of
#: the largest ε draws this many times ``runs`` per q, and compares the RMS ratio only with at least
#: ``LINEAR_REGIME_RUNS`` draws (400 at the full defaults: the ratio's Monte Carlo error is then about
#: 4 %, against 8 % at 100 draws; note-fp-tolerances).
BOUND_SLOPE_1D = -2 / 5
LINEAR_DRAWS_PER_RUN = 4
LINEAR_REGIME_RUNS = 400

#: Measured seconds of one 1-D run on this 2-core machine (one core): a fixed part, per n·K and per
#: K² (see :func:`cost`).
_RUN_1D_SECONDS = (5e-4, 3e-5, 1.85e-5)


def cost(values: Mapping[str, Any]) -> Cost:
    """E3's runs: ``Q·(E + 4)·runs·(5·10⁻⁴ + 3·10⁻⁵·n·K + 1.85·10⁻⁵·K²)`` seconds, with ``n = n_agents``,
    ``K = basis_order``, ``Q = len(q)``, ``E = len(eps_values)`` (the 4 is the study of the largest ε,
    ``LINEAR_DRAWS_PER_RUN·runs`` draws per q).

    Calibrated on this 2-core machine, one core, on the library calls, averaged over E3's grid of
    (q, ε): a 1-D run took 9.8 ms at n = 10, K = 20, 28 ms at n = 40 and 84 ms at K = 60 (the fit errs
    high at the defaults).
    """
    n, K = values["n_agents"], values["basis_order"]
    runs_1d = len(values["q"]) * (len(values["eps_values"]) + LINEAR_DRAWS_PER_RUN) * values["runs"]
    fixed, per_nk, per_k2 = _RUN_1D_SECONDS
    return Cost(seconds=runs_1d * (fixed + per_nk * n * K + per_k2 * K**2))


@dataclass(frozen=True)
class Tradeoff:
    """E3: the error of Algorithm 1 on the 1-D quadratics for every (q, ε) of the run.

    Attributes
    ----------
    table
        One row per (q, ε): mean and RMS error, 10 % and 90 % quantiles, the linearised RMS.
    slopes
        Per q, the fitted log-log slope of the mean error over ε ∈ [10, 1000] (``nan`` when fewer than two
        ε of the grid lie there).
    diameter
        diam(X), the largest possible error.
    activity
        The study of the largest ε of the grid: one row per q, with its draws, the RMS over the
        linearised RMS, the share of the agents' perturbed functions the projection moves, and the share
        of those whose largest violation of S lies within 0.1 of an end of D (empty when no ε of the grid
        is at least 1000).
    """

    q_values: tuple[float, ...]
    eps: NDArray[np.float64]
    table: pd.DataFrame
    slopes: Mapping[float, float]
    diameter: float
    activity: pd.DataFrame
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E3 that a run could leave.
    paper_setting = True

    @property
    def worst_over_diameter(self) -> float:
        """The largest mean error over diam(X)."""
        return float(np.max(self.table["mean_error"].to_numpy()) / self.diameter)

    @property
    def slope_range(self) -> tuple[float, float]:
        """The smallest and largest fitted slope (``nan`` when no slope is defined)."""
        fitted = [s for s in self.slopes.values() if math.isfinite(s)]
        return (min(fitted), max(fitted)) if fitted else (math.nan, math.nan)

    @property
    def mean_errors(self) -> pd.DataFrame:
        """Mean error, one row per ε and one column per q."""
        return self.table.pivot(index="eps", columns="q", values="mean_error")

    @property
    def slope_table(self) -> pd.DataFrame:
        """The fitted slope per q, beside the bound's exponent and the linearised law's."""
        return pd.DataFrame({
            "q": list(self.slopes), "fitted slope, ε ∈ [10, 1000]": list(self.slopes.values()),
            "bound's exponent −2/(d+4)": BOUND_SLOPE_1D, "linearised law": -1.0,
        })  # fmt: skip

    @property
    def error_rows(self) -> list[dict[str, Any]]:
        """``error_vs_eps`` rows of the 1-D problem."""
        return self.table[["problem", "q", "eps", "mean_error", "rms_error"]].to_dict("records")

    @property
    def slope_rows(self) -> list[dict[str, Any]]:
        """``fitted_slope`` rows of the 1-D problem."""
        return [{"problem": "quadratic", "q": q, "slope": s} for q, s in self.slopes.items()]

    def metrics(self) -> dict[str, Any]:
        """None of its own: the summary (:mod:`~dpnet.chapters.functional_perturbation.summary`) records
        its rows."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The trade-off table and the study of the largest ε."""
        return {"fp-tradeoff-1d": self.table, "fp-largest-eps": self.activity}

    def moved(self, q: float) -> float:
        """At the largest ε of the study, the share of agents' perturbed functions the projection moves
        (``nan`` when the study did not run or has no such q)."""
        row = self.activity[self.activity["q"] == q]
        return float(row["moved"].iloc[0]) if len(row) else math.nan

    @property
    def moved_at_end(self) -> float:
        """The smallest share, over q, of the moved functions whose worst violation lies near an end of D."""
        shares = self.activity["at_end"].dropna()
        return float(shares.min()) if len(shares) else math.nan

    @property
    def ratio_range(self) -> tuple[float, float]:
        """Smallest and largest RMS over linearised RMS at q = 4 and 1 ≤ ε < 1000 (``nan`` when none)."""
        cell = self.table[(self.table["q"] == 4.0) & (self.table["eps"] >= 1) & (self.table["eps"] < 1000)]
        r = (cell["rms_error"] / cell["linearised_rms"]).to_numpy()
        return (float(r.min()), float(r.max())) if r.size else (math.nan, math.nan)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The accuracy bound's κ is the book's derivation."""
        return (("p004-e3", "The accuracy bound's κ is derived, not the paper's", "note-fp-accuracy-bound"),)

    def figure(self) -> Figure:
        """(a) mean error with its 10–90 % band and the linearised RMS; (b) RMS over the linearised RMS."""
        fig, axes = panel_row(2, height=4.0)
        for j, q in enumerate(self.q_values):
            colour = plt.cm.viridis(j / max(len(self.q_values) - 1, 1))
            cell = self.table[self.table["q"] == q]
            axes[0].loglog(cell["eps"], cell["mean_error"], "o-", color=colour, label=f"q = {q:g}: mean")
            axes[0].fill_between(cell["eps"], cell["q10"], cell["q90"], color=colour, alpha=0.15)
            axes[0].loglog(cell["eps"], cell["linearised_rms"], "--", color=colour, lw=0.8)
            axes[1].semilogx(cell["eps"], cell["rms_error"] / cell["linearised_rms"], "o-", color=colour,
                             label=f"q = {q:g}")  # fmt: skip
            top = self.activity[self.activity["q"] == q]
            axes[1].semilogx(top["eps"], top["ratio"], "D", mfc="none", color=colour, ms=8)
        if len(self.activity):
            axes[1].plot([], [], "kD", mfc="none", label=f"{int(self.activity['draws'].iloc[0])} more draws")
        guide = self.table["mean_error"].max() * (self.eps / self.eps[0]) ** BOUND_SLOPE_1D
        axes[0].loglog(self.eps, guide, "k:", label="the bound's exponent −2/(d+4), shape only")
        axes[0].axhline(self.diameter, color="grey", lw=0.6, label="diam(X)")
        axes[0].set(xlabel="ε", ylabel="$|\\tilde x^* - x^*|$",
                    title="(a) 1-D quadratics: mean,\n10–90 % band, linearised RMS")  # fmt: skip
        axes[0].legend(fontsize=SMALL)
        axes[1].axhline(1, color="k", lw=0.6)
        axes[1].set(xlabel="ε", ylabel="RMS / linearised RMS",
                    title="(b) the projection denoises\nat small ε")  # fmt: skip
        axes[1].legend(fontsize=SMALL)
        return fig


def tradeoff(P: Parameters, setup: Setup) -> Tradeoff:
    """E3 (stream ``p004-e3``, one child per (q, ε) named by their positions in ``q`` and ``eps_values``)."""
    quad, q_values, eps = setup.quadratic, tuple(P.q), np.array(P.eps_values)
    tasks = [ErrorTask(q, float(e), P.runs, quad) for q in q_values for e in eps]
    position = {(q, float(e)): (i, j) for i, q in enumerate(q_values) for j, e in enumerate(eps)}
    errors = sweep(cell_errors, tasks, P.stream("p004-e3"), key=lambda t: position[(t.q, t.eps)],
                   desc="functional perturbation, 1-D")  # fmt: skip
    rows = [
        {**error_row(quad, t.q, t.eps, err), "q10": float(np.quantile(err, 0.1)),
         "q90": float(np.quantile(err, 0.9)), "linearised_rms": fp.linearised_rms(quad, t.eps, t.q)}
        for t, err in errors.items()
    ]  # fmt: skip
    table = pd.DataFrame(rows)
    lo, hi = ref.SLOPE_WINDOW
    in_window = np.sum((eps >= lo) & (eps <= hi))
    slopes, spearman = {}, {}
    for q in q_values:
        cell = table[table["q"] == q]
        slopes[q] = loglog_slope(cell["eps"], cell["mean_error"], lo, hi) if in_window >= 2 else math.nan
        spearman[q] = float(stats.spearmanr(cell["eps"], cell["mean_error"])[0])
    activity = _largest_eps(quad, q_values, eps, LINEAR_DRAWS_PER_RUN * P.runs, P.rng("p004-e3/largest-eps"))
    checks = ref.tradeoff_checks(spearman, slopes, BOUND_SLOPE_1D, *_tradeoff_inputs(table, activity))
    return Tradeoff(q_values, eps, table, slopes, quad.diameter, activity, {"p004-e3": checks})


def _largest_eps(
    quad: fp.Problem, q_values: tuple[float, ...], eps: NDArray, draws: int, rng: np.random.Generator
) -> pd.DataFrame:
    """Algorithm 1 at the largest ε of the grid (if at least ``ref.LINEAR_REGIME_EPS``), ``draws`` times per
    q: the RMS ratio with more draws than a cell, and where the projection acts."""
    top = float(np.max(eps))
    rows = []
    for q in q_values if top >= ref.LINEAR_REGIME_EPS else ():
        out = fp.projection_activity(quad, q, top, draws, rng)
        moved = out["moved"]
        rows.append({
            "q": q, "eps": top, "draws": draws,
            "ratio": float(np.sqrt(np.mean(out["error"] ** 2)) / fp.linearised_rms(quad, top, q)),
            "moved": float(moved.mean()),
            "at_end": float(out["at_end"][moved].mean()) if moved.any() else math.nan,
        })  # fmt: skip
    return pd.DataFrame(rows, columns=["q", "eps", "draws", "ratio", "moved", "at_end"])


def _tradeoff_inputs(
    table: pd.DataFrame, activity: pd.DataFrame
) -> tuple[dict[tuple[float, float], float], dict[float, float], float]:
    """The RMS ratios compared, the mean errors at ε = 10 by q, and the smallest mean error at ε = 0.1.

    The ratios are those of every cell of the denoising claim (q ≤ 2, ε ≤ 10) and, at the largest ε, those
    of the study with at least :data:`LINEAR_REGIME_RUNS` draws: an RMS of heavy-tailed errors has a
    Monte Carlo standard error of about 1/√(2·draws) (note-fp-tolerances).
    """
    low = table[(table["q"] <= ref.DENOISING_Q_MAX) & (table["eps"] <= ref.DENOISING_EPS_MAX)]
    ratios = {(float(r.q), float(r.eps)): float(r.rms_error / r.linearised_rms) for r in low.itertuples()}
    ratios |= {(float(r.q), float(r.eps)): float(r.ratio) for r in activity.itertuples()
               if r.draws >= LINEAR_REGIME_RUNS}  # fmt: skip
    at_10 = table[table["eps"] == ref.ORDER_EPS].set_index("q")["mean_error"]
    at_smallest = table[table["eps"] == ref.SATURATION_EPS]["mean_error"]
    smallest = float(at_smallest.min()) if len(at_smallest) else math.nan
    return ratios, {float(q): float(e) for q, e in at_10.items()}, smallest
