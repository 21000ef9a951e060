r"""Online learning from a stream of private signals (Alg 3; its non-private twin Alg 5).

At period ``t = 1..T`` agent ``i`` receives the log-likelihoods ``log γ_{i,t}(θ)`` of that period's
signals (``log γ ≡ 0`` when it receives none) and adds Laplace noise ``d_{i,t}(θ) ~ Lap(Δ|Θ|/ε)``, iid over
agents, states and periods (:func:`~dpnet.inference.noise.noise_scale` with ``K = 1``). The log-linear update
(eq. 17) ``ν_{i,t}(θ) ∝ σ_{i,t}(θ) ν_{i,t−1}(θ)^{a_ii} Π_{j∈N_i} ν_{j,t−1}(θ)^{a_ij}`` is, in log space and
up to a per-agent normaliser,

.. math:: \psi_t = A\,\psi_{t-1} + \zeta_t, \qquad \psi_0 = 0, \qquad
   \zeta_{i,t}(\theta) = \log\gamma_{i,t}(\theta) + d_{i,t}(\theta),

and ``log ν_{i,t} = log_softmax_θ ψ_{i,t}`` (:func:`online_log_ratios`). Unlike the MLE dynamics the
exponents sum to 1, so ``ψ`` grows linearly and the time average ``ψ_t/t`` converges (to the network
average of the per-period expected log-likelihoods; the noise averages out, Cesàro). Alg 3 outputs
``argmax_θ ν_{i,T}(θ)``; the authors' code reports the "belief" built from the time-averaged ratio,
``softmax(ψ_T/T)`` (:func:`online_beliefs`).

**Limit and horizon.** With ``ξ_i`` the mean number of signals per period and
``KL_i(θ) = D_KL(ℓ_i(·|θ°) ‖ ℓ_i(·|θ))`` (the usual learning rate; the paper writes the divergence
the other way round), every agent's time-averaged ratio
``(ψ_{i,t}(θ) − ψ_{i,t}(θ°))/t`` tends to ``−(1/n) Σ_i ξ_i KL_i(θ)`` (:func:`online_limit`); the smallest gap
over ``θ ≠ θ°`` is ``l`` (:func:`online_gap`). :func:`online_horizon` gives the ``T`` of Thm 4.7 with the
constant of its proof's last display (§11.3), with the constant its proof's own inequalities give, or
paper 000's Thm 3.6 (set-valued output :func:`online_sets`).
:func:`identifies` tells, per agent, whether ``θ°`` is the strict argmax of the beliefs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_pos, _check_prob, _check_state
from dpnet.inference.dynamics import _apply_agents
from dpnet.inference.noise import laplace_noise, noise_std_sum
from dpnet.inference.problem import log_belief_level
from dpnet.networks import check_weights
from dpnet.params import choice

__all__ = [
    "OnlineRuns",
    "first_reach",
    "identification_rate",
    "identifies",
    "limit_error",
    "online_beliefs",
    "online_gap",
    "online_horizon",
    "online_limit",
    "online_log_ratios",
    "online_runs",
    "online_sets",
    "reach_interval",
    "time_averaged_ratios",
]


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
        from :func:`~dpnet.inference.noise.laplace_noise` with ``K = T``.

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
    ``softmax_θ(ψ_{i,T}/T)``, built from the time-averaged log-belief ratio. Shape
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


def _check_kl(kl: ArrayLike, xi: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    table = np.asarray(kl, dtype=float)
    if table.ndim != 2 or table.shape[1] < 2 or np.any(table < 0) or not np.all(np.isfinite(table)):
        raise ParameterError(
            f"kl must be a finite, non-negative (n_agents, n_states) table (got shape {table.shape})"
        )
    rates = np.broadcast_to(np.asarray(xi, dtype=float), (table.shape[0],))
    if np.any(rates < 0) or not np.all(np.isfinite(rates)):
        raise ParameterError(f"ξ (mean signals per period) must be finite and ≥ 0 (got {xi})")
    return table, rates


def online_limit(kl: ArrayLike, xi: ArrayLike) -> NDArray[np.float64]:
    r"""``lim_t (ψ_{i,t}(θ) − ψ_{i,t}(θ°))/t = −(1/n) Σ_i ξ_i KL_i(θ)`` for every agent ``i`` (§4.3).

    ``kl[i, θ] = D_KL(ℓ_i(·|θ°) ‖ ℓ_i(·|θ))`` (``0`` at ``θ°``), ``xi`` the mean signals per period (scalar
    or one per agent). Returns one value per state (``0`` at ``θ°``).
    """
    table, rates = _check_kl(kl, xi)
    return -(rates @ table) / table.shape[0]


def online_gap(kl: ArrayLike, xi: ArrayLike, truth: int) -> float:
    r"""``l = min_{θ ≠ θ°} Σ_i ξ_i KL_i(θ)`` (eq. 10 for OL); ``> 0`` iff ``θ°`` is identifiable."""
    table, rates = _check_kl(kl, xi)
    k = _check_state("truth", truth, table.shape[1])
    return float(np.delete(rates @ table, k).min())


def online_horizon(
    *,
    n_agents: int,
    n_states: int,
    llr_spread: float,
    noise_scale: float,
    xi: ArrayLike,
    chi: ArrayLike,
    gap: float,
    eta: float,
    slem: float,
    version: Literal["003", "003-steps", "000"] = "003",
    rho: float | None = None,
) -> float:
    r"""Periods ``T`` after which Alg 3 identifies ``θ°`` with probability ``≥ (1−η)² ≥ 1−2η``.

    With ``V = n√2 b`` (``b = Δ|Θ|/ε`` the Laplace scale, ``0`` without privacy),
    ``Ξ = Σ_i χ_i`` and ``V' = (√2/n)(nQ + V)(max_i ξ_i + √(Ξ/η))``:

    - ``"003"`` (Thm 4.7, the constant of the last display of §11.3, ``ϱ = log|Θ|``):
      ``T = [log|Θ| + |Θ| V' / (2η(1 − b*))] / (l/n)``;
    - ``"003-steps"`` (the same proof with its own inequalities chained): Lemma 11.1 bounds an agent's mean
      distance from the network average by ``(n − 1)V'/((1 − b*)t)``, the next step the network average's
      from its limit by ``V'/t``; Markov's inequality on their sum and a union bound over the states at
      level ``η/|Θ|`` give ``T = [log|Θ| + |Θ| V' ((n − 1)/(1 − b*) + 1) / η] / (l/n)``, which the last
      display shortens by dropping the factor ``n − 1`` (and the ``+ 1``) and halving with a ``2η``. Both
      keep the proof's rate ``1/t`` for the second distance, which the law of large numbers makes
      ``1/√t``;
    - ``"000"`` (Thm 3.6 of the earlier version, output ``{θ : ν ≥ 1/(1+e^ϱ)}``): the smallest ``t`` with
      ``(t/n) l − c√t ≥ ϱ``, ``c = |Θ|² V' / (2η(1 − b*²))`` — the proof's last inequality (B.3), solved:
      ``√T = [c + √(c² + 4ϱl/n)] / (2l/n)``. The theorem as printed, ``O(√(max{…}))``, is the order of
      ``√T``, not of ``T``.

    ``slem`` is ``b* = SLEM(A)`` (the proofs write ``|λ₂(A)|``; the mixing bound needs the SLEM). Returns
    the real-valued ``T`` (round up to use it).
    """
    n = _check_int("n_agents", n_agents, 1)
    m = _check_int("n_states", n_states, 2)
    Q = float(llr_spread)
    b = float(noise_scale)
    if not (np.isfinite(Q) and Q >= 0 and np.isfinite(b) and b >= 0):
        raise ParameterError(
            f"llr_spread and noise_scale must be finite and ≥ 0 (got {llr_spread}, {noise_scale})"
        )
    rates = np.broadcast_to(np.asarray(xi, dtype=float), (n,))
    variances = np.broadcast_to(np.asarray(chi, dtype=float), (n,))
    if np.any(rates < 0) or np.any(variances < 0):
        raise ParameterError("ξ and χ must be ≥ 0")
    gap = _check_pos("gap (l)", gap)
    eta = _check_prob("eta", eta)
    b_star = float(slem)
    if not 0 <= b_star < 1:
        raise ParameterError(f"slem (b*) must lie in [0, 1) for a connected graph (got {slem})")
    V = noise_std_sum(b, n)
    v_prime = (np.sqrt(2) / n) * (n * Q + V) * (rates.max() + np.sqrt(variances.sum() / eta))
    version = choice("003", "003-steps", "000")("version", version)
    if version == "003":
        return float((np.log(m) + m * v_prime / (2 * eta * (1 - b_star))) / (gap / n))
    if version == "003-steps":
        return float((np.log(m) + m * v_prime * ((n - 1) / (1 - b_star) + 1) / eta) / (gap / n))
    if rho is None:
        raise ParameterError("version '000' needs the log-belief threshold rho (ϱ > 0)")
    rho = _check_pos("rho", rho)
    c = m**2 * v_prime / (2 * eta * (1 - b_star**2))
    root = (c + np.sqrt(c**2 + 4 * rho * gap / n)) / (2 * gap / n)
    return float(root**2)


def identifies(psi: ArrayLike, truth: int) -> NDArray[np.bool_]:
    """Whether ``θ°`` is the strict argmax of each agent's beliefs, from log-ratios ``(..., n, |Θ|)``.

    Ties count as failures, so an agent without evidence (``ψ ≡ 0``) has not identified anything.
    """
    arr = np.asarray(psi, dtype=float)
    if arr.ndim < 2 or arr.shape[-1] < 2:
        raise ParameterError(f"psi must have shape (..., n, |Θ| ≥ 2) (got {arr.shape})")
    k = _check_state("truth", truth, arr.shape[-1])
    return arr[..., k] > np.delete(arr, k, axis=-1).max(axis=-1)


def identification_rate(psi: ArrayLike, truth: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Probability that an agent identifies ``θ°`` (:func:`identifies`), with its Monte Carlo standard error.

    ``psi`` has shape ``(..., R, K, n, |Θ|)`` (``R`` independent replications, ``K`` periods). Each
    replication's fraction of agents that identify ``θ°`` is averaged over the replications; the standard
    error is that of this mean (agents of one run are dependent, runs are not). Both have shape ``(..., K)``.
    """
    hits = identifies(psi, truth)
    if hits.ndim < 3:
        raise ParameterError(f"psi must have shape (..., R, K, n, |Θ|) (got {np.shape(psi)})")
    per_run = hits.mean(axis=-1)
    R = per_run.shape[-2]
    if R < 2:
        raise ParameterError(f"a standard error needs at least 2 replications (got {R})")
    se = per_run.std(axis=-2, ddof=1) / np.sqrt(R)
    return per_run.mean(axis=-2), se


def online_sets(psi: ArrayLike, rho: float) -> NDArray[np.bool_]:
    r"""Paper 000's set-valued output ``Θ̂ = {θ : ν(θ) ≥ 1/(1 + e^ϱ)}`` from log-ratios ``(..., n, |Θ|)``."""
    arr = np.asarray(psi, dtype=float)
    if arr.ndim < 2:
        raise ParameterError(f"psi must have shape (..., n, |Θ|) (got {arr.shape})")
    return special.log_softmax(arr, axis=-1) >= log_belief_level(_check_pos("rho", rho))


def time_averaged_ratios(
    psi: ArrayLike, reference: int = 0, *, times: ArrayLike | None = None
) -> NDArray[np.float64]:
    r"""``(ψ_{i,t}(θ) − ψ_{i,t}(θ_ref))/t`` along the time axis ``−3`` of ``psi``.

    The quantity plotted in Figs 14.1(c) and 14.6; for two states and ``reference = 0`` the last column
    is the log-belief ratio of the alternative. ``times`` are the periods the time axis holds (as returned
    by :func:`~dpnet.inference.signals.simulate_online`); by default every period ``1..T``. Shape of ``psi``.
    """
    arr = np.asarray(psi, dtype=float)
    if arr.ndim < 3 or arr.shape[-1] < 2:
        raise ParameterError(f"psi must have shape (..., T, n, |Θ| ≥ 2) (got {arr.shape})")
    k = _check_state("reference", reference, arr.shape[-1])
    t = np.arange(1, arr.shape[-3] + 1, dtype=float) if times is None else np.asarray(times, dtype=float)
    if t.shape != (arr.shape[-3],) or np.any(t < 1):
        raise ParameterError(f"times must be {arr.shape[-3]} periods ≥ 1, one per entry of the time axis")
    return (arr - arr[..., [k]]) / t[:, None, None]


def limit_error(ratios: ArrayLike, limit: ArrayLike, truth: int) -> tuple[float, float]:
    """How far the mean over runs of time-averaged ratios ``(R, n, |Θ|)`` lies from :func:`online_limit`.

    Returns the largest relative gap ``|mean/limit − 1|`` over agents and wrong states, and the largest
    relative standard error of those means.
    """
    arr = np.asarray(ratios, dtype=float)
    lim = np.asarray(limit, dtype=float)
    if arr.ndim != 3 or arr.shape[0] < 2 or lim.shape != arr.shape[-1:]:
        raise ParameterError(
            f"ratios must be (R ≥ 2, n, |Θ|) and limit (|Θ|,) (got {arr.shape}, {lim.shape})"
        )
    wrong = np.delete(np.arange(lim.size), _check_state("truth", truth, lim.size))
    if np.any(lim[wrong] == 0):
        raise ParameterError("the limit is 0 at a wrong state: θ° is not identifiable, no relative error")
    mean = arr.mean(axis=0)[:, wrong]
    se = arr.std(axis=0, ddof=1)[:, wrong] / np.sqrt(arr.shape[0])
    scale = np.abs(lim[wrong])
    return float(np.max(np.abs(mean / lim[wrong] - 1))), float(np.max(se / scale))


def first_reach(prob: ArrayLike, times: ArrayLike, level: float) -> int | None:
    """The first period of ``times`` at which the probability ``prob`` reaches ``level`` (``None``: never)."""
    hit = np.flatnonzero(np.asarray(prob) >= level)
    return int(np.asarray(times)[hit[0]]) if hit.size else None


def reach_interval(
    prob: ArrayLike, se: ArrayLike, times: ArrayLike, level: float, *, z: float = 2.0
) -> tuple[int | None, int | None]:
    """When an estimated probability reaches ``level``, within its Monte Carlo error.

    Returns the first period of ``times`` at which ``prob + z·se`` reaches ``level`` (the earliest the
    probability can plausibly reach it) and the first at which ``prob − z·se`` does (by then it has
    plausibly reached it); either is ``None`` when it never does within ``times``. The first period at
    which ``prob`` itself reaches ``level`` (:func:`first_reach`) lies between the two.
    """
    p, s = np.asarray(prob, dtype=float), np.asarray(se, dtype=float)
    if p.shape != s.shape or p.shape != np.shape(times) or p.ndim != 1:
        raise ParameterError(f"prob, se and times must be three vectors of one length (got {p.shape}, "
                             f"{s.shape}, {np.shape(times)})")  # fmt: skip
    z = _check_pos("z", z)
    return first_reach(p + z * s, times, level), first_reach(p - z * s, times, level)


@dataclass(frozen=True)
class OnlineRuns:
    """Alg 5 and ``R`` runs of Alg 3 on one stream (:func:`online_runs`).

    ``clean``: ``ψ`` of Alg 5, ``(T, n, |Θ|)``; ``demo``: the first private run, ``(T, n, |Θ|)``;
    ``final``: ``ψ_T`` of every private run, ``(R, n, |Θ|)``; ``noise_scale``: the Laplace scale.
    """

    clean: NDArray[np.float64]
    demo: NDArray[np.float64]
    final: NDArray[np.float64]
    noise_scale: float

    @property
    def periods(self) -> int:
        return int(self.clean.shape[0])

    @property
    def limit(self) -> NDArray[np.float64]:
        """Alg 5's time-averaged ratios against state 0 at the last period, ``(n, |Θ|)``."""
        return time_averaged_ratios(self.clean)[-1]

    @property
    def final_ratios(self) -> NDArray[np.float64]:
        """Every private run's time-averaged ratios against state 0 at the last period, ``(R, n, |Θ|)``."""
        return (self.final - self.final[..., [0]]) / self.periods

    def agreement(self, state: int = 1) -> float:
        """Fraction of (run, agent) pairs whose private ratio of ``state`` against state 0 has the sign of the
        non-private one (averaged over agents)."""
        k = _check_state("state", state, self.clean.shape[-1])
        return float(np.mean(np.sign(self.final_ratios[..., k]) == np.sign(self.limit[:, k].mean())))


def online_runs(
    stream: ArrayLike, A: ArrayLike, *, noise_scale: float, n_reps: int, rng: np.random.Generator
) -> OnlineRuns:
    """Run Alg 5 once and Alg 3 ``n_reps`` times (noise ``Lap(noise_scale)`` per agent, state, period)."""
    arr = _check_stream(stream)
    T, n, m = arr.shape
    noise = laplace_noise(rng, noise_scale, n_reps=n_reps, K=T, n_agents=n, n_states=m)
    private = online_log_ratios(arr, A, noise)
    return OnlineRuns(online_log_ratios(arr, A), private[0], private[:, -1], float(noise_scale))
