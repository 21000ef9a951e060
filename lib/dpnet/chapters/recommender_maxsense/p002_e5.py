"""Paper 002, experiment E5 (the book's): rich against scarce, both algorithms across w on M-asym,
Pairwise-Preference's exponent in N/w on M-sym, and MaxSense on M-sym, where it cannot separate the
clusters."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    EPS_REF,
    MATRIX_ENTRY_BYTES,
    N_REF,
    SMALL,
    W_REF,
    Refined,
    eps_label,
    ms_grid,
    ms_seconds,
    pp_seconds,
    refined_curves,
    refined_points,
    sweep_curves,
)
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E5: the w of the crossover, its user cap, the w of the exponent fit (quick, full) and its (ε, sketch).
E5_W = (5, 10, 25, 50, 100)
E5_CAP = 1e7
#: E5: Pairwise-Preference's users across w (up to the cap), and in the exponent fit.
E5_PP_GRID: Refined = (1e3, E5_CAP, {"quick": (3, 4), "full": (5, 4)})
E5_EXPONENT_GRID: Refined = (3e2, 3e7, {"quick": (3, 4), "full": (6, 4)})
E5_W_EXPONENT = {"quick": (100, 35), "full": (100, 71, 50, 35)}
E5_COMBOS = ((math.inf, "agree_rated"), (math.inf, "agree"), (EPS_REF, "agree_rated"), (EPS_REF, "agree"))


def cost(values: Mapping[str, Any]) -> Cost:
    """E5's time and memory: ``pp_trials`` recoveries of Pairwise-Preference (N = 100) at each point of its
    adaptive curves, at every w of ``E5_W`` and at every (w, ε, sketch) of the exponent fit; ``trials``
    recoveries of MaxSense at the 15 points of its grid at every w, and at the 5 points on M-sym. Each
    Pairwise-Preference recovery holds its ``N × N`` matrix."""
    mode, pp_trials, trials = values["mode"], values["pp_trials"], values["trials"]
    w_exponent = len(E5_W_EXPONENT[mode])
    pairwise = len(E5_W) * refined_points(E5_PP_GRID, mode)
    pairwise += len(E5_COMBOS) * w_exponent * refined_points(E5_EXPONENT_GRID, mode)
    maxsense = (len(E5_W) * E4_GRID[2] + 5) * trials
    seconds = pp_trials * pp_seconds(N_REF) * pairwise + maxsense * ms_seconds(N_REF)
    return Cost(seconds=seconds, peak=MATRIX_ENTRY_BYTES * N_REF**2)


@dataclass(frozen=True)
class RichVsScarce:
    """E5: both algorithms across w on M-asym; Pairwise-Preference's exponent in N/w on M-sym, by sketch and
    privacy; MaxSense on M-sym, where it cannot separate the clusters."""

    w: tuple[int, ...]
    pp_u90: tuple[float, ...]
    ms_u90: tuple[float, ...]
    ms_predicted: tuple[float, ...]
    w_exponent: tuple[int, ...]
    combos: tuple[tuple[float, str], ...]  # (ε, sketch)
    exponent_u90: NDArray[np.float64]  # (combos, w_exponent)
    symmetric: pd.DataFrame  # U, success, error of MaxSense on M-sym
    theta: float
    checks: Mapping[str, list[Check]]
    #: E5 has no paper setting to leave: its sizes are the book's (its crossover checks need θ = 1).
    paper_setting = True

    def at(self, w: int) -> tuple[float, float]:
        """(Pairwise-Preference's, MaxSense's) U_90 at ``w``."""
        k = self.w.index(w)
        return self.pp_u90[k], self.ms_u90[k]

    @property
    def full_ratio(self) -> float:
        """PP's over MaxSense's U_90 at w = N."""
        pp, ms = self.at(N_REF)
        return pp / ms

    @property
    def quarter_ratio(self) -> float:
        """MaxSense's over PP's U_90 at w = N/4."""
        pp, ms = self.at(N_REF // 4)
        return ms / pp

    @property
    def exponents(self) -> dict[tuple[float, str], float]:
        """PP's slope of log U_90 in log(N/w), per (ε, sketch) (``nan`` with fewer than two finite U_90)."""
        ratio = N_REF / np.asarray(self.w_exponent)
        out = {}
        for combo, row in zip(self.combos, self.exponent_u90, strict=True):
            ok = np.isfinite(row)
            out[combo] = loglog_slope(ratio[ok], row[ok], 1, 10) if ok.sum() >= 2 else math.nan
        return out

    @property
    def named_exponents(self) -> dict[str, float]:
        """:attr:`exponents` by short names: ``inf_rated``, ``inf_agree``, ``1_rated``, ``1_agree``."""
        short = {"agree_rated": "rated", "agree": "agree"}
        return {
            f"{'inf' if math.isinf(e) else f'{e:g}'}_{short[k]}": s for (e, k), s in self.exponents.items()
        }

    @property
    def symmetric_users(self) -> float:
        """The number of users at which MaxSense's success on M-sym is checked."""
        return float(ref.SYMMETRIC_USERS)

    @property
    def symmetric_success(self) -> float:
        """MaxSense's success on M-sym at the checked number of users."""
        s = self.symmetric
        return float(s.loc[s["U"] == int(ref.SYMMETRIC_USERS), "success"].iloc[0])

    @property
    def table(self) -> pd.DataFrame:
        """U_90 of both algorithms across w, and their ratio."""
        t = pd.DataFrame({"w": self.w, "Pairwise-Preference U_90": self.pp_u90, "MaxSense U_90": self.ms_u90})
        t["PP/MaxSense"] = t["Pairwise-Preference U_90"] / t["MaxSense U_90"]
        return t

    @property
    def settings(self) -> dict[str, list[rc.Setting]]:
        """The settings of the crossover (``"pairwise"``, ``"maxsense"``) and of the exponent fit."""
        return _e5_settings(self.w, self.w_exponent, self.combos, self.theta)

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The crossover."""
        return {"p002-e5": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """MaxSense's failure on symmetric models."""
        return (("p002-e5", "MaxSense needs δ_min > 0: it fails on symmetric models", "note-rec-delta-min"),)

    def figure(self) -> Figure:
        """(a) the crossover; (b) PP's exponent in N/w; (c) MaxSense on M-sym."""
        fig, axes = panel_row(3, height=3.8)
        axes[0].loglog(
            self.w, np.where(np.isfinite(self.pp_u90), self.pp_u90, np.nan), "o-", label="Pairwise-Preference"
        )
        axes[0].loglog(self.w, self.ms_u90, "s-", label="MaxSense")
        axes[0].loglog(self.w, self.ms_predicted, "k:", label="MaxSense, prediction")
        axes[0].axhline(E5_CAP, color="grey", lw=0.6)
        axes[0].set(xlabel="ratings per user w", ylabel="U_90", title="(a) M-asym, N = 100, ε = 1")
        axes[0].legend(fontsize=SMALL)
        ratio = N_REF / np.asarray(self.w_exponent)
        slopes = self.exponents
        for (e, k), row, style in zip(
            self.combos, self.exponent_u90, ("o-", "s-", "o--", "s--"), strict=True
        ):
            axes[1].loglog(ratio, row, style, label=f"{k}, ε = {eps_label(e)}: {slopes[(e, k)]:.2f}")
        axes[1].set(xlabel="N / w", ylabel="U_90", title="(b) PP's slope in N/w (M-sym)")
        fixed_ticks(axes[1].xaxis, np.round(ratio, 2))
        axes[1].legend(fontsize=SMALL)
        s = self.symmetric
        axes[2].semilogx(s["U"], s["success"], "o-", label="P(exact recovery)")
        axes[2].semilogx(s["U"], s["error"], "s--", label="misclassified fraction")
        axes[2].set(xlabel="users U", ylim=(-0.03, 1.03), title="(c) MaxSense on M-sym, ε = ∞")
        axes[2].legend(fontsize=SMALL)
        return fig


