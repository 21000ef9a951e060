"""Paper 002, experiment E4 (the book's): MaxSense in the information-scarce regime, on M-asym across
N, w and ε, against the Gaussian prediction and Thm 5.1's scale, with its transition at the reference case.

The cluster means it also checks are computed in
:mod:`~dpnet.chapters.recommender_maxsense.p002_e4_means`; the θ study and the exact simulator (E4b and
E4c) are :mod:`~dpnet.chapters.recommender_maxsense.p002_e4_theta`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    EPS_REF,
    N_REF,
    SMALL,
    W_REF,
    eps_label,
    ms_grid,
    ms_seconds,
    sweep_curves,
    undecided,
)
from dpnet.chapters.recommender_maxsense.p002_e4_means import cluster_means
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E4: the N, w and ε at which the collapse's range was fixed (the pilot's configurations: N = 400 and
#: ε = 0.25 are measured, not checked).
E4_COLLAPSE_CASES = {"N": (50, 100, 200), "w": (5, 10, 20), "eps": (0.5, 1.0, 2.0, 4.0, math.inf)}


#: E4's column: the proof of Thm 5.1's number of users (failure probability N^{−d} = 0.1) over U_90.
PROOF_COLUMN = "Thm 5.1 proof (N^-d = 0.1)/U_90"


def cost(values: Mapping[str, Any]) -> Cost:
    """E4's time: ``trials`` recoveries of MaxSense (aggregate simulator) at each of the 15 points of its
    grid, for every N of ``n_items`` (w = 10) and, at N = 100, every w of ``ratings_per_user``, every ε
    of ``eps_values`` and the reference case. Its transition (two points) and cluster means are counted
    in the chapter's fixed seconds; its memory is negligible."""
    n_items, trials = values["n_items"], values["trials"]
    settings = len(n_items) + len(values["ratings_per_user"]) + len(values["eps_values"]) + 1
    per_point = sum(ms_seconds(n) for n in n_items) + (settings - len(n_items)) * ms_seconds(N_REF)
    return Cost(seconds=E4_GRID[2] * trials * per_point)


