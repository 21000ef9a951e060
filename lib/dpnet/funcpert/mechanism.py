"""The functional Laplace mechanism (the slides' theorem; notes note-fp-vq-norm, note-fp-optimal-p).

Agent ``i`` adds ``Φ(η) = Σ_k η_k e_k`` to its objective, with independent ``η_k ~ Lap(γ/k^p)``. With the
adjacency norm ``‖Φ(δ)‖_{V_q} = (Σ_k k^{2q} δ_k²)^{1/2}`` and ``q > 1``, ``1/2 < p < q − 1/2``, the
mechanism is ε-DP (per unit of V_q-norm) for ``ε = √ζ(2(q − p))/γ`` [slides]. Only ``k ≤ K`` is ever
drawn: truncation is post-processing, so the ζ-based ε is conservative (note-fp-truncation).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError

__all__ = [
    "check_exponents",
    "extremal_shift",
    "gamma",
    "laplace_scales",
    "noise_energy",
    "noise_energy_factor",
    "perturbation",
    "privacy_loss",
    "vq_norm",
]


def check_exponents(q: float, p: float) -> tuple[float, float]:
    """``(q, p)`` if ``q > 1`` and ``1/2 < p < q − 1/2`` (the theorem's conditions), else a ParameterError."""
    q, p = float(q), float(p)
    if not q > 1:
        raise ParameterError(f"q must be > 1 (got {q})")
    if not 0.5 < p < q - 0.5:
        raise ParameterError(f"p must lie in (1/2, q − 1/2) = (0.5, {q - 0.5:g}) (got {p})")
    return q, p


def gamma(eps: float, q: float, p: float) -> float:
    """Laplace scale constant ``γ = √ζ(2(q − p))/ε`` giving ε-DP."""
    q, p = check_exponents(q, p)
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not (math.isfinite(eps) and eps > 0):
        raise ParameterError(f"eps must be a finite number > 0 (got {eps!r})")
    return math.sqrt(special.zeta(2 * (q - p))) / eps


def laplace_scales(K: int, gam: float, p: float) -> NDArray[np.float64]:
    """``b_k = γ/k^p`` for ``k = 1..K``."""
    return gam / np.arange(1, K + 1, dtype=float) ** p


def perturbation(
    K: int, eps: float, q: float, p: float, rng: np.random.Generator, size: int | tuple[int, ...] = ()
) -> NDArray[np.float64]:
    """Coefficients ``η_1..η_K`` of the functional noise (shape ``(*size, K)``)."""
    scales = laplace_scales(K, gamma(eps, q, p), p)
    shape = (size,) if isinstance(size, int) else tuple(size)
    return rng.laplace(0.0, 1.0, (*shape, K)) * scales


def vq_norm(coefficients: ArrayLike, q: float) -> NDArray[np.float64] | float:
    """``(Σ_k k^{2q} c_k²)^{1/2}`` over the last axis (the adjacency norm of V_q)."""
    c = np.asarray(coefficients, dtype=float)
    k = np.arange(1, c.shape[-1] + 1, dtype=float)
    return np.sqrt(np.sum((k**q * c) ** 2, axis=-1))


def noise_energy(K: int, gam: float, p: float) -> float:
    """``E‖Φ_K(η)‖² = 2γ² Σ_{k≤K} k^{−2p}`` (Laplace variance ``2b²``)."""
    return float(2 * gam**2 * np.sum(np.arange(1, K + 1, dtype=float) ** (-2 * p)))


def noise_energy_factor(q: float, p: ArrayLike) -> NDArray[np.float64] | float:
    """``ζ(2p) ζ(2(q − p)) = E‖Φ(η)‖² ε²/2`` (untruncated); smallest at ``p = q/2`` (note-fp-optimal-p).

    ``p`` may be an array, every entry within the theorem's range; the result then has its shape.
    """
    ps = np.asarray(p, dtype=float)
    for end in (ps.min(), ps.max()) if ps.size else ():
        q, _ = check_exponents(q, end)
    value = special.zeta(2 * ps) * special.zeta(2 * (q - ps))
    return float(value) if ps.ndim == 0 else value


def privacy_loss(delta: ArrayLike, scales: ArrayLike) -> NDArray[np.float64] | float:
    """Largest log density ratio of the noise shifted by ``δ``: ``Σ_k |δ_k|/b_k`` (over the last axis)."""
    return np.sum(np.abs(np.asarray(delta, dtype=float)) / np.asarray(scales, dtype=float), axis=-1)


def extremal_shift(K: int, q: float, p: float) -> NDArray[np.float64]:
    """``Δ_k = k^{p − 2q}``, ``k ≤ K``: the change of coefficients whose privacy loss attains ``ε‖Δ‖_{V_q}``
    (equality in the Cauchy–Schwarz step of the theorem's proof, note-fp-vq-norm) as ``K → ∞``."""
    q, p = check_exponents(q, p)
    return np.arange(1, K + 1, dtype=float) ** (p - 2 * q)
