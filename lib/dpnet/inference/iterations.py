"""Iterations ``T`` (Thms 4.2, 4.5; authors' code) and optimal thresholds.

The consensus and mixing terms, the mixing constants ``c`` of AM, GM and the two-threshold rule, and
the optimal thresholds ``ϱ*``.
"""

from __future__ import annotations

import math

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_a_star, _check_int, _check_pos, _check_prob
from dpnet.inference.rounds import to_int_ceil

__all__ = [
    "consensus_iterations",
    "iterations_authors_code",
    "iterations_bound",
    "mixing_constant_am",
    "mixing_constant_gm",
    "mixing_constant_thres",
    "mixing_iterations",
    "optimal_rho",
]


def consensus_iterations(rho: float, *, n: int, gap: float) -> float:
    r"""First term of every finite-T bound: ``log(2ϱn/l)/log 2`` (the ``2^T Λ/n`` term must exceed ϱ)."""
    rho, gap = _check_pos("rho", rho), _check_pos("gap (l)", gap)
    n = _check_int("n (agents)", n, 1)
    return math.log(2 * rho * n / gap) / math.log(2.0)


def mixing_iterations(c: float, rho: float, *, a_star: float) -> float:
    r"""Second term: ``log(c/ϱ)/log(1/a*)`` (the residual ``(a*)^T c`` must fall below ϱ).

    ``a* = 0`` (e.g. two agents) mixes in one step: 0. ``c = 0`` (one agent): ``−inf``.
    """
    rho = _check_pos("rho", rho)
    if not (c >= 0 and math.isfinite(c)):
        raise ParameterError(f"c (mixing constant) must be finite and ≥ 0 (got {c})")
    a_star = _check_a_star(a_star)
    if c == 0:
        return -math.inf
    if a_star == 0:
        return 0.0
    return math.log(c / rho) / math.log(1.0 / a_star)


def _nGV(n: int, gamma: float, V: float, n_states: int) -> float:
    n = _check_int("n (agents)", n, 1)
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    if not (gamma >= 0 and V >= 0 and math.isfinite(gamma) and math.isfinite(V)):
        raise ParameterError(f"gamma (Γ) and V must be finite and ≥ 0 (got {gamma}, {V})")
    return n_states**2 * (n - 1) * (n * gamma + V)


def mixing_constant_am(*, n_states: int, n: int, K: int, gamma: float, V: float, beta: float) -> float:
    r"""Thm 4.2 (AM): ``c = |Θ|²(n−1)K(nΓ+V) / (2 log(1/(1−β)))`` (printed ``log(1/1−β)``)."""
    K = _check_int("K (rounds)", K, 1)
    return _nGV(n, gamma, V, n_states) * K / (2 * math.log(1.0 / (1.0 - _check_prob("beta", beta))))


def mixing_constant_gm(*, n_states: int, n: int, K: int, gamma: float, V: float, alpha: float) -> float:
    r"""Thm 4.2 (GM): ``c = |Θ|²(n−1)(nΓ+V) / (2α√K)``."""
    K = _check_int("K (rounds)", K, 1)
    return _nGV(n, gamma, V, n_states) / (2 * _check_prob("alpha", alpha) * math.sqrt(K))


def mixing_constant_thres(*, n_states: int, n: int, gamma: float, V: float, q: float) -> float:
    r"""Thm 4.5: ``c = |Θ|²(n−1)(nΓ+V) / (2q)``, ``q = q₁`` (Type I set) or ``q = 1 − q₂`` (Type II set).

    The theorem statement; its proof drops the 2 in the Type I term.
    """
    return _nGV(n, gamma, V, n_states) / (2 * _check_prob("q", q))


def iterations_bound(c: float, rho: float, *, n: int, gap: float, a_star: float) -> float:
    r"""``T ≥ max{log(2ϱn/l)/log 2, log(c/ϱ)/log(1/a*)}`` (Thms 4.2, 4.5), real-valued."""
    return max(consensus_iterations(rho, n=n, gap=gap), mixing_iterations(c, rho, a_star=a_star))


def optimal_rho(c: float, *, n: int, gap: float, a_star: float) -> float:
    r"""The ϱ that makes the two terms of :func:`iterations_bound` equal (Thm 4.2 remark).

    .. math:: \varrho^\star = c^{\gamma_e} \Bigl(\frac{l}{2n}\Bigr)^{\omega}, \qquad
       \gamma_e = \frac{\log 2}{\log(2/a^\star)}, \quad \omega = \frac{\log(1/a^\star)}{\log(2/a^\star)}.

    With the AM and GM constants this is the paper's ``ϱ*_AM``, ``ϱ*_GM``. The paper's two-threshold
    ``ϱ*_thres`` divides ``c`` by ``√K`` although Thm 4.5's T terms carry no ``√K`` (both papers);
    :func:`~dpnet.inference.schedules.schedule_thm45` follows the paper, so its two terms agree only for
    ``K = 1``.
    """
    if not (c > 0 and math.isfinite(c)):
        raise ParameterError(f"c (mixing constant) must be finite and > 0 (got {c})")
    gap = _check_pos("gap (l)", gap)
    n = _check_int("n (agents)", n, 1)
    if _check_a_star(a_star) == 0:
        return gap / (2 * n)
    denom = math.log(2.0 / a_star)
    return math.exp((math.log(2.0) * math.log(c) + math.log(1.0 / a_star) * math.log(gap / (2 * n))) / denom)


def iterations_authors_code(
    *,
    n_states: int,
    n: int,
    gamma: float,
    gap: float,
    a_star: float,
    delta: float,
    eps: float,
    rho: float,
    eta: float,
) -> int:
    r"""The authors' notebook: ``T = ⌈|Θ| max{log(n/l), log(|Θ|(Γ + Δ/ε)/(ϱη))/log(1/a*)}⌉``.

    The second term is :func:`mixing_iterations` with ``c = |Θ|(Γ + Δ/ε)/η``.

    ACTG (legacy likelihood, ``n = 5``, ``Γ ≈ 1008``, ``l = 276.2``, ``Δ = 2 ln 2``, ``ε = 1``, ``ϱ = 1.5``,
    ``η = 0.05``, complete graph): ``T = 21``.
    """
    n_states = _check_int("n_states (|Θ|)", n_states, 2)
    n = _check_int("n (agents)", n, 1)
    gap, delta, eps, rho = (
        _check_pos(k, v) for k, v in (("gap", gap), ("delta", delta), ("eps", eps), ("rho", rho))
    )
    eta = _check_prob("eta", eta)
    if not (gamma >= 0 and math.isfinite(gamma)):
        raise ParameterError(f"gamma (Γ) must be finite and ≥ 0 (got {gamma})")
    mix = mixing_iterations(n_states * (gamma + delta / eps) / eta, rho, a_star=a_star)
    # at least one iteration: on two centres (a* = 0, exact consensus in one step) with a gap above n,
    # both terms are ≤ 0, and a run of zero iterations is not a run
    return to_int_ceil(n_states * max(math.log(n / gap), mix), minimum=1)
