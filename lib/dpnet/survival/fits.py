"""Centralised survival analysis with lifelines: Kaplan–Meier curves, Cox fits with confidence
intervals, the log-rank test. Thin wrappers that take the cohorts of :mod:`dpnet.survival.data`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from lifelines import CoxPHFitter, KaplanMeierFitter
from lifelines.statistics import logrank_test
from numpy.typing import ArrayLike

from dpnet.errors import ParameterError
from dpnet.params import real
from dpnet.survival.cox import check_cohort

__all__ = ["LifelinesCox", "cox_lifelines", "kaplan_meier", "logrank_pvalue"]


def _frame(time: ArrayLike, event: ArrayLike, x: ArrayLike | None = None) -> pd.DataFrame:
    """The cohort as a frame, validated as :func:`~dpnet.survival.cox_partial_loglik` validates it."""
    xs, ts, ev = check_cohort(np.zeros(len(np.asarray(time))) if x is None else x, time, event)
    frame = pd.DataFrame({"time": ts, "event": ev.astype(int)})
    if x is not None:
        frame["x"] = xs
    return frame


def kaplan_meier(time: ArrayLike, event: ArrayLike, groups: ArrayLike) -> dict[str, KaplanMeierFitter]:
    """One fitted :class:`lifelines.KaplanMeierFitter` per group label, in order of first appearance
    (categorical groups: in category order, empty categories skipped)."""
    frame = _frame(time, event)
    labels = pd.Series(groups).reset_index(drop=True)
    if len(labels) != len(frame):
        raise ParameterError(f"groups must have one label per patient ({len(frame)}), got {len(labels)}")
    order = (
        [c for c in labels.cat.categories if (labels == c).any()]
        if isinstance(labels.dtype, pd.CategoricalDtype)
        else list(dict.fromkeys(labels))
    )
    fitters = {}
    for label in order:
        mask = (labels == label).to_numpy()
        fitters[str(label)] = KaplanMeierFitter(label=str(label)).fit(
            frame["time"][mask], frame["event"][mask]
        )
    return fitters


@dataclass(frozen=True)
class LifelinesCox:
    """A one-covariate lifelines Cox fit (Efron ties).

    Attributes: ``coef`` (log hazard ratio), ``se``, ``ci_low``/``ci_high`` (95 %), ``p`` (Wald),
    ``lrt`` and ``lrt_p`` (likelihood-ratio test against θ = 0, 1 degree of freedom, with the
    penalised log-likelihood when ``penalizer > 0``), ``n`` patients, ``events``.
    """

    coef: float
    se: float
    ci_low: float
    ci_high: float
    p: float
    lrt: float
    lrt_p: float
    n: int
    events: int


def cox_lifelines(time: ArrayLike, event: ArrayLike, x: ArrayLike, *, penalizer: float = 0.0) -> LifelinesCox:
    """Fit ``lifelines.CoxPHFitter(penalizer=penalizer)`` with the single covariate ``x``."""
    frame = _frame(time, event, x)
    penalizer = real(ge=0.0)("penalizer", penalizer)
    if frame["x"].nunique() < 2:
        raise ParameterError("the covariate x takes a single value: there is nothing to fit")
    cph = CoxPHFitter(penalizer=penalizer).fit(frame, duration_col="time", event_col="event")
    row = cph.summary.loc["x"]
    lrt = cph.log_likelihood_ratio_test()
    return LifelinesCox(
        coef=float(row["coef"]),
        se=float(row["se(coef)"]),
        ci_low=float(row["coef lower 95%"]),
        ci_high=float(row["coef upper 95%"]),
        p=float(row["p"]),
        lrt=float(lrt.test_statistic),
        lrt_p=float(lrt.p_value),
        n=len(frame),
        events=int(frame["event"].sum()),
    )


def logrank_pvalue(time: ArrayLike, event: ArrayLike, x: ArrayLike) -> float:
    """p-value of the log-rank test between the patients with ``x = 1`` and ``x = 0``."""
    frame = _frame(time, event, x)
    a, b = frame[frame["x"] == 1], frame[frame["x"] == 0]
    if a.empty or b.empty:
        raise ParameterError("the log-rank test needs patients with x = 1 and with x = 0")
    return float(logrank_test(a["time"], b["time"], a["event"], b["event"]).p_value)
