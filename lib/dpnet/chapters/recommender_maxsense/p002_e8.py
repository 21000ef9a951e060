"""Paper 002, experiment E8 (the book's): adaptive queries, Thm 6.1's recursion and its N log N growth,
Lemma 6.4 at the exact optimum of its proof's problem, and MaxSense at w = 1 against both lower bounds."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    EPS_REF,
    SMALL,
    ms_grid,
    ms_seconds,
    sweep_curves,
)
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E8: the budgets of panel (a), MaxSense's N at w = 1 (quick, full) and its sensing constant there.
E8_EPS = (0.1, 0.5, 1.0)
E8_N = {"quick": (26, 50), "full": (26, 50, 100)}
E8_THETA = 0.5
#: E8: Lemma 6.4's cases: item counts N (2^N values of Z enumerated), budgets, random draws of the f_i per
#: (N, ε), and the information δ.
E8_LEMMA64 = {"n": (10, 12), "eps": (0.5, 1.0, 2.0), "draws": 3, "delta": (0.01, 0.1, 1.0, 3.0, 10.0, 30.0)}
#: E8: the budgets at which the book reports where Thm 6.1's bound overtakes Thm 3.3's.
E8_OVERTAKE_EPS = (0.1, 0.5, 1.0)


def cost(values: Mapping[str, Any]) -> Cost:
    """E8's time: ``trials`` recoveries of MaxSense at the 15 points of its grid, at every N of ``E8_N``
    (the recursion is closed form). Its memory is negligible."""
    return Cost(seconds=sum(E4_GRID[2] * values["trials"] * ms_seconds(n) for n in E8_N[values["mode"]]))


@dataclass(frozen=True)
class Adaptive:
    """E8: Thm 6.1's recursion, its N log N growth, and MaxSense at w = 1 against both lower bounds."""

    n_w1: tuple[int, ...]
    u90: tuple[float, ...]
    growth: Mapping[int, float]
    lemma64: pd.DataFrame  # N, ε, draw, δ, the exact largest variance, Lemma 6.4's bound
    checks: Mapping[str, list[Check]]
    #: E8 has no paper setting to leave: its sizes are the book's.
    paper_setting = True

    @property
    def settings(self) -> list[rc.Setting]:
        """MaxSense at w = 1, θ = ``E8_THETA``, one per N."""
        return [rc.Setting("maxsense", rc.m_asym(n, 1), EPS_REF, theta=E8_THETA) for n in self.n_w1]

    @staticmethod
    def bounds_at(n: int, eps: float = EPS_REF) -> tuple[int, float]:
        """Thm 6.1's adaptive and Thm 4.10's non-adaptive lower bound at N (w = 1)."""
        return rc.adaptive_lower_bound(n, eps), float(rc.fano_users(n, rc.thm410_information(n, 1, eps)))

    @staticmethod
    def thm33_at(n: int, eps: float = EPS_REF) -> float:
        """Thm 3.3's lower bound at N, which holds for adaptive schemes too (Lemma 3.1)."""
        return float(rc.thm33_users(n, eps))

    @staticmethod
    def overtakes(eps: float) -> float:
        """The smallest N at which Thm 6.1's bound exceeds Thm 3.3's at ε (``inf``: none below 10³⁰)."""
        return rc.adaptive_overtakes(eps)

    @property
    def lemma64_ratio(self) -> float:
        """The largest exact variance over Lemma 6.4's bound, over every case."""
        t = self.lemma64
        return float((t["largest variance"] / t["Lemma 6.4 bound"]).max())

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Lemma 6.4's cases."""
        return {"p002-e8-lemma64": self.lemma64}

    def figure(self) -> Figure:
        """(a) T_LB C/N against N; (b) the adaptive and non-adaptive bounds and MaxSense at w = 1."""
        n_grid = np.geomspace(1e2, 1e6, 13)
        fig, axes = panel_row(2, width=3.9, height=3.6)
        for e, colour in zip(E8_EPS, ("C0", "C1", "C2"), strict=True):
            t = np.array([rc.adaptive_lower_bound(n, e) for n in n_grid])
            axes[0].semilogx(
                n_grid, t * rc.adaptive_constant(e) / n_grid, "o", color=colour, label=f"ε = {e}"
            )
        axes[0].semilogx(
            n_grid,
            rc.adaptive_lower_bound_asymptote(n_grid, 1.0) * rc.adaptive_constant(1.0) / n_grid,
            "k-",
            lw=0.8,
            label="1 + ln(N ln2 / 2)",
        )
        axes[0].set(xlabel="items N", ylabel="T_LB · C / N", title="(a) the recursion grows like N log N")
        axes[0].legend(fontsize=SMALL)
        fine = np.geomspace(20, 1e4, 40)
        axes[1].loglog(
            fine, [rc.adaptive_lower_bound(n, EPS_REF) for n in fine], "C0-", label="Thm 6.1 (adaptive)"
        )
        axes[1].loglog(
            fine,
            rc.fano_users(fine, rc.thm410_information(fine, 1, EPS_REF)),
            "C1--",
            label="Thm 4.10 (non-adaptive)",
        )
        axes[1].loglog(self.n_w1, self.u90, "ks", label="MaxSense U_90, θ = 1/2")
        axes[1].set(xlabel="items N", ylabel="users", title="(b) the open gap, ε = 1, w = 1")
        axes[1].legend(fontsize=SMALL)
        return fig


