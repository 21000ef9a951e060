"""Auditing a privacy guarantee with an adversary's tests (the book's experiments E0, E2, E6 and E7).

An ε-DP release bounds the probability of every event: ``P{M(F′) ∈ O} ≤ e^ε P{M(F) ∈ O}``, and the same
with ``F`` and ``F′`` exchanged. An adversary who knows both candidate inputs and sees the release tests
them best (Neyman–Pearson) by thresholding the log-likelihood ratio ``T = log p_{F′}/p_F``. For the
functional Laplace mechanism, whose released coefficients are ``c + η`` with ``η_k ~ Lap(b_k)``, two inputs
whose coefficients differ by ``Δ`` give ``T(y) = Σ_k (|y_k| − |y_k − Δ_k|)/b_k`` (``y`` measured from the
first input's coefficients). The events ``{T > t}`` and their complements are the worst events for the
guarantee, so an audit draws the release under both inputs, counts how often each event occurs, and bounds
the log-ratio of the two probabilities from below with exact (Clopper–Pearson) confidence bounds. A lower
bound above ε is evidence that the guarantee fails; one below it is consistent with it. A Monte Carlo
audit of ``R`` draws cannot show a log-ratio much above ``log R``: its lower bound is capped by the number
of draws, however large the true ratio.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet import mechanisms
from dpnet.errors import ParameterError

__all__ = ["Audit", "clopper_pearson", "likelihood_ratio_audit", "log_ratio_lower_bound"]

#: Thresholds of the likelihood-ratio statistic an audit tests: quantiles of a pilot sample drawn apart
#: from the counted draws (so the tested events are fixed before the counts; a quarter as many per input).
THRESHOLDS = 199
PILOT_SHARE = 4
#: The statistic is rounded to this many decimals (its rounding errors are not information).
STATISTIC_DECIMALS = 9


def clopper_pearson(hits: ArrayLike, n: int, alpha: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Exact one-sided confidence bounds on a binomial probability, each at level ``1 − alpha``: the core's
    :func:`dpnet.mechanisms.clopper_pearson` at confidence ``1 − alpha``, as arrays.

    Parameters
    ----------
    hits
        Successes out of ``n`` (any shape).
    n
        Trials, at least 1.
    alpha
        The probability that the true value lies below ``lower`` (and, separately, above ``upper``).

    Returns
    -------
    lower, upper : ndarray
        ``lower`` is 0 when there is no success and ``upper`` is 1 when every trial succeeds.
    """
    k = np.asarray(hits, dtype=float)
    if n < 1 or not 0 < alpha < 1 or np.any((k < 0) | (k > n)):
        raise ParameterError(f"need 0 ≤ hits ≤ n, n ≥ 1 and 0 < alpha < 1 (got n = {n}, alpha = {alpha})")
    lower, upper = mechanisms.clopper_pearson(k, n, 1.0 - alpha)
    return np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)


def log_ratio_lower_bound(hits_a: ArrayLike, n_a: int, hits_b: ArrayLike, n_b: int, alpha: float) -> NDArray:
    """A lower confidence bound on ``log(P_a/P_b)`` from ``hits_a`` of ``n_a`` and ``hits_b`` of ``n_b``.

    ``log(lower_a) − log(upper_b)``, each bound at level ``1 − alpha/2``, so the bound holds with
    probability at least ``1 − alpha`` (``−inf`` when ``hits_a`` is 0). With no hit under ``b`` it is at most
    ``log(1/upper_b) ≈ log(n_b/log(2/alpha))``: the number of draws caps it.
    """
    lower_a, _ = clopper_pearson(hits_a, n_a, alpha / 2)
    _, upper_b = clopper_pearson(hits_b, n_b, alpha / 2)
    with np.errstate(divide="ignore"):
        return np.log(lower_a) - np.log(upper_b)


