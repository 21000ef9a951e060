"""Chapter 5's shared pieces: the measured constants of its cost model, and the machinery that streams a
clinical cohort to centres (Figures 14.1(c) and 14.6).

The cost constants were measured on this book's 2-core machine, to within a factor of about 2: one update
of one agent's log-belief of one state, in one replication at one noise scale, which grows with the number
of agents (the network's matrix product and the working set); and one period of a loop. Each item's
``cost`` counts its updates and periods with them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks
from dpnet import survival as sv
from dpnet.params import Cost, Parameters
from dpnet.sweep import sweep

#: Seconds of one update of one agent's log-belief of one state (one replication, one noise scale), and
#: the number of agents at which an update costs twice that.
UPDATE_SECONDS = 1e-7
UPDATE_AGENTS = 25
#: Seconds of one period of a loop.
PERIOD_SECONDS = 5e-5


def update_seconds(agents: int) -> float:
    """The seconds of one update on a network of ``agents`` agents (or centres)."""
    return UPDATE_SECONDS * (1 + agents / UPDATE_AGENTS)


def stream_cost(periods: int, streams: int, values: Mapping[str, Any], *, private: bool = True) -> Cost:
    """The cost of ``streams`` clinical streams of ``periods`` periods each: per stream, Algorithm 5 once
    and (``private``) Algorithm 3 ``replications`` times on ``n_centers`` centres and two states, each
    period looped twice (the stream's likelihoods, then the runs); the largest of them held while it runs
    (three arrays of the replications' log-beliefs, or one of Algorithm 5's without private runs)."""
    R, centres = (values["replications"] if private else 0), values["n_centers"]
    units = streams * periods * (R + 1) * centres * 2
    seconds = units * update_seconds(centres) + 2 * streams * periods * PERIOD_SECONDS
    return Cost(seconds=seconds, peak=float(8 * 3 * periods * max(R, 1) * centres * 2))


@dataclass(frozen=True)
class Cohort:
    """A cohort split over the centres: times, events and covariate, centre labels, states, sensitivity."""

    frame: pd.DataFrame
    centres: NDArray[np.int64]
    states: NDArray[np.float64]
    delta: float


@dataclass(frozen=True)
class StreamTask:
    """One clinical stream: which cohort and covariate, which likelihood, how tied times are ordered, the
    period, ε, the replications, and its position (the key of its random stream)."""

    index: int
    covariate: str
    variant: str
    ties: str
    period: float
    eps: float
    replications: int


def final_limit(runs: inf.OnlineRuns) -> float:
    """Algorithm 5's time-averaged log-belief ratio of the alternative at the stream's last period T,
    ``ψ_T/T``, mean over the centres (a value at T: the cohort ends there)."""
    return float(runs.limit[:, 1].mean())


def _stream_runs(cohorts: Mapping[str, Cohort], A: NDArray[np.float64], task: StreamTask,
                 rng: np.random.Generator) -> inf.OnlineRuns:  # fmt: skip
    """Algorithm 5 once and Algorithm 3 ``replications`` times on the task's stream."""
    c = cohorts[task.covariate]
    stream = sv.period_loglik(c.frame.x, c.frame.time, c.frame.event, c.centres, c.states,
                              period_length=task.period, variant=task.variant, ties=task.ties)  # type: ignore[arg-type]  # fmt: skip
    scale = inf.noise_scale(c.delta, len(c.states), task.eps)
    return inf.online_runs(stream, A, noise_scale=scale, n_reps=task.replications, rng=rng)


def stream_runs(
    P: Parameters,
    item: str,
    cohorts: Mapping[str, Cohort],
    variants: Sequence[tuple[str, str, str]],
    period: float,
) -> dict[str, inf.OnlineRuns]:
    """One stream per (covariate, likelihood, tie order), child k of the item's stream for the k-th."""
    tasks = [
        StreamTask(k, cov, v, ties, period, P.eps, P.replications)
        for k, (cov, v, ties) in enumerate(variants)
    ]
    A = networks.dense_weights("complete", P.n_centers)
    out = sweep(functools.partial(_stream_runs, cohorts, A), tasks, P.stream(item), key=lambda t: (t.index,),
                desc=item)  # fmt: skip
    return {f"{t.covariate}/{t.variant}": out[t] for t in tasks}


def on_paper_setting(P: Parameters, period: str) -> bool:
    """Whether the clinical streams use the published setting: its centres, ε and the ``period`` parameter."""
    return P.is_paper("n_centers", "eps", period)
