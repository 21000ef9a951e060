r"""Differentially private distributed MLE by log-linear belief averaging (paper 003 §3–4, §8–9; paper 000).

**Model.** ``n`` agents on a connected graph with a symmetric doubly stochastic weight matrix ``A``
(:mod:`dpnet.networks`) hold private data. Agent ``i`` knows its log-likelihood ``log γ_i(θ)`` of
every state ``θ`` of a finite set ``Θ``; the table ``loglik[i, θ] = log γ_i(θ)`` of shape
``(n, |Θ|)`` is the input of everything here. ``Λ(θ) = Σ_i log γ_i(θ)``, ``Θ* = argmax Λ`` is the MLE
set, ``Θ̄ = Θ \ Θ*``.

**Dynamics (Alg 4, eq. 18; Alg 1, eq. 12).** Each round starts from noisy beliefs
``ν_{i,0}(θ) ∝ exp(ζ_i(θ))``, ``ζ_i(θ) = log γ_i(θ) + d_i(θ)`` (``d ≡ 0`` for the non-private Alg 4), and
iterates ``ν_{i,t}(θ) ∝ ν_{i,t−1}(θ)^{1+a_ii} Π_{j∈N_i} ν_{j,t−1}(θ)^{a_ij}`` (the exponent ``1 + a_ii``
on the agent's own belief is the paper's, in eqs. 12, 14 and 18: the exponents sum to 2). In log space
the update is linear up to a per-agent normaliser, so

.. math::
   \log \nu_{i,T}(\theta) = \operatorname{log\,softmax}_\theta\bigl(2^T \bar\psi_{i,T}(\theta)\bigr),
   \qquad \bar\psi_T = \Bigl(\frac{A+I}{2}\Bigr)^T \zeta - c,

exactly, for any shift ``c`` common to all agents and states. ``ψ̄_T`` (the *scaled log-ratios*,
:func:`~dpnet.inference.dynamics.scaled_log_ratios`) stays bounded for every ``T``
(``((A+I)/2)^T → 𝟙𝟙ᵀ/n``), and the factor ``2^T`` is applied inside the log-softmax with exact
power-of-two scaling (:func:`~dpnet.inference.dynamics.log_softmax_scaled`). Log-beliefs that fall below
:data:`~dpnet.inference.dynamics.LOG_BELIEF_FLOOR` (``−2^1000``; the belief is exactly 0 in float64) are set
to it, so that ``T`` in the thousands neither overflows nor produces ``0/0`` (computed directly, ``2^T``
overflows a float after about a thousand iterations, and the beliefs of losing states underflow much earlier).

**Asymptotic oracle (T → ∞).** ``ψ̄_T → (Λ + Y_k)/n`` for every agent, with
``Y_k(θ) = Σ_i d_{i,k}(θ)``: each round puts belief 1 on ``argmax_θ Λ(θ) + Y_k(θ)`` (ties share it).
:func:`~dpnet.inference.dynamics.asymptotic_log_ratios` returns this limit in the same representation
(``T = None``), so the same aggregators give the exact limit: AM → fraction of rounds won; GM → one-hot on
``argmax Λ + (1/K) Σ_k Y_k`` (GM is computed as the softmax of the mean log-beliefs: the literal
product of one-hot rounds is ``0/0``).

**Private MLE (Alg 1).** ``K`` independent rounds with Laplace noise ``d_{i,k}(θ) ~ Lap(b)``,
``b = Δ K |Θ| / ε`` iid over agents, states and rounds (:func:`~dpnet.inference.noise.noise_scale`; the
authors' notebook draws twice that scale). Aggregation (:func:`~dpnet.inference.aggregation.am_beliefs`,
:func:`~dpnet.inference.aggregation.gm_log_beliefs`):

* AM ``ν^AM = (1/K) Σ_k ν_k``, ``Θ̂^AM = {ν^AM ≥ τ_AM}``: bounds the **Type II** error
  ``P[Θ* ⊄ Θ̂]``, as Thms 4.1–4.2 state (the paper's introduction words the two errors differently);
* GM ``ν^GM ∝ Π_k ν_k^{1/K} = softmax(2^T mean_k ψ̄_k)``, ``Θ̂^GM = {ν^GM ≥ τ_GM}``: bounds the
  **Type I** error ``P[Θ̂ ⊄ Θ*]``, but only when the likelihood gap is a few noise scales: the
  proof of Thm 4.1 bounds an estimator that keeps a state only if it wins every round, which no
  computable GM does.

``T = None`` everywhere means the limit ``T → ∞``.

**Two-threshold algorithm (Alg 2, eq. 15).** ``N(θ) = (1/K) Σ_k 1{ν_{k,T}(θ) > τ̂}``
(:func:`~dpnet.inference.aggregation.round_counts`); ``Θ̂¹ = {N¹ ≥ τ¹}`` (low Type I) and ``Θ̂² = {N² ≥ τ²}``
(low Type II), :func:`~dpnet.inference.aggregation.threshold_sets`; Cor 4.4 uses one threshold for exact
recovery.

**Parameters.** ``K``, ``T`` and thresholds from Thms 4.1, 4.2, 4.3, 4.5 and Cor 4.4 with the exact
constants of the proofs (:func:`~dpnet.inference.schedules.schedule_thm41`,
:func:`~dpnet.inference.schedules.schedule_thm42`, :func:`~dpnet.inference.schedules.schedule_thm43`,
:func:`~dpnet.inference.schedules.schedule_thm45`, :func:`~dpnet.inference.schedules.schedule_cor44`), or the
formulas of the authors' notebook (Table 1's orders with unit constants and twice the noise,
:func:`~dpnet.inference.schedules.schedule_authors_code`). Paper 000's constants are the same formulas with a
per-agent sensitivity ``Δ_i`` (pass an array as ``delta``) and a single threshold ``ϱ``;
:func:`~dpnet.inference.noise.network_dp_sensitivity` gives 000's Network-DP sensitivity.

Shapes: noise and per-round arrays are ``(..., K, n, |Θ|)`` (round axis ``−3``, agent axis ``−2``,
state axis ``−1``), typically ``(R, K, n, |Θ|)`` for ``R`` Monte Carlo replications. All randomness
comes from an explicit :class:`numpy.random.Generator` argument ``rng``.

**Modules.**

- :mod:`~dpnet.inference.problem` — thresholds ``τ ↔ ϱ`` and ``log τ``, the MLE set, problem constants;
- :mod:`~dpnet.inference.noise` — Bernoulli log-likelihoods, sensitivities, Laplace scales and noise;
- :mod:`~dpnet.inference.dynamics` — belief dynamics in log space, the ``T → ∞`` oracle, Alg 4;
- :mod:`~dpnet.inference.aggregation` — AM/GM aggregates, round counts, estimated sets;
- :mod:`~dpnet.inference.trajectories` — beliefs at every iteration ``t = 0..T`` (plots, test reference);
- :mod:`~dpnet.inference.simulation` — Monte Carlo runs of the private MLE (Algs 1–2);
- :mod:`~dpnet.inference.rounds` — rounds ``K``, win probabilities ``p₁``, ``p₂``, exact-recovery condition,
  rounding up;
- :mod:`~dpnet.inference.iterations` — iterations ``T``, mixing constants, optimal ``ϱ``;
- :mod:`~dpnet.inference.schedules` — ``K``, ``T``, noise and thresholds of Thms 4.1–4.5, Cor 4.4, and
  the growth of ``T`` as ``ε → 0`` (Table 1);
- :mod:`~dpnet.inference.hypothesis_testing` — GM test statistic, centralised GLRT threshold, lower bounds
  on ``K·T``;
- :mod:`~dpnet.inference.rates` — error rates and whether one exceeds its target, recovery rates,
  total variation, the error-rate sweep task;
- :mod:`~dpnet.inference.online` — online learning from streams (Algs 3 and 5), its limit and horizon
  (Thm 4.7; 000's Thm 3.6);
- :mod:`~dpnet.inference.signals` — synthetic intermittent signal streams and their closed forms (KL, ``Q``,
  ``Δ``), simulated without storing the stream;
- :mod:`~dpnet.inference.first_order` — the first-order DP diffusion baseline of §14.4 (Rizk et al. 2023);

Every public name is re-exported here: ``from dpnet import inference as inf; inf.schedule_thm42(...)``.
"""

