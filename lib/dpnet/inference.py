r"""Differentially private distributed MLE by log-linear belief averaging (paper 003 §3–4, §8–9; paper 000).

**Model.** ``n`` agents on a connected graph with a symmetric doubly stochastic weight matrix ``A``
(:mod:`dpnet.networks`) hold private data. Agent ``i`` knows its log-likelihood ``log γ_i(θ)`` of
every state ``θ`` of a finite set ``Θ``; the table ``loglik[i, θ] = log γ_i(θ)`` of shape
``(n, |Θ|)`` is the input of everything here. ``Λ(θ) = Σ_i log γ_i(θ)``, ``Θ* = argmax Λ`` is the MLE
set, ``Θ̄ = Θ \ Θ*``.

**Dynamics (Alg 4, eq. 18; Alg 1, eq. 12).** Each round starts from noisy beliefs
``ν_{i,0}(θ) ∝ exp(ζ_i(θ))``, ``ζ_i(θ) = log γ_i(θ) + d_i(θ)`` (``d ≡ 0`` for the non-private Alg 4), and
iterates ``ν_{i,t}(θ) ∝ ν_{i,t−1}(θ)^{1+a_ii} Π_{j∈N_i} ν_{j,t−1}(θ)^{a_ij}`` (exponent ``1 + a_ii``, spec
A2). In log space the update is linear up to a per-agent normaliser, so

.. math::
   \log \nu_{i,T}(\theta) = \operatorname{log\,softmax}_\theta\bigl(2^T \bar\psi_{i,T}(\theta)\bigr),
   \qquad \bar\psi_T = \Bigl(\frac{A+I}{2}\Bigr)^T \zeta - c,

exactly, for any shift ``c`` common to all agents and states. ``ψ̄_T`` (the *scaled log-ratios*,
:func:`scaled_log_ratios`) stays bounded for every ``T``
(``((A+I)/2)^T → 𝟙𝟙ᵀ/n``), and the factor ``2^T`` is applied inside the log-softmax with exact
power-of-two scaling (:func:`log_softmax_scaled`). Log-beliefs that fall below
:data:`LOG_BELIEF_FLOOR` (``−2^1000``; the belief is exactly 0 in float64) are set to it, so that
``T`` in the thousands neither overflows nor produces ``0/0`` (spec §3.10).

**Asymptotic oracle (T → ∞, spec §3.3).** ``ψ̄_T → (Λ + Y_k)/n`` for every agent, with
``Y_k(θ) = Σ_i d_{i,k}(θ)``: each round puts belief 1 on ``argmax_θ Λ(θ) + Y_k(θ)`` (ties share it).
:func:`asymptotic_log_ratios` returns this limit in the same representation (``T = None``), so the
same aggregators give the exact limit: AM → fraction of rounds won; GM → one-hot on
``argmax Λ + (1/K) Σ_k Y_k`` (spec A15: GM is the softmax of the mean log-beliefs).

**Private MLE (Alg 1).** ``K`` independent rounds with Laplace noise ``d_{i,k}(θ) ~ Lap(b)``,
``b = Δ K |Θ| / ε`` iid over agents, states and rounds (:func:`noise_scale`; ``×2`` in the authors'
code, spec D2). Aggregation (:func:`am_beliefs`, :func:`gm_log_beliefs`):

* AM ``ν^AM = (1/K) Σ_k ν_k``, ``Θ̂^AM = {ν^AM ≥ τ_AM}``: bounds the **Type II** error
  ``P[Θ* ⊄ Θ̂]`` (spec A16);
* GM ``ν^GM ∝ Π_k ν_k^{1/K} = softmax(2^T mean_k ψ̄_k)``, ``Θ̂^GM = {ν^GM ≥ τ_GM}``: bounds the
  **Type I** error ``P[Θ̂ ⊄ Θ*]``, but only when the likelihood gap is a few noise scales: the
  proof of Thm 4.1 treats a different, ``0/0`` estimator (spec A15).

``T = None`` everywhere means the limit ``T → ∞``.

**Two-threshold algorithm (Alg 2, eq. 15).** ``N(θ) = (1/K) Σ_k 1{ν_{k,T}(θ) > τ̂}``
(:func:`round_counts`); ``Θ̂¹ = {N¹ ≥ τ¹}`` (low Type I) and ``Θ̂² = {N² ≥ τ²}`` (low Type II),
:func:`threshold_sets`; Cor 4.4 uses one threshold for exact recovery.

**Parameters.** ``K``, ``T`` and thresholds from Thms 4.1, 4.2, 4.3, 4.5 and Cor 4.4 with the exact
constants of the proofs (:func:`schedule_thm41`, :func:`schedule_thm42`, :func:`schedule_thm43`,
:func:`schedule_thm45`, :func:`schedule_cor44`), or the authors' code formulas (spec D2/D4,
:func:`schedule_authors_code`). Paper 000's constants are the same formulas with a per-agent
sensitivity ``Δ_i`` (pass an array as ``delta``) and a single threshold ``ϱ``;
:func:`network_dp_sensitivity` gives 000's Network-DP sensitivity.

Shapes: noise and per-round arrays are ``(..., K, n, |Θ|)`` (round axis ``−3``, agent axis ``−2``,
state axis ``−1``), typically ``(R, K, n, |Θ|)`` for ``R`` Monte Carlo replications. All randomness
comes from an explicit :class:`numpy.random.Generator` argument ``rng``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import networkx as nx
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse, special, stats

from dpnet.errors import ParameterError
from dpnet.mechanisms import clopper_pearson
from dpnet.networks import check_weights

__all__ = [
    "LOG_BELIEF_FLOOR",
    "AMGMSchedule",
    "Convention",
    "ErrorRateTask",
    "ErrorRates",
    "PrivateMLEResult",
    "ProblemConstants",
    "ThresholdSchedule",
    "am_beliefs",
    "asymptotic_log_ratios",
    "belief_threshold",
    "belief_trajectory",
    "bernoulli_loglik",
    "bernoulli_sensitivity",
    "consensus_iterations",
    "error_rate_task",
    "exact_recovery_boundaries",
    "exact_recovery_feasible",
    "glrt_pvalue_authors_code",
    "glrt_threshold_centralised",
    "glrt_threshold_distributed",
    "gm_log_beliefs",
    "gm_test_statistic",
    "iterate_log_beliefs",
    "iterations_authors_code",
    "iterations_bound",
    "kt_lower_bound",
    "kt_lower_bound_rr",
    "laplace_noise",
    "log_belief_threshold",
    "log_softmax_scaled",
    "mixing_constant_am",
    "mixing_constant_gm",
    "mixing_constant_thres",
    "mixing_iterations",
    "mle_mask",
    "network_dp_sensitivity",
    "noise_scale",
    "noise_std_sum",
    "nonprivate_log_beliefs",
    "optimal_rho",
    "problem_constants",
    "round_counts",
    "round_log_beliefs",
    "rounds_am",
    "rounds_authors_code",
    "rounds_gm",
    "rounds_thres",
    "rounds_unknown_mle",
    "run_private_mle",
    "scaled_log_ratios",
    "scaled_trajectory",
    "schedule_authors_code",
    "schedule_cor44",
    "schedule_thm41",
    "schedule_thm42",
    "schedule_thm43",
    "schedule_thm45",
    "select_am",
    "select_gm",
    "threshold_sets",
    "to_int_ceil",
    "total_variation",
    "type_errors",
]

Convention = Literal["paper", "authors_code"]
Weights = ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph

#: Log-beliefs below this value (the belief is exactly 0 in float64) are stored as this value.
LOG_BELIEF_FLOOR: float = -(2.0**1000)
_FLOOR_EXP = 1000  # |2^T x| < 2^_FLOOR_EXP is representable; beyond it the log-belief is floored
_MAX_SHIFT = 2200  # any shift ≥ this floors every non-zero float64 (smallest exponent is −1073)
_CEIL_SLACK = 1e-9


# --------------------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------------------


def _check_loglik(loglik: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(loglik, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ParameterError(
            "loglik must be an (n_agents, n_states) table with n_agents ≥ 1 and n_states ≥ 2 "
            f"(got shape {arr.shape})"
        )
    if not np.all(np.isfinite(arr)):
        raise ParameterError("loglik must be finite (got NaN or ±inf); a zero likelihood has no log")
    return arr


def _check_prob(name: str, value: float) -> float:
    value = float(value)
    if not 0.0 < value < 1.0:
        raise ParameterError(f"{name} must lie in the open interval (0, 1) (got {value})")
    return value


def _check_pos(name: str, value: float) -> float:
    value = float(value)
    if not (np.isfinite(value) and value > 0):
        raise ParameterError(f"{name} must be finite and > 0 (got {value})")
    return value


def _check_int(name: str, value: int, minimum: int) -> int:
    if isinstance(value, bool) or int(value) != value or value < minimum:
        raise ParameterError(f"{name} must be an integer ≥ {minimum} (got {value})")
    return int(value)


def _check_T(T: int | None) -> int | None:
    return None if T is None else _check_int("T (iterations)", T, 0)


def _check_states(n_states: int, n_mle: int) -> tuple[int, int]:
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    n_mle = _check_int("n_mle (|Θ*|)", n_mle, 1)
    if n_mle > n_states:
        raise ParameterError(f"n_mle (|Θ*|) must be ≤ n_states = {n_states} (got {n_mle})")
    return n_states, n_mle


def to_int_ceil(x: float, *, minimum: int = 0) -> int:
    """Smallest integer ``≥ x`` (and ``≥ minimum``), forgiving a relative rounding error of ``1e-9``.

    ``K ≥ 5.99146`` gives 6; a value that is an integer up to rounding (``6.000000000001``) gives 6.
    """
    if math.isnan(x):
        raise ParameterError("cannot round NaN up to an integer")
    if x == -math.inf:
        return minimum
    if not math.isfinite(x):
        raise ParameterError(f"cannot round {x} up to an integer")
    return max(minimum, math.ceil(x - _CEIL_SLACK * max(1.0, abs(x))))


# --------------------------------------------------------------------------------------------------
# Thresholds and problem constants
# --------------------------------------------------------------------------------------------------


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


def mle_mask(loglik: ArrayLike, *, atol: float = 1e-9) -> NDArray[np.bool_]:
    """The MLE set ``Θ* = {θ : Λ(θ) ≥ max Λ − atol}`` as a boolean mask over states, ``Λ = Σ_i loglik[i]``."""
    arr = _check_loglik(loglik)
    total = arr.sum(axis=0)
    return total >= total.max() - float(atol)


@dataclass(frozen=True)
class ProblemConstants:
    """Data constants of the bounds (spec 003 §2; paper 000 §3.1).

    Attributes
    ----------
    n
        Number of agents.
    n_states
        ``|Θ| ≥ 2``.
    n_mle
        ``|Θ*|``, the number of MLE states.
    gamma
        ``Γ = max_{i,θ} |log γ_i(θ)|`` (unnormalised log-likelihoods, spec A1).
    gap
        ``l = min_{θ*∈Θ*, θ̄∈Θ̄} Λ(θ*) − Λ(θ̄) > 0``, the realised gap the proofs use (spec A7); ``inf``
        when every state is an MLE state.
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


