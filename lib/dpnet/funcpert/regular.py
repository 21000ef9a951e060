"""The set S of regular functions and the projection onto it (note-fp-projection).

``S = {h : α I ≼ ∇²h ≼ β I, |∇h| ≤ ū on D}``, imposed in the span of the first ``K`` basis functions at a
grid of points. The constraints are linear in the coefficients: in 1-D ``α ≤ h'' ≤ β`` and ``|h'| ≤ ū``;
in 2-D (polyhedral version of the matrix inequality) ``α ≤ uᵀ∇²h u ≤ β`` for 8 directions ``u`` on the
half-circle and ``uᵀ∇h ≤ ū`` for 16 directions on the circle. The L² projection of a function is then
the Euclidean projection of its coefficients, a least-distance quadratic programme
``min ½‖c − ĉ‖² s.t. A c ≤ u``, solved exactly by Goldfarb and Idnani's dual active-set method
(``quadprog``). On the book's problems it is about six times faster than Lawson and Hanson's reduction to
non-negative least squares (``scipy.optimize.nnls``) that the book used first, and more accurate; DAQP
is faster still but cycles on about one input in two thousand, and the interior-point and ADMM solvers
(Clarabel, OSQP) are slower and inexact (``benchmarks/bench_projection.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import quadprog
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.funcpert.basis import Basis1D, Basis2D

__all__ = [
    "RegularSet",
    "moved_by_projection",
    "project",
    "projection_diagnostics",
    "regular_set",
    "worst_point",
]


@dataclass(frozen=True)
class RegularSet:
    """Linear constraints ``A c ≤ u`` on coefficient vectors (one row per grid point and direction)."""

    A: NDArray[np.float64]
    u: NDArray[np.float64]
    alpha: float
    beta: float
    u_bar: float
    #: The grid points, ``(m,)`` in 1-D or ``(m, 2)``; row ``j`` of ``A`` belongs to point ``j mod m``.
    points: NDArray[np.float64] | None = None

    def violation(self, c: ArrayLike) -> NDArray[np.float64] | float:
        """Largest ``(A c − u)_j`` (≤ 0 when ``c`` is feasible), over the last axis of ``c``."""
        return np.max(np.asarray(c, dtype=float) @ self.A.T - self.u, axis=-1)


def regular_set(
    basis: Basis1D | Basis2D, points: ArrayLike, alpha: float, beta: float, u_bar: float,
    *, hessian_directions: int = 8, gradient_directions: int = 16,
) -> RegularSet:  # fmt: skip
    """The grid constraints of S for the given basis and public constants ``0 < α ≤ β``, ``ū > 0``."""
    if not (0 < alpha <= beta and u_bar > 0):
        raise ParameterError(f"need 0 < alpha ≤ beta and u_bar > 0 (got {alpha}, {beta}, {u_bar})")
    _, grads, hess = basis.tables(points)
    if basis.dim == 1:
        rows = [hess, -hess, grads, -grads]
        bounds = [beta, -alpha, u_bar, u_bar]
    else:
        half = np.pi * np.arange(hessian_directions) / hessian_directions
        circle = 2 * np.pi * np.arange(gradient_directions) / gradient_directions
        dirs_h = np.column_stack([np.cos(half), np.sin(half)])
        dirs_g = np.column_stack([np.cos(circle), np.sin(circle)])
        curv = np.einsum("da,nkab,db->ndk", dirs_h, hess, dirs_h).reshape(-1, basis.K)
        slope = np.einsum("da,nka->ndk", dirs_g, grads).reshape(-1, basis.K)
        rows, bounds = [curv, -curv, slope], [beta, -alpha, u_bar]
    A = np.vstack(rows)
    u = np.concatenate([np.full(r.shape[0], b, dtype=float) for r, b in zip(rows, bounds, strict=True)])
    pts = np.asarray(points, dtype=float)
    pts.setflags(write=False)
    return RegularSet(A, u, float(alpha), float(beta), float(u_bar), pts)


#: Up to this many rows the projection is solved on all of them at once, faster than finding the active ones.
ALL_ROWS = 2000


def _least_distance(c_hat: NDArray, A: NDArray, u: NDArray) -> NDArray:
    # min ½‖c‖² − ĉᵀc s.t. (−A) c ≥ −u; G = I is its own inverse Cholesky factor (factorized=True)
    try:
        return quadprog.solve_qp(np.eye(c_hat.size), c_hat, -A.T, -u, 0, True)[0]
    except ValueError as exc:  # quadprog: "constraints are inconsistent, no solution"
        raise ParameterError("the regular set is empty on this grid: the constraints are infeasible") from exc


def moved_by_projection(c_hat: ArrayLike, S: RegularSet, *, tol: float = 1e-10) -> NDArray[np.bool_]:
    """Whether :func:`project` moves each coefficient vector (last axis): it violates a row of ``A c ≤ u``
    by more than ``tol · max|u|``, the tolerance below which ``project`` returns its input unchanged."""
    scale = tol * max(1.0, float(np.max(np.abs(S.u))))
    return np.asarray(S.violation(c_hat) > scale)


def worst_point(c_hat: ArrayLike, S: RegularSet) -> NDArray[np.float64]:
    """The grid point of each coefficient vector's largest constraint violation (last axis of ``c_hat``)."""
    if S.points is None:
        raise ParameterError("this regular set does not record its grid points")
    row = np.argmax(np.asarray(c_hat, dtype=float) @ S.A.T - S.u, axis=-1)
    return S.points[row % S.points.shape[0]]


