"""A survival cohort as a stream of per-period likelihoods, for online learning (paper 003 §4.3, §14.1).

The paper's online runs analyse the centres' data "every 10 days". Following the authors' code (note
``note-ol-periods``), each patient enters the stream in the period of their event or censoring time,
``period = ⌊time / period_length⌋ + 1``, and each centre's per-period likelihood is the Cox partial
likelihood of that period's patients alone (risk sets within the period). A centre with no patients
in a period contributes ``log γ ≡ 0``.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import real
from dpnet.survival.centres import _centred_cohort
from dpnet.survival.cox import LegacyTies, cox_partial_loglik

__all__ = ["period_loglik", "periods"]


def periods(time: ArrayLike, period_length: float) -> NDArray[np.int64]:
    """``⌊time / period_length⌋ + 1`` for each patient: the period (1, 2, …) in which they enter the stream.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``period_length`` is not > 0 or a time is negative or not finite.
    """
    length = real(gt=0.0)("period_length", period_length)
    ts = np.asarray(time, dtype=float)
    if not np.all(np.isfinite(ts)) or np.any(ts < 0):
        raise ParameterError("times must be finite and ≥ 0")
    return (np.floor(ts / length) + 1).astype(np.int64)


def period_loglik(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    theta: ArrayLike,
    *,
    period_length: float,
    variant: Literal["paper", "as_published"] = "paper",
    ties: LegacyTies = "row",
) -> NDArray[np.float64]:
    """Per-period, per-centre partial log-likelihoods ``stream[t − 1, i, k] = log γ_{i,t}(θ_k)``.

    Periods run from 1 to the last one holding a patient (:func:`periods`), so the result has shape
    ``(T, n, |Θ|)``; the input of :func:`~dpnet.inference.online.online_log_ratios`. Summed over periods it is
    not the centres' full-data likelihood: risk sets are cut at the period boundaries.

    ``ties`` orders tied times in the as-published likelihood
    (:func:`~dpnet.survival.cox.cox_partial_loglik`). It matters when times are coarse: the cancer cohort's
    whole months make every patient of a monthly period tied, and the authors' notebook, which had
    sorted that cohort by decreasing TMB, used ``"x_desc"`` (its printed limit −17.0 for Fig 14.6; row
    order gives about half of it). The paper's likelihood does not depend on it.
    """
    xs, ts, ev, labels, n_centres, states = _centred_cohort(x, time, event, centres, theta)
    period = periods(ts, period_length)
    out = np.zeros((int(period.max()), n_centres, len(states)))
    order = np.lexsort((labels, period))  # group by (period, centre)
    keys = period[order] * n_centres + labels[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    for lo, hi in zip(starts, np.r_[starts[1:], len(keys)], strict=True):
        rows = order[lo:hi]
        t, i = int(period[rows[0]]) - 1, int(labels[rows[0]])
        out[t, i] = cox_partial_loglik(xs[rows], ts[rows], ev[rows], states, variant=variant, ties=ties)
    return out
