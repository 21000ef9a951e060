"""Paper 004, E5 (:mod:`dpnet.chapters.functional_perturbation.p004_e5`): the distributed gradient method
on the private functions, its identity, and its check (:func:`dpnet.reference.funcpert.dgd_checks`): it
passes on a consensus error of the book's order, flips alone just outside its tolerance, and nan and ∞
fail it."""

from __future__ import annotations

import math

import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import refuted as _failing
from check_cases import with_input as _set
from small import small

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e5

NAN, INF = math.nan, math.inf
CHAPTER = "functional-perturbation"

DGD = {"consensus": 2.9e-4}

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.dgd_checks, DGD, ["consensus"], id="dgd")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # ≤ 1e-3 (inclusive)
    _case(ref.funcpert.dgd_checks, DGD, "consensus", 1e-3, 1.01e-3, 0, "measured 0.00101"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [pytest.param(ref.funcpert.dgd_checks, _set(DGD, "consensus", NAN), [0], id="dgd")]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [pytest.param(ref.funcpert.dgd_checks, DGD, "consensus", 0, id="consensus")],
)
def test_infinity_fails_one_sided_claims(fn, base, key, index):
    """An infinite value is not a measurement: it fails an "at least" claim as it fails an "at most" one."""
    assert _failing(fn(**_set(base, key, INF))) == [index]


def test_the_chapter_s_distributed_run_holds_its_identities() -> None:
    """E5: the network average's distance to x* differs from |x̃* − x*| by at most the consensus error
    (triangle inequality)."""
    from dpnet.chapters import functional_perturbation as chapter

    P = small(CHAPTER)
    setup = chapter.problems(P)
    quad_ = setup.quadratic
    e5 = chapter.distributed(P, setup)
    gap = abs(abs(e5.trajectory[-1].mean() - quad_.x_star[0]) - e5.price)
    assert gap <= e5.consensus + 1e-15
    assert set(e5.metrics()) == {"dgd_final_gap"}


def test_its_cost_is_its_iterations() -> None:
    """``3.5·10⁻⁶·dgd_iterations·n·K`` seconds, nothing held."""
    cost = p004_e5.cost({"n_agents": 10, "basis_order": 20, "dgd_iterations": 2500})
    assert cost.seconds == pytest.approx(3.5e-6 * 2500 * 200, rel=1e-12)
    assert (cost.peak, cost.kept) == (0.0, 0.0)
