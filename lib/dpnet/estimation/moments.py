r"""Exact second moments of Algorithms 3–5 and the error bounds of Theorems 3.1, 4.1 and 4.2.

For i.i.d. statistics with ``Var ξ = σ²`` and independent zero-mean noise of homogeneous variance
``V = 2b²``, the errors are quadratic forms in the eigenvalues ``1 = λ_1 > λ_2 ≥ … ≥ λ_n > −1`` of
``A`` (derived for this book, not in the paper; the reproduction note ``note-est-exact-moments``):

* Algorithm 3 after ``t`` steps: ``E‖ν_t − μ_t‖² = V Σ_i λ_i^{2t}``, ``E‖μ_t − 𝟙m̂‖² = σ² Σ_{i≥2} λ_i^{2t}``;
* Algorithm 4: ``E‖ν_t − μ_t‖² = (V/t²) Σ_i (1 − λ_i^{2t})/(1 − λ_i²)`` (the ``λ = 1`` term is ``t``),
  and ``E‖μ_t − 𝟙m_θ‖²`` is the same with ``σ²``;
* Algorithm 5: ``V Σ_i Σ_{τ≤t} g_i(τ, t)²`` with ``g_i(τ, t) = (1/τ) Π_{k=τ+1}^{t} (1 + (λ_i − 2)/k)``;
* fresh noise every round (the naive MVUE): ``V Σ_i (1 − λ_i^{2t})/(1 − λ_i²)``, unbounded in ``t``.

Each ``*_moments`` function returns ``(E‖ν_t − μ_t‖², E‖μ_t − 𝟙m‖²)`` (cost of privacy and of
decentralisation, squared) for ``V = σ² = 1``; multiply by the actual ``V`` and ``σ²``. They are the
oracles of the simulator's tests.

The theorem bounds (:func:`theorem31_bound`, :func:`theorem41_bound`, :func:`theorem42_bound`) bound
``E‖ν_t − 𝟙m‖₂``; they are valid but loose, by orders of magnitude on large sparse graphs.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from dpnet.errors import ParameterError

__all__ = [
    "decentralisation_curve",
    "mvue_cop_rms",
    "mvue_moments",
    "mvue_noise_gains",
    "naive_noise_moment",
    "ol_network_moments",
    "ol_signal_moments",
    "theorem31_bound",
    "theorem41_bound",
    "theorem42_bound",
]


def _eigenvalues(eigenvalues: ArrayLike) -> NDArray[np.float64]:
    lam = np.sort(np.asarray(eigenvalues, dtype=float).ravel())[::-1]
    if lam.size < 1 or abs(lam[0] - 1.0) > 1e-8 or np.any(lam[1:] >= 1.0 - 1e-12) or lam[-1] <= -1.0:
        raise ParameterError(
            "eigenvalues must be those of a connected, aperiodic doubly stochastic A: λ_1 = 1 simple, "
            "the others in (−1, 1)"
        )
    return lam


def _rounds(t: int, first: int) -> int:
    if int(t) != t or t < first:
        raise ParameterError(f"t (rounds) must be an integer ≥ {first} (got {t})")
    return int(t)


def _geometric(lam: NDArray[np.float64], t: int) -> NDArray[np.float64]:
    """``Σ_{k<t} λ^{2k} = (1 − λ^{2t})/(1 − λ²)``, equal to ``t`` at ``λ = 1``."""
    out = np.full(lam.shape, float(t))
    rest = lam < 1.0
    out[rest] = (1.0 - lam[rest] ** (2 * t)) / (1.0 - lam[rest] ** 2)
    return out


def mvue_moments(eigenvalues: ArrayLike, t: int) -> tuple[float, float]:
    """``(Σ_i λ_i^{2t}, Σ_{i≥2} λ_i^{2t})``: Algorithm 3's squared CoP and CoD per unit ``V`` and ``σ²``."""
    lam, t = _eigenvalues(eigenvalues), _rounds(t, 0)
    power = lam ** (2 * t)
    return float(power.sum()), float(power[1:].sum())