@dataclass(frozen=True)
class Audit:
    """The log-likelihood ratio ``T = log p_{F′}/p_F`` of a release drawn under each of two inputs.

    Attributes
    ----------
    null
        ``T`` of the draws under ``F``.
    alternative
        ``T`` of the draws under ``F′``.
    pilot
        ``T`` of independent draws under both inputs, pooled, whose quantiles are the tested thresholds
        (``None``: the pooled counted draws, whose events then depend on the counts).
    """

    null: NDArray[np.float64]
    alternative: NDArray[np.float64]
    pilot: NDArray[np.float64] | None = None

    @property
    def thresholds(self) -> NDArray[np.float64]:
        """The tested thresholds: ``THRESHOLDS`` interior quantiles of the pilot draws (or of the pooled
        counted draws when there is no pilot)."""
        pooled = np.concatenate([self.null, self.alternative]) if self.pilot is None else self.pilot
        return np.quantile(pooled, np.linspace(0, 1, THRESHOLDS + 2)[1:-1])

    def errors(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``(p_FA, p_MD)`` of the tests "decide F′ when ``T > t``", one per threshold: the false alarm is
        ``P_F(T > t)``, the miss ``P_{F′}(T ≤ t)``."""
        t = self.thresholds[:, None]
        return np.mean(self.null > t, axis=1), np.mean(self.alternative <= t, axis=1)

    def log_ratio(self, alpha: float) -> float:
        """The largest lower confidence bound, over the tested events and their complements, on the
        log-ratio of their probabilities under the two inputs.

        The bound holds for all ``2·THRESHOLDS`` events at once with probability at least ``1 − alpha``
        (Bonferroni): an ε-DP release keeps it at most ε with that probability.
        """
        t = self.thresholds[:, None]
        n0, n1 = self.null.size, self.alternative.size
        hits0, hits1 = np.sum(self.null > t, axis=1), np.sum(self.alternative > t, axis=1)
        level = alpha / (2 * t.shape[0])
        forward = log_ratio_lower_bound(hits1, n1, hits0, n0, level)  # P_F′(T > t) / P_F(T > t)
        backward = log_ratio_lower_bound(n0 - hits0, n0, n1 - hits1, n1, level)  # the complements
        return float(max(np.max(forward), np.max(backward)))

    def cap(self, alpha: float) -> float:
        """The largest value :meth:`log_ratio` can take with these numbers of draws: an event that every
        draw under one input falls in and none under the other. An audit at its cap shows only that the
        log-ratio is at least that large."""
        n0, n1 = self.null.size, self.alternative.size
        level = alpha / (2 * THRESHOLDS)
        return float(
            max(log_ratio_lower_bound(n1, n1, 0, n0, level), log_ratio_lower_bound(n0, n0, 0, n1, level))
        )


def likelihood_ratio_audit(
    delta: ArrayLike, scales: ArrayLike, draws: int, rng: np.random.Generator
) -> Audit:
    """Draw the functional Laplace mechanism's coefficients ``draws`` times under each of two inputs ``Δ``
    apart.

    Parameters
    ----------
    delta
        ``Δ``: the second input's coefficients minus the first's, ``(K,)``.
    scales
        The noise scales ``b_k``, ``(K,)``.
    draws
        Releases per input.
    rng
        Draws the first input's noise, then the second's, each as ``b_k · Lap(1)``, then a pilot of
        ``draws // PILOT_SHARE`` (at least 1) under each, whose quantiles fix the tested thresholds.

    Returns
    -------
    Audit
        The statistic ``T(y) = Σ_k (|y_k| − |y_k − Δ_k|)/b_k`` of every draw, rounded to
        ``STATISTIC_DECIMALS`` decimals: the loss takes the values ``±Σ_k |Δ_k|/b_k`` with positive
        probability, and the rounding errors of computing it differ between the inputs.
    """
    d, b = np.asarray(delta, dtype=float), np.asarray(scales, dtype=float)
    if d.shape != b.shape or d.ndim != 1 or draws < 1:
        raise ParameterError(f"delta and scales must be (K,) arrays and draws ≥ 1 (got {d.shape}, {b.shape})")
    null = rng.laplace(0.0, 1.0, (draws, d.size)) * b
    alternative = d + rng.laplace(0.0, 1.0, (draws, d.size)) * b

    def statistic(y: NDArray) -> NDArray:
        # rounded: below 10⁻⁹ the statistic differs only by floating-point rounding, which differs between
        # the two inputs (y − Δ is computed from y = Δ + noise) and would make spurious events
        return np.round(np.sum((np.abs(y) - np.abs(y - d)) / b, axis=1), STATISTIC_DECIMALS)

    pilot = max(draws // PILOT_SHARE, 1)
    pilot_null = rng.laplace(0.0, 1.0, (pilot, d.size)) * b
    pilot_alternative = d + rng.laplace(0.0, 1.0, (pilot, d.size)) * b
    pooled = np.concatenate([statistic(pilot_null), statistic(pilot_alternative)])
    return Audit(statistic(null), statistic(alternative), pooled)
