"""The book's comparison of the two mechanisms (chapter power-tradeoff): randomized response against
Laplace noise, and the two Laplace noise models, cell by cell."""

from __future__ import annotations

import numpy as np

from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import mechanism_comparison
from dpnet.params import Cost


def test_mechanism_comparison_counts_every_cell_once() -> None:
    P = resolve(
        "power-tradeoff", {"n_values": [25, 50], "p_values": [0.6, 0.7], "mc_samples": 400, "mc_repeats": 2}
    )
    cmp = chapter.compare(chapter.randomized_response(P), chapter.laplace(P))
    assert cmp.cells == 4 and cmp.rr_wins + cmp.laplace_wins + cmp.ties == 4
    assert cmp.raised + cmp.lowered <= 4
    assert np.isnan(cmp.gap_paper) and np.isnan(cmp.gap_as_published)  # not the paper's grid


def test_mechanism_comparison_costs_nothing() -> None:
    assert mechanism_comparison.cost({}) == Cost()
