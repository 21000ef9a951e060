"""Paper 003, Theorem 4.2 (chapter distributed-mle): its checks against the ε sweep, shown to pass, to
fail and (with no budget) to be undecided."""

from __future__ import annotations

import dataclasses

import pytest
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_thm4_2
from dpnet.params import Cost


@pytest.fixture(scope="module")
def eps() -> chapter.EpsSweep:
    P = small("distributed-mle")
    return chapter.eps_sweep(P, chapter.instance(P))


def test_theorem_4_2_checks_gm_and_am_with_its_own_schedule(eps: chapter.EpsSweep) -> None:
    v = chapter.theorem_4_2(small("distributed-mle"), eps)
    assert [c.name for c in v.checks["p003-thm4-2"]] == ["gm-type1", "am-type2", "promise"]
    assert v.check("gm-type1").passed is False and v.check("promise").passed is False
    assert "2α = 0.1" in v.check("gm-type1").claim and p003_thm4_2.cost({}) == Cost()


def test_theorem_4_2_passes_within_loose_targets_and_is_undecided_without_a_budget(eps) -> None:
    loose = chapter.theorem_4_2(small("distributed-mle", alpha=0.45, beta=0.55), eps)
    assert loose.check("promise").passed is True
    empty = dataclasses.replace(eps, records={**eps.records, "gm-thm42": [], "am-thm42": []})
    v = chapter.theorem_4_2(small("distributed-mle"), empty)
    assert [c.passed for c in v.checks["p003-thm4-2"]] == [None, None, None]
