"""Laplace and randomized-response mechanisms, and an empirical ε-DP audit.

A mechanism ``M`` is ε-differentially private when, for every pair of neighbouring inputs
``x ~ y`` and every event ``S``, ``P[M(x) ∈ S] ≤ e^ε · P[M(y) ∈ S]``.

* The Laplace mechanism releases ``f(x) + Lap(b)`` with ``b = Δ/ε``, ``Δ`` the ℓ1 sensitivity of
  ``f``; it is ε-DP (:func:`laplace_scale`, :func:`laplace_mechanism`, :func:`laplace_privacy_loss`).
* Randomized response reports a bit flipped with probability ``p_ε = 1/(1+e^ε)``; the likelihood
  ratio of any report is at most ``(1−p_ε)/p_ε = e^ε`` (:func:`rr_flip_probability`,
  :func:`randomized_response`). :func:`check_budget` validates budgets ``ε ≥ 0``.
* :func:`audit_epsilon` turns samples of ``M(x)`` and ``M(y)`` into a high-confidence *lower*
  bound on the privacy loss, built on one-sided Clopper–Pearson bounds (:func:`clopper_pearson`).
  A mechanism whose audited ``ε_lower`` exceeds its claimed ε is, with the stated confidence, not
  ε-DP.

All randomness comes from an explicit :class:`numpy.random.Generator` argument ``rng``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from dpnet.errors import ParameterError
from dpnet.params import real

__all__ = [
    "AuditResult",
    "audit_epsilon",
    "check_budget",
    "clopper_pearson",
    "laplace_mechanism",
    "laplace_privacy_loss",
    "laplace_scale",
    "randomized_response",
    "rr_flip_probability",
]

Event = Callable[[NDArray[np.generic]], NDArray[np.bool_]]


_POSITIVE = real(gt=0.0)  # a finite, strictly positive scalar


def check_budget(epsilon: ArrayLike, name: str = "epsilon") -> NDArray[np.float64]:
    """Validate privacy budget(s) ε, finite and ``≥ 0`` (ε = 0: the release carries no information).

    Returns the budgets as a float array (0-d for a scalar); raises :class:`~dpnet.errors.ParameterError`
    naming ``name`` otherwise.
    """
    eps = np.asarray(epsilon, dtype=float)
    if not np.all(np.isfinite(eps) & (eps >= 0)):
        raise ParameterError(f"{name} must be finite and ≥ 0 (got {epsilon})")
    return eps


def _as_float_or_array(arr: NDArray[np.float64]) -> NDArray[np.float64] | float:
    """Return a plain ``float`` for 0-d results, the array otherwise."""
    return float(arr) if arr.ndim == 0 else arr


# --------------------------------------------------------------------------------------------------
# Laplace mechanism
# --------------------------------------------------------------------------------------------------


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    r"""Scale of the Laplace noise that makes a query with sensitivity Δ ε-DP.

    .. math:: b = \frac{\Delta}{\varepsilon}, \qquad \Delta > 0,\ \varepsilon > 0.

    Parameters
    ----------
    sensitivity
        ℓ1 sensitivity ``Δ = max_{x~y} |f(x) − f(y)|_1`` of the query, ``Δ > 0``.
    epsilon
        Privacy budget ``ε > 0``.

    Returns
    -------
    float
        The scale ``b``.
    """
    return _POSITIVE("sensitivity", sensitivity) / _POSITIVE("epsilon", epsilon)


def laplace_mechanism(
    value: ArrayLike, sensitivity: float, epsilon: float, rng: np.random.Generator
) -> NDArray[np.float64]:
    r"""Release ``value`` with independent Laplace noise on every element.

    .. math:: M(x) = f(x) + Z, \qquad Z_i \overset{iid}{\sim} \mathrm{Lap}(b),\ b = \Delta/\varepsilon,

    with density ``exp(−|z|/b)/(2b)``, mean 0 and variance ``2b²``. If ``Δ`` bounds the ℓ1 distance
    between the query on neighbouring inputs, the release is ε-DP.

    Parameters
    ----------
    value
        The exact query answer ``f(x)`` (scalar or array, finite).
    sensitivity, epsilon
        ``Δ > 0`` and ``ε > 0``, see :func:`laplace_scale`.
    rng
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Noisy answer, same shape as ``value`` (0-d for a scalar).
    """
    scale = laplace_scale(sensitivity, epsilon)
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ParameterError("value must be finite (got NaN or ±inf)")
    return arr + rng.laplace(loc=0.0, scale=scale, size=arr.shape)


def laplace_privacy_loss(sensitivity: float, scale: float) -> float:
    r"""Privacy loss ε actually achieved by Laplace noise of scale ``b`` on a query with sensitivity Δ.

    .. math:: \varepsilon = \frac{\Delta}{b},

    the inverse of :func:`laplace_scale`: the worst-case log density ratio
    ``sup_z |log p_{Lap(b)}(z) − log p_{Lap(b)}(z − Δ)| = Δ/b``.

    Parameters
    ----------
    sensitivity
        ``Δ > 0``.
    scale
        Laplace scale ``b > 0``.
    """
    return _POSITIVE("sensitivity", sensitivity) / _POSITIVE("scale", scale)


# --------------------------------------------------------------------------------------------------
# Randomized response
# --------------------------------------------------------------------------------------------------


def rr_flip_probability(epsilon: ArrayLike) -> NDArray[np.float64] | float:
    r"""Flip probability of ε-DP randomized response.

    .. math:: p_\varepsilon = \frac{1}{1 + e^{\varepsilon}} = \operatorname{expit}(-\varepsilon),
       \qquad \varepsilon \ge 0,

    computed with :func:`scipy.special.expit`, which neither overflows for large ε nor loses
    precision. ``ε = 0`` gives ``1/2`` (the report carries no information).

    Parameters
    ----------
    epsilon
        Privacy budget(s), finite and ``≥ 0``; scalar or array.

    Returns
    -------
    float or numpy.ndarray
        ``p_ε``, a float for scalar input and an array of the same shape otherwise.
    """
    return _as_float_or_array(np.asarray(special.expit(-check_budget(epsilon)), dtype=float))


def randomized_response(bits: ArrayLike, epsilon: float, rng: np.random.Generator) -> NDArray[np.int64]:
    r"""Privatise bits by randomized response: flip each independently with probability ``p_ε``.

    .. math::
       y_i = \begin{cases} 1 - b_i & \text{with probability } p_\varepsilon = 1/(1+e^\varepsilon) \\
       b_i & \text{otherwise,} \end{cases}

    so ``P[y = b] / P[y = 1 − b] = e^ε``: each report is ε-DP with respect to its bit.

    Parameters
    ----------
    bits
        Array of 0/1 values (bool or numeric); anything else raises :class:`~dpnet.errors.ParameterError`.
    epsilon
        Privacy budget ``ε ≥ 0`` (see :func:`rr_flip_probability`).
    rng
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Reported bits as ``int64`` 0/1, same shape as ``bits``.
    """
    arr = np.asarray(bits)
    if arr.dtype == object or not np.all((arr == 0) | (arr == 1)):
        raise ParameterError("bits must contain only 0 and 1 (or False/True)")
    if np.ndim(epsilon) != 0:
        raise ParameterError(f"epsilon must be a scalar ≥ 0 (got an array of shape {np.shape(epsilon)})")
    flip = rng.random(arr.shape) < rr_flip_probability(epsilon)
    return (arr.astype(bool) != flip).astype(np.int64)


# --------------------------------------------------------------------------------------------------
# Empirical audit
# --------------------------------------------------------------------------------------------------


def _check_confidence(confidence: float) -> float:
    return real(gt=0.0, lt=1.0)("confidence", confidence)


def clopper_pearson(
    k: ArrayLike, n: ArrayLike, confidence: float
) -> tuple[NDArray[np.float64] | float, NDArray[np.float64] | float]:
    r"""One-sided Clopper–Pearson bounds on a binomial proportion, each at level ``confidence``.

    With ``α = 1 − confidence`` and ``k`` successes in ``n`` trials,

    .. math::
       L = B^{-1}(\alpha;\ k,\ n - k + 1), \qquad U = B^{-1}(1 - \alpha;\ k + 1,\ n - k),

    ``B^{-1}(q; a, b)`` the Beta quantile, with ``L = 0`` for ``k = 0`` and ``U = 1`` for ``k = n``.
    Equivalently ``P[Bin(n, L) ≥ k] = α`` and ``P[Bin(n, U) ≤ k] = α``. For every ``p``,
    ``P_p[L > p] ≤ α`` and ``P_p[U < p] ≤ α`` separately (so ``[L, U]`` is a two-sided interval at
    level ``1 − 2α``).

    Parameters
    ----------
    k
        Success counts, integers in ``[0, n]`` (broadcast against ``n``).
    n
        Trial counts, integers ``≥ 1``.
    confidence
        One-sided confidence level in ``(0, 1)``.

    Returns
    -------
    (lower, upper)
        Floats for scalar input, arrays of the broadcast shape otherwise.
    """
    confidence = _check_confidence(confidence)
    k_arr, n_arr = np.broadcast_arrays(np.asarray(k, dtype=float), np.asarray(n, dtype=float))
    if not np.all(np.isfinite(n_arr) & (n_arr == np.round(n_arr)) & (n_arr >= 1)):
        raise ParameterError(f"n must be an integer ≥ 1 (got {n})")
    if not np.all(np.isfinite(k_arr) & (k_arr == np.round(k_arr)) & (k_arr >= 0) & (k_arr <= n_arr)):
        raise ParameterError(f"k must be an integer in [0, n] (got k={k}, n={n})")
    alpha = 1.0 - confidence
    # Clamp the Beta parameters away from 0 where the closed-form edge value applies instead.
    lower = np.where(k_arr == 0, 0.0, stats.beta.ppf(alpha, np.maximum(k_arr, 1), n_arr - k_arr + 1))
    upper = np.where(k_arr == n_arr, 1.0, stats.beta.ppf(confidence, k_arr + 1, np.maximum(n_arr - k_arr, 1)))
    return _as_float_or_array(np.asarray(lower, float)), _as_float_or_array(np.asarray(upper, float))


@dataclass(frozen=True)
class AuditResult:
    """Outcome of :func:`audit_epsilon`.

    Attributes
    ----------
    epsilon_lower
        High-confidence lower bound on the privacy loss (``≥ 0``).
    event
        Description of the event and direction attaining the bound.
    confidence
        Overall (simultaneous) confidence level of the bound.
    n_events
        Number of events ``m`` tested (the Bonferroni correction uses ``4m`` one-sided bounds).
    delta
        The δ of the (ε, δ) guarantee the bound is against (``0`` for pure ε-DP).
    """

    epsilon_lower: float
    event: str
    confidence: float
    n_events: int
    delta: float = 0.0


def _check_samples(name: str, samples: ArrayLike) -> NDArray[np.generic]:
    arr = np.asarray(samples)
    if arr.ndim == 0 or arr.shape[0] == 0:
        raise ParameterError(f"{name} must be a non-empty array of mechanism outputs (got shape {arr.shape})")
    if np.issubdtype(arr.dtype, np.number) and not np.all(np.isfinite(arr)):
        raise ParameterError(f"{name} must be finite (got NaN or ±inf)")
    return arr


def _counts_from_values(
    values: NDArray[np.generic], sx: NDArray[np.generic], sy: NDArray[np.generic]
) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64]]:
    """Event counts for an array of thresholds (real outputs) or of values (discrete outputs)."""
    if sx.ndim != 1 or sy.ndim != 1:
        raise ParameterError("samples_x and samples_y must be 1-D when events is an array of thresholds")
    if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)):
        raise ParameterError("events (thresholds or values) must be a non-empty 1-D array of finite numbers")
    discrete = not np.issubdtype(np.result_type(sx, sy), np.floating)
    counts = []
    for s in (np.sort(sx), np.sort(sy)):
        left, right = np.searchsorted(s, values, "left"), np.searchsorted(s, values, "right")
        # real outputs: {out > t} then {out < t}; discrete outputs: {out == v}
        counts.append(right - left if discrete else np.concatenate([s.size - right, left]))
    if discrete:
        names = [f"{{out == {v:g}}}" for v in values]
    else:
        names = [f"{{out > {t:g}}}" for t in values] + [f"{{out < {t:g}}}" for t in values]
    return names, counts[0], counts[1]


def _counts_from_callables(
    events: Sequence[Event], sx: NDArray[np.generic], sy: NDArray[np.generic]
) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64]]:
    """Event counts for a sequence of indicator functions ``out ↦ bool array``."""
    if len(events) == 0:
        raise ParameterError("events must contain at least one event")
    counts: list[list[int]] = [[], []]
    for i, event in enumerate(events):
        for j, s in enumerate((sx, sy)):
            mask = np.asarray(event(s))
            if mask.dtype != np.bool_ or mask.shape != (s.shape[0],):
                raise ParameterError(
                    f"events[{i}] must return a boolean array of shape ({s.shape[0]},) "
                    f"(got dtype {mask.dtype}, shape {mask.shape})"
                )
            counts[j].append(int(mask.sum()))
    names = [f"events[{i}] ({getattr(e, '__name__', repr(e))})" for i, e in enumerate(events)]
    return names, np.asarray(counts[0]), np.asarray(counts[1])


def audit_epsilon(
    samples_x: ArrayLike,
    samples_y: ArrayLike,
    events: Sequence[Event] | ArrayLike,
    confidence: float = 0.95,
    *,
    delta: float = 0.0,
) -> AuditResult:
    r"""High-confidence lower bound on the privacy loss of a mechanism from output samples.

    ``samples_x`` and ``samples_y`` are independent draws of ``M(x)`` and ``M(y)`` for neighbouring
    ``x ~ y`` (``n_x`` and ``n_y`` of them). For each event ``S`` the counts ``k_x = #{M(x) ∈ S}``
    and ``k_y`` give one-sided Clopper–Pearson bounds (:func:`clopper_pearson`) ``L_x ≤ P[M(x) ∈ S]``,
    ``U_y ≥ P[M(y) ∈ S]`` and symmetrically ``L_y``, ``U_x``, each at level ``1 − α/(4m)``,
    ``α = 1 − confidence``, ``m`` the number of events (Bonferroni over the ``4m`` bounds, i.e. all
    events and both directions). Then

    .. math::
       \varepsilon_{\mathrm{lower}} = \max\Bigl(0,\ \max_{S}\ \max\bigl(\log\tfrac{L_x(S)}{U_y(S)},\
       \log\tfrac{L_y(S)}{U_x(S)}\bigr)\Bigr),

    ignoring terms with a zero lower bound.

    **Guarantee.** If ``M`` is ε-DP then every ratio ``P[M(x) ∈ S]/P[M(y) ∈ S]`` is at most ``e^ε``;
    the bound can exceed ε only if one of the ``4m`` one-sided bounds fails, so

    .. math:: P[\varepsilon_{\mathrm{lower}} > \varepsilon] \le 1 - \text{confidence}.

    **Against (ε, δ)-DP** (``delta > 0``). Then ``P[M(x) ∈ S] ≤ e^ε P[M(y) ∈ S] + δ`` for every
    event, so when the bounds hold ``ε ≥ log((L_x(S) − δ)/U_y(S))``: the bound is

    .. math::
       \varepsilon_{\mathrm{lower}}(\delta) = \max\Bigl(0,\ \max_{S}\ \max\bigl(
       \log\tfrac{L_x(S) - \delta}{U_y(S)},\ \log\tfrac{L_y(S) - \delta}{U_x(S)}\bigr)\Bigr),

    ignoring the terms with ``L ≤ δ``: the largest ε whose (ε, δ) guarantee is refuted at the stated
    confidence, by the same union bound. ``delta = 0`` is the pure bound above.

    The events must be fixed before the samples are seen (not chosen from them), or the guarantee
    is lost.

    Parameters
    ----------
    samples_x, samples_y
        Mechanism outputs on the two neighbouring inputs; first axis indexes the draws.
    events
        Either a sequence of callables mapping an array of outputs to a boolean array (one entry per
        draw), or a 1-D array. For a 1-D array and *real-valued* (floating) outputs each threshold
        ``t`` gives the two events ``{out > t}`` and ``{out < t}``; for *discrete* (integer or bool)
        outputs each value ``v`` gives the event ``{out == v}``.
    confidence
        Simultaneous confidence level in ``(0, 1)``.
    delta
        The δ of the guarantee audited, in ``[0, 1)`` (``0``: pure ε-DP).

    Returns
    -------
    AuditResult
        ``ε_lower``, the maximising event and direction, the confidence, the number of events and δ.
    """
    confidence = _check_confidence(confidence)
    delta = float(delta)
    if not 0.0 <= delta < 1.0:
        raise ParameterError(f"delta must be in [0, 1) (got {delta!r})")
    sx, sy = _check_samples("samples_x", samples_x), _check_samples("samples_y", samples_y)
    is_callable = [callable(e) for e in events] if isinstance(events, Sequence) else [False]
    if any(is_callable) and not all(is_callable):
        raise ParameterError("events must be either all callables or an array of thresholds/values")
    if all(is_callable) and len(is_callable) > 0:
        names, k_x, k_y = _counts_from_callables(events, sx, sy)  # type: ignore[arg-type]
    else:
        names, k_x, k_y = _counts_from_values(np.asarray(events, dtype=float), sx, sy)
    m = len(names)
    level = 1.0 - (1.0 - confidence) / (4 * m)
    lower_x, upper_x = (np.asarray(b) for b in clopper_pearson(k_x, sx.shape[0], level))
    lower_y, upper_y = (np.asarray(b) for b in clopper_pearson(k_y, sy.shape[0], level))
    with np.errstate(divide="ignore", invalid="ignore"):
        # −inf drops the events whose lower bound is at most δ (upper bounds are always > 0)
        excess_x = np.where(lower_x > delta, np.log(np.maximum(lower_x - delta, 0.0)), -np.inf)
        excess_y = np.where(lower_y > delta, np.log(np.maximum(lower_y - delta, 0.0)), -np.inf)
        loss = np.stack([excess_x - np.log(upper_y), excess_y - np.log(upper_x)])
    direction, idx = np.unravel_index(int(np.argmax(loss)), loss.shape)
    best = float(loss[direction, idx])
    if best <= 0.0:
        return AuditResult(0.0, "none (no event certifies a positive privacy loss)", confidence, m, delta)
    label = ("x vs y", "y vs x")[direction]
    return AuditResult(best, f"{names[idx]}, {label}", confidence, m, delta)
