r"""Online learning from a stream of private signals (Alg 3; its non-private twin Alg 5).

At period ``t = 1..T`` agent ``i`` receives the log-likelihoods ``log γ_{i,t}(θ)`` of that period's
signals (``log γ ≡ 0`` when it receives none) and adds Laplace noise ``d_{i,t}(θ) ~ Lap(Δ|Θ|/ε)``, iid over
agents, states and periods (:func:`~dpnet.inference.noise_scale` with ``K = 1``). The log-linear update
(eq. 17) ``ν_{i,t}(θ) ∝ σ_{i,t}(θ) ν_{i,t−1}(θ)^{a_ii} Π_{j∈N_i} ν_{j,t−1}(θ)^{a_ij}`` is, in log space and
up to a per-agent normaliser,

.. math:: \psi_t = A\,\psi_{t-1} + \zeta_t, \qquad \psi_0 = 0, \qquad
   \zeta_{i,t}(\theta) = \log\gamma_{i,t}(\theta) + d_{i,t}(\theta),

and ``log ν_{i,t} = log_softmax_θ ψ_{i,t}`` (:func:`online_log_ratios`). Unlike the MLE dynamics the
exponents sum to 1, so ``ψ`` grows linearly and the time average ``ψ_t/t`` converges (to the network
average of the per-period expected log-likelihoods; the noise averages out, Cesàro). Alg 3 outputs
``argmax_θ ν_{i,T}(θ)``; the authors' code reports the "belief" built from the time-averaged ratio,
``softmax(ψ_T/T)`` (:func:`online_beliefs`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference.dynamics import _apply_agents
from dpnet.networks import check_weights
from dpnet.params import choice

__all__ = ["online_beliefs", "online_log_ratios"]


def _check_stream(stream: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(stream, dtype=float)
    if arr.ndim != 3 or arr.shape[0] < 1 or arr.shape[1] < 1 or arr.shape[2] < 2:
        raise ParameterError(
            f"stream must be a (T, n_agents, n_states) table of per-period log-likelihoods (got {arr.shape})"
        )
    if not np.all(np.isfinite(arr)):
        raise ParameterError("stream must be finite (use 0 for a period without signals)")
    return arr


def online_log_ratios(stream: ArrayLike, A: ArrayLike, noise: ArrayLike | None = None) -> NDArray[np.float64]:
    r"""``ψ_t = A ψ_{t−1} + ζ_t`` for ``t = 1..T`` (eq. 17 in log space; Alg 5 without noise).

    Parameters
    ----------
    stream
        ``(T, n, |Θ|)`` per-period log-likelihoods ``log γ_{i,t}(θ)``.
    A
        Weight matrix (or graph: Metropolis–Hastings weights); the update uses ``A`` itself (eq. 17),
        not the ``A + I`` of the MLE dynamics.
    noise
        ``None`` (non-private) or Laplace noise of shape ``(..., T, n, |Θ|)``, e.g. ``(R, T, n, |Θ|)``
        from :func:`~dpnet.inference.laplace_noise` with ``K = T``.

    Returns
    -------
    numpy.ndarray
        ``ψ_t`` for ``t = 1..T``, shape of ``stream + noise`` (``(..., T, n, |Θ|)``). Log-beliefs are its
        log-softmax over the last axis; the beliefs do not change if a constant is added to a row.
    """
    arr = _check_stream(stream)
    W = check_weights(A)
    if W.shape[0] != arr.shape[1]:
        raise ParameterError(f"A is {W.shape[0]} × {W.shape[0]} but the stream has {arr.shape[1]} agents")
    zeta = arr
    if noise is not None:
        d = np.asarray(noise, dtype=float)
        if d.ndim < 3 or d.shape[-3:] != arr.shape or not np.all(np.isfinite(d)):
            raise ParameterError(f"noise must be finite with shape (..., {', '.join(map(str, arr.shape))})")
        zeta = arr + d
    out = np.empty(zeta.shape)
    psi = np.zeros(zeta[..., 0, :, :].shape)
    for t in range(arr.shape[0]):
        psi = _apply_agents(W, psi) + zeta[..., t, :, :]
        out[..., t, :, :] = psi
    return out


def online_beliefs(
    psi: ArrayLike, *, kind: Literal["terminal", "time_average"] = "terminal"
) -> NDArray[np.float64]:
    r"""Beliefs at the last period from ``ψ`` of :func:`online_log_ratios` (time axis ``−3``).

    ``"terminal"``: Alg 3's ``ν_{i,T} = softmax_θ ψ_{i,T}``; ``"time_average"``: the authors' code's
    ``softmax_θ(ψ_{i,T}/T)`` (spec §3.6), built from the time-averaged log-belief ratio. Shape
    ``(..., n, |Θ|)``.
    """
    kind = choice("terminal", "time_average")("kind", kind)
    arr = np.asarray(psi, dtype=float)
    if arr.ndim < 3:
        raise ParameterError(f"psi must have shape (..., T, n, |Θ|) (got {arr.shape})")
    last = arr[..., -1, :, :]
    if kind == "time_average":
        last = last / arr.shape[-3]
    return special.softmax(last, axis=-1)
