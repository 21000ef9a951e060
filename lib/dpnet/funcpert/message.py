"""The message-perturbation baseline in the style of Huang, Mitra & Vaidya (note-fp-message-accountant).

Agents send ``ξ_j(k) = x_j(k) + η_j(k)``, ``η_j(k) ~ Lap(b_k)^d``, and update
``x_i ← proj_X(Σ_j w_ij ξ_j − s_k ∇f_i(Σ_j w_ij ξ_j))``. With geometric schedules ``s_k = c ρ_s^k`` and
``b_k = b₀ ρ_η^k`` (``ρ_s < ρ_η``) the privacy loss is bounded, but ``Σ s_k < ∞`` stops the iteration short
of the optimum. The accountant and the ``b₀`` formula are the book's derivation, not Huang's constants:
agent ``i₀``'s state moves by at most ``s_k Δ`` between adjacent inputs (``Δ = sup_X |∇f − ∇f'|``), so the
loss after ``K`` messages is at most ``L_K = √d Δ Σ_{k<K} s_k / b_{k+1}``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError

__all__ = ["convergent_schedule", "geometric_b0", "geometric_schedule", "privacy_loss_bound", "run_messages"]


def geometric_b0(eps: float, c: float, rho_s: float, rho_eta: float, sensitivity: float, d: int = 1) -> float:
    """Initial noise scale giving total loss ε: ``b₀ = √d Δ c / (ε (ρ_η − ρ_s))``."""
    if not (0 < rho_s < rho_eta < 1 and c > 0 and eps > 0 and sensitivity > 0):
        raise ParameterError(
            f"need 0 < rho_s < rho_eta < 1, c > 0, eps > 0, Δ > 0 (got {rho_s}, {rho_eta}, {c}, {eps})"
        )
    return np.sqrt(d) * sensitivity * c / (eps * (rho_eta - rho_s))


def geometric_schedule(
    iterations: int, c: float, rho_s: float, rho_eta: float, b0: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Steps ``s_k = c ρ_s^k`` (``k < K``), noise scales ``b_k = b₀ ρ_η^k`` (``k ≤ K``; ``b₀ = 0``: none)."""
    k = np.arange(iterations + 1, dtype=float)
    return c * rho_s ** k[:-1], b0 * rho_eta**k


def convergent_schedule(
    iterations: int, c: float = 0.5, power: float = 0.7, b: float = 0.3
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A convergent schedule (``Σ s_k = ∞``, noise → 0): ``s_k = c/(k + 1)^power``, ``b_k = b/(k + 1)``."""
    k = np.arange(iterations + 1, dtype=float)
    return c / (k[:-1] + 1) ** power, b / (k + 1)


def privacy_loss_bound(
    steps: NDArray, scales: NDArray, sensitivity: float, d: int = 1
) -> NDArray[np.float64]:
    """``L_K = √d Δ Σ_{k<K} s_k/b_{k+1}`` for ``K = 1..len(steps)``."""
    return np.sqrt(d) * sensitivity * np.cumsum(steps / scales[1:])


def run_messages(
    gradients: Callable[[NDArray], NDArray], W: NDArray, lower: NDArray, upper: NDArray,
    steps: NDArray, scales: NDArray, rng: np.random.Generator, runs: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:  # fmt: skip
    """Run the scheme ``runs`` times at once from ``x(0) = 0``.

    ``gradients(z)`` maps states ``(runs, n, d)`` to the agents' own gradients. Returns the states
    ``(K + 1, runs, n, d)`` and the messages ``(K, runs, n, d)``.
    """
    n, d = W.shape[0], lower.size
    x = np.zeros((runs, n, d))
    states, messages = [x], []
    for k, step in enumerate(steps):
        xi = x + (rng.laplace(0.0, scales[k], x.shape) if scales[k] > 0 else 0.0)
        z = W @ xi  # Σ_j w_ij ξ_j, for every run
        x = np.clip(z - step * gradients(z), lower, upper)
        states.append(x)
        messages.append(xi)
    return np.array(states), np.array(messages)
