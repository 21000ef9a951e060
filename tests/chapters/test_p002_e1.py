"""Paper 002, E1 (Chapter 7): the explicit lower bounds. Their slopes (properties of closed forms: unit tests
here, glued by the chapter), the experiment's checks by name, and
:func:`dpnet.reference.recommender.lower_bound_checks`, which passes on exact informations below the bounds,
fails on one above, and is undecided on an empty set of sketches."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e1
from dpnet.params import Cost
from dpnet.reference import recommender as ref


@pytest.fixture(scope="module")
def e1() -> p002_e1.LowerBounds:
    return p002_e1.lower_bounds(small("recommender-maxsense"))


def test_the_bounds_grow_as_the_theorems_say(e1: p002_e1.LowerBounds) -> None:
    """Closed forms: slopes ≈ 2 in N for Thms 4.8 and 4.10 at w = 2, N/(N − 2) ≈ 1 for Thm 3.3; about −2
    and −1 in w at N = 10⁴."""
    assert 1.9 <= e1.slopes["Thm 4.8"] <= 2.1 and 1.9 <= e1.slopes["Thm 4.10"] <= 2.1
    assert abs(e1.slopes["Thm 3.3"] - 1) <= 0.01
    assert -2.2 <= e1.w_slopes["48"] <= -1.8 and -1.2 <= e1.w_slopes["410"] <= -0.8
    n = np.geomspace(1e3, 1e5, 10)
    assert rc.thm33_users(n, 0.5) == pytest.approx((n / 2 - 1) * math.log(2) / 0.5, rel=1e-12)
    assert rc.thm33_users(n, 0.5, "paper") == pytest.approx(n * math.log(2) / 0.5, rel=1e-12)


def test_lower_bounds_name_their_checks(e1: p002_e1.LowerBounds) -> None:
    assert [c.name for c in e1.checks["p002-e1"]] == CHECKS["p002-e1"].split()
    assert all(c.passed for c in e1.checks["p002-e1"])
    per_case = len(p002_e1.E1_EXACT) * len(p002_e1.E1_EXACT_EPS)
    assert len(e1.sketches) == per_case * (p002_e1.E1_QUERIES + 1) and len(e1.exact_table) == per_case


def test_the_enumerated_sketches_are_private_and_informative(e1: p002_e1.LowerBounds) -> None:
    assert (e1.sketches["information"] >= -1e-15).all() and (e1.sketches["information"] > 1e-4).any()
    assert (e1.extremal["largest at a random point"] <= e1.extremal["largest at an extremal point"]).all()


def test_p002_e1_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e1.cost({"mode": "full"}) == Cost()


# E1: exact informations a few hundredths of Thm 4.8's and Thm 4.10's bounds; Lemma C.7 at half its bound
LB = {"thm48": [0.03, 0.008], "thm410": [0.05, 0.001], "extremal": [(0.105, 0.21, 0.06), (0.23, 0.56, 0.12)]}

BASES = [pytest.param(ref.lower_bound_checks, LB, 3, id="lower_bound")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.lower_bound_checks, LB, "thm48", [1.0], [1.001], 0, "largest 1"),
    _case(ref.lower_bound_checks, LB, "thm410", [0.5, 1.0], [0.5, 1.01], 1, "largest 1.01"),
    _case(ref.lower_bound_checks, LB, "extremal", [(0.21, 0.21, 0.2)], [(0.22, 0.21, 0.2)], 2, "1.048"),
    _case(ref.lower_bound_checks, LB, "extremal", [(0.2, 0.21, 0.2)], [(0.2, 0.21, 0.201)], 2, "0.952"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


@pytest.mark.parametrize(
    ("fn", "changed", "base", "failing"),
    [_nan(ref.lower_bound_checks, LB, "thm48", [0], "lb-48", [0.1, math.nan])],
)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_every_check_is_undecided_on_an_empty_set_of_cases():
    checks = ref.lower_bound_checks([], [], [])
    assert [c.passed for c in checks] == [None, None, None]
    assert [c.detail for c in checks] == [
        "exact I over the bound: no case",
        "exact I over the bound: no case",
        "largest extremal value over the bound : no instance",
    ]


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.lower_bound_checks(**LB)] == CHECKS["p002-e1"].split()