# --------------------------------------------------------------------------------------------------
# Sensitivity and noise
# --------------------------------------------------------------------------------------------------


def bernoulli_loglik(successes: ArrayLike, trials: ArrayLike, thetas: ArrayLike) -> NDArray[np.float64]:
    r"""Log-likelihood table of Bernoulli signals: ``loglik[i, θ] = s_i log θ + (N_i − s_i) log(1 − θ)``.

    Parameters
    ----------
    successes, trials
        Per-agent counts of ones ``s_i`` and signals ``N_i`` (broadcast to the same 1-D shape).
    thetas
        The states, success probabilities in ``(0, 1)``.
    """
    s = np.atleast_1d(np.asarray(successes, dtype=float))
    N = np.atleast_1d(np.asarray(trials, dtype=float))
    th = np.atleast_1d(np.asarray(thetas, dtype=float))
    s, N = np.broadcast_arrays(s, N)
    if s.ndim != 1 or np.any((s < 0) | (s > N) | (s != np.round(s)) | (N != np.round(N))):
        raise ParameterError("successes and trials must be 1-D integer counts with 0 ≤ successes ≤ trials")
    if th.ndim != 1 or th.size < 2 or np.any((th <= 0) | (th >= 1)):
        raise ParameterError(f"thetas must be ≥ 2 success probabilities in (0, 1) (got {thetas})")
    return s[:, None] * np.log(th)[None, :] + (N - s)[:, None] * np.log1p(-th)[None, :]


def bernoulli_sensitivity(thetas: ArrayLike, n_signals: ArrayLike) -> NDArray[np.float64] | float:
    r"""Sensitivity (eq. 7) of ``n_i`` Bernoulli signals: ``Δ_i = n_i max_θ |log(θ/(1−θ))|``.

    Changing one signal changes ``log ℓ(s|θ) = s log θ + (1−s) log(1−θ)`` by ``g(θ) = |logit θ|``.
    ``Θ = {0.3, 0.5, 0.7}``, ``n_i = 20``: ``Δ_i = 20 ln(7/3) = 16.945957`` (spec 000 §4(a) item 6).
    """
    th = np.atleast_1d(np.asarray(thetas, dtype=float))
    if np.any((th <= 0) | (th >= 1)):
        raise ParameterError(f"thetas must lie in (0, 1) (got {thetas})")
    counts = np.asarray(n_signals, dtype=float)
    if np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise ParameterError(f"n_signals must be integers ≥ 0 (got {n_signals})")
    out = counts * float(np.max(np.abs(special.logit(th))))
    return float(out) if out.ndim == 0 else out


def network_dp_sensitivity(signal_sensitivity: ArrayLike, A: Weights) -> NDArray[np.float64]:
    r"""Paper 000's Network-DP sensitivity ``Δ_i = max{Δ_i^signal, 1 + max_{j≠i} a_ij}`` (§2.3).

    Network DP also protects the neighbours' incoming beliefs; 003 drops it. Returns one value per agent.
    """
    dense = check_weights(A)
    n = dense.shape[0]
    sig = np.broadcast_to(np.asarray(signal_sensitivity, dtype=float), (n,))
    if np.any(sig < 0) or not np.all(np.isfinite(sig)):
        raise ParameterError("signal_sensitivity must be finite and ≥ 0")
    off = np.where(np.eye(n, dtype=bool), -np.inf, dense).max(axis=1) if n > 1 else np.zeros(1)
    return np.maximum(sig, 1.0 + off)


def noise_scale(
    delta: ArrayLike,
    n_states: int,
    eps: float,
    K: int = 1,
    *,
    convention: Convention = "paper",
) -> NDArray[np.float64] | float:
    r"""Laplace scale of the per-agent, per-state, per-round noise (Thms 4.1–4.5).

    .. math:: b = \frac{\Delta\, K\, |\Theta|}{\varepsilon} \quad (\text{paper}), \qquad
       b = \frac{2\,\Delta\, K\, |\Theta|}{\varepsilon} \quad (\text{authors' code, spec D2}).

    One ε-DP release of ``K`` rounds × ``|Θ|`` states composes ``K|Θ|`` Laplace releases, each
    ``ε/(K|Θ|)``-DP for a query of sensitivity Δ. ``K = 1`` gives the online-learning scale ``Δ|Θ|/ε``.
    With an array ``delta`` (paper 000's per-agent ``Δ_i``) the result is one scale per agent.
    """
    if convention not in ("paper", "authors_code"):
        raise ParameterError(f"convention must be 'paper' or 'authors_code' (got {convention!r})")
    d = np.asarray(delta, dtype=float)
    if np.any(~np.isfinite(d)) or np.any(d <= 0):
        raise ParameterError(f"delta (sensitivity) must be finite and > 0 (got {delta})")
    n_states = _check_int("n_states (|Θ|)", n_states, 1)
    K = _check_int("K (rounds)", K, 1)
    eps = _check_pos("eps", eps)
    factor = 2.0 if convention == "authors_code" else 1.0
    out = factor * d * K * n_states / eps
    return float(out) if out.ndim == 0 else out


def noise_std_sum(scale: ArrayLike, n: int) -> float:
    r"""``V = Σ_i sqrt(Var d_i) = √2 Σ_i b_i`` (``n √2 b`` for a common scale ``b``)."""
    n = _check_int("n (agents)", n, 1)
    b = np.broadcast_to(np.asarray(scale, dtype=float), (n,))
    if np.any(b < 0) or not np.all(np.isfinite(b)):
        raise ParameterError(f"scale must be finite and ≥ 0 (got {scale})")
    return float(math.sqrt(2.0) * b.sum())


