"""Chapter 1 (power-tradeoff): its experiments on the paper's setting and on degenerate parameters."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet import power, reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve


def test_paper_setting_reproduces_figure1_and_records_its_checks() -> None:
    P = resolve("power-tradeoff", {})
    rr = chapter.randomized_response(P)
    assert rr.paper_setting
    assert np.array_equal(np.round(rr.star_grid, 2), np.array(reference.FIG1_RR_CRITICAL_BUDGET))
    checks = rr.checks["p003-fig1"]
    assert [c.name for c in checks] == ["heat-map", "below-one", "below-one-exact", "decreasing-in-n"]
    assert all(c.passed for c in checks)
    assert set(rr.metrics()) == {"beta_ind", "rr_power", "rr_critical_budget", "rr_critical_budget_inf"}
    assert list(rr.tables()) == ["p003-fig1"] and len(rr.table) == 16


def test_one_agent_never_beats_the_individual_test() -> None:
    """With n = 1 the group's non-randomised test never rejects: ε*_RR is +∞ (no grid argmin), the checks
    of 'below one' fail, the trend over n is undefined, and nothing compares with printed values."""
    P = resolve("power-tradeoff", {"n_values": [1], "p_values": [0.6], "mc_samples": 400, "mc_repeats": 1})
    rr = chapter.randomized_response(P)
    assert not rr.paper_setting and np.isinf(rr.star_exact).all() and np.isnan(rr.star_grid).all()
    assert power.rr_power(1, 0.6, 50.0, 0.05) == 0.0
    verdicts = {c.name: c.passed for c in rr.checks["p003-fig1"]}
    assert verdicts == {"below-one": False, "below-one-exact": False, "decreasing-in-n": None}
    lap = chapter.laplace(P)
    assert lap.deviations == () and {c.name for c in lap.checks["p003-fig2"]}.isdisjoint(
        {"published-fit", "deviation-needed"}
    )
    cmp = chapter.compare(rr, lap)
    assert cmp.cells == 1 and np.isnan(cmp.gap_paper) and np.isnan(cmp.gap_as_published)


@pytest.mark.parametrize(("p_values", "p_panel"), [([0.6, 0.9], 0.6), ([0.75, 0.65], 0.65), ([0.7], 0.7)])
def test_the_panel_p_is_the_paper_s_or_the_nearest(p_values: list[float], p_panel: float) -> None:
    assert resolve("power-tradeoff", {"p_values": p_values}).p_panel == p_panel
