"""The book's table rounds_iterations (chapter distributed-mle): every schedule at every ε, and the table
the chapter shows (schedules × ε)."""

from __future__ import annotations

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import rounds_iterations
from dpnet.params import Cost


def test_rounds_iterations_long_and_shown_tables() -> None:
    P = resolve("distributed-mle", {"eps_values": [0.5, 5.0]})
    plans = chapter.schedules(P, chapter.instance(P))
    frame = plans.frame
    assert list(plans.tables()) == ["rounds_iterations"] and len(frame) == 2 * frame["schedule"].nunique()
    shown = plans.table
    assert shown.index.name == "K / T" and list(shown.columns) == ["ε = 0.5", "ε = 5"]
    assert shown.loc["Thm 4.1 (T → ∞)"].str.endswith("/ ∞").all()
    assert plans.kt("authors' code", 0.5) > 0 and rounds_iterations.cost({}) == Cost()
