"""Paper 003, Corollary 4.4 (chapter distributed-mle): exact recovery at every gap, and the clause about
|Θ| ≤ 4, each shown to pass, to fail and (over an empty set of cases) to be undecided."""

from __future__ import annotations

import dataclasses

from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_cor4_4
from dpnet.params import Cost


def test_corollary_4_4_fails_at_small_gaps_and_its_clause_at_four_states() -> None:
    P = small("distributed-mle")
    gap, recovery = chapter.gap_sweep(P, chapter.instance(P)), chapter.exact_recovery()
    v = chapter.corollary_4_4(P, gap, recovery)
    assert [c.name for c in v.checks["p003-cor4-4"]] == ["exact", "clause"]
    assert v.check("exact").passed is False and "below 0.9" in v.check("exact").detail
    assert v.check("clause").passed is False and "(|Θ|, |Θ*|) = (4, 2)" in v.check("clause").detail
    assert p003_cor4_4.cost({}) == Cost()


def test_the_checks_pass_where_the_corollary_holds_and_are_undecided_without_cases() -> None:
    P = small("distributed-mle")
    gap, recovery = chapter.gap_sweep(P, chapter.instance(P)), chapter.exact_recovery()
    perfect = {**gap.records, "cor44": [{**r, "exact_hi": 1.0} for r in gap.records["cor44"]]}
    three = dataclasses.replace(recovery, table=recovery.table[recovery.table["|Θ|"] <= 3])
    v = chapter.corollary_4_4(P, dataclasses.replace(gap, records=perfect), three)
    assert v.check("exact").passed is True and v.check("clause").passed is True
    none = dataclasses.replace(gap, records={**gap.records, "cor44": []})
    nothing = dataclasses.replace(recovery, table=recovery.table[recovery.table["|Θ|"] > 4])
    v = chapter.corollary_4_4(P, none, nothing)
    assert v.check("exact").passed is None and v.check("clause").passed is None
