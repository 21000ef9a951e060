"""Paper 003, Figure 1 (chapter power-tradeoff): randomized response's exact power and critical budgets,
the experiment, its result and cost, and the checks of ``dpnet.reference.dilemma.figure1_checks``."""

from __future__ import annotations

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
    assert [c.name for c in checks] == ["heat-map", "below-one", "below-one-exact", "decreasing-in-n"]
    assert all(c.passed for c in checks)
    assert set(rr.metrics()) == {"beta_ind", "rr_power", "rr_critical_budget", "rr_critical_budget_inf"}
    assert list(rr.tables()) == ["p003-fig1"] and len(rr.table) == 16


def test_p003_fig1_result_is_recordable_without_deviations() -> None:
    rr = chapter.randomized_response(resolve("power-tradeoff", {"n_values": [25, 50], "p_values": [0.7]}))
    assert all(hasattr(rr, name) for name in RECORDED) and rr.deviations == ()


def test_p003_fig1_cost_counts_the_bisections_and_the_power_grid() -> None:
    values = {"n_values": [25, 50], "p_values": [0.6, 0.7, 0.8], "eps_grid": list(GRID)}
    cost = p003_fig1.cost(values)
    assert cost.seconds == pytest.approx(0.03 * 3 * 2 + 4e-6 * 2 * 3 * 100, rel=1e-12)
    assert cost.peak == 0.0 and cost.kept == 8.0 * 2 * 3 * 100


def _figure1_tables() -> tuple[np.ndarray, np.ndarray]:
    rr = power.rr_power_grid(reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, GRID, 0.05)
    grid = power.critical_budget_table(GRID, rr, reference.dilemma.FIG1_P, 0.05)
    return grid, power.rr_critical_budget_inf_grid(reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, 0.05)


def _fig1(
    grid: np.ndarray, exact: np.ndarray, n: tuple[int, ...] = reference.dilemma.FIG1_N
) -> list[bool | None]:
    return [c.passed for c in reference.dilemma.figure1_checks(grid, exact, n, published=True)]


def test_figure1_checks_pass_on_the_exact_tables_and_fail_on_perturbed_ones() -> None:
    grid, exact = _figure1_tables()
    assert _fig1(grid, exact) == [True] * 4
    names = [
        c.name
        for c in reference.dilemma.figure1_checks(grid, exact, reference.dilemma.FIG1_N, published=True)
    ]
    assert names == ["heat-map", "below-one", "below-one-exact", "decreasing-in-n"]
    perturbed = {
        0: (_perturbed(grid, (1, 1), grid[1, 1] + GRID[1]), exact),  # one cell one grid step off
        1: (_perturbed(grid, (0, 3), 1.2), exact),  # a grid ε* above 1
        2: (grid, _perturbed(exact, (2, 2), 1.0)),  # an exact ε* of 1
        3: (_perturbed(grid, (3, 0), grid[0, 0] + GRID[1]), exact),  # n = 100 above n = 25
    }
    for failing, tables in perturbed.items():
        passed = _fig1(*tables)
        assert not passed[failing], (failing, passed)


def test_figure1_claims_off_the_paper_setting() -> None:
    """Off the paper's grid only the general claims run; one n leaves the trend undefined; a cell that
    never reaches β_IND counts as ε* = ∞ (above one, and above any reached ε*)."""
    grid, exact = _figure1_tables()
    checks = reference.dilemma.figure1_checks(grid, exact, reference.dilemma.FIG1_N, published=False)
    assert [c.name for c in checks] == ["below-one", "below-one-exact", "decreasing-in-n"]
    one = reference.dilemma.figure1_checks(grid[:1], exact[:1], (25,), published=False)
    assert one[-1].passed is None and "two values of n" in one[-1].detail
    never = _perturbed(grid, (0, 0), np.nan)  # n = 25 never reaches β_IND at p = 0.6
    passed = [
        c.passed
        for c in reference.dilemma.figure1_checks(never, exact, reference.dilemma.FIG1_N, published=False)
    ]
    assert passed == [False, True, True]
    never_big = _perturbed(grid, (3, 0), np.nan)  # the largest n never reaching it breaks the trend
    assert (
        reference.dilemma.figure1_checks(never_big, exact, reference.dilemma.FIG1_N, published=False)[
            -1
        ].passed
        is False
    )