def laplace_noise(
    rng: np.random.Generator,
    scale: ArrayLike,
    *,
    n_reps: int,
    K: int,
    n_agents: int,
    n_states: int,
) -> NDArray[np.float64]:
    """Laplace noise ``d_{r,k,i}(θ) ~ Lap(b_i)`` iid over replications, rounds, agents and states.

    Returns an array of shape ``(n_reps, K, n_agents, n_states)``; ``scale`` is a common ``b ≥ 0`` or one
    per agent. ``b = 0`` gives zeros (the non-private algorithm).
    """
    shape = (
        _check_int("n_reps", n_reps, 1),
        _check_int("K (rounds)", K, 1),
        _check_int("n_agents", n_agents, 1),
        _check_int("n_states", n_states, 1),
    )
    b = np.asarray(scale, dtype=float)
    if b.ndim > 1 or (b.ndim == 1 and b.shape[0] != n_agents) or np.any(b < 0) or not np.all(np.isfinite(b)):
        raise ParameterError(f"scale must be finite, ≥ 0, scalar or one per agent (got {scale})")
    per_agent = b[:, None] if b.ndim == 1 else b
    return rng.laplace(size=shape) * per_agent


# --------------------------------------------------------------------------------------------------
# Belief dynamics in log space
# --------------------------------------------------------------------------------------------------


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
    ``ψ̄_T(θ) − ψ̄_T(θ̌) → Λ(θ, θ̌)/n`` without noise (spec §3.1).

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
    zeta = _zeta(loglik, noise)
    T = _check_int("T (iterations)", T, 0)
    M = _half_lazy(A)
    if M.shape[0] != zeta.shape[-2]:
        raise ParameterError(f"A is {M.shape[0]} × {M.shape[0]} but loglik has {zeta.shape[-2]} agents")
    mean, consensus = _consensus(zeta)
    if T == 0:
        return zeta - (mean - consensus)
    residual = np.linalg.matrix_power(M - 1.0 / M.shape[0], T)
    return consensus + _apply_agents(residual, zeta - mean)


def _consensus(zeta: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The agents' mean ``ζ̄`` and the centred consensus ``ζ̄ − max_θ ζ̄`` (shapes ``(..., 1, |Θ|)``)."""
    mean = zeta.mean(axis=-2, keepdims=True)
    return mean, mean - mean.max(axis=-1, keepdims=True)


def asymptotic_log_ratios(loglik: ArrayLike, noise: ArrayLike | None = None) -> NDArray[np.float64]:
    r"""The ``T → ∞`` limit of :func:`scaled_log_ratios` (the exact asymptotic oracle, spec §3.3).

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
    elsewhere, so tied maximisers share the belief equally. Never returns NaN or ±inf.
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

    ``T = None`` is the ``T → ∞`` limit, uniform on ``Θ*`` (``A`` is then not needed). For finite ``T``
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

    Iterates the residual and adds the consensus, as :func:`scaled_log_ratios` does (same shift ``c``).
    """
    zeta = _zeta(loglik, noise)
    T = _check_int("T (iterations)", T, 0)
    M = _half_lazy(A)
    if M.shape[0] != zeta.shape[-2]:
        raise ParameterError(f"A is {M.shape[0]} × {M.shape[0]} but loglik has {zeta.shape[-2]} agents")
    D = M - 1.0 / M.shape[0]
    mean, consensus = _consensus(zeta)
    out = np.empty((T + 1, *zeta.shape))
    residual = zeta - mean
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
    aggregate: Literal["rounds", "am", "gm"] = "rounds",
) -> NDArray[np.float64]:
    """Beliefs at every iteration ``t = 0..T`` (stable for any ``T``), for trajectory plots.

    ``aggregate="rounds"``: each round's beliefs ``ν_{i,k,t}``, shape ``(T + 1, ..., n, |Θ|)``;
    ``"am"`` / ``"gm"``: the AM / GM aggregate over the round axis (−3 of ``noise``), shape
    ``(T + 1, ..., n, |Θ|)`` without the round axis.
    """
    traj = scaled_trajectory(loglik, A, T, noise)
    if aggregate not in ("rounds", "am", "gm"):
        raise ParameterError(f"aggregate must be 'rounds', 'am' or 'gm' (got {aggregate!r})")
    if aggregate != "rounds" and traj.ndim < 4:
        raise ParameterError("aggregate='am'/'gm' needs noise with a round axis, shape (..., K, n, |Θ|)")
    out = []
    for t in range(T + 1):
        if aggregate == "gm":
            out.append(_exp(gm_log_beliefs(traj[t], t)))
        elif aggregate == "am":
            out.append(am_beliefs(traj[t], t))
        else:
            out.append(_exp(log_softmax_scaled(traj[t], t)))
    return np.stack(out)


# --------------------------------------------------------------------------------------------------
# Aggregation over rounds and estimated sets
# --------------------------------------------------------------------------------------------------


