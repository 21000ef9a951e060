"""Error rates.

Type I, Type II and exact-recovery rates of estimated sets with Clopper–Pearson intervals, the total
variation distance, the Monte Carlo task of an error-rate sweep, and the exact probability that a state
ahead by given margins stays ahead under sums of Laplace noise (the ``T → ∞`` oracle's per-round win
probability, and GM's Type I error, in closed form up to quadrature).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import fft, integrate, special

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_loglik
from dpnet.inference.aggregation import select_am, select_gm, threshold_sets
from dpnet.inference.dynamics import _exp
from dpnet.inference.noise import Convention, noise_scale
from dpnet.inference.problem import mle_mask
from dpnet.inference.simulation import PrivateMLEResult, run_private_mle
from dpnet.mechanisms import clopper_pearson

__all__ = [
    "ErrorRateTask",
    "ErrorRates",
    "error_rate_task",
    "estimated_sets",
    "exceeds_target",
    "laplace_sum_pdf",
    "leader_probability",
    "recovery_rates",
    "total_variation",
    "type_errors",
]


@dataclass(frozen=True)
class ErrorRates:
    """Empirical error rates of estimated sets, with two-sided Clopper–Pearson intervals.

    Attributes
    ----------
    type1, type1_ci
        ``P[Θ̂ ⊄ Θ*]`` (a non-MLE state admitted) and its interval ``(lower, upper)``.
    type2, type2_ci
        ``P[Θ* ⊄ Θ̂]`` (an MLE state missed) and its interval.
    exact, exact_ci
        ``P[Θ̂ = Θ*]`` and its interval.
    n_trials
        Number of replications ``R``.
    confidence
        Two-sided level of the intervals.
    """

    type1: NDArray[np.float64] | float
    type1_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    type2: NDArray[np.float64] | float
    type2_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    exact: NDArray[np.float64] | float
    exact_ci: tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]
    n_trials: int
    confidence: float


def type_errors(selected: ArrayLike, mle: ArrayLike, *, confidence: float = 0.95) -> ErrorRates:
    """Type I / Type II / exact-recovery rates of estimated sets over replications (Thms 4.1–4.2's names).

    Parameters
    ----------
    selected
        Boolean masks ``Θ̂`` of shape ``(R, ..., |Θ|)``, replications first (e.g. ``(R, n, |Θ|)``: one
        rate per agent).
    mle
        Boolean mask of ``Θ*``, shape ``(|Θ|,)`` (:func:`~dpnet.inference.problem.mle_mask`).
    confidence
        Two-sided level of the Clopper–Pearson intervals (each side at ``(1 + confidence)/2``).
    """
    sel = np.asarray(selected)
    star = np.asarray(mle)
    if sel.dtype != np.bool_ or star.dtype != np.bool_:
        raise ParameterError("selected and mle must be boolean masks")
    if star.ndim != 1 or sel.ndim < 2 or sel.shape[-1] != star.shape[0]:
        raise ParameterError(
            f"selected must have shape (R, ..., {star.shape[0]}) for an mle mask of {star.shape[0]} states "
            f"(got {sel.shape})"
        )
    if not 0.0 < confidence < 1.0:
        raise ParameterError(f"confidence must lie in (0, 1) (got {confidence})")
    R = sel.shape[0]
    events = {
        "type1": np.any(sel & ~star, axis=-1),
        "type2": np.any(star & ~sel, axis=-1),
        "exact": np.all(sel == star, axis=-1),
    }
    level = 0.5 * (1.0 + confidence)
    out: dict[str, Any] = {}
    for name, hit in events.items():
        k = hit.sum(axis=0)
        rate = k / R
        out[name] = float(rate) if np.ndim(rate) == 0 else rate
        out[f"{name}_ci"] = clopper_pearson(k, R, level)
    return ErrorRates(**out, n_trials=R, confidence=confidence)


def exceeds_target(record: Mapping[str, Any], kind: str, target: float) -> bool:
    """The rate ``record[kind]`` exceeds ``target`` beyond Monte Carlo error: the lower end of its
    Clopper–Pearson interval, ``record[kind + "_lo"]``, lies above the target.

    ``record`` is a flat record of :func:`error_rate_task`; ``kind`` is ``"type1"``, ``"type2"``,
    ``"exact"`` or any rate stored with its ``_lo`` bound.
    """
    return bool(record[f"{kind}_lo"] > target)


def total_variation(p: ArrayLike, q: ArrayLike) -> NDArray[np.float64] | float:
    """Total variation distance ``½ Σ_θ |p(θ) − q(θ)|`` over the last axis."""
    out = 0.5 * np.abs(np.asarray(p, dtype=float) - np.asarray(q, dtype=float)).sum(axis=-1)
    return float(out) if np.ndim(out) == 0 else out


def estimated_sets(
    result: PrivateMLEResult, *, rho: float, freq: float, am: ArrayLike | None = None
) -> dict[str, NDArray[np.bool_]]:
    """Every replication's and agent's estimated set, shape ``(R, n, |Θ|)``, by algorithm.

    - ``"GM"``: ``Θ̂^GM = {ν^GM ≥ τ}``, ``τ = 1/(1+e^ϱ)`` (:func:`~dpnet.inference.aggregation.select_gm`);
    - ``"AM"``: ``Θ̂^AM = {ν^AM ≥ τ}`` (:func:`~dpnet.inference.aggregation.select_am`; ``am``: the AM beliefs
      if already computed);
    - ``"two-threshold"``: ``{θ : N(θ) ≥ max(freq, 1/K)}`` with ``N`` the fraction of rounds the state
      won (belief threshold ``τ̂ = 0``, as in the paper's Fig 14.1b and Fig 14.5;
      :func:`~dpnet.inference.aggregation.threshold_sets`).
    """
    counts = result.round_counts(0.0)
    return {
        "GM": select_gm(result.gm_log_beliefs(), rho=rho),
        "AM": select_am(result.am_beliefs() if am is None else am, rho=rho),
        "two-threshold": threshold_sets(counts, counts, freq, freq, result.K)[0],
    }


def recovery_rates(
    result: PrivateMLEResult, target: ArrayLike, *, rho: float, freq: float
) -> dict[str, float]:
    """How often each algorithm returns exactly ``target`` at every agent, over the replications.

    - ``"GM"``, ``"AM"``, ``"two-threshold"``: the sets of :func:`estimated_sets`;
    - ``"AM belief"`` and ``"AM belief se"``: the mean AM belief on ``target`` (summed over its states,
      averaged over agents) and its Monte Carlo standard error over the replications.

    A replication counts as a success when every agent's set equals ``target``
    (:func:`type_errors`'s exact-recovery event on the agents' sets taken together).

    Parameters
    ----------
    result
        Replications from :func:`~dpnet.inference.simulation.run_private_mle` (at least 2).
    target
        Boolean mask over the states, shape ``(|Θ|,)``: the set that counts as recovered.
    rho
        Log-belief threshold ϱ of AM and GM.
    freq
        Frequency threshold of the two-threshold rule.
    """
    mask = np.asarray(target, dtype=bool)
    n_reps, n_agents, n_states = result.n_reps, result.scaled.shape[-2], result.scaled.shape[-1]
    if mask.shape != (n_states,) or not mask.any():
        raise ParameterError(f"target must be a non-empty boolean mask over the {n_states} states")
    if n_reps < 2:
        raise ParameterError(f"recovery rates need at least 2 replications (got {n_reps})")
    everywhere = np.tile(mask, n_agents)

    def exact(selected: NDArray[np.bool_]) -> float:
        return float(type_errors(selected.reshape(n_reps, -1), everywhere).exact)

    am = result.am_beliefs()
    am_target = am[..., mask].sum(axis=-1).mean(axis=-1)  # per replication, averaged over agents
    return {
        **{k: exact(sets) for k, sets in estimated_sets(result, rho=rho, freq=freq, am=am).items()},
        "AM belief": float(am_target.mean()),
        "AM belief se": float(am_target.std(ddof=1) / np.sqrt(n_reps)),
    }


@dataclass(frozen=True, eq=False)
class ErrorRateTask:
    """One point of an error-rate sweep, for :func:`dpnet.sweep.sweep`.

    Attributes
    ----------
    loglik
        ``(n, |Θ|)`` log-likelihood table.
    eps, K, T
        Budget, rounds, iterations (``T = None``: the exact ``T → ∞`` oracle).
    delta
        Sensitivity Δ (scalar or one per agent).
    n_reps
        Replications ``R`` (e.g. 2000).
    tau_am, tau_gm
        Belief thresholds of AM and GM, ``τ ∈ (0, 1]``.
    weights
        Dense ``n × n`` weight matrix (needed for finite ``T``).
    tau_hat_1, tau_hat_2, freq_1, freq_2
        Two-threshold rule (Alg 2); skipped when ``freq_1`` or ``freq_2`` is ``None``.
    convention
        Noise scale convention of :func:`~dpnet.inference.noise.noise_scale`.
    agent
        Agent whose sets are scored (the guarantees hold for every agent).
    chunk
        Replications simulated at once (bounds memory).
    rho_am, rho_gm
        Log-belief-ratio thresholds ``ϱ ≥ 0``, alternatives to ``tau_am``, ``tau_gm``
        (``τ = 1/(1 + e^ϱ)``); give exactly one of each pair. The sets then compare log-beliefs with
        ``log τ = −log(1 + e^ϱ)``, exact even where ``τ`` underflows (``ϱ ≳ 745``; see
        :func:`~dpnet.inference.aggregation.select_am`, :func:`~dpnet.inference.aggregation.select_gm`).
    thresholds_only
        Score the two-threshold sets alone (they need ``freq_1`` and ``freq_2``), without the AM and GM
        aggregates (no ``tau``/``rho`` then): the result has no ``am_*``/``gm_*`` entries. With many
        rounds the aggregates cost most of a task.
    """

    loglik: NDArray[np.float64]
    eps: float
    K: int
    T: int | None
    delta: float | NDArray[np.float64]
    n_reps: int
    tau_am: float | None = None
    tau_gm: float | None = None
    weights: NDArray[np.float64] | None = None
    tau_hat_1: float = 0.0
    tau_hat_2: float = 0.0
    freq_1: float | None = None
    freq_2: float | None = None
    convention: Convention = "paper"
    agent: int = 0
    chunk: int = 1000
    rho_am: float | None = None
    rho_gm: float | None = None
    thresholds_only: bool = False

    def __post_init__(self) -> None:
        if self.thresholds_only:
            if self.freq_1 is None or self.freq_2 is None:
                raise ParameterError("thresholds_only needs the frequency thresholds freq_1 and freq_2")
            return
        for est in ("am", "gm"):
            if (getattr(self, f"tau_{est}") is None) == (getattr(self, f"rho_{est}") is None):
                raise ParameterError(f"give exactly one of tau_{est} and rho_{est}")


def _chunk_sets(
    task: ErrorRateTask, arr: NDArray[np.float64], scale: Any, size: int, rng: np.random.Generator
) -> dict[str, NDArray[Any]]:
    res = run_private_mle(arr, task.weights, K=task.K, T=task.T, scale=scale, n_reps=size, rng=rng)
    i = task.agent
    if task.thresholds_only:
        n1 = res.round_counts(task.tau_hat_1)[:, i]
        n2 = n1 if task.tau_hat_2 == task.tau_hat_1 else res.round_counts(task.tau_hat_2)[:, i]
        thres1, thres2 = threshold_sets(n1, n2, task.freq_1, task.freq_2, task.K)  # type: ignore[arg-type]
        return {"thres1": thres1, "thres2": thres2}
    am = res.am_beliefs()[:, i]
    gm_log = res.gm_log_beliefs()[:, i]
    out = {
        "am_belief": am,
        "gm_belief": _exp(gm_log),
        "am": select_am(am, task.tau_am, rho=task.rho_am),
        "gm": select_gm(gm_log, task.tau_gm, rho=task.rho_gm),
    }
    if task.freq_1 is not None and task.freq_2 is not None:
        n1 = res.round_counts(task.tau_hat_1)[:, i]
        n2 = n1 if task.tau_hat_2 == task.tau_hat_1 else res.round_counts(task.tau_hat_2)[:, i]
        out["thres1"], out["thres2"] = threshold_sets(n1, n2, task.freq_1, task.freq_2, task.K)
    return out


def error_rate_task(task: ErrorRateTask, rng: np.random.Generator) -> dict[str, float]:
    """Monte Carlo error rates of AM, GM (and the two-threshold sets) for one ``(ε, K, T)`` point.

    Returns a flat dict: the task's ``eps``, ``K``, ``T`` (``inf`` for the oracle), ``noise_scale``,
    ``n_reps``; for each estimator ``e`` in ``am``, ``gm`` (and ``thres1``, ``thres2``) the rates
    ``e_type1``, ``e_type2``, ``e_exact`` with 95 % Clopper–Pearson bounds ``e_type1_lo``/``_hi`` …;
    ``am_belief_mle`` and ``gm_belief_mle``, the mean belief on ``Θ*``; ``gm_selects_mle``, the rate of
    ``Θ* ∩ Θ̂^GM ≠ ∅`` (none of the AM and GM entries with ``task.thresholds_only``).
    """
    arr = _check_loglik(task.loglik)
    n_reps = _check_int("n_reps", task.n_reps, 1)
    chunk = _check_int("chunk", task.chunk, 1)
    _check_int("agent", task.agent, 0)
    if task.agent >= arr.shape[0]:
        raise ParameterError(f"agent must be < n = {arr.shape[0]} (got {task.agent})")
    scale = noise_scale(task.delta, arr.shape[1], task.eps, task.K, convention=task.convention)
    parts: list[dict[str, NDArray[Any]]] = []
    for start in range(0, n_reps, chunk):
        parts.append(_chunk_sets(task, arr, scale, min(chunk, n_reps - start), rng))
    sets = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    mle = mle_mask(arr)
    out: dict[str, float] = {
        "eps": float(task.eps),
        "K": float(task.K),
        "T": math.inf if task.T is None else float(task.T),
        "noise_scale": float(np.mean(scale)),
        "n_reps": float(n_reps),
    }
    if not task.thresholds_only:
        out["am_belief_mle"] = float(sets["am_belief"][:, mle].sum(axis=-1).mean())
        out["gm_belief_mle"] = float(sets["gm_belief"][:, mle].sum(axis=-1).mean())
        out["gm_selects_mle"] = float(np.any(sets["gm"][:, mle], axis=-1).mean())
    for name in ("am", "gm", "thres1", "thres2"):
        if name not in sets:
            continue
        rates = type_errors(sets[name], mle)
        for kind in ("type1", "type2", "exact"):
            lo, hi = getattr(rates, f"{kind}_ci")
            out[f"{name}_{kind}"] = float(getattr(rates, kind))
            out[f"{name}_{kind}_lo"] = float(lo)
            out[f"{name}_{kind}_hi"] = float(hi)
    return out


#: Largest number of terms whose sum's density :func:`laplace_sum_pdf` evaluates in closed form; above it,
#: by Fourier inversion of the characteristic function (smooth then, and the closed form costs n_terms
#: operations a point).
_CLOSED_FORM_TERMS = 8


def laplace_sum_pdf(x: ArrayLike, n_terms: int) -> NDArray[np.float64]:
    r"""Density at ``x`` of the sum of ``n_terms`` iid Laplace(0, 1) variables.

    Up to ``_CLOSED_FORM_TERMS`` terms, the closed form (a polynomial times :math:`e^{-|x|}`, from the
    Bessel function :math:`K_{N-1/2}` of half-integer order)

    .. math::

        f_N(x) = \frac{e^{-|x|}}{2^{2N-1}(N-1)!}\sum_{j=0}^{N-1}\frac{(2N-2-j)!}{j!\,(N-1-j)!}(2|x|)^j,

    evaluated in log space; above, the inverse Fourier transform of :math:`(1+t^2)^{-N}` on a grid of
    step ``√(2N)/400`` (exact to rounding for such smooth densities), interpolated at ``x``.
    """
    N = _check_int("n_terms", n_terms, 1)
    xs = np.abs(np.asarray(x, dtype=float))
    if N <= _CLOSED_FORM_TERMS:
        j = np.arange(N, dtype=float)
        log_c = special.gammaln(2 * N - 1 - j) - special.gammaln(j + 1) - special.gammaln(N - j)
        with np.errstate(divide="ignore", invalid="ignore"):  # log 0 = −∞, and 0·(−∞) where j = 0
            powers = np.where(j == 0, 0.0, j * np.log(2 * xs)[..., None])
        log_f = special.logsumexp(log_c + powers, axis=-1) - xs
        return np.exp(log_f - (2 * N - 1) * math.log(2) - special.gammaln(N))
    grid, dens = _fourier_density(N)
    return np.interp(xs, grid, dens, right=0.0)


def _fourier_density(N: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The density of the sum of ``N`` Laplace(0, 1) on ``[0, L]``, by FFT of ``(1 + t²)^{−N}``."""
    sd = math.sqrt(2 * N)
    h = sd / 400
    M = fft.next_fast_len(2 * math.ceil((40 + 12 * sd) / h) + 2)  # a circular grid beyond ±(40 + 12 sd)
    x = h * (np.arange(M) - M // 2)
    t = 2 * np.pi * fft.fftfreq(M, d=h)
    phi = np.exp(-N * np.log1p(t * t)) * np.exp(-1j * t * x[0])
    dens = np.clip(fft.fft(phi).real / (M * h), 0.0, None)
    return x[M // 2 :], dens[M // 2 :]


def leader_probability(leads: ArrayLike, n_terms: int) -> float:
    r"""The probability that a state ahead of every other by ``leads`` stays ahead under Laplace noise.

    Each state's value receives the sum of ``n_terms`` iid Laplace(0, 1) variables, independently; state 0
    is ahead of state ``j`` by ``leads[j]`` (in units of the Laplace scale). Returns

    .. math::

        P\Big[\bigcap_j \{S_j - S_0 < \ell_j\}\Big] = \int f_N(y)\,\prod_j F_N(y + \ell_j)\,dy,

    by the trapezoidal rule on a grid of step ``√(2N)/400`` (``F_N`` the cumulative integral of
    :func:`laplace_sum_pdf`), accurate to about 10⁻⁷. In the ``T → ∞`` oracle of Alg 1 a round is won by
    the state with the largest ``Λ + Y_k``, ``Y_k`` the sum of the ``n`` agents' Laplace draws: the win
    probability of a maximum-likelihood state ahead by ``l_j/b`` noise scales is
    ``leader_probability(l/b, n)``; the GM leader of K rounds averages ``nK`` draws, so GM keeps θ* alone
    with probability ``leader_probability(K l/b, n K)``. With every lead 0 the states are exchangeable and
    the probability is ``1/(len(leads) + 1)``.
    """
    N = _check_int("n_terms", n_terms, 1)
    ell = np.atleast_1d(np.asarray(leads, dtype=float))
    if ell.ndim != 1 or not np.all(np.isfinite(ell)):
        raise ParameterError(f"leads must be a finite 1-d array (got {leads!r})")
    sd = math.sqrt(2 * N)
    h = sd / 400
    half = math.ceil((40 + 12 * sd) / h)
    y = h * np.arange(-half, half + 1)
    f = laplace_sum_pdf(y, N)
    F = np.concatenate([[0.0], integrate.cumulative_trapezoid(f, y)])
    F /= F[-1]
    integrand = f.copy()
    for lead in ell:
        integrand *= np.interp(y + lead, y, F, left=0.0, right=1.0)
    return float(integrate.trapezoid(integrand, y))
