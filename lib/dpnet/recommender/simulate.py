"""Simulators of the users' private sketches and of the server's aggregates (note ``note-rec-models``).

The *aggregate* simulators draw the server's sufficient statistics directly, exactly in
distribution, so their cost does not grow with the number of users ``U``:

- :func:`pairwise_matrix`: users are i.i.d. and each queries one uniform pair, so the pair counts
  are multinomial and each pair's sum of released bits is binomial given its count.
- :func:`maxsense_scores` (Bernoulli-rating model, as in the proof of Thm 5.1): for each user type,
  the non-flipped users who sense a liked item are located through the *first* such item of each
  user (a multinomial draw), the later items of their rows being independent; flipped users with
  nothing to report contribute independent Bernoulli sensing bits. ``O(K N)`` per draw.

The per-user simulators (:func:`pairwise_matrix_per_user`, :func:`maxsense_scores_per_user`,
:func:`multi_maxsense_scores_per_user`) follow every user, in chunks, for small cases and to test
the aggregates against; ``ratings="subset"`` gives each user exactly ``w`` rated items (the model
of §2.1) instead of the Bernoulli approximation. Multi-MaxSense as Fig. 3 describes it has no
aggregate here: :func:`multi_maxsense_scores_per_user` draws each user's chosen blocks only, item by
item, then deals every cluster's items to all the users at once.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray
from scipy import special, stats

from dpnet.errors import ParameterError
from dpnet.recommender.ldp import flip_prob, rr_bits
from dpnet.recommender.model import BlockModel, _check_theta

__all__ = [
    "SKETCHES",
    "maxsense_scores",
    "maxsense_scores_per_user",
    "maxsense_scores_subset",
    "multi_maxsense_scores",
    "multi_maxsense_scores_per_user",
    "pair_sketch_probabilities",
    "pairwise_matrix",
    "pairwise_matrix_per_user",
]

SKETCHES = ("agree", "both_like", "agree_rated")
_CELLS = 1 << 22  # user × item cells per chunk of the per-user simulators


def _check_users(n_users: int) -> int:
    if isinstance(n_users, bool) or not isinstance(n_users, (int, np.integer)) or n_users < 0:
        raise ParameterError(f"n_users must be an integer ≥ 0 (got {n_users!r})")
    return int(n_users)


def _check_labels(model: BlockModel, labels: NDArray[np.int64]) -> NDArray[np.int64]:
    lab = np.asarray(labels)
    if lab.shape != (model.n_items,) or lab.min() < 0 or lab.max() >= model.L:
        raise ParameterError(
            f"labels must give a cluster in [0, {model.L}) for each of the {model.n_items} items"
        )
    return lab.astype(np.int64)


def _chunks(n_users: int, width: int) -> Iterator[int]:
    size = max(1, _CELLS // max(width, 1))
    for start in range(0, n_users, size):
        yield min(size, n_users - start)


# --------------------------------------------------------------------------------------------------
# Pairwise-Preference (Fig. 1)
# --------------------------------------------------------------------------------------------------


def pair_sketch_probabilities(
    model: BlockModel, sketch: str = "agree", support_known: bool = False
) -> NDArray:
    """``P[S₀ = 1]`` for a user queried on a pair of items of clusters ``(l, l')``, as an (L, L) array.

    Sketches (``note-rec-pp-sketch``): ``"agree"`` is Fig. 1's ``1{R̂_i = R̂_j}`` with unrated items counted
    as 0; ``"both_like"`` is the prose's "rated both positively"; ``"agree_rated"`` is App. B's "both rated
    and equal". With ``support_known`` the pair is drawn from the user's rated items (both rated).
    """
    if sketch not in SKETCHES:
        raise ParameterError(f"sketch must be one of {', '.join(SKETCHES)} (got {sketch!r})")
    if support_known:
        if model.w < 2:
            raise ParameterError("support_known needs w ≥ 2 rated items per user")
        r1 = r2 = 1.0
    else:
        n, w = model.n_items, model.w
        r1, r2 = w / n, w * (w - 1) / (n * (n - 1))
    b = model.like()
    bi, bj = b[:, :, None], b[:, None, :]
    if sketch == "agree":
        per_type = 1.0 - r1 * (bi + bj) + 2.0 * r2 * bi * bj
    elif sketch == "both_like":
        per_type = r2 * bi * bj
    else:
        per_type = r2 * (bi * bj + (1 - bi) * (1 - bj))
    return np.tensordot(np.asarray(model.alpha), per_type, axes=1)


def pairwise_matrix(
    model: BlockModel,
    labels: NDArray[np.int64],
    n_users: int,
    eps: float,
    rng: np.random.Generator,
    *,
    sketch: str = "agree",
    support_known: bool = False,
) -> NDArray[np.int64]:
    """The server's symmetric count matrix ``Â`` of Pairwise-Preference (zero diagonal), in aggregate."""
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    q = pair_sketch_probabilities(model, sketch, support_known)
    f = flip_prob(eps)
    iu, ju = np.triu_indices(model.n_items, 1)
    counts = rng.multinomial(n_users, np.full(iu.size, 1.0 / iu.size))
    ones = rng.binomial(counts, f + (1.0 - 2.0 * f) * q[labels[iu], labels[ju]])
    a = np.zeros((model.n_items, model.n_items), dtype=np.int64)
    a[iu, ju] = ones
    return a + a.T


def pairwise_matrix_per_user(
    model: BlockModel,
    labels: NDArray[np.int64],
    n_users: int,
    eps: float,
    rng: np.random.Generator,
    *,
    sketch: str = "agree",
    support_known: bool = False,
) -> NDArray[np.int64]:
    """As :func:`pairwise_matrix`, following each user (exact ``w``-subset marginals of the pair)."""
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    pair_sketch_probabilities(model, sketch, support_known)  # validates sketch and support_known
    n, w, b = model.n_items, model.w, model.like()
    flat = np.zeros(n * n, dtype=np.int64)
    for size in _chunks(n_users, 16):
        i = rng.integers(n, size=size)
        j = rng.integers(n - 1, size=size)
        j += j >= i
        k = rng.choice(model.K, p=model.alpha, size=size)
        if support_known:
            rated_i = rated_j = np.ones(size, dtype=bool)
        else:
            rated_i = rng.random(size) < w / n
            rated_j = rng.random(size) < np.where(rated_i, (w - 1) / (n - 1), w / (n - 1))
        like_i = rng.random(size) < b[k, labels[i]]
        like_j = rng.random(size) < b[k, labels[j]]
        if sketch == "agree":
            s0 = (rated_i & like_i) == (rated_j & like_j)
        elif sketch == "both_like":
            s0 = rated_i & like_i & rated_j & like_j
        else:
            s0 = rated_i & rated_j & (like_i == like_j)
        s = rr_bits(s0, eps, rng)
        flat += np.bincount(np.minimum(i, j)[s] * n + np.maximum(i, j)[s], minlength=n * n)
    a = flat.reshape(n, n)
    return a + a.T


# --------------------------------------------------------------------------------------------------
# MaxSense (Fig. 2) and Multi-MaxSense (Fig. 3)
# --------------------------------------------------------------------------------------------------


def maxsense_scores(
    model: BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0,
) -> NDArray[np.int64]:  # fmt: skip
    """Item scores ``B_i = Σ_u H_ui S_u`` of MaxSense under the Bernoulli-rating model, drawn in aggregate.

    User ``u`` of type ``k`` senses item ``i`` with probability ``p = θ/w``; a sensed item is rated and
    liked with probability ``ρ b_kl`` (so ``X_ui = H_ui R̂_ui ~ Bernoulli(q_i)``, ``q_i = p ρ b_kl``,
    independently); ``S₀ = max_i X_ui`` and ``S = RR(S₀, ε)``. Exact in distribution, ``O(K N)``.
    """
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    theta = _check_theta(model, theta)
    p, rho, f = theta / model.w, model.rho, flip_prob(eps)
    types = rng.multinomial(n_users, np.asarray(model.alpha))
    scores = np.zeros(model.n_items, dtype=np.int64)
    for k in range(model.K):
        like = model.like()[k, labels]
        q = p * rho * like
        # P[H_ui = 1 | X_ui = 0]; irrelevant (set to 0) where every sensed item is liked, q = 1
        h = np.divide(p * (1.0 - rho * like), 1.0 - q, out=np.zeros_like(q), where=q < 1.0)
        log_miss = np.log1p(-q)
        empty = math.exp(log_miss.sum())  # P[a user senses no liked item]
        kept = rng.binomial(types[k], 1.0 - f)
        # non-flipped users who sense a liked item release S = 1; locate each row's first positive item
        n_hit = rng.binomial(kept, 1.0 - empty)
        if n_hit > 0:
            first = np.exp(np.concatenate([[0.0], np.cumsum(log_miss)[:-1]])) * q
            m = rng.multinomial(n_hit, first / first.sum())
            before = np.cumsum(m) - m  # rows whose first positive item comes before item i
            positives = m + rng.binomial(before, q)
            scores += positives + rng.binomial(n_hit - positives, h)
        # flipped users who sense nothing liked also release S = 1
        scores += rng.binomial(rng.binomial(types[k] - kept, empty), h)
    return scores


def maxsense_scores_per_user(
    model: BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0, ratings: str = "bernoulli",
) -> NDArray[np.int64]:  # fmt: skip
    """MaxSense scores following each user; ``ratings="subset"`` is the exact ``w``-subset model of §2.1.

    With ``"subset"`` only the rated items' sensing bits matter for ``S₀``; the others are independent
    of ``S`` and are added as ``Binomial(#{S = 1, i ∉ W_u}, p)``, which is exact.
    """
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    theta = _check_theta(model, theta)
    if ratings not in ("bernoulli", "subset"):
        raise ParameterError(f"ratings must be 'bernoulli' or 'subset' (got {ratings!r})")
    n, w, p, b = model.n_items, model.w, theta / model.w, model.like()
    scores = np.zeros(n, dtype=np.int64)
    for size in _chunks(n_users, n):
        k = rng.choice(model.K, p=model.alpha, size=size)
        if ratings == "bernoulli":
            sensed = rng.random((size, n)) < p
            liked = rng.random((size, n)) < model.rho * b[k][:, labels]
            s = rr_bits((sensed & liked).any(axis=1), eps, rng)
            scores += sensed[s].sum(axis=0)
            continue
        rated = np.argpartition(rng.random((size, n)), w - 1, axis=1)[:, :w]
        liked = rng.random((size, w)) < b[k[:, None], labels[rated]]
        sensed = rng.random((size, w)) < p
        s = rr_bits((sensed & liked).any(axis=1), eps, rng)
        hits = np.bincount(rated[s][sensed[s]], minlength=n)
        in_rated = np.bincount(rated[s].ravel(), minlength=n)
        scores += hits + rng.binomial(int(s.sum()) - in_rated, p)
    return scores


def maxsense_scores_subset(
    model: BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0,
) -> NDArray[np.int64]:  # fmt: skip
    """MaxSense scores in the exact ``w``-subset model of §2.1 (each user rates ``w`` items), in aggregate.

    Exact in distribution, as :func:`maxsense_scores_per_user` with ``ratings="subset"``, at a cost that
    does not grow with ``U``. Only a user's rated and liked items ``A`` and which of them are sensed
    decide ``S₀``; every other item is sensed independently of ``S``, so it enters as
    ``Binomial(#{S = 1, i ∉ A}, p)``. A user's state is, per cluster ``l``, ``a_l = |A ∩ C_l|`` and
    ``m_l``, how many of those are sensed: the states of the users releasing ``S = 1`` are one
    multinomial draw (``subset_release_probabilities``). Given its state, ``A ∩ C_l`` is a uniform
    ``a_l``-subset of the cluster and its sensed items a uniform ``m_l``-subset of that, so the items of
    a cluster are dealt out one by one: with ``R`` items left, a user holding ``r_a`` more items of
    ``A`` (``r_m`` of them sensed) has the next one in ``A`` with probability ``r_a/R``, sensed with
    probability ``r_m/r_a``; users in the same state move together by binomial draws. ``O(N w²)``.
    """
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    theta = _check_theta(model, theta)
    p = theta / model.w
    released = subset_release_probabilities(model, theta, eps)
    types = rng.multinomial(n_users, np.asarray(model.alpha))
    states = np.zeros(released.shape[1:], dtype=np.int64)
    for k in range(model.K):
        flat = released[k].ravel()
        draw = rng.multinomial(types[k], np.append(flat, max(0.0, 1.0 - flat.sum())))
        states += draw[:-1].reshape(states.shape)
    total = int(states.sum())  # users releasing S = 1
    scores = np.zeros(model.n_items, dtype=np.int64)
    for cluster in range(model.L):
        others = tuple(d for d in range(states.ndim) if d not in (2 * cluster, 2 * cluster + 1))
        items = np.flatnonzero(labels == cluster)
        in_a, sensed = _deal(states.sum(axis=others), items.size, rng)
        scores[items] = sensed + rng.binomial(total - in_a, p)
    return scores


#: Largest table, ``(w+1)^(2L+1)`` entries, that ``subset_release_probabilities`` builds (rated items so
#: far, then ``(a_l, m_l)`` per cluster); beyond it, use the per-user simulator.
SUBSET_STATES = 4_000_000


@functools.lru_cache(maxsize=32)
def subset_release_probabilities(model: BlockModel, theta: float, eps: float) -> NDArray[np.float64]:
    """``P[S = 1, state]`` of one user of each type in the ``w``-subset model, shape ``(K,) + (w+1,)*2L``.

    The state is ``(a_1, m_1, …, a_L, m_L)``: ``a_l`` rated and liked items of cluster ``l``, ``m_l`` of them
    sensed. The rated items' cluster counts ``w_l`` are multivariate hypergeometric, ``a_l ~
    Binomial(w_l, b_kl)``, ``m_l ~ Binomial(a_l, p)``, and ``S = 1`` with probability ``1 − f`` if some
    ``m_l > 0``, ``f`` otherwise.
    """
    w, sizes, p, f = model.w, model.sizes, theta / model.w, flip_prob(eps)
    if (w + 1) ** (2 * model.L + 1) > SUBSET_STATES:
        raise ParameterError(
            f"the aggregate w-subset simulator has too many states for w = {w} and L = {model.L}: "
            "use maxsense_scores_per_user(ratings='subset')"
        )
    r = np.arange(w + 1)
    out = []
    for like in model.like():
        joint = (r == 0).astype(float)  # over the rated items counted so far, then (a_l, m_l) per cluster
        for size, b in zip(sizes, like, strict=True):
            # per cluster: C(n_l, w_l) Binomial(a; w_l, b) Binomial(m; a, p), indexed [w_l, a, m]
            block = (
                np.exp(_log_comb(size, r) - _log_comb(model.n_items, w) / model.L)[:, None, None]
                * stats.binom.pmf(r[None, :, None], r[:, None, None], b)
                * stats.binom.pmf(r[None, None, :], r[None, :, None], p)
            )
            new = np.zeros((*joint.shape, w + 1, w + 1))
            for taken in range(w + 1):
                new[taken:] += joint[: w + 1 - taken, ..., None, None] * block[taken]
            joint = new
        sensed = sum(np.indices(joint.shape[1:])[1::2])  # Σ_l m_l
        out.append(joint[w] * np.where(sensed > 0, 1.0 - f, f))
    table = np.asarray(out)
    table.setflags(write=False)  # shared by every call (cached)
    return table


def _log_comb(n: int, k: NDArray[np.int64] | int) -> NDArray[np.float64]:
    """``log C(n, k)``, ``-inf`` where ``k > n``."""
    k = np.asarray(k)
    inside = k <= n
    kk = np.where(inside, k, 0)
    value = special.gammaln(n + 1) - special.gammaln(kk + 1) - special.gammaln(n - kk + 1)
    return np.where(inside, value, -np.inf)


def _deal(states: NDArray[np.int64], n_items: int, rng: np.random.Generator) -> tuple[NDArray, NDArray]:
    """Deal a cluster's ``n_items`` items to users in states ``(a, m)`` (counts ``states[a, m]``): per item,
    how many users have it in ``A``, and how many of those sensed it."""
    w = states.shape[0] - 1
    held, sensed_of = np.arange(w + 1)[:, None], np.arange(w + 1)[None, :]
    # r_m/r_a (states with r_m > r_a hold no user)
    sense = np.minimum(np.divide(sensed_of, held, out=np.zeros((w + 1, w + 1)), where=held > 0), 1.0)
    count = states.copy()
    in_a = np.zeros(n_items, dtype=np.int64)
    sensed = np.zeros(n_items, dtype=np.int64)
    for item in range(n_items):
        take = rng.binomial(count, np.minimum(held / (n_items - item), 1.0))
        hit = rng.binomial(take, sense)
        in_a[item], sensed[item] = take.sum(), hit.sum()
        count -= take
        count[:-1] += take[1:] - hit[1:]
        count[:-1, :-1] += hit[1:, 1:]
    return in_a, sensed


def _check_bits(model: BlockModel, theta: float, n_bits: int) -> int:
    blocks = math.floor(model.w / theta)
    if isinstance(n_bits, bool) or not isinstance(n_bits, (int, np.integer)) or not 1 <= n_bits <= blocks:
        raise ParameterError(f"n_bits (Q) must be an integer in [1, ⌊w/θ⌋ = {blocks}] (got {n_bits!r})")
    return int(n_bits)


def multi_maxsense_scores(
    model: BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0, n_bits: int = 1,
) -> NDArray[np.int64]:  # fmt: skip
    """Multi-MaxSense scores as the paper's analysis treats them: ``Q U`` independent users at ``ε/Q``.

    Exact only for one user type under the Bernoulli-rating model (note ``note-rec-multi-q``); see
    :func:`multi_maxsense_scores_per_user` for the scheme as Fig. 3 describes it.
    """
    n_bits = _check_bits(model, _check_theta(model, theta), n_bits)
    return maxsense_scores(model, labels, _check_users(n_users) * n_bits, eps / n_bits, rng, theta=theta)


def multi_maxsense_scores_per_user(
    model: BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0, n_bits: int = 1,
) -> NDArray[np.int64]:  # fmt: skip
    """Multi-MaxSense item scores as Fig. 3 describes the scheme, exact in distribution.

    Each user has one type ``k ~ α``, rates a uniform ``w``-subset of the items and likes each rated item
    of cluster ``l`` with probability ``b_kl``. A uniformly random permutation cuts the ``N`` items into
    ``m = ⌊w/θ⌋`` blocks (the block of rank ``r`` is ``⌊r m/N⌋``, so blocks hold ``⌊N/m⌋`` or ``⌈N/m⌉``
    items); ``Q`` of the blocks are chosen uniformly, each chosen block's bit is
    ``RR(1{the block holds a liked item}, ε/Q)``, and ``B_i`` counts the users for which item ``i`` lies in a
    chosen block released as 1.

    Parameters
    ----------
    model
        The block model (``α``, ``β``, ``b``, ``N``, ``w``).
    labels
        Cluster of every item, shape ``(N,)``.
    n_users
        Users ``U``.
    eps
        Each user's budget ``ε``; each bit is released at ``ε/Q``.
    rng
        Source of every draw; the same state gives the same scores.
    theta
        Sensing constant ``θ``: ``m = ⌊w/θ⌋`` blocks.
    n_bits
        Chosen blocks (bits) per user, ``Q`` in ``[1, m]``.

    Returns
    -------
    numpy.ndarray
        Scores ``B_i``, shape ``(N,)``.

    Notes
    -----
    The joint law of everything is unchanged by permuting items within a cluster, so one user's released
    items ``R_u`` (the union of the chosen blocks released as 1) are, given their counts ``r_l = |R_u ∩
    C_l|``, uniform ``r_l``-subsets of the clusters, independent across clusters and users. The simulator
    therefore draws, user by user, only the chosen blocks' contents, then deals each cluster's items to
    the users as :func:`maxsense_scores_subset` does (``_deal_subsets``).

    What it draws, for every user: its type and how many of its chosen blocks are large (hypergeometric);
    then the chosen blocks' items one at a time, large blocks first, each without replacement from the
    items not drawn yet: its cluster with probability ``(items of the cluster left)/(items left)`` and,
    with one more uniform, whether it is rated (``(ratings left)/(items left)``: the rated subset is
    uniform and independent of the clusters) and then liked (``b_kl``); then each block's bit. Two
    uniforms per item of a chosen block, at most ``Q⌈N/m⌉`` items, and one per bit: ``O(U Q N/m)``, against
    ``O(U N)`` for following every item of every user. Dealing costs ``O(N Q N/m)``, whatever ``U``.
    """
    n_users, labels = _check_users(n_users), _check_labels(model, labels)
    n_bits = _check_bits(model, _check_theta(model, theta), n_bits)
    blocks = math.floor(model.w / theta)
    small, large = divmod(model.n_items, blocks)  # `large` blocks of small + 1 items, the others of `small`
    most = n_bits * small + min(n_bits, large)  # the most items one user can release
    # how many of a user's Q chosen blocks hold small + 1 items: hypergeometric
    big = [math.comb(large, g) * math.comb(blocks - large, n_bits - g) for g in range(n_bits + 1)]
    big_p = np.array(big, dtype=float) / math.comb(blocks, n_bits)
    held = np.zeros((model.L, most + 1), dtype=np.int64)  # users releasing r items of cluster l
    for size in _chunks(n_users, 32 * model.L):
        like = model.like()[rng.choice(model.K, p=model.alpha, size=size)].T  # (L, U): each user's type
        n_big = rng.choice(n_bits + 1, p=big_p, size=size)
        released = _multi_released(model, like, n_big, small, n_bits, eps / n_bits, rng)
        for cluster, counts in enumerate(released):
            held[cluster] += np.bincount(counts, minlength=most + 1)
    scores = np.zeros(model.n_items, dtype=np.int64)
    for cluster in range(model.L):
        items = np.flatnonzero(labels == cluster)
        scores[items] = _deal_subsets(held[cluster], items.size, rng)
    return scores


def _multi_released(
    model: BlockModel, like: NDArray[np.float64], n_big: NDArray[np.int64], small: int, n_bits: int,
    eps: float, rng: np.random.Generator,
) -> NDArray[np.int64]:  # fmt: skip
    """Per user ``u`` (like probabilities ``like[:, u]`` per cluster, ``n_big[u]`` chosen blocks of
    ``small + 1`` items, the others of ``small``), the items of each cluster in its chosen blocks released as
    1 at ``eps``, shape ``(L, U)``. Each block's items are drawn one at a time by ``_draw_item``, large
    blocks first."""
    size, f = n_big.size, flip_prob(eps)
    left = np.repeat(model.sizes.astype(float)[:, None], size, axis=1)  # items of each cluster not drawn
    items_left = np.full(size, float(model.n_items))
    rated_left = np.full(size, float(model.w))  # ratings among the items not drawn
    released = np.zeros(left.shape, dtype=np.int64)
    for block in range(n_bits):
        start = left.copy()
        liked = np.zeros(size, dtype=bool)
        for slot in range(small + 1):
            active = None if slot < small else n_big > block  # the last slot: large blocks only
            if active is not None and not active.any():
                break
            liked |= _draw_item(left, items_left, rated_left, like, active, rng)
        bit = rng.random(size) < np.where(liked, 1.0 - f, f)
        released += ((start - left) * bit).astype(np.int64)
    return released


def _draw_item(
    left: NDArray[np.float64], items_left: NDArray[np.float64], rated_left: NDArray[np.float64],
    like: NDArray[np.float64], active: NDArray[np.bool_] | None, rng: np.random.Generator,
) -> NDArray[np.bool_]:  # fmt: skip
    """Draw one more item for every user (every ``active`` one), without replacement, and whether it is
    rated and liked; ``left`` (items of each cluster, shape ``(L, U)``), ``items_left`` and ``rated_left``
    (ratings among them) are updated in place.

    Its cluster is ``l`` with probability ``left[l]/items_left``; with a second uniform, it is rated with
    probability ``rated_left/items_left`` (the rated subset is uniform and independent of the clusters) and
    then liked with probability ``like[l]`` (``like``: shape ``(L, U)``, each user's).
    """
    size = items_left.size
    u = rng.random(size)
    u *= items_left
    cluster = np.zeros(size, dtype=np.intp)
    edge = np.zeros(size)
    for upper in left[:-1]:
        edge += upper
        cluster += u >= edge
    v = rng.random(size)
    v *= items_left
    liked = v < rated_left * np.take_along_axis(like, cluster[None], axis=0)[0]
    rated = v < rated_left
    taken: NDArray[np.bool_] | int = 1
    if active is not None:
        liked &= active
        rated &= active
        taken = active
    rated_left -= rated
    for c, row in enumerate(left):
        row -= (cluster == c) & taken
    items_left -= taken
    return liked


def _deal_subsets(held: NDArray[np.int64], n_items: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """Deal a cluster's ``n_items`` items to users each holding a uniform subset of them (``held[r]`` users
    hold ``r`` items): per item, how many users hold it. With ``R`` items left, a user holding ``r`` more
    has the next one with probability ``r/R``; users holding as many move together by binomial draws."""
    count = held.copy()
    more = np.arange(count.size)
    hits = np.zeros(n_items, dtype=np.int64)
    for item in range(n_items):
        some = np.flatnonzero(count)
        take = rng.binomial(count[some], np.minimum(more[some] / (n_items - item), 1.0))
        hits[item] = take.sum()
        count[some] -= take
        count[some[some > 0] - 1] += take[some > 0]
    return hits
