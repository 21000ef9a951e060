"""Paper 003 §2, Figures 1 and 2: the privacy–power dilemma (chapter ``power-tradeoff``)."""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike

from dpnet.reference._check import Check

#: Paper 003, Figure 1 (right), ε*_RR heat map as published (2 decimals). Rows n = 25, 50, 75, 100;
#: columns p = 0.6, 0.7, 0.8, 0.9. Computed by the authors as the argmin of |β_IND − β_RR(ε)|
#: over numpy.linspace(0, 5, 100).
FIG1_N: Final = (25, 50, 75, 100)
FIG1_P: Final = (0.6, 0.7, 0.8, 0.9)
FIG1_ALPHA: Final = 0.05
FIG1_EPS_GRID: Final = {"start": 0.0, "stop": 5.0, "num": 100}
FIG1_RR_CRITICAL_BUDGET: Final = (
    (0.35, 0.40, 0.30, 0.45),
    (0.15, 0.25, 0.20, 0.30),
    (0.20, 0.15, 0.15, 0.25),
    (0.15, 0.15, 0.15, 0.20),
)

#: Paper 003, Figure 2 (right), ε*_Laplace heat map as published: one unseeded run of the authors'
#: notebook with 5000 + 5000 draws per ε (same rows and columns as Figure 1).
FIG2_LAPLACE_CRITICAL_BUDGET: Final = (
    (0.45, 0.45, 0.56, 0.81),
    (0.35, 0.35, 0.35, 0.56),
    (0.25, 0.25, 0.30, 0.45),
    (0.20, 0.20, 0.25, 0.40),
)
#: Half-width within which an independent Monte Carlo run should land on the published Figure 2
#: cells: the spec's three seeds of the notebook's procedure landed within it, except the flat-curve
#: cell n = 25, p = 0.6, whose argmin ranged over 0.25–0.51 (spec 003 §6, Fig 2; §9 item 19).
FIG2_TOLERANCE: Final = 0.15
FIG2_SAMPLES: Final = 5000
FIG2_FLAT_CELL: Final = (25, 0.6)

#: Paper 003, §2: "ε* < 1 in all cases" for both mechanisms.
CLAIMED_MAX_CRITICAL_BUDGET: Final = 1.0


def is_figure1_setting(n_values: list[int], p_values: list[float], alpha: float, eps: object) -> bool:
    """True when a run uses the paper's Figure 1 setting (n, p, α and ε grid), so its exact numbers apply."""
    grid = np.linspace(FIG1_EPS_GRID["start"], FIG1_EPS_GRID["stop"], FIG1_EPS_GRID["num"])
    eps_arr = np.asarray(eps, dtype=float)
    return (
        tuple(n_values) == FIG1_N
        and tuple(p_values) == FIG1_P
        and alpha == FIG1_ALPHA
        and eps_arr.shape == grid.shape
        and bool(np.allclose(eps_arr, grid, rtol=0, atol=1e-12))
    )


def is_figure2_setting(
    n_values: list[int], p_values: list[float], alpha: float, eps: object, mc_samples: int
) -> bool:
    """True when a run uses the paper's Figure 2 setting: Figure 1's, with 5000 + 5000 Monte Carlo draws.

    The Figure 2 tolerance was calibrated with the paper's draws, hence ``mc_samples``.
    """
    return is_figure1_setting(n_values, p_values, alpha, eps) and mc_samples == FIG2_SAMPLES


#: The deviation of the published Figure 2 from the paper's text: (title, explanation).
FIG2_DEVIATION: Final = (
    "Laplace noise per state instead of per log-likelihood ratio",
    "The published Figure 2 comes from the authors' notebook, which adds independent Lap(Δ/ε) noise to the "
    "log-likelihood of each state: twice the variance of the single Lap(Δ/ε) on each LLR that the paper's "
    "§2 describes. The chapter shows the paper-faithful model as the main result, the notebook's beside it.",
)


def figure1_checks(rr_star: ArrayLike, rr_star_inf: ArrayLike) -> list[Check]:
    """Figure 1 on the paper's grid: the published heat map, ε* < 1, and ε* decreasing with n."""
    grid, exact = np.asarray(rr_star, dtype=float), np.asarray(rr_star_inf, dtype=float)
    published = np.array(FIG1_RR_CRITICAL_BUDGET)
    diff = np.max(np.abs(np.round(grid, 2) - published))
    return [
        ("ε*_RR heat map equals the published one cell for cell (2 decimals)", bool(diff == 0),
         f"largest cell difference {diff:.2f}"),
        ("ε*_RR < 1 in every cell (paper §2)", bool(np.all(grid < CLAIMED_MAX_CRITICAL_BUDGET)),
         f"max {grid.max():.4f}"),
        ("ε*_RR < 1 also for the exact infimum", bool(np.all(exact < CLAIMED_MAX_CRITICAL_BUDGET)),
         f"max {exact.max():.4f}"),
        ("ε*_RR decreases with n: row n = 100 ≤ row n = 25 for every p", bool(np.all(grid[-1] <= grid[0])),
         f"n = 100: {np.round(grid[-1], 2).tolist()}; n = 25: {np.round(grid[0], 2).tolist()}"),
    ]  # fmt: skip


def figure2_gap(table: ArrayLike) -> np.ndarray:
    """|ε* − published Figure 2 ε*| per cell, with the flat-curve cell set to 0."""
    gap = np.abs(np.asarray(table, dtype=float) - np.array(FIG2_LAPLACE_CRITICAL_BUDGET))
    gap[FIG1_N.index(FIG2_FLAT_CELL[0]), FIG1_P.index(FIG2_FLAT_CELL[1])] = 0.0
    return gap


def figure2_checks(lap_star_paper: ArrayLike, lap_star_published: ArrayLike) -> list[Check]:
    """Figure 2 on the paper's grid: which noise model the published heat map comes from, and ε* < 1.

    Takes the median ε* over repeated Monte Carlo runs for each model.
    """
    paper, as_published = np.asarray(lap_star_paper, dtype=float), np.asarray(lap_star_published, dtype=float)
    gap, paper_gap = figure2_gap(as_published), figure2_gap(paper)
    return [
        (f"as-published ε* within ±{FIG2_TOLERANCE} of the published heat map "
         "(except the flat-curve cell n = 25, p = 0.6)", bool(np.all(gap <= FIG2_TOLERANCE + 1e-9)),
         f"largest difference {gap.max():.3f}"),
        (f"the paper-faithful model does not fit the published heat map (a cell off by > {FIG2_TOLERANCE}):"
         " the deviation is needed", bool(np.any(paper_gap > FIG2_TOLERANCE + 1e-9)),
         f"largest difference {paper_gap.max():.3f}"),
        ("ε*_Laplace < 1 in every cell (paper-faithful; paper §2)",
         bool(np.all(paper < CLAIMED_MAX_CRITICAL_BUDGET)), f"max {paper.max():.4f}"),
        ("ε*_Laplace < 1 in every cell (as-published; paper §2)",
         bool(np.all(as_published < CLAIMED_MAX_CRITICAL_BUDGET)), f"max {as_published.max():.4f}"),
        ("ε*_Laplace is largest at p = 0.9 for every n (as-published; paper Fig 2 caption)",
         bool(np.all(np.argmax(as_published, axis=1) == len(FIG1_P) - 1)),
         f"argmax columns {np.argmax(as_published, axis=1).tolist()}"),
    ]  # fmt: skip
