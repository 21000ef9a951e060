r"""What the smooth-sensitivity Laplace release of ``ξ = log s`` guarantees, measured on signals
(paper 001, eq. 11 and §5.2).

A Signal-DP release of paper 001 is ``log s + Lap(b(s))``, with ``b(s) = 2S*(s)/ε`` (the text) or
``2S*(s)`` (the authors' code) and ``S*(s) = 2 ln(2/δ)/(e ε s)`` (eq. 11;
:func:`dpnet.estimation.privacy.smooth_scales`). Under the paper's adjacency ``|s − s′| ≤ 1`` the paper
states that it is (ε, δ)-DP, citing Nissim, Raskhodnikova and Smith (2007, Corollary 2.4), whose proof
needs a β-smooth upper bound ``S`` on the local sensitivity, with ``β = ε/(2 ln(2/δ))``:

* ``S(s) ≥ LS(s)``, where ``LS(s) = max_{|s′−s|≤1} |log s′ − log s|`` is ``log(s/(s − 1))`` for
  ``s > 1`` and **infinite** for ``s ≤ 1`` (``s′`` may approach 0) (:func:`local_sensitivity`). Eq. 11's
  ``S*`` is below ``LS`` for ``s ≤ 1``, and for every ``s`` once ``ε > 2 ln(2/δ)/e`` (3.90 at
  ``δ = 0.01``);
* ``S(s) ≤ e^β S(s′)`` for adjacent signals: for ``S* ∝ 1/s`` this fails for
  ``s < 1/(e^β − 1)`` (:func:`smoothness_threshold`; 10.1 at ``ε = 1``).

Where the conditions fail the corollary does not apply, and the release may or may not be (ε, δ)-DP.
:func:`release_delta` measures it: for a signal ``s``, the smallest ``δ`` for which ``ε`` holds against
every adjacent ``s′`` on a grid, the largest hockey-stick divergence
``E_{e^ε}(P‖Q) = ∫ (p − e^ε q)_+`` between the releases at ``s`` and ``s′``, both ways, in closed form for
two Laplace laws (:func:`laplace_hockey_stick`). :func:`guarantee_profiles` summarises a set of
readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from dpnet.errors import ParameterError
from dpnet.estimation.privacy import CALIBRATIONS, Calibration, smooth_scales, smooth_sensitivity

__all__ = [
    "GuaranteeProfile",
    "below_local_budget",
    "guarantee_profile",
    "guarantee_profiles",
    "laplace_hockey_stick",
    "local_sensitivity",
    "location_budget",
    "release_delta",
    "smoothness_threshold",
]

#: How close to 0 the adjacent signal of a reading ``s ≤ 1`` is taken (a share of ``s``).
_NEAR_ZERO = 1e-12


def _laplace_cdf(x: NDArray[np.float64], m: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray:
    z = (x - m) / b
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.maximum(z, 0.0)))


def laplace_hockey_stick(
    m1: ArrayLike, b1: ArrayLike, m2: ArrayLike, b2: ArrayLike, epsilon: ArrayLike
) -> NDArray[np.float64]:
    r"""``E_{e^ε}(P‖Q) = ∫ (p(x) − e^ε q(x))_+ dx`` for ``P = Lap(m1, b1)`` and ``Q = Lap(m2, b2)``.

    The smallest ``δ`` with ``P(R) ≤ e^ε Q(R) + δ`` for every event ``R``. On each of the three pieces cut
    by ``m1`` and ``m2`` the log-ratio ``log p − log q`` is linear in ``x``, so the set where it exceeds
    ``ε`` is an interval there, and the integral is a difference of Laplace distribution functions.
    Arrays broadcast, ``epsilon`` too.
    """
    m1, b1, m2, b2, epsilon = (
        np.asarray(v, dtype=float) for v in np.broadcast_arrays(m1, b1, m2, b2, epsilon)
    )
    if np.any(~(b1 > 0)) or np.any(~(b2 > 0)) or not np.all(epsilon >= 0):
        raise ParameterError("Laplace scales must be > 0 and epsilon ≥ 0")
    lo, hi = np.minimum(m1, m2), np.maximum(m1, m2)
    total = np.zeros(m1.shape)
    for a, b in ((np.full(m1.shape, -np.inf), lo), (lo, hi), (hi, np.full(m1.shape, np.inf))):
        inside = np.where(np.isinf(a), b - 1.0, np.where(np.isinf(b), a + 1.0, 0.5 * (a + b)))
        s1, s2 = np.sign(inside - m1), np.sign(inside - m2)
        slope = -s1 / b1 + s2 / b2  # log p − log q − ε = level + slope·x on the piece
        level = np.log(b2 / b1) - epsilon + s1 * m1 / b1 - s2 * m2 / b2
        with np.errstate(divide="ignore", invalid="ignore"):
            root = -level / slope
        left = np.where(slope > 0, np.maximum(a, root), a)
        right = np.where(slope < 0, np.minimum(b, root), b)
        flat = slope == 0
        left = np.where(flat, np.where(level > 0, a, b), left)
        right = np.where(flat, b, right)
        mass = (_laplace_cdf(right, m1, b1) - _laplace_cdf(left, m1, b1)) - np.exp(epsilon) * (
            _laplace_cdf(right, m2, b2) - _laplace_cdf(left, m2, b2)
        )
        total += np.where(right > left, np.maximum(mass, 0.0), 0.0)
    return total


def local_sensitivity(signals: ArrayLike) -> NDArray[np.float64]:
    """``LS(s) = max_{|s′ − s| ≤ 1, s′ > 0} |log s′ − log s|``: ``log(s/(s − 1))`` for ``s > 1``, ``inf``
    for ``s ≤ 1``."""
    s = np.asarray(signals, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(s > 1.0, np.log(s / np.maximum(s - 1.0, 1e-300)), np.inf)


def below_local_budget(delta: float) -> float:
    """The ε above which eq. 11's ``S*(s)`` is below the local sensitivity at every ``s``: ``S* ≥ LS``
    needs ``1/(eγ) ≥ s·LS(s) > 1``, that is ``ε ≤ 2 ln(2/δ)/e`` (3.90 at ``δ = 0.01``)."""
    if not 0 < delta < 1:
        raise ParameterError(f"delta must lie in (0, 1) (got {delta})")
    return float(2.0 * np.log(2.0 / delta) / np.e)


def location_budget(delta: float) -> float:
    """The ε above which the text's Signal-DP release moves, between adjacent large signals, by more than
    ``ε`` of its noise scales: the shift ``≈ 1/s`` over the scale ``2S*/ε = 4 ln(2/δ)/(e ε² s)`` exceeds
    ``ε`` when ``ε > 4 ln(2/δ)/e`` (7.80 at ``δ = 0.01``), and the release is then not ``(ε, δ)``-DP for
    any small δ, however large the signal."""
    return 2.0 * below_local_budget(delta)


def smoothness_threshold(epsilon: float, delta: float) -> float:
    """The signal below which eq. 11's ``S* ∝ 1/s`` is not β-smooth (``S*(s) > e^β S*(s + 1)``):
    ``1/(e^β − 1)`` with ``β = ε/(2 ln(2/δ))``."""
    if not (epsilon > 0 and 0 < delta < 1):
        raise ParameterError(f"epsilon must be > 0 and delta in (0, 1) (got {epsilon}, {delta})")
    return float(1.0 / np.expm1(epsilon / (2.0 * np.log(2.0 / delta))))


def release_delta(
    signals: ArrayLike,
    epsilon: float,
    *,
    delta: float,
    calibration: Calibration = "paper",
    neighbours: int = 33,
) -> NDArray[np.float64]:
    """For each signal ``s``: the smallest δ for which its Signal-DP release is ε-indistinguishable from
    the release at every adjacent signal on a grid.

    The adjacent signals are ``neighbours`` points evenly spaced over ``[max(s − 1, 0⁺), s + 1]``, ends
    included (for ``s ≤ 1`` the lower end is ``10⁻¹²·s``, standing for ``s′ → 0``); the result is the
    largest :func:`laplace_hockey_stick` over them, both ways. A maximum over a grid: a lower bound on
    the supremum over every adjacent signal (at most 0.1 % below it in the cases the tests compare).
    """
    if calibration not in CALIBRATIONS:
        raise ParameterError(f"calibration must be one of {CALIBRATIONS} (got {calibration!r})")
    s = np.asarray(signals, dtype=float).ravel()[:, None]
    smooth_sensitivity(s, epsilon, delta)  # validates the signals, ε and δ
    low = np.where(s > 1.0, s - 1.0, _NEAR_ZERO * s)
    other = low + (s + 1.0 - low) * np.linspace(0.0, 1.0, int(neighbours))[None, :]
    b = smooth_scales("signal", s, epsilon, delta=delta, calibration=calibration)
    b_other = smooth_scales("signal", other, epsilon, delta=delta, calibration=calibration)
    m, m_other = np.log(s), np.log(other)
    both = np.maximum(
        laplace_hockey_stick(m, b, m_other, b_other, epsilon),
        laplace_hockey_stick(m_other, b_other, m, b, epsilon),
    )
    return both.max(axis=1).reshape(np.shape(signals))


@dataclass(frozen=True)
class GuaranteeProfile:
    """How the (ε, δ) guarantee of the Signal-DP release fares on a set of readings.

    Attributes
    ----------
    readings
        How many readings.
    infinite_local
        Share with ``s ≤ 1``, whose local sensitivity is infinite.
    not_smooth
        Share below :func:`smoothness_threshold`.
    below_local
        Share where eq. 11's ``S*`` is below the local sensitivity.
    exceeded
        Share whose measured δ (:func:`release_delta`) exceeds the target δ.
    worst
        The largest measured δ (1 when a reading ``s ≤ 1`` is present: the release at ``s′ → 0`` is
        spread over the whole line).
    threshold
        The largest signal of the grid whose measured δ exceeds the target (``inf`` when every signal of
        the grid does, 0 when none does).
    """

    readings: int
    infinite_local: float
    not_smooth: float
    below_local: float
    exceeded: float
    worst: float
    threshold: float


def _share_above(x: NDArray[np.float64], grid: NDArray[np.float64], y: NDArray, level: float) -> float:
    """Share of the sorted values ``x`` (inside ``[grid[0], grid[-1]]``) where the piecewise-linear
    curve through ``(grid, y)`` exceeds ``level``: its crossings cut the line into intervals, whose
    readings are counted by bisection."""
    above = y > level
    cut = np.nonzero(above[:-1] != above[1:])[0]
    crossing = grid[cut] + (level - y[cut]) * (grid[cut + 1] - grid[cut]) / (y[cut + 1] - y[cut])
    edges = np.concatenate([grid[:1][above[:1]], crossing, grid[-1:][above[-1:]]])
    starts, ends = edges[0::2], edges[1::2]
    inside = np.searchsorted(x, ends, side="right") - np.searchsorted(x, starts, side="left")
    return float(inside.sum() / x.size)


def _below_local_threshold(epsilon: float, delta: float) -> float:
    """The signal below which eq. 11's ``S*`` is under the local sensitivity: ``S*(s) < LS(s)`` holds for
    ``s ≤ 1`` and for ``1 < s < s_b``, where ``s log(s/(s−1))`` (decreasing from ∞ to 1) equals
    ``2 ln(2/δ)/(e ε)``; ``inf`` when that constant is at most 1 (every signal)."""
    constant = 2.0 * np.log(2.0 / delta) / (np.e * epsilon)
    if constant <= 1.0:
        return float("inf")
    # in v = log(s − 1): (1 + e^v) log(1 + e^{−v}) falls from about −v → ∞ (v → −∞) to 1 (v → ∞)
    f = lambda v: (1.0 + np.exp(v)) * np.log1p(np.exp(-v)) - constant  # noqa: E731
    return float(1.0 + np.exp(optimize.brentq(f, -700.0, 60.0, xtol=1e-12)))


def guarantee_profiles(
    signals: ArrayLike,
    eps_values: Sequence[float],
    *,
    delta: float,
    calibrations: Sequence[Calibration] = ("paper", "authors_code"),
    grid: int = 512,
) -> dict[tuple[float, str], GuaranteeProfile]:
    """The :class:`GuaranteeProfile` of a set of readings at each ε and calibration, for the Signal-DP
    release at ``(ε, δ)``.

    The measured δ is computed on ``grid`` signals spaced evenly in ``log s`` over the readings' range
    (:func:`release_delta`) and read at each reading by linear interpolation in ``log s``: the readings
    share one curve, so a million of them cost what ``grid`` do (the readings are sorted once, and each
    share is counted by bisection).
    """
    x = np.sort(np.log(np.asarray(signals, dtype=float).ravel()))
    if x.size == 0 or not np.all(np.isfinite(x)):
        raise ParameterError("readings must be a non-empty set of finite signals > 0")
    lg = np.linspace(x[0], x[-1], int(grid)) if x[-1] > x[0] else np.array([x[0], x[0] + 1e-9])
    g = np.exp(lg)
    out: dict[tuple[float, str], GuaranteeProfile] = {}
    for eps in eps_values:
        smooth = np.log(smoothness_threshold(eps, delta))
        below = _below_local_threshold(eps, delta)
        shared = {
            "readings": int(x.size),
            "infinite_local": float(np.searchsorted(x, 0.0, side="right") / x.size),
            "not_smooth": float(np.searchsorted(x, smooth, side="left") / x.size),
            "below_local": 1.0 if np.isinf(below) else float(np.searchsorted(x, np.log(below)) / x.size),
        }
        for cal in calibrations:
            measured = release_delta(g, eps, delta=delta, calibration=cal)
            failing = g[measured > delta]
            if failing.size == 0:
                threshold = 0.0
            else:
                threshold = float("inf") if failing.size == g.size else float(failing.max())
            out[float(eps), cal] = GuaranteeProfile(
                **shared, exceeded=_share_above(x, lg, measured, delta), worst=float(measured.max()),
                threshold=threshold,
            )  # fmt: skip
    return out


def guarantee_profile(
    signals: ArrayLike, epsilon: float, *, delta: float, calibration: Calibration = "paper", grid: int = 512
) -> GuaranteeProfile:
    """:func:`guarantee_profiles` at one ``ε`` and one calibration."""
    return guarantee_profiles(signals, [epsilon], delta=delta, calibrations=[calibration], grid=grid)[
        float(epsilon), calibration
    ]
