r"""The two networks and signal sets of paper 001's experiments (§5.1).

* **US power grid** (:func:`us_power_grid`): the Western US power-grid graph of Watts and Strogatz
  (4941 nodes, 6594 edges), read from the registry (``dpnet.data.fetch("us_power_grid")``), with the
  paper's synthetic signals ``s_{i,t} ~ LogNormal(10, 1)`` for ``T = 100`` rounds.
* **German households** (:func:`german_households`): a random geometric graph
  ``random_geometric_graph(969, 0.1, seed=0)`` (13 236 edges under networkx ≥ 3) carrying one
  household per node. The paper calls these signals real, but the authors' preprocessing
  (``plot_consumption.py``) replaced every daily reading by an i.i.d. draw with
  ``log s ~ N(1.67, 1.04²)`` before any experiment, so the published "real-world" signals were
  synthetic. The stand-in here is generated the same way: 969 households × 1096 days.

Signals enter the algorithms through the sufficient statistic ``ξ(s) = log s``; the target is the
log-normal location ``μ`` (``EstimationData.theta``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import networkx as nx
import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from dpnet.errors import DataError, ParameterError
from dpnet.networks import metropolis_hastings

__all__ = [
    "DATASETS",
    "DatasetName",
    "EstimationData",
    "german_households",
    "load_dataset",
    "lognormal_fit",
    "read_dl_edgelist",
    "us_power_grid",
]

#: The names of paper 001's two datasets.
DatasetName = Literal["us_power_grid", "german_households"]
#: The dataset names, in the order of :data:`~dpnet.estimation.datasets.DatasetName`.
DATASETS: tuple[str, ...] = get_args(DatasetName)

#: Published sizes and signal laws: (n, m, T, μ, σ).
US_GRID = {"n": 4941, "m": 6594, "horizon": 100, "mu": 10.0, "sigma": 1.0}
GERMAN = {"n": 969, "radius": 0.1, "graph_seed": 0, "horizon": 1096, "mu": 1.67, "sigma": 1.04}


@dataclass(frozen=True)
class EstimationData:
    """A network with its Metropolis–Hastings weights and an ``n × T`` array of signals.

    Attributes
    ----------
    name
        ``"us_power_grid"`` or ``"german_households"``.
    label
        Human-readable name for plots and tables.
    graph
        The network, nodes ``0..n−1`` (row ``i`` of the signals belongs to node ``i``).
    weights
        Metropolis–Hastings weights ``A`` (sparse CSR, ``n × n``).
    signals
        Positive signals ``s_{i,t}``, shape ``(n, T)``.
    theta
        The log-normal location ``μ = E[log s]`` that the agents estimate (``m_θ`` of the theorems).
    sigma
        The log-normal shape: ``Var[log s] = σ²``.
    positions
        Node coordinates when the graph is geometric (``None`` otherwise).
    """

    name: str
    label: str
    graph: nx.Graph
    weights: sparse.csr_array
    signals: NDArray[np.float64]
    theta: float
    sigma: float
    positions: NDArray[np.float64] | None = None

    @property
    def n(self) -> int:
        """Number of agents."""
        return int(self.signals.shape[0])

    @property
    def horizon(self) -> int:
        """Number of rounds ``T`` with signals."""
        return int(self.signals.shape[1])

    @functools.cached_property
    def xi(self) -> NDArray[np.float64]:
        """Sufficient statistics ``ξ(s_{i,t}) = log s_{i,t}``, shape ``(n, T)``: computed once, read-only."""
        xi = np.log(self.signals)
        xi.flags.writeable = False
        return xi


def read_dl_edgelist(path: str | Path) -> nx.Graph:
    """Read a UCINET ``dl`` edge list (``format=edgelist1``) into an undirected graph.

    The file starts with a header (``dl``, ``n=…``, ``format=edgelist1``, ``data:``) followed by
    ``u v [w]`` rows with 1-indexed nodes, each edge possibly listed in both directions. Nodes are
    relabelled ``0..n−1`` in order of first appearance (as ``networkx.from_pandas_edgelist`` does in
    the authors' loader); weights are ignored. Raises :class:`~dpnet.errors.DataError` if the file is
    malformed or its node count disagrees with the ``n=`` header.
    """
    lines = Path(path).read_text().splitlines()
    try:
        start = next(k for k, line in enumerate(lines) if line.strip().lower().startswith("data:")) + 1
        declared = next(int(line.split("=")[1]) for line in lines[:start] if line.strip().startswith("n="))
    except (StopIteration, ValueError, IndexError):
        raise DataError(
            f"{path}: not a UCINET dl edge list (needs an 'n=…' line and a 'data:' line)"
        ) from None
    try:
        rows = np.array([line.split()[:2] for line in lines[start:] if line.strip()], dtype=np.int64)
    except ValueError:
        rows = np.empty((0, 0))
    if rows.ndim != 2 or rows.shape[0] == 0 or rows.shape[1] != 2:
        raise DataError(f"{path}: every row after 'data:' must start with two integer node ids")
    _, first = np.unique(rows.ravel(), return_index=True)
    order = np.unique(rows.ravel())[np.argsort(first)]
    G = nx.Graph()
    G.add_nodes_from(range(order.size))
    label = {int(node): k for k, node in enumerate(order)}
    G.add_edges_from((label[int(u)], label[int(v)]) for u, v in rows if u != v)
    if G.number_of_nodes() != declared:
        raise DataError(
            f"{path}: the header declares n={declared} nodes but the edges use {G.number_of_nodes()}"
        )
    return G


def lognormal_fit(values: NDArray[np.float64] | list[float]) -> tuple[float, float]:
    """Maximum-likelihood log-normal fit ``(μ, σ)``: the mean and standard deviation of ``log x``."""
    x = np.asarray(values, dtype=float).ravel()
    if x.size < 2 or not np.all(np.isfinite(x) & (x > 0)):
        raise ParameterError("a log-normal fit needs at least two finite positive values")
    logs = np.log(x)
    return float(logs.mean()), float(logs.std())


def _lognormal(
    rng: np.random.Generator, mu: float, sigma: float, shape: tuple[int, int]
) -> NDArray[np.float64]:
    return np.exp(rng.normal(mu, sigma, size=shape))


def _check_horizon(horizon: int | None, default: int) -> int:
    T = default if horizon is None else horizon
    if int(T) != T or T < 1:
        raise ParameterError(f"horizon (rounds with signals) must be an integer ≥ 1 (got {horizon})")
    return int(T)


def us_power_grid(rng: np.random.Generator, horizon: int | None = None) -> EstimationData:
    """The Western US power grid with i.i.d. ``LogNormal(10, 1)`` signals (paper: ``T = 100``).

    Parameters
    ----------
    rng
        Source of the synthetic signals.
    horizon
        Rounds of signals ``T`` (default: the paper's 100).
    """
    from dpnet.data import fetch

    G = read_dl_edgelist(fetch("us_power_grid"))
    if (G.number_of_nodes(), G.number_of_edges()) != (US_GRID["n"], US_GRID["m"]):
        raise DataError(
            f"us_power_grid: expected {US_GRID['n']} nodes and {US_GRID['m']} edges, got "
            f"{G.number_of_nodes()} and {G.number_of_edges()} from the checksummed file"
        )
    T = _check_horizon(horizon, US_GRID["horizon"])
    mu, sigma = US_GRID["mu"], US_GRID["sigma"]
    signals = _lognormal(rng, mu, sigma, (G.number_of_nodes(), T))
    return EstimationData("us_power_grid", "US power grid", G, metropolis_hastings(G), signals, mu, sigma)


def german_households(rng: np.random.Generator, horizon: int | None = None) -> EstimationData:
    """The German-households stand-in: ``log s ~ N(1.67, 1.04²)`` on ``RGG(969, 0.1, seed=0)``.

    Parameters
    ----------
    rng
        Source of the synthetic signals (the authors drew theirs with seed 0).
    horizon
        Days of signals ``T`` (default: the paper's 1096).
    """
    G = nx.random_geometric_graph(GERMAN["n"], GERMAN["radius"], seed=GERMAN["graph_seed"])
    positions = np.array([G.nodes[k]["pos"] for k in range(G.number_of_nodes())], dtype=float)
    T = _check_horizon(horizon, GERMAN["horizon"])
    mu, sigma = GERMAN["mu"], GERMAN["sigma"]
    signals = _lognormal(rng, mu, sigma, (G.number_of_nodes(), T))
    H = nx.Graph()  # the same graph without the position attributes, nodes in order 0..n−1
    H.add_nodes_from(range(G.number_of_nodes()))
    H.add_edges_from(G.edges)
    return EstimationData(
        "german_households", "German households", H, metropolis_hastings(H), signals, mu, sigma, positions
    )


def load_dataset(name: str, rng: np.random.Generator, horizon: int | None = None) -> EstimationData:
    """:func:`us_power_grid` or :func:`german_households` by name."""
    if name == "us_power_grid":
        return us_power_grid(rng, horizon)
    if name == "german_households":
        return german_households(rng, horizon)
    raise ParameterError(f"dataset must be one of {DATASETS} (got {name!r})")
