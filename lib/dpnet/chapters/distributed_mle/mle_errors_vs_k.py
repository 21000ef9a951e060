"""The book's figure ``mle-errors-vs-k``: error rates against the number of rounds K.

Agent 1's Type I and Type II errors at ``eps_demo`` for every K of ``K_values`` (``T → ∞``, stream
``k-sweep``): more rounds split the budget, so the noise scale grows like K. With them, GM's exact
Type I error at every K from 1 to :data:`SCAN_K` (:func:`~.mle_errors_vs_eps.exact_oracle_rates`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matplotlib.figure import Figure

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    Record,
    _chunk_bytes,
    _keyed_sweep,
    _record,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import exact_oracle_rates
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, error_rate_axes, fixed_ticks, guarantee_line, panel_row, plot_error_rates

__all__ = ["SCAN_K", "KSweep", "cost", "k_sweep"]

#: GM's exact Type I error is computed at every K from 1 to this (and at the sweep's K).
SCAN_K = 64


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the sweep over K: one task of ``R`` replications per K of ``K_values``.

    ``R·n·|Θ|·ΣK_values`` draws, a chunk of ``min(R, 1000)·max(K_values)·n·|Θ|`` held at a time. A K
    sweep at K = 200, n = 50, ``|Θ|`` = 12, R = 1000 peaked at 3.7 GiB (3.9 × its noise array).
    """
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    Ks = values["K_values"]
    return Cost(
        seconds=_sweep_seconds(R * n * m * sum(Ks), R * len(Ks), sum(Ks) * math.ceil(R / _CHUNK)),
        peak=_chunk_bytes(R, max(Ks), n, m),
    )


@dataclass(frozen=True)
class KSweep:
    """Error rates of agent 1 against the number of rounds K at ``eps`` (``T → ∞``).

    Attributes
    ----------
    eps, alpha, beta, K_thm41
        The budget, the targets, and Theorem 4.1's K at that budget (marked on the figure).
    records
        Estimator (``"am"``, ``"gm"``, ``"thres1"``, ``"thres2"``) → one record per K, K increasing.
    exact
        K → the exact oracle rates (AM's Type II, GM's Type I) at ``eps``, for every K from 1 to
        :data:`SCAN_K` and every K of the sweep.
    """

    eps: float
    alpha: float
    beta: float
    K_thm41: int
    records: Mapping[str, list[Record]]
    exact: Mapping[int, tuple[float, float]] = field(default_factory=dict)

    @property
    def Ks(self) -> list[int]:
        """The rounds of the sweep, increasing."""
        return [r["K"] for r in self.records["am"]]

    @property
    def rows(self) -> list[Record]:
        """Every record, estimator by estimator."""
        return [r for recs in self.records.values() for r in recs]

    def at(self, est: str, K: int) -> Record:
        """The record of estimator ``est`` at ``K`` rounds."""
        return next(r for r in self.records[est] if r["K"] == K)

    @property
    def best_gm(self) -> int:
        """The K with the smallest GM Type I error (the first, on ties)."""
        return min(self.Ks, key=lambda K: self.at("gm", K)["type1"])

    @property
    def gm_exact_best(self) -> tuple[int, float]:
        """The K with the smallest exact GM Type I error over ``exact``, and that error."""
        K = min(self.exact, key=lambda k: self.exact[k][1])
        return K, self.exact[K][1]

    def figure(self) -> Figure:
        """Type I (left) and Type II (right) against K on a log₂ axis, Theorem 4.1's K marked."""
        Ks, rec = self.Ks, self.records
        fig, ax = panel_row(2, height=3.6)
        plot_error_rates(ax[0], Ks, rec["gm"], "type1", label="GM", color="C0")
        plot_error_rates(ax[0], Ks, rec["thres1"], "type1", label="Θ̂¹", color="C2", marker="^")
        plot_error_rates(
            ax[0], Ks, rec["am"], "type1", label="AM (not controlled)", color="C1", marker=".", faint=True
        )
        guarantee_line(ax[0], self.alpha, "α")
        plot_error_rates(ax[1], Ks, rec["am"], "type2", label="AM", color="C1")
        plot_error_rates(ax[1], Ks, rec["thres2"], "type2", label="Θ̂²", color="C3", marker="v")
        plot_error_rates(
            ax[1], Ks, rec["gm"], "type2", label="GM (not controlled)", color="C0", marker=".", faint=True
        )
        guarantee_line(ax[1], 1 - self.beta, "1 − β")
        for a, kind in zip(ax, ("type1", "type2"), strict=True):
            error_rate_axes(a, kind)
            a.set_xscale("log", base=2)
            fixed_ticks(a.xaxis, Ks)
            a.axvline(self.K_thm41, color="0.5", lw=1, ls="-.", label=f"Thm 4.1: K = {self.K_thm41}")
            a.set_xlabel(f"rounds K (ε = {self.eps:g})")
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=SMALL)
        return fig  # fmt: skip


def k_sweep(P: Parameters, inst: Instance, thresholds: tuple[float, float]) -> KSweep:
    """The sweep over K at ``eps_demo`` (stream ``k-sweep``, task ``(K,)``); ``thresholds``: Thm 4.3's."""
    Ks = sorted(P.K_values)
    opts = {"weights": inst.weights, "delta": inst.delta, "reps": P.replications}
    tasks = {(K,): _task(inst.loglik, P.eps_demo, K, freq=thresholds, **opts) for K in Ks}
    out = _keyed_sweep(tasks, P.stream("k-sweep"), "K sweep")
    names = {"am": "AM (T → ∞)", "gm": "GM (T → ∞)", "thres1": "two-threshold Θ̂¹ (T → ∞)",
             "thres2": "two-threshold Θ̂² (T → ∞)"}  # fmt: skip
    records = {
        est: [
            _record(out[(K,)], "rounds", name, est, theorem="4.1" if est in ("am", "gm") else "4.3")
            for K in Ks
        ]
        for est, name in names.items()
    }
    target = {"delta": inst.delta, "eps": P.eps_demo, "alpha": P.alpha, "beta": P.beta}

    def scale(K: int) -> float:
        return float(inf.noise_scale(inst.delta, inst.n_states, P.eps_demo, K))

    exact = {K: exact_oracle_rates(inst.loglik, scale(K), K) for K in sorted({*range(1, SCAN_K + 1), *Ks})}
    return KSweep(P.eps_demo, P.alpha, P.beta, inf.schedule_thm41(inst.problem, **target).K, records, exact)
