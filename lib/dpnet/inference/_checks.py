"""Validation helpers shared by the modules of :mod:`dpnet.inference` (private).

Numbers are checked with :mod:`dpnet.params` (:func:`~dpnet.params.integer`, :func:`~dpnet.params.real`):
:func:`_check_int`, :func:`_check_prob` and :func:`_check_pos` are thin wrappers that keep this package's
behaviour on top of them (no booleans as integers; the error wording callers and tests match). The other
helpers check the package's tables: log-likelihoods, per-round arrays, state counts.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from dpnet.errors import ParameterError
from dpnet.params import integer, real

#: A weight matrix (dense or sparse) or a graph (Metropolis–Hastings weights), see
#: :func:`dpnet.networks.check_weights`.
Weights = ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph


_PROBABILITY = real(gt=0.0, lt=1.0)
_POSITIVE = real(gt=0.0)


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
    """``real(gt=0.0, lt=1.0)``, worded "must lie in the open interval (0, 1)"."""
    try:
        return _PROBABILITY(name, value)
    except ParameterError:
        raise ParameterError(f"{name} must lie in the open interval (0, 1) (got {value})") from None


def _check_pos(name: str, value: float) -> float:
    """``real(gt=0.0)``, worded "must be finite and > 0"."""
    try:
        return _POSITIVE(name, value)
    except ParameterError:
        raise ParameterError(f"{name} must be finite and > 0 (got {value})") from None


def _check_int(name: str, value: int, minimum: int) -> int:
    """``integer(ge=minimum)``, and not a bool (``integer`` reads ``True`` as 1)."""
    if isinstance(value, bool):
        raise ParameterError(f"{name} must be an integer ≥ {minimum} (got {value})")
    return integer(ge=minimum)(name, value)


def _check_a_star(a_star: float) -> float:
    """``a* = SLEM((A+I)/2) ∈ [0, 1)``; ``a* = 1`` would mean a disconnected graph."""
    value = float(a_star)
    if not 0.0 <= value < 1.0:
        raise ParameterError(f"a_star must lie in [0, 1) (got {a_star}); a* = 1 means a disconnected graph")
    return value


def _check_T(T: int | None) -> int | None:
    return None if T is None else _check_int("T (iterations)", T, 0)


def _check_states(n_states: int, n_mle: int) -> tuple[int, int]:
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    n_mle = _check_int("n_mle (|Θ*|)", n_mle, 1)
    if n_mle > n_states:
        raise ParameterError(f"n_mle (|Θ*|) must be ≤ n_states = {n_states} (got {n_mle})")
    return n_states, n_mle


def _check_rounds(scaled: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(scaled, dtype=float)
    if arr.ndim < 3:
        raise ParameterError(f"per-round arrays must have shape (..., K, n, |Θ|) (got shape {arr.shape})")
    return arr


def _check_state(name: str, value: int, n_states: int) -> int:
    """An index into the ``n_states`` states (e.g. of the true state θ°)."""
    k = _check_int(name, value, 0)
    if k >= n_states:
        raise ParameterError(f"{name} must index one of the {n_states} states (got {value})")
    return k