from __future__ import annotations

from dpnet.inference.aggregation import (
    am_beliefs,
    frequency_thresholds,
    gm_log_beliefs,
    round_counts,
    select_am,
    select_gm,
    threshold_sets,
)
from dpnet.inference.dynamics import (
    LOG_BELIEF_FLOOR,
    asymptotic_log_ratios,
    log_softmax_scaled,
    nonprivate_log_beliefs,
    round_log_beliefs,
    scaled_log_ratios,
)
from dpnet.inference.first_order import (
    FirstOrderConvention,
    clip_gradients,
    dp_diffusion,
    dp_diffusion_step,
    first_order_clip,
    first_order_noise_scale,
)
from dpnet.inference.hypothesis_testing import (
    glrt_threshold_centralised,
    gm_test_statistic,
    kl_bound_rr,
    kt_lower_bound,
    kt_lower_bound_rr,
)
from dpnet.inference.iterations import (
    consensus_iterations,
    iterations_authors_code,
    iterations_bound,
    mixing_constant_am,
    mixing_constant_gm,
    mixing_constant_thres,
    mixing_iterations,
    optimal_rho,
)
from dpnet.inference.noise import (
    Convention,
    bernoulli_loglik,
    bernoulli_sensitivity,
    laplace_noise,
    network_dp_sensitivity,
    noise_scale,
    noise_std_sum,
)
from dpnet.inference.online import (
    OnlineRuns,
    first_reach,
    identification_rate,
    identifies,
    limit_error,
    online_beliefs,
    online_gap,
    online_horizon,
    online_limit,
    online_log_ratios,
    online_runs,
    online_sets,
    time_averaged_ratios,
)
from dpnet.inference.problem import (
    ProblemConstants,
    belief_threshold,
    gap_loglik,
    log_belief_level,
    log_belief_threshold,
    mle_mask,
    problem_constants,
)
from dpnet.inference.rates import (
    ErrorRates,
    ErrorRateTask,
    error_rate_task,
    estimated_sets,
    exceeds_target,
    recovery_rates,
    total_variation,
    type_errors,
)
from dpnet.inference.rounds import (
    exact_recovery_boundaries,
    exact_recovery_feasible,
    rounds_am,
    rounds_authors_code,
    rounds_gm,
    rounds_thres,
    rounds_unknown_mle,
    to_int_ceil,
    win_probabilities,
)
from dpnet.inference.schedules import (
    AMGMSchedule,
    EpsSlope,
    ThresholdSchedule,
    iterations_eps_slope,
    schedule_authors_code,
    schedule_cor44,
    schedule_thm41,
    schedule_thm42,
    schedule_thm43,
    schedule_thm45,
)
from dpnet.inference.signals import SignalModel, arrival_variance, informative_model, simulate_online
from dpnet.inference.simulation import PrivateMLEResult, run_private_mle
from dpnet.inference.trajectories import belief_trajectory, iterate_log_beliefs, scaled_trajectory