def adaptive(P: Parameters) -> Adaptive:
    """E8 (streams ``p002-e8`` and ``p002-e8/lemma64``): the recursion's growth over a decade at N = 10³, 10⁴,
    10⁵ (ε = 1); Lemma 6.4 on ``E8_LEMMA64``; MaxSense at w = 1, θ = ``E8_THETA``, for the N of ``E8_N``."""
    growth = {
        int(n): rc.adaptive_lower_bound(10 * n, EPS_REF) / (10 * rc.adaptive_lower_bound(n, EPS_REF))
        for n in (1e3, 1e4, 1e5)
    }
    lemma = _lemma64(P.rng("p002-e8/lemma64"))
    out = Adaptive(E8_N[P.mode], (), growth, lemma, {})
    grids = [ms_grid(s) for s in out.settings]
    _, u90 = sweep_curves(P, "p002-e8", out.settings, grids, P.trials, "MaxSense at w = 1")
    above = [(u, max(out.bounds_at(n))) for n, u in zip(out.n_w1, u90, strict=True)]
    checks = ref.adaptive_checks((lemma["largest variance"] / lemma["Lemma 6.4 bound"]).tolist(), above)
    return replace(out, u90=tuple(u90), checks={"p002-e8": checks})


def _lemma64(rng: np.random.Generator) -> pd.DataFrame:
    """Lemma 6.4 case by case: ``F = Σ_i f_i(Z_i)`` with every ``f_i(0), f_i(1)`` uniform on ``[e^{−ε}, e^ε]``
    (as in the proof), Z uniform on ``{0,1}^N``; the exact largest ``E(F − F̄)²`` under a divergence ``δ``
    from the uniform law, against ``Var⁰[F] max{20, 10δ}``."""
    rows = []
    for n in E8_LEMMA64["n"]:
        z = np.array(list(itertools.product((0, 1), repeat=n)))  # every value of Z
        for e in E8_LEMMA64["eps"]:
            for draw in range(E8_LEMMA64["draws"]):
                f = rng.uniform(math.exp(-e), math.exp(e), (n, 2))
                values = f[np.arange(n), z].sum(axis=1)
                variance0 = float(((f[:, 1] - f[:, 0]) ** 2).sum() / 4)
                rows += [{"N": n, "ε": e, "draw": draw, "δ": d,
                          "largest variance": rc.lemma64_variance(values, d),
                          "Lemma 6.4 bound": rc.lemma64_bound(variance0, d)}
                         for d in E8_LEMMA64["delta"]]  # fmt: skip
    return pd.DataFrame(rows)
