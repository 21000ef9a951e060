"""Paper 003, Theorem 4.2 (finite-T guarantees of AM and GM): its checks against the ε sweep.

With Theorem 4.1's K, ``T`` above the theorem's bound and the optimal log-belief thresholds ϱ*, GM's
Type I error is at most ``2α`` and AM's Type II error at most ``2(1 − β)``. The ε sweep runs exactly
that schedule (:func:`~dpnet.inference.schedules.schedule_thm42`) at every budget on the instance; the
checks (:func:`theorem_4_2`) are ``gm-type1``, ``am-type2`` and the headline ``promise`` that joins
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters.distributed_mle._common import Verdict, _cases
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.params import Cost, Parameters
from dpnet.reference import complexity

__all__ = ["ITEM", "cost", "theorem_4_2"]

#: The item's key.
ITEM = "p003-thm4-2"


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the records of the ε sweep (its cost is the sweep's)."""
    return Cost()


def theorem_4_2(P: Parameters, eps: EpsSweep) -> Verdict:
    """Theorem 4.2's checks: GM's Type I and AM's Type II errors of its schedule at every budget."""
    alpha, miss = P.alpha, 1 - P.beta
    checks = [
        complexity.bound_check(
            f"Theorem 4.2: GM's Type I error with the theorem's K, T and ϱ*_GM is at most "
            f"2α = {2 * alpha:.3g} at every budget",
            _cases(eps.records["gm-thm42"], "type1", "ε sweep"), 2 * alpha, "gm-type1",
        ),
        complexity.bound_check(
            f"Theorem 4.2: AM's Type II error with the theorem's K, T and ϱ*_AM is at most 2(1 − β) = "
            f"{2 * miss:.3g} at every budget", _cases(eps.records["am-thm42"], "type2", "ε sweep"), 2 * miss,
            "am-type2",
        ),
    ]  # fmt: skip
    headline = complexity.all_hold("Theorem 4.2: both bounds hold at every budget", checks, "promise")
    return Verdict({ITEM: [*checks, headline]})
