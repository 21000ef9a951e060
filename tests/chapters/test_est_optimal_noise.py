"""The book's figure and tables est-optimal-noise (chapter distributed-estimation): Laplace, the staircase
and three other noise densities under eq. 9 and under ε-DP, its result and cost."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters.distributed_estimation import est_optimal_noise
from dpnet.params import Cost
from dpnet.results import RECORDED


def test_est_optimal_noise_tables_and_figure() -> None:
    """Five densities: Laplace meets eq. 9 at variance 2; the staircase is ε-DP without meeting it, at a
    smaller variance; the Gaussian is neither. The staircase table gives its ratio to Laplace at each ε of
    STAIRCASE_EPS (0.96, 0.69, 0.25 at ε = 1, 3, 6); the result records two tables and no check."""
    noise = chapter.optimal_noise()
    table = noise.table.set_index("density (Δ = ε = 1)")
    assert list(table.index) == ["Laplace", "staircase", "hyperbolic secant", "logistic", "Gaussian"]
    assert list(table["meets eq. 9"]) == [True, False, True, True, False]
    assert list(table["ε-DP"]) == [True, True, True, True, False]
    assert table.loc["Laplace", "variance"] == 2.0 and table.loc["Laplace", "variance / Laplace"] == 1.0
    assert table.loc["staircase", "variance / Laplace"] < 1.0
    eq9 = table[table["meets eq. 9"]]
    assert eq9["variance"].idxmin() == "Laplace"  # optimal under eq. 9 …
    assert table[table["ε-DP"]]["variance"].idxmin() == "staircase"  # … not under ε-DP
    stair = noise.staircase.set_index("ε")
    assert list(stair.index) == list(est_optimal_noise.STAIRCASE_EPS)
    assert [round(stair.loc[e, "staircase / Laplace"], 2) for e in (1.0, 3.0, 6.0)] == [0.96, 0.69, 0.25]
    assert noise.ratio(3.0) == pytest.approx(stair.loc[3.0, "staircase / Laplace"], rel=1e-14)
    assert list(noise.tables()) == ["est-optimal-noise", "est-optimal-noise-staircase"]
    assert all(hasattr(noise, name) for name in RECORDED)
    assert noise.checks == {} and noise.deviations == () and noise.metrics() == {} and noise.paper_setting
    figure = noise.figure()
    assert len(figure.axes) == 3
    assert len(figure.axes[2].get_lines()) == 5 + 1  # every density's worst log-ratio, and ε
    assert len(figure.legends) == 1 and len(figure.legends[0].get_texts()) == 5 + 1
    plt.close(figure)


def test_est_optimal_noise_cost_is_negligible() -> None:
    assert est_optimal_noise.cost({}) == Cost()
