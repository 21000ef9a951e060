"""Paper 004, E6 (:mod:`dpnet.chapters.functional_perturbation.p004_e6`): the message-perturbation
baseline, its identities, and its checks (:func:`dpnet.reference.funcpert.huang_floor_checks`,
:func:`dpnet.reference.funcpert.impossibility_checks`): they pass on a floor 1.13 times its consensus
prediction, a floor of 2·10⁻⁴ with Σ s_k = 10, and lower bounds 2.3/7.0 on the log-ratio; each flips alone
just outside its range, nan and ∞ fail the claim they feed, and swapped floors or a bounded log-ratio
fail."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from check_cases import refuted as _failing
from check_cases import with_input as _set
from small import small

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e6

INF = math.inf
CHAPTER = "functional-perturbation"

HUANG = {"floor_ratio": 1.13, "floor_long": 2e-4}
IMPOSSIBILITY = {"log_ratio_10": 2.3, "log_ratio_100": 7.0}

# (function, base, their names in order)
BASES = [
    pytest.param(ref.funcpert.huang_floor_checks, HUANG, ["floor-travel", "floor-long"], id="huang_floor"),
    pytest.param(ref.funcpert.impossibility_checks, IMPOSSIBILITY, ["impossibility"], id="impossibility"),
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # in [2/3, 3/2] (inclusive); < 1e-3 (strict)
    _case(ref.funcpert.huang_floor_checks, HUANG, "floor_ratio", 1.5, 1.501, 0, "prediction = 1.5"),
    _case(ref.funcpert.huang_floor_checks, HUANG, "floor_ratio", 2 / 3, 0.666, 0, "prediction = 0.666"),
    _case(ref.funcpert.huang_floor_checks, HUANG, "floor_long", 0.99e-3, 1e-3, 1, "floor 0.001"),
    # ≥ 5 at K = 100 (inclusive), and strictly above the value at K = 10 (a tie fails)
    _case(ref.funcpert.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 5.0, 4.99, 0, "4.99 at K = 100"),
    _case(ref.funcpert.impossibility_checks, IMPOSSIBILITY, "log_ratio_10", 6.99, 7.0, 0, "7.00 at K = 10"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.funcpert.huang_floor_checks, HUANG, "floor_ratio", [0], "huang-travel"),
    _nan(ref.funcpert.huang_floor_checks, HUANG, "floor_long", [1], "huang-long"),
    _nan(ref.funcpert.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", [0], "impossibility"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [
        pytest.param(ref.funcpert.huang_floor_checks, HUANG, "floor_ratio", 0, id="floor-travel"),
        pytest.param(
            ref.funcpert.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 0, id="impossibility"
        ),
    ],
)
def test_infinity_fails_one_sided_claims(fn, base, key, index):
    """An infinite value is not a measurement: it fails an "at least" claim as it fails an "at most" one."""
    assert _failing(fn(**_set(base, key, INF))) == [index]


def test_the_message_checks_discriminate_what_the_notes_contrast():
    # a floor far from its consensus prediction, and a long schedule that stops as short, fail both
    assert _failing(ref.funcpert.huang_floor_checks(0.2, 0.013)) == [0, 1]
    # a log-ratio held at an ε-DP bound (no growth with K) fails
    assert _failing(ref.funcpert.impossibility_checks(1.5, 1.5)) == [0]


def test_the_message_details_carry_the_numbers():
    assert [c.detail for c in ref.funcpert.huang_floor_checks(**HUANG)] == [
        "floor / prediction = 1.13",
        "floor 0.0002",
    ]
    assert ref.funcpert.impossibility_checks(**IMPOSSIBILITY)[0].detail == "2.30 at K = 10, 7.00 at K = 100"


def test_the_message_baseline_s_accountants_hold_their_identities() -> None:
    """E6: the geometric accountant of the chapter's schedule tends to ε (rtol 1e-6 at K = 5000); the
    convergent one grows by at least 50 from K = 10² to 10⁴ (like K^1.3)."""
    from dpnet.chapters import functional_perturbation as chapter

    P = small(CHAPTER)
    e6 = chapter.message_perturbation(P, chapter.problems(P))
    geometric, convergent = e6.accountants.values()
    assert geometric[-1] == pytest.approx(1.0, rel=ref.funcpert.ACCOUNTANT_RTOL)
    assert convergent[9999] / convergent[99] >= ref.funcpert.CONVERGENT_GROWTH_MIN
    assert [c.name for c in e6.checks["p004-e6"]] == ["impossibility", "floor-travel", "floor-long"]
    assert e6.schedules == 16 and len(e6.best) == len(p004_e6.MESSAGE_EPS)
    # 100 runs: every run under I in O and none under I′ shows log(0.025^(1/100)) − log(1 − 0.025^(1/100))
    assert e6.log_ratio_cap == pytest.approx(math.log(0.025**0.01) - math.log(1 - 0.025**0.01), rel=1e-6)
    assert all(e6.log_ratio(K) <= e6.log_ratio_cap + 1e-12 for K in (10, 50, 100))
    # the floor is checked on the problem whose optimum lies farther from the start
    far = max(e6.start_distance, key=e6.start_distance.get)
    assert e6.travel == far and e6.floor_ratio == e6.floors[far] / e6.predictions[far]


def test_its_cost_is_its_floors_tuning_and_impossibility_runs() -> None:
    """``0.45·n + 0.14·message_runs + 3.3·10⁻⁵·n·impossibility_runs`` seconds, holding the larger of the
    impossibility runs and the schedules run side by side."""
    values = {"n_agents": 10, "message_runs": 5, "impossibility_runs": 1000}
    cost = p004_e6.cost(values)
    assert cost.seconds == pytest.approx(0.45 * 10 + 0.14 * 5 + 3.3e-5 * 10 * 1000, rel=1e-12)
    assert (cost.peak, cost.kept) == (4900 * 10 * 1000, 0.0)
    assert p004_e6.cost({**values, "impossibility_runs": 100}).peak == 2**24 + 6200 * 10 * 5
