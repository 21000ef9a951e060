"""Aggregation over rounds and estimated sets.

AM and GM beliefs (Alg 1), the round counts ``N(θ)`` of Alg 2, the AM/GM selections ``Θ̂`` and the
two-threshold sets ``Θ̂¹``, ``Θ̂²``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_rounds, _check_T
from dpnet.inference.dynamics import _exp, log_softmax_scaled, round_log_beliefs
from dpnet.inference.problem import belief_threshold, log_belief_level

__all__ = [
    "am_beliefs",
    "frequency_thresholds",
    "gm_log_beliefs",
    "round_counts",
    "select_am",
    "select_gm",
    "threshold_sets",
]


def _round_log_beliefs(
    arr: NDArray[np.float64], T: int | None, log_beliefs: ArrayLike | None
) -> NDArray[np.float64]:
    """``log ν_{i,k,T}``: computed from ``arr``, or the caller's precomputed values (shape checked)."""
    if log_beliefs is None:
        return round_log_beliefs(arr, T)
    out = np.asarray(log_beliefs, dtype=float)
    if out.shape != arr.shape:
        raise ParameterError(f"log_beliefs must have the shape of scaled {arr.shape} (got {out.shape})")
    return out


def am_beliefs(
    scaled: ArrayLike, T: int | None, *, log_beliefs: ArrayLike | None = None
) -> NDArray[np.float64]:
    r"""AM aggregate (Alg 1): ``ν^AM_{i,T}(θ) = (1/K) Σ_k ν_{i,k,T}(θ)``, shape ``(..., n, |Θ|)``.

    ``log_beliefs``: the rounds' log-beliefs :func:`~dpnet.inference.dynamics.round_log_beliefs`
    ``(scaled, T)`` if already computed.
    """
    arr = _check_rounds(scaled)
    return _exp(_round_log_beliefs(arr, T, log_beliefs)).mean(axis=-3)


def gm_log_beliefs(scaled: ArrayLike, T: int | None) -> NDArray[np.float64]:
    r"""GM aggregate (Alg 1) in log space, shape ``(..., n, |Θ|)``.

    .. math:: \nu^{GM}_{i,T}(\theta) \propto \prod_k \nu_{i,k,T}(\theta)^{1/K}
       = \operatorname{softmax}_\theta\Bigl(2^T \frac1K \sum_k \bar\psi_{i,k,T}(\theta)\Bigr),

    since each round's log-normaliser does not depend on θ. Never ``0/0``, even when every state
    loses some round (where the literal product of one-hot rounds is ``0/0``).
    """
    arr = _check_rounds(scaled)
    return log_softmax_scaled(arr.mean(axis=-3), _check_T(T))


def round_counts(
    scaled: ArrayLike, T: int | None, tau_hat: float, *, log_beliefs: ArrayLike | None = None
) -> NDArray[np.float64]:
    r"""Frequency ``N_{i,T}(θ) = (1/K) Σ_k 1{ν_{i,k,T}(θ) > τ̂}`` (Alg 2, eq. 15), shape ``(..., n, |Θ|)``.

    ``τ̂ ∈ (0, 1)`` compares in log space. ``τ̂ = 0`` means "won the round" (``θ`` maximises the round's
    belief; ties count for all tied states): the paper's ``τ̂ = 0`` captions and the ``ϱ → ∞`` limit
    of Thm 4.3. ``log_beliefs``: as in :func:`am_beliefs` (not used when ``τ̂ = 0``).
    """
    arr = _check_rounds(scaled)
    tau_hat = float(tau_hat)
    if not 0.0 <= tau_hat < 1.0:
        raise ParameterError(f"tau_hat (belief threshold) must lie in [0, 1) (got {tau_hat})")
    if tau_hat == 0.0:
        won = arr == arr.max(axis=-1, keepdims=True)
    else:
        won = _round_log_beliefs(arr, T, log_beliefs) > math.log(tau_hat)
    return won.mean(axis=-3)


