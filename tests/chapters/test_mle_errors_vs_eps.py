"""The book's figure mle-errors-vs-eps and table oracle_vs_finite_T (chapter distributed-mle): the sweep
over ε, its records, its figure and its cost."""

from __future__ import annotations

import matplotlib.pyplot as plt
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import mle_errors_vs_eps


def test_mle_errors_vs_eps_records_every_curve_at_every_budget() -> None:
    P = small("distributed-mle")
    eps = chapter.eps_sweep(P, chapter.instance(P))
    assert list(eps.records) == ["am", "gm", "thres1", "thres2", "am-thm42", "gm-thm42",
                                 "am-T", "gm-T", "thres1-T", "thres2-T"]  # fmt: skip
    assert all(len(recs) == 2 for recs in eps.records.values()) and len(eps.rows) == 20
    assert eps.metrics() == {} and list(eps.tables()) == ["oracle_vs_finite_T"]
    assert len(eps.thm42("T")) == 2 and len(eps.thm42("rho")) == 4 and eps.finite_gm_difference >= 0
    assert 0 <= eps.fails("gm", "type1", P.alpha) <= 2
    plt.close(eps.figure())


def test_mle_errors_vs_eps_cost_grows_with_the_replications_and_the_budgets() -> None:
    base = dict(small("distributed-mle"))
    cost = mle_errors_vs_eps.cost(base)
    assert cost.seconds > 0 and cost.peak > 0 and cost.kept == 0
    more = mle_errors_vs_eps.cost({**base, "replications": 40, "eps_values": [0.5, 1.0, 5.0]})
    assert more.seconds > cost.seconds and more.peak > cost.peak
