"""The book's table ``cor44_feasibility``: when Corollary 4.4's exact recovery is possible.

Corollary 4.4 needs ``p₂ > p₁``; the table gives ``p₁``, ``p₂`` and the condition for every
``|Θ*| < |Θ|`` up to ``max_states``, beside paper 003's clause ``any f* when |Θ| ≤ 4`` (which fails at
``|Θ| = 4``, ``|Θ*| = 2`` even with the paper's constants), and the condition with the corrected win
probabilities (:func:`~dpnet.inference.rounds.win_probabilities_corrected`), under which it never holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from dpnet import inference as inf
from dpnet.inference.rounds import win_probabilities_corrected
from dpnet.params import Cost
from dpnet.results import Check, Deviation

__all__ = ["ExactRecovery", "cost", "exact_recovery"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: two win probabilities per (``|Θ|``, ``|Θ*|``)."""
    return Cost()


@dataclass(frozen=True)
class ExactRecovery:
    """Corollary 4.4's condition ``p₂ > p₁`` for every ``|Θ*| < |Θ|`` up to ``max_states``, with the paper's
    win probabilities and with the corrected ones."""

    table: pd.DataFrame

    #: The book's own table: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def counterexamples(self) -> pd.DataFrame:
        """The (``|Θ|``, ``|Θ*|``) with ``|Θ|`` ≤ 4 where the condition fails, against the paper's clause."""
        t = self.table
        return t[t["paper: any f* when |Θ| ≤ 4"] & ~t["feasible (p₂ > p₁)"]]

    @property
    def clause_cases(self) -> pd.DataFrame:
        """The rows the paper's clause speaks of (``|Θ| ≤ 4``)."""
        return self.table[self.table["paper: any f* when |Θ| ≤ 4"]]

    @staticmethod
    def boundaries(n_states: int) -> tuple[float, float]:
        """The densities f* between which exact recovery is infeasible, for ``|Θ|`` > 4."""
        return inf.exact_recovery_boundaries(n_states)

    def metrics(self) -> dict[str, Any]:
        """The counterexamples, under their metrics.json name."""
        return {"cor44_counterexamples": self.counterexamples[["|Θ|", "|Θ*|"]].to_dict(orient="records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"cor44_feasibility": self.table}


def exact_recovery(max_states: int = 6) -> ExactRecovery:
    """``p₁``, ``p₂`` and feasibility for ``|Θ| = 2, …, max_states``, beside the paper's ``|Θ| ≤ 4``
    clause."""
    rows = []
    for m in range(2, max_states + 1):
        for s in range(1, m):
            p1, p2 = inf.win_probabilities(m, s)
            q1, q2 = win_probabilities_corrected(m, s)
            rows.append((m, s, s / m, p1, p2, inf.exact_recovery_feasible(m, s), m <= 4, q1, q2, q2 > q1))
    columns = ["|Θ|", "|Θ*|", "f*", "p₁", "p₂", "feasible (p₂ > p₁)", "paper: any f* when |Θ| ≤ 4",
               "corrected p₁", "corrected p₂", "feasible, corrected"]  # fmt: skip
    return ExactRecovery(pd.DataFrame(rows, columns=columns))
