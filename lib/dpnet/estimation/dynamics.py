r"""Algorithms 1–5 of paper 001: distributed MVUE and online learning, with and without DP noise.

All three recursions are linear, written for a stack of columns (one per noise draw) so that one
sparse product per round advances every run at once. ``u_t = ξ_t + d_t`` is the (noisy) input.

* ``"mvue"`` (Algorithms 1 and 3): ``ν_0 = ξ_1 + d``, then ``ν_t = A ν_{t−1}``: noise once, the rest
  is post-processing.
* ``"ol_signal"`` (Algorithms 2 and 4): ``ν_0 = 0``,
  ``ν_t = ((t−1)/t) A ν_{t−1} + (1/t) u_t``.
* ``"ol_network"`` (Algorithm 5): ``ν_0 = 0``,
  ``ν_t = C(t) ν_{t−1} + (1/t) u_t`` with ``C(t) = ((t−2)/t) I + A/t``, which keeps the Network-DP
  sensitivity ``O(1/t)``.
* ``"mvue_naive"`` (the remark after Algorithm 3): fresh noise every round,
  ``ν_t = A ν_{t−1} + d_t``, whose noise accumulates without bound.

:func:`simulate` runs the non-private twin (``d ≡ 0``, the ``μ`` of the paper) on the same signals as
every private run, so the cost of privacy ``‖ν_t − μ_t‖`` is measured exactly. Time follows the
paper: for the MVUE, ``t`` counts averaging steps after the initial release (``t = 0``); for online
learning ``t`` counts signals received (``t ≥ 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from dpnet.errors import ParameterError

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "Run",
    "propagate",
    "simulate",
    "step",
]

Algorithm = Literal["mvue", "ol_signal", "ol_network", "mvue_naive"]
#: The recursions of :func:`simulate`.
ALGORITHMS: tuple[str, ...] = get_args(Algorithm)


@dataclass(frozen=True)
class Run:
    """Recorded states of one non-private run and ``c × r`` private runs on the same signals.

    Attributes
    ----------
    times
        The recorded rounds ``t``.
    nonprivate
        ``μ_t``, shape ``(len(times), n)``.
    private
        ``ν_t``, shape ``(len(times), c, r, n)``: ``c`` noise configurations (say ε values) × ``r``
        independent draws each.
    input_mean
        Network average of the inputs, averaged over the rounds so far, shape
        ``(len(times), 1 + c·r)`` (column 0 is the non-private run): the value every algorithm's
        network average must equal exactly (:meth:`average_gap`).
    """

    times: NDArray[np.int64]
    nonprivate: NDArray[np.float64]
    private: NDArray[np.float64]
    input_mean: NDArray[np.float64]

    def cost_of_privacy(self) -> NDArray[np.float64]:
        """``‖ν_t − μ_t‖₂`` over agents, shape ``(len(times), c, r)``."""
        return np.linalg.norm(self.private - self.nonprivate[:, None, None, :], axis=-1)

    def total_error(self, reference: float) -> NDArray[np.float64]:
        """``‖ν_t − 𝟙 m‖₂``, shape ``(len(times), c, r)``."""
        return np.linalg.norm(self.private - reference, axis=-1)

    def cost_of_decentralisation(self, reference: float) -> NDArray[np.float64]:
        """``‖μ_t − 𝟙 m‖₂`` of the non-private twin, shape ``(len(times),)``."""
        return np.linalg.norm(self.nonprivate - reference, axis=-1)

    def average_gap(self) -> float:
        """Largest ``|mean_i ν_{i,t} − input_mean_t|`` over rounds and runs (0 up to rounding)."""
        t, c, r, _ = self.private.shape
        means = np.concatenate(
            [self.nonprivate.mean(axis=-1)[:, None], self.private.mean(axis=-1).reshape(t, c * r)], 1
        )
        return float(np.max(np.abs(means - self.input_mean)))


def step(
    algorithm: Algorithm,
    A: sparse.csr_array,
    state: NDArray[np.float64],
    u: NDArray[np.float64] | None,
    t: int,
) -> NDArray[np.float64]:
    """One round ``t ≥ 1`` of an algorithm on a stack of columns ``state`` (``n × k``) with inputs ``u``.

    ``u`` is ignored by ``"mvue"``; for ``"mvue_naive"`` it is the fresh noise, for online learning the
    round's noisy statistics ``ξ_t + d_t``.
    """
    if algorithm == "mvue":
        return A @ state
    if u is None:
        raise ParameterError(f"algorithm {algorithm!r} needs the round's inputs u")
    if algorithm == "mvue_naive":
        return A @ state + u
    if algorithm == "ol_signal":
        return ((t - 1) / t) * (A @ state) + u / t
    if algorithm == "ol_network":
        return ((t - 2) / t) * state + (A @ state + u) / t
    raise ParameterError(f"algorithm must be one of {ALGORITHMS} (got {algorithm!r})")


def _scales_at(scales: NDArray[np.float64], t: int) -> NDArray[np.float64]:
    """The ``(c, n)`` scales of round ``t`` (1-based) from a ``(c, n)`` or ``(c, n, T)`` array."""
    return scales if scales.ndim == 2 else scales[:, :, t - 1]


def simulate(
    algorithm: Algorithm,
    A: sparse.sparray | sparse.spmatrix,
    xi: ArrayLike,
    scales: ArrayLike,
    rng: np.random.Generator,
    *,
    horizon: int,
    n_draws: int = 1,
    record: ArrayLike | None = None,
    groups: int = 1,
) -> Run:
    r"""Run an algorithm with Laplace noise, and its non-private twin, on the same signals.

    Parameters
    ----------
    algorithm
        ``"mvue"``, ``"ol_signal"``, ``"ol_network"`` or ``"mvue_naive"`` (module docstring).
    A
        Symmetric doubly stochastic weights, ``n × n`` (sparse; a dense array is converted).
    xi
        Sufficient statistics ``ξ(s_{i,t})``, shape ``(n, T)``. The MVUE uses column 0 only; online
        learning uses columns ``0..horizon−1`` (signal ``t`` is column ``t−1``).
    scales
        Laplace scales ``b ≥ 0`` of ``c`` noise configurations, shape ``(c, n)`` (the same every
        round) or ``(c, n, T)`` (round ``t`` uses ``[:, :, t−1]``; smooth sensitivity recomputed from
        each round's signal).
    rng
        Source of the noise. Draws are made round by round, so they do not depend on ``record``.
    horizon
        Rounds ``T``: averaging steps for the MVUE, signals for online learning.
    n_draws
        Independent noise draws ``r`` per configuration.
    record
        Rounds to keep (default: all, ``0..T`` for the MVUE and ``1..T`` for online learning).
    groups
        Blocks of configurations that share their unit noise: the ``c`` configurations are ``groups``
        equal blocks (say one per calibration), and every round draws the unit Laplace noise of one
        block, ``(n, c/groups, r)``, and scales it by each block's scales. Each block's runs are then
        exactly those of a separate call with that block's scales and a fresh generator in the same
        state, at the cost of one draw.

    Returns
    -------
    Run
        The recorded non-private and private states.
    """
    if algorithm not in ALGORITHMS:
        raise ParameterError(f"algorithm must be one of {ALGORITHMS} (got {algorithm!r})")
    W = sparse.csr_array(A, dtype=float)
    X = np.asarray(xi, dtype=float)
    if X.ndim != 2 or W.shape != (X.shape[0], X.shape[0]):
        raise ParameterError(f"xi must be an (n, T) array matching A's {W.shape} (got shape {X.shape})")
    if not np.all(np.isfinite(X)):
        raise ParameterError("xi (sufficient statistics) must be finite")
    n = X.shape[0]
    if int(horizon) != horizon or horizon < 1:
        raise ParameterError(f"horizon must be an integer ≥ 1 (got {horizon})")
    T = int(horizon)
    online = algorithm.startswith("ol")
    if online and X.shape[1] < T:
        raise ParameterError(
            f"online learning over {T} rounds needs {T} columns of signals (got {X.shape[1]})"
        )
    b = np.asarray(scales, dtype=float)
    if (
        b.ndim not in (2, 3)
        or b.shape[1] != n
        or (b.ndim == 3 and b.shape[2] < (1 if algorithm == "mvue" else T))
    ):
        raise ParameterError(
            f"scales must have shape (c, {n}) or (c, {n}, T) covering the rounds (got {b.shape})"
        )
    if not np.all(np.isfinite(b) & (b >= 0)):
        raise ParameterError("scales (Laplace) must be finite and ≥ 0")
    if int(n_draws) != n_draws or n_draws < 1:
        raise ParameterError(f"n_draws must be an integer ≥ 1 (got {n_draws})")
    if int(groups) != groups or groups < 1 or b.shape[0] % groups:
        raise ParameterError(
            f"groups must be an integer ≥ 1 dividing the {b.shape[0]} configurations (got {groups})"
        )
    c, r, g = b.shape[0], int(n_draws), int(groups)
    first = 1 if online else 0
    times = np.arange(first, T + 1) if record is None else np.unique(np.asarray(record, dtype=np.int64))
    if times.size == 0 or times.min() < first or times.max() > T:
        raise ParameterError(f"record must list rounds in [{first}, {T}] (got {record})")

    def inputs(t: int, column: int) -> NDArray[np.float64]:
        """``u_t`` for every column: the non-private statistic, then ``c × r`` noisy copies."""
        x = X[:, column]
        unit, scale = rng.laplace(size=(n, c // g, r)), _scales_at(b, max(t, 1)).T[:, :, None]
        out = np.empty((n, 1 + c * r))
        out[:, 0] = x
        noisy = out[:, 1:].reshape(n, g, c // g, r)  # a view: block k scales the unit noise by its scales
        for k, block in enumerate(np.split(scale, g, axis=1)):
            np.multiply(unit, block, out=noisy[:, k])
        noisy += x[:, None, None, None]
        return out

    keep = {int(t): k for k, t in enumerate(times)}
    states = np.empty((times.size, n, 1 + c * r))
    input_mean = np.empty((times.size, 1 + c * r))
    if online:
        state = np.zeros((n, 1 + c * r))
        total = np.zeros(1 + c * r)
    else:
        state = inputs(0, 0)
        total = state.mean(axis=0)
    if 0 in keep:
        states[keep[0]], input_mean[keep[0]] = state, total
    for t in range(1, T + 1):
        if algorithm == "mvue":
            u = None
        elif algorithm == "mvue_naive":
            fresh = inputs(t, 0)
            u = fresh - fresh[:, :1]  # the same signal, a new noise draw
            total = total + u.mean(axis=0)
        else:
            u = inputs(t, t - 1)
            total = total + (u.mean(axis=0) - total) / t
        state = step(algorithm, W, state, u, t)
        if t in keep:
            states[keep[t]], input_mean[keep[t]] = state, total
    nonprivate = states[:, :, 0]
    private = np.moveaxis(states[:, :, 1:].reshape(times.size, n, c, r), 1, -1)
    return Run(times, nonprivate, private, input_mean)


def propagate(
    algorithm: Algorithm, A: sparse.sparray | sparse.spmatrix, inputs: ArrayLike, *, horizon: int
) -> NDArray[np.float64]:
    """The state at ``horizon`` of an algorithm's recursion driven by given inputs, ``k`` columns at once.

    The recursions are linear, so a run with noise is its non-private twin plus this propagation of the
    noise alone; :func:`propagate` serves noise that is not drawn afresh (a fixed offset, say).
    ``inputs`` has shape ``(n, k)`` for ``"mvue"`` (the initial state ``ν_0``) and ``(n, T, k)`` for the
    other algorithms (the input of round ``t`` is ``inputs[:, t − 1]``; ``"mvue_naive"`` starts from
    zero). Returns the ``(n, k)`` state after ``horizon`` rounds.
    """
    if algorithm not in ALGORITHMS:
        raise ParameterError(f"algorithm must be one of {ALGORITHMS} (got {algorithm!r})")
    W = sparse.csr_array(A, dtype=float)
    U = np.asarray(inputs, dtype=float)
    n, T = W.shape[0], int(horizon)
    if T < 1 or T != horizon:
        raise ParameterError(f"horizon must be an integer ≥ 1 (got {horizon})")
    if algorithm == "mvue":
        if U.ndim != 2 or U.shape[0] != n:
            raise ParameterError(f"the MVUE's inputs must have shape ({n}, k) (got {U.shape})")
        state = U.copy()
        for t in range(1, T + 1):
            state = step(algorithm, W, state, None, t)
        return state
    if U.ndim != 3 or U.shape[0] != n or U.shape[1] < T:
        raise ParameterError(f"inputs must have shape ({n}, T ≥ {T}, k) (got {U.shape})")
    state = np.zeros((n, U.shape[2]))
    for t in range(1, T + 1):
        state = step(algorithm, W, state, U[:, t - 1], t)
    return state
