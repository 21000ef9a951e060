"""Paper 003, Figure 14.6: the cancer cohort as a stream of one-month periods to five centres, raw TMB as
published and with the paper's likelihood, and the top-10 % indicator with the paper's likelihood."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from dpnet import inference as inf
from dpnet import networks
from dpnet import survival as sv
from dpnet.chapters.online_learning._common import (
    Cohort,
    final_limit,
    on_paper_setting,
    stream_cost,
    stream_runs,
)
from dpnet.chapters.online_learning.p003_fig14_1c import StreamStudy
from dpnet.params import Cost, Parameters
from dpnet.reference import online as ref

#: The alternative of the cancer stream: hazard ratio 0.15.
THETA_TMB = math.log(0.15)
#: The period of the published stream: one month (the authors' code; the caption says "daily", see the
#: reproduction notes).
PAPER_PERIOD_MONTHS = 1.0
#: The longest time of the cohort, in months, so the number of periods a period length gives.
LAST_MONTH = 80
#: The item's deviations from the paper, as (title, reproduction-notes label).
DEVIATIONS: tuple[tuple[str, str], ...] = (
    ("authors' likelihood", "note-ol-likelihood"),
    ("time-averaged belief", "note-ol-belief"),
    ("periods of one month, not one day", "note-ol-periods"),
    ("order of tied times", "note-ol-ties"),
    ("binary TMB covariate", "note-ol-covariate"),
    ("ε and graph of the published run", "note-ol-fig146-eps"),
)


def cost(values: Mapping[str, Any]) -> Cost:
    """Three streams (raw TMB as published and with the paper's likelihood; the top-10 % indicator) of
    ``⌊80 / period_months⌋ + 1`` periods each, on ``n_centers`` centres, with ``replications`` private runs
    per stream, and a fourth (raw TMB as published, tied times in row order) run without privacy only
    (the shared ``stream_cost``)."""
    periods = math.floor(LAST_MONTH / values["period_months"]) + 1
    runs, row_order = stream_cost(periods, 3, values), stream_cost(periods, 1, values, private=False)
    return Cost(seconds=runs.seconds + row_order.seconds, peak=runs.peak)


def cancer_stream(P: Parameters) -> StreamStudy:
    """Figure 14.6: the cancer cohort streamed every ``period_months`` months to ``n_centers`` centres, with
    raw TMB as published and with the paper's likelihood, and with the top-10 % indicator (stream
    ``p003-fig14-6``, children 0, 1 and 2); the as-published limit with tied times in row order, and for
    the top-10 % indicator the ``ψ_T/T`` of uncut risk sets and the noise's standard deviation at T.

    Returns a :class:`~dpnet.chapters.online_learning.p003_fig14_1c.StreamStudy`."""
    tmb = sv.load_samstein2019()
    states = np.array([0.0, THETA_TMB])
    cohorts = {}
    for cov in ("raw", "top10"):
        frame = sv.tmb_cohort(tmb, cov)
        delta = sv.cox_sensitivity(abs(THETA_TMB), float(np.abs(frame.x).max()))
        cohorts[cov] = Cohort(frame, sv.cohort_centres(frame.index.to_numpy(), P.n_centers), states, delta)
    variants = [("raw", "as_published", "x_desc"), ("raw", "paper", "row"), ("top10", "paper", "row")]
    runs = stream_runs(P, "p003-fig14-6", cohorts, variants, P.period_months)
    raw = cohorts["raw"]
    row_stream = sv.period_loglik(raw.frame.x, raw.frame.time, raw.frame.event, raw.centres, states,
                                  period_length=P.period_months, variant="as_published",
                                  ties="row")  # fmt: skip
    A = networks.dense_weights("complete", P.n_centers)
    row_limit = float(inf.time_averaged_ratios(inf.online_log_ratios(row_stream, A))[-1, :, 1].mean())
    titles = {"raw/as_published": "raw TMB, as published", "raw/paper": "raw TMB, paper's likelihood",
              "top10/paper": "top-10 % TMB, paper's likelihood"}  # fmt: skip
    deltas = {v: cohorts[v.split("/")[0]].delta for v in runs}
    published = on_paper_setting(P, "period_months")
    as_published = runs["raw/as_published"]
    checks = ref.figure14_6_checks(as_published.periods, final_limit(as_published),
                                   final_limit(runs["raw/paper"]), as_published.agreement(), P.replications,
                                   published=published)  # fmt: skip
    top = cohorts["top10"]
    pooled = sv.centre_loglik(top.frame.x, top.frame.time, top.frame.event, top.centres, states).sum(axis=0)
    T, n = as_published.periods, P.n_centers
    extra = {"row_limit": row_limit, "full_limit_top10": float((pooled[1] - pooled[0]) / (n * T)),
             "noise_sd_top10": float(2 * runs["top10/paper"].noise_scale / math.sqrt(n * T))}  # fmt: skip
    return StreamStudy("p003-fig14-6", "cancer", runs, titles, ("0", "log 0.15"), deltas, extra,
                       {"p003-fig14-6": checks}, published, DEVIATIONS)  # fmt: skip
