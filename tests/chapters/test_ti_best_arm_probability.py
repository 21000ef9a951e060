"""The book's figure ti-best-arm-probability (Chapter 4): the reliability threshold, the curve at a budget,
AM coinciding with the two-threshold rule, and the normal approximation of GM against its replications."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import ALGORITHMS, p003_fig5, ti_best_arm_probability
from dpnet.errors import ParameterError
from dpnet.results import RECORDED
from dpnet.survival import treatments


def test_first_reliable_needs_the_level_from_there_on() -> None:
    eps = [0.1, 1.0, 10.0, 100.0]
    assert treatments.first_reliable(eps, [0.2, 0.96, 0.9, 0.99], 0.95) == 100.0
    assert treatments.first_reliable(eps, [0.96, 0.97, 0.99, 1.0], 0.95) == 0.1
    assert treatments.first_reliable(eps, [0.1, 0.2, 0.3, 0.94], 0.95) is None


def _curve() -> ti_best_arm_probability.BestArmCurve:
    frame = pd.DataFrame(
        [{"eps": e, "algorithm": k, "probability": p, "probability, as published": p}
         for e, p in ((1.0, 0.2), (100.0, 0.9)) for k in ALGORITHMS]
    )  # fmt: skip
    return ti_best_arm_probability.BestArmCurve(frame, 0.95, 4, 100, {1.0: 0.3, 100.0: 0.97}, {})


def test_the_curve_at_a_budget() -> None:
    """The curve reads off its grid."""
    curve = _curve()
    assert curve.at(100.0) == {k: 0.9 for k in ALGORITHMS}
    assert all(math.isnan(p) for p in curve.at(30.0).values())
    margin = curve.margin(100.0, "AM", line=0.5)
    assert margin["se"] == pytest.approx(math.sqrt(0.9 * 0.1 / 100)) and margin["z"] < 0  # above the line
    assert all(math.isnan(v) for v in curve.margin(30.0, "AM").values())
    assert curve.predicted_reliable == 100.0


def test_the_curve_is_recordable() -> None:
    curve = _curve()
    assert all(hasattr(curve, name) for name in RECORDED)
    assert curve.deviations == () and curve.paper_setting is True


def test_am_coincides_with_the_two_threshold_rule(actg: pd.DataFrame) -> None:
    """At the chapter's T every round's beliefs are one-hot, so AM's belief in an arm is the fraction of
    rounds it led: AM and the two-threshold rule (same threshold) name the same sets in every run, at
    every ε, with either noise. The chapter says so; this is the identity, not a check."""
    P = resolve("treatment-identification", {"replications": 40, "best_arm_eps": [0.3, 30.0, 300.0]})
    curve = ti_best_arm_probability.best_arm_curve(P, p003_fig5.four_arms(P, actg))
    am, thr = (curve.frame[curve.frame.algorithm == k] for k in ("AM", "two-threshold"))
    for column in ("probability", "probability, as published"):
        np.testing.assert_array_equal(am[column].to_numpy(), thr[column].to_numpy())
    assert curve.checks["p003-fig5"][0].name == "normal-approximation"


def test_argmax_probability_against_exact_cases_and_monte_carlo() -> None:
    assert treatments.argmax_probability([0.0, 0.0, 0.0, 0.0], 1.0) == pytest.approx(0.25, abs=1e-9)
    assert treatments.argmax_probability([1.0, 0.0], 2.0) == pytest.approx(stats.norm.cdf(0.5 / math.sqrt(2)))
    mu = np.array([0.0, 15.2, 12.1, 9.4])
    draws = np.random.default_rng(0).normal(mu, 3.0, size=(200_000, 4))
    assert treatments.argmax_probability(mu, 3.0) == pytest.approx((draws.argmax(1) == 1).mean(), abs=4e-3)
    assert treatments.argmax_probability(mu, 3.0, best=2) < 0.5
    with pytest.raises(ParameterError, match="sd must be"):
        treatments.argmax_probability(mu, 0.0)
    with pytest.raises(ParameterError, match="best must index"):
        treatments.argmax_probability(mu, 1.0, best=4)


def test_normal_approximation_check_passes_fails_and_is_undecided() -> None:
    """Pointwise within the Monte Carlo error: 1.9 standard errors off at one of nine budgets passes, 5 off
    fails; a sure event measured once missed fails; no common budget is undecided."""
    check = reference.identification.normal_approximation_check
    eps = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]
    predicted = dict(zip(eps, [0.25, 0.25, 0.27, 0.3, 0.43, 0.68, 0.97, 1.0, 1.0], strict=True))
    se = math.sqrt(0.43 * 0.57 / 1000)
    near = {**predicted, 10.0: 0.43 - 1.9 * se}
    assert check(predicted, near, 1000).passed is True
    far = {**predicted, 10.0: 0.43 - 5 * se}
    failing = check(predicted, far, 1000)
    assert failing.passed is False and "ε = 10" in failing.detail
    assert check({1000.0: 1.0}, {1000.0: 0.999}, 1000).passed is False
    undecided = check(predicted, {}, 1000)
    assert undecided.passed is None and "undecided" in undecided.detail


def test_cost_is_figure5s_study_at_every_budget() -> None:
    values = dict(resolve("treatment-identification", {}))
    one = ti_best_arm_probability.cost({**values, "best_arm_eps": [1.0]})
    grid = ti_best_arm_probability.cost(values)
    assert grid.seconds == one.seconds * len(values["best_arm_eps"]) and grid.peak == one.peak
