"""What each user's release reveals, exactly: the worst likelihood ratio of the whole release over every
pair of a user's possible data, by enumeration on a small instance (paper 002, Def. 2.1 and §2.2).

A user's data is ``x = (W, R)``: the set ``W`` of her ``w`` rated items and her ratings ``R ∈ {0,1}^w``
(the paper's local DP protects both: "the rated-item labels and corresponding ratings"). A scheme
releases a *query* (the pair, the probe set, the blocks) and one or more bits. The release is ε-locally
private when, for every release ``y`` and every two data ``x, x'``, ``P[y | x] ≤ e^ε P[y | x']``.
:func:`worst_ratio` computes ``max_y max_{x,x'} P[y | x]/P[y | x']`` exactly (``inf`` when some release
is possible under one data and impossible under another), over all data or over data sharing the same
rated set (privacy of the ratings only).

The schemes (``SCHEMES``) are those the chapter runs:

- ``"pairwise"``: Pairwise-Preference, a uniform pair, Fig. 1's sketch ``1{R̂_i = R̂_j}``;
- ``"pairwise-rated"``: the same, the pair drawn from the user's rated items (``support_known``);
- ``"maxsense"``: a Bernoulli(θ/w) probe set and ``max_i H_i R̂_i``;
- ``"multi-maxsense"``: a random partition into ``⌊w/θ⌋`` blocks, ``Q`` of them chosen, one bit each at
  ``ε/Q``.

Every bit is randomized response (:func:`~dpnet.recommender.ldp.flip_prob`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError
from dpnet.recommender.ldp import check_eps, flip_prob

__all__ = ["SCHEMES", "release_probabilities", "worst_ratio"]

SCHEMES = ("pairwise", "pairwise-rated", "maxsense", "multi-maxsense")
#: The largest instance enumerated (items).
MAX_ITEMS = 8


def _data(n_items: int, w: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every datum as ``(rated set index, liked vector over the N items)``: rows ``C(N, w) 2^w``."""
    sets, liked = [], []
    for k, items in enumerate(itertools.combinations(range(n_items), w)):
        for bits in itertools.product((0, 1), repeat=w):
            row = np.zeros(n_items, dtype=np.int64)
            row[list(items)] = bits
            sets.append(k)
            liked.append(row)
    return np.asarray(sets), np.asarray(liked)


def _bits(s0: NDArray[np.int64], eps: float) -> Iterator[NDArray[np.float64]]:
    """For each vector of released bits ``b`` (rows of ``s0`` are one query's private bits per datum, shape
    ``(data, Q)``), ``P[b | x]`` for every datum ``x``."""
    f = flip_prob(eps)
    for b in itertools.product((0, 1), repeat=s0.shape[1]):
        one = f + (1.0 - 2.0 * f) * s0  # P[bit = 1 | x], per bit
        yield np.prod(np.where(np.asarray(b)[None, :] == 1, one, 1.0 - one), axis=1)


def release_probabilities(
    scheme: str, n_items: int, w: int, eps: float, *, theta: float = 1.0, n_bits: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``P[y | x]`` for every release ``y`` (rows) and datum ``x`` (columns), and each datum's rated set.

    Releases whose query does not depend on the data are listed with the query's probability; for
    ``"multi-maxsense"`` every ordered choice of ``Q`` blocks of every partition is listed once (equally
    likely: the ratios do not depend on the query's probability).
    """
    if scheme not in SCHEMES:
        raise ParameterError(f"scheme must be one of {', '.join(SCHEMES)} (got {scheme!r})")
    if not (isinstance(n_items, int) and isinstance(w, int) and 2 <= w <= n_items <= MAX_ITEMS):
        raise ParameterError(f"need integers 2 ≤ w ≤ N ≤ {MAX_ITEMS} (got N = {n_items!r}, w = {w!r})")
    eps = check_eps(eps)
    sets, liked = _data(n_items, w)
    rated = np.zeros_like(liked)
    for k, items in enumerate(itertools.combinations(range(n_items), w)):
        rated[np.ix_(sets == k, list(items))] = 1
    rows: list[NDArray[np.float64]] = []
    if scheme in ("pairwise", "pairwise-rated"):
        pairs = list(itertools.combinations(range(n_items), 2))
        for i, j in pairs:
            if scheme == "pairwise":
                p_query = np.full(len(sets), 1.0 / len(pairs))
            else:
                p_query = (rated[:, i] * rated[:, j]) / math.comb(w, 2)
            s0 = (liked[:, i] == liked[:, j]).astype(np.int64)[:, None]  # Fig. 1: unrated counts as 0
            rows += [p_query * p for p in _bits(s0, eps)]
    elif scheme == "maxsense":
        p = theta / w
        if not 0 < p <= 1:
            raise ParameterError(f"theta must be in (0, w] (got {theta})")
        for probe in itertools.product((0, 1), repeat=n_items):
            h = np.asarray(probe)
            p_query = p ** h.sum() * (1 - p) ** (n_items - h.sum())
            s0 = (liked @ h > 0).astype(np.int64)[:, None]
            rows += [p_query * q for q in _bits(s0, eps)]
    else:
        blocks = math.floor(w / theta)
        if not (isinstance(n_bits, int) and 1 <= n_bits <= blocks):
            raise ParameterError(f"n_bits (Q) must be an integer in [1, ⌊w/θ⌋ = {blocks}] (got {n_bits!r})")
        for order in itertools.permutations(range(n_items)):
            block_of = np.empty(n_items, dtype=np.int64)
            block_of[list(order)] = np.arange(n_items) * blocks // n_items
            for chosen in itertools.permutations(range(blocks), n_bits):
                member = np.stack([block_of == b for b in chosen], axis=1).astype(np.int64)  # (N, Q)
                s0 = (liked @ member > 0).astype(np.int64)
                rows += list(_bits(s0, eps / n_bits))
    return np.asarray(rows), sets


def worst_ratio(
    scheme: str, n_items: int, w: int, eps: float, *, theta: float = 1.0, n_bits: int = 1,
    ratings_only: bool = False,
) -> float:  # fmt: skip
    """``max_y max_{x, x'} P[y | x]/P[y | x']`` over every release and every two data (with
    ``ratings_only``, over data with the same rated set): ``e^ε`` or less for an ε-locally private
    release, ``inf`` when a release is possible under one datum and impossible under another."""
    probs, sets = release_probabilities(scheme, n_items, w, eps, theta=theta, n_bits=n_bits)
    groups = [sets == k for k in np.unique(sets)] if ratings_only else [np.ones(sets.size, dtype=bool)]
    worst = 1.0
    for group in groups:
        block = probs[:, group]
        high, low = block.max(axis=1), block.min(axis=1)
        if np.any((high > 0) & (low <= 0)):
            return math.inf
        seen = high > 0
        if seen.any():
            worst = max(worst, float(np.max(high[seen] / low[seen])))
    return worst
