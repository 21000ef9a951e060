"""Fitted convergence rates: log–log slopes and geometric per-round rates of error curves."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dpnet.errors import ParameterError

__all__ = ["geometric_rate", "loglog_slope", "loglog_slope_se"]


def _window(t: ArrayLike, y: ArrayLike, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    if t.shape != y.shape or t.ndim != 1:
        raise ParameterError(f"t and y must be 1-d arrays of the same length (got {t.shape} and {y.shape})")
    keep = (t >= lo) & (t <= hi)
    if keep.sum() < 2 or np.any(y[keep] <= 0) or np.any(t[keep] <= 0):
        raise ParameterError(f"the window [{lo}, {hi}] must hold at least 2 points with t > 0 and y > 0")
    return t[keep], y[keep]


def loglog_slope(t: ArrayLike, y: ArrayLike, lo: float, hi: float) -> float:
    """Least-squares slope of ``log y`` against ``log t`` over ``lo ≤ t ≤ hi`` (−1 for ``y ∝ 1/t``)."""
    tw, yw = _window(t, y, lo, hi)
    return float(np.polyfit(np.log(tw), np.log(yw), 1)[0])


def geometric_rate(t: ArrayLike, y: ArrayLike, lo: float, hi: float) -> float:
    """Least-squares slope of ``log y`` against ``t`` over ``lo ≤ t ≤ hi`` (``log β`` for ``y ∝ β^t``)."""
    tw, yw = _window(t, y, lo, hi)
    return float(np.polyfit(tw, np.log(yw), 1)[0])


def loglog_slope_se(x: ArrayLike, means: ArrayLike, sds: ArrayLike, n_draws: int) -> float:
    """Monte Carlo standard error of :func:`loglog_slope` fitted to sample means over ``n_draws`` draws.

    Each ``log mean_i`` has standard error about ``sd_i / (mean_i √n_draws)`` (delta method); the
    least-squares slope is ``Σ w_i log mean_i`` with ``w_i = (log x_i − mean log x)/S_xx``, so its
    standard error is ``√(Σ w_i² se_i²)``.
    """
    lx = np.log(np.asarray(x, dtype=float))
    m, sd = np.asarray(means, dtype=float), np.asarray(sds, dtype=float)
    if not (lx.shape == m.shape == sd.shape) or lx.size < 2 or n_draws < 2 or np.any(m <= 0):
        raise ParameterError("x, means and sds must be equal-length (≥ 2) arrays with means > 0, n_draws ≥ 2")
    w = (lx - lx.mean()) / np.sum((lx - lx.mean()) ** 2)
    se = sd / (m * np.sqrt(n_draws))
    return float(np.sqrt(np.sum((w * se) ** 2)))
