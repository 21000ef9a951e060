"""Paper 003, §4.3 (the book's experiment): the identification curve on other graphs and for rarer
arrivals (figure ``p003-sec4-3-mixing``, tables ``p003-sec4-3-mixing`` and ``p003-sec4-3-arrivals``), and
the checks of Theorem 4.7's factors for mixing and arrivals against them (item ``p003-thm4-7``).

The curves are recorded on a fine grid of periods (:data:`MIXING_POINTS`), so that the first period at
which a curve reaches 1 − 2η is read to within a few per cent, and its Monte Carlo error
(:func:`~dpnet.inference.online.reach_interval`) is what limits the comparison, not the grid."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks, plotting
from dpnet.chapters.online_learning._common import PERIOD_SECONDS, update_seconds
from dpnet.chapters.online_learning.p003_sec4_3_signals import TRUTH, Signals, time_grid
from dpnet.inference.online import reach_interval
from dpnet.inference.signals import BLOCK
from dpnet.params import Cost, Parameters
from dpnet.reference import online as ref
from dpnet.results import Check
from dpnet.sweep import sweep

#: Log-spaced periods at which each curve is recorded: consecutive ones about 2 % apart at T = 12,000.
MIXING_POINTS = 400
#: Columns of the tables: the first recorded period at which the probability reaches 1 − 2η, the first at
#: which it plausibly does (P + 2 s.e.) and the first by which it plausibly has (P − 2 s.e.). Both ends are
#: first crossings of a pointwise band over hundreds of periods, so neither is sure: they usually bracket
#: the true crossing, and an early draw can put the latest below it.
REACH, EARLIEST, LATEST = "first T with P ≥ 1 − 2η", "earliest (P + 2 s.e.)", "latest (P − 2 s.e.)"


def cost(values: Mapping[str, Any]) -> Cost:
    """``replications`` private streams of ``horizon`` periods at one noise scale, for every graph of
    ``graphs`` and every arrival chance of ``arrival_rates``: ``n_agents`` × ``n_states`` updates per run
    and period, one loop per period of each curve."""
    n, m, R, T = values["n_agents"], values["n_states"], values["replications"], values["horizon"]
    curves = len(values["graphs"]) + len(values["arrival_rates"])
    points = min(MIXING_POINTS, T)
    return Cost(seconds=n * m * curves * R * T * update_seconds(n) + curves * T * PERIOD_SECONDS,
                peak=float(8 * n * m * R * (points + 4 * BLOCK)))  # fmt: skip


@dataclass(frozen=True)
class CurveTask:
    """One identification curve of the comparisons: its position in its list (the key of its random
    stream), the graph, the arrival chance and the run's sizes."""

    index: int
    graph: str
    xi: float
    n_agents: int
    n_states: int
    shift: float
    periods: int
    replications: int
    scale: float


def identification_curve(task: CurveTask, rng: np.random.Generator) -> tuple[NDArray, NDArray, NDArray]:
    """The periods, probability and standard error of identifying θ° on the task's private streams."""
    model = inf.informative_model(task.n_agents, task.n_states, kind="bernoulli", shift=task.shift)
    t = time_grid(task.periods, points=MIXING_POINTS)
    A = networks.dense_weights(task.graph, task.n_agents)
    run = inf.simulate_online(rng, model, A, xi=task.xi, T=task.periods, n_reps=task.replications,
                              noise_scales=[task.scale], times=t)  # fmt: skip
    p, se = inf.identification_rate(run, TRUTH)
    return t, p[0], se[0]


