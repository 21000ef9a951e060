"""Paper 003, Figure 1 (chapter power-tradeoff): randomized response's exact power and critical budgets,
the experiment, its result and cost, and the checks of ``dpnet.reference.dilemma.figure1_checks``."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from check_cases import perturbed as _perturbed

from dpnet import power, reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import p003_fig1
from dpnet.results import RECORDED

GRID = np.linspace(0.0, 5.0, 100)


def test_paper_setting_reproduces_figure1_and_records_its_checks() -> None:
    P = resolve("power-tradeoff", {})
    rr = chapter.randomized_response(P)
    assert rr.paper_setting
    assert np.array_equal(np.round(rr.star_grid, 2), np.array(reference.dilemma.FIG1_RR_CRITICAL_BUDGET))
    checks = rr.checks["p003-fig1"]
    assert [c.name for c in checks] == [
        "heat-map", "below-one", "below-one-exact", "decreasing-in-n", "falls-with-n", "largest-at-top-p"
    ]  # fmt: skip
    assert all(c.against == "paper" for c in checks)
    # the caption's 'the intersection points show ε*_RR decreases with n' fails under the paper's mathematics
    assert {c.name for c in checks if not c.passed} == {"falls-with-n"}
    assert set(rr.metrics()) == {
        "beta_ind", "rr_power", "rr_critical_budget", "rr_critical_budget_inf",
        "rr_critical_budget_as_printed",
    }  # fmt: skip
    assert list(rr.tables()) == ["p003-fig1"] and len(rr.table) == 16
    assert list(rr.table.columns)[-1] == "ε* eq. 2 as printed"


def test_eq2_as_printed_sits_beside_the_infimum_and_falls_short_of_the_individual_test() -> None:
    """The table's printed-eq.-2 column is never above the infimum; the cell where the group falls
    furthest short at the printed budget is n = 25, p = 0.7 (ε 0.036, power 0.058 against 0.117), as the
    chapter and note-critical-budget-quantile say."""
    rr = chapter.randomized_response(resolve("power-tradeoff", {}))
    assert np.all(rr.star_printed < rr.star_exact)
    assert round(float(rr.star_printed.min()), 3) == 0.029 and round(float(rr.star_printed.max()), 3) == 0.336
    assert round(float(rr.star_exact.min()), 3) == 0.143 and round(float(rr.star_exact.max()), 3) == 0.422
    short = rr.printed_shortfall
    assert (short.n, short.p) == (25, 0.7)
    assert (round(short.eps, 3), round(short.power, 3), round(short.beta_ind, 3)) == (0.036, 0.058, 0.117)
    assert short.power == power.rr_power(25, 0.7, short.eps, 0.05) < short.beta_ind


def test_printed_shortfall_is_none_when_no_cell_has_a_finite_printed_budget() -> None:
    rr = chapter.randomized_response(resolve("power-tradeoff", {"n_values": [25], "p_values": [0.7]}))
    never = dataclasses.replace(rr, star_printed=np.full((1, 1), np.inf))
    assert never.printed_shortfall is None and rr.printed_shortfall is not None


def test_p003_fig1_result_is_recordable_without_deviations() -> None:
    rr = chapter.randomized_response(resolve("power-tradeoff", {"n_values": [25, 50], "p_values": [0.7]}))
    assert all(hasattr(rr, name) for name in RECORDED) and rr.deviations == ()


def test_p003_fig1_cost_counts_the_bisections_and_the_power_grid() -> None:
    values = {"n_values": [25, 50], "p_values": [0.6, 0.7, 0.8], "eps_grid": list(GRID)}
    cost = p003_fig1.cost(values)
    assert cost.seconds == pytest.approx(2e-3 * 3 * 2 + 4e-6 * 2 * 3 * 100, rel=1e-12)
    assert cost.peak == 0.0 and cost.kept == 8.0 * 2 * 3 * 100


def _figure1_tables() -> tuple[np.ndarray, np.ndarray]:
    rr = power.rr_power_grid(reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, GRID, 0.05)
    grid = power.critical_budget_table(GRID, rr, reference.dilemma.FIG1_P, 0.05)
    return grid, power.rr_critical_budget_inf_grid(reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, 0.05)


def _fig1(
    grid: np.ndarray, exact: np.ndarray, n: tuple[int, ...] = reference.dilemma.FIG1_N
) -> list[bool | None]:
    p = reference.dilemma.FIG1_P
    return [c.passed for c in reference.dilemma.figure1_checks(grid, exact, n, p, published=True)]


def _checks(grid: np.ndarray, exact: np.ndarray, n=reference.dilemma.FIG1_N, p=reference.dilemma.FIG1_P):
    return reference.dilemma.figure1_checks(grid, exact, n, p, published=False)


def test_figure1_checks_pass_on_the_exact_tables_and_fail_on_perturbed_ones() -> None:
    grid, exact = _figure1_tables()
    assert _fig1(grid, exact) == [True, True, True, True, False, True]
    falling = np.sort(exact, axis=0)[::-1]  # the same values, falling with n in every column
    assert _fig1(grid, falling) == [True] * 6
    perturbed = {
        0: (_perturbed(grid, (1, 1), grid[1, 1] + GRID[1]), falling),  # one cell one grid step off
        1: (_perturbed(grid, (0, 3), 1.2), falling),  # a grid ε* above 1
        2: (grid, _perturbed(falling, (2, 2), 1.0)),  # an exact ε* of 1
        3: (_perturbed(grid, (3, 0), grid[0, 0] + GRID[1]), falling),  # n = 100 above n = 25
        4: (grid, _perturbed(falling, (3, 1), falling[2, 1])),  # n = 75 → 100 ties at p = 0.7
        5: (_perturbed(grid, (2, 1), grid[2, 3] + GRID[1]), falling),  # n = 75 peaks at p = 0.7
    }
    for failing, tables in perturbed.items():
        passed = _fig1(*tables)
        assert not passed[failing], (failing, passed)


def test_figure1_claims_off_the_paper_setting() -> None:
    """Off the paper's grid only the general claims run; one n leaves the trend undefined; a cell that
    never reaches β_IND counts as ε* = ∞ (above one, and above any reached ε*)."""
    grid, exact = _figure1_tables()
    checks = _checks(grid, exact)
    assert [c.name for c in checks] == [
        "below-one", "below-one-exact", "decreasing-in-n", "falls-with-n", "largest-at-top-p"
    ]  # fmt: skip
    one = _checks(grid[:1], exact[:1], (25,))
    assert one[2].passed is None and "two values of n" in one[2].detail
    assert one[3].passed is None and "no step in n" in one[3].detail
    never = _perturbed(grid, (0, 0), np.nan)  # n = 25 never reaches β_IND at p = 0.6
    assert [c.passed for c in _checks(never, exact)] == [False, True, True, False, False]  # ∞ tops p = 0.9
    never_big = _perturbed(grid, (3, 0), np.nan)  # the largest n never reaching it breaks the trend
    assert _checks(never_big, exact)[2].passed is False


def test_figure1_claims_over_no_cell_or_one_p_are_undecided() -> None:
    """'Every cell below one' over an empty table, and 'largest at the highest p' with one p, are
    undecided, not passed."""
    empty = np.empty((0, 0))
    checks = {c.name: c for c in _checks(empty, empty, (), ())}
    assert checks["below-one"].passed is None and "no cell" in checks["below-one"].detail
    assert checks["below-one-exact"].passed is None
    grid, exact = _figure1_tables()
    one_p = {c.name: c for c in _checks(grid[:, :1], exact[:, :1], p=(0.6,))}
    assert one_p["largest-at-top-p"].passed is None and "two values of p" in one_p["largest-at-top-p"].detail


def test_largest_at_top_p_counts_a_tie_at_the_top_and_names_the_row_that_misses() -> None:
    grid, exact = _figure1_tables()
    tie = _perturbed(grid, (1, 1), grid[1, 3])  # n = 50: p = 0.7 ties p = 0.9
    assert _checks(tie, exact)[4].passed is True
    miss = _checks(_perturbed(grid, (1, 1), grid[1, 3] + 0.01), exact)[4]
    assert miss.passed is False and "n = 50: peaks at p = 0.7" in miss.detail


def test_the_caption_s_claim_fails_at_the_intersection_points_where_the_saw_tooth_rises() -> None:
    """Paper Fig 1 caption: 'the intersection points show ε*_RR decreases with increasing number of
    agents'. At p = 0.7 the exact crossings are 0.4223, 0.2612, 0.1488, 0.1551: n = 100 crosses after
    n = 75; at p = 0.6 the budget rises from n = 50 to 75."""
    rr = chapter.randomized_response(resolve("power-tradeoff", {}))
    assert [round(float(e), 4) for e in rr.star_exact[:, 1]] == [0.4223, 0.2612, 0.1488, 0.1551]
    falls = {c.name: c for c in rr.checks["p003-fig1"]}["falls-with-n"]
    assert falls.passed is False and "10 of 12 steps" in falls.detail
    assert "n = 50 → 75 at p = 0.6" in falls.detail and "n = 75 → 100 at p = 0.7" in falls.detail
    assert rr.steps == 12 and [(s.p, s.n_from, s.n_to) for s in rr.rising_steps] == [
        (0.6, 50, 75),
        (0.7, 75, 100),
    ]
    assert round(rr.rising_steps[0].before, 4) == 0.1697 and round(rr.rising_steps[0].after, 4) == 0.2085


def test_rising_steps_skip_steps_where_neither_end_is_reached() -> None:
    rr = chapter.randomized_response(resolve("power-tradeoff", {"n_values": [1, 2, 25], "p_values": [0.7]}))
    assert np.isinf(rr.star_exact[:2]).all() and np.isfinite(rr.star_exact[2]).all()
    assert rr.steps == 1 and rr.rising_steps == ()  # 1 → 2 undecided, 2 → 25 falls from +∞


def test_checks_where_no_cell_reaches_the_individual_power_are_undecided_not_passed() -> None:
    """Never reached is +∞; ∞ against ∞ decides nothing. On an all-undefined table every comparison is
    undecided, while 'below one' fails (no cell has a budget below one)."""
    never = np.full((4, 4), np.nan)
    checks = {c.name: c for c in _checks(never, np.full((4, 4), np.inf))}
    assert checks["below-one"].passed is False and checks["below-one-exact"].passed is False
    for name in ("decreasing-in-n", "falls-with-n", "largest-at-top-p"):
        assert checks[name].passed is None and "undefined" in checks[name].detail, name
    # the referee's case, through the chapter: one agent, two p
    rr = chapter.randomized_response(resolve("power-tradeoff", {"n_values": [1], "p_values": [0.6, 0.9]}))
    verdicts = {c.name: c.passed for c in rr.checks["p003-fig1"]}
    assert verdicts["largest-at-top-p"] is None and verdicts["below-one"] is False
    # a row that is undefined is left out, the others decide, and the detail says so
    grid, exact = _figure1_tables()
    partial = {c.name: c for c in _checks(_perturbed(grid, (0, slice(None)), np.nan), exact)}
    top = partial["largest-at-top-p"]
    assert top.passed is True and "undecided at n = 25" in top.detail
    both = _perturbed(_perturbed(grid, (0, 0), np.nan), (3, 0), np.nan)  # p = 0.6: neither n reaches it
    dec = {c.name: c for c in _checks(both, exact)}["decreasing-in-n"]
    assert dec.passed is True and "undecided at 1 p" in dec.detail
