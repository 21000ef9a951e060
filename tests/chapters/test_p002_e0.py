"""Paper 002, E0 (Chapter 7): the private bit. The identities behind it that hold by construction (unit
tests here, not checks of the report), the experiment on small parameters, and its checks
(:func:`dpnet.reference.recommender.rr_checks`, with the accounting's and δ_min's), which pass on the
pilot's numbers and fail off them.

Every identity test also shows that it can fail: the same comparison rejects a value changed slightly.
The expected numbers and ranges are written out here, not read from the module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e0
from dpnet.params import Cost
from dpnet.reference import recommender as ref

NAN = math.nan


def _keep(eps):
    """Randomized response's keep probability e^ε/(1+e^ε)."""
    return math.exp(eps) / (1 + math.exp(eps))


# --------------------------------------------------------------------------------------------------
# Identities (they hold by construction): moved here from the report
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_randomized_response_likelihood_ratio_is_e_to_the_eps(eps: float) -> None:
    assert rc.likelihood_ratio(eps) == pytest.approx(math.exp(eps), rel=1e-12)
    assert rc.likelihood_ratio(eps) != pytest.approx(math.exp(1.01 * eps), rel=1e-12)


def test_randomized_response_never_flips_without_privacy() -> None:
    bits = np.random.default_rng(0).random(10_000) < 0.5
    assert np.array_equal(rc.rr_bits(bits, math.inf, np.random.default_rng(1)), bits)
    assert not np.array_equal(rc.rr_bits(bits, 3.0, np.random.default_rng(1)), bits)  # a finite ε flips some


def test_the_accounting_composes_to_the_requested_budget() -> None:
    """Pairwise-Preference and MaxSense release one bit at ε; Multi-MaxSense Q bits at ε/Q."""
    budgets = {
        "Pairwise-Preference": (rc.total_budget("pairwise", 1.0), 1.0),
        "MaxSense": (rc.total_budget("maxsense", 1.0), 1.0),
        "Multi-MaxSense, Q = 8 bits at ε/8": (rc.total_budget("multi-maxsense", 8.0, 8), 8.0),
    }
    assert all(c.passed for c in ref.accounting_checks(budgets))
    assert not ref.accounting_checks({"MaxSense": (1.01, 1.0)})[0].passed


def test_delta_min_of_the_two_models() -> None:
    """M-asym: one type with v = 0.5, so δ_min = 0.8 e^{−1/2}; M-sym: equal scores, δ_min = 0 exactly."""
    asym, sym = rc.delta_min(rc.m_asym(100, 10), 1.0), rc.delta_min(rc.m_sym(100, 10), 1.0)
    assert asym == pytest.approx(0.8 * math.exp(-0.5), rel=1e-12) and sym == 0.0
    assert all(c.passed for c in ref.delta_checks(asym, sym))
    assert not ref.delta_checks(asym + 2e-4, sym)[0].passed


# --------------------------------------------------------------------------------------------------
# The experiment
# --------------------------------------------------------------------------------------------------


def test_mechanism_checks_the_keep_rates_only() -> None:
    e0 = p002_e0.mechanism(small("recommender-maxsense"))
    checks = e0.checks["p002-e0"]
    assert [c.name for c in checks] == CHECKS["p002-e0"].split() and all(c.passed for c in checks)
    # the enumerated privacy of each scheme tests the paper's claim; sampler and exposure are the book's
    paper = {"ldp-pairwise", "ldp-maxsense", "ldp-multi-maxsense"}
    assert (
        all(c.against == ("paper" if c.name in paper else "reference") for c in checks) and e0.inf_flips == 0
    )
    assert e0.table["ε"].tolist() == ["0.1", "1", "3", "∞"]


def test_p002_e0_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e0.cost({"mode": "full"}) == Cost()


# --------------------------------------------------------------------------------------------------
# Its checks against the pilot's numbers
# --------------------------------------------------------------------------------------------------

# E0: ε ∈ {0.1, 1, 3}, 10⁶ draws (one standard error ≈ 5·10⁻⁴), ε = ∞ never flips
RR_EPS = (0.1, 1.0, 3.0)
RR = {
    "keep_rates": {e: _keep(e) + 3e-4 for e in RR_EPS},
    "ratios": {e: math.exp(e) for e in RR_EPS},
    "inf_flips": 0,
}
# the accounting: one bit at ε; Multi-MaxSense Q = 10 bits at ε/10, summed as floats
MULTI_NAME = "Multi-MaxSense, Q = 10 bits at ε/10"
ACCOUNTING = {
    "budgets": {"Pairwise-Preference": (1.0, 1.0), "MaxSense": (1.0, 1.0), MULTI_NAME: (sum([0.1] * 10), 1.0)}
}
# δ_min(M-asym) = 0.8 e^{−1/2}
DELTA = {"asym": 0.8 * math.exp(-0.5), "sym": 0.0}

E_1 = math.e
PRIVACY = {
    "ratios": {"pairwise": {1.0: E_1}, "maxsense": {1.0: E_1}, "multi-maxsense": {1.0: E_1 * (1 + 1e-15)}},
    "rated": {1.0: (math.inf, E_1)},
}

