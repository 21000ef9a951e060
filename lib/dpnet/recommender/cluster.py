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
    """Lloyd's k-means with k-means++ seeding, best of ``n_init`` starts (lowest within-cluster SSE).

    The starts are seeded one after the other (every random draw is a seed's), then iterated together:
    each start stops at the first iteration that leaves its labels unchanged, or after ``max_iter``. A
    centre is the mean of its points, summed in their order; a centre left without points stays put.
    """
    x = np.asarray(points, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    n, dim = x.shape
    if not 1 <= k <= n:
        raise ParameterError(f"k must be in [1, {n}] (got {k})")
    centres = np.empty((n_init, k, dim))
    for start in range(n_init):
        centres[start, 0] = x[rng.integers(n)]
        d2 = np.full(n, np.inf)  # squared distance to the nearest centre chosen so far
        for c in range(1, k):
            d2 = np.minimum(d2, ((x - centres[start, c - 1]) ** 2).sum(-1))
            total = d2.sum()
            pick = rng.choice(n, p=d2 / total) if total > 0 else rng.integers(n)
            centres[start, c] = x[pick]
    labels = np.full((n_init, n), -1, dtype=np.intp)
    active = np.ones(n_init, dtype=bool)
    offset = (np.arange(n_init) * k)[:, None]
    columns = [np.tile(x[:, d], n_init) for d in range(dim)]
    for _ in range(max_iter):
        new = np.argmin(((x[None, :, None, :] - centres[:, None]) ** 2).sum(-1), axis=2)
        active &= np.any(new != labels, axis=1)
        if not active.any():
            break
        labels[active] = new[active]
        bins = (offset + labels).ravel()
        counts = np.bincount(bins, minlength=n_init * k).reshape(n_init, k)
        sums = [np.bincount(bins, weights=column, minlength=n_init * k) for column in columns]
        moved = active[:, None] & (counts > 0)
        means = np.stack(sums, axis=-1).reshape(n_init, k, dim) / np.maximum(counts, 1)[..., None]
        centres[moved] = means[moved]
    best, best_sse = np.zeros(n, dtype=np.int64), np.inf
    for start in range(n_init):
        sse = float(((x - centres[start][labels[start]]) ** 2).sum())
        if sse < best_sse:
            best, best_sse = labels[start].astype(np.int64), sse
    return best


def kmeans_1d(values: ArrayLike, k: int) -> NDArray[np.int64]:
    """Exact (globally optimal) k-means of real numbers; labels ordered by increasing centre.

    Optimal 1-D clusters are contiguous in sorted order: ``k = 2`` scans every split with prefix sums
    (``O(N log N)``), larger ``k`` runs the dynamic programme over splits (``O(k N²)``, vectorised over
    the splits). No random start.
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
        i, j = np.triu_indices(n + 1, 1)  # every segment s[i:j], i < j
        within = np.full((n + 1, n + 1), np.inf)
        within[i, j] = sse(i, j)
        for c in range(1, k + 1):
            # the last cluster is s[i:j]: the first c − 1 cover s[:i] (infinite where they cannot)
            total = cost[c - 1][:, None] + within
            arg[c, c:] = np.argmin(total[:, c:], axis=0)
            cost[c, c:] = total[arg[c, c:], np.arange(c, n + 1)]
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
