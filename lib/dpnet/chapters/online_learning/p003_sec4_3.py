"""Paper 003, §4.3 (the book's experiment): the probability of identifying θ° against the period, at
every ε, against the horizon of Theorem 4.7; the §4.3 checks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import plotting
from dpnet.chapters.online_learning._common import PERIOD_SECONDS, update_seconds
from dpnet.chapters.online_learning.p003_sec4_3_convergence import Convergence
from dpnet.chapters.online_learning.p003_sec4_3_signals import TRUTH, Signals, time_grid
from dpnet.inference.signals import BLOCK
from dpnet.params import Cost, Parameters
from dpnet.reference import online as ref
from dpnet.results import Check

#: The recorded periods of a curve, at most.
CURVE_POINTS = 50


def cost(values: Mapping[str, Any]) -> Cost:
    """``replications`` private streams of ``horizon`` periods at every noise scale (no DP and each ε):
    ``n_agents`` × ``n_states`` updates per run, scale and period, one loop per period; held while it runs,
    the log-beliefs of every run and scale at the recorded periods and over four blocks of periods."""
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    T, S = values["horizon"], 1 + len(values["eps_values"])
    seconds = n * m * S * R * T * update_seconds(n) + T * PERIOD_SECONDS
    return Cost(seconds=seconds, peak=float(8 * n * m * R * S * (CURVE_POINTS + 4 * BLOCK)))


def _eps_labels(eps: Sequence[float | None]) -> list[str]:
    """How the sweep's tables and figure name each run: ``no DP``, then the ε values."""
    return ["no DP" if e is None else f"{e:g}" for e in eps]