def _e5_settings(
    w: Sequence[int], w_exponent: Sequence[int], combos: Sequence[tuple[float, str]], theta: float
) -> dict[str, list[rc.Setting]]:
    """Both algorithms on M-asym at every ``w`` (N = 100, ε = 1), and PP on M-sym at every (ε, sketch) of
    ``combos`` and every ``w`` of ``w_exponent``."""
    return {
        "pairwise": [rc.Setting("pairwise", rc.m_asym(N_REF, k), EPS_REF) for k in w],
        "maxsense": [rc.Setting("maxsense", rc.m_asym(N_REF, k), EPS_REF, theta=theta) for k in w],
        "exponent": [
            rc.Setting("pairwise", rc.m_sym(N_REF, k), e, sketch=sketch)
            for e, sketch in combos
            for k in w_exponent
        ],
    }


def rich_vs_scarce(P: Parameters) -> RichVsScarce:
    """E5 (streams ``p002-e5/…``): both algorithms at every w of ``E5_W`` (PP up to ``E5_CAP``
    users); PP on M-sym at the w of ``E5_W_EXPONENT``, two sketches, ε = ∞ and 1; MaxSense on M-sym."""
    w_exp = E5_W_EXPONENT[P.mode]
    settings = _e5_settings(E5_W, w_exp, E5_COMBOS, P.theta)
    pp, ms, exp_settings = settings["pairwise"], settings["maxsense"], settings["exponent"]
    pp_range = [E5_PP_GRID[:2]] * len(pp)
    _, pp_u = refined_curves(P, "p002-e5/pairwise", pp, pp_range, E5_PP_GRID, "PP across w")
    _, ms_u = sweep_curves(P, "p002-e5/maxsense", ms, [ms_grid(s) for s in ms], P.trials, "MaxSense across w")
    exp_range = [E5_EXPONENT_GRID[:2]] * len(exp_settings)
    _, exp_u = refined_curves(
        P, "p002-e5/exponent", exp_settings, exp_range, E5_EXPONENT_GRID, "PP exponent in N/w"
    )
    sym = rc.Setting("maxsense", rc.m_sym(N_REF, W_REF), math.inf, theta=P.theta)
    sym_grid = [1e4, 1e5, 1e6, ref.SYMMETRIC_USERS, 1e7]
    sym_curve, _ = sweep_curves(P, "p002-e5/symmetric", [sym], [sym_grid], P.trials, "MaxSense on M-sym")
    ms_pred = tuple(s.predicted_u90() for s in ms)
    out = RichVsScarce(
        tuple(E5_W),
        tuple(pp_u),
        tuple(ms_u),
        ms_pred,
        tuple(w_exp),
        E5_COMBOS,
        np.asarray(exp_u).reshape(len(E5_COMBOS), len(w_exp)),
        sym_curve[["U", "success", "error"]],
        P.theta,
        {},
    )
    (pp_full, ms_full), (pp_q, ms_q) = out.at(N_REF), out.at(N_REF // 4)
    scarce = [(w, *out.at(w)) for w in out.w if w <= N_REF // 10]
    cross = ref.crossover_checks(pp_full, ms_full, pp_q, ms_q, scarce, E5_CAP)
    slopes = out.exponents
    checks = cross + ref.pp_exponent_checks(
        slopes[(math.inf, "agree_rated")], {k: slopes[(EPS_REF, k)] for k in ("agree_rated", "agree")}
    )
    checks += ref.symmetric_checks(out.symmetric_success)
    return replace(out, checks={"p002-e5": checks})