def _check_rounds(scaled: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(scaled, dtype=float)
    if arr.ndim < 3:
        raise ParameterError(f"per-round arrays must have shape (..., K, n, |Θ|) (got shape {arr.shape})")
    return arr


def am_beliefs(scaled: ArrayLike, T: int | None) -> NDArray[np.float64]:
    r"""AM aggregate (Alg 1): ``ν^AM_{i,T}(θ) = (1/K) Σ_k ν_{i,k,T}(θ)``, shape ``(..., n, |Θ|)``."""
    arr = _check_rounds(scaled)
    return _exp(round_log_beliefs(arr, T)).mean(axis=-3)


def _counts(scaled: NDArray[np.float64], log_beliefs: NDArray[np.float64] | None, tau_hat: float) -> Any:
    """Alg 2 frequencies from the scaled log-ratios (``τ̂ = 0``) or the round log-beliefs (``τ̂ > 0``)."""
    tau_hat = float(tau_hat)
    if not 0.0 <= tau_hat < 1.0:
        raise ParameterError(f"tau_hat (belief threshold) must lie in [0, 1) (got {tau_hat})")
    if tau_hat == 0.0:
        won = scaled == scaled.max(axis=-1, keepdims=True)
    elif log_beliefs is None:
        raise ParameterError("log-beliefs are needed for tau_hat > 0")
    else:
        won = log_beliefs > math.log(tau_hat)
    return won.mean(axis=-3)


def gm_log_beliefs(scaled: ArrayLike, T: int | None) -> NDArray[np.float64]:
    r"""GM aggregate (Alg 1) in log space, shape ``(..., n, |Θ|)``.

    .. math:: \nu^{GM}_{i,T}(\theta) \propto \prod_k \nu_{i,k,T}(\theta)^{1/K}
       = \operatorname{softmax}_\theta\Bigl(2^T \frac1K \sum_k \bar\psi_{i,k,T}(\theta)\Bigr),

    since each round's log-normaliser does not depend on θ. Never ``0/0``, even when every state
    loses some round (spec A15, §3.10).
    """
    arr = _check_rounds(scaled)
    return log_softmax_scaled(arr.mean(axis=-3), _check_T(T))


def round_counts(scaled: ArrayLike, T: int | None, tau_hat: float) -> NDArray[np.float64]:
    r"""Frequency ``N_{i,T}(θ) = (1/K) Σ_k 1{ν_{i,k,T}(θ) > τ̂}`` (Alg 2, eq. 15), shape ``(..., n, |Θ|)``.

    ``τ̂ ∈ (0, 1)`` compares in log space. ``τ̂ = 0`` means "won the round" (``θ`` maximises the round's
    belief; ties count for all tied states): the paper's ``τ̂ = 0`` captions and the ``ϱ → ∞`` limit
    of Thm 4.3 (spec §3.4).
    """
    arr = _check_rounds(scaled)
    log_beliefs = None if float(tau_hat) == 0.0 else round_log_beliefs(arr, T)
    return _counts(arr, log_beliefs, tau_hat)


def select_am(am: ArrayLike, tau: float) -> NDArray[np.bool_]:
    """``Θ̂^AM = {θ : ν^AM(θ) ≥ τ_AM}`` as a boolean mask (``τ ∈ (0, 1]``)."""
    tau = float(tau)
    if not 0.0 < tau <= 1.0:
        raise ParameterError(f"tau (AM belief threshold) must lie in (0, 1] (got {tau})")
    return np.asarray(am, dtype=float) >= tau


def select_gm(gm_log: ArrayLike, tau: float) -> NDArray[np.bool_]:
    """``Θ̂^GM = {θ : ν^GM(θ) ≥ τ_GM}`` from GM log-beliefs, compared in log space (``τ ∈ (0, 1]``)."""
    tau = float(tau)
    if not 0.0 < tau <= 1.0:
        raise ParameterError(f"tau (GM belief threshold) must lie in (0, 1] (got {tau})")
    return np.asarray(gm_log, dtype=float) >= math.log(tau)


def threshold_sets(
    counts_1: ArrayLike, counts_2: ArrayLike, freq_1: float, freq_2: float, K: int
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    r"""Alg 2's two sets: ``Θ̂¹ = {N¹ ≥ max(τ¹, 1/K)}`` (low Type I) and ``Θ̂² = {N² ≥ τ²}`` (low Type II).

    ``Θ̂¹ ⊆ Θ* ⊆ Θ̂²`` is the intended sandwich (spec A4 corrects the reversed statement). When
    ``|Θ*| = 1`` Thm 4.3 gives ``τ¹ = 0`` and ``N ≥ 0`` would admit every state; ``max(τ¹, 1/K)`` (a
    state must win at least one round) is spec A4's resolution and changes nothing when ``τ¹ > 0``,
    because ``N`` takes values in ``{0, 1/K, …, 1}``. Cor 4.4's single threshold: ``counts_1 = counts_2``
    and ``freq_1 = freq_2``.
    """
    K = _check_int("K (rounds)", K, 1)
    for name, value in (("freq_1", freq_1), ("freq_2", freq_2)):
        if not np.isfinite(value):
            raise ParameterError(f"{name} (frequency threshold) must be finite (got {value})")
    n1 = np.asarray(counts_1, dtype=float)
    n2 = np.asarray(counts_2, dtype=float)
    tol = 1e-12  # counts are k/K in floating point
    return n1 >= max(float(freq_1), 1.0 / K) - tol, n2 >= float(freq_2) - tol


# --------------------------------------------------------------------------------------------------
# Simulation driver
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PrivateMLEResult:
    """Outcome of :func:`run_private_mle`: the scaled log-ratios of every replication and round.

    Attributes
    ----------
    scaled
        ``ψ̄_T`` of shape ``(R, K, n, |Θ|)`` (the limit ``(Λ + Y_k)/n`` when ``T`` is ``None``).
    T
        Iterations per round; ``None`` for the ``T → ∞`` oracle.
    noise_scale
        Laplace scale(s) ``b`` used.
    """

    scaled: NDArray[np.float64]
    T: int | None
    noise_scale: float | NDArray[np.float64]

    @property
    def n_reps(self) -> int:
        return int(self.scaled.shape[0])

    @property
    def K(self) -> int:
        return int(self.scaled.shape[1])

    @cached_property
    def _log_beliefs(self) -> NDArray[np.float64]:
        return round_log_beliefs(self.scaled, self.T)

    def round_log_beliefs(self) -> NDArray[np.float64]:
        """``log ν_{i,k,T}(θ)``, shape ``(R, K, n, |Θ|)`` (computed once, then cached)."""
        return self._log_beliefs

    def am_beliefs(self) -> NDArray[np.float64]:
        """AM beliefs, shape ``(R, n, |Θ|)``."""
        return _exp(self._log_beliefs).mean(axis=-3)

    def gm_log_beliefs(self) -> NDArray[np.float64]:
        """GM log-beliefs, shape ``(R, n, |Θ|)``."""
        return gm_log_beliefs(self.scaled, self.T)

    def round_counts(self, tau_hat: float) -> NDArray[np.float64]:
        """Alg 2 frequencies ``N(θ)`` at belief threshold ``τ̂``, shape ``(R, n, |Θ|)``."""
        return _counts(self.scaled, None if float(tau_hat) == 0.0 else self._log_beliefs, tau_hat)


def run_private_mle(
    loglik: ArrayLike,
    A: Weights | None,
    *,
    K: int,
    T: int | None,
    scale: ArrayLike,
    n_reps: int,
    rng: np.random.Generator,
) -> PrivateMLEResult:
    """Simulate ``n_reps`` independent runs of ``K`` private rounds of ``T`` iterations (Algs 1–2).

    Each agent, state, round and replication gets independent ``Lap(b)`` noise (:func:`laplace_noise`);
    the rounds are evaluated in closed form (:func:`scaled_log_ratios`), or in the ``T → ∞`` limit
    when ``T`` is ``None`` (:func:`asymptotic_log_ratios`; ``A`` is then not needed). Cost
    ``O(R K n² |Θ|)`` plus ``O(n³ log T)``, independent of ``T`` otherwise.
    """
    arr = _check_loglik(loglik)
    T = _check_T(T)
    if T is not None and A is None:
        raise ParameterError("A (weights) is required for finite T")
    noise = laplace_noise(rng, scale, n_reps=n_reps, K=K, n_agents=arr.shape[0], n_states=arr.shape[1])
    scaled = asymptotic_log_ratios(arr, noise) if T is None else scaled_log_ratios(arr, A, T, noise)
    b = np.asarray(scale, dtype=float)
    return PrivateMLEResult(scaled=scaled, T=T, noise_scale=float(b) if b.ndim == 0 else b)


# --------------------------------------------------------------------------------------------------
# Rounds K (Thms 4.1, 4.3, 4.5, Cor 4.4; authors' code)
# --------------------------------------------------------------------------------------------------


def rounds_am(n_states: int, n_mle: int, beta: float, *, corrected: bool = False) -> float:
    r"""AM rounds, Thms 4.1–4.2: ``K ≥ |Θ̄| log(|Θ*|/(1−β))`` (real-valued; round up with :func:`to_int_ceil`).

    The proof's per-round win probability ``1/|Θ̄|`` should be ``1/|Θ|`` (spec A15, spec 000 A1):
    ``corrected=True`` returns ``|Θ| log(|Θ*|/(1−β))``. ``|Θ| = 3``, ``|Θ*| = 1``, ``1−β = 0.05``:
    5.99146.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    miss = 1.0 - _check_prob("beta", beta)
    factor = n_states if corrected else n_states - n_mle
    return factor * math.log(n_mle / miss)


def rounds_gm(n_states: int, n_mle: int, alpha: float, *, corrected: bool = False) -> float:
    r"""GM rounds, Thms 4.1–4.2: ``K ≥ |Θ*| log(|Θ̄|/α)`` (0 when ``Θ̄ = ∅``).

    ``corrected=True`` uses ``|Θ*| + 1``: a non-MLE state loses a round with probability at least
    ``1/(|Θ*|+1)``, not ``1/|Θ*|`` (spec 000 A1). Both bound the proof's estimator (a state must
    keep a positive belief in every round); the implemented GM (softmax of the mean log-beliefs) has
    no such guarantee when the noise swamps the gap (see :func:`gm_log_beliefs`). ``|Θ| = 3``,
    ``|Θ*| = 1``, ``α = 0.05``: 3.68888.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    alpha = _check_prob("alpha", alpha)
    if n_mle == n_states:
        return 0.0
    return (n_mle + 1 if corrected else n_mle) * math.log((n_states - n_mle) / alpha)


def rounds_unknown_mle(n_states: int, alpha: float, beta: float) -> float:
    r"""Rounds when ``|Θ*|`` is unknown (Thm 4.1 remark): ``K ≥ |Θ| log(|Θ|/min{α, 1−β})``."""
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    eta = min(_check_prob("alpha", alpha), 1.0 - _check_prob("beta", beta))
    return n_states * math.log(n_states / eta)


def rounds_authors_code(n_states: int, eta: float) -> int:
    r"""The authors' code (spec D4): ``K = ⌈|Θ| log(|Θ|/η)⌉``, ``η = max{α, 1−β}``.

    ``|Θ| = 2``: 8, 9, 6 for ``η = 0.05, 0.025, 0.1``.
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    eta = _check_prob("eta", eta)
    return to_int_ceil(n_states * math.log(n_states / eta), minimum=1)


def rounds_thres(
    n_states: int,
    n_mle: int,
    alpha: float,
    beta: float,
    pi1: float,
    pi2: float,
    *,
    mle_count_known: bool = True,
) -> tuple[float, float]:
    r"""Two-threshold rounds (Thms 4.3, 4.5): ``(K¹, K²)``, real-valued.

    Known ``|Θ*|``: ``K¹ = log(|Θ̄|/α)/(2π₁²)`` (Type I set) and ``K² = log(|Θ*|/(1−β))/(2π₂²)``
    (Type II set), the theorem statements (spec A5). Unknown ``|Θ*|``: ``|Θ|`` replaces ``|Θ̄|`` and
    ``|Θ*|``. ``|Θ| = 3``, ``|Θ*| = 1``, ``α = 1−β = 0.05``, ``π = 0.5``: ``(7.37776, 5.99146)``.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    pi1, pi2 = _check_pos("pi1", pi1), _check_pos("pi2", pi2)
    if pi2 >= 1:
        raise ParameterError(f"pi2 must lie in (0, 1) so that τ² = (1 − π₂)p₂ > 0 (got {pi2})")
    bad, good = (n_states, n_states) if not mle_count_known else (n_states - n_mle, n_mle)
    k1 = math.log(bad / alpha) / (2 * pi1**2) if bad > 0 else 0.0
    k2 = math.log(good / (1.0 - beta)) / (2 * pi2**2)
    return k1, k2


def _p1_p2(n_states: int, n_mle: int, mle_count_known: bool) -> tuple[float, float]:
    """Thm 4.3's ``p₁ = 1 − 1/|Θ*|`` and ``p₂ = 1/|Θ̄|`` (``|Θ|`` for both when ``|Θ*|`` is unknown)."""
    if not mle_count_known:
        return 1.0 - 1.0 / n_states, 1.0 / n_states
    if n_mle == n_states:
        raise ParameterError("the two-threshold rule needs at least one non-MLE state (|Θ*| < |Θ|)")
    return 1.0 - 1.0 / n_mle, 1.0 / (n_states - n_mle)


def exact_recovery_feasible(n_states: int, n_mle: int) -> bool:
    r"""Cor 4.4's condition ``p₂ > p₁``, i.e. ``f*(1 − f*) < 1/|Θ|`` with ``f* = |Θ*|/|Θ|`` and ``Θ̄ ≠ ∅``.

    The corollary's "any ``f*`` when ``|Θ| ≤ 4``" misses the boundary ``|Θ| = 4``, ``|Θ*| = 2`` (then
    ``p₁ = p₂ = 1/2``) and ``f* = 1`` (``Θ̄ = ∅``); both are infeasible here.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    if n_mle == n_states:
        return False
    p1, p2 = _p1_p2(n_states, n_mle, True)
    return p2 > p1


def exact_recovery_boundaries(n_states: int) -> tuple[float, float]:
    r"""Cor 4.4's density boundaries ``½ ∓ ½ sqrt((|Θ|−4)/|Θ|)`` (``|Θ| > 4``): feasible iff ``f*`` outside.

    ``|Θ| = 5``: (0.276393, 0.723607); ``10``: (0.112702, 0.887298); ``20``: (0.052786, 0.947214).
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 5)
    half = 0.5 * math.sqrt((n_states - 4) / n_states)
    return 0.5 - half, 0.5 + half


