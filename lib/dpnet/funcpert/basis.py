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
from functools import cached_property

import numpy as np
from numpy.polynomial import legendre
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError

__all__ = ["Basis1D", "Basis2D", "graded_indices"]


def _legendre_tables(t: NDArray[np.float64], n: int) -> tuple[NDArray, NDArray, NDArray]:
    """``P_m(t)``, ``P_m'(t)``, ``P_m''(t)`` for ``m < n``, each of shape ``(len(t), n)``."""
    eye = np.eye(n)
    v = legendre.legvander(t, n - 1)
    d1 = legendre.legval(t, legendre.legder(eye, 1, axis=0)).T if n > 1 else np.zeros((t.size, n))
    d2 = legendre.legval(t, legendre.legder(eye, 2, axis=0)).T if n > 2 else np.zeros((t.size, n))
    return v, d1.reshape(t.size, n), d2.reshape(t.size, n)


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

    def tables(self, x: ArrayLike) -> tuple[NDArray, NDArray, NDArray]:
        """Values, first and second derivatives of ``e_1..e_K`` at the points ``x``, each ``(len(x), K)``."""
        v, d1, d2 = _legendre_tables(self._t(x), self.K)
        c = 2.0 / (self.hi - self.lo)
        return v * self._scale, d1 * self._scale * c, d2 * self._scale * c**2

    def values(self, x: ArrayLike) -> NDArray[np.float64]:
        return self.tables(x)[0]

    def quadrature(self, n_nodes: int = 80) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Gauss–Legendre nodes and weights on ``[lo, hi]``."""
        t, w = legendre.leggauss(n_nodes)
        half = (self.hi - self.lo) / 2
        return self.lo + half * (t + 1), w * half

    def project(
        self, f: Callable[[NDArray[np.float64]], ArrayLike], n_nodes: int = 80
    ) -> NDArray[np.float64]:
        """Coefficients ``⟨f, e_k⟩`` by Gauss–Legendre quadrature (``f`` maps points ``(n,)`` to ``(n,)``)."""
        x, w = self.quadrature(n_nodes)
        return self.values(x).T @ (np.asarray(f(x), dtype=float) * w)

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

    def tables(self, x: ArrayLike) -> tuple[NDArray, NDArray, NDArray]:
        """Values ``(n, K)``, gradients ``(n, K, 2)`` and Hessians ``(n, K, 2, 2)`` at points ``(n, 2)``."""
        pts = np.atleast_2d(np.asarray(x, dtype=float))
        if pts.shape[1] != 2:
            raise ParameterError(f"2-D points must have shape (n, 2) (got {pts.shape})")
        v1, d1, s1 = self._line.tables(pts[:, 0])
        v2, d2, s2 = self._line.tables(pts[:, 1])
        i, j = self.indices[:, 0], self.indices[:, 1]
        values = v1[:, i] * v2[:, j]
        grads = np.stack([d1[:, i] * v2[:, j], v1[:, i] * d2[:, j]], axis=-1)
        h12 = d1[:, i] * d2[:, j]
        hess = np.stack(
            [np.stack([s1[:, i] * v2[:, j], h12], -1), np.stack([h12, v1[:, i] * s2[:, j]], -1)], -2
        )
        return values, grads, hess

    def values(self, x: ArrayLike) -> NDArray[np.float64]:
        return self.tables(x)[0]

    def quadrature(self, n_nodes: int = 40) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Tensor Gauss–Legendre nodes ``(n², 2)`` and weights ``(n²,)`` on the square."""
        x, w = self._line.quadrature(n_nodes)
        gx, gy = np.meshgrid(x, x, indexing="ij")
        return np.column_stack([gx.ravel(), gy.ravel()]), np.outer(w, w).ravel()

    def project(
        self, f: Callable[[NDArray[np.float64]], ArrayLike], n_nodes: int = 40
    ) -> NDArray[np.float64]:
        """Coefficients ``⟨f, e_k⟩`` by tensor quadrature; ``f`` maps points ``(n, 2)`` to values ``(n,)``."""
        x, w = self.quadrature(n_nodes)
        return self.values(x).T @ (np.asarray(f(x), dtype=float) * w)

    def gram(self, n_nodes: int = 40) -> NDArray[np.float64]:
        x, w = self.quadrature(n_nodes)
        v = self.values(x)
        return v.T @ (v * w[:, None])
