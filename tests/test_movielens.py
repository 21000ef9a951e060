"""MovieLens 100k: the registered ratings load, a frame that is not MovieLens 100k is refused, and the
binarised likes and the fitted block model of the chapter's E10 are the documented ones."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest

from dpnet.errors import DataError, ParameterError
from dpnet.recommender.movielens import (
    MOVIELENS100K_SHAPE,
    LikeMatrix,
    check_movielens100k,
    fit_block_model,
    like_matrix,
    load_movielens100k,
)


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


# --------------------------------------------------------------------------------------------------
# binarising the ratings and fitting the block model (E10)
# --------------------------------------------------------------------------------------------------


def small_frame() -> pd.DataFrame:
    """Four users, three movies: movie 30 rated three times, 10 and 20 twice (20 has the higher id)."""
    rows = [(1, 30, 5), (2, 30, 4), (3, 30, 1), (1, 10, 3), (4, 10, 4), (2, 20, 2), (4, 20, 5)]
    return pd.DataFrame(
        [(u, m, r, 0) for u, m, r in rows], columns=["user_id", "movie_id", "rating", "timestamp"]
    )


def test_like_matrix_keeps_the_most_rated_movies_and_binarises() -> None:
    likes = like_matrix(small_frame(), 2)
    assert likes.movies.tolist() == [30, 10]  # 30 has 3 ratings; the tie 10/20 goes to the lower id
    assert likes.users.tolist() == [1, 2, 3, 4]
    assert likes.rated.tolist() == [[True, True], [True, False], [True, False], [False, True]]
    assert likes.liked.tolist() == [[True, False], [True, False], [False, False], [False, True]]
    assert likes.density == pytest.approx(5 / 8)
    assert likes.mean_ratings == pytest.approx(5 / 4)
    assert likes.like_fraction == pytest.approx(3 / 5)
    # a threshold of 5 keeps only the five-star ratings
    assert like_matrix(small_frame(), 2, threshold=5).liked.sum() == 1
    with pytest.raises(ParameterError, match="n_items must be in"):
        like_matrix(small_frame(), 4)


def planted(rng: np.random.Generator) -> tuple[LikeMatrix, np.ndarray, np.ndarray]:
    """600 users of two types (2:1), 60 movies in two clusters (2:1), each user rating 30 movies."""
    types = np.repeat([0, 1], [400, 200])
    clusters = np.repeat([0, 1], [40, 20])
    b = np.array([[0.9, 0.2], [0.2, 0.9]])
    rated = np.zeros((600, 60), dtype=bool)
    for u in range(600):
        rated[u, rng.choice(60, 30, replace=False)] = True
    liked = rated & (rng.random((600, 60)) < b[types][:, clusters])
    return LikeMatrix(np.arange(600), np.arange(60), rated, liked), types, clusters


def test_fit_block_model_recovers_a_planted_model() -> None:
    likes, types, clusters = planted(np.random.default_rng(1))
    fit = fit_block_model(likes, 2, 2, np.random.default_rng(2))
    assert np.array_equal(fit.item_clusters, clusters)  # the largest cluster is numbered 0
    assert np.array_equal(fit.user_types, types)
    assert fit.model.alpha == pytest.approx((2 / 3, 1 / 3)) and fit.model.beta == pytest.approx(
        (2 / 3, 1 / 3)
    )
    assert np.asarray(fit.model.b) == pytest.approx(np.array([[0.9, 0.2], [0.2, 0.9]]), abs=0.03)
    assert fit.model.w == 30 and fit.model.n_items == 60
    assert np.array_equal(fit.likes.sum(), likes.liked.sum()) and fit.ratings.sum() == likes.rated.sum()
    # another seed of k-means gives the same fit: the clusters are numbered by size
    again = fit_block_model(likes, 2, 2, np.random.default_rng(99))
    assert again.model == fit.model


def test_the_movielens_fit_is_the_documented_one(ratings: pd.DataFrame) -> None:
    """The 100 most-rated movies: a third of the pairs rated, 32 ratings per user, two likes in three;
    two movie clusters of 60 and 40, and a separability of 0.075 (the chapter's E10)."""
    from dpnet.recommender import delta_min

    likes = like_matrix(ratings, 100)
    assert likes.density == pytest.approx(0.3174, abs=1e-4) and likes.like_fraction == pytest.approx(
        0.6700, abs=1e-4
    )
    fit = fit_block_model(likes, 2, 2, np.random.default_rng(0))
    assert fit.model.w == 32 and fit.model.beta == (0.6, 0.4)
    assert delta_min(fit.model) == pytest.approx(0.0754, abs=1e-4)