# --------------------------------------------------------------------------------------------------
# Iterations T (Thms 4.2, 4.5; authors' code) and optimal thresholds
# --------------------------------------------------------------------------------------------------


def consensus_iterations(rho: float, *, n: int, gap: float) -> float:
    r"""First term of every finite-T bound: ``log(2ϱn/l)/log 2`` (the ``2^T Λ/n`` term must exceed ϱ)."""
    rho, gap = _check_pos("rho", rho), _check_pos("gap (l)", gap)
    n = _check_int("n (agents)", n, 1)
    return math.log(2 * rho * n / gap) / math.log(2.0)


def mixing_iterations(c: float, rho: float, *, a_star: float) -> float:
    r"""Second term: ``log(c/ϱ)/log(1/a*)`` (the residual ``(a*)^T c`` must fall below ϱ).

    ``a* = 0`` (e.g. two agents) mixes in one step: 0. ``c = 0`` (one agent): ``−inf``.
    """
    rho = _check_pos("rho", rho)
    if not (c >= 0 and math.isfinite(c)):
        raise ParameterError(f"c (mixing constant) must be finite and ≥ 0 (got {c})")
    if not 0.0 <= a_star < 1.0:
        raise ParameterError(f"a_star must lie in [0, 1) (got {a_star}); a* = 1 means a disconnected graph")
    if c == 0:
        return -math.inf
    if a_star == 0:
        return 0.0
    return math.log(c / rho) / math.log(1.0 / a_star)


def _nGV(n: int, gamma: float, V: float, n_states: int) -> float:
    n = _check_int("n (agents)", n, 1)
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    if not (gamma >= 0 and V >= 0 and math.isfinite(gamma) and math.isfinite(V)):
        raise ParameterError(f"gamma (Γ) and V must be finite and ≥ 0 (got {gamma}, {V})")
    return n_states**2 * (n - 1) * (n * gamma + V)


def mixing_constant_am(*, n_states: int, n: int, K: int, gamma: float, V: float, beta: float) -> float:
    r"""Thm 4.2 (AM): ``c = |Θ|²(n−1)K(nΓ+V) / (2 log(1/(1−β)))`` (spec A3 reads ``log(1/(1−β))``)."""
    K = _check_int("K (rounds)", K, 1)
    return _nGV(n, gamma, V, n_states) * K / (2 * math.log(1.0 / (1.0 - _check_prob("beta", beta))))


def mixing_constant_gm(*, n_states: int, n: int, K: int, gamma: float, V: float, alpha: float) -> float:
    r"""Thm 4.2 (GM): ``c = |Θ|²(n−1)(nΓ+V) / (2α√K)``."""
    K = _check_int("K (rounds)", K, 1)
    return _nGV(n, gamma, V, n_states) / (2 * _check_prob("alpha", alpha) * math.sqrt(K))


def mixing_constant_thres(*, n_states: int, n: int, gamma: float, V: float, q: float) -> float:
    r"""Thm 4.5: ``c = |Θ|²(n−1)(nΓ+V) / (2q)``, ``q = q₁`` (Type I set) or ``q = 1 − q₂`` (Type II set).

    The theorem statement; its proof drops the 2 in the Type I term (spec A5).
    """
    return _nGV(n, gamma, V, n_states) / (2 * _check_prob("q", q))


def iterations_bound(c: float, rho: float, *, n: int, gap: float, a_star: float) -> float:
    r"""``T ≥ max{log(2ϱn/l)/log 2, log(c/ϱ)/log(1/a*)}`` (Thms 4.2, 4.5), real-valued."""
    return max(consensus_iterations(rho, n=n, gap=gap), mixing_iterations(c, rho, a_star=a_star))


def optimal_rho(c: float, *, n: int, gap: float, a_star: float) -> float:
    r"""The ϱ that makes the two terms of :func:`iterations_bound` equal (Thm 4.2 remark).

    .. math:: \varrho^\star = c^{\gamma_e} \Bigl(\frac{l}{2n}\Bigr)^{\omega}, \qquad
       \gamma_e = \frac{\log 2}{\log(2/a^\star)}, \quad \omega = \frac{\log(1/a^\star)}{\log(2/a^\star)}.

    With the AM and GM constants this is the paper's ``ϱ*_AM``, ``ϱ*_GM``. The paper's two-threshold
    ``ϱ*_thres`` divides ``c`` by ``√K`` although Thm 4.5's T terms carry no ``√K`` (spec 000 A6);
    :func:`schedule_thm45` follows the paper, so its two terms agree only for ``K = 1``.
    """
    if not (c > 0 and math.isfinite(c)):
        raise ParameterError(f"c (mixing constant) must be finite and > 0 (got {c})")
    gap = _check_pos("gap (l)", gap)
    n = _check_int("n (agents)", n, 1)
    if not 0.0 <= a_star < 1.0:
        raise ParameterError(f"a_star must lie in [0, 1) (got {a_star})")
    if a_star == 0:
        return gap / (2 * n)
    denom = math.log(2.0 / a_star)
    return math.exp((math.log(2.0) * math.log(c) + math.log(1.0 / a_star) * math.log(gap / (2 * n))) / denom)


