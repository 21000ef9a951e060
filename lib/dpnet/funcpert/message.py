"""The message-perturbation baseline in the style of Huang, Mitra & Vaidya (note-fp-message-accountant).

Agents send ``ξ_j(k) = x_j(k) + η_j(k)``, ``η_j(k) ~ Lap(b_k)^d``; agent ``i`` projects the average of
what it receives onto ``X``, ``z_i = proj_X(Σ_j w_ij ξ_j)``, and updates
``x_i ← proj_X(z_i − s_k ∇f_i(z_i))``. With geometric schedules ``s_k = c ρ_s^k`` and ``b_k = b₀ ρ_η^k``
(``ρ_s < ρ_η``) the privacy loss is bounded, but ``Σ s_k < ∞`` stops the iteration short of the optimum.
The accountant and the ``b₀`` formula are the book's derivation, not Huang's constants: given the
messages, agent ``i₀``'s state moves by at most ``s_k Δ`` between adjacent inputs, with
``Δ = sup_X |∇f − ∇f'|``, so the loss after ``K`` messages is at most ``L_K = √d Δ Σ_{k<K} s_k / b_{k+1}``.
The supremum is over ``X`` because the gradients are taken at the projected ``z_i``: at the unprojected
average, which the noise carries outside ``X``, the gradients of two adjacent objectives can differ by
more than ``Δ`` (without bound for quadratics), and the accountant would not hold
(note-fp-message-accountant). Projecting what an agent receives is post-processing of the messages: it
costs no privacy.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError

__all__ = [
    "convergent_schedule",
    "geometric_b0",
    "geometric_schedule",
    "privacy_loss_bound",
    "run_message_batch",
    "run_messages",
]

#: How many noise values :func:`run_message_batch` holds at once, over the schedules it runs together
#: (16 MiB), and how many state values those schedules hold at most (the arrays of an iteration stay in
#: the processor's cache: larger groups are slower, not faster).
NOISE_BLOCK = 2_000_000
GROUP_VALUES = 16_384


def geometric_b0(eps: float, c: float, rho_s: float, rho_eta: float, sensitivity: float, d: int = 1) -> float:
    """Initial noise scale giving total loss ε: ``b₀ = √d Δ c / (ε (ρ_η − ρ_s))``."""
    if not (0 < rho_s < rho_eta < 1 and c > 0 and eps > 0 and sensitivity > 0):
        raise ParameterError(
            f"need 0 < rho_s < rho_eta < 1, c > 0, eps > 0, Δ > 0 (got {rho_s}, {rho_eta}, {c}, {eps})"
        )
    return np.sqrt(d) * sensitivity * c / (eps * (rho_eta - rho_s))


def geometric_schedule(
    iterations: int, c: float, rho_s: float, rho_eta: float, b0: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Steps ``s_k = c ρ_s^k`` (``k < K``), noise scales ``b_k = b₀ ρ_η^k`` (``k ≤ K``; ``b₀ = 0``: none)."""
    k = np.arange(iterations + 1, dtype=float)
    return c * rho_s ** k[:-1], b0 * rho_eta**k


