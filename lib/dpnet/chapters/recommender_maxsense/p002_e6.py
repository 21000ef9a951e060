"""Paper 002, experiment E6 (the book's): Multi-MaxSense, Q bits at ε/Q under three rules for Q across ε,
against its prediction; and (full mode) the per-user simulator of Fig. 3 against the independent-bits
model."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_EXACT_GRID,
    E4_GRID,
    N_REF,
    SMALL,
    ms_grid,
    ms_seconds,
    sweep_curves,
    undecided,
)
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E6: w of Multi-MaxSense and its budgets (quick, full); runs per point of the per-user comparison.
E6_W = 32
E6_EPS = {"quick": (1.0, 2.0, 8.0, 32.0), "full": (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)}
E6_PER_USER_CASES = ((4.0, 4), (8.0, 8))
E6_PER_USER_RUNS = 20
#: Measured on this 2-core machine (one core): one item of one user's chosen blocks, per-user
#: Multi-MaxSense simulator.
BLOCK_ITEM_SECONDS = 8e-8

#: E6: the rules that choose Q from ε.
Q_RULES: dict[str, Callable[[float], int]] = {
    "Q = 1 (MaxSense)": lambda e: 1,
    "Q = ⌈ε⌉ (Thm 5.3)": lambda e: math.ceil(e),
    "Q = round(ε/2.2)": lambda e: max(1, round(e / 2.2)),
}


def cost(values: Mapping[str, Any]) -> Cost:
    """E6's time: ``trials`` recoveries of the aggregate simulator at the 15 points of its grid, for every
    rule of ``Q_RULES`` at every ε of ``E6_EPS``; with ``exact_simulators``, the per-user runs,
    proportional to the items of the users' chosen blocks (``Q N/⌊w/θ⌋`` per user, over the grid's
    multiples of the predicted U_90, summed), at ``BLOCK_ITEM_SECONDS`` each. Its memory is negligible."""
    mode, trials = values["mode"], values["trials"]
    seconds = len(Q_RULES) * len(E6_EPS[mode]) * E4_GRID[2] * trials * ms_seconds(N_REF)
    if values["exact_simulators"]:
        model, blocks = rc.m_asym(N_REF, E6_W), math.floor(E6_W / values["theta"])
        items = sum(rc.predicted_u(model, e, n_bits=q) * q * N_REF / blocks for e, q in E6_PER_USER_CASES)
        seconds += E6_PER_USER_RUNS * items * float(np.geomspace(*E4_EXACT_GRID).sum()) * BLOCK_ITEM_SECONDS
    return Cost(seconds=seconds)


@dataclass(frozen=True)
class MultiMaxSense:
    """E6: Multi-MaxSense under three rules for Q across ε (N = 100, w = 32), against its prediction; and
    (full mode) the per-user simulator of Fig. 3 against the independent-bits model."""

    eps: tuple[float, ...]
    settings: Mapping[tuple[str, float], rc.Setting]  # (rule, ε)
    u90: Mapping[rc.Setting, float]
    theta: float
    per_user: pd.DataFrame | None
    checks: Mapping[str, list[Check]]
    #: E6 has no paper setting to leave: its sizes are the book's (its checks need θ = 1).
    paper_setting = True

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def predicted(self, s: rc.Setting) -> float:
        """The prediction: Q U users at ε/Q."""
        return s.predicted_u90()

    def users(self, rule: str, eps: float) -> float:
        """U_90 of a rule at ε."""
        return self.u90[self.settings[(rule, eps)]]

    @property
    def gain_32(self) -> float:
        """MaxSense's over Thm 5.3's U_90 at ε = 32 (``nan`` when not in the sweep)."""
        rule = "Q = ⌈ε⌉ (Thm 5.3)"
        return self.users("Q = 1 (MaxSense)", 32.0) / self.users(rule, 32.0) if 32.0 in self.eps else math.nan

    @property
    def ratio_2(self) -> float:
        """Thm 5.3's over MaxSense's U_90 at ε = 2 (``nan`` when not in the sweep)."""
        rule = "Q = ⌈ε⌉ (Thm 5.3)"
        return self.users(rule, 2.0) / self.users("Q = 1 (MaxSense)", 2.0) if 2.0 in self.eps else math.nan

    @property
    def first_gain(self) -> float:
        """The smallest ε of the grid at which Q = ⌈ε⌉ needs fewer users than MaxSense (``nan``: none)."""
        better = [
            e for e in self.eps if self.users("Q = ⌈ε⌉ (Thm 5.3)", e) < self.users("Q = 1 (MaxSense)", e)
        ]
        return min(better) if better else math.nan

    @staticmethod
    def per_bit_signal() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Budgets per bit ``x = ε/Q`` from 0.1 to 8, and the signal per unit of budget ``ε̂(x)²/x``."""
        grid = np.linspace(0.1, 8, 200)
        return grid, np.array([rc.eps_hat(x) ** 2 / x for x in grid])

    @property
    def best_per_bit(self) -> float:
        """The budget per bit at which the signal per unit of budget peaks (:meth:`per_bit_signal`)."""
        grid, signal = self.per_bit_signal()
        return float(grid[np.argmax(signal)])

    @property
    def table(self) -> pd.DataFrame:
        """One row per (rule, ε): Q, U_90, the prediction and their ratio."""
        return pd.DataFrame(
            [
                {
                    "rule": rule,
                    "ε": e,
                    "Q": s.n_bits,
                    "U_90": self.u90[s],
                    "prediction": self.predicted(s),
                    "measured/predicted": self.u90[s] / self.predicted(s),
                }
                for (rule, e), s in self.settings.items()
            ]
        )

    def per_user_ratio(self, eps: float) -> float:
        """Per-user over independent-bits U_90 at ε (``nan`` when not run)."""
        if self.per_user is None:
            return math.nan
        return float(self.per_user.loc[self.per_user["ε"] == eps, "per user / independent"].iloc[0])

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every (rule, ε), and the per-user comparison (full mode)."""
        out = {"p002-e6": self.table}
        return out if self.per_user is None else {**out, "p002-e6-per-user": self.per_user}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm 5.3's choice of Q."""
        title = "Thm 5.3's choice Q = ⌈ε⌉ is not optimal, and its ε̂ bound fails for ε < 2"
        return (("p002-e6", title, "note-rec-multi-q"),)

    def figure(self) -> Figure:
        """(a) U_90 of each rule against ε, with the predictions; (b) the signal per unit of budget."""
        fig, axes = panel_row(2, width=3.9, height=3.6)
        for rule, style in zip(Q_RULES, ("o-", "s-", "^-"), strict=True):
            axes[0].loglog(self.eps, [self.users(rule, e) for e in self.eps], style, label=rule)
            axes[0].loglog(
                self.eps, [self.predicted(self.settings[(rule, e)]) for e in self.eps], ":", color="grey"
            )
        axes[0].set(xlabel="ε", ylabel="U_90", title="(a) N = 100, w = 32 (dotted: prediction)")
        axes[0].legend(fontsize=SMALL)
        axes[1].plot(*self.per_bit_signal(), "-")
        axes[1].axvline(self.best_per_bit, color="grey", lw=0.6)
        axes[1].set(
            xlabel="budget per bit ε/Q", ylabel="ε̂(ε/Q)² / (ε/Q)", title="(b) signal per unit of budget"
        )
        return fig


