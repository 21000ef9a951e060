"""Hypothesis testing (§4.2) and the lower bound (§13).

The GM test statistic, the centralised GLRT threshold, and lower bounds on ``K·T``. The distributed
tests (composite GLRT threshold, the paper's p-value) live in :mod:`dpnet.survival.private_tests`.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from dpnet.errors import ParameterError
from dpnet.inference._checks import _check_int, _check_pos, _check_prob, _check_rounds

__all__ = [
    "glrt_threshold_centralised",
    "gm_test_statistic",
    "kl_bound_rr",
    "kt_lower_bound",
    "kt_lower_bound_rr",
]


def gm_test_statistic(scaled: ArrayLike, *, null: int = 0, alt: int = 1) -> NDArray[np.float64]:
    r"""Prop 4.6's statistic ``S_i = (n/2^{T−1}) log(ν^GM_{i,T}(alt)/ν^GM_{i,T}(null))``, shape ``(..., n)``.

    With ``ψ_T = (A+I)^T ζ`` (``T`` counts updates, the book's reading: the paper does not say, and
    counting array entries instead changes the statistic by a factor 2) this is exactly
    ``2n · mean_k[ψ̄_{k,T}(alt) − ψ̄_{k,T}(null)] → 2 Z^GM`` (twice ``Λ(alt, null)`` plus averaged noise).
    The authors' notebook computes a quarter of this (it halves the local log-likelihood ratios and
    doubles ``T − 1`` times).
    """
    arr = _check_rounds(scaled)
    m = arr.shape[-1]
    if not (0 <= null < m and 0 <= alt < m and null != alt):
        raise ParameterError(f"null and alt must be distinct state indices in [0, {m}) (got {null}, {alt})")
    mean = arr.mean(axis=-3)
    return 2.0 * arr.shape[-2] * (mean[..., alt] - mean[..., null])


def glrt_threshold_centralised(alpha: float) -> float:
    """Centralised GLRT threshold ``F⁻¹_{χ²_1}(1 − α)``. ``α = 0.05``: 3.8415."""
    return float(stats.chi2.ppf(1.0 - _check_prob("alpha", alpha), 1))


def kt_lower_bound(
    alpha: float,
    beta: float,
    diameter: int,
    kl_sum: float,
    *,
    numerator: Literal["printed", "proof"] = "printed",
) -> float:
    r"""Thm 13.1: ``K·T ≥ c · diam(G) / (2 Σ_i D_KL(ℓ̂_i(·|1) ‖ ℓ̂_i(·|0)))``.

    ``numerator="printed"`` uses the published ``c = |1−α−β|``, which vanishes at the usual
    operating point ``β = 1 − α``. ``numerator="proof"`` uses ``c = (β − α)²``, what the proof's
    Pinsker step actually bounds (``P₁ − P₀ = β − α``).
    """
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    diameter = _check_int("diameter", diameter, 0)
    kl_sum = _check_pos("kl_sum", kl_sum)
    if numerator not in ("printed", "proof"):
        raise ParameterError(f"numerator must be 'printed' or 'proof' (got {numerator!r})")
    c = abs(1.0 - alpha - beta) if numerator == "printed" else (beta - alpha) ** 2
    return c * diameter / (2.0 * kl_sum)


def kl_bound_rr(eps: float, eps_gap: float) -> float:
    r"""§13 remark: ``D_KL(P₁‖P₀) ≤ ε_gap² (1 − 2p_ε)² = ε_gap² tanh²(ε/2)`` per agent.

    ``P₀``, ``P₁`` are the laws of one randomized-response report (flip probability
    ``p_ε = 1/(1 + e^ε)``) of a ``Be(1/2)`` and a ``Be(1/2 + ε_gap/2)`` signal; ``1 − 2p_ε = tanh(ε/2)``.
    """
    eps, eps_gap = _check_pos("eps", eps), _check_pos("eps_gap", eps_gap)
    return eps_gap**2 * math.tanh(eps / 2.0) ** 2


def kt_lower_bound_rr(
    alpha: float,
    beta: float,
    eps: float,
    eps_gap: float,
    diameter: int,
    n: int,
    *,
    numerator: Literal["printed", "proof"] = "printed",
) -> float:
    r"""§13 remark (randomized response, ``Be(1/2)`` vs ``Be(1/2 + ε_gap/2)``), as printed.

    .. math:: K T \ge \frac{2|1-\alpha-\beta|}{\varepsilon_{gap}^2}
       \Bigl(\frac{e^\varepsilon + 1}{e^\varepsilon - 1}\Bigr)^2 \frac{\mathrm{diam}(G)}{n}.

    This is 4 times :func:`kt_lower_bound` (printed numerator) with ``Σ_i D_KL = n`` :func:`kl_bound_rr`:
    ``|1−α−β| diam / (2 n ε_gap² tanh²(ε/2))``. It grows like ``coth²(ε/2)``, which is ``≈ 4/ε²`` only
    for small ε and tends to 1 for large ε. ``numerator="proof"`` puts the proof's ``(β − α)²`` in place
    of ``|1 − α − β|`` (as :func:`kt_lower_bound` does), so that the two can be compared where the printed
    numerator vanishes (``β = 1 − α``).
    """
    alpha, beta = _check_prob("alpha", alpha), _check_prob("beta", beta)
    eps, eps_gap = _check_pos("eps", eps), _check_pos("eps_gap", eps_gap)
    if numerator not in ("printed", "proof"):
        raise ParameterError(f"numerator must be 'printed' or 'proof' (got {numerator!r})")
    c = abs(1 - alpha - beta) if numerator == "printed" else (beta - alpha) ** 2
    ratio = 1.0 / math.tanh(eps / 2.0)  # (e^ε + 1)/(e^ε − 1)
    return 2 * c / eps_gap**2 * ratio**2 * _check_int("diameter", diameter, 0) / _check_int("n", n, 1)
