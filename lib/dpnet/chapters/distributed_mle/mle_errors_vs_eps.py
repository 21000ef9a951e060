"""The book's figure ``mle-errors-vs-eps`` and table ``oracle_vs_finite_T``: error rates against ε.

Agent 1's Type I and Type II errors over ``eps_values`` (stream ``eps-sweep``): the ``T → ∞`` oracle
with K from Theorems 4.1 and 4.3, Theorem 4.2's finite T and thresholds ϱ*, and ``T = iterations`` on
the same noise (common random numbers), whose agreement with the oracle the table gives; and the exact
``T → ∞`` rates of AM's Type II and GM's Type I errors (:func:`exact_oracle_rates`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    Record,
    _chunk_bytes,
    _fails,
    _keyed_sweep,
    _record,
    _round_bounds,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.inference.rates import leader_probability
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, error_rate_axes, fixed_ticks, guarantee_line, panel_row, plot_error_rates
from dpnet.results import Check, Deviation

__all__ = ["EpsSweep", "cost", "eps_sweep", "exact_am_type1", "exact_oracle_rates"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the ε sweep: ``5E`` tasks of ``R`` replications, ``E = len(eps_values)``.

    Per ε, the oracle and ``T = iterations`` each run Theorem 4.1's and 4.3's K, and Theorem 4.2 its
    own: at most ``3K_r + 2K_f`` rounds (the bounds of ``_common._round_bounds``), so
    ``R·n·|Θ|·E·(3K_r + 2K_f)`` draws; a chunk of ``min(R, 1000)·max(K_r, K_f)·n·|Θ|`` draws is held
    at a time.
    """
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    E = len(values["eps_values"])
    K_r, K_f = _round_bounds(values)
    task_rounds = E * (3 * K_r + 2 * K_f)
    return Cost(
        seconds=_sweep_seconds(R * n * m * task_rounds, R * 5 * E, task_rounds * math.ceil(R / _CHUNK)),
        peak=_chunk_bytes(R, max(K_r, K_f), n, m),
    )


def exact_am_type1(loglik: Any, noise_scale: float, K: int) -> float:
    """AM's Type I error of the ``T → ∞`` oracle with K rounds, exactly (``nan`` unless Θ* has one state):
    AM admits a false state unless θ* wins every round, ``1 − p^K`` with ``p`` as in
    :func:`exact_oracle_rates`."""
    table = np.asarray(loglik, dtype=float)
    lam, mle = table.sum(axis=0), inf.mle_mask(table)
    if mle.sum() != 1:
        return math.nan
    p = leader_probability((lam[mle][0] - lam[~mle]) / noise_scale, table.shape[0])
    return float(1 - p**K)


def exact_oracle_rates(loglik: Any, noise_scale: float, K: int) -> tuple[float, float]:
    """AM's Type II and GM's Type I errors of the ``T → ∞`` oracle with K rounds, exactly (``nan`` unless
    Θ* has one state).

    With ``ℓ_j = (Λ(θ*) − Λ(θ_j))/b`` the leads in noise scales and ``n`` agents, θ* wins a round with
    probability ``p = leader_probability(ℓ, n)`` and AM misses it when it loses every round,
    ``(1 − p)^K``; GM keeps the leader of ``Λ + (1/K)ΣY_k``, whose noise is ``b/K`` times a sum of
    ``nK`` Laplace draws, so it admits a false state with probability
    ``1 − leader_probability(Kℓ, nK)`` (:func:`~dpnet.inference.rates.leader_probability`).
    """
    table = np.asarray(loglik, dtype=float)
    lam = table.sum(axis=0)
    mle = inf.mle_mask(table)
    if mle.sum() != 1:
        return math.nan, math.nan
    leads = (lam[mle][0] - lam[~mle]) / noise_scale
    n = table.shape[0]
    p = leader_probability(leads, n)
    return float((1 - p) ** K), 1 - leader_probability(K * leads, n * K)


