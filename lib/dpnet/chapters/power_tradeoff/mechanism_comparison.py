"""The book's comparison of the two mechanisms, and of the two Laplace noise models, cell by cell.

The comparison (:func:`compare`) of Figure 1's, the §2 boundary item's and Figure 2's results, its counts
and its check (:class:`Comparison`), and its share of the chapter's footprint (:func:`cost`). It records
no figure, table or metric: the chapter glues its counts into the prose. Its one check, that Laplace
noise never needs the smaller budget once both tests have size α, is the book's own claim about what the
group test's boundary does, recorded under the §2 boundary item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet.chapters.power_tradeoff.p003_fig1 import RandomizedResponse
from dpnet.chapters.power_tradeoff.p003_fig2 import Laplace
from dpnet.chapters.power_tradeoff.p003_sec2_boundary import Boundary
from dpnet.params import Cost
from dpnet.reference import dilemma
from dpnet.results import Check

__all__ = ["Comparison", "Wins", "compare", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing: counting the cells of (n, p) tables is negligible beside the experiments."""
    return Cost()


@dataclass(frozen=True)
class Wins:
    """Cells where randomized response needs the smaller ε*, where Laplace noise does, ties, and cells
    where neither reaches β_IND (no comparison)."""

    rr: int
    laplace: int
    ties: int
    neither: int = 0


def _wins(rr_star: NDArray[np.float64], lap_star: NDArray[np.float64]) -> Wins:
    rr_t, lap_t = (np.where(np.isnan(t), np.inf, t) for t in (rr_star, lap_star))
    neither = np.isinf(rr_t) & np.isinf(lap_t)
    tie = np.isclose(rr_t, lap_t) & ~neither
    return Wins(
        int(np.sum((rr_t < lap_t) & ~tie)), int(np.sum((lap_t < rr_t) & ~tie)), int(np.sum(tie)),
        int(np.sum(neither)),
    )  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """Randomized response against Laplace noise, and the two Laplace noise models, cell by cell.

    ε* that is never reached on the grid counts as +∞. Mechanisms are compared on the same procedure:
    grid argmin for both, and for Laplace (paper-faithful noise) the median over runs.

    Attributes
    ----------
    cells
        The (n, p) cells.
    paper_test
        Wins with the paper's randomized-response group test, whose size falls short of α.
    same_size
        Wins with the group test that randomises on its boundary, so that both tests have size α.
    raised, lowered
        Cells where the as-published noise raises, or lowers, the median Laplace ε*.
    mean_ratio
        Mean ratio of the as-published to the paper-faithful median ε* (cells where both are reached).
    largest_spread
        The largest range of a cell's ε* over the Monte Carlo runs, either noise model.
    gap_as_published, gap_paper
        Largest distance of each noise model's median ε* from the printed Figure 2 (``nan`` off the
        paper's setting).
    checks
        The book's check that Laplace noise never needs the smaller budget at the same size, under the
        §2 boundary item.
    paper_setting
        Whether the run uses Figure 1's n, p, α and ε grid.
    """

    cells: int
    paper_test: Wins
    same_size: Wins
    raised: int
    lowered: int
    mean_ratio: float
    largest_spread: float
    gap_as_published: float
    gap_paper: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    deviations: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues the counts it quotes."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the cells are in Figure 1's, the boundary item's and Figure 2's tables."""
        return {}


def compare(rr: RandomizedResponse, lap: Laplace, bnd: Boundary) -> Comparison:
    """Count the cells where each mechanism, and each Laplace noise model, needs the smaller ε*: with the
    paper's randomized-response test (``rr``), and with the one that randomises on its boundary
    (``bnd``), against the paper-faithful Laplace test (``lap``)."""
    star = {v: np.where(np.isnan(t), np.inf, t) for v, t in lap.star.items()}
    both = np.isfinite(star["paper"]) & np.isfinite(star["as_published"])
    ratio = float(np.mean(star["as_published"][both] / star["paper"][both])) if both.any() else np.nan
    spreads = np.concatenate([s.ravel() for s in lap.spread.values()])
    gaps = {
        v: float(dilemma.figure2_gap(t).max()) if lap.paper_setting else np.nan for v, t in lap.star.items()
    }
    checks = dilemma.comparison_checks(bnd.star_grid_randomized, lap.star["paper"])
    return Comparison(
        cells=int(star["paper"].size),
        paper_test=_wins(rr.star_grid, lap.star["paper"]),
        same_size=_wins(bnd.star_grid_randomized, lap.star["paper"]),
        raised=int(np.sum(star["as_published"] > star["paper"])),
        lowered=int(np.sum(star["as_published"] < star["paper"])),
        mean_ratio=ratio,
        largest_spread=float(np.nanmax(spreads)) if np.isfinite(spreads).any() else np.nan,
        gap_as_published=gaps["as_published"],
        gap_paper=gaps["paper"],
        checks={"p003-sec2-boundary": checks},
        paper_setting=bnd.paper_setting,
    )
