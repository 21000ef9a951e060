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

The simple test's normal laws expand the partial likelihood around 0 and carry the expansion to ``θ₁``;
:func:`risk_set_law` is a second opinion that needs no expansion: the law of ``X`` with each centre's
observed risk sets held fixed and each event's covariate drawn under ``θ``.

As ``T → ∞``, ``S_i → X + N`` with the privacy noise ``N = 2 · mean_k Σ_i [d_{i,k}(alt) − d_{i,k}(null)]``,
whose law is public (it depends only on the mechanism). The paper's proof bounds ``|S_i − X|`` by
``n/2^{T−1}``, i.e. it treats ``N`` as absent (note ``note-ht-test-noise``);
:meth:`PrivateTest.rejection_probability` measures what the threshold rule really does over draws of
``N``, :meth:`PrivateTest.exact_rejection_probability` computes it without Monte Carlo error (the law of
``N`` is that of a sum of ``2nK`` Laplace variables, :func:`laplace_sum_pdf`, :func:`sum_sf`), and
:meth:`PrivateTest.pvalue` gives a p-value that accounts for ``N``, beside the notebook's
``1 − F_X(S + 1)`` and the p-value ``2(1 − F_X(S + 1))`` that matches the rule ``S > ϱ_d``
(:meth:`PrivateTest.pvalue_rule`).

§5 states the composite alternative one-sided (``θ < 0``); :class:`ChiBarSquared` is the null law of the
sum of one-sided local statistics, the ``χ̄²`` mixture, for :func:`composite_test` ``(one_sided=True)``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import integrate, special, stats
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
from dpnet.survival.binary import BinaryCox
from dpnet.survival.cox import CoxFit
from dpnet.survival.studies import RunSchedule

__all__ = [
    "ChiBarSquared",
    "PrivateTest",
    "composite_table",
    "composite_test",
    "laplace_sum_pdf",
    "make_private_test",
    "median_interval",
    "observed_statistic",
    "prop46_schedule",
    "risk_set_law",
    "simple_alternative",
    "simple_test",
    "sum_sf",
]


@dataclass(frozen=True)
class ChiBarSquared:
    r"""The ``χ̄²`` law of ``Σ_i max(0, Z_i)²`` for ``n`` independent standard normals: the null law of a sum
    of ``n`` one-sided local likelihood-ratio statistics (each ``½χ²₀ + ½χ²₁``),

    .. math:: \bar\chi^2_n = \sum_{k=0}^{n} \binom{n}{k} 2^{-n}\, \chi^2_k \qquad (\chi^2_0 = 0).

    It has the ``sf``, ``isf`` and ``mean`` of a frozen :mod:`scipy.stats` law.
    """

    n: int

    @functools.cached_property
    def _weights(self) -> NDArray[np.float64]:
        k = np.arange(self.n + 1)
        return stats.binom.pmf(k, self.n, 0.5)

    def sf(self, x: ArrayLike) -> NDArray[np.float64] | float:
        """``P[X > x]`` (the ``χ²_k`` tails by :func:`scipy.special.chdtrc`, as :mod:`scipy.stats` computes
        them, without building a frozen law per call: a quadrature calls this thousands of times)."""
        xs = np.asarray(x, dtype=float)
        k = np.arange(1, self.n + 1).reshape((-1,) + (1,) * xs.ndim)
        tails = np.concatenate([np.where(xs < 0, 1.0, 0.0)[None], special.chdtrc(k, np.maximum(xs, 0.0))])
        out = np.where(xs < 0, 1.0, np.tensordot(self._weights, tails, axes=1))
        return float(out) if out.ndim == 0 else out

    def isf(self, q: float) -> float:
        """The ``x`` with ``P[X > x] = q``, for ``0 < q < 1 − 2⁻ⁿ`` (``P[X > 0] = 1 − 2⁻ⁿ``)."""
        q = real(gt=0.0, lt=1.0)("q", q)
        if q >= 1.0 - 0.5**self.n:
            return 0.0
        hi = float(stats.chi2(self.n).isf(q)) + 1.0
        return float(brentq(lambda x: float(self.sf(x)) - q, 1e-12, hi))

    def mean(self) -> float:
        return self.n / 2.0


