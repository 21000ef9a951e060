"""What Chapter 1's items share: Figure 1's setting, the (n, p) cell table and the bisection's cost."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet.params import Parameters

__all__ = ["BISECTION_SECONDS", "cells", "fig1_setting"]

#: Measured on this 2-core machine (one core, DPNET_JOBS=1): one exact ε*_RR by bisection, ~40
#: rr_power calls, whatever n (27–31 ms at every n from 10 to 10⁸). Figure 1 bisects once per
#: (n, p) cell, the book's ε*_RR curve once per point.
BISECTION_SECONDS = 0.03


def fig1_setting(P: Parameters) -> bool:
    """Whether the run uses Figure 1's n, p, α and ε grid."""
    return P.is_paper("n_values", "p_values", "alpha", "eps_grid")


def cells(n_values: tuple[int, ...], p_values: tuple[float, ...], **columns: NDArray) -> pd.DataFrame:
    """A long table with one row per (n, p) cell and one column per named (n, p) array."""
    index = pd.MultiIndex.from_product([n_values, p_values], names=["n", "p"])
    return pd.DataFrame(
        {name: np.asarray(v).ravel() for name, v in columns.items()}, index=index
    ).reset_index()
