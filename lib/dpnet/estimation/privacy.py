r"""Noise scales of paper 001's mechanisms: global sensitivity, smooth sensitivity, two calibrations.

Every mechanism adds Laplace noise ``d ~ Lap(b)`` (scale ``b``, variance ``2b²``) to what an agent
sends. With a global sensitivity ``Δ = sup_s |ξ'(s)|`` (:func:`laplace_scales`):

* **Signal DP** protects the agent's own signal: ``b = Δ/ε``;
* **Network DP** also protects the estimates received from neighbours, whose largest weight is
  ``a_i = max_{j∈N_i} a_ij`` (:func:`dpnet.networks.neighbour_weights`): ``b_i = max(Δ, a_i)/ε``.

For ``ξ = log s`` the global sensitivity is unbounded, and the paper calibrates to the γ-smooth
sensitivity of Nissim, Raskhodnikova and Smith, ``S*(s) = 2 ln(2/δ)/(e ε s)`` (eq. 11,
:func:`smooth_sensitivity`), and states that this gives (ε, δ)-DP. On real readings it does not
everywhere: the local sensitivity of ``log s`` under ``|s − s′| ≤ 1`` is infinite for ``s ≤ 1``, and
``S*`` is neither an upper bound on it nor β-smooth for small ``s`` (nor, for ``ε > 2 ln(2/δ)/e``, an
upper bound anywhere). :mod:`dpnet.estimation.guarantee` measures where and by how much the guarantee
fails. :func:`smooth_scales` offers two calibrations:

==============================  ==============================  ==========================
calibration                     Signal DP ``b``                 Network DP ``b_i``
==============================  ==============================  ==========================
``calibration="paper"``         ``2 S*(s)/ε`` (Nissim et al.)   ``2 max(a_i, S*(s))/ε``
``calibration="authors_code"``  ``2 S*(s)``                     ``max(2 a_i/ε, 2 S*(s))``
==============================  ==============================  ==========================

The text prescribes the first; the authors' code (``smooth_sensitivity_lognormal``, commit
``7659bf4``, whose script made the sample paths of Figures 3–6) omits one factor ``1/ε`` and so scales
as ``1/ε`` instead of ``1/ε²``. The two agree at ``ε = 1``. The published Figure 7 was last scripted
with the code of commit ``9e83092``, which used this scale as the *location* of the noise
(:func:`~dpnet.estimation.experiments.located_noise_errors`).
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.mechanisms import laplace_scale
from dpnet.params import real

__all__ = [
    "CALIBRATIONS",
    "MECHANISMS",
    "Calibration",
    "Mechanism",
    "laplace_scales",
    "sensitivity_sets_scale",
    "smooth_scales",
    "smooth_sensitivity",
]

Mechanism = Literal["signal", "network"]
Calibration = Literal["paper", "authors_code"]
#: Signal DP and Network DP.
MECHANISMS: tuple[str, ...] = get_args(Mechanism)
#: The two smooth-sensitivity calibrations.
CALIBRATIONS: tuple[str, ...] = get_args(Calibration)


_POSITIVE = real(gt=0.0)  # a finite, strictly positive scalar


def _check_mechanism(mechanism: str) -> None:
    if mechanism not in MECHANISMS:
        raise ParameterError(f"mechanism must be one of {MECHANISMS} (got {mechanism!r})")


def laplace_scales(
    mechanism: Mechanism, sensitivity: float, epsilon: float, a: ArrayLike | None = None
) -> NDArray[np.float64]:
    """Laplace scales with a global sensitivity ``Δ``: ``Δ/ε`` (Signal) or ``max(Δ, a_i)/ε`` (Network).

    Parameters
    ----------
    mechanism
        ``"signal"`` or ``"network"``.
    sensitivity
        Global sensitivity ``Δ > 0`` of the sufficient statistic.
    epsilon
        Privacy budget ``ε > 0``.
    a
        Largest neighbour weights ``a_i`` (:func:`dpnet.networks.neighbour_weights`), one per
        agent: required for Network DP; for Signal DP it only sets the output's shape.

    Returns
    -------
    numpy.ndarray
        One scale per agent (a 0-d array for Signal DP without ``a``).
    """
    _check_mechanism(mechanism)
    delta = _POSITIVE("sensitivity", sensitivity)
    eps = _POSITIVE("epsilon", epsilon)
    if mechanism == "network":
        if a is None:
            raise ParameterError("Network DP needs the neighbour weights a (see neighbour_weights)")
        return np.maximum(delta, np.asarray(a, dtype=float)) / eps
    shape = () if a is None else np.shape(a)
    return np.full(shape, laplace_scale(delta, eps))


def smooth_sensitivity(signals: ArrayLike, epsilon: float, delta: float) -> NDArray[np.float64]:
    r"""γ-smooth sensitivity of ``ξ = log s`` at each signal (paper 001, eq. 11).

    .. math::
       S^*(s) = \max_{k > 0} e^{-\gamma k}\,\frac{k}{s} = \frac{1}{e\gamma s}
              = \frac{2\ln(2/\delta)}{e\,\varepsilon\,s},
       \qquad \gamma = \frac{\varepsilon}{2\ln(2/\delta)}.

    Parameters
    ----------
    signals
        Positive signals ``s``.
    epsilon
        Privacy budget ``ε > 0``.
    delta
        Failure probability ``δ ∈ (0, 1)`` of (ε, δ)-DP (the paper uses 0.01).
    """
    s = np.asarray(signals, dtype=float)
    if not np.all(np.isfinite(s) & (s > 0)):
        raise ParameterError("signals must be finite and > 0 (ξ = log s)")
    eps = _POSITIVE("epsilon", epsilon)
    if not 0.0 < float(delta) < 1.0:
        raise ParameterError(f"delta must lie in (0, 1) (got {delta})")
    return 2.0 * np.log(2.0 / float(delta)) / (np.e * eps * s)


def _per_agent(a: ArrayLike, s_star: NDArray[np.float64]) -> NDArray[np.float64]:
    """The neighbour weights ``a_i``, one per agent, shaped to broadcast against ``S*`` of ``(n,)`` or
    ``(n, T)`` signals."""
    a_i = np.asarray(a, dtype=float)
    if a_i.shape != s_star.shape[:1]:
        raise ParameterError(f"a must hold one weight per agent, shape {s_star.shape[:1]} (got {a_i.shape})")
    return a_i.reshape(a_i.shape + (1,) * (s_star.ndim - 1))


def smooth_scales(
    mechanism: Mechanism,
    signals: ArrayLike,
    epsilon: float,
    *,
    delta: float,
    a: ArrayLike | None = None,
    calibration: Calibration = "paper",
) -> NDArray[np.float64]:
    """Laplace scales from the smooth sensitivity, under either calibration (module table).

    Parameters
    ----------
    mechanism
        ``"signal"`` or ``"network"``.
    signals
        Each agent's current signal(s), shape ``(n,)`` or ``(n, T)``.
    epsilon, delta
        The (ε, δ) budget.
    a
        Largest neighbour weights ``a_i``, shape ``(n,)`` (Network DP only).
    calibration
        ``"paper"`` (the text, the default) or ``"authors_code"`` (the published figures).

    Returns
    -------
    numpy.ndarray
        Scales of the same shape as ``signals``.
    """
    _check_mechanism(mechanism)
    if calibration not in CALIBRATIONS:
        raise ParameterError(f"calibration must be one of {CALIBRATIONS} (got {calibration!r})")
    eps = _POSITIVE("epsilon", epsilon)
    s_star = smooth_sensitivity(signals, eps, delta)
    if mechanism == "signal":
        return 2.0 * s_star / eps if calibration == "paper" else 2.0 * s_star
    if a is None:
        raise ParameterError("Network DP needs the neighbour weights a (see neighbour_weights)")
    a_i = _per_agent(a, s_star)
    if calibration == "paper":
        return 2.0 * np.maximum(a_i, s_star) / eps
    return np.maximum(2.0 * a_i / eps, 2.0 * s_star)


def sensitivity_sets_scale(
    signals: ArrayLike,
    epsilon: float,
    *,
    delta: float,
    a: ArrayLike,
    calibration: Calibration = "paper",
) -> NDArray[np.bool_]:
    """Where the signal's smooth sensitivity, not the neighbour weight, sets the Network-DP scale.

    The Network-DP scale of :func:`smooth_scales` is the larger of a neighbour-weight term and a
    smooth-sensitivity term: ``2 max(a_i, S*)/ε`` (``"paper"``) or ``max(2 a_i/ε, 2 S*)``
    (``"authors_code"``). This says which one wins, agent by agent (and round by round for ``(n, T)``
    signals): ``True`` where the sensitivity term is the larger.
    """
    if calibration not in CALIBRATIONS:
        raise ParameterError(f"calibration must be one of {CALIBRATIONS} (got {calibration!r})")
    eps = _POSITIVE("epsilon", epsilon)
    s_star = smooth_sensitivity(signals, eps, delta)
    a_i = _per_agent(a, s_star)
    return s_star > a_i if calibration == "paper" else s_star > a_i / eps
