"""The book's table ``constants_paper_corrected``: every constant of Theorems 4.1 and 4.3, as the paper
states it, as the book corrects it, and which one each experiment of the chapter runs.

The paper's win probabilities (``p₂ = 1/|Θ̄|`` for a maximum-likelihood state, ``p₁ = 1 − 1/|Θ*|`` for
the others), the round counts built on them, the two-threshold rule's thresholds (``τ¹`` floored at
``1/K`` when the paper's is 0) and its rounds with and without Hoeffding's factor ``p²``, on the
instance, in one place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from dpnet import inference as inf
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.inference.rounds import rounds_thres_hoeffding, win_probabilities_corrected
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["Constants", "constants", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: a few round counts and thresholds."""
    return Cost()


@dataclass(frozen=True)
class Constants:
    """The constants of Theorems 4.1 and 4.3 on the instance: the paper's, the corrected, the run.

    Attributes
    ----------
    table
        One row per constant: where it appears, the paper's formula and value, the corrected formula
        and value, and which the chapter runs.
    k2_paper_p2
        Theorem 4.3's ``K²`` with Hoeffding's factor but the paper's ``p₂ = 1/|Θ̄|``.
    """

    table: pd.DataFrame
    k2_paper_p2: float

    #: The book's own table: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def k2_paper_p2_rounds(self) -> int:
        """``k2_paper_p2`` rounded up: the rounds it asks for."""
        return inf.to_int_ceil(self.k2_paper_p2, minimum=1)

    def value(self, constant: str, which: str = "paper") -> float:
        """The paper's (``which="paper"``) or the corrected (``"corrected"``) value of ``constant``."""
        row = self.table.set_index("constant").loc[constant]
        return float(row["paper's value" if which == "paper" else "corrected value"])

    def metrics(self) -> dict[str, Any]:
        """None: the table is written to ``tables/``."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table, written to ``tables/``."""
        return {"constants_paper_corrected": self.table}


def constants(P: Parameters, inst: Instance) -> Constants:
    """The paper's and the corrected constants of Theorems 4.1 and 4.3 for the instance's ``|Θ|`` and
    ``|Θ*|``, with the chapter's α, β and π."""
    m, s, alpha, beta, pi = inst.n_states, inst.problem.n_mle, P.alpha, P.beta, P.pi
    p1, p2 = inf.win_probabilities(m, s)
    q1, q2 = win_probabilities_corrected(m, s)
    k1, k2 = inf.rounds_thres(m, s, alpha, beta, pi, pi)
    h1, h2 = rounds_thres_hoeffding(m, s, alpha, beta, pi, pi, q1, q2)
    K43, Kc = inf.to_int_ceil(max(k1, k2), minimum=1), inf.to_int_ceil(max(h1, h2), minimum=1)
    tau1 = inf.frequency_thresholds((1 + pi) * p1, (1 - pi) * p2, K43)[0]
    rows = [
        ("p₂, an MLE state's win probability per round", "Thms 4.1 (AM), 4.3", "1/|Θ̄|", p2, "1/|Θ|", q2,
         "the paper's; both in the gap sweep (AM)"),
        ("p₁, a bound on another state's", "Thms 4.1 (GM), 4.3", "1 − 1/|Θ*|", p1, "1 − 1/(|Θ*| + 1)", q1,
         "the paper's; both in the gap sweep (GM, Θ̂¹)"),
        ("K_AM", "Thm 4.1", "|Θ̄| log(|Θ*|/(1 − β))", inf.rounds_am(m, s, beta), "|Θ| log(|Θ*|/(1 − β))",
         inf.rounds_am(m, s, beta, corrected=True), "the paper's; both in the gap sweep"),
        ("K_GM", "Thm 4.1", "|Θ*| log(|Θ̄|/α)", inf.rounds_gm(m, s, alpha), "(|Θ*| + 1) log(|Θ̄|/α)",
         inf.rounds_gm(m, s, alpha, corrected=True), "the paper's; both in the gap sweep"),
        ("τ¹, threshold of Θ̂¹", "Thm 4.3", "(1 + π₁)p₁", (1 + pi) * p1, "(1 + π₁)p₁, corrected p₁",
         (1 + pi) * q1, f"the paper's, floored at 1/K: {tau1:.3g} (one won round)"),
        ("τ², threshold of Θ̂²", "Thm 4.3", "(1 − π₂)p₂", (1 - pi) * p2, "(1 − π₂)p₂, corrected p₂",
         (1 - pi) * q2, "the paper's; the corrected one in the gap sweep"),
        ("K¹, rounds of Θ̂¹", "Thm 4.3", "log(|Θ̄|/α)/(2π₁²)", k1, "log(|Θ̄|/α)/(2π₁²p₁²)", h1,
         "the paper's; the corrected one in the gap sweep"),
        ("K², rounds of Θ̂²", "Thm 4.3", "log(|Θ*|/(1 − β))/(2π₂²)", k2, "log(|Θ*|/(1 − β))/(2π₂²p₂²)", h2,
         "the paper's; the corrected one in the gap sweep"),
        ("K of Alg 2", "Thm 4.3", "⌈max(K¹, K²)⌉", float(K43), "⌈max(K¹, K²)⌉", float(Kc),
         "the paper's; the corrected one in the gap sweep"),
    ]  # fmt: skip
    columns = [
        "constant",
        "where",
        "paper",
        "paper's value",
        "corrected",
        "corrected value",
        "the chapter runs",
    ]
    table = pd.DataFrame(rows, columns=columns)
    table["corrected value"] = [v if math.isfinite(v) else math.nan for v in table["corrected value"]]
    return Constants(table, rounds_thres_hoeffding(m, s, alpha, beta, pi, pi, q1, p2)[1])