def mvue_noise_gains(A: sparse.sparray | sparse.spmatrix | ArrayLike, t: int) -> NDArray[np.float64]:
    r"""``(A^{2t})_{jj}`` for every agent ``j``: how much of agent ``j``'s noise variance Algorithm 3 keeps in
    ``‖ν_t − μ_t‖²`` after ``t`` steps, ``Σ_i λ_i^{2t} q_{ij}²`` from the eigendecomposition ``A = QΛQᵀ``
    (dense, ``O(n³)``: 0.3 s for the 969 households). The gains sum to :func:`mvue_moments`'s first value
    and tend to ``1/n`` as ``t → ∞``.
    """
    dense = A.toarray() if sparse.issparse(A) else np.asarray(A, dtype=float)
    if dense.ndim != 2 or dense.shape[0] != dense.shape[1] or not np.allclose(dense, dense.T):
        raise ParameterError(f"A must be a symmetric square matrix (got shape {dense.shape})")
    lam, Q = np.linalg.eigh(dense)
    return (Q**2) @ (lam ** (2 * _rounds(t, 0)))


def mvue_cop_rms(variances: ArrayLike, gains: ArrayLike) -> float:
    r"""Root of Algorithm 3's exact ``E‖ν_t − μ_t‖²`` for independent noise of per-agent variances ``V_j``:

    .. math:: \mathbb E\lVert A^t d\rVert^2 = \sum_j V_j\,(A^{2t})_{jj},

    with the gains ``(A^{2t})_{jj}`` of :func:`mvue_noise_gains`. With equal variances it is
    :func:`mvue_moments`'s first value times ``V``; as ``t → ∞`` it tends to ``Σ_j V_j / n``.
    """
    V, g = np.asarray(variances, dtype=float), np.asarray(gains, dtype=float)
    if V.shape != g.shape or np.any(V < 0) or not np.all(np.isfinite(V)):
        raise ParameterError(f"variances must be finite, ≥ 0 and one per gain (got {V.shape}, {g.shape})")
    return float(np.sqrt(np.dot(V, g)))


def naive_noise_moment(eigenvalues: ArrayLike, t: int) -> float:
    """``E‖Σ_{τ<t} A^τ d_{t−τ} + A^t d_0‖²/V`` of fresh noise every round after the initial release."""
    lam, t = _eigenvalues(eigenvalues), _rounds(t, 0)
    return float(_geometric(lam, t + 1).sum())


def ol_signal_moments(eigenvalues: ArrayLike, t: int) -> tuple[float, float]:
    """Algorithm 4's squared CoP and CoD (against ``m_θ``) per unit ``V``, ``σ²``."""
    lam, t = _eigenvalues(eigenvalues), _rounds(t, 1)
    value = float(_geometric(lam, t).sum() / t**2)
    return value, value


def ol_network_moments(eigenvalues: ArrayLike, t: int) -> tuple[float, float]:
    """Algorithm 5's squared CoP and CoD (against ``m_θ``) per unit ``V``, ``σ²``."""
    lam, t = _eigenvalues(eigenvalues), _rounds(t, 1)
    product = np.ones_like(lam)  # Π_{k=τ+1}^{t} (1 + (λ − 2)/k), built from τ = t downwards
    total = np.zeros_like(lam)
    for tau in range(t, 0, -1):
        total += (product / tau) ** 2
        product = product * (1.0 + (lam - 2.0) / tau)
    value = float(total.sum())
    return value, value


