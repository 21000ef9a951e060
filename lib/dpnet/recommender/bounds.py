"""Closed-form lower bounds and mutual informations of paper 002, in nats unless stated.

The paper writes ``log`` for base 2 but its proofs use ``log x ≤ x − 1``, true only for ``ln``; every
information here is in nats. A sample-complexity lower bound follows from Fano's inequality: with
``Z`` uniform on ``{0,1}^N`` and ``U`` users each carrying at most ``I`` nats about it, the learner is
unreliable while ``U I < (N/2 − 1) ln 2`` (:func:`fano_users`; the book's note ``note-rec-thm33``).
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from dpnet.errors import ParameterError
from dpnet.recommender.ldp import check_eps, flip_prob

__all__ = [
    "adaptive_constant",
    "adaptive_lower_bound",
    "adaptive_lower_bound_asymptote",
    "adaptive_overtakes",
    "binary_entropy",
    "binomial_ratio",
    "fano_target",
    "fano_users",
    "lemma47_error",
    "lemma47_error_exact",
    "lemma64_bound",
    "lemma64_variance",
    "maxsense_sketch_information",
    "one_bit_information",
    "thm33_users",
    "thm43_bound",
    "thm48_information",
    "thm51_users",
    "thm410_information",
    "thm410_leading_term",
    "thmA5_users",
]


def _items(n: ArrayLike, minimum: int = 3) -> NDArray[np.float64]:
    # the closed forms extend to real N through the gamma function, which smooth curves use
    arr = np.asarray(n, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < minimum):
        raise ParameterError(f"N must be a number ≥ {minimum} (got {n!r})")
    return arr


def _finite_eps(eps: float) -> float:
    value = check_eps(eps)
    if math.isinf(value):
        raise ParameterError("the lower bounds need a finite eps")
    return value


def fano_target(n_items: ArrayLike) -> NDArray[np.float64] | float:
    """Information (nats) needed about ``Z ∈ {0,1}^N`` before ``P_e ≤ 1/2``: ``(N/2 − 1) ln 2``."""
    return (_items(n_items) / 2.0 - 1.0) * math.log(2.0)


def fano_users(n_items: ArrayLike, information: ArrayLike) -> NDArray[np.float64] | float:
    """Users below which every scheme is unreliable, when each user carries ``information`` nats."""
    return fano_target(n_items) / np.asarray(information, dtype=float)


def thm33_users(n_items: ArrayLike, eps: float, convention: str = "fano") -> NDArray[np.float64] | float:
    """Thm 3.3 (any ε-LDP scheme; Lemma 3.1: ``I ≤ ε`` nats).

    ``"paper"``: ``N ln 2/ε``; ``"fano"``: ``(N/2 − 1) ln 2/ε`` (note ``note-rec-thm33``).
    """
    eps = _finite_eps(eps)
    if convention == "paper":
        return _items(n_items) * math.log(2.0) / eps
    if convention == "fano":
        return fano_users(n_items, eps)
    raise ParameterError(f"convention must be 'paper' or 'fano' (got {convention!r})")


def thmA5_users(
    n_items: ArrayLike,
    eps: float,
    n_clusters: int = 2,
    tolerance: float = 0.0,
    p_max: float = 0.5,
    *,
    from_cor_a4: bool = False,
) -> NDArray[np.float64] | float:
    """Thm A.5 (distortion ``d = tolerance``): unreliable if ``U < (1 − p_max) N L (1 − d/N − 1/L)²/(3ε)``.

    With ``from_cor_a4``, the bound Cor A.4 actually gives, ``[(1 − p_max) N L (1 − d/N − 1/L)²/3 − 1]/ε``
    (at least 0): the theorem as printed drops Fano's ``+1`` of the corollary.
    """
    n = _items(n_items)
    spread = (1 - p_max) * n * n_clusters * (1 - tolerance / n - 1 / n_clusters) ** 2 / 3
    if from_cor_a4:
        spread = np.maximum(spread - 1, 0.0)
    return spread / _finite_eps(eps)


def _log_binomial_ratio(n_items: ArrayLike, w: ArrayLike, top_shift: int = 0) -> NDArray[np.float64]:
    # log C(N − w, w − s)/C(N, w) as a sum of log1p terms, without cancellation at large N:
    # C(N−w, w)/C(N, w) = Π_{j<w} (1 − w/(N − j)); with s = 1, the product to w − 1 times w/(N − w + 1);
    # −∞ (a ratio of 0) when N − w < w − s
    n, w = np.broadcast_arrays(np.asarray(n_items, dtype=float), np.asarray(w, dtype=float))
    if np.any(w < 1) or np.any(w != np.round(w)):
        raise ParameterError(f"w must be an integer ≥ 1 (got {w!r})")
    ok = n - w >= w - top_shift
    log = np.zeros(n.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(int(w.max()) - top_shift):
            log += np.where(ok & (j < w - top_shift), np.log1p(-w / (n - j)), 0.0)
        if top_shift:
            log += np.where(ok, np.log(w / (n - w + 1)), 0.0)
    return np.where(ok, log, -np.inf)


def binomial_ratio(n_items: ArrayLike, w: ArrayLike, top_shift: int = 0) -> NDArray[np.float64] | float:
    """``C(N − w, w − top_shift) / C(N, w)`` for integers ``w ≥ 1`` (0 when ``N − w < w − top_shift``)."""
    return np.exp(_log_binomial_ratio(n_items, w, top_shift))


def _one_minus_ratio(n_items: ArrayLike, w: ArrayLike) -> NDArray[np.float64]:
    return -np.expm1(_log_binomial_ratio(n_items, w))


def lemma47_error(n_items: ArrayLike, w: ArrayLike) -> NDArray[np.float64] | float:
    """Lemma 4.7: ``C(N − w, w)/C(N, w) − (1 − w²/N)`` (claimed Θ(w⁴/N²); exactly 0 at ``w = 1``)."""
    n, w = np.asarray(n_items, dtype=float), np.asarray(w, dtype=float)
    return w**2 / n - _one_minus_ratio(n, w)


def lemma47_error_exact(n_items: int, w: int) -> Fraction:
    """:func:`lemma47_error` in exact rational arithmetic (integers ``1 ≤ w ≤ N/2``)."""
    if not (isinstance(n_items, int) and isinstance(w, int) and 1 <= w and 2 * w <= n_items):
        raise ParameterError(f"need integers 1 ≤ w ≤ N/2 (got N={n_items!r}, w={w!r})")
    return Fraction(math.comb(n_items - w, w), math.comb(n_items, w)) - (1 - Fraction(w * w, n_items))


def thm48_information(n_items: ArrayLike, w: ArrayLike, eps: float) -> NDArray[np.float64] | float:
    """Thm 4.8's bound on one user's information (nats): ``e^{2ε}(Δ₁ + Δ₂)``.

    ``Δ₁ = w C(N−w, w−1)/(2 C(N, w))`` and ``Δ₂ = 1 − [C(N−w, w) + w C(N−w, w−1)]/C(N, w)``.
    """
    w = np.asarray(w, dtype=float)
    r1 = binomial_ratio(n_items, w, top_shift=1)
    return math.exp(2 * _finite_eps(eps)) * (_one_minus_ratio(n_items, w) - w * r1 / 2.0)


def thm410_information(n_items: ArrayLike, w: ArrayLike, eps: float) -> NDArray[np.float64] | float:
    """Thm 4.10's explicit bound (nats; meaningful for ``w³ ≪ N``, ``ε < ln 2``).

    ``2 ε'² w/N + e^{2ε}[1 + w²/N − (1 + 2w²/(N − 2w + 1)) C(N−w, w)/C(N, w)]`` with ``ε' = e^ε − 1``.
    """
    n, w, eps = np.asarray(n_items, dtype=float), np.asarray(w, dtype=float), _finite_eps(eps)
    mismatch = _one_minus_ratio(n, w) + w**2 / n - 2.0 * w**2 / (n - 2 * w + 1) * binomial_ratio(n, w)
    return thm410_leading_term(n, w, eps) + math.exp(2 * eps) * mismatch


def thm410_leading_term(n_items: ArrayLike, w: ArrayLike, eps: float) -> NDArray[np.float64] | float:
    """Thm 4.10's leading term ``2 ε'² w/N`` (``ε' = e^ε − 1``): the order of one sketch's information."""
    w, n = np.asarray(w, dtype=float), np.asarray(n_items, dtype=float)
    return 2.0 * math.expm1(_finite_eps(eps)) ** 2 * w / n


def adaptive_constant(eps: float) -> float:
    """The constant ``C = 40 ε'²`` of Thm 6.1's recursion (``ε' = e^ε − 1``)."""
    return 40.0 * math.expm1(_finite_eps(eps)) ** 2


def thm51_users(
    n_items: float, w: int, eps: float, delta: float, theta: float = 1.0, d: float = 0.0
) -> float:
    """The MaxSense proof's sufficient number of users: ``75 N² (ln 2 + (1 + d) ln N)/(θ w ε̂² δ²)``."""
    from dpnet.recommender.ldp import eps_hat

    return (
        75
        * n_items**2
        * (math.log(2) + (1 + d) * math.log(n_items))
        / (theta * w * eps_hat(eps) ** 2 * delta**2)
    )


def binary_entropy(p: ArrayLike) -> NDArray[np.float64]:
    """``h(p) = −p ln p − (1 − p) ln(1 − p)`` in nats (0 at the ends)."""
    p = np.asarray(p, dtype=float)
    return special.entr(p) + special.entr(1.0 - p)


def one_bit_information(n_items: int, query: ArrayLike) -> float:
    """Exact ``I(Z; S)`` (nats) of the 1-bit sketch ``S = 1_A(I, Z_I)``, ``w = 1`` (Thm 4.3), by enumeration.

    ``Z`` is uniform on ``{0,1}^N``, ``I`` uniform on ``[N]``; ``query`` is the ``N × 2`` boolean
    indicator of ``A ⊂ [N] × {0, 1}``. Enumerates the ``2^N`` values of ``Z`` (``N ≤ 16``).
    """
    a = np.asarray(query, dtype=bool)
    if a.shape != (n_items, 2) or not 1 <= n_items <= 16:
        raise ParameterError(f"query must be an (N, 2) boolean array with 1 ≤ N ≤ 16 (got shape {a.shape})")
    z = _all_bit_vectors(n_items)
    p1 = a[np.arange(n_items), z].mean(axis=1)  # P[S = 1 | Z]
    return float(binary_entropy(p1.mean()) - binary_entropy(p1).mean())


@functools.lru_cache(maxsize=4)
def _all_bit_vectors(n_items: int) -> NDArray[np.int64]:
    """The ``2^N`` vectors of ``{0,1}^N`` in lexicographic order, one per row (cached, read-only)."""
    z = np.array(list(itertools.product((0, 1), repeat=n_items)), dtype=np.int64)
    z.setflags(write=False)
    return z


def thm43_bound(n_items: int, query: ArrayLike) -> float:
    """Thm 4.3's bound ``|C₁|/(2N) (1/|A| + 1/(2N − |A|)) ≤ 1/N``; ``C₁``: items with one value in ``A``."""
    a = np.asarray(query, dtype=bool)
    size, c1 = int(a.sum()), int(np.sum(a.sum(axis=1) == 1))
    if size in (0, 2 * n_items):
        return 0.0
    return c1 / (2 * n_items) * (1 / size + 1 / (2 * n_items - size))


def maxsense_sketch_information(n_items: int, w: int, eps: float, theta: float = 1.0) -> float:
    """Exact ``I(Z; S | H)`` (nats) of one MaxSense sketch in the lower-bound model (the book's E2).

    ``Z`` uniform on ``{0,1}^N`` (item ``i`` liked iff ``Z_i = 1``), a uniform ``w``-subset rated,
    ``H`` public with ``h ~ Bin(N, θ/w)`` probed items of which ``m ~ Bin(h, 1/2)`` are liked:
    ``E_h[h_b(E_m g(m)) − E_m h_b(g(m))]`` with ``g(m) = f + (1 − 2f)(1 − C(N − m, w)/C(N, w))``.
    """
    if not (
        isinstance(n_items, (int, np.integer)) and isinstance(w, (int, np.integer)) and 1 <= w <= n_items
    ):
        raise ParameterError(f"need integers 1 ≤ w ≤ N (got N={n_items!r}, w={w!r})")
    if not 0 < theta <= w:
        raise ParameterError(f"theta must be in (0, w] (got {theta})")
    f = flip_prob(eps)
    lo, hi = (int(x) for x in stats.binom.ppf([1e-15, 1 - 1e-15], n_items, theta / w))
    hs = np.arange(max(lo - 1, 0), min(hi + 1, n_items) + 1)
    m = np.arange(hs.max() + 1)
    miss = np.exp(special.gammaln(n_items - m + 1) - special.gammaln(n_items - m - w + 1)
                  - special.gammaln(n_items + 1) + special.gammaln(n_items - w + 1))  # fmt: skip
    miss = np.where(n_items - m >= w, miss, 0.0)
    g = f + (1 - 2 * f) * (1 - miss)
    pm = stats.binom.pmf(m[None, :], hs[:, None], 0.5)
    per_h = binary_entropy(pm @ g) - pm @ binary_entropy(g)
    weights = stats.binom.pmf(hs, n_items, theta / w)
    return float(weights @ per_h / weights.sum())


def adaptive_lower_bound(n_items: float, eps: float) -> int:
    """Thm 6.1: first ``T`` with ``δ_T ≥ (N/2 − 1) ln 2``, ``δ_{T+1} = δ_T + (C/N) max(1, δ_T)``, ``δ₀ = 0``.

    ``C = 40 ε'²``, ``ε' = e^ε − 1`` (note ``note-rec-adaptive``). Solved in closed form: linear growth up to
    ``δ = 1``, geometric with ratio ``1 + C/N`` after.
    """
    n = float(_items(n_items))
    c = adaptive_constant(eps)
    step, target = c / n, float(fano_target(n))
    if target <= 0:
        return 0
    linear = math.ceil(1.0 / step - 1e-12)  # first T with δ_T = T C/N ≥ 1
    if target <= linear * step:
        return math.ceil(target / step - 1e-12)
    grown = math.ceil(math.log(target / (linear * step)) / math.log1p(step) - 1e-12)
    return linear + grown


def adaptive_lower_bound_asymptote(n_items: ArrayLike, eps: float) -> NDArray[np.float64] | float:
    """Large-N form of :func:`adaptive_lower_bound`: ``(N/C)(1 + ln(N ln 2/2))`` (``N/C`` steps to reach
    ``δ = 1``, then ``ln(target)/ln(1 + C/N) ≈ (N/C) ln(target)``), i.e. order ``N log N``."""
    n = _items(n_items)
    return n / adaptive_constant(eps) * (1.0 + np.log(n * math.log(2.0) / 2.0))


def adaptive_overtakes(eps: float, n_max: float = 1e30) -> float:
    """The smallest N at which Thm 6.1's adaptive bound exceeds Thm 3.3's ``(N/2 − 1) ln 2/ε``, which
    covers adaptive schemes too (Lemma 3.1 bounds every user's information, whatever she is asked).

    Thm 6.1's bound grows like ``(N/C)(1 + ln(N ln 2/2))`` with ``C = 40 ε'²``, Thm 3.3's like
    ``N ln 2/(2ε)``: the first overtakes the second only once ``ln(N ln 2/2) > C ln 2/(2ε) − 1``. Found by
    bisection over N on the exact recursion (:func:`adaptive_lower_bound`); ``inf`` if not below ``n_max``.
    """
    eps = _finite_eps(eps)

    def ahead(n: float) -> bool:
        return adaptive_lower_bound(n, eps) > float(thm33_users(n, eps))

    lo, hi = 4.0, 8.0
    while not ahead(hi):
        if hi >= n_max:
            return math.inf
        lo, hi = hi, min(hi * 8.0, n_max)
    while hi - lo > max(1.0, 1e-9 * hi):  # the recursion is exact in integers: bisect to one item
        mid = math.floor((lo + hi) / 2)
        lo, hi = (mid, hi) if not ahead(mid) else (lo, mid)
    return float(hi)


def lemma64_variance(values: ArrayLike, delta: float) -> float:
    """The largest ``E_p (F − F̄)²`` over distributions ``p`` of ``Z`` with ``D(p ‖ P⁰) ≤ δ`` (nats).

    ``values`` lists ``F(z)`` at every ``z`` of a uniform ``P⁰`` (``F̄`` their mean). This is the
    optimization problem of the proof of Lemma 6.4 (App. D, problem (27)), solved exactly: the optimum
    is the tilted law ``p ∝ e^{ν (F − F̄)²}`` whose divergence is ``δ`` (bisection on ``ν``), or the
    uniform law on the largest values of ``(F − F̄)²`` once ``δ`` reaches its divergence. Since
    ``Var^T[F] ≤ E^T (F − F̄)²``, this bounds the variance Lemma 6.4 controls.
    """
    f = np.asarray(values, dtype=float).ravel()
    if f.size < 2 or not np.all(np.isfinite(f)) or not (delta >= 0):
        raise ParameterError("need two or more finite values and δ ≥ 0")
    g = (f - f.mean()) ** 2
    top = g.max()
    if top <= 0:
        return 0.0
    if delta >= math.log(f.size / np.count_nonzero(g >= top * (1 - 1e-12))):
        return float(top)

    def tilted(nu: float) -> tuple[float, float]:
        logw = nu * (g - top)
        # weights below e^-700 are dropped: subnormal numbers make every operation on them crawl
        w = np.exp(logw, out=np.zeros_like(logw), where=logw > -700.0)
        z = w.sum()
        mean_g = float((w * g).sum() / z)  # not a BLAS dot: its threads crawl on a busy machine
        divergence = nu * (mean_g - top) - math.log(z / f.size)  # KL(p_ν ‖ uniform)
        return divergence, mean_g

    lo, hi = 0.0, 1.0 / top
    while tilted(hi)[0] < delta:
        lo, hi = hi, hi * 2.0
    for _ in range(64):  # 2^-64 of the bracket: below double precision
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if tilted(mid)[0] < delta else (lo, mid)
    return tilted(hi)[1]


def lemma64_bound(variance0: float, delta: float) -> float:
    """Lemma 6.4's bound ``Var⁰[F] max{20, 10δ}`` on the variance of F after the information ``δ``."""
    return float(variance0) * max(20.0, 10.0 * float(delta))
