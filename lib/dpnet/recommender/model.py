"""The bipartite stochastic block model of paper 002 (§2.1) and its closed-form MaxSense moments.

Users have one of ``K`` types (fractions ``alpha``), items one of ``L`` clusters (fractions ``beta``),
and a user of type ``k`` likes an item of cluster ``l`` with probability ``b[k, l]``. Each user has
rated ``w`` of the ``N`` items; an unrated item counts as a 0. The MaxSense analysis (Thm 5.1) uses
the *Bernoulli-rating* version, in which every item is rated-and-liked independently with
probability ``(w/N) b``; the closed forms below are exact for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, stats

from dpnet.errors import ParameterError
from dpnet.recommender.ldp import eps_hat, flip_prob

__all__ = [
    "BlockModel",
    "delta_min",
    "distortion_ratio",
    "item_labels",
    "m_asym",
    "m_sym",
    "maxsense_means",
    "predicted_success",
    "predicted_u",
]


@dataclass(frozen=True)
class BlockModel:
    """Bipartite SBM: ``alpha`` (K,), ``beta`` (L,), like probabilities ``b`` (K, L), ``N``, ``w``."""

    alpha: tuple[float, ...]
    beta: tuple[float, ...]
    b: tuple[tuple[float, ...], ...]
    n_items: int
    w: int

    def __post_init__(self) -> None:
        alpha, beta, b = (
            np.asarray(self.alpha, float),
            np.asarray(self.beta, float),
            np.asarray(self.b, float),
        )
        if alpha.ndim != 1 or beta.ndim != 1 or b.shape != (alpha.size, beta.size):
            raise ParameterError(f"b must have shape (K, L) = ({alpha.size}, {beta.size}) (got {b.shape})")
        for name, v in (("alpha", alpha), ("beta", beta)):
            if np.any(v <= 0) or not math.isclose(v.sum(), 1.0, abs_tol=1e-9):
                raise ParameterError(f"{name} must be positive fractions summing to 1 (got {v.tolist()})")
        if np.any((b < 0) | (b > 1)):
            raise ParameterError("like probabilities b must lie in [0, 1]")
        if not (isinstance(self.n_items, (int, np.integer)) and self.n_items >= 2):
            raise ParameterError(f"n_items must be an integer ≥ 2 (got {self.n_items!r})")
        if not (isinstance(self.w, (int, np.integer)) and 1 <= self.w <= self.n_items):
            raise ParameterError(
                f"w (ratings per user) must be an integer in [1, N = {self.n_items}] (got {self.w!r})"
            )
        sizes = beta * self.n_items
        if not np.allclose(sizes, np.round(sizes), rtol=0.0, atol=1e-9):
            raise ParameterError(f"beta × N must be whole cluster sizes (got {sizes.tolist()})")

    @property
    def K(self) -> int:
        return len(self.alpha)

    @property
    def L(self) -> int:
        return len(self.beta)

    @property
    def sizes(self) -> NDArray[np.int64]:
        """Items per cluster, ``β_l N``."""
        return np.round(np.asarray(self.beta) * self.n_items).astype(np.int64)

    @property
    def rho(self) -> float:
        """Fraction of items each user has rated, ``w/N``."""
        return self.w / self.n_items

    def like(self) -> NDArray[np.float64]:
        """``b`` as a (K, L) array."""
        return np.asarray(self.b, dtype=float)

    def with_(self, *, n_items: int | None = None, w: int | None = None) -> BlockModel:
        """The same model with another ``N`` or ``w``."""
        return BlockModel(self.alpha, self.beta, self.b, self.n_items if n_items is None else n_items,
                          self.w if w is None else w)  # fmt: skip


def m_asym(n_items: int, w: int) -> BlockModel:
    """M-asym: one user type, two equal clusters liked with probability 0.9 and 0.1 (``note-rec-models``)."""
    return BlockModel((1.0,), (0.5, 0.5), ((0.9, 0.1),), n_items, w)


def m_sym(n_items: int, w: int) -> BlockModel:
    """M-sym: two equal user types, each liking its own cluster (0.9) and not the other (0.1)."""
    return BlockModel((0.5, 0.5), (0.5, 0.5), ((0.9, 0.1), (0.1, 0.9)), n_items, w)


def item_labels(model: BlockModel, rng: np.random.Generator) -> NDArray[np.int64]:
    """Cluster of every item: exactly ``β_l N`` items in cluster ``l``, in random order."""
    return rng.permutation(np.repeat(np.arange(model.L), model.sizes))


def _check_theta(model: BlockModel, theta: float) -> float:
    if not (isinstance(theta, (int, float)) and 0 < theta <= model.w):
        raise ParameterError(f"theta must be in (0, w = {model.w}] (got {theta!r})")
    return float(theta)


def delta_min(model: BlockModel, theta: float = 1.0) -> float:
    """Separability of Thm 5.1: ``min_{l<l'} |Σ_k α_k e^{−θ v_k} (b_kl − b_kl')|``, ``v_k = Σ_l β_l b_kl``."""
    theta = float(theta)
    b, alpha, beta = model.like(), np.asarray(model.alpha), np.asarray(model.beta)
    weight = alpha * np.exp(-theta * (b @ beta))
    score = weight @ b
    gaps = np.abs(score[:, None] - score[None, :])[np.triu_indices(model.L, 1)]
    return float(gaps.min())


def maxsense_means(model: BlockModel, eps: float, theta: float = 1.0) -> NDArray[np.float64]:
    """``μ_l = E[B_i]/U`` for an item of cluster ``l`` under the Bernoulli-rating model (exact).

    ``μ_l = p [f + (ε̂/2) π_l]`` with ``p = θ/w``, ``π_l = 1 − Σ_k α_k Q_k (1 − ρ b_kl)/(1 − p ρ b_kl)``
    and ``Q_k = Π_l' (1 − p ρ b_kl')^{β_l' N}`` (proof of Thm 5.1, typos fixed:
    ``note-rec-maxsense-means``).
    Each ``B_i`` is exactly ``Binomial(U, μ_l)``, since users are i.i.d.
    """
    theta = _check_theta(model, theta)
    p, rho, b = theta / model.w, model.rho, model.like()
    q = p * rho * b
    log_q0 = np.log1p(-q) @ model.sizes
    pi = 1.0 - np.asarray(model.alpha) @ (np.exp(log_q0)[:, None] * (1.0 - rho * b) / (1.0 - q))
    return p * (flip_prob(eps) + eps_hat(eps) / 2.0 * pi)


def predicted_success(
    model: BlockModel, eps: float, n_users: float, theta: float = 1.0, n_bits: int = 1
) -> float:
    """Gaussian prediction of MaxSense's exact-recovery probability with ``n_users`` users.

    ``B_i ≈ N(U μ_l, U μ_l (1 − μ_l))``, items independent; an item is right when it falls between the
    thresholds that split adjacent clusters (sorted by ``μ``) at equal standard scores. For ``L = 2``
    this is ``Φ(x)^N`` with ``x = √U (μ₁ − μ₂)/(σ₁ + σ₂)``. Multi-MaxSense (``n_bits = Q``) is predicted
    as ``Q U`` users at ``ε/Q`` (the paper's analysis, note ``note-rec-multi-q``).
    """
    mu = maxsense_means(model, eps / n_bits, theta)
    order = np.argsort(mu)
    m, s = mu[order], np.sqrt(mu[order] * (1.0 - mu[order]))
    z = np.sqrt(n_users * n_bits) * np.diff(m) / (s[1:] + s[:-1])
    if np.any(z <= 0):
        return 0.0
    log_p = np.zeros(model.L)
    for pos in range(model.L):
        below = stats.norm.cdf(z[pos - 1]) if pos > 0 else 1.0
        above = stats.norm.cdf(z[pos]) if pos < model.L - 1 else 1.0
        log_p[pos] = np.log(max(below + above - 1.0, 1e-300))
    return float(np.exp(log_p @ model.sizes[order]))


def predicted_u(
    model: BlockModel, eps: float, level: float = 0.9, theta: float = 1.0, n_bits: int = 1
) -> float:
    """Users at which :func:`predicted_success` reaches ``level`` (``inf`` if clusters are not separable).

    For ``L = 2`` this is ``[Φ⁻¹(level^{1/N}) (σ₁ + σ₂)/(μ₁ − μ₂)]² / Q``.
    """
    if not 0 < level < 1:
        raise ParameterError(f"level must be in (0, 1) (got {level})")
    mu = np.sort(maxsense_means(model, eps / n_bits, theta))
    if np.min(np.diff(mu)) <= 1e-15:
        return math.inf
    if model.L == 2:
        s = np.sqrt(mu * (1 - mu))
        x = stats.norm.ppf(level ** (1.0 / model.n_items))
        return float((x * s.sum() / (mu[1] - mu[0])) ** 2 / n_bits)
    f = lambda log_u: predicted_success(model, eps, math.exp(log_u), theta, n_bits) - level  # noqa: E731
    lo, hi = 0.0, 1.0
    while f(hi) < 0:
        hi *= 2
    return math.exp(optimize.brentq(f, lo, hi, xtol=1e-10))


def distortion_ratio(n_items: int, level: float = 0.9, error: float = 0.05) -> float:
    """Gaussian model's ``U_level(exact recovery) / U(mean misclassified fraction = error)`` (the book's E9).

    Exact recovery of all ``N`` items needs every standard score above ``Φ⁻¹(level^{1/N})``; a mean error
    ``error`` needs it above ``Φ⁻¹(1 − error)``. Users scale as the square, so the ratio is
    ``[Φ⁻¹(level^{1/N}) / Φ⁻¹(1 − error)]²`` (about 3.5 at ``N = 100``), whatever the model.
    """
    if not (0 < level < 1 and 0 < error < 0.5):
        raise ParameterError(f"need 0 < level < 1 and 0 < error < 1/2 (got {level}, {error})")
    return float((stats.norm.ppf(level ** (1.0 / n_items)) / stats.norm.ppf(1.0 - error)) ** 2)
