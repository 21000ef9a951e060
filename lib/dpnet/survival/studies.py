"""One private maximum-likelihood study on a centres × states likelihood table (paper 003 §14.1, §14.5).

The authors' runs on the clinical cohorts (Figs 14.1a–b, 14.4, 14.5) all follow the same recipe:
``K`` and ``T`` from the authors' code formulas, Laplace noise in the paper's or the code's convention,
one run drawn for the figure, and — what the paper does not do — Monte Carlo replications that say
how often each algorithm recovers the target set. :func:`private_mle_study` is that recipe.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    round_counts,
    run_private_mle,
    scaled_log_ratios,
    schedule_authors_code,
)

__all__ = ["MLEStudy", "private_mle_study"]


@dataclass(frozen=True, eq=False)
class MLEStudy:
    """Outcome of :func:`private_mle_study`.

    Attributes
    ----------
    K, T, noise_scale
        Rounds, iterations per round and Laplace scale per agent, state and round.
    gm, am, nonprivate
        Beliefs of the drawn run at every iteration ``t = 0..T``, shape ``(T + 1, n, |Θ|)``: GM and AM
        aggregates, and the non-private dynamics (Alg 4).
    counts
        The drawn run's fraction of rounds each state won at ``T``, shape ``(n, |Θ|)``.
    run
        The ``n_reps`` replications (for recovery rates of other targets).
    rates
        :func:`~dpnet.inference.recovery_rates` of ``target`` over the replications.
    """

    K: int
    T: int
    noise_scale: float
    gm: NDArray[np.float64]
    am: NDArray[np.float64]
    nonprivate: NDArray[np.float64]
    counts: NDArray[np.float64]
    run: PrivateMLEResult
    rates: dict[str, float]


def private_mle_study(
    table: ArrayLike,
    A: NDArray[np.float64],
    *,
    a_star: float,
    delta: float,
    eps: float,
    alpha: float,
    rho: float,
    convention: Convention,
    target: ArrayLike,
    freq: float,
    n_reps: int,
    rng_demo: np.random.Generator,
    rng_mc: np.random.Generator,
) -> MLEStudy:
    """Alg 1/2 on ``table`` with the authors' ``K``, ``T`` (``α = 1 − β``, one ϱ for AM and GM).

    The noise scale is ``ΔK|Θ|/ε`` (``convention="paper"``) or twice that (``"authors_code"``,
    spec D2). One run is drawn with ``rng_demo`` for the figures; ``n_reps`` replications drawn with
    ``rng_mc`` give the recovery rates of ``target`` (GM and AM at ``τ = 1/(1+e^ϱ)``, two-threshold at
    frequency ``freq``).
    """
    code = schedule_authors_code(problem_constants(table), a_star=a_star, delta=delta, eps=eps,
                                 alpha=alpha, beta=1 - alpha, rho=rho)  # fmt: skip
    K, T = code.K, int(code.T)
    b = float(noise_scale(delta, np.shape(table)[1], eps, K, convention=convention))
    noise = laplace_noise(
        rng_demo, b, n_reps=1, K=K, n_agents=np.shape(table)[0], n_states=np.shape(table)[1]
    )[0]
    run = run_private_mle(table, A, K=K, T=T, scale=b, n_reps=n_reps, rng=rng_mc)
    return MLEStudy(
        K=K,
        T=T,
        noise_scale=b,
        gm=belief_trajectory(table, A, T, noise, aggregate="gm"),
        am=belief_trajectory(table, A, T, noise, aggregate="am"),
        nonprivate=belief_trajectory(table, A, T),
        counts=round_counts(scaled_log_ratios(table, A, T, noise), T, 0.0),
        run=run,
        rates=recovery_rates(run, target, rho=rho, freq=freq),
    )
