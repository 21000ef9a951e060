"""Metropolis–Hastings weights and spectral constants against exact values (closed-form spectra)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from scipy import sparse

from dpnet import networks
from dpnet.errors import ParameterError

PHI = (1 + math.sqrt(5)) / 2  # cos(π/5) = φ/2 = 0.809017, cos(2π/5) = (φ − 1)/2 = 0.309017


def mh_by_hand(G: nx.Graph) -> np.ndarray:
    """Metropolis–Hastings weights entry by entry, straight from the definition."""
    nodes = list(G.nodes)
    n = len(nodes)
    A = np.zeros((n, n))
    for a, u in enumerate(nodes):
        for b, v in enumerate(nodes):
            if a != b and G.has_edge(u, v):
                A[a, b] = 1.0 / max(G.degree(u), G.degree(v))
        A[a, a] = 1.0 - A[a].sum()
    return A


# --------------------------------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------------------------------


def test_complete_graph_k5_weights_and_slems() -> None:
    # K_5 by hand: a_ij = 1/4, a_ii = 0, eigenvalues 1 and −1/4 (four times); a* = 0.375, b* = 0.25
    A = networks.metropolis_hastings(nx.complete_graph(5))
    assert isinstance(A, sparse.csr_array)
    dense = A.toarray()
    np.testing.assert_allclose(dense, (np.ones((5, 5)) - np.eye(5)) / 4, atol=1e-15)
    const = networks.spectral_constants(A)
    assert const.a_star == pytest.approx(0.375, abs=1e-12)
    assert const.b_star == pytest.approx(0.25, abs=1e-12)


@pytest.mark.parametrize(
    ("kind", "eigenvalues", "b_star", "a_star", "diameter"),
    [
        ("complete", [1, -0.25, -0.25, -0.25, -0.25], 0.25, 0.375, 1),
        ("cycle", [1, (PHI - 1) / 2, (PHI - 1) / 2, -PHI / 2, -PHI / 2], 0.809017, 0.654508, 2),
        ("star", [1, 0.75, 0.75, 0.75, -0.25], 0.75, 0.875, 2),
        ("path", [1, PHI / 2, (PHI - 1) / 2, -(PHI - 1) / 2, -PHI / 2], 0.809017, 0.904508, 4),
    ],
)
def test_spectral_constants_of_five_node_graphs(
    kind: str, eigenvalues: list[float], b_star: float, a_star: float, diameter: int
) -> None:
    # the closed-form spectra of K_5, C_5, K_{1,4} and P_5
    G = networks.make_graph(kind, 5)  # type: ignore[arg-type]
    const = networks.spectral_constants(G)
    np.testing.assert_allclose(const.eigenvalues, eigenvalues, atol=1e-12)
    assert const.b_star == pytest.approx(b_star, abs=5e-7)
    assert const.a_star == pytest.approx(a_star, abs=5e-7)
    assert const.a_star == pytest.approx((1 + const.lambda_2) / 2, abs=1e-12)
    assert const.beta_star == const.b_star and const.alpha_star == const.a_star
    assert const.diameter == diameter
    A = networks.metropolis_hastings(G).toarray()
    assert np.max(np.linalg.eigvalsh(A + np.eye(5))) == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 7, 12])
def test_complete_graph_closed_form(n: int) -> None:
    # A = (J − I)/(n−1): eig {1, −1/(n−1)}, b* = 1/(n−1), a* = (n−2)/(2(n−1))
    const = networks.spectral_constants(nx.complete_graph(n))
    assert const.b_star == pytest.approx(1 / (n - 1), abs=1e-12)
    assert const.a_star == pytest.approx((n - 2) / (2 * (n - 1)), abs=1e-12)
    assert const.lambda_n == pytest.approx(-1 / (n - 1), abs=1e-12)


def test_weights_of_an_irregular_graph_match_the_definition() -> None:
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")])  # degrees 2 2 3 2 1
    A = networks.metropolis_hastings(G).toarray()
    np.testing.assert_allclose(A, mh_by_hand(G), atol=1e-15)
    # a_cd = 1/max(3, 2), a_de = 1/2, a_ee = 1/2, a_cc = 1 − 3·(1/3) = 0
    idx = {v: k for k, v in enumerate(G.nodes)}
    assert A[idx["c"], idx["d"]] == pytest.approx(1 / 3)
    assert A[idx["e"], idx["e"]] == pytest.approx(0.5)
    assert A[idx["c"], idx["c"]] == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("seed", range(6))
def test_weights_are_symmetric_doubly_stochastic_on_the_graph_pattern(seed: int) -> None:
    rng = np.random.default_rng(seed)
    G = networks.make_graph("erdos_renyi", 12 + seed, p=0.3, rng=rng)
    A = networks.metropolis_hastings(G).toarray()
    np.testing.assert_allclose(A, mh_by_hand(G), atol=1e-15)
    np.testing.assert_allclose(A, A.T, atol=0)
    np.testing.assert_allclose(A.sum(axis=0), 1.0, atol=1e-12)
    np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(A >= 0)
    off = (A > 0) & ~np.eye(len(A), dtype=bool)
    np.testing.assert_array_equal(off, nx.to_numpy_array(G) > 0)
    const = networks.spectral_constants(A)
    assert const.diameter == nx.diameter(G)
    assert 0 <= const.a_star < 1 and 0 <= const.b_star < 1


def test_single_node_graph_has_unit_weight() -> None:
    np.testing.assert_array_equal(networks.metropolis_hastings(nx.empty_graph(1)).toarray(), [[1.0]])


@pytest.mark.parametrize(
    ("graph", "message"),
    [
        (nx.empty_graph(0), "at least 1 node"),
        (nx.Graph([(0, 1), (2, 3)]), "connected"),
        (nx.Graph([(0, 1), (1, 1)]), "self-loops"),
        (nx.DiGraph([(0, 1), (1, 0)]), "undirected simple"),
        (nx.MultiGraph([(0, 1), (0, 1)]), "undirected simple"),
    ],
)
def test_invalid_graphs_are_rejected(graph: nx.Graph, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        networks.metropolis_hastings(graph)


# --------------------------------------------------------------------------------------------------
# Graph construction
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "n", "edges"), [("complete", 6, 15), ("cycle", 6, 6), ("star", 6, 5), ("path", 6, 5)]
)
def test_make_graph_kinds(kind: str, n: int, edges: int) -> None:
    G = networks.make_graph(kind, n)  # type: ignore[arg-type]
    assert G.number_of_nodes() == n and G.number_of_edges() == edges
    assert sorted(G.nodes) == list(range(n))


@pytest.mark.parametrize("kind", networks.GRAPH_KINDS)
def test_every_listed_graph_kind_is_built(kind: str) -> None:
    # GRAPH_KINDS is read off GraphKind: each listed kind must have a branch in make_graph
    extra = {"p": 0.5, "rng": np.random.default_rng(0)} if kind == "erdos_renyi" else {}
    G = networks.make_graph(kind, 6, **extra)  # type: ignore[arg-type]
    assert G.number_of_nodes() == 6 and nx.is_connected(G)


def test_erdos_renyi_is_connected_and_seeded() -> None:
    a = networks.make_graph("erdos_renyi", 30, p=0.12, rng=np.random.default_rng(4))
    b = networks.make_graph("erdos_renyi", 30, p=0.12, rng=np.random.default_rng(4))
    c = networks.make_graph("erdos_renyi", 30, p=0.12, rng=np.random.default_rng(5))
    assert nx.is_connected(a)
    assert sorted(a.edges) == sorted(b.edges)
    assert sorted(a.edges) != sorted(c.edges)


def test_erdos_renyi_gives_up_with_a_clear_error() -> None:
    with pytest.raises(ParameterError, match="no connected G"):
        networks.make_graph("erdos_renyi", 40, p=0.01, rng=np.random.default_rng(0), max_attempts=20)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "cycle", "n": 2}, "n ≥ 3"),
        ({"kind": "star", "n": 1}, "n ≥ 2"),
        ({"kind": "path", "n": 0}, "integer ≥ 1"),
        ({"kind": "lattice", "n": 4}, "kind must be one of"),
        ({"kind": "erdos_renyi", "n": 5, "p": 0.5}, "rng"),
        (
            {"kind": "erdos_renyi", "n": 5, "p": 0.0, "rng": np.random.default_rng(0)},
            r"p \(edge probability\)",
        ),
        ({"kind": "complete", "n": 5, "p": 0.5}, "erdos_renyi.* only"),
    ],
)
def test_make_graph_rejects_bad_parameters(kwargs: dict, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        networks.make_graph(**kwargs)


# --------------------------------------------------------------------------------------------------
# Spectral constants: inputs
# --------------------------------------------------------------------------------------------------


def test_spectral_constants_accept_graph_dense_and_sparse() -> None:
    G = networks.make_graph("star", 7)
    A = networks.metropolis_hastings(G)
    from_graph = networks.spectral_constants(G)
    assert networks.spectral_constants(A) == from_graph
    assert networks.spectral_constants(A.toarray()) == from_graph


def test_spectral_constants_of_non_mh_weights() -> None:
    # lazy cycle: A = (I + P)/2 with P the C_6 shift average; eigenvalues (1 + cos(2πk/6))/2
    n = 6
    P = 0.5 * (np.roll(np.eye(n), 1, axis=1) + np.roll(np.eye(n), -1, axis=1))
    A = 0.5 * (np.eye(n) + P)
    const = networks.spectral_constants(A)
    assert const.lambda_2 == pytest.approx(0.75)
    assert const.lambda_n == pytest.approx(0.0, abs=1e-12)
    assert const.b_star == pytest.approx(0.75)
    assert const.a_star == pytest.approx(0.875)
    assert const.diameter == 3


@pytest.mark.parametrize(
    ("A", "message"),
    [
        (np.array([[0.5, 0.5], [0.2, 0.8]]), "symmetric"),
        (np.array([[0.5, 0.4], [0.4, 0.5]]), "doubly stochastic"),
        (np.array([[1.2, -0.2], [-0.2, 1.2]]), "non-negative"),
        (np.eye(3), "connect all agents"),
        (np.ones((2, 3)) / 3, "square"),
    ],
)
def test_invalid_weights_are_rejected(A: np.ndarray, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        networks.spectral_constants(A)


def test_spectral_constants_need_two_agents() -> None:
    with pytest.raises(ParameterError, match="n ≥ 2"):
        networks.spectral_constants(nx.empty_graph(1))


def test_dense_weights_are_the_metropolis_hastings_matrix_of_the_graph() -> None:
    for kind, n in (("complete", 5), ("cycle", 7), ("star", 4), ("path", 3)):
        A = networks.dense_weights(kind, n)
        assert isinstance(A, np.ndarray) and A.shape == (n, n)
        np.testing.assert_array_equal(A, networks.metropolis_hastings(networks.make_graph(kind, n)).toarray())
    np.testing.assert_allclose(networks.dense_weights("complete", 4), np.full((4, 4), 1 / 3) - np.eye(4) / 3)


# --------------------------------------------------------------------------------------------------
# Eigensolvers
# --------------------------------------------------------------------------------------------------


def _random_sparse_weights(seed: int) -> sparse.csr_array:
    """MH weights of a connected sparse random graph: Erdős–Rényi or random geometric, 60–400 nodes."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 400))
    if seed % 2:
        G = networks.make_graph("erdos_renyi", n, p=3.0 * np.log(n) / n, rng=rng)
    else:
        G = nx.random_geometric_graph(n, 2.5 / np.sqrt(n), seed=seed)
        G = G.subgraph(max(nx.connected_components(G), key=len))
        G = nx.convert_node_labels_to_integers(G)
    return networks.metropolis_hastings(G)


@pytest.mark.parametrize("seed", range(4))
def test_eigenvalues_are_eigvalsh_of_the_symmetrised_dense_weights(seed: int) -> None:
    # symmetrised while sparse, then one dense copy: the very matrix, and so the very eigenvalues, of the
    # dense formula (A + Aᵀ)/2
    A = _random_sparse_weights(seed)
    dense = A.toarray()
    exact = np.sort(np.linalg.eigvalsh(0.5 * (dense + dense.T)))[::-1]
    np.testing.assert_array_equal(networks.eigenvalues(A), exact)
