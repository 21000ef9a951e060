"""Paper 002, E8 (Chapter 7): adaptive queries. The experiment on small sizes, its cost, and
:func:`dpnet.reference.recommender.adaptive_checks`, which passes on the pilot's numbers and fails off
them."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import well_formed as _well_formed
from check_cases import with_input as _set
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e8
from dpnet.reference import recommender as ref

NAN = math.nan


def test_adaptive_on_small_sizes() -> None:
    e8 = p002_e8.adaptive(small("recommender-maxsense", theta=0.5))
    assert e8.n_w1 == (26, 50) and [c.name for c in e8.checks["p002-e8"]] == CHECKS["p002-e8"].split()
    assert e8.bounds_at(1000)[0] == rc.adaptive_lower_bound(1000, 1.0)


def test_p002_e8_cost_counts_maxsense_at_w_1() -> None:
    need = p002_e8.cost({"mode": "full", "trials": 100})
    assert need.seconds == pytest.approx(sum(15 * 100 * (5e-4 + 1e-6 * n) for n in (26, 50, 100)), rel=1e-12)


# E8: T_LB C/N ≈ 1 + ln(N ln 2/2)
GROWTH = {"growth": {n: (1 + math.log(5 * n * math.log(2))) / (1 + math.log(n * math.log(2) / 2))
                     for n in (1000, 10_000, 100_000)}}  # fmt: skip

BASES = [pytest.param(ref.adaptive_checks, GROWTH, 3, id="adaptive")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.adaptive_checks, GROWTH, ("growth", 10_000), 1.6, 1.61, 1, "measured 1.61"),
    _case(ref.adaptive_checks, GROWTH, ("growth", 100_000), 1.1, 1.09, 2, "measured 1.09"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


@pytest.mark.parametrize(
    ("fn", "changed", "base", "failing"),
    [pytest.param(ref.adaptive_checks, _set(GROWTH, ("growth", 1000), NAN), GROWTH, [0], id="adaptive")],
)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_infinite_values_fail_range_checks():
    checks = _well_formed(ref.adaptive_checks(**{**GROWTH, "growth": {1000: -math.inf}}))
    assert _failing(checks) == [0]
    assert "inf" in checks[0].detail


def test_the_checks_discriminate_the_laws_the_chapter_contrasts():
    # linear growth of T_LB (no log factor) fails; the recursion's 1 + ln(N ln 2/2) passes
    assert _failing(ref.adaptive_checks({1000: 1.0})) == [0]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    assert ref.adaptive_checks(GROWTH["growth"])[0].detail == "measured 1.336"


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.adaptive_checks(**GROWTH)] == CHECKS["p002-e8"].split()
