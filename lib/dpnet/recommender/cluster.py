"""Clustering steps of the server and the exact-recovery metrics (note ``note-rec-u90``)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linear_sum_assignment

from dpnet.errors import ParameterError

__all__ = ["kmeans", "kmeans_1d", "misclassified", "spectral_labels"]


def kmeans(
    points: ArrayLike, k: int, rng: np.random.Generator, *, n_init: int = 10, max_iter: int = 100
) -> NDArray[np.int64]:
    """Lloyd's k-means with k-means++ seeding, best of ``n_init`` starts (lowest within-cluster SSE)."""
    x = np.asarray(points, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    n = x.shape[0]
    if not 1 <= k <= n:
        raise ParameterError(f"k must be in [1, {n}] (got {k})")
    best, best_sse = np.zeros(n, dtype=np.int64), np.inf
    for _ in range(n_init):
        centres = x[[rng.integers(n)]]
        for _ in range(1, k):
            d2 = np.min(((x[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
            total = d2.sum()
            pick = rng.choice(n, p=d2 / total) if total > 0 else rng.integers(n)
            centres = np.vstack([centres, x[pick]])
        labels = np.full(n, -1)
        for _ in range(max_iter):
            new = np.argmin(((x[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
            if np.array_equal(new, labels):
                break
            labels = new
            for c in range(k):
                if np.any(labels == c):
                    centres[c] = x[labels == c].mean(axis=0)
        sse = float(((x - centres[labels]) ** 2).sum())
        if sse < best_sse:
            best, best_sse = labels.astype(np.int64), sse
    return best


def kmeans_1d(values: ArrayLike, k: int) -> NDArray[np.int64]:
    """Exact (globally optimal) k-means of real numbers; labels ordered by increasing centre.

    Optimal 1-D clusters are contiguous in sorted order: ``k = 2`` scans every split with prefix sums
    (``O(N log N)``), larger ``k`` runs the dynamic programme over splits (``O(k N²)``). No random start.
    """
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    if not 1 <= k <= n:
        raise ParameterError(f"k must be in [1, {n}] (got {k})")
    order = np.argsort(v, kind="stable")
    s = v[order]
    c1 = np.concatenate([[0.0], np.cumsum(s)])
    c2 = np.concatenate([[0.0], np.cumsum(s * s)])

    def sse(i: NDArray[np.int64], j: NDArray[np.int64]) -> NDArray[np.float64]:
        # within-cluster sum of squares of s[i:j], vectorised over i, j (j > i)
        m = (j - i).astype(float)
        return c2[j] - c2[i] - (c1[j] - c1[i]) ** 2 / m

    cuts: list[int]
    if k == 1:
        cuts = []
    elif k == 2:
        split = np.arange(1, n)
        cost = sse(np.zeros_like(split), split) + sse(split, np.full_like(split, n))
        cuts = [int(split[np.argmin(cost)])]
    else:
        cost = np.full((k + 1, n + 1), np.inf)
        arg = np.zeros((k + 1, n + 1), dtype=np.int64)
        cost[0, 0] = 0.0
        for c in range(1, k + 1):
            for j in range(c, n + 1):
                i = np.arange(c - 1, j)
                total = cost[c - 1, i] + sse(i, np.full_like(i, j))
                arg[c, j] = i[np.argmin(total)]
                cost[c, j] = total.min()
        cuts, j = [], n
        for c in range(k, 1, -1):
            j = int(arg[c, j])
            cuts.append(j)
        cuts.reverse()
    sorted_labels = np.searchsorted(np.asarray(cuts, dtype=np.int64), np.arange(n), side="right")
    labels = np.empty(n, dtype=np.int64)
    labels[order] = sorted_labels
    return labels


def spectral_labels(matrix: ArrayLike, k: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """Pairwise-Preference's server step (Fig. 1): spectral projection, then k-means.

    Rows of ``Â X`` (``X`` the eigenvectors of the ``k`` largest eigenvalues in magnitude, note
    ``note-rec-pp-sketch``) are clustered by :func:`kmeans` with k-means++ and ten starts.
    """
    a = np.asarray(matrix, dtype=float)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ParameterError(f"the pairwise matrix must be square (got shape {a.shape})")
    values, vectors = np.linalg.eigh(a)
    top = np.argsort(-np.abs(values), kind="stable")[:k]
    return kmeans(a @ vectors[:, top], k, rng)


def misclassified(truth: ArrayLike, labels: ArrayLike) -> int:
    """Items mislabelled under the best matching of cluster names (Hungarian); 0 is exact recovery."""
    t, p = np.asarray(truth, dtype=np.int64), np.asarray(labels, dtype=np.int64)
    if t.shape != p.shape or t.ndim != 1:
        raise ParameterError("truth and labels must be 1-D arrays of the same length")
    size = int(max(t.max(), p.max())) + 1
    confusion = np.zeros((size, size), dtype=np.int64)
    np.add.at(confusion, (t, p), 1)
    rows, cols = linear_sum_assignment(confusion, maximize=True)
    return int(t.size - confusion[rows, cols].sum())
