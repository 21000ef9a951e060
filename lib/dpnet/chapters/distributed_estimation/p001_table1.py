"""Paper 001, Table 1: the exact second moments of Algorithms 3–5 and the bounds of Theorems 3.1, 4.1
and 4.2, against a Monte Carlo study on the book's reference case.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd

from dpnet import estimation as est
from dpnet.chapters.distributed_estimation._common import deviations
from dpnet.networks import metropolis_hastings
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref
from dpnet.results import Check

__all__ = ["MomentStudy", "cost", "moment_study"]

#: Seconds of one run of the exact-moment check (three algorithms), measured on one core.
_MOMENT_SECONDS = 5e-3
#: The check name of each second moment of :func:`dpnet.estimation.moment_study`: the cost of privacy
#: ``‖ν−μ‖²`` and the cost of decentralisation ``‖μ−𝟙m‖²``.
_QUANTITY_NAMES = {"‖ν−μ‖²": "cop", "‖μ−𝟙m‖²": "cod"}


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`moment_study`: ``5·10⁻³·n_mc`` seconds, and a peak of the
    ``5 × (200, 10·n_mc)`` float64 arrays of its runs (at ``n_mc`` = 20 000 the check peaked at
    1.2 GiB, estimate 1.5 GiB)."""
    return Cost(seconds=_MOMENT_SECONDS * values["n_mc"], peak=5 * 8.0 * 200 * 10 * values["n_mc"])


@dataclass(frozen=True)
class MomentStudy:
    """Monte Carlo second moments of Algorithms 3–5 on the reference case, against the exact formulas and
    the bounds of Theorems 3.1, 4.1 and 4.2 (paper Table 1).

    Attributes
    ----------
    case
        The reference case: RGG(n, radius, graph_seed), horizon, σ and the Laplace scale.
    runs
        Monte Carlo runs of Algorithms 4 and 5 (Algorithm 3 gets ten times as many).
    moments
        Exact and Monte Carlo ``E‖ν−μ‖²`` and ``E‖μ−𝟙m‖²`` per algorithm, with their ratio.
    bounds
        The mean total error against each theorem's bound.
    average_gap
        The largest gap between a network average and the running mean of its inputs (an identity of
        the recursions: zero up to rounding).
    """

    case: Mapping[str, float]
    runs: int
    moments: pd.DataFrame
    bounds: pd.DataFrame
    average_gap: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def worst(self) -> float:
        """The largest relative gap between a Monte Carlo moment and its exact formula."""
        return float(np.max(np.abs(self.moments["MC / exact"] - 1)))

    @property
    def slack(self) -> float:
        """The smallest ratio of a theorem's bound to the mean total error it bounds."""
        return float((self.bounds["bound"] / self.bounds["error"]).min())

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return deviations("p001-table1")

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"moments": self.moments, "bounds": self.bounds}


def _algorithm(label: str) -> str:
    """The number of the algorithm a row is about: ``"Algorithm 3 (MVUE)"`` → ``"3"``."""
    found = re.match(r"Algorithm (\d+) ", label)
    if found is None:
        raise ValueError(f"not an algorithm's row: {label!r}")
    return found.group(1)


def moment_study(P: Parameters) -> MomentStudy:
    """The exact-moment check on the reference case, ``n_mc`` runs (stream ``p001-table1``)."""
    case = ref.MOMENT_CASE
    A = metropolis_hastings(nx.random_geometric_graph(case["n"], case["radius"], seed=case["graph_seed"]))
    moments, bounds, gap = est.moment_study(
        A, case["horizon"], sigma=case["sigma"], scale=case["scale"], rng=P.rng("p001-table1"), n_runs=P.n_mc
    )
    moments["MC / exact"] = moments["monte_carlo"] / moments["exact"]
    # each row is named for its algorithm and quantity (alg3-cop, alg3-cod, …, alg5-cod)
    rows = [
        {**r, "name": f"alg{_algorithm(r['algorithm'])}-{_QUANTITY_NAMES[r['quantity']]}"}
        for r in moments.to_dict("records")
    ]
    checks = ref.moment_checks(rows) + ref.bound_checks(bounds.to_dict("records"))
    return MomentStudy(dict(case), P.n_mc, moments, bounds, gap, {"p001-table1": checks})
