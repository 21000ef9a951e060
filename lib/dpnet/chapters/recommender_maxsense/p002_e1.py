"""Paper 002, experiment E1 (the book's): the explicit lower bounds of Thms 3.3, A.5, 4.8 and 4.10
against N and w, their slopes, and the per-user information bounds of Thms 4.8 and 4.10 against the exact
information of random ε-private sketches on small instances (with Lemma C.7's step of the proof of 4.10)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import SMALL, loglog_axes
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.recommender import exact
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E1: the budget, the N grid, the w of the curves, the N of the w panel and its w grid, and the fit windows.
E1_EPS = 0.5
E1_N = (1e2, 1e5, 31)
E1_W = (1, 2, 5, 10)
E1_N_W, E1_W_MAX = 10_000, 30
E1_TABLE = ((1000, 1), (1000, 5), (10_000, 2), (10_000, 10))
#: E1: the small instances (N, w) and budgets at which random ε-private sketches are enumerated, and the
#: random queries per instance and budget (each with a random density, plus one guess-vector query).
E1_EXACT = ((10, 1), (8, 2), (10, 2), (8, 3))
E1_EXACT_EPS = (0.25, 0.5, 1.0, 2.0)
E1_QUERIES = 20
#: E1: the instances at which every extremal point of Lemma C.7 is enumerated (D ≤ 16), at ε = 0.5.
E1_C7 = ((4, 1), (6, 1), (8, 1), (3, 2))
E1_C7_EPS = 0.5


def cost(values: Mapping[str, Any]) -> Cost:
    """E1's time and memory: closed forms and a fixed enumeration, about a second whatever the parameters
    (counted in the chapter's fixed seconds)."""
    return Cost()


@dataclass(frozen=True)
class LowerBounds:
    """E1: the explicit lower bounds of Thms 3.3, A.5, 4.8 and 4.10 against N and w, and their slopes."""

    slopes: Mapping[str, float]
    w_slopes: Mapping[str, float]
    table: pd.DataFrame
    sketches: pd.DataFrame  # N, w, ε, exact information, Thm 4.8's and Thm 4.10's bounds
    extremal: pd.DataFrame  # N, w, Lemma C.7's largest value, the bound 2ε'²w/N, the largest random point
    checks: Mapping[str, list[Check]]
    #: E1 has no paper setting to leave: its bounds are closed forms at the book's (N, w, ε).
    paper_setting = True

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues the slopes it reports."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The bounds at four (N, w), and Lemma C.7's instances (the chapter shows :attr:`exact_table`)."""
        return {"p002-e1": self.table, "p002-e1-c7": self.extremal}

    @property
    def exact_table(self) -> pd.DataFrame:
        """Per instance (N, w) and ε: the sketches enumerated and the largest exact information over each
        bound (Thm 4.10's only for ε < ln 2)."""
        t = self.sketches.assign(
            over48=self.sketches["information"] / self.sketches["Thm 4.8 bound"],
            over410=self.sketches["information"] / self.sketches["Thm 4.10 bound"],
        )
        out = t.groupby(["N", "w", "ε"], sort=False).agg(
            sketches=("information", "size"), **{"largest I / Thm 4.8": ("over48", "max"),
                                                 "largest I / Thm 4.10": ("over410", "max")}
        )  # fmt: skip
        return out.reset_index()

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm 3.3's constant, corrected."""
        return (("p002-e1", "Thm 3.3's constant: (N/2 − 1) ln 2/ε, not N ln 2/ε", "note-rec-thm33"),)

    def figure(self) -> Figure:
        """(a) the bounds against N at w ∈ {1, 2, 5, 10}; (b) Thms 4.8 and 4.10 against w at N = 10⁴."""
        n = np.geomspace(*E1_N)
        eps = E1_EPS
        fig, axes = panel_row(2, height=4.4)
        ax = axes[0]
        ax.plot(n, rc.thm33_users(n, eps, "paper"), "k:", label="Thm 3.3, paper's constant")
        ax.plot(n, rc.thm33_users(n, eps), "k-", label="Thm 3.3, Fano-consistent")
        ax.plot(n, rc.thmA5_users(n, eps, 2, 0.05 * n), "k--", label="Thm A.5, L = 2, d = 0.05 N")
        for w, colour in zip(E1_W, ("C0", "C1", "C2", "C3"), strict=True):
            ax.plot(n, rc.fano_users(n, rc.thm48_information(n, w, eps)), "-", color=colour, label=f"w = {w}")
            ax.plot(n, rc.fano_users(n, rc.thm410_information(n, w, eps)), "--", color=colour)
        loglog_axes(
            ax,
            "items N",
            "users below which every scheme fails",
            f"(a) against N, ε = {eps} (solid: 4.8, dashed: 4.10)",
        )
        ax.legend(fontsize=SMALL, ncol=2)
        ws = np.arange(1, E1_W_MAX + 1)
        ax = axes[1]
        ax.plot(ws, rc.fano_users(E1_N_W, rc.thm48_information(E1_N_W, ws, eps)), "C0-", label="Thm 4.8")
        ax.plot(ws, rc.fano_users(E1_N_W, rc.thm410_information(E1_N_W, ws, eps)), "C1--", label="Thm 4.10")
        two = rc.fano_users(E1_N_W, rc.thm48_information(E1_N_W, 2, eps))
        ax.plot(ws, two * (2 / ws) ** 2, "k:", lw=0.8, label="∝ 1/w²")
        one = rc.fano_users(E1_N_W, rc.thm410_information(E1_N_W, 1, eps))
        ax.plot(ws, one / ws, "k-.", lw=0.8, label="∝ 1/w")
        ax.axvline(E1_N_W ** (1 / 3), color="grey", lw=0.6)
        loglog_axes(ax, "ratings per user w", "", f"(b) against w, N = {E1_N_W:,} (grey: N^(1/3))")
        ax.legend(fontsize=SMALL)
        return fig


def lower_bounds(P: Parameters) -> LowerBounds:
    """E1: slopes of the explicit bounds against N over 10³–10⁵ at w = 2, and against w over 2–10 at
    N = 10⁴ (ε = ``E1_EPS``); random ε-private sketches on the instances of ``E1_EXACT`` (stream
    ``p002-e1``) against Thms 4.8 and 4.10; Lemma C.7's extremal points on ``E1_C7``."""
    n = np.geomspace(*E1_N)
    eps = E1_EPS
    slopes = {
        "Thm 4.8": loglog_slope(n, rc.fano_users(n, rc.thm48_information(n, 2, eps)), 1e3, 1e5),
        "Thm 4.10": loglog_slope(n, rc.fano_users(n, rc.thm410_information(n, 2, eps)), 1e3, 1e5),
        "Thm 3.3": loglog_slope(n, rc.thm33_users(n, eps), 1e3, 1e5),
    }
    ws = np.arange(1, E1_W_MAX + 1)
    w_slopes = {
        name: loglog_slope(ws, rc.fano_users(E1_N_W, fn(E1_N_W, ws, eps)), 2, 10)
        for name, fn in (("48", rc.thm48_information), ("410", rc.thm410_information))
    }
    table = pd.DataFrame(
        [
            {
                "N": n_,
                "w": w,
                "Thm 3.3 (Fano)": rc.thm33_users(n_, eps),
                "Thm 4.8": rc.fano_users(n_, rc.thm48_information(n_, w, eps)),
                "Thm 4.10": rc.fano_users(n_, rc.thm410_information(n_, w, eps)),
            }
            for n_, w in E1_TABLE
        ]
    )
    sketches = _sketches(P.rng("p002-e1"))
    rng = P.rng("p002-e1/lemma-c7")
    extremal = pd.DataFrame(
        [
            {"N": n_, "w": w, "largest at an extremal point": top, "bound 2ε'²w/N": bound,
             "largest at a random point": exact.feasible_quadratic(n_, w, E1_C7_EPS, rng)}
            for n_, w in E1_C7
            for top, bound in [exact.extremal_quadratic(n_, w, E1_C7_EPS)]
        ]
    )  # fmt: skip
    small = sketches[sketches["ε"] < math.log(2)]
    checks = ref.lower_bound_checks(
        (sketches["information"] / sketches["Thm 4.8 bound"]).tolist(),
        (small["information"] / small["Thm 4.10 bound"]).tolist(),
        list(extremal.drop(columns=["N", "w"]).itertuples(index=False, name=None)),
    )
    return LowerBounds(slopes, w_slopes, table, sketches, extremal, {"p002-e1": checks})


def _sketches(rng: np.random.Generator) -> pd.DataFrame:
    """Exact information of ``E1_QUERIES`` random ε-private 1-bit sketches (randomized response on a random
    query ``A ⊂ D`` of random density) and of the guess-vector query (``Z_I`` equal to a random guess on
    ``I``), at every instance of ``E1_EXACT`` and every ε of ``E1_EXACT_EPS``, with both bounds."""
    rows = []
    for n, w in E1_EXACT:
        size = exact.data_size(n, w)
        sets = exact.subsets(n, w)
        patterns = (np.arange(2**w)[:, None] >> np.arange(w - 1, -1, -1)[None, :]) & 1
        for e in E1_EXACT_EPS:
            guess = rng.integers(0, 2, n)
            queries = [np.all(patterns[None, :, :] == guess[sets][:, None, :], axis=2).ravel()]
            queries += [rng.random(size) < rng.random() for _ in range(E1_QUERIES)]
            for query in queries:
                rows.append({"N": n, "w": w, "ε": e,
                             "information": exact.sketch_information(n, w, exact.private_release(query, e)),
                             "Thm 4.8 bound": float(rc.thm48_information(n, w, e)),
                             "Thm 4.10 bound": float(rc.thm410_information(n, w, e))})  # fmt: skip
    return pd.DataFrame(rows)
