"""Paper 000, Theorem 3.1 (asymptotic guarantees of the AM and GM estimators): its checks.

The earlier version states paper 003's Theorem 4.1 with the same constants, its error targets written
``η₁ = α`` and ``η₂ = 1 − β``: ``K ≥ |Θ̄| log(|Θ*|/η₂)`` for AM and ``K ≥ |Θ*| log(|Θ̄|/η₁)`` for GM.
The same cases test it (:func:`theorem_3_1`, with
:func:`~dpnet.chapters.distributed_mle.p003_thm4_1.amgm_checks`; its proof in App. A bounds the same
estimator as paper 003's, a state that wins every round): ``am-type2``, GM's bound under each reading
(``gm-type1-eq13``, ``gm-type1-every-round``), the GM statement ``gm-type1`` and the headline
``promise``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters.distributed_mle._common import Verdict, _cases
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.chapters.distributed_mle.mle_gm_every_round import EveryRound
from dpnet.chapters.distributed_mle.p003_thm4_1 import amgm_checks, every_round_cases
from dpnet.params import Cost, Parameters

__all__ = ["ITEM", "cost", "theorem_3_1"]

#: The item's key.
ITEM = "p000-thm3-1"


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the records of the sweeps (their cost is the sweeps')."""
    return Cost()


def theorem_3_1(P: Parameters, eps: EpsSweep, gap: GapSweep, every_round: EveryRound) -> Verdict:
    """Theorem 3.1's checks, with ``η₁ = α`` and ``η₂ = 1 − β``, on the ε and gap sweeps and the proof's
    estimator."""
    am = [
        *_cases(eps.records["am"], "type2", "ε sweep"),
        *_cases(gap.records["AM, paper"], "type2", "gap sweep"),
    ]
    gm = [
        *_cases(eps.records["gm"], "type1", "ε sweep"),
        *_cases(gap.records["GM, paper"], "type1", "gap sweep"),
    ]
    theorem = "Paper 000, Theorem 3.1 (η₁ = α, η₂ = 1 − β)"
    every = every_round_cases(every_round)
    return Verdict({ITEM: amgm_checks(am, gm, every, P.alpha, P.beta, theorem=theorem)})
