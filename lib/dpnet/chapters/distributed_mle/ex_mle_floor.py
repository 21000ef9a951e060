"""The numbers of the exercise ``ex-mle-floor``: AM's rounds at zero gap, exact, corrected and the paper's.

With ``|Θ*| = 1`` the maximum-likelihood state wins each round with probability ``1/|Θ|`` at zero
gap; the exercise compares the rounds that make it miss with probability at most ``1 − β`` with the
paper's and the corrected round counts of Theorem 4.1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dpnet import inference as inf
from dpnet.params import Cost, Parameters

__all__ = ["RoundsExercise", "cost", "rounds_exercise"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible."""
    return Cost()


@dataclass(frozen=True)
class RoundsExercise:
    """AM's rounds at zero gap for ``n_states`` states: exact, corrected and the paper's count.

    Attributes
    ----------
    n_states, miss
        ``|Θ|`` and the target miss probability 1 − β.
    exact
        ``log(1 − β)/log(1 − 1/|Θ|)``: the rounds that make ``(1 − 1/|Θ|)^K ≤ 1 − β``.
    corrected, paper
        ``|Θ| log(1/(1 − β))`` and ``|Θ̄| log(1/(1 − β))`` (``|Θ*| = 1``).
    """

    n_states: int
    miss: float
    exact: float
    corrected: float
    paper: float

    def rounded(self, which: str) -> int:
        """``exact``, ``corrected`` or ``paper``, rounded up."""
        return inf.to_int_ceil(getattr(self, which), minimum=1)

    @property
    def paper_miss(self) -> float:
        """The probability that θ* never wins in the paper's (rounded) number of rounds."""
        return (1 - 1 / self.n_states) ** self.rounded("paper")


def rounds_exercise(P: Parameters, n_states: int = 6) -> RoundsExercise:
    """The numbers of the first exercise, at the chapter's β."""
    miss = 1 - P.beta
    return RoundsExercise(
        n_states,
        miss,
        math.log(miss) / math.log(1 - 1 / n_states),  # (1 − 1/|Θ|)^K ≤ 1 − β
        inf.rounds_am(n_states, 1, P.beta, corrected=True),
        inf.rounds_am(n_states, 1, P.beta),
    )
