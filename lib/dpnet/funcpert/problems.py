"""The book's test problems (note-fp-choices; the slides give no sizes, so every constant is a choice).

- **1-D quadratics**: ``f_i(x) = (a_i/2)(x − θ_i)²`` on ``D = X = [−1, 1]``, ``a_i ~ U[1, 2]``,
  ``θ_i ~ U[−1/2, 1/2]``; ``S = (α, β, ū) = (0.5, 3, 4)`` on 101 grid points.
- **2-D logistic regression** (the slides' case study): agent ``i`` holds records ``(a_j, b_j)``,
  ``a_j ~ U[0, 1]²``, ``b_j = sign(a_jᵀ(1.5, −1.5) + 0.3 N(0, 1))``, and
  ``f_i(x) = Σ_j [ln(1 + e^{−b_j a_jᵀx}) + (λ/2)|x|²]`` on ``D = X = [−3, 3]²``; S from the analytic bounds
  ``ℓ'' ≤ 1/4``, ``|a| ≤ √2`` with 10 % margins on β and ū, checked on a 15 × 15 grid. The strong-convexity
  constant is ``α = N_i λ/2``, half the true one: with a 10 % margin the degree-10 truncation of
  some agents' objectives dips below α near the corners of the square, and the truncated truth must lie
  in S for the accuracy argument.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, special

from dpnet.errors import ParameterError
from dpnet.funcpert.basis import Basis1D, Basis2D
from dpnet.funcpert.regular import RegularSet, regular_set

__all__ = ["Problem", "logistic_problem", "quadratic_problem", "quadratic_with_order", "shifted_quadratic"]


@dataclass(frozen=True)
class Problem:
    """Agents' objectives as truncated coefficients, the public set S, the box X and the true optimum."""

    name: str
    basis: Basis1D | Basis2D
    coefficients: NDArray[np.float64]  # (n, K): truncated f_i
    S: RegularSet
    lower: NDArray[np.float64]  # box X
    upper: NDArray[np.float64]
    x_star: NDArray[np.float64]  # argmin of the exact Σ f_i (not truncated)
    hessian: NDArray[np.float64]  # ∇²Σ f_i at x_star (d × d)
    data: dict[str, NDArray[np.float64]]  # the agents' parameters or records

    @property
    def n_agents(self) -> int:
        return self.coefficients.shape[0]

    @property
    def dim(self) -> int:
        return self.basis.dim

    @property
    def diameter(self) -> float:
        return float(np.linalg.norm(self.upper - self.lower))

    def gradients(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """Exact ``∇f_i(x_i)`` for agent states ``x`` of shape ``(..., n, d)``."""
        if self.name == "quadratic":
            return self.data["a"][:, None] * (x - self.data["theta"][:, None])
        feats, labels, lam = self.data["features"], self.data["labels"], float(self.data["lam"][0])
        margin = labels * (feats @ x[..., None])[..., 0]  # (..., n, N_i)
        weight = -labels * special.expit(-margin)
        return (weight[..., None, :] @ feats)[..., 0, :] + feats.shape[1] * lam * x


def quadratic_problem(n_agents: int, K: int, rng: np.random.Generator) -> Problem:
    """1-D quadratics (``x* = Σ a_i θ_i / Σ a_i``)."""
    if n_agents < 1 or K < 3:
        raise ParameterError(
            f"need n_agents ≥ 1 and K ≥ 3 (a quadratic needs 3 basis functions; got {n_agents}, {K})"
        )
    a, theta = rng.uniform(1.0, 2.0, n_agents), rng.uniform(-0.5, 0.5, n_agents)
    return _quadratics(a, theta, K)


def quadratic_with_order(problem: Problem, K: int) -> Problem:
    """The same agents' quadratics expanded in ``K`` basis functions, with the set S on that basis.

    The smoothing step of Algorithm 1 truncates at ``K``; a quadratic lies in the span of the first three
    basis functions, so only the noise and the rows of S change with ``K`` (note-fp-truncation).
    """
    if problem.name != "quadratic":
        raise ParameterError("quadratic_with_order needs a problem made by quadratic_problem")
    if K < 3:
        raise ParameterError(f"a quadratic needs K ≥ 3 basis functions (got {K})")
    return _quadratics(problem.data["a"], problem.data["theta"], K)


def _quadratics(a: NDArray, theta: NDArray, K: int) -> Problem:
    basis = Basis1D(-1.0, 1.0, K)
    coeffs = np.array(
        [
            basis.project(lambda x, ai=ai, ti=ti: ai / 2 * (x - ti) ** 2)
            for ai, ti in zip(a, theta, strict=True)
        ]
    )
    S = regular_set(basis, np.linspace(-1, 1, 101), 0.5, 3.0, 4.0)
    x_star = np.array([np.sum(a * theta) / np.sum(a)])
    return Problem("quadratic", basis, coeffs, S, np.array([-1.0]), np.array([1.0]), x_star,
                   np.array([[a.sum()]]), {"a": a, "theta": theta})  # fmt: skip


def _logistic_value(x: NDArray, feats: NDArray, labels: NDArray, lam: float) -> NDArray:
    # Σ_j ln(1 + exp(−b_j a_jᵀx)) + N λ/2 |x|² at points x (m, 2)
    margin = labels[None, :] * (x @ feats.T)
    return np.logaddexp(0.0, -margin).sum(axis=1) + feats.shape[0] * lam / 2 * np.sum(x * x, axis=1)


def logistic_problem(
    n_agents: int,
    records: int,
    degree: int,
    rng: np.random.Generator,
    *,
    lam: float = 0.1,
    radius: float = 3.0,
) -> Problem:
    """2-D logistic regression with ``records`` records per agent, basis of total degree ``degree``."""
    if n_agents < 1 or records < 1:
        raise ParameterError(f"need n_agents ≥ 1 and records ≥ 1 (got {n_agents}, {records})")
    feats = rng.uniform(0.0, 1.0, (n_agents, records, 2))
    labels = np.sign(feats @ np.array([1.5, -1.5]) + 0.3 * rng.standard_normal((n_agents, records)))
    labels[labels == 0] = 1.0
    basis = Basis2D(radius, degree)
    coeffs = np.array(
        [
            basis.project(lambda x, f=f, b=b: _logistic_value(x, f, b, lam))
            for f, b in zip(feats, labels, strict=True)
        ]
    )
    grid = np.linspace(-radius, radius, 15)
    points = np.array([(u, v) for u in grid for v in grid])
    alpha, beta = 0.5 * records * lam, 1.1 * records * (lam + 0.5)
    u_bar = 1.1 * records * np.sqrt(2) * (1 + lam * radius)
    S = regular_set(basis, points, alpha, beta, u_bar)
    data = {"features": feats, "labels": labels, "lam": np.array([lam])}
    flat_f, flat_b = feats.reshape(-1, 2), labels.ravel()
    total = lambda x: float(_logistic_value(x[None, :], flat_f, flat_b, lam)[0])  # noqa: E731
    res = optimize.minimize(total, np.zeros(2), method="L-BFGS-B", bounds=[(-radius, radius)] * 2, tol=1e-14)
    x_star = res.x
    s = special.expit(flat_b * (flat_f @ x_star))
    hess = (flat_f * (s * (1 - s))[:, None]).T @ flat_f + flat_f.shape[0] * lam * np.eye(2)
    return Problem("logistic", basis, coeffs, S, np.full(2, -radius), np.full(2, radius), x_star, hess, data)


def shifted_quadratic(problem: Problem, agent: int, shift: float) -> Problem:
    """An adjacent 1-D quadratic problem: agent ``agent``'s minimiser ``θ`` moved by ``shift``."""
    if problem.name != "quadratic":
        raise ParameterError("shifted_quadratic needs a problem made by quadratic_problem")
    a, theta = problem.data["a"], problem.data["theta"].copy()
    theta[agent] += shift
    coeffs = problem.coefficients.copy()
    coeffs[agent] = problem.basis.project(lambda x: a[agent] / 2 * (x - theta[agent]) ** 2)
    x_star = np.array([np.sum(a * theta) / np.sum(a)])
    return replace(problem, coefficients=coeffs, x_star=x_star, data={"a": a, "theta": theta})
