"""Paper 003, §4.3 (the book's experiment): the synthetic streams' signal laws, network and recorded
periods, which the convergence check, the privacy sweep and the comparisons share."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks
from dpnet.params import Cost, Parameters

#: The true state θ° of the synthetic streams: the first.
TRUTH = 0


def time_grid(T: int, extra: Sequence[int] = (), *, points: int = 40) -> NDArray[np.int64]:
    """``points`` log-spaced periods from 1 to ``T`` (rounded, without repeats), plus those of ``extra`` that
    fall inside."""
    grid = np.r_[np.geomspace(1, T, points).round(), [t for t in extra if t <= T]]
    return np.unique(grid).astype(int)


def cost(values: Mapping[str, Any]) -> Cost:
    """The signal laws, their constants and the network's spectrum: closed forms, negligible."""
    return Cost()


@dataclass(frozen=True)
class Signals:
    """The synthetic streams' laws and constants.

    Attributes
    ----------
    bernoulli, gaussian
        The private streams' Bernoulli laws, and the Gaussian laws of the convergence check (σ = 1).
    weights, b_star
        The Metropolis–Hastings matrix of the ``graph`` parameter and its second largest eigenvalue
        modulus.
    xi, eta
        The arrival chance ξ and the error probability η of the privacy sweep.
    """

    bernoulli: inf.SignalModel
    gaussian: inf.SignalModel
    weights: NDArray[np.float64]
    b_star: float
    xi: float
    eta: float

    @property
    def n_agents(self) -> int:
        return self.bernoulli.n_agents

    @property
    def n_states(self) -> int:
        return self.bernoulli.n_states

    @property
    def delta(self) -> float:
        """Δ: the sensitivity of one Bernoulli signal's log-likelihood."""
        return self.bernoulli.sensitivity()

    @property
    def spread(self) -> float:
        """Q: the largest standard deviation of one signal's log-likelihood ratio under θ°."""
        return self.bernoulli.llr_spread(TRUTH)

    def scale(self, eps: float | None) -> float:
        """The Laplace scale Δ|Θ|/ε of Algorithm 3 (0 without privacy, ``eps = None``)."""
        return 0.0 if eps is None else float(inf.noise_scale(self.delta, self.n_states, eps))

    def horizon(self, eps: float | None, *, slem: float | None = None, xi: float | None = None,
                version: str = "003") -> float:  # fmt: skip
        """Theorem 4.7's horizon: the constant of its proof's last display (``version="003"``) or of its
        proof's own inequalities (``"003-steps"``), or the earlier version's (``"000"``); real-valued
        (:func:`~dpnet.inference.online.online_horizon`)."""
        rate = self.xi if xi is None else xi
        gap = inf.online_gap(self.bernoulli.kl(TRUTH), rate, TRUTH)
        return inf.online_horizon(
            n_agents=self.n_agents, n_states=self.n_states, llr_spread=self.spread,
            noise_scale=self.scale(eps), xi=rate, chi=inf.arrival_variance(rate), gap=gap, eta=self.eta,
            slem=self.b_star if slem is None else slem, version=version,  # type: ignore[arg-type]
            rho=math.log(self.n_states),
        )  # fmt: skip

    @property
    def table(self) -> pd.DataFrame:
        """Each agent's success chance p_i(θ) at every state, with the state it tells apart."""
        p = self.bernoulli.params
        frame = pd.DataFrame(p, columns=[f"θ{k}" if k else "θ° = θ0" for k in range(self.n_states)])
        frame.insert(0, "agent", np.arange(1, self.n_agents + 1))
        frame["tells apart"] = [f"θ{k}" for k in 1 + np.arange(self.n_agents) % (self.n_states - 1)]
        return frame


def signals(P: Parameters) -> Signals:
    """The Bernoulli and Gaussian laws of the synthetic agents (each tells one wrong state apart), on the
    ``graph`` network."""
    bern = inf.informative_model(P.n_agents, P.n_states, kind="bernoulli", shift=P.signal_shift)
    gauss = inf.informative_model(P.n_agents, P.n_states, kind="gaussian", base=0.0, shift=P.gaussian_shift)
    A = networks.dense_weights(P.graph, P.n_agents)
    return Signals(bern, gauss, A, networks.spectral_constants(A).b_star, P.arrival_rate, P.eta)
