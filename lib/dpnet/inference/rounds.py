"""Rounds ``K`` (Thms 4.1, 4.3, 4.5, Cor 4.4; authors' code).

The real-valued requirements on ``K``, Cor 4.4's exact-recovery condition, and :func:`to_int_ceil`,
which rounds the requirements on ``K`` and ``T`` up.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_pos, _check_prob, _check_states

__all__ = [
    "exact_recovery_boundaries",
    "exact_recovery_feasible",
    "rounds_am",
    "rounds_authors_code",
    "rounds_gm",
    "rounds_thres",
    "rounds_thres2_exact",
    "rounds_thres_chernoff",
    "rounds_thres_hoeffding",
    "rounds_unknown_mle",
    "to_int_ceil",
    "win_probabilities",
    "win_probabilities_corrected",
]


_CEIL_SLACK = 1e-9


def to_int_ceil(x: float, *, minimum: int = 0) -> int:
    """Smallest integer ``≥ x`` (and ``≥ minimum``), forgiving a relative rounding error of ``1e-9``.

    ``K ≥ 5.99146`` gives 6; a value that is an integer up to rounding (``6.000000000001``) gives 6.
    """
    if math.isnan(x):
        raise ParameterError("cannot round NaN up to an integer")
    if x == -math.inf:
        return minimum
    if not math.isfinite(x):
        raise ParameterError(f"cannot round {x} up to an integer")
    return max(minimum, math.ceil(x - _CEIL_SLACK * max(1.0, abs(x))))


def rounds_am(n_states: int, n_mle: int, beta: float, *, corrected: bool = False) -> float:
    r"""AM rounds, Thms 4.1–4.2: ``K ≥ |Θ̄| log(|Θ*|/(1−β))`` (real-valued; round up with :func:`to_int_ceil`).

    The proof's per-round win probability ``1/|Θ̄|`` should be ``1/|Θ|`` (the same slip in both papers):
    ``corrected=True`` returns ``|Θ| log(|Θ*|/(1−β))``. ``|Θ| = 3``, ``|Θ*| = 1``, ``1−β = 0.05``:
    5.99146.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    miss = 1.0 - _check_prob("beta", beta)
    factor = n_states if corrected else n_states - n_mle
    return factor * math.log(n_mle / miss)


def rounds_gm(n_states: int, n_mle: int, alpha: float, *, corrected: bool = False) -> float:
    r"""GM rounds, Thms 4.1–4.2: ``K ≥ |Θ*| log(|Θ̄|/α)`` (0 when ``Θ̄ = ∅``).

    ``corrected=True`` uses ``|Θ*| + 1``: a non-MLE state loses a round with probability at least
    ``1/(|Θ*|+1)``, not ``1/|Θ*|``. Both bound the proof's estimator (a state must
    keep a positive belief in every round); the implemented GM (softmax of the mean log-beliefs) has
    no such guarantee when the noise swamps the gap (see :func:`~dpnet.inference.aggregation.gm_log_beliefs`).
    ``|Θ| = 3``, ``|Θ*| = 1``, ``α = 0.05``: 3.68888.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    alpha = _check_prob("alpha", alpha)
    if n_mle == n_states:
        return 0.0
    return (n_mle + 1 if corrected else n_mle) * math.log((n_states - n_mle) / alpha)


def rounds_unknown_mle(n_states: int, alpha: float, beta: float) -> float:
    r"""Rounds when ``|Θ*|`` is unknown (Thm 4.1 remark): ``K ≥ |Θ| log(|Θ|/min{α, 1−β})``."""
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    eta = min(_check_prob("alpha", alpha), 1.0 - _check_prob("beta", beta))
    return n_states * math.log(n_states / eta)


def rounds_authors_code(n_states: int, eta: float) -> int:
    r"""The authors' notebook: ``K = ⌈|Θ| log(|Θ|/η)⌉``, ``η = max{α, 1−β}``.

    ``|Θ| = 2``: 8, 9, 6 for ``η = 0.05, 0.025, 0.1``.
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    eta = _check_prob("eta", eta)
    return to_int_ceil(n_states * math.log(n_states / eta), minimum=1)