@dataclass(frozen=True)
class Comparison:
    """The identification curve at ``eps_compare`` on each graph (mixing) and for each arrival chance.

    Attributes
    ----------
    eps, xi, graph
        The comparisons' ε, the mixing comparison's arrival chance and the arrival comparison's graph.
    mixing_curves, arrival_curves
        One row per (graph or arrival chance, period): ``mean`` and ``se``, with the column ``graph`` or
        ``ξ`` naming the curve.
    mixing, arrivals
        Per graph (b*) or arrival chance (the gap l): Theorem 4.7's horizon, the first period at which the
        probability reaches 1 − 2η, the earliest and latest at which it does within its Monte Carlo error
        (``None``: not within the simulated periods) and the probability at the last period.
    checks
        Theorem 4.7's factors for mixing and arrivals against the curves (``p003-thm4-7``).
    level
        1 − 2η, the probability the crossing periods refer to (dashed in the figure).
    """

    eps: float
    xi: float
    graph: str
    mixing_curves: pd.DataFrame
    arrival_curves: pd.DataFrame
    mixing: pd.DataFrame
    arrivals: pd.DataFrame
    checks: Mapping[str, list[Check]]
    level: float

    #: The book's experiment leaves no setting of the paper.
    paper_setting = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def metrics(self) -> dict[str, Any]:
        return {}

    @property
    def horizon_ratio(self) -> float:
        """How much Theorem 4.7's horizon changes across the graphs (largest over smallest)."""
        h = self.mixing["T of Thm 4.7"]
        return float(h.max() / h.min())

    @property
    def reach_range(self) -> tuple[float, float]:
        """The earliest and the latest period, over the graphs, at which a curve reaches 1 − 2η (``nan``
        unless every graph's does)."""
        reached = self.mixing[REACH].dropna()
        if len(reached) < len(self.mixing):
            return math.nan, math.nan
        return float(reached.min()), float(reached.max())

    @property
    def reach_bound(self) -> float:
        """How much the first period reaching 1 − 2η can change across the graphs, within Monte Carlo
        error: the latest of the graphs' late ends over the earliest of their early ends (``nan`` unless
        every graph plausibly reaches 1 − 2η)."""
        late, early = self.mixing[LATEST], self.mixing[EARLIEST]
        return float(late.max() / early.min()) if late.notna().all() else math.nan

    @property
    def arrival_margin(self) -> tuple[float, float]:
        """The rarest arrival chance whose curve reaches 1 − 2η, and how many times longer than that first
        period Theorem 4.7's horizon is there (``(nan, nan)`` when no curve reaches it)."""
        reached = self.arrivals.dropna(subset=[REACH])
        if reached.empty:
            return math.nan, math.nan
        row = reached.loc[reached["ξ"].idxmin()]
        return float(row["ξ"]), float(row["T of Thm 4.7"] / row[REACH])

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"p003-sec4-3-mixing": self.mixing, "p003-sec4-3-arrivals": self.arrivals}

    def figure(self) -> Figure:
        fig, axes = plotting.panel_row(2, height=3.2)
        plotting.band_curves(axes[0], self.mixing_curves, x="T", group="graph")
        plotting.band_curves(axes[1], self.arrival_curves, x="T", group="ξ")
        titles = [f"graphs, ξ = {self.xi:g}", f"arrival chance ξ, {self.graph} graph"]
        for ax, title in zip(axes, titles, strict=True):
            ax.axhline(self.level, color="0.2", ls="--", lw=1.0, label=f"1 − 2η = {self.level:g}")
            ax.set(xscale="log", xlabel="period T", ylim=(0, 1.02), title=f"{title}, ε = {self.eps:g}")
            ax.legend(loc="lower right")
        axes[0].set_ylabel("P[agent's argmax is θ°]")
        return fig


def mixing_and_arrivals(P: Parameters, sig: Signals) -> Comparison:
    """The privacy sweep's curve at ``eps_compare`` on every graph of ``graphs`` (stream ``mixing``) and for
    every arrival chance of ``arrival_rates`` on ``graph`` (stream ``arrivals``), child k for the k-th."""
    common = {"n_agents": sig.n_agents, "n_states": sig.n_states, "shift": P.signal_shift,
              "periods": P.horizon, "replications": P.replications,
              "scale": sig.scale(P.eps_compare)}  # fmt: skip
    level = 1 - 2 * sig.eta
    graphs = [CurveTask(k, g, sig.xi, **common) for k, g in enumerate(P.graphs)]
    out = sweep(identification_curve, graphs, P.stream("mixing"), key=lambda t: (t.index,), desc="graphs")
    curves, rows = [], []
    for task in graphs:
        t, p, se = out[task]
        b_star = networks.spectral_constants(networks.dense_weights(task.graph, sig.n_agents)).b_star
        curves += [{"graph": f"{task.graph} (b* = {b_star:.2f})", "T": int(x), "mean": p[j], "se": se[j]}
                   for j, x in enumerate(t)]  # fmt: skip
        h = sig.horizon(P.eps_compare, slem=b_star)
        early, late = reach_interval(p, se, t, level)
        rows.append({"graph": task.graph, "b*": b_star, "T of Thm 4.7": math.ceil(h),
                     REACH: inf.first_reach(p, t, level), EARLIEST: early, LATEST: late,
                     "P at the last T": float(p[-1])})  # fmt: skip
    rates = [CurveTask(k, P.graph, r, **common) for k, r in enumerate(P.arrival_rates)]
    out = sweep(identification_curve, rates, P.stream("arrivals"), key=lambda t: (t.index,), desc="arrivals")
    rate_curves, rate_rows = [], []
    for task in rates:
        t, p, se = out[task]
        rate_curves += [
            {"ξ": f"{task.xi:g}", "T": int(x), "mean": p[j], "se": se[j]} for j, x in enumerate(t)
        ]
        early, late = reach_interval(p, se, t, level)
        h = sig.horizon(P.eps_compare, xi=task.xi)
        rate_rows.append({"ξ": task.xi, "l": inf.online_gap(sig.bernoulli.kl(TRUTH), task.xi, TRUTH),
                          "T of Thm 4.7": math.ceil(h), REACH: inf.first_reach(p, t, level),
                          EARLIEST: early, LATEST: late, "P at the last T": float(p[-1])})  # fmt: skip
    mixing, arrivals = pd.DataFrame(rows), pd.DataFrame(rate_rows)
    h = mixing["T of Thm 4.7"]
    reach = {r["graph"]: (_int(r[EARLIEST]), _int(r[LATEST])) for _, r in mixing.iterrows()}
    checks = [
        *ref.mixing_checks(horizon_ratio=float(h.max() / h.min()), reach=reach),
        *ref.arrival_checks([(r["ξ"], r["T of Thm 4.7"], _int(r[LATEST]), P.horizon)
                             for _, r in arrivals.iterrows()]),
    ]  # fmt: skip
    return Comparison(P.eps_compare, sig.xi, P.graph, pd.DataFrame(curves), pd.DataFrame(rate_curves), mixing,
                      arrivals, {"p003-thm4-7": checks}, level)  # fmt: skip


def _int(value: Any) -> int | None:
    """A period read from a table column (``None`` where the column holds none)."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else int(value)
