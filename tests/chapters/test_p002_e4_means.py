"""Paper 002, E4 (Chapter 7), continued: MaxSense's cluster means. The closed form here against the
library's, the simulators' means on the test case, and :func:`dpnet.reference.recommender.means_checks`,
which passes on the pilot's numbers and fails off them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import assert_all_pass, assert_flips_alone, assert_nan_fails
from check_cases import case as _case
from check_cases import failing as _failing
from check_cases import nan_case as _nan
from small import CHECKS

from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e4_means
from dpnet.params import Cost
from dpnet.reference import recommender as ref

NAN = math.nan


def _eps_hat(eps):
    return 2 * math.tanh(eps / 2)


# MaxSense's closed-form means (note-rec-maxsense-means) at E4's test case (N = 200, w = 10, b = (0.8, 0.2),
# ε = 1, θ = 1, K = 1)
def _closed_means():
    n, w, b, eps, theta = 200, 10, (0.8, 0.2), 1.0, 1.0
    p, rho, f = theta / w, w / n, 1 / (1 + math.exp(eps))
    q = math.prod((1 - p * rho * bl) ** (n // 2) for bl in b)
    return [p * (f + _eps_hat(eps) / 2 * (1 - q * (1 - rho * bl) / (1 - p * rho * bl))) for bl in b]


CLOSED = _closed_means()


def _subset(scale, gap):
    """Exact-simulator cluster means: both scaled by ``scale``, the gap ``gap`` times the closed form's."""
    c0, c1 = CLOSED
    shift = (gap - scale) * (c0 - c1) / 2
    return [c0 * scale + shift, c1 * scale - shift]


def test_the_closed_form_here_is_the_libraries():
    """The means baseline is the closed form written out above; the library's agrees with it."""
    from dpnet import recommender as rc

    case = ref.MEANS_CASE
    model = rc.BlockModel((1.0,), (0.5, 0.5), (case["b"],), case["n_items"], case["w"])
    np.testing.assert_allclose(rc.maxsense_means(model, case["eps"], 1.0), CLOSED, rtol=1e-12)


def test_cluster_means_of_both_simulators_meet_the_closed_form() -> None:
    """At θ = 1 the experiment's closed form is the one above, and both simulators' means pass."""
    means = p002_e4_means.cluster_means(resolve("recommender-maxsense", {}))
    assert means["closed"] == pytest.approx(CLOSED, rel=1e-12)
    assert _failing(ref.means_checks(means["fast"], means["subset"], means["closed"])) == []


def test_p002_e4_means_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e4_means.cost({"mode": "full"}) == Cost()


# E4, pilot: the fast simulator matches the closed form to 4 digits; the exact one is within 0.7 %, its gap
# within about 6 %
MEANS = {"fast": [c * 1.0001 for c in CLOSED], "subset": _subset(1.004, 0.94), "closed": CLOSED}

BASES = [pytest.param(ref.means_checks, MEANS, 3, id="means")]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    assert_all_pass(fn, base, count)


C0, C1 = CLOSED
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    _case(ref.means_checks, MEANS, "fast", [C0, C1 * 1.0049], [C0, C1 * 1.0051], 0, "0.51%"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0199, 1.0199), _subset(1.0201, 1.0201), 1, "2.01%"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0, 0.851), _subset(1.0, 0.849), 2, "gap ratio 0.849"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0, 1.149), _subset(1.0, 1.151), 2, "gap ratio 1.151"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone(fn, inside, outside, base, index, shown)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.means_checks, MEANS, "fast", [0], "means-fast-first", [NAN, CLOSED[1]]),
    _nan(ref.means_checks, MEANS, "subset", [1, 2], "means-subset-first", [NAN, CLOSED[1]]),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    assert_nan_fails(fn, changed, base, failing)


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    means = ref.means_checks(**MEANS)
    assert "0.5%" in means[0].claim and "2.0%" in means[1].claim and "15%" in means[2].claim
    assert means[2].detail == "gap ratio 0.940"


# Known defect: ``max``/``min`` over a sequence skip a ``nan`` that is not first (every comparison with nan
# is False), so whether a nan input fails the claim depends on where it sits.


def test_means_fast_nan_in_the_second_cluster_fails():
    assert _failing(ref.means_checks(**{**MEANS, "fast": [CLOSED[0], NAN]})) == [0]


def test_the_checks_are_named_for_their_badges():
    checks = ref.means_checks(**MEANS)
    assert [c.name for c in checks] == CHECKS["p002-e4"].split()[7:10]
    assert {c.against for c in checks} == {"reference"}


def test_a_non_finite_closed_form_fails_the_checks_it_enters():
    """``_finite`` guards the closed form too, not only the simulators' means."""
    checks = ref.means_checks(MEANS["fast"], MEANS["subset"], [C0, math.nan])
    assert [c.passed for c in checks] == [False, False, False]
    checks = ref.means_checks(MEANS["fast"], MEANS["subset"], [math.inf, C1])
    assert not checks[0].passed and not checks[1].passed
