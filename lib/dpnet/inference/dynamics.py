"""Belief dynamics in log space.

The closed form of ``T`` iterations (scaled log-ratios ``ψ̄_T``), the exact ``T → ∞`` oracle, the
overflow-free ``log_softmax(2^T x)`` and the non-private Alg 4.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference._checks import Weights, _check_int, _check_loglik, _check_T
from dpnet.networks import check_weights

__all__ = [
    "LOG_BELIEF_FLOOR",
    "asymptotic_log_ratios",
    "log_softmax_scaled",
    "nonprivate_log_beliefs",
    "round_log_beliefs",
    "scaled_log_ratios",
]


#: Log-beliefs below this value (the belief is exactly 0 in float64) are stored as this value.
LOG_BELIEF_FLOOR: float = -(2.0**1000)
_FLOOR_EXP = 1000  # |2^T x| < 2^_FLOOR_EXP is representable; beyond it the log-belief is floored
_MAX_SHIFT = 2200  # any shift ≥ this floors every non-zero float64 (smallest exponent is −1073)


def _half_lazy(A: Weights) -> NDArray[np.float64]:
    """``(A + I)/2`` dense, after validating ``A``."""
    dense = check_weights(A)
    return 0.5 * (dense + np.eye(dense.shape[0]))


def _apply_agents(P: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``P @ x`` along the agent axis (−2) of an array ``(..., n, m)``, as one matrix product."""
    moved = np.moveaxis(x, -2, 0)
    flat = moved.reshape(moved.shape[0], -1)
    return np.moveaxis((P @ flat).reshape(moved.shape), 0, -2)


def _zeta(loglik: ArrayLike, noise: ArrayLike | None) -> NDArray[np.float64]:
    arr = _check_loglik(loglik)
    if noise is None:
        return arr
    d = np.asarray(noise, dtype=float)
    if d.ndim < 2 or d.shape[-2:] != arr.shape:
        raise ParameterError(f"noise must have shape (..., {arr.shape[0]}, {arr.shape[1]}) (got {d.shape})")
    if not np.all(np.isfinite(d)):
        raise ParameterError("noise must be finite")
    return arr + d


def scaled_log_ratios(
    loglik: ArrayLike, A: Weights, T: int, noise: ArrayLike | None = None
) -> NDArray[np.float64]:
    r"""Closed form of ``T`` iterations of eq. (12)/(18), scaled by ``2^{−T}``.

    .. math:: \bar\psi_T = 2^{-T} (A+I)^T \zeta - c = \Bigl(\frac{A+I}{2}\Bigr)^T \zeta - c,
       \qquad \zeta_i(\theta) = \log\gamma_i(\theta) + d_i(\theta),

    so that ``log ν_{i,T} = log_softmax_θ(2^T ψ̄_{i,T})`` (:func:`log_softmax_scaled`). The shift
    ``c = max_θ ζ̄(θ)`` (``ζ̄`` the mean over agents) is the same for every agent and state, so it
    changes no belief; it keeps ``ψ̄_T`` small. ``ψ̄_T`` stays bounded for all ``T``, and
    ``ψ̄_T(θ) − ψ̄_T(θ̌) → Λ(θ, θ̌)/n`` without noise.

    Numerics: with ``M = (A+I)/2`` and ``J = 𝟙𝟙ᵀ/n``, ``M^T = J + (M − J)^T`` for ``T ≥ 1``, so
    ``ψ̄_T = (ζ̄ − c) 𝟙 + (M − J)^T (ζ − ζ̄ 𝟙)``: the consensus is exactly that of
    :func:`asymptotic_log_ratios` (0 for its maximiser), and the residual ``(M − J)^T`` (repeated
    squaring) shrinks like ``(a*)^T`` and keeps its own relative precision. The gap between two
    states, which the beliefs multiply by ``2^T``, is therefore not buried under the rounding error
    of ``M^T ζ`` (``≈ 10⁻¹⁶ |ζ|``, i.e. ``≈ 10² |ζ|`` in log-belief at ``T = 60``): exactly tied MLE
    states stay tied where the dynamics keep them tied.

    Parameters
    ----------
    loglik
        ``(n, |Θ|)`` table of ``log γ_i(θ)``.
    A
        Weight matrix (or graph: Metropolis–Hastings weights).
    T
        Number of iterations ``T ≥ 0``.
    noise
        ``None`` (non-private, Alg 4) or noise of shape ``(..., n, |Θ|)``, e.g. ``(R, K, n, |Θ|)``.

    Returns
    -------
    numpy.ndarray
        ``ψ̄_T``, shape of ``loglik + noise``.
    """
    T = _check_int("T (iterations)", T, 0)
    D, consensus, residual = _split(loglik, A, noise)
    if T == 0:
        return consensus + residual
    return consensus + _apply_agents(np.linalg.matrix_power(D, T), residual)


