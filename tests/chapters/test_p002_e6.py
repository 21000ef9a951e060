"""Paper 002, E6 (Chapter 7): Multi-MaxSense. The experiment on small sizes off θ = 1, its cost, and
:func:`dpnet.reference.recommender.multi_checks`, which passes on the pilot's numbers and fails off them."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e6
from dpnet.reference import recommender as ref

NAN = math.nan


def test_multi_maxsense_off_theta_one_is_undecided() -> None:
    e6 = p002_e6.multi_maxsense(small("recommender-maxsense", theta=0.5))
    assert [c.name for c in e6.checks["p002-e6"]] == CHECKS["p002-e6"].split()
    assert all(c.passed is None for c in e6.checks["p002-e6"])


def test_p002_e6_cost_adds_the_per_user_simulator_in_full_mode() -> None:
    """3 rules × 4 ε × 15 points × 40 runs; the per-user runs at 80 ns per item of the chosen blocks."""
    quick = dict(resolve("recommender-maxsense", {"mode": "quick"}))
    base = 3 * 4 * 15 * 40 * (5e-4 + 1e-6 * 100)
    assert p002_e6.cost(quick).seconds == pytest.approx(base, rel=1e-12)
    exact = dict(resolve("recommender-maxsense", {"mode": "quick", "exact_simulators": True}))
    model = rc.m_asym(100, 32)
    items = sum(rc.predicted_u(model, e, n_bits=q) * q * 100 / 32 for e, q in ((4.0, 4), (8.0, 8)))
    grid = sum(0.4 * (2.5 / 0.4) ** (k / 6) for k in range(7))
    assert p002_e6.cost(exact).seconds == pytest.approx(base + 20 * items * grid * 8e-8, rel=1e-12)


# E6, pilot: U_90 2.74·10⁴ (Q = 1) vs 3.4·10³ (Q = 32) at ε = 32; 6.4·10⁴ (Q = 2) vs 5.3·10⁴ at ε = 2;
# prediction within ±25 %
MULTI = {
    "gain_32": 2.74e4 / 3.4e3,
    "ratio_2": 6.4e4 / 5.3e4,
    "prediction_ratios": [0.82, 0.95, 1.04, 1.12, 1.2],
}

BASES = [pytest.param(ref.multi_checks, MULTI, 3, id="multi")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.multi_checks, MULTI, "gain_32", 4.0, 3.94, 0, "gain 3.9"),
    _case(ref.multi_checks, MULTI, "ratio_2", 0.9, 0.89, 1, "ratio 0.89"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [0.7, 1.0], [0.69, 1.0], 2, "range 0.69–1.00"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [1.0, 1.4], [1.0, 1.41], 2, "range 1.00–1.41"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.multi_checks, MULTI, "gain_32", [0], "multi-gain"),
    _nan(ref.multi_checks, MULTI, "ratio_2", [1], "multi-no-gain"),
    _nan(ref.multi_checks, MULTI, "prediction_ratios", [2], "multi-prediction-first", [NAN, 1.0]),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    multi = ref.multi_checks(**MULTI)
    assert [c.detail for c in multi] == ["gain 8.1", "ratio 1.21", "range 0.82–1.20"]


# Known defect: ``max``/``min`` over a sequence skip a ``nan`` that is not first (every comparison with nan
# is False), so whether a nan input fails the claim depends on where it sits.


def test_multi_nan_prediction_ratio_after_the_first_fails():
    assert _failing(ref.multi_checks(**{**MULTI, "prediction_ratios": [1.0, NAN]})) == [2]


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.multi_checks(**MULTI)] == CHECKS["p002-e6"].split()
