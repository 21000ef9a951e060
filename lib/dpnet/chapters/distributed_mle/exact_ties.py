"""The book's table ``ties``: Alg 4 on two states tied exactly in Λ, on four graph families.

Paper 003 states that Alg 4 converges to the uniform belief on Θ*; for exactly tied states that needs
more than a connected graph. The table gives each graph's λ₂(A) and the agents' beliefs on the first
tied state after ``iterations`` iterations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from dpnet import inference as inf
from dpnet import networks
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["Ties", "cost", "ties"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: ``iterations`` non-private iterations on four graphs of n ≤ 50 agents."""
    return Cost()


@dataclass(frozen=True)
class Ties:
    """Alg 4 on two states tied exactly in Λ (with different local terms), on four graph families."""

    iterations: int
    table: pd.DataFrame

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def kept_on(self) -> list[str]:
        """The graphs on which every agent ends at 1/2 on each tied state (to 1e−3)."""
        rows = self.table.itertuples(index=False)
        return [r[0] for r in rows if abs(r[2] - 0.5) < 1e-3 and abs(r[3] - 0.5) < 1e-3]

    @property
    def kept(self) -> str:
        """:attr:`kept_on` as a list for the prose ("none" when empty)."""
        return ", ".join(self.kept_on) or "none"

    @property
    def broken(self) -> str:
        """The other graphs, as a list for the prose ("none" when empty)."""
        return ", ".join(g for g in self.table["graph"] if g not in self.kept_on) or "none"

    def metrics(self) -> dict[str, Any]:
        """The table, under its metrics.json name."""
        return {"ties": self.table.to_dict(orient="records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ties": self.table}


def ties(P: Parameters) -> Ties:
    """The beliefs on the first tied state after ``iterations`` iterations, on each graph family."""
    n, T = P.n_agents, P.iterations
    table = np.zeros((n, 3))
    local = np.resize([1.0, -1.0], n)
    local[-1] -= local.sum()  # the two first states tie exactly in Λ, with different local terms
    table[:, 1], table[:, 2] = local, -5.0
    rows = []
    for kind in ("complete", "cycle", "path", "star"):
        W = networks.metropolis_hastings(networks.make_graph(kind, n))
        beliefs = np.exp(inf.nonprivate_log_beliefs(table, W, T))
        rows.append((kind, networks.spectral_constants(W).lambda_2, beliefs[:, 0].min(), beliefs[:, 0].max()))
    columns = ["graph", "λ₂(A)", "min_i μ_i,T(θ₁)", "max_i μ_i,T(θ₁)"]
    return Ties(T, pd.DataFrame(rows, columns=columns))
