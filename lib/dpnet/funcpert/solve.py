"""Minimising sums of basis expansions over the box, and the distributed gradient method (the slides'
Algorithm 1, step 4)."""

from __future__ import annotations

import networkx as nx
import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from dpnet.errors import ParameterError
from dpnet.funcpert.basis import Basis1D, Basis2D
from dpnet.networks import metropolis_hastings

__all__ = ["chorded_ring", "dgd", "lazy_metropolis", "poly_argmin"]


def poly_argmin(
    basis: Basis1D | Basis2D, c: NDArray, lower: NDArray, upper: NDArray, grid: int = 0
) -> NDArray:
    """Global minimiser over the box of ``h = Σ_k c_k e_k``: best grid point, then bounded L-BFGS-B.

    ``grid`` points per axis (default 2001 in 1-D, 61 in 2-D). ``h`` is strongly convex after the
    projection onto S, so the local refinement finds the global minimiser.
    """
    c = np.asarray(c, dtype=float)
    if basis.dim == 1:
        pts = np.linspace(lower[0], upper[0], grid or 2001)[:, None]
        values = basis.values(pts[:, 0]) @ c
    else:
        g = grid or 61
        u, v = np.meshgrid(
            np.linspace(lower[0], upper[0], g), np.linspace(lower[1], upper[1], g), indexing="ij"
        )
        pts = np.column_stack([u.ravel(), v.ravel()])
        values = basis.values(pts) @ c
    start = pts[int(np.argmin(values))]

    def fun(x: NDArray) -> tuple[float, NDArray]:
        v, g1, _ = basis.tables(x if basis.dim == 2 else x[0])
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
        _, grads, _ = basis.tables(z if d == 2 else z[:, 0])
        g = (
            np.einsum("nk,nka->na", coefficients, grads)
            if d == 2
            else np.sum(coefficients * grads, axis=1)[:, None]
        )
        x = np.clip(z - g / (k + 1), lower, upper)
        if (k + 1) % record_every == 0:
            out.append(x.copy())
    return np.array(out)
