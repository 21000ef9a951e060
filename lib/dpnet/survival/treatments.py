"""Best-treatment identification over the ACTG 175 arms (paper 003 §5, Fig 5).

The paper identifies the best of three treatments against the control ZDV by "propagating the
generalised likelihood ratios over each of the treatments and converting them to beliefs". Following
the authors' construction (spec §3.10), the states are the four arms; centre ``i``'s log-likelihood of
the state "arm ``a``" is its local GLRT log-likelihood ratio of ``a`` against ZDV on its own patients of
those two arms, ``LRT_{i,a}/2`` from a ridge-penalised Cox fit (:func:`~dpnet.survival.fit_cox`), and 0
for ZDV itself (:func:`arm_glrt_table`). The private algorithms then run on this ``n × 4`` table.

The GLRT is two-sided, so a treatment that *raised* the hazard would also score; in ACTG 175 every
treatment lowers it (Fig 4), so the construction names the arm with the strongest evidence of benefit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.survival.centres import _labels, centre_fits
from dpnet.survival.data import ACTG175_ARMS, arm_cohort

__all__ = ["arm_glrt_table"]


def arm_glrt_table(
    frame: pd.DataFrame, centres: ArrayLike, *, penalizer: float, control: str = "ZDV"
) -> tuple[NDArray[np.float64], tuple[str, ...]]:
    """Each centre's GLRT log-likelihood ratio of every arm against the control, shape ``(n, |arms|)``.

    Parameters
    ----------
    frame
        The ACTG 175 frame (:func:`~dpnet.survival.load_actg175`).
    centres
        Centre label of every row of ``frame`` (so a patient belongs to one centre in every comparison).
    penalizer
        Ridge penalty of the local Cox fits, in lifelines' convention (the paper: 0.05).
    control
        The control arm, whose column is 0.

    Returns
    -------
    (table, arms)
        ``table[i, a] = LRT_{i,a}/2 ≥ 0`` with the arms in :data:`~dpnet.survival.ACTG175_ARMS` order.

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
