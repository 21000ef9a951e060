"""The book's figure ``mle-trajectories``: one private run of Alg 1, iteration by iteration.

AM, GM and the two-threshold frequencies of one run at ``eps_demo`` with Theorem 4.1's K (noise from
the stream ``trajectories``), beside the non-private Alg 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import _span
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_grid

__all__ = ["Trajectories", "cost", "trajectories"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: one run of ``iterations`` iterations on the instance (not modelled)."""
    return Cost()


@dataclass(frozen=True)
class Trajectories:
    """One private run of Alg 1 at ``eps`` with Theorem 4.1's K, and the non-private Alg 4, for t = 0..T.

    Attributes
    ----------
    eps, graph, K, noise_scale, gap
        The budget, the graph, the rounds of Theorem 4.1, the Laplace scale b and the gap l.
    mle
        The mask of Θ*.
    alg4, rounds, am, gm, counts
        Beliefs over the iterations: Alg 4 ``(T+1, n, |Θ|)``; every round ``(T+1, K, n, |Θ|)``; the
        AM and GM aggregates and the two-threshold frequencies ``N`` (``τ̂ = 0``), ``(T+1, n, |Θ|)``.
    tau1, tau2
        The frequency thresholds τ¹, τ² of Theorem 4.3 (τ¹ at least 1/K).
    tau1_theorem
        Theorem 4.3's own τ¹ (0 when ``|Θ*| = 1``), which the book floors at ``1/K``.
    """

    eps: float
    graph: str
    K: int
    noise_scale: float
    gap: float
    mle: NDArray[np.bool_]
    alg4: NDArray[np.float64]
    rounds: NDArray[np.float64]
    am: NDArray[np.float64]
    gm: NDArray[np.float64]
    counts: NDArray[np.float64]
    tau1: float
    tau2: float
    tau1_theorem: float

    @property
    def iterations(self) -> int:
        """The last iteration T."""
        return self.alg4.shape[0] - 1

    def on_mle(self, beliefs: NDArray[np.float64]) -> NDArray[np.float64]:
        """Belief (or frequency) summed over Θ*."""
        return beliefs[..., self.mle].sum(-1)

    @property
    def settled(self) -> int:
        """The first iteration from which every curve of the figure is constant (to 1e−9)."""
        T = self.iterations
        curves = [self.on_mle(x) for x in (self.alg4, self.rounds, self.am, self.gm, self.counts)]
        moving = [np.nonzero(np.abs(x - x[-1]).reshape(T + 1, -1).max(axis=1) > 1e-9)[0] for x in curves]
        return max(int(m.max()) + 1 if m.size else 0 for m in moving)

    @property
    def shown(self) -> int:
        """The last iteration the figure shows: twice the settling time, at least 10, at most T."""
        return min(self.iterations, max(10, 2 * self.settled))

    @property
    def rounds_won(self) -> int:
        """Rounds won by a maximum-likelihood state, at agent 1 and the last iteration."""
        return int(self.on_mle(self.counts[-1, 0]) * self.K + 0.5)

    def final(self, which: str) -> str:
        """Belief on Θ* at the last iteration (``"am"``, ``"gm"`` or ``"alg4"``): one value or a range."""
        return _span(self.on_mle(getattr(self, which)[-1]))

    def figure(self) -> Figure:
        """Alg 4, AM (with agent 1's rounds in grey), GM and the two-threshold frequencies against t."""
        T, K, n = self.iterations, self.K, self.alg4.shape[1]
        t = np.arange(T + 1)
        fig, grid = panel_grid(2, 2, height=2.5)
        ax = grid.ravel()
        panels = [(self.alg4, "Alg 4 (no privacy)"), (self.am, f"AM of K = {K} rounds"), (self.gm, "GM")]
        for a, (traj, title) in zip(ax[:3], panels, strict=True):
            if traj is self.am:
                for k in range(K):
                    a.plot(t, self.on_mle(self.rounds[:, k, 0]), color="0.75", lw=0.8, zorder=1)
            for i in range(n):
                a.plot(t, self.on_mle(traj[:, i]), lw=1.3, color=f"C{i % 10}", zorder=2)
            a.set(title=title, xlabel="iteration t", ylim=(-0.03, 1.03))
        for a in ax[[0, 2]]:
            a.set_ylabel("belief on Θ*")
        for i in range(n):
            ax[3].plot(t, self.on_mle(self.counts[:, i]), lw=1.3, color=f"C{i % 10}")
            ax[3].plot(t, self.counts[:, i][:, ~self.mle].max(-1), lw=1.0, ls=":", color=f"C{i % 10}")
        tau1 = f"τ¹ = {self.tau1:.3f}"
        if self.tau1 > self.tau1_theorem:  # the theorem's τ¹ is 0 when |Θ*| = 1: one won round instead
            tau1 = f"τ¹ = 1/K = {self.tau1:.3f} (Thm 4.3: {self.tau1_theorem:g})"
        ax[3].axhline(self.tau1, color="0.2", ls="--", lw=1, label=tau1)
        ax[3].axhline(self.tau2, color="0.5", ls="-.", lw=1, label=f"τ² = {self.tau2:.3f}")
        ax[3].set(
            title="two thresholds (τ̂ = 0)", xlabel="iteration t", ylabel="frequency N", ylim=(-0.03, 1.03)
        )
        ax[3].legend(loc="upper right")
        for a in ax:
            a.set_xlim(0, self.shown)
        fig.suptitle(f"One private run on the {self.graph} graph, n = {n}, ε = {self.eps:g}")
        return fig


def trajectories(P: Parameters, inst: Instance) -> Trajectories:
    """One private run at ``eps_demo`` for ``iterations`` iterations (noise from stream ``trajectories``)."""
    target = {"delta": inst.delta, "eps": P.eps_demo, "alpha": P.alpha, "beta": P.beta}
    s41 = inf.schedule_thm41(inst.problem, **target)
    s43 = inf.schedule_thm43(inst.problem, **target, pi1=P.pi, pi2=P.pi)
    K, T = s41.K, P.iterations
    noise = inf.laplace_noise(
        P.rng("trajectories"), s41.noise_scale, n_reps=1, K=K, n_agents=inst.n, n_states=inst.n_states
    )[0]  # (K, n, |Θ|)
    ll, A = inst.loglik, inst.weights
    tau1, tau2 = inf.frequency_thresholds(s43.freq_1, s43.freq_2, K)  # τ¹ ≥ 1/K
    return Trajectories(
        P.eps_demo, P.graph, K, float(s41.noise_scale), inst.problem.gap, inst.mle,
        inf.belief_trajectory(ll, A, T), inf.belief_trajectory(ll, A, T, noise),
        inf.belief_trajectory(ll, A, T, noise, aggregate="am"),
        inf.belief_trajectory(ll, A, T, noise, aggregate="gm"),
        inf.belief_trajectory(ll, A, T, noise, aggregate="counts"), tau1, tau2, s43.freq_1,
    )  # fmt: skip
