"""dpnet.survival.binary and dpnet.survival.streams: the binary-covariate likelihood as risk-set counts,
pooled counts, and per-period streams.

Oracles: :func:`cox_partial_loglik` (itself checked against brute force and lifelines), finite
differences, :func:`fit_cox`, and hand-counted risk sets.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpnet.errors import ParameterError
from dpnet.survival import (
    binary_cox,
    counts_likelihood,
    cox_partial_loglik,
    cox_score_information,
    fit_cox,
    period_loglik,
    periods,
    risk_set_counts,
)
from dpnet.survival.binary import centre_cox


def _cohort(seed: int, n: int = 60) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A binary-covariate cohort with many tied times (times 1..9)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=n).astype(float)
    t = rng.integers(1, 10, size=n).astype(float)
    d = rng.integers(0, 2, size=n).astype(float)
    d[:4] = 1.0
    return x, t, d


@pytest.mark.parametrize("variant", ["paper", "as_published"])
@pytest.mark.parametrize("seed", range(3))
def test_counts_reproduce_the_partial_likelihood(seed: int, variant: str) -> None:
    x, t, d = _cohort(seed)
    theta = np.array([-2.0, -0.69, 0.0, 0.4, 1.5])
    model = binary_cox(x, t, d, variant=variant)
    np.testing.assert_allclose(model.loglik(theta), cox_partial_loglik(x, t, d, theta, variant=variant),
                               rtol=1e-12, atol=1e-10)  # fmt: skip
    assert isinstance(model.loglik(0.3), float)


@pytest.mark.parametrize("variant", ["paper", "as_published"])
def test_score_and_information_are_derivatives(variant: str) -> None:
    x, t, d = _cohort(7)
    model = binary_cox(x, t, d, variant=variant)
    h = 1e-5
    for theta in (-1.0, 0.0, 0.8):
        fd_score = (model.loglik(theta + h) - model.loglik(theta - h)) / (2 * h)
        fd_info = -(model.score(theta + h) - model.score(theta - h)) / (2 * h)
        assert model.score(theta) == pytest.approx(fd_score, abs=1e-6)
        assert model.information(theta) == pytest.approx(fd_info, abs=1e-6)
    if variant == "paper":  # Breslow score and information of eq. (3)
        score, info = cox_score_information(x, t, d, -0.4)
        assert model.score(-0.4) == pytest.approx(score, rel=1e-12)
        assert model.information(-0.4) == pytest.approx(info, rel=1e-12)


def test_lrt_matches_the_unpenalised_fit() -> None:
    x, t, d = _cohort(3, n=200)
    theta_hat, lrt = binary_cox(x, t, d).lrt()
    fit = fit_cox(x, t, d)
    assert theta_hat == pytest.approx(fit.theta, abs=1e-8)
    assert lrt == pytest.approx(fit.lrt, rel=1e-9)


def test_separating_covariate_is_reported() -> None:
    x = np.array([1.0, 1, 1, 0, 0, 0])
    t = np.array([1.0, 2, 3, 4, 5, 6])
    d = np.array([1.0, 1, 1, 0, 0, 0])  # every event is treated: θ̂ = +∞
    with pytest.raises(ParameterError, match="separates the events"):
        binary_cox(x, t, d).lrt()


def test_risk_set_counts_by_hand() -> None:
    x = np.array([0.0, 1, 1, 0, 1])
    t = np.array([2.0, 2, 5, 7, 7])
    d = np.array([1.0, 0, 1, 1, 0])
    counts = risk_set_counts(x, t, d, [2.0, 5.0, 7.0])
    # at risk (t ≥ g) by x = 0 / 1, then events at g by x = 0 / 1
    np.testing.assert_array_equal(counts, [[2, 3, 1, 0], [1, 2, 0, 1], [1, 1, 1, 0]])


def test_centres_counts_add_up_to_the_pooled_likelihood() -> None:
    x, t, d = _cohort(11, n=150)
    centres = np.arange(len(x)) % 4
    grid = np.unique(t[d == 1])
    total = sum(risk_set_counts(x[centres == i], t[centres == i], d[centres == i], grid) for i in range(4))
    pooled = counts_likelihood(total)
    theta = np.linspace(-1, 1, 5)
    np.testing.assert_allclose(pooled.loglik(theta), cox_partial_loglik(x, t, d, theta), rtol=1e-12)
    # a decryption error below ½ on every count is rounded away
    noisy = total + np.random.default_rng(0).uniform(-0.4, 0.4, size=total.shape)
    np.testing.assert_allclose(counts_likelihood(noisy).loglik(theta), pooled.loglik(theta), rtol=1e-15)


def test_centre_cox_evaluates_each_centre_at_its_own_theta() -> None:
    x, t, d = _cohort(5, n=90)
    centres = np.arange(len(x)) % 3
    models = centre_cox(x, t, d, centres)
    theta = np.array([[-0.5, 0.0, 0.7], [0.1, 0.2, 0.3]])
    got = models.loglik(theta)
    for i in range(3):
        m = centres == i
        np.testing.assert_allclose(got[:, i], cox_partial_loglik(x[m], t[m], d[m], theta[:, i]), rtol=1e-12)
    with pytest.raises(ParameterError, match="3 centres on its last axis"):
        models.score(np.zeros(2))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: binary_cox([0.0, 2.0], [1.0, 2.0], [1.0, 1.0]), "binary covariate"),
        (
            lambda: risk_set_counts([0.0, 1.0], [1.0, 2.0], [1.0, 1.0], [1.0]),
            "event time must be on the grid",
        ),
        (lambda: risk_set_counts([0.0, 1.0], [1.0, 2.0], [1.0, 1.0], [2.0, 1.0]), "strictly increasing"),
        (lambda: counts_likelihood(np.ones((3, 3))), r"\(G, 4\)"),
        (lambda: counts_likelihood([[0.0, 0.0, 1.0, 0.0]]), "fewer patients at risk"),
    ],
)
def test_bad_input_is_named(call, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        call()


def test_periods_and_streams() -> None:
    np.testing.assert_array_equal(periods([0.0, 9.9, 10.0, 25.0], 10), [1, 1, 2, 3])
    with pytest.raises(ParameterError, match="period_length"):
        periods([1.0], 0.0)
    x, t, d = _cohort(2, n=80)
    t = t * 5  # times 5..45: periods of length 10 hold several patients
    centres = np.arange(len(x)) % 3
    states = np.array([0.0, -math.log(2)])
    stream = period_loglik(x, t, d, centres, states, period_length=10)
    per = periods(t, 10)
    assert stream.shape == (per.max(), 3, 2)
    for p in range(1, per.max() + 1):
        for i in range(3):
            m = (per == p) & (centres == i)
            want = cox_partial_loglik(x[m], t[m], d[m], states) if m.any() else np.zeros(2)
            np.testing.assert_allclose(stream[p - 1, i], want, rtol=1e-12, atol=1e-12)
