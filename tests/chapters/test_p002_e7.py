"""Paper 002, E7 (Chapter 7): one-bit sketches. The experiment on small sizes, its cost, and
:func:`dpnet.reference.recommender.one_bit_checks`, which passes on the pilot's numbers and fails off
them."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e7
from dpnet.params import Cost
from dpnet.reference import recommender as ref


def test_one_bit_on_small_sizes() -> None:
    e7 = p002_e7.one_bit(small("recommender-maxsense", theta=0.5))
    assert list(e7.slopes) == list(rc.SCHEMES)
    assert [c.name for c in e7.checks["p002-e7"]] == CHECKS["p002-e7"].split()
    assert e7.order == pytest.approx(128 / math.log(128) ** 2)


def test_p002_e7_cost_is_linear_in_its_runs() -> None:
    assert p002_e7.cost({"one_bit_trials": 400}) == Cost(seconds=400 * 3.1e-4)


# E7: measured ≈ formula; adaptive/point query from the book's approximations 2N² + 2.6 N^1.5 and
# 2N²(ln N + 2.25) (note-rec-one-bit)
ADAPTIVE_RATIO = {n: (2 * n**2 + 2.6 * n**1.5) / (2 * n**2 * (math.log(n) + 2.25)) for n in (64, 128, 256)}
ONE_BIT = {"relative": {"unconstrained": 1.02, "average_bit": 0.97, "point_query": 1.05, "adaptive": 0.99},
           "adaptive_ratios": ADAPTIVE_RATIO}  # fmt: skip

# E7: the exactly-1-bit schemes 1.3 to 3 times above the Fano bound
FANO = {"margins": [1.3, 2.0, 3.0]}

BASES = [
    pytest.param(ref.one_bit_checks, ONE_BIT, 7, id="one_bit"),
    pytest.param(ref.fano_checks, FANO, 1, id="fano"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.one_bit_checks, ONE_BIT, ("relative", "point_query"), 1.149, 1.151, 2, "formula 1.151"),
    _case(ref.one_bit_checks, ONE_BIT, ("relative", "average_bit"), 0.851, 0.849, 1, "formula 0.849"),
    _case(ref.one_bit_checks, ONE_BIT, ("adaptive_ratios", 128), 0.499, 0.5, 5, "0.500"),
    _case(ref.fano_checks, FANO, "margins", [1.0, 2.0], [0.99, 2.0], 0, "from 0.99 to 2.00"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.one_bit_checks, ONE_BIT, ("relative", "adaptive"), [3], "one-bit-relative"),
    _nan(ref.one_bit_checks, ONE_BIT, ("adaptive_ratios", 256), [6], "one-bit-adaptive"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    one_bit = ref.one_bit_checks(**ONE_BIT)
    assert "N = 128" in one_bit[0].claim and "±15%" in one_bit[0].claim
    assert [c.detail for c in one_bit[4:]] == [f"{ADAPTIVE_RATIO[n]:.3f}" for n in (64, 128, 256)]


def test_fano_is_undecided_without_a_scheme():
    (check,) = ref.fano_checks([])
    assert check.passed is None and check.detail == "no scheme"


def test_the_checks_are_named_for_their_badges():
    names = [c.name for c in [*ref.one_bit_checks(**ONE_BIT), *ref.fano_checks(**FANO)]]
    assert names == CHECKS["p002-e7"].split()