def _select_log_tau(tau: float | None, rho: float | None, which: str) -> float:
    """``log τ`` from exactly one of ``tau ∈ (0, 1]`` and ``rho ≥ 0`` (``log τ = −log(1 + e^ϱ)``)."""
    if (tau is None) == (rho is None):
        raise ParameterError(f"give exactly one of tau and rho ({which} belief threshold)")
    if rho is not None:
        return log_belief_level(rho)
    tau = float(tau)  # type: ignore[arg-type]
    if not 0.0 < tau <= 1.0:
        raise ParameterError(f"tau ({which} belief threshold) must lie in (0, 1] (got {tau})")
    return math.log(tau)


def select_am(am: ArrayLike, tau: float | None = None, *, rho: float | None = None) -> NDArray[np.bool_]:
    """``Θ̂^AM = {θ : ν^AM(θ) ≥ τ_AM}`` as a boolean mask.

    Give exactly one of ``tau ∈ (0, 1]`` or the log-belief-ratio threshold ``rho = ϱ ≥ 0``
    (``τ = 1/(1 + e^ϱ)``, :func:`~dpnet.inference.problem.belief_threshold`). With ``rho`` the comparison
    stays exact when ``τ`` is below the smallest normal float (``ϱ ≳ 708``, and ``τ`` rounds to 0
    for ``ϱ ≳ 745``): beliefs are then compared in log space with ``log τ = −log(1 + e^ϱ)``. Where
    ``τ`` is a normal float the beliefs are compared with ``τ`` itself, as with ``tau``.
    """
    log_tau = _select_log_tau(tau, rho, "AM")
    arr = np.asarray(am, dtype=float)
    threshold = float(tau) if rho is None else belief_threshold(rho)
    if threshold >= np.finfo(float).tiny:
        return arr >= threshold
    with np.errstate(divide="ignore"):
        return np.log(arr) >= log_tau


def select_gm(gm_log: ArrayLike, tau: float | None = None, *, rho: float | None = None) -> NDArray[np.bool_]:
    """``Θ̂^GM = {θ : ν^GM(θ) ≥ τ_GM}`` from GM log-beliefs, compared in log space.

    Give exactly one of ``tau ∈ (0, 1]`` (compared with ``log τ``) or the log-belief-ratio threshold
    ``rho = ϱ ≥ 0``, compared with ``log τ = −log(1 + e^ϱ)``, exact for any ``ϱ`` (``τ`` itself
    underflows to 0 for ``ϱ ≳ 745``).
    """
    return np.asarray(gm_log, dtype=float) >= _select_log_tau(tau, rho, "GM")


def frequency_thresholds(freq_1: float, freq_2: float, K: int) -> tuple[float, float]:
    r"""The frequency thresholds :func:`threshold_sets` applies: ``(max(τ¹, 1/K), τ²)``.

    When ``|Θ*| = 1`` Thm 4.3 gives ``τ¹ = 0`` and ``N ≥ 0`` would admit every state; ``max(τ¹, 1/K)`` (a
    state must win at least one round) is the book's choice, and changes nothing when ``τ¹ > 0``,
    because ``N`` takes values in ``{0, 1/K, …, 1}``.
    """
    K = _check_int("K (rounds)", K, 1)
    for name, value in (("freq_1", freq_1), ("freq_2", freq_2)):
        if not np.isfinite(value):
            raise ParameterError(f"{name} (frequency threshold) must be finite (got {value})")
    return max(float(freq_1), 1.0 / K), float(freq_2)


def threshold_sets(
    counts_1: ArrayLike, counts_2: ArrayLike, freq_1: float, freq_2: float, K: int
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    r"""Alg 2's two sets: ``Θ̂¹ = {N¹ ≥ max(τ¹, 1/K)}`` (low Type I) and ``Θ̂² = {N² ≥ τ²}`` (low Type II).

    ``Θ̂¹ ⊆ Θ* ⊆ Θ̂²`` is the intended sandwich (the discussion after Thm 4.3 reverses it); the thresholds
    are :func:`frequency_thresholds`. Cor 4.4's single threshold: ``counts_1 = counts_2`` and
    ``freq_1 = freq_2``.
    """
    tau_1, tau_2 = frequency_thresholds(freq_1, freq_2, K)
    n1 = np.asarray(counts_1, dtype=float)
    n2 = np.asarray(counts_2, dtype=float)
    tol = 1e-12  # counts are k/K in floating point
    return n1 >= tau_1 - tol, n2 >= tau_2 - tol
