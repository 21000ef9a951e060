"""What the items of Chapter 7 share: the reference case, MaxSense's grids, the sweep helpers, and the
measured cost of one recovery of each algorithm.

The items' cost terms (``cost(values)``) count recoveries: Pairwise-Preference's cost ``a + b N² + c N³``
each (the eigendecomposition and k-means of an ``N × N`` matrix), MaxSense's ``a + b N`` each (the
aggregate simulator). Calibrated on this 2-core machine (one core): a recovery of Pairwise-Preference
took 3.5, 11.5 and 49 ms at N = 100, 200 and 400, one of MaxSense 0.5 ms. An ``N × N`` recovery holds
48 bytes per entry of its matrix (the matrix, its float copy and LAPACK's workspace).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.params import Parameters
from dpnet.results import Check

#: The reference case of MaxSense (M-asym): N items, w ratings per user, budget ε.
N_REF, W_REF, EPS_REF = 100, 10, 1.0
#: Legends and annotations: the smallest font of the chapter's figures (points, at the figures' width).
SMALL = 8
#: Pairwise-Preference's U_90 is found adaptively (:func:`~dpnet.recommender.experiments.adaptive_curves`):
#: a range, then (first points, refining rounds) by mode.
Refined = tuple[float, float, Mapping[str, tuple[int, int]]]
#: MaxSense's grid of U around the Gaussian prediction (from, to, points, in multiples of it): E4's, and
#: that of every other MaxSense sweep.
E4_GRID = (0.1, 4.0, 15)
#: The grid of E4c's and E6's comparisons of two simulators.
E4_EXACT_GRID = (0.4, 2.5, 7)

#: Measured costs on this 2-core machine (one core).
PP_SECONDS = (1.1e-3, 2.2e-7, 2e-10)  # one Pairwise-Preference recovery: a + b N² + c N³ (eigh, k-means)
MS_SECONDS = (5e-4, 1e-6)  # one MaxSense recovery, aggregate simulator: a + b N
#: Bytes per entry of the largest ``N × N`` matrix a Pairwise-Preference recovery holds.
MATRIX_ENTRY_BYTES = 48.0


def pp_seconds(n_items: float) -> float:
    """One core's seconds for one recovery of Pairwise-Preference on N items."""
    a, b, c = PP_SECONDS
    return a + b * n_items**2 + c * n_items**3


def ms_seconds(n_items: float) -> float:
    """One core's seconds for one recovery of MaxSense (aggregate simulator) on N items."""
    a, b = MS_SECONDS
    return a + b * n_items


def refined_points(plan: Refined, mode: str) -> int:
    """The points of an adaptive curve under ``plan`` in ``mode``: its first points plus one per round."""
    points, rounds = plan[2][mode]
    return points + rounds


def eps_label(eps: float) -> str:
    """ε as the tables show it: ``∞`` for the non-private limit."""
    return "∞" if math.isinf(eps) else f"{eps:g}"


def undecided(checks: Sequence[Check], reason: str) -> list[Check]:
    """The same checks, undefined for this run (their ranges hold at θ = 1 only)."""
    return [c._replace(passed=None, detail=reason) for c in checks]


def sweep_curves(
    P: Parameters, stream: str, settings: Sequence[rc.Setting], grids: Sequence[Any], trials: int, desc: str
) -> tuple[pd.DataFrame, list[float]]:
    """Success curves of each setting on its grid (stream ``stream``), and each setting's U_90."""
    curves = rc.success_curves(settings, grids, trials=trials, stream=P.stream(stream), desc=desc)
    return curves, [float(u) for u in rc.thresholds(curves)]


def refined_curves(
    P: Parameters,
    stream: str,
    settings: Sequence[rc.Setting],
    ranges: Sequence[tuple[float, float]],
    plan: Refined,
    desc: str,
    trials: int | None = None,
) -> tuple[pd.DataFrame, list[float]]:
    """Pairwise-Preference's success curves refined at their crossings (``trials`` runs per point, by
    default ``pp_trials``), and each setting's U_90; ``ranges`` are ``plan``'s range scaled per setting."""
    points, rounds = plan[2][P.mode]
    runs = P.pp_trials if trials is None else trials
    curves = rc.adaptive_curves(
        settings, ranges, points=points, rounds=rounds, trials=runs, stream=P.stream(stream), desc=desc
    )
    return curves, [float(u) for u in rc.thresholds(curves)]


def ms_grid(setting: rc.Setting, grid: tuple[float, float, int] = E4_GRID) -> NDArray[np.float64]:
    """MaxSense's grid of user counts: ``grid`` = (from, to, points) in multiples of its predicted U_90."""
    return rc.predicted_grid(setting, *grid)


def loglog_axes(ax: Axes, xlabel: str, ylabel: str, title: str) -> None:
    """Log–log axes with their labels and title."""
    ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel=ylabel, title=title)