def _split(
    loglik: ArrayLike, A: Weights, noise: ArrayLike | None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Validated ``D = (A+I)/2 − 𝟙𝟙ᵀ/n``, the consensus ``ζ̄ − c`` and the residual ``ζ − ζ̄ 𝟙``.

    ``ψ̄_t = (ζ̄ − c) 𝟙 + D^t (ζ − ζ̄ 𝟙)`` (:func:`scaled_log_ratios`; ``D^0 = I``).
    """
    zeta = _zeta(loglik, noise)
    M = _half_lazy(A)
    if M.shape[0] != zeta.shape[-2]:
        raise ParameterError(f"A is {M.shape[0]} × {M.shape[0]} but loglik has {zeta.shape[-2]} agents")
    mean, consensus = _consensus(zeta)
    return M - 1.0 / M.shape[0], consensus, zeta - mean


def _consensus(zeta: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The agents' mean ``ζ̄`` and the centred consensus ``ζ̄ − max_θ ζ̄`` (shapes ``(..., 1, |Θ|)``)."""
    mean = zeta.mean(axis=-2, keepdims=True)
    return mean, mean - mean.max(axis=-1, keepdims=True)


def asymptotic_log_ratios(loglik: ArrayLike, noise: ArrayLike | None = None) -> NDArray[np.float64]:
    r"""The ``T → ∞`` limit of :func:`scaled_log_ratios` (the exact asymptotic oracle).

    .. math:: \lim_{T\to\infty} \bar\psi_{i,T}(\theta)
       = \frac{1}{n}\bigl(\Lambda(\theta) + Y(\theta)\bigr) - c, \qquad Y(\theta) = \sum_i d_i(\theta),

    identical for every agent ``i`` (a read-only broadcast view); ``c`` is the shift of
    :func:`scaled_log_ratios` (the maximum over θ of the first term). With ``T = None`` the aggregators
    turn it into one-hot round beliefs on ``argmax_θ Λ(θ) + Y_k(θ)``. Independent of the graph.
    """
    zeta = _zeta(loglik, noise)
    return np.broadcast_to(_consensus(zeta)[1], zeta.shape)


def log_softmax_scaled(scaled: ArrayLike, T: int | None) -> NDArray[np.float64]:
    r"""``log_softmax_θ(2^T x)`` over the last axis, exact and overflow-free for any ``T``.

    With ``x − max_θ x ≤ 0`` multiplied by ``2^T`` through :func:`numpy.ldexp` (exact), entries whose
    product would exceed ``2^1000`` in magnitude are set to :data:`LOG_BELIEF_FLOOR` (their belief is
    0 in float64 long before). ``T = None`` is the limit ``T → ∞``: 0 on the maximisers, the floor
    elsewhere, so tied maximisers share the belief equally. Never returns ``NaN`` or ±inf.
    """
    x = np.asarray(scaled, dtype=float)
    x = x - x.max(axis=-1, keepdims=True)
    if T is None:
        y = np.where(x < 0, LOG_BELIEF_FLOOR, 0.0)
    else:
        shift = min(_check_int("T", T, 0), _MAX_SHIFT)
        _, expo = np.frexp(x)  # |x| < 2**expo
        big = (x != 0) & (expo.astype(np.int64) + shift > _FLOOR_EXP)
        y = np.where(big, LOG_BELIEF_FLOOR, np.ldexp(np.where(big, 0.0, x), shift))
    with np.errstate(under="ignore"):
        lse = np.log(np.exp(y).sum(axis=-1, keepdims=True))  # max(y) = 0, so 0 ≤ lse ≤ log|Θ|
    return np.maximum(y - lse, LOG_BELIEF_FLOOR)


def round_log_beliefs(scaled: ArrayLike, T: int | None) -> NDArray[np.float64]:
    """Log-beliefs ``log ν_{i,k,T}(θ)`` of every round from the scaled log-ratios (``T = None``: limit)."""
    return log_softmax_scaled(scaled, _check_T(T))


def _exp(log_beliefs: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(under="ignore"):
        return np.exp(log_beliefs)


def nonprivate_log_beliefs(loglik: ArrayLike, A: Weights | None, T: int | None) -> NDArray[np.float64]:
    """Alg 4 (non-private distributed MLE, eq. 18): log-beliefs ``(n, |Θ|)`` after ``T`` iterations.

    ``T = None`` is the ``T → ∞`` limit, uniform on the states that maximise ``Λ`` *exactly* (``A`` is then
    not needed): states within rounding of the maximum count as MLE states for
    :func:`~dpnet.inference.problem.mle_mask`
    (``atol = 1e-9``) but get belief 0 here unless they tie exactly. For finite ``T``
    and exactly tied MLE states with different local terms, the beliefs become uniform on ``Θ*`` only
    if every eigenvalue of ``A`` but the first is negative (``λ_2(A) < 0``, e.g. the complete graph):
    the log-belief difference of two tied states scales like ``(1 + λ_2(A))^T``, which grows when
    ``λ_2(A) > 0`` (cycles, paths, stars), so each agent ends up one-hot on one of them.
    """
    if T is None:
        return log_softmax_scaled(asymptotic_log_ratios(loglik), None)
    if A is None:
        raise ParameterError("A (weights) is required for finite T")
    return log_softmax_scaled(scaled_log_ratios(loglik, A, T), T)
