"""Paper 004, E0 (:mod:`dpnet.chapters.functional_perturbation.p004_e0`): the floor of the larger error of
an ε-DP test, and its check (:func:`dpnet.reference.funcpert.floor_checks`) against the closed form
1/(1 + e^ε) (note-fp-error-floor): it passes on the closed form, flips alone just outside its tolerance,
and nan fails it."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import refuted as _failing
from check_cases import with_input as _set

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e0
from dpnet.params import Cost

NAN = math.nan


def _floor(eps):
    """The equal-error floor 1/(1 + e^ε) (note-fp-error-floor)."""
    return 1 / (1 + math.exp(eps))


FLOOR_EPS = (0.1, 0.5, 1.0, 2.0)
FLOOR = {"floors": {e: _floor(e) for e in FLOOR_EPS}}

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.floor_checks, FLOOR, ["floor"], id="floor")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


F01, F1 = _floor(0.1), _floor(1.0)
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # within 1e-3 of 1/(1 + e^ε) on either side
    _case(ref.funcpert.floor_checks, FLOOR, ("floors", 1.0), F1 + 0.00099, F1 + 0.00101, 0,
          "0.26995 vs 0.26894"),
    _case(ref.funcpert.floor_checks, FLOOR, ("floors", 0.1), F01 - 0.00099, F01 - 0.00101, 0,
          "0.47401 vs 0.47502"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [pytest.param(ref.funcpert.floor_checks, _set(FLOOR, ("floors", 0.5), NAN), [0], id="floor")]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_no_epsilon_leaves_the_floor_undefined_not_an_error():
    assert ref.funcpert.floor_checks({})[0].passed is None


def test_the_floor_check_discriminates_the_floors_the_notes_contrast():
    # the slide's (e^ε − 1)/(e^{2ε} − 1) is the same floor; the 2ε (group) floor 1/(1 + e^{2ε}) is not
    slide = {e: (math.exp(e) - 1) / (math.exp(2 * e) - 1) for e in FLOOR_EPS}
    assert _failing(ref.funcpert.floor_checks(slide)) == []
    assert _failing(ref.funcpert.floor_checks({e: _floor(2 * e) for e in FLOOR_EPS})) == [0]


def test_the_floor_s_detail_carries_the_numbers():
    (floor,) = ref.funcpert.floor_checks(**FLOOR)
    assert floor.detail == (
        "ε = 0.1: 0.47502 vs 0.47502; ε = 0.5: 0.37754 vs 0.37754; ε = 1: 0.26894 vs 0.26894; "
        "ε = 2: 0.11920 vs 0.11920"
    )


def test_the_librarys_numerical_floor_passes():
    from dpnet import funcpert as fp

    floors = {e: fp.error_rate_floor(e) for e in FLOOR_EPS}
    assert _failing(ref.funcpert.floor_checks(floors)) == []
    assert all(abs(f - _floor(e)) <= 1e-5 for e, f in floors.items())
    assert _failing(ref.funcpert.floor_checks({1000.0: 0.0})) == [], "no overflow at a large ε"


def test_the_experiment_records_its_floors_and_nothing_else():
    """E0 computes the floors at the budgets of its figure, checks them, and states every member a result
    is recorded by (``dpnet.results.Recordable``), with no table and no deviation."""
    e0 = p004_e0.hypothesis_testing()
    assert tuple(e0.floors) == p004_e0.E0_EPS
    assert [c.name for c in e0.checks["p004-e0"]] == ["floor"]
    assert e0.metrics() == {"error_rate_floor": {f"{e:g}": f for e, f in e0.floors.items()}}
    assert (e0.tables(), e0.deviations, e0.paper_setting) == ({}, (), True)


def test_its_cost_is_in_the_chapter_s_fixed_seconds():
    assert p004_e0.cost({}) == Cost()
