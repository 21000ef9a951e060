"""Paper 004, E0 (:mod:`dpnet.chapters.functional_perturbation.p004_e0`): what ε means for a test. Its check
(:func:`dpnet.reference.funcpert.error_region_checks`) passes on audited bounds below each ε, flips alone
just above one, fails on nan, is undecided with no ε, and fails on the tests of a mechanism with too little
noise. The floor 1/(1 + e^ε) of the region, fixed by ε alone, is a unit test here (note-fp-error-floor),
not a check."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from small import params

from dpnet import funcpert as fp
from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e0
from dpnet.params import Cost

CHAPTER = "functional-perturbation"


def _floor(eps):
    """The equal-error floor 1/(1 + e^ε) (note-fp-error-floor)."""
    return 1 / (1 + math.exp(eps))


# the audited lower bounds of a quick run, each below its ε
REGION = {"audited": {0.1: -0.003, 0.5: 0.314, 1.0: 0.673, 2.0: 1.458}}

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.error_region_checks, REGION, ["tests-in-region"], id="region")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # a bound ≤ its ε (inclusive)
    _case(ref.funcpert.error_region_checks, REGION, ("audited", 2.0), 2.0, 2.001, 0,
          "ε = 2: lower bound 2.001"),
    _case(ref.funcpert.error_region_checks, REGION, ("audited", 0.1), 0.1, 0.11, 0,
          "ε = 0.1: lower bound 0.110"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [_nan(ref.funcpert.error_region_checks, REGION, ("audited", 0.5), [0], "region")]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_no_epsilon_leaves_the_region_undecided_not_passed():
    (check,) = ref.funcpert.error_region_checks({})
    assert check.passed is None and check.detail == "undefined: no ε audited"


def test_an_event_that_never_occurs_is_no_evidence_against_the_region():
    assert ref.funcpert.error_region_checks({1.0: -math.inf})[0].passed is True


def test_the_tests_of_a_mechanism_with_too_little_noise_leave_the_region() -> None:
    """The check can fail: at ε = 1, a mechanism drawn with 0.3 of the theorem's noise lets the adversary's
    tests cross the region's boundary, and the audited bound exceeds ε."""
    delta = fp.extremal_shift(20, 2.0, 1.0)
    delta = delta / fp.vq_norm(delta, 2.0)
    scales = 0.3 * fp.laplace_scales(20, fp.gamma(1.0, 2.0, 1.0), 1.0)
    audit = fp.likelihood_ratio_audit(delta, scales, 20_000, np.random.default_rng(3))
    fa, md = audit.errors()
    assert np.any(1 - md > math.e * fa + 0.05)  # a test well outside 1 − p_MD ≤ e^ε p_FA
    assert (
        ref.funcpert.error_region_checks({1.0: audit.log_ratio(ref.funcpert.AUDIT_ALPHA)})[0].passed is False
    )


@pytest.mark.parametrize("eps", p004_e0.E0_EPS)
def test_the_floor_of_the_region_is_the_closed_form(eps: float) -> None:
    """The numerical min over the region of max(p_FA, p_MD) equals 1/(1 + e^ε) within 1e-3, the slide's
    (e^ε − 1)/(e^{2ε} − 1) is the same number, and a test that never rejects (p_FA = 0) is allowed: the
    slide's bound holds for the larger error, not for each."""
    assert abs(fp.error_rate_floor(eps) - _floor(eps)) <= ref.funcpert.FLOOR_TOLERANCE
    assert (math.exp(eps) - 1) / (math.exp(2 * eps) - 1) == pytest.approx(_floor(eps), rel=1e-12)
    assert fp.min_miss_probability(np.array([0.0]), eps)[0] == pytest.approx(1.0)


def test_the_experiment_records_its_floors_tests_and_audit() -> None:
    """E0 computes the floors and audits the mechanism at the budgets of its figure, and states every member
    a result is recorded by (``dpnet.results.Recordable``), with no table and no deviation. Its tests lie in
    the region within the Monte Carlo error, and none beats the floor by more than that."""
    P = params(CHAPTER)
    e0 = p004_e0.hypothesis_testing(P)
    assert tuple(e0.floors) == tuple(e0.tests) == tuple(e0.audited) == p004_e0.E0_EPS
    assert [c.name for c in e0.checks["p004-e0"]] == ["tests-in-region"] and e0.checks["p004-e0"][0].passed
    assert set(e0.metrics()) == {"error_rate_floor", "best_test_larger_error", "audited_log_ratio"}
    for eps, (fa, md) in e0.tests.items():
        assert fa.shape == md.shape == (199,)
        assert np.all(1 - md <= math.exp(eps) * fa + 0.02) and np.all(1 - fa <= math.exp(eps) * md + 0.02)
        assert e0.best_larger_error[eps] >= _floor(eps) - 0.02
    assert (e0.tables(), e0.deviations, e0.paper_setting) == ({}, (), True)


def test_its_cost_is_in_the_chapter_s_fixed_seconds():
    assert p004_e0.cost({}) == Cost()
