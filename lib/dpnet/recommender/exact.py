"""Exact computations on small instances of the lower-bound model of paper 002 (§4), by enumeration.

The model: ``Z`` uniform on ``{0,1}^N``; a user holds a uniform ``w``-subset ``I`` of the items and the
bits ``Z_I`` (her *data* ``d = (I, Z_I)``, one of ``D = C(N, w) 2^w``), and releases a 1-bit sketch
``S`` with ``P[S = 1 | d] = q(d)``. A *release* is the vector ``q`` over the ``D`` data values,
indexed subset by subset (:func:`subsets`, lexicographic) and, within a subset, by the pattern of its
bits read as a binary number (first item most significant). The sketch is ε-locally private when
``q(d)/q(d')`` and ``(1 − q(d))/(1 − q(d'))`` are at most ``e^ε`` for every ``d, d'``; randomized
response on a deterministic query ``A ⊂ D`` gives ``q = f + (1 − 2f) 1_A`` (:func:`private_release`).

Everything is in nats. The functions compute, exactly:

- :func:`sketch_information`: ``I(Z; S)``, enumerating the ``2^N`` values of ``Z``;
- :func:`lemma41_bound`: the right-hand side of Lemma 4.1, ``E_S E[2^{|I₁∩I₂|} 1{Z₁ ≡ Z₂} − 1]`` with
  ``(I₁, Z₁), (I₂, Z₂)`` independent given ``S``, summing over the ``D²`` pairs of data;
- :func:`extremal_quadratic`: the quantity ``Σ_ℓ (π_{ℓ,0} − π_{ℓ,1})²`` that the proof of Thm 4.10
  maximizes, at every extremal point of Lemma C.7 (every half of ``D``), against its bound
  ``2 ε'² w/N``.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.recommender.bounds import _all_bit_vectors, binary_entropy
from dpnet.recommender.ldp import flip_prob

__all__ = [
    "data_size",
    "extremal_quadratic",
    "lemma41_bound",
    "private_release",
    "sketch_information",
    "subsets",
]

#: The largest ``2^N`` and ``D²`` the enumerations accept.
MAX_ITEMS = 14
MAX_PAIRS = 4_000_000


def _check(n_items: int, w: int) -> tuple[int, int]:
    if not (isinstance(n_items, (int, np.integer)) and isinstance(w, (int, np.integer))):
        raise ParameterError(f"N and w must be integers (got {n_items!r}, {w!r})")
    if not (1 <= w <= n_items <= MAX_ITEMS):
        raise ParameterError(f"need 1 ≤ w ≤ N ≤ {MAX_ITEMS} (got N = {n_items}, w = {w})")
    return int(n_items), int(w)


@functools.lru_cache(maxsize=16)
def subsets(n_items: int, w: int) -> NDArray[np.int64]:
    """The ``C(N, w)`` rated sets, one per row, in lexicographic order (cached, read-only)."""
    n_items, w = _check(n_items, w)
    out = np.array(list(itertools.combinations(range(n_items), w)), dtype=np.int64)
    out.setflags(write=False)
    return out


def data_size(n_items: int, w: int) -> int:
    """``D = C(N, w) 2^w``, the number of values of a user's data ``(I, Z_I)``."""
    n_items, w = _check(n_items, w)
    return math.comb(n_items, w) * 2**w


def private_release(query: ArrayLike, eps: float) -> NDArray[np.float64]:
    """``P[S = 1 | d]`` of randomized response at ``eps`` on the deterministic query ``1_A(d)``."""
    a = np.asarray(query, dtype=bool)
    f = flip_prob(eps)
    return f + (1.0 - 2.0 * f) * a.astype(float)


def _release(n_items: int, w: int, release: ArrayLike) -> NDArray[np.float64]:
    q = np.asarray(release, dtype=float).ravel()
    if q.size != data_size(n_items, w) or np.any((q < 0) | (q > 1)):
        raise ParameterError(
            f"a release gives P[S = 1 | d] in [0, 1] for each of the {data_size(n_items, w)} data"
        )
    return q


@functools.lru_cache(maxsize=8)
def _data_index(n_items: int, w: int) -> NDArray[np.int64]:
    """For every ``z`` (rows, as :func:`~dpnet.recommender.bounds._all_bit_vectors`) and every rated set
    (columns), the index of the data ``(I, z_I)`` in a release."""
    z = _all_bit_vectors(n_items)
    sets = subsets(n_items, w)
    weights = 2 ** np.arange(w - 1, -1, -1)
    pattern = z[:, sets] @ weights  # (2^N, C)
    out = np.arange(sets.shape[0])[None, :] * 2**w + pattern
    out.setflags(write=False)
    return out


def sketch_information(n_items: int, w: int, release: ArrayLike) -> float:
    """Exact ``I(Z; S)`` in nats, by enumerating the ``2^N`` values of ``Z`` (``N ≤ 14``).

    ``P[S = 1 | Z = z]`` is the mean of ``release`` over the rated sets, each read at the pattern ``z``
    gives it; then ``I = h(E P) − E h(P)`` with ``h`` the binary entropy.
    """
    n_items, w = _check(n_items, w)
    q = _release(n_items, w, release)
    p1 = q[_data_index(n_items, w)].mean(axis=1)
    return float(binary_entropy(p1.mean()) - binary_entropy(p1).mean())


