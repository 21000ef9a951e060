"""Paper 000, Theorem 3.3 (asymptotic guarantees of the two-threshold rule): its checks.

The earlier version states paper 003's Theorem 4.3 with the same constants (``p₁ = 1 − 1/|Θ*|``,
``p₂ = 1/|Θ̄|``, ``K ≥ log(|Θ̄|/η₁)/(2π₁²)`` and ``log(|Θ*|/η₂)/(2π₂²)``), its error targets written
``η₁ = α`` and ``η₂ = 1 − β``. The same cases test it (:func:`theorem_3_3`, with
:func:`~dpnet.chapters.distributed_mle.p003_thm4_3.threshold_checks`): ``thres1-type1``,
``thres2-type2`` and the headline ``promise``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters.distributed_mle._common import Verdict
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.chapters.distributed_mle.p003_thm4_3 import threshold_checks
from dpnet.params import Cost, Parameters

__all__ = ["ITEM", "cost", "theorem_3_3"]

#: The item's key.
ITEM = "p000-thm3-3"


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the records of the sweeps (their cost is the sweeps')."""
    return Cost()


def theorem_3_3(P: Parameters, eps: EpsSweep, gap: GapSweep) -> Verdict:
    """Theorem 3.3's checks, with ``η₁ = α`` and ``η₂ = 1 − β``, on the ε and gap sweeps."""
    theorem = "Paper 000, Theorem 3.3 (η₁ = α, η₂ = 1 − β)"
    return Verdict({ITEM: threshold_checks(eps, gap, P.alpha, P.beta, theorem=theorem)})
