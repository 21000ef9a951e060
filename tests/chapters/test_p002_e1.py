"""Paper 002, E1 (Chapter 7): the explicit lower bounds. Thm 3.3's linear slope (an identity, a unit test
here), the experiment's checks by name, and :func:`dpnet.reference.recommender.lower_bound_checks`, which
passes on the pilot's numbers and fails off them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import well_formed as _well_formed
from check_cases import with_input as _set
from small import CHECKS

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e1
from dpnet.params import Cost
from dpnet.reference import recommender as ref

NAN = math.nan


def test_thm33_bound_is_linear_in_n() -> None:
    e1 = p002_e1.lower_bounds()
    assert abs(e1.slopes["Thm 3.3"] - 1) <= 0.01
    n = np.geomspace(1e3, 1e5, 10)
    assert rc.thm33_users(n, 0.5) == pytest.approx((n / 2 - 1) * math.log(2) / 0.5, rel=1e-12)
    assert rc.thm33_users(n, 0.5, "paper") == pytest.approx(n * math.log(2) / 0.5, rel=1e-12)


def test_lower_bounds_name_their_checks() -> None:
    assert [c.name for c in p002_e1.lower_bounds().checks["p002-e1"]] == CHECKS["p002-e1"].split()


def test_p002_e1_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e1.cost({"mode": "full"}) == Cost()


# E1: slopes ≈ 2, 2 and N/(N − 2) ≈ 1 of (N/2 − 1) ln 2/ε
LB = {"slopes": {"Thm 4.8": 2.0, "Thm 4.10": 1.98, "Thm 3.3": 1.0004}}

BASES = [pytest.param(ref.lower_bound_checks, LB, 3, id="lower_bound")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 4.8"), 2.099, 2.11, 0, "measured 2.11"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 4.10"), 1.901, 1.899, 1, "measured 1.899"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 3.3"), 1.0099, 1.0101, 2, "measured 1.01"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 3.3"), 0.9901, 0.9899, 2, "measured 0.9899"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


@pytest.mark.parametrize(
    ("fn", "changed", "base", "failing"),
    [pytest.param(ref.lower_bound_checks, _set(LB, ("slopes", "Thm 4.10"), NAN), LB, [1], id="lb")],
)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_infinite_values_fail_range_checks():
    checks = _well_formed(ref.lower_bound_checks(**{**LB, "slopes": {**LB["slopes"], "Thm 4.8": math.inf}}))
    assert _failing(checks) == [0]
    assert "inf" in checks[0].detail


def test_lower_bound_checks_require_every_theorem():
    with pytest.raises(KeyError):
        ref.lower_bound_checks({"Thm 4.8": 2.0, "Thm 4.10": 2.0})


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.lower_bound_checks(**LB)] == ["slope-48", "slope-410", "slope-33"]