@dataclass(frozen=True)
class ScarceMaxSense:
    """E4: MaxSense on M-asym across N, w and ε, against the Gaussian prediction and Thm 5.1's scale; the
    transition at the reference case; the closed-form cluster means against both simulators."""

    settings: Mapping[tuple[str, float], rc.Setting]  # ("N", n), ("w", w), ("eps", ε), ("reference", 0)
    reference_case: rc.Setting
    theta: float
    curves: pd.DataFrame
    u90: Mapping[rc.Setting, float]
    transition: pd.DataFrame  # U, success at 10⁵ and 1.2·10⁶ users
    means: Mapping[str, list[float]]  # "closed", "fast", "subset": per-cluster B/U
    checks: Mapping[str, list[Check]]
    #: E4 has no paper setting to leave: its sizes are the book's (its checks need θ = 1).
    paper_setting = True

    @property
    def subset_runs(self) -> int:
        """Runs of each simulator behind the cluster means."""
        return int(ref.MEANS_CASE["runs"])

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def predicted(self, s: rc.Setting) -> float:
        """The Gaussian prediction of a setting's U_90."""
        return s.predicted_u90()

    def scale(self, s: rc.Setting) -> float:
        """Thm 5.1's scale ``N² ln N/(w ε̂² δ²)``."""
        return rc.maxsense_scale(s.model, s.eps, self.theta)

    def _u(self, kind: str) -> tuple[list[float], list[float]]:
        keys = [k[1] for k in self.settings if k[0] == kind]
        return keys, [self.u90[self.settings[(kind, v)]] for v in keys]

    @property
    def slopes(self) -> dict[str, float]:
        """Fitted slopes of log U_90 in log N, log w and log ε̂ (ε ≤ 2; ``nan`` with fewer than two such ε)."""
        (ns, u_n), (ws, u_w) = self._u("N"), self._u("w")
        small = [e for e in (k[1] for k in self.settings if k[0] == "eps") if e <= 2]
        hat = [rc.eps_hat(e) for e in small]
        return {
            "N": loglog_slope(ns, u_n, min(ns), max(ns)),
            "w": loglog_slope(ws, u_w, min(ws), max(ws)),
            "eps_hat": loglog_slope(
                hat, [self.u90[self.settings[("eps", e)]] for e in small], min(hat), max(hat)
            )
            if len(small) >= 2
            else math.nan,
        }

    @property
    def predicted_slopes(self) -> dict[str, float]:
        """The same slopes of the Gaussian prediction, in N and w."""
        out = {}
        for kind in ("N", "w"):
            keys = [k[1] for k in self.settings if k[0] == kind]
            pred = [self.predicted(self.settings[(kind, v)]) for v in keys]
            out[kind] = loglog_slope(keys, pred, min(keys), max(keys))
        return out

    @property
    def over_lower_bound(self) -> NDArray[np.float64]:
        """U_90 of the N sweep over Thm 4.10's explicit lower bound (w = 10, ε = 1)."""
        ns, u_n = self._u("N")
        return np.array(
            [
                u / float(rc.fano_users(n, rc.thm410_information(n, W_REF, EPS_REF)))
                for n, u in zip(ns, u_n, strict=True)
            ]
        )

    @property
    def over_lower_bound_slope(self) -> float:
        """Slope in N of :attr:`over_lower_bound`."""
        ns, _ = self._u("N")
        return loglog_slope(ns, self.over_lower_bound, min(ns), max(ns))

    @property
    def slope_n_theory(self) -> float:
        """``2 + 1/ln N`` at the reference N: the slope in N of ``N² ln N``."""
        return 2 + 1 / math.log(N_REF)

    @property
    def table(self) -> pd.DataFrame:
        """One row per sweep point: U_90, its prediction, the collapse constant, Thm 5.1's proof constant."""
        return pd.DataFrame(
            [
                {
                    "sweep": k[0],
                    "N": s.model.n_items,
                    "w": s.model.w,
                    "ε": eps_label(s.eps),
                    "U_90": self.u90[s],
                    "Gaussian prediction": self.predicted(s),
                    "measured/predicted": self.u90[s] / self.predicted(s),
                    "U_90/scale": self.u90[s] / self.scale(s),
                    PROOF_COLUMN: self.proof_users(s) / self.u90[s],
                }
                for k, s in self.settings.items()
            ]
        )

    def proof_users(self, s: rc.Setting) -> float:
        """The proof of Thm 5.1's sufficient number of users for failure probability ``N^{−d} = 0.1``."""
        n = s.model.n_items
        d = math.log(1 / ref.THM51_FAILURE) / math.log(n)
        return rc.thm51_users(n, s.model.w, s.eps, rc.delta_min(s.model, self.theta), self.theta, d)

    @property
    def over_proof(self) -> dict[str, float]:
        """Measured U_90 over :meth:`proof_users`, per setting. A U_90 not reached on its grid counts as
        infinite when the grid went past the proof's number (the claim fails there), and is left out
        otherwise (the grid cannot tell)."""
        out = {}
        for j, s in enumerate(self.unique):
            key = f"N={s.model.n_items}, w={s.model.w}, ε={eps_label(s.eps)}"
            u, proof = self.u90[s], self.proof_users(s)
            if math.isnan(u):
                top = float(self.curves.loc[self.curves["setting"] == j, "U"].max())
                if top < proof:
                    continue
                u = math.inf
            out[key] = u / proof
        return out

    @property
    def proof_slip(self) -> float:
        """How many times more users a corrected proof of Thm 5.1 needs at the reference case: the gap
        between cluster means is half the proof's, times ``1 − θ/w`` (``note-rec-maxsense-means``)."""
        return 4 / (1 - self.theta / self.reference_case.model.w) ** 2

    @property
    def gap_ratio(self) -> float:
        """The exact w-subset simulator's between-cluster gap over the closed form's."""
        subset, closed = self.means["subset"], self.means["closed"]
        return (subset[0] - subset[1]) / (closed[0] - closed[1])

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """U_90 of every setting."""
        return {"p002-e4": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The proof's typos, fixed."""
        return (("p002-e4", "MaxSense's proof, typos fixed", "note-rec-maxsense-means"),)

    def figure(self) -> Figure:
        """(a) success against U over Thm 5.1's scale, with the prediction; (b) measured against predicted
        U_90; (c) U_90 against N, with the theorems."""
        fig, axes = panel_row(3, height=3.8)
        unique = self.unique
        for j, s in enumerate(unique):
            cell = self.curves[self.curves["setting"] == j]
            colour = plt.cm.viridis(j / len(unique))
            axes[0].plot(cell["U"] / self.scale(s), cell["success"], "o", ms=3, color=colour)
            fine = np.geomspace(cell["U"].min(), cell["U"].max(), 60)
            axes[0].plot(
                fine / self.scale(s),
                [rc.predicted_success(s.model, s.eps, u, self.theta) for u in fine],
                "-",
                lw=0.7,
                color=colour,
            )
        axes[0].set(
            xscale="log",
            xlabel="U / (N² ln N / (w ε̂² δ²))",
            ylabel="P(exact recovery)",
            title="(a) every setting; lines: prediction",
        )
        measured = np.array([self.u90[s] for s in unique])
        predicted = np.array([self.predicted(s) for s in unique])
        axes[1].loglog(predicted, measured, "o")
        lims = [
            min(predicted.min(), np.nanmin(measured)) / 1.5,
            max(predicted.max(), np.nanmax(measured)) * 1.5,
        ]
        axes[1].plot(lims, lims, "k--", lw=0.8)
        axes[1].set(
            xlabel="Gaussian prediction of U_90", ylabel="measured U_90", title="(b) measured vs predicted"
        )
        ns, u_n = self._u("N")
        delta = rc.delta_min(rc.m_asym(N_REF, W_REF), self.theta)
        fine = np.geomspace(min(ns), max(ns), 30)
        axes[2].loglog(ns, u_n, "o-", label="MaxSense U_90")
        axes[2].loglog(
            fine,
            [rc.thm51_users(n, W_REF, EPS_REF, delta, self.theta) for n in fine],
            "k:",
            label="Thm 5.1, proof constant",
        )
        axes[2].loglog(
            fine,
            rc.fano_users(fine, rc.thm410_information(fine, W_REF, EPS_REF)),
            "C1--",
            label="Thm 4.10 lower bound",
        )
        axes[2].loglog(
            fine,
            rc.fano_users(fine, rc.thm48_information(fine, W_REF, EPS_REF)),
            "C2--",
            label="Thm 4.8 lower bound",
        )
        axes[2].set(xlabel="items N", ylabel="users", title="(c) w = 10, ε = 1, against N")
        fixed_ticks(axes[2].xaxis, ns)
        axes[2].legend(fontsize=SMALL)
        return fig


def maxsense_scarce(P: Parameters) -> ScarceMaxSense:
    """E4 (streams ``p002-e4``, ``p002-e4/transition``, ``p002-e4/means-…``): MaxSense on M-asym (w = 10,
    ε = 1) for every N of ``n_items``, every w of ``ratings_per_user`` (N = 100) and every ε of
    ``eps_values``; the reference case at 10⁵ and 1.2·10⁶ users; the cluster means of the test case."""
    theta = P.theta
    settings: dict[tuple[str, float], rc.Setting] = {}
    for n in P.n_items:
        settings[("N", n)] = rc.Setting("maxsense", rc.m_asym(n, W_REF), EPS_REF, theta=theta)
    for w in P.ratings_per_user:
        settings[("w", w)] = rc.Setting("maxsense", rc.m_asym(N_REF, w), EPS_REF, theta=theta)
    for eps in P.eps_values:
        settings[("eps", eps)] = rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), eps, theta=theta)
    reference_case = rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), EPS_REF, theta=theta)
    if reference_case not in settings.values():
        settings[("reference", 0)] = reference_case
    unique = list(dict.fromkeys(settings.values()))
    curves, u90 = sweep_curves(
        P, "p002-e4", unique, [ms_grid(s) for s in unique], P.trials, "MaxSense, scarce regime"
    )
    low, high = ref.MAXSENSE_TRANSITION["low_users"], ref.MAXSENSE_TRANSITION["high_users"]
    edge, _ = sweep_curves(
        P, "p002-e4/transition", [reference_case], [[low, high]], P.trials, "MaxSense transition"
    )
    means = cluster_means(P)
    out = ScarceMaxSense(
        settings,
        reference_case,
        theta,
        curves,
        dict(zip(unique, u90, strict=True)),
        edge,
        means,
        {},
    )
    return replace(out, checks={"p002-e4": _scarce_checks(out) + ref.sufficient_checks(out.over_proof)})


def _scarce_checks(e4: ScarceMaxSense) -> list[Check]:
    """The collapse and slopes, the transition, and the means: their ranges hold at θ = 1 only."""
    ref_case = e4.reference_case
    constants = {
        f"N={m.model.n_items}, w={m.model.w}, ε={eps_label(m.eps)}": e4.u90[m] / e4.scale(m)
        for m in e4.unique
        if m.model.n_items in E4_COLLAPSE_CASES["N"]
        and m.model.w in E4_COLLAPSE_CASES["w"]
        and m.eps in E4_COLLAPSE_CASES["eps"]
    }
    checks = ref.collapse_checks(constants, e4.slopes)
    success = e4.transition["success"]
    checks += ref.transition_checks(
        float(success.iloc[0]), float(success.iloc[1]), e4.u90[ref_case], e4.predicted(ref_case)
    )
    m = e4.means
    checks += ref.means_checks(m["fast"], m["subset"], m["closed"])
    return checks if e4.theta == 1.0 else undecided(checks, "undefined: the ranges hold at θ = 1")