def project(
    c_hat: ArrayLike, S: RegularSet, *, tol: float = 1e-10, margin: float = 0.1
) -> NDArray[np.float64]:
    """Euclidean (= L²) projection of the coefficients ``ĉ`` onto ``{c : A c ≤ u}``.

    A feasible ``ĉ`` is returned unchanged. Otherwise the problem is solved on every row (up to
    ``ALL_ROWS`` rows), or on the violated rows and those within ``margin · max|u|`` of their bound,
    rows found violated by more than ``tol · max|u|`` being added until the solution satisfies every row.
    """
    c = np.asarray(c_hat, dtype=float)
    scale = tol * max(1.0, float(np.max(np.abs(S.u))))
    if np.all(S.u - S.A @ c >= -scale):
        return c.copy()
    if S.A.shape[0] <= ALL_ROWS:
        out = _least_distance(c, S.A, S.u)
        if np.all(S.A @ out - S.u <= scale):
            return out
    out = c
    # some rows of A are large (second derivatives of high-order polynomials): a solution off by the
    # solver's rounding is polished by projecting it again, each pass moving it by that error only
    for _ in range(3):
        out = _project_once(out, S, scale, margin)
        if np.all(S.A @ out - S.u <= scale):
            return out
    raise ParameterError(
        f"the projection onto S did not converge (largest violation {float(S.violation(out)):.3g}): "
        "the constraints are inconsistent or badly conditioned on this grid"
    )


def _project_once(c: NDArray, S: RegularSet, scale: float, margin: float) -> NDArray:
    slack = S.u - S.A @ c
    active = slack < margin * float(np.max(np.abs(S.u)))
    while True:
        out = _least_distance(c, S.A[active], S.u[active])
        violated = (S.A @ out - S.u > scale) & ~active
        if not violated.any():
            return out
        active |= violated


def projection_diagnostics(inputs: ArrayLike, S: RegularSet, feasible: ArrayLike) -> dict[str, float | bool]:
    """What makes :func:`project` a projection, measured on ``inputs`` (an even number of rows).

    Parameters
    ----------
    inputs
        Coefficient vectors ``ĉ``, ``(m, K)`` with ``m`` even and at least 2.
    S
        The set projected onto.
    feasible
        Points of ``S`` (one ``(K,)`` or several ``(r, K)``). The outputs ``Pĉ`` are points of ``S`` too
        (within the projection's tolerance), so the variational inequality is tested against both.

    Returns
    -------
    dict
        ``violation``: largest constraint violation of the outputs, relative to ``max|u|``; ``expansion``:
        largest ``‖P(a) − P(b)‖/‖a − b‖ − 1`` over consecutive pairs (≤ 0: non-expansive); ``variational``:
        largest ``(ĉ − Pĉ)ᵀ(y − Pĉ)`` over every input ``ĉ`` and every feasible point ``y``, given or output
        (a point of ``S`` satisfying it for every ``y`` of ``S`` is the projection: the characterisation
        of the projection onto a closed convex set); ``pairs``: how many
        ``(ĉ, y)`` it was taken over; ``unchanged``: whether every given feasible point is returned as it
        is. Maxima propagate nan.
    """
    c = np.asarray(inputs, dtype=float)
    y = np.atleast_2d(np.asarray(feasible, dtype=float))
    if c.ndim != 2 or c.shape[0] < 2 or c.shape[0] % 2:
        raise ParameterError("inputs must be an even number (≥ 2) of coefficient vectors")
    out = np.array([project(row, S) for row in c])
    gaps = np.linalg.norm(out[0::2] - out[1::2], axis=1) / np.linalg.norm(c[0::2] - c[1::2], axis=1)
    points = np.vstack([y, out])
    inequality = np.einsum("ik,ijk->ij", c - out, points[None, :, :] - out[:, None, :])
    return {
        "violation": float(np.max(S.violation(out))) / float(np.max(np.abs(S.u))),
        "expansion": float(np.max(gaps - 1.0)),
        "variational": float(np.max(inequality)),
        "pairs": int(inequality.size),
        "unchanged": all(np.array_equal(project(row, S), row) for row in y),
    }
