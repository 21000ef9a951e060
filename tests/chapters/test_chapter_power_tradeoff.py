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
    assert verdicts == {
        "below-one": False, "below-one-exact": False, "decreasing-in-n": None, "falls-with-n": None,
        "largest-at-top-p": None,
    }  # fmt: skip
    lap = chapter.laplace(P)
    assert lap.deviations == () and {c.name for c in lap.checks["p003-fig2"]}.isdisjoint(
        {"published-fit", "deviation-needed"}
    )
    bnd = chapter.boundary(P, rr)
    assert np.isnan(bnd.star_grid_randomized).all()  # the test of size α never reaches β_IND either
    cmp = chapter.compare(rr, lap, bnd)
    assert cmp.cells == 1 and np.isnan(cmp.gap_paper) and np.isnan(cmp.gap_as_published)
    assert cmp.same_size.rr == 0


@pytest.mark.parametrize(("p_values", "p_panel"), [([0.6, 0.9], 0.6), ([0.75, 0.65], 0.65), ([0.7], 0.7)])
def test_the_panel_p_is_the_paper_s_or_the_nearest(p_values: list[float], p_panel: float) -> None:
    assert resolve("power-tradeoff", {"p_values": p_values}).p_panel == p_panel


def test_the_footprint_adds_up_the_five_experiments() -> None:
    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    assert names == [
        "mechanism_comparison", "p003_fig1", "p003_fig2", "p003_sec2_boundary", "rr_critical_budget_vs_n"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "memory", "seconds"), [("quick", 19_117_184.0, 26.203392), ("full", 19_833_984.0, 36.339392)]
)
def test_the_footprint_at_the_defaults(mode: str, memory: float, seconds: float) -> None:
    """The Laplace cell's arrays (the largest peak) plus the power and size grids kept; 20 s of kernel and
    figures plus the bisections, the exact grids and the Monte Carlo cells."""
    need = chapter.SCHEMA.footprint(dict(resolve("power-tradeoff", {"mode": mode})))
    assert need.memory == pytest.approx(memory, rel=1e-9) and need.seconds == pytest.approx(seconds, rel=1e-9)


# --- the chapter's "re-run and predict" exercises, at their parameters in quick mode ----------------


def _quick(**values: object):
    return resolve("power-tradeoff", {"mode": "quick", **values})


def test_exercise_power_n_quadrupling_n_about_halves_the_randomised_critical_budget() -> None:
    """ex-power-n (`-p n_values "[25, 100, 400]"`): ε* falls roughly like 1/√n, so about half the n = 100
    value at n = 400; in the exact columns the randomised test follows the rule within 0.02, the paper's
    test lands further from one half. The heat map (grid argmin) shows 0.15 then 0.05, a third: at both n
    it lands on the grid point just before the crossing, where the power falls short of β_IND."""
    P = _quick(n_values=[25, 100, 400])
    rr = chapter.randomized_response(P)
    bnd = chapter.boundary(P, rr)
    j = P.p_values.index(0.7)
    paper = rr.star_exact[2, j] / rr.star_exact[1, j]
    randomized = bnd.star_randomized[2, j] / bnd.star_randomized[1, j]
    assert abs(randomized - 0.5) < 0.02 and abs(paper - 0.5) > abs(randomized - 0.5)
    assert 0.3 < paper < 0.7
    assert [round(float(e), 2) for e in rr.star_grid[1:, j]] == [0.15, 0.05]
    for i in (1, 2):
        assert rr.star_grid[i, j] < rr.star_exact[i, j]  # before the crossing
        assert power.rr_power(P.n_values[i], 0.7, rr.star_grid[i, j], P.alpha) < rr.beta_ind[j]
    assert P.n_panel == 400


def test_exercise_power_level_the_individual_power_when_the_level_exceeds_the_error() -> None:
    """ex-power-level (`-p p_values "[0.7, 0.97]"`): β_IND = p + (1−p)(α−1+p)/p at p = 0.97."""
    P = _quick(p_values=[0.7, 0.97])
    rr = chapter.randomized_response(P)
    assert rr.beta_ind[1] == pytest.approx(0.97 + 0.03 * (0.05 - 0.03) / 0.97, abs=1e-15)
    assert rr.beta_ind[0] == pytest.approx(0.7 * 0.05 / 0.3, abs=1e-15)


def test_exercise_power_one_agent_never_beats_the_individual_test() -> None:
    """ex-power-one-agent (`-p n_values "[1, 25]"`): no critical budget for n = 1 under either group test
    nor under Laplace noise, and the 'below one' badges turn to ✗."""
    P = _quick(n_values=[1, 25])
    rr = chapter.randomized_response(P)
    bnd = chapter.boundary(P, rr)
    lap = chapter.laplace(P)
    assert np.isinf(rr.star_exact[0]).all() and np.isnan(rr.star_grid[0]).all()
    assert np.isinf(bnd.star_randomized[0]).all()
    # one noisy LLR approaches β_IND only from below: no Laplace budget below one either (a Monte Carlo
    # estimate can land just above β_IND at a large ε, and then shows a large ε* by chance)
    assert not np.any(lap.star["paper"][0] < 1) and not np.any(lap.star["as_published"][0] < 1)
    fig1 = {c.name: c.passed for c in rr.checks["p003-fig1"]}
    fig2 = {c.name: c.passed for c in lap.checks["p003-fig2"]}
    assert fig1["below-one"] is False and fig1["below-one-exact"] is False
    assert fig2["below-one"] is False and fig2["below-one-as-published"] is False
