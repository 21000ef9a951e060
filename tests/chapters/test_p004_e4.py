"""Paper 004, E4 (:mod:`dpnet.chapters.functional_perturbation.p004_e4`): the 2-D case study and its
checks (:func:`dpnet.reference.funcpert.truncation_checks`,
:func:`dpnet.reference.funcpert.case_study_checks`): they pass on an error that falls with ε (Spearman −1)
and the book's predictions (the error 0.029 at ε = 1 with ratio 8.6), each flips alone just outside its
range, nan fails the claim it feeds, and the ratio tells the linear law from the bound's exponent."""

from __future__ import annotations

import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from check_cases import refuted as _failing
from check_cases import well_formed_or_undefined as _wf

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e4

TRUNCATION = {"bias": {"logistic": 2.2e-4}}
CASE = {"spearman": -1.0, "error_1": 0.029, "error_10": 0.029 / 8.6}

# (function, base, their names in order)
BASES = [
    pytest.param(ref.funcpert.truncation_checks, TRUNCATION, ["truncation-bias"], id="truncation"),
    pytest.param(
        ref.funcpert.case_study_checks, CASE, ["falls-with-eps", "error-at-1", "tenfold"], id="case_study"
    ),
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# error(1) feeds both E4 claims: its range is probed with error(10) set to keep the ratio at 10
CASE_HIGH, CASE_LOW = {**CASE, "error_10": 0.008}, {**CASE, "error_10": 0.001}
CASE_STUDY = ref.funcpert.case_study_checks
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # the logistic bias below 5e-4 (strict)
    _case(
        ref.funcpert.truncation_checks, TRUNCATION, ("bias", "logistic"), 4.99e-4, 5e-4, 0, "measured 0.0005"
    ),
    # [0.01, 0.08] and [5, 15] (inclusive both ends)
    # Spearman ≤ −0.95 (inclusive)
    _case(CASE_STUDY, CASE, "spearman", -0.95, -0.949, 0, "ρ = -0.949"),
    _case(CASE_STUDY, CASE_HIGH, "error_1", 0.08, 0.0801, 1, "measured 0.0801"),
    _case(CASE_STUDY, CASE_LOW, "error_1", 0.01, 0.0099, 1, "measured 0.0099"),
    _case(CASE_STUDY, CASE, "error_10", 0.029 / 15, 0.029 / 15.01, 2, "= 15.01"),
    _case(CASE_STUDY, CASE, "error_10", 0.0058, 0.00581, 2, "= 4.991"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.funcpert.truncation_checks, TRUNCATION, ("bias", "logistic"), [0], "truncation"),
    _nan(CASE_STUDY, CASE, "spearman", [0], "case-spearman"),
    _nan(CASE_STUDY, CASE, "error_1", [1, 2], "case-error-1"),
    _nan(CASE_STUDY, CASE, "error_10", [2], "case-error-10"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_the_case_study_checks_discriminate_the_laws_the_notes_contrast():
    # a decade of ε divides the error by 10 under the linear law (passes), by 10^(1/3) under the bound's
    # exponent in 2-D (fails), by 100 under an O(1/ε²) law (fails)
    assert _failing(ref.funcpert.case_study_checks(-1.0, 0.029, 0.0029)) == []
    assert _failing(ref.funcpert.case_study_checks(-1.0, 0.029, 0.029 / 10 ** (1 / 3))) == [2]
    assert _failing(ref.funcpert.case_study_checks(-1.0, 0.029, 0.00029)) == [2]
    # an error that does not fall with ε fails the slides' claim
    assert _failing(ref.funcpert.case_study_checks(0.2, 0.029, 0.0029)) == [0]


def test_a_zero_or_negative_error_at_10_makes_an_infinite_ratio():
    for error_10 in (0.0, -0.0033):
        checks = _wf(ref.funcpert.case_study_checks(-1.0, 0.029, error_10))
        assert _failing(checks) == [2] and checks[2].detail == "error(1)/error(10) = inf"


def test_the_case_study_details_carry_the_numbers():
    assert [c.detail for c in ref.funcpert.case_study_checks(**CASE)] == [
        "ρ = -1.000",
        "measured 0.029",
        "error(1)/error(10) = 8.6",
    ]
    assert ref.funcpert.truncation_checks(**TRUNCATION)[0].detail == "measured 0.00022"


def test_its_cost_is_its_2d_runs() -> None:
    """``runs_2d`` runs at each of the 8 budgets, ``10⁻⁷·n·K₂³`` seconds each, holding ``2200·K₂²`` bytes."""
    cost = p004_e4.cost({"n_agents": 10, "degree_2d": 10, "runs_2d": 5})
    assert cost.seconds == pytest.approx(8 * 5 * 1e-7 * 10 * 66**3, rel=1e-12)
    assert (cost.peak, cost.kept) == (2200.0 * 66**2, 0.0)
