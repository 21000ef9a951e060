"""Paper 003, §4.3 (the book's experiment): the non-private time average against its closed-form limit,
and one private stream at every ε (figure ``p003-sec4-3-convergence``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import plotting
from dpnet.chapters.online_learning._common import PERIOD_SECONDS, update_seconds
from dpnet.chapters.online_learning.p003_sec4_3_signals import TRUTH, Signals, time_grid
from dpnet.params import Cost, Parameters
from dpnet.results import Check


def cost(values: Mapping[str, Any]) -> Cost:
    """``replications`` Gaussian runs of ``limit_horizon`` periods, one Gaussian run of as many, and one
    Bernoulli stream of ``horizon`` periods at every noise scale (no DP and each ε): ``n_agents`` ×
    ``n_states`` updates per run, scale and period, and one loop per period of each."""
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    T, LT, S = values["horizon"], values["limit_horizon"], 1 + len(values["eps_values"])
    units = n * m * (R * LT + LT + S * T)
    return Cost(seconds=units * update_seconds(n) + (2 * LT + T) * PERIOD_SECONDS)


@dataclass(frozen=True)
class Convergence:
    """The non-private time average against its limit (Gaussian signals), and one private Bernoulli stream
    at every ε.

    Attributes
    ----------
    limit_gaussian, limit_bernoulli
        The closed-form limit ``−(1/n) Σ ξ_i KL_i(θ)`` of each state.
    periods, replications
        The periods and runs of the convergence check.
    gap, se
        The largest relative gap between the runs' mean ratio and the limit, over agents and wrong states,
        and the largest relative standard error of those means.
    gaussian_times, gaussian_paths
        One non-private Gaussian run: ψ at the recorded periods, ``(len(times), n, |Θ|)``.
    times, paths, eps
        One Bernoulli stream, without noise and at every ε: ψ, ``(1 + len(eps), len(times), n, |Θ|)``.
    """

    limit_gaussian: NDArray[np.float64]
    limit_bernoulli: NDArray[np.float64]
    periods: int
    replications: int
    gap: float
    se: float
    gaussian_times: NDArray[np.int64]
    gaussian_paths: NDArray[np.float64]
    times: NDArray[np.int64]
    paths: NDArray[np.float64]
    eps: tuple[float, ...]

    #: The book's experiment leaves no setting of the paper.
    paper_setting = True

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        """None: the privacy sweep checks the gap against the limit (§4.3's ``limit``)."""
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, Any]:
        return {}

    def figure(self) -> Figure:
        """(a) every agent's Gaussian ratio against its limit; (b) agent 1's Bernoulli ratio at every ε."""
        fig, axes = plotting.panel_row(2, height=3.2)
        tg = self.gaussian_times
        ratios = inf.time_averaged_ratios(self.gaussian_paths, times=tg)[:, :, 1]
        plotting.ratio_paths(axes[0], ratios, t=tg, limit=self.limit_gaussian[1],
                             limit_label="closed-form limit", name=None)  # fmt: skip
        axes[0].set(ylabel="(ψ(θ1) − ψ(θ°)) / t", title="(a) Gaussian signals, no DP")
        agent1 = inf.time_averaged_ratios(self.paths, times=self.times)[:, :, 0, 1]
        for s, label in enumerate(["no DP"] + [f"ε = {e:g}" for e in self.eps]):
            axes[1].plot(self.times, agent1[s], lw=1.0, label=label, color="0.1" if s == 0 else f"C{s - 1}")
        axes[1].axhline(self.limit_bernoulli[1], color="0.1", ls="--", lw=1.2)
        axes[1].set(xscale="log", xlabel="period t", title="(b) Bernoulli signals, agent 1, private")
        axes[1].set_ylim(self.limit_bernoulli[1] - 1.5, 1.5)
        for ax in axes:
            ax.legend(fontsize=plotting.SMALL)
        return fig


def convergence(P: Parameters, sig: Signals) -> Convergence:
    """``replications`` non-private Gaussian runs over ``limit_horizon`` periods (stream ``convergence``);
    one Gaussian run and one Bernoulli stream at every ε (stream ``sample-paths``, in that order)."""
    A, xi, R, LT = sig.weights, sig.xi, P.replications, P.limit_horizon
    limit_g = inf.online_limit(sig.gaussian.kl(TRUTH), xi)
    final = inf.simulate_online(P.rng("convergence"), sig.gaussian, A, xi=xi, T=LT, n_reps=R, times=[LT])[0]
    gap, se = inf.limit_error(inf.time_averaged_ratios(final, times=[LT])[:, 0], limit_g, TRUTH)
    rng = P.rng("sample-paths")
    tg, grid = time_grid(LT), time_grid(P.horizon)
    paths_g = inf.simulate_online(rng, sig.gaussian, A, xi=xi, T=LT, n_reps=1, times=tg)[0, 0]
    scales = [sig.scale(None)] + [sig.scale(e) for e in P.eps_values]
    paths_b = inf.simulate_online(rng, sig.bernoulli, A, xi=xi, T=P.horizon, n_reps=1, noise_scales=scales,
                                  times=grid)[:, 0]  # fmt: skip
    return Convergence(
        limit_g,
        inf.online_limit(sig.bernoulli.kl(TRUTH), xi),
        LT,
        R,
        gap,
        se,
        tg,
        paths_g,
        grid,
        paths_b,
        tuple(P.eps_values),
    )