def convergent_schedule(
    iterations: int, c: float = 0.5, power: float = 0.7, b: float = 0.3
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A convergent schedule (``Σ s_k = ∞``, noise → 0): ``s_k = c/(k + 1)^power``, ``b_k = b/(k + 1)``."""
    k = np.arange(iterations + 1, dtype=float)
    return c / (k[:-1] + 1) ** power, b / (k + 1)


def privacy_loss_bound(
    steps: NDArray, scales: NDArray, sensitivity: float, d: int = 1
) -> NDArray[np.float64]:
    """``L_K = √d Δ Σ_{k<K} s_k/b_{k+1}`` for ``K = 1..len(steps)``."""
    return np.sqrt(d) * sensitivity * np.cumsum(steps / scales[1:])


def run_messages(
    gradients: Callable[[NDArray], NDArray], W: NDArray, lower: NDArray, upper: NDArray,
    steps: NDArray, scales: NDArray, rng: np.random.Generator, runs: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:  # fmt: skip
    """Run the scheme ``runs`` times at once from ``x(0) = 0``: ``z = proj_X(W ξ)``, then
    ``x ← proj_X(z − s_k ∇f(z))``.

    ``gradients(z)`` maps states ``(runs, n, d)`` to the agents' own gradients. Returns the states
    ``(K + 1, runs, n, d)`` and the messages ``(K, runs, n, d)``.
    """
    n, d = W.shape[0], lower.size
    x = np.zeros((runs, n, d))
    states, messages = [x], []
    for k, step in enumerate(steps):
        xi = x + (rng.laplace(0.0, scales[k], x.shape) if scales[k] > 0 else 0.0)
        z = np.clip(W @ xi, lower, upper)  # proj_X(Σ_j w_ij ξ_j), for every run
        x = np.clip(z - step * gradients(z), lower, upper)
        states.append(x)
        messages.append(xi)
    return np.array(states), np.array(messages)


def run_message_batch(
    gradients: Callable[[NDArray], NDArray], W: NDArray, lower: NDArray, upper: NDArray,
    steps: NDArray, scales: NDArray, rng: np.random.Generator, runs: int,
) -> NDArray[np.float64]:  # fmt: skip
    """The final states of :func:`run_messages` for several schedules, computed side by side.

    Parameters
    ----------
    gradients, W, lower, upper, runs
        As for :func:`run_messages`.
    steps, scales
        One schedule per row: steps ``(S, K)`` and noise scales ``(S, K + 1)``.
    rng
        Drawn from as :func:`run_messages` would be, called on the schedules in turn: it is left in the
        same state.

    Returns
    -------
    ndarray
        ``(S, runs, n, d)``: row ``s`` holds, bit for bit, ``run_messages(…, steps[s], scales[s], rng,
        runs)[0][-1]`` with ``rng`` advanced past the schedules before ``s``.

    Notes
    -----
    Each schedule gets its own copy of ``rng`` at the state where its noise starts; the original is
    advanced past that noise by drawing it in blocks and discarding it. The noise of ``Lap(b)`` is drawn
    as ``b·Lap(1)``, the same numbers (NumPy computes ``±b log u`` either way), ``NOISE_BLOCK`` values at
    a time. Every other operation is the one of :func:`run_messages`, element by element, on arrays
    with one more leading axis, for groups of schedules of at most ``GROUP_VALUES`` state values: a
    group runs at about the cost of one schedule when its runs are few.
    """
    steps, scales = np.atleast_2d(steps), np.atleast_2d(scales)
    S, K = steps.shape
    shape = (runs, W.shape[0], lower.size)
    size = int(np.prod(shape))
    noisy = scales[:, :K] > 0
    generators = []
    for row in noisy:
        generators.append(copy.deepcopy(rng))
        left = int(row.sum()) * size
        while left > 0:  # the values this schedule draws, skipped
            rng.laplace(0.0, 1.0, min(left, NOISE_BLOCK))
            left -= NOISE_BLOCK
    group = max(1, GROUP_VALUES // size)
    parts = [
        _run_group(gradients, W, lower, upper, steps[g : g + group], scales[g : g + group],
                   generators[g : g + group], shape)
        for g in range(0, S, group)
    ]  # fmt: skip
    return np.concatenate(parts)


def _run_group(
    gradients: Callable[[NDArray], NDArray], W: NDArray, lower: NDArray, upper: NDArray,
    steps: NDArray, scales: NDArray, generators: list[np.random.Generator], shape: tuple[int, ...],
) -> NDArray[np.float64]:  # fmt: skip
    S, K = steps.shape
    noisy = scales[:, :K] > 0
    block = max(1, NOISE_BLOCK // (S * int(np.prod(shape))))
    x = np.zeros((S, *shape))
    for k0 in range(0, K, block):
        k1 = min(K, k0 + block)
        noise = np.zeros((k1 - k0, S, *shape))
        for s, gen in enumerate(generators):
            rows = np.flatnonzero(noisy[s, k0:k1])
            if rows.size:
                noise[rows, s] = gen.laplace(0.0, 1.0, (rows.size, *shape))
        for k in range(k0, k1):
            xi = x + noise[k - k0] * scales[:, k, None, None, None]
            z = np.clip(W @ xi, lower, upper)  # proj_X(Σ_j w_ij ξ_j), for every schedule and run
            x = np.clip(z - steps[:, k, None, None, None] * gradients(z), lower, upper)
    return x