def iterations_authors_code(
    *,
    n_states: int,
    n: int,
    gamma: float,
    gap: float,
    a_star: float,
    delta: float,
    eps: float,
    rho: float,
    eta: float,
) -> int:
    r"""The authors' code (spec D4): ``T = ⌈|Θ| max{log(n/l), log(|Θ|(Γ + Δ/ε)/(ϱη))/log(1/a*)}⌉``.

    ACTG (legacy likelihood, ``n = 5``, ``Γ ≈ 1008``, ``l = 276.2``, ``Δ = 2 ln 2``, ``ε = 1``, ``ϱ = 1.5``,
    ``η = 0.05``, complete graph): ``T = 21``.
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    n = _check_int("n (agents)", n, 1)
    gap, delta, eps, rho = (
        _check_pos(k, v) for k, v in (("gap", gap), ("delta", delta), ("eps", eps), ("rho", rho))
    )
    eta = _check_prob("eta", eta)
    if not 0.0 <= a_star < 1.0:
        raise ParameterError(f"a_star must lie in [0, 1) (got {a_star})")
    mix = (
        0.0
        if a_star == 0
        else math.log(n_states * (gamma + delta / eps) / (rho * eta)) / math.log(1 / a_star)
    )
    return to_int_ceil(n_states * max(math.log(n / gap), mix))


# --------------------------------------------------------------------------------------------------
# Schedules: K, T, noise and thresholds together
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AMGMSchedule:
    """Parameters of one run of Alg 1 (AM and GM from the same ``K`` rounds).

    Attributes
    ----------
    K, T
        Rounds and iterations per round (``T = None``: the asymptotic theorem, ``T → ∞``).
    noise_scale
        Laplace scale ``b`` per agent, state and round (an array for per-agent ``Δ_i``).
    V
        ``√2 Σ_i b_i``.
    rho_am, rho_gm, tau_am, tau_gm
        Log-belief thresholds ϱ and belief thresholds ``τ = 1/(1+e^ϱ)``.
    k_am, k_gm, t_am, t_gm
        Real-valued requirements before rounding (``t = nan`` for the asymptotic theorem).
    convention
        ``"paper"`` or ``"authors_code"``.
    """

    K: int
    T: int | None
    noise_scale: float | NDArray[np.float64] = field(repr=False)
    V: float
    rho_am: float
    rho_gm: float
    tau_am: float
    tau_gm: float
    k_am: float
    k_gm: float
    t_am: float
    t_gm: float
    convention: str


@dataclass(frozen=True)
class ThresholdSchedule:
    """Parameters of one run of Alg 2 (two-threshold) or Cor 4.4 (single threshold).

    Attributes
    ----------
    K, T
        Rounds and iterations (``T = None``: asymptotic).
    noise_scale, V
        As in :class:`AMGMSchedule`.
    rho_1, rho_2, tau_hat_1, tau_hat_2
        Log-belief and belief thresholds of the counts ``N¹``, ``N²`` (``τ̂ = 0``: "won the round").
    freq_1, freq_2
        Frequency thresholds ``τ¹ = (1+π₁)p₁`` (or ``q₁``) and ``τ² = (1−π₂)p₂`` (or ``q₂``).
    k_1, k_2, t_1, t_2
        Real-valued requirements before rounding.
    convention
        ``"paper"`` or ``"authors_code"``.
    """

    K: int
    T: int | None
    noise_scale: float | NDArray[np.float64] = field(repr=False)
    V: float
    rho_1: float
    rho_2: float
    tau_hat_1: float
    tau_hat_2: float
    freq_1: float
    freq_2: float
    k_1: float
    k_2: float
    t_1: float
    t_2: float
    convention: str


def _scale_and_V(
    delta: ArrayLike, n_states: int, eps: float, K: int, n: int, convention: Convention
) -> tuple[float | NDArray[np.float64], float]:
    b = noise_scale(delta, n_states, eps, K, convention=convention)
    return b, noise_std_sum(b, n)


def _amgm_rounds(
    problem: ProblemConstants, alpha: float, beta: float, mle_count_known: bool, corrected: bool
) -> tuple[float, float]:
    if not mle_count_known:
        k = rounds_unknown_mle(problem.n_states, alpha, beta)
        return k, k
    return (
        rounds_am(problem.n_states, problem.n_mle, beta, corrected=corrected),
        rounds_gm(problem.n_states, problem.n_mle, alpha, corrected=corrected),
    )


def schedule_thm41(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    mle_count_known: bool = True,
    corrected: bool = False,
) -> AMGMSchedule:
    """Thm 4.1 (asymptotic, ``T → ∞`` and ``ϱ → ∞``): ``K = ⌈max(K_AM, K_GM)⌉``, ``b = ΔK|Θ|/ε``.

    The thresholds are ``τ_AM = τ_GM = 1/K``: in the ``T → ∞`` limit every ``τ ∈ (0, 1/K]`` selects the
    same sets as ``τ → 0``. ``mle_count_known=False`` uses ``|Θ| log(|Θ|/min{α, 1−β})`` rounds;
    ``corrected`` applies spec A15 (:func:`rounds_am`, :func:`rounds_gm`).
    """
    k_am, k_gm = _amgm_rounds(problem, alpha, beta, mle_count_known, corrected)
    K = to_int_ceil(max(k_am, k_gm), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    tau = 1.0 / K
    rho = math.inf if K == 1 else log_belief_threshold(min(tau, 0.5))
    return AMGMSchedule(
        K=K, T=None, noise_scale=b, V=V, rho_am=rho, rho_gm=rho, tau_am=tau, tau_gm=tau,
        k_am=k_am, k_gm=k_gm, t_am=math.nan, t_gm=math.nan, convention="paper",
    )  # fmt: skip


def schedule_thm42(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    rho_am: float | None = None,
    rho_gm: float | None = None,
    mle_count_known: bool = True,
    corrected: bool = False,
) -> AMGMSchedule:
    r"""Thm 4.2 (finite T) with the exact constants of the proof (§9.3).

    ``K = ⌈max(K_AM, K_GM)⌉`` (Thm 4.1 rounds), ``b = ΔK|Θ|/ε``, ``V = √2 Σ_i b_i``, and
    ``T = ⌈max(T_AM, T_GM)⌉`` with

    .. math::
       T_{GM} = \max\Bigl\{\frac{\log(2\varrho_{GM} n/l)}{\log 2},
         \frac{\log\frac{|\Theta|^2(n-1)(n\Gamma+V)}{2\alpha\varrho_{GM}\sqrt K}}{\log(1/a^\star)}\Bigr\},
       \\
       T_{AM} = \max\Bigl\{\frac{\log(2\varrho_{AM} n/l)}{\log 2},
         \frac{\log\frac{|\Theta|^2(n-1)K(n\Gamma+V)}{2\log(1/(1-\beta))\varrho_{AM}}}{\log(1/a^\star)}\Bigr\}.

    ``rho_am``/``rho_gm`` default to the optimal thresholds (:func:`optimal_rho`). Guarantees:
    ``P[Θ̂^GM ⊆ Θ*] ≥ 1 − 2α`` and ``P[Θ* ⊆ Θ̂^AM] ≥ 2β − 1``.
    """
    k_am, k_gm = _amgm_rounds(problem, alpha, beta, mle_count_known, corrected)
    K = to_int_ceil(max(k_am, k_gm), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    common = {"n_states": problem.n_states, "n": problem.n, "K": K, "gamma": problem.gamma, "V": V}
    c_am = mixing_constant_am(**common, beta=beta)
    c_gm = mixing_constant_gm(**common, alpha=alpha)
    geo = {"n": problem.n, "gap": problem.gap, "a_star": a_star}
    r_am = optimal_rho(c_am, **geo) if rho_am is None else _check_pos("rho_am", rho_am)
    r_gm = optimal_rho(c_gm, **geo) if rho_gm is None else _check_pos("rho_gm", rho_gm)
    t_am = iterations_bound(c_am, r_am, **geo)
    t_gm = iterations_bound(c_gm, r_gm, **geo)
    T = to_int_ceil(max(t_am, t_gm))
    return AMGMSchedule(
        K=K, T=T, noise_scale=b, V=V, rho_am=r_am, rho_gm=r_gm,
        tau_am=belief_threshold(r_am), tau_gm=belief_threshold(r_gm),
        k_am=k_am, k_gm=k_gm, t_am=t_am, t_gm=t_gm, convention="paper",
    )  # fmt: skip


def schedule_authors_code(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: float,
    eps: float,
    alpha: float,
    beta: float,
    rho: float,
) -> AMGMSchedule:
    """The authors' notebook (spec D2, D4): code ``K`` and ``T``, noise ``2KΔ|Θ|/ε``, one ϱ for AM and GM.

    ``η = max{α, 1−β}``. ACTG legacy (``n = 5``, ``ε = 1``, ``α = 1−β = 0.05``, ``ϱ = 1.5``): ``K = 8``,
    ``T = 21``. The same ``K``, ``T`` serve the notebook's two-threshold runs.
    """
    eta = max(_check_prob("alpha", alpha), 1.0 - _check_prob("beta", beta))
    K = rounds_authors_code(problem.n_states, eta)
    T = iterations_authors_code(
        n_states=problem.n_states,
        n=problem.n,
        gamma=problem.gamma,
        gap=problem.gap,
        a_star=a_star,
        delta=delta,
        eps=eps,
        rho=rho,
        eta=eta,
    )
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "authors_code")
    tau = belief_threshold(rho)
    return AMGMSchedule(
        K=K, T=T, noise_scale=b, V=V, rho_am=rho, rho_gm=rho, tau_am=tau, tau_gm=tau,
        k_am=float(K), k_gm=float(K), t_am=float(T), t_gm=float(T), convention="authors_code",
    )  # fmt: skip


def schedule_thm43(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    pi1: float,
    pi2: float,
    mle_count_known: bool = True,
) -> ThresholdSchedule:
    r"""Thm 4.3 (asymptotic two-threshold): ``τ¹ = (1+π₁)p₁``, ``τ² = (1−π₂)p₂``, ``K = ⌈max(K¹, K²)⌉``.

    ``p₁ = 1 − 1/|Θ*|``, ``p₂ = 1/|Θ̄|`` (unknown ``|Θ*|``: ``1 − 1/|Θ|`` and ``1/|Θ|``). The counts use
    ``τ̂ = 0`` ("won the round"), the ``T → ∞``, ``ϱ → ∞`` limit.
    """
    k1, k2 = rounds_thres(
        problem.n_states, problem.n_mle, alpha, beta, pi1, pi2, mle_count_known=mle_count_known
    )
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    p1, p2 = _p1_p2(problem.n_states, problem.n_mle, mle_count_known)
    return ThresholdSchedule(
        K=K, T=None, noise_scale=b, V=V, rho_1=math.inf, rho_2=math.inf, tau_hat_1=0.0, tau_hat_2=0.0,
        freq_1=(1 + pi1) * p1, freq_2=(1 - pi2) * p2, k_1=k1, k_2=k2, t_1=math.nan, t_2=math.nan,
        convention="paper",
    )  # fmt: skip


def schedule_cor44(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    pi2: float,
) -> ThresholdSchedule:
    r"""Cor 4.4 (exact recovery with one threshold, asymptotic): ``τ = (1−π₂)p₂``, one count.

    Needs ``p₂ > p₁`` (:func:`exact_recovery_feasible`) and ``π₁ = (1−π₂)p₂/p₁ − 1 > 0``
    (``π₁ = ∞`` when ``|Θ*| = 1``); ``K = ⌈max{log(|Θ|/α)/(2π₁²), log(|Θ|/(1−β))/(2π₂²)}⌉``. Then
    ``lim P[Θ̂ = Θ*] ≥ β − α``. ``freq_1 = freq_2 = τ`` and ``τ̂ = 0``.
    """
    n_states, n_mle = problem.n_states, problem.n_mle
    if not exact_recovery_feasible(n_states, n_mle):
        raise ParameterError(
            f"exact recovery needs p2 > p1, i.e. f*(1 − f*) < 1/|Θ| (got |Θ*| = {n_mle}, |Θ| = {n_states})"
        )
    pi2 = _check_pos("pi2", pi2)
    p1, p2 = _p1_p2(n_states, n_mle, True)
    tau = (1 - pi2) * p2
    if not tau > p1:
        raise ParameterError(f"pi2 must satisfy (1 − π₂)p₂ > p₁ = {p1:g} (got π₂ = {pi2}, τ = {tau:g})")
    pi1 = math.inf if p1 == 0 else tau / p1 - 1.0
    k1 = 0.0 if math.isinf(pi1) else math.log(n_states / _check_prob("alpha", alpha)) / (2 * pi1**2)
    k2 = math.log(n_states / (1.0 - _check_prob("beta", beta))) / (2 * pi2**2)
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, n_states, eps, K, problem.n, "paper")
    return ThresholdSchedule(
        K, None, b, V, math.inf, math.inf, 0.0, 0.0, tau, tau, k1, k2, math.nan, math.nan, "paper"
    )


def schedule_thm45(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    q1: float,
    q2: float,
    pi1: float,
    pi2: float,
    rho_1: float | None = None,
    rho_2: float | None = None,
) -> ThresholdSchedule:
    r"""Thm 4.5 (finite-T two-threshold), theorem statement (spec A5, A13).

    ``τ¹ = (1+π₁)q₁``, ``K¹ = log(|Θ̄|/α)/(2π₁²)``,
    ``T¹ = max{log(2ϱ₁n/l)/log 2, log(|Θ|²(n−1)(nΓ+V)/(2q₁ϱ₁))/log(1/a*)}``;
    ``τ² = (1−π₂)q₂``, ``K² = log(|Θ*|/(1−β))/(2π₂²)``, ``T²`` with ``2(1−q₂)ϱ₂``; ``K = ⌈max⌉``,
    ``T = ⌈max⌉``, ``b = ΔK|Θ|/ε``. Default ϱ's are the paper's ``ϱ*_thres`` (with the ``√K`` of the
    remark, spec 000 A6). ``τ̂_j = 1/(1+e^{ϱ_j})``.
    """
    q1, q2 = _check_prob("q1", q1), _check_prob("q2", q2)
    k1, k2 = rounds_thres(problem.n_states, problem.n_mle, alpha, beta, pi1, pi2)
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    common = {"n_states": problem.n_states, "n": problem.n, "gamma": problem.gamma, "V": V}
    c1 = mixing_constant_thres(**common, q=q1)
    c2 = mixing_constant_thres(**common, q=1.0 - q2)
    geo = {"n": problem.n, "gap": problem.gap, "a_star": a_star}
    r1 = optimal_rho(c1 / math.sqrt(K), **geo) if rho_1 is None else _check_pos("rho_1", rho_1)
    r2 = optimal_rho(c2 / math.sqrt(K), **geo) if rho_2 is None else _check_pos("rho_2", rho_2)
    t1, t2 = iterations_bound(c1, r1, **geo), iterations_bound(c2, r2, **geo)
    return ThresholdSchedule(
        K=K, T=to_int_ceil(max(t1, t2)), noise_scale=b, V=V, rho_1=r1, rho_2=r2,
        tau_hat_1=belief_threshold(r1), tau_hat_2=belief_threshold(r2),
        freq_1=(1 + pi1) * q1, freq_2=(1 - pi2) * q2, k_1=k1, k_2=k2, t_1=t1, t_2=t2, convention="paper",
    )  # fmt: skip


# --------------------------------------------------------------------------------------------------
# Hypothesis testing (§4.2) and the lower bound (§13)
# --------------------------------------------------------------------------------------------------


def gm_test_statistic(scaled: ArrayLike, *, null: int = 0, alt: int = 1) -> NDArray[np.float64]:
    r"""Prop 4.6's statistic ``S_i = (n/2^{T−1}) log(ν^GM_{i,T}(alt)/ν^GM_{i,T}(null))``, shape ``(..., n)``.

    With ``ψ_T = (A+I)^T ζ`` (``T`` updates, spec A10) this is exactly
    ``2n · mean_k[ψ̄_{k,T}(alt) − ψ̄_{k,T}(null)] → 2 Z^GM`` (twice ``Λ(alt, null)`` plus averaged noise).
    The authors' code statistic is a quarter of this (spec D5).
    """
    arr = _check_rounds(scaled)
    m = arr.shape[-1]
    if not (0 <= null < m and 0 <= alt < m and null != alt):
        raise ParameterError(f"null and alt must be distinct state indices in [0, {m}) (got {null}, {alt})")
    mean = arr.mean(axis=-3)
    return 2.0 * arr.shape[-2] * (mean[..., alt] - mean[..., null])


def glrt_threshold_distributed(n: int, alpha: float) -> float:
    """Composite distributed GLRT threshold ``ϱ_d = F⁻¹_{χ²_n}(1 − α/2) − 1`` (§4.2).

    ``n = 5``, ``α = 0.05``: 11.8325.
    """
    return float(stats.chi2.ppf(1.0 - _check_prob("alpha", alpha) / 2, _check_int("n", n, 1)) - 1.0)


def glrt_threshold_centralised(alpha: float) -> float:
    """Centralised GLRT threshold ``F⁻¹_{χ²_1}(1 − α)``. ``α = 0.05``: 3.8415."""
    return float(stats.chi2.ppf(1.0 - _check_prob("alpha", alpha), 1))


def glrt_pvalue_authors_code(statistic: ArrayLike, n: int) -> NDArray[np.float64]:
    """p-value of the authors' notebook: ``1 − F_{χ²_n}(S + 1)`` (spec §3.5)."""
    return stats.chi2.sf(np.asarray(statistic, dtype=float) + 1.0, _check_int("n", n, 1))


