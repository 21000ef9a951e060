"""Schedules: ``K``, ``T``, noise and thresholds together.

With the exact constants of Thms 4.1, 4.2, 4.3, 4.5 and Cor 4.4, or the authors' code formulas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_pos, _check_prob
from dpnet.inference.iterations import (
    consensus_iterations,
    iterations_authors_code,
    iterations_bound,
    mixing_constant_am,
    mixing_constant_gm,
    mixing_constant_thres,
    optimal_rho,
)
from dpnet.inference.noise import Convention, noise_scale, noise_std_sum
from dpnet.inference.problem import ProblemConstants, belief_threshold, log_belief_threshold
from dpnet.inference.rounds import (
    exact_recovery_feasible,
    rounds_am,
    rounds_authors_code,
    rounds_gm,
    rounds_thres,
    rounds_thres_hoeffding,
    rounds_unknown_mle,
    to_int_ceil,
    win_probabilities,
    win_probabilities_corrected,
)

__all__ = [
    "AMGMSchedule",
    "EpsSlope",
    "ThresholdSchedule",
    "iterations_eps_slope",
    "schedule_authors_code",
    "schedule_cor44",
    "schedule_thm41",
    "schedule_thm42",
    "schedule_thm43",
    "schedule_thm43_corrected",
    "schedule_thm45",
]


@dataclass(frozen=True)
class AMGMSchedule:
    """Parameters of one run of Alg 1 (AM and GM from the same ``K`` rounds).

    Attributes
    ----------
    K, T
        Rounds and iterations per round (``T = None``: the asymptotic theorem, ``T → ∞``).
    noise_scale
        Laplace scale ``b`` per agent, state and round (an array for per-agent ``Δ_i``).
    V
        ``√2 Σ_i b_i``.
    rho_am, rho_gm, tau_am, tau_gm
        Log-belief thresholds ϱ and belief thresholds ``τ = 1/(1+e^ϱ)``.
    k_am, k_gm, t_am, t_gm
        Real-valued requirements before rounding (``t = nan`` for the asymptotic theorem).
    convention
        ``"paper"`` or ``"authors_code"``.
    """

    K: int
    T: int | None
    noise_scale: float | NDArray[np.float64] = field(repr=False)
    V: float
    rho_am: float
    rho_gm: float
    tau_am: float
    tau_gm: float
    k_am: float
    k_gm: float
    t_am: float
    t_gm: float
    convention: str


@dataclass(frozen=True)
class ThresholdSchedule:
    """Parameters of one run of Alg 2 (two-threshold) or Cor 4.4 (single threshold).

    Attributes
    ----------
    K, T
        Rounds and iterations (``T = None``: asymptotic).
    noise_scale, V
        As in :class:`AMGMSchedule`.
    rho_1, rho_2, tau_hat_1, tau_hat_2
        Log-belief and belief thresholds of the counts ``N¹``, ``N²`` (``τ̂ = 0``: "won the round").
    freq_1, freq_2
        Frequency thresholds ``τ¹ = (1+π₁)p₁`` (or ``q₁``) and ``τ² = (1−π₂)p₂`` (or ``q₂``).
    k_1, k_2, t_1, t_2
        Real-valued requirements before rounding.
    convention
        ``"paper"`` or ``"authors_code"``.
    """

    K: int
    T: int | None
    noise_scale: float | NDArray[np.float64] = field(repr=False)
    V: float
    rho_1: float
    rho_2: float
    tau_hat_1: float
    tau_hat_2: float
    freq_1: float
    freq_2: float
    k_1: float
    k_2: float
    t_1: float
    t_2: float
    convention: str


def _scale_and_V(
    delta: ArrayLike, n_states: int, eps: float, K: int, n: int, convention: Convention
) -> tuple[float | NDArray[np.float64], float]:
    b = noise_scale(delta, n_states, eps, K, convention=convention)
    return b, noise_std_sum(b, n)


def _amgm_rounds(
    problem: ProblemConstants, alpha: float, beta: float, mle_count_known: bool, corrected: bool
) -> tuple[float, float]:
    if not mle_count_known:
        k = rounds_unknown_mle(problem.n_states, alpha, beta)
        return k, k
    return (
        rounds_am(problem.n_states, problem.n_mle, beta, corrected=corrected),
        rounds_gm(problem.n_states, problem.n_mle, alpha, corrected=corrected),
    )


def schedule_thm41(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    mle_count_known: bool = True,
    corrected: bool = False,
) -> AMGMSchedule:
    """Thm 4.1 (asymptotic, ``T → ∞`` and ``ϱ → ∞``): ``K = ⌈max(K_AM, K_GM)⌉``, ``b = ΔK|Θ|/ε``.

    The thresholds are ``τ_AM = τ_GM = min(1/K, 1/2)`` with ``ϱ = log((1 − τ)/τ)``: in the ``T → ∞``
    limit every ``τ ∈ (0, 1/K]`` selects the same sets as ``τ → 0`` (a state is kept once it wins a
    round), and ``ϱ ≥ 0`` needs ``τ ≤ 1/2``, which only ``K = 1`` reaches (``τ = 1/2``, ``ϱ = 0``).
    ``mle_count_known=False`` uses ``|Θ| log(|Θ|/min{α, 1−β})`` rounds; ``corrected`` uses the win
    probabilities ``1/|Θ|`` and ``1/(|Θ*| + 1)`` (:func:`~dpnet.inference.rounds.rounds_am`,
    :func:`~dpnet.inference.rounds.rounds_gm`).
    """
    k_am, k_gm = _amgm_rounds(problem, alpha, beta, mle_count_known, corrected)
    K = to_int_ceil(max(k_am, k_gm), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    tau = min(1.0 / K, 0.5)
    rho = log_belief_threshold(tau)
    return AMGMSchedule(
        K=K, T=None, noise_scale=b, V=V, rho_am=rho, rho_gm=rho, tau_am=tau, tau_gm=tau,
        k_am=k_am, k_gm=k_gm, t_am=math.nan, t_gm=math.nan, convention="paper",
    )  # fmt: skip


def schedule_thm42(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    rho_am: float | None = None,
    rho_gm: float | None = None,
    mle_count_known: bool = True,
    corrected: bool = False,
) -> AMGMSchedule:
    r"""Thm 4.2 (finite T) with the exact constants of the proof (§9.3).

    ``K = ⌈max(K_AM, K_GM)⌉`` (Thm 4.1 rounds), ``b = ΔK|Θ|/ε``, ``V = √2 Σ_i b_i``, and
    ``T = ⌈max(T_AM, T_GM)⌉`` with

    .. math::
       T_{GM} = \max\Bigl\{\frac{\log(2\varrho_{GM} n/l)}{\log 2},
         \frac{\log\frac{|\Theta|^2(n-1)(n\Gamma+V)}{2\alpha\varrho_{GM}\sqrt K}}{\log(1/a^\star)}\Bigr\},
       \\
       T_{AM} = \max\Bigl\{\frac{\log(2\varrho_{AM} n/l)}{\log 2},
         \frac{\log\frac{|\Theta|^2(n-1)K(n\Gamma+V)}{2\log(1/(1-\beta))\varrho_{AM}}}{\log(1/a^\star)}\Bigr\}.

    ``rho_am``/``rho_gm`` default to the optimal thresholds (:func:`~dpnet.inference.iterations.optimal_rho`).
    Guarantees: ``P[Θ̂^GM ⊆ Θ*] ≥ 1 − 2α`` and ``P[Θ* ⊆ Θ̂^AM] ≥ 2β − 1``.
    """
    k_am, k_gm = _amgm_rounds(problem, alpha, beta, mle_count_known, corrected)
    K = to_int_ceil(max(k_am, k_gm), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    common = {"n_states": problem.n_states, "n": problem.n, "K": K, "gamma": problem.gamma, "V": V}
    c_am = mixing_constant_am(**common, beta=beta)
    c_gm = mixing_constant_gm(**common, alpha=alpha)
    geo = {"n": problem.n, "gap": problem.gap, "a_star": a_star}
    r_am = optimal_rho(c_am, **geo) if rho_am is None else _check_pos("rho_am", rho_am)
    r_gm = optimal_rho(c_gm, **geo) if rho_gm is None else _check_pos("rho_gm", rho_gm)
    t_am = iterations_bound(c_am, r_am, **geo)
    t_gm = iterations_bound(c_gm, r_gm, **geo)
    T = to_int_ceil(max(t_am, t_gm))
    return AMGMSchedule(
        K=K, T=T, noise_scale=b, V=V, rho_am=r_am, rho_gm=r_gm,
        tau_am=belief_threshold(r_am), tau_gm=belief_threshold(r_gm),
        k_am=k_am, k_gm=k_gm, t_am=t_am, t_gm=t_gm, convention="paper",
    )  # fmt: skip


@dataclass(frozen=True)
class EpsSlope:
    """Growth of Thm 4.2's ``T`` per unit of ``log(1/ε)`` at small ε (:func:`iterations_eps_slope`).

    Attributes
    ----------
    eps
        The two budgets ``(ε₁, ε₂)``, ``ε₁ > ε₂``.
    measured
        ``(T(ε₂) − T(ε₁))/log(ε₁/ε₂)`` with the real-valued ``T = max(t_AM, t_GM)``.
    predicted
        Table 1's slope: ``1/log(1/a*)`` at fixed ϱ, ``1/log(2/a*)`` with the optimal ϱ*.
    tolerance
        Derived bound on ``|measured/predicted − 1|``: ``nΓ/(V(ε₁) log(ε₁/ε₂))`` plus float rounding.
    mixing_limited
        The mixing term sets ``T`` at both budgets (always true with the optimal ϱ*); the bound needs it.
    """

    eps: tuple[float, float]
    measured: float
    predicted: float
    tolerance: float
    mixing_limited: bool


def iterations_eps_slope(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: ArrayLike,
    alpha: float,
    beta: float,
    rho: float | None = None,
    eps: tuple[float, float] = (1e-5, 1e-6),
) -> EpsSlope:
    r"""Table 1's ε column for AM/GM: how fast Thm 4.2's ``T`` grows as ``ε → 0``.

    With ``K`` fixed, ``V = √2 Σ_i b_i ∝ 1/ε`` and both mixing constants are proportional to
    ``nΓ + V``. At a fixed ϱ (``rho``, used for AM and GM) and while the mixing term sets ``T``,
    ``T(ε) = [log(nΓ + V(ε)) + const]/log(1/a*)``, so with ``r = ε₁/ε₂`` and ``V₁ = V(ε₁)``

    .. math:: \frac{T(\varepsilon_2) - T(\varepsilon_1)}{\log r}
       = \frac{1}{\log(1/a^\star)}\Bigl(1 - \frac{\log\frac{n\Gamma + V_1}{n\Gamma/r + V_1}}{\log r}\Bigr),

    whose relative deviation from ``1/log(1/a*)`` lies in ``[0, nΓ/(V₁ log r)]``. With the optimal ϱ*
    (``rho=None``) both terms are equal and ``T = [log c − log(l/2n)]/log(2/a*)``: the same deviation
    from ``1/log(2/a*)``.
    """
    eps_hi, eps_lo = (_check_pos("eps", e) for e in eps)
    if not eps_hi > eps_lo:
        raise ParameterError(f"eps must be a pair (ε₁, ε₂) with ε₁ > ε₂ (got {eps})")
    if a_star == 0:
        raise ParameterError("a_star = 0: T does not depend on ε (the mixing term vanishes)")
    plans = [
        schedule_thm42(
            problem, a_star=a_star, delta=delta, eps=e, alpha=alpha, beta=beta, rho_am=rho, rho_gm=rho
        )
        for e in (eps_hi, eps_lo)
    ]
    t_hi, t_lo = (max(s.t_am, s.t_gm) for s in plans)
    log_r = math.log(eps_hi / eps_lo)
    if rho is None:
        predicted, limited = 1.0 / math.log(2.0 / a_star), True
    else:
        predicted = 1.0 / math.log(1.0 / a_star)
        limited = t_hi > consensus_iterations(rho, n=problem.n, gap=problem.gap)
    rounding = 4 * float(np.finfo(float).eps) * max(abs(t_hi), abs(t_lo)) / (log_r * predicted)
    return EpsSlope(
        eps=(eps_hi, eps_lo),
        measured=(t_lo - t_hi) / log_r,
        predicted=predicted,
        tolerance=problem.n * problem.gamma / (plans[0].V * log_r) + rounding,
        mixing_limited=bool(limited),
    )


def schedule_authors_code(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: float,
    eps: float,
    alpha: float,
    beta: float,
    rho: float,
) -> AMGMSchedule:
    """The authors' notebook: code ``K`` and ``T``, noise ``2KΔ|Θ|/ε``, one ϱ for AM and GM.

    ``η = max{α, 1−β}``. ACTG legacy (``n = 5``, ``ε = 1``, ``α = 1−β = 0.05``, ``ϱ = 1.5``): ``K = 8``,
    ``T = 21``. The same ``K``, ``T`` serve the notebook's two-threshold runs.
    """
    eta = max(_check_prob("alpha", alpha), 1.0 - _check_prob("beta", beta))
    K = rounds_authors_code(problem.n_states, eta)
    T = iterations_authors_code(
        n_states=problem.n_states,
        n=problem.n,
        gamma=problem.gamma,
        gap=problem.gap,
        a_star=a_star,
        delta=delta,
        eps=eps,
        rho=rho,
        eta=eta,
    )
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "authors_code")
    tau = belief_threshold(rho)
    return AMGMSchedule(
        K=K, T=T, noise_scale=b, V=V, rho_am=rho, rho_gm=rho, tau_am=tau, tau_gm=tau,
        k_am=float(K), k_gm=float(K), t_am=float(T), t_gm=float(T), convention="authors_code",
    )  # fmt: skip


def schedule_thm43(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    pi1: float,
    pi2: float,
    mle_count_known: bool = True,
    corrected: bool = False,
) -> ThresholdSchedule:
    r"""Thm 4.3 (asymptotic two-threshold): ``τ¹ = (1+π₁)p₁``, ``τ² = (1−π₂)p₂``, ``K = ⌈max(K¹, K²)⌉``.

    ``p₁ = 1 − 1/|Θ*|``, ``p₂ = 1/|Θ̄|`` (unknown ``|Θ*|``: ``1 − 1/|Θ|`` and ``1/|Θ|``);
    ``corrected=True`` uses ``p₂ = 1/|Θ|`` (:func:`~dpnet.inference.rounds.win_probabilities`). ``K`` does not
    depend on ``p₂``. The counts use ``τ̂ = 0`` ("won the round"), the ``T → ∞``, ``ϱ → ∞`` limit.
    """
    k1, k2 = rounds_thres(
        problem.n_states, problem.n_mle, alpha, beta, pi1, pi2, mle_count_known=mle_count_known
    )
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    p1, p2 = win_probabilities(
        problem.n_states, problem.n_mle, mle_count_known=mle_count_known, corrected=corrected
    )
    return ThresholdSchedule(
        K=K, T=None, noise_scale=b, V=V, rho_1=math.inf, rho_2=math.inf, tau_hat_1=0.0, tau_hat_2=0.0,
        freq_1=(1 + pi1) * p1, freq_2=(1 - pi2) * p2, k_1=k1, k_2=k2, t_1=math.nan, t_2=math.nan,
        convention="paper",
    )  # fmt: skip


def schedule_thm43_corrected(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    pi1: float,
    pi2: float,
) -> ThresholdSchedule:
    r"""Thm 4.3 with its two slips corrected: the win probabilities and Hoeffding's factor ``p²``.

    ``p₁ = |Θ*|/(|Θ*|+1)``, ``p₂ = 1/|Θ|`` (:func:`~dpnet.inference.rounds.win_probabilities_corrected`),
    ``τ¹ = (1+π₁)p₁``, ``τ² = (1−π₂)p₂`` and ``K = ⌈max(K¹, K²)⌉`` with
    ``K¹ = log(|Θ̄|/α)/(2π₁²p₁²)``, ``K² = log(|Θ*|/(1−β))/(2π₂²p₂²)``
    (:func:`~dpnet.inference.rounds.rounds_thres_hoeffding`). Then ``lim P[Θ̂¹ ⊆ Θ*] ≥ 1 − α`` and
    ``lim P[Θ* ⊆ Θ̂²] ≥ β`` hold for every gap. The counts use ``τ̂ = 0`` ("won the round"), the ``T → ∞``
    limit. ``|Θ| = 4``, ``|Θ*| = 1``, ``α = 1−β = 0.05``, ``π = 0.5``: ``K = 96``, ``τ¹ = 0.75``,
    ``τ² = 0.125``.
    """
    p1, p2 = win_probabilities_corrected(problem.n_states, problem.n_mle)
    k1, k2 = rounds_thres_hoeffding(problem.n_states, problem.n_mle, alpha, beta, pi1, pi2, p1, p2)
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    return ThresholdSchedule(
        K=K, T=None, noise_scale=b, V=V, rho_1=math.inf, rho_2=math.inf, tau_hat_1=0.0, tau_hat_2=0.0,
        freq_1=(1 + pi1) * p1, freq_2=(1 - pi2) * p2, k_1=k1, k_2=k2, t_1=math.nan, t_2=math.nan,
        convention="paper",
    )  # fmt: skip


def schedule_cor44(
    problem: ProblemConstants,
    *,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    pi2: float,
) -> ThresholdSchedule:
    r"""Cor 4.4 (exact recovery with one threshold, asymptotic): ``τ = (1−π₂)p₂``, one count.

    Needs ``p₂ > p₁`` (:func:`~dpnet.inference.rounds.exact_recovery_feasible`) and
    ``π₁ = (1−π₂)p₂/p₁ − 1 > 0`` (``π₁ = ∞`` when ``|Θ*| = 1``);
    ``K = ⌈max{log(|Θ|/α)/(2π₁²), log(|Θ|/(1−β))/(2π₂²)}⌉``. Then ``lim P[Θ̂ = Θ*] ≥ β − α``.
    ``freq_1 = freq_2 = τ`` and ``τ̂ = 0``.
    """
    n_states, n_mle = problem.n_states, problem.n_mle
    if not exact_recovery_feasible(n_states, n_mle):
        raise ParameterError(
            f"exact recovery needs p2 > p1, i.e. f*(1 − f*) < 1/|Θ| (got |Θ*| = {n_mle}, |Θ| = {n_states})"
        )
    pi2 = _check_pos("pi2", pi2)
    p1, p2 = win_probabilities(n_states, n_mle)
    tau = (1 - pi2) * p2
    if not tau > p1:
        raise ParameterError(f"pi2 must satisfy (1 − π₂)p₂ > p₁ = {p1:g} (got π₂ = {pi2}, τ = {tau:g})")
    pi1 = math.inf if p1 == 0 else tau / p1 - 1.0
    k1 = 0.0 if math.isinf(pi1) else math.log(n_states / _check_prob("alpha", alpha)) / (2 * pi1**2)
    k2 = math.log(n_states / (1.0 - _check_prob("beta", beta))) / (2 * pi2**2)
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, n_states, eps, K, problem.n, "paper")
    return ThresholdSchedule(
        K, None, b, V, math.inf, math.inf, 0.0, 0.0, tau, tau, k1, k2, math.nan, math.nan, "paper"
    )


def schedule_thm45(
    problem: ProblemConstants,
    *,
    a_star: float,
    delta: ArrayLike,
    eps: float,
    alpha: float,
    beta: float,
    q1: float,
    q2: float,
    pi1: float,
    pi2: float,
    rho_1: float | None = None,
    rho_2: float | None = None,
) -> ThresholdSchedule:
    r"""Thm 4.5 (finite-T two-threshold), as the theorem states it (its proof drops a factor 2).

    ``τ¹ = (1+π₁)q₁``, ``K¹ = log(|Θ̄|/α)/(2π₁²)``,
    ``T¹ = max{log(2ϱ₁n/l)/log 2, log(|Θ|²(n−1)(nΓ+V)/(2q₁ϱ₁))/log(1/a*)}``;
    ``τ² = (1−π₂)q₂``, ``K² = log(|Θ*|/(1−β))/(2π₂²)``, ``T²`` with ``2(1−q₂)ϱ₂``; ``K = ⌈max⌉``,
    ``T = ⌈max⌉``, ``b = ΔK|Θ|/ε``. Default ϱ's are the paper's ``ϱ*_thres`` (with the ``√K`` of the
    remark after the theorem). ``τ̂_j = 1/(1+e^{ϱ_j})``.
    """
    q1, q2 = _check_prob("q1", q1), _check_prob("q2", q2)
    k1, k2 = rounds_thres(problem.n_states, problem.n_mle, alpha, beta, pi1, pi2)
    K = to_int_ceil(max(k1, k2), minimum=1)
    b, V = _scale_and_V(delta, problem.n_states, eps, K, problem.n, "paper")
    common = {"n_states": problem.n_states, "n": problem.n, "gamma": problem.gamma, "V": V}
    c1 = mixing_constant_thres(**common, q=q1)
    c2 = mixing_constant_thres(**common, q=1.0 - q2)
    geo = {"n": problem.n, "gap": problem.gap, "a_star": a_star}
    r1 = optimal_rho(c1 / math.sqrt(K), **geo) if rho_1 is None else _check_pos("rho_1", rho_1)
    r2 = optimal_rho(c2 / math.sqrt(K), **geo) if rho_2 is None else _check_pos("rho_2", rho_2)
    t1, t2 = iterations_bound(c1, r1, **geo), iterations_bound(c2, r2, **geo)
    return ThresholdSchedule(
        K=K, T=to_int_ceil(max(t1, t2)), noise_scale=b, V=V, rho_1=r1, rho_2=r2,
        tau_hat_1=belief_threshold(r1), tau_hat_2=belief_threshold(r2),
        freq_1=(1 + pi1) * q1, freq_2=(1 - pi2) * q2, k_1=k1, k_2=k2, t_1=t1, t_2=t2, convention="paper",
    )  # fmt: skip
