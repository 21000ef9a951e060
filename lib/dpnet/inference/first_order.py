r"""The first-order DP baseline of paper 003 §14.4: DP diffusion after Rizk, Vlaski & Sayed (2023).

The agents maximise ``(1/n) Σ_i 2[log ℓ_i(S_i|θ) − log ℓ_i(S_i|0)]`` over a real ``θ`` by consensus plus
a clipped, privatised local gradient step (§14.4):

.. math:: \theta_{i,t} = \sum_j a_{ij}\,\theta_{j,t-1}
   + \eta\,\mathrm{Clip}\Bigl(\frac{d \log\ell_i(S_i\mid\theta_{i,t-1})}{d\theta}, C\Bigr)
   + \mathrm{Lap}(b), \qquad C = 2B_\theta B_x,\quad b = \frac{2 B_x B_\theta T \eta}{\varepsilon}.

The paper takes ``2ηB_θB_x`` as the sensitivity of one clipped step and splits the budget over the
``T`` steps, so that each agent's ``T`` releases would be ε-DP together (basic composition). Clipping to
``[−C, C]`` bounds a step's change between neighbouring data sets by ``2ηC = 4ηB_θB_x`` only
(:func:`clipped_step_sensitivity`): the paper's ``2ηB_θB_x`` assumes that one patient moves the
unclipped gradient by at most ``2B_θB_x``, a bound on the score that, like §12's on the likelihood,
fails on some data sets (note ``note-ti-first-order``). What the paper's scale guarantees is therefore
2ε (:func:`guaranteed_epsilon`). The noise is iid over agents and steps. Rizk et al.'s
*graph-homomorphic* noise is correlated across agents so that it
cancels in the network average; neither the paper's formula nor the authors' code does that, and
neither does this module: it is the simplification the paper states.

Two conventions (:data:`~dpnet.inference.first_order.FirstOrderConvention`):

- ``"paper"``: each agent clips its own gradient to ``[−C, C]``, ``C = 2B_θB_x``; ``b = 2B_xB_θTη/ε``;
- ``"authors_code"`` (the authors' notebook): the vector of all agents' gradients is clipped jointly in
  L1 norm to ``B_θB_x``, and ``b = B_xB_θTη/ε`` (no factor 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_pos
from dpnet.inference.dynamics import _apply_agents
from dpnet.networks import check_weights
from dpnet.params import choice

__all__ = [
    "FirstOrderConvention",
    "clip_gradients",
    "clipped_step_sensitivity",
    "dp_diffusion",
    "dp_diffusion_step",
    "first_order_clip",
    "first_order_noise_scale",
    "guaranteed_epsilon",
]

#: Which formulas the baseline follows: the paper's (``"paper"``) or the authors' code's.
FirstOrderConvention = Literal["paper", "authors_code"]

_CONVENTION = choice("paper", "authors_code")


def first_order_clip(
    b_theta: float, b_x: float = 1.0, *, convention: FirstOrderConvention = "paper"
) -> float:
    """The clipping bound: ``2B_θB_x`` per agent (paper), ``B_θB_x`` jointly in L1 (authors' code)."""
    factor = 2.0 if _CONVENTION("convention", convention) == "paper" else 1.0
    return factor * _check_pos("b_theta", b_theta) * _check_pos("b_x", b_x)


def first_order_noise_scale(
    b_theta: float, b_x: float, *, T: int, lr: float, eps: float, convention: FirstOrderConvention = "paper"
) -> float:
    """Laplace scale per agent and step: ``2B_xB_θTη/ε`` (paper) or ``B_xB_θTη/ε`` (authors' code)."""
    factor = 2.0 if _CONVENTION("convention", convention) == "paper" else 1.0
    T = _check_int("T (iterations)", T, 1)
    lr, eps = _check_pos("lr (learning rate)", lr), _check_pos("eps", eps)
    return factor * _check_pos("b_theta", b_theta) * _check_pos("b_x", b_x) * T * lr / eps


def clipped_step_sensitivity(clip: float, lr: float) -> float:
    """How far one step of one agent can move between two neighbouring data sets, whatever the data: the
    clipped gradient lies in ``[−clip, clip]`` for both, so ``η·2·clip`` (``4ηB_θB_x`` for the paper's
    ``clip = 2B_θB_x``). The previous estimates are released, so they are the same on both data sets."""
    return 2.0 * _check_pos("lr (learning rate)", lr) * _check_pos("clip", clip)


def guaranteed_epsilon(noise_scale: float, *, T: int, lr: float, clip: float) -> float:
    """The ε that ``T`` steps with Laplace noise of scale ``noise_scale`` guarantee by clipping alone:
    ``T · clipped_step_sensitivity(clip, lr) / noise_scale`` (basic composition). With the paper's
    ``clip = 2B_θB_x`` and scale ``2B_xB_θTη/ε`` it is ``2ε``."""
    T = _check_int("T (iterations)", T, 1)
    return T * clipped_step_sensitivity(clip, lr) / _check_pos("noise_scale", noise_scale)


def clip_gradients(
    grad: ArrayLike, bound: float, *, convention: FirstOrderConvention = "paper"
) -> NDArray[np.float64]:
    """Clip gradients of shape ``(..., n)``: each entry to ``[−bound, bound]`` (paper), or the whole
    agent vector to L1 norm ``bound`` by rescaling (authors' code)."""
    g = np.asarray(grad, dtype=float)
    bound = _check_pos("bound", bound)
    if _CONVENTION("convention", convention) == "paper":
        return np.clip(g, -bound, bound)
    norm = np.abs(g).sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(norm > bound, bound / norm, 1.0)
    return g * factor


def dp_diffusion_step(
    theta: ArrayLike,
    grad: ArrayLike,
    noise: ArrayLike | float,
    A: ArrayLike,
    *,
    lr: float,
    clip: float,
    convention: FirstOrderConvention = "paper",
) -> NDArray[np.float64]:
    r"""One step ``θ_t = A θ_{t−1} + η Clip(g) + d`` for ``θ`` of shape ``(..., n)`` (agents last).

    ``grad`` is each agent's gradient at its own ``θ_{i,t−1}``; ``noise`` the Laplace draws ``d`` (0 for
    the non-private twin).
    """
    return _step(theta, grad, noise, check_weights(A), lr=lr, clip=clip, convention=convention)


def _step(
    theta: ArrayLike,
    grad: ArrayLike,
    noise: ArrayLike | float,
    W: NDArray[np.float64],
    *,
    lr: float,
    clip: float,
    convention: FirstOrderConvention,
) -> NDArray[np.float64]:
    """:func:`dp_diffusion_step` with weights ``W`` already validated (:func:`check_weights`)."""
    th = np.asarray(theta, dtype=float)
    if th.shape[-1] != W.shape[0]:
        raise ParameterError(f"theta has {th.shape[-1]} agents but A is {W.shape[0]} × {W.shape[0]}")
    mixed = _apply_agents(W, th[..., None])[..., 0]
    return mixed + lr * clip_gradients(grad, clip, convention=convention) + np.asarray(noise, dtype=float)


def dp_diffusion(
    gradient: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    A: ArrayLike,
    theta0: ArrayLike,
    *,
    T: int,
    lr: float,
    clip: float,
    noise_scale: float,
    rng: np.random.Generator | None,
    convention: FirstOrderConvention = "paper",
) -> NDArray[np.float64]:
    r"""Run ``T`` steps of :func:`dp_diffusion_step` from ``θ_0`` (shape ``(..., n)``, agents last).

    ``gradient(θ)`` returns every agent's local gradient ``d log ℓ_i/dθ`` at its own ``θ_i`` (same shape).
    ``noise_scale = 0`` (with ``rng = None``) runs the non-private twin. Returns ``θ_T``.
    """
    T = _check_int("T (iterations)", T, 1)
    th = np.array(theta0, dtype=float)
    if not np.all(np.isfinite(th)):
        raise ParameterError("theta0 must be finite")
    b = float(noise_scale)
    if not (b >= 0 and np.isfinite(b)):
        raise ParameterError(f"noise_scale must be finite and ≥ 0 (got {noise_scale})")
    if b > 0 and rng is None:
        raise ParameterError("rng is required for private runs (noise_scale > 0)")
    W = check_weights(A)  # once, not at every step
    for _ in range(T):
        noise = rng.laplace(scale=b, size=th.shape) if b > 0 else 0.0  # type: ignore[union-attr]
        th = _step(th, gradient(th), noise, W, lr=lr, clip=clip, convention=convention)
    return th
