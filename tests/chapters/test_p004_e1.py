"""Paper 004, E1 (:mod:`dpnet.chapters.functional_perturbation.p004_e1`): the anatomy of the mechanism,
its identities, and its checks (:func:`dpnet.reference.funcpert.projection_checks`,
:func:`dpnet.reference.funcpert.feasibility_checks`): they pass on the properties of a projection onto a
convex set and on a truth inside S, each flips alone just outside its tolerance, and nan fails the claim it
feeds."""

from __future__ import annotations

import numpy as np
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from small import params

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e1
from dpnet.params import Cost

CHAPTER = "functional-perturbation"

# a contraction, and a projection's variational inequality ≤ 0 up to rounding (illustrative)
PROJECTION = {"expansion": -1e-3, "variational": 1e-14, "pairs": 11_000}
# the truth strictly inside S (illustrative slack); the chapter checks the 2-D problem only
FEASIBILITY = {"violations": {"1-D quadratic": -0.25, "2-D logistic": -0.4}}

# (function, base, their names in order)
BASES = [
    pytest.param(
        ref.funcpert.projection_checks, PROJECTION, ["non-expansive", "variational"], id="projection"
    ),
    pytest.param(
        ref.funcpert.feasibility_checks, FEASIBILITY, ["truth-in-s-1d", "truth-in-s-2d"], id="feasibility"
    ),
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # ≤ 1e-6, ≤ 1e-8 (inclusive)
    _case(ref.funcpert.projection_checks, PROJECTION, "expansion", 1e-6, 1.01e-6, 0, "measured 1.01e-06"),
    _case(ref.funcpert.projection_checks, PROJECTION, "variational", 1e-8, 1.01e-8, 1,
          "largest over 11000 pairs 1.01e-08"),
    # ≤ 0 (inclusive, −0.0 too); the smallest positive float fails
    _case(ref.funcpert.feasibility_checks, FEASIBILITY, ("violations", "1-D quadratic"), -0.0, 5e-324, 0,
          "4.94e-324"),
    _case(ref.funcpert.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), 0.0, 1e-12, 1,
          "1e-12"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.funcpert.projection_checks, PROJECTION, "expansion", [0], "projection-expansion"),
    _nan(ref.funcpert.projection_checks, PROJECTION, "variational", [1], "projection-variational"),
    _nan(ref.funcpert.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), [1], "feasibility-2d"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_the_chapter_s_anatomy_holds_its_identities() -> None:
    """E1: the bases are orthonormal (Gram within 1e-10); every projected draw meets the grid constraints
    within 1e-7 max|u| (the projection iterates until it does); a feasible input comes back unchanged."""
    from dpnet.chapters import functional_perturbation as chapter

    P = params(CHAPTER)
    setup = chapter.problems(P)
    e1 = chapter.anatomy(P, setup)
    for problem in (setup.quadratic, setup.logistic):
        K = problem.basis.K
        assert np.abs(problem.basis.gram() - np.eye(K)).max() <= ref.funcpert.GRAM_TOLERANCE
    assert e1.diagnostics["violation"] <= ref.funcpert.PROJECTION_TOLERANCES["feasible"]
    assert e1.diagnostics["unchanged"] is True
    # the inequality is tested for every draw against every agent's truth and every draw's projection
    assert e1.diagnostics["pairs"] == p004_e1.E1_DRAWS * (setup.quadratic.n_agents + p004_e1.E1_DRAWS)
    assert [c.name for c in e1.checks["p004-e1"]] == ["non-expansive", "variational", "truth-in-s-2d"]
    # the quadratics lie in S by construction: a unit test, not a check
    assert e1.violations["1-D quadratic"] < 0
    assert all(c.passed for c in e1.checks["p004-e1"])
    assert e1.deviations == (("p004-e1", e1.deviations[0][1], "note-fp-choices"),)


def test_its_cost_is_in_the_chapter_s_fixed_seconds():
    assert p004_e1.cost({}) == Cost()


def test_a_map_that_overshoots_the_projection_breaks_the_variational_inequality(monkeypatch) -> None:
    """The check can fail: a map that moves each infeasible input 1 % past its projection (its outputs can
    leave S, the inequality against the other outputs catches it) gives a largest (ĉ − Pĉ)ᵀ(y − Pĉ) far
    above the tolerance, where the projection itself stays within it."""
    from dpnet import funcpert as fp
    from dpnet.funcpert import regular

    quad = fp.quadratic_problem(10, 20, np.random.default_rng(0))
    draws = quad.coefficients[0] + fp.perturbation(20, 1.0, 2.0, 1.0, np.random.default_rng(1), 40)
    good = fp.projection_diagnostics(draws, quad.S, quad.coefficients)
    true_project = regular.project

    def overshoot(c, S, **kw):
        out = true_project(c, S, **kw)
        return out + 0.01 * (out - np.asarray(c))

    monkeypatch.setattr(regular, "project", overshoot)
    bad = fp.projection_diagnostics(draws, quad.S, quad.coefficients)
    tol = ref.funcpert.PROJECTION_TOLERANCES["variational"]
    checks = {
        name: ref.funcpert.projection_checks(d["expansion"], d["variational"], d["pairs"])[1].passed
        for name, d in (("good", good), ("bad", bad))
    }
    assert good["variational"] <= tol < bad["variational"] and checks == {"good": True, "bad": False}