def rounds_thres(
    n_states: int,
    n_mle: int,
    alpha: float,
    beta: float,
    pi1: float,
    pi2: float,
    *,
    mle_count_known: bool = True,
) -> tuple[float, float]:
    r"""Two-threshold rounds (Thms 4.3, 4.5): ``(K¹, K²)``, real-valued.

    Known ``|Θ*|``: ``K¹ = log(|Θ̄|/α)/(2π₁²)`` (Type I set) and ``K² = log(|Θ*|/(1−β))/(2π₂²)``
    (Type II set), the theorem statements (the proof of Thm 4.5 has ``|Θ*|`` in ``K¹``). Unknown
    ``|Θ*|``: ``|Θ|`` replaces ``|Θ̄|`` and ``|Θ*|``. ``|Θ| = 3``, ``|Θ*| = 1``, ``α = 1−β = 0.05``,
    ``π = 0.5``: ``(7.37776, 5.99146)``.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    pi1, pi2 = _check_pos("pi1", pi1), _check_pos("pi2", pi2)
    if pi2 >= 1:
        raise ParameterError(f"pi2 must lie in (0, 1) so that τ² = (1 − π₂)p₂ > 0 (got {pi2})")
    bad, good = (n_states, n_states) if not mle_count_known else (n_states - n_mle, n_mle)
    k1 = math.log(bad / alpha) / (2 * pi1**2) if bad > 0 else 0.0
    k2 = math.log(good / (1.0 - beta)) / (2 * pi2**2)
    return k1, k2


def win_probabilities(
    n_states: int, n_mle: int, *, mle_count_known: bool = True, corrected: bool = False
) -> tuple[float, float]:
    r"""Thm 4.3's ``(p₁, p₂)``: ``p₁ = 1 − 1/|Θ*|`` and ``p₂ = 1/|Θ̄|``.

    ``p₂`` is the proof's lower bound on the per-round win probability of an MLE state and ``p₁`` its
    upper bound for a non-MLE state; the thresholds are ``τ¹ = (1+π₁)p₁`` and ``τ² = (1−π₂)p₂``.
    Unknown ``|Θ*|``: ``1 − 1/|Θ|`` and ``1/|Θ|``. ``p₂ = 1/|Θ̄|`` has Thm 4.1's win-probability slip:
    when the noise swamps the gap the ``|Θ|`` states are exchangeable and an MLE state wins with
    probability ``1/|Θ|``. ``corrected=True`` returns ``p₂ = 1/|Θ|``. ``|Θ| = 3``, ``|Θ*| = 1``:
    ``(0, 1/2)``, corrected ``(0, 1/3)``.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    if not mle_count_known:
        return 1.0 - 1.0 / n_states, 1.0 / n_states
    if n_mle == n_states:
        raise ParameterError("the two-threshold rule needs at least one non-MLE state (|Θ*| < |Θ|)")
    return 1.0 - 1.0 / n_mle, 1.0 / (n_states if corrected else n_states - n_mle)


