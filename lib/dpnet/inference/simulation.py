"""Simulation driver.

``R`` independent runs of ``K`` private rounds (Algs 1–2) in closed form, and their AM, GM and
round-count aggregates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference._checks import Weights, _check_loglik, _check_T
from dpnet.inference.aggregation import am_beliefs, gm_log_beliefs, round_counts
from dpnet.inference.dynamics import asymptotic_log_ratios, round_log_beliefs, scaled_log_ratios
from dpnet.inference.noise import laplace_noise

__all__ = [
    "PrivateMLEResult",
    "run_private_mle",
]


@dataclass(frozen=True, eq=False)
class PrivateMLEResult:
    """Outcome of :func:`run_private_mle`: the scaled log-ratios of every replication and round.

    Attributes
    ----------
    scaled
        ``ψ̄_T`` of shape ``(R, K, n, |Θ|)`` (the limit ``(Λ + Y_k)/n`` when ``T`` is ``None``).
    T
        Iterations per round; ``None`` for the ``T → ∞`` oracle.
    noise_scale
        Laplace scale(s) ``b`` used.
    """

    scaled: NDArray[np.float64]
    T: int | None
    noise_scale: float | NDArray[np.float64]

    @property
    def n_reps(self) -> int:
        return int(self.scaled.shape[0])

    @property
    def K(self) -> int:
        return int(self.scaled.shape[1])

    @cached_property
    def _log_beliefs(self) -> NDArray[np.float64]:
        return round_log_beliefs(self.scaled, self.T)

    def round_log_beliefs(self) -> NDArray[np.float64]:
        """``log ν_{i,k,T}(θ)``, shape ``(R, K, n, |Θ|)`` (computed once, then cached)."""
        return self._log_beliefs

    def am_beliefs(self) -> NDArray[np.float64]:
        """AM beliefs, shape ``(R, n, |Θ|)``."""
        return am_beliefs(self.scaled, self.T, log_beliefs=self._log_beliefs)

    def gm_log_beliefs(self) -> NDArray[np.float64]:
        """GM log-beliefs, shape ``(R, n, |Θ|)``."""
        return gm_log_beliefs(self.scaled, self.T)

    def round_counts(self, tau_hat: float) -> NDArray[np.float64]:
        """Alg 2 frequencies ``N(θ)`` at belief threshold ``τ̂``, shape ``(R, n, |Θ|)``."""
        needed = float(tau_hat) != 0.0  # τ̂ = 0 compares the scaled log-ratios, not the beliefs
        return round_counts(self.scaled, self.T, tau_hat, log_beliefs=self._log_beliefs if needed else None)


def run_private_mle(
    loglik: ArrayLike,
    A: Weights | None,
    *,
    K: int,
    T: int | None,
    scale: ArrayLike,
    n_reps: int,
    rng: np.random.Generator,
) -> PrivateMLEResult:
    """Simulate ``n_reps`` independent runs of ``K`` private rounds of ``T`` iterations (Algs 1–2).

    Each agent, state, round and replication gets independent ``Lap(b)`` noise
    (:func:`~dpnet.inference.noise.laplace_noise`); the rounds are evaluated in closed form
    (:func:`~dpnet.inference.dynamics.scaled_log_ratios`), or in the ``T → ∞`` limit when ``T`` is ``None``
    (:func:`~dpnet.inference.dynamics.asymptotic_log_ratios`; ``A`` is then not needed). Cost
    ``O(R K n² |Θ|)`` plus ``O(n³ log T)``, independent of ``T`` otherwise.
    """
    arr = _check_loglik(loglik)
    T = _check_T(T)
    if T is not None and A is None:
        raise ParameterError("A (weights) is required for finite T")
    noise = laplace_noise(rng, scale, n_reps=n_reps, K=K, n_agents=arr.shape[0], n_states=arr.shape[1])
    scaled = asymptotic_log_ratios(arr, noise) if T is None else scaled_log_ratios(arr, A, T, noise)
    b = np.asarray(scale, dtype=float)
    return PrivateMLEResult(scaled=scaled, T=T, noise_scale=float(b) if b.ndim == 0 else b)
