"""The k-d-tree Fruchterman–Reingold layout used to draw the large graphs (dpnet.layout)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from dpnet.errors import ParameterError
from dpnet.layout import spring_layout


def grid() -> nx.Graph:
    """A 10 × 10 grid with tuple labels: node order must come from G.nodes, not from the labels."""
    return nx.grid_2d_graph(10, 10)


def test_positions_are_finite_centred_and_scaled_into_the_unit_box() -> None:
    G = grid()
    pos = spring_layout(G, np.random.default_rng(0))
    assert pos.shape == (100, 2) and pos.dtype == np.float64
    assert np.all(np.isfinite(pos))
    assert np.abs(pos).max() == pytest.approx(1.0, rel=1e-15)  # the widest coordinate touches the box
    np.testing.assert_allclose(pos.mean(axis=0), 0.0, atol=1e-15)  # centred before scaling


def test_layout_is_deterministic_for_a_seed() -> None:
    G = grid()
    first = spring_layout(G, np.random.default_rng(5))
    np.testing.assert_array_equal(first, spring_layout(G, np.random.default_rng(5)))
    assert not np.allclose(first, spring_layout(G, np.random.default_rng(6)))


def test_neighbours_end_closer_than_random_pairs() -> None:
    """The forces do their job: on a grid, edges are far shorter than the typical distance between nodes."""
    G = grid()
    index = {node: i for i, node in enumerate(G.nodes)}
    edges = np.array([(index[u], index[v]) for u, v in G.edges])
    for seed in range(3):
        pos = spring_layout(G, np.random.default_rng(seed), iterations=100)
        edge_length = np.linalg.norm(pos[edges[:, 0]] - pos[edges[:, 1]], axis=1).mean()
        pairs = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=-1)
        typical = pairs[np.triu_indices(len(pos), 1)].mean()
        assert edge_length < 0.5 * typical  # about 1 for a random placement
        # and no two nodes collapse onto each other (repulsion acts between close pairs)
        assert pairs[np.triu_indices(len(pos), 1)].min() > 1e-3


def test_graph_without_edges_and_explicit_parameters() -> None:
    G = nx.empty_graph(30)
    pos = spring_layout(G, np.random.default_rng(1), k=0.2, iterations=5, cutoff=1.0)
    assert pos.shape == (30, 2) and np.all(np.isfinite(pos))
    assert np.abs(pos).max() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("graph", "kwargs", "match"),
    [
        (nx.path_graph(4), {"iterations": 0}, "iterations"),
        (nx.path_graph(4), {"iterations": -3}, "iterations"),
        (nx.path_graph(4), {"iterations": 2.5}, "iterations"),
        (nx.path_graph(4), {"k": 0.0}, "k and cutoff"),
        (nx.path_graph(4), {"k": -1.0}, "k and cutoff"),
        (nx.path_graph(4), {"cutoff": 0.0}, "k and cutoff"),
        (nx.Graph(), {}, "at least one node"),
    ],
)
def test_bad_parameters_are_rejected(graph: nx.Graph, kwargs: dict, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        spring_layout(graph, np.random.default_rng(0), **kwargs)


def test_single_node_graph_gets_a_finite_position() -> None:
    """One node is allowed (only n < 1 is rejected): it sits at the origin, not at NaN."""
    G = nx.Graph()
    G.add_node("only")
    pos = spring_layout(G, np.random.default_rng(0))
    assert pos.shape == (1, 2)
    assert np.all(np.isfinite(pos))
