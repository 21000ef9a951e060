"""Minimising sums of basis expansions over the box, and the distributed gradient method (the slides'
Algorithm 1, step 4)."""

from __future__ import annotations

from functools import lru_cache

import networkx as nx
import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from dpnet.errors import ParameterError
from dpnet.funcpert.basis import Basis1D, Basis2D
from dpnet.networks import metropolis_hastings

__all__ = ["chorded_ring", "dgd", "grid_table", "lazy_metropolis", "poly_argmin"]

#: How many (basis, box, grid) value tables :func:`grid_table` keeps: a few MiB each at most.
GRID_TABLES = 8


def grid_table(
    basis: Basis1D | Basis2D, lower: NDArray, upper: NDArray, grid: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The grid of the box that :func:`poly_argmin` starts from, and the basis functions' values on it.

    Parameters
    ----------
    basis
        The basis (1-D or 2-D).
    lower, upper
        Corners of the box, ``(d,)`` each.
    grid
        Points per axis; 0 takes the default, 2001 in 1-D and 61 in 2-D.

    Returns
    -------
    points : ndarray
        ``(m, d)``: the ``grid`` equispaced points per axis, the first axis varying slowest.
    values : ndarray
        ``(m, K)``: ``e_k`` at every point, as :meth:`~dpnet.funcpert.basis.Basis1D.values` computes it.

    Notes
    -----
    The table depends on the basis, the box and the grid only, not on the coefficients minimised, so
    it is computed once per ``(basis, lower, upper, grid)`` and kept in a bounded least-recently-used
    cache of ``GRID_TABLES`` entries. Both arrays are read-only.
    """
    box = tuple(float(a) for a in np.ravel(lower)), tuple(float(b) for b in np.ravel(upper))
    return _grid_table(basis, *box, int(grid) or (2001 if basis.dim == 1 else 61))


@lru_cache(maxsize=GRID_TABLES)
def _grid_table(
    basis: Basis1D | Basis2D, lower: tuple[float, ...], upper: tuple[float, ...], grid: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    if basis.dim == 1:
        pts = np.linspace(lower[0], upper[0], grid)[:, None]
        values = basis.values(pts[:, 0])
    else:
        u, v = np.meshgrid(
            np.linspace(lower[0], upper[0], grid), np.linspace(lower[1], upper[1], grid), indexing="ij"
        )
        pts = np.column_stack([u.ravel(), v.ravel()])
        values = basis.values(pts)
    pts.setflags(write=False)
    values.setflags(write=False)
    return pts, values


def poly_argmin(
    basis: Basis1D | Basis2D, c: NDArray, lower: NDArray, upper: NDArray, grid: int = 0
) -> NDArray:
    """Global minimiser over the box of ``h = Σ_k c_k e_k``: best grid point, then bounded L-BFGS-B.

    ``grid`` points per axis (default 2001 in 1-D, 61 in 2-D; the basis's values there come from
    :func:`grid_table`). ``h`` is strongly convex after the projection onto S, so the local refinement
    finds the global minimiser.
    """
    c = np.asarray(c, dtype=float)
    pts, table = grid_table(basis, lower, upper, grid)
    start = pts[int(np.argmin(table @ c))].copy()

    def fun(x: NDArray) -> tuple[float, NDArray]:
        v, g1 = basis.tables(x if basis.dim == 2 else x[0], order=1)
        grad = c @ g1[0] if basis.dim == 2 else np.array([g1[0] @ c])
        return float(v[0] @ c), grad

    bounds = list(zip(lower, upper, strict=True))
    res = optimize.minimize(
        fun, start, jac=True, method="L-BFGS-B", bounds=bounds, options={"ftol": 1e-15, "gtol": 1e-12}
    )
    return res.x


def chorded_ring(n: int) -> nx.Graph:
    """The cycle on ``n ≥ 2`` agents with two chords, ``0 – n/2`` and ``n/4 – 3n/4`` (integer division),
    which roughly halve its diameter (a choice of the book; below 4 agents the chords are ring edges)."""
    if n < 2:
        raise ParameterError(f"a ring needs n ≥ 2 agents (got {n})")
    G = nx.cycle_graph(n)
    G.add_edges_from([(0, n // 2), (n // 4, 3 * n // 4)])
    return G


def lazy_metropolis(G: nx.Graph) -> NDArray[np.float64]:
    """``W = (I + A)/2`` with ``A`` the Metropolis–Hastings matrix: doubly stochastic with a positive
    diagonal, so the consensus step also converges on bipartite graphs (a choice of the book)."""
    A = metropolis_hastings(G).toarray()
    return (np.eye(A.shape[0]) + A) / 2


def dgd(
    basis: Basis1D | Basis2D, coefficients: NDArray, W: NDArray, lower: NDArray, upper: NDArray,
    iterations: int, *, record_every: int = 1,
) -> NDArray[np.float64]:  # fmt: skip
    """Nedić's projected distributed gradient method on ``h_i = Σ_k c_ik e_k`` with steps ``1/(k + 1)``.

    ``z_i = Σ_j w_ij x_j``, ``x_i ← proj_X(z_i − s_k ∇h_i(z_i))``, from ``x_i(0) = 0``. Returns the states
    every ``record_every`` iterations, shape ``(iterations // record_every + 1, n, d)``.
    """
    n = coefficients.shape[0]
    if W.shape != (n, n):
        raise ParameterError(f"W must be {n} × {n} (got {W.shape})")
    d = basis.dim
    x = np.clip(np.zeros((n, d)), lower, upper)
    out = [x.copy()]
    for k in range(iterations):
        z = W @ x
        _, grads = basis.tables(z if d == 2 else z[:, 0], order=1)
        g = (
            np.einsum("nk,nka->na", coefficients, grads)
            if d == 2
            else np.sum(coefficients * grads, axis=1)[:, None]
        )
        x = np.clip(z - g / (k + 1), lower, upper)
        if (k + 1) % record_every == 0:
            out.append(x.copy())
    return np.array(out)