def decentralisation_curve(algorithm: str, eigenvalues: ArrayLike, horizon: int) -> NDArray[np.float64]:
    """``E‖μ_t − 𝟙m‖²`` per unit ``σ²`` for every ``t = 1..horizon`` in one pass (``O(n·T)``).

    Equal, entry by entry, to the second value of :func:`mvue_moments` (``"mvue"``),
    :func:`ol_signal_moments` (``"ol_signal"``) or :func:`ol_network_moments` (``"ol_network"``); for
    Algorithm 5 it uses ``S_t = (1 + (λ−2)/t)² S_{t−1} + 1/t²``.
    """
    lam, T = _eigenvalues(eigenvalues), _rounds(horizon, 1)
    t = np.arange(1, T + 1)
    if algorithm == "mvue":
        return np.sum(lam[None, 1:] ** (2 * t[:, None]), axis=1)
    if algorithm == "ol_signal":
        rest = lam[None, 1:]  # λ_1 = 1 contributes Σ_{k<t} 1 = t
        geo = (1.0 - rest ** (2 * t[:, None])) / (1.0 - rest**2)
        return (t + geo.sum(axis=1)) / t**2
    if algorithm == "ol_network":
        out = np.empty(T)
        S = np.zeros_like(lam)
        for k in range(1, T + 1):
            S = (1.0 + (lam - 2.0) / k) ** 2 * S + 1.0 / k**2
            out[k - 1] = S.sum()
        return out
    raise ParameterError(f"algorithm must be 'mvue', 'ol_signal' or 'ol_network' (got {algorithm!r})")


def _check_bound_inputs(n: int, beta_star: float) -> None:
    if int(n) != n or n < 2:
        raise ParameterError(f"n must be an integer ≥ 2 (got {n})")
    if not 0.0 <= beta_star < 1.0:
        raise ParameterError(f"beta_star (SLEM of A) must lie in [0, 1) (got {beta_star})")


def theorem31_bound(
    t: int, n: int, beta_star: float, noise_variance_sum: float, max_statistic: float
) -> float:
    r"""Theorem 3.1 / Corollary 3.2 (corrected form of eq. 8): a bound on ``E‖ν_t − 𝟙m̂‖₂``.

    .. math:: (1 + \sqrt{n-1}\,\beta^{*t})\sqrt{\textstyle\sum_j V[d_j]} + \sqrt{n(n-1)}\,\beta^{*t} M_n
    """
    _check_bound_inputs(n, beta_star)
    decay = beta_star ** _rounds(t, 0)
    return float(
        (1 + np.sqrt(n - 1) * decay) * np.sqrt(noise_variance_sum)
        + np.sqrt(n * (n - 1)) * decay * max_statistic
    )


def _online_bound(
    t: int, n: int, constant: float, signal_variance: float, noise_variance_sum: float
) -> float:
    t = _rounds(t, 1)
    return float((1 + constant) * (np.sqrt(n * t * signal_variance) + np.sqrt(noise_variance_sum)) / t)


def theorem41_bound(
    t: int, n: int, beta_star: float, signal_variance: float, noise_variance_sum: float
) -> float:
    r"""Theorem 4.1 (Algorithm 4): a bound on ``E‖ν_t − 𝟙m_θ‖₂``.

    .. math:: \frac1t\Bigl(1 + \sqrt{\tfrac{n-1}{1-\beta^{*2}}}\Bigr)
              \Bigl(\sqrt{n t\,V[\xi]} + \sqrt{\textstyle\sum_j\sum_{\tau<t} V[d_{j,t-\tau}]}\Bigr)
    """
    _check_bound_inputs(n, beta_star)
    return _online_bound(t, n, np.sqrt((n - 1) / (1 - beta_star**2)), signal_variance, noise_variance_sum)


def theorem42_bound(
    t: int, n: int, beta_star: float, signal_variance: float, noise_variance_sum: float
) -> float:
    r"""Theorem 4.2 (Algorithm 5): as :func:`theorem41_bound` with constant ``√((n−1)/(3−2β*))``."""
    _check_bound_inputs(n, beta_star)
    return _online_bound(t, n, np.sqrt((n - 1) / (3 - 2 * beta_star)), signal_variance, noise_variance_sum)