def kt_lower_bound(alpha: float, beta: float, diameter: int, kl_sum: float) -> float:
    r"""Thm 13.1 as published: ``K·T ≥ |1−α−β| diam(G) / (2 Σ_i D_KL(ℓ̂_i(·|1) ‖ ℓ̂_i(·|0)))``.

    As printed the numerator vanishes at the usual operating point ``β = 1 − α``; the proof's
    Pinsker step bounds ``(P₁ − P₀)²`` with ``P₁ − P₀ = β − α``. Tabulate with care.
    """
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    diameter = _check_int("diameter", diameter, 0)
    kl_sum = _check_pos("kl_sum", kl_sum)
    return abs(1.0 - alpha - beta) * diameter / (2.0 * kl_sum)


def kt_lower_bound_rr(alpha: float, beta: float, eps: float, eps_gap: float, diameter: int, n: int) -> float:
    r"""§13 remark (randomized response, ``Be(1/2)`` vs ``Be(1/2 + ε_gap/2)``).

    .. math:: K T \ge \frac{2|1-\alpha-\beta|}{\varepsilon_{gap}^2}
       \Bigl(\frac{e^\varepsilon + 1}{e^\varepsilon - 1}\Bigr)^2 \frac{\mathrm{diam}(G)}{n}.
    """
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    eps, eps_gap = _check_pos("eps", eps), _check_pos("eps_gap", eps_gap)
    ratio = 1.0 / math.tanh(eps / 2.0)  # (e^ε + 1)/(e^ε − 1)
    return (
        2
        * abs(1 - alpha - beta)
        / eps_gap**2
        * ratio**2
        * _check_int("diameter", diameter, 0)
        / _check_int("n", n, 1)
    )


