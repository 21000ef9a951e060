"""Laplace and randomized-response mechanisms against exact formulas, and the empirical ε-DP audit."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from dpnet import mechanisms
from dpnet.errors import ParameterError

N_AUDIT = 200_000
THRESHOLDS = np.linspace(-2.0, 3.0, 11)
EPS = 1.0


# --------------------------------------------------------------------------------------------------
# Laplace
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sensitivity", "epsilon"), [(1.0, 1.0), (2.0, 0.5), (0.3, 7.0), (1e-3, 1e3)])
def test_laplace_scale_is_sensitivity_over_epsilon(sensitivity: float, epsilon: float) -> None:
    assert mechanisms.laplace_scale(sensitivity, epsilon) == sensitivity / epsilon


@pytest.mark.parametrize(("sensitivity", "scale"), [(1.0, 1.0), (2.0, 0.5), (0.3, 7.0)])
def test_laplace_privacy_loss_inverts_scale(sensitivity: float, scale: float) -> None:
    assert mechanisms.laplace_privacy_loss(sensitivity, scale) == pytest.approx(
        sensitivity / scale, rel=1e-15
    )
    eps = mechanisms.laplace_privacy_loss(sensitivity, scale)
    assert mechanisms.laplace_scale(sensitivity, eps) == pytest.approx(scale, rel=1e-15)


def test_laplace_noise_mean_and_variance() -> None:
    n, value, sensitivity, epsilon = 200_000, 3.5, 2.0, 0.8
    b = mechanisms.laplace_scale(sensitivity, epsilon)
    out = mechanisms.laplace_mechanism(np.full(n, value), sensitivity, epsilon, np.random.default_rng(11))
    assert out.shape == (n,)
    # mean: sd 2b²/n; sample variance of Laplace: Var(s²) ≈ (μ4 − σ⁴)/n = (24 − 4) b⁴/n
    assert abs(out.mean() - value) < 5 * math.sqrt(2 * b**2 / n)
    assert abs(out.var(ddof=1) - 2 * b**2) < 5 * b**2 * math.sqrt(20 / n)


def test_laplace_mechanism_preserves_shape_and_is_seeded() -> None:
    value = np.arange(6.0).reshape(2, 3)
    a = mechanisms.laplace_mechanism(value, 1.0, 1.0, np.random.default_rng(5))
    b = mechanisms.laplace_mechanism(value, 1.0, 1.0, np.random.default_rng(5))
    assert a.shape == (2, 3)
    np.testing.assert_array_equal(a, b)
    assert np.all(a != value)
    assert mechanisms.laplace_mechanism(2.0, 1.0, 1.0, np.random.default_rng(5)).shape == ()


# --------------------------------------------------------------------------------------------------
# Randomized response
# --------------------------------------------------------------------------------------------------


def test_rr_flip_probability_exact_values() -> None:
    assert mechanisms.rr_flip_probability(0.0) == 0.5
    assert mechanisms.rr_flip_probability(math.log(3.0)) == pytest.approx(0.25, abs=1e-12)
    eps = np.array([0.0, 0.5, 1.0, 4.0])
    np.testing.assert_allclose(mechanisms.rr_flip_probability(eps), 1 / (1 + np.exp(eps)), rtol=1e-14)


def test_rr_flip_probability_large_epsilon_is_stable() -> None:
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        p = mechanisms.rr_flip_probability(1000.0)
        p_arr = mechanisms.rr_flip_probability(np.array([700.0, 1000.0]))
    assert isinstance(p, float)
    assert 0.0 <= p < 1e-300
    assert np.all(np.isfinite(p_arr)) and np.all(p_arr < 1e-300)
    # no loss of precision in the moderately large range: 1/(1+e^40) ≈ e^−40
    assert mechanisms.rr_flip_probability(40.0) == pytest.approx(math.exp(-40.0), rel=1e-12)


@pytest.mark.parametrize("epsilon", [0.0, 0.5, math.log(3.0), 2.0])
def test_randomized_response_flip_rate(epsilon: float) -> None:
    n = 200_000
    rng = np.random.default_rng(23)
    bits = rng.integers(0, 2, size=n)
    out = mechanisms.randomized_response(bits, epsilon, rng)
    assert out.shape == bits.shape
    assert set(np.unique(out).tolist()) <= {0, 1}
    p = 1 / (1 + math.exp(epsilon))
    assert abs(np.mean(out != bits) - p) < 5 * math.sqrt(p * (1 - p) / n)


def test_randomized_response_accepts_bool_and_keeps_shape() -> None:
    bits = np.array([[True, False], [False, True]])
    out = mechanisms.randomized_response(bits, 50.0, np.random.default_rng(0))
    np.testing.assert_array_equal(out, bits.astype(int))  # flip probability ~e^−50


# --------------------------------------------------------------------------------------------------
# Clopper–Pearson
# --------------------------------------------------------------------------------------------------


def test_clopper_pearson_matches_beta_quantiles() -> None:
    n, conf = 50, 0.9
    k = np.arange(1, n)
    lower, upper = mechanisms.clopper_pearson(k, n, conf)
    np.testing.assert_allclose(lower, stats.beta.ppf(1 - conf, k, n - k + 1), rtol=1e-12)
    np.testing.assert_allclose(upper, stats.beta.ppf(conf, k + 1, n - k), rtol=1e-12)
    # defining property, independent of the Beta form: P[Bin(n, L) ≥ k] = α, P[Bin(n, U) ≤ k] = α
    np.testing.assert_allclose(stats.binom.sf(k - 1, n, lower), 1 - conf, rtol=1e-8)
    np.testing.assert_allclose(stats.binom.cdf(k, n, upper), 1 - conf, rtol=1e-8)


def test_clopper_pearson_edges() -> None:
    n, conf = 20, 0.95
    lower0, upper0 = mechanisms.clopper_pearson(0, n, conf)
    lower_n, upper_n = mechanisms.clopper_pearson(n, n, conf)
    assert lower0 == 0.0 and upper_n == 1.0
    assert upper0 == pytest.approx(1 - (1 - conf) ** (1 / n), rel=1e-12)  # (1 − U)^n = α
    assert lower_n == pytest.approx((1 - conf) ** (1 / n), rel=1e-12)  # L^n = α
    assert isinstance(lower0, float) and isinstance(upper0, float)


def test_clopper_pearson_coverage_by_enumeration() -> None:
    n, conf = 30, 0.9
    k = np.arange(n + 1)
    lower, upper = mechanisms.clopper_pearson(k, n, conf)
    for p in np.linspace(0.01, 0.99, 99):
        pmf = stats.binom.pmf(k, n, p)
        assert pmf[lower > p].sum() <= 1 - conf + 1e-12
        assert pmf[upper < p].sum() <= 1 - conf + 1e-12


@pytest.mark.parametrize(
    ("k", "n", "conf", "match"),
    [
        (-1, 10, 0.9, "k"),
        (11, 10, 0.9, "k"),
        (1.5, 10, 0.9, "k"),
        (0, 0, 0.9, "n"),
        (1, 10, 1.0, "confidence"),
    ],
)
def test_clopper_pearson_rejects_bad_input(k: float, n: int, conf: float, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        mechanisms.clopper_pearson(k, n, conf)


# --------------------------------------------------------------------------------------------------
# The audit: a correctly calibrated mechanism passes, one calibrated for 2ε fails the ε claim
# --------------------------------------------------------------------------------------------------


def laplace_pair(scale: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """N draws of x + Lap(scale) for neighbouring x = 0, y = 1 (Δ = 1)."""
    rng = np.random.default_rng(seed)
    return rng.laplace(0.0, scale, N_AUDIT), 1.0 + rng.laplace(0.0, scale, N_AUDIT)


def rr_pair(epsilon: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """N randomized-response reports of the true bit 0 and of the true bit 1."""
    rng = np.random.default_rng(seed)
    return (
        mechanisms.randomized_response(np.zeros(N_AUDIT, dtype=int), epsilon, rng),
        mechanisms.randomized_response(np.ones(N_AUDIT, dtype=int), epsilon, rng),
    )


def test_audit_passes_correctly_calibrated_laplace() -> None:
    rng = np.random.default_rng(2024)
    x = mechanisms.laplace_mechanism(np.zeros(N_AUDIT), 1.0, EPS, rng)
    y = mechanisms.laplace_mechanism(np.ones(N_AUDIT), 1.0, EPS, rng)
    result = mechanisms.audit_epsilon(x, y, THRESHOLDS)
    assert result.n_events == 2 * len(THRESHOLDS)
    assert result.confidence == 0.95
    assert result.epsilon_lower <= EPS
    assert result.epsilon_lower > 0.9  # the audit is tight, not vacuous


def test_audit_fails_laplace_calibrated_for_twice_epsilon() -> None:
    x, y = laplace_pair(mechanisms.laplace_scale(1.0, 2 * EPS), seed=2025)  # true privacy loss 2ε
    result = mechanisms.audit_epsilon(x, y, THRESHOLDS)
    assert result.epsilon_lower > EPS
    assert result.epsilon_lower <= 2 * EPS
    assert "y vs x" in result.event or "x vs y" in result.event


def test_audit_passes_correct_randomized_response() -> None:
    x, y = rr_pair(EPS, seed=7)
    result = mechanisms.audit_epsilon(x, y, np.array([0, 1]))
    assert result.n_events == 2
    assert 0.9 < result.epsilon_lower <= EPS


def test_audit_fails_randomized_response_at_twice_epsilon() -> None:
    x, y = rr_pair(2 * EPS, seed=8)
    result = mechanisms.audit_epsilon(x, y, np.array([0, 1]))
    assert EPS < result.epsilon_lower <= 2 * EPS
    assert "out ==" in result.event


def test_audit_callable_events_match_thresholds() -> None:
    x, y = laplace_pair(1.0, seed=3)
    t = 1.0
    by_threshold = mechanisms.audit_epsilon(x, y, np.array([t]))
    by_callable = mechanisms.audit_epsilon(x, y, [lambda o: o > t, lambda o: o < t])
    assert by_callable.n_events == by_threshold.n_events == 2
    assert by_callable.epsilon_lower == pytest.approx(by_threshold.epsilon_lower, rel=1e-12)


def test_audit_of_identical_distributions_is_near_zero() -> None:
    rng = np.random.default_rng(99)
    x, y = rng.normal(size=N_AUDIT), rng.normal(size=N_AUDIT)
    result = mechanisms.audit_epsilon(x, y, THRESHOLDS)
    assert result.epsilon_lower < 0.05


def test_audit_lower_bound_follows_the_formula() -> None:
    # one discrete event, counts chosen by hand: the bound is log(L_x/U_y) at level 1 − α/(4m)
    x = np.array([1] * 80 + [0] * 20)
    y = np.array([1] * 20 + [0] * 80)
    result = mechanisms.audit_epsilon(x, y, np.array([1]), confidence=0.9)
    level = 1 - 0.1 / 4
    expected = math.log(stats.beta.ppf(1 - level, 80, 21) / stats.beta.ppf(level, 21, 80))
    assert result.epsilon_lower == pytest.approx(expected, rel=1e-12)
    assert result.event == "{out == 1}, x vs y"


def test_audit_ignores_events_with_zero_lower_bound() -> None:
    x = np.zeros(1000, dtype=int)
    result = mechanisms.audit_epsilon(x, x.copy(), np.array([1, 2]))
    assert result.epsilon_lower == 0.0 and result.event.startswith("none")


# --------------------------------------------------------------------------------------------------
# Parameter errors
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.0, -1.0, math.nan, math.inf])
def test_laplace_scale_rejects_bad_epsilon(epsilon: float) -> None:
    with pytest.raises(ParameterError, match=r"epsilon must be a real number > 0"):
        mechanisms.laplace_scale(1.0, epsilon)


@pytest.mark.parametrize("sensitivity", [0.0, -2.0, math.nan])
def test_laplace_scale_rejects_bad_sensitivity(sensitivity: float) -> None:
    with pytest.raises(ParameterError, match=r"sensitivity must be a real number > 0"):
        mechanisms.laplace_scale(sensitivity, 1.0)


def test_laplace_privacy_loss_and_mechanism_reject_bad_input() -> None:
    with pytest.raises(ParameterError, match="scale"):
        mechanisms.laplace_privacy_loss(1.0, 0.0)
    with pytest.raises(ParameterError, match="epsilon"):
        mechanisms.laplace_mechanism(0.0, 1.0, -1.0, np.random.default_rng(0))
    with pytest.raises(ParameterError, match="value"):
        mechanisms.laplace_mechanism([0.0, math.nan], 1.0, 1.0, np.random.default_rng(0))


@pytest.mark.parametrize("epsilon", [-0.1, math.nan, math.inf])
def test_rr_flip_probability_rejects_bad_epsilon(epsilon: float) -> None:
    with pytest.raises(ParameterError, match="epsilon must be finite and ≥ 0"):
        mechanisms.rr_flip_probability(epsilon)


def test_check_budget_accepts_zero_and_names_the_parameter() -> None:
    np.testing.assert_array_equal(mechanisms.check_budget([0.0, 2.5]), [0.0, 2.5])
    assert mechanisms.check_budget(1).shape == ()
    with pytest.raises(ParameterError, match=r"eps \(privacy budget\) must be finite and ≥ 0"):
        mechanisms.check_budget([0.5, -0.5], "eps (privacy budget)")


@pytest.mark.parametrize("bits", [[0, 2], [0.5, 1.0], [-1, 0], ["0", "1"]])
def test_randomized_response_rejects_non_binary_bits(bits: list[object]) -> None:
    with pytest.raises(ParameterError, match="bits"):
        mechanisms.randomized_response(bits, 1.0, np.random.default_rng(0))


def test_audit_rejects_bad_input() -> None:
    x = np.zeros(10)
    with pytest.raises(ParameterError, match="confidence"):
        mechanisms.audit_epsilon(x, x, THRESHOLDS, confidence=1.5)
    with pytest.raises(ParameterError, match="events"):
        mechanisms.audit_epsilon(x, x, np.array([]))
    with pytest.raises(ParameterError, match="samples_y"):
        mechanisms.audit_epsilon(x, np.array([]), THRESHOLDS)
    with pytest.raises(ParameterError, match=r"events\[0\]"):
        mechanisms.audit_epsilon(x, x, [lambda o: np.flatnonzero(o > 0)])
    with pytest.raises(ParameterError, match="events"):
        mechanisms.audit_epsilon(x, x, [lambda o: o > 0, 1.0])