#: The ε sweep's estimators: key → (name, rule, theorem); the rule "amgm" or "thres" picks the tasks.
_ESTIMATORS = {
    "am": ("AM", "amgm", "4.1"),
    "gm": ("GM", "amgm", "4.1"),
    "thres1": ("two-threshold Θ̂¹", "thres", "4.3"),
    "thres2": ("two-threshold Θ̂²", "thres", "4.3"),
}


@dataclass(frozen=True)
class EpsSweep:
    """Error rates of agent 1 against ε: the ``T → ∞`` oracle with K from Theorems 4.1 and 4.3, Theorem
    4.2's finite T and thresholds ϱ*, and ``T = iterations`` on the same noise (common random numbers).

    Attributes
    ----------
    eps, n_agents, alpha, beta, replications, iterations
        The grid and the setting.
    schedules
        Per ε, Theorems 4.1, 4.2 and 4.3's schedules (keys ``"41"``, ``"42"``, ``"43"``).
    records
        Curve → one error-rate record per ε. Curves: ``"am"``, ``"gm"``, ``"thres1"``, ``"thres2"``
        (the oracle), ``"am-thm42"``, ``"gm-thm42"`` (Theorem 4.2's T and ϱ*), and the oracle's four
        with ``"-T"`` (``T = iterations``); each record's ``algorithm`` names its curve in full.
    gap_per_unit_eps
        ``l/b`` at ε = 1 with the K of Theorem 4.1 (``l/b`` is proportional to ε).
    exact
        ``"am"`` (Type II), ``"gm"`` (Type I) and ``"am-type1"`` → the exact oracle rate at each ε
        (Theorem 4.1's K; :func:`exact_oracle_rates`, :func:`exact_am_type1`).
    """

    eps: tuple[float, ...]
    n_agents: int
    alpha: float
    beta: float
    replications: int
    iterations: int
    schedules: Mapping[float, Mapping[str, Any]]
    records: Mapping[str, list[Record]]
    gap_per_unit_eps: float
    exact: Mapping[str, tuple[float, ...]] = field(default_factory=dict)

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def rows(self) -> list[Record]:
        """Every record, curve by curve."""
        return [r for recs in self.records.values() for r in recs]

    @property
    def freq43(self) -> tuple[float, float]:
        """Theorem 4.3's frequency thresholds (they depend on neither ε nor K)."""
        s = self.schedules[self.eps[0]]["43"]
        return s.freq_1, s.freq_2

    def fails(self, curve: str, kind: str, target: float) -> int:
        """How many budgets of ``curve`` exceed ``target`` beyond Monte Carlo error."""
        return _fails(self.records[curve], kind, target)

    def exact_fails(self, curve: str, target: float) -> int:
        """How many budgets' exact rates of ``curve`` (``"am"``: Type II, ``"gm"``: Type I) exceed
        ``target``."""
        return sum(v > target for v in self.exact[curve])

    def exact_at(self, curve: str, eps: float) -> float:
        """The exact rate of ``curve`` (a key of ``exact``) at the budget ``eps`` of the grid."""
        return self.exact[curve][self.eps.index(eps)]

    def rate_at(self, curve: str, kind: str, eps: float) -> float:
        """The rate ``kind`` of ``curve`` at the budget ``eps`` (``nan`` when ``eps`` is not on the grid)."""
        return next((r[kind] for r in self.records[curve] if r["eps"] == eps), math.nan)

    def at(self, curve: str, eps: float) -> Record:
        """The record of ``curve`` at the budget ``eps`` of the grid."""
        return next(r for r in self.records[curve] if r["eps"] == eps)

    def rate(self, curve: str, kind: str, stat: Any = max) -> float:
        """A statistic (``max``, ``min``) of the curve's rates over ε."""
        return float(stat(r[kind] for r in self.records[curve]))

    @property
    def agreement(self) -> pd.DataFrame:
        """Largest ``|oracle − (T = iterations)|`` over ε, for each estimator and error type."""
        rows = []
        for curve, (name, _, _) in _ESTIMATORS.items():
            for kind, what in (("type1", "Type I"), ("type2", "Type II")):
                pairs = zip(self.records[curve], self.records[f"{curve}-T"], strict=True)
                rows.append((name, what, max(abs(a[kind] - b[kind]) for a, b in pairs)))
        return pd.DataFrame(
            rows, columns=["estimator", "error", f"largest |T → ∞ − T = {self.iterations}| over ε"]
        )

    @property
    def finite_gm_difference(self) -> float:
        """Largest absolute difference over ε between GM's Type I error in the limit and with
        Theorem 4.2's T and ϱ*."""
        a, b = self.records["gm"], self.records["gm-thm42"]
        return max(abs(x["type1"] - y["type1"]) for x, y in zip(a, b, strict=True))

    def thm42(self, what: str) -> list[float]:
        """Theorem 4.2's ``T``, ``rho`` (both ϱ*) or ``margin`` (``nϱ*_GM/2^T``) over the grid."""
        plans = [s["42"] for s in self.schedules.values()]
        return {
            "T": [s.T for s in plans],
            "rho": [r for s in plans for r in (s.rho_am, s.rho_gm)],
            "margin": [self.n_agents * s.rho_gm / 2.0**s.T for s in plans],
        }[what]

    def metrics(self) -> dict[str, Any]:
        """None of its own: its records go to ``error_rates``
        (:func:`~dpnet.chapters.distributed_mle.error_rates.summary`)."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The oracle against finite T, written to ``tables/``."""
        return {"oracle_vs_finite_T": self.agreement}

    def figure(self) -> Figure:
        """Type I (left) and Type II (right) against ε, with the guarantees and a top axis in noise scales."""
        eps, rec, spread = self.eps, self.records, 1.06
        colour = {"am": "C1", "gm": "C0", "thres1": "C2", "thres2": "C3"}
        panels = (  # the error; the aggregate that bounds it; the two-threshold set; the other aggregate
            ("type1", "gm", ("thres1", "Θ̂¹", "^"), "am", self.alpha, "α", "2α"),
            ("type2", "am", ("thres2", "Θ̂²", "v"), "gm", 1 - self.beta, "1 − β", "2(1 − β)"),
        )
        nice = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]  # top-axis ticks
        to_snr, K41 = self.gap_per_unit_eps, self.schedules[eps[0]]["41"].K
        lo_snr, hi_snr = eps[0] * to_snr, eps[-1] * to_snr
        fig, ax = panel_row(2, height=3.9)
        for a, panel in zip(ax, panels, strict=True):
            kind, agg, (thres, thres_name, marker), other, target, name, name42 = panel
            c, agg_name = colour[agg], agg.upper()
            plot_error_rates(a, eps, rec[agg], kind, label=f"{agg_name}, T → ∞", color=c)
            plot_error_rates(a, eps, rec[f"{agg}-thm42"], kind, label=f"{agg_name}, Thm 4.2's T", color=c,
                             marker="s", ls=":", shift=spread)  # fmt: skip
            plot_error_rates(a, eps, rec[thres], kind, label=f"{thres_name}, T → ∞", color=colour[thres],
                             marker=marker, shift=1 / spread)  # fmt: skip
            plot_error_rates(a, eps, rec[other], kind, label=f"{other.upper()} (not controlled)",
                             color=colour[other], marker=".", faint=True)  # fmt: skip
            guarantee_line(a, target, name)
            guarantee_line(a, 2 * target, f"{name42} (Thm 4.2)", ls=":")
            error_rate_axes(a, kind)
            a.set_xscale("log")
            fixed_ticks(a.xaxis, eps)
            a.set_xlabel("privacy budget ε")
            top = a.secondary_xaxis("top", functions=(lambda e: e * to_snr, lambda s: s / to_snr))
            fixed_ticks(top.xaxis, [v for v in nice if lo_snr <= v <= hi_snr] or [lo_snr, hi_snr])
            top.set_xlabel(f"gap in noise scales l/b (K = {K41})")
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=SMALL)
        return fig  # fmt: skip


