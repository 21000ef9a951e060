"""Best-treatment identification over the ACTG 175 arms (paper 003 §5, Fig 5).

The paper identifies the best of three treatments against the control ZDV by "propagating the
generalised likelihood ratios over each of the treatments and converting them to beliefs". Following
the authors' construction (the book's note ``note-ti-arm-glrt``), the states are the four arms; centre
``i``'s log-likelihood of the state "arm ``a``" is its local GLRT log-likelihood ratio of ``a`` against
ZDV on its own patients of those two arms, ``LRT_{i,a}/2`` from a ridge-penalised Cox fit
(:func:`~dpnet.survival.cox.fit_cox`), and 0 for ZDV itself (:func:`arm_glrt_table`). The private
algorithms then run on this ``n × 4`` table.

The GLRT is two-sided, so a treatment that *raised* the hazard would also score; in ACTG 175 every
treatment lowers it (Fig 4), so the construction names the arm with the strongest evidence of benefit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference import PrivateMLEResult, estimated_sets, noise_scale
from dpnet.survival.centres import _labels, centre_fits
from dpnet.survival.data import ACTG175_ARMS, arm_cohort
from dpnet.survival.studies import RunSchedule

__all__ = ["arm_glrt_table", "arm_set_rates", "first_reliable", "published_schedule"]


def arm_glrt_table(
    frame: pd.DataFrame, centres: ArrayLike, *, penalizer: float, control: str = "ZDV"
) -> tuple[NDArray[np.float64], tuple[str, ...]]:
    """Each centre's GLRT log-likelihood ratio of every arm against the control, shape ``(n, |arms|)``.

    Parameters
    ----------
    frame
        The ACTG 175 frame (:func:`~dpnet.survival.data.load_actg175`).
    centres
        Centre label of every row of ``frame`` (so a patient belongs to one centre in every comparison).
    penalizer
        Ridge penalty of the local Cox fits, in lifelines' convention (the paper: 0.05).
    control
        The control arm, whose column is 0.

    Returns
    -------
    (table, arms)
        ``table[i, a] = LRT_{i,a}/2 ≥ 0`` with the arms in :data:`~dpnet.survival.data.ACTG175_ARMS` order.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``centres`` does not label every row, or a centre's fit fails (e.g. no events in an arm).
    """
    labels, n_centres = _labels(np.asarray(centres), len(frame))
    table = np.zeros((n_centres, len(ACTG175_ARMS)))
    for k, arm in enumerate(ACTG175_ARMS):
        if arm == control:
            continue
        cohort = arm_cohort(frame, arm, control)
        local = labels[frame.index.get_indexer(cohort.index)]
        if len(np.unique(local)) != n_centres:
            raise ParameterError(f"some centre has no patient of {arm} or {control}: use fewer centres")
        fits = centre_fits(cohort.x, cohort.time, cohort.event, local, penalizer=penalizer)
        table[:, k] = [f.lrt / 2 for f in fits]
    return table, ACTG175_ARMS


def published_schedule(delta: float, eps: float, *, K: int, T: int) -> RunSchedule:
    """The authors' Figure 5 runs (note ``note-ti-fig5-settings``): fixed ``K`` and ``T`` (10 and 1000 in
    their notebook) and their code's noise ``2KΔ|Θ|/ε`` with ``|Θ| = 2``: each treatment was a two-state
    problem against ZDV."""
    return RunSchedule(int(K), int(T), float(noise_scale(delta, 2, eps, K, convention="authors_code")))


def arm_set_rates(
    result: PrivateMLEResult, arms: Sequence[str], *, best: str, control: str, rho: float, freq: float
) -> dict[str, dict[str, float]]:
    """How often each algorithm, at some centre, names a treatment other than ``best`` (``"wrong treatment"``)
    or names no treatment at all (``"control only"``), over the replications.

    The sets are those of :func:`~dpnet.inference.rates.recovery_rates`: GM and AM at ``τ = 1/(1+e^ϱ)``, the
    two-threshold rule at frequency ``freq`` of rounds won.
    """
    names = list(arms)
    for name in (best, control):
        if name not in names:
            raise ParameterError(f"{name!r} is not one of the arms {names}")
    others = [k for k, a in enumerate(names) if a not in (best, control)]
    treatments = [k for k, a in enumerate(names) if a != control]
    out = {}
    for algorithm, sets in estimated_sets(result, rho=rho, freq=freq).items():
        out[algorithm] = {
            "wrong treatment": float(np.any(sets[..., others], axis=(-2, -1)).mean()),
            "control only": float(np.any(~np.any(sets[..., treatments], axis=-1), axis=-1).mean()),
        }
    return out


def first_reliable(eps_values: Sequence[float], probabilities: Sequence[float], level: float) -> float | None:
    """The smallest ε of the grid from which on the probability stays ≥ ``level`` (None if it never does)."""
    eps = np.asarray(eps_values, dtype=float)
    ok = np.asarray(probabilities, dtype=float) >= level
    if eps.shape != ok.shape or eps.ndim != 1:
        raise ParameterError("eps_values and probabilities must be 1-D of the same length")
    bad = np.flatnonzero(~ok)
    start = 0 if bad.size == 0 else int(bad[-1]) + 1
    return float(eps[start]) if start < len(eps) else None
