"""Thresholds and problem constants.

Belief thresholds ``τ ↔ ϱ``, the MLE set ``Θ*`` and the data constants ``n``, ``|Θ|``, ``|Θ*|``, ``Γ``
and the gap ``l`` of the bounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_loglik, _check_states
from dpnet.params import integer, real

__all__ = [
    "ProblemConstants",
    "belief_threshold",
    "gap_loglik",
    "log_belief_level",
    "log_belief_threshold",
    "mle_mask",
    "problem_constants",
]


def belief_threshold(rho: float) -> float:
    r"""Belief threshold of a log-belief-ratio threshold ϱ (Alg 1, Alg 2).

    .. math:: \tau = \frac{1}{1 + e^{\varrho}} = \operatorname{expit}(-\varrho), \qquad \varrho \ge 0.

    ``ln 3 → 0.25``, ``1.5 → 0.182426``, ``5 → 0.0066928509``; ``ϱ = ∞ → 0``.
    """
    rho = float(rho)
    if not rho >= 0:
        raise ParameterError(f"rho (log-belief threshold) must be ≥ 0 (got {rho})")
    return float(special.expit(-rho))


def log_belief_threshold(tau: float) -> float:
    r"""Inverse of :func:`belief_threshold`: ``ϱ = log((1 − τ)/τ)`` for ``τ ∈ (0, 1/2]``."""
    tau = float(tau)
    if not 0.0 < tau <= 0.5:
        raise ParameterError(f"tau (belief threshold) must lie in (0, 1/2] (got {tau})")
    return float(math.log1p(-tau) - math.log(tau))


def log_belief_level(rho: float) -> float:
    r"""``log τ`` of a log-belief-ratio threshold ϱ, computed without forming ``τ``.

    .. math:: \log\tau = -\log\bigl(1 + e^{\varrho}\bigr), \qquad \varrho \ge 0,

    exact for any ϱ, whereas :func:`belief_threshold` rounds to 0 for ``ϱ ≳ 745``
    (``ϱ = 800 → −800``, ``ϱ = 0 → −log 2``, ``ϱ = ∞ → −∞``).
    """
    rho = float(rho)
    if not rho >= 0:
        raise ParameterError(f"rho (log-belief threshold) must be ≥ 0 (got {rho})")
    return -float(np.logaddexp(0.0, rho))


def mle_mask(loglik: ArrayLike, *, atol: float = 1e-9) -> NDArray[np.bool_]:
    """The MLE set ``Θ* = {θ : Λ(θ) ≥ max Λ − atol}`` as a boolean mask over states, ``Λ = Σ_i loglik[i]``.

    ``atol`` forgives the rounding of ``Σ_i``; the dynamics do not: the ``T → ∞`` limit of
    :func:`~dpnet.inference.dynamics.nonprivate_log_beliefs` is uniform on the *exact* maximisers only.
    """
    arr = _check_loglik(loglik)
    total = arr.sum(axis=0)
    return total >= total.max() - float(atol)


@dataclass(frozen=True)
class ProblemConstants:
    """Data constants of the bounds (paper 003 eqs. 9–11; paper 000 §3.1).

    Attributes
    ----------
    n
        Number of agents.
    n_states
        ``|Θ| ≥ 2``.
    n_mle
        ``|Θ*|``, the number of MLE states.
    gamma
        ``Γ = max_{i,θ} |log γ_i(θ)|`` of the unnormalised log-likelihoods, as Alg 1 and the authors'
        code use them (§3.2 calls ``γ_i`` a normalised belief).
    gap
        ``l = min_{θ*∈Θ*, θ̄∈Θ̄} Λ(θ*) − Λ(θ̄) > 0``, the realised gap the proofs and the authors'
        code use (eq. (10) defines ``l`` with quantities of online learning); ``inf`` when every state
        is an MLE state.
    """

    n: int
    n_states: int
    n_mle: int
    gamma: float
    gap: float

    def __post_init__(self) -> None:
        _check_int("n (agents)", self.n, 1)
        _check_states(self.n_states, self.n_mle)
        if not (self.gamma >= 0 and np.isfinite(self.gamma)):
            raise ParameterError(f"gamma (Γ) must be finite and ≥ 0 (got {self.gamma})")
        if not self.gap > 0:
            raise ParameterError(f"gap (l) must be > 0 (got {self.gap})")


def problem_constants(loglik: ArrayLike, *, atol: float = 1e-9) -> ProblemConstants:
    """``n``, ``|Θ|``, ``|Θ*|``, ``Γ`` and the realised gap ``l`` of a log-likelihood table."""
    arr = _check_loglik(loglik)
    mle = mle_mask(arr, atol=atol)
    total = arr.sum(axis=0)
    gap = float(total[mle].min() - total[~mle].max()) if (~mle).any() else math.inf
    return ProblemConstants(
        n=arr.shape[0],
        n_states=arr.shape[1],
        n_mle=int(mle.sum()),
        gamma=float(np.abs(arr).max()),
        gap=gap,
    )


def gap_loglik(n_agents: int, n_states: int, gap: float) -> NDArray[np.float64]:
    """A log-likelihood table whose unique MLE state 0 leads every other state by ``gap``.

    Agents share the lead equally: ``log γ_i(θ₀) = gap/n`` and ``log γ_i(θ) = 0`` otherwise, so
    ``Λ(θ₀) − Λ(θ) = gap`` for every ``θ ≠ θ₀`` (measure ``gap`` in noise scales by taking Δ such that
    the Laplace scale is 1).
    """
    n_agents = integer(ge=1)("n_agents", n_agents)
    n_states = integer(ge=2)("n_states", n_states)
    gap = real(gt=0.0)("gap", gap)
    table = np.zeros((n_agents, n_states))
    table[:, 0] = gap / n_agents
    return table
