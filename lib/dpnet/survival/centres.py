"""Splitting a cohort across centres, and each centre's statistics for the distributed algorithms.

- :func:`split_centres`: the authors' round-robin split on the row index, or a seeded balanced one;
  :func:`cohort_centres` applies either to a cohort that keeps its original row index;
- :func:`centre_loglik`: the table ``log γ_i(θ)`` (centres × states) that the belief dynamics of
  :mod:`dpnet.inference` take as input;
- :func:`centre_fits`: each centre's penalised Cox fit, the local GLRTs of the composite test;
- :func:`centre_information`: each centre's Fisher information, whose sum is the variance scale of
  the simple test's statistic.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import choice, integer
from dpnet.survival.cox import (
    CoxFit,
    LegacyTies,
    check_cohort,
    cox_partial_loglik,
    cox_score_information,
    fit_cox,
)

__all__ = ["centre_fits", "centre_information", "centre_loglik", "cohort_centres", "split_centres"]


def split_centres(
    n_rows: int,
    n_centres: int,
    *,
    method: Literal["round_robin", "random"] = "round_robin",
    rng: np.random.Generator | int | None = None,
) -> NDArray[np.int64]:
    """Assign ``n_rows`` patients to ``n_centres`` centres (hospitals).

    - ``"round_robin"`` (the authors' split): patient ``i`` goes to centre ``i mod n_centres``. The
      notebook applies this to the **original CSV row index**, also after filtering a subset, so to
      reproduce it compute the labels on the full table and then filter (equivalently use
      ``frame.index % n_centres`` on a frame from :func:`~dpnet.survival.data.load_actg175`).
    - ``"random"``: a uniformly random balanced split, a random permutation of the round-robin labels.

    Either way the centre sizes are ``⌊n_rows / n_centres⌋`` or ``⌈n_rows / n_centres⌉``.

    Parameters
    ----------
    n_rows : int
        Number of patients, ≥ 1.
    n_centres : int
        Number of centres, 1 ≤ n_centres ≤ n_rows (so no centre is empty).
    method : {"round_robin", "random"}
        How to assign.
    rng : numpy.random.Generator, int or None
        Generator or seed for ``"random"`` (None: fresh OS entropy); ignored by ``"round_robin"``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_rows,)
        Centre label 0 … n_centres − 1 of each patient.

    Raises
    ------
    dpnet.errors.ParameterError
        If a count is out of range or ``method`` is unknown.
    """
    n_rows = integer(ge=1)("n_rows", n_rows)
    n_centres = integer(ge=1, le=n_rows)("n_centres", n_centres)
    method = choice("round_robin", "random")("method", method)
    labels = np.arange(n_rows, dtype=np.int64) % n_centres
    if method == "random":
        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        labels = generator.permutation(labels)
    return labels


def cohort_centres(
    index: ArrayLike,
    n_centres: int,
    *,
    method: Literal["round_robin", "random"] = "round_robin",
    rng: np.random.Generator | int | None = None,
) -> NDArray[np.int64]:
    """Centre labels for a cohort whose rows keep their original row numbers ``index``.

    ``"round_robin"`` is the authors' ``original row index mod n`` (so a filtered cohort is split as
    the authors split it); ``"random"`` is a balanced random split of the cohort itself
    (:func:`split_centres`), so every centre gets ``⌊N/n⌋`` or ``⌈N/n⌉`` of the analysed patients.
    """
    rows = np.asarray(index)
    if rows.ndim != 1 or not np.issubdtype(rows.dtype, np.integer):
        raise ParameterError(
            f"index must be a 1-D array of integer row numbers (got {rows.dtype}, {rows.shape})"
        )
    labels = split_centres(len(rows), n_centres, method=method, rng=rng)
    return rows.astype(np.int64) % n_centres if method == "round_robin" else labels


def _labels(centres: ArrayLike, n_rows: int) -> tuple[NDArray[np.int64], int]:
    labels = np.asarray(centres)
    if labels.shape != (n_rows,) or not np.issubdtype(labels.dtype, np.integer):
        raise ParameterError(f"centres must be {n_rows} integer labels, one per patient (got {labels.shape})")
    if n_rows == 0 or labels.min() < 0:
        raise ParameterError("centres must be non-negative labels 0 … n − 1")
    n_centres = int(labels.max()) + 1
    missing = sorted(set(range(n_centres)) - set(np.unique(labels).tolist()))
    if missing:
        raise ParameterError(f"centres {missing} have no patients: labels must cover 0 … {n_centres - 1}")
    return labels.astype(np.int64), n_centres


_F = NDArray[np.float64]
_I = NDArray[np.int64]


def _centred_cohort(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, centres: ArrayLike, theta: ArrayLike
) -> tuple[_F, _F, _F, _I, int, _F]:
    """The checked inputs of a per-centre likelihood: ``(x, time, event, labels, n_centres, states)``."""
    xs, ts, ev = check_cohort(x, time, event)
    labels, n_centres = _labels(centres, len(xs))
    states = np.atleast_1d(np.asarray(theta, dtype=float))
    if states.ndim != 1:
        raise ParameterError(f"theta must be a 1-D array of states (got shape {states.shape})")
    return xs, ts, ev, labels, n_centres, states


def centre_loglik(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    theta: ArrayLike,
    *,
    variant: Literal["paper", "as_published"] = "paper",
    ties: LegacyTies = "row",
) -> NDArray[np.float64]:
    """Each centre's partial log-likelihood of its own patients, ``loglik[i, k] = log γ_i(θ_k)``.

    Each centre computes eq. (3) on its own patients only (risk sets are local), so the sum over
    centres differs from the pooled likelihood. Vectorised over ``theta``, one pass per centre.

    Parameters
    ----------
    x, time, event : array_like, shape (N,)
        The cohort (see :func:`~dpnet.survival.cox.cox_partial_loglik`).
    centres : array_like of int, shape (N,)
        Centre label ``0 … n − 1`` of each patient (e.g. from :func:`split_centres`); every centre
        must hold at least one patient.
    theta : array_like, shape ``(|Θ|,)``
        The states: log hazard ratios.
    variant : {"paper", "as_published"}
        The paper's likelihood or the authors' notebook's (:func:`~dpnet.survival.cox.cox_partial_loglik`).
    ties : {"row", "x_desc", "x_asc"}
        Order of tied times in the as-published variant (:func:`~dpnet.survival.cox.legacy_order`).

    Returns
    -------
    numpy.ndarray, shape ``(n, |Θ|)``
    """
    xs, ts, ev, labels, n_centres, states = _centred_cohort(x, time, event, centres, theta)
    out = np.empty((n_centres, len(states)))
    for i in range(n_centres):
        mask = labels == i
        out[i] = cox_partial_loglik(xs[mask], ts[mask], ev[mask], states, variant=variant, ties=ties)
    return out


def centre_fits(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, centres: ArrayLike, *, penalizer: float
) -> list[CoxFit]:
    """Each centre's penalised Cox fit (:func:`~dpnet.survival.cox.fit_cox`) on its own patients.

    ``[f.lrt for f in fits]`` are the local GLRT statistics of §4.2's composite test and
    ``max |f.theta|`` the data-dependent ``B_θ`` the authors' code uses for the sensitivity.
    """
    xs, ts, ev = check_cohort(x, time, event)
    labels, n_centres = _labels(centres, len(xs))
    masks = [labels == i for i in range(n_centres)]
    return [fit_cox(xs[m], ts[m], ev[m], penalizer=penalizer) for m in masks]


def centre_information(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, centres: ArrayLike, *, theta: float = 0.0
) -> NDArray[np.float64]:
    """Each centre's observed Fisher information ``I_i(θ)`` of its local partial likelihood (Breslow)."""
    xs, ts, ev = check_cohort(x, time, event)
    labels, n_centres = _labels(centres, len(xs))
    masks = [labels == i for i in range(n_centres)]
    return np.array([cox_score_information(xs[m], ts[m], ev[m], theta)[1] for m in masks])