def win_probabilities_corrected(n_states: int, n_mle: int) -> tuple[float, float]:
    r"""Thm 4.3's ``(p₁, p₂)`` with the proofs' win-probability step corrected: ``(|Θ*|/(|Θ*|+1), 1/|Θ|)``.

    ``p₂``: when the noise swamps the gap the ``|Θ|`` noisy log-likelihoods are exchangeable, and an MLE
    state wins a round with probability at least ``1/|Θ|``. ``p₁``: the proofs bound the probability
    that a non-MLE state loses a round by the probability that it falls below every MLE state, which is
    ``1/(|Θ*|+1)`` for ``|Θ*| + 1`` exchangeable variables (not ``1/|Θ*|``), so it wins at most a
    fraction ``1 − 1/(|Θ*|+1)`` of the rounds. The same correction gives the corrected GM rounds
    (:func:`rounds_gm`). Then ``p₁ ≥ 1/2 ≥ p₂``: Cor 4.4's condition ``p₂ > p₁`` never holds.
    ``|Θ| = 4``, ``|Θ*| = 1``: ``(1/2, 1/4)``.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    if n_mle == n_states:
        raise ParameterError("the two-threshold rule needs at least one non-MLE state (|Θ*| < |Θ|)")
    return n_mle / (n_mle + 1.0), 1.0 / n_states


def _check_thres(
    n_states: int, n_mle: int, alpha: float, beta: float, pi1: float, pi2: float, p1: float, p2: float
) -> tuple[int, int, float, float, float, float]:
    """The two-threshold rounds' arguments, checked: ``(n_states, n_mle, alpha, beta, pi1, pi2)``."""
    n_states, n_mle = _check_states(n_states, n_mle)
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    pi1, pi2 = _check_pos("pi1", pi1), _check_pos("pi2", pi2)
    for name, value in (("p1", p1), ("p2", p2)):
        if not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
            raise ParameterError(f"{name} must lie in the closed interval [0, 1] (got {value})")
    if pi2 >= 1:
        raise ParameterError(f"pi2 must lie in (0, 1) so that τ² = (1 − π₂)p₂ > 0 (got {pi2})")
    return n_states, n_mle, alpha, beta, pi1, pi2


def rounds_thres_hoeffding(
    n_states: int, n_mle: int, alpha: float, beta: float, pi1: float, pi2: float, p1: float, p2: float
) -> tuple[float, float]:
    r"""Two-threshold rounds ``(K¹, K²)`` with Hoeffding's inequality applied to the thresholds as set.

    The proofs of Thm 4.3 (and 4.5, Cor 4.4) bound ``P[N ≥ (1+π₁)p₁]`` and ``P[N ≤ (1−π₂)p₂]`` by
    ``e^{−2Kπ²}``; a deviation of ``π p`` from a mean of at most (at least) ``p`` gives
    ``e^{−2Kπ²p²}``, so ``K¹ = log(|Θ̄|/α)/(2π₁²p₁²)`` and ``K² = log(|Θ*|/(1−β))/(2π₂²p₂²)``
    (``K¹ = ∞`` when ``p₁ = 0``: no number of rounds controls a deviation of 0). With the corrected
    ``p₁ = 1/2``, ``p₂ = 1/4`` (:func:`win_probabilities_corrected`), ``|Θ| = 4``, ``|Θ*| = 1``,
    ``α = 1−β = 0.05``, ``π = 0.5``: ``(32.7548, 95.8634)``.
    """
    n_states, n_mle, alpha, beta, pi1, pi2 = _check_thres(n_states, n_mle, alpha, beta, pi1, pi2, p1, p2)
    bad = n_states - n_mle
    k1 = 0.0 if bad == 0 else math.inf if p1 == 0 else math.log(bad / alpha) / (2 * (pi1 * p1) ** 2)
    k2 = math.inf if p2 == 0 else math.log(n_mle / (1.0 - beta)) / (2 * (pi2 * p2) ** 2)
    return k1, k2


def rounds_thres_chernoff(
    n_states: int, n_mle: int, alpha: float, beta: float, pi1: float, pi2: float, p1: float, p2: float
) -> tuple[float, float]:
    r"""Two-threshold rounds ``(K¹, K²)`` from the multiplicative Chernoff bounds, which step (v) of the
    proof of Thm 4.3 names.

    For a mean ``KN`` of at most ``Kp₁`` (at least ``Kp₂``), ``P[N ≥ (1+π₁)p₁] ≤ e^{−Kπ₁²p₁/(2+π₁)}`` and
    ``P[N ≤ (1−π₂)p₂] ≤ e^{−Kπ₂²p₂/2}``, so ``K¹ = (2+π₁) log(|Θ̄|/α)/(π₁²p₁)`` and
    ``K² = 2 log(|Θ*|/(1−β))/(π₂²p₂)``: a factor ``1/p`` where Hoeffding's inequality
    (:func:`rounds_thres_hoeffding`) needs ``1/p²``. With the corrected ``p₁ = 1/2``, ``p₂ = 1/|Θ|``,
    ``|Θ*| = 1``, ``α = 1−β = 0.05`` and ``π = 0.5``: ``(81.8869, 95.8634)`` for ``|Θ| = 4`` (where
    ``2/p₂ = 1/(2p₂²)``) and ``(118.803, 479.317)`` for ``|Θ| = 20``.
    """
    n_states, n_mle, alpha, beta, pi1, pi2 = _check_thres(n_states, n_mle, alpha, beta, pi1, pi2, p1, p2)
    bad = n_states - n_mle
    k1 = 0.0 if bad == 0 else math.inf if p1 == 0 else (2 + pi1) * math.log(bad / alpha) / (pi1**2 * p1)
    k2 = math.inf if p2 == 0 else 2 * math.log(n_mle / (1.0 - beta)) / (pi2**2 * p2)
    return k1, k2


