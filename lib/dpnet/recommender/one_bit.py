"""The 1-bit sketch schemes of the toy example (§1) and Thm 4.3, ``w = 1``, non-private.

Each user holds one item ``I_u`` (uniform on ``[N]``) and its bit ``Z_{I_u}``; the server must learn
every bit. Each function returns, for ``trials`` independent runs, the number of users the scheme
needed, drawn exactly from its stopping-time distribution (``O(N)`` per run, whatever the count):

- ``unconstrained``: every user reveals ``(I_u, Z_u)``: a coupon collector.
- ``average_bit``: a user reveals everything with probability ``1/log₂(2N)`` and nothing otherwise
  (one bit per user *on average*).
- ``point_query``: user ``u`` answers "is ``(I_u, Z_u) = (i, b)``?" for a uniform ``(i, b)``; only a
  "yes" (probability ``1/(2N)``, item uniform) reveals a bit.
- ``adaptive``: ask about the first unknown item, alternating ``b = 0, 1, 0, …`` (restarting at 0 for
  each item); the paper's tightness argument, ≈ ``2N²`` users.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError

__all__ = ["SCHEMES", "approximate_u90", "fano_one_bit_users", "users_needed"]

SCHEMES = ("unconstrained", "average_bit", "point_query", "adaptive")
_LOG_90 = math.log(1.0 / math.log(1.0 / 0.9))  # ≈ 2.25: coupon collector's 90% quantile offset


def _collector(n: int, trials: int, rng: np.random.Generator) -> NDArray[np.int64]:
    # revelations needed to see all n items: Σ_k Geometric((n − k)/n)
    return rng.geometric((n - np.arange(n)) / n, size=(trials, n)).sum(axis=1)


def users_needed(scheme: str, n_items: int, trials: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """Users each run of ``scheme`` needed to learn all ``N`` bits (``trials`` runs)."""
    if scheme not in SCHEMES:
        raise ParameterError(f"scheme must be one of {', '.join(SCHEMES)} (got {scheme!r})")
    if not (isinstance(n_items, (int, np.integer)) and n_items >= 2 and trials >= 1):
        raise ParameterError(f"need an integer N ≥ 2 and trials ≥ 1 (got N={n_items!r}, trials={trials!r})")
    if scheme == "adaptive":
        first_yes = rng.geometric(1.0 / n_items, size=(trials, n_items))
        bits = rng.integers(0, 2, size=(trials, n_items))
        return (2 * first_yes - 1 + bits).sum(axis=1)
    reveals = _collector(n_items, trials, rng)
    if scheme == "unconstrained":
        return reveals
    q = 1.0 / math.log2(2 * n_items) if scheme == "average_bit" else 1.0 / (2 * n_items)
    return reveals + rng.negative_binomial(reveals, q)


def approximate_u90(scheme: str, n_items: float) -> float:
    """The book's approximations of the 90% quantiles (``note-rec-one-bit``): ``N(ln N + 2.25)``,
    ``× log₂(2N)``, ``2N²(ln N + 2.25)`` and ``2N² + 2.6 N^{1.5}``."""
    n = float(n_items)
    collector = n * (math.log(n) + _LOG_90)
    if scheme == "unconstrained":
        return collector
    if scheme == "average_bit":
        return collector * math.log2(2 * n)
    if scheme == "point_query":
        return 2 * n * collector
    if scheme == "adaptive":
        return 2 * n**2 + 2.6 * n**1.5
    raise ParameterError(f"scheme must be one of {', '.join(SCHEMES)} (got {scheme!r})")


def fano_one_bit_users(n_items: float) -> float:
    """Thm 4.3 through Fano: any 1-bit sketch carries ≤ 1/N nats, so ``U ≥ (N/2 − 1) N ln 2``."""
    return (n_items / 2 - 1) * n_items * math.log(2)
