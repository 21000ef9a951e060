"""The private bit release of paper 002 (Prop. 2.4): randomized response on one sketch bit.

The release is :func:`dpnet.mechanisms.randomized_response`; here ε may also be ``inf`` (the
non-private limit, no flips). The paper's constant is ``ε̂ = 2(e^ε − 1)/(e^ε + 1) = 2 tanh(ε/2)``, so that
``E[S | S₀] = f + (ε̂/2) S₀`` with the flip probability ``f = 1/(1 + e^ε) = 1/2 − ε̂/4``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.mechanisms import randomized_response, rr_flip_probability

__all__ = ["check_eps", "eps_hat", "flip_prob", "likelihood_ratio", "rr_bits", "total_budget"]


def check_eps(eps: float, name: str = "eps") -> float:
    """``eps`` as a float in ``(0, ∞]``, or a :class:`~dpnet.errors.ParameterError` naming it."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.integer, np.floating)):
        raise ParameterError(f"{name} must be a number in (0, inf] (got {eps!r})")
    value = float(eps)
    if math.isnan(value) or value <= 0.0:
        raise ParameterError(f"{name} must be a number in (0, inf] (got {eps!r})")
    return value


def flip_prob(eps: float) -> float:
    """Flip probability ``f(ε) = 1/(1 + e^ε)`` (``dpnet.mechanisms.rr_flip_probability``), 0 at ``ε = ∞``."""
    eps = check_eps(eps)
    return 0.0 if math.isinf(eps) else float(rr_flip_probability(eps))


def eps_hat(eps: float) -> float:
    """The paper's ``ε̂ = 2 tanh(ε/2)``: about ε for small ε, tending to 2 as ε → ∞."""
    return 2.0 * math.tanh(check_eps(eps) / 2.0)


def likelihood_ratio(eps: float) -> float:
    """Exact ``P[S = s | S₀ = s] / P[S = s | S₀ = 1 − s]`` of the release (``e^ε``; ``inf`` at ε = ∞)."""
    f = flip_prob(eps)
    return math.inf if f == 0.0 else (1.0 - f) / f


def rr_bits(bits: ArrayLike, eps: float, rng: np.random.Generator) -> NDArray[np.bool_]:
    """Release each 0/1 sketch bit by randomized response at budget ``eps`` (Alg. 0).

    :func:`dpnet.mechanisms.randomized_response` for finite ε; at ``ε = ∞`` the bits are released as they are.
    """
    eps = check_eps(eps)
    if math.isinf(eps):
        arr = np.asarray(bits)
        if arr.dtype != bool and not np.all((arr == 0) | (arr == 1)):
            raise ParameterError("bits must contain only 0 and 1 (or False/True)")
        return arr.astype(bool)
    return randomized_response(bits, eps, rng).astype(bool)


def total_budget(algorithm: str, eps: float, n_bits: int = 1) -> float:
    """ε-LDP level of one user's release by sequential composition (Prop. 2.2).

    Pairwise-Preference and MaxSense release one bit at ``eps``; Multi-MaxSense releases ``n_bits``
    bits at ``eps / n_bits`` each.
    """
    eps = check_eps(eps)
    if algorithm in ("pairwise", "maxsense"):
        if n_bits != 1:
            raise ParameterError(f"{algorithm} releases one bit (got n_bits={n_bits})")
        return eps
    if algorithm == "multi-maxsense":
        if n_bits < 1:
            raise ParameterError(f"n_bits must be ≥ 1 (got {n_bits})")
        return math.fsum([eps / n_bits] * n_bits)
    raise ParameterError(f"unknown algorithm {algorithm!r}; use pairwise, maxsense or multi-maxsense")
