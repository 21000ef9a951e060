"""The numbers of the exercise ex-mle-floor (chapter distributed-mle): AM's rounds at zero gap."""

from __future__ import annotations

import pytest

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import ex_mle_floor
from dpnet.params import Cost


def test_ex_mle_floor_exact_rounds_meet_the_target_and_the_paper_s_do_not() -> None:
    ex = chapter.rounds_exercise(resolve("distributed-mle", {}))
    assert ex.n_states == 6 and ex.miss == pytest.approx(0.05)
    assert (1 - 1 / 6) ** ex.rounded("exact") <= ex.miss < (1 - 1 / 6) ** (ex.rounded("exact") - 1)
    assert ex.rounded("paper") < ex.rounded("exact") <= ex.rounded("corrected")
    assert ex.paper_miss > ex.miss
    assert ex_mle_floor.cost({}) == Cost()