@dataclass(frozen=True)
class PrivacySweep:
    """§4.3: the probability that an agent identifies θ° against the period, without noise and at every ε,
    against Theorem 4.7's horizon.

    Attributes
    ----------
    eps
        ``None`` (no DP), then the run's ε values.
    times, probability, se
        The recorded periods and, per ε, the probability and its Monte Carlo standard error.
    horizons, horizons_000
        Per ε, Theorem 4.7's horizon and the earlier version's (Theorem 3.6), real-valued.
    table
        Per ε: the Laplace scale, both horizons, the probability at Theorem 4.7's horizon (``nan`` beyond the
        simulated periods) and the first period at which it reaches 1 − 2η.
    checks
        §4.3 and Theorem 4.7 on the synthetic streams.
    """

    eps: tuple[float | None, ...]
    times: NDArray[np.int64]
    probability: NDArray[np.float64]
    se: NDArray[np.float64]
    horizons: tuple[float, ...]
    horizons_000: tuple[float, ...]
    table: pd.DataFrame
    eta: float
    title: str
    checks: Mapping[str, list[Check]]

    #: The synthetic streams are the book's own: there is no setting of the paper to leave.
    paper_setting = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    @property
    def labels(self) -> list[str]:
        return _eps_labels(self.eps)

    @property
    def curve(self) -> pd.DataFrame:
        """One row per (ε, period): the probability and its standard error."""
        return pd.DataFrame([
            {"eps": e, "ε": label, "T": int(t), "mean": self.probability[s, j], "se": self.se[s, j]}
            for s, (e, label) in enumerate(zip(self.eps, self.labels, strict=True))
            for j, t in enumerate(self.times)
        ])  # fmt: skip

    @property
    def slope(self) -> float:
        """a in T ∝ ε^−a between the smallest and the largest ε (Theorem 4.7's horizon)."""
        (e1, h1), (e2, h2) = (self.eps[1], self.horizons[1]), (self.eps[-1], self.horizons[-1])
        return math.log(h1 / h2) / math.log(e2 / e1)  # type: ignore[operator]

    @property
    def level(self) -> float:
        """1 − 2η: the probability Theorem 4.7 promises at its horizon."""
        return 1 - 2 * self.eta

    @property
    def lowest_at_horizon(self) -> tuple[str | None, float]:
        """Which run (``"ε = 2"``, ``"the non-private run"``) has the lowest probability at Theorem 4.7's
        horizon, the first of them on a tie, and that probability (``(None, nan)`` when no horizon falls
        inside the simulated periods)."""
        inside = self.table.dropna(subset=["P at that T"])
        if inside.empty:
            return None, math.nan
        row = inside.loc[inside["P at that T"].idxmin()]
        label = "the non-private run" if row["ε"] == "no DP" else f"ε = {row['ε']}"
        return label, float(row["P at that T"])

    @property
    def earlier_factor(self) -> tuple[float, float]:
        """The smallest and largest ratio of the earlier version's horizon to Theorem 4.7's, over ε."""
        ratios = [h0 / h for h, h0 in zip(self.horizons, self.horizons_000, strict=True)]
        return min(ratios), max(ratios)

    def metrics(self) -> dict[str, Any]:
        return {"identification_probability": [
            {"eps": e, "T": int(t), "probability": float(self.probability[s, j]), "se": float(self.se[s, j])}
            for s, e in enumerate(self.eps) for j, t in enumerate(self.times)
        ]}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The curve (``p003-sec4-3``) and, per ε, the horizons and the probability there
        (``p003-sec4-3-horizons``; the chapter shows it with ``labels=["ε"]`` and a dash, explained, where
        the horizon is beyond the simulated T)."""
        return {"p003-sec4-3": self.curve.drop(columns="ε"), "p003-sec4-3-horizons": self.table}

    def figure(self) -> Figure:
        fig, axes = plotting.panel_row(1, width=7.2, height=4.0)
        ax = axes[0]
        plotting.band_curves(ax, self.curve, x="T", group="ε")
        for s, h in enumerate(self.horizons):
            if h <= self.times[-1]:
                ax.axvline(h, color=f"C{s}", ls=":", lw=1.2)
        ax.axhline(self.level, color="0.2", ls="--", lw=1.0, label=f"1 − 2η = {self.level:g}")
        ax.set(xscale="log", xlabel="period T", ylabel="P[agent's argmax is θ°]", ylim=(0, 1.02),
               title=self.title)  # fmt: skip
        ax.legend(loc="lower right")
        return fig


def privacy_sweep(P: Parameters, sig: Signals, conv: Convergence) -> PrivacySweep:
    """``replications`` private streams of ``horizon`` periods, every ε on the same signals (stream
    ``p003-sec4-3``), recorded on a log grid of periods plus Theorem 4.7's horizons; the §4.3 checks."""
    eps: tuple[float | None, ...] = (None, *P.eps_values)
    H = tuple(sig.horizon(e) for e in eps)
    H000 = tuple(sig.horizon(e, version="000") for e in eps)
    times = time_grid(P.horizon, [math.ceil(h) for h in H])
    scales = [sig.scale(e) for e in eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=sig.xi, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=times)  # fmt: skip
    prob, se = inf.identification_rate(psi, TRUTH)
    labels = _eps_labels(eps)
    rows = []
    for s, e in enumerate(eps):
        h = math.ceil(H[s])
        j = list(times).index(h) if h <= P.horizon else None
        rows.append({"ε": labels[s], "Laplace scale": sig.scale(e), "T of Thm 4.7": h,
                     "P at that T": math.nan if j is None else float(prob[s, j]),
                     "s.e.": math.nan if j is None else float(se[s, j]),
                     "first T with P ≥ 1 − 2η": inf.first_reach(prob[s], times, 1 - 2 * sig.eta),
                     "T of 000's Thm 3.6": math.ceil(H000[s])})  # fmt: skip
    table = pd.DataFrame(rows)
    inside = table.dropna(subset=["P at that T"])
    at_horizon = {r["ε"]: (r["P at that T"], r["s.e."]) for _, r in inside.iterrows()}
    checks = ref.section43_checks(
        limit_gap=conv.gap, limit_se=conv.se, limit_T=conv.periods, prob=prob, se=se, times=times.tolist(),
        labels=labels, at_horizon=at_horizon, n_agents=sig.n_agents, n_reps=P.replications, eta=sig.eta,
    )  # fmt: skip
    title = f"{P.graph} graph, n = {sig.n_agents}, |Θ| = {sig.n_states}, ξ = {sig.xi:g}"
    return PrivacySweep(eps, times, prob, se, H, H000, table, sig.eta, title, {"p003-sec4-3": checks})
