"""The book's comparison of the two mechanisms, and of the two Laplace noise models, cell by cell.

The comparison (:func:`compare`) of Figure 1's and Figure 2's results, its counts
(:class:`Comparison`), and its share of the chapter's footprint (:func:`cost`). It records no figure
or table: the chapter glues its counts into the prose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpnet.chapters.power_tradeoff.p003_fig1 import RandomizedResponse
from dpnet.chapters.power_tradeoff.p003_fig2 import Laplace
from dpnet.params import Cost
from dpnet.reference import dilemma

__all__ = ["Comparison", "compare", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing: counting the cells of two (n, p) tables is negligible beside the experiments."""
    return Cost()


@dataclass(frozen=True)
class Comparison:
    """Randomized response against Laplace noise, and the two Laplace noise models, cell by cell.

    ε* that is never reached on the grid counts as +∞. Mechanisms are compared like with like: grid
    argmin for both, and for Laplace the median over runs.
    """

    cells: int
    rr_wins: int
    laplace_wins: int
    ties: int
    raised: int
    lowered: int
    mean_ratio: float
    largest_spread: float
    gap_as_published: float
    gap_paper: float


def compare(rr: RandomizedResponse, lap: Laplace) -> Comparison:
    """Count the cells where each mechanism, and each Laplace noise model, needs the smaller ε*."""
    rr_t = np.where(np.isnan(rr.star_grid), np.inf, rr.star_grid)
    star = {v: np.where(np.isnan(t), np.inf, t) for v, t in lap.star.items()}
    tie = np.isclose(rr_t, star["paper"])
    both = np.isfinite(star["paper"]) & np.isfinite(star["as_published"])
    ratio = float(np.mean(star["as_published"][both] / star["paper"][both])) if both.any() else np.nan
    spreads = np.concatenate([s.ravel() for s in lap.spread.values()])
    gaps = {
        v: float(dilemma.figure2_gap(t).max()) if lap.paper_setting else np.nan for v, t in lap.star.items()
    }
    return Comparison(
        cells=rr_t.size,
        rr_wins=int(np.sum((rr_t < star["paper"]) & ~tie)),
        laplace_wins=int(np.sum((star["paper"] < rr_t) & ~tie)),
        ties=int(np.sum(tie)),
        raised=int(np.sum(star["as_published"] > star["paper"])),
        lowered=int(np.sum(star["as_published"] < star["paper"])),
        mean_ratio=ratio,
        largest_spread=float(np.nanmax(spreads)) if np.isfinite(spreads).any() else np.nan,
        gap_as_published=gaps["as_published"],
        gap_paper=gaps["paper"],
    )
