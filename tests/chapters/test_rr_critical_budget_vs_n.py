"""The book's figure rr-critical-budget-vs-n (chapter power-tradeoff): the exact ε*_RR curve over n."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from dpnet import power, reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import rr_critical_budget_vs_n
from dpnet.results import RECORDED


def test_rr_critical_budget_vs_n_runs_to_twice_the_largest_n_and_records_nothing_but_its_metric() -> None:
    curve = chapter.critical_budget_curve(
        resolve("power-tradeoff", {"n_values": [5, 10], "p_values": [0.7, 0.9]})
    )
    assert np.array_equal(curve.n, np.arange(1, 21)) and curve.eps_star.shape == (2, 20)
    assert curve.eps_star_randomized.shape == (2, 20)
    assert curve.eps_star[0, 9] == power.rr_critical_budget_inf(10, 0.7, 0.05)
    assert curve.eps_star_randomized[0, 9] == power.rr_critical_budget_inf(10, 0.7, 0.05, randomized=True)
    assert np.isinf(curve.eps_star_randomized[:, 0]).all()  # one agent never reaches β_IND
    assert all(hasattr(curve, name) for name in RECORDED)
    assert list(curve.checks) == ["p003-sec2-boundary"]
    assert [c.name for c in curve.checks["p003-sec2-boundary"]] == [
        "paper-curve-rises", "randomized-curve-falls-with-n"
    ]  # fmt: skip
    assert curve.deviations == () and curve.tables() == {} and curve.paper_setting
    assert list(curve.metrics()) == ["rr_critical_budget_inf_curve"]
    assert set(curve.metrics()["rr_critical_budget_inf_curve"]) == {
        "n",
        "p_values",
        "eps_star",
        "eps_star_randomized",
    }
    assert isinstance(curve.figure(), Figure)


def test_rr_critical_budget_vs_n_cost_counts_one_bisection_per_point() -> None:
    cost = rr_critical_budget_vs_n.cost({"n_values": [25, 100], "p_values": [0.6, 0.7, 0.8, 0.9]})
    assert cost.seconds == pytest.approx(2 * 1e-3 * 4 * 200, rel=1e-12)
    assert cost.peak == 2.0 * 100 * (80 + 48 * 4) and cost.kept == 0.0


def test_the_randomised_curve_falls_smoothly_where_the_paper_s_saw_tooth_rises() -> None:
    """Up to n = 200 at Figure 1's p: the paper's test rises at more than 20 steps of n (from n = 10 on),
    the randomised one at none (from n = 2 on; one agent never reaches β_IND), and never needs more."""
    curve = chapter.critical_budget_curve(resolve("power-tradeoff", {}))
    assert curve.n[-1] == 200
    rand, paper = curve.eps_star_randomized[:, 1:], curve.eps_star[:, 9:]  # the paper's: n ≥ 10, all finite
    assert np.isfinite(rand).all() and np.isfinite(paper).all()
    assert np.all(np.diff(rand, axis=1) < 0)
    assert np.all(np.sum(np.diff(paper, axis=1) > 0, axis=1) > 20)
    assert np.all(curve.eps_star_randomized <= curve.eps_star)


def test_the_curve_s_checks_hold_on_figure1_s_setting_and_can_fail_or_be_undecided() -> None:
    """The book's sentences on the curve: the paper's test rises at some step of n, the randomised one
    falls at every step from n = 1 to 200 (one agent never reaches β_IND: +∞ → finite is a fall)."""
    curve = chapter.critical_budget_curve(resolve("power-tradeoff", {}))
    rises, falls = curve.checks["p003-sec2-boundary"]
    assert rises.passed is True and falls.passed is True and "796 of 796 steps" in falls.detail
    assert all(c.against == "reference" for c in (rises, falls))
    n, p = tuple(int(k) for k in curve.n), curve.p_values
    smooth = np.sort(curve.eps_star, axis=1)[:, ::-1]  # a paper's curve without a saw-tooth
    flat = curve.eps_star_randomized.copy()
    flat[0, 50] = flat[0, 49]  # one step where the randomised curve does not fall
    failing = reference.dilemma.curve_checks(smooth, flat, n, p)
    assert [c.passed for c in failing] == [False, False] and "n = 50 → 51 at p = 0.6" in failing[1].detail
    never = np.full_like(curve.eps_star, np.inf)
    assert [c.passed for c in reference.dilemma.curve_checks(never, never, n, p)] == [None, None]
