"""The book's table gm_every_round (chapter distributed-mle): the estimator Theorem 4.1's proof bounds (a
state kept only if it wins every round), against its exact Type I error, its cases and its cost."""

from __future__ import annotations

import pytest
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import mle_gm_every_round
from dpnet.chapters.distributed_mle._common import _consistent
from dpnet.chapters.distributed_mle.p003_thm4_1 import every_round_cases


def test_exact_type1_errors_of_the_proof_s_estimator() -> None:
    """(|Θ| − 1)/|Θ|^K with every state tied; 2^−K with one false state tied (K = ⌈log(|Θ̄|/α)⌉)."""
    exact = mle_gm_every_round.every_round_exact
    assert exact(2, 3, "all tied") == exact(2, 3, "one tied") == pytest.approx(0.125)
    assert exact(3, 4, "one tied") == pytest.approx(0.0625) and exact(3, 4, "all tied") == pytest.approx(
        2 / 81
    )
    assert exact(4, 5, "one tied") == pytest.approx(1 / 32)
    with pytest.raises(ValueError, match="configuration"):
        exact(4, 5, "none tied")


def test_every_round_runs_each_case_with_the_paper_s_k_and_agrees_with_the_exact_values() -> None:
    P = small("distributed-mle", replications=400)
    table = chapter.every_round(P, chapter.instance(P))
    cases = [(r["n_states"], r["configuration"], r["K"]) for r in table.records]
    assert cases == [(2, "all tied", 3), (3, "all tied", 4), (3, "one tied", 4), (4, "all tied", 5),
                     (4, "one tied", 5)]  # fmt: skip
    assert table.replications == mle_gm_every_round.FACTOR * 400 and table.failing_states() == [2, 3]
    assert all(_consistent(r, "type1", r["type1_exact"]) for r in table.records)  # 99.9 % intervals
    assert table.at(2)["configuration"] == "all tied" and table.at(3)["type1_exact"] == pytest.approx(0.0625)
    assert list(table.tables()) == ["gm_every_round"] and list(table.table["above α"]) == [
        "yes",
        "no",
        "yes",
        "no",
        "no",
    ]
    assert every_round_cases(table)[0][0] == "won every round, |Θ| = 2, all tied, K = 3"
    assert table.rows == table.records and table.metrics() == {}


def test_the_chapter_s_own_states_join_the_table_and_the_cost_grows_with_them() -> None:
    values = dict(small("distributed-mle", n_states=6))
    assert (6, "one tied") in mle_gm_every_round._cases(6) and len(mle_gm_every_round._cases(4)) == 5
    cost, bigger = mle_gm_every_round.cost(dict(small("distributed-mle"))), mle_gm_every_round.cost(values)
    assert 0 < cost.seconds < bigger.seconds and cost.peak > 0 and cost.kept == 0