def laplace_sum_pdf(x: ArrayLike, *, scale: float, n_terms: int) -> NDArray[np.float64]:
    r"""Density of a sum of ``m = n_terms`` independent ``Lap(β = scale)`` variables (a symmetric
    variance-gamma law), in closed form: with ``z = |x|/β``,

    .. math:: f(x) = \frac{e^{-z}}{\beta\,(m-1)!\,2^m} \sum_{k=0}^{m-1}
        \frac{(m-1+k)!}{k!\,(m-1-k)!}\, 2^{-k} z^{m-1-k},

    the Bessel function ``K_{m−½}`` of the general formula being a polynomial times ``e^{−z}`` at a
    half-integer order. Evaluated in log space, so that large ``m`` neither overflows nor loses digits.
    """
    beta = real(gt=0.0)("scale", scale)
    m = integer(ge=1)("n_terms", n_terms)
    z = np.abs(np.asarray(x, dtype=float)) / beta
    log_coef, power = _log_terms(beta, m)
    with np.errstate(divide="ignore", invalid="ignore"):  # log 0 = −∞, and 0·(−∞) where the power is 0
        log_z = np.log(z)[..., None]
        terms = np.where(power == 0, 0.0, power * log_z) + log_coef
    return np.exp(special.logsumexp(terms, axis=-1) - z)