__all__ = [
    "LOG_BELIEF_FLOOR",
    "AMGMSchedule",
    "Convention",
    "EpsSlope",
    "ErrorRateTask",
    "ErrorRates",
    "FirstOrderConvention",
    "OnlineRuns",
    "PrivateMLEResult",
    "ProblemConstants",
    "SignalModel",
    "ThresholdSchedule",
    "am_beliefs",
    "arrival_variance",
    "asymptotic_log_ratios",
    "belief_threshold",
    "belief_trajectory",
    "bernoulli_loglik",
    "bernoulli_sensitivity",
    "clip_gradients",
    "consensus_iterations",
    "dp_diffusion",
    "dp_diffusion_step",
    "error_rate_task",
    "estimated_sets",
    "exact_recovery_boundaries",
    "exact_recovery_feasible",
    "exceeds_target",
    "first_order_clip",
    "first_order_noise_scale",
    "first_reach",
    "frequency_thresholds",
    "gap_loglik",
    "glrt_threshold_centralised",
    "gm_log_beliefs",
    "gm_test_statistic",
    "identification_rate",
    "identifies",
    "informative_model",
    "iterate_log_beliefs",
    "iterations_authors_code",
    "iterations_bound",
    "iterations_eps_slope",
    "kl_bound_rr",
    "kt_lower_bound",
    "kt_lower_bound_rr",
    "laplace_noise",
    "limit_error",
    "log_belief_level",
    "log_belief_threshold",
    "log_softmax_scaled",
    "mixing_constant_am",
    "mixing_constant_gm",
    "mixing_constant_thres",
    "mixing_iterations",
    "mle_mask",
    "network_dp_sensitivity",
    "noise_scale",
    "noise_std_sum",
    "nonprivate_log_beliefs",
    "online_beliefs",
    "online_gap",
    "online_horizon",
    "online_limit",
    "online_log_ratios",
    "online_runs",
    "online_sets",
    "optimal_rho",
    "problem_constants",
    "recovery_rates",
    "round_counts",
    "round_log_beliefs",
    "rounds_am",
    "rounds_authors_code",
    "rounds_gm",
    "rounds_thres",
    "rounds_unknown_mle",
    "run_private_mle",
    "scaled_log_ratios",
    "scaled_trajectory",
    "schedule_authors_code",
    "schedule_cor44",
    "schedule_thm41",
    "schedule_thm42",
    "schedule_thm43",
    "schedule_thm45",
    "select_am",
    "select_gm",
    "simulate_online",
    "threshold_sets",
    "time_averaged_ratios",
    "to_int_ceil",
    "total_variation",
    "type_errors",
    "win_probabilities",
]
