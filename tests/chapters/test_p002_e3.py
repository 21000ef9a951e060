"""Paper 002, E3 (Chapter 7): Pairwise-Preference in the information-rich regime. The experiment on small
parameters, its cost, and :func:`dpnet.reference.recommender.pairwise_rich_checks`, which passes on the
pilot's numbers, fails off them, and is undecided on an empty set of N or of models."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from check_cases import well_formed as _well_formed
from small import CHECKS, small

from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e3
from dpnet.reference import recommender as ref


def _eps_hat(eps):
    return 2 * math.tanh(eps / 2)


def test_pairwise_rich_without_its_n_and_budgets_leaves_the_book_s_checks_undefined() -> None:
    e3 = p002_e3.pairwise_rich(small("recommender-maxsense", theta=0.5))
    checks = e3.checks["p002-e3"]
    assert [c.name for c in checks] == CHECKS["p002-e3"].split()
    assert all(
        c.passed is None for c in checks[:4]
    )  # N = 20, 30 and no ε = 0.25: the book's ranges undefined
    assert "eps_values" in checks[3].detail and "n_items" in checks[0].detail and math.isnan(e3.eps_ratio)
    assert checks[4].passed is not None and checks[5].passed  # every N of the sweep; every model's conditions
    assert set(e3.table["sweep"]) == {"N", "eps", "support"} and e3.spectra["conditions hold"].all()


def test_p002_e3_cost_holds_the_largest_matrix() -> None:
    """Pairwise-Preference's recoveries at (3 + 2) points per curve, 20 runs each, 3 + 5 settings."""
    values = dict(resolve("recommender-maxsense", {"mode": "quick"}))
    need = p002_e3.cost(values)
    assert need.peak == 48.0 * 200**2 and need.kept == 0.0
    pp = [1.1e-3 + 2.2e-7 * n**2 + 2e-10 * n**3 for n in (50, 100, 200, 100)]
    assert need.seconds == pytest.approx(5 * 20 * (sum(pp[:3]) + 5 * pp[3]), rel=1e-12)


# E3, pilot: C = 22.6, 22.6, 21.4 at N = 50, 100, 200; C = 26.9 at ε = 0.25 and 22.6 at ε = 1
PP_RATIO = 26.9 / 22.6 * (_eps_hat(1.0) / _eps_hat(0.25)) ** 2
PAIRWISE = {"constants": {50: 22.6, 100: 22.6, 200: 21.4}, "eps_ratio": PP_RATIO,
            "all_constants": [22.6, 22.6, 21.4, 22.6],
            "conditions": {"N = 50": True, "eps = 1": True}}  # fmt: skip

BASES = [pytest.param(ref.pairwise_rich_checks, PAIRWISE, 6, id="pairwise_rich")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.pairwise_rich_checks, PAIRWISE, ("constants", 100), 40.0, 40.1, 1, "measured 40.1"),
    _case(ref.pairwise_rich_checks, PAIRWISE, ("constants", 50), 10.0, 9.9, 0, "measured 9.9"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", 25.0, 25.1, 3, "measured 25.1"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", 8.0, 7.9, 3, "measured 7.9"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "all_constants", [10.0, 40.0], [10.0, 40.1], 4, "40.1"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "conditions", {"N = 50": True}, {"N = 50": False}, 5,
          "failing: N = 50"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.pairwise_rich_checks, PAIRWISE, ("constants", 200), [2], "pairwise-const"),
    _nan(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", [3], "pairwise-ratio"),
    _nan(ref.pairwise_rich_checks, PAIRWISE, "all_constants", [4], "pairwise-every-n", [20.0, math.nan]),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_infinite_values_fail_range_checks():
    checks = _well_formed(ref.pairwise_rich_checks(**{**PAIRWISE, "eps_ratio": math.inf}))
    assert _failing(checks) == [3]
    assert "inf" in checks[3].detail


def test_the_checks_discriminate_the_laws_the_chapter_contrasts():
    # U_90(ε=0.25)/U_90(ε=1) under a 1/ε law (Informal Thm 2) fails, under 1/ε̂² passes
    linear, quadratic = _eps_hat(1.0) / _eps_hat(0.25), (_eps_hat(1.0) / _eps_hat(0.25)) ** 2
    base = {k: PAIRWISE[k] for k in ("all_constants", "conditions")}
    assert _failing(ref.pairwise_rich_checks({}, linear, **base)) == [0]
    assert _failing(ref.pairwise_rich_checks({}, quadratic, **base)) == []


def test_every_n_and_the_conditions_are_undecided_on_an_empty_set():
    checks = ref.pairwise_rich_checks({}, PP_RATIO)
    assert [c.passed for c in checks[1:]] == [None, None] and [c.detail for c in checks[1:]] == [
        "no N",
        "no model",
    ]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    pairwise = ref.pairwise_rich_checks(**PAIRWISE)
    assert [c.detail for c in pairwise] == [
        "measured 22.6",
        "measured 22.6",
        "measured 21.4",
        "measured 16.4",
        "c from 21.4 to 22.6",
        "2 models",
    ]


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.pairwise_rich_checks(**PAIRWISE)] == CHECKS["p002-e3"].split()
