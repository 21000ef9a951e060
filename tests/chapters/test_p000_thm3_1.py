"""Paper 000, Theorem 3.1 (chapter distributed-mle): the same bounds as paper 003's Theorem 4.1, decided by
the same cases."""

from __future__ import annotations

from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p000_thm3_1
from dpnet.params import Cost


def test_theorem_3_1_is_decided_by_the_cases_of_theorem_4_1() -> None:
    P = small("distributed-mle")
    inst = chapter.instance(P)
    eps, gap = chapter.eps_sweep(P, inst), chapter.gap_sweep(P, inst)
    every = chapter.every_round(P, inst)
    v = chapter.theorem_3_1(P, eps, gap, every)
    checks = v.checks["p000-thm3-1"]
    names = ["am-type2", "gm-type1-eq13", "gm-type1-every-round", "gm-type1", "promise"]
    assert [c.name for c in checks] == names and "η₁ = α" in checks[0].claim
    ks = chapter.k_sweep(P, inst, eps.freq43)
    theorem_4_1 = chapter.theorem_4_1(P, eps, gap, ks, chapter.win_floor(P, inst, gap.rounds), every)
    for c in checks:
        assert (c.passed, c.detail) == (theorem_4_1.check(c.name).passed, theorem_4_1.check(c.name).detail)
    assert p000_thm3_1.cost({}) == Cost()
