"""The privacy–power dilemma (paper 003, §2; Figures 1 and 2).

``n`` agents each hold one binary signal ``s_i`` with ``P[s = 1 | θ = 1] = P[s = 0 | θ = 0] = p``,
``p ∈ (1/2, 1)``. They test ``H0: θ = 0`` against ``H1: θ = 1`` at level ``α``. Each agent can test
alone on its clean signal (power :func:`individual_power`), or the group can pool *privatised*
signals: randomized response (exact binomial power, :func:`rr_power`) or Laplace noise on each
agent's log-likelihood ratio (Monte Carlo power, :func:`laplace_power_mc`). The critical budget
``ε*`` is the privacy budget above which the private collective test beats the individual one
(:func:`rr_critical_budget_inf`; the quantile form of the paper's eq. (2), which is off by one, is
:func:`rr_critical_budget_as_printed_grid`).

The paper's randomized-response group test has a non-randomised boundary (:func:`rr_power`), so its
actual size (:func:`rr_size`) falls short of ``α`` while the individual test it is compared with uses
all of ``α``. :func:`rr_power_randomized` is the most powerful test at exact level ``α``, which
randomises on the boundary: the like-for-like comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from dpnet.errors import ParameterError
from dpnet.mechanisms import check_budget, rr_flip_probability
from dpnet.params import integer, real
from dpnet.sweep import Stream, sweep

__all__ = [
    "BISECTION_TOL",
    "LaplacePower",
    "LaplaceVariant",
    "critical_budget_argmin",
    "critical_budget_table",
    "individual_power",
    "laplace_power_grid",
    "laplace_power_mc",
    "rr_critical_budget_as_printed_grid",
    "rr_critical_budget_inf",
    "rr_critical_budget_inf_grid",
    "rr_power",
    "rr_power_grid",
    "rr_power_randomized",
    "rr_size",
    "rr_threshold",
]

LaplaceVariant = Literal["paper", "as_published"]

#: Default width of the final bracket of the bisection in :func:`rr_critical_budget_inf`.
BISECTION_TOL: Final = 1e-10


def _check_p_alpha(p: float, alpha: float) -> tuple[float, float]:
    """Validate the signal accuracy ``p ∈ (1/2, 1)`` and the test level ``α ∈ (0, 1)``."""
    return real(gt=0.5, lt=1.0)("p (signal accuracy)", p), real(gt=0.0, lt=1.0)("alpha (test level)", alpha)


def _check_setting(n: int, p: float, alpha: float) -> tuple[int, float, float]:
    """Validate ``n ≥ 1`` agents, the signal accuracy and the level."""
    return integer(ge=1)("n (number of agents)", n), *_check_p_alpha(p, alpha)


def individual_power(p: float, alpha: float) -> float:
    """Power ``β_IND`` of the most powerful (randomised) test on one clean signal.

    The likelihood ratio is ``p/(1−p)`` for ``s = 1``. The Neyman–Pearson test rejects on
    ``s = 1`` (probability ``1−p`` under H0) and randomises:

    * ``1−p > α``: reject on ``s = 1`` with probability ``α/(1−p)``, so ``β = pα/(1−p)``;
    * ``1−p ≤ α``: always reject on ``s = 1`` and on ``s = 0`` with probability
      ``(α−(1−p))/p``, so ``β = p + (1−p)(α−1+p)/p``.
    """
    p, alpha = _check_p_alpha(p, alpha)
    if 1.0 - p > alpha:
        return p * alpha / (1.0 - p)
    return p + (1.0 - p) * (alpha - 1.0 + p) / p


def _rr_test(
    n: int, p: float, eps: ArrayLike, alpha: float
) -> tuple[int, NDArray[np.float64], NDArray[np.float64]]:
    """Validated ``n``, the probability ``p'`` that a privatised report is 1 under H0, and ``τ_RR``.

    ``p' = p·p_ε + (1−p)(1−p_ε)``; :func:`~dpnet.mechanisms.rr_flip_probability` validates ε.
    """
    n, p, alpha = _check_setting(n, p, alpha)
    flip = rr_flip_probability(eps)
    null = p * flip + (1.0 - p) * (1.0 - flip)
    return n, null, stats.binom.isf(alpha, n, null)


def rr_threshold(n: int, p: float, eps: ArrayLike, alpha: float) -> NDArray[np.float64]:
    """Rejection threshold ``τ_RR``: reject H0 when ``Σ y_i > τ``, the (1−α) binomial quantile.

    ``τ = min{k : P[Bin(n, p') > k] ≤ α}`` (``scipy.stats.binom.isf``).
    """
    return _rr_test(n, p, eps, alpha)[2]


def rr_power(n: int, p: float, eps: ArrayLike, alpha: float) -> NDArray[np.float64]:
    """Exact power of the collective randomized-response test: the right-hand side of paper 003's eq. (1).

    Each agent reports its bit flipped with probability ``p_ε = 1/(1+e^ε)``; the count of ones is
    ``Bin(n, p')`` under H0 and ``Bin(n, 1−p')`` under H1, so
    ``β_RR(ε) = P[Bin(n, 1−p') > τ_RR(ε)]`` (non-randomised boundary, as in the paper; ``τ_RR`` as
    in :func:`rr_threshold`).

    The power is non-decreasing in ε: as ε grows ``p'`` falls, so ``τ_RR`` can only fall and
    ``1−p'`` can only rise. It is right-continuous, jumping up where ``τ_RR`` drops.
    """
    n, null, tau = _rr_test(n, p, eps, alpha)
    return stats.binom.sf(tau, n, 1.0 - null)


def rr_size(n: int, p: float, eps: ArrayLike, alpha: float) -> NDArray[np.float64]:
    """Actual size ``P[Σ y_i > τ_RR | θ = 0]`` of the non-randomised test of :func:`rr_power`.

    At most ``α``; equal to it only where a binomial tail happens to equal ``α`` exactly, so the test
    leaves the rest of its level unused.
    """
    n, null, tau = _rr_test(n, p, eps, alpha)
    return stats.binom.sf(tau, n, null)


def _randomized_power(
    n: ArrayLike, null: NDArray[np.float64], alpha: float, tau: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Power of the level-exactly-α test that rejects above ``τ`` and with probability ``γ`` at ``τ``."""
    gamma = np.clip((alpha - stats.binom.sf(tau, n, null)) / stats.binom.pmf(tau, n, null), 0.0, 1.0)
    return stats.binom.sf(tau, n, 1.0 - null) + gamma * stats.binom.pmf(tau, n, 1.0 - null)


def rr_power_randomized(n: int, p: float, eps: ArrayLike, alpha: float) -> NDArray[np.float64]:
    """Exact power of the most powerful level-α group test on randomized-response reports.

    The count of ones is ``Bin(n, p')`` under H0 and ``Bin(n, 1−p')`` under H1, a family with a
    monotone likelihood ratio, so by the Neyman–Pearson lemma the most powerful test of size exactly
    ``α`` rejects when the count exceeds ``τ_RR`` (:func:`rr_threshold`) and, when it equals ``τ_RR``,
    with probability ``γ = (α − P₀[count > τ]) / P₀[count = τ]``. Its power is
    ``P₁[count > τ] + γ·P₁[count = τ]``: eq. (1) of paper 003 plus the boundary term the paper leaves
    out. It is at least :func:`rr_power`, equals ``α`` at ε = 0, and is continuous and non-decreasing
    in ε (a larger ε lowers ``p'``, and the test of level α for a larger ``p'`` is of level α for the
    smaller one).
    """
    n, null, tau = _rr_test(n, p, eps, alpha)
    return _randomized_power(n, null, alpha, tau)


def critical_budget_argmin(eps_grid: ArrayLike, power: ArrayLike, beta_ind: float) -> float:
    """ε* as the published figures compute it: the grid point minimising ``|β_IND − β(ε)|``.

    Ties go to the smallest ε (``numpy.argmin``); ``NaN`` powers are ignored. Returns ``NaN`` when the power
    never reaches ``β_IND`` on the grid (the argmin would then name a budget at which the group
    still loses).
    """
    eps_arr = np.asarray(eps_grid, dtype=float)
    gap = np.abs(np.asarray(power, dtype=float) - beta_ind)
    if eps_arr.shape != gap.shape or eps_arr.ndim != 1:
        raise ParameterError("eps_grid and power must be 1-D arrays of the same length")
    if np.all(np.isnan(gap)) or np.nanmax(np.asarray(power, dtype=float)) < beta_ind:
        return float("nan")
    return float(eps_arr[np.nanargmin(gap)])


def rr_critical_budget_inf(
    n: int,
    p: float,
    alpha: float,
    *,
    eps_max: float = 50.0,
    tol: float = BISECTION_TOL,
    randomized: bool = False,
) -> float:
    """Exact ε*_RR = inf{ε > 0 : β_RR(ε) ≥ β_IND}: paper 003's eq. (2) as its text defines it (the
    quantile form it prints is off by one, :func:`rr_critical_budget_as_printed_grid`).

    Because β_RR is non-decreasing and right-continuous in ε (see :func:`rr_power`), the set is an
    interval ``[ε*, ∞)`` and bisection finds its left end to ``tol``. Returns ``inf`` when even
    ``ε = eps_max`` (essentially clean pooled signals) does not reach ``β_IND``.

    ``randomized=True`` uses the group test that randomises on its boundary
    (:func:`rr_power_randomized`) instead of the paper's. A "group" of one agent then runs the
    individual test on a noisy copy of its signal, whose power approaches ``β_IND`` from below as
    ε → ∞ and never reaches it: ``inf`` (decided here, not left to rounding at large ε).
    """
    target = individual_power(p, alpha)
    if randomized and integer(ge=1)("n (number of agents)", n) == 1:
        return float("inf")
    test = rr_power_randomized if randomized else rr_power

    def reaches(eps: float) -> bool:
        return bool(test(n, p, eps, alpha) >= target)

    if reaches(0.0):
        return 0.0
    if not reaches(eps_max):
        return float("inf")
    lo, hi = 0.0, eps_max
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if reaches(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _cells(
    n_values: ArrayLike, p_values: ArrayLike, alpha: float
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64], tuple[int, int]]:
    """Validated (n, p) cells, flattened row by row (n outer), with each cell's ``β_IND`` and the shape."""
    ns = [integer(ge=1)("n (number of agents)", n) for n in np.atleast_1d(n_values)]
    ps = [_check_p_alpha(p, alpha)[0] for p in np.atleast_1d(p_values)]
    n_cell, p_cell = (
        a.ravel() for a in np.meshgrid(np.array(ns, dtype=np.int64), np.array(ps), indexing="ij")
    )
    target = np.array([individual_power(p, alpha) for p in ps])[np.tile(np.arange(len(ps)), len(ns))]
    return n_cell, p_cell, target, (len(ns), len(ps))


def _bisect_cells(
    reaches: Callable[[NDArray[np.intp], NDArray[np.float64]], NDArray[np.bool_]],
    size: int,
    eps_max: float,
    tol: float,
    *,
    never: NDArray[np.bool_] | None = None,
) -> NDArray[np.float64]:
    """The left end of ``{ε ≥ 0 : reaches(cell, ε)}`` for ``size`` cells, bisected together.

    ``reaches(cells, eps)`` says, for each of the ``cells`` (indices), whether ``eps`` is in its set, which
    must be an interval ``[ε*, ∞)``. A cell in the set at ε = 0 gets 0, one not in it at ``eps_max`` (or
    marked in ``never``) gets +∞; the others take the steps of :func:`rr_critical_budget_inf`.
    """
    every = np.arange(size)
    check_budget(eps_max)
    at_zero, at_max = reaches(every, np.zeros(size)), reaches(every, np.full(size, float(eps_max)))
    if never is not None:
        at_zero, at_max = at_zero & ~never, at_max & ~never
    lo, hi = np.zeros(size), np.full(size, float(eps_max))
    going = every[~at_zero & at_max]
    while (going := going[hi[going] - lo[going] > tol]).size:
        mid = 0.5 * (lo[going] + hi[going])
        up = reaches(going, mid)
        hi[going[up]], lo[going[~up]] = mid[up], mid[~up]
    return np.where(at_zero, 0.0, np.where(at_max, hi, np.inf))


def rr_critical_budget_inf_grid(
    n_values: ArrayLike,
    p_values: ArrayLike,
    alpha: float,
    *,
    eps_max: float = 50.0,
    tol: float = BISECTION_TOL,
    randomized: bool = False,
) -> NDArray[np.float64]:
    """Exact ε*_RR (:func:`rr_critical_budget_inf`) for every (n, p) cell.

    The cells are bisected together, one vectorised evaluation of the power per step; each cell takes
    the steps :func:`rr_critical_budget_inf` takes, with the same floating-point operations, so the
    values are the same. Returns an array of shape ``(len(n_values), len(p_values))``, like
    :func:`rr_power_grid` without its ε axis. ``randomized`` as in :func:`rr_critical_budget_inf`.
    """
    n_cell, p_cell, target, shape = _cells(n_values, p_values, alpha)

    def reaches(cells: NDArray[np.intp], eps: NDArray[np.float64]) -> NDArray[np.bool_]:
        flip = special.expit(-eps)  # rr_flip_probability, without re-validating every step
        null = p_cell[cells] * flip + (1.0 - p_cell[cells]) * (1.0 - flip)
        tau = stats.binom.isf(alpha, n_cell[cells], null)
        if randomized:
            return _randomized_power(n_cell[cells], null, alpha, tau) >= target[cells]
        return stats.binom.sf(tau, n_cell[cells], 1.0 - null) >= target[cells]

    # one agent never reaches β_IND with the randomised test (see rr_critical_budget_inf)
    never = (n_cell == 1) if randomized else None
    return _bisect_cells(reaches, n_cell.size, eps_max, tol, never=never).reshape(shape)


def rr_critical_budget_as_printed_grid(
    n_values: ArrayLike,
    p_values: ArrayLike,
    alpha: float,
    *,
    eps_max: float = 50.0,
    tol: float = BISECTION_TOL,
) -> NDArray[np.float64]:
    """Paper 003's eq. (2) coded as printed, for every (n, p) cell: its quantile form.

    ``inf{ε > 0 : Q_{Bin(n,p')}(1−α) ≤ Q_{Bin(n,1−p')}(1−β_IND)}``, with ``Q`` the smallest ``k`` whose
    distribution function reaches the level. The test of eq. (1), which rejects when the count exceeds
    ``τ_RR = Q_{Bin(n,p')}(1−α)``, has power ``1 − F_{Bin(n,1−p')}(τ_RR)``, which reaches ``β_IND``
    exactly when ``τ_RR < Q_{Bin(n,1−p')}(1−β_IND)`` (a strict inequality, up to a tie of the
    distribution function with ``1 − β_IND``). The printed ``≤`` is the condition for the test that
    rejects when the count is *at least* ``τ_RR``, whose size exceeds α. So this is not the critical
    budget of eq. (1)'s test (:func:`rr_critical_budget_inf_grid`), and is never larger than it; it is
    here to show what the printed formula gives.

    Both quantiles are monotone in ε (``p'`` falls as ε grows), so the set is an interval ``[ε*, ∞)``
    and the cells are bisected together, as in :func:`rr_critical_budget_inf_grid`. Returns an array of
    shape ``(len(n_values), len(p_values))``.
    """
    n_cell, p_cell, target, shape = _cells(n_values, p_values, alpha)

    def reaches(cells: NDArray[np.intp], eps: NDArray[np.float64]) -> NDArray[np.bool_]:
        flip = special.expit(-eps)
        null = p_cell[cells] * flip + (1.0 - p_cell[cells]) * (1.0 - flip)
        tau = stats.binom.isf(alpha, n_cell[cells], null)  # Q_{Bin(n,p')}(1−α)
        return tau <= stats.binom.isf(target[cells], n_cell[cells], 1.0 - null)  # Q_{Bin(n,1−p')}(1−β_IND)

    return _bisect_cells(reaches, n_cell.size, eps_max, tol).reshape(shape)


@dataclass(frozen=True)
class LaplacePower:
    """Monte Carlo power of the Laplace collective test on a grid of ε.

    Attributes
    ----------
    eps
        The ε grid.
    power
        Estimated power at each ε (``α`` exactly at ε = 0, where the noise is infinite).
    std_error
        Standard error of each estimate: the binomial term ``β(1−β)/M`` plus the term from
        estimating the threshold, ``(f₁(τ)/f₀(τ))² α(1−α)/M``, with the densities ``f₀, f₁`` of the
        statistic under H0 and H1 estimated at the threshold ``τ`` (0 at ε = 0).
    samples
        ``M``, the number of draws under each hypothesis.
    """

    eps: NDArray[np.float64]
    power: NDArray[np.float64]
    std_error: NDArray[np.float64]
    samples: int


def _density_at(samples: NDArray[np.float64], points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row-wise box-kernel density of ``samples[r]`` at ``points[r]`` (Silverman's bandwidth)."""
    m = samples.shape[1]
    width = 1.06 * samples.std(axis=1) * m ** (-1 / 5)
    inside = np.abs(samples - points[:, None]) <= width[:, None]
    return inside.mean(axis=1) / (2.0 * width)


def _sum_of_laplace(count: int, size: int, rng: np.random.Generator) -> NDArray[np.float64]:
    """``size`` draws of a sum of ``count`` iid standard Laplace variables, in O(size) memory.

    A standard Laplace variable is the difference of two Exp(1) variables, so the sum is
    ``Gamma(count) − Gamma(count)``.
    """
    return rng.gamma(count, size=size) - rng.gamma(count, size=size)


def laplace_power_mc(
    n: int,
    p: float,
    eps: ArrayLike,
    alpha: float,
    samples: int,
    rng: np.random.Generator,
) -> dict[LaplaceVariant, LaplacePower]:
    """Monte Carlo power of the collective test on Laplace-privatised log-likelihood ratios.

    With ``c = log(p/(1−p))`` and ``T`` the number of ones, the clean statistic is
    ``Σ_i LLR_i = c(2T − n)``; ``T ~ Bin(n, 1−p)`` under H0 and ``Bin(n, p)`` under H1. Two noise
    models, both ε-DP:

    * ``"paper"`` (§2 text): each agent adds ``d_i ~ Lap(Δ/ε)`` to its LLR, with ``Δ = 2c`` the
      sensitivity of one LLR to its signal.
    * ``"as_published"`` (the authors' notebook, which drew Figure 2): each agent adds independent
      ``Lap(Δ/ε)`` noise to the log-likelihood of *each* state, so its LLR carries the difference of
      two Laplace variables: twice the noise variance for the same ε.

    Dividing by ``c`` leaves ``S = 2T − n + (2/ε)·Z`` with ``Z`` a sum of standard Laplace
    variables (``n`` of them, or ``2n`` as published), so the power does not depend on ``c`` beyond
    ``T``'s law. The threshold is the empirical (1−α) quantile of ``M`` H0 draws and the power the
    fraction of ``M`` H1 draws strictly above it, as in the paper. The draws are shared: across the
    ε grid (each ε still uses ``M + M`` draws of the right law, and curves are smooth in ε), and
    between the models (the as-published noise is the paper's plus an independent sum), so the two
    models are compared on paired draws.
    """
    n, p, alpha = _check_setting(n, p, alpha)
    eps_arr = check_budget(eps, "eps (privacy budget)")
    if eps_arr.ndim != 1:
        raise ParameterError("eps must be a 1-D grid of privacy budgets")
    samples = integer(ge=2)("samples (Monte Carlo draws per hypothesis)", samples)
    clean = {h: 2.0 * rng.binomial(n, q, size=samples) - n for h, q in (("H0", 1.0 - p), ("H1", p))}
    paper = {h: _sum_of_laplace(n, samples, rng) for h in clean}
    extra = {h: _sum_of_laplace(n, samples, rng) for h in clean}
    noises = {"paper": paper, "as_published": {h: paper[h] + extra[h] for h in clean}}
    return {variant: _power_on_grid(clean, noise, eps_arr, alpha) for variant, noise in noises.items()}


def _power_on_grid(
    clean: dict[str, NDArray[np.float64]],
    noise: dict[str, NDArray[np.float64]],
    eps: NDArray[np.float64],
    alpha: float,
) -> LaplacePower:
    samples = clean["H0"].size
    power = np.full(eps.shape, alpha, dtype=float)
    std_error = np.zeros(eps.shape, dtype=float)
    positive = eps > 0
    if positive.any():
        scale = (2.0 / eps[positive])[:, None]
        null = clean["H0"][None, :] + scale * noise["H0"][None, :]
        alt = clean["H1"][None, :] + scale * noise["H1"][None, :]
        threshold = np.quantile(null, 1.0 - alpha, axis=1)
        beta = (alt > threshold[:, None]).mean(axis=1)
        ratio = _density_at(alt, threshold) / np.maximum(_density_at(null, threshold), 1e-300)
        power[positive] = beta
        std_error[positive] = np.sqrt((beta * (1 - beta) + ratio**2 * alpha * (1 - alpha)) / samples)
    return LaplacePower(eps=eps, power=power, std_error=std_error, samples=samples)


def rr_power_grid(
    n_values: ArrayLike, p_values: ArrayLike, eps: ArrayLike, alpha: float, *, randomized: bool = False
) -> NDArray[np.float64]:
    """Exact RR power for every (n, p) cell: array of shape ``(len(n_values), len(p_values), len(eps))``.

    The paper's test (:func:`rr_power`), or with ``randomized`` the one that randomises on its
    boundary (:func:`rr_power_randomized`).
    """
    test = rr_power_randomized if randomized else rr_power
    return np.array(
        [[test(n, p, eps, alpha) for p in np.atleast_1d(p_values)] for n in np.atleast_1d(n_values)]
    )


def critical_budget_table(
    eps: ArrayLike, power: NDArray[np.float64], p_values: ArrayLike, alpha: float
) -> NDArray[np.float64]:
    """Published-procedure ε* (grid argmin) for each (n, p) cell of a power grid ``(..., n, p, ε)``."""
    p_arr = np.atleast_1d(np.asarray(p_values, dtype=float))
    power = np.asarray(power, dtype=float)
    out = np.empty(power.shape[:-1])
    for index in np.ndindex(*power.shape[:-1]):
        out[index] = critical_budget_argmin(eps, power[index], individual_power(p_arr[index[-1]], alpha))
    return out


@dataclass(frozen=True)
class _LaplaceCell:
    run: int
    n: int
    p: float
    eps: tuple[float, ...]
    alpha: float
    samples: int

    def key(self) -> tuple[int, int, int]:
        """The cell's stream key: its run, n, and p in millionths."""
        return (self.run, self.n, round(self.p * 1_000_000))


def _laplace_cell(cell: _LaplaceCell, rng: np.random.Generator) -> dict[LaplaceVariant, LaplacePower]:
    return laplace_power_mc(cell.n, cell.p, cell.eps, cell.alpha, cell.samples, rng)


def laplace_power_grid(
    n_values: ArrayLike,
    p_values: ArrayLike,
    eps: ArrayLike,
    alpha: float,
    samples: int,
    *,
    stream: Stream,
    repeats: int = 1,
    n_jobs: int | None = None,
) -> dict[LaplaceVariant, tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Laplace Monte Carlo power for every (n, p) cell, both noise models, ``repeats`` independent runs.

    One sweep task per (run, cell), drawing from ``stream.child(run, n, p in millionths)``: changing
    the grid leaves the other cells' draws unchanged. Repeated runs show how much a published single-run
    quantity (such as the argmin ε*) varies.

    Returns
    -------
    dict
        ``variant → (power, std_error)``, each of shape ``(repeats, len(n_values), len(p_values), len(eps))``.
    """
    repeats = integer(ge=1)("repeats (independent Monte Carlo runs)", repeats)
    n_arr, p_arr = np.atleast_1d(n_values), np.atleast_1d(p_values)
    eps_t = tuple(float(e) for e in np.atleast_1d(eps))
    cells = [
        _LaplaceCell(r, int(n), float(p), eps_t, alpha, samples)
        for r in range(repeats)
        for n in n_arr
        for p in p_arr
    ]
    out = sweep(_laplace_cell, cells, stream, key=_LaplaceCell.key, n_jobs=n_jobs, desc="Laplace power")
    shape = (repeats, len(n_arr), len(p_arr), len(eps_t))
    grid: dict[LaplaceVariant, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
    for variant in ("paper", "as_published"):
        power = np.array([out[cell][variant].power for cell in cells]).reshape(shape)
        error = np.array([out[cell][variant].std_error for cell in cells]).reshape(shape)
        grid[variant] = (power, error)
    return grid
