"""MovieLens 100k: the registered ratings load, and a frame that is not MovieLens 100k is refused."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest

from dpnet.errors import DataError
from dpnet.recommender.movielens import MOVIELENS100K_SHAPE, check_movielens100k, load_movielens100k


@pytest.fixture(scope="module")
def ratings() -> pd.DataFrame:
    try:
        return load_movielens100k()
    except DataError as exc:
        pytest.skip(f"MovieLens 100k unavailable (no mirror, cache or package index): {exc}")


def test_the_ratings_are_movielens_100k(ratings: pd.DataFrame) -> None:
    assert (len(ratings), ratings.user_id.nunique(), ratings.movie_id.nunique()) == MOVIELENS100K_SHAPE
    assert sorted(ratings.rating.unique()) == [1, 2, 3, 4, 5]
    assert list(ratings.columns) == ["user_id", "movie_id", "rating", "timestamp"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.iloc[1:], "hold 99,999 ratings"),
        (
            lambda f: f.assign(rating=f.rating.where(f.index != 0, 6)),
            r"integers 1 to 5 \(found \[1, 2, 3, 4, 5, 6\]\)",
        ),
        (lambda f: f.drop(columns="timestamp"), r"lack the columns \['timestamp'\]"),
        (
            lambda f: f.assign(
                movie_id=f.movie_id.where(f.index != 1, f.movie_id[0]),
                user_id=f.user_id.where(f.index != 1, f.user_id[0]),
            ),
            "repeated pair|ratings of",
        ),
    ],
)
def test_other_data_are_refused(
    ratings: pd.DataFrame, change: Callable[[pd.DataFrame], pd.DataFrame], message: str
) -> None:
    with pytest.raises(DataError, match=message):
        check_movielens100k(change(ratings.copy()))