def multi_maxsense(P: Parameters) -> MultiMaxSense:
    """E6 (stream ``p002-e6``; with ``exact_simulators`` also ``p002-e6/independent-bits`` and
    ``p002-e6/per-user``): every rule of ``Q_RULES`` at every ε of ``E6_EPS``, Q at most w/θ."""
    eps = E6_EPS[P.mode]
    model = rc.m_asym(N_REF, E6_W)
    settings = {
        (rule, e): rc.Setting(
            "multi-maxsense", model, e, theta=P.theta, n_bits=min(fn(e), int(E6_W / P.theta))
        )
        for rule, fn in Q_RULES.items()
        for e in eps
    }
    unique = list(dict.fromkeys(settings.values()))
    _, u90 = sweep_curves(
        P, "p002-e6", unique, [ms_grid(s) for s in unique], P.trials, "Multi-MaxSense across ε"
    )
    per_user = None
    if P.exact_simulators:
        fast = [rc.Setting("multi-maxsense", model, e, theta=P.theta, n_bits=q) for e, q in E6_PER_USER_CASES]
        grids = [ms_grid(s, E4_EXACT_GRID) for s in fast]
        _, u_fast = sweep_curves(
            P,
            "p002-e6/independent-bits",
            fast,
            grids,
            E6_PER_USER_RUNS,
            "Multi-MaxSense, independent-bits model",
        )
        _, u_exact = sweep_curves(
            P,
            "p002-e6/per-user",
            [s.but(simulator="subset") for s in fast],
            grids,
            E6_PER_USER_RUNS,
            "Multi-MaxSense, per user (Fig. 3)",
        )
        per_user = pd.DataFrame(
            {
                "ε": [e for e, _ in E6_PER_USER_CASES],
                "Q": [q for _, q in E6_PER_USER_CASES],
                "U_90 independent bits": u_fast,
                "U_90 per user (Fig. 3)": u_exact,
            }
        )
        per_user["per user / independent"] = (
            per_user["U_90 per user (Fig. 3)"] / per_user["U_90 independent bits"]
        )
    out = MultiMaxSense(tuple(eps), settings, dict(zip(unique, u90, strict=True)), P.theta, per_user, {})
    checks = ref.multi_checks(out.gain_32, out.ratio_2, list(out.table["measured/predicted"]))
    if not (32.0 in eps and 2.0 in eps and P.theta == 1.0):  # Q = 32 needs w/θ ≥ 32
        checks = undecided(checks, "undefined: needs ε = 2 and 32 and θ = 1")
    return replace(out, checks={"p002-e6": checks})
