"""The one-covariate Cox proportional-hazards model of paper 003 (§2.1, §12).

- :func:`cox_partial_loglik`: the partial log-likelihood on a grid of log hazard ratios θ, as written
  in the paper (eq. 3, Breslow risk sets) or as coded in the authors' notebook
  (``variant="as_published"``, which sums the log risk term over every patient);
- :func:`cox_score_information`: its derivative and curvature (Breslow);
- :func:`fit_cox`: the (ridge-penalised) maximiser and the likelihood-ratio statistic, the
  per-centre fits of the composite test;
- :func:`cox_sensitivity`: §12's sensitivity ``Δ = 2 B_θ B_x``.

Centralised fits with confidence intervals use lifelines (:mod:`dpnet.survival.fits`); this module
exists for what lifelines does not offer: the paper's exact likelihood on a θ grid, its legacy
variant, and fast fits inside Monte Carlo loops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import choice, real

__all__ = [
    "LEGACY_LOG_OFFSET",
    "CoxFit",
    "LegacyTies",
    "cox_partial_loglik",
    "cox_score_information",
    "cox_sensitivity",
    "fit_cox",
    "legacy_order",
    "loglik_gap",
]

#: The constant the legacy notebook adds inside the log of each risk-set sum.
LEGACY_LOG_OFFSET = 1e-10


def _vector(name: str, value: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 1:
        raise ParameterError(f"{name} must be a 1-D array (got shape {arr.shape})")
    if not np.all(np.isfinite(arr)):
        raise ParameterError(f"{name} must hold finite real numbers")
    return arr


def check_cohort(x: ArrayLike, time: ArrayLike, event: ArrayLike) -> tuple[NDArray[np.float64], ...]:
    """Validated float arrays ``(x, time, event)``: 1-D, one length, finite, ``event`` in {0, 1}."""
    xs, ts, ev = _vector("x", x), _vector("time", time), _vector("event", event)
    if not (len(xs) == len(ts) == len(ev)):
        raise ParameterError(
            f"x, time and event must have the same length (got {len(xs)}, {len(ts)}, {len(ev)})"
        )
    if not np.all((ev == 0) | (ev == 1)):
        raise ParameterError("event must hold only 0 (censored) and 1 (event observed)")
    return xs, ts, ev


def cox_partial_loglik(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    theta: ArrayLike,
    *,
    variant: Literal["paper", "as_published"] = "paper",
    ties: LegacyTies = "row",
) -> NDArray[np.float64] | float:
    r"""Cox partial log-likelihood of a single covariate, for each of several log hazard ratios θ.

    ``variant="paper"`` is eq. (3) of the paper with Breslow risk sets (all patients still at risk,
    ties included):

    .. math::

        \log \ell(S \mid \theta) = \sum_{j:\, \delta_j = 1}
            \Bigl[ x_j \theta - \log \sum_{j':\, t_{j'} \ge t_j} e^{x_{j'} \theta} \Bigr].

    ``variant="as_published"`` reproduces the authors' notebook (note ``note-ht-cox-likelihood``):
    patients are sorted by increasing time (:func:`legacy_order`), and with that order

    .. math::

        \log \ell^{\mathrm{legacy}}(S \mid \theta) = \sum_j \delta_j x_j \theta
            - \sum_{\text{all } j} \log \Bigl( \sum_{r \ge j} e^{x_r \theta} + 10^{-10} \Bigr),

    i.e. the log risk term runs over every patient (censored ones included) and ties are broken by
    position rather than grouped. The legacy value therefore depends on how tied times are ordered.
    The notebook used pandas' default sort, NumPy's unstable quicksort, whose order of ties depends on
    the SIMD kernel the CPU selects: on ACTG 175 ZDV vs ddI, Λ(−log 2) − Λ(0) is 273.17 on the machine
    of the reference run, 272.90 with NumPy's scalar sort and 272.66 with its AVX-512 kernel. The book
    therefore fixes the order (``ties``): ``"row"`` keeps tied patients in row order (a stable sort,
    272.98), and ``"x_desc"`` / ``"x_asc"`` put larger / smaller covariates first, the two extremes of
    the legacy value over tie orders for a binary covariate (271.27 and 274.04).

    The risk-set sums are computed once per θ by a cumulative log-sum-exp over the patients sorted by
    decreasing time, so the cost is ``O(N log N + N·|θ|)`` and large ``|x θ|`` do not overflow.

    Parameters
    ----------
    x : array_like, shape (N,)
        Covariate of each patient (e.g. 1 = treatment, 0 = control).
    time : array_like, shape (N,)
        Event or censoring time of each patient.
    event : array_like, shape (N,)
        1 if the event was observed, 0 if censored.
    theta : float or array_like, shape (K,)
        Log hazard ratio(s) at which to evaluate.
    variant : {"paper", "as_published"}
        The correct likelihood (default) or the notebook's.
    ties : {"row", "x_desc", "x_asc"}
        Order of tied times in the as-published variant (:func:`legacy_order`); ignored by the paper's.

    Returns
    -------
    numpy.ndarray of shape (K,), or float for a scalar ``theta``
        The partial log-likelihood at each θ. With no patients it is 0.

    Raises
    ------
    dpnet.errors.ParameterError
        If the arrays are not 1-D of one length with finite values, ``event`` is not 0/1, ``theta`` is
        not a finite scalar or 1-D array, or ``variant`` is unknown.
    """
    variant = choice("paper", "as_published")("variant", variant)
    xs, ts, ev = check_cohort(x, time, event)
    th = np.asarray(theta, dtype=float)
    scalar = th.ndim == 0
    if th.ndim > 1:
        raise ParameterError(f"theta must be a scalar or a 1-D array (got shape {th.shape})")
    th = np.atleast_1d(th)
    if not np.all(np.isfinite(th)):
        raise ParameterError("theta must hold finite real numbers")
    if len(xs) == 0:
        out = np.zeros(th.shape)
        return float(out[0]) if scalar else out

    linear = (ev * xs).sum() * th  # Σ_j δ_j x_j θ, shape (K,)
    if variant == "paper":
        order = np.argsort(-ts, kind="stable")  # decreasing time
        t_desc = ts[order]
        eta = np.outer(xs[order], th)  # (N, K)
        log_cum = np.logaddexp.accumulate(eta, axis=0)  # log Σ_{r ≤ i in decreasing order} e^{x_r θ}
        # A tied event's risk set includes every patient with t ≥ t_j: take the cumulative sum at the
        # last position (in decreasing order) holding the same time.
        last = np.searchsorted(-t_desc, -t_desc, side="right") - 1
        events = ev[order] == 1
        log_risk = log_cum[last[events]]  # (n_events, K)
        out = linear - log_risk.sum(axis=0)
    else:
        order = legacy_order(ts, xs, ties)
        eta = np.outer(xs[order], th)[::-1]  # reversed: latest first
        log_tail = np.logaddexp.accumulate(eta, axis=0)  # log Σ_{r ≥ j in increasing order}
        log_risk = np.logaddexp(log_tail, np.log(LEGACY_LOG_OFFSET))  # log(Σ + 1e-10)
        out = linear - log_risk.sum(axis=0)
    return float(out[0]) if scalar else out


def loglik_gap(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    theta_alt: float,
    *,
    variant: Literal["paper", "as_published"] = "paper",
    ties: LegacyTies = "row",
) -> float:
    """``Λ(θ₁) − Λ(0)``: by how much the partial log-likelihood (:func:`cox_partial_loglik`, same
    arguments) prefers the log hazard ratio ``theta_alt`` to 0, the signal of a two-state problem."""
    values = cox_partial_loglik(x, time, event, np.array([0.0, theta_alt]), variant=variant, ties=ties)
    return float(np.diff(values)[0])


LegacyTies = Literal["row", "x_desc", "x_asc"]


def legacy_order(time: ArrayLike, x: ArrayLike, ties: LegacyTies = "row") -> NDArray[np.int64]:
    """The patients in increasing time, tied times ordered by ``ties``: ``"row"`` (row order, a stable
    sort), ``"x_desc"`` (larger covariate first) or ``"x_asc"`` (smaller first).

    The authors' notebook left the order of ties to an unstable sort, which differs between CPUs
    (:func:`cox_partial_loglik`); a fixed rule makes the as-published likelihood the same everywhere.
    """
    ties = choice("row", "x_desc", "x_asc")("ties", ties)
    ts, xs = np.asarray(time, dtype=float), np.asarray(x, dtype=float)
    if ties == "row":
        return np.argsort(ts, kind="stable")
    return np.lexsort((-xs if ties == "x_desc" else xs, ts))


def cox_score_information(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, theta: float
) -> tuple[float, float]:
    r"""Score ``U(θ) = dΛ/dθ`` and observed information ``I(θ) = −d²Λ/dθ²`` of eq. (3) (Breslow).

    .. math::

        U(\theta) = \sum_{j:\,\delta_j=1} \Bigl[x_j - \frac{S_1(t_j)}{S_0(t_j)}\Bigr], \qquad
        I(\theta) = \sum_{j:\,\delta_j=1} \Bigl[\frac{S_2(t_j)}{S_0(t_j)}
            - \Bigl(\frac{S_1(t_j)}{S_0(t_j)}\Bigr)^2\Bigr],

    with ``S_m(t) = Σ_{t_r ≥ t} x_r^m e^{x_r θ}``. Weights are shifted by ``max x θ``, so the ratios are
    exact as long as every risk set keeps one weight above float64's underflow (``|x θ|`` spreads below
    about 700).

    Raises
    ------
    dpnet.errors.ParameterError
        On arrays of different lengths, non-finite values or a non-binary ``event``.
    """
    xs, ts, ev = check_cohort(x, time, event)
    theta = real()("theta", theta)
    if len(xs) == 0 or not ev.any():
        return 0.0, 0.0
    order = np.argsort(-ts, kind="stable")
    xo, to, eo = xs[order], ts[order], ev[order] == 1
    eta = xo * theta
    w = np.exp(eta - eta.max())
    s0, s1, s2 = (np.cumsum(w * xo**m) for m in (0, 1, 2))
    last = np.searchsorted(-to, -to, side="right") - 1  # ties: the whole risk set t ≥ t_j
    idx = last[eo]
    mean = s1[idx] / s0[idx]
    score = float(np.sum(xo[eo] - mean))
    information = float(np.sum(s2[idx] / s0[idx] - mean**2))
    return score, information


@dataclass(frozen=True)
class CoxFit:
    """A one-covariate Cox fit by :func:`fit_cox`.

    Attributes
    ----------
    theta
        Maximiser ``θ̂`` of the (penalised) partial log-likelihood.
    se
        ``1/√(I(θ̂) + 2c)``: the standard error from the penalised curvature.
    loglik, loglik_null
        Unpenalised partial log-likelihood ``Λ(θ̂)`` and ``Λ(0)``.
    penalty
        ``c θ̂²`` subtracted from ``Λ(θ̂)`` in the objective.
    lrt
        ``2[Λ(θ̂) − c θ̂² − Λ(0)] ≥ 0``: the (penalised) likelihood-ratio statistic, as lifelines'
        ``log_likelihood_ratio_test`` reports it.
    """

    theta: float
    se: float
    loglik: float
    loglik_null: float
    penalty: float
    lrt: float


def fit_cox(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    *,
    penalizer: float = 0.0,
    tol: float = 1e-10,
    max_iter: int = 100,
) -> CoxFit:
    r"""Maximise ``Λ(θ) − c θ²`` (eq. 3, Breslow) by safeguarded Newton steps.

    The ridge penalty follows lifelines' convention, so that ``penalizer`` means what it means in
    ``lifelines.CoxPHFitter(penalizer=…)``: lifelines standardises the covariate and subtracts
    ``N · penalizer · β²/2`` with ``β = θ · sd(x)`` (``ddof = 1``), i.e. ``c = N · penalizer · var(x)/2``.
    The paper's text reports ``λ_reg = 0.05``; the authors' code uses ``penalizer = 0.1``. The two fits
    differ from lifelines' only through the tie handling (lifelines uses Efron's).

    The objective is strictly concave when ``x`` varies and ``penalizer > 0`` (or the data have an
    interior maximum); Newton steps are halved until the objective increases.

    Raises
    ------
    dpnet.errors.ParameterError
        On bad arrays, a negative ``penalizer``, or an unpenalised fit whose likelihood keeps
        increasing (a covariate that separates events, so ``θ̂`` is infinite).
    """
    xs, ts, ev = check_cohort(x, time, event)
    penalizer = real(ge=0.0)("penalizer", penalizer)
    c = 0.5 * len(xs) * penalizer * (float(np.var(xs, ddof=1)) if len(xs) > 1 else 0.0)

    def objective(theta: float) -> float:
        return float(cox_partial_loglik(xs, ts, ev, theta)) - c * theta**2

    theta, value = 0.0, objective(0.0)
    loglik_null = value
    for _ in range(max_iter):
        score, info = cox_score_information(xs, ts, ev, theta)
        grad, curv = score - 2 * c * theta, info + 2 * c
        if curv <= 0:
            if theta == 0.0:
                raise ParameterError("the Cox likelihood is flat: the covariate does not vary among events")
            raise ParameterError(
                f"the Cox fit diverges (θ = {theta:.3g}, flat likelihood): the covariate separates the "
                "events; use penalizer > 0"
            )
        step = grad / curv
        while True:
            candidate = objective(theta + step)
            if candidate >= value - 1e-12 * abs(value) or abs(step) < 1e-14:
                break
            step /= 2
        theta, value = theta + step, candidate
        if abs(step) < tol * max(1.0, abs(theta)):
            break
        if abs(theta) > 50:
            raise ParameterError(
                "the Cox fit diverges (|θ̂| > 50): the covariate separates the events; use penalizer > 0"
            )
    else:
        raise ParameterError(f"the Cox fit did not converge in max_iter = {max_iter} Newton steps")
    _, info = cox_score_information(xs, ts, ev, theta)
    loglik = value + c * theta**2
    return CoxFit(
        theta=theta,
        se=1.0 / math.sqrt(info + 2 * c),
        loglik=loglik,
        loglik_null=loglik_null,
        penalty=c * theta**2,
        lrt=max(0.0, 2.0 * (value - loglik_null)),
    )


def cox_sensitivity(b_theta: float, b_x: float = 1.0) -> float:
    """§12's sensitivity of one centre's partial log-likelihood: ``Δ = 2 B_θ B_x``.

    ``B_θ`` bounds ``|θ|`` over the states and ``B_x`` bounds ``|x|`` (1 for a treatment indicator).
    The paper derives it by changing one patient's covariate inside a fixed risk set; removing a
    patient also changes every risk set that contained them, so this is not a rigorous global
    sensitivity (note ``note-ht-sensitivity``), and the authors' code computes ``B_θ`` and ``B_x`` from
    the private data.
    """
    return 2.0 * real(gt=0.0)("b_theta", b_theta) * real(gt=0.0)("b_x", b_x)
