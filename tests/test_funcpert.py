"""Private distributed convex optimisation by functional perturbation (paper 004, Chapter 8):
the γ calibration and the optimal p, the noise energy and the DP inequality, the Legendre bases against
scipy and finite differences, the least-distance projection against a brute-force QP and its KKT
conditions, the test problems against independent objectives, truncation bias, the linearised error law,
the distributed gradient method, the message-perturbation baseline and its accountant, the DP error-rate
floor, record-level sensitivities and the impossibility demonstration."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math

import networkx as nx
import numpy as np
import pytest
from numpy.polynomial import legendre
from scipy import optimize, special, stats

from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.funcpert import (
    Basis1D,
    Basis2D,
    Problem,
    RegularSet,
    convergent_schedule,
    dgd,
    error_rate_floor,
    gamma,
    geometric_b0,
    geometric_schedule,
    graded_indices,
    grid_table,
    impossibility_curve,
    laplace_scales,
    lazy_metropolis,
    linearised_rms,
    logistic_problem,
    min_miss_probability,
    noise_energy,
    noise_energy_factor,
    noise_free_floor,
    perturbation,
    poly_argmin,
    privacy_loss,
    privacy_loss_bound,
    private_functions,
    private_optimum,
    project,
    quadratic_problem,
    record_sensitivities,
    regular_set,
    run_message_batch,
    run_messages,
    tradeoff_errors,
    tuned_message_errors,
    vq_norm,
)
from dpnet.funcpert import chorded_ring as fp_chorded_ring
from dpnet.funcpert.basis import _derivative_coefficients, _legvander_point
from dpnet.funcpert.solve import GRID_TABLES, _grid_table

# --------------------------------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------------------------------


def ref_values(x: np.ndarray, lo: float, hi: float, K: int) -> np.ndarray:
    """``e_k(x) = √((2k − 1)/(hi − lo)) P_{k−1}(t)`` from scipy's ``eval_legendre``, shape ``(len(x), K)``."""
    t = 2 * (np.asarray(x, dtype=float) - lo) / (hi - lo) - 1
    n = np.arange(K)
    return np.sqrt((2 * n + 1) / (hi - lo)) * special.eval_legendre(n[None, :], t[:, None])


def ref_derivatives(x: np.ndarray, lo: float, hi: float, K: int) -> tuple[np.ndarray, np.ndarray]:
    """``e_k'`` and ``e_k''`` at interior points from the Legendre identities
    ``(1 − t²) P_n' = n (P_{n−1} − t P_n)`` and ``(1 − t²) P_n'' = 2t P_n' − n(n + 1) P_n``."""
    t = (2 * (np.asarray(x, dtype=float) - lo) / (hi - lo) - 1)[:, None]
    n = np.arange(K)[None, :]
    p = special.eval_legendre(n, t)
    p_prev = special.eval_legendre(np.maximum(n - 1, 0), t)
    d1 = n * (p_prev - t * p) / (1 - t**2)
    d2 = (2 * t * d1 - n * (n + 1) * p) / (1 - t**2)
    scale, c = np.sqrt((2 * n + 1) / (hi - lo)), 2 / (hi - lo)
    return scale * d1 * c, scale * d2 * c**2


def ref_graded(M: int) -> list[tuple[int, int]]:
    """All pairs ``i + j ≤ M`` sorted by total degree, then by ``i`` descending."""
    pairs = [(i, j) for i in range(M + 1) for j in range(M + 1) if i + j <= M]
    return sorted(pairs, key=lambda ij: (ij[0] + ij[1], -ij[0]))


def ref_values_2d(pts: np.ndarray, R: float, M: int) -> np.ndarray:
    v1, v2 = ref_values(pts[:, 0], -R, R, M + 1), ref_values(pts[:, 1], -R, R, M + 1)
    return np.column_stack([v1[:, i] * v2[:, j] for i, j in ref_graded(M)])


