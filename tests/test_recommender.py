"""Private item clustering in untrusted recommenders (paper 002): the private bit,
the block model and MaxSense's closed forms, the simulators against exact laws, the server's clustering,
the lower bounds and mutual informations, the 1-bit toy schemes and the success curves.

Every reference value is computed here, independently of the library (enumeration, exact rationals or
a formula written out again). Monte Carlo tolerances are a stated number of standard errors (SE)
computed from the number of draws; the book's own ranges (``note-rec-tolerances``) are checked as well where
it fixes one.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from dpnet.errors import ParameterError
from dpnet.recommender import (
    SCHEMES,
    SKETCHES,
    BlockModel,
    Setting,
    adaptive_curves,
    adaptive_lower_bound,
    approximate_u90,
    binomial_ratio,
    check_eps,
    crossing,
    delta_min,
    eps_hat,
    fano_target,
    fano_users,
    flip_prob,
    item_labels,
    kmeans,
    kmeans_1d,
    lemma47_error,
    likelihood_ratio,
    m_asym,
    m_sym,
    maxsense_means,
    maxsense_scores,
    maxsense_scores_per_user,
    maxsense_scores_subset,
    maxsense_sketch_information,
    misclassified,
    multi_maxsense_scores,
    multi_maxsense_scores_per_user,
    one_bit_information,
    pairwise_matrix,
    pairwise_matrix_per_user,
    predicted_grid,
    predicted_success,
    predicted_u,
    recover,
    rr_bits,
    spectral_labels,
    success_curves,
    thm33_users,
    thm43_bound,
    thm48_information,
    thm410_information,
    thresholds,
    total_budget,
    users_needed,
)
from dpnet.recommender.simulate import subset_release_probabilities
from dpnet.sweep import Stream

EPS_MACH = float(np.finfo(float).eps)

# --------------------------------------------------------------------------------------------------
# independent reference formulas
# --------------------------------------------------------------------------------------------------


def flip(eps: float) -> float:
    """RR flip probability 1/(1 + e^ε), written out (0 at ε = ∞)."""
    return 0.0 if math.isinf(eps) else 1.0 / (1.0 + math.exp(eps))


def h_nats(x: float) -> float:
    """Binary entropy in nats, with 0 ln 0 = 0."""
    return -sum(t * math.log(t) for t in (x, 1.0 - x) if t > 0.0)


def bernoulli_moments(
    alpha: tuple[float, ...], b: np.ndarray, labels: np.ndarray, w: int, eps: float, theta: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per-user ``E[X_i]`` and ``E[X_i X_j]`` of ``X_i = H_i S`` under the Bernoulli-rating model.

    Item ``j`` is sensed with probability ``p = θ/w`` and, independently, rated-and-liked with
    probability ``a_j = ρ b_{k l(j)}``. Given ``H_i = 1`` (and ``H_j = 1``), ``S₀ = 0`` iff the sensed
    items are not liked and no other item is both sensed and liked.
    """
    b = np.asarray(b, dtype=float)
    n = labels.size
    p, rho, f = theta / w, w / n, flip(eps)
    mean, second = np.zeros(n), np.zeros((n, n))
    for k, weight in enumerate(alpha):
        a = rho * b[k, labels]
        miss = 1.0 - p * a  # item not (sensed and liked)
        everything = np.prod(miss)
        none_i = (1 - a) * everything / miss
        none_ij = np.outer(1 - a, 1 - a) * everything / np.outer(miss, miss)
        mean += weight * p * (f + (1 - 2 * f) * (1 - none_i))
        second += weight * p * p * (f + (1 - 2 * f) * (1 - none_ij))
    np.fill_diagonal(second, mean)
    return mean, second


def no_positive(counts: list[int], draws: int, survive: list[float]) -> float:
    """``E[Π_l survive_l^{c_l}]`` for ``c`` the cluster counts of a uniform ``draws``-subset of a
    population with ``counts[l]`` items in cluster ``l`` (multivariate hypergeometric)."""
    total = 0.0
    for comp in itertools.product(*(range(min(c, draws) + 1) for c in counts)):
        if sum(comp) != draws:
            continue
        ways = math.prod(math.comb(c, x) for c, x in zip(counts, comp, strict=True))
        total += ways * math.prod(s**x for s, x in zip(survive, comp, strict=True))
    return total / math.comb(sum(counts), draws)


def subset_means(
    alpha: tuple[float, ...], b: list[list[float]], sizes: list[int], w: int, eps: float, theta: float
) -> np.ndarray:
    """``E[H_i S]`` per cluster in the exact ``w``-subset model of §2.1 (every user rates ``w`` items)."""
    n, p, f = sum(sizes), theta / w, flip(eps)
    out = []
    for lab in range(len(sizes)):
        others = [c - (l2 == lab) for l2, c in enumerate(sizes)]
        mu = 0.0
        for k, weight in enumerate(alpha):
            survive = [1.0 - p * b[k][l2] for l2 in range(len(sizes))]
            rated = (1 - b[k][lab]) * no_positive(others, w - 1, survive)  # i ∈ W, sensed, not liked
            unrated = no_positive(others, w, survive)
            none = w / n * rated + (1 - w / n) * unrated
            mu += weight * p * (f + (1 - 2 * f) * (1 - none))
        out.append(mu)
    return np.array(out)


def multi_block_means(
    alpha: tuple[float, ...], b: list[list[float]], sizes: list[int], w: int, eps: float, theta: float, q: int
) -> np.ndarray:
    """``E[B_i]/U`` per cluster for Multi-MaxSense as Fig. 3 describes it, computed exactly.

    Ranks of a uniform permutation are cut into ``m = ⌊w/θ⌋`` blocks (``block = ⌊rank·m/N⌋``), ``Q`` of
    them chosen; ``W`` is an independent uniform ``w``-subset; each bit is released at ``ε/Q``.
    """
    n, m, f = sum(sizes), math.floor(w / theta), flip(eps / q)
    block_sizes = np.bincount(np.arange(n) * m // n, minlength=m)
    out = []
    for lab in range(len(sizes)):
        others = [c - (l2 == lab) for l2, c in enumerate(sizes)]
        mu = 0.0
        for s in block_sizes:
            # P[no rated-and-liked item in a probe of size s containing item i]
            none = 0.0
            for comp in itertools.product(*(range(min(c, s - 1) + 1) for c in others)):
                if sum(comp) != s - 1:
                    continue
                p_comp = math.prod(math.comb(c, x) for c, x in zip(others, comp, strict=True)) / math.comb(
                    n - 1, s - 1
                )
                probe = [x + (l2 == lab) for l2, x in enumerate(comp)]
                for k, weight in enumerate(alpha):
                    miss = 0.0
                    for rated in itertools.product(*(range(a + 1) for a in probe)):
                        if sum(rated) > w:
                            continue
                        ways = math.prod(math.comb(a, r) for a, r in zip(probe, rated, strict=True))
                        ways *= math.comb(n - s, w - sum(rated))
                        miss += ways * math.prod((1 - b[k][l2]) ** r for l2, r in enumerate(rated))
                    none += weight * p_comp * miss / math.comb(n, w)
            mu += s / n * q / m * (f + (1 - 2 * f) * (1 - none))
        out.append(mu)
    return np.array(out)


def cluster_sums(scores: np.ndarray, labels: np.ndarray, n_clusters: int) -> np.ndarray:
    """``T_l = Σ_{i ∈ l} B_i`` for every draw (rows) and cluster (columns)."""
    return np.stack([scores[..., labels == lab].sum(axis=-1) for lab in range(n_clusters)], axis=-1)


def pair_q(
    alpha: tuple[float, ...], b: np.ndarray, n: int, w: int, sketch: str, support_known: bool
) -> np.ndarray:
    """``P[S₀ = 1]`` for a pair of clusters ``(l, l')``, by enumerating rated and liked states.

    The sketches are the paper's three definitions (``note-rec-pp-sketch``).
    """
    if support_known:
        rated_states = {(1, 1): 1.0}
    else:
        both = w * (w - 1) / (n * (n - 1))
        one = w / n - both
        rated_states = {(1, 1): both, (1, 0): one, (0, 1): one, (0, 0): 1 - 2 * w / n + both}
    n_clusters = b.shape[1]
    q = np.zeros((n_clusters, n_clusters))
    for la, lb in itertools.product(range(n_clusters), repeat=2):
        for k, weight in enumerate(alpha):
            for (ri, rj), pr in rated_states.items():
                for li, lj in itertools.product((0, 1), repeat=2):
                    pl = (b[k, la] if li else 1 - b[k, la]) * (b[k, lb] if lj else 1 - b[k, lb])
                    if sketch == "agree":
                        s0 = (ri and li) == (rj and lj)
                    elif sketch == "both_like":
                        s0 = ri and li and rj and lj
                    else:
                        s0 = ri and rj and li == lj
                    q[la, lb] += weight * pr * pl * bool(s0)
    return q


# --------------------------------------------------------------------------------------------------
# ldp: the private bit (Prop. 2.4, Alg. 0) and composition
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_flip_prob_eps_hat_likelihood_ratio_exact(eps: float) -> None:
    """f = 1/(1 + e^ε), ε̂ = 2(e^ε − 1)/(e^ε + 1) = 1 − 2f (× 2), likelihood ratio e^ε (§2.3)."""
    f = 1.0 / (1.0 + math.exp(eps))
    assert flip_prob(eps) == pytest.approx(f, rel=1e-14)
    assert eps_hat(eps) == pytest.approx(2 * math.expm1(eps) / (math.expm1(eps) + 2), rel=1e-14)
    assert flip_prob(eps) == pytest.approx(0.5 - eps_hat(eps) / 4, rel=1e-13)
    assert likelihood_ratio(eps) == pytest.approx(math.exp(eps), rel=1e-12)


def test_eps_infinity_and_limits() -> None:
    """ε = ∞ is the non-private limit: no flips, ε̂ = 2, infinite likelihood ratio; ε̂ ≈ ε for small ε."""
    assert flip_prob(math.inf) == 0.0
    assert eps_hat(math.inf) == 2.0
    assert likelihood_ratio(math.inf) == math.inf
    grid = [1e-6, 0.01, 0.1, 1.0, 3.0, 10.0, 40.0]
    values = [eps_hat(e) for e in grid]
    assert all(x < y for x, y in itertools.pairwise(values)) and values[-1] <= 2.0
    assert 2.0 - eps_hat(40.0) < 1e-15 + 4 * math.exp(-40.0)
    assert eps_hat(1e-6) == pytest.approx(1e-6, rel=1e-12)
    bits = np.random.default_rng(0).integers(0, 2, size=10_000).astype(bool)
    np.testing.assert_array_equal(rr_bits(bits, math.inf, np.random.default_rng(1)), bits)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_rr_bits_keep_rate(eps: float) -> None:
    """1e6 releases keep their bit at rate e^ε/(1 + e^ε), within 4 SE and the book's ±0.002."""
    n = 1_000_000
    bits = np.arange(n) % 2  # half zeros, half ones
    out = rr_bits(bits, eps, np.random.default_rng(42))
    assert out.dtype == bool and out.shape == bits.shape
    keep = math.exp(eps) / (1 + math.exp(eps))
    kept = out == bits.astype(bool)
    se = math.sqrt(keep * (1 - keep) / n)
    assert abs(kept.mean() - keep) <= 4 * se
    assert abs(kept.mean() - keep) <= 0.002
    for value in (0, 1):  # each input value is kept at the same rate
        half = kept[bits == value]
        assert abs(half.mean() - keep) <= 4 * math.sqrt(keep * (1 - keep) / half.size)


def test_rr_bits_rejects_non_binary_input() -> None:
    with pytest.raises(ParameterError, match="only 0 and 1"):
        rr_bits(np.array([0, 1, 2]), 1.0, np.random.default_rng(0))
    with pytest.raises(ParameterError, match="only 0 and 1"):
        rr_bits(np.array([0, 1, 2]), math.inf, np.random.default_rng(0))


@pytest.mark.parametrize("eps", [0.3, 1.0, 3.0, math.inf])
def test_total_budget_composition(eps: float) -> None:
    """PP and MaxSense release one bit at ε; Multi-MaxSense Q bits at ε/Q, summing to ε."""
    assert total_budget("pairwise", eps) == eps
    assert total_budget("maxsense", eps) == eps
    for q in (1, 2, 3, 7, 10):
        assert total_budget("multi-maxsense", eps, n_bits=q) == pytest.approx(eps, rel=1e-15)
    with pytest.raises(ParameterError, match="one bit"):
        total_budget("pairwise", eps, n_bits=2)
    with pytest.raises(ParameterError, match="n_bits"):
        total_budget("multi-maxsense", eps, n_bits=0)
    with pytest.raises(ParameterError, match="unknown algorithm"):
        total_budget("laplace", eps)


@pytest.mark.parametrize("bad", [0, 0.0, -1, math.nan, -math.inf, "a", True, None])
def test_bad_eps_raise(bad: object) -> None:
    for call in (check_eps, flip_prob, eps_hat, likelihood_ratio, lambda e: total_budget("maxsense", e)):
        with pytest.raises(ParameterError, match="eps must be a number"):
            call(bad)  # type: ignore[operator]
    with pytest.raises(ParameterError, match="eps must be a number"):
        rr_bits(np.array([0, 1]), bad, np.random.default_rng(0))  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# model: block model, separability, MaxSense closed forms
# --------------------------------------------------------------------------------------------------


def test_delta_min_asym_and_sym() -> None:
    """M-asym at θ = 1: 0.8 e^{−1/2} = 0.4852 ± 1e-4; M-sym: exactly 0 at every θ."""
    assert delta_min(m_asym(100, 10), 1.0) == pytest.approx(0.4852, abs=1e-4)
    assert delta_min(m_asym(100, 10), 1.0) == pytest.approx(0.8 * math.exp(-0.5), rel=1e-14)
    assert delta_min(m_asym(100, 10), 2.0) == pytest.approx(0.8 * math.exp(-1.0), rel=1e-14)
    for theta in (0.25, 1.0, 3.0):
        assert delta_min(m_sym(100, 10), theta) == 0.0


def test_delta_min_general_formula() -> None:
    """min_{l<l'} |Σ_k α_k e^{−θ v_k}(b_kl − b_kl')| with v_k = Σ_l β_l b_kl, written as a plain loop."""
    alpha, beta = (0.2, 0.5, 0.3), (0.25, 0.25, 0.5)
    b = ((0.9, 0.4, 0.1), (0.3, 0.8, 0.2), (0.5, 0.5, 0.7))
    model = BlockModel(alpha, beta, b, 40, 8)
    for theta in (0.5, 1.0, 2.0):
        v = [sum(beta[lab] * b[k][lab] for lab in range(3)) for k in range(3)]
        gaps = [
            abs(sum(alpha[k] * math.exp(-theta * v[k]) * (b[k][la] - b[k][lb]) for k in range(3)))
            for la, lb in itertools.combinations(range(3), 2)
        ]
        assert delta_min(model, theta) == pytest.approx(min(gaps), rel=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": (0.5, 0.6)}, "alpha must be positive fractions summing to 1"),
        ({"alpha": (1.2, -0.2)}, "alpha must be positive"),
        ({"beta": (0.4, 0.4)}, "beta must be positive fractions summing to 1"),
        ({"b": ((0.9, 0.1),)}, r"b must have shape \(K, L\) = \(2, 2\)"),
        ({"b": ((0.9, 0.1, 0.5), (0.1, 0.9, 0.5))}, "b must have shape"),
        ({"b": ((1.1, 0.1), (0.1, 0.9))}, r"must lie in \[0, 1\]"),
        ({"b": ((0.9, -0.1), (0.1, 0.9))}, r"must lie in \[0, 1\]"),
        ({"w": 11}, "w .ratings per user. must be an integer in"),
        ({"w": 0}, "w .ratings per user. must be an integer in"),
        ({"w": 2.0}, "w .ratings per user. must be an integer in"),
        ({"n_items": 1, "w": 1}, "n_items must be an integer"),
        ({"beta": (0.25, 0.75)}, "beta × N must be whole cluster sizes"),
        ({"beta": (1 / 3, 2 / 3)}, "beta × N must be whole cluster sizes"),
    ],
)
def test_block_model_validation(kwargs: dict, match: str) -> None:
    base = {"alpha": (0.5, 0.5), "beta": (0.5, 0.5), "b": ((0.9, 0.1), (0.1, 0.9)), "n_items": 10, "w": 5}
    base.update(kwargs)
    with pytest.raises(ParameterError, match=match):
        BlockModel(**base)