@functools.lru_cache(maxsize=8)
def _overlap_kernel(n_items: int, w: int) -> NDArray[np.float64]:
    """``2^{|i₁∩i₂|} 1{z₁ ≡ z₂} − 1`` for every pair of data (a ``D × D`` array, cached, read-only)."""
    sets = subsets(n_items, w)
    c = sets.shape[0]
    if (c * 2**w) ** 2 > MAX_PAIRS:
        raise ParameterError(
            f"Lemma 4.1's sum has more than {MAX_PAIRS:,} pairs of data at N = {n_items}, w = {w}"
        )
    member = np.zeros((c, n_items), dtype=bool)
    member[np.arange(c)[:, None], sets] = True
    patterns = (np.arange(2**w)[:, None] >> np.arange(w - 1, -1, -1)[None, :]) & 1  # (2^w, w)
    value = np.full((c, 2**w, n_items), -1, dtype=np.int64)  # each datum's bit per item, −1 if unrated
    value[np.arange(c)[:, None, None], np.arange(2**w)[None, :, None], sets[:, None, :]] = patterns[None]
    value = value.reshape(c * 2**w, n_items)
    rated = value >= 0
    both = rated[:, None, :] & rated[None, :, :]
    consistent = ~np.any(both & (value[:, None, :] != value[None, :, :]), axis=2)
    kernel = np.where(consistent, 2.0 ** both.sum(axis=2), 0.0) - 1.0
    kernel.setflags(write=False)
    return kernel


def lemma41_bound(n_items: int, w: int, release: ArrayLike) -> float:
    """Lemma 4.1's right-hand side ``E_S E[2^{|I₁∩I₂|} 1{Z₁ ≡ Z₂} − 1]``, exactly (nats).

    Given ``S = s``, the data are distributed as ``p(d | s) ∝ P[S = s | d]`` (``d`` is uniform on ``D``);
    two independent copies give the inner expectation, a quadratic form in ``p(· | s)`` with the overlap
    kernel; the outer one weights ``s`` by ``P[S = s]``.
    """
    n_items, w = _check(n_items, w)
    q = _release(n_items, w, release)
    kernel = _overlap_kernel(n_items, w)
    total = 0.0
    for likelihood in (q, 1.0 - q):
        mass = likelihood.mean()  # P[S = s]
        if mass <= 0:
            continue
        post = likelihood / likelihood.sum()
        total += mass * float(post @ kernel @ post)
    return total


def extremal_quadratic(n_items: int, w: int, eps: float) -> tuple[float, float]:
    """The largest ``Σ_ℓ (π^A_{ℓ,0} − π^A_{ℓ,1})²`` over every extremal point ``p^A`` of Lemma C.7, and
    the bound ``2 ε'² w/N`` of the proof of Thm 4.10 (``ε' = e^ε − 1``).

    ``p^A`` puts ``(1 + ε')/D`` on the ``D/2`` data of ``A`` and ``(1 − ε')/D`` on the others;
    ``π^A_{ℓ,σ}`` is its mass on the data that rate item ``ℓ`` with bit ``σ``. Every half ``A`` of ``D`` is
    enumerated (``C(D, D/2)`` of them: ``D ≤ 16``).
    """
    n_items, w = _check(n_items, w)
    size = data_size(n_items, w)
    if size > 16:
        raise ParameterError(f"enumerating the halves of D = {size} data is too large (D ≤ 16)")
    e = math.expm1(float(eps))
    sets = subsets(n_items, w)
    # v_ℓ(d) = 1{ℓ ∈ i}(1 − 2 z(ℓ)): the signed incidence of each datum on each item
    v = np.zeros((size, n_items))
    for c, items in enumerate(sets):
        for pattern in range(2**w):
            bits = [(pattern >> (w - 1 - k)) & 1 for k in range(w)]
            v[c * 2**w + pattern, items] = 1 - 2 * np.asarray(bits)
    halves = np.array(list(itertools.combinations(range(size), size // 2)), dtype=np.int64)
    indicator = np.zeros((halves.shape[0], size))
    indicator[np.arange(halves.shape[0])[:, None], halves] = 1.0
    p = (1 - e + 2 * e * indicator) / size  # (A, D): every extremal point
    value = ((p @ v) ** 2).sum(axis=1)
    return float(value.max()), 2 * e**2 * w / n_items


def feasible_quadratic(
    n_items: int, w: int, eps: float, rng: np.random.Generator, draws: int = 2000
) -> float:
    """The largest ``Σ_ℓ (π_{ℓ,0} − π_{ℓ,1})²`` over ``draws`` random points of the convex set of Lemma C.7
    (``p_d D ∈ [1 − ε', 1 + ε']``, ``Σ p_d = 1``): by the lemma and convexity, never above
    :func:`extremal_quadratic`'s maximum.

    A point is ``p = (1 − ε' + 2ε' a)/D`` with ``a ∈ [0, 1]^D`` summing to ``D/2``: a uniform vector pulled
    towards 1/2 as far as needed to sum to ``D/2`` and stay in the cube.
    """
    n_items, w = _check(n_items, w)
    size = data_size(n_items, w)
    e = math.expm1(float(eps))
    sets = subsets(n_items, w)
    v = np.zeros((size, n_items))
    for c, items in enumerate(sets):
        for pattern in range(2**w):
            bits = [(pattern >> (w - 1 - k)) & 1 for k in range(w)]
            v[c * 2**w + pattern, items] = 1 - 2 * np.asarray(bits)
    a = rng.random((draws, size))
    centred = a - a.mean(axis=1, keepdims=True)
    reach = np.max(np.abs(centred), axis=1, keepdims=True)
    a = 0.5 + centred * np.minimum(1.0, 0.5 / np.maximum(reach, 1e-300))
    p = (1 - e + 2 * e * a) / size
    return float(((p @ v) ** 2).sum(axis=1).max())
