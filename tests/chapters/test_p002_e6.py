"""Paper 002, E6 (Chapter 7): Multi-MaxSense. The experiment on small sizes (θ = 1, and off it), its cost,
and :func:`dpnet.reference.recommender.multi_checks`, which passes on the pilot's numbers, fails off them
and is undecided on an empty set of per-user settings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import (
    assert_all_pass_by_name,
    assert_flips_alone_by_name,
    assert_nan_fails_by_name,
    undefined,
)
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e6
from dpnet.reference import recommender as ref

NAN = math.nan


def test_multi_maxsense_off_theta_one_is_undecided() -> None:
    e6 = p002_e6.multi_maxsense(small("recommender-maxsense", theta=0.5))
    assert [c.name for c in e6.checks["p002-e6"]] == CHECKS["p002-e6"].split()
    assert all(c.passed is None for c in e6.checks["p002-e6"])


def test_multi_maxsense_quick_runs_epsilon_32_per_user() -> None:
    """Quick mode follows Fig. 3 user by user at ε = 32 only: the headline is decided, the rest undefined."""
    e6 = p002_e6.multi_maxsense(small("recommender-maxsense"))
    verdicts = {c.name: c.passed for c in e6.checks["p002-e6"]}
    assert verdicts["gain-32"] and verdicts["per-user-below"] and verdicts["prediction"]
    assert verdicts["no-gain-2"] is None and verdicts["gain-8"] is None
    assert e6.exact_eps == (32.0,) and len(e6.exact) == 2
    assert math.isnan(e6.per_user("Q = ⌈ε⌉ (Thm 5.3)", 2.0)) and e6.first_gain == 32.0
    assert e6.table["U_90 per user (Fig. 3)"].notna().sum() == 2


def test_p002_e6_cost_adds_the_per_user_simulator() -> None:
    """3 rules × 4 ε × 15 points × 40 runs; the per-user runs at 80 ns per item of the chosen blocks, at
    ε = 32 with Q = 1 and 32 (10 runs, quick mode)."""
    quick = dict(resolve("recommender-maxsense", {"mode": "quick"}))
    base = 3 * 4 * 15 * 40 * (5e-4 + 1e-6 * 100)
    model = rc.m_asym(100, 32)
    items = sum(rc.predicted_u(model, 32.0, n_bits=q) * q * 100 / 32 for q in (1, 32))
    grid = float(np.geomspace(0.25, 1.5, 7).sum())
    assert p002_e6.cost(quick).seconds == pytest.approx(base + 10 * items * grid * 8e-8, rel=1e-12)


# E6, measured: U_90 1.7·10⁴ (Q = 1) vs 1.3·10³ (Q = 32) at ε = 32; 3.8·10⁴ (Q = 2) vs 2.8·10⁴ at ε = 2; Q = 8
# twice as good as one bit at ε = 8; the independent-bits model within ±10 % of its prediction; per user
# 0.35–0.9 of it
MULTI = {
    "gain_32": 1.7e4 / 1.3e3,
    "ratio_2": 3.8e4 / 2.8e4,
    "gain_8": 2.1,
    "prediction_ratios": [0.9, 1.0, 1.07],
    "per_user_ratios": [0.35, 0.64, 0.88],
}
NAMES = CHECKS["p002-e6"].split()

BASES = [pytest.param(ref.multi_checks, MULTI, len(NAMES), id="multi")]


def test_every_check_passes_on_the_pilot_numbers():
    assert_all_pass_by_name(ref.multi_checks, MULTI, NAMES)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.multi_checks, MULTI, "gain_32", 4.0, 3.94, 0, "gain 3.9"),
    _case(ref.multi_checks, MULTI, "ratio_2", 0.9, 0.89, 1, "ratio 0.89"),
    _case(ref.multi_checks, MULTI, "gain_8", 1.01, 1.0, 2, "gain 1.00"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [0.7, 1.0], [0.69, 1.0], 3, "range 0.69–1.00"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [1.0, 1.4], [1.0, 1.41], 3, "range 1.00–1.41"),
    _case(ref.multi_checks, MULTI, "per_user_ratios", [0.5, 0.99], [0.5, 1.0], 4, "0.50–1.00"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.multi_checks, MULTI, "gain_32", [0], "multi-gain"),
    _nan(ref.multi_checks, MULTI, "ratio_2", [1], "multi-no-gain"),
    _nan(ref.multi_checks, MULTI, "gain_8", [2], "multi-gain-8"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_a_nan_among_the_ratios_fails_wherever_it_sits():
    """``every`` sees each value: ``min``/``max`` no longer hide a nan that is not first."""
    for ratios in ([1.0, NAN], [NAN, 1.0]):
        checks = ref.multi_checks(**{**MULTI, "prediction_ratios": ratios, "per_user_ratios": [0.5, NAN]})
        assert checks[3].passed is False and checks[4].passed is False


def test_per_user_below_is_undecided_without_a_per_user_setting():
    checks = ref.multi_checks(**{**MULTI, "per_user_ratios": []})
    assert undefined(checks) == [4] and checks[4].detail == "no setting"


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.multi_checks(**MULTI)] == NAMES