# --------------------------------------------------------------------------------------------------
# Error rates
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorRates:
    """Empirical error rates of estimated sets, with two-sided Clopper–Pearson intervals.

    Attributes
    ----------
    type1, type1_ci
        ``P[Θ̂ ⊄ Θ*]`` (a non-MLE state admitted) and its interval ``(lower, upper)``.
    type2, type2_ci
        ``P[Θ* ⊄ Θ̂]`` (an MLE state missed) and its interval.
    exact, exact_ci
        ``P[Θ̂ = Θ*]`` and its interval.
    n_trials
        Number of replications ``R``.
    confidence
        Two-sided level of the intervals.
    """

    type1: NDArray[np.float64] | float
    type1_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    type2: NDArray[np.float64] | float
    type2_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    exact: NDArray[np.float64] | float
    exact_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    n_trials: int
    confidence: float


def type_errors(selected: ArrayLike, mle: ArrayLike, *, confidence: float = 0.95) -> ErrorRates:
    """Type I / Type II / exact-recovery rates of estimated sets over replications (spec A16).

    Parameters
    ----------
    selected
        Boolean masks ``Θ̂`` of shape ``(R, ..., |Θ|)``, replications first (e.g. ``(R, n, |Θ|)``: one
        rate per agent).
    mle
        Boolean mask of ``Θ*``, shape ``(|Θ|,)`` (:func:`mle_mask`).
    confidence
        Two-sided level of the Clopper–Pearson intervals (each side at ``(1 + confidence)/2``).
    """
    sel = np.asarray(selected)
    star = np.asarray(mle)
    if sel.dtype != np.bool_ or star.dtype != np.bool_:
        raise ParameterError("selected and mle must be boolean masks")
    if star.ndim != 1 or sel.ndim < 2 or sel.shape[-1] != star.shape[0]:
        raise ParameterError(
            f"selected must have shape (R, ..., {star.shape[0]}) for an mle mask of {star.shape[0]} states "
            f"(got {sel.shape})"
        )
    if not 0.0 < confidence < 1.0:
        raise ParameterError(f"confidence must lie in (0, 1) (got {confidence})")
    R = sel.shape[0]
    events = {
        "type1": np.any(sel & ~star, axis=-1),
        "type2": np.any(star & ~sel, axis=-1),
        "exact": np.all(sel == star, axis=-1),
    }
    level = 0.5 * (1.0 + confidence)
    out: dict[str, Any] = {}
    for name, hit in events.items():
        k = hit.sum(axis=0)
        rate = k / R
        out[name] = float(rate) if np.ndim(rate) == 0 else rate
        out[f"{name}_ci"] = clopper_pearson(k, R, level)
    return ErrorRates(**out, n_trials=R, confidence=confidence)


def total_variation(p: ArrayLike, q: ArrayLike) -> NDArray[np.float64] | float:
    """Total variation distance ``½ Σ_θ |p(θ) − q(θ)|`` over the last axis."""
    out = 0.5 * np.abs(np.asarray(p, dtype=float) - np.asarray(q, dtype=float)).sum(axis=-1)
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------------
# Monte Carlo sweep task
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ErrorRateTask:
    """One point of an error-rate sweep, for ``run_sweep(error_rate_task, tasks, seed=...)``.

    Attributes
    ----------
    loglik
        ``(n, |Θ|)`` log-likelihood table.
    eps, K, T
        Budget, rounds, iterations (``T = None``: the exact ``T → ∞`` oracle).
    delta
        Sensitivity Δ (scalar or one per agent).
    n_reps
        Replications ``R`` (e.g. 2000).
    tau_am, tau_gm
        Belief thresholds of AM and GM.
    weights
        Dense ``n × n`` weight matrix (needed for finite ``T``).
    tau_hat_1, tau_hat_2, freq_1, freq_2
        Two-threshold rule (Alg 2); skipped when ``freq_1`` or ``freq_2`` is ``None``.
    convention
        Noise scale convention of :func:`noise_scale`.
    agent
        Agent whose sets are scored (the guarantees hold for every agent).
    chunk
        Replications simulated at once (bounds memory).
    """

    loglik: NDArray[np.float64]
    eps: float
    K: int
    T: int | None
    delta: float | NDArray[np.float64]
    n_reps: int
    tau_am: float
    tau_gm: float
    weights: NDArray[np.float64] | None = None
    tau_hat_1: float = 0.0
    tau_hat_2: float = 0.0
    freq_1: float | None = None
    freq_2: float | None = None
    convention: Convention = "paper"
    agent: int = 0
    chunk: int = 1000


def _chunk_sets(
    task: ErrorRateTask, arr: NDArray[np.float64], scale: Any, size: int, rng: np.random.Generator
) -> dict[str, NDArray[Any]]:
    res = run_private_mle(arr, task.weights, K=task.K, T=task.T, scale=scale, n_reps=size, rng=rng)
    i = task.agent
    am = res.am_beliefs()[:, i]
    gm_log = res.gm_log_beliefs()[:, i]
    out = {
        "am_belief": am,
        "gm_belief": _exp(gm_log),
        "am": select_am(am, task.tau_am),
        "gm": select_gm(gm_log, task.tau_gm),
    }
    if task.freq_1 is not None and task.freq_2 is not None:
        n1 = res.round_counts(task.tau_hat_1)[:, i]
        n2 = n1 if task.tau_hat_2 == task.tau_hat_1 else res.round_counts(task.tau_hat_2)[:, i]
        out["thres1"], out["thres2"] = threshold_sets(n1, n2, task.freq_1, task.freq_2, task.K)
    return out


def error_rate_task(task: ErrorRateTask, rng: np.random.Generator) -> dict[str, float]:
    """Monte Carlo error rates of AM, GM (and the two-threshold sets) for one ``(ε, K, T)`` point.

    Returns a flat dict: the task's ``eps``, ``K``, ``T`` (``inf`` for the oracle), ``noise_scale``,
    ``n_reps``; for each estimator ``e`` in ``am``, ``gm`` (and ``thres1``, ``thres2``) the rates
    ``e_type1``, ``e_type2``, ``e_exact`` with 95 % Clopper–Pearson bounds ``e_type1_lo``/``_hi`` …;
    ``am_belief_mle`` and ``gm_belief_mle``, the mean belief on ``Θ*``; ``gm_selects_mle``, the rate of
    ``Θ* ∩ Θ̂^GM ≠ ∅``.
    """
    arr = _check_loglik(task.loglik)
    n_reps = _check_int("n_reps", task.n_reps, 1)
    chunk = _check_int("chunk", task.chunk, 1)
    _check_int("agent", task.agent, 0)
    if task.agent >= arr.shape[0]:
        raise ParameterError(f"agent must be < n = {arr.shape[0]} (got {task.agent})")
    scale = noise_scale(task.delta, arr.shape[1], task.eps, task.K, convention=task.convention)
    parts: list[dict[str, NDArray[Any]]] = []
    for start in range(0, n_reps, chunk):
        parts.append(_chunk_sets(task, arr, scale, min(chunk, n_reps - start), rng))
    sets = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    mle = mle_mask(arr)
    out: dict[str, float] = {
        "eps": float(task.eps),
        "K": float(task.K),
        "T": math.inf if task.T is None else float(task.T),
        "noise_scale": float(np.mean(scale)),
        "n_reps": float(n_reps),
        "am_belief_mle": float(sets["am_belief"][:, mle].sum(axis=-1).mean()),
        "gm_belief_mle": float(sets["gm_belief"][:, mle].sum(axis=-1).mean()),
        "gm_selects_mle": float(np.any(sets["gm"][:, mle], axis=-1).mean()),
    }
    for name in ("am", "gm", "thres1", "thres2"):
        if name not in sets:
            continue
        rates = type_errors(sets[name], mle)
        for kind in ("type1", "type2", "exact"):
            lo, hi = getattr(rates, f"{kind}_ci")
            out[f"{name}_{kind}"] = float(getattr(rates, kind))
            out[f"{name}_{kind}_lo"] = float(lo)
            out[f"{name}_{kind}_hi"] = float(hi)
    return out
