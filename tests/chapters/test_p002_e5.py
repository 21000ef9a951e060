"""Paper 002, E5 (Chapter 7): rich against scarce. Its check names and cost (its sweeps are the chapter's
longest, so the experiment itself runs in the book build only), and its checks
(:func:`dpnet.reference.recommender.crossover_checks`, ``pp_exponent_checks`` and ``symmetric_checks``),
which pass on the pilot's numbers and fail off them."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from check_cases import well_formed as _well_formed
from small import CHECKS

from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e5
from dpnet.reference import recommender as ref

NAN = math.nan

# E5: P_succ ≈ 0 on M-sym
SYMMETRIC = {"success": 0.0}
# E5, pilot: 1.35·10⁴ vs 4.4·10⁴ at w = N; 1.5·10⁵ vs 4.7·10⁵ at w = N/4
CROSSOVER = {"pp_full": 1.35e4, "ms_full": 4.4e4, "pp_quarter": 4.7e5, "ms_quarter": 1.5e5}
# E5, pilot: 1.99 non-private agree_rated; 3.6 and 4.2 at ε = 1
PP_EXPONENT = {"nonprivate": 1.99, "private": {"agree_rated": 3.6, "agree": 4.2}}


def test_rich_vs_scarce_names_its_checks() -> None:
    """E5's sizes are fixed (its sweeps are the chapter's longest): its check names are those of the checks
    it calls, in its order."""
    checks = [
        *ref.crossover_checks(**CROSSOVER),
        *ref.pp_exponent_checks(**PP_EXPONENT),
        *ref.symmetric_checks(**SYMMETRIC),
    ]
    assert [c.name for c in checks] == CHECKS["p002-e5"].split()


def test_p002_e5_cost_counts_both_algorithms() -> None:
    """Pairwise-Preference at N = 100: 5 w × (3 + 4) points and 4 combinations × 2 w × (3 + 4) points, 20
    runs each; MaxSense: 5 w × 15 points and 5 on M-sym, 40 runs each."""
    values = dict(resolve("recommender-maxsense", {"mode": "quick"}))
    need = p002_e5.cost(values)
    pp, ms = 1.1e-3 + 2.2e-7 * 100**2 + 2e-10 * 100**3, 5e-4 + 1e-6 * 100
    assert need.seconds == pytest.approx(20 * pp * (5 * 7 + 4 * 2 * 7) + (5 * 15 + 5) * 40 * ms, rel=1e-12)
    assert need.peak == 48.0 * 100**2


BASES = [
    pytest.param(ref.symmetric_checks, SYMMETRIC, 1, id="symmetric"),
    pytest.param(ref.crossover_checks, CROSSOVER, 2, id="crossover"),
    pytest.param(ref.pp_exponent_checks, PP_EXPONENT, 3, id="pp_exponent"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # M-sym
    _case(ref.symmetric_checks, SYMMETRIC, "success", 0.1, 0.15, 0, "0.15"),
    # crossover
    _case(ref.crossover_checks, CROSSOVER, "pp_full", 4.39e4, 4.4e4, 0, "4.4e+04 vs 4.4e+04"),
    _case(ref.crossover_checks, CROSSOVER, "ms_quarter", 2.349e5, 2.35e5, 1, "2.35e+05 vs 4.7e+05"),
    # exponent
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 2.5, 2.51, 0, "measured 2.51"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 1.5, 1.49, 0, "measured 1.49"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree_rated"), 2.8, 2.79, 1, "2.79"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), 2.8, 2.79, 2, "2.79"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.symmetric_checks, SYMMETRIC, "success", [0], "symmetric"),
    _nan(ref.crossover_checks, CROSSOVER, "pp_full", [0], "crossover-pp-full"),
    _nan(ref.crossover_checks, CROSSOVER, "ms_quarter", [1], "crossover-ms-quarter"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", [0], "exponent-nonprivate"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), [2], "exponent-private"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    # crossover_checks reads nan as "not reached within the cap", shown as inf
    assert_nan_fails(fn, changed, base, failing, shown="inf" if fn is ref.crossover_checks else "nan")


def test_crossover_treats_a_nan_pp_u90_at_a_quarter_as_not_reached():
    checks = _well_formed(ref.crossover_checks(**{**CROSSOVER, "pp_quarter": NAN}))
    assert _failing(checks) == []
    assert "1.5e+05 vs inf" in checks[1].detail
    # "not reached" is no excuse for MaxSense: it still has to reach 90 % itself
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "pp_quarter": NAN, "ms_quarter": NAN})) == [1]
    # at w = N, a PP that never reaches 90 % cannot need fewer users than MaxSense
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "pp_full": NAN, "ms_full": NAN})) == [0]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    cross = ref.crossover_checks(**CROSSOVER)
    assert [c.detail for c in cross] == ["1.35e+04 vs 4.4e+04", "1.5e+05 vs 4.7e+05"]
    assert ref.symmetric_checks(0.05)[0].detail == "0.05"


def test_crossover_maxsense_not_reached_at_full_w_means_pp_needs_fewer():
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "ms_full": NAN})) == []
