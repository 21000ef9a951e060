"""Paper 002, E5 (Chapter 7): rich against scarce, and more than two clusters. Its check names and cost (its
sweeps are the chapter's longest, so the experiment itself runs in the book build only), the three-cluster
experiment on small sizes, and its checks (:func:`dpnet.reference.recommender.crossover_checks`,
``pp_exponent_checks``, ``symmetric_checks`` and ``three_cluster_checks``), which pass on the pilot's
numbers, fail off them, and are undecided where a side of a comparison is unknown."""

from __future__ import annotations

import math

import pytest
from check_cases import (
    assert_all_pass,
    assert_all_pass_by_name,
    assert_flips_alone,
    assert_flips_alone_by_name,
    assert_nan_fails,
    refuted,
    undefined,
)
from check_cases import case as _case
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e5, p002_e5_three
from dpnet.recommender.conditions import pairwise_spectrum
from dpnet.reference import recommender as ref

NAN = math.nan

# E5: P_succ ≈ 0 on M-sym
SYMMETRIC = {"success": 0.0}
# E5, pilot: 1.35·10⁴ vs 4.4·10⁴ at w = N; 1.5·10⁵ vs 4.7·10⁵ at w = N/4; PP not reached at w = 5
CROSSOVER = {"pp_full": 1.35e4, "ms_full": 4.4e4, "pp_quarter": 4.7e5, "ms_quarter": 1.5e5,
             "scarce": [(5, NAN, 9.4e5), (10, 1.15e6, 4.0e5)], "cap": 1e7}  # fmt: skip
# E5, pilot: 1.99 non-private agree_rated; 3.6 and 4.2 at ε = 1
PP_EXPONENT = {"nonprivate": 1.99, "private": {"agree_rated": 3.6, "agree": 4.2}}
# Three clusters: MaxSense 1.8·10⁶ against 1.7·10⁶ predicted and 1.4·10⁷ by the proof; PP reached
THREE = {"ms_u90": 1.8e6, "ms_predicted": 1.7e6, "ms_proof": 1.4e7, "pp_u90": 5.7e4}


