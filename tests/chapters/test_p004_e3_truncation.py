"""Paper 004, E3's truncation study (:mod:`dpnet.chapters.functional_perturbation.p004_e3_truncation`): the
error of Algorithm 1 with the same noise truncated at several K, the linearised law against K, and its check
(:func:`dpnet.reference.funcpert.smoothing_checks`): it passes on growths the law predicts, flips alone just
below its bound, fails on nan, and is undecided when the run has no q < 3."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from small import small

from dpnet import funcpert as fp
from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e3_truncation as p004_e3t

CHAPTER = "functional-perturbation"

# RMS(K = 40)/RMS(K = 10) at ε = 1000: the linearised law's 2.9 (q = 1.5) and 2.1 (q = 2), about 1 at q = 4
SMOOTHING = {"growth": {1.5: 2.36, 2.0: 2.49, 4.0: 1.13}}

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.smoothing_checks, SMOOTHING, ["grows-with-k"], id="smoothing")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # at least 1.3 (inclusive) at every q < 3; q = 4 is not part of the claim
    _case(ref.funcpert.smoothing_checks, SMOOTHING, ("growth", 2.0), 1.3, 1.299, 0, "1.299 (q = 2)"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


NANS = [_nan(ref.funcpert.smoothing_checks, SMOOTHING, ("growth", 1.5), [0], "smoothing")]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_a_run_without_q_below_3_leaves_the_growth_undecided_not_passed():
    for growth in ({}, {3.0: 1.4, 4.0: 1.0}):
        (check,) = ref.funcpert.smoothing_checks(growth)
        assert check.passed is None and check.detail == "undefined: no q < 3 in this run"
    # q ≥ 3 never fails it: its growth is the law's, near 1
    assert ref.funcpert.smoothing_checks({2.0: 2.0, 4.0: 0.5})[0].passed is True


def test_the_linearised_law_grows_without_bound_in_k_for_q_at_most_3() -> None:
    """The law's RMS at ε = 1000 from K = 20 to 200: 3.4-fold at q = 2, 5.8-fold at q = 1.5 (Σ k^(2−q)
    diverges), 1.4-fold at q = 3 (log K), 1.04-fold at q = 4 (converges)."""
    quad = fp.quadratic_problem(10, 20, np.random.default_rng(0))
    growth = {
        q: fp.linearised_rms(fp.quadratic_with_order(quad, 200), 1000.0, q)
        / fp.linearised_rms(fp.quadratic_with_order(quad, 20), 1000.0, q)
        for q in (1.5, 2.0, 3.0, 4.0)
    }
    assert growth[2.0] == pytest.approx(3.36, abs=0.01) and growth[1.5] == pytest.approx(5.75, abs=0.01)
    assert growth[3.0] == pytest.approx(1.41, abs=0.01) and growth[4.0] == pytest.approx(1.04, abs=0.01)


def test_the_runs_at_each_k_share_their_noise() -> None:
    """Common random numbers: one draw of ``max(orders)`` coefficients per run, truncated at each K, gives
    at each K the error of that truncated draw run through the pipeline by hand."""
    quad = fp.quadratic_problem(4, 8, np.random.default_rng(0))
    errors = fp.truncation_errors(quad, (5, 10), 50.0, 2.0, 2, np.random.default_rng(7))
    rng = np.random.default_rng(7)
    for r in range(2):
        eta = fp.perturbation(10, 50.0, 2.0, 1.0, rng, 4)
        for j, K in enumerate((5, 10)):
            prob = fp.quadratic_with_order(quad, K)
            tilde = np.array([fp.project(c, prob.S) for c in prob.coefficients + eta[:, :K]])
            x = fp.poly_argmin(prob.basis, tilde.sum(axis=0), prob.lower, prob.upper)
            assert errors[r, j] == abs(x[0] - quad.x_star[0])


def test_the_study_records_its_table_and_its_check() -> None:
    """The chapter's study on small parameters: one row per (q, K), the law for every K of ``LAW_ORDERS``
    at ``LAW_Q`` and the run's q, the growth the check reads, the table recorded under its name."""
    from dpnet.chapters import functional_perturbation as chapter

    P = small(CHAPTER, q=[2.0, 4.0], truncation_runs=3)
    study = chapter.truncation(P, chapter.problems(P))
    assert study.table[["q", "K"]].values.tolist() == [[q, K] for q in (2.0, 4.0) for K in (10, 20, 40)]
    assert set(study.law["q"]) == {1.5, 2.0, 3.0, 4.0} and len(study.law) == 4 * len(p004_e3t.LAW_ORDERS)
    growth = study.growth(10, 40)
    rms = study.table.set_index(["q", "K"])["rms_error"]
    assert growth[2.0] == pytest.approx(rms[(2.0, 40)] / rms[(2.0, 10)], rel=1e-15)
    assert [c.name for c in study.checks["p004-e3"]] == ["grows-with-k"]
    assert list(study.tables()) == ["fp-truncation"] and study.deviations == ()
    assert set(study.metrics()) == {"truncation_rms", "truncation_growth"}


def test_its_cost_is_its_runs() -> None:
    """``6·10⁻³·n·Q·truncation_runs`` seconds."""
    cost = p004_e3t.cost({"n_agents": 10, "q": [1.5, 2.0, 4.0], "truncation_runs": 40})
    assert cost.seconds == pytest.approx(6e-3 * 10 * 3 * 40, rel=1e-12)
    assert (cost.peak, cost.kept) == (0.0, 0.0)


def test_the_figure_draws_the_law_and_the_measurements() -> None:
    table = pd.DataFrame({"q": [2.0, 2.0], "K": [10, 40], "rms_error": [1e-3, 2e-3],
                          "linearised_rms": [1e-3, 2e-3]})  # fmt: skip
    law = pd.DataFrame({"q": [2.0, 2.0, 4.0, 4.0], "K": [10, 40, 10, 40], "linearised_rms": [1, 2, 1, 1.0]})
    fig = p004_e3t.Truncation(table, law, {}).figure()
    (ax,) = fig.axes
    assert len(ax.lines) == 3 and ax.get_xscale() == "log"
