"""The book's figure mle-rounds (chapter distributed-mle): how K and T grow, and the growth of T in
log(1/ε) against Table 1's ε column (an identity that holds by construction: a unit test, not a check of
the report)."""

from __future__ import annotations

import dataclasses
import math

import matplotlib.pyplot as plt
import pytest

from dpnet import inference as inf
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import mle_rounds
from dpnet.params import Cost


def slope_matches(s: inf.EpsSlope) -> bool:
    """Table 1's ε column: T grows by 1/log(1/a*) per unit of log(1/ε), within the derived tolerance."""
    return s.mixing_limited and abs(s.measured - s.predicted) <= s.tolerance * s.predicted


def test_table1_eps_slope_holds_on_the_chapter_instance_and_fails_off_it() -> None:
    P = resolve("distributed-mle", {})
    scale = chapter.scaling(P, chapter.instance(P))
    fixed, optimal = scale.slope_fixed, scale.slope_optimal
    assert slope_matches(fixed) and fixed.predicted == pytest.approx(1 / math.log(1 / 0.375))
    assert not slope_matches(dataclasses.replace(fixed, measured=fixed.predicted * (1 - 2 * fixed.tolerance)))
    assert not slope_matches(dataclasses.replace(fixed, mixing_limited=False))
    # with the optimal ϱ* the prose compares against 1/log(2/a*)
    assert slope_matches(optimal) and optimal.predicted == pytest.approx(1 / math.log(2 / 0.375))


def test_mle_rounds_curves_and_figure() -> None:
    P = resolve("distributed-mle", {})
    scale = chapter.scaling(P, chapter.instance(P))
    assert scale.n_grid == list(range(3, 51)) and set(scale.by_graph) == {"complete", "cycle", "star", "path"}
    assert list(scale.metrics()) == ["rounds_vs_n", "rounds_vs_states", "rounds_vs_eps"]
    assert scale.tables() == {}
    assert scale.by_graph["path"][-1] > scale.by_graph["complete"][-1]
    # Hoeffding's factor 1/p₂² = |Θ|² makes the corrected two-threshold K grow like |Θ|²; the
    # multiplicative Chernoff bound's 1/p₂ like |Θ|; what Θ̂² needs exactly lies below both
    fixed = scale.by_states["K Thm 4.3 corrected"]
    chernoff = scale.by_states["K Thm 4.3 corrected, Chernoff"]
    exact = scale.by_states["K Θ̂² needs exactly"]
    growth = scale.state_grid[-1] / scale.state_grid[0]
    assert fixed[-1] / fixed[0] > growth**2 / 2 and chernoff[-1] / chernoff[0] < growth
    assert (fixed[-1], chernoff[-1], exact[-1]) == (2397, 480, 208)
    assert all(e <= min(c, f) for e, c, f in zip(exact, chernoff, fixed, strict=True))
    plt.close(scale.figure())
    assert mle_rounds.cost({}) == Cost()
