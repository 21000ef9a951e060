"""One private maximum-likelihood study on a centres × states likelihood table (paper 003 §5, §14.1, §14.5).

The authors' runs on the clinical cohorts (Figs 5, 14.1a–b, 14.4, 14.5) all follow the same recipe:
rounds ``K`` and iterations ``T`` (:class:`RunSchedule`, usually from the authors' code formulas,
:func:`code_schedule`), Laplace noise, one run drawn for the figure, and — what the paper does not do —
Monte Carlo replications that say how often each algorithm recovers the target set. :func:`mle_study`
is that recipe. :func:`two_threshold_rates` reads Alg 2's two sets off the same runs, and
:func:`gm_limit_probability` gives GM's recovery probability of a two-state problem in the limit of
many iterations.

The noise is independent over centres, rounds and states (the paper), or, for the authors'
multi-treatment runs, *reseeded* (:func:`reseeded_noise`): their notebook reset the random seed before
each treatment's run, so every treatment state received the same draw (note ``note-ti-reseeded-noise``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from dpnet.errors import ParameterError
from dpnet.inference import (
    Convention,
    ErrorRates,
    PrivateMLEResult,
    belief_trajectory,
    estimated_sets,
    laplace_noise,
    noise_scale,
    problem_constants,
    recovery_rates,
    scaled_log_ratios,
    schedule_authors_code,
    threshold_sets,
    type_errors,
)
from dpnet.inference._checks import _check_loglik
from dpnet.params import choice, integer, real

__all__ = [
    "MLEStudy",
    "RunSchedule",
    "code_schedule",
    "gm_limit_probability",
    "mle_study",
    "promise_rates",
    "reseeded_noise",
    "two_threshold_rates",
]

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


def two_threshold_rates(
    run: PrivateMLEResult, target: ArrayLike, *, freq_1: float, freq_2: float
) -> dict[str, float]:
    """How often Alg 2's two sets keep their promises over the replications of ``run``, with the
    frequency thresholds ``freq_1 = τ¹`` and ``freq_2 = τ²`` and the belief threshold ``τ̂ = 0`` (a round
    counts for the state that won it, the ``T → ∞``, ``ϱ → ∞`` regime of Theorem 4.3):

    - ``"inside"``: ``P[Θ̂¹ ⊆ Θ*]`` at every agent (Type I control, Theorem 4.3's ``1 − α``);
    - ``"covers"``: ``P[Θ* ⊆ Θ̂²]`` at every agent (Type II control, its ``β``);
    - ``"exact"``: ``P[Θ̂² = Θ*]``, Cor 4.4's single-threshold recovery when ``τ¹ = τ²``.

    ``Θ̂¹ = {N ≥ max(τ¹, 1/K)}`` and ``Θ̂² = {N ≥ τ²}`` (:func:`~dpnet.inference.aggregation.threshold_sets`);
    ``target`` is the boolean mask of ``Θ*``.
    """
    mask = np.asarray(target, dtype=bool)
    n_reps, n_agents, n_states = run.n_reps, run.scaled.shape[-2], run.scaled.shape[-1]
    if mask.shape != (n_states,) or not mask.any():
        raise ParameterError(f"target must be a non-empty boolean mask over the {n_states} states")
    counts = run.round_counts(0.0)
    first, second = threshold_sets(counts, counts, freq_1, freq_2, run.K)
    everywhere = np.tile(mask, n_agents)
    one = type_errors(first.reshape(n_reps, -1), everywhere)
    two = type_errors(second.reshape(n_reps, -1), everywhere)
    return {"inside": 1.0 - float(one.type1), "covers": 1.0 - float(two.type2), "exact": float(two.exact)}


def promise_rates(run: PrivateMLEResult, target: ArrayLike, *, rho: float, freq: float) -> dict[str, float]:
    """How often each estimator of Alg 1/2 keeps the promise of its own theorem, at every agent, over the
    replications of ``run`` (the sets of :func:`~dpnet.inference.rates.estimated_sets`):

    - ``"GM inside"``: ``P[Θ̂^GM ⊆ Θ*]``, Theorem 4.1's ``1 − α`` (Theorem 4.2's ``1 − 2α`` at finite T);
    - ``"AM covers"``: ``P[Θ* ⊆ Θ̂^AM]``, Theorem 4.1's ``β`` (Theorem 4.2's ``2β − 1``);
    - ``"two-threshold exact"``: ``P[Θ̂ = Θ*]`` of the single-threshold rule at frequency ``freq``, Cor
      4.4's ``β − α`` when ``freq`` is its threshold.

    ``target`` is the boolean mask of ``Θ*``. Unlike :func:`~dpnet.inference.rates.recovery_rates`, which
    asks every estimator for exactly ``Θ*``, each estimator is held to what its theorem promises.
    """
    mask = np.asarray(target, dtype=bool)
    n_reps, n_agents, n_states = run.n_reps, run.scaled.shape[-2], run.scaled.shape[-1]
    if mask.shape != (n_states,) or not mask.any():
        raise ParameterError(f"target must be a non-empty boolean mask over the {n_states} states")
    sets = estimated_sets(run, rho=rho, freq=freq)
    everywhere = np.tile(mask, n_agents)

    def rates(name: str) -> ErrorRates:
        return type_errors(sets[name].reshape(n_reps, -1), everywhere)

    gm, am, thr = rates("GM"), rates("AM"), rates("two-threshold")
    return {
        "GM inside": 1.0 - float(gm.type1),
        "AM covers": 1.0 - float(am.type2),
        "two-threshold exact": float(thr.exact),
    }


def gm_limit_probability(gap: float, noise_scale: float, *, n_agents: int, K: int) -> float:
    r"""GM's probability of selecting the better of two states in the limit ``T → ∞``, normal approximation.

    In that limit GM selects the state with the larger ``Λ(θ) + (1/K) Σ_k Y_k(θ)``
    (note ``note-ht-oracle``): with ``gap = Λ(θ₁) − Λ(θ₀) ≥ 0`` and independent ``Lap(b)`` noise per agent,
    round and state, the averaged noise difference has variance ``4 n b² / K``, and

    .. math:: P \approx \Phi\Bigl(\frac{\text{gap}}{2b\sqrt{n/K}}\Bigr),

    the central limit of ``nK`` Laplace differences (½ when the noise swamps the gap).
    """
    gap = real()("gap", gap)
    b = real(gt=0.0)("noise_scale", noise_scale)
    n, k = integer(ge=1)("n_agents", n_agents), integer(ge=1)("K", K)
    return float(stats.norm.cdf(gap / (2.0 * b * math.sqrt(n / k))))