def _log_terms(beta: float, m: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The log-coefficients and powers of :func:`laplace_sum_pdf`'s sum, ``k = 0, …, m − 1``."""
    k = np.arange(m)
    log_coef = (special.gammaln(m + k) - special.gammaln(k + 1) - special.gammaln(m - k) - k * math.log(2.0)
                - math.log(beta) - special.gammaln(m) - m * math.log(2.0))  # fmt: skip
    return log_coef, (m - 1 - k).astype(float)


def _tail(law: Any) -> Callable[[float], float]:
    """``x ↦ P[X > x]`` at one point: a frozen :mod:`scipy.stats` normal law by :func:`scipy.special.ndtr`
    (what its ``sf`` computes, without the argument checks that dominate a call), any other by its ``sf``."""
    if getattr(law, "dist", None) is stats.norm:
        loc, scale = law.mean(), law.std()
        return lambda x: float(special.ndtr((loc - x) / scale))
    return lambda x: float(law.sf(x))


def _scalar_pdf(beta: float, m: int) -> Callable[[float], float]:
    """:func:`laplace_sum_pdf` at one point, its coefficients computed once (a quadrature's integrand)."""
    log_coef, power = _log_terms(beta, m)
    positive = power > 0

    def pdf(u: float) -> float:
        z = abs(u) / beta
        if z == 0.0:  # only the term of power 0 (k = m − 1) is left
            return math.exp(float(log_coef[-1]))
        terms = np.where(positive, power * math.log(z), 0.0) + log_coef
        top = float(terms.max())
        return math.exp(top + math.log(float(np.exp(terms - top).sum())) - z)

    return pdf


def sum_sf(threshold: float, *, law: Any = None, laplace_scale: float, n_laplace: int) -> float:
    r"""``P[X + N > threshold]`` without Monte Carlo error, for ``X ~ law`` (any law with an ``sf``: a
    frozen :mod:`scipy.stats` law or :class:`ChiBarSquared`; ``None``: ``X = 0``) independent of ``N``, a
    sum of ``n_laplace`` independent ``Lap(laplace_scale)`` variables:

    .. math:: P[X + N > c] = \int f_N(u)\, P[X > c - u]\, du,

    with the closed-form density :func:`laplace_sum_pdf`, integrated by adaptive quadrature over the
    range that holds all but 10⁻¹⁵ of ``N``'s mass, split at 0 and at ``c`` (where ``P[X > c − u]`` may
    jump). Within 10⁻⁹ of two million draws' estimate in the tests.
    """
    c = real()("threshold", threshold)
    beta = real(ge=0.0)("laplace_scale", laplace_scale)
    m = integer(ge=0)("n_laplace", n_laplace)
    tail = (lambda x: float(x < 0)) if law is None else _tail(law)
    if beta == 0.0 or m == 0:  # no noise
        return tail(c)
    reach = beta * (m + 10.0 * math.sqrt(m) + 40.0)  # |N| > reach has probability below 1e−15
    pdf = _scalar_pdf(beta, m)

    def integrand(u: float) -> float:
        return pdf(u) * tail(c - u)

    if law is None:
        if c >= reach:
            return 0.0
        lo = max(c, -reach)
        return float(min(1.0, integrate.quad(integrand, lo, reach, points=[0.0] if lo < 0 else None,
                                             limit=1000, epsabs=1e-13)[0]))  # fmt: skip
    points = [p for p in (0.0, c) if -reach < p < reach]
    value = integrate.quad(integrand, -reach, reach, points=points, limit=1000, epsabs=1e-13)[0]
    return float(min(1.0, max(0.0, value)))


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


def composite_table(fits: list[CoxFit], *, one_sided: bool = False) -> NDArray[np.float64]:
    """The composite test's two-state table, one row per centre: ``(sup over Θ̃₀, sup over Θ̃)`` of the
    log-likelihood, i.e. ``(Λ_i(0), Λ_i(0) + LRT_i/2)`` from each centre's (penalised) fit.

    ``one_sided=True``: the alternative ``θ < 0`` of §5, over which the supremum is ``Λ_i(0)`` when the
    centre's estimate is positive (the likelihood is concave), so its local statistic is 0 there."""
    return np.array([[f.loglik_null, f.loglik_null + (f.lrt / 2 if f.theta < 0 or not one_sided else 0.0)]
                     for f in fits])  # fmt: skip


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
        """How the private runs' statistics ``S`` came out (Monte Carlo over the runs): the rule's rejection
        rate, the median of the rule's p-value (:meth:`pvalue_rule`) with a 95 % interval
        (:func:`median_interval`), how often that p-value is below ``claim_p``, and the median
        noise-aware p-value (:meth:`pvalue`)."""
        s = np.asarray(statistic, dtype=float)
        rule = self.pvalue_rule(s)
        low, high = median_interval(rule)
        return {
            "rejects (paper rule)": float(np.mean(s > self.threshold)),
            "median p (rule), runs": float(np.median(rule)),
            "median p (rule), runs, 95 % low": low,
            "median p (rule), runs, 95 % high": high,
            "P[p (rule) below claim], runs": float(np.mean(rule < claim_p)),
            "median p (with noise), runs": float(np.median(self.pvalue(s, noise))),
        }

    def limit_summary(self, observed: float, *, claim_p: float) -> dict[str, float]:
        """What the runs' :meth:`summary` estimates, exactly, in the limit ``S = X + N`` with ``X`` the
        observed non-private statistic: ``N`` is symmetric and every p-value is non-increasing in ``S``, so
        the median p-values are the p-values of ``X`` itself, and ``P[p < claim_p]`` is a tail of ``N``."""
        x = real()("observed", observed)
        return {
            "p (notebook) without noise": float(self.pvalue_paper(x)),
            "p (rule) without noise": float(self.pvalue_rule(x)),
            "P[p (rule) below claim]": self.noise_sf(float(self.null.isf(claim_p / 2.0)) - 1.0 - x),
            "p (with noise) of X": self.exact_pvalue(x),
        }

    def pvalue_paper(self, statistic: ArrayLike) -> NDArray[np.float64]:
        """The notebook's p-value ``1 − F_X(S + 1)``: the noise is ignored."""
        return self.null.sf(np.asarray(statistic, dtype=float) + 1.0)

    def pvalue_rule(self, statistic: ArrayLike) -> NDArray[np.float64]:
        """The p-value that matches the paper's rule: ``min(1, 2(1 − F_X(S + 1)))``, below α exactly when
        ``S > ϱ_d = F⁻¹_X(1 − α/2) − 1``. The noise is ignored."""
        return np.minimum(1.0, 2.0 * self.pvalue_paper(statistic))

    @property
    def noise_terms(self) -> tuple[float, int]:
        """``N = 2 · mean_k Σ_i [d_{i,k}(alt) − d_{i,k}(null)]`` is a sum of ``2nK`` independent
        ``Lap(2b/K)`` variables: their scale and number."""
        return 2.0 * self.noise_scale / self.K, 2 * self.n_agents * self.K

    def noise_sf(self, x: float) -> float:
        """``P[N > x]``, exactly (:func:`sum_sf`)."""
        scale, m = self.noise_terms
        return sum_sf(x, laplace_scale=scale, n_laplace=m)

    def exact_rejection_probability(self, law: Any, threshold: float | None = None) -> float:
        """``P[X + N > threshold]`` for ``X ~ law`` (normal, ``χ²`` or :class:`ChiBarSquared`), exactly
        (:func:`sum_sf`); ``threshold`` defaults to the paper's ``ϱ_d``."""
        scale, m = self.noise_terms
        thr = self.threshold if threshold is None else float(threshold)
        return sum_sf(thr, law=law, laplace_scale=scale, n_laplace=m)

    def exact_pvalue(self, statistic: float) -> float:
        """The noise-aware p-value of ``S`` (:meth:`pvalue`), exactly: ``P[X + N > S]`` under the null."""
        return self.exact_rejection_probability(self.null, statistic)

    def exact_calibrated_threshold(self) -> float:
        """The threshold ``t`` with ``P[X + N > t] = α`` under the null, exactly."""
        scale, m = self.noise_terms
        spread = scale * math.sqrt(2.0 * m) + 1.0
        lo = hi = float(self.null.isf(self.alpha))
        while self.exact_rejection_probability(self.null, lo) <= self.alpha:
            lo -= spread
        while self.exact_rejection_probability(self.null, hi) >= self.alpha:
            hi += spread
        return float(brentq(lambda t: self.exact_rejection_probability(self.null, t) - self.alpha, lo, hi,
                            xtol=1e-9))  # fmt: skip

    def exact_operating_characteristics(self, alternative: Any = None) -> dict[str, float]:
        """:meth:`operating_characteristics` without Monte Carlo error: the size of the paper's rule, the
        calibrated threshold and (given an alternative law of ``X``) the power of both rules."""
        calibrated = self.exact_calibrated_threshold()
        out = {"size": self.exact_rejection_probability(self.null), "calibrated threshold": calibrated}
        if alternative is not None:
            out["power"] = self.exact_rejection_probability(alternative)
            out["power, calibrated"] = self.exact_rejection_probability(alternative, calibrated)
        return out

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


def median_interval(values: ArrayLike, confidence: float = 0.95) -> tuple[float, float]:
    """A distribution-free ``confidence`` interval for the median of the law ``values`` were drawn from:
    the order statistics of ranks ``R/2 ∓ z·√R/2`` (the binomial law of the number of draws below the
    median, normal approximation). ``(nan, nan)`` for fewer than 10 values."""
    v = np.sort(np.asarray(values, dtype=float).ravel())
    if len(v) < 10:
        return math.nan, math.nan
    z = float(stats.norm.isf((1.0 - real(gt=0.0, lt=1.0)("confidence", confidence)) / 2.0))
    half = z * math.sqrt(len(v)) / 2.0
    low = max(math.floor(len(v) / 2.0 - half), 0)
    high = min(math.ceil(len(v) / 2.0 + half), len(v) - 1)
    return float(v[low]), float(v[high])


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


def risk_set_law(models: list[BinaryCox], theta_alt: float, theta: float) -> Any:
    r"""Law of the simple test's ``X = 2 Σ_i [Λ_i(θ₁) − Λ_i(0)]`` when the true log hazard ratio is ``θ``,
    with each centre's risk sets held at their observed counts (normal approximation).

    For a binary covariate ``X = 2θ₁ D − 2 Σ_m w_m log((n₀ₘ + n₁ₘ e^{θ₁}) / (n₀ₘ + n₁ₘ))`` with ``D`` the
    treated events (the paper's likelihood, :class:`~dpnet.survival.binary.BinaryCox`). Given the risk
    set, an event's patient is treated with probability ``π_m(θ) = n₁ₘe^θ / (n₀ₘ + n₁ₘe^θ)``, the
    conditional law behind the partial likelihood; the ``w_m`` events of a tied time are taken as
    independent draws. ``D`` then has mean ``Σ w_m π_m`` and variance ``Σ w_m π_m(1 − π_m)``, and ``X`` is
    normal with the matching moments. Unlike :func:`simple_test` and :func:`simple_alternative`, no
    expansion around ``θ = 0`` is made; what is held fixed is the risk sets, which under ``θ`` would
    themselves move.
    """
    theta_alt, theta = real()("theta_alt", theta_alt), real()("theta", theta)
    mean = var = 0.0
    for m in models:
        if m.offset != 0.0:
            raise ParameterError("risk_set_law needs the paper's likelihood (BinaryCox with offset 0)")
        n0, n1, w = m.at_risk_0, m.at_risk_1, m.weight
        pi = n1 * math.exp(theta) / (n0 + n1 * math.exp(theta))
        shift = np.log((n0 + n1 * math.exp(theta_alt)) / (n0 + n1))
        mean += float(2.0 * theta_alt * np.sum(w * pi) - 2.0 * np.sum(w * shift))
        var += float(4.0 * theta_alt**2 * np.sum(w * pi * (1.0 - pi)))
    if not var > 0:
        raise ParameterError("the law is degenerate: no event has both arms at risk")
    return stats.norm(loc=mean, scale=math.sqrt(var))


def composite_test(
    *, alpha: float, n_agents: int, K: int, noise_scale: float, one_sided: bool = False
) -> PrivateTest:
    """§4.2's composite GLRT: ``X = Σ_i`` local GLRT statistics ``≈ χ²_n`` under the null (Wilks);
    ``ϱ_d = F⁻¹_{χ²_n}(1 − α/2) − 1`` (11.8325 for ``n = 5``, ``α = 0.05``).

    ``one_sided=True``: the alternative ``θ < 0`` of §5, whose local statistics are 0 when a centre's
    estimate is positive, so that ``X`` follows the ``χ̄²`` mixture (:class:`ChiBarSquared`) under the null.
    """
    a, n, k, b = _common(alpha, n_agents, K, noise_scale)
    null = ChiBarSquared(n) if one_sided else stats.chi2(n)
    return PrivateTest(null=null, alpha=a, n_agents=n, K=k, noise_scale=b, kind="composite")


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
