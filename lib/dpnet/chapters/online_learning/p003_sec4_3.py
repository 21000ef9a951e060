"""Paper 003, §4.3 (the book's experiment): the probability of identifying θ° against the period, at
every ε, and how much of the time-averaged ratio is noise; the §4.3 checks. Theorem 4.7's horizons, which
the figure marks, are checked by :mod:`~dpnet.chapters.online_learning.p003_thm4_7`."""

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
from dpnet.reference.online import LIMIT_Z
from dpnet.results import Check

#: Log-spaced periods of a curve; Theorem 4.7's horizons inside the run are added to them.
SWEEP_POINTS = 100
#: The recorded periods of a curve, at most (the log grid and a horizon per noise scale, with room).
CURVE_POINTS = SWEEP_POINTS + 12
#: The noise part of the time-averaged ratio is compared at the recorded period nearest T/16 and at T.
EARLY_SHARE = 1 / 16


def cost(values: Mapping[str, Any]) -> Cost:
    """``replications`` private streams of ``horizon`` periods at every noise scale (no DP and each ε):
    ``n_agents`` × ``n_states`` updates per run, scale and period, one loop per period; held while it runs,
    the log-beliefs of every run and scale at the recorded periods and over four blocks of periods."""
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    T, S = values["horizon"], 1 + len(values["eps_values"])
    seconds = n * m * S * R * T * update_seconds(n) + T * PERIOD_SECONDS
    return Cost(seconds=seconds, peak=float(8 * n * m * R * S * (CURVE_POINTS + 4 * BLOCK)))


def eps_labels(eps: Sequence[float | None]) -> list[str]:
    """How the sweep's tables and figure name each run: ``no DP``, then the ε values."""
    return ["no DP" if e is None else f"{e:g}" for e in eps]


def noise_part(psi: NDArray[np.float64], times: NDArray[np.int64], truth: int) -> NDArray[np.float64]:
    """The root mean square, over runs, agents and wrong states, of the noise part of the time-averaged
    log-belief ratio at each recorded period, for each private scale.

    ``psi`` is :func:`~dpnet.inference.signals.simulate_online`'s ``(S, R, K, n, |Θ|)`` with the
    non-private scale first: every scale sees the same signals, so the difference of a private ratio and
    the non-private one is the noise's part of it exactly. Shape ``(S − 1, K)``.
    """
    ratios = inf.time_averaged_ratios(psi, truth, times=times)
    wrong = np.delete(np.arange(psi.shape[-1]), truth)
    noise = ratios[1:][..., wrong] - ratios[:1][..., wrong]
    return np.sqrt(np.mean(noise**2, axis=(1, 3, 4)))


