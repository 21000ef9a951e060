"""Orthonormal Legendre bases of L²(D) on an interval and on a square (a choice of the book: note-fp-choices).

The slides name no basis. Here ``e_k(x) = √((2k − 1)/(hi − lo)) P_{k−1}(t)``, ``t = 2(x − lo)/(hi − lo) − 1``,
indexed from 1 with the constant first; in 2-D the tensor products ``ê_i(x₁) ê_j(x₂)`` on ``[−R, R]²``, in
graded order (total degree ``m = 0, 1, …, M``; within a degree ``i`` from ``m`` down to 0), so
``K = (M + 1)(M + 2)/2``. Because the basis is orthonormal, L² distances between functions equal
Euclidean distances between coefficient vectors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numpy.polynomial import legendre
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError

__all__ = ["Basis1D", "Basis2D", "graded_indices"]


@lru_cache(maxsize=64)
def _derivative_coefficients(n: int, order: int) -> NDArray[np.float64]:
    # Legendre coefficients of P_m^(order), m < n, one column per m (read-only: shared by every call)
    out = legendre.legder(np.eye(n), order, axis=0)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _gauss_legendre(n_nodes: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    # legendre.leggauss(n_nodes), computed once per node count (read-only: shared by every call)
    t, w = legendre.leggauss(n_nodes)
    t.setflags(write=False)
    w.setflags(write=False)
    return t, w


def _legvander_point(t: float, n: int) -> NDArray[np.float64]:
    """``legendre.legvander([t], n − 1)``, the same numbers, by its recurrence in Python floats.

    Bonnet's recurrence ``P_i = (P_{i−1} t (2i − 1) − P_{i−2} (i − 1))/i`` with the operations in the order
    NumPy applies them: each is one IEEE double operation either way, so the results agree bit for bit,
    and a point costs a few microseconds instead of the array loop's hundreds (the minimiser's steps).
    """
    t = float(t) + 0.0  # as legvander: x + 0.0
    v = [t * 0 + 1.0] * n
    if n > 1:
        v[1] = t
    for i in range(2, n):
        v[i] = (v[i - 1] * t * (2 * i - 1) - v[i - 2] * (i - 1)) / i
    return np.array([v])


def _legendre_tables(t: NDArray[np.float64], n: int, order: int = 2) -> tuple[NDArray, ...]:
    """``P_m(t)`` and its derivatives up to ``order`` (at most 2) for ``m < n``, each ``(len(t), n)``."""
    tables = [_legvander_point(t[0], n) if t.size == 1 else legendre.legvander(t, n - 1)]
    for k in range(1, order + 1):
        d = legendre.legval(t, _derivative_coefficients(n, k)).T if n > k else np.zeros((t.size, n))
        tables.append(d.reshape(t.size, n))
    return tuple(tables)


def _check_order(order: int) -> None:
    if order not in (0, 1, 2):
        raise ParameterError(f"the derivative order must be 0, 1 or 2 (got {order!r})")


@dataclass(frozen=True)
class Basis1D:
    """The first ``K`` orthonormal Legendre functions on ``[lo, hi]``."""

    lo: float
    hi: float
    K: int

    def __post_init__(self) -> None:
        if not (self.hi > self.lo):
            raise ParameterError(f"the interval needs lo < hi (got [{self.lo}, {self.hi}])")
        if not (isinstance(self.K, (int, np.integer)) and 1 <= self.K <= 200):
            raise ParameterError(f"K (basis functions) must be an integer in [1, 200] (got {self.K!r})")

    dim = 1

    def _t(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.atleast_1d(np.asarray(x, dtype=float)).ravel()
        return 2.0 * (x - self.lo) / (self.hi - self.lo) - 1.0

    @cached_property
    def _scale(self) -> NDArray[np.float64]:
        return np.sqrt((2 * np.arange(1, self.K + 1) - 1) / (self.hi - self.lo))

    def tables(self, x: ArrayLike, order: int = 2) -> tuple[NDArray, ...]:
        """Values and derivatives of ``e_1..e_K`` at the points ``x``.

        Parameters
        ----------
        x
            Points of ``[lo, hi]`` (any shape; flattened).
        order
            Highest derivative returned: 2 (the default) gives values, first and second derivatives,
            1 the values and first derivatives, 0 the values only.

        Returns
        -------
        tuple of ndarray
            ``order + 1`` arrays, each ``(len(x), K)``. A lower ``order`` skips the higher tables; the
            ones returned are the same numbers either way.
        """
        _check_order(order)
        raw = _legendre_tables(self._t(x), self.K, order)
        c = 2.0 / (self.hi - self.lo)
        out = [raw[0] * self._scale]
        if order >= 1:
            out.append(raw[1] * self._scale * c)
        if order == 2:
            out.append(raw[2] * self._scale * c**2)
        return tuple(out)

    def values(self, x: ArrayLike) -> NDArray[np.float64]:
        """The basis functions' values at the points ``x``, ``(len(x), K)``."""
        return self.tables(x, order=0)[0]

    def quadrature(self, n_nodes: int = 80) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Gauss–Legendre nodes and weights on ``[lo, hi]`` (the rule on [−1, 1] is computed once per
        ``n_nodes``)."""
        t, w = _gauss_legendre(int(n_nodes))
        half = (self.hi - self.lo) / 2
        return self.lo + half * (t + 1), w * half

    def project(
        self, f: Callable[[NDArray[np.float64]], ArrayLike], n_nodes: int | None = None
    ) -> NDArray[np.float64]:
        """Coefficients ``⟨f, e_k⟩`` by Gauss–Legendre quadrature (``f`` maps points ``(n,)`` to ``(n,)``).

        ``n_nodes`` defaults to ``max(80, K)``. A rule of ``n`` nodes integrates polynomials of degree up
        to ``2n − 1`` exactly, so with ``n ≥ K`` it reproduces every function of the span (degree
        ``≤ K − 1``) and every polynomial of degree ``≤ 2n − K`` exactly; fewer nodes alias the high
        coefficients (a quadratic on 200 functions with 80 nodes is off by 2.8): they are refused.
        """
        n = max(80, self.K) if n_nodes is None else int(n_nodes)
        if n < self.K:
            raise ParameterError(
                f"projecting onto {self.K} basis functions needs at least {self.K} quadrature nodes "
                f"(got {n}): fewer alias the high coefficients"
            )
        x, w, v = _quadrature_table(self, n)
        return v.T @ (np.asarray(f(x), dtype=float) * w)

    def gram(self, n_nodes: int = 80) -> NDArray[np.float64]:
        """``⟨e_j, e_k⟩`` by quadrature (the identity, up to rounding)."""
        x, w = self.quadrature(n_nodes)
        v = self.values(x)
        return v.T @ (v * w[:, None])


def graded_indices(degree: int) -> NDArray[np.int64]:
    """Pairs ``(i, j)`` of 1-D indices (from 0), ``i + j ≤ M``, graded order (``i`` from ``m`` down)."""
    return np.array([(i, m - i) for m in range(degree + 1) for i in range(m, -1, -1)], dtype=np.int64)


@dataclass(frozen=True)
class Basis2D:
    """Orthonormal tensor Legendre functions of total degree ``≤ M`` on ``[−R, R]²``, graded order."""

    R: float
    M: int

    def __post_init__(self) -> None:
        if not self.R > 0:
            raise ParameterError(f"the half-width R must be > 0 (got {self.R})")
        if not (isinstance(self.M, (int, np.integer)) and 0 <= self.M <= 40):
            raise ParameterError(f"the total degree M must be an integer in [0, 40] (got {self.M!r})")

    dim = 2

    @property
    def K(self) -> int:
        return (self.M + 1) * (self.M + 2) // 2

    @cached_property
    def _line(self) -> Basis1D:
        return Basis1D(-self.R, self.R, self.M + 1)

    @cached_property
    def indices(self) -> NDArray[np.int64]:
        return graded_indices(self.M)

    def tables(self, x: ArrayLike, order: int = 2) -> tuple[NDArray, ...]:
        """Values and derivatives of the basis at points ``(n, 2)``.

        Parameters
        ----------
        x
            Points of the square, shape ``(n, 2)`` (one point may be given as ``(2,)``).
        order
            Highest derivative returned: 2 (the default) gives values ``(n, K)``, gradients ``(n, K, 2)``
            and Hessians ``(n, K, 2, 2)``; 1 the values and gradients; 0 the values only.

        Returns
        -------
        tuple of ndarray
            ``order + 1`` arrays; a lower ``order`` skips the higher ones, the others are the same numbers.
        """
        _check_order(order)
        pts = np.atleast_2d(np.asarray(x, dtype=float))
        if pts.shape[1] != 2:
            raise ParameterError(f"2-D points must have shape (n, 2) (got {pts.shape})")
        first, second = self._line.tables(pts[:, 0], order), self._line.tables(pts[:, 1], order)
        i, j = self.indices[:, 0], self.indices[:, 1]
        v1, v2 = first[0], second[0]
        values = v1[:, i] * v2[:, j]
        if order == 0:
            return (values,)
        d1, d2 = first[1], second[1]
        grads = np.stack([d1[:, i] * v2[:, j], v1[:, i] * d2[:, j]], axis=-1)
        if order == 1:
            return values, grads
        s1, s2 = first[2], second[2]
        h12 = d1[:, i] * d2[:, j]
        hess = np.stack(
            [np.stack([s1[:, i] * v2[:, j], h12], -1), np.stack([h12, v1[:, i] * s2[:, j]], -1)], -2
        )
        return values, grads, hess

    def values(self, x: ArrayLike) -> NDArray[np.float64]:
        """The basis functions' values at the points ``x``, ``(len(x), K)``."""
        return self.tables(x, order=0)[0]

    def quadrature(self, n_nodes: int = 40) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Tensor Gauss–Legendre nodes ``(n², 2)`` and weights ``(n²,)`` on the square."""
        x, w = self._line.quadrature(n_nodes)
        gx, gy = np.meshgrid(x, x, indexing="ij")
        return np.column_stack([gx.ravel(), gy.ravel()]), np.outer(w, w).ravel()

    def project(
        self, f: Callable[[NDArray[np.float64]], ArrayLike], n_nodes: int = 40
    ) -> NDArray[np.float64]:
        """Coefficients ``⟨f, e_k⟩`` by tensor quadrature; ``f`` maps points ``(n, 2)`` to values ``(n,)``."""
        x, w, v = _quadrature_table(self, int(n_nodes))
        return v.T @ (np.asarray(f(x), dtype=float) * w)

    def gram(self, n_nodes: int = 40) -> NDArray[np.float64]:
        x, w = self.quadrature(n_nodes)
        v = self.values(x)
        return v.T @ (v * w[:, None])


@lru_cache(maxsize=16)
def _quadrature_table(
    basis: Basis1D | Basis2D, n_nodes: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    # the quadrature's nodes, weights and the basis's values there: what every projection onto the
    # basis starts from, computed once per (basis, n_nodes) (read-only: shared by every call)
    x, w = basis.quadrature(n_nodes)
    v = basis.values(x)
    for a in (x, w, v):
        a.setflags(write=False)
    return x, w, v
