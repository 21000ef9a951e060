r"""Synthetic intermittent signal streams for online learning (paper 003 §4.3, §11).

At every period ``t`` agent ``i`` receives a signal with probability ``ξ_i`` (intermittent arrivals:
``n_{i,t} ~ Bernoulli(ξ_i)``, so ``E n_{i,t} = ξ_i`` and ``χ_i = Var n_{i,t} = ξ_i(1 − ξ_i)``), drawn from
``ℓ_i(·|θ°)``; a period without a signal contributes ``log γ_{i,t} ≡ 0``. A :class:`SignalModel` holds the
per-agent, per-state signal law, Bernoulli (success probabilities ``p_i(θ)``) or Gaussian (means
``μ_i(θ)``, common standard deviation ``σ``), and the closed forms the theory needs:

- :meth:`SignalModel.kl` — ``D_KL(ℓ_i(·|θ°) ‖ ℓ_i(·|θ))``, the direction of the learning rate (the paper
  writes it the other way round);
- :meth:`SignalModel.llr_spread` — ``Q = max_{i,θ} sd[log ℓ_i(s|θ)/ℓ_i(s|θ°)]`` under ``θ°``;
- :meth:`SignalModel.sensitivity` — ``Δ = max_{i,θ} |log ℓ_i(1|θ) − log ℓ_i(0|θ)| = max |logit p_i(θ)|``
  for one Bernoulli signal. A Gaussian signal's log-likelihood is unbounded in the signal, so no finite
  sensitivity exists and the Laplace mechanism cannot make it ε-DP: Gaussian models serve the non-private
  runs only.

:func:`simulate_online` runs Alg 3 (and Alg 5, noise scale 0) on such a stream without storing it: signals
are drawn block by block and the log-ratios ``ψ_t`` are kept only at the requested periods, so ``T`` in the
tens of thousands costs memory ``O(R n |Θ|)``. Several noise scales share one signal stream (common random
numbers), so curves for different ε differ only by their noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpnet.errors import ParameterError
from dpnet.inference._checks import Weights, _check_int, _check_pos, _check_state
from dpnet.inference.dynamics import _apply_agents
from dpnet.networks import check_weights

__all__ = ["SignalModel", "arrival_variance", "informative_model", "simulate_online"]

SignalKind = Literal["bernoulli", "gaussian"]

#: Periods drawn at once by :func:`simulate_online` (the draws depend on it: keep it fixed).
BLOCK = 64


@dataclass(frozen=True)
class SignalModel:
    """Per-agent signal laws: ``params[i, θ]`` is ``p_i(θ)`` (Bernoulli) or ``μ_i(θ)`` (Gaussian, sd
    ``sigma``)."""

    kind: SignalKind
    params: NDArray[np.float64]
    sigma: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ("bernoulli", "gaussian"):
            raise ParameterError(f"kind must be 'bernoulli' or 'gaussian' (got {self.kind!r})")
        arr = np.asarray(self.params, dtype=float)
        if arr.ndim != 2 or arr.shape[1] < 2 or not np.all(np.isfinite(arr)):
            raise ParameterError(f"params must be a finite (n_agents, n_states ≥ 2) table (got {arr.shape})")
        if self.kind == "bernoulli" and np.any((arr <= 0) | (arr >= 1)):
            raise ParameterError("Bernoulli success probabilities must lie in the open interval (0, 1)")
        _check_pos("sigma", self.sigma)
        object.__setattr__(self, "params", arr)

    @property
    def n_agents(self) -> int:
        return int(self.params.shape[0])

    @property
    def n_states(self) -> int:
        return int(self.params.shape[1])

    def _truth(self, truth: int) -> int:
        return _check_state("truth", truth, self.n_states)

    def kl(self, truth: int) -> NDArray[np.float64]:
        r"""``kl[i, θ] = D_KL(ℓ_i(·|θ°) ‖ ℓ_i(·|θ))`` (0 at ``θ°``)."""
        k = self._truth(truth)
        p = self.params
        if self.kind == "gaussian":
            return (p - p[:, [k]]) ** 2 / (2 * self.sigma**2)
        q = p[:, [k]]
        return q * np.log(q / p) + (1 - q) * np.log((1 - q) / (1 - p))

    def llr_spread(self, truth: int) -> float:
        r"""``Q``: the largest standard deviation of one signal's ``log ℓ_i(s|θ) − log ℓ_i(s|θ°)`` under
        ``θ°``."""
        k = self._truth(truth)
        p = self.params
        if self.kind == "gaussian":
            return float(np.max(np.abs(p - p[:, [k]])) / self.sigma)
        q = p[:, [k]]
        jump = np.abs(special.logit(p) - special.logit(q))  # the LLR takes two values, this far apart
        return float(np.max(jump * np.sqrt(q * (1 - q))))

    def sensitivity(self) -> float:
        """``Δ`` of one signal (Bernoulli only; see the module docstring)."""
        if self.kind == "gaussian":
            raise ParameterError(
                "a Gaussian signal has no finite sensitivity (its log-likelihood is unbounded), so the "
                "Laplace mechanism cannot make it ε-DP: use Bernoulli signals for the private runs"
            )
        return float(np.max(np.abs(special.logit(self.params))))


def informative_model(
    n_agents: int,
    n_states: int,
    *,
    kind: SignalKind = "bernoulli",
    base: float = 0.5,
    shift: float = 0.2,
    sigma: float = 1.0,
) -> SignalModel:
    r"""Agents that each see one alternative only: ``θ°`` is state 0; agent ``i`` tells state
    ``k_i = 1 + (i mod (|Θ| − 1))`` apart from the others (its law there is ``base + shift``, elsewhere
    ``base``), and cannot tell the others apart.

    No agent can identify ``θ°`` alone, but the network can (``Σ_i ξ_i KL_i(θ) > 0`` for every ``θ ≠ θ°`` as
    soon as ``n ≥ |Θ| − 1``): the agents must exchange beliefs, so mixing matters.
    """
    n = _check_int("n_agents", n_agents, 1)
    m = _check_int("n_states", n_states, 2)
    if n < m - 1:
        raise ParameterError(f"need n_agents ≥ n_states − 1 = {m - 1} for every state to be seen by an agent")
    params = np.full((n, m), float(base))
    params[np.arange(n), 1 + np.arange(n) % (m - 1)] += shift
    return SignalModel(kind, params, sigma)


def arrival_variance(xi: ArrayLike) -> NDArray[np.float64]:
    """``χ_i = ξ_i(1 − ξ_i)``: the variance of a Bernoulli(``ξ_i``) arrival count."""
    x = np.asarray(xi, dtype=float)
    if np.any((x <= 0) | (x > 1)) or not np.all(np.isfinite(x)):
        raise ParameterError(f"arrival rates ξ must lie in (0, 1] (got {xi})")
    return x * (1 - x)


def _draw_block(
    rng: np.random.Generator, model: SignalModel, xi: NDArray[np.float64], shape: tuple[int, int], truth: int
) -> NDArray[np.float64]:
    """Log-likelihoods ``(R, B, n, |Θ|)`` of one block of ``B`` periods."""
    R, B = shape
    n = model.n_agents
    arrived = rng.random((R, B, n)) < xi
    own = model.params[:, truth]
    if model.kind == "bernoulli":
        ones = rng.random((R, B, n)) < own
        table = np.where(ones[..., None], np.log(model.params), np.log1p(-model.params))
    else:
        s = own + model.sigma * rng.standard_normal((R, B, n))
        table = -((s[..., None] - model.params) ** 2) / (2 * model.sigma**2)
    return np.where(arrived[..., None], table, 0.0)


def simulate_online(
    rng: np.random.Generator,
    model: SignalModel,
    A: Weights,
    *,
    xi: ArrayLike,
    T: int,
    n_reps: int,
    truth: int = 0,
    noise_scales: ArrayLike = (0.0,),
    times: ArrayLike | None = None,
) -> NDArray[np.float64]:
    r"""``ψ_t = A ψ_{t−1} + ζ_t`` (eq. 17) on ``n_reps`` synthetic streams, for several noise scales.

    Parameters
    ----------
    rng
        Source of the signals, arrivals and noise.
    model
        The signal laws (:class:`SignalModel`).
    A
        Weight matrix (or graph: Metropolis–Hastings weights) on ``model.n_agents`` agents.
    xi
        Arrival probabilities ``ξ_i ∈ (0, 1]`` (scalar or one per agent).
    T, n_reps
        Periods and independent replications.
    truth
        Index of ``θ°``.
    noise_scales
        Laplace scales ``b`` (``Δ|Θ|/ε``; ``0`` is the non-private Alg 5). Every scale sees the same signals.
    times
        Periods ``1 ≤ t ≤ T`` at which ``ψ_t`` is returned (default: every period).

    Returns
    -------
    numpy.ndarray
        ``ψ`` of shape ``(len(noise_scales), n_reps, len(times), n, |Θ|)``.
    """
    W = check_weights(A)
    n, m = model.n_agents, model.n_states
    if W.shape[0] != n:
        raise ParameterError(f"A is {W.shape[0]} × {W.shape[0]} but the model has {n} agents")
    T = _check_int("T (periods)", T, 1)
    R = _check_int("n_reps", n_reps, 1)
    k = model._truth(truth)
    rates = np.broadcast_to(np.asarray(xi, dtype=float), (n,))
    arrival_variance(rates)  # validates ξ
    scales = np.atleast_1d(np.asarray(noise_scales, dtype=float))
    if scales.ndim != 1 or np.any(scales < 0) or not np.all(np.isfinite(scales)):
        raise ParameterError(f"noise_scales must be finite and ≥ 0 (got {noise_scales})")
    keep = np.arange(1, T + 1) if times is None else np.asarray(times)
    if keep.ndim != 1 or keep.size == 0 or np.any(keep != np.round(keep)) or keep.min() < 1 or keep.max() > T:
        raise ParameterError(f"times must be periods between 1 and T = {T} (got {times})")
    slot = {int(t): j for j, t in enumerate(keep)}
    out = np.empty((len(scales), R, len(keep), n, m))
    psi = np.zeros((len(scales), R, n, m))
    b = scales[:, None, None, None, None]
    for start in range(0, T, BLOCK):
        B = min(BLOCK, T - start)
        stream = _draw_block(rng, model, rates, (R, B), k)
        zeta = stream[None] + (b * rng.laplace(size=(len(scales), R, B, n, m)) if np.any(scales) else 0.0)
        for s in range(B):
            psi = _apply_agents(W, psi) + zeta[:, :, s]
            j = slot.get(start + s + 1)
            if j is not None:
                out[:, :, j] = psi
    return out