def limit_approach(
    psi: NDArray[np.float64], times: NDArray[np.int64], truth: int, limit: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """How the private time-averaged log-belief ratios approach the closed-form limit ``−l_θ/n``.

    ``psi`` as for :func:`noise_part` (the non-private scale first), ``limit`` the limit of every state
    (:func:`~dpnet.inference.online.online_limit`). Returns, for each private scale, the root mean square
    over runs, agents and wrong states of the ratio's distance from the limit at each recorded period,
    ``(S − 1, K)``; and at the last period, over the wrong states, the largest relative gap
    ``|mean − limit| / |limit|`` of the mean over runs and agents, with that state's relative standard error
    of the mean over runs, ``(S − 1,)`` each.
    """
    ratios = inf.time_averaged_ratios(psi, truth, times=times)[1:]
    wrong = np.delete(np.arange(psi.shape[-1]), truth)
    dist = ratios[..., wrong] - limit[wrong]
    rms = np.sqrt(np.mean(dist**2, axis=(1, 3, 4)))
    runs = dist[:, :, -1].mean(axis=2) / np.abs(limit[wrong])  # (S − 1, R, wrong): relative, per run
    gap = np.abs(runs.mean(axis=1))
    se = runs.std(axis=1, ddof=1) / math.sqrt(runs.shape[1])
    worst = np.argmax(gap - LIMIT_Z * se, axis=1)
    rows = np.arange(len(worst))
    return rms, gap[rows, worst], se[rows, worst]


@dataclass(frozen=True)
class PrivacySweep:
    """§4.3: the probability that an agent identifies θ° against the period, without noise and at every ε,
    and the noise part of the time-averaged ratio.

    Attributes
    ----------
    eps
        ``None`` (no DP), then the run's ε values.
    times, probability, se
        The recorded periods and, per ε, the probability and its Monte Carlo standard error.
    noise
        Per private ε, the root mean square of the noise part of the time-averaged ratio at each recorded
        period (:func:`noise_part`).
    horizons
        Per ε, Theorem 4.7's horizon, real-valued (the figure marks those inside the run).
    checks
        §4.3 on the synthetic streams.
    """

    eps: tuple[float | None, ...]
    times: NDArray[np.int64]
    probability: NDArray[np.float64]
    se: NDArray[np.float64]
    noise: NDArray[np.float64]
    horizons: tuple[float, ...]
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
        return eps_labels(self.eps)

    @property
    def curve(self) -> pd.DataFrame:
        """One row per (ε, period): the probability and its standard error."""
        return pd.DataFrame([
            {"eps": e, "ε": label, "T": int(t), "mean": self.probability[s, j], "se": self.se[s, j]}
            for s, (e, label) in enumerate(zip(self.eps, self.labels, strict=True))
            for j, t in enumerate(self.times)
        ])  # fmt: skip

    @property
    def level(self) -> float:
        """1 − 2η: the probability Theorem 4.7 promises at its horizon."""
        return 1 - 2 * self.eta

    @property
    def early(self) -> int:
        """The recorded period nearest T/16, at which the noise part is compared with the last period's."""
        return int(self.times[_early_index(self.times)])

    @property
    def noise_fall(self) -> tuple[float, float]:
        """The smallest and largest factor by which the noise part falls from :attr:`early` to T, over ε."""
        ratios = self.noise[:, _early_index(self.times)] / self.noise[:, -1]
        return float(ratios.min()), float(ratios.max())

    def metrics(self) -> dict[str, Any]:
        return {"identification_probability": [
            {"eps": e, "T": int(t), "probability": float(self.probability[s, j]), "se": float(self.se[s, j])}
            for s, e in enumerate(self.eps) for j, t in enumerate(self.times)
        ]}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The curve (``p003-sec4-3``)."""
        return {"p003-sec4-3": self.curve.drop(columns="ε")}

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


def _early_index(times: NDArray[np.int64]) -> int:
    return int(np.argmin(np.abs(np.log(times / (EARLY_SHARE * times[-1])))))


def privacy_sweep(P: Parameters, sig: Signals, conv: Convergence) -> PrivacySweep:
    """``replications`` private streams of ``horizon`` periods, every ε on the same signals (stream
    ``p003-sec4-3``), recorded on a log grid of periods plus Theorem 4.7's horizons; the §4.3 checks."""
    eps: tuple[float | None, ...] = (None, *P.eps_values)
    H = tuple(sig.horizon(e) for e in eps)
    times = time_grid(P.horizon, [math.ceil(h) for h in H], points=SWEEP_POINTS)
    scales = [sig.scale(e) for e in eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=sig.xi, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=times)  # fmt: skip
    prob, se = inf.identification_rate(psi, TRUTH)
    noise = noise_part(psi, times, TRUTH)
    labels = eps_labels(eps)
    j = _early_index(times)
    rms, gap, gse = limit_approach(psi, times, TRUTH, conv.limit_bernoulli)
    private = {label: (int(times[j]), float(rms[s, j]), int(times[-1]), float(rms[s, -1]), float(gap[s]),
                       float(gse[s])) for s, label in enumerate(labels[1:])}  # fmt: skip
    checks = ref.section43_checks(
        limit_gap=conv.gap, limit_se=conv.se, limit_T=conv.periods, prob=prob, se=se, times=times.tolist(),
        labels=labels, private=private, n_agents=sig.n_agents, n_reps=P.replications,
    )  # fmt: skip
    title = f"{P.graph} graph, n = {sig.n_agents}, |Θ| = {sig.n_states}, ξ = {sig.xi:g}"
    return PrivacySweep(eps, times, prob, se, noise, H, sig.eta, title, {"p003-sec4-3": checks})
