"""Paper 002, E9 (Chapter 7): distortion, read from E4's runs on small sizes off θ = 1, and
:func:`dpnet.reference.recommender.distortion_checks`, which passes on the pilot's numbers, fails off them
and is undecided on an empty set of configurations."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet.chapters.recommender_maxsense import p002_e4, p002_e9
from dpnet.params import Cost
from dpnet.reference import recommender as ref


def test_distortion_reads_every_configuration_of_e4() -> None:
    e4 = p002_e4.maxsense_scarce(small("recommender-maxsense", theta=0.5))
    e9 = p002_e9.distortion(e4)
    assert len(e9.table) == len(e4.unique) and e9.reference_row == e4.unique.index(e4.reference_case)
    assert [c.name for c in e9.checks["p002-e9"]] == CHECKS["p002-e9"].split()
    assert e9.checks["p002-e9"][1].passed  # Thm A.5's bound is far below whatever the sizes
    assert all(c.against == "reference" for c in e9.checks["p002-e9"])  # E9 tests no claim of the paper
    bound = e9.table[p002_e9.A5].dropna()
    assert (e9.table[p002_e9.A5_PRINTED].dropna() - bound).to_numpy() == pytest.approx(
        1 / e9.table.loc[bound.index, "ε"].astype(float).to_numpy()
    )  # Cor A.4's −1, over ε
    assert e9.a5_margin == pytest.approx(float((e9.table["U_90 (exact)"] / e9.table[p002_e9.A5]).min()))


def test_p002_e9_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e9.cost({"mode": "full"}) == Cost()


# E9, pilot: measured over Gaussian ratio 0.98–1.15; U_90 10⁴ times Thm A.5's bound
DISTORTION = {"ratios": [0.98, 1.0, 1.15], "a5": [(1.1e5, 6.75), (2.8e4, 3.4)], "tolerance": 0.25}

BASES = [pytest.param(ref.distortion_checks, DISTORTION, 2, id="distortion")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


BOUNDARIES = [
    _case(ref.distortion_checks, DISTORTION, "ratios", [1.25], [1.26], 0, "1.26–1.26"),
    _case(ref.distortion_checks, DISTORTION, "a5", [(6.75, 6.75)], [(6.74, 6.75)], 1, "from 1"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


@pytest.mark.parametrize(
    ("fn", "changed", "base", "failing"),
    [_nan(ref.distortion_checks, DISTORTION, "ratios", [0], "distortion", [1.0, math.nan])],
)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_the_checks_are_undecided_on_an_empty_set_of_configurations():
    checks = ref.distortion_checks([], [], 0.25)
    assert [c.passed for c in checks] == [None, None] and checks[1].detail == "no configuration"
