r"""Communication networks: Metropolis–Hastings weights and the spectral constants of the theorems.

``n`` agents sit on an undirected, connected graph ``G`` without self-loops. They average with a
symmetric, doubly stochastic weight matrix ``A`` whose pattern is the graph plus the diagonal. The
Metropolis–Hastings construction (paper 003 §3.1, paper 000 §2.1) is

.. math::
   a_{ij} = \frac{1}{\max(d_i, d_j)} \ \text{for } (i, j) \in E, \qquad
   a_{ii} = 1 - \sum_{j \ne i} a_{ij}, \qquad a_{ij} = 0 \ \text{otherwise},

with ``d_i`` the degree of agent ``i`` (:func:`metropolis_hastings`).

The bounds of papers 000 and 003 use the eigenvalues ``1 = λ_1(A) ≥ λ_2(A) ≥ … ≥ λ_n(A) ≥ −1``
(signed, descending) through two second-largest eigenvalue moduli (SLEMs,
:class:`SpectralConstants`):

* ``b* = SLEM(A) = max(|λ_2(A)|, |λ_n(A)|)``: called ``β*_n`` in paper 000, ``b*_n`` in 003;
* ``a* = SLEM((A+I)/2) = max(|1+λ_2(A)|, |1+λ_n(A)|)/2 = (1+λ_2(A))/2``: ``α*_n`` in 000,
  ``a*_n`` in 003. It sets the mixing rate of the private MLE dynamics ``(A+I)^t``.

Exact values for ``n = 5``, from the closed-form spectra of these graphs: complete ``K_5``: ``b* = 0.25``,
``a* = 0.375``; cycle ``C_5``: ``b* = 0.809017``, ``a* = 0.654508``; star ``K_{1,4}``: ``b* = 0.75``,
``a* = 0.875``; path ``P_5``: ``b* = 0.809017``, ``a* = 0.904508``.

The eigenvalues come from a dense symmetric eigensolver (:func:`numpy.linalg.eigvalsh`), which costs
``O(n³)`` time and ``O(n²)`` memory: fine up to a few thousand agents (19–35 s on one core for the
4941-agent US power grid). A banded solver after a reverse Cuthill–McKee reordering does not pay on these
graphs: the US grid keeps a bandwidth of 467, and LAPACK ``dsbevd`` then took 2.8 times as long.

All randomness comes from an explicit :class:`numpy.random.Generator` argument ``rng``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

import networkx as nx
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from scipy.sparse import csgraph

from dpnet.errors import ParameterError

__all__ = [
    "GRAPH_KINDS",
    "GraphKind",
    "SpectralConstants",
    "check_weights",
    "dense_weights",
    "eigenvalues",
    "make_graph",
    "metropolis_hastings",
    "neighbour_weights",
    "spectral_constants",
]

#: The names of the graph families.
GraphKind = Literal["complete", "cycle", "star", "path", "erdos_renyi"]
#: The graph families of :func:`make_graph`, in the order of :data:`~dpnet.networks.GraphKind`.
GRAPH_KINDS: tuple[str, ...] = get_args(GraphKind)

_ATOL = 1e-10


# --------------------------------------------------------------------------------------------------
# Graphs
# --------------------------------------------------------------------------------------------------


def _check_graph(G: nx.Graph) -> None:
    """An undirected simple graph with at least one node, no self-loops, connected."""
    if not isinstance(G, nx.Graph) or G.is_directed() or G.is_multigraph():
        raise ParameterError(
            f"G must be an undirected simple networkx.Graph (got {type(G).__name__}); "
            "convert with nx.Graph(G) after checking that it is meant to be undirected"
        )
    if G.number_of_nodes() < 1:
        raise ParameterError("G must have at least 1 node (got 0)")
    loops = nx.number_of_selfloops(G)
    if loops:
        raise ParameterError(f"G must have no self-loops (got {loops}); remove them with nx.selfloop_edges")
    if not nx.is_connected(G):
        parts = nx.number_connected_components(G)
        raise ParameterError(f"G must be connected (got {parts} connected components)")


def _erdos_renyi(n: int, p: float, rng: np.random.Generator) -> nx.Graph:
    """One draw of G(n, p): each of the n(n−1)/2 possible edges independently with probability p."""
    rows, cols = np.triu_indices(n, k=1)
    keep = rng.random(rows.size) < p
    G = nx.empty_graph(n)
    G.add_edges_from(zip(rows[keep].tolist(), cols[keep].tolist(), strict=True))
    return G


def make_graph(
    kind: GraphKind,
    n: int,
    *,
    p: float | None = None,
    rng: np.random.Generator | None = None,
    max_attempts: int = 1000,
) -> nx.Graph:
    """A connected graph on the nodes ``0..n−1``.

    Parameters
    ----------
    kind
        ``"complete"`` (``K_n``, n ≥ 1), ``"cycle"`` (``C_n``, n ≥ 3), ``"star"`` (``K_{1,n−1}``, centre
        0, n ≥ 2), ``"path"`` (``P_n``, n ≥ 1) or ``"erdos_renyi"`` (``G(n, p)``, n ≥ 1).
    n
        Number of nodes (agents).
    p
        Edge probability in ``(0, 1]``, Erdős–Rényi only.
    rng
        Source of randomness, Erdős–Rényi only (required there).
    max_attempts
        Erdős–Rényi draws are repeated until one is connected, at most this many times.

    Returns
    -------
    networkx.Graph
        The graph. An Erdős–Rényi graph is a draw of ``G(n, p)`` conditioned on being connected.
    """
    if int(n) != n or n < 1:
        raise ParameterError(f"n (number of nodes) must be an integer ≥ 1 (got {n})")
    n = int(n)
    if kind != "erdos_renyi" and (p is not None or rng is not None):
        raise ParameterError(f"p and rng apply to kind='erdos_renyi' only (got kind={kind!r})")
    if kind == "complete":
        return nx.complete_graph(n)
    if kind == "cycle":
        if n < 3:
            raise ParameterError(f"a cycle needs n ≥ 3 nodes (got {n})")
        return nx.cycle_graph(n)
    if kind == "star":
        if n < 2:
            raise ParameterError(f"a star needs n ≥ 2 nodes (got {n})")
        return nx.star_graph(n - 1)
    if kind == "path":
        return nx.path_graph(n)
    if kind == "erdos_renyi":
        if p is None or not 0.0 < p <= 1.0:
            raise ParameterError(f"p (edge probability) must lie in (0, 1] (got {p})")
        if rng is None:
            raise ParameterError("rng (a numpy.random.Generator) is required for kind='erdos_renyi'")
        if int(max_attempts) != max_attempts or max_attempts < 1:
            raise ParameterError(f"max_attempts must be an integer ≥ 1 (got {max_attempts})")
        for _ in range(int(max_attempts)):
            G = _erdos_renyi(n, float(p), rng)
            if nx.is_connected(G):
                return G
        raise ParameterError(
            f"no connected G(n={n}, p={p}) graph in {max_attempts} draws; raise p "
            f"(connectivity needs roughly p > ln(n)/n = {np.log(max(n, 2)) / n:.3g}) or max_attempts"
        )
    raise ParameterError(f"kind must be one of {GRAPH_KINDS} (got {kind!r})")


# --------------------------------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------------------------------


def metropolis_hastings(G: nx.Graph) -> sparse.csr_array:
    r"""Metropolis–Hastings weight matrix of a connected undirected graph.

    .. math::
       a_{ij} = 1/\max(d_i, d_j) \text{ on edges}, \qquad a_{ii} = 1 - \sum_{j \ne i} a_{ij}.

    The result is symmetric and doubly stochastic, with ``a_ij > 0`` exactly on the edges (and
    ``a_ii ≥ 0``; ``a_ii = 0`` for regular graphs such as ``K_n`` and ``C_n``). Rows and columns follow
    the order of ``G.nodes``. Edge attributes (weights) are ignored.

    Parameters
    ----------
    G
        Undirected simple graph, connected, at least one node, no self-loops.

    Returns
    -------
    scipy.sparse.csr_array
        The ``n × n`` weight matrix ``A``.
    """
    _check_graph(G)
    nodes = list(G.nodes)
    index = {node: k for k, node in enumerate(nodes)}
    n = len(nodes)
    degree = np.array([G.degree(node) for node in nodes], dtype=float)
    edges = np.array([(index[u], index[v]) for u, v in G.edges], dtype=np.int64).reshape(-1, 2)
    rows, cols = edges[:, 0], edges[:, 1]
    weight = 1.0 / np.maximum(degree[rows], degree[cols])
    off_rows = np.concatenate([rows, cols])
    off_cols = np.concatenate([cols, rows])
    off_vals = np.concatenate([weight, weight])
    diag = 1.0 - np.bincount(off_rows, weights=off_vals, minlength=n)
    diag = np.maximum(diag, 0.0)  # ≥ 0 exactly: Σ_j 1/max(d_i, d_j) ≤ d_i/d_i = 1, up to rounding
    all_rows = np.concatenate([off_rows, np.arange(n)])
    all_cols = np.concatenate([off_cols, np.arange(n)])
    all_vals = np.concatenate([off_vals, diag])
    A = sparse.csr_array((all_vals, (all_rows, all_cols)), shape=(n, n))
    A.eliminate_zeros()
    A.sort_indices()
    return A


def dense_weights(kind: GraphKind, n: int) -> NDArray[np.float64]:
    """The dense Metropolis–Hastings weights of a deterministic graph of ``n`` agents (``kind`` as for
    :func:`make_graph`, Erdős–Rényi excepted: it needs a generator)."""
    return metropolis_hastings(make_graph(kind, n)).toarray()


def check_weights(A: ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph) -> NDArray[np.float64]:
    """Validate a weight matrix (or build it from a graph) and return it dense.

    ``A`` must be square, non-negative, symmetric and doubly stochastic (rows sum to 1), to within
    ``1e-10``, with a connected off-diagonal pattern. A :class:`networkx.Graph` is turned into its
    Metropolis–Hastings weights first (:func:`metropolis_hastings`). The checks run on a sparse copy,
    so validating a large sparse network costs little beyond the dense result.
    """
    return _validated(A).toarray()


def _validated(A: ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph) -> sparse.csr_array:
    """The checks of :func:`check_weights`, returning the weights as a sparse CSR array."""
    if isinstance(A, nx.Graph):
        A = metropolis_hastings(A)
    if sparse.issparse(A):
        M = sparse.csr_array(A, dtype=float)
    else:
        arr = np.asarray(A, dtype=float)
        if arr.ndim != 2:
            raise ParameterError(
                f"A (weights) must be a square n × n matrix with n ≥ 1 (got shape {arr.shape})"
            )
        M = sparse.csr_array(arr)
    if M.shape[0] != M.shape[1] or M.shape[0] < 1:
        raise ParameterError(f"A (weights) must be a square n × n matrix with n ≥ 1 (got shape {M.shape})")
    if not np.all(np.isfinite(M.data)) or np.any(M.data < 0):
        raise ParameterError("A (weights) must be finite and non-negative")
    if M.nnz and abs(M - M.T).max() > _ATOL:
        raise ParameterError("A (weights) must be symmetric (a_ij = a_ji)")
    rows = np.asarray(M.sum(axis=1), dtype=float).ravel()
    if not np.allclose(rows, 1.0, atol=_ATOL, rtol=0):
        worst = float(rows[np.argmax(np.abs(rows - 1.0))])
        raise ParameterError(f"A (weights) must be doubly stochastic: every row must sum to 1 (got {worst})")
    parts, _ = csgraph.connected_components(M > 0, directed=False)
    if parts != 1:
        raise ParameterError(f"A (weights) must connect all agents (got {parts} connected components)")
    return M


def neighbour_weights(A: ArrayLike | sparse.sparray | sparse.spmatrix) -> NDArray[np.float64]:
    """``a_i = max_{j ≠ i} a_ij``: each agent's largest neighbour weight (0 for an agent alone).

    It bounds how much one neighbour's message moves the agent's update, and so sets the Network-DP
    sensitivity (paper 000 §2.3, paper 001 §2.2).
    """
    M = sparse.csr_array(A, dtype=float)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ParameterError(f"A (weights) must be square (got shape {M.shape})")
    off = (M - sparse.diags_array(M.diagonal())).tocsr()
    return np.asarray(off.max(axis=1).toarray(), dtype=float).ravel()


def eigenvalues(A: ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph) -> NDArray[np.float64]:
    """All eigenvalues of a validated weight matrix (:func:`check_weights`), signed and descending.

    A dense symmetric eigensolve of ``(A + Aᵀ)/2`` (symmetrised while sparse, so one dense copy is
    made): ``O(n³)`` time, 19–35 s on one core for the 4941-agent US power grid.
    """
    M = _validated(A)
    return np.sort(np.linalg.eigvalsh((0.5 * (M + M.T)).toarray()))[::-1]


# --------------------------------------------------------------------------------------------------
# Spectral constants
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpectralConstants:
    """Eigenvalue constants of a weight matrix ``A`` used by the bounds of papers 000 and 003.

    Attributes
    ----------
    n
        Number of agents.
    eigenvalues
        All eigenvalues of ``A``, signed, in descending order (``eigenvalues[0] = 1``).
    lambda_2
        Second-largest eigenvalue ``λ_2(A)`` (signed).
    lambda_n
        Smallest eigenvalue ``λ_n(A) ≥ −1``.
    b_star
        ``b* = SLEM(A) = max(|λ_2(A)|, |λ_n(A)|)`` (paper 000: ``β*_n``). Sets the rate of online
        learning (``A`` dynamics).
    a_star
        ``a* = SLEM((A+I)/2) = max(|1+λ_2|, |1+λ_n|)/2`` (paper 000: ``α*_n``). Sets the mixing rate of
        the MLE dynamics ``(A+I)^t``: ``‖((A+I)/2)^t − 𝟙𝟙ᵀ/n‖_2 = (a*)^t``.
    diameter
        Diameter of the graph (longest shortest path, in hops); enters the lower bound of 003 §13.
    """

    n: int
    eigenvalues: tuple[float, ...]
    lambda_2: float
    lambda_n: float
    b_star: float
    a_star: float
    diameter: int

    @property
    def beta_star(self) -> float:
        """Paper 000's name for ``b*`` (SLEM of ``A``)."""
        return self.b_star

    @property
    def alpha_star(self) -> float:
        """Paper 000's name for ``a*`` (SLEM of ``(A+I)/2``)."""
        return self.a_star


