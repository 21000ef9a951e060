r"""The private distributed hypothesis tests of §4.2 (Prop 4.6 and its composite extension, §10).

Both tests run Alg 1's GM aggregation on two states, null and alternative, and compare each agent's
statistic ``S_i = (n/2^{T−1}) log(ν^GM_{i,T}(alt)/ν^GM_{i,T}(null))``
(:func:`~dpnet.inference.hypothesis_testing.gm_test_statistic`) with ``ϱ_d = ϱ_c − 1``, where ``ϱ_c`` is the
level-``α/2`` critical value of the non-private statistic
``X`` (``2Λ(alt, null)`` for the simple test, ``Σ_i`` local GLRTs for the composite one):

- simple null ``θ = 0`` vs simple alternative ``θ₁`` (UMP likelihood-ratio test):
  :func:`simple_test`, with ``X`` asymptotically ``N(−θ₁² I, 4θ₁² I)`` under the null (local
  asymptotic normality of the partial likelihood, ``I`` the Fisher information at 0);
- composite null vs composite alternative (GLRT): :func:`composite_test`, ``X ≈ χ²_n`` (Wilks).

As ``T → ∞``, ``S_i → X + N`` with the privacy noise ``N = 2 · mean_k Σ_i [d_{i,k}(alt) − d_{i,k}(null)]``,
whose law is public (it depends only on the mechanism). The paper's proof bounds ``|S_i − X|`` by
``n/2^{T−1}``, i.e. it treats ``N`` as absent (note ``note-ht-test-noise``);
:meth:`PrivateTest.rejection_probability` measures what the threshold rule really does, and
:meth:`PrivateTest.pvalue` gives a p-value that accounts for ``N``, beside the paper's ``1 − F_X(S + 1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats
from scipy.optimize import brentq

from dpnet.errors import ParameterError
from dpnet.inference import (
    gm_test_statistic,
    laplace_noise,
    noise_scale,
    problem_constants,
    run_private_mle,
    schedule_thm42,
    to_int_ceil,
)
from dpnet.params import choice, integer, real
from dpnet.survival.cox import CoxFit
from dpnet.survival.studies import RunSchedule

__all__ = [
    "PrivateTest",
    "composite_table",
    "composite_test",
    "make_private_test",
    "observed_statistic",
    "prop46_schedule",
    "simple_alternative",
    "simple_test",
]


def prop46_schedule(
    table: ArrayLike, *, a_star: float, delta: float, eps: float, alpha: float
) -> RunSchedule:
    """Prop 4.6's parameters: GM with Type I target ``α/2`` and ``ϱ_GM = 1``, ``K`` and ``T`` from
    Theorem 4.2 (:func:`~dpnet.inference.schedules.schedule_thm42`, GM's requirements only), paper noise."""
    alpha = real(gt=0.0, lt=1.0)("alpha", alpha)
    sched = schedule_thm42(problem_constants(table), a_star=a_star, delta=delta, eps=eps,
                           alpha=alpha / 2, beta=1 - alpha / 2, rho_am=1.0, rho_gm=1.0)  # fmt: skip
    K = to_int_ceil(sched.k_gm, minimum=1)
    T = to_int_ceil(sched.t_gm, minimum=1)
    return RunSchedule(K=K, T=T, noise_scale=float(noise_scale(delta, 2, eps, K)))


def composite_table(fits: list[CoxFit]) -> NDArray[np.float64]:
    """The composite test's two-state table, one row per centre: ``(sup over Θ̃₀, sup over Θ̃)`` of the
    log-likelihood, i.e. ``(Λ_i(0), Λ_i(0) + LRT_i/2)`` from each centre's (penalised) fit."""
    return np.array([[f.loglik_null, f.loglik_null + f.lrt / 2] for f in fits])


def observed_statistic(table: ArrayLike) -> float:
    """The non-private statistic ``X = 2 Σ_i [log γ_i(alt) − log γ_i(null)]`` of a two-state table."""
    arr = np.asarray(table, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ParameterError(f"table must have shape (n, 2): (null, alt) per agent (got {arr.shape})")
    return float(2.0 * (arr[:, 1] - arr[:, 0]).sum())


@dataclass(frozen=True)
class PrivateTest:
    """A private distributed test: the null law of the non-private statistic and the mechanism.

    Attributes
    ----------
    null
        Frozen :mod:`scipy.stats` distribution of the non-private statistic ``X`` under the null.
    alpha
        Target level α.
    n_agents, K, noise_scale
        Agents ``n``, GM rounds ``K`` and Laplace scale ``b`` per agent, state and round.
    kind
        ``"simple"`` or ``"composite"``.
    """

    null: Any
    alpha: float
    n_agents: int
    K: int
    noise_scale: float
    kind: str

    @property
    def critical_value(self) -> float:
        """``ϱ_c``: the level-``α/2`` critical value of ``X``."""
        return float(self.null.isf(self.alpha / 2))

    @property
    def threshold(self) -> float:
        """The paper's rejection threshold ``ϱ_d = ϱ_c − 1`` for ``S_i``."""
        return self.critical_value - 1.0

    def statistic(
        self, table: ArrayLike, A: Any, T: int | None, *, n_reps: int, rng: np.random.Generator
    ) -> NDArray[np.float64]:
        """``S_i`` of ``n_reps`` independent private runs, shape ``(n_reps, n)``.

        ``table[i] = (log γ_i(null), log γ_i(alt))``; ``T = None`` is the limit ``T → ∞``.
        """
        arr = np.asarray(table, dtype=float)
        if arr.shape != (self.n_agents, 2):
            raise ParameterError(f"table must have shape ({self.n_agents}, 2) (null, alt) (got {arr.shape})")
        run = run_private_mle(arr, A, K=self.K, T=T, scale=self.noise_scale, n_reps=n_reps, rng=rng)
        return gm_test_statistic(run.scaled)

    def noise(self, size: int, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` draws of the privacy noise ``N`` that ``S_i`` adds to ``X`` as ``T → ∞``."""
        size = integer(ge=1)("size", size)
        d = laplace_noise(rng, self.noise_scale, n_reps=size, K=self.K, n_agents=self.n_agents, n_states=2)
        return 2.0 * (d[..., 1] - d[..., 0]).sum(axis=-1).mean(axis=-1)

    def rejection_probability(self, law: Any, noise: ArrayLike, threshold: float | None = None) -> float:
        """``P[X + N > threshold]`` for ``X ~ law`` (the null law: the size; an alternative: the power),
        averaged over the noise draws (``threshold`` defaults to the paper's ``ϱ_d``)."""
        thr = self.threshold if threshold is None else float(threshold)
        return float(np.mean(law.sf(thr - np.asarray(noise, dtype=float))))

    def calibrated_threshold(self, noise: ArrayLike) -> float:
        """The threshold whose size is exactly α once the noise is accounted for:
        the root of ``P[X + N > t] = α`` under the null, over the noise draws."""
        draws = np.asarray(noise, dtype=float)
        lo = float(self.null.isf(self.alpha)) + draws.min() - 1.0  # P[X + N > lo] > α strictly
        hi = float(self.null.isf(self.alpha * 1e-3)) + draws.max()
        return float(brentq(lambda t: self.rejection_probability(self.null, draws, t) - self.alpha, lo, hi))

    def operating_characteristics(self, noise: ArrayLike, alternative: Any = None) -> dict[str, float]:
        """Size of the paper's rule, the noise-calibrated threshold, and (given the law of ``X`` under
        an alternative) the power of both rules."""
        calibrated = self.calibrated_threshold(noise)
        out = {"size": self.rejection_probability(self.null, noise), "calibrated threshold": calibrated}
        if alternative is not None:
            out["power"] = self.rejection_probability(alternative, noise)
            out["power, calibrated"] = self.rejection_probability(alternative, noise, calibrated)
        return out

    def summary(self, statistic: ArrayLike, noise: ArrayLike, *, claim_p: float) -> dict[str, float]:
        """How the private runs' statistics ``S`` came out: the paper's rule's rejection rate, the median
        paper and noise-aware p-values, and how often the paper's p-value is below ``claim_p``."""
        s = np.asarray(statistic, dtype=float)
        paper = self.pvalue_paper(s)
        return {
            "rejects (paper rule)": float(np.mean(s > self.threshold)),
            "median p (paper)": float(np.median(paper)),
            "P[p (paper) < claim]": float(np.mean(paper < claim_p)),
            "median p (with noise)": float(np.median(self.pvalue(s, noise))),
        }

    def pvalue_paper(self, statistic: ArrayLike) -> NDArray[np.float64]:
        """The paper's p-value ``1 − F_X(S + 1)``: the noise is ignored."""
        return self.null.sf(np.asarray(statistic, dtype=float) + 1.0)

    def pvalue(self, statistic: ArrayLike, noise: ArrayLike) -> NDArray[np.float64]:
        """The p-value of ``S`` under the null law of ``X + N``: ``mean_m F̄_X(S − N_m)``."""
        s = np.asarray(statistic, dtype=float)
        draws = np.asarray(noise, dtype=float)
        flat = s.reshape(-1)
        chunk = max(1, 2_000_000 // max(len(draws), 1))  # bounds the (chunk, draws) temporary
        blocks = [
            self.null.sf(flat[i : i + chunk, None] - draws[None, :]).mean(axis=1)
            for i in range(0, flat.size, chunk)
        ]
        return np.concatenate(blocks).reshape(s.shape) if blocks else np.empty(s.shape)


def _common(alpha: float, n_agents: int, K: int, noise_scale: float) -> tuple[float, int, int, float]:
    return (
        real(gt=0.0, lt=1.0)("alpha", alpha),
        integer(ge=1)("n_agents", n_agents),
        integer(ge=1)("K", K),
        real(gt=0.0)("noise_scale", noise_scale),
    )


def simple_test(
    theta_alt: float, information: float, *, alpha: float, n_agents: int, K: int, noise_scale: float
) -> PrivateTest:
    r"""Prop 4.6: ``θ = 0`` against ``θ = θ₁``, with ``X = 2Λ(θ₁, 0) ~ N(−θ₁² I, 4θ₁² I)`` under the null.

    ``2Λ(θ₁, 0) ≈ 2θ₁ U − θ₁² I`` with the score ``U ~ N(0, I)`` at ``θ = 0`` (a second-order expansion of
    the partial likelihood); under the alternative ``X ~ N(+θ₁² I, 4θ₁² I)``
    (:func:`simple_alternative`). ``information`` is the pooled Fisher information at 0.
    """
    theta_alt = real()("theta_alt", theta_alt)
    if theta_alt == 0.0:
        raise ParameterError("theta_alt must differ from the null value 0")
    information = real(gt=0.0)("information", information)
    a, n, k, b = _common(alpha, n_agents, K, noise_scale)
    sd = 2.0 * abs(theta_alt) * math.sqrt(information)
    null = stats.norm(loc=-(theta_alt**2) * information, scale=sd)
    return PrivateTest(null=null, alpha=a, n_agents=n, K=k, noise_scale=b, kind="simple")


def simple_alternative(theta_alt: float, information: float) -> Any:
    """Law of ``X = 2Λ(θ₁, 0)`` when ``θ₁`` is true: ``N(+θ₁² I, 4θ₁² I)`` (asymptotically)."""
    information = real(gt=0.0)("information", information)
    return stats.norm(loc=theta_alt**2 * information, scale=2.0 * abs(theta_alt) * math.sqrt(information))


def composite_test(*, alpha: float, n_agents: int, K: int, noise_scale: float) -> PrivateTest:
    """§4.2's composite GLRT: ``X = Σ_i`` local GLRT statistics ``≈ χ²_n`` under the null (Wilks);
    ``ϱ_d = F⁻¹_{χ²_n}(1 − α/2) − 1`` (11.8325 for ``n = 5``, ``α = 0.05``)."""
    a, n, k, b = _common(alpha, n_agents, K, noise_scale)
    return PrivateTest(null=stats.chi2(n), alpha=a, n_agents=n, K=k, noise_scale=b, kind="composite")


def make_private_test(
    kind: str,
    table: ArrayLike,
    *,
    a_star: float,
    delta: float,
    eps: float,
    alpha: float,
    theta_alt: float | None = None,
    information: float | None = None,
) -> tuple[PrivateTest, RunSchedule]:
    """The private test of ``kind`` (``"simple"`` or ``"composite"``) on a two-state table, with Prop 4.6's
    schedule (:func:`prop46_schedule`) at budget ``eps``.

    ``table`` is the test's starting table, one row per agent (the partial log-likelihoods at ``0`` and
    ``θ₁`` for the simple test, :func:`composite_table` for the composite one); ``delta`` the sensitivity
    of its entries. The simple test also needs the alternative ``theta_alt`` and the pooled Fisher
    information at 0 (:func:`simple_test`).
    """
    kind = choice("simple", "composite")("kind", kind)
    sched = prop46_schedule(table, a_star=a_star, delta=delta, eps=eps, alpha=alpha)
    common = {
        "alpha": alpha,
        "n_agents": int(np.shape(table)[0]),
        "K": sched.K,
        "noise_scale": sched.noise_scale,
    }
    if kind == "composite":
        return composite_test(**common), sched
    if theta_alt is None or information is None:
        raise ParameterError("the simple test needs theta_alt and information")
    return simple_test(theta_alt, information, **common), sched
