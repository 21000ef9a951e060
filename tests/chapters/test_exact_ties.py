"""The book's table ties (chapter distributed-mle): exact ties are kept only where λ₂(A) < 0."""

from __future__ import annotations

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import exact_ties
from dpnet.params import Cost


def test_ties_are_kept_exactly_where_lambda_2_is_negative() -> None:
    """With n_agents = 3 this is the exercise ex-mle-ties-three: kept on complete and cycle, broken on path
    and star, as its solution predicts."""
    for n, kept in ((5, "complete"), (3, "complete, cycle")):
        tie = chapter.ties(resolve("distributed-mle", {"n_agents": n}))
        assert tie.kept == kept
        negative = tie.table[tie.table["λ₂(A)"] < 0]["graph"]
        assert ", ".join(negative) == kept


def test_ties_record_their_table_and_cost_nothing() -> None:
    tie = chapter.ties(resolve("distributed-mle", {}))
    assert list(tie.tables()) == ["ties"] and tie.metrics()["ties"] == tie.table.to_dict(orient="records")
    assert tie.broken == "cycle, path, star" and exact_ties.cost({}) == Cost()
