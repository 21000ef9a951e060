r"""Why Laplace noise is optimal: the variance of ε-DP additive noise densities (paper 001 §2.2, eq. 9).

An additive mechanism ``f(x) + d`` with sensitivity ``Δ`` and a differentiable noise density ``p`` is
ε-DP exactly when ``|d log p(u)/du| ≤ ε/Δ`` for all ``u``. Among such densities the variance is
smallest for the Laplace density of scale ``b = Δ/ε`` (Koufogiannis et al. 2015), variance ``2b²``;
its log-slope is ``ε/Δ`` everywhere (the constraint binds). :func:`noise_densities` gives Laplace and
two smooth feasible alternatives, each at the smallest scale the constraint allows, and a Gaussian of
Laplace's variance, which violates the constraint for ``|u| > σ²ε/Δ``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError

__all__ = ["NoiseDensity", "noise_densities"]

Curve = Callable[[NDArray[np.float64]], NDArray[np.float64]]


@dataclass(frozen=True)
class NoiseDensity:
    """A zero-mean noise density with its variance and log-slope ``|d log p/du|``."""

    name: str
    pdf: Curve
    log_slope: Curve
    variance: float
    max_log_slope: float  # sup_u |d log p/du| (inf when unbounded)

    def is_dp(self, sensitivity: float, epsilon: float) -> bool:
        """Whether ``f(x) + d`` is ε-DP for sensitivity ``Δ`` (``sup |d log p/du| ≤ ε/Δ``)."""
        return bool(self.max_log_slope <= epsilon / sensitivity * (1 + 1e-12))


def noise_densities(sensitivity: float, epsilon: float) -> list[NoiseDensity]:
    """Laplace, hyperbolic secant, logistic (each at its smallest ε-DP scale) and a Gaussian.

    With ``b = Δ/ε`` the variances are ``2b²`` (Laplace), ``π²b²/4`` (hyperbolic secant, scale
    ``c = πb/2``), ``π²b²/3`` (logistic, scale ``b``) and ``2b²`` for the Gaussian, which is not ε-DP.
    """
    if not (np.isfinite(sensitivity) and sensitivity > 0 and np.isfinite(epsilon) and epsilon > 0):
        raise ParameterError(f"sensitivity and epsilon must be finite and > 0 (got {sensitivity}, {epsilon})")
    b = sensitivity / epsilon
    c = np.pi * b / 2
    sd = np.sqrt(2.0) * b
    return [
        NoiseDensity(
            "Laplace", lambda u: np.exp(-np.abs(u) / b) / (2 * b), lambda u: np.full(np.shape(u), 1 / b),
            2 * b**2, 1 / b,
        ),
        NoiseDensity(
            "hyperbolic secant", lambda u: 1 / (2 * c * np.cosh(np.pi * u / (2 * c))),
            lambda u: np.pi / (2 * c) * np.abs(np.tanh(np.pi * u / (2 * c))), c**2, np.pi / (2 * c),
        ),
        NoiseDensity(
            "logistic", lambda u: 1 / (4 * b * np.cosh(u / (2 * b)) ** 2),
            lambda u: np.abs(np.tanh(u / (2 * b))) / b, np.pi**2 * b**2 / 3, 1 / b,
        ),
        NoiseDensity(
            "Gaussian", lambda u: np.exp(-0.5 * (u / sd) ** 2) / (sd * np.sqrt(2 * np.pi)),
            lambda u: np.abs(u) / sd**2, sd**2, float("inf"),
        ),
    ]  # fmt: skip
