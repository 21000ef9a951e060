"""The book's table cor44_feasibility (chapter distributed-mle): when Corollary 4.4's exact recovery is
possible, and the boundaries of the infeasible densities (identities that hold by construction: unit
tests, not checks of the report)."""

from __future__ import annotations

import numpy as np

from dpnet import inference as inf
from dpnet import reference
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import cor44_feasibility
from dpnet.params import Cost


def test_exact_recovery_boundaries_and_feasibility_agree() -> None:
    tol = reference.complexity.SPECTRAL_TOLERANCE
    for m, (lo, hi) in reference.complexity.EXACT_RECOVERY_BOUNDARIES.items():
        assert np.allclose(inf.exact_recovery_boundaries(m), (lo, hi), rtol=0, atol=tol)
        assert not np.allclose(inf.exact_recovery_boundaries(m), (lo + 1e-4, hi), rtol=0, atol=tol)
        # an independent route: the feasibility test p₂ > p₁ changes exactly at the boundaries
        feasible = [inf.exact_recovery_feasible(m, s) for s in range(1, m)]
        assert feasible == [not lo < s / m < hi for s in range(1, m)]


def test_with_the_corrected_win_probabilities_exact_recovery_is_never_feasible() -> None:
    """ex-mle-cor44: p₁ = s/(s + 1) ≥ 1/2 ≥ 1/m = p₂ for every 1 ≤ s < m."""
    table = chapter.exact_recovery(max_states=12).table
    assert not table["feasible, corrected"].any() and table["feasible (p₂ > p₁)"].any()
    assert (table["corrected p₁"] >= 0.5).all() and (table["corrected p₂"] <= 0.5).all()
    assert list(chapter.exact_recovery().clause_cases["|Θ|"].unique()) == [2, 3, 4]


def test_cor44_feasibility_finds_the_counterexample_to_the_paper_s_clause() -> None:
    recovery = chapter.exact_recovery()
    assert len(recovery.table) == sum(range(1, 6)) and list(recovery.tables()) == ["cor44_feasibility"]
    assert recovery.metrics() == {"cor44_counterexamples": [{"|Θ|": 4, "|Θ*|": 2}]}
    assert recovery.boundaries(5) == inf.exact_recovery_boundaries(5)
    assert cor44_feasibility.cost({}) == Cost()
