"""Paper 002, E2 (Chapter 7): exact mutual information. The experiment on small parameters, and its checks
(:func:`dpnet.reference.recommender.thm43_checks`, ``maxsense_information_checks`` and
``lemma47_checks``), which pass on the pilot's numbers and fail off them."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from check_cases import well_formed as _well_formed
from small import CHECKS, small

from dpnet.chapters.recommender_maxsense import p002_e2
from dpnet.params import Cost
from dpnet.reference import recommender as ref


def test_information_names_every_check() -> None:
    e2 = p002_e2.information(small("recommender-maxsense"))
    assert [c.name for c in e2.checks["p002-e2"]] == CHECKS["p002-e2"].split()
    assert all(c.passed for c in e2.checks["p002-e2"])
    assert e2.random_queries == 9 * p002_e2.E2_RANDOM_QUERIES


def test_p002_e2_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e2.cost({"mode": "full"}) == Cost()


# E2, Lemma 4.7: the error stays below w⁴/N² (tightest at w = 1, by w⁴/N² = 10⁻⁸ at N = 10⁴), and is 0 there
LEMMA47 = {"max_excess": -1e-8, "error_at_one": 0.0}
# E2, pilot: guess-vector ratios 1.082, 1.070, 1.061 at N = 8, 9, 10, so N·I ≈ 0.54
THM43 = {"max_excess": -1e-3, "max_information_n": 0.541, "guess_ratios": {8: 1.082, 9: 1.070, 10: 1.061}}
# E2, pilot: doubling 0.499, ε ratio 0.251, a ≥ 10× margin below Thm 4.10's term, I ≪ ε
MI = {"doubling": 0.499, "eps_ratio": 0.251, "max_over_thm410": 1 / 18, "max_over_eps": 1.1e-3}

BASES = [
    pytest.param(ref.lemma47_checks, LEMMA47, 2, id="lemma47"),
    pytest.param(ref.thm43_checks, THM43, 5, id="thm43"),
    pytest.param(ref.maxsense_information_checks, MI, 4, id="maxsense_information"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # Lemma 4.7
    _case(ref.lemma47_checks, LEMMA47, "max_excess", 0.0, 1e-15, 0, "1.00e-15"),
    _case(ref.lemma47_checks, LEMMA47, "error_at_one", 0.0, 2e-17, 1, "2e-17"),
    # Thm 4.3
    _case(ref.thm43_checks, THM43, "max_excess", 1e-12, 2e-12, 0, "2.0e-12"),
    _case(ref.thm43_checks, THM43, "max_information_n", 1.0, 1.0001, 1, "1.0001"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 9), 1.099, 1.101, 3, "measured 1.1010"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 8), 1.0, 0.999, 2, "measured 0.9990"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 10), 1.1, 1.1001, 4, "measured 1.1001"),
    # MaxSense's sketch
    _case(ref.maxsense_information_checks, MI, "doubling", 0.451, 0.449, 0, "measured 0.449"),
    _case(ref.maxsense_information_checks, MI, "doubling", 0.549, 0.551, 0, "measured 0.551"),
    _case(ref.maxsense_information_checks, MI, "eps_ratio", 0.231, 0.229, 1, "measured 0.229"),
    _case(ref.maxsense_information_checks, MI, "eps_ratio", 0.269, 0.271, 1, "measured 0.271"),
    _case(ref.maxsense_information_checks, MI, "max_over_thm410", 1.0, 1.001, 2, "ratio 1.001"),
    _case(ref.maxsense_information_checks, MI, "max_over_eps", 1.0, 1.01, 3, "ratio 1.01"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.lemma47_checks, LEMMA47, "max_excess", [0], "lemma47-excess"),
    _nan(ref.lemma47_checks, LEMMA47, "error_at_one", [1], "lemma47-w1"),
    _nan(ref.thm43_checks, THM43, "max_excess", [0], "thm43-excess"),
    _nan(ref.thm43_checks, THM43, "max_information_n", [1], "thm43-one-over-n"),
    _nan(ref.thm43_checks, THM43, ("guess_ratios", 9), [3], "thm43-guess"),
    _nan(ref.maxsense_information_checks, MI, "doubling", [0], "mi-doubling"),
    _nan(ref.maxsense_information_checks, MI, "eps_ratio", [1], "mi-eps"),
    _nan(ref.maxsense_information_checks, MI, "max_over_thm410", [2], "mi-thm410"),
    _nan(ref.maxsense_information_checks, MI, "max_over_eps", [3], "mi-lemma31"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_infinite_values_fail_range_checks():
    checks = _well_formed(ref.thm43_checks(**{**THM43, "guess_ratios": {8: math.inf}}))
    assert _failing(checks) == [2]
    assert "inf" in checks[2].detail


def test_the_checks_discriminate_the_laws_the_chapter_contrasts():
    # MI linear in ε (ratio 1/2) fails the quadratic-ε claim
    assert _failing(ref.maxsense_information_checks(**{**MI, "eps_ratio": 0.5})) == [1]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    thm43 = ref.thm43_checks(**THM43)
    assert [c.detail for c in thm43[2:]] == ["measured 1.0820", "measured 1.0700", "measured 1.0610"]
    assert "in [1, 1.1]" in thm43[2].claim and "N = 8" in thm43[2].claim
    mi = ref.maxsense_information_checks(**MI)
    assert [c.detail for c in mi[:2]] == ["measured 0.499", "measured 0.251"]
    assert "0.056" in mi[2].detail


def test_the_checks_are_named_for_their_badges():
    names = [c.name for fn, base in ((ref.thm43_checks, THM43), (ref.maxsense_information_checks, MI),
                                     (ref.lemma47_checks, LEMMA47)) for c in fn(**base)]  # fmt: skip
    assert names == CHECKS["p002-e2"].split()
