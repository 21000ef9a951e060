"""Paper 002, E2 (Chapter 7): exact mutual information. The experiment on small parameters, its checks
(:func:`dpnet.reference.recommender.thm43_checks`, ``lemma41_checks`` and ``maxsense_information_checks``),
which pass on the pilot's numbers and fail off them, and the properties of closed forms the chapter glues
(MaxSense's sketch information, Lemma 4.7's error): unit tests, not checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from check_cases import well_formed as _well_formed
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e2
from dpnet.params import Cost
from dpnet.reference import recommender as ref


@pytest.fixture(scope="module")
def e2() -> p002_e2.Information:
    return p002_e2.information(small("recommender-maxsense"))


def test_information_names_every_check(e2: p002_e2.Information) -> None:
    assert [c.name for c in e2.checks["p002-e2"]] == CHECKS["p002-e2"].split()
    assert all(c.passed for c in e2.checks["p002-e2"])
    assert e2.random_queries == 9 * p002_e2.E2_RANDOM_QUERIES
    private = len(p002_e2.E2_PRIVATE) * len(p002_e2.E2_PRIVATE_EPS) * p002_e2.E2_PRIVATE_QUERIES
    assert len(e2.lemma41) == len(e2.one_bit) + private


def test_lemma41_equals_thm43_bound_without_privacy(e2: p002_e2.Information) -> None:
    """With w = 1 and no privacy, Lemma 4.1's right-hand side is Thm 4.3's bound exactly (as the chapter
    says)."""
    thm43 = e2.lemma41[e2.lemma41["kind"].str.startswith("Thm 4.3")]
    assert np.allclose(thm43["bound"].to_numpy(), e2.one_bit["bound"].to_numpy(), rtol=1e-12, atol=1e-15)


def test_maxsense_sketch_halves_with_n_and_is_quadratic_in_eps(e2: p002_e2.Information) -> None:
    """Properties of the closed form the chapter glues: I(2N)/I(N) ≈ 1/2, I(0.1)/I(0.2) ≈ 1/4."""
    assert 0.45 <= e2.doubling <= 0.55 and 0.23 <= e2.eps_ratio <= 0.27
    assert 1.9 <= e2.eps_slope <= 2.1 and e2.margin_410 >= 10


def test_lemma47_error_is_at_most_w4_over_n2_and_zero_at_w_1(e2: p002_e2.Information) -> None:
    """Lemma 4.7 in exact rationals: |error| ≤ w⁴/N² for every w ≤ √N; exactly 0 at w = 1 (an identity:
    C(N−1, 1)/C(N, 1) = 1 − 1/N), so "Θ(w⁴/N²)" holds only as an upper bound."""
    assert e2.lemma47_ratio <= 1.0
    assert (e2.lemma["error at w = 1"] == 0.0).all()
    for n in (100, 1000):
        assert rc.lemma47_error_exact(n, 1) == 0


def test_p002_e2_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e2.cost({"mode": "full"}) == Cost()


# E2, pilot: guess-vector ratios 1.082, 1.070, 1.061 at N = 8, 9, 10, so N·I ≈ 0.54
THM43 = {"max_excess": -1e-3, "max_information_n": 0.541, "guess_ratios": {8: 1.082, 9: 1.070, 10: 1.061}}
# E2: a few (exact information, Lemma 4.1's bound) pairs, I about half of the bound
LEMMA41 = {"pairs": [(0.03, 0.06), (0.001, 0.0021), (0.0, 0.0)]}
# E2, pilot: a ≥ 10× margin below Thm 4.10's term, I ≪ ε
MI = {"max_over_thm410": 1 / 18, "max_over_eps": 1.1e-3}

BASES = [
    pytest.param(ref.thm43_checks, THM43, 5, id="thm43"),
    pytest.param(ref.lemma41_checks, LEMMA41, 1, id="lemma41"),
    pytest.param(ref.maxsense_information_checks, MI, 2, id="maxsense_information"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.thm43_checks, THM43, "max_excess", 1e-12, 2e-12, 0, "2.0e-12"),
    _case(ref.thm43_checks, THM43, "max_information_n", 1.0, 1.0001, 1, "1.0001"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 9), 1.099, 1.101, 3, "measured 1.1010"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 8), 1.0, 0.999, 2, "measured 0.9990"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 10), 1.1, 1.1001, 4, "measured 1.1001"),
    _case(ref.lemma41_checks, LEMMA41, "pairs", [(0.06 + 1e-13, 0.06)], [(0.061, 0.06)], 0, "1.0e-03"),
    _case(ref.maxsense_information_checks, MI, "max_over_thm410", 1.0, 1.001, 0, "ratio 1.001"),
    _case(ref.maxsense_information_checks, MI, "max_over_eps", 1.0, 1.01, 1, "ratio 1.01"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.thm43_checks, THM43, "max_excess", [0], "thm43-excess"),
    _nan(ref.thm43_checks, THM43, "max_information_n", [1], "thm43-one-over-n"),
    _nan(ref.thm43_checks, THM43, ("guess_ratios", 9), [3], "thm43-guess"),
    _nan(ref.lemma41_checks, LEMMA41, "pairs", [0], "lemma41", [(math.nan, 0.1)]),
    _nan(ref.maxsense_information_checks, MI, "max_over_thm410", [0], "mi-thm410"),
    _nan(ref.maxsense_information_checks, MI, "max_over_eps", [1], "mi-lemma31"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_lemma41_is_undecided_without_a_sketch():
    (check,) = ref.lemma41_checks([])
    assert check.passed is None and check.detail == "no sketch"


def test_infinite_values_fail_range_checks():
    checks = _well_formed(ref.thm43_checks(**{**THM43, "guess_ratios": {8: math.inf}}))
    assert _failing(checks) == [2]
    assert "inf" in checks[2].detail


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    thm43 = ref.thm43_checks(**THM43)
    assert [c.detail for c in thm43[2:]] == ["measured 1.0820", "measured 1.0700", "measured 1.0610"]
    assert "in [1, 1.1]" in thm43[2].claim and "N = 8" in thm43[2].claim
    assert "0.056" in ref.maxsense_information_checks(**MI)[0].detail
    assert ref.lemma41_checks(**LEMMA41)[0].detail.startswith("3 sketches")


def test_the_checks_are_named_for_their_badges():
    names = [c.name for fn, base in ((ref.thm43_checks, THM43), (ref.lemma41_checks, LEMMA41),
                                     (ref.maxsense_information_checks, MI)) for c in fn(**base)]  # fmt: skip
    assert names == CHECKS["p002-e2"].split()