def eps_sweep(P: Parameters, inst: Instance) -> EpsSweep:
    """The sweep over ε (stream ``eps-sweep``; task ``(j, 0)`` AM/GM, ``(j, 1)`` two thresholds at ε_j)."""
    eps, T, prob = tuple(P.eps_values), P.iterations, inst.problem
    target = {"delta": inst.delta, "alpha": P.alpha, "beta": P.beta}
    sched = {
        e: {
            "41": inf.schedule_thm41(prob, eps=e, **target),
            "42": inf.schedule_thm42(prob, a_star=inst.spectral.a_star, eps=e, **target),
            "43": inf.schedule_thm43(prob, eps=e, **target, pi1=P.pi, pi2=P.pi),
        }
        for e in eps
    }
    s0 = sched[eps[0]]["43"]
    freq43 = (s0.freq_1, s0.freq_2)  # thresholds do not depend on ε or K
    opts = {"weights": inst.weights, "delta": inst.delta, "reps": P.replications}
    ll, stream = inst.loglik, P.stream("eps-sweep")

    def tasks(T_: int | None) -> dict[tuple[int, ...], inf.ErrorRateTask]:
        out = {(j, 0): _task(ll, e, sched[e]["41"].K, T_, **opts) for j, e in enumerate(eps)}
        out |= {
            (j, 1): _task(ll, e, sched[e]["43"].K, T_, freq=freq43, thresholds_only=True, **opts)
            for j, e in enumerate(eps)
        }  # the two-threshold sets alone: AM and GM are the (j, 0) tasks
        return out

    oracle = _keyed_sweep(tasks(None), stream, "ε sweep, T → ∞")
    finite42 = _keyed_sweep(
        {(j, 0): _task(ll, e, s.K, s.T, rho=(s.rho_am, s.rho_gm), **opts)
         for j, (e, s) in enumerate((e, sched[e]["42"]) for e in eps)},
        stream, "ε sweep, Thm 4.2's T",
    )  # fmt: skip
    big_T = _keyed_sweep(tasks(T), stream, f"ε sweep, T = {T}")
    est = _ESTIMATORS.items()
    curves = [  # (curve, label, results, estimator, rule, theorem)
        *((e, f"{name} (Thm {th}, T → ∞)", oracle, e, rule, th) for e, (name, rule, th) in est),
        ("am-thm42", "AM (Thm 4.2, finite T)", finite42, "am", "amgm", "4.2"),
        ("gm-thm42", "GM (Thm 4.2, finite T)", finite42, "gm", "amgm", "4.2"),
        *((f"{e}-T", f"{name} (T = {T})", big_T, e, rule, th) for e, (name, rule, th) in est),
    ]  # fmt: skip
    records = {
        curve: [
            _record(out[(j, int(rule == "thres"))], "epsilon", label, est, theorem=th)
            for j in range(len(eps))
        ]
        for curve, label, out, est, rule, th in curves
    }
    K41 = sched[eps[0]]["41"].K
    to_snr = prob.gap / inf.noise_scale(inst.delta, inst.n_states, 1.0, K41)  # l/b ∝ ε: its value at ε = 1
    rates = [exact_oracle_rates(ll, sched[e]["41"].noise_scale, sched[e]["41"].K) for e in eps]
    exact = {
        "am": tuple(a for a, _ in rates),
        "gm": tuple(g for _, g in rates),
        "am-type1": tuple(exact_am_type1(ll, sched[e]["41"].noise_scale, sched[e]["41"].K) for e in eps),
    }
    return EpsSweep(eps, inst.n, P.alpha, P.beta, P.replications, T, sched, records, float(to_snr), exact)
