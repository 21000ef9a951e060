"""The one-covariate Cox proportional-hazards model of paper 003 (§2.1, §12).

- :func:`cox_partial_loglik`: the partial log-likelihood on a grid of log hazard ratios θ, as written
  in the paper (eq. 3, Breslow risk sets) or as coded in the authors' notebook
  (``variant="as_published"``, which sums the log risk term over every patient);
- :func:`cox_score_information`: its derivative and curvature (Breslow);
- :func:`fit_cox`: the (ridge-penalised) maximiser and the likelihood-ratio statistic, the
  per-centre fits of the composite test;
- :func:`cox_sensitivity`: §12's sensitivity ``Δ = 2 B_θ B_x``;
- :func:`neighbour_changes`: what one patient added, removed, or modified (its treatment, event, time
  or whole record) does to the partial log-likelihood, the changes §12's bound is meant to cover
  (:func:`neighbour_records` names each neighbour);
- :func:`treatment_worst_case`: a cohort on which one change of treatment moves the likelihood by
  ``log((N + 1)/2)`` at ``θ = −log 2``, beyond §12's bound (:func:`treatment_worst_change`).

Centralised fits with confidence intervals use lifelines (:mod:`dpnet.survival.fits`); this module
exists for what lifelines does not offer: the paper's exact likelihood on a θ grid, its legacy
variant, and fast fits inside Monte Carlo loops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import choice, integer, real

__all__ = [
    "LEGACY_LOG_OFFSET",
    "NEIGHBOURS",
    "CoxFit",
    "LegacyTies",
    "NeighbourRecords",
    "WorstCase",
    "cox_partial_loglik",
    "cox_score_information",
    "cox_sensitivity",
    "fit_cox",
    "legacy_order",
    "loglik_gap",
    "neighbour_changes",
    "neighbour_records",
    "neighbour_times",
    "treatment_worst_case",
    "treatment_worst_change",
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
    ties : {"row", "x_desc", "x_asc", "quicksort"}
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


LegacyTies = Literal["row", "x_desc", "x_asc", "quicksort"]


def legacy_order(time: ArrayLike, x: ArrayLike, ties: LegacyTies = "row") -> NDArray[np.int64]:
    """The patients in increasing time, tied times ordered by ``ties``: ``"row"`` (row order, a stable
    sort), ``"x_desc"`` (larger covariate first), ``"x_asc"`` (smaller first), or ``"quicksort"``
    (NumPy's default, unstable sort, the one pandas' ``sort_values`` uses).

    The authors' notebook left the order of ties to pandas' default sort, whose order of ties depends
    on the sorting kernel NumPy picks for the CPU (:func:`cox_partial_loglik`); a fixed rule makes the
    as-published likelihood the same everywhere. ``"quicksort"`` is that machine-dependent order, for
    comparing with a published value on the machine at hand.
    """
    ties = choice("row", "x_desc", "x_asc", "quicksort")("ties", ties)
    ts, xs = np.asarray(time, dtype=float), np.asarray(x, dtype=float)
    if ties == "row":
        return np.argsort(ts, kind="stable")
    if ties == "quicksort":
        return np.argsort(ts, kind="quicksort")
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


#: The neighbour relations of §12 ("added, removed, or modified") that :func:`neighbour_changes` measures:
#: one patient removed, one patient added, and one patient's record modified: its treatment, its event
#: indicator, its time, or all of them at once.
NEIGHBOURS = ("remove", "add", "treatment", "event", "time", "modify")

Neighbour = Literal["remove", "add", "treatment", "flip", "event", "time", "modify"]

#: The records an added or modified patient may take, besides a time: (event, covariate) in this order.
_NEW_RECORDS = ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0))


def neighbour_times(time: ArrayLike) -> NDArray[np.float64]:
    """One time per cell of the partition that the distinct times ``u₁ < … < u_U`` make of the real line:
    ``u₁ − 1, u₁, (u₁ + u₂)/2, u₂, …, u_U, u_U + 1`` (``2U + 1`` times; ``[0]`` for an empty cohort).

    A new or moved patient's effect on the partial likelihood (eq. 3) depends on its time only through
    the cell it falls in: which events' risk sets it joins (those at or before it) and which patients
    share its own risk set (those at or after it). So the largest change over every possible time is
    the largest over these ``2U + 1``.
    """
    u = np.unique(_vector("time", time))
    if len(u) == 0:
        return np.zeros(1)
    out = np.empty(2 * len(u) + 1)
    out[0], out[-1] = u[0] - 1.0, u[-1] + 1.0
    out[1::2] = u
    out[2:-1:2] = 0.5 * (u[:-1] + u[1:])
    return out


@dataclass(frozen=True)
class NeighbourRecords:
    """The neighbours of a cohort that :func:`neighbour_changes` measures, one row per neighbour.

    Attributes
    ----------
    patient
        The patient removed or modified (``-1`` when a patient is added).
    time, event, x
        The new patient's record, or the modified patient's new record (``nan`` when one is removed).
    """

    patient: NDArray[np.int64]
    time: NDArray[np.float64]
    event: NDArray[np.float64]
    x: NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.patient)

    def cohort(
        self, x: ArrayLike, time: ArrayLike, event: ArrayLike, row: int
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """The neighbouring cohort ``(x, time, event)`` of row ``row``: the patient removed, added or
        replaced by its new record (added patients come last)."""
        xs, ts, ev = check_cohort(x, time, event)
        k, new = int(self.patient[row]), (self.x[row], self.time[row], self.event[row])
        if k < 0:
            return np.append(xs, new[0]), np.append(ts, new[1]), np.append(ev, new[2])
        if np.isnan(new[1]):
            keep = np.arange(len(xs)) != k
            return xs[keep], ts[keep], ev[keep]
        xs, ts, ev = xs.copy(), ts.copy(), ev.copy()
        xs[k], ts[k], ev[k] = new
        return xs, ts, ev


def _relation(change: str) -> str:
    change = choice(*NEIGHBOURS, "flip")("change", change)
    return "treatment" if change == "flip" else change


def neighbour_records(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, *, change: Neighbour
) -> NeighbourRecords:
    """The neighbours of one kind that :func:`neighbour_changes` measures, in its row order.

    With ``N`` patients and ``C = 2U + 1`` candidate times (:func:`neighbour_times`):

    - ``"remove"``: ``N`` rows, patient ``k`` removed;
    - ``"add"``: ``4C`` rows, a patient added at each candidate time with each (event, covariate) in
      ``(0, 0), (0, 1), (1, 0), (1, 1)``;
    - ``"treatment"`` (or ``"flip"``): ``N`` rows, patient ``k``'s binary covariate changed;
    - ``"event"``: ``N`` rows, patient ``k``'s event indicator changed;
    - ``"time"``: ``N·C`` rows, patient ``k`` moved to each candidate time (patient-major);
    - ``"modify"``: ``4·N·C`` rows, patient ``k``'s record replaced by each time and each (event,
      covariate) (patient, then time, then record).
    """
    kind = _relation(change)
    xs, ts, ev = check_cohort(x, time, event)
    n, idx = len(xs), np.arange(len(xs))
    cand = neighbour_times(ts)
    c = len(cand)
    new = np.array(_NEW_RECORDS)
    nan = np.full(n, np.nan)
    if kind == "remove":
        return NeighbourRecords(idx, nan, nan, nan)
    if kind == "add":
        return NeighbourRecords(
            np.full(4 * c, -1), np.repeat(cand, 4), np.tile(new[:, 0], c), np.tile(new[:, 1], c)
        )
    if kind == "treatment":
        return NeighbourRecords(idx, ts, ev, 1.0 - xs)
    if kind == "event":
        return NeighbourRecords(idx, ts, 1.0 - ev, xs)
    if kind == "time":
        return NeighbourRecords(np.repeat(idx, c), np.tile(cand, n), np.repeat(ev, c), np.repeat(xs, c))
    return NeighbourRecords(
        np.repeat(idx, 4 * c), np.tile(np.repeat(cand, 4), n), np.tile(new[:, 0], n * c),
        np.tile(new[:, 1], n * c),
    )  # fmt: skip


def neighbour_changes(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    theta: ArrayLike,
    *,
    change: Neighbour = "remove",
) -> NDArray[np.float64]:
    r"""``Λ(S′ | θ) − Λ(S | θ)`` of eq. (3) for every neighbour ``S′`` of the cohort ``S`` of one kind.

    §12 bounds ``|Λ(S′|θ) − Λ(S|θ)|`` by ``Δ = 2B_θB_x`` (:func:`cox_sensitivity`) for a patient "added,
    removed, or modified". The kinds (:data:`NEIGHBOURS`; rows in the order of
    :func:`neighbour_records`): ``"remove"`` one patient, ``"add"`` one patient with any time, event and
    binary covariate, change one patient's ``"treatment"`` (``"flip"``: its binary covariate), its
    ``"event"`` indicator or its ``"time"``, or ``"modify"`` its whole record. The candidate times of an
    added or moved patient (:func:`neighbour_times`) cover every time, so the largest ``|change|`` over
    the rows is the largest over every neighbour of that kind: the local sensitivity of ``S``.

    With ``S_j = Σ_{t_r ≥ t_j} e^{x_r θ}`` the risk sum of event ``j`` (Breslow) and ``R(k)`` the events
    whose risk set holds patient ``k`` (``t_j ≤ t_k``),

    .. math::

        \text{remove } k:\quad -\delta_k\,(x_k\theta - \log S_k)
            - \sum_{j \in R(k),\, j \ne k} \log\bigl(1 - e^{x_k\theta}/S_j\bigr),

        \text{treatment of } k:\quad \delta_k\,(x'_k - x_k)\,\theta
            - \sum_{j \in R(k)} \log\bigl(1 + (e^{x'_k\theta} - e^{x_k\theta})/S_j\bigr),
        \qquad x'_k = 1 - x_k,

        \text{event of } k:\quad (1 - 2\delta_k)\,(x_k\theta - \log S(t_k)),

        \text{add } (t, \delta, x):\quad \delta\,\bigl(x\theta - \log(S(t) + e^{x\theta})\bigr)
            - \sum_{j:\, t_j \le t} \log\bigl(1 + e^{x\theta}/S_j\bigr),

    with ``S(t) = Σ_{t_r ≥ t} e^{x_r θ}``; moving or modifying patient ``k`` is removing it and adding
    its new record to the rest.

    No bound independent of the cohort's size holds for any kind: removing the earliest event drops a
    term ``log S`` of the order of ``log N`` (note ``note-ht-sensitivity``), and changing a treatment
    can move ``Λ`` by nearly ``log((N + 1)/2)`` at ``θ = −log 2`` (:func:`treatment_worst_case`).

    Parameters
    ----------
    x, time, event : array_like, shape (N,)
        The cohort (:func:`cox_partial_loglik`). ``"treatment"``, ``"add"`` and ``"modify"`` need a
        binary ``x`` (a treatment indicator, ``B_x = 1``); the new covariates are 0 and 1.
    theta : float or array_like, shape (K,)
        The log hazard ratios.
    change : {"remove", "add", "treatment", "flip", "event", "time", "modify"}
        The kind of neighbour.

    Returns
    -------
    numpy.ndarray, shape (M, K)
        Row ``m``: the change for neighbour ``m`` of :func:`neighbour_records`, at each θ. Cost
        ``O(N·E·K)`` time and memory for ``E`` events, and ``O(N·U·K)`` for ``"time"`` and ``"modify"``
        with ``U`` distinct times.

    Raises
    ------
    dpnet.errors.ParameterError
        On bad arrays (:func:`cox_partial_loglik`), a non-binary covariate where one is needed, or an
        unknown ``change``.
    """
    kind = _relation(change)
    xs, ts, ev = check_cohort(x, time, event)
    th = np.atleast_1d(np.asarray(theta, dtype=float))
    if th.ndim != 1 or not np.all(np.isfinite(th)):
        raise ParameterError("theta must be a finite scalar or 1-D array")
    if kind in ("treatment", "add", "modify") and not np.all((xs == 0) | (xs == 1)):
        raise ParameterError(f"{change} needs a binary covariate x (0 or 1)")
    n_rows = len(neighbour_records(xs, ts, ev, change=kind))
    if len(xs) == 0:
        return _changes_of_empty(th, kind) if n_rows else np.zeros((0, len(th)))
    risk = _RiskSums(xs, ts, ev, th)
    if kind == "remove":
        return risk.removed()
    if kind == "treatment":
        return risk.treatment()
    if kind == "event":
        own = risk.log_w - np.log(risk.tail(ts))  # x_k θ − log S(t_k), shifted alike
        return (1.0 - 2.0 * ev)[:, None] * own
    cand = neighbour_times(ts)
    if kind == "add":
        added = [risk.added(cand, e_new, x_new) for e_new, x_new in _NEW_RECORDS]  # each (C, K)
        return np.stack(added, axis=1).reshape(-1, len(th))
    removed = risk.removed()
    if kind == "time":
        return (removed[:, None, :] + risk.added_without(cand, ev, xs)).reshape(-1, len(th))
    moved = [risk.added_without(cand, np.full(len(xs), e_new), np.full(len(xs), x_new))
             for e_new, x_new in _NEW_RECORDS]  # fmt: skip
    return (removed[:, None, None, :] + np.stack(moved, axis=2)).reshape(-1, len(th))


def _changes_of_empty(th: NDArray[np.float64], kind: str) -> NDArray[np.float64]:
    """Adding one patient to an empty cohort: its own risk set holds only itself, so Λ stays 0."""
    return np.zeros((4, len(th))) if kind == "add" else np.zeros((0, len(th)))


class _RiskSums:
    """A cohort's risk sums at each θ, with weights ``w = e^{xθ − m_θ}`` shifted by ``m_θ = max_r x_rθ`` so
    that they neither overflow nor underflow (every ratio and difference of logs is unchanged)."""

    def __init__(self, xs: NDArray, ts: NDArray, ev: NDArray, th: NDArray) -> None:
        eta = np.outer(xs, th)  # (N, K)
        self.shift = eta.max(axis=0)
        self.th, self.xs, self.ts, self.ev = th, xs, ts, ev
        self.log_w = eta - self.shift
        self.w = np.exp(self.log_w)
        self.events = np.flatnonzero(ev == 1)
        self._desc = np.argsort(-ts, kind="stable")
        self._cum = np.cumsum(self.w[self._desc], axis=0)
        t_events = ts[self.events]
        self.s = self.tail(t_events)  # (E, K): S_j
        self.holds = ts[:, None] >= t_events[None, :]  # (N, E): patient k is in the risk set of event j
        self._ascending = np.argsort(t_events, kind="stable")
        self._t_sorted = t_events[self._ascending]

    def tail(self, t: NDArray) -> NDArray:
        """``Σ_{t_r ≥ t} w_r`` for each query time, shape ``(Q, K)``."""
        count = np.searchsorted(-self.ts[self._desc], -np.asarray(t, dtype=float), side="right")
        padded = np.vstack([np.zeros((1, len(self.th))), self._cum])
        return padded[count]

    def weight(self, x_new: NDArray | float) -> NDArray:
        """``e^{xθ − m_θ}`` of new covariate values, shape ``(…, K)``."""
        return np.exp(np.multiply.outer(np.asarray(x_new, dtype=float), self.th) - self.shift)

    def removed(self) -> NDArray:
        own = self.holds & (np.arange(len(self.xs))[:, None] != self.events[None, :])
        ratio = np.where(own[..., None], self.w[:, None, :] / self.s[None, :, :], 0.0)  # (N, E, K)
        out = -np.log1p(-ratio).sum(axis=1)
        out[self.events] -= self.log_w[self.events] - np.log(self.s)  # the removed event's own term
        return out

    def treatment(self) -> NDArray:
        flipped = self.weight(1.0 - self.xs) - self.w  # (N, K)
        step = np.where(self.holds[..., None], flipped[:, None, :] / self.s[None, :, :], 0.0)
        out = -np.log1p(step).sum(axis=1)
        out[self.events] += np.outer(1.0 - 2.0 * self.xs[self.events], self.th)
        return out

    def _prefix(self, terms: NDArray) -> NDArray:
        """Cumulative sums of per-event terms ``(…, E, K)`` over the events in increasing time, with a
        leading zero: entry ``c`` sums the ``c`` earliest events."""
        ordered = np.take(terms, self._ascending, axis=-2)
        zero = np.zeros((*terms.shape[:-2], 1, terms.shape[-1]))
        return np.concatenate([zero, np.cumsum(ordered, axis=-2)], axis=-2)

    def added(self, cand: NDArray, e_new: float, x_new: float) -> NDArray:
        """Change when a patient ``(t, e_new, x_new)`` joins, for ``t`` in ``cand``, shape ``(C, K)``."""
        w_new = self.weight(x_new)  # (K,)
        joined = self._prefix(np.log1p(w_new[None, :] / self.s))  # (E + 1, K)
        before = np.searchsorted(self._t_sorted, cand, side="right")  # events at or before t
        own = e_new * (np.log(w_new) - np.log(self.tail(cand) + w_new))
        return own - joined[before]

    def added_without(self, cand: NDArray, e_new: NDArray, x_new: NDArray) -> NDArray:
        """Change when patient ``k``'s new record ``(t, e_new[k], x_new[k])`` joins the cohort without
        ``k``, for ``t`` in ``cand``: shape ``(N, C, K)``."""
        n = len(self.xs)
        w_new = self.weight(x_new)  # (N, K)
        s_without = self.s[None, :, :] - np.where(self.holds[..., None], self.w[:, None, :], 0.0)  # (N, E, K)
        is_self = np.arange(n)[:, None] == self.events[None, :]
        terms = np.where(is_self[..., None], 0.0, np.log1p(w_new[:, None, :] / np.where(
            is_self[..., None], 1.0, s_without)))  # fmt: skip
        joined = self._prefix(terms)  # (N, E + 1, K)
        before = np.searchsorted(self._t_sorted, cand, side="right")  # (C,)
        tail = self.tail(cand)[None] - np.where(
            (self.ts[:, None] >= cand[None, :])[..., None], self.w[:, None, :], 0.0
        )  # (N, C, K): S(t) without k
        own = e_new[:, None, None] * (np.log(w_new)[:, None, :] - np.log(tail + w_new[:, None, :]))
        return own - joined[:, before, :]


class WorstCase(NamedTuple):
    """A cohort ``(x, time, event)`` and the patient whose change of treatment moves its likelihood most."""

    x: NDArray[np.float64]
    time: NDArray[np.float64]
    event: NDArray[np.float64]
    patient: int


def treatment_worst_case(n: int, theta: float) -> WorstCase:
    r"""A cohort of ``n`` patients on which changing one patient's treatment moves eq. (3) at ``θ`` by
    :func:`treatment_worst_change`, and that patient (the last).

    Patients ``0 … n − 2`` have events at the distinct times ``1 … n − 1`` and the covariate of the
    smaller weight ``e^{xθ}`` (treated when ``θ < 0``); the last patient is censored at time ``n`` with
    the other covariate. The last patient is in every risk set, where it weighs ``e^{|θ|}`` times more
    than any other; changing its treatment makes it weigh as much as the others, which moves the risk sum
    of the event with ``m`` others at risk by a factor ``(m + e^{|θ|})/(m + 1)``. On every cohort of up to
    five patients no change of one treatment moves ``Λ(−log 2)`` further (an exhaustive search, in the
    tests), and §12's ``Δ = 2|θ|`` fails from ``n = 8`` patients on at ``θ = −log 2``.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``n < 2`` or ``θ`` is 0 or not finite.
    """
    n = integer(ge=2)("n", n)
    theta = real()("theta", theta)
    if theta == 0.0:
        raise ParameterError("theta must not be 0: at θ = 0 a change of treatment moves nothing")
    small = 1.0 if theta < 0 else 0.0  # the covariate of the smaller weight e^{xθ}
    x = np.full(n, small)
    x[-1] = 1.0 - small
    event = np.ones(n)
    event[-1] = 0.0
    return WorstCase(x, np.arange(1.0, n + 1.0), event, n - 1)


def treatment_worst_change(n: int, theta: float) -> float:
    r"""``|Λ(S′|θ) − Λ(S|θ)|`` on :func:`treatment_worst_case`: with ``r = e^{|θ|}``,

    .. math:: \sum_{m=1}^{n-1} \log\frac{m + r}{m + 1}
        = \log\Gamma(n + r) - \log\Gamma(1 + r) - \log\Gamma(n + 1),

    which is ``log((n + 1)/2)`` at ``|θ| = log 2`` and grows like ``(e^{|θ|} − 1) log n``.
    """
    n = integer(ge=2)("n", n)
    r = math.exp(abs(real()("theta", theta)))
    return math.lgamma(n + r) - math.lgamma(1.0 + r) - math.lgamma(n + 1.0)
