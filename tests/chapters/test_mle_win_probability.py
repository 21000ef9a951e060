"""The book's figure mle-win-probability (chapter distributed-mle): the win probability at zero gap, the
probability of never winning, the figure and the cost."""

from __future__ import annotations

import matplotlib.pyplot as plt

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import mle_win_probability


def test_mle_win_probability_counts_wins_and_never_wins() -> None:
    P = resolve("distributed-mle", {"replications": 20, "gap_values": [0.0, 3.0]})
    inst = chapter.instance(P)
    floor = chapter.win_floor(P, inst, chapter.gap_sweep(P, inst).rounds)
    assert floor.states == (2, 3, 4, 5, 6) and floor.replications == floor.factor * 20 <= 200
    assert floor.n_rounds == floor.replications * mle_win_probability.FLOOR_ROUNDS
    win, lo, hi = floor.win_at(P.n_states)
    assert lo <= win <= hi and floor.exact_never(1) == 1 - 1 / P.n_states
    assert {floor.rounds["AM, paper"], floor.rounds["AM, corrected"]} <= set(floor.Ks)
    assert floor.tables() == {}
    assert list(floor.metrics()) == ["win_probability"] and floor.rows == floor.never
    plt.close(floor.figure())


def test_mle_win_probability_cost_keeps_the_count_s_beliefs() -> None:
    values = dict(resolve("distributed-mle", {}))
    cost = mle_win_probability.cost(values)
    assert cost.seconds > 0 and cost.peak > 0 and cost.kept > 0
    assert mle_win_probability.cost({**values, "replications": 4000}).kept > cost.kept
