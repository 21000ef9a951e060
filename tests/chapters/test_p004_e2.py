"""Paper 004, E2 (:mod:`dpnet.chapters.functional_perturbation.p004_e2`): the calibration, its identities,
and its checks (:func:`dpnet.reference.funcpert.calibration_checks`): they pass on p = q/2 and a Monte
Carlo energy one standard error off, each flips alone just outside its tolerance, nan fails the claim it
feeds, and no q leaves the optimal p undefined."""

from __future__ import annotations

import math

import numpy as np
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


# argmin p = q/2 exactly; the Monte Carlo energy one standard error (≈ 1 %) off
CALIBRATION = {
    "optimal_p": {1.5: 0.75, 2.0: 1.0, 3.0: 1.5, 4.0: 2.0},
    "energy_error": _energy_standard_error(),
}

# (function, base, their names in order)
BASES = [
    pytest.param(
        ref.funcpert.calibration_checks, CALIBRATION, ["optimal-p", "noise-energy"], id="calibration"
    ),
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # |p − q/2| ≤ 1e-3: 1.001 − 1 is just below 1e-3 in floats, the next float just above
    _case(ref.funcpert.calibration_checks, CALIBRATION, ("optimal_p", 2.0), 1.001, math.nextafter(1.001, 2),
          0, "1.00100 (q = 2)"),
    _case(ref.funcpert.calibration_checks, CALIBRATION, ("optimal_p", 4.0), 1.9991, 1.9989, 0,
          "1.99890 (q = 4)"),
    # ≤ 3 % (inclusive)
    _case(ref.funcpert.calibration_checks, CALIBRATION, "energy_error", 0.03, 0.0301, 1,
          "relative error 0.0301"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.funcpert.calibration_checks, CALIBRATION, ("optimal_p", 3.0), [0], "calibration-optimal-p"),
    _nan(ref.funcpert.calibration_checks, CALIBRATION, "energy_error", [1], "calibration-energy"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_no_q_leaves_the_optimal_p_undefined_not_an_error():
    assert ref.funcpert.calibration_checks({}, 0.01)[0].passed is None


def test_the_calibration_claims_and_details_carry_the_numbers():
    cal = ref.funcpert.calibration_checks(**CALIBRATION)
    assert cal[0].detail == "p* = 0.75000 (q = 1.5), 1.00000 (q = 2), 1.50000 (q = 3), 2.00000 (q = 4)"
    assert "3%" in cal[1].claim and cal[1].detail == "relative error 0.0103"


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
    assert [c.name for c in e2.checks["p004-e2"]] == ["optimal-p", "noise-energy"]


def test_the_gamma_table_the_chapter_shows_has_one_row_per_q() -> None:
    """The table the chapter shows (``p004-e2-gamma``) has γ at ε = 1 and √2 ζ(q) for the run's q; the
    result itself records no table."""
    e2 = p004_e2.Calibration((1.5, 4.0), np.linspace(0.6, 3.4, 5), {}, 0.0, np.zeros(1), 1.0, {})
    table = e2.table
    assert table["q"].tolist() == [1.5, 4.0] and table["p = q/2"].tolist() == [0.75, 2.0]
    assert table["γ at ε = 1"].tolist() == [gamma(1.0, 1.5, 0.75), gamma(1.0, 4.0, 2.0)]
    assert table.iloc[1, 3] == pytest.approx(math.sqrt(2) * special.zeta(4.0))
    assert (e2.tables(), e2.deviations, e2.paper_setting) == ({}, (), True)


def test_its_cost_is_in_the_chapter_s_fixed_seconds():
    assert p004_e2.cost({}) == Cost()
