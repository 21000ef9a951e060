"""The book's table ``lower_bound``: Theorem 13.1's lower bound on K·T, as printed and with the proof's
numerator.

Paper 003's Theorem 13.1 bounds the communication of any belief-exchange test between two states; as
printed its numerator ``|1 − α − β|`` vanishes at ``β = 1 − α``, where the proof's step gives
``(β − α)²``. The table evaluates both, and the §13 remark for randomized response, at every ε of
``eps_values`` on the instance's graph.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import Record
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["LOWER_BOUND_EPS_GAP", "LowerBound", "cost", "lower_bound"]

#: Randomized-response signal gap ε_gap of the lower-bound example (Be(1/2) against Be(1/2 + ε_gap/2)).
LOWER_BOUND_EPS_GAP = 0.2


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: three bounds per ε."""
    return Cost()


@dataclass(frozen=True)
class LowerBound:
    """Theorem 13.1's lower bound on K·T for randomized response, as printed and with the proof's numerator.

    Attributes
    ----------
    eps_gap, diameter, alpha, beta
        The signal gap, the graph's diameter and the targets.
    rows
        Per ε: the bound of Theorem 13.1 and of the §13 remark as printed, and with ``(β − α)²``.
    remark_ratio
        The remark's bound over the theorem's with the remark's divergence bound, both with the same
        numerator (the proof's ``(β − α)²``, which does not vanish at ``β = 1 − α``), at the smallest ε:
        a ratio of the two formulas; ``nan`` when ``β = α``.
    """

    eps_gap: float
    diameter: int
    alpha: float
    beta: float
    rows: list[Record]
    remark_ratio: float

    #: The book's own table: it checks nothing, departs from no paper and has no paper setting
    #: (the typo it shows is a reproduction note).
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def table(self) -> pd.DataFrame:
        """One row per ε."""
        return pd.DataFrame(self.rows)

    def column(self, name: str) -> NDArray[np.float64]:
        """``"printed"``, ``"remark"`` or ``"proof"`` over the ε grid."""
        return self.table.iloc[:, {"printed": 1, "remark": 2, "proof": 3}[name]].to_numpy(dtype=float)

    @property
    def proof_growth(self) -> float:
        """The proof's bound at the smallest ε over the bound at the largest; ``nan`` where it is zero."""
        proof = self.column("proof")
        return proof[0] / proof[-1] if proof[-1] > 0 else math.nan

    def metrics(self) -> dict[str, Any]:
        """The table, under its metrics.json name."""
        return {"lower_bound": {"eps_gap": self.eps_gap, "diameter": self.diameter, "rows": self.rows}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"lower_bound": self.table}


def lower_bound(P: Parameters, inst: Instance, eps_gap: float = LOWER_BOUND_EPS_GAP) -> LowerBound:
    """Theorem 13.1 at every ε of ``eps_values`` on the instance's graph, ``Be(1/2)`` against
    ``Be(1/2 + ε_gap/2)`` signals under randomized response."""
    diam, n, alpha, beta = inst.spectral.diameter, inst.n, P.alpha, P.beta
    e0 = P.eps_values[0]
    theorem = inf.kt_lower_bound(alpha, beta, diam, n * inf.kl_bound_rr(e0, eps_gap), numerator="proof")
    remark = inf.kt_lower_bound_rr(alpha, beta, e0, eps_gap, diam, n, numerator="proof")
    ratio = remark / theorem if theorem > 0 else math.nan
    rows = []
    for e in P.eps_values:
        kl_sum = n * inf.kl_bound_rr(e, eps_gap)
        proof = inf.kt_lower_bound(alpha, beta, diam, kl_sum, numerator="proof")
        rows.append({
            "ε": e,
            "Thm 13.1 as printed": inf.kt_lower_bound(alpha, beta, diam, kl_sum),
            "§13 remark as printed (RR)": inf.kt_lower_bound_rr(alpha, beta, e, eps_gap, diam, n),
            "with (β − α)² (the proof's step)": proof,
        })  # fmt: skip
    return LowerBound(eps_gap, diam, alpha, beta, rows, ratio)
