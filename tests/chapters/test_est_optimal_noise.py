"""The book's figure and table est-optimal-noise (chapter distributed-estimation): Laplace against three
other noise densities, its result and cost."""

from __future__ import annotations

import matplotlib.pyplot as plt

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters.distributed_estimation import est_optimal_noise
from dpnet.params import Cost
from dpnet.results import RECORDED


def test_est_optimal_noise_table_and_figure() -> None:
    """Four densities; Laplace is ε-DP at variance 2, the ratio column is relative to it; the result
    records its one table and no check."""
    noise = chapter.optimal_noise()
    table = noise.table
    assert len(table) == 4 and list(noise.tables()) == ["est-optimal-noise"]
    laplace = table[table["density (Δ = ε = 1)"].str.startswith("Laplace")].iloc[0]
    assert laplace["ε-DP"] and laplace["variance"] == 2.0 and laplace["variance / Laplace"] == 1.0
    assert all(hasattr(noise, name) for name in RECORDED)
    assert noise.checks == {} and noise.deviations == () and noise.metrics() == {} and noise.paper_setting
    figure = noise.figure()
    assert len(figure.axes) == 2
    plt.close(figure)


def test_est_optimal_noise_cost_is_negligible() -> None:
    assert est_optimal_noise.cost({}) == Cost()
