"""Paper 004, E2 (:mod:`dpnet.chapters.functional_perturbation.p004_e2`): the calibration, its identities,
and its checks (:func:`dpnet.reference.funcpert.calibration_checks`): they pass on audited bounds below ε
and a Monte Carlo energy one standard error off, each flips alone just outside its bound, nan fails the
claim it feeds, no audited exponent leaves the audit undecided, and a mechanism with too little noise
fails it. The optimal p = q/2, fixed by a fixed grid and fixed q, is a unit test here, not a check."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from scipy import special
from small import params

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e2
from dpnet.funcpert import gamma, noise_energy
from dpnet.params import Cost

CHAPTER = "functional-perturbation"


def _energy_standard_error(K=20, p=1.0, draws=20_000):
    """Relative standard error of the Monte Carlo mean of ‖Φ_K(η)‖², η_k ~ Lap(γ k^−p).

    E η² = 2b², Var η² = E η⁴ − (E η²)² = 24b⁴ − 4b⁴ = 20b⁴, independent across k.
    """
    k = np.arange(1, K + 1, dtype=float)
    return float(math.sqrt(20 * np.sum(k ** (-4 * p))) / (2 * np.sum(k ** (-2 * p))) / math.sqrt(draws))


# the audited lower bounds of the default run, below ε = 1; the Monte Carlo energy one standard error off
AUDITED = {(1.5, 0.75): 0.496, (2.0, 1.0): 0.669, (4.0, 2.0): 0.871, (2.0, 0.6): 0.781, (2.0, 1.4): 0.295}
CALIBRATION = {"audited": AUDITED, "eps": 1.0, "energy_error": _energy_standard_error()}

# (function, base, their names in order)
BASES = [
    pytest.param(
        ref.funcpert.calibration_checks, CALIBRATION, ["dp-audit", "noise-energy"], id="calibration"
    ),
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # an audited bound ≤ ε (inclusive)
    _case(ref.funcpert.calibration_checks, CALIBRATION, ("audited", (2.0, 1.0)), 1.0, 1.001, 0,
          "1.001 (q = 2, p = 1)"),
    _case(ref.funcpert.calibration_checks, CALIBRATION, ("audited", (2.0, 1.4)), 0.999, 1.2, 0,
          "1.200 (q = 2, p = 1.4)"),
    # ≤ 3 % (inclusive)
    _case(ref.funcpert.calibration_checks, CALIBRATION, "energy_error", 0.03, 0.0301, 1,
          "relative error 0.0301"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.funcpert.calibration_checks, CALIBRATION, ("audited", (4.0, 2.0)), [0], "calibration-audit"),
    _nan(ref.funcpert.calibration_checks, CALIBRATION, "energy_error", [1], "calibration-energy"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_no_audited_exponent_leaves_the_audit_undecided_not_passed():
    checks = ref.funcpert.calibration_checks({}, 1.0, 0.01)
    assert checks[0].passed is None and checks[0].detail == "undefined: no (q, p) audited"


def test_an_event_that_never_occurs_is_no_evidence_against_the_guarantee():
    """A lower bound of −∞ (an event none of one input's draws fall in) passes."""
    assert ref.funcpert.calibration_checks({(2.0, 1.0): -math.inf}, 1.0, 0.01)[0].passed is True


def test_the_calibration_claims_and_details_carry_the_numbers():
    cal = ref.funcpert.calibration_checks(**CALIBRATION)
    assert cal[0].detail.startswith("lower bounds 0.496 (q = 1.5, p = 0.75), 0.669 (q = 2, p = 1)")
    assert "99.9%" in cal[0].claim and "3%" in cal[1].claim and cal[1].detail == "relative error 0.0103"


def test_the_audit_fails_a_mechanism_with_too_little_noise() -> None:
    """The check can fail: the audit of a mechanism drawn with 0.3 of the noise the theorem asks for (a
    loss of 3.3 ε) shows a lower bound above ε; with the right noise it stays below."""
    from dpnet.funcpert import extremal_shift, laplace_scales, likelihood_ratio_audit, vq_norm

    delta = extremal_shift(20, 2.0, 1.0)
    delta = delta / vq_norm(delta, 2.0)
    scales = laplace_scales(20, gamma(1.0, 2.0, 1.0), 1.0)
    bounds = {}
    for factor in (1.0, 0.3):
        audit = likelihood_ratio_audit(delta, factor * scales, 20_000, np.random.default_rng(11))
        bounds[(2.0, factor)] = audit.log_ratio(ref.funcpert.AUDIT_ALPHA)
    assert ref.funcpert.calibration_checks({(2.0, 1.0): bounds[(2.0, 1.0)]}, 1.0, 0.01)[0].passed is True
    assert ref.funcpert.calibration_checks({(2.0, 1.0): bounds[(2.0, 0.3)]}, 1.0, 0.01)[0].passed is False


def test_the_optimal_p_is_half_q() -> None:
    """The numerical argmin over E2's p grid of ζ(2p)ζ(2(q − p)) lies within 1e-3 of q/2 for every q of E2:
    fixed by a fixed grid and fixed q, a unit test, not a check."""
    from dpnet.chapters import functional_perturbation as chapter

    e2 = chapter.calibration(params(CHAPTER))
    assert set(e2.optimal_p) == set(p004_e2.E2_Q)
    for q, p in e2.optimal_p.items():
        assert abs(p - q / 2) <= ref.funcpert.OPTIMAL_P_TOLERANCE


def test_the_audited_exponents_are_the_run_s_q_then_two_near_the_ends() -> None:
    assert p004_e2.audited_exponents([1.5, 2.0]) == [(1.5, 0.75), (2.0, 1.0), (2.0, 0.6), (2.0, 1.4)]
    assert p004_e2.audited_exponents([]) == [(2.0, 0.6), (2.0, 1.4)]


def test_the_gamma_table_is_the_theorems():
    """The table is γ = √ζ(2(q − p))/ε at ε = 1 to its 7 digits."""
    for (q, p), expected in ref.funcpert.GAMMA_VALUES.items():
        assert abs(math.sqrt(special.zeta(2 * (q - p))) - expected) <= 5e-7


def test_the_chapter_s_calibration_holds_its_identities() -> None:
    """E2: γ is the theorem's formula (the published table to 1e-6); random shifts spend at most the bound
    (Cauchy–Schwarz); the extremal shift reaches at least 0.999 of it; the truncated energy is below
    2ζ(q)²/ε² at p = q/2."""
    from dpnet.chapters import functional_perturbation as chapter

    e2 = chapter.calibration(params(CHAPTER))
    for (q, p), value in ref.funcpert.GAMMA_VALUES.items():
        assert gamma(1.0, q, p) == pytest.approx(value, rel=ref.funcpert.GAMMA_RTOL)
    assert e2.loss_ratios.max() <= 1 + 1e-12
    assert ref.funcpert.WORST_CASE_MIN <= e2.worst_ratio <= 1 + 1e-12
    for q in (1.5, 2.0, 4.0):
        assert noise_energy(p004_e2.E2_K, gamma(1.0, q, q / 2), q / 2) <= 2 * special.zeta(q) ** 2
    assert [c.name for c in e2.checks["p004-e2"]] == ["dp-audit", "noise-energy"]
    assert all(c.passed for c in e2.checks["p004-e2"])
    assert (e2.audit["loss"] <= 1 + 1e-12).all()  # the tested shifts' exact loss is at most ε (one V_q unit)


def test_the_gamma_table_the_chapter_shows_has_one_row_per_q() -> None:
    """The table the chapter shows (``p004-e2-gamma``) has γ at ε = 1 and √2 ζ(q) for the run's q; the
    result itself records no table."""
    audit = pd.DataFrame({"q": [2.0], "p": [1.0], "loss": [0.98], "audited": [0.7]})
    e2 = p004_e2.Calibration((1.5, 4.0), np.linspace(0.6, 3.4, 5), {}, 0.0, np.zeros(1), 1.0, audit, {})
    table = e2.table
    assert table["q"].tolist() == [1.5, 4.0] and table["p = q/2"].tolist() == [0.75, 2.0]
    assert table["γ at ε = 1"].tolist() == [gamma(1.0, 1.5, 0.75), gamma(1.0, 4.0, 2.0)]
    assert table.iloc[1, 3] == pytest.approx(math.sqrt(2) * special.zeta(4.0))
    assert (e2.tables(), e2.deviations, e2.paper_setting) == ({}, (), True)
    assert e2.audit_table.columns.tolist() == ["q", "p", "exact loss Σ|Δ_k|/b_k", "audited lower bound"]


def test_its_cost_is_in_the_chapter_s_fixed_seconds():
    assert p004_e2.cost({}) == Cost()
