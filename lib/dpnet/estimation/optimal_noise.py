r"""In what sense Laplace noise is optimal: the variance of additive noise densities under two constraints
(paper 001 §3.1, eq. 9).

An additive mechanism ``f(x) + d`` whose ``f`` has sensitivity ``Δ`` is **ε-DP** exactly when its noise
density satisfies ``p(u) ≤ e^ε p(u + h)`` for every ``u`` and every shift ``|h| ≤ Δ``, that is when the
log-ratio ``|log p(u) − log p(u + h)|`` never exceeds ``ε`` (``NoiseDensity.max_log_ratio``,
:func:`worst_log_ratio`). The paper replaces this by the **Lipschitz constraint** of its eq. 9,
``|d log p(u)/du| ≤ ε/Δ`` for a differentiable density (:meth:`NoiseDensity.meets_eq9`). Integrating the
log-slope over a shift shows that eq. 9 implies ε-DP; the converse fails, because an ε-DP density may
jump.

Under eq. 9 the variance is smallest for the Laplace density of scale ``b = Δ/ε`` (Koufogiannis, Han and
Pappas 2015), variance ``2b²``: its log-slope is ``ε/Δ`` everywhere. Among all ε-DP additive noises it is
not: the **staircase** density of Geng and Viswanath (2014, "The optimal mechanism in differential
privacy"), piecewise constant with a drop by ``e^{−ε}`` in every window of width ``Δ``
(:func:`staircase_density`), has the smallest variance, ``0.96``, ``0.69`` and ``0.25`` times Laplace's
at ``ε = 1, 3, 6`` (:func:`staircase_variance`).

:func:`noise_densities` gives Laplace, the staircase, two smooth densities that meet eq. 9 (each at the
smallest scale it allows) and a Gaussian of Laplace's variance, which is not ε-DP for any ε.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError

__all__ = [
    "NoiseDensity",
    "noise_densities",
    "staircase_density",
    "staircase_gamma",
    "staircase_variance",
    "worst_log_ratio",
]

Curve = Callable[[NDArray[np.float64]], NDArray[np.float64]]


@dataclass(frozen=True)
class NoiseDensity:
    """A zero-mean noise density built for a sensitivity ``Δ``, with its variance and the two constraints.

    Attributes
    ----------
    name, pdf, variance
        The density, as a vectorised function, and its variance.
    log_slope
        ``|d log p/du|`` where it exists (0 between the staircase's steps).
    max_log_slope
        ``sup_u |d log p/du|``: ``inf`` when unbounded, or when the density jumps.
    max_log_ratio
        ``sup_u sup_{|h| ≤ Δ} |log p(u) − log p(u + h)|`` at the ``Δ`` the density was built for
        (``inf`` for the Gaussian): the ε-DP condition reads ``max_log_ratio ≤ ε``.
    """

    name: str
    pdf: Curve
    log_slope: Curve
    variance: float
    max_log_slope: float
    max_log_ratio: float

    def meets_eq9(self, sensitivity: float, epsilon: float) -> bool:
        """Whether the density meets the paper's Lipschitz constraint (eq. 9): ``sup |d log p/du| ≤ ε/Δ``."""
        return bool(self.max_log_slope <= epsilon / sensitivity * (1 + 1e-12))

    def is_dp(self, epsilon: float) -> bool:
        """Whether ``f(x) + d`` is ε-DP at the density's own sensitivity: ``max_log_ratio ≤ ε``."""
        return bool(self.max_log_ratio <= epsilon * (1 + 1e-12))


def _positive(sensitivity: float, epsilon: float) -> None:
    if not (np.isfinite(sensitivity) and sensitivity > 0 and np.isfinite(epsilon) and epsilon > 0):
        raise ParameterError(f"sensitivity and epsilon must be finite and > 0 (got {sensitivity}, {epsilon})")


def staircase_gamma(epsilon: float) -> float:
    r"""The variance-optimal share ``γ* ∈ (0, 1)`` of each period that the staircase keeps at the higher
    level (Geng and Viswanath 2014, Theorem 5), with ``b = e^{−ε}``:

    .. math:: \gamma^\star = -\frac{b}{1-b} + \frac{(b - 2b^2 + 2b^4 - b^5)^{1/3}}{2^{1/3}(1-b)^2}.
    """
    _positive(1.0, epsilon)
    b = np.exp(-epsilon)
    return float(-b / (1 - b) + np.cbrt(b - 2 * b**2 + 2 * b**4 - b**5) / (np.cbrt(2.0) * (1 - b) ** 2))


def staircase_variance(sensitivity: float, epsilon: float) -> float:
    r"""The smallest variance of an ε-DP additive noise for sensitivity ``Δ``: the staircase's at ``γ*``,

    .. math:: \Delta^2\,\frac{2^{-2/3} b^{2/3} (1+b)^{2/3} + b}{(1-b)^2}, \qquad b = e^{-\varepsilon}

    (Geng and Viswanath 2014). It is below Laplace's ``2Δ²/ε²`` at every ``ε``, and ``Θ(Δ² e^{−2ε/3})``
    as ``ε`` grows, where Laplace's falls only as ``1/ε²``.
    """
    _positive(sensitivity, epsilon)
    b = np.exp(-epsilon)
    return float(sensitivity**2 * (np.cbrt(0.25 * b**2 * (1 + b) ** 2) + b) / (1 - b) ** 2)


def staircase_density(sensitivity: float, epsilon: float, gamma: float | None = None) -> NoiseDensity:
    """The staircase density of Geng and Viswanath for sensitivity ``Δ`` and budget ``ε``.

    With ``b = e^{−ε}``: ``p(u) = a·b^k`` for ``|u| ∈ [kΔ, (k+γ)Δ)`` and ``a·b^{k+1}`` for
    ``|u| ∈ [(k+γ)Δ, (k+1)Δ)``, ``k = 0, 1, …``, with ``a = (1 − b)/(2Δ(γ + (1 − γ)b))``. Every window
    of width ``Δ`` holds at most one drop by ``e^{−ε}`` on each side of 0, so the log-ratio over a shift
    ``|h| ≤ Δ`` never exceeds ``ε``: it is ε-DP, and it meets no Lipschitz constraint. ``gamma`` defaults
    to the variance-optimal :func:`staircase_gamma`.
    """
    _positive(sensitivity, epsilon)
    g = staircase_gamma(epsilon) if gamma is None else float(gamma)
    if not 0.0 <= g <= 1.0:
        raise ParameterError(f"gamma must lie in [0, 1] (got {gamma})")
    b = np.exp(-epsilon)
    a = (1 - b) / (2 * sensitivity * (g + (1 - g) * b))

    def pdf(u: NDArray[np.float64]) -> NDArray[np.float64]:
        x = np.abs(np.asarray(u, dtype=float)) / sensitivity
        k = np.floor(x)
        return a * b**k * np.where(x - k < g, 1.0, b)

    # the variance: 2 Σ_k a b^k [∫_{kΔ}^{(k+γ)Δ} u² du + b ∫_{(k+γ)Δ}^{(k+1)Δ} u² du], in closed form below
    if gamma is None:
        variance = staircase_variance(sensitivity, epsilon)
    else:
        d = sensitivity
        s0, s1, s2 = 1 / (1 - b), b / (1 - b) ** 2, b * (1 + b) / (1 - b) ** 3  # Σ b^k, Σ k b^k, Σ k² b^k
        low = d**3 / 3 * (s2 * (3 * g) + s1 * (3 * g**2) + s0 * g**3)  # Σ b^k ((k+γ)³ − k³) Δ³/3
        high = d**3 / 3 * (s2 * 3 * (1 - g) + s1 * 3 * (1 - g**2) + s0 * (1 - g**3))
        variance = float(2 * a * (low + b * high))
    return NoiseDensity(
        "staircase", pdf, lambda u: np.zeros(np.shape(u)), variance, float("inf"), float(epsilon)
    )


def noise_densities(sensitivity: float, epsilon: float) -> list[NoiseDensity]:
    """Laplace, the staircase, hyperbolic secant and logistic (each at its smallest scale) and a Gaussian.

    With ``b = Δ/ε`` the variances are ``2b²`` (Laplace), :func:`staircase_variance`, ``π²b²/4``
    (hyperbolic secant, scale ``c = πb/2``), ``π²b²/3`` (logistic, scale ``b``) and ``2b²`` for the
    Gaussian. Laplace, the hyperbolic secant and the logistic meet eq. 9 with equality at their supremum;
    the staircase is ε-DP without meeting it; the Gaussian is neither.
    """
    _positive(sensitivity, epsilon)
    b = sensitivity / epsilon
    c = np.pi * b / 2
    sd = np.sqrt(2.0) * b
    return [
        NoiseDensity(
            "Laplace", lambda u: np.exp(-np.abs(u) / b) / (2 * b), lambda u: np.full(np.shape(u), 1 / b),
            2 * b**2, 1 / b, sensitivity / b,
        ),
        staircase_density(sensitivity, epsilon),
        NoiseDensity(
            "hyperbolic secant", lambda u: 1 / (2 * c * np.cosh(np.pi * u / (2 * c))),
            lambda u: np.pi / (2 * c) * np.abs(np.tanh(np.pi * u / (2 * c))), c**2, np.pi / (2 * c),
            np.pi * sensitivity / (2 * c),
        ),
        NoiseDensity(
            "logistic", lambda u: 1 / (4 * b * np.cosh(u / (2 * b)) ** 2),
            lambda u: np.abs(np.tanh(u / (2 * b))) / b, np.pi**2 * b**2 / 3, 1 / b, sensitivity / b,
        ),
        NoiseDensity(
            "Gaussian", lambda u: np.exp(-0.5 * (u / sd) ** 2) / (sd * np.sqrt(2 * np.pi)),
            lambda u: np.abs(u) / sd**2, sd**2, float("inf"), float("inf"),
        ),
    ]  # fmt: skip


def worst_log_ratio(density: NoiseDensity, u: ArrayLike, sensitivity: float, shifts: int = 401) -> NDArray:
    """``max_{|h| ≤ Δ} |log p(u) − log p(u + h)|`` at each ``u``, over ``shifts`` evenly spaced shifts
    (both ends included): the quantity the ε-DP condition bounds by ``ε``, as the book's figure draws it.

    On a grid the maximum over shifts is a lower bound on the supremum; for the staircase it reaches ``ε``
    as soon as a step lies within ``Δ`` of ``u``.
    """
    _positive(sensitivity, 1.0)
    x = np.asarray(u, dtype=float)
    h = np.linspace(-sensitivity, sensitivity, int(shifts))
    with np.errstate(divide="ignore"):
        here = np.log(density.pdf(x))[:, None]
        there = np.log(density.pdf(x[:, None] + h[None, :]))
    return np.max(np.abs(here - there), axis=1)
