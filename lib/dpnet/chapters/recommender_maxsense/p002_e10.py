"""Paper 002, experiment E10 (the book's): real ratings, the block model fitted to MovieLens 100k's likes,
and both algorithms on users simulated from the fit."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    MATRIX_ENTRY_BYTES,
    SMALL,
    Refined,
    eps_label,
    ms_grid,
    ms_seconds,
    pp_seconds,
    refined_curves,
    refined_points,
    sweep_curves,
)
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.reference import recommender as ref
from dpnet.reference._check import every, within
from dpnet.results import Check

#: E10: movie clusters L and user types K of the fit, and Pairwise-Preference's range in multiples of
#: MaxSense's predicted U_90.
E10_L, E10_K = 2, 2
E10_PP_GRID: Refined = (1.0, 32.0, {"quick": (3, 2), "full": (4, 3)})


def cost(values: Mapping[str, Any]) -> Cost:
    """E10's time and memory: at every ε of ``movielens_eps``, ``trials`` recoveries of MaxSense at the 15
    points of its grid and ``movielens_trials`` recoveries of Pairwise-Preference at each point of its
    adaptive curve, on ``movielens_items`` items; each Pairwise-Preference recovery holds its ``N × N``
    matrix. Loading the data set and the fit are counted in the chapter's fixed seconds."""
    n = values["movielens_items"]
    maxsense = E4_GRID[2] * values["trials"] * ms_seconds(n)
    pairwise = refined_points(E10_PP_GRID, values["mode"]) * values["movielens_trials"] * pp_seconds(n)
    return Cost(seconds=len(values["movielens_eps"]) * (maxsense + pairwise), peak=MATRIX_ENTRY_BYTES * n**2)