def rounds_thres2_exact(n_states: int, beta: float, tau2: float) -> int:
    r"""The rounds Θ̂² = ``{N ≥ τ²}`` needs at zero gap with ``|Θ*| = 1``, exactly: the smallest ``K`` from
    which ``P[Bin(K, 1/|Θ|) < ⌈τ²K⌉] ≤ 1 − β`` for every larger ``K``.

    At zero gap θ* wins each round with probability ``1/|Θ|`` (exchangeable noise), the smallest its win
    probability can be, and Θ̂² misses it when it wins fewer than ``⌈τ²K⌉`` rounds. The miss is not
    monotone in ``K`` (the count is rounded up), hence "every larger ``K``": beyond the multiplicative
    Chernoff bound's ``K`` (:func:`rounds_thres_chernoff`) the miss stays below ``1 − β``, so the search
    stops there. ``|Θ| = 4``, ``β = 0.95``: ``τ² = 1/8`` needs 34 rounds, ``τ² = 1/6`` 74; ``|Θ| = 20``,
    ``τ² = 1/40``: 208.
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    beta = _check_prob("beta", beta)
    p = 1.0 / n_states
    if not 0.0 < tau2 < p:
        raise ParameterError(f"tau2 must lie in (0, 1/|Θ|) = (0, {p:.4g}) (got {tau2})")
    pi = 1.0 - tau2 / p
    top = to_int_ceil(rounds_thres_chernoff(n_states, 1, 0.5, beta, 0.5, pi, 0.5, p)[1], minimum=1)
    K = np.arange(1, top + 1)
    need = np.ceil(tau2 * K - _CEIL_SLACK)
    miss = stats.binom.cdf(need - 1, K, p)
    bad = K[miss > 1.0 - beta]
    return int(bad[-1] + 1) if bad.size else 1


def exact_recovery_feasible(n_states: int, n_mle: int) -> bool:
    r"""Cor 4.4's condition ``p₂ > p₁``, i.e. ``f*(1 − f*) < 1/|Θ|`` with ``f* = |Θ*|/|Θ|`` and ``Θ̄ ≠ ∅``.

    The corollary's "any ``f*`` when ``|Θ| ≤ 4``" misses the boundary ``|Θ| = 4``, ``|Θ*| = 2`` (then
    ``p₁ = p₂ = 1/2``) and ``f* = 1`` (``Θ̄ = ∅``); both are infeasible here.
    """
    n_states, n_mle = _check_states(n_states, n_mle)
    if n_mle == n_states:
        return False
    p1, p2 = win_probabilities(n_states, n_mle)
    return p2 > p1


def exact_recovery_boundaries(n_states: int) -> tuple[float, float]:
    r"""Cor 4.4's density boundaries ``½ ∓ ½ sqrt((|Θ|−4)/|Θ|)`` (``|Θ| > 4``): feasible iff ``f*`` outside.

    ``|Θ| = 5``: (0.276393, 0.723607); ``10``: (0.112702, 0.887298); ``20``: (0.052786, 0.947214).
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 5)
    half = 0.5 * math.sqrt((n_states - 4) / n_states)
    return 0.5 - half, 0.5 + half
