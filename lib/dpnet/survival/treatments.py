"""Best-treatment identification over the ACTG 175 arms (paper 003 §5, Fig 5).

The paper identifies the best of three treatments against the control ZDV by "propagating the
generalised likelihood ratios over each of the treatments and converting them to beliefs". Following
the authors' construction (the book's note ``note-ti-arm-glrt``), the states are the four arms; centre
``i``'s log-likelihood of the state "arm ``a``" is its local GLRT log-likelihood ratio of ``a`` against
ZDV on its own patients of those two arms, ``LRT_{i,a}/2`` from a ridge-penalised Cox fit restricted to
``|θ| ≤ B_θ`` (:func:`bounded_glrt`), and 0 for ZDV itself (:func:`arm_glrt`). The private algorithms
then run on this ``n × 4`` table. :func:`glrt_changes` measures how far one patient moves an entry on
given data, and :func:`glrt_worst_case` builds a centre on which one patient moves it beyond §12's
``Δ = 2B_θ``.

The GLRT is two-sided, so a treatment that *raised* the hazard would also score; in ACTG 175 every
treatment lowers it (Fig 4), so the construction names the arm with the strongest evidence of benefit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import integrate, optimize, stats

from dpnet.errors import ParameterError
from dpnet.inference import PrivateMLEResult, estimated_sets, noise_scale
from dpnet.params import integer, real
from dpnet.survival.binary import BinaryCox, binary_cox
from dpnet.survival.centres import _labels
from dpnet.survival.cox import (
    check_cohort,
    cox_partial_loglik,
    fit_cox,
    neighbour_changes,
    neighbour_records,
    treatment_worst_case,
)
from dpnet.survival.data import ACTG175_ARMS, arm_cohort
from dpnet.survival.studies import RunSchedule

__all__ = [
    "GLRT_NEIGHBOURS",
    "ArmGLRT",
    "BoundedGLRT",
    "argmax_probability",
    "arm_cohorts",
    "arm_glrt",
    "arm_set_rates",
    "bounded_glrt",
    "first_reliable",
    "glrt_changes",
    "glrt_worst_case",
    "published_schedule",
    "ridge_coefficient",
]


#: The neighbours :func:`glrt_changes` measures by default: one patient removed or added, one patient's
#: event indicator or treatment changed (:func:`~dpnet.survival.cox.neighbour_changes`).
GLRT_NEIGHBOURS: tuple[str, ...] = ("remove", "add", "event", "treatment")


def ridge_coefficient(x: ArrayLike, penalizer: float) -> float:
    """The coefficient ``c = N · penalizer · var(x)/2`` (``ddof = 1``) of the ridge term ``c θ²`` that
    :func:`~dpnet.survival.cox.fit_cox` subtracts (lifelines' convention)."""
    xs = np.asarray(x, dtype=float)
    penalizer = real(ge=0.0)("penalizer", penalizer)
    return 0.5 * len(xs) * penalizer * (float(np.var(xs, ddof=1)) if len(xs) > 1 else 0.0)


@dataclass(frozen=True)
class BoundedGLRT:
    """A centre's generalised likelihood ratio with the log hazard ratio restricted to ``[−B_θ, B_θ]``.

    Attributes
    ----------
    value
        ``max_{|θ| ≤ B_θ} [Λ(θ) − cθ²] − Λ(0) = LRT/2 ≥ 0``.
    theta
        The restricted maximiser.
    theta_free
        The unrestricted maximiser ``θ̂`` of ``Λ(θ) − cθ²``.
    binds
        Whether ``|θ̂| > B_θ``, so that the restriction changed the value.
    """

    value: float
    theta: float
    theta_free: float
    binds: bool


def bounded_glrt(
    x: ArrayLike, time: ArrayLike, event: ArrayLike, *, penalizer: float, b_theta: float
) -> BoundedGLRT:
    """The ridge-penalised GLRT of ``θ = 0`` with ``|θ| ≤ B_θ`` (``b_theta``).

    §12's sensitivity ``Δ = 2B_θB_x`` assumes ``|θ| ≤ B_θ``, so a statistic maximised over every θ is not
    covered by it when its maximiser lies beyond the bound (note ``note-ti-arm-glrt``). The objective
    ``Λ(θ) − cθ²`` is concave, so its maximiser on ``[−B_θ, B_θ]`` is the unrestricted one
    (:func:`~dpnet.survival.cox.fit_cox`) moved to the nearer end when it lies outside. A cohort whose
    covariate takes one value (a small centre without a treated patient, say) has a flat likelihood and
    a GLRT of 0.
    """
    xs, ts, ev = check_cohort(x, time, event)
    bound = real(gt=0.0)("b_theta", b_theta)
    if len(xs) == 0 or np.all(xs == xs[0]):  # one covariate value: Λ does not depend on θ
        return BoundedGLRT(0.0, 0.0, 0.0, False)
    c = ridge_coefficient(xs, penalizer)
    if np.all((xs == 0) | (xs == 1)):  # risk-set counts: O(N log N) once, then O(event times) per θ
        model = binary_cox(xs, ts, ev)
        free = _penalised_argmax(model, c, bound)
        theta = min(max(free, -bound), bound)
        value = float(model.loglik(theta)) - c * theta**2 - float(model.loglik(0.0))
        return BoundedGLRT(max(0.0, value), theta, free, abs(free) > bound)
    fit = fit_cox(xs, ts, ev, penalizer=penalizer)
    if abs(fit.theta) <= bound:
        return BoundedGLRT(fit.lrt / 2, fit.theta, fit.theta, False)
    end = math.copysign(bound, fit.theta)
    value = float(cox_partial_loglik(xs, ts, ev, end)) - c * end**2 - fit.loglik_null
    return BoundedGLRT(max(0.0, value), end, fit.theta, True)


def _penalised_argmax(model: BinaryCox, c: float, start: float, limit: float = 64.0) -> float:
    """The maximiser of the concave ``Λ(θ) − cθ²`` of a binary covariate: the root of its derivative,
    bracketed from ``[−start, start]`` outwards by doubling (``±inf`` beyond ``±limit``: the covariate
    separates the events and ``c = 0``)."""

    def slope(theta: float) -> float:
        return float(model.score(theta)) - 2.0 * c * theta

    lo, hi = -start, start
    while slope(hi) > 0:
        lo, hi = hi, 2 * hi
        if hi > limit:
            return math.inf
    while slope(lo) < 0:
        lo, hi = 2 * lo, lo
        if lo < -limit:
            return -math.inf
    if slope(lo) == 0:
        return lo
    return float(optimize.brentq(slope, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps))


@dataclass(frozen=True)
class ArmGLRT:
    """Every centre's bounded GLRT of every arm against the control (:func:`arm_glrt`).

    Attributes
    ----------
    arms
        The arms, in :data:`~dpnet.survival.data.ACTG175_ARMS` order.
    table
        ``table[i, a] = max_{|θ| ≤ B_θ}[…]`` of centre ``i`` and arm ``a`` (0 for the control), shape
        ``(n, |arms|)``.
    theta_free
        The unrestricted estimates ``θ̂_{i,a}`` (``nan`` for the control).
    b_theta
        The bound ``B_θ``.
    """

    arms: tuple[str, ...]
    table: NDArray[np.float64]
    theta_free: NDArray[np.float64]
    b_theta: float

    @property
    def binding(self) -> int:
        """How many entries the bound changed (``|θ̂_{i,a}| > B_θ``)."""
        return int(np.sum(np.abs(np.nan_to_num(self.theta_free)) > self.b_theta))


def arm_cohorts(
    frame: pd.DataFrame, centres: ArrayLike, *, control: str = "ZDV"
) -> Iterator[tuple[int, str, int, NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]]:
    """Every centre's cohort of every arm against the control: ``(k, arm, i, x, time, event)`` with ``k``
    the arm's column, ``i`` the centre and ``x = 1`` for the arm.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``centres`` does not label every row, or some centre has no patient of an arm or the control.
    """
    labels, n_centres = _labels(np.asarray(centres), len(frame))
    for k, arm in enumerate(ACTG175_ARMS):
        if arm == control:
            continue
        cohort = arm_cohort(frame, arm, control)
        local = labels[frame.index.get_indexer(cohort.index)]
        if len(np.unique(local)) != n_centres:
            raise ParameterError(f"some centre has no patient of {arm} or {control}: use fewer centres")
        x, t, e = (cohort[c].to_numpy(float) for c in ("x", "time", "event"))
        for i in range(n_centres):
            m = local == i
            yield k, arm, i, x[m], t[m], e[m]


def arm_glrt(
    frame: pd.DataFrame, centres: ArrayLike, *, penalizer: float, b_theta: float, control: str = "ZDV"
) -> ArmGLRT:
    """Each centre's bounded GLRT of every arm against the control (:func:`bounded_glrt`).

    Parameters
    ----------
    frame
        The ACTG 175 frame (:func:`~dpnet.survival.data.load_actg175`).
    centres
        Centre label of every row of ``frame`` (so a patient belongs to one centre in every comparison).
    penalizer
        Ridge penalty of the local Cox fits, in lifelines' convention (the paper: 0.05).
    b_theta
        The public bound ``B_θ`` on ``|θ|`` of §12's sensitivity ``Δ = 2B_θ``; every fit is restricted
        to ``[−B_θ, B_θ]``.
    control
        The control arm, whose column is 0.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``centres`` does not label every row, a centre lacks an arm, or a centre's fit fails (e.g. no
        events in an arm).
    """
    n_centres = _labels(np.asarray(centres), len(frame))[1]
    table = np.zeros((n_centres, len(ACTG175_ARMS)))
    theta = np.full_like(table, np.nan)
    for k, _, i, x, t, e in arm_cohorts(frame, centres, control=control):
        fit = bounded_glrt(x, t, e, penalizer=penalizer, b_theta=b_theta)
        table[i, k], theta[i, k] = fit.value, fit.theta_free
    return ArmGLRT(ACTG175_ARMS, table, theta, float(b_theta))


def glrt_changes(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    *,
    penalizer: float,
    b_theta: float,
    kinds: Sequence[str] = GLRT_NEIGHBOURS,
    grid_size: int = 201,
) -> dict[str, float]:
    r"""The largest change of a centre's bounded GLRT (:func:`bounded_glrt`) over every neighbour of each
    kind: its local sensitivity on these data.

    With ``G(S) = max_{|θ| ≤ B_θ}[Λ(S|θ) − c_S θ²] − Λ(S|0)``, the change for a neighbour ``S′`` is
    ``G(S′) − G(S)``. ``Λ(S′|θ) − Λ(S|θ)`` comes in closed form from
    :func:`~dpnet.survival.cox.neighbour_changes` (every neighbour of each kind, at every θ of a grid of
    ``grid_size`` points on ``[−B_θ, B_θ]``), ``c_{S′}`` from the neighbour's size and covariates
    (:func:`ridge_coefficient`), and both maxima are taken on the grid. The grid's error is of order
    ``I·(B_θ/grid_size)²`` with ``I`` the information, far below the changes.

    Returns
    -------
    dict
        ``kind → max_{S′} |G(S′) − G(S)|`` (0 for a kind with no neighbour).
    """
    xs, ts, ev = check_cohort(x, time, event)
    bound = real(gt=0.0)("b_theta", b_theta)
    size = integer(ge=3)("grid_size", grid_size)
    grid = np.linspace(-bound, bound, size + (size % 2 == 0))  # odd: 0 is a grid point
    zero = len(grid) // 2
    loglik = np.asarray(cox_partial_loglik(xs, ts, ev, grid))
    n, ones = len(xs), float(xs.sum())
    base = float((loglik - ridge_coefficient(xs, penalizer) * grid**2).max() - loglik[zero])
    lam = real(ge=0.0)("penalizer", penalizer)

    def ridge(size_: ArrayLike, treated: ArrayLike) -> NDArray[np.float64]:  # c of a binary cohort
        m, k = np.asarray(size_, dtype=float), np.asarray(treated, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            var = np.where(m > 1, k * (m - k) / (m * (m - 1)), 0.0)
        return 0.5 * m * lam * var

    out = {}
    for kind in kinds:
        if kind not in GLRT_NEIGHBOURS:
            raise ParameterError(f"kinds must be among {GLRT_NEIGHBOURS} (got {kind!r})")
        change = neighbour_changes(xs, ts, ev, grid, change=kind)  # (M, |grid|)
        if kind == "remove":
            c = ridge(n - 1, ones - xs)
        elif kind == "add":
            c = ridge(n + 1, ones + neighbour_records(xs, ts, ev, change="add").x)
        elif kind == "treatment":
            c = ridge(n, ones + 1.0 - 2.0 * xs)
        else:
            c = ridge(np.full(len(change), n), np.full(len(change), ones))
        moved = (loglik + change - np.asarray(c)[:, None] * grid**2).max(axis=1) - (
            loglik[zero] + change[:, zero]
        )
        out[kind] = float(np.abs(moved - base).max()) if len(moved) else 0.0
    return out


def glrt_worst_case(n: int, *, penalizer: float, b_theta: float) -> tuple[float, float]:
    """The bounded GLRT (:func:`bounded_glrt`) before and after changing one patient's treatment on
    :func:`~dpnet.survival.cox.treatment_worst_case` at ``θ = −B_θ``: ``n − 1`` treated patients with events
    at distinct times and one untreated patient censored after them, who then joins the treated.

    After the change every patient is treated, the likelihood no longer depends on θ and the GLRT is 0;
    before it, the GLRT grows like ``(1 − e^{−B_θ}) log n``. Returns ``(before, after)``.
    """
    case = treatment_worst_case(integer(ge=3)("n", n), -real(gt=0.0)("b_theta", b_theta))
    flipped = case.x.copy()
    flipped[case.patient] = 1.0 - flipped[case.patient]
    before, after = (bounded_glrt(x, case.time, case.event, penalizer=penalizer, b_theta=b_theta).value
                     for x in (case.x, flipped))  # fmt: skip
    return before, after


def published_schedule(delta: float, eps: float, *, K: int, T: int) -> RunSchedule:
    """The authors' Figure 5 runs (note ``note-ti-fig5-settings``): fixed ``K`` and ``T`` (10 and 1000 in
    their notebook) and their code's noise ``2KΔ|Θ|/ε`` with ``|Θ| = 2``: each treatment was a two-state
    problem against ZDV."""
    return RunSchedule(int(K), int(T), float(noise_scale(delta, 2, eps, K, convention="authors_code")))


def arm_set_rates(
    result: PrivateMLEResult, arms: Sequence[str], *, best: str, control: str, rho: float, freq: float
) -> dict[str, dict[str, float]]:
    """How often each algorithm, at some centre, names a treatment other than ``best`` (``"wrong treatment"``)
    or names no treatment at all (``"control only"``), over the replications.

    The sets are those of :func:`~dpnet.inference.rates.recovery_rates`: GM and AM at ``τ = 1/(1+e^ϱ)``, the
    two-threshold rule at frequency ``freq`` of rounds won.
    """
    names = list(arms)
    for name in (best, control):
        if name not in names:
            raise ParameterError(f"{name!r} is not one of the arms {names}")
    others = [k for k, a in enumerate(names) if a not in (best, control)]
    treatments = [k for k, a in enumerate(names) if a != control]
    out = {}
    for algorithm, sets in estimated_sets(result, rho=rho, freq=freq).items():
        out[algorithm] = {
            "wrong treatment": float(np.any(sets[..., others], axis=(-2, -1)).mean()),
            "control only": float(np.any(~np.any(sets[..., treatments], axis=-1), axis=-1).mean()),
        }
    return out


def first_reliable(eps_values: Sequence[float], probabilities: Sequence[float], level: float) -> float | None:
    """The smallest ε of the grid from which on the probability stays ≥ ``level`` (None if it never does)."""
    eps = np.asarray(eps_values, dtype=float)
    ok = np.asarray(probabilities, dtype=float) >= level
    if eps.shape != ok.shape or eps.ndim != 1:
        raise ParameterError("eps_values and probabilities must be 1-D of the same length")
    bad = np.flatnonzero(~ok)
    start = 0 if bad.size == 0 else int(bad[-1]) + 1
    return float(eps[start]) if start < len(eps) else None


def argmax_probability(means: ArrayLike, sd: float, best: int | None = None) -> float:
    """The probability that ``best`` (by default the largest mean) is the largest of independent normal
    variables with the given means and a common standard deviation ``sd``.

    With ``Z`` standard normal and ``g_j = (μ_best − μ_j)/sd``, it is
    ``∫ φ(z) Π_{j≠best} Φ(z + g_j) dz`` (one-dimensional quadrature). It is ``1/k`` for ``k`` equal
    means, ``Φ(g/√2)`` for two, and tends to 1 as ``sd → 0``. GM, on a complete network, names the arm
    whose summed log-likelihood plus the centres' noise averaged over the rounds is largest; with that
    noise normal (a sum of many Laplace draws), this is its probability of naming ``best``.
    """
    mu = np.asarray(means, dtype=float)
    if mu.ndim != 1 or mu.size < 2 or not np.all(np.isfinite(mu)):
        raise ParameterError("means must be a 1-D array of at least two finite values")
    if not (np.isfinite(sd) and sd > 0):
        raise ParameterError(f"sd must be a finite number > 0 (got {sd})")
    b = int(np.argmax(mu)) if best is None else int(best)
    if not 0 <= b < mu.size:
        raise ParameterError(f"best must index one of the {mu.size} means (got {best})")
    gaps = (mu[b] - np.delete(mu, b)) / sd

    def density(z: float) -> float:
        return float(stats.norm.pdf(z) * np.prod(stats.norm.cdf(z + gaps)))

    value, _ = integrate.quad(density, -np.inf, np.inf, epsabs=1e-12, epsrel=1e-10)
    return float(min(max(value, 0.0), 1.0))