def test_block_model_rejects_fractional_sizes_at_large_n() -> None:
    """β·N = (333333.4, 333333.4, 333333.2) is not a whole-size partition of N = 10⁶."""
    with pytest.raises(ParameterError, match="whole cluster sizes"):
        BlockModel((1.0,), (0.3333334, 0.3333334, 0.3333332), ((0.9, 0.5, 0.1),), 1_000_000, 10)


def test_item_labels_exact_cluster_sizes() -> None:
    model = BlockModel((1.0,), (0.2, 0.3, 0.5), ((0.9, 0.5, 0.1),), 50, 5)
    first = item_labels(model, np.random.default_rng(3))
    assert first.shape == (50,)
    np.testing.assert_array_equal(np.bincount(first, minlength=3), [10, 15, 25])
    np.testing.assert_array_equal(model.sizes, [10, 15, 25])
    other = item_labels(model, np.random.default_rng(4))
    np.testing.assert_array_equal(np.bincount(other, minlength=3), [10, 15, 25])
    assert not np.array_equal(first, other)  # random order
    np.testing.assert_array_equal(first, item_labels(model, np.random.default_rng(3)))


def brute_force_moments(
    alpha: tuple[float, ...], b: np.ndarray, labels: np.ndarray, w: int, eps: float, theta: float
) -> tuple[np.ndarray, np.ndarray]:
    """``E[H_i S]`` and ``E[H_i H_j S]`` by summing over every type, sensing, rating and liking pattern."""
    n = labels.size
    p, rho, f = theta / w, w / n, flip(eps)
    mean, second = np.zeros(n), np.zeros((n, n))
    for k, weight in enumerate(alpha):
        for h in itertools.product((0, 1), repeat=n):
            ph = math.prod(p if x else 1 - p for x in h)
            for r in itertools.product((0, 1), repeat=n):
                pr = math.prod(rho if x else 1 - rho for x in r)
                for lk in itertools.product((0, 1), repeat=n):
                    pl = math.prod(b[k, labels[i]] if lk[i] else 1 - b[k, labels[i]] for i in range(n))
                    s0 = any(h[i] and r[i] and lk[i] for i in range(n))
                    ps = f + (1 - 2 * f) * s0
                    hv = np.array(h, dtype=float)
                    mean += weight * ph * pr * pl * ps * hv
                    second += weight * ph * pr * pl * ps * np.outer(hv, hv)
    return mean, second


@pytest.mark.parametrize(("eps", "theta"), [(0.5, 1.0), (2.0, 2.0), (math.inf, 1.5)])
def test_maxsense_means_against_enumeration(eps: float, theta: float) -> None:
    """N = 4, w = 2, K = 2 types: μ_l = P[H_i = 1, S = 1] summed over all 2^4 × 2^4 × 2^4 patterns."""
    alpha, b = (0.3, 0.7), np.array([[0.9, 0.2], [0.4, 0.7]])
    model = BlockModel(alpha, (0.25, 0.75), tuple(map(tuple, b)), 4, 2)
    labels = np.array([0, 1, 1, 1])
    mean, second = brute_force_moments(alpha, b, labels, 2, eps, theta)
    mu = maxsense_means(model, eps, theta)
    np.testing.assert_allclose(mu[labels], mean, rtol=1e-12)
    # the helper used below for larger models agrees with the enumeration, second moments included
    m2, s2 = bernoulli_moments(alpha, b, labels, 2, eps, theta)
    np.testing.assert_allclose(m2, mean, rtol=1e-12)
    np.testing.assert_allclose(s2, second, rtol=1e-12)


def test_maxsense_means_closed_form_m_asym() -> None:
    """μ_l = p[f + (ε̂/2) π_l], π_l = 1 − (1 − ρ b_l) Q/(1 − pρ b_l), Q = Π_l (1 − pρ b_l)^{N/2}."""
    n, w, eps = 100, 10, 1.0
    p, rho, f = 1 / w, w / n, flip(eps)
    big_q = (1 - p * rho * 0.9) ** 50 * (1 - p * rho * 0.1) ** 50
    expected = [
        p * (f + (1 - 2 * f) * (1 - (1 - rho * bl) * big_q / (1 - p * rho * bl))) for bl in (0.9, 0.1)
    ]
    np.testing.assert_allclose(maxsense_means(m_asym(n, w), eps), expected, rtol=1e-12)
    with pytest.raises(ParameterError, match="theta"):
        maxsense_means(m_asym(n, w), eps, theta=11)
    with pytest.raises(ParameterError, match="theta"):
        maxsense_means(m_asym(n, w), eps, theta=0)