def spectral_constants(
    A: ArrayLike | sparse.sparray | sparse.spmatrix | nx.Graph,
) -> SpectralConstants:
    r"""Spectral constants (λ₂, λₙ, b*, a*, diameter) of a weight matrix or of a graph's MH weights.

    .. math::
       b^\star = \max(|\lambda_2(A)|, |\lambda_n(A)|), \qquad
       a^\star = \tfrac12 \max(|1 + \lambda_2(A)|, |1 + \lambda_n(A)|),

    eigenvalues signed and descending. Uses a dense symmetric eigensolver (``O(n³)``): fine for up to
    a few thousand agents.

    Parameters
    ----------
    A
        A symmetric doubly stochastic weight matrix (dense or sparse, validated by
        :func:`check_weights`), or a :class:`networkx.Graph`, whose Metropolis–Hastings weights are used.
        At least 2 agents.
    """
    dense = check_weights(A)
    n = dense.shape[0]
    if n < 2:
        raise ParameterError(f"spectral constants need n ≥ 2 agents (got {n})")
    eig = eigenvalues(dense)
    lam2, lamn = float(eig[1]), float(eig[-1])
    pattern = sparse.csr_array((dense > 0) & ~np.eye(n, dtype=bool))
    hops = csgraph.shortest_path(pattern, method="D", directed=False, unweighted=True)
    return SpectralConstants(
        n=n,
        eigenvalues=tuple(float(x) for x in eig),
        lambda_2=lam2,
        lambda_n=lamn,
        b_star=max(abs(lam2), abs(lamn)),
        a_star=0.5 * max(abs(1.0 + lam2), abs(1.0 + lamn)),
        diameter=int(np.max(hops)),
    )
