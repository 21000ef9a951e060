"""Belief trajectories over the iterations ``t = 0..T``.

The literal log-space iteration (a reference for tests), the scaled log-ratios ``ψ̄_t``, and the
beliefs of every round, their AM/GM aggregate or their round counts, for plots.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference._checks import Weights, _check_int
from dpnet.inference.aggregation import am_beliefs, gm_log_beliefs, round_counts
from dpnet.inference.dynamics import _apply_agents, _exp, _split, _zeta, log_softmax_scaled
from dpnet.networks import check_weights

__all__ = [
    "belief_trajectory",
    "iterate_log_beliefs",
    "scaled_trajectory",
]


def iterate_log_beliefs(
    loglik: ArrayLike, A: Weights, T: int, noise: ArrayLike | None = None
) -> NDArray[np.float64]:
    r"""Literal iteration of eq. (12)/(18) in log space, one step at a time (a reference for tests).

    ``log ν_0 = log_softmax(ζ)`` and ``log ν_t = log_softmax((A+I) log ν_{t−1})``. Log-beliefs grow like
    ``2^t``: valid while they stay finite in float64 (``T ≲ 1000``); use :func:`belief_trajectory` beyond.

    Returns
    -------
    numpy.ndarray
        Shape ``(T + 1, ..., n, |Θ|)``: the log-beliefs at ``t = 0..T``.
    """
    zeta = _zeta(loglik, noise)
    T = _check_int("T (iterations)", T, 0)
    B = check_weights(A) + np.eye(zeta.shape[-2])
    out = np.empty((T + 1, *zeta.shape))
    out[0] = special.log_softmax(zeta, axis=-1)
    for t in range(1, T + 1):
        out[t] = special.log_softmax(_apply_agents(B, out[t - 1]), axis=-1)
    return out


def scaled_trajectory(
    loglik: ArrayLike, A: Weights, T: int, noise: ArrayLike | None = None
) -> NDArray[np.float64]:
    """``ψ̄_t = ((A+I)/2) ψ̄_{t−1}``, ``ψ̄_0 = ζ − c``, for ``t = 0..T``: shape ``(T + 1, ..., n, |Θ|)``.

    Iterates the residual and adds the consensus, as :func:`~dpnet.inference.dynamics.scaled_log_ratios` does
    (same shift ``c``).
    """
    T = _check_int("T (iterations)", T, 0)
    D, consensus, residual = _split(loglik, A, noise)
    out = np.empty((T + 1, *residual.shape))
    out[0] = consensus + residual
    for t in range(1, T + 1):
        residual = _apply_agents(D, residual)
        out[t] = consensus + residual
    return out


def belief_trajectory(
    loglik: ArrayLike,
    A: Weights,
    T: int,
    noise: ArrayLike | None = None,
    *,
    aggregate: Literal["rounds", "am", "gm", "counts"] = "rounds",
    tau_hat: float = 0.0,
) -> NDArray[np.float64]:
    """Beliefs at every iteration ``t = 0..T`` (stable for any ``T``), for trajectory plots.

    ``aggregate="rounds"``: each round's beliefs ``ν_{i,k,t}``, shape ``(T + 1, ..., n, |Θ|)``;
    ``"am"`` / ``"gm"``: the AM / GM aggregate over the round axis (−3 of ``noise``), shape
    ``(T + 1, ..., n, |Θ|)`` without the round axis; ``"counts"``: Alg 2's frequencies ``N_{i,t}(θ)``
    at belief threshold ``tau_hat`` (:func:`~dpnet.inference.aggregation.round_counts`; ``0``: "won the
    round"), same shape.
    """
    traj = scaled_trajectory(loglik, A, T, noise)
    if aggregate not in ("rounds", "am", "gm", "counts"):
        raise ParameterError(f"aggregate must be 'rounds', 'am', 'gm' or 'counts' (got {aggregate!r})")
    if aggregate != "rounds" and traj.ndim < 4:
        raise ParameterError(f"aggregate={aggregate!r} needs noise with a round axis, shape (..., K, n, |Θ|)")
    out = []
    for t in range(T + 1):
        if aggregate == "gm":
            out.append(_exp(gm_log_beliefs(traj[t], t)))
        elif aggregate == "am":
            out.append(am_beliefs(traj[t], t))
        elif aggregate == "counts":
            out.append(round_counts(traj[t], t, tau_hat))
        else:
            out.append(_exp(log_softmax_scaled(traj[t], t)))
    return np.stack(out)