@dataclass(frozen=True)
class MovieLens:
    """E10: the block model fitted to MovieLens 100k's likes, and both algorithms on users drawn from it."""

    shape: tuple[int, int, int]  # ratings, users, movies of the data set
    rating_values: tuple[int, ...]
    likes: rc.LikeMatrix
    fit: rc.BlockFit
    theta: float
    eps: tuple[float, ...]
    ms_curves: pd.DataFrame
    pp_curves: pd.DataFrame
    ms_u90: tuple[float, ...]
    pp_u90: tuple[float, ...]
    checks: Mapping[str, list[Check]]
    #: E10 has no paper setting to leave: the paper has no experiment on data.
    paper_setting = True

    @property
    def model(self) -> rc.BlockModel:
        """The fitted block model."""
        return self.fit.model

    @property
    def delta(self) -> float:
        """Thm 5.1's separability δ_min of the fit."""
        return rc.delta_min(self.model, self.theta)

    @property
    def predicted(self) -> tuple[float, ...]:
        """MaxSense's Gaussian prediction of U_90 at each ε."""
        return tuple(rc.predicted_u(self.model, e, theta=self.theta) for e in self.eps)

    @property
    def nonprivate_prediction(self) -> float:
        """MaxSense's Gaussian prediction of U_90 on the fit without privacy (ε = ∞)."""
        return rc.predicted_u(self.model, math.inf, theta=self.theta)

    def privacy_factor(self, eps: float) -> float:
        """The predicted U_90 at ε over the prediction without privacy: what privacy alone costs."""
        return rc.predicted_u(self.model, eps, theta=self.theta) / self.nonprivate_prediction

    @property
    def collapse(self) -> tuple[float, ...]:
        """MaxSense's U_90 over Thm 5.1's scale ``N² ln N/(w ε̂² δ²)``, at each ε."""
        return tuple(
            u / rc.maxsense_scale(self.model, e, self.theta)
            for u, e in zip(self.ms_u90, self.eps, strict=True)
        )

    @property
    def fit_table(self) -> pd.DataFrame:
        """The fitted model: one row per user type, α_k and b_kl, with β_l in the column names."""
        m = self.model
        rows = [
            {
                "user type k": k + 1,
                "α_k": a,
                **{f"b_k{c + 1} (β_{c + 1} = {m.beta[c]:.2f})": m.b[k][c] for c in range(m.L)},
            }
            for k, a in enumerate(m.alpha)
        ]
        return pd.DataFrame(rows)

    @property
    def table(self) -> pd.DataFrame:
        """U_90 of both algorithms at each ε, MaxSense's prediction, and the ratios."""
        return pd.DataFrame(
            {
                "ε": [eps_label(e) for e in self.eps],
                "MaxSense U_90": self.ms_u90,
                "Gaussian prediction": self.predicted,
                "measured/predicted": np.asarray(self.ms_u90) / np.asarray(self.predicted),
                "Pairwise-Preference U_90": self.pp_u90,
                "PP/MaxSense": np.asarray(self.pp_u90) / np.asarray(self.ms_u90),
            }
        )

    def at(self, eps: float, column: str) -> float:
        """A column of :attr:`table` at ε (``nan`` when ε is not in the run)."""
        if eps not in self.eps:
            return math.nan
        return float(self.table[column].iloc[self.eps.index(eps)])

    def metrics(self) -> dict[str, Any]:
        """The fit and both algorithms' U_90."""
        m = self.model
        return {
            "movielens_shape": {"ratings": self.shape[0], "users": self.shape[1], "movies": self.shape[2]},
            "movielens_fit": {
                "alpha": m.alpha,
                "beta": m.beta,
                "b": m.b,
                "N": m.n_items,
                "w": m.w,
                "density": self.likes.density,
                "mean_ratings": self.likes.mean_ratings,
                "like_fraction": self.likes.like_fraction,
                "delta_min": self.delta,
            },
            "movielens_u90": [
                {"eps": "inf" if math.isinf(e) else e, "maxsense": u_ms, "predicted": p, "pairwise": u_pp}
                for e, u_ms, p, u_pp in zip(self.eps, self.ms_u90, self.predicted, self.pp_u90, strict=True)
            ],
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """Both algorithms' U_90, and the fit."""
        return {"p002-e10": self.table, "p002-e10-fit": self.fit_table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The semi-synthetic design is the book's."""
        return (
            (
                "p002-e10",
                "Semi-synthetic users: the book fits the block model to MovieLens likes",
                "note-rec-movielens",
            ),
        )

    def figure(self) -> Figure:
        """(a) the like matrix ordered by the fit's clusters; (b) success against U of both algorithms."""
        fig, axes = panel_row(2, height=4.0)
        rows = np.lexsort((-self.likes.rated.sum(axis=1), self.fit.user_types))
        cols = np.argsort(self.fit.item_clusters, kind="stable")
        shown = self.likes.rated.astype(float) + self.likes.liked
        axes[0].imshow(
            shown[np.ix_(rows, cols)], aspect="auto", cmap="Greys", interpolation="nearest", vmin=0, vmax=2
        )
        for cut in np.cumsum(np.bincount(self.fit.item_clusters))[:-1]:
            axes[0].axvline(cut - 0.5, color="C3", lw=1.2)
        for cut in np.cumsum(np.bincount(self.fit.user_types))[:-1]:
            axes[0].axhline(cut - 0.5, color="C3", lw=1.2)
        axes[0].set(
            xlabel=f"movie (top {self.model.n_items}, by cluster)",
            ylabel="user (by type)",
            title="(a) likes (black), other ratings (grey)",
        )
        axes[0].grid(False)
        for j, e in enumerate(self.eps):
            for curves, style, name in ((self.ms_curves, "o-", "MaxSense"), (self.pp_curves, "s--", "PP")):
                cell = curves[curves["setting"] == j]
                axes[1].semilogx(
                    cell["U"],
                    cell["success"],
                    style,
                    ms=3,
                    color=f"C{j}",
                    label=f"{name}, ε = {eps_label(e)}",
                )
        axes[1].axhline(0.9, color="grey", lw=0.6)
        axes[1].set(
            xlabel="simulated users U", ylabel="P(exact recovery)", title="(b) users simulated from the fit"
        )
        axes[1].legend(fontsize=SMALL, ncol=2)
        return fig


def movielens(P: Parameters) -> MovieLens:
    """E10 (streams ``p002-e10/fit``, ``p002-e10/maxsense``, ``p002-e10/pairwise``): load MovieLens 100k,
    binarise it on the ``movielens_items`` most-rated movies, fit the block model (L = K = 2), and run
    MaxSense (``trials`` runs per point, around its prediction) and Pairwise-Preference
    (``movielens_trials`` runs per point, on ``E10_PP_GRID`` times MaxSense's prediction) at every ε
    of ``movielens_eps`` on users simulated from the fit."""
    frame = rc.load_movielens100k()
    shape = (len(frame), int(frame["user_id"].nunique()), int(frame["movie_id"].nunique()))
    values = tuple(sorted(int(v) for v in frame["rating"].unique()))
    likes = rc.like_matrix(frame, P.movielens_items)
    fit = rc.fit_block_model(likes, E10_L, E10_K, P.rng("p002-e10/fit"))
    eps = tuple(P.movielens_eps)
    ms = [rc.Setting("maxsense", fit.model, e, theta=P.theta) for e in eps]
    ms_curves, ms_u = sweep_curves(
        P, "p002-e10/maxsense", ms, [ms_grid(s) for s in ms], P.trials, "MaxSense, MovieLens fit"
    )
    pp = [rc.Setting("pairwise", fit.model, e) for e in eps]
    pp_ranges = [(E10_PP_GRID[0] * s.predicted_u90(), E10_PP_GRID[1] * s.predicted_u90()) for s in ms]
    pp_curves, pp_u = refined_curves(
        P,
        "p002-e10/pairwise",
        pp,
        pp_ranges,
        E10_PP_GRID,
        "Pairwise-Preference, MovieLens fit",
        P.movielens_trials,
    )
    out = MovieLens(
        shape, values, likes, fit, P.theta, eps, ms_curves, pp_curves, tuple(ms_u), tuple(pp_u), {}
    )
    return replace(out, checks={"p002-e10": _movielens_checks(out)})


def _movielens_checks(e10: MovieLens) -> list[Check]:
    """The data set's documented facts; MaxSense's U_90 against its prediction and Thm 5.1's scale."""
    (n, users, movies), (n0, users0, movies0) = e10.shape, rc.MOVIELENS100K_SHAPE
    checks = [
        Check(f"MovieLens 100k holds {n0:,} ratings", n == n0, f"{n:,} rows", "ratings", "reference"),
        Check(f"by {users0} users", users == users0, f"{users} users", "users", "reference"),
        Check(f"of {movies0:,} movies", movies == movies0, f"{movies:,} movies", "movies", "reference"),
        Check(
            "each rating an integer from 1 to 5",
            e10.rating_values == (1, 2, 3, 4, 5),
            f"values {list(e10.rating_values)}",
            "scale",
            "reference",
        ),
    ]
    factor = ref.MAXSENSE_TRANSITION["prediction_factor"]
    ratios = [u / p for u, p in zip(e10.ms_u90, e10.predicted, strict=True)]
    checks.append(
        Check(
            f"MaxSense's U_90 on the fit within a factor {factor} of the Gaussian prediction, every ε",
            every(r > 0 and max(r, 1 / r) <= factor for r in ratios),  # nan fails: every comparison is False
            f"measured/predicted {min(ratios):.2f}–{max(ratios):.2f}" if ratios else "no ε",
            "prediction",
            "reference",
        )
    )
    lo, hi = ref.COLLAPSE_RANGE
    constants = [float(c) for c in e10.collapse]
    checks.append(
        Check(
            f"Thm 5.1's scale: U_90/(N² ln N/(w ε̂² δ²)) on the fit in [{lo:g}, {hi:g}], every ε",
            every(within(c, ref.COLLAPSE_RANGE) for c in constants),
            f"range {min(constants):.1f}–{max(constants):.1f}" if constants else "no ε",
            "thm51-scale",
        )
    )
    return checks
