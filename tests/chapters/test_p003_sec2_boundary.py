"""Paper 003, §2 boundary (chapter power-tradeoff): the group test's size on the grid, the exact ε*_RR of
the test that randomises on its boundary, the experiment's result and cost, and the checks of
``dpnet.reference.dilemma.boundary_checks``."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from check_cases import perturbed as _perturbed
from matplotlib.figure import Figure

from dpnet import power, reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import p003_sec2_boundary
from dpnet.reference.catalogue import ITEMS, item_key
from dpnet.results import RECORDED

GRID = np.linspace(0.0, 5.0, 100)
N, P = reference.dilemma.FIG1_N, reference.dilemma.FIG1_P
NAMES = [
    "does-not-arise",
    "paper-test-largest-at-top-p",
    "randomized-falls-with-n",
    "randomized-rises-with-p",
]


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = np.array([[power.rr_size(n, p, GRID, 0.05) for p in P] for n in N])
    paper = power.rr_critical_budget_inf_grid(N, P, 0.05)
    return size, paper, power.rr_critical_budget_inf_grid(N, P, 0.05, randomized=True)


def _checks(size, paper, randomized, n=N, p=P, eps=GRID):
    return reference.dilemma.boundary_checks(size, eps, 0.05, paper, randomized, n, p)


def test_the_item_is_in_the_catalogue_with_its_headline() -> None:
    item = ITEMS[item_key("003", "§2 boundary")]
    assert item.key == "p003-sec2-boundary" and item.chapter == "power-tradeoff"
    assert item.check == "does-not-arise" and "does not arise" in item.headline
    assert item.caption == "Paper 003, §2 boundary"


def test_on_figure1_s_setting_the_case_arises_everywhere_and_the_randomised_test_is_monotone() -> None:
    checks = _checks(*_tables())
    assert [c.name for c in checks] == NAMES
    assert [c.passed for c in checks] == [False, False, True, True]
    assert "arises at 1584 of 1584 grid points" in checks[0].detail and "0.0158–0.049997" in checks[0].detail
    assert "falls short of α by 2.9e-06 or more" in checks[0].detail  # the largest size is not α
    assert "n = 25: peaks at p = 0.7 (0.4223; 0.4220 at p = 0.9)" in checks[1].detail


def test_the_randomised_test_s_claims_are_the_book_s_own() -> None:
    """The paper has no randomised group test: those two claims are checked against the book's own
    reference, not reported as published claims."""
    against = {c.name: c.against for c in _checks(*_tables())}
    assert against == {
        "does-not-arise": "paper", "paper-test-largest-at-top-p": "paper",
        "randomized-falls-with-n": "reference", "randomized-rises-with-p": "reference",
    }  # fmt: skip


def test_under_eq2_as_printed_the_peak_claim_would_pass_and_the_fall_with_n_would_still_fail() -> None:
    """note-critical-budget-quantile: judged on eq. (2) coded as printed, ε*_RR peaks at p = 0.9 in every
    row and stays below one, but still does not fall at every step of n (0.073 → 0.121 at p = 0.6)."""
    size, _, randomized = _tables()
    printed = power.rr_critical_budget_as_printed_grid(N, P, 0.05)
    verdicts = {c.name: c for c in _checks(size, printed, randomized)}
    assert verdicts["paper-test-largest-at-top-p"].passed is True
    fig1 = {c.name: c for c in reference.dilemma.figure1_checks(printed, printed, N, P, published=False)}
    assert fig1["falls-with-n"].passed is False
    assert "n = 25 → 50 at p = 0.6: 0.0729 → 0.1210" in fig1["falls-with-n"].detail
    assert printed.max() < 1


def test_each_check_can_fail_and_can_pass() -> None:
    size, paper, randomized = _tables()
    exact_size = np.full_like(size, 0.05)
    assert _checks(exact_size, paper, randomized)[0].passed is True  # a test of size α everywhere
    monotone = np.sort(randomized, axis=0)[::-1]  # any table that falls with n and rises with p
    assert _checks(size, monotone, randomized)[1].passed is True
    assert _checks(size, paper, _perturbed(randomized, (2, 0), randomized[1, 0]))[2].passed is False  # a tie
    assert _checks(size, paper, _perturbed(randomized, (0, 1), randomized[0, 0]))[3].passed is False


def test_claims_with_nothing_to_compare_are_undecided() -> None:
    """No ε > 0 on the grid: no point where the case could arise; one n or one p: no step."""
    size, paper, randomized = _tables()
    zero = _checks(size[..., :1], paper, randomized, eps=GRID[:1])[0]
    assert zero.passed is None and "no ε > 0" in zero.detail
    one_n = _checks(size[:1], paper[:1], randomized[:1], n=(25,))
    assert [c.passed for c in one_n][1:] == [False, None, True]
    assert "no step in n" in one_n[2].detail
    one_p = _checks(size[:, :1], paper[:, :1], randomized[:, :1], p=(0.6,))
    assert [c.passed for c in one_p][1:] == [None, True, None]


def test_never_reached_counts_as_infinite_and_the_steps_follow_sorted_values() -> None:
    size, paper, randomized = _tables()
    never = _perturbed(randomized, (0, 0), np.inf)  # n = 25 never reaches β_IND at p = 0.6
    assert [c.passed for c in _checks(size, paper, never)][2:] == [True, False]
    order = [3, 1, 0, 2]  # the same cells, n listed out of order
    shuffled = _checks(size[order], paper[order], randomized[order], n=tuple(N[k] for k in order))
    assert [c.passed for c in shuffled] == [False, False, True, True]


def test_steps_where_neither_end_is_reached_are_undecided() -> None:
    """∞ → ∞ decides nothing: on an all-undefined table the step claims are undecided, not failed; where
    some steps are decided they alone decide, and the detail counts the others."""
    size, paper, randomized = _tables()
    never = np.full_like(randomized, np.inf)
    checks = {c.name: c for c in _checks(size, never, never)}
    for name in ("paper-test-largest-at-top-p", "randomized-falls-with-n", "randomized-rises-with-p"):
        assert checks[name].passed is None and "undefined" in checks[name].detail, name
    top_row = _perturbed(_perturbed(randomized, (0, 0), np.inf), (1, 0), np.inf)  # p = 0.6: n = 25, 50
    falls = {c.name: c for c in _checks(size, paper, top_row)}["randomized-falls-with-n"]
    assert falls.passed is True and "11 of 11 steps (1 undecided" in falls.detail


def test_the_experiment_records_its_checks_table_and_figure_on_the_paper_s_setting() -> None:
    P_ = resolve("power-tradeoff", {})
    bnd = chapter.boundary(P_, chapter.randomized_response(P_))
    assert all(hasattr(bnd, name) for name in RECORDED) and bnd.deviations == () and bnd.paper_setting
    assert [c.name for c in bnd.checks["p003-sec2-boundary"]] == NAMES
    assert (bnd.arises, bnd.points) == (1584, 1584)
    low, high = bnd.size_range
    assert round(low, 4) == 0.0158 and round(high, 6) == 0.049997 and high < 0.05
    assert round(bnd.shortfall, 7) == 2.9e-6 and bnd.shortfall == pytest.approx(0.05 - high)
    drop = bnd.largest_drop
    assert (drop.n, drop.p) == (25, 0.7) and round(drop.fraction, 2) == 0.45
    # 'minimal effect on the power', measured: the largest gap, and the largest ratio, on the grid
    gap, ratio = bnd.power_gap, bnd.power_ratio
    assert (gap.n, gap.p, round(gap.eps, 2)) == (25, 0.6, 2.37)
    assert (round(gap.paper, 3), round(gap.randomized, 3), round(gap.difference, 3)) == (0.358, 0.515, 0.158)
    assert (ratio.n, ratio.p, round(ratio.eps, 2), round(ratio.ratio, 1)) == (25, 0.6, 0.05, 2.4)
    assert list(bnd.tables()) == ["p003-sec2-boundary"] and len(bnd.table) == 16
    assert set(bnd.metrics()) == {
        "rr_size", "rr_critical_budget_inf_randomized", "rr_critical_budget_randomized"
    }  # fmt: skip
    # the randomised test's grid argmin, the paper's procedure, on the run's grid
    assert np.all(np.isin(bnd.star_grid_randomized, bnd.eps))
    expected = power.critical_budget_table(
        bnd.eps, power.rr_power_grid(N, P, bnd.eps, 0.05, randomized=True), P, 0.05
    )
    assert np.array_equal(bnd.star_grid_randomized, expected)
    assert isinstance(bnd.figure(0.7), Figure)


def test_a_group_of_one_has_no_drop_to_show() -> None:
    P_ = resolve("power-tradeoff", {"n_values": [1], "p_values": [0.6, 0.7]})
    bnd = chapter.boundary(P_, chapter.randomized_response(P_))
    assert bnd.largest_drop is None and np.isinf(bnd.star_randomized).all()
    assert np.isnan(bnd.star_grid_randomized).all()
    assert not bnd.paper_setting and isinstance(bnd.figure(0.6), Figure)


def test_p003_sec2_boundary_cost_counts_the_bisections_and_the_grids() -> None:
    values = {"n_values": [25, 50], "p_values": [0.6, 0.7, 0.8], "eps_grid": list(GRID)}
    cost = p003_sec2_boundary.cost(values)
    kept = 2 * 3 * (100 + 3 * p003_sec2_boundary.FINE_POINTS)
    assert cost.seconds == pytest.approx(1e-3 * 3 * 2 + 4e-6 * (kept + 2 * 3 * 100), rel=1e-12)
    assert cost.peak == 0.0 and cost.kept == 8.0 * kept


def test_the_shortfall_is_undefined_where_the_size_is_alpha_everywhere() -> None:
    P_ = resolve("power-tradeoff", {"n_values": [25], "p_values": [0.7]})
    bnd = chapter.boundary(P_, chapter.randomized_response(P_))
    exact = dataclasses.replace(bnd, size=np.full_like(bnd.size, 0.05))
    assert np.isnan(exact.shortfall) and exact.arises == 0 and bnd.shortfall > 0


def test_largest_power_gap_finds_the_point_of_largest_difference_or_ratio_and_none_without_one() -> None:
    eps = np.array([0.0, 0.5, 1.0])
    paper = np.array([[[0.05, 0.10, 0.30]], [[0.05, 0.0, 0.50]]])  # (n = 2, p = 1, ε = 3)
    randomized = np.array([[[0.05, 0.25, 0.40]], [[0.05, 0.01, 0.55]]])
    gap = p003_sec2_boundary.largest_power_gap(eps, (5, 10), (0.7,), paper, randomized)
    assert (gap.n, gap.p, gap.eps, gap.paper, gap.randomized) == (5, 0.7, 0.5, 0.10, 0.25)
    assert gap.difference == pytest.approx(0.15) and gap.ratio == pytest.approx(2.5)
    ratio = p003_sec2_boundary.largest_power_gap(eps, (5, 10), (0.7,), paper, randomized, relative=True)
    assert (ratio.n, ratio.eps) == (5, 0.5)  # the zero paper power at n = 10 is left out, not infinite
    assert (
        p003_sec2_boundary.largest_power_gap(eps[:1], (5, 10), (0.7,), paper[..., :1], randomized[..., :1])
        is None
    )
    zero = np.zeros_like(paper)
    assert p003_sec2_boundary.largest_power_gap(eps, (5, 10), (0.7,), zero, randomized, relative=True) is None