@pytest.mark.parametrize(
    ("n", "w", "eps", "theta"), [(100, 10, 1.0, 1.0), (50, 5, math.inf, 0.5), (200, 20, 0.5, 2.0)]
)
def test_predicted_u_closed_form(n: int, w: int, eps: float, theta: float) -> None:
    """U_90,pred = [Φ⁻¹(0.9^{1/N})(σ₁ + σ₂)/(μ₁ − μ₂)]² and Φ(x)^N = 0.9 there (``note-rec-gaussian``)."""
    model = m_asym(n, w)
    mu, _ = bernoulli_moments((1.0,), np.array([[0.9, 0.1]]), np.repeat([0, 1], n // 2), w, eps, theta)
    m1, m2 = mu[0], mu[-1]
    s1, s2 = math.sqrt(m1 * (1 - m1)), math.sqrt(m2 * (1 - m2))
    x = stats.norm.ppf(0.9 ** (1 / n))
    expected = (x * (s1 + s2) / (m1 - m2)) ** 2
    u90 = predicted_u(model, eps, theta=theta)
    assert u90 == pytest.approx(expected, rel=1e-10)
    assert predicted_success(model, eps, u90, theta=theta) == pytest.approx(0.9, rel=1e-10)
    z = math.sqrt(u90 / 4) * (m1 - m2) / (s1 + s2)
    assert predicted_success(model, eps, u90 / 4, theta=theta) == pytest.approx(
        stats.norm.cdf(z) ** n, rel=1e-10
    )
    # Multi-MaxSense: Q U users at ε/Q
    q = 2
    mu_q, _ = bernoulli_moments((1.0,), np.array([[0.9, 0.1]]), np.repeat([0, 1], n // 2), w, eps / q, theta)
    sq = math.sqrt(mu_q[0] * (1 - mu_q[0])) + math.sqrt(mu_q[-1] * (1 - mu_q[-1]))
    assert predicted_u(model, eps, theta=theta, n_bits=q) == pytest.approx(
        (x * sq / (mu_q[0] - mu_q[-1])) ** 2 / q, rel=1e-10
    )


def test_predicted_success_three_clusters() -> None:
    """L = 3: the middle cluster is right w.p. Φ(z₁) + Φ(z₂) − 1, the outer ones w.p. Φ(z); 0.9 at U_90."""
    model = BlockModel((1.0,), (0.25, 0.25, 0.5), ((0.9, 0.5, 0.1),), 40, 8)
    mu = np.sort(maxsense_means(model, 2.0))  # ascending: clusters 2, 1, 0 (sizes 20, 10, 10)
    s = np.sqrt(mu * (1 - mu))
    u = 3e4
    z = math.sqrt(u) * np.diff(mu) / (s[1:] + s[:-1])
    expected = stats.norm.cdf(z[0]) ** 20 * (stats.norm.cdf(z[0]) + stats.norm.cdf(z[1]) - 1) ** 10
    expected *= stats.norm.cdf(z[1]) ** 10
    assert predicted_success(model, 2.0, u) == pytest.approx(expected, rel=1e-10)
    u90 = predicted_u(model, 2.0)
    assert predicted_success(model, 2.0, u90) == pytest.approx(0.9, abs=1e-8)


def test_predicted_u_infinite_for_symmetric_model() -> None:
    assert predicted_u(m_sym(100, 10), 1.0) == math.inf
    assert predicted_u(m_sym(100, 10), math.inf) == math.inf
    assert predicted_success(m_sym(100, 10), 1.0, 1e9) == 0.0
    for level in (0.0, 1.0, 1.5):
        with pytest.raises(ParameterError, match="level"):
            predicted_u(m_asym(100, 10), 1.0, level=level)


# --------------------------------------------------------------------------------------------------
# simulate: MaxSense scores against their exact law
# --------------------------------------------------------------------------------------------------

K2_ALPHA = (0.3, 0.7)
K2_B = np.array([[0.9, 0.5, 0.1], [0.2, 0.6, 0.3]])
K2_MODEL = BlockModel(K2_ALPHA, (0.25, 0.25, 0.5), tuple(map(tuple, K2_B)), 40, 8)
K2_LABELS = np.repeat([0, 1, 2], [10, 10, 20])[np.random.default_rng(7).permutation(40)]


@pytest.mark.parametrize(
    ("model", "alpha", "b", "labels", "n_users", "eps", "theta", "draws"),
    [
        (K2_MODEL, K2_ALPHA, K2_B, K2_LABELS, 1_000_000, 1.0, 1.5, 3000),
        (m_asym(100, 10), (1.0,), np.array([[0.9, 0.1]]), np.repeat([0, 1], 50), 400_000, 1.0, 1.0, 2000),
    ],
    ids=["K2-L3", "M-asym"],
)
def test_maxsense_scores_exact_binomial_law(
    model: BlockModel,
    alpha: tuple[float, ...],
    b: np.ndarray,
    labels: np.ndarray,
    n_users: int,
    eps: float,
    theta: float,
    draws: int,
) -> None:
    """Aggregate draws: each B_i ~ Binomial(U, μ_i), and the cluster sums T_l have variance
    U·1ᵀΣ1 with Σ the exact per-user covariance of (H_i S)_i.

    Means within 4 SE = 4 sqrt(Var/R) (per item 4.5 SE, Bonferroni over ≤ 100 items); sample variances
    within 4 SE = 4 Var sqrt(2/(R − 1)) (normal theory; U ≥ 4e5 makes T_l's excess kurtosis negligible).
    """
    mean, second = bernoulli_moments(alpha, b, labels, model.w, eps, theta)
    cov = second - np.outer(mean, mean)
    np.testing.assert_allclose(maxsense_means(model, eps, theta)[labels], mean, rtol=1e-12)
    rng = np.random.default_rng(2024)
    scores = np.stack([maxsense_scores(model, labels, n_users, eps, rng, theta=theta) for _ in range(draws)])
    assert scores.dtype.kind == "i" and scores.shape == (draws, labels.size)
    # per item mean
    z_item = (scores.mean(axis=0) - n_users * mean) / np.sqrt(n_users * np.diag(cov) / draws)
    assert np.max(np.abs(z_item)) <= 4.5
    # cluster sums and grand total: mean and variance, covariances included
    groups = [labels == lab for lab in range(model.L)] + [np.ones(labels.size, dtype=bool)]
    for g in groups:
        t = scores[:, g].sum(axis=1)
        var = n_users * cov[np.ix_(g, g)].sum()
        assert abs(t.mean() - n_users * mean[g].sum()) <= 4 * math.sqrt(var / draws)
        assert abs(t.var(ddof=1) / var - 1) <= 4 * math.sqrt(2 / (draws - 1))
    # the per-item variance, averaged over items: Var of the average of sample variances is
    # (2/(R − 1)) Σ_ij (U Σ_ij)² / n² under normal theory
    avg_var = scores.var(axis=0, ddof=1).mean()
    target = n_users * np.diag(cov).mean()
    se = math.sqrt(2 / (draws - 1) * np.sum((n_users * cov) ** 2)) / labels.size
    assert abs(avg_var - target) <= 4 * se


def test_maxsense_aggregate_vs_per_user_small_u() -> None:
    """U = 2000: per-cluster means of the aggregate and the per-user Bernoulli simulator agree with each
    other (two-sample, 4 SE with SE = sqrt(2 Var(T_l)/R)) and with the exact mean (4 SE)."""
    n_users, eps, theta, draws = 2000, 1.0, 1.5, 300
    mean, second = bernoulli_moments(K2_ALPHA, K2_B, K2_LABELS, 8, eps, theta)
    cov = second - np.outer(mean, mean)
    rng_a, rng_p = np.random.default_rng(11), np.random.default_rng(12)
    agg = np.stack(
        [maxsense_scores(K2_MODEL, K2_LABELS, n_users, eps, rng_a, theta=theta) for _ in range(draws)]
    )
    per = np.stack(
        [
            maxsense_scores_per_user(
                K2_MODEL, K2_LABELS, n_users, eps, rng_p, theta=theta, ratings="bernoulli"
            )
            for _ in range(draws)
        ]
    )
    for lab in range(3):
        g = K2_LABELS == lab
        var = n_users * cov[np.ix_(g, g)].sum()
        ta, tp = agg[:, g].sum(axis=1), per[:, g].sum(axis=1)
        assert abs(ta.mean() - tp.mean()) <= 4 * math.sqrt(2 * var / draws)
        for t in (ta, tp):
            assert abs(t.mean() - n_users * mean[g].sum()) <= 4 * math.sqrt(var / draws)


def test_maxsense_closed_form_means_vs_simulators() -> None:
    """E4's test case (N = 200, w = 10, b = (.8, .2), one type, ε = 1, U = 4e5).

    Fast simulator, 5 runs: cluster means within 0.5% of the closed form (and within 4 SE from the exact
    variance). Exact w-subset simulator, one run: within 2% of the (Bernoulli-model) closed form and
    between-cluster gap within 15%; those are the book's allowances for the model difference, which the
    exact subset-model expectation computed here satisfies too.
    """
    n, w, eps, n_users = 200, 10, 1.0, 400_000
    b = np.array([[0.8, 0.2]])
    model = BlockModel((1.0,), (0.5, 0.5), ((0.8, 0.2),), n, w)
    labels = item_labels(model, np.random.default_rng(5))
    mean, second = bernoulli_moments((1.0,), b, labels, w, eps, 1.0)
    cov = second - np.outer(mean, mean)
    mu = np.array([mean[labels == 0][0], mean[labels == 1][0]])
    rng = np.random.default_rng(6)
    runs = np.stack([maxsense_scores(model, labels, n_users, eps, rng) for _ in range(5)])
    for lab in range(2):
        g = labels == lab
        cluster_mean = runs[:, g].mean()
        var_t = n_users * cov[np.ix_(g, g)].sum()
        assert abs(cluster_mean - n_users * mu[lab]) <= 4 * math.sqrt(var_t / 5) / g.sum()
        assert abs(cluster_mean / (n_users * mu[lab]) - 1) <= 0.005
    exact_subset = subset_means((1.0,), [[0.8, 0.2]], [100, 100], w, eps, 1.0)
    assert np.all(np.abs(exact_subset / mu - 1) <= 0.02)
    sub = maxsense_scores_per_user(model, labels, n_users, eps, np.random.default_rng(8), ratings="subset")
    means = np.array([sub[labels == lab].mean() for lab in range(2)]) / n_users
    assert np.all(np.abs(means / mu - 1) <= 0.02)
    assert abs((means[0] - means[1]) / (mu[0] - mu[1]) - 1) <= 0.15


SUBSET_SIMULATORS = {
    "per-user": functools.partial(maxsense_scores_per_user, ratings="subset"),
    "aggregate": maxsense_scores_subset,
}


@pytest.mark.parametrize("simulator", SUBSET_SIMULATORS)
def test_maxsense_subset_simulator_matches_exact_subset_model(simulator: str) -> None:
    """Exact w-subset model (N = 20, w = 4, θ = 2, K = 2), where the Bernoulli-rating means are ~5% off:
    cluster means of both w-subset simulators within 4.5 SE of the exact expectation (SE from 40
    independent runs, t₃₉), while the Bernoulli-model mean is at least 10 SE away, so the check tells the
    models apart."""
    alpha, b = (0.5, 0.5), [[0.8, 0.2], [0.6, 0.1]]
    model = BlockModel(alpha, (0.5, 0.5), ((0.8, 0.2), (0.6, 0.1)), 20, 4)
    labels = np.tile([0, 1], 10)
    n_users, eps, theta, draws = 20_000, 2.0, 2.0, 40
    exact = subset_means(alpha, b, [10, 10], 4, eps, theta)
    bern = maxsense_means(model, eps, theta)
    rng = np.random.default_rng(9)
    scores = SUBSET_SIMULATORS[simulator]
    runs = np.stack([scores(model, labels, n_users, eps, rng, theta=theta) for _ in range(draws)])
    for lab in range(2):
        t = runs[:, labels == lab].sum(axis=1) / n_users / 10
        se = t.std(ddof=1) / math.sqrt(draws)
        assert abs(t.mean() - exact[lab]) <= 4.5 * se
        assert abs(bern[lab] - exact[lab]) >= 10 * se


def rated_and_liked(model: BlockModel, labels: np.ndarray) -> Iterator[tuple[float, tuple, tuple]]:
    """One user's type, rated subset and likes in the w-subset model, each with its probability:
    ``(probability, rated items, liked flags)``."""
    b = model.like()
    for k, weight in enumerate(model.alpha):
        for rated in itertools.combinations(range(model.n_items), model.w):
            for liked in itertools.product((0, 1), repeat=model.w):
                p_like = math.prod(
                    b[k, labels[i]] if x else 1 - b[k, labels[i]] for i, x in zip(rated, liked, strict=True)
                )
                yield weight / math.comb(model.n_items, model.w) * p_like, rated, liked


def subset_score_law(model: BlockModel, labels: np.ndarray, eps: float, theta: float) -> dict[tuple, float]:
    """The exact law of one user's score vector ``(H_i S)_i`` in the w-subset model, by enumeration of
    the type, the rated subset, its likes, every sensing bit and the flip."""
    n, p, f = model.n_items, theta / model.w, flip(eps)
    law: dict[tuple, float] = collections.defaultdict(float)
    for p_user, rated, liked in rated_and_liked(model, labels):
        for sensed in itertools.product((0, 1), repeat=n):
            p_sense = math.prod(p if x else 1 - p for x in sensed)
            s0 = any(sensed[i] and x for i, x in zip(rated, liked, strict=True))
            for s, p_s in ((s0, 1 - f), (not s0, f)):
                law[tuple(x * int(s) for x in sensed)] += p_user * p_sense * p_s
    return law


@pytest.mark.parametrize("n_users", [1, 2])
def test_maxsense_subset_scores_follow_the_enumerated_law(n_users: int) -> None:
    """Score vectors of U = 1 and 2 users (N = 4, w = 2, two types, θ = 1.5, ε = 3, where the
    Bernoulli-rating law is 0.045 away in total variation): the frequencies of 8,000 draws of
    either w-subset simulator pass a χ² test (p > 10⁻³) against the law enumerated user by user (U = 2:
    its convolution); the Bernoulli-rating simulator fails the same test, so the test can fail."""
    model = BlockModel((0.6, 0.4), (0.5, 0.5), ((0.9, 0.2), (0.3, 0.7)), 4, 2)
    labels, eps, theta, draws = np.array([0, 1, 0, 1]), 3.0, 1.5, 8_000
    one = subset_score_law(model, labels, eps, theta)
    law = one if n_users == 1 else collections.defaultdict(float)
    if n_users == 2:
        for (a, pa), (c, pc) in itertools.product(one.items(), repeat=2):
            law[tuple(np.add(a, c))] += pa * pc
    keys = sorted(law)

    def p_value(scores) -> float:  # type: ignore[no-untyped-def]
        rng = np.random.default_rng(20)
        seen = collections.Counter(
            tuple(scores(model, labels, n_users, eps, rng, theta=theta)) for _ in range(draws)
        )
        assert set(seen) <= set(keys)
        observed = [seen[k] for k in keys]
        return float(stats.chisquare(observed, [law[k] * draws for k in keys]).pvalue)

    for simulator, scores in SUBSET_SIMULATORS.items():
        assert p_value(scores) > 1e-3, simulator
    assert p_value(maxsense_scores) < 1e-3


def test_subset_release_probabilities_sum_to_the_release_rate() -> None:
    """Σ over states of P[S = 1, state] is P[S = 1] = f + (1 − 2f) P[S₀ = 1], with P[S₀ = 0] from the
    hypergeometric count of rated items per cluster (:func:`no_positive`); states are read-only."""
    model = BlockModel((0.5, 0.5), (0.25, 0.75), ((0.8, 0.2), (0.6, 0.1)), 20, 5)
    eps, theta = 1.5, 2.0
    p, f = theta / model.w, flip(eps)
    table = subset_release_probabilities(model, theta, eps)
    assert table.shape == (2,) + (6,) * 4 and not table.flags.writeable
    for k in range(2):
        survive = [1 - p * model.b[k][c] for c in range(2)]
        silent = no_positive([5, 15], model.w, survive)
        assert table[k].sum() == pytest.approx(f + (1 - 2 * f) * (1 - silent), rel=1e-12)


def test_maxsense_scores_validation() -> None:
    model, labels, rng = m_asym(10, 4), np.repeat([0, 1], 5), np.random.default_rng(0)
    with pytest.raises(ParameterError, match="labels"):
        maxsense_scores(model, labels[:-1], 10, 1.0, rng)
    with pytest.raises(ParameterError, match="labels"):
        maxsense_scores(model, labels + 1, 10, 1.0, rng)
    with pytest.raises(ParameterError, match="n_users"):
        maxsense_scores(model, labels, -1, 1.0, rng)
    with pytest.raises(ParameterError, match="n_users"):
        maxsense_scores(model, labels, 10.5, 1.0, rng)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="theta"):
        maxsense_scores(model, labels, 10, 1.0, rng, theta=5)
    with pytest.raises(ParameterError, match="ratings"):
        maxsense_scores_per_user(model, labels, 10, 1.0, rng, ratings="exact")
    np.testing.assert_array_equal(maxsense_scores(model, labels, 0, 1.0, rng), np.zeros(10))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_maxsense_scores_full_sensing_and_certain_like() -> None:
    """θ = w = N: every item is sensed and rated; b = 1 on cluster 0, so S₀ = 1 for every user and, at
    ε = ∞, B_i = U for every item (the per-user simulator gives exactly that)."""
    model = BlockModel((1.0,), (0.5, 0.5), ((1.0, 0.5),), 4, 4)
    labels = np.array([0, 0, 1, 1])
    per = maxsense_scores_per_user(model, labels, 10, math.inf, np.random.default_rng(0), theta=4)
    np.testing.assert_array_equal(per, np.full(4, 10))
    agg = maxsense_scores(model, labels, 10, math.inf, np.random.default_rng(0), theta=4)
    np.testing.assert_array_equal(agg, np.full(4, 10))


# --------------------------------------------------------------------------------------------------
# simulate: Pairwise-Preference
# --------------------------------------------------------------------------------------------------

PP_ALPHA = (0.4, 0.6)
PP_B = np.array([[0.9, 0.2], [0.3, 0.7]])
PP_MODEL = BlockModel(PP_ALPHA, (0.4, 0.6), tuple(map(tuple, PP_B)), 20, 6)
PP_LABELS = np.repeat([0, 1], [8, 12])[np.random.default_rng(13).permutation(20)]


@pytest.mark.parametrize("support_known", [False, True])
@pytest.mark.parametrize("sketch", SKETCHES)
@pytest.mark.parametrize("builder", [pairwise_matrix, pairwise_matrix_per_user])
def test_pairwise_matrix_exact_expectation(builder, sketch: str, support_known: bool) -> None:  # type: ignore[no-untyped-def]
    """Block sums of Â: the users whose pair falls in a block and who release 1 are Binomial(U, P) with
    P = (pairs in block/all pairs)(f + (1 − 2f) q), q enumerated from the sketch definitions
    (``note-rec-pp-sketch``); hence each mean entry is U·(2/(N(N − 1)))(f + (1 − 2f) q). Within 4 SE =
    4 sqrt(U P(1 − P))."""
    n_users, eps = 200_000, 1.0
    n = 20
    q = pair_q(PP_ALPHA, PP_B, n, 6, sketch, support_known)
    f = flip(eps)
    a = builder(
        PP_MODEL,
        PP_LABELS,
        n_users,
        eps,
        np.random.default_rng(21),
        sketch=sketch,
        support_known=support_known,
    )
    assert a.shape == (n, n) and a.dtype.kind == "i"
    np.testing.assert_array_equal(a, a.T)
    assert np.all(np.diag(a) == 0) and np.all(a >= 0)
    iu, ju = np.triu_indices(n, 1)
    li, lj = PP_LABELS[iu], PP_LABELS[ju]
    blocks = {"within 0": (li == 0) & (lj == 0), "within 1": (li == 1) & (lj == 1), "between": li != lj}
    for name, mask in blocks.items():
        la, lb = (0, 0) if name == "within 0" else (1, 1) if name == "within 1" else (0, 1)
        prob = mask.sum() / iu.size * (f + (1 - 2 * f) * q[la, lb])
        total = a[iu[mask], ju[mask]].sum()
        assert abs(total - n_users * prob) <= 4 * math.sqrt(n_users * prob * (1 - prob)), name
        mean_entry = n_users * 2 / (n * (n - 1)) * (f + (1 - 2 * f) * q[la, lb])
        assert (
            abs(a[iu[mask], ju[mask]].mean() - mean_entry)
            <= 4 * math.sqrt(n_users * prob * (1 - prob)) / mask.sum()
        )


@pytest.mark.parametrize("builder", [pairwise_matrix, pairwise_matrix_per_user])
def test_pairwise_matrix_total_counts_released_ones(builder) -> None:  # type: ignore[no-untyped-def]
    """w = N and b ≡ 1: every sketch is 1, so at ε = ∞ the upper triangle sums to exactly U, and at finite
    ε to Binomial(U, 1 − f) (4 SE); with b ≡ 0, "both_like" is never 1 and Â = 0 at ε = ∞."""
    ones = BlockModel((1.0,), (0.5, 0.5), ((1.0, 1.0),), 10, 10)
    zeros = BlockModel((1.0,), (0.5, 0.5), ((0.0, 0.0),), 10, 10)
    labels = np.repeat([0, 1], 5)
    for sketch in SKETCHES:
        a = builder(ones, labels, 5000, math.inf, np.random.default_rng(1), sketch=sketch)
        assert np.triu(a, 1).sum() == 5000 and a.sum() == 10_000
        a = builder(zeros, labels, 5000, math.inf, np.random.default_rng(1), sketch=sketch)
        assert np.triu(a, 1).sum() == (0 if sketch == "both_like" else 5000)
    keep = 1 - flip(0.5)
    a = builder(ones, labels, 100_000, 0.5, np.random.default_rng(2))
    assert abs(np.triu(a, 1).sum() - 100_000 * keep) <= 4 * math.sqrt(100_000 * keep * (1 - keep))


def test_pairwise_validation() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ParameterError, match="sketch must be one of"):
        pairwise_matrix(PP_MODEL, PP_LABELS, 10, 1.0, rng, sketch="xor")
    with pytest.raises(ParameterError, match="sketch must be one of"):
        pairwise_matrix_per_user(PP_MODEL, PP_LABELS, 10, 1.0, rng, sketch="xor")
    one_rating = BlockModel(PP_ALPHA, (0.4, 0.6), tuple(map(tuple, PP_B)), 20, 1)
    for builder in (pairwise_matrix, pairwise_matrix_per_user):
        with pytest.raises(ParameterError, match="w ≥ 2"):
            builder(one_rating, PP_LABELS, 10, 1.0, rng, support_known=True)


# --------------------------------------------------------------------------------------------------
# simulate: Multi-MaxSense
# --------------------------------------------------------------------------------------------------


def test_multi_maxsense_per_user_mean() -> None:
    """K = 1, N = 120, w = 6, θ = 1 (6 blocks of 20), Q = 3, ε = 3.

    (i) Cluster means of the per-user scheme within 4.5 SE (30 runs, t₂₉) of their exact expectation
    (enumerated here over probe compositions and rated subsets). (ii) The paper's pseudo-user analysis
    (QU users at ε/Q, Bernoulli ratings and sensing) differs from that exact mean only through the
    w-subset and fixed block sizes, by less than 5% here (checked exactly); the simulated means are
    within 4.5 SE + 5% of it.
    """
    n, w, q, eps, n_users, draws = 120, 6, 3, 3.0, 4000, 30
    model = m_asym(n, w)
    labels = np.repeat([0, 1], 60)[np.random.default_rng(31).permutation(n)]
    exact = multi_block_means((1.0,), [[0.9, 0.1]], [60, 60], w, eps, 1.0, q)
    pseudo_items, _ = bernoulli_moments((1.0,), np.array([[0.9, 0.1]]), labels, w, eps / q, 1.0)
    pseudo = q * np.array([pseudo_items[labels == lab][0] for lab in range(2)])
    assert np.all(np.abs(exact / pseudo - 1) < 0.05)
    rng = np.random.default_rng(32)
    runs = np.stack(
        [multi_maxsense_scores_per_user(model, labels, n_users, eps, rng, n_bits=q) for _ in range(draws)]
    )
    for lab in range(2):
        t = runs[:, labels == lab].mean(axis=1) / n_users
        se = t.std(ddof=1) / math.sqrt(draws)
        assert abs(t.mean() - exact[lab]) <= 4.5 * se
        assert abs(t.mean() - pseudo[lab]) <= 4.5 * se + 0.05 * pseudo[lab]
    # the aggregate version is exactly MaxSense with QU users at ε/Q: per-item means, 4.5 SE
    mean, second = bernoulli_moments((1.0,), np.array([[0.9, 0.1]]), labels, w, eps / q, 1.0)
    agg = np.stack([multi_maxsense_scores(model, labels, n_users, eps, rng, n_bits=q) for _ in range(200)])
    z = (agg.mean(axis=0) - q * n_users * mean) / np.sqrt(q * n_users * (np.diag(second) - mean**2) / 200)
    assert np.max(np.abs(z)) <= 4.5


def multi_score_law(
    model: BlockModel, labels: np.ndarray, eps: float, theta: float, q: int
) -> dict[tuple, float]:
    """The exact law of one user's Multi-MaxSense score vector (Fig. 3), by enumeration of the type, the
    rated subset, its likes, every distinct cut of a permutation into blocks (``block = ⌊rank·m/N⌋``),
    the chosen blocks and their released bits."""
    n, m, f = model.n_items, math.floor(model.w / theta), flip(eps / q)
    cuts = sorted(set(itertools.permutations(np.arange(n) * m // n)))  # block of each item, equally likely
    chosen_sets = list(itertools.combinations(range(m), q))
    law: dict[tuple, float] = collections.defaultdict(float)
    for p_user, rated, liked in rated_and_liked(model, labels):
        p_base = p_user / len(cuts) / len(chosen_sets)
        hot = [i for i, x in zip(rated, liked, strict=True) if x]
        for cut in cuts:
            for chosen in chosen_sets:
                truth = [any(cut[i] == c for i in hot) for c in chosen]
                for bits in itertools.product((0, 1), repeat=q):
                    p_bits = math.prod(1 - f if x == t else f for x, t in zip(bits, truth, strict=True))
                    up = {c for c, x in zip(chosen, bits, strict=True) if x}
                    law[tuple(int(cut[i] in up) for i in range(n))] += p_base * p_bits
    return law


def chi2_p_value(seen: collections.Counter, law: dict[tuple, float], draws: int) -> float:
    """χ² p-value of observed counts against a law (0 if an outcome outside its support is seen); outcomes
    expected fewer than 5 times are pooled."""
    if not set(seen) <= set(law):
        return 0.0
    rare = [k for k in law if law[k] * draws < 5]
    keys = [k for k in law if k not in rare]
    observed = [seen[k] for k in keys] + [sum(seen[k] for k in rare)]
    expected = [law[k] * draws for k in keys] + [sum(law[k] for k in rare) * draws]
    if not rare:
        observed, expected = observed[:-1], expected[:-1]
    return float(stats.chisquare(observed, expected).pvalue)


# (N, w, θ, Q, labels): blocks of 3 and 2 items; of 2, 1 and 1; of 1 item, one of them empty.
# Ratings drawn with replacement, items dealt independently, bits at ε (not ε/Q) or every block taken
# as a small one each give p < 10⁻³ where they change the law (4,000 draws, as below).
MULTI_LAW_CASES = {
    "blocks 3+2, Q=1": (5, 2, 1.0, 1, (0, 1, 1, 0, 1)),
    "blocks 3+2, Q=2": (5, 2, 1.0, 2, (0, 1, 1, 0, 1)),
    "blocks 2+1+1, Q=2": (4, 3, 1.0, 2, (0, 1, 0, 1)),
    "blocks 1+1+1+0, Q=2": (3, 2, 0.5, 2, (1, 0, 1)),
}


@pytest.mark.parametrize("case", MULTI_LAW_CASES)
def test_multi_maxsense_per_user_follows_the_enumerated_law(case: str) -> None:
    """Score vectors of U = 2 users (two types, two clusters, ε = 3): the frequencies of 4,000 draws pass
    a χ² test (p > 10⁻³; outcomes expected fewer than 5 times pooled) against the law of Fig. 3
    enumerated user by user, then convolved. The independent-bits simulator (QU users at ε/Q,
    Bernoulli ratings) fails the same test where the Q bits share a user, so the test can fail."""
    n, w, theta, q, labels = MULTI_LAW_CASES[case]
    labels = np.array(labels)
    sizes = np.bincount(labels)
    model = BlockModel((0.6, 0.4), tuple(sizes / n), ((0.9, 0.2), (0.3, 0.7)), n, w)
    eps, draws = 3.0, 4_000
    one = multi_score_law(model, labels, eps, theta, q)
    law: dict[tuple, float] = collections.defaultdict(float)
    for (a, pa), (c, pc) in itertools.product(one.items(), repeat=2):
        law[tuple(np.add(a, c))] += pa * pc

    def p_value(scores) -> float:  # type: ignore[no-untyped-def]
        rng = np.random.default_rng(21)
        seen = collections.Counter(
            tuple(scores(model, labels, 2, eps, rng, theta=theta, n_bits=q)) for _ in range(draws)
        )
        return chi2_p_value(seen, law, draws)

    assert p_value(multi_maxsense_scores_per_user) > 1e-3
    if q > 1:
        assert p_value(multi_maxsense_scores) < 1e-3


@pytest.mark.parametrize("n_bits", [0, -1, 5, True, 1.5])
def test_multi_maxsense_n_bits_out_of_range(n_bits: object) -> None:
    """Q must be an integer in [1, ⌊w/θ⌋]; here ⌊6/1.5⌋ = 4 blocks."""
    model, labels, rng = m_asym(12, 6), np.repeat([0, 1], 6), np.random.default_rng(0)
    for func in (multi_maxsense_scores, multi_maxsense_scores_per_user):
        with pytest.raises(ParameterError, match="n_bits"):
            func(model, labels, 10, 1.0, rng, theta=1.5, n_bits=n_bits)  # type: ignore[arg-type]
    # the largest allowed Q works
    assert multi_maxsense_scores_per_user(model, labels, 10, 1.0, rng, theta=1.5, n_bits=4).shape == (12,)


# --------------------------------------------------------------------------------------------------
# simulate: determinism
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda rng: pairwise_matrix(PP_MODEL, PP_LABELS, 5000, 1.0, rng),
        lambda rng: pairwise_matrix(
            PP_MODEL, PP_LABELS, 5000, 1.0, rng, sketch="agree_rated", support_known=True
        ),
        lambda rng: pairwise_matrix_per_user(PP_MODEL, PP_LABELS, 5000, 1.0, rng),
        lambda rng: pairwise_matrix_per_user(PP_MODEL, PP_LABELS, 5000, 1.0, rng, sketch="both_like"),
        lambda rng: maxsense_scores(K2_MODEL, K2_LABELS, 5000, 1.0, rng),
        lambda rng: maxsense_scores_per_user(K2_MODEL, K2_LABELS, 5000, 1.0, rng),
        lambda rng: maxsense_scores_per_user(K2_MODEL, K2_LABELS, 5000, 1.0, rng, ratings="subset"),
        lambda rng: multi_maxsense_scores(K2_MODEL, K2_LABELS, 5000, 2.0, rng, n_bits=2),
        lambda rng: multi_maxsense_scores_per_user(K2_MODEL, K2_LABELS, 5000, 2.0, rng, n_bits=2),
        lambda rng: item_labels(K2_MODEL, rng),
        lambda rng: rr_bits(np.arange(1000) % 2, 0.5, rng),
        lambda rng: users_needed("point_query", 32, 10, rng),
        lambda rng: users_needed("adaptive", 32, 10, rng),
    ],
)
def test_simulators_are_deterministic(call) -> None:  # type: ignore[no-untyped-def]
    """Same seed → identical output; another seed → another output (the generator is really used)."""
    first = call(np.random.default_rng(99))
    np.testing.assert_array_equal(first, call(np.random.default_rng(99)))
    assert not np.array_equal(first, call(np.random.default_rng(100)))


# --------------------------------------------------------------------------------------------------
# cluster
# --------------------------------------------------------------------------------------------------


def sse(values: np.ndarray, labels: np.ndarray) -> float:
    return float(
        sum(((values[labels == c] - values[labels == c].mean()) ** 2).sum() for c in np.unique(labels))
    )


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_kmeans_1d_is_globally_optimal_over_contiguous_splits(k: int) -> None:
    """Brute force over every set of k − 1 cut points of the sorted data (n = 12, 20 random data sets)."""
    rng = np.random.default_rng(40 + k)
    n = 12
    for _ in range(20):
        v = rng.normal(size=n) * rng.choice([0.5, 3.0], size=n) + rng.choice([0.0, 4.0, 9.0], size=n)
        s = np.sort(v)
        best = math.inf
        for cuts in itertools.combinations(range(1, n), k - 1):
            bounds = (0, *cuts, n)
            cost = sum(((s[a:c] - s[a:c].mean()) ** 2).sum() for a, c in itertools.pairwise(bounds))
            best = min(best, cost)
        labels = kmeans_1d(v, k)
        assert labels.shape == (n,) and labels.dtype == np.int64
        assert set(labels.tolist()) == set(range(k))
        assert sse(v, labels) == pytest.approx(best, rel=1e-9, abs=1e-12)
        centres = [v[labels == c].mean() for c in range(k)]
        assert all(x < y for x, y in itertools.pairwise(centres))  # labels ordered by increasing centre


@pytest.mark.parametrize("k", [2, 3])
def test_kmeans_1d_is_globally_optimal_over_all_partitions(k: int) -> None:
    """n = 8: exhaustive over all k^n labellings (not only contiguous ones)."""
    rng = np.random.default_rng(50 + k)
    for _ in range(5):
        v = rng.exponential(size=8)
        best = min(
            sse(v, np.array(lab)) for lab in itertools.product(range(k), repeat=8) if len(set(lab)) == k
        )
        assert sse(v, kmeans_1d(v, k)) == pytest.approx(best, rel=1e-9)


def test_kmeans_1d_known_split_and_validation() -> None:
    v = np.array([10.0, 0.1, 5.2, 0.0, 10.3, 5.0, 0.2, 9.9])
    np.testing.assert_array_equal(kmeans_1d(v, 3), [2, 0, 1, 0, 2, 1, 0, 2])
    np.testing.assert_array_equal(kmeans_1d(v + 1e3, 3), kmeans_1d(v, 3))  # translation invariant
    np.testing.assert_array_equal(kmeans_1d(-v, 3), 2 - kmeans_1d(v, 3))
    for k in (0, 9):
        with pytest.raises(ParameterError, match="k must be in"):
            kmeans_1d(v, k)


def test_misclassified_against_permutation_brute_force() -> None:
    rng = np.random.default_rng(60)
    for _ in range(50):
        truth = rng.integers(0, 3, size=15)
        labels = np.where(rng.random(15) < 0.3, rng.integers(0, 3, size=15), truth)
        best = min(int(np.sum(np.array(perm)[labels] != truth)) for perm in itertools.permutations(range(3)))
        assert misclassified(truth, labels) == best
        perm = rng.permutation(3)
        assert misclassified(truth, perm[labels]) == best  # invariant under renaming the clusters
        assert misclassified(perm[truth], labels) == best
    truth = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    assert misclassified(truth, [1, 1, 1, 2, 2, 2, 0, 0]) == 0
    assert misclassified(truth, [1, 1, 0, 2, 2, 2, 0, 0]) == 1
    assert misclassified(truth, [0, 0, 0, 0, 0, 0, 0, 0]) == 5
    with pytest.raises(ParameterError, match="same length"):
        misclassified([0, 1], [0, 1, 1])


def test_spectral_labels_recovers_clean_blocks() -> None:
    rng = np.random.default_rng(70)
    truth = rng.permutation(np.repeat([0, 1], [12, 18]))
    a = np.where(truth[:, None] == truth[None, :], 10, 1) + rng.integers(0, 2, size=(30, 30))
    a = np.triu(a, 1)
    a = a + a.T
    labels = spectral_labels(a, 2, np.random.default_rng(1))
    assert misclassified(truth, labels) == 0
    with pytest.raises(ParameterError, match="square"):
        spectral_labels(np.ones((3, 4)), 2, rng)


def test_kmeans_deterministic_and_correct() -> None:
    rng = np.random.default_rng(80)
    truth = np.repeat([0, 1, 2], 20)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    x = centres[truth] + rng.normal(size=(60, 2))
    first = kmeans(x, 3, np.random.default_rng(5))
    np.testing.assert_array_equal(first, kmeans(x, 3, np.random.default_rng(5)))
    assert misclassified(truth, first) == 0
    with pytest.raises(ParameterError, match="k must be in"):
        kmeans(x, 61, rng)


def _kmeans_one_start_at_a_time(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """The textbook loop: seed a start (k-means++), iterate it to convergence, then the next of ten."""
    n = x.shape[0]
    best, best_sse = np.zeros(n, dtype=np.int64), np.inf
    for _ in range(10):
        centres = x[[rng.integers(n)]]
        for _ in range(1, k):
            d2 = np.min(((x[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
            total = d2.sum()
            pick = rng.choice(n, p=d2 / total) if total > 0 else rng.integers(n)
            centres = np.vstack([centres, x[pick]])
        labels = np.full(n, -1)
        for _ in range(100):
            new = np.argmin(((x[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
            if np.array_equal(new, labels):
                break
            labels = new
            for c in range(k):
                if np.any(labels == c):
                    centres[c] = x[labels == c].mean(axis=0)
        sse = float(((x - centres[labels]) ** 2).sum())
        if sse < best_sse:
            best, best_sse = labels.astype(np.int64), sse
    return best


@pytest.mark.parametrize("case", range(12))
def test_kmeans_iterates_its_starts_together_without_changing_a_label(case: int) -> None:
    """The starts run side by side, yet labels and the generator's state match the one-at-a-time loop."""
    gen = np.random.default_rng(case)
    n, dim, k = int(gen.choice([7, 40, 300])), int(gen.integers(1, 4)), int(gen.integers(1, 5))
    x = gen.normal(size=(n, dim)) * gen.exponential(size=dim) * 100
    if case % 3 == 0:
        x = np.round(x, -2)  # ties, and centres left without points
    mine, theirs = np.random.default_rng(case + 100), np.random.default_rng(case + 100)
    np.testing.assert_array_equal(kmeans(x, k, mine), _kmeans_one_start_at_a_time(x, k, theirs))
    assert mine.random() == theirs.random()


# --------------------------------------------------------------------------------------------------
# bounds
# --------------------------------------------------------------------------------------------------


def exact_ratio(n: int, w: int, shift: int = 0) -> Fraction:
    k = w - shift
    return Fraction(math.comb(n - w, k) if 0 <= k <= n - w else 0, math.comb(n, w))


@pytest.mark.parametrize("n", [100, 1000, 10_000])
def test_lemma47_one_sided_bound(n: int) -> None:
    """|C(N−w, w)/C(N, w) − (1 − w²/N)| ≤ w⁴/N² for 1 ≤ w ≤ √N (``note-rec-lemma47``)."""
    w = np.arange(1, math.isqrt(n) + 1)
    err = lemma47_error(n, w)
    assert err.shape == w.shape
    assert np.all(np.abs(err) <= w.astype(float) ** 4 / n**2)
    # and it is the Lemma's quantity, to the rounding of a log-gamma difference of size ln C(N, w)
    for wi in (1, 2, 3, math.isqrt(n)):
        exact = float(exact_ratio(n, wi) - (1 - Fraction(wi * wi, n)))
        assert abs(float(lemma47_error(n, wi)) - exact) <= 8 * special.gammaln(n + 1) * EPS_MACH
    # w = 1 is exact in the Lemma: the error vanishes up to that rounding, far below the w = 2 error
    assert abs(float(lemma47_error(n, 1))) <= 8 * special.gammaln(n + 1) * EPS_MACH
    assert abs(float(lemma47_error(n, 1))) < 1e-3 * abs(float(lemma47_error(n, 2)))


def test_lemma47_error_zero_at_w1_to_machine_precision() -> None:
    for n in (100, 1000, 10_000):
        assert abs(float(lemma47_error(n, 1))) <= 8 * EPS_MACH


@pytest.mark.parametrize("n", [5, 20, 100, 1000, 10_000])
def test_binomial_ratio_vs_math_comb(n: int) -> None:
    """Against exact integers; relative tolerance 8·ln Γ(N+1)·ε_mach (rounding of the log-gamma route)."""
    tol = 8 * special.gammaln(n + 1) * EPS_MACH
    ws = sorted({1, 2, 3, n // 4, n // 2, n // 2 + 1, n - 1, n} & set(range(1, n + 1)))
    for w in ws:
        for shift in (0, 1):
            exact = float(exact_ratio(n, w, shift))
            got = float(binomial_ratio(n, w, top_shift=shift))
            if exact == 0.0:
                assert got == 0.0
            else:
                assert got == pytest.approx(exact, rel=tol)


def direct_information(n: int, query: np.ndarray) -> float:
    """I(Z; S) = Σ_{z,s} P(z, s) ln[P(z, s)/(P(z) P(s))] from the joint law of (Z, I, S), by loops."""
    pz = 1 / 2**n
    joint = {}
    for z in itertools.product((0, 1), repeat=n):
        p1 = sum(1 for i in range(n) if query[i, z[i]]) / n
        joint[z] = (pz * (1 - p1), pz * p1)
    ps = [sum(v[s] for v in joint.values()) for s in (0, 1)]
    return sum(v[s] * math.log(v[s] / (pz * ps[s])) for v in joint.values() for s in (0, 1) if v[s] > 0)


def test_one_bit_information_exact_and_thm43() -> None:
    """Random queries A ⊂ [N] × {0, 1}, N = 3..10: library I = direct I (1e-12), I ≤ Thm 4.3 bound + 1e-12
    ≤ 1/N, and the bound is |C₁|/(2N)(1/|A| + 1/(2N − |A|)) computed here."""
    rng = np.random.default_rng(90)
    for n in range(3, 11):
        for _ in range(25 if n <= 7 else 8):
            query = rng.random((n, 2)) < rng.uniform(0.1, 0.9)
            info = one_bit_information(n, query)
            if n <= 7:
                assert info == pytest.approx(direct_information(n, query), abs=1e-12)
            size, c1 = int(query.sum()), int((query.sum(axis=1) == 1).sum())
            bound = 0.0 if size in (0, 2 * n) else c1 / (2 * n) * (1 / size + 1 / (2 * n - size))
            assert thm43_bound(n, query) == pytest.approx(bound, rel=1e-14, abs=0.0)
            assert info <= bound + 1e-12 <= 1 / n + 1e-12
    with pytest.raises(ParameterError, match="query"):
        one_bit_information(4, np.ones((4, 3), dtype=bool))


@pytest.mark.parametrize("n", [8, 9, 10])
def test_guess_vector_query(n: int) -> None:
    """A = {(i, a_i)}: I = ln 2 − E h(M/N), M ~ Bin(N, 1/2); I/(1/(2N)) ∈ [1.0, 1.1]; the bound is 1/N."""
    guess = np.random.default_rng(n).integers(0, 2, size=n)
    query = np.zeros((n, 2), dtype=bool)
    query[np.arange(n), guess] = True
    info = one_bit_information(n, query)
    expected = math.log(2) - sum(math.comb(n, m) / 2**n * h_nats(m / n) for m in range(n + 1))
    assert info == pytest.approx(expected, rel=1e-12)
    assert 1.0 <= info * 2 * n <= 1.1
    assert thm43_bound(n, query) == pytest.approx(1 / n, rel=1e-15)


def brute_force_sketch_information(n: int, w: int, eps: float, theta: float) -> float:
    """I(Z; S | H) by enumerating sensing vectors H, values Z and rated w-subsets W (lower-bound model)."""
    p, f = theta / w, flip(eps)
    subsets = list(itertools.combinations(range(n), w))
    total = 0.0
    for h in itertools.product((0, 1), repeat=n):
        ph = math.prod(p if x else 1 - p for x in h)
        probs = []
        for z in itertools.product((0, 1), repeat=n):
            hit = sum(1 for sub in subsets if any(h[i] and z[i] for i in sub)) / len(subsets)
            probs.append(f + (1 - 2 * f) * hit)
        total += ph * (h_nats(sum(probs) / len(probs)) - sum(map(h_nats, probs)) / len(probs))
    return total


@pytest.mark.parametrize(
    ("n", "w", "eps", "theta"), [(5, 2, 0.5, 1.0), (5, 2, math.inf, 1.0), (6, 2, 2.0, 2.0), (5, 3, 1.0, 1.5)]
)
def test_maxsense_sketch_information_vs_enumeration(n: int, w: int, eps: float, theta: float) -> None:
    assert maxsense_sketch_information(n, w, eps, theta) == pytest.approx(
        brute_force_sketch_information(n, w, eps, theta), rel=1e-10
    )


def test_maxsense_sketch_information_scaling() -> None:
    """I(2N)/I(N) ∈ [0.45, 0.55] (N ≥ 100), I(ε=.1)/I(ε=.2) ∈ [0.23, 0.27], I ≤ 2ε'²w/N for
    ε < ln 2, and I ≤ ε (Lemma 3.1)."""
    for w in (1, 2, 5):
        for eps in (0.5, 1.0):
            for n in (100, 200, 400, 800):
                ratio = maxsense_sketch_information(2 * n, w, eps) / maxsense_sketch_information(n, w, eps)
                assert 0.45 <= ratio <= 0.55
        for n in (100, 1000):
            ratio = maxsense_sketch_information(n, w, 0.1) / maxsense_sketch_information(n, w, 0.2)
            assert 0.23 <= ratio <= 0.27
    for n, w, eps in itertools.product((50, 100, 1000), (1, 2, 5, 10), (0.1, 0.3, 0.5, 0.69)):
        assert maxsense_sketch_information(n, w, eps) <= 2 * math.expm1(eps) ** 2 * w / n
    for n, w, eps in itertools.product((10, 100), (1, 5), (0.1, 1.0, 3.0, 10.0)):
        assert 0 < maxsense_sketch_information(n, w, eps) <= eps
    with pytest.raises(ParameterError, match="theta"):
        maxsense_sketch_information(100, 2, 1.0, theta=3)
    with pytest.raises(ParameterError, match="integers"):
        maxsense_sketch_information(100, 101, 1.0)


def exact_thm48_thm410(n: int, w: int, eps: float) -> tuple[float, float]:
    """Thm 4.8 and 4.10's explicit forms (§4 table) with the binomial ratios in exact rationals."""
    r0, r1 = exact_ratio(n, w), exact_ratio(n, w, 1)
    i48 = math.exp(2 * eps) * float(w * r1 / 2 + 1 - r0 - w * r1)
    mismatch = 1 + Fraction(w * w, n) - (1 + Fraction(2 * w * w, n - 2 * w + 1)) * r0
    return i48, 2 * math.expm1(eps) ** 2 * w / n + math.exp(2 * eps) * float(mismatch)


@pytest.mark.parametrize("n", [20, 100, 1000])
def test_thm48_thm410_explicit_forms(n: int) -> None:
    for w, eps in itertools.product((1, 2, 5), (0.1, 0.5, 1.0)):
        i48, i410 = exact_thm48_thm410(n, w, eps)
        assert float(thm48_information(n, w, eps)) == pytest.approx(i48, rel=1e-6)
        assert float(thm410_information(n, w, eps)) == pytest.approx(i410, rel=1e-6)


@pytest.mark.parametrize("n", [10**5, 10**6])
def test_thm48_thm410_precision_at_large_n(n: int) -> None:
    for w, eps in itertools.product((1, 2, 5, 10), (0.1, 0.5, 1.0)):
        i48, i410 = exact_thm48_thm410(n, w, eps)
        assert float(thm48_information(n, w, eps)) == pytest.approx(i48, rel=1e-6)
        assert float(thm410_information(n, w, eps)) == pytest.approx(i410, rel=1e-6)


def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def test_lower_bound_slopes_and_pilot_values() -> None:
    """w = 2, N = 1e3..1e5: Thm 4.8 and 4.10 slopes in [1.9, 2.1], Thm 3.3 within 0.01 of 1;
    the book's pilot table (ε = 0.5) to 3 significant figures."""
    n = np.round(np.geomspace(1e3, 1e5, 9))
    eps = 0.5
    u48 = fano_users(n, thm48_information(n, 2, eps))
    u410 = fano_users(n, thm410_information(n, 2, eps))
    assert 1.9 <= loglog_slope(n, u48) <= 2.1
    assert 1.9 <= loglog_slope(n, u410) <= 2.1
    assert abs(loglog_slope(n, thm33_users(n, eps)) - 1) <= 0.01
    pilot = [  # (N, w, Thm 3.3, Thm 4.8, Thm 4.10)
        (1000, 1, 692, 2.54e5, 4.11e5),
        (1000, 5, 692, 1.02e4, 5.93e4),
        (10_000, 2, 6.93e3, 6.37e6, 2.06e7),
        (10_000, 10, 6.93e3, 2.55e5, 2.96e6),
    ]
    for ni, w, u33, ub48, ub410 in pilot:
        assert float(thm33_users(ni, eps)) == pytest.approx(u33, rel=5e-3)
        assert float(fano_users(ni, thm48_information(ni, w, eps))) == pytest.approx(ub48, rel=5e-3)
        assert float(fano_users(ni, thm410_information(ni, w, eps))) == pytest.approx(ub410, rel=5e-3)


def test_thm33_paper_vs_fano() -> None:
    """Paper: N ln 2/ε; Fano-consistent: (N/2 − 1) ln 2/ε (``note-rec-thm33``)."""
    for n, eps in itertools.product((10, 1000, 10**5), (0.1, 1.0, 4.0)):
        assert float(thm33_users(n, eps, "paper")) == pytest.approx(n * math.log(2) / eps, rel=1e-14)
        assert float(thm33_users(n, eps)) == pytest.approx((n / 2 - 1) * math.log(2) / eps, rel=1e-14)
        assert float(fano_target(n)) == pytest.approx((n / 2 - 1) * math.log(2), rel=1e-14)
    with pytest.raises(ParameterError, match="convention"):
        thm33_users(100, 1.0, "bits")
    with pytest.raises(ParameterError, match="finite eps"):
        thm33_users(100, math.inf)
    with pytest.raises(ParameterError, match="N must be"):
        thm33_users(2, 1.0)


def recursion_loop(n: int, eps: float) -> int:
    """Thm 6.1 iterated literally: δ₀ = 0, δ_{T+1} = δ_T + (C/N) max(1, δ_T), C = 40(e^ε − 1)²."""
    c = 40 * (math.exp(eps) - 1) ** 2
    target = (n / 2 - 1) * math.log(2)
    delta, t = 0.0, 0
    while delta < target:
        delta += c / n * max(1.0, delta)
        t += 1
    return t


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_adaptive_lower_bound_vs_recursion(eps: float) -> None:
    for n in (3, 7, 10, 100, 1000, 5000):
        assert adaptive_lower_bound(n, eps) == recursion_loop(n, eps), n


def test_adaptive_lower_bound_log_growth() -> None:
    """T_LB(10N)/T_LB(N)/10 ∈ [1.1, 1.6] for N ≥ 1e3 (N log N growth)."""
    for eps in (0.1, 0.5, 1.0):
        for n in (10**3, 10**4, 10**5):
            ratio = adaptive_lower_bound(10 * n, eps) / adaptive_lower_bound(n, eps) / 10
            assert 1.1 <= ratio <= 1.6
    with pytest.raises(ParameterError, match="finite eps"):
        adaptive_lower_bound(100, math.inf)


# --------------------------------------------------------------------------------------------------
# one_bit: the 1-bit toy schemes
# --------------------------------------------------------------------------------------------------


def exact_mean_and_var(scheme: str, n: int) -> tuple[float, float]:
    """Exact E and Var of the users needed. Revelations R = Σ_k Geom((N − k)/N) (coupon collector);
    a scheme revealing with probability q per user needs Σ_{r ≤ R} Geom(q) users; adaptive: per item
    2G − 1 + Z, G ~ Geom(1/N), Z ~ Bern(1/2)."""
    probs = (n - np.arange(n)) / n
    er, vr = float(np.sum(1 / probs)), float(np.sum((1 - probs) / probs**2))
    if scheme == "unconstrained":
        return er, vr
    if scheme == "adaptive":
        return n * (2 * n - 1 + 0.5), n * (4 * (1 - 1 / n) * n**2 + 0.25)
    q = 1 / math.log2(2 * n) if scheme == "average_bit" else 1 / (2 * n)
    return er / q, er * (1 - q) / q**2 + vr / q**2


@pytest.mark.parametrize("scheme", SCHEMES)
def test_users_needed_mean_and_u90(scheme: str) -> None:
    """Mean within 4 SE (SE from the exact variance, 4000 runs) of its exact value; 90% quantile within
    ±15% of the book's approximations (``note-rec-one-bit``) at N = 128 (the quantile's own Monte Carlo SE is
    < 1% here)."""
    n, trials = 128, 4000
    runs = users_needed(scheme, n, trials, np.random.default_rng(100))
    assert runs.shape == (trials,) and runs.dtype.kind == "i"
    mean, var = exact_mean_and_var(scheme, n)
    assert abs(runs.mean() - mean) <= 4 * math.sqrt(var / trials)
    assert abs(np.quantile(runs, 0.9) / approximate_u90(scheme, n) - 1) <= 0.15


def test_approximate_u90_formulas_and_adaptive_gain() -> None:
    n = 64.0
    collector = n * (math.log(n) + math.log(1 / math.log(1 / 0.9)))
    assert approximate_u90("unconstrained", n) == pytest.approx(collector, rel=1e-14)
    assert approximate_u90("average_bit", n) == pytest.approx(collector * 7, rel=1e-14)
    assert approximate_u90("point_query", n) == pytest.approx(2 * n * collector, rel=1e-14)
    assert approximate_u90("adaptive", n) == pytest.approx(2 * n**2 + 2.6 * n**1.5, rel=1e-14)
    for size in (64, 128):
        rng = np.random.default_rng(size)
        adaptive = np.quantile(users_needed("adaptive", size, 2000, rng), 0.9)
        point = np.quantile(users_needed("point_query", size, 2000, rng), 0.9)
        assert adaptive / point < 0.5
    with pytest.raises(ParameterError, match="scheme"):
        users_needed("two_bits", 10, 5, np.random.default_rng(0))
    with pytest.raises(ParameterError, match="need an integer N"):
        users_needed("adaptive", 1, 5, np.random.default_rng(0))
    with pytest.raises(ParameterError, match="need an integer N"):
        users_needed("adaptive", 10, 0, np.random.default_rng(0))
    with pytest.raises(ParameterError, match="scheme"):
        approximate_u90("two_bits", 10)


# --------------------------------------------------------------------------------------------------
# experiments
# --------------------------------------------------------------------------------------------------


def test_crossing_interpolates_in_log_u() -> None:
    users, rate = [10, 100, 1000], [0.5, 0.8, 1.0]
    assert crossing(users, rate) == pytest.approx(100 * 10**0.5, rel=1e-12)
    assert math.isnan(crossing(users, rate, level=0.5))  # already reached at the first point
    assert crossing(users, rate, level=0.65) == pytest.approx(10 * 10**0.5, rel=1e-12)
    assert crossing(users[::-1], rate[::-1]) == pytest.approx(100 * 10**0.5, rel=1e-12)  # any order


def test_crossing_not_bracketed_is_nan() -> None:
    assert math.isnan(crossing([10, 100, 1000], [0.95, 0.97, 1.0]))
    assert math.isnan(crossing([10, 100, 1000], [0.0, 0.5, 0.85]))


def test_crossing_pools_non_monotone_curves() -> None:
    """Rates (0, .75, .25, 1) pool to (0, .5, .5, 1) before interpolating."""
    users, rate = [1, 10, 100, 1000], [0.0, 0.75, 0.25, 1.0]
    assert crossing(users, rate, level=0.9) == pytest.approx(100 * 10**0.8, rel=1e-12)
    assert crossing(users, rate, level=0.6) == pytest.approx(100 * 10**0.2, rel=1e-12)  # not between 1 and 10
    assert crossing(users, rate, level=0.4) == pytest.approx(10**0.8, rel=1e-12)
    shuffled = [3, 0, 2, 1]
    assert crossing(np.array(users)[shuffled], np.array(rate)[shuffled], level=0.6) == pytest.approx(
        100 * 10**0.2, rel=1e-12
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"algorithm": "maxsens"}, "algorithm must be one of"),
        ({"simulator": "fast"}, "simulator must be one of"),
        ({"sketch": "xor"}, "sketch must be one of"),
        ({"n_bits": 2}, "n_bits > 1 is Multi-MaxSense only"),
        ({"algorithm": "pairwise", "n_bits": 3}, "n_bits > 1 is Multi-MaxSense only"),
    ],
)
def test_setting_validation(kwargs: dict, match: str) -> None:
    base = {"algorithm": "maxsense", "model": m_asym(20, 4), "eps": 1.0}
    base.update(kwargs)
    with pytest.raises(ParameterError, match=match):
        Setting(**base)


def test_setting_but_and_multi_bits() -> None:
    setting = Setting("multi-maxsense", m_asym(20, 4), 2.0, n_bits=2)
    assert setting.but(eps=4.0).eps == 4.0 and setting.but(eps=4.0).n_bits == 2
    with pytest.raises(ParameterError, match="n_bits"):
        setting.but(algorithm="maxsense")


def test_success_curves_deterministic_and_independent_of_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = [
        Setting("maxsense", m_asym(20, 4), 1.0),
        Setting("pairwise", m_sym(12, 12), 2.0),
        Setting("multi-maxsense", m_asym(20, 4), 4.0, n_bits=2, simulator="per-user"),
    ]
    grids = [[100, 3000], [300, 3000], [200, 2000]]
    stream = Stream(5, (1,), "curves")
    monkeypatch.setenv("DPNET_JOBS", "1")
    serial = success_curves(settings, grids, trials=3, stream=stream)
    pd.testing.assert_frame_equal(serial, success_curves(settings, grids, trials=3, stream=stream))
    monkeypatch.setenv("DPNET_JOBS", "2")
    pd.testing.assert_frame_equal(serial, success_curves(settings, grids, trials=3, stream=stream))
    assert list(serial.columns) == ["setting", "U", "success", "error", "trials"]
    assert serial["setting"].tolist() == [0, 0, 1, 1, 2, 2]
    assert serial["U"].tolist() == [100, 3000, 300, 3000, 200, 2000]
    assert not serial.equals(success_curves(settings, grids, trials=3, stream=Stream(6, (1,), "curves")))
    with pytest.raises(ParameterError, match="one grid"):
        success_curves(settings, grids[:2], trials=3, stream=stream)
    with pytest.raises(ParameterError, match="trials"):
        success_curves(settings, grids, trials=0, stream=stream)


def test_success_curves_cell_draws_from_its_child_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cell (s, j) of a sweep draws from SeedSequence([seed, *key, s, j]): the integer keys that seeded
    the published runs, whatever the other cells of the sweep."""
    monkeypatch.setenv("DPNET_JOBS", "1")
    setting = Setting("maxsense", m_asym(20, 4), 1.0)
    both = success_curves([setting, setting], [[100, 3000], [500]], trials=4, stream=Stream(5, (12,), "e4"))
    rng = np.random.default_rng(np.random.SeedSequence([5, 12, 1, 0]))
    errors = np.array([recover(setting, 500, rng) for _ in range(4)])
    assert both["success"].iloc[2] == np.mean(errors == 0)
    alone = success_curves([setting], [[100]], trials=4, stream=Stream(5, (12,), "e4"))
    assert alone["success"].iloc[0] == both["success"].iloc[0]


def test_success_curves_extremes_m_asym(monkeypatch: pytest.MonkeyPatch) -> None:
    """M-asym, N = 50, w = 10, ε = ∞: nobody recovers with 10 users, everybody with 1e8."""
    monkeypatch.setenv("DPNET_JOBS", "1")
    df = success_curves(
        [Setting("maxsense", m_asym(50, 10), math.inf)], [[10, 1e8]], trials=20, stream=Stream(3, (0,))
    )
    assert df["success"].tolist() == [0.0, 1.0]
    assert df["error"].iloc[0] > 0 and df["error"].iloc[1] == 0.0


def _step_cell(task, rng):  # type: ignore[no-untyped-def]
    """A recovery that fails below a threshold number of users (100 per item) and succeeds above it."""
    _, _, setting, n_users, trials = task
    rng.random()  # draws like a real cell
    return np.full(trials, 0 if n_users >= 100 * setting.model.n_items else 1, dtype=np.int64)


def test_adaptive_curves_bracket_a_step_to_one_lattice_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Success that jumps from 0 to 1 at U* = 100 N: after the first 5 points and 3 rounds, U* lies between
    two neighbouring counts of the 33-step lattice, with one point added per round; a range that does not
    bracket U* is not refined and its U_90 is undefined."""
    monkeypatch.setenv("DPNET_JOBS", "1")
    monkeypatch.setattr("dpnet.recommender.experiments._cell", _step_cell)
    settings = [Setting("maxsense", m_asym(n, 4), 1.0) for n in (20, 40, 30)]
    ranges = [(100.0, 1e6), (100.0, 1e6), (1e4, 1e6)]  # the last starts above U* = 3000
    curves = adaptive_curves(settings, ranges, points=5, rounds=3, trials=2, stream=Stream(1, (0,)))
    lattice = np.geomspace(100.0, 1e6, 33)
    for s, n in enumerate((20, 40)):
        cell = curves[curves["setting"] == s]
        assert len(cell) == 5 + 3
        below = cell.loc[cell["success"] == 0, "U"].max()
        above = cell.loc[cell["success"] == 1, "U"].min()
        assert below < 100 * n <= above
        assert np.searchsorted(lattice, above - 0.5) - np.searchsorted(lattice, below - 0.5) == 1
    assert (curves["setting"] == 2).sum() == 5
    u90 = thresholds(curves)
    assert np.isfinite(u90[:2]).all() and math.isnan(u90[2])


def test_adaptive_curves_deterministic_and_independent_of_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Pairwise-Preference and MaxSense runs: the same curves with 1 and 2 workers, and cell (s, j) of
    the lattice draws from the stream's child (s, j)."""
    settings = [Setting("pairwise", m_sym(12, 12), 2.0), Setting("maxsense", m_asym(20, 4), 1.0)]
    ranges = [(30.0, 3e4), (100.0, 1e6)]
    stream = Stream(5, (1,), "adaptive")
    monkeypatch.setenv("DPNET_JOBS", "1")
    serial = adaptive_curves(settings, ranges, points=4, rounds=2, trials=10, stream=stream)
    monkeypatch.setenv("DPNET_JOBS", "2")
    pd.testing.assert_frame_equal(
        serial, adaptive_curves(settings, ranges, points=4, rounds=2, trials=10, stream=stream)
    )
    first = serial[serial["setting"] == 1].iloc[0]
    rng = np.random.default_rng(np.random.SeedSequence([5, 1, 1, 0]))
    errors = np.array([recover(settings[1], int(first["U"]), rng) for _ in range(10)])
    assert first["success"] == np.mean(errors == 0)
    with pytest.raises(ParameterError, match="range"):
        adaptive_curves(settings, ranges[:1], points=4, rounds=2, trials=10, stream=stream)


def test_predicted_grid_brackets_the_prediction() -> None:
    setting = Setting("maxsense", m_asym(100, 10), 1.0)
    grid = predicted_grid(setting, 0.5, 2.0, 3)
    assert grid == pytest.approx(predicted_u(m_asym(100, 10), 1.0) * np.array([0.5, 1.0, 2.0]), rel=1e-12)
    multi = Setting("multi-maxsense", m_asym(100, 32), 8.0, theta=0.5, n_bits=4)
    assert multi.predicted_u90() == predicted_u(m_asym(100, 32), 8.0, theta=0.5, n_bits=4)
    assert multi.predicted_u90() != predicted_u(m_asym(100, 32), 8.0, n_bits=4)  # θ is the setting's
    assert predicted_grid(multi, 1.0, 1.0, 1)[0] == pytest.approx(multi.predicted_u90())
    with pytest.raises(ParameterError, match="MaxSense's, not Pairwise-Preference's"):
        Setting("pairwise", m_asym(100, 10), 1.0).predicted_u90()


def test_review_helpers_against_their_formulas() -> None:
    """The helpers the chapter uses instead of inline formulas, against independent expressions."""
    from scipy import stats as st

    from dpnet import recommender as rc

    assert rc.distortion_ratio(100) == pytest.approx(
        (st.norm.ppf(0.9**0.01) / st.norm.ppf(0.95)) ** 2, rel=1e-12
    )
    assert rc.thm410_leading_term(100, 3, 0.5) == pytest.approx(
        2 * (math.e**0.5 - 1) ** 2 * 3 / 100, rel=1e-12
    )
    assert rc.adaptive_constant(1.0) == pytest.approx(40 * (math.e - 1) ** 2, rel=1e-12)
    # the exact recursion approaches its large-N form
    for n in (1e4, 1e6):
        assert rc.adaptive_lower_bound(n, 0.5) / rc.adaptive_lower_bound_asymptote(n, 0.5) == pytest.approx(
            1, abs=0.02
        )
    with pytest.raises(ParameterError):
        rc.distortion_ratio(100, error=0.6)


def test_records_name_every_setting_field() -> None:
    from dpnet import recommender as rc

    s = rc.Setting("pairwise", rc.m_sym(20, 20), math.inf, sketch="agree_rated", support_known=True)
    r = rc.record(s, "M-sym", math.nan)
    assert r == {"algorithm": "pairwise", "model": "M-sym", "N": 20, "w": 20, "eps": "inf", "Q": 1,
                 "theta": 1.0, "sketch": "agree_rated", "support_known": True, "simulator": "aggregate",
                 "u90": None}  # fmt: skip


# --------------------------------------------------------------------------------------------------
# dpnet.recommender.exact: informations and bounds by enumeration
# --------------------------------------------------------------------------------------------------


def test_exact_information_agrees_with_the_one_bit_enumeration() -> None:
    """With w = 1 the data are (item, bit) in the order of a query's rows: the two implementations agree."""
    from dpnet import recommender as rc
    from dpnet.recommender import exact

    rng = np.random.default_rng(7)
    for n in (4, 7, 10):
        query = rng.random((n, 2)) < 0.5
        assert exact.sketch_information(n, 1, query.ravel()) == pytest.approx(
            rc.one_bit_information(n, query), abs=1e-14
        )


def test_lemma41_bound_is_the_chi_square_of_the_posterior() -> None:
    """Lemma 4.1's pair sum equals E_S χ²(P_Z|S ‖ P_Z), computed here directly over the 2^N values of Z; the
    information never exceeds it (KL ≤ χ²)."""
    import itertools

    from dpnet.recommender import exact

    rng = np.random.default_rng(8)
    n, w = 6, 2
    sets = exact.subsets(n, w)
    z = np.array(list(itertools.product((0, 1), repeat=n)))
    for eps in (0.5, 2.0, math.inf):
        q = exact.private_release(rng.random(exact.data_size(n, w)) < 0.4, eps)
        index = np.arange(len(sets))[None, :] * 4 + z[:, sets] @ np.array([2, 1])
        p1 = q[index].mean(axis=1)
        chi2 = sum(p.mean() * (np.mean((p / p.mean()) ** 2) - 1) for p in (p1, 1 - p1))
        bound = exact.lemma41_bound(n, w, q)
        assert bound == pytest.approx(chi2, rel=1e-10, abs=1e-15)
        assert exact.sketch_information(n, w, q) <= bound + 1e-15


def test_lemma_c7_extremal_points_bound_the_quadratic() -> None:
    from dpnet.recommender import exact

    top, bound = exact.extremal_quadratic(4, 1, 0.5)
    assert top <= bound and bound == pytest.approx(2 * math.expm1(0.5) ** 2 / 4)
    assert exact.feasible_quadratic(4, 1, 0.5, np.random.default_rng(1), draws=500) <= top
    with pytest.raises(ParameterError, match="D ≤ 16"):
        exact.extremal_quadratic(4, 2, 0.5)


def test_exact_refuses_what_it_cannot_enumerate() -> None:
    from dpnet.recommender import exact

    with pytest.raises(ParameterError, match="need 1 ≤ w ≤ N ≤ 14"):
        exact.sketch_information(20, 2, np.zeros(10))
    with pytest.raises(ParameterError, match="a release gives"):
        exact.sketch_information(4, 1, np.full(8, 1.5))


def test_thm_a5_from_cor_a4_keeps_fano_s_one() -> None:
    """Thm A.5 as printed, and as Cor A.4 gives it: ``[(1 − p_max) N K (1 − d/N − 1/K)²/3 − 1]/ε``, never
    below 0 (at N = 100, K = 2, d = 5, p_max = 1/2, ε = 1: 6.75 and 5.75 users)."""
    from dpnet.recommender import thmA5_users

    assert float(thmA5_users(100, 1.0, 2, 5.0)) == pytest.approx(6.75, rel=1e-12)
    assert float(thmA5_users(100, 1.0, 2, 5.0, from_cor_a4=True)) == pytest.approx(5.75, rel=1e-12)
    assert float(thmA5_users(100, 4.0, 2, 5.0, from_cor_a4=True)) == pytest.approx(5.75 / 4, rel=1e-12)
    assert float(thmA5_users(4, 1.0, 2, 0.0, from_cor_a4=True)) == 0.0  # (1/2)·4·2·(1/4)/3 = 1/3 < 1
