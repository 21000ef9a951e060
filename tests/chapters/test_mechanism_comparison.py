"""The book's comparison of the two mechanisms (chapter power-tradeoff): randomized response against
Laplace noise, with the paper's group test and with the one of the same size, and the two Laplace noise
models, cell by cell; and the check of ``dpnet.reference.dilemma.comparison_checks``."""

from __future__ import annotations

import numpy as np
from check_cases import perturbed as _perturbed

from dpnet import reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import mechanism_comparison
from dpnet.params import Cost
from dpnet.results import RECORDED


def _run(**values: object):
    P = resolve("power-tradeoff", values)
    rr = chapter.randomized_response(P)
    return rr, chapter.laplace(P), chapter.boundary(P, rr)


def test_mechanism_comparison_counts_every_cell_once_and_records_its_check() -> None:
    rr, lap, bnd = _run(n_values=[25, 50], p_values=[0.6, 0.7], mc_samples=400, mc_repeats=2)
    cmp = chapter.compare(rr, lap, bnd)
    assert cmp.cells == 4
    for wins in (cmp.paper_test, cmp.same_size):
        assert wins.rr + wins.laplace + wins.ties == 4
    assert cmp.raised + cmp.lowered <= 4
    assert np.isnan(cmp.gap_paper) and np.isnan(cmp.gap_as_published)  # not the paper's grid
    assert all(hasattr(cmp, name) for name in RECORDED) and cmp.metrics() == {} and cmp.tables() == {}
    assert cmp.deviations == () and not cmp.paper_setting
    [check] = cmp.checks["p003-sec2-boundary"]
    assert check.name == "laplace-never-smaller-at-same-size" and check.against == "reference"
    assert check.passed is (cmp.same_size.laplace == 0)


def test_with_tests_of_the_same_size_laplace_never_needs_the_smaller_budget() -> None:
    """Figure 1's cells with Figure 2's Monte Carlo (fewer runs): the paper's randomized-response test,
    which leaves part of its level unused, loses cells to Laplace noise; the one of size α loses none."""
    cmp = chapter.compare(*_run(mode="quick"))
    assert cmp.paper_test.laplace > 0 and cmp.same_size.laplace == 0 and cmp.same_size.rr == 16
    assert cmp.checks["p003-sec2-boundary"][0].passed is True


def test_the_same_size_check_fails_where_laplace_is_smaller_and_is_undecided_on_no_cell() -> None:
    rr = np.array([[0.2, 0.25], [0.15, np.nan]])  # nan: never reached, counts as +∞
    lap = np.array([[0.3, 0.25 + 1e-12], [0.2, np.inf]])  # a tie within isclose, and neither reached
    [ok] = reference.dilemma.comparison_checks(rr, lap)
    assert ok.passed is True and "smaller in 2, Laplace smaller in 0, tied in 1 of 4" in ok.detail
    assert "undecided in 1 (neither reaches β_IND)" in ok.detail
    [fails] = reference.dilemma.comparison_checks(rr, _perturbed(lap, (1, 0), 0.1))
    assert fails.passed is False and "Laplace smaller in 1" in fails.detail
    [never] = reference.dilemma.comparison_checks(rr, _perturbed(lap, (1, 1), 0.5))  # rr never reaches
    assert never.passed is False
    [empty] = reference.dilemma.comparison_checks(np.empty((0, 0)), np.empty((0, 0)))
    assert empty.passed is None and "no cell" in empty.detail
    never = np.full((2, 2), np.nan)  # neither test reaches β_IND anywhere: no evidence, not a tie
    [undecided] = reference.dilemma.comparison_checks(never, np.full((2, 2), np.inf))
    assert undecided.passed is None and "no cell where either test reaches" in undecided.detail
    wins = mechanism_comparison._wins(never, np.array([[np.inf, 0.3], [np.inf, np.inf]]))
    assert (wins.rr, wins.laplace, wins.ties, wins.neither) == (0, 1, 0, 3)


def test_mechanism_comparison_costs_nothing() -> None:
    assert mechanism_comparison.cost({}) == Cost()
