"""Chapter 8, the agents' problems: the 1-D quadratics and the 2-D logistic records every experiment
after E0 works on, their graph and its weights (the book's setup; it records no item)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.params import Cost, Parameters

__all__ = ["RECORDS_2D", "Setup", "cost", "problems"]

#: The 2-D problem: records per agent (note-fp-problems).
RECORDS_2D = 10


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: drawing the problems is part of the chapter's fixed seconds."""
    return Cost()


@dataclass(frozen=True)
class Setup:
    """The agents' two problems (drawn from ``data_seed``), their graph and its weights."""

    quadratic: fp.Problem
    logistic: fp.Problem
    graph: nx.Graph
    W: NDArray[np.float64]


def problems(P: Parameters) -> Setup:
    """The 1-D quadratics, then the 2-D logistic records, from one generator seeded by ``data_seed``."""
    data = np.random.default_rng(P.data_seed)
    quad = fp.quadratic_problem(P.n_agents, P.basis_order, data)
    logit = fp.logistic_problem(P.n_agents, RECORDS_2D, P.degree_2d, data)
    graph = fp.chorded_ring(P.n_agents)
    return Setup(quad, logit, graph, fp.lazy_metropolis(graph))
