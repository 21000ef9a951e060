"""Chapter 1 (power-tradeoff) as a whole: its parameters, its footprint, and its experiments together
on degenerate parameters."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet import power
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters._items import item_modules


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


def test_the_footprint_adds_up_the_four_experiments() -> None:
    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    assert names == ["mechanism_comparison", "p003_fig1", "p003_fig2", "rr_critical_budget_vs_n"]


@pytest.mark.parametrize(
    ("mode", "memory", "seconds"), [("quick", 18_720_000.0, 48.8304), ("full", 19_436_800.0, 58.9664)]
)
def test_the_footprint_at_the_defaults(mode: str, memory: float, seconds: float) -> None:
    """The Laplace cell's arrays (the largest peak) plus the power grids kept; 20 s of kernel and figures
    plus the bisections, the exact grid and the Monte Carlo cells."""
    need = chapter.SCHEMA.footprint(dict(resolve("power-tradeoff", {"mode": mode})))
    assert need.memory == pytest.approx(memory, rel=1e-9) and need.seconds == pytest.approx(seconds, rel=1e-9)