def gauss_nodes(lo: float, hi: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights on ``[lo, hi]`` from ``scipy.special.roots_legendre``."""
    t, w = special.roots_legendre(n)
    half = (hi - lo) / 2
    return lo + half * (t + 1), w * half


def fd(f, x: np.ndarray, h: float) -> np.ndarray:
    """Fourth-order central difference of ``f`` at ``x`` (elementwise)."""
    return (-f(x + 2 * h) + 8 * f(x + h) - 8 * f(x - h) + f(x - 2 * h)) / (12 * h)


def fd_grad(fun, x: np.ndarray, h: float) -> np.ndarray:
    """Fourth-order central differences of ``fun`` along each coordinate of ``x``: row ``a`` is ∂_a fun."""
    rows = []
    for a in range(x.size):
        e = np.zeros(x.size)
        e[a] = h
        rows.append((-fun(x + 2 * e) + 8 * fun(x + e) - 8 * fun(x - e) + fun(x - 2 * e)) / (12 * h))
    return np.array(rows)


def logistic_value(x: np.ndarray, feats: np.ndarray, labels: np.ndarray, lam: float) -> float:
    """``Σ_j ln(1 + e^{−b_j a_jᵀx}) + N λ/2 |x|²`` at one point ``x`` (written out, no vectorised helper)."""
    total = 0.0
    for a, b in zip(feats, labels, strict=True):
        total += math.log1p(math.exp(-b * float(a @ x)))
    return total + len(labels) * lam / 2 * float(x @ x)


def logistic_gradient(x: np.ndarray, feats: np.ndarray, labels: np.ndarray, lam: float) -> np.ndarray:
    m = labels * (feats @ x)
    return -(labels * special.expit(-m)) @ feats + len(labels) * lam * x


@functools.cache
def quad(seed: int, K: int = 20) -> Problem:
    return quadratic_problem(10, K, np.random.default_rng(seed))


@functools.cache
def logi(seed: int) -> Problem:
    return logistic_problem(10, 10, 10, np.random.default_rng(seed))


def chorded_ring() -> nx.Graph:
    """The 10-cycle with the two chords 0–5 and 2–7."""
    G = nx.cycle_graph(10)
    G.add_edges_from([(0, 5), (2, 7)])
    return G


def max_u(S: RegularSet) -> float:
    return float(np.max(np.abs(S.u)))


# --------------------------------------------------------------------------------------------------
# calibration, optimal p, noise energy, the DP inequality
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "p", "expected"), [(2.0, 1.0, 1.282550), (1.5, 0.75, 1.616284), (4.0, 2.0, 1.040348)]
)
def test_gamma_headline_values(q: float, p: float, expected: float) -> None:
    """γ(1, q, p) = √ζ(2(q − p)), and γ ∝ 1/ε."""
    assert gamma(1.0, q, p) == pytest.approx(expected, rel=1e-6)
    assert gamma(1.0, q, p) == pytest.approx(math.sqrt(special.zeta(2 * (q - p))), rel=1e-14)
    assert gamma(0.25, q, p) == pytest.approx(4 * expected, rel=1e-6)


@pytest.mark.parametrize(
    ("eps", "q", "p", "match"),
    [
        (1.0, 1.0, 0.6, "q must be > 1"),
        (1.0, 0.5, 0.6, "q must be > 1"),
        (1.0, np.nan, 0.6, "q must be > 1"),
        (1.0, 2.0, 0.5, "p must lie in"),
        (1.0, 2.0, 0.3, "p must lie in"),
        (1.0, 2.0, 1.5, "p must lie in"),
        (1.0, 2.0, 1.7, "p must lie in"),
        (1.0, 2.0, np.nan, "p must lie in"),
        (0.0, 2.0, 1.0, "eps must be a finite number > 0"),
        (-1.0, 2.0, 1.0, "eps must be a finite number > 0"),
        (math.inf, 2.0, 1.0, "eps must be a finite number > 0"),
        (math.nan, 2.0, 1.0, "eps must be a finite number > 0"),
    ],
)
def test_gamma_rejects_bad_parameters(eps: float, q: float, p: float, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        gamma(eps, q, p)


@pytest.mark.parametrize("eps", [np.int64(2), np.float32(2.0)])
def test_gamma_accepts_numpy_scalars(eps: object) -> None:
    """An ε taken from an integer or float32 NumPy array is a finite number > 0 like any other."""
    assert gamma(eps, 2.0, 1.0) == pytest.approx(gamma(2.0, 2.0, 1.0), rel=1e-7)  # type: ignore[arg-type]


@pytest.mark.parametrize("q", [1.5, 2.0, 3.0, 4.0])
def test_noise_energy_factor_is_smallest_at_half_q(q: float) -> None:
    """The argmin over p of ζ(2p) ζ(2(q − p)) is q/2 ± 1e-3, found numerically; the factor is symmetric
    about q/2, and over an array of p it is the scalar factor entry by entry."""
    res = optimize.minimize_scalar(
        lambda p: noise_energy_factor(q, p),
        bounds=(0.5 + 1e-6, q - 0.5 - 1e-6),
        method="bounded",
        options={"xatol": 1e-9},
    )
    assert abs(res.x - q / 2) <= 1e-3
    assert noise_energy_factor(q, q / 2) == pytest.approx(special.zeta(q) ** 2, rel=1e-13)
    for t in (0.05, 0.1, 0.2):
        if t < q / 2 - 0.5:
            assert noise_energy_factor(q, q / 2 + t) == pytest.approx(
                noise_energy_factor(q, q / 2 - t), rel=1e-12
            )
            assert noise_energy_factor(q, q / 2 + t) > noise_energy_factor(q, q / 2)
    with pytest.raises(ParameterError, match="p must lie in"):
        noise_energy_factor(q, q - 0.5)
    ps = np.linspace(0.51, q - 0.51, 7)
    assert noise_energy_factor(q, ps).tolist() == [noise_energy_factor(q, p) for p in ps]
    with pytest.raises(ParameterError, match="p must lie in"):
        noise_energy_factor(q, np.append(ps, q - 0.5))


@pytest.mark.parametrize(("eps", "q", "p"), [(1.0, 2.0, 1.0), (0.5, 3.0, 0.8), (2.0, 1.5, 0.75)])
def test_noise_energy_monte_carlo(eps: float, q: float, p: float) -> None:
    """The mean ‖Φ_K(η)‖² = Σ η_k² over 2·10⁴ draws (K = 20) is within 4 SE and 3 % of
    2γ² Σ_{k≤K} k^{−2p}; every coefficient has E|η_k| = b_k = γ/k^p (4.5 SE each)."""
    K, draws = 20, 20_000
    eta = perturbation(K, eps, q, p, np.random.default_rng(404), size=draws)
    assert eta.shape == (draws, K)
    gam = math.sqrt(special.zeta(2 * (q - p))) / eps
    expected = 2 * gam**2 * sum(k ** (-2 * p) for k in range(1, K + 1))
    assert noise_energy(K, gam, p) == pytest.approx(expected, rel=1e-13)
    energy = np.sum(eta**2, axis=1)
    mean, se = energy.mean(), energy.std(ddof=1) / math.sqrt(draws)
    assert abs(mean - expected) <= 4 * se
    assert abs(mean - expected) <= 0.03 * expected
    b = gam / np.arange(1, K + 1) ** p
    np.testing.assert_allclose(laplace_scales(K, gam, p), b, rtol=1e-14)
    ratio = np.abs(eta).mean(axis=0) / b  # |Lap(b)|/b ~ Exp(1): mean 1, sd 1
    assert np.all(np.abs(ratio - 1) <= 4.5 / math.sqrt(draws))
    centred = eta.mean(axis=0) / (b * math.sqrt(2))  # mean 0, sd 1/√draws
    assert np.all(np.abs(centred) <= 4.5 / math.sqrt(draws))
    if p == q / 2:  # the energy bound 2ζ(q)²/ε² at p = q/2
        assert mean <= 2 * special.zeta(q) ** 2 / eps**2 + 4 * se


@pytest.mark.parametrize("q", [1.5, 2.0, 4.0])
@pytest.mark.parametrize("eps", [0.3, 1.0, 5.0])
def test_noise_energy_bound_at_half_q(q: float, eps: float) -> None:
    """At p = q/2 the truncated energy is below 2ζ(q)²/ε² and tends to it as K grows."""
    bound = 2 * special.zeta(q) ** 2 / eps**2
    gam = gamma(eps, q, q / 2)
    for K in (1, 20, 200):
        assert noise_energy(K, gam, q / 2) < bound
    assert 2 * noise_energy_factor(q, q / 2) / eps**2 == pytest.approx(bound, rel=1e-13)
    tail = 200 ** (1 - q) / (q - 1)  # Σ_{k>200} k^{−q} ≤ ∫_200^∞
    assert bound - noise_energy(200, gam, q / 2) <= 2 * gam**2 * tail


def test_privacy_loss_is_at_most_eps_times_vq_norm() -> None:
    """Σ|Δ_k|/b_k ≤ ε‖Δ‖_{V_q}(1 + 1e-12) for 10³ random Δ (Gaussian, decaying, Cauchy, sparse)."""
    rng = np.random.default_rng(44)
    K = 50
    k = np.arange(1, K + 1, dtype=float)
    for q, p in [(2.0, 1.0), (1.5, 0.75), (4.0, 2.0), (3.0, 0.8), (4.0, 3.4)]:
        eps = float(rng.uniform(0.1, 10))
        scales = laplace_scales(K, gamma(eps, q, p), p)
        deltas = np.vstack(
            [
                rng.normal(size=(250, K)),
                rng.normal(size=(250, K)) * k ** rng.uniform(-2 * q, 0, size=(250, 1)),
                rng.standard_cauchy(size=(250, K)),
                rng.normal(size=(250, K)) * (rng.uniform(size=(250, K)) < 0.1),
            ]
        )
        loss, norm = privacy_loss(deltas, scales), vq_norm(deltas, q)
        assert loss.shape == norm.shape == (1000,)
        assert np.all(loss <= eps * norm * (1 + 1e-12))
        for d, lo, no in zip(deltas[::97], loss[::97], norm[::97], strict=True):  # brute-force sums
            assert lo == pytest.approx(sum(abs(d[i]) / scales[i] for i in range(K)), rel=1e-13)
            assert no == pytest.approx(
                math.sqrt(sum((i + 1) ** (2 * q) * d[i] ** 2 for i in range(K))), rel=1e-13
            )


def test_privacy_loss_is_the_largest_log_density_ratio() -> None:
    """``privacy_loss`` is sup_o log p(o − c)/p(o − c − Δ) for independent Laplace noise: never exceeded at
    random outputs, attained at ``o = c − sign(Δ)``."""
    rng = np.random.default_rng(45)
    K = 12
    scales = laplace_scales(K, gamma(1.0, 2.0, 1.0), 1.0)
    for _ in range(20):
        c, delta = rng.normal(size=K), rng.normal(size=K)

        def log_ratio(o: np.ndarray, c: np.ndarray = c, delta: np.ndarray = delta) -> float:
            return float(
                np.sum(stats.laplace.logpdf(o, c, scales) - stats.laplace.logpdf(o, c + delta, scales))
            )

        bound = float(privacy_loss(delta, scales))
        for _ in range(50):
            assert log_ratio(c + 3 * rng.normal(size=K) * scales) <= bound * (1 + 1e-12)
        assert log_ratio(c - np.sign(delta)) == pytest.approx(bound, rel=1e-10)


@pytest.mark.parametrize(("q", "p"), [(1.5, 0.75), (2.0, 1.0), (4.0, 2.0), (3.0, 0.8)])
def test_privacy_loss_worst_case_is_nearly_tight(q: float, p: float) -> None:
    """Δ_k = k^{p − 2q}, K = 10⁶ gives Σ|Δ_k|/b_k ≥ 0.999 ε‖Δ‖_{V_q} (Cauchy–Schwarz equality case)."""
    K, eps = 1_000_000, 0.7
    k = np.arange(1, K + 1, dtype=float)
    delta = k ** (p - 2 * q)
    ratio = privacy_loss(delta, laplace_scales(K, gamma(eps, q, p), p)) / (eps * vq_norm(delta, q))
    assert 0.999 <= ratio <= 1 + 1e-12


# --------------------------------------------------------------------------------------------------
# the bases
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lo", "hi"), [(-1.0, 1.0), (-0.5, 2.0)])
def test_basis1d_gram_is_identity(lo: float, hi: float) -> None:
    """⟨e_j, e_k⟩ = δ_jk within 1e-10, by the library's quadrature and by 60 scipy Gauss nodes."""
    basis = Basis1D(lo, hi, 20)
    np.testing.assert_allclose(basis.gram(), np.eye(20), rtol=0, atol=1e-10)
    x, w = gauss_nodes(lo, hi, 60)
    v = basis.values(x)
    np.testing.assert_allclose(v.T @ (v * w[:, None]), np.eye(20), rtol=0, atol=1e-10)


def test_basis2d_gram_is_identity() -> None:
    """The 2-D basis at M = 10 (K = 66) on [−3, 3]², 40 × 40 quadrature, and with 50 × 50 scipy nodes."""
    basis = Basis2D(3.0, 10)
    assert basis.K == 66
    np.testing.assert_allclose(basis.gram(40), np.eye(66), rtol=0, atol=1e-10)
    x, w = gauss_nodes(-3.0, 3.0, 50)
    pts = np.array([(a, b) for a in x for b in x])
    weights = np.array([wa * wb for wa in w for wb in w])
    v = basis.values(pts)
    np.testing.assert_allclose(v.T @ (v * weights[:, None]), np.eye(66), rtol=0, atol=1e-10)


def test_basis1d_values_and_derivatives_against_scipy() -> None:
    """Values against ``eval_legendre``; e' and e'' against the Legendre identities (interior) and the
    closed forms P_n'(±1) = (±1)^{n+1} n(n+1)/2, P_n''(±1) = (±1)^n (n−1)n(n+1)(n+2)/8 (endpoints)."""
    lo, hi, K = -0.5, 2.0, 20
    basis = Basis1D(lo, hi, K)
    x = np.random.default_rng(5).uniform(lo + 0.05, hi - 0.05, 40)
    v, d1, d2 = basis.tables(x)
    assert v.shape == d1.shape == d2.shape == (40, K)
    np.testing.assert_allclose(v, ref_values(x, lo, hi, K), rtol=0, atol=1e-12 * np.abs(v).max())
    r1, r2 = ref_derivatives(x, lo, hi, K)
    np.testing.assert_allclose(d1, r1, rtol=0, atol=1e-10 * np.abs(r1).max())
    np.testing.assert_allclose(d2, r2, rtol=0, atol=1e-10 * np.abs(r2).max())
    n = np.arange(K)
    scale, c = np.sqrt((2 * n + 1) / (hi - lo)), 2 / (hi - lo)
    p1, p2 = n * (n + 1) / 2, (n - 1) * n * (n + 1) * (n + 2) / 8
    _, e1, e2 = basis.tables(np.array([lo, hi]))
    np.testing.assert_allclose(e1[1], scale * c * p1, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(e2[1], scale * c**2 * p2, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(e1[0], scale * c * p1 * (-1.0) ** (n + 1), rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(e2[0], scale * c**2 * p2 * (-1.0) ** n, rtol=1e-11, atol=1e-12)


def test_basis_derivatives_against_finite_differences() -> None:
    """1-D e' from values and e'' from e'; 2-D gradients from values and Hessians from gradients (4th
    order central differences, h = 1e-3)."""
    h = 1e-3
    b1 = Basis1D(-1.0, 3.0, 8)
    x = np.linspace(-0.9, 2.9, 13)
    _, d1, d2 = b1.tables(x)
    np.testing.assert_allclose(d1, fd(b1.values, x, h), rtol=0, atol=1e-8 * np.abs(d1).max())
    np.testing.assert_allclose(d2, fd(lambda y: b1.tables(y)[1], x, h), rtol=0, atol=1e-8 * np.abs(d2).max())
    b2 = Basis2D(3.0, 6)
    pts = np.random.default_rng(6).uniform(-3, 3, (15, 2))
    v, grads, hess = b2.tables(pts)
    assert v.shape == (15, 28) and grads.shape == (15, 28, 2) and hess.shape == (15, 28, 2, 2)
    np.testing.assert_allclose(v, ref_values_2d(pts, 3.0, 6), rtol=0, atol=1e-12)
    for a in range(2):
        step = np.zeros(2)
        step[a] = 1.0
        g = fd(lambda s, step=step: b2.values(pts + s * step), 0.0, h)
        np.testing.assert_allclose(grads[..., a], g, rtol=0, atol=1e-8 * np.abs(grads).max())
        hcol = fd(lambda s, step=step: b2.tables(pts + s * step)[1], 0.0, h)  # ∂_a ∇e_k
        np.testing.assert_allclose(hess[..., a, :], hcol, rtol=0, atol=1e-8 * np.abs(hess).max())
    np.testing.assert_array_equal(hess[..., 0, 1], hess[..., 1, 0])


def test_one_point_legendre_row_is_legvander_bit_for_bit() -> None:
    """The one-point Vandermonde row (the minimiser's path) is NumPy's ``legvander``, exactly, signs of
    zeros included, for random points, the ends, ±0 and a point outside the interval."""
    extra = [-1.0, 1.0, 0.0, -0.0, 1e-300, 0.5, -2.5]
    pts = np.concatenate([np.random.default_rng(8).uniform(-1, 1, 300), extra])
    for n in (1, 2, 3, 11, 20, 60):
        for t in pts:
            want, got = legendre.legvander(np.array([t]), n - 1), _legvander_point(t, n)
            assert got.shape == want.shape == (1, n)
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_lower_order_tables_are_the_same_numbers() -> None:
    """``tables(x, order)`` with order 0 or 1 gives the leading arrays of the full tables, bit for bit,
    for many points and one point at a time (the one-point fast path); the cached derivative
    coefficients are ``legder`` of the identity and read-only; other orders are refused."""
    rng = np.random.default_rng(9)
    for basis, pts in (
        (Basis1D(-1.0, 3.0, 20), rng.uniform(-1.0, 3.0, 40)),
        (Basis2D(3.0, 10), rng.uniform(-3.0, 3.0, (40, 2))),
    ):
        full = basis.tables(pts)
        assert len(full) == 3
        np.testing.assert_array_equal(basis.values(pts), full[0])
        for order in (0, 1):
            part = basis.tables(pts, order)
            assert len(part) == order + 1
            for a, b in zip(part, full, strict=False):
                np.testing.assert_array_equal(a, b)
        for i, p in enumerate(pts[:15]):
            for a, b in zip(basis.tables(p, 1), full, strict=False):
                np.testing.assert_array_equal(a[0], b[i])
    for n, order in ((20, 1), (20, 2), (11, 1), (3, 2)):
        coefficients = _derivative_coefficients(n, order)
        np.testing.assert_array_equal(coefficients, legendre.legder(np.eye(n), order, axis=0))
        assert not coefficients.flags.writeable
    with pytest.raises(ParameterError, match="order"):
        Basis1D(-1.0, 1.0, 5).tables(0.0, 3)
    with pytest.raises(ParameterError, match="order"):
        Basis2D(1.0, 3).tables(np.zeros(2), -1)


def test_grid_table_is_the_direct_evaluation_kept_per_box() -> None:
    """The cached grid and table equal the grid and the basis's values computed directly, bit for bit; a
    second call returns the same read-only arrays; another box, grid or basis gets its own table; the
    cache is bounded."""
    b1 = Basis1D(-1.0, 1.0, 20)
    pts, table = grid_table(b1, np.array([-1.0]), np.array([1.0]))
    x = np.linspace(-1.0, 1.0, 2001)
    np.testing.assert_array_equal(pts[:, 0], x)
    np.testing.assert_array_equal(table, b1.values(x))
    again = grid_table(b1, np.array([-1.0]), np.array([1.0]), 2001)
    assert again[0] is pts and again[1] is table
    assert not pts.flags.writeable and not table.flags.writeable
    _, other = grid_table(b1, np.array([-0.5]), np.array([1.0]), 11)
    np.testing.assert_array_equal(other, b1.values(np.linspace(-0.5, 1.0, 11)))
    _, longer = grid_table(Basis1D(-1.0, 1.0, 21), np.array([-1.0]), np.array([1.0]))
    assert longer.shape == (2001, 21)
    b2 = Basis2D(3.0, 6)
    pts2, table2 = grid_table(b2, np.array([-3.0, -2.0]), np.array([3.0, 3.0]))
    u, v = np.meshgrid(np.linspace(-3, 3, 61), np.linspace(-2, 3, 61), indexing="ij")
    direct = np.column_stack([u.ravel(), v.ravel()])
    np.testing.assert_array_equal(pts2, direct)
    np.testing.assert_array_equal(table2, b2.values(direct))
    assert _grid_table.cache_info().maxsize == GRID_TABLES


def _poly_argmin_uncached(basis, c: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """``poly_argmin`` as it was before the grid cache: fresh full tables at every call."""
    if basis.dim == 1:
        pts = np.linspace(lower[0], upper[0], 2001)[:, None]
        values = basis.tables(pts[:, 0])[0] @ c
    else:
        u, v = np.meshgrid(
            np.linspace(lower[0], upper[0], 61), np.linspace(lower[1], upper[1], 61), indexing="ij"
        )
        pts = np.column_stack([u.ravel(), v.ravel()])
        values = basis.tables(pts)[0] @ c

    def fun(x: np.ndarray) -> tuple[float, np.ndarray]:
        v, g1, _ = basis.tables(x if basis.dim == 2 else x[0])
        grad = c @ g1[0] if basis.dim == 2 else np.array([g1[0] @ c])
        return float(v[0] @ c), grad

    res = optimize.minimize(fun, pts[int(np.argmin(values))], jac=True, method="L-BFGS-B",
                            bounds=list(zip(lower, upper, strict=True)),
                            options={"ftol": 1e-15, "gtol": 1e-12})  # fmt: skip
    return res.x


def test_poly_argmin_is_the_uncached_computation_bit_for_bit() -> None:
    """The cached grid table and the lighter tables of the minimiser's steps change no number: private
    optima of both problems at small and large ε equal those of the uncached computation exactly."""
    rng = np.random.default_rng(10)
    for P in (quad(0), logi(0)):
        for eps in (0.3, 3.0, 300.0):
            c = private_functions(P, eps, 2.0, 1.0, rng).sum(axis=0)
            np.testing.assert_array_equal(
                poly_argmin(P.basis, c, P.lower, P.upper), _poly_argmin_uncached(P.basis, c, P.lower, P.upper)
            )


def test_graded_order() -> None:
    """(i, j) by total degree, i descending within a degree; K = (M + 1)(M + 2)/2."""
    assert graded_indices(2).tolist() == [[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]]
    for M in range(13):
        idx = graded_indices(M)
        assert [tuple(r) for r in idx.tolist()] == ref_graded(M)
        assert Basis2D(1.0, M).K == len(idx) == (M + 1) * (M + 2) // 2
        np.testing.assert_array_equal(Basis2D(1.0, M).indices, idx)


def test_basis_projection_reproduces_expansions() -> None:
    """Quadrature coefficients of ``Σ c_k e_k`` (built from scipy's Legendre values) give back ``c``."""
    rng = np.random.default_rng(7)
    b1 = Basis1D(-2.0, 1.0, 15)
    c1 = rng.normal(size=15)
    np.testing.assert_allclose(b1.project(lambda x: ref_values(x, -2.0, 1.0, 15) @ c1), c1, atol=1e-12)
    b2 = Basis2D(2.0, 8)
    c2 = rng.normal(size=b2.K)
    np.testing.assert_allclose(b2.project(lambda x: ref_values_2d(x, 2.0, 8) @ c2), c2, atol=1e-12)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Basis1D(1.0, 1.0, 5), "lo < hi"),
        (lambda: Basis1D(2.0, 1.0, 5), "lo < hi"),
        (lambda: Basis1D(0.0, 1.0, 0), "K"),
        (lambda: Basis1D(0.0, 1.0, 201), "K"),
        (lambda: Basis1D(0.0, 1.0, 5.0), "K"),
        (lambda: Basis2D(0.0, 3), "R must be > 0"),
        (lambda: Basis2D(-1.0, 3), "R must be > 0"),
        (lambda: Basis2D(1.0, -1), "total degree M"),
        (lambda: Basis2D(1.0, 41), "total degree M"),
        (lambda: Basis2D(1.0, 3).tables(np.zeros((4, 3))), "shape"),
    ],
)
def test_basis_rejects_bad_parameters(make, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        make()


# --------------------------------------------------------------------------------------------------
# the regular set and the projection
# --------------------------------------------------------------------------------------------------


def test_regular_set_rows_1d() -> None:
    """The 1-D rows are (h'', −h'', h', −h') at the grid points with bounds (β, −α, ū, ū), against
    scipy's Legendre polynomials differentiated as ``poly1d``."""
    K, pts = 8, np.linspace(-1, 1, 11)
    basis = Basis1D(-1.0, 1.0, K)
    S = regular_set(basis, pts, 0.5, 3.0, 4.0)
    assert S.A.shape == (44, K) and (S.alpha, S.beta, S.u_bar) == (0.5, 3.0, 4.0)
    np.testing.assert_array_equal(S.u, np.repeat([3.0, -0.5, 4.0, 4.0], 11))
    c = np.random.default_rng(8).normal(size=K)
    poly = sum(special.legendre(k) * float(c[k] * math.sqrt((2 * k + 1) / 2)) for k in range(K))  # t = x
    h1, h2 = poly.deriv(1)(pts), poly.deriv(2)(pts)
    np.testing.assert_allclose(S.A @ c, np.concatenate([h2, -h2, h1, -h1]), rtol=0, atol=1e-9)
    assert S.violation(c) == pytest.approx(np.max(S.A @ c - S.u), rel=1e-15)


def test_regular_set_rows_2d() -> None:
    """The 2-D rows: uᵀ∇²h u for 8 directions on the half-circle (both bounds) and vᵀ∇h for 16 on the
    circle, compared as multisets with finite differences of scipy-built 2-D Legendre expansions."""
    R, M = 2.0, 5
    basis = Basis2D(R, M)
    pts = np.array([(-1.5, 0.3), (0.0, 0.0), (1.9, -1.9), (0.7, 1.2)])
    S = regular_set(basis, pts, 0.4, 5.0, 7.0)
    assert S.A.shape == (4 * (8 + 8 + 16), basis.K)
    c = np.random.default_rng(9).normal(size=basis.K)

    def h(x: np.ndarray) -> np.ndarray:
        return ref_values_2d(np.atleast_2d(x), R, M) @ c

    def grad_h(x: np.ndarray) -> np.ndarray:
        return fd_grad(lambda y: h(y)[0], x, 1e-3)

    expected_rows, expected_u = [], []
    for x in pts:
        grad, hess = grad_h(x), fd_grad(grad_h, x, 1e-3)
        for th in np.pi * np.arange(8) / 8:
            u = np.array([math.cos(th), math.sin(th)])
            expected_rows += [u @ hess @ u, -(u @ hess @ u)]
            expected_u += [5.0, -0.4]
        for th in 2 * np.pi * np.arange(16) / 16:
            expected_rows.append(np.array([math.cos(th), math.sin(th)]) @ grad)
            expected_u.append(7.0)
    order = np.argsort(S.A @ c)
    np.testing.assert_allclose((S.A @ c)[order], np.sort(expected_rows), rtol=0, atol=1e-6)
    np.testing.assert_allclose(S.u[order], np.array(expected_u)[np.argsort(expected_rows)], rtol=0)


@pytest.mark.parametrize(("alpha", "beta", "u_bar"), [(0.0, 1.0, 1.0), (2.0, 1.0, 1.0), (0.5, 1.0, 0.0)])
def test_regular_set_rejects_bad_constants(alpha: float, beta: float, u_bar: float) -> None:
    with pytest.raises(ParameterError, match="need 0 < alpha"):
        regular_set(Basis1D(-1.0, 1.0, 5), np.linspace(-1, 1, 5), alpha, beta, u_bar)


def brute_force_projection(c_hat: np.ndarray, A: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact least-distance solution by enumeration: the projection of ĉ onto the affine hull of every
    linearly independent set of rows; the closest candidate that is feasible. Also the active count."""
    m, K = A.shape
    tol = 1e-9 * max(1.0, float(np.max(np.abs(u))))
    best, best_dist, best_size = c_hat, math.inf, -1
    for size in range(K + 1):
        for rows in itertools.combinations(range(m), size):
            if size:
                As = A[list(rows)]
                if np.linalg.matrix_rank(As) < size:
                    continue
                lam = np.linalg.solve(As @ As.T, As @ c_hat - u[list(rows)])
                c = c_hat - As.T @ lam
            else:
                c = c_hat
            dist = float(np.linalg.norm(c - c_hat))
            if np.max(A @ c - u) <= tol and dist < best_dist - 1e-12:
                best, best_dist, best_size = c, dist, size
    return best, best_size


def test_projection_equals_brute_force_qp() -> None:
    """On a small 1-D instance (K = 5, 4 grid points, 16 rows) the projection equals the exact QP
    solution found by enumerating active sets, within 1e-8."""
    basis = Basis1D(-1.0, 1.0, 5)
    S = regular_set(basis, np.linspace(-1, 1, 4), 0.5, 3.0, 4.0)
    truth = basis.project(lambda x: 0.75 * (x - 0.2) ** 2)
    rng = np.random.default_rng(10)
    sizes = []
    for _ in range(6):
        c_hat = truth + rng.normal(0, 1.0, 5) * np.array([1, 1, 1, 0.5, 0.3])
        exact, size = brute_force_projection(c_hat, S.A, S.u)
        assert size >= 0  # a feasible candidate exists (S is not empty)
        np.testing.assert_allclose(project(c_hat, S), exact, rtol=0, atol=1e-8)
        sizes.append(size)
    assert max(sizes) >= 2  # several constraints active at once in at least one instance


def kkt_residual(c_hat: np.ndarray, c: np.ndarray, S: RegularSet) -> float:
    """Relative residual of ĉ − c = A_actᵀ λ, λ ≥ 0, over the rows within 1e-6·max|u| of their bound."""
    active = S.u - S.A @ c <= 1e-6 * max_u(S)
    move = c_hat - c
    if not active.any():
        return float(np.linalg.norm(move))
    _, res = optimize.nnls(S.A[active].T, move, maxiter=100 * int(active.sum()))
    return res / max(float(np.linalg.norm(move)), 1e-300)


def test_projection_quadratic_feasible_kkt_and_full_solve() -> None:
    """The projection (1-D, the E3 set-up, ε ∈ {1, 10}): the output meets A c ≤ u within 1e-7·max|u|,
    satisfies the KKT conditions (relative residual ≤ 1e-6) and equals the solve on all rows (margin = ∞)
    within 1e-10."""
    P = quad(0)
    rng = np.random.default_rng(11)
    for q, eps in itertools.product((1.5, 2.0, 4.0), (1.0, 10.0)):
        for i in range(4):
            c_hat = P.coefficients[i] + perturbation(20, eps, q, q / 2, rng)
            assert P.S.violation(c_hat) > 0
            c = project(c_hat, P.S)
            assert P.S.violation(c) <= 1e-7 * max_u(P.S)
            assert kkt_residual(c_hat, c, P.S) <= 1e-6
            np.testing.assert_allclose(c, project(c_hat, P.S, margin=np.inf), rtol=0, atol=1e-10)


def test_projection_quadratic_feasible_at_smallest_eps() -> None:
    """The projection at E3's smallest ε = 0.1 (1-D quadratics, K = 20, q ∈ {1.5, 2, 4})."""
    P = quad(0)
    rng = np.random.default_rng(7)
    worst = 0.0
    for q in (1.5, 2.0, 4.0):
        for i in range(40):
            c = project(P.coefficients[i % 10] + perturbation(20, 0.1, q, q / 2, rng), P.S)
            worst = max(worst, float(P.S.violation(c)) / max_u(P.S))
    assert worst <= 1e-7


def test_projection_logistic_feasible_kkt_and_full_solve() -> None:
    """The projection (2-D, the E4 set-up): feasibility within 1e-7·max|u| for ε ∈ {0.1, 1, 10}, KKT, and
    equality with the all-rows solve (1e-10) for ε ∈ {1, 10}."""
    P = logi(0)
    rng = np.random.default_rng(12)
    for eps in (0.1, 1.0, 10.0):
        for i in range(2):
            c_hat = P.coefficients[i] + perturbation(P.basis.K, eps, 2.0, 1.0, rng)
            c = project(c_hat, P.S)
            assert P.S.violation(c) <= 1e-7 * max_u(P.S)
            assert kkt_residual(c_hat, c, P.S) <= 1e-6
            if eps >= 1:
                np.testing.assert_allclose(c, project(c_hat, P.S, margin=np.inf), rtol=0, atol=1e-10)


def test_projection_returns_feasible_input_unchanged() -> None:
    """The truncated true functions are feasible, and come back equal (a copy, not the same array)."""
    for P in (quad(0), logi(0)):
        for c in P.coefficients:
            out = project(c, P.S)
            np.testing.assert_array_equal(out, c)
            assert out is not c


def test_projection_is_non_expansive() -> None:
    """‖Pa − Pb‖ ≤ ‖a − b‖(1 + 1e-6) on 50 random pairs (1-D, ε ∈ [0.3, 10]) and 6 pairs (2-D)."""
    rng = np.random.default_rng(13)
    P = quad(1)
    for _ in range(50):
        eps = float(np.exp(rng.uniform(np.log(0.3), np.log(10))))
        i, j = rng.integers(0, 10, 2)
        a = P.coefficients[i] + perturbation(20, eps, 2.0, 1.0, rng)
        b = P.coefficients[j] + perturbation(20, eps, 2.0, 1.0, rng)
        assert np.linalg.norm(project(a, P.S) - project(b, P.S)) <= np.linalg.norm(a - b) * (1 + 1e-6)
    L = logi(1)
    for _ in range(6):
        a = L.coefficients[0] + perturbation(L.basis.K, 1.0, 2.0, 1.0, rng)
        b = L.coefficients[1] + perturbation(L.basis.K, 1.0, 2.0, 1.0, rng)
        assert np.linalg.norm(project(a, L.S) - project(b, L.S)) <= np.linalg.norm(a - b) * (1 + 1e-6)


def test_projection_variational_inequality() -> None:
    """(ĉ − Pĉ)ᵀ(y − Pĉ) ≤ 1e-8 for every feasible y = a true coefficient vector (all 10 agents)."""
    rng = np.random.default_rng(14)
    for P, eps_values in ((quad(2), (0.1, 1.0, 10.0)), (logi(2), (0.1, 1.0))):
        for eps in eps_values:
            c_hat = P.coefficients[3] + perturbation(P.basis.K, eps, 2.0, 1.0, rng)
            c = project(c_hat, P.S)
            assert np.linalg.norm(c - c_hat) > 0
            assert np.all((P.coefficients - c) @ (c_hat - c) <= 1e-8)


def test_projection_raises_on_an_empty_set() -> None:
    """Linear functions (K = 2) cannot satisfy h'' ≥ α > 0."""
    S = regular_set(Basis1D(-1.0, 1.0, 2), np.linspace(-1, 1, 5), 0.5, 1.0, 3.0)
    with pytest.raises(ParameterError, match="regular set is empty"):
        project(np.array([0.1, 0.2]), S)


def test_projection_raises_on_every_input_when_the_set_is_empty() -> None:
    """h'' ≥ α = 1 on [−1, 1] forces h'(1) − h'(−1) ≥ 2 > 2ū = 1: S is empty, so every input must raise."""
    S = regular_set(Basis1D(-1.0, 1.0, 5), np.linspace(-1, 1, 21), 1.0, 2.0, 0.5)
    silent = []
    for seed in range(20):
        c_hat = np.random.default_rng(seed).normal(size=5)
        try:
            out = project(c_hat, S)
        except ParameterError:
            continue
        silent.append((seed, float(S.violation(out))))
    assert not silent, f"returned without error (seed, violation): {silent}"


@pytest.mark.parametrize("seed", range(5))
def test_truncated_quadratics_lie_in_s(seed: int) -> None:
    """The truth in S (1-D): violation ≤ 0, and the truncated truth has h'' = a_i, h' = a_i(x − θ_i) on the
    grid."""
    P = quad(seed)
    assert np.all(P.S.violation(P.coefficients) <= 0)
    x = np.linspace(-1, 1, 101)
    _, d1, d2 = P.basis.tables(x)
    a, theta = P.data["a"], P.data["theta"]
    np.testing.assert_allclose(P.coefficients @ d2.T, np.repeat(a[:, None], 101, axis=1), atol=1e-9)
    np.testing.assert_allclose(P.coefficients @ d1.T, a[:, None] * (x[None, :] - theta[:, None]), atol=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_truncated_logistic_objectives_lie_in_s(seed: int) -> None:
    """The truth in S (2-D): every agent's degree-10 truncation satisfies the 15 × 15 grid constraints."""
    P = logi(seed)
    assert np.all(P.S.violation(P.coefficients) <= 0), P.S.violation(P.coefficients)


# --------------------------------------------------------------------------------------------------
# the problems, minimisation, truncation bias and the linearised law
# --------------------------------------------------------------------------------------------------


def test_quadratic_problem_against_closed_forms() -> None:
    """Coefficients by 50 scipy Gauss nodes; x* by a bounded scalar minimisation; H = Σ a_i; gradients by
    finite differences of (a/2)(x − θ)² for one and for a batch of agent states."""
    P = quad(3)
    a, theta = P.data["a"], P.data["theta"]
    assert P.n_agents == 10 and P.dim == 1 and P.diameter == pytest.approx(2.0)
    assert np.all((a >= 1) & (a <= 2)) and np.all(np.abs(theta) <= 0.5)
    x, w = gauss_nodes(-1, 1, 50)
    ref = np.array(
        [ref_values(x, -1, 1, 20).T @ (ai / 2 * (x - ti) ** 2 * w) for ai, ti in zip(a, theta, strict=True)]
    )
    np.testing.assert_allclose(P.coefficients, ref, rtol=0, atol=1e-12)
    res = optimize.minimize_scalar(
        lambda y: float(np.sum(a / 2 * (y - theta) ** 2)),
        bounds=(-1, 1),
        method="bounded",
        options={"xatol": 1e-12},
    )
    assert P.x_star[0] == pytest.approx(res.x, abs=1e-8)
    assert P.hessian[0, 0] == pytest.approx(a.sum(), rel=1e-14)
    states = np.random.default_rng(15).uniform(-1, 1, (3, 10, 1))
    grads = P.gradients(states)
    assert grads.shape == (3, 10, 1)
    numeric = fd(lambda s: a[None, :, None] / 2 * (s - theta[None, :, None]) ** 2, states, 1e-4)
    np.testing.assert_allclose(grads, numeric, rtol=0, atol=1e-9)
    np.testing.assert_allclose(P.gradients(states[0]), grads[0], rtol=1e-15)


def test_logistic_problem_against_independent_objective() -> None:
    """Coefficients by 60 × 60 scipy nodes; gradients and the Hessian by finite differences of the
    written-out objective; x* by an independent Newton iteration (within 1e-6)."""
    P = logi(0)
    feats, labels, lam = P.data["features"], P.data["labels"], float(P.data["lam"][0])
    assert P.n_agents == 10 and P.dim == 2 and P.diameter == pytest.approx(6 * math.sqrt(2))
    assert set(np.unique(labels)) <= {-1.0, 1.0}
    x, w = gauss_nodes(-3, 3, 60)
    pts = np.array([(u, v) for u in x for v in x])
    weights = np.array([wu * wv for wu in w for wv in w])
    vals = ref_values_2d(pts, 3.0, 10)
    for i in (0, 7):
        f = np.array([logistic_value(pt, feats[i], labels[i], lam) for pt in pts])
        np.testing.assert_allclose(P.coefficients[i], vals.T @ (f * weights), rtol=0, atol=1e-9)
    states = np.random.default_rng(16).uniform(-3, 3, (10, 2))
    grads = P.gradients(states)
    assert grads.shape == (10, 2)
    for i in range(10):
        num = fd_grad(lambda y, i=i: logistic_value(y, feats[i], labels[i], lam), states[i], 1e-4)
        np.testing.assert_allclose(grads[i], num, rtol=0, atol=1e-6)
    np.testing.assert_allclose(P.gradients(np.stack([states, -states]))[1], P.gradients(-states), rtol=1e-14)
    flat_f, flat_b = feats.reshape(-1, 2), labels.ravel()

    def gradient(z: np.ndarray) -> np.ndarray:
        return logistic_gradient(z, flat_f, flat_b, lam)

    y = np.zeros(2)
    for _ in range(30):
        y = y - np.linalg.solve(fd_grad(gradient, y, 1e-4), gradient(y))
    assert np.linalg.norm(logistic_gradient(y, flat_f, flat_b, lam)) < 1e-10
    assert np.all(np.abs(y) < 3)  # interior optimum
    np.testing.assert_allclose(P.x_star, y, rtol=0, atol=1e-6)
    np.testing.assert_allclose(P.hessian, fd_grad(gradient, P.x_star, 1e-4), rtol=1e-6)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: quadratic_problem(0, 20, np.random.default_rng(0)), "n_agents"),
        (lambda: quadratic_problem(10, 2, np.random.default_rng(0)), "K ≥ 3"),
        (lambda: logistic_problem(0, 10, 4, np.random.default_rng(0)), "n_agents"),
        (lambda: logistic_problem(5, 0, 4, np.random.default_rng(0)), "records"),
    ],
)
def test_problems_reject_bad_sizes(make, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        make()


def test_poly_argmin_against_independent_minimisers() -> None:
    """1-D: an interior and a boundary minimum of known expansions; 2-D: Newton's method on the expansion
    (library tables, checked above) started from the library's answer stays put within 1e-8."""
    b1 = Basis1D(-1.0, 1.0, 6)
    lower, upper = np.array([-1.0]), np.array([1.0])
    inner = b1.project(lambda x: 1.3 * (x - 0.37) ** 2 + 0.1 * x**4)
    ref = optimize.minimize_scalar(
        lambda x: 1.3 * (x - 0.37) ** 2 + 0.1 * x**4,
        bounds=(-1, 1),
        method="bounded",
        options={"xatol": 1e-12},
    )
    assert poly_argmin(b1, inner, lower, upper)[0] == pytest.approx(ref.x, abs=1e-8)
    outside = b1.project(lambda x: (x - 2.0) ** 2)
    assert poly_argmin(b1, outside, lower, upper)[0] == pytest.approx(1.0, abs=1e-12)
    P = logi(1)
    c = P.coefficients.sum(axis=0)
    x = poly_argmin(P.basis, c, P.lower, P.upper)
    y = x.copy()
    for _ in range(5):
        _, g, h = P.basis.tables(y)
        y = y - np.linalg.solve(np.einsum("k,kab->ab", c, h[0]), c @ g[0])
    assert np.all(np.abs(y) < 3)  # interior, so the bounds do not bind
    np.testing.assert_allclose(x, y, rtol=0, atol=1e-8)


@pytest.mark.parametrize("seed", range(3))
def test_truncation_bias(seed: int) -> None:
    """With no noise (project the truths, sum, minimise) |x*_K − x*| < 1e-8 for quadratics and < 5e-4
    for the logistic problem."""
    for P, tol in ((quad(seed), 1e-8), (logi(seed), 5e-4)):
        tilde = np.array([project(c, P.S) for c in P.coefficients])
        x_k = poly_argmin(P.basis, tilde.sum(axis=0), P.lower, P.upper)
        assert np.linalg.norm(x_k - P.x_star) < tol


def linearised_draws(P: Problem, eps: float, q: float, draws: int, rng: np.random.Generator) -> np.ndarray:
    """Brute-force −H⁻¹ Σ_i Σ_k η_ik ∇e_k(x*) for 1-D problems, ∇e_k from the Legendre identities."""
    d1, _ = ref_derivatives(P.x_star, P.basis.lo, P.basis.hi, P.basis.K)
    scales = math.sqrt(special.zeta(q)) / eps / np.arange(1, P.basis.K + 1) ** (q / 2)
    eta = rng.laplace(0.0, 1.0, (draws, P.n_agents, P.basis.K)) * scales
    return -(eta.sum(axis=1) @ d1[0]) / P.hessian[0, 0]


@pytest.mark.parametrize("q", [1.5, 2.0, 4.0])
def test_linearised_rms_against_monte_carlo(q: float) -> None:
    """The linearised RMS equals a Monte Carlo of the linearised formula (2·10⁴ draws, within 4 SE of the
    mean square) and scales as 1/ε."""
    P = quad(0)
    delta = linearised_draws(P, 10.0, q, 20_000, np.random.default_rng(17))
    sq = delta**2
    predicted = linearised_rms(P, 10.0, q)
    assert abs(sq.mean() - predicted**2) <= 4 * sq.std(ddof=1) / math.sqrt(sq.size)
    assert linearised_rms(P, 1000.0, q) == pytest.approx(predicted / 100, rel=1e-12)
    assert linearised_rms(P, 10.0, q, q / 2) == predicted


def test_linearised_rms_2d_against_monte_carlo() -> None:
    """2-D: the same Monte Carlo with ∇e_k(x*) from the library tables and H from the problem."""
    P = logi(0)
    rng = np.random.default_rng(18)
    _, g, _ = P.basis.tables(P.x_star)
    draws = 20_000
    eta = perturbation(P.basis.K, 10.0, 2.0, 1.0, rng, (draws, P.n_agents)).sum(axis=1)  # (draws, K)
    delta = -np.linalg.solve(P.hessian, (eta @ g[0]).T).T
    sq = np.sum(delta**2, axis=1)
    assert abs(sq.mean() - linearised_rms(P, 10.0, 2.0) ** 2) <= 4 * sq.std(ddof=1) / math.sqrt(draws)


def test_private_optimum_at_large_eps_follows_the_linearised_law() -> None:
    """At ε = 10⁶ (projection inactive): every |x̃* − x*| ≤ 5 linearised RMS (30 draws), and the mean square
    is within 4 SE of the prediction; in 2-D against the noise-free pipeline optimum x*_K."""
    P = quad(0)
    rng = np.random.default_rng(19)
    rms = linearised_rms(P, 1e6, 2.0)
    errors = np.array([private_optimum(P, 1e6, 2.0, 1.0, rng)[0] - P.x_star[0] for _ in range(30)])
    assert np.all(np.abs(errors) <= 5 * rms)
    sq = errors**2
    assert abs(sq.mean() - rms**2) <= 4 * sq.std(ddof=1) / math.sqrt(sq.size)
    L = logi(0)
    x_k = poly_argmin(L.basis, L.coefficients.sum(axis=0), L.lower, L.upper)
    rms2 = linearised_rms(L, 1e6, 2.0)
    for _ in range(8):
        assert np.linalg.norm(private_optimum(L, 1e6, 2.0, 1.0, rng) - x_k) <= 5 * rms2


def test_private_functions_and_tradeoff_errors_are_the_documented_pipeline() -> None:
    """``private_functions`` = project(truth + perturbation) agent by agent, from the same draws;
    ``tradeoff_errors`` = |private_optimum − x*| run after run with p = q/2."""
    P = quad(4)
    got = private_functions(P, 3.0, 2.0, 1.0, np.random.default_rng(20))
    noise = perturbation(20, 3.0, 2.0, 1.0, np.random.default_rng(20), 10)
    np.testing.assert_array_equal(got, np.array([project(c, P.S) for c in P.coefficients + noise]))
    errors = tradeoff_errors((P, 4.0, 3.0, 3), np.random.default_rng(21))
    rng = np.random.default_rng(21)
    expected = [abs(private_optimum(P, 3.0, 4.0, 2.0, rng)[0] - P.x_star[0]) for _ in range(3)]
    np.testing.assert_allclose(errors, expected, rtol=1e-15)


# --------------------------------------------------------------------------------------------------
# the distributed gradient method
# --------------------------------------------------------------------------------------------------


def test_the_library_s_ring_is_the_cycle_with_two_chords() -> None:
    assert sorted(fp_chorded_ring(10).edges) == sorted(chorded_ring().edges)
    assert sorted(fp_chorded_ring(2).edges) == [(0, 1)]
    with pytest.raises(ParameterError, match="n ≥ 2"):
        fp_chorded_ring(1)


def test_lazy_metropolis_is_doubly_stochastic_with_positive_diagonal() -> None:
    """W = (I + A)/2 with a_ij = 1/max(d_i, d_j) on edges, built here by loops."""
    for G in (chorded_ring(), nx.path_graph(5), nx.star_graph(4), nx.complete_graph(4)):
        W = lazy_metropolis(G)
        n = G.number_of_nodes()
        np.testing.assert_allclose(W.sum(axis=0), np.ones(n), atol=1e-14)
        np.testing.assert_allclose(W.sum(axis=1), np.ones(n), atol=1e-14)
        np.testing.assert_array_equal(W, W.T)
        assert np.all(np.diag(W) > 0) and np.all(W >= 0)
        ref = np.zeros((n, n))
        for i, j in G.edges:
            ref[i, j] = ref[j, i] = 1 / max(G.degree(i), G.degree(j))
        ref += np.diag(1 - ref.sum(axis=1))
        np.testing.assert_allclose(W, (np.eye(n) + ref) / 2, atol=1e-15)
        np.testing.assert_allclose(W, (np.eye(n) + networks.metropolis_hastings(G).toarray()) / 2)


def test_dgd_matches_hand_written_loop() -> None:
    """``dgd`` = z = W x, x ← clip(z − ∇h_i(z)/(k + 1)) from 0, with h_i' from scipy's Legendre identities
    (1-D), and with gradients from the library tables (2-D)."""
    P = quad(1, K=8)
    W = lazy_metropolis(chorded_ring())
    c = P.coefficients + perturbation(8, 5.0, 2.0, 1.0, np.random.default_rng(22), 10)
    states = dgd(P.basis, c, W, P.lower, P.upper, 40)
    assert states.shape == (41, 10, 1)
    x = np.zeros(10)
    np.testing.assert_array_equal(states[0, :, 0], x)
    for k in range(40):
        z = W @ x
        d1, _ = ref_derivatives(z, -1.0, 1.0, 8)
        x = np.clip(z - np.sum(c * d1, axis=1) / (k + 1), -1, 1)
        np.testing.assert_allclose(states[k + 1, :, 0], x, rtol=0, atol=1e-10)
    assert dgd(P.basis, c, W, P.lower, P.upper, 40, record_every=10).shape == (5, 10, 1)
    L = logi(0)
    x2 = np.zeros((10, 2))
    states2 = dgd(L.basis, L.coefficients, W, L.lower, L.upper, 15)
    for k in range(15):
        z = W @ x2
        _, g, _ = L.basis.tables(z)
        grads = np.array([L.coefficients[i] @ g[i] for i in range(10)])
        x2 = np.clip(z - grads / (k + 1), -3, 3)
        np.testing.assert_allclose(states2[k + 1], x2, rtol=0, atol=1e-10)
    with pytest.raises(ParameterError, match="W must be"):
        dgd(P.basis, c, np.eye(9), P.lower, P.upper, 5)


def test_dgd_converges_to_the_private_optimum() -> None:
    """One realisation (1-D quadratics, ε = 10, q = 2), 5000 iterations, lazy Metropolis on the
    chorded 10-cycle: max_i |x_i − x̃*| ≤ 1e-3, and |x̄ − x*| within 1e-3 of |x̃* − x*|."""
    P = quad(0)
    tilde = private_functions(P, 10.0, 2.0, 1.0, np.random.default_rng(23))
    x_tilde = poly_argmin(P.basis, tilde.sum(axis=0), P.lower, P.upper)
    states = dgd(P.basis, tilde, lazy_metropolis(chorded_ring()), P.lower, P.upper, 5000, record_every=1000)
    assert states.shape == (6, 10, 1)
    final = states[-1]
    assert np.max(np.abs(final - x_tilde)) <= 1e-3
    gap = abs(np.linalg.norm(final.mean(axis=0) - P.x_star) - np.linalg.norm(x_tilde - P.x_star))
    assert gap <= 1e-3


# --------------------------------------------------------------------------------------------------
# the message-perturbation baseline and its accountant
# --------------------------------------------------------------------------------------------------


def test_geometric_and_convergent_schedules() -> None:
    steps, scales = geometric_schedule(6, 0.1, 0.9, 0.95, 2.0)
    np.testing.assert_allclose(steps, [0.1 * 0.9**k for k in range(6)], rtol=1e-15)
    np.testing.assert_allclose(scales, [2.0 * 0.95**k for k in range(7)], rtol=1e-15)
    steps, scales = convergent_schedule(6)
    np.testing.assert_allclose(steps, [0.5 / (k + 1) ** 0.7 for k in range(6)], rtol=1e-15)
    np.testing.assert_allclose(scales, [0.3 / (k + 1) for k in range(7)], rtol=1e-15)


def test_run_messages_without_noise_equals_hand_written_loop() -> None:
    """Zero noise and a fixed schedule give exactly x ← clip(Wx − s_k a(Wx − θ)); messages = states."""
    P = quad(0)
    W = lazy_metropolis(chorded_ring())
    steps, scales = geometric_schedule(60, 0.3, 0.95, 0.97, 0.0)
    states, messages = run_messages(
        P.gradients, W, P.lower, P.upper, steps, scales, np.random.default_rng(0), 2
    )
    assert states.shape == (61, 2, 10, 1) and messages.shape == (60, 2, 10, 1)
    a, theta = P.data["a"], P.data["theta"]
    x = np.zeros(10)
    for k in range(60):
        z = W @ x
        x = np.clip(z - steps[k] * a * (z - theta), -1, 1)
        for r in range(2):
            np.testing.assert_allclose(states[k + 1, r, :, 0], x, rtol=0, atol=1e-14)
            np.testing.assert_array_equal(messages[k, r], states[k, r])


@pytest.mark.parametrize("problem", ["quadratic", "logistic"])
def test_run_message_batch_is_run_messages_on_each_schedule_bit_for_bit(problem: str, monkeypatch) -> None:
    """Schedules run side by side, in several groups and noise blocks (some without noise, one noisy
    only from its third message), give the final states of :func:`run_messages` called on each in turn,
    bit for bit, and leave the generator where those calls leave it."""
    P = quad(3) if problem == "quadratic" else logistic_problem(10, 4, 4, np.random.default_rng(3))
    W = lazy_metropolis(chorded_ring())
    schedules = [geometric_schedule(40, c, 0.9, 0.95, b0) for c in (0.1, 0.3) for b0 in (0.0, 0.2, 0.05)]
    late = geometric_schedule(40, 0.2, 0.9, 0.95, 0.1)
    schedules.append((late[0], np.where(np.arange(41) < 2, 0.0, late[1])))
    steps, scales = (np.array(part) for part in zip(*schedules, strict=True))
    monkeypatch.setattr("dpnet.funcpert.message.GROUP_VALUES", 3 * 10 * P.dim * 2)  # groups of 2
    monkeypatch.setattr("dpnet.funcpert.message.NOISE_BLOCK", 1000)  # blocks of a few messages
    batch_rng, loop_rng = np.random.default_rng(8), np.random.default_rng(8)
    final = run_message_batch(P.gradients, W, P.lower, P.upper, steps, scales, batch_rng, 3)
    assert final.shape == (len(schedules), 3, 10, P.dim)
    for s, (st, sc) in enumerate(schedules):
        states, _ = run_messages(P.gradients, W, P.lower, P.upper, st, sc, loop_rng, 3)
        np.testing.assert_array_equal(final[s], states[-1])
    assert batch_rng.bit_generator.state == loop_rng.bit_generator.state


def test_projections_onto_a_basis_are_the_direct_quadrature_bit_for_bit() -> None:
    """The kept quadrature tables give the numbers of the quadrature computed afresh, and a caller's
    change to the nodes it was given does not reach them."""
    for basis, f in ((Basis1D(-1.0, 2.0, 9), np.cos), (Basis2D(3.0, 6), lambda x: np.exp(-x @ [0.3, 0.1]))):
        x, w = basis.quadrature()
        direct = basis.values(x).T @ (np.asarray(f(x), dtype=float) * w)
        np.testing.assert_array_equal(basis.project(f), direct)
        x[...] = 0.0
        np.testing.assert_array_equal(basis.project(f), direct)  # from the kept table


def test_run_messages_noise_has_scale_b_k() -> None:
    """ξ(k) − x(k) ~ Lap(b_k): E|ξ − x|/b_k = 1 within 4.5 SE for k = 0..3 (b_k halves each step)."""
    P = quad(0)
    W = lazy_metropolis(chorded_ring())
    steps, scales = geometric_schedule(4, 0.1, 0.4, 0.5, 1.0)
    runs = 2000
    states, messages = run_messages(
        P.gradients, W, P.lower, P.upper, steps, scales, np.random.default_rng(24), runs
    )
    noise = messages - states[:-1]
    for k in range(4):
        ratio = np.abs(noise[k]).mean() / scales[k]
        assert abs(ratio - 1) <= 4.5 / math.sqrt(runs * 10)


def test_message_scheme_noise_free_floor() -> None:
    """Noise-free geometric steps, (c, ρ_s) = (0.1, 0.99) ends within 1e-3 of x*; (0.1, 0.9) stops
    farther away (Σ s_k = 1 against 10). The floor draws nothing from its generator."""
    P = quad(0)
    W = lazy_metropolis(chorded_ring())
    errors = {
        rho_s: noise_free_floor(P, W, 0.1, rho_s, np.random.default_rng(1), iterations=2000)
        for rho_s in (0.9, 0.99)
    }
    assert noise_free_floor(P, W, 0.1, 0.9, np.random.default_rng(0), iterations=2000) == errors[0.9]
    assert errors[0.99] < 1e-3
    assert errors[0.9] > errors[0.99]


@pytest.mark.parametrize(
    ("eps", "c", "rho_s", "rho_eta", "sensitivity", "d"),
    [(1.0, 0.1, 0.9, 0.95, 2.0, 1), (0.3, 0.5, 0.99, 0.995, 1.0, 1), (10.0, 0.05, 0.9, 0.97, 2.8, 2)],
)
def test_geometric_accountant_tends_to_eps(eps, c, rho_s, rho_eta, sensitivity, d) -> None:
    """With b₀ from ``geometric_b0``, L_K → ε (rtol 1e-6 at K = 5000), increasing, never above ε;
    L_K equals the loop √d Δ Σ_{k<K} s_k/b_{k+1}."""
    b0 = geometric_b0(eps, c, rho_s, rho_eta, sensitivity, d)
    assert b0 == pytest.approx(math.sqrt(d) * sensitivity * c / (eps * (rho_eta - rho_s)), rel=1e-14)
    steps, scales = geometric_schedule(5000, c, rho_s, rho_eta, b0)
    L = privacy_loss_bound(steps, scales, sensitivity, d)
    assert L.shape == (5000,)
    assert L[-1] == pytest.approx(eps, rel=1e-6)
    assert np.all(np.diff(L) >= 0) and L[-1] <= eps * (1 + 1e-12)  # increments fall below one ulp late on
    total = 0.0
    for K in range(1, 21):
        total += math.sqrt(d) * sensitivity * c * rho_s ** (K - 1) / (b0 * rho_eta**K)
        assert L[K - 1] == pytest.approx(total, rel=1e-12)


def test_convergent_accountant_grows_without_bound() -> None:
    """s_k = 0.5/(k + 1)^0.7, b_k = 0.3/(k + 1): L_{10⁴}/L_{10²} ≥ 50 (≈ 100^{1.3})."""
    steps, scales = convergent_schedule(10_000)
    L = privacy_loss_bound(steps, scales, 1.0)
    assert L[9999] / L[99] >= 50
    assert np.all(np.diff(L) > 0)


@pytest.mark.parametrize(
    "args",
    [
        (1.0, 0.1, 0.95, 0.9, 1.0),
        (1.0, 0.1, 0.9, 0.9, 1.0),
        (1.0, 0.1, 0.9, 1.0, 1.0),
        (1.0, 0.1, 0.0, 0.5, 1.0),
        (1.0, 0.0, 0.5, 0.9, 1.0),
        (0.0, 0.1, 0.5, 0.9, 1.0),
        (math.nan, 0.1, 0.5, 0.9, 1.0),
        (1.0, 0.1, 0.5, 0.9, 0.0),
    ],
)
def test_geometric_b0_rejects_bad_parameters(args: tuple[float, ...]) -> None:
    with pytest.raises(ParameterError, match="need 0 < rho_s < rho_eta < 1"):
        geometric_b0(*args)


def test_tuned_message_errors_rows() -> None:
    """One row per (c, ρ_s, ρ_η, ε); ρ_η a third and two thirds of the way to 1; the ε = ∞ rows equal a
    noise-free run."""
    P = quad(0)
    W = lazy_metropolis(chorded_ring())
    rows = tuned_message_errors(
        P,
        W,
        np.array([np.inf, 10.0]),
        2.0,
        np.random.default_rng(25),
        runs=5,
        iterations=200,
        cs=(0.1,),
        rho_s_values=(0.9,),
    )
    assert len(rows) == 4
    assert [r["rho_eta"] for r in rows] == pytest.approx([0.9 + 0.1 / 3] * 2 + [0.9 + 0.2 / 3] * 2)
    assert [r["eps"] for r in rows] == [math.inf, 10.0, math.inf, 10.0]
    for r in rows[::2]:
        steps, scales = geometric_schedule(200, 0.1, 0.9, r["rho_eta"], 0.0)
        states, _ = run_messages(P.gradients, W, P.lower, P.upper, steps, scales, np.random.default_rng(0), 1)
        assert r["error"] == pytest.approx(abs(states[-1, 0].mean() - P.x_star[0]), rel=1e-12)
    assert all(r["error"] >= 0 for r in rows)


# --------------------------------------------------------------------------------------------------
# the error-rate floor, record-level sensitivity and the impossibility demonstration
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_error_rate_floor(eps: float) -> None:
    """The min over the allowed region of max(p_FA, p_MD) = 1/(1 + e^ε) within 1e-3."""
    assert error_rate_floor(eps) == pytest.approx(1 / (1 + math.exp(eps)), abs=1e-3)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0])
def test_min_miss_probability_is_the_boundary_of_the_dp_region(eps: float) -> None:
    """The region {1 − p_MD ≤ e^ε p_FA, 1 − p_FA ≤ e^ε p_MD} on a 401 × 401 grid: every allowed point lies on
    or above the curve, the curve itself is allowed, and the grid's lowest allowed p_MD per column is
    within one grid step of it; endpoint values by hand."""
    grid = np.linspace(0, 1, 401)
    curve = min_miss_probability(grid, eps)
    assert np.all((curve >= 0) & (curve <= 1))
    e = math.exp(eps)
    assert np.all(1 - curve <= e * grid + 1e-12) and np.all(1 - grid <= e * curve + 1e-12)
    fa, md = np.meshgrid(grid, grid, indexing="ij")
    allowed = (1 - md <= e * fa + 1e-12) & (1 - fa <= e * md + 1e-12)
    assert np.all(md[allowed] >= np.broadcast_to(curve[:, None], md.shape)[allowed] - 1e-12)
    lowest = np.where(allowed, md, np.inf).min(axis=1)
    assert np.all(lowest - curve <= 1 / 400 + 1e-12)
    floor = np.min(np.where(allowed, np.maximum(fa, md), np.inf))
    assert abs(floor - 1 / (1 + e)) <= 1 / 400
    assert min_miss_probability(np.array([0.0]), eps)[0] == pytest.approx(1.0)
    assert min_miss_probability(np.array([1.0]), eps)[0] == pytest.approx(0.0)
    p = 0.3 / e
    assert min_miss_probability(np.array([p]), eps)[0] == pytest.approx(max(0.7, (1 - p) / e), rel=1e-14)


def test_record_sensitivities_stable_in_degree() -> None:
    """Record-level sensitivity (R = 3, q = 2, 3 × 3 lattice of features to stay fast): the V_q sensitivity
    changes by < 1 % from M = 14 to M = 18; at M = 14 the V_q and L² values equal an independent
    computation (60 × 60 scipy nodes) and the L² maximum is 6√6 (the pair a = (1, 1), b = ±1 differs by
    the linear aᵀx); the gradient gap equals a brute-force maximum over the 41 × 41 box grid."""
    b14 = Basis2D(3.0, 14)
    r14 = record_sensitivities(b14, 2.0, grid=3)
    r18 = record_sensitivities(Basis2D(3.0, 18), 2.0, grid=3)
    assert abs(r18["vq"] / r14["vq"] - 1) < 0.01
    assert r14["l2"] == pytest.approx(6 * math.sqrt(6), rel=1e-9)
    axis = np.linspace(0, 1, 3)
    records = [(np.array([u, v]), b) for u in axis for v in axis for b in (-1.0, 1.0)]
    x, w = gauss_nodes(-3, 3, 60)
    pts = np.array([(u, v) for u in x for v in x])
    weights = np.array([wu * wv for wu in w for wv in w])
    vals = ref_values_2d(pts, 3.0, 14)
    coeffs = np.array([vals.T @ (np.logaddexp(0, -b * (pts @ a)) * weights) for a, b in records])
    k = np.arange(1, b14.K + 1)
    vq, l2 = 0.0, 0.0
    for i, j in itertools.combinations(range(len(records)), 2):
        diff = coeffs[i] - coeffs[j]
        vq = max(vq, float(np.sqrt(np.sum(k**4 * diff**2))))
        l2 = max(l2, float(np.linalg.norm(diff)))
    assert r14["vq"] == pytest.approx(vq, rel=1e-8)
    assert r14["l2"] == pytest.approx(l2, rel=1e-8)
    box = np.linspace(-3, 3, 41)
    grid_pts = np.array([(u, v) for u in box for v in box])
    grads = [-b * special.expit(-b * (grid_pts @ a))[:, None] * a for a, b in records]
    gap = max(float(np.max(np.linalg.norm(g1 - g2, axis=1))) for g1, g2 in itertools.combinations(grads, 2))
    assert r14["gradient"] == pytest.approx(gap, rel=1e-12)


def test_impossibility_curve_log_ratio_grows() -> None:
    """Convergent message perturbation, adjacent inputs (θ_1 + 0.8), 400 runs, 100 messages: probabilities
    in [0, 1], equal to hits counted by hand from the same draws; the 95 % lower bound on the log-ratio is
    the Clopper–Pearson one, at most its cap, ≥ 4 at K = 100 and larger than at K = 10."""
    P = quad(0)
    theta = P.data["theta"].copy()
    theta[0] += 0.8
    a = P.data["a"]
    Q = dataclasses.replace(P, data={"a": a, "theta": theta}, x_star=np.array([np.sum(a * theta) / a.sum()]))
    W = lazy_metropolis(chorded_ring())
    steps, scales = convergent_schedule(100)
    runs = 400
    out = impossibility_curve(P, Q, W, steps, scales, 0.03, runs, np.random.default_rng(26))
    np.testing.assert_array_equal(out["K"], np.arange(1, 101))
    for key in ("p_I", "p_I_prime"):
        assert out[key].shape == (100,) and np.all((out[key] >= 0) & (out[key] <= 1))
    rng = np.random.default_rng(26)
    for prob, key in ((P, "hits_I"), (Q, "hits_I_prime")):
        _, messages = run_messages(prob.gradients, W, prob.lower, prob.upper, steps, scales, rng, runs)
        for K in (1, 10, 50, 100):
            hits = sum(abs(messages[K - 1, r, :, 0].mean() - P.x_star[0]) < 0.03 for r in range(runs))
            assert out[key][K - 1] == hits
    lower_i = np.where(out["hits_I"] > 0, stats.beta.ppf(0.025, np.maximum(out["hits_I"], 1),
                                                         runs - out["hits_I"] + 1), 0.0)  # fmt: skip
    upper_j = stats.beta.ppf(0.975, out["hits_I_prime"] + 1, runs - out["hits_I_prime"])
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(out["log_ratio_lower"], np.log(lower_i) - np.log(upper_j), rtol=1e-12)
    cap = math.log(0.025 ** (1 / runs)) - math.log(1 - 0.025 ** (1 / runs))
    assert np.all(out["log_ratio_lower"] <= cap + 1e-12)
    assert out["log_ratio_lower"][99] >= 4
    assert out["log_ratio_lower"][99] > out["log_ratio_lower"][9]


def test_extremal_shift_attains_the_privacy_bound() -> None:
    from dpnet import funcpert as fp

    delta = fp.extremal_shift(200_000, 2.0, 1.0)
    assert delta[:3] == pytest.approx([1.0, 2.0**-3, 3.0**-3], rel=1e-15)
    scales = fp.laplace_scales(delta.size, fp.gamma(1.0, 2.0, 1.0), 1.0)
    assert fp.privacy_loss(delta, scales) / fp.vq_norm(delta, 2.0) == pytest.approx(1.0, abs=1e-4)


def test_shifted_quadratic_is_a_consistent_adjacent_problem() -> None:
    from dpnet import funcpert as fp

    q = fp.quadratic_problem(5, 8, np.random.default_rng(3))
    s = fp.shifted_quadratic(q, 2, 0.3)
    a, th = q.data["a"], q.data["theta"].copy()
    th[2] += 0.3
    assert s.x_star[0] == pytest.approx(np.sum(a * th) / a.sum(), rel=1e-14)
    assert fp.poly_argmin(s.basis, s.coefficients.sum(0), s.lower, s.upper)[0] == pytest.approx(
        s.x_star[0], abs=1e-8
    )
    np.testing.assert_array_equal(np.delete(s.coefficients, 2, axis=0), np.delete(q.coefficients, 2, axis=0))
    assert q.data["theta"][2] == pytest.approx(th[2] - 0.3)  # the original is untouched


def test_projection_diagnostics_match_direct_computation() -> None:
    """The diagnostics against a direct computation: the variational inequality over every input and every
    point of S given (the agents' truths) or output (the projections), as many pairs as that."""
    from dpnet import funcpert as fp

    q = fp.quadratic_problem(3, 12, np.random.default_rng(1))
    draws = q.coefficients[0] + fp.perturbation(12, 1.0, 2.0, 1.0, np.random.default_rng(2), 10)
    d = fp.projection_diagnostics(draws, q.S, q.coefficients)
    out = np.array([fp.project(c, q.S) for c in draws])
    gaps = [
        np.linalg.norm(out[i] - out[i + 1]) / np.linalg.norm(draws[i] - draws[i + 1]) - 1
        for i in (0, 2, 4, 6, 8)
    ]
    assert d["expansion"] == pytest.approx(max(gaps), rel=1e-12)
    points = [*q.coefficients, *out]
    assert d["variational"] == pytest.approx(
        max((c - o) @ (y - o) for c, o in zip(draws, out, strict=True) for y in points), abs=1e-15
    )
    assert d["pairs"] == 10 * (3 + 10)
    assert d["unchanged"] is True and d["violation"] <= 1e-10
    # one feasible point given as a vector is accepted
    assert fp.projection_diagnostics(draws, q.S, q.coefficients[0])["pairs"] == 10 * (1 + 10)
    with pytest.raises(ParameterError):
        fp.projection_diagnostics(draws[:3], q.S, q.coefficients[0])


def test_message_scheme_takes_its_gradients_inside_x() -> None:
    """The accountant's Δ is a supremum over X: every point the scheme takes a gradient at lies in X, even
    when the noise carries the messages far outside it, and one step is the hand-written
    x ← clip(z − s a(z − θ)) with z = clip(W ξ)."""
    P = quad(0)
    W = lazy_metropolis(chorded_ring())
    seen = []

    def gradients(z):
        seen.append(z.copy())
        return P.gradients(z)

    steps, scales = geometric_schedule(5, 0.1, 0.9, 0.95, 50.0)
    states, messages = run_messages(
        gradients, W, P.lower, P.upper, steps, scales, np.random.default_rng(3), 4
    )
    assert np.abs(messages).max() > 10  # the messages leave X = [−1, 1] ...
    assert all(np.all((z >= -1) & (z <= 1)) for z in seen)  # ... the gradients' points do not
    a, theta = P.data["a"], P.data["theta"]
    z = np.clip(W @ messages[2, 1, :, 0], -1, 1)
    np.testing.assert_allclose(states[3, 1, :, 0], np.clip(z - steps[2] * a * (z - theta), -1, 1), atol=1e-14)


def test_consensus_floor_is_the_mean_quadratic_s_product() -> None:
    """|x*| Π_k (1 − s_k ā), and the noise-free floor is near it when the agents' optimum is far from the
    start (the adjacent problem with θ_0 + 0.8)."""
    from dpnet import funcpert as fp

    P = quad(0)
    s_k = 0.1 * 0.9 ** np.arange(3000)
    expected = abs(P.x_star[0]) * np.prod(1 - s_k * P.data["a"].mean())
    assert fp.consensus_floor(P, 0.1, 0.9) == pytest.approx(expected, rel=1e-12)
    far = fp.shifted_quadratic(P, 0, 0.8)
    W = lazy_metropolis(chorded_ring())
    ratio = noise_free_floor(far, W, 0.1, 0.9, np.random.default_rng(0)) / fp.consensus_floor(far, 0.1, 0.9)
    assert 2 / 3 <= ratio <= 3 / 2
    with pytest.raises(ParameterError):
        fp.consensus_floor(logi(0), 0.1, 0.9)


def test_quadratic_with_order_keeps_the_agents_and_changes_the_basis() -> None:
    from dpnet import funcpert as fp

    P = quad(0)
    Q = fp.quadratic_with_order(P, 40)
    assert Q.basis.K == 40 and Q.S.A.shape[1] == 40
    np.testing.assert_array_equal(Q.data["a"], P.data["a"])
    np.testing.assert_allclose(Q.coefficients[:, :20], P.coefficients, atol=1e-12)
    assert np.abs(Q.coefficients[:, 3:]).max() <= 1e-12  # a quadratic lies in the first three functions
    assert Q.x_star == P.x_star
    with pytest.raises(ParameterError):
        fp.quadratic_with_order(logi(0), 10)


def test_clopper_pearson_against_the_binomial_tails() -> None:
    """The lower bound is where P(Bin(n, p) ≥ k) = α, the upper where P(Bin(n, p) ≤ k) = α; 0 and 1 at the
    ends."""
    from dpnet.funcpert import clopper_pearson

    lower, upper = clopper_pearson(np.array([0, 3, 20, 20]), 20, 0.025)
    assert lower[0] == 0.0 and upper[-1] == 1.0
    assert stats.binom.sf(2, 20, lower[1]) == pytest.approx(0.025, rel=1e-9)
    assert stats.binom.cdf(3, 20, upper[1]) == pytest.approx(0.025, rel=1e-9)
    assert upper[0] == pytest.approx(1 - 0.025 ** (1 / 20), rel=1e-12)
    with pytest.raises(ParameterError):
        clopper_pearson(21, 20, 0.05)


def test_an_audit_of_the_laplace_mechanism_stays_below_its_loss_and_finds_too_little_noise() -> None:
    """One coefficient, shift 1, scale 1: the exact loss is 1, and the event {T > t} at the largest t
    attains it (y beyond both centres). The audit's bound stays below 1 and reaches most of it; with half
    the noise (loss 2) it exceeds 1. Its error pairs are those of the thresholds, and its cap is the bound
    of an event every draw of one input falls in and none of the other."""
    from dpnet.funcpert import likelihood_ratio_audit, log_ratio_lower_bound
    from dpnet.funcpert.audit import THRESHOLDS

    fair = likelihood_ratio_audit(np.array([1.0]), np.array([1.0]), 50_000, np.random.default_rng(5))
    bound = fair.log_ratio(1e-3)
    assert 0.8 <= bound <= 1.0
    thin = likelihood_ratio_audit(np.array([1.0]), np.array([0.5]), 50_000, np.random.default_rng(5))
    assert thin.log_ratio(1e-3) > 1.0
    fa, md = fair.errors()
    t = fair.thresholds
    assert fa.shape == md.shape == (THRESHOLDS,)
    assert fa[10] == np.mean(fair.null > t[10]) and md[10] == np.mean(fair.alternative <= t[10])
    level = 1e-3 / (2 * THRESHOLDS)
    assert fair.cap(1e-3) == pytest.approx(float(log_ratio_lower_bound(50_000, 50_000, 0, 50_000, level)))
    with pytest.raises(ParameterError):
        likelihood_ratio_audit(np.ones(2), np.ones(3), 10, np.random.default_rng(0))


def test_record_sensitivities_exact_loss_is_the_sum_over_the_worst_pair() -> None:
    """The exact loss Σ_k |Δ_k|/b_k of the worst pair at function-level ε = 1 (p = q/2) is at most its
    V_q bound and is the loss of the pair :func:`worst_record_difference` returns."""
    from dpnet import funcpert as fp

    basis = Basis2D(3.0, 6)
    sens = record_sensitivities(basis, 2.0, grid=3)
    delta = fp.worst_record_difference(basis, 2.0, grid=3)
    scales = laplace_scales(basis.K, gamma(1.0, 2.0, 1.0), 1.0)
    assert float(np.sum(np.abs(delta) / scales)) == pytest.approx(sens["loss"], rel=1e-12)
    assert sens["loss"] <= sens["vq"]


def test_a_projection_onto_many_basis_functions_needs_as_many_nodes_and_is_then_exact() -> None:
    """200 Legendre functions: 80 nodes alias the high coefficients (the curve was off by 2.8), so fewer than
    K nodes are refused; the default takes max(80, K) and reproduces a quadratic to rounding."""
    from dpnet.funcpert import Basis1D

    fine = Basis1D(-1.0, 1.0, 200)
    with pytest.raises(ParameterError):
        fine.project(lambda x: x**2, n_nodes=80)
    c = fine.project(lambda x: 0.75 * (x - 0.2) ** 2)
    assert np.max(np.abs(c[3:])) < 1e-12
    xs = np.linspace(-1, 1, 801)
    assert np.max(np.abs(fine.values(xs) @ c - 0.75 * (xs - 0.2) ** 2)) < 1e-9
    # below 80 functions the default is unchanged: 80 nodes
    small_basis = Basis1D(-1.0, 1.0, 20)
    np.testing.assert_array_equal(small_basis.project(np.cos), small_basis.project(np.cos, n_nodes=80))


def test_where_the_projection_acts_is_recorded() -> None:
    """A feasible function is not moved; one whose curvature leaves the band near x = 1 is, and its worst
    violation lies at the grid's end. The activity study reproduces tradeoff_errors' draws and errors."""
    from dpnet import funcpert as fp

    quad = fp.quadratic_problem(4, 20, np.random.default_rng(1))
    assert not fp.moved_by_projection(quad.coefficients, quad.S).any()
    bumped = quad.coefficients[0].copy()
    bumped[19] += 1e-3  # e_20'' is about 8·10⁴ at ±1: a curvature of 80 there
    assert fp.moved_by_projection(bumped, quad.S)
    assert abs(float(fp.worst_point(bumped, quad.S))) == 1.0
    out = fp.projection_activity(quad, 2.0, 1000.0, 6, np.random.default_rng(3))
    np.testing.assert_array_equal(
        out["error"], fp.tradeoff_errors((quad, 2.0, 1000.0, 6), np.random.default_rng(3))
    )
    assert out["moved"].shape == out["at_end"].shape == (6, 4)
    with pytest.raises(ParameterError):
        fp.worst_point(bumped, fp.RegularSet(quad.S.A, quad.S.u, 0.5, 3.0, 4.0))


def test_an_audit_takes_its_thresholds_from_a_pilot_apart_from_the_counted_draws() -> None:
    """The thresholds are quantiles of the pilot (a quarter as many draws per input, drawn after the
    counted ones), so the counted draws are those of an audit without a pilot."""
    from dpnet.funcpert import Audit, likelihood_ratio_audit
    from dpnet.funcpert.audit import PILOT_SHARE, THRESHOLDS

    audit = likelihood_ratio_audit(np.array([1.0, 0.5]), np.array([1.0, 0.7]), 4000, np.random.default_rng(2))
    assert audit.pilot is not None and audit.pilot.size == 2 * 4000 // PILOT_SHARE
    q = np.quantile(audit.pilot, np.linspace(0, 1, THRESHOLDS + 2)[1:-1])
    np.testing.assert_array_equal(audit.thresholds, q)
    pooled = Audit(audit.null, audit.alternative)
    assert not np.array_equal(pooled.thresholds, audit.thresholds)