def test_rich_vs_scarce_names_its_checks() -> None:
    """E5's sizes are fixed (its sweeps are the chapter's longest): its check names are those of the checks
    it calls, in its order, then the three-cluster experiment's."""
    checks = [
        *ref.crossover_checks(**CROSSOVER),
        *ref.pp_exponent_checks(**PP_EXPONENT),
        *ref.symmetric_checks(**SYMMETRIC),
        *ref.three_cluster_checks(**THREE),
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


def test_three_clusters_on_small_sizes() -> None:
    three = p002_e5_three.three_clusters(small("recommender-maxsense"))
    assert [c.name for c in three.checks["p002-e5"]] == [
        "three-prediction",
        "three-sufficient",
        "three-pairwise",
    ]
    assert all(c.passed for c in three.checks["p002-e5"])
    assert three.maxsense.model.L == 3 and three.pairwise.model.K == 3 and len(three.table) == 2


def test_thm35_conditions_fail_on_m_sym3_and_hold_on_a_hopeless_model() -> None:
    """M-sym3's second and third eigenvalues are equal (condition 1 fails), yet the chapter recovers it; a
    model whose clusters are liked alike satisfies both conditions with λ₂ = 0 (they are not sufficient)."""
    sym3 = pairwise_spectrum(p002_e5_three.m_sym3(99, 99), 1.0)
    assert not sym3.holds() and sym3.eigenvalues[1] == pytest.approx(sym3.eigenvalues[2], abs=1e-12)
    flat = pairwise_spectrum(rc.BlockModel((1.0,), (0.5, 0.5), ((0.5, 0.5),), 100, 100), 1.0)
    assert flat.holds() and flat.smallest_ratio < 1e-12
    assert pairwise_spectrum(rc.m_sym(100, 100), 1.0).holds()


BASES = [
    pytest.param(ref.symmetric_checks, SYMMETRIC, 1, id="symmetric"),
    pytest.param(ref.pp_exponent_checks, PP_EXPONENT, 3, id="pp_exponent"),
    pytest.param(ref.crossover_checks, CROSSOVER, 3, id="crossover"),
    pytest.param(ref.three_cluster_checks, THREE, 3, id="three_cluster"),
]


@pytest.mark.parametrize(("fn", "base", "count"), [b for b in BASES if b.id != "crossover"])
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


def test_crossover_passes_on_the_pilot_numbers():
    assert_all_pass_by_name(ref.crossover_checks, CROSSOVER, ["full-w", "quarter-w", "scarce"])


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.symmetric_checks, SYMMETRIC, "success", 0.1, 0.15, 0, "0.15"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 2.5, 2.51, 0, "measured 2.51"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 1.5, 1.49, 0, "measured 1.49"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree_rated"), 2.8, 2.79, 1, "2.79"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), 2.8, 2.79, 2, "2.79"),
    _case(ref.three_cluster_checks, THREE, "ms_u90", 2.38e6, 2.39e6, 0, "2.39e+06 vs 1.7e+06"),
    _case(ref.three_cluster_checks, THREE, "ms_proof", 2.38e6, 1.7e6, 1, "1.8e+06 vs 1.7e+06"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


CROSSOVER_BOUNDARIES = [
    _case(ref.crossover_checks, CROSSOVER, "pp_full", 4.39e4, 4.4e4, 0, "4.4e+04 vs 4.4e+04"),
    _case(ref.crossover_checks, CROSSOVER, "ms_quarter", 4.69e5, 4.7e5, 1, "4.7e+05 vs 4.7e+05"),
    _case(ref.crossover_checks, CROSSOVER, "scarce", [(10, 1.15e6, 1.14e6)], [(10, 1.15e6, 1.15e6)], 2,
          "w = 10: 1.15e+06 vs 1.15e+06"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), CROSSOVER_BOUNDARIES)
def test_each_crossover_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.symmetric_checks, SYMMETRIC, "success", [0], "symmetric"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", [0], "exponent-nonprivate"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), [2], "exponent-private"),
    _nan(ref.three_cluster_checks, THREE, "ms_u90", [0, 1], "three-ms"),
    _nan(ref.three_cluster_checks, THREE, "pp_u90", [2], "three-pp"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_a_comparison_with_an_unknown_side_is_undecided_never_passed():
    """nan is "not reached": Pairwise-Preference's within the cap (so above it), MaxSense's within its grid
    (unknown)."""
    # MaxSense not reached at w = N: PP "needs fewer" cannot be decided (it used to pass, vacuously)
    checks = ref.crossover_checks(**{**CROSSOVER, "ms_full": NAN})
    assert undefined(checks) == [0] and refuted(checks) == []
    # PP not reached at w = N while MaxSense is: PP does not need fewer
    assert refuted(ref.crossover_checks(**{**CROSSOVER, "pp_full": NAN})) == [0]
    # PP not reached at w = N/4: it needs more than the cap, MaxSense fewer
    assert refuted(ref.crossover_checks(**{**CROSSOVER, "pp_quarter": NAN})) == []
    # MaxSense not reached at w = N/4: undecided
    assert undefined(ref.crossover_checks(**{**CROSSOVER, "ms_quarter": NAN})) == [1]
    # a scarce w where MaxSense was not reached leaves the claim undecided; no scarce w at all too
    assert undefined(ref.crossover_checks(**{**CROSSOVER, "scarce": [(5, NAN, NAN)]})) == [2]
    empty = ref.crossover_checks(**{**CROSSOVER, "scarce": []})
    assert undefined(empty) == [2] and empty[2].detail == "no w"


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    cross = ref.crossover_checks(**CROSSOVER)
    assert [c.detail for c in cross[:2]] == ["1.35e+04 vs 4.4e+04", "1.5e+05 vs 4.7e+05"]
    assert cross[2].detail == "w = 5: 9.4e+05 vs more than 1e+07; w = 10: 4e+05 vs 1.15e+06"
    assert ref.symmetric_checks(0.05)[0].detail == "0.05"