BASES = [
    pytest.param(ref.rr_checks, RR, 7, id="rr"),
    pytest.param(ref.privacy_checks, PRIVACY, 4, id="privacy"),
    pytest.param(ref.accounting_checks, ACCOUNTING, 3, id="accounting"),
    pytest.param(ref.delta_checks, DELTA, 2, id="delta"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


K1, K3, E3 = _keep(1.0), _keep(0.1), math.exp(3.0)
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.rr_checks, RR, ("keep_rates", 1.0), K1 + 0.0019, K1 + 0.0021, 1, f"{K1 + 0.0021:.5f}"),
    _case(ref.rr_checks, RR, ("keep_rates", 0.1), K3 - 0.0019, K3 - 0.0021, 0, f"{K3 - 0.0021:.5f}"),
    _case(ref.rr_checks, RR, ("ratios", 3.0), E3 * (1 + 5e-13), E3 * (1 + 2e-12), 5, "2.0e-12"),
    _case(ref.rr_checks, RR, "inf_flips", 0, 1, 6, "1 flips"),
    # the accounting
    _case(ref.accounting_checks, ACCOUNTING, ("budgets", MULTI_NAME), (1 + 5e-13, 1.0), (1 + 2e-12, 1.0), 2,
          "total 1 for ε = 1"),
    _case(ref.accounting_checks, ACCOUNTING, ("budgets", MULTI_NAME), (1.0, 1.0), (10.0, 1.0), 2,
          "total 10 for ε = 1"),
    # δ_min
    _case(ref.delta_checks, DELTA, "asym", 0.48529, 0.48531, 0, "0.48531"),
    _case(ref.delta_checks, DELTA, "asym", 0.48511, 0.48509, 0, "0.48509"),
    _case(ref.delta_checks, DELTA, "sym", -0.0, 1e-12, 1, "1e-12"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.rr_checks, RR, ("keep_rates", 1.0), [1], "rr-keep"),
    _nan(ref.rr_checks, RR, ("ratios", 0.1), [3], "rr-ratio"),
    _nan(ref.accounting_checks, ACCOUNTING, ("budgets", "MaxSense"), [1], "accounting", (NAN, 1.0)),
    _nan(ref.delta_checks, DELTA, "asym", [0], "delta-asym"),
    _nan(ref.delta_checks, DELTA, "sym", [1], "delta-sym"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_the_checks_discriminate_the_laws_the_chapter_contrasts():
    # the accounting: reporting ε/Q (one bit's share) instead of the composed ε fails
    assert _failing(ref.accounting_checks({MULTI_NAME: (0.1, 1.0)})) == [0]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    rr = ref.rr_checks(**RR)
    assert [c.claim for c in rr[:3]] == [
        f"RR keep rate at ε = {e:g} within ±0.002 of e^ε/(1+e^ε)" for e in RR_EPS
    ]
    assert f"{_keep(3.0):.5f}" in rr[2].detail
    assert "0 flips" in rr[6].detail
    assert ref.delta_checks(**DELTA)[0].detail == "0.48522"


def test_the_checks_are_named_for_their_badges():
    """E0's badges cite the keep rates by name; the identities' checks are named too."""
    assert [c.name for c in ref.rr_checks(**RR)] == [
        "keep-0-1", "keep-1", "keep-3", "ratio-0-1", "ratio-1", "ratio-3", "never-flips"
    ]  # fmt: skip
    assert [c.name for c in ref.accounting_checks(**ACCOUNTING)] == [
        "budget-pairwise-preference", "budget-maxsense", "budget-multi-maxsense-q-10-bits-at-10"
    ]  # fmt: skip
    assert [c.name for c in ref.delta_checks(**DELTA)] == ["delta-asym", "delta-sym"]
    assert {c.against for c in ref.rr_checks(**RR)} == {"reference"}


# --------------------------------------------------------------------------------------------------
# What each release protects: enumerated likelihood ratios (dpnet.recommender.privacy) and their checks
# --------------------------------------------------------------------------------------------------


def test_privacy_checks_pass_at_e_to_the_eps_and_fail_above() -> None:
    checks = ref.privacy_checks(**PRIVACY)
    assert [c.name for c in checks] == [
        "ldp-pairwise",
        "ldp-maxsense",
        "ldp-multi-maxsense",
        "rated-set-exposed",
    ]
    assert all(c.passed for c in checks)
    assert [c.against for c in checks] == ["paper", "paper", "paper", "reference"]
    over = ref.privacy_checks({"maxsense": {1.0: E_1 * 1.001}}, PRIVACY["rated"])
    assert [c.passed for c in over] == [False, True] and "1.001 e^ε" in over[0].detail
    # a pair from the rated items that hid them (finite ratio) would contradict the chapter's sentence
    assert ref.privacy_checks({}, {1.0: (E_1, E_1)})[0].passed is False
    assert ref.privacy_checks({"maxsense": {1.0: math.nan}}, PRIVACY["rated"])[0].passed is False


def test_privacy_checks_are_undecided_without_a_finite_budget() -> None:
    checks = ref.privacy_checks({"maxsense": {}}, {})
    assert [c.passed for c in checks] == [None, None] and checks[0].detail == "no ε"


@pytest.mark.parametrize("eps", [0.25, 1.0, 4.0])
def test_every_release_is_eps_private_except_the_rated_pair(eps: float) -> None:
    """Enumerated on N = 5, w = 2: each scheme's worst ratio is e^ε exactly (attained: some two users flip
    every bit); drawing the pair from the rated items exposes them (ratio ∞) but not the ratings."""
    from dpnet.recommender import privacy

    for scheme, bits in (("pairwise", 1), ("maxsense", 1), ("multi-maxsense", 2)):
        assert privacy.worst_ratio(scheme, 5, 2, eps, n_bits=bits) == pytest.approx(math.exp(eps), rel=1e-12)
    assert math.isinf(privacy.worst_ratio("pairwise-rated", 5, 2, eps))
    assert privacy.worst_ratio("pairwise-rated", 5, 2, eps, ratings_only=True) == pytest.approx(math.exp(eps))
    probs, _ = privacy.release_probabilities("maxsense", 5, 2, eps)
    assert np.allclose(probs.sum(axis=0), 1.0)  # a law over the releases, for every datum
