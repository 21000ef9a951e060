"""The book's figure rr-critical-budget-vs-n (chapter power-tradeoff): the exact ε*_RR curve over n."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from dpnet import power
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import rr_critical_budget_vs_n
from dpnet.results import RECORDED


def test_rr_critical_budget_vs_n_runs_to_twice_the_largest_n_and_records_nothing_but_its_metric() -> None:
    curve = chapter.critical_budget_curve(
        resolve("power-tradeoff", {"n_values": [5, 10], "p_values": [0.7, 0.9]})
    )
    assert np.array_equal(curve.n, np.arange(1, 21)) and curve.eps_star.shape == (2, 20)
    assert curve.eps_star[0, 9] == power.rr_critical_budget_inf(10, 0.7, 0.05)
    assert all(hasattr(curve, name) for name in RECORDED)
    assert curve.checks == {} and curve.deviations == () and curve.tables() == {} and curve.paper_setting
    assert list(curve.metrics()) == ["rr_critical_budget_inf_curve"]
    assert isinstance(curve.figure(), Figure)


def test_rr_critical_budget_vs_n_cost_counts_one_bisection_per_point() -> None:
    cost = rr_critical_budget_vs_n.cost({"n_values": [25, 100], "p_values": [0.6, 0.7, 0.8, 0.9]})
    assert cost.seconds == pytest.approx(0.03 * 4 * 200, rel=1e-12)
    assert cost.peak == 2.0 * 100 * (80 + 48 * 4) and cost.kept == 0.0
