"""A survival cohort as a stream of per-period likelihoods, for online learning (paper 003 §4.3, §14.1).

The paper's online runs analyse the centres' data "every 10 days". Following the authors' code (note
``note-ol-periods``), each patient enters the stream in the period of their event or censoring time,
``period = ⌊time / period_length⌋ + 1``, and each centre's per-period likelihood is the Cox partial
likelihood of that period's patients alone (risk sets within the period). A centre with no patients
in a period contributes ``log γ ≡ 0``.

Each patient enters exactly one period's likelihood at one centre, so a Laplace mechanism on each
release protects a patient over the whole stream when its sensitivity bounds that one release.
:func:`patient_changes` measures what one patient does to its release (the stream's local sensitivity),
and :func:`stream_information` what cutting the risk sets at the periods' boundaries costs in Fisher
information.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import real
from dpnet.survival.centres import _centred_cohort
from dpnet.survival.cox import LegacyTies, cox_partial_loglik, cox_score_information, neighbour_changes

__all__ = ["patient_changes", "period_loglik", "periods", "stream_information"]

#: The changes of one patient that keep it in its period: removing it, or changing its treatment or its
#: event indicator (a new time could move it to another period, so two releases would change).
StreamChange = Literal["remove", "treatment", "event"]


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
    for rows in _cells(period, labels, n_centres):
        t, i = int(period[rows[0]]) - 1, int(labels[rows[0]])
        out[t, i] = cox_partial_loglik(xs[rows], ts[rows], ev[rows], states, variant=variant, ties=ties)
    return out


def _cells(period: NDArray[np.int64], labels: NDArray[np.int64], n_centres: int) -> list[NDArray[np.int64]]:
    """The patients of each non-empty (period, centre), in the order of the periods, then the centres."""
    order = np.lexsort((labels, period))
    keys = period[order] * n_centres + labels[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return [order[lo:hi] for lo, hi in zip(starts, np.r_[starts[1:], len(keys)], strict=True)]


def patient_changes(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    theta: ArrayLike,
    *,
    period_length: float,
    change: StreamChange = "remove",
) -> NDArray[np.float64]:
    """What each patient does to the one release of the stream it enters (eq. (3), cut risk sets).

    Row ``k`` holds ``log γ′ − log γ`` of patient ``k``'s period and centre (:func:`period_loglik` with
    the paper's likelihood) at each θ, when patient ``k`` is removed (``"remove"``) or its treatment or
    event indicator is changed (``"treatment"``, ``"event"``), by
    :func:`~dpnet.survival.cox.neighbour_changes` on that period's patients of that centre. The largest
    ``|change|`` is the stream's local sensitivity: §12's ``Δ`` covers the stream only if it bounds it.

    Returns
    -------
    numpy.ndarray, shape ``(N, |Θ|)``
        One row per patient, in the cohort's order.

    Raises
    ------
    dpnet.errors.ParameterError
        On bad arrays or an unknown ``change`` (a new time or an added patient are not measured: the first
        can move a patient to another period, the second is no patient of the cohort).
    """
    if change not in ("remove", "treatment", "event"):
        raise ParameterError(f"change must be 'remove', 'treatment' or 'event' (got {change!r})")
    xs, ts, ev, labels, n_centres, states = _centred_cohort(x, time, event, centres, theta)
    period = periods(ts, period_length)
    out = np.zeros((len(xs), len(states)))
    for rows in _cells(period, labels, n_centres):
        out[rows] = neighbour_changes(xs[rows], ts[rows], ev[rows], states, change=change)
    return out


def stream_information(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    theta: float,
    *,
    period_length: float | None,
) -> float:
    """The observed Fisher information at ``theta`` of the stream's log-likelihood summed over periods and
    centres (eq. (3), Breslow; :func:`~dpnet.survival.cox.cox_score_information`): with risk sets cut at
    the periods' boundaries (``period_length``), or kept whole within each centre (``None``: the centres'
    own partial likelihoods, which a stream that keeps the full risk sets multiplies back to)."""
    xs, ts, ev, labels, n_centres, _ = _centred_cohort(x, time, event, centres, [theta])
    if period_length is None:
        cells = [np.flatnonzero(labels == i) for i in range(n_centres)]
    else:
        cells = _cells(periods(ts, period_length), labels, n_centres)
    return float(sum(cox_score_information(xs[r], ts[r], ev[r], theta)[1] for r in cells))
