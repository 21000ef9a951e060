"""The book's figure mle-errors-vs-k (chapter distributed-mle): the sweep over K, its figure and its cost."""

from __future__ import annotations

import matplotlib.pyplot as plt

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import mle_errors_vs_k


def test_mle_errors_vs_k_records_every_estimator_at_every_k() -> None:
    P = resolve("distributed-mle", {"replications": 20, "K_values": [4, 1, 2], "eps_values": [0.5, 1.0]})
    inst = chapter.instance(P)
    ks = chapter.k_sweep(P, inst, chapter.eps_sweep(P, inst).freq43)
    assert ks.Ks == [1, 2, 4] and len(ks.rows) == 4 * 3 and ks.best_gm in ks.Ks
    assert ks.at("am", 2)["K"] == 2 and {r["sweep"] for r in ks.rows} == {"rounds"}
    plt.close(ks.figure())


def test_mle_errors_vs_k_cost_holds_the_largest_k() -> None:
    values = dict(resolve("distributed-mle", {}))
    cost = mle_errors_vs_k.cost(values)
    bigger = mle_errors_vs_k.cost({**values, "K_values": [*values["K_values"], 48]})
    assert bigger.peak == 2 * cost.peak and bigger.seconds > cost.seconds and cost.kept == 0
