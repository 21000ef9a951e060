"""What Chapter 1's items share: Figure 1's setting, the (n, p) cell table, and the costs of a bisection
and of a point of an exact grid."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet.params import Parameters

__all__ = ["BISECTION_SECONDS", "RR_POINT_SECONDS", "cells", "fig1_setting", "place_legends"]

#: Measured on this 2-core machine (one core): one exact ε*_RR by bisection, one cell of
#: ``power.rr_critical_budget_inf_grid``, which bisects all cells together (~40 vectorised steps):
#: 0.36–0.47 ms per cell for the paper's test and 0.43–0.73 ms with the randomised boundary, for curves
#: of 4 × 200 to 4 × 20 000 cells (n up to 20 000), on a loaded machine; 1 ms covers both. (A lone
#: scalar bisection, ``power.rr_critical_budget_inf``, takes 30–50 ms.) Figure 1 and the §2 boundary
#: item bisect once per (n, p) cell, the book's ε*_RR curve once per point of each of its two curves.
BISECTION_SECONDS = 1e-3

#: Measured on this 2-core machine (one core, DPNET_JOBS=1): one (n, p, ε) point of an exact grid (a
#: binomial quantile and tail), as in Figure 1's power grid and the test's size on it.
RR_POINT_SECONDS = 4e-6


def fig1_setting(P: Parameters) -> bool:
    """Whether the run uses Figure 1's n, p, α and ε grid."""
    return P.is_paper("n_values", "p_values", "alpha", "eps_grid")


def cells(n_values: tuple[int, ...], p_values: tuple[float, ...], **columns: NDArray) -> pd.DataFrame:
    """A long table with one row per (n, p) cell and one column per named (n, p) array."""
    index = pd.MultiIndex.from_product([n_values, p_values], names=["n", "p"])
    return pd.DataFrame(
        {name: np.asarray(v).ravel() for name, v in columns.items()}, index=index
    ).reset_index()


def place_legends(fig: Figure) -> Figure:
    """Move the legends of the two power panels of a Figure 1 or 2 (:func:`dpnet.plotting.dilemma_figure`)
    to the right of each panel, on an opaque background, between the dashed β_IND lines (all below 0.5
    for the paper's p) and the curves' plateau, so that no line runs through their text: from 0.2 up in
    the left panel (one line, at 0.117), from just above 0.45 in the middle one (a line per p)."""
    for ax, bottom in zip(fig.axes[:2], (0.2, 0.47), strict=True):
        ax.legend(
            loc="lower right", bbox_to_anchor=(1.0, bottom), frameon=True, framealpha=1.0, edgecolor="0.85"
        )
    return fig
