"""Paper 002, E8 (Chapter 7): adaptive queries. The experiment on small sizes, its cost, the growth of Thm
6.1's recursion and where it overtakes Thm 3.3 (closed forms: unit tests), Lemma 6.4's exact optimum, and
:func:`dpnet.reference.recommender.adaptive_checks`, which passes under the bounds, fails over them and is
undecided on an empty set."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import nan_case as _nan
from small import CHECKS, small

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense import p002_e8
from dpnet.reference import recommender as ref


def test_adaptive_on_small_sizes() -> None:
    e8 = p002_e8.adaptive(small("recommender-maxsense", theta=0.5))
    assert e8.n_w1 == (26, 50) and [c.name for c in e8.checks["p002-e8"]] == CHECKS["p002-e8"].split()
    assert all(c.passed for c in e8.checks["p002-e8"])
    assert e8.bounds_at(1000)[0] == rc.adaptive_lower_bound(1000, 1.0)
    assert len(e8.lemma64) == 2 * 3 * 3 * 6 and e8.lemma64_ratio < 0.5


def test_p002_e8_cost_counts_maxsense_at_w_1() -> None:
    need = p002_e8.cost({"mode": "full", "trials": 100})
    assert need.seconds == pytest.approx(sum(15 * 100 * (5e-4 + 1e-6 * n) for n in (26, 50, 100)), rel=1e-12)


def test_the_recursion_grows_like_n_log_n() -> None:
    """T_LB(10N)/(10 T_LB(N)) between 1.1 and 1.6 per decade (≈ (1 + ln(5N ln 2))/(1 + ln(N ln 2/2))): a
    logarithmic factor, a property of the closed form the chapter glues."""
    e8 = p002_e8.Adaptive((), (), {}, None, {})  # type: ignore[arg-type]
    for n in (1e3, 1e4, 1e5):
        growth = rc.adaptive_lower_bound(10 * n, 1.0) / (10 * rc.adaptive_lower_bound(n, 1.0))
        expected = (1 + math.log(5 * n * math.log(2))) / (1 + math.log(n * math.log(2) / 2))
        assert 1.1 <= growth <= 1.6 and growth == pytest.approx(expected, rel=0.06)
    assert e8.thm33_at(1000) == pytest.approx(499 * math.log(2), rel=1e-12)


def test_thm61_is_weaker_than_thm33_at_eps_1() -> None:
    """At ε = 1 and N = 1000: 61 users against Thm 3.3's 346; Thm 6.1 overtakes only from N ≈ 6·10¹⁷."""
    assert rc.adaptive_lower_bound(1000, 1.0) == 61 and round(float(rc.thm33_users(1000, 1.0))) == 346
    for n in np.geomspace(10, 1e6, 30):
        assert rc.adaptive_lower_bound(n, 1.0) < rc.thm33_users(n, 1.0)
    n = rc.adaptive_overtakes(1.0)
    assert 1e17 < n < 1e18
    assert rc.adaptive_lower_bound(n, 1.0) > rc.thm33_users(n, 1.0)
    below = n * (1 - 1e-6)
    assert rc.adaptive_lower_bound(below, 1.0) <= rc.thm33_users(below, 1.0)
    assert 1e5 < rc.adaptive_overtakes(0.5) < 2e5 and rc.adaptive_overtakes(0.1) < 10
    assert math.isinf(rc.adaptive_overtakes(2.0))


def test_lemma64_variance_is_the_exact_optimum() -> None:
    """The tilted law meets the divergence δ; no other law within δ does better (random laws); at large δ the
    optimum is the largest (F − F̄)²; and the bound fails for a variance above it."""
    rng = np.random.default_rng(3)
    f = rng.uniform(0.5, 2.0, (8, 2))
    z = np.array(list(itertools.product((0, 1), repeat=8)))
    values = f[np.arange(8), z].sum(axis=1)
    g = (values - values.mean()) ** 2
    for delta in (0.05, 0.5, 2.0):
        best = rc.lemma64_variance(values, delta)
        for _ in range(200):
            p = rng.dirichlet(np.full(values.size, 0.3))
            p = 0.5 * p + 0.5 / values.size  # pulled towards uniform
            if float(np.sum(p * np.log(p * values.size))) <= delta:
                assert p @ g <= best + 1e-12
    assert rc.lemma64_variance(values, 100.0) == pytest.approx(g.max())
    assert rc.lemma64_variance(values, 0.0) == pytest.approx(g.mean())
    assert rc.lemma64_bound(2.0, 1.0) == 40.0 and rc.lemma64_bound(2.0, 5.0) == 100.0


# E8: Lemma 6.4's optimum at most a quarter of its bound; MaxSense's U_90 far above both lower bounds
ADAPTIVE = {"lemma64": [0.24, 0.28, 0.1], "above": [(3e4, 5e2), (1.2e5, 2e3)]}

BASES = [pytest.param(ref.adaptive_checks, ADAPTIVE, 2, id="adaptive")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.adaptive_checks, ADAPTIVE, "lemma64", [0.2, 1.0], [0.2, 1.01], 0, "largest 1.01"),
    _case(ref.adaptive_checks, ADAPTIVE, "above", [(500.0, 500.0)], [(499.0, 500.0)], 1, "499 vs 500"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


@pytest.mark.parametrize(
    ("fn", "changed", "base", "failing"),
    [_nan(ref.adaptive_checks, ADAPTIVE, "lemma64", [0], "lemma64", [0.1, math.nan])],
)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_the_checks_are_undecided_on_an_empty_set_of_cases():
    checks = ref.adaptive_checks([], [(math.nan, 500.0)])
    assert [c.passed for c in checks] == [None, None] and checks[1].detail == "no U_90"


def test_the_checks_are_named_for_their_badges():
    assert [c.name for c in ref.adaptive_checks(**ADAPTIVE)] == CHECKS["p002-e8"].split()
