"""The book's figure mle-errors-vs-eps and table oracle_vs_finite_T (chapter distributed-mle): the sweep
over ε, its records, its figure and its cost."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
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


def test_am_s_exact_type1_error_is_one_minus_p_to_the_k() -> None:
    """AM admits a false state unless θ* wins every round: ``1 − p^K``, with the same p as its Type II
    error ``(1 − p)^K``; a lottery (huge noise) gives ``1 − |Θ|^{-K}``; ties leave it undefined."""
    table = np.array([[0.0, -1.0, -2.0], [0.0, -0.5, -1.5]])
    type2, _ = mle_errors_vs_eps.exact_oracle_rates(table, 0.7, 5)
    type1 = mle_errors_vs_eps.exact_am_type1(table, 0.7, 5)
    assert (1 - type1) ** (1 / 5) + type2 ** (1 / 5) == pytest.approx(1.0, abs=1e-9)
    assert mle_errors_vs_eps.exact_am_type1(table, 1e9, 3) == pytest.approx(1 - 3.0**-3, abs=1e-6)
    assert math.isnan(mle_errors_vs_eps.exact_am_type1(np.zeros((2, 3)), 1.0, 4))
    P = small("distributed-mle")
    eps = chapter.eps_sweep(P, chapter.instance(P))
    assert len(eps.exact["am-type1"]) == 2 and all(0 <= v <= 1 for v in eps.exact["am-type1"])
