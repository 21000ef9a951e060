"""Paper 003, Corollary 4.4 (exact recovery with a single threshold): its checks.

When ``p₂ > p₁``, one threshold ``(1 − π₂)p₂`` and ``K ≥ max{log(|Θ|/α)/(2π₁²), log(|Θ|/(1−β))/(2π₂²)}``
rounds recover Θ* exactly with probability at least ``β − α`` as ``T → ∞``; the corollary says
``p₂ > p₁`` holds for any density of maximum-likelihood states when ``|Θ| ≤ 4``. The checks
(:func:`corollary_4_4`): ``exact`` (the headline: the recovery probability of the gap sweep is at least
``β − α`` at every gap) and ``clause`` (the condition ``p₂ > p₁``, computed with the paper's ``p₁``,
``p₂``, holds wherever the clause says it does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters.distributed_mle._common import Verdict, _cases
from dpnet.chapters.distributed_mle.cor44_feasibility import ExactRecovery
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.params import Cost, Parameters
from dpnet.reference import complexity
from dpnet.reference._check import every
from dpnet.results import Check

__all__ = ["ITEM", "corollary_4_4", "cost"]

#: The item's key.
ITEM = "p003-cor4-4"


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the gap sweep's records and the feasibility table."""
    return Cost()


def _clause(recovery: ExactRecovery) -> Check:
    rows = recovery.clause_cases
    wrong = rows[~rows["feasible (p₂ > p₁)"]]
    shown = ", ".join(f"(|Θ|, |Θ*|) = ({m}, {s})" for m, s in zip(wrong["|Θ|"], wrong["|Θ*|"], strict=True))
    return Check(
        "Corollary 4.4: with the paper's p₁ = 1 − 1/|Θ*| and p₂ = 1/|Θ̄|, the condition p₂ > p₁ holds for "
        "every density f* when |Θ| ≤ 4",
        every(rows["feasible (p₂ > p₁)"]),
        f"it fails at {shown}" if shown else f"it holds in all {len(rows)} cases with |Θ| ≤ 4", "clause",
    )  # fmt: skip


def corollary_4_4(P: Parameters, gap: GapSweep, recovery: ExactRecovery) -> Verdict:
    """Corollary 4.4's checks: exact recovery at every gap of the gap sweep, and its clause on ``|Θ| ≤ 4``."""
    target = P.beta - P.alpha
    exact = complexity.bound_check(
        f"Corollary 4.4: one threshold with K = {gap.cor44.K} rounds recovers Θ* exactly with probability at "
        f"least β − α = {target:.3g} at every gap (T → ∞)",
        _cases(gap.records["cor44"], "exact", "gap sweep"), target, "exact", at_least=True,
    )  # fmt: skip
    return Verdict({ITEM: [exact, _clause(recovery)]})
