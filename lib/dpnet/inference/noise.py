"""Sensitivity and noise.

Bernoulli log-likelihoods and sensitivities, paper 000's Network-DP sensitivity, the Laplace scale
``b = ΔK|Θ|/ε`` (paper or authors' code), ``V = √2 Σ_i b_i`` and the Laplace draws.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference._checks import Weights, _check_int, _check_pos
from dpnet.networks import check_weights, neighbour_weights

__all__ = [
    "Convention",
    "bernoulli_loglik",
    "bernoulli_sensitivity",
    "laplace_noise",
    "network_dp_sensitivity",
    "noise_scale",
    "noise_std_sum",
]


Convention = Literal["paper", "authors_code"]


def bernoulli_loglik(successes: ArrayLike, trials: ArrayLike, thetas: ArrayLike) -> NDArray[np.float64]:
    r"""Log-likelihood table of Bernoulli signals: ``loglik[i, θ] = s_i log θ + (N_i − s_i) log(1 − θ)``.

    Parameters
    ----------
    successes, trials
        Per-agent counts of ones ``s_i`` and signals ``N_i`` (broadcast to the same 1-D shape).
    thetas
        The states, success probabilities in ``(0, 1)``.
    """
    s = np.atleast_1d(np.asarray(successes, dtype=float))
    N = np.atleast_1d(np.asarray(trials, dtype=float))
    th = np.atleast_1d(np.asarray(thetas, dtype=float))
    s, N = np.broadcast_arrays(s, N)
    if s.ndim != 1 or np.any((s < 0) | (s > N) | (s != np.round(s)) | (N != np.round(N))):
        raise ParameterError("successes and trials must be 1-D integer counts with 0 ≤ successes ≤ trials")
    if th.ndim != 1 or th.size < 2 or np.any((th <= 0) | (th >= 1)):
        raise ParameterError(f"thetas must be ≥ 2 success probabilities in (0, 1) (got {thetas})")
    return s[:, None] * np.log(th)[None, :] + (N - s)[:, None] * np.log1p(-th)[None, :]


def bernoulli_sensitivity(thetas: ArrayLike, n_signals: ArrayLike) -> NDArray[np.float64] | float:
    r"""Sensitivity (eq. 7) of ``n_i`` Bernoulli signals: ``Δ_i = n_i max_θ |log(θ/(1−θ))|``.

    Changing one signal changes ``log ℓ(s|θ) = s log θ + (1−s) log(1−θ)`` by ``g(θ) = |logit θ|``.
    ``Θ = {0.3, 0.5, 0.7}``, ``n_i = 20``: ``Δ_i = 20 ln(7/3) = 16.945957``.
    """
    th = np.atleast_1d(np.asarray(thetas, dtype=float))
    if np.any((th <= 0) | (th >= 1)):
        raise ParameterError(f"thetas must lie in (0, 1) (got {thetas})")
    counts = np.asarray(n_signals, dtype=float)
    if np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise ParameterError(f"n_signals must be integers ≥ 0 (got {n_signals})")
    out = counts * float(np.max(np.abs(special.logit(th))))
    return float(out) if out.ndim == 0 else out


def network_dp_sensitivity(signal_sensitivity: ArrayLike, A: Weights) -> NDArray[np.float64]:
    r"""Paper 000's Network-DP sensitivity ``Δ_i = max{Δ_i^signal, 1 + max_{j≠i} a_ij}`` (§2.3).

    Network DP also protects the neighbours' incoming beliefs; 003 drops it. Returns one value per agent.
    """
    dense = check_weights(A)
    n = dense.shape[0]
    sig = np.broadcast_to(np.asarray(signal_sensitivity, dtype=float), (n,))
    if np.any(sig < 0) or not np.all(np.isfinite(sig)):
        raise ParameterError("signal_sensitivity must be finite and ≥ 0")
    return np.maximum(sig, 1.0 + neighbour_weights(dense))


def noise_scale(
    delta: ArrayLike,
    n_states: int,
    eps: float,
    K: int = 1,
    *,
    convention: Convention = "paper",
) -> NDArray[np.float64] | float:
    r"""Laplace scale of the per-agent, per-state, per-round noise (Thms 4.1–4.5).

    .. math:: b = \frac{\Delta\, K\, |\Theta|}{\varepsilon} \quad (\text{paper}), \qquad
       b = \frac{2\,\Delta\, K\, |\Theta|}{\varepsilon} \quad (\text{authors' notebook}).

    One ε-DP release of ``K`` rounds × ``|Θ|`` states composes ``K|Θ|`` Laplace releases, each
    ``ε/(K|Θ|)``-DP for a query of sensitivity Δ. ``K = 1`` gives the online-learning scale ``Δ|Θ|/ε``.
    With an array ``delta`` (paper 000's per-agent ``Δ_i``) the result is one scale per agent.
    """
    if convention not in ("paper", "authors_code"):
        raise ParameterError(f"convention must be 'paper' or 'authors_code' (got {convention!r})")
    d = np.asarray(delta, dtype=float)
    if np.any(~np.isfinite(d)) or np.any(d <= 0):
        raise ParameterError(f"delta (sensitivity) must be finite and > 0 (got {delta})")
    n_states = _check_int("n_states (|Θ|)", n_states, 1)
    K = _check_int("K (rounds)", K, 1)
    eps = _check_pos("eps", eps)
    factor = 2.0 if convention == "authors_code" else 1.0
    out = factor * d * K * n_states / eps
    return float(out) if out.ndim == 0 else out


def noise_std_sum(scale: ArrayLike, n: int) -> float:
    r"""``V = Σ_i sqrt(Var d_i) = √2 Σ_i b_i`` (``n √2 b`` for a common scale ``b``)."""
    n = _check_int("n (agents)", n, 1)
    b = np.broadcast_to(np.asarray(scale, dtype=float), (n,))
    if np.any(b < 0) or not np.all(np.isfinite(b)):
        raise ParameterError(f"scale must be finite and ≥ 0 (got {scale})")
    return float(math.sqrt(2.0) * b.sum())


def laplace_noise(
    rng: np.random.Generator,
    scale: ArrayLike,
    *,
    n_reps: int,
    K: int,
    n_agents: int,
    n_states: int,
) -> NDArray[np.float64]:
    """Laplace noise ``d_{r,k,i}(θ) ~ Lap(b_i)`` iid over replications, rounds, agents and states.

    Returns an array of shape ``(n_reps, K, n_agents, n_states)``; ``scale`` is a common ``b ≥ 0`` or one
    per agent. ``b = 0`` gives zeros (the non-private algorithm).
    """
    shape = (
        _check_int("n_reps", n_reps, 1),
        _check_int("K (rounds)", K, 1),
        _check_int("n_agents", n_agents, 1),
        _check_int("n_states", n_states, 1),
    )
    b = np.asarray(scale, dtype=float)
    if b.ndim > 1 or (b.ndim == 1 and b.shape[0] != n_agents) or np.any(b < 0) or not np.all(np.isfinite(b)):
        raise ParameterError(f"scale must be finite, ≥ 0, scalar or one per agent (got {scale})")
    per_agent = b[:, None] if b.ndim == 1 else b
    return rng.laplace(size=shape) * per_agent
