"""Paper 002, experiment E3 (the book's): Pairwise-Preference in the information-rich regime (M-sym,
w = N), its success curves over N and ε, and the measured constant ``U_90 ε̂²/(N ln N)``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    EPS_REF,
    MATRIX_ENTRY_BYTES,
    N_REF,
    SMALL,
    Refined,
    eps_label,
    pp_seconds,
    refined_curves,
    refined_points,
)
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.recommender.conditions import pairwise_spectrum
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E3: the w of the support-known case, and the range of U/(N ln N/ε̂²).
E3_SUPPORT_W = 10
E3_GRID: Refined = (2.0, 128.0, {"quick": (3, 2), "full": (5, 2)})


def cost(values: Mapping[str, Any]) -> Cost:
    """E3's time and memory: ``pp_trials`` recoveries of Pairwise-Preference at each point of its adaptive
    curves (first points plus one per round), for every N of ``n_items`` and, at N = 100, every ε of
    ``eps_values`` and the support-known case; each recovery holds its ``N × N`` matrix."""
    n_items, pp_trials = values["n_items"], values["pp_trials"]
    settings = sum(pp_seconds(n) for n in n_items) + (len(values["eps_values"]) + 1) * pp_seconds(N_REF)
    seconds = refined_points(E3_GRID, values["mode"]) * pp_trials * settings
    return Cost(seconds=seconds, peak=MATRIX_ENTRY_BYTES * max([*n_items, N_REF]) ** 2)


@dataclass(frozen=True)
class PairwiseRich:
    """E3: Pairwise-Preference on M-sym with w = N: success curves over N and ε, and the measured constant
    ``U_90 ε̂²/(N ln N)``."""

    settings: Mapping[tuple[str, float], rc.Setting]  # ("N", n), ("eps", ε), ("support", w)
    curves: pd.DataFrame
    u90: Mapping[rc.Setting, float]
    checks: Mapping[str, list[Check]]
    #: E3 has no paper setting to leave: its sizes are the book's.
    paper_setting = True

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def constant(self, key: tuple[str, float]) -> float:
        """``U_90 ε̂²/(N ln N)`` of one setting."""
        s = self.settings[key]
        return self.u90[s] / rc.pairwise_scale(s.model.n_items, s.eps)

    @property
    def constant_range(self) -> tuple[float, float]:
        """The smallest and largest constant over the N and ε sweeps (finite ones)."""
        values = [self.constant(k) for k in self.settings if k[0] != "support"]
        finite = [c for c in values if math.isfinite(c)]
        return (min(finite), max(finite)) if finite else (math.nan, math.nan)

    @property
    def spectra(self) -> pd.DataFrame:
        """Thm 3.5's conditions on every setting's expected matrix: the eigenvalues of ``M diag(β)``, the
        smallest relative gap between their magnitudes, the rows' separation and ``|λ_L|/|λ_1|``."""
        rows = []
        for k, s in self.settings.items():
            spec = pairwise_spectrum(s.model, s.eps, sketch=s.sketch, support_known=s.support_known)
            rows.append({"sweep": k[0], "value": eps_label(k[1]) if k[0] == "eps" else k[1],
                         "λ_1": spec.eigenvalues[0], "λ_2": spec.eigenvalues[1],
                         "|λ| gap": spec.magnitude_gap, "rows apart": spec.row_separation,
                         "|λ_L|/|λ_1|": spec.smallest_ratio, "conditions hold": spec.holds()})  # fmt: skip
        return pd.DataFrame(rows)

    @property
    def eps_ratio(self) -> float:
        """``U_90(ε = 0.25)/U_90(ε = 1)`` (``nan`` unless both are in the sweep)."""
        if ("eps", 0.25) not in self.settings or ("eps", 1.0) not in self.settings:
            return math.nan
        return self.u90[self.settings[("eps", 0.25)]] / self.u90[self.settings[("eps", 1.0)]]

    @property
    def eps_laws(self) -> dict[str, float]:
        """What ``U_90(ε = 0.25)/U_90(ε = 1)`` would be under a law in ``1/ε̂`` and in ``1/ε̂²``."""
        ratio = rc.eps_hat(1.0) / rc.eps_hat(0.25)
        return {"1/eps_hat": ratio, "1/eps_hat^2": ratio**2}

    @property
    def slope(self) -> float:
        """Slope of ``U_90/ln N`` against N (1 for ``N log N``)."""
        ns = [k[1] for k in self.settings if k[0] == "N"]
        y = [self.u90[self.settings[("N", n)]] / math.log(n) for n in ns]
        return loglog_slope(ns, y, min(ns), max(ns))

    @property
    def table(self) -> pd.DataFrame:
        """One row per sweep point: N, w, ε, U_90 and the constant."""
        return pd.DataFrame(
            [
                {
                    "sweep": k[0],
                    "value": eps_label(k[1]) if k[0] == "eps" else k[1],
                    "N": s.model.n_items,
                    "w": s.model.w,
                    "ε": eps_label(s.eps),
                    "U_90": self.u90[s],
                    "U_90 ε̂²/(N ln N)": self.constant(k),
                }
                for k, s in self.settings.items()
            ]
        )

    def metrics(self) -> dict[str, Any]:
        """None: its U_90 are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """U_90 of every setting, and Thm 3.5's conditions on each."""
        return {"p002-e3": self.table, "p002-e3-conditions": self.spectra}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The measured ε dependence, and the sketch the book uses."""
        return (
            (
                "p002-e3",
                "Pairwise-Preference's ε dependence is 1/ε̂², not Informal Theorem 2's 1/ε",
                "note-rec-pp-eps",
            ),
            ("p002-e3", "Pairwise-Preference sketch: Fig. 1's 1{R̂_i = R̂_j}", "note-rec-pp-sketch"),
        )

    def figure(self) -> Figure:
        """Success against ``U/(N ln N/ε̂²)`` for (a) the N sweep and (b) the ε sweep; (c) the constant."""
        fig, axes = panel_row(3, height=3.6)
        for ax, kind, title in (
            (axes[0], "N", "(a) N sweep, ε = 1"),
            (axes[1], "eps", "(b) ε sweep, N = 100"),
        ):
            keys = [k for k in self.settings if k[0] == kind]
            for j, key in enumerate(keys):
                s = self.settings[key]
                cell = self.curves[self.curves["setting"] == self.unique.index(s)]
                label = f"N = {key[1]}" if kind == "N" else f"ε = {eps_label(key[1])}"
                ax.plot(
                    cell["U"] / rc.pairwise_scale(s.model.n_items, s.eps),
                    cell["success"],
                    "o-",
                    ms=3,
                    color=plt.cm.viridis(j / max(len(keys), 1)),
                    label=label,
                )
            ax.axhline(0.9, color="grey", lw=0.6)
            ax.set(xscale="log", xlabel="U / (N ln N / ε̂²)", ylabel="P(exact recovery)", title=title)
            ax.legend(fontsize=SMALL)
        ns = [k[1] for k in self.settings if k[0] == "N"]
        eps = [k[1] for k in self.settings if k[0] == "eps"]
        by_n = [self.constant(("N", n)) for n in ns]
        by_eps = [self.constant(("eps", e)) for e in eps]
        axes[2].plot(ns, by_n, "o-", label="N sweep (ε = 1)")
        axes[2].plot([N_REF] * len(eps), by_eps, "s", mfc="none", color="C1", label="ε sweep (N = 100)")
        top = max((c for c in (*by_n, *by_eps) if math.isfinite(c)), default=1.0)
        axes[2].set(
            xscale="log",
            xlabel="items N",
            ylabel="U_90 ε̂² / (N ln N)",
            title="(c) the measured constant",
            ylim=(0, 1.15 * top),
        )
        fixed_ticks(axes[2].xaxis, ns)
        axes[2].legend(fontsize=SMALL)
        return fig


def pairwise_rich(P: Parameters) -> PairwiseRich:
    """E3 (stream ``p002-e3``): every N of ``n_items`` at ε = 1, every ε of ``eps_values`` at N = 100, and
    the support-known case (w = 10), each on a grid of U/(N ln N/ε̂²) from 2 to 128."""
    settings: dict[tuple[str, float], rc.Setting] = {}
    for n in P.n_items:
        settings[("N", n)] = rc.Setting("pairwise", rc.m_sym(n, n), EPS_REF)
    for eps in P.eps_values:
        settings[("eps", eps)] = rc.Setting("pairwise", rc.m_sym(N_REF, N_REF), eps)
    settings[("support", E3_SUPPORT_W)] = rc.Setting(
        "pairwise", rc.m_sym(N_REF, E3_SUPPORT_W), EPS_REF, support_known=True
    )
    unique = list(dict.fromkeys(settings.values()))
    scales = [rc.pairwise_scale(s.model.n_items, s.eps) for s in unique]
    ranges = [(E3_GRID[0] * x, E3_GRID[1] * x) for x in scales]
    curves, u90 = refined_curves(P, "p002-e3", unique, ranges, E3_GRID, "Pairwise-Preference, rich regime")
    out = PairwiseRich(settings, curves, dict(zip(unique, u90, strict=True)), {})
    checked = (50, 100, 200)  # the N at which the book's range applies
    constants = {n: out.constant(("N", n)) if ("N", n) in settings else math.nan for n in checked}
    every_n = [out.constant(k) for k in settings if k[0] == "N"]
    spectra = out.spectra
    held = {f"{r['sweep']} = {r['value']}": bool(r["conditions hold"]) for _, r in spectra.iterrows()}
    named = ref.pairwise_rich_checks(constants, out.eps_ratio, every_n, held)
    for k, n in enumerate(checked):
        if ("N", n) not in settings:
            named[k] = named[k]._replace(passed=None, detail=f"undefined: N = {n} not in n_items")
    if math.isnan(out.eps_ratio):  # the ratio needs ε = 0.25 and ε = 1 among eps_values
        k = next(j for j, c in enumerate(named) if c.name == "eps-ratio")
        named[k] = named[k]._replace(passed=None, detail="undefined: ε = 0.25 or ε = 1 not in eps_values")
    return replace(out, checks={"p002-e3": named})
