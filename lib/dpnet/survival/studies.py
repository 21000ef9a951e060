"""One private maximum-likelihood study on a centres × states likelihood table (paper 003 §5, §14.1, §14.5).

The authors' runs on the clinical cohorts (Figs 5, 14.1a–b, 14.4, 14.5) all follow the same recipe:
rounds ``K`` and iterations ``T`` (:class:`RunSchedule`, usually from the authors' code formulas,
:func:`code_schedule`), Laplace noise, one run drawn for the figure, and — what the paper does not do —
Monte Carlo replications that say how often each algorithm recovers the target set. :func:`mle_study`
is that recipe.

The noise is independent over centres, rounds and states (the paper), or, for the authors'
multi-treatment runs, *reseeded* (:func:`reseeded_noise`): their notebook reset the random seed before
each treatment's run, so every treatment state received the same draw (note ``note-ti-reseeded-noise``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.inference import (
    Convention,
    PrivateMLEResult,
    belief_trajectory,
    laplace_noise,
    noise_scale,
    problem_constants,
    recovery_rates,
    scaled_log_ratios,
    schedule_authors_code,
)
from dpnet.inference._checks import _check_loglik
from dpnet.params import choice, integer

__all__ = ["MLEStudy", "RunSchedule", "code_schedule", "mle_study", "reseeded_noise"]

NoiseKind = Literal["independent", "reseeded"]


@dataclass(frozen=True)
class RunSchedule:
    """Rounds ``K``, iterations ``T`` and the Laplace scale ``b`` per agent, state and round of a run."""

    K: int
    T: int
    noise_scale: float


def code_schedule(
    table: ArrayLike,
    *,
    a_star: float,
    delta: float,
    eps: float,
    alpha: float,
    rho: float,
    convention: Convention,
) -> RunSchedule:
    """The authors' code ``K`` and ``T`` (``α = 1 − β``, one ϱ; note ``note-ht-code-schedule``) with the
    noise scale ``ΔK|Θ|/ε`` (``convention="paper"``) or twice that (``"authors_code"``, note
    ``note-ht-cox-likelihood``)."""
    code = schedule_authors_code(problem_constants(table), a_star=a_star, delta=delta, eps=eps,
                                 alpha=alpha, beta=1 - alpha, rho=rho)  # fmt: skip
    n_states = np.shape(table)[1]
    return RunSchedule(
        code.K, int(code.T), float(noise_scale(delta, n_states, eps, code.K, convention=convention))
    )


def reseeded_noise(
    rng: np.random.Generator, scale: float, *, n_reps: int, K: int, n_agents: int, n_states: int
) -> NDArray[np.float64]:
    """The authors' multi-treatment noise (note ``note-ti-reseeded-noise``): per replication, round and
    agent, one ``Lap(b)`` draw for state 0 (the control) and **one** draw shared by every other state,
    shape ``(n_reps, K, n, |Θ|)``.

    Their notebook runs one two-state problem per treatment and reseeds the generator before each, so
    every treatment's log-likelihood ratio receives the same noise, which then cancels between
    treatments: only the treatments' common distance to the control stays noisy.
    """
    n_states = integer(ge=2)("n_states", n_states)
    pair = laplace_noise(rng, scale, n_reps=n_reps, K=K, n_agents=n_agents, n_states=2)
    return pair[..., [0] + [1] * (n_states - 1)]


@dataclass(frozen=True, eq=False)
class MLEStudy:
    """Outcome of :func:`mle_study`.

    Attributes
    ----------
    K, T, noise_scale
        Rounds, iterations per round and Laplace scale per agent, state and round.
    gm, am, count_path, nonprivate
        Beliefs of the drawn run at every iteration ``t = 0..T``, shape ``(T + 1, n, |Θ|)``: GM and AM
        aggregates, the fraction of rounds each state leads (the two-threshold frequencies, ``τ̂ = 0``),
        and the non-private dynamics (Alg 4).
    counts
        The drawn run's fraction of rounds each state won at ``T``, shape ``(n, |Θ|)``.
    run
        The ``n_reps`` replications (for recovery rates of other targets).
    rates
        :func:`~dpnet.inference.rates.recovery_rates` of ``target`` over the replications.
    """

    K: int
    T: int
    noise_scale: float
    gm: NDArray[np.float64]
    am: NDArray[np.float64]
    count_path: NDArray[np.float64]
    nonprivate: NDArray[np.float64]
    run: PrivateMLEResult
    rates: dict[str, float]

    @property
    def counts(self) -> NDArray[np.float64]:
        return self.count_path[-1]


def _noise(
    kind: NoiseKind, rng: np.random.Generator, scale: float, n_reps: int, K: int, shape: tuple[int, int]
) -> NDArray[np.float64]:
    draw = reseeded_noise if kind == "reseeded" else laplace_noise
    return draw(rng, scale, n_reps=n_reps, K=K, n_agents=shape[0], n_states=shape[1])


def mle_study(
    table: ArrayLike,
    A: NDArray[np.float64],
    schedule: RunSchedule,
    *,
    rho: float,
    target: ArrayLike,
    freq: float,
    n_reps: int,
    rng_demo: np.random.Generator,
    rng_mc: np.random.Generator,
    noise: NoiseKind = "independent",
    trajectories: bool = True,
) -> MLEStudy:
    """Alg 1/2 on ``table`` with the given schedule: a drawn run and ``n_reps`` replications.

    One run is drawn with ``rng_demo`` for the figures (its trajectories are skipped, and left empty,
    with ``trajectories=False``); ``n_reps`` replications drawn with ``rng_mc`` give the recovery rates
    of ``target`` (GM and AM at ``τ = 1/(1+e^ϱ)``, two-threshold at frequency ``freq``). ``noise`` is
    ``"independent"`` (the paper) or ``"reseeded"`` (:func:`reseeded_noise`).
    """
    arr = _check_loglik(table)
    kind = choice("independent", "reseeded")("noise", noise)
    K, T, b = schedule.K, schedule.T, schedule.noise_scale
    demo = _noise(kind, rng_demo, b, 1, K, arr.shape)[0]  # drawn first: the generators may be one
    mc = _noise(kind, rng_mc, b, n_reps, K, arr.shape)
    run = PrivateMLEResult(scaled=scaled_log_ratios(arr, A, T, mc), T=T, noise_scale=b)
    if trajectories:
        paths = {k: belief_trajectory(arr, A, T, demo, aggregate=k) for k in ("gm", "am", "counts")}
        nonprivate = belief_trajectory(arr, A, T)
    else:
        paths = {k: np.empty((0, *arr.shape)) for k in ("gm", "am", "counts")}
        nonprivate = np.empty((0, *arr.shape))
    return MLEStudy(
        K=K, T=T, noise_scale=b, gm=paths["gm"], am=paths["am"], count_path=paths["counts"],
        nonprivate=nonprivate, run=run, rates=recovery_rates(run, target, rho=rho, freq=freq),
    )  # fmt: skip
