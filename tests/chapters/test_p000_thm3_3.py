"""Paper 000, Theorem 3.3 (chapter distributed-mle): the same bounds as paper 003's Theorem 4.3, decided by
the same cases."""

from __future__ import annotations

from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p000_thm3_3
from dpnet.params import Cost


def test_theorem_3_3_is_decided_by_the_cases_of_theorem_4_3() -> None:
    P = small("distributed-mle")
    inst = chapter.instance(P)
    eps, gap = chapter.eps_sweep(P, inst), chapter.gap_sweep(P, inst)
    checks = chapter.theorem_3_3(P, eps, gap).checks["p000-thm3-3"]
    assert [c.name for c in checks] == ["thres1-type1", "thres2-type2", "promise"]
    theorem_4_3 = chapter.theorem_4_3(P, eps, gap)
    for c in checks:
        assert (c.passed, c.detail) == (theorem_4_3.check(c.name).passed, theorem_4_3.check(c.name).detail)
    assert p000_thm3_3.cost({}) == Cost()
