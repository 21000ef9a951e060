"""Algorithm 1 end to end: perturb, truncate, project, minimise (the slides' Algorithm 1), and its accuracy.

Every agent perturbs its truncated coefficients once with the functional Laplace mechanism, projects
them onto the public set S, and the sum of the projected functions is minimised over X. The error
``|x̃* − x*|`` is measured against the exact optimum. ``linearised_rms`` is the small-noise prediction
``RMS ≈ (Σ_i Σ_k 2 b_k² |H⁻¹∇e_k(x*)|²)^{1/2}`` (note-fp-linearised: derived, slope −1 in ε).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dpnet.funcpert.mechanism import gamma, laplace_scales, perturbation
from dpnet.funcpert.problems import Problem
from dpnet.funcpert.regular import project
from dpnet.funcpert.solve import poly_argmin

__all__ = ["linearised_rms", "private_functions", "private_optimum", "tradeoff_errors"]


def private_functions(problem: Problem, eps: float, q: float, p: float, rng: np.random.Generator) -> NDArray:
    """The agents' projected perturbed coefficients ``f̃_i`` (shape ``(n, K)``)."""
    noisy = problem.coefficients + perturbation(problem.basis.K, eps, q, p, rng, problem.n_agents)
    return np.array([project(c, problem.S) for c in noisy])


def private_optimum(problem: Problem, eps: float, q: float, p: float, rng: np.random.Generator) -> NDArray:
    """``x̃* = argmin_X Σ_i f̃_i`` for one draw of the agents' noise."""
    tilde = private_functions(problem, eps, q, p, rng)
    return poly_argmin(problem.basis, tilde.sum(axis=0), problem.lower, problem.upper)


def tradeoff_errors(task: tuple[Problem, float, float, int], rng: np.random.Generator) -> NDArray[np.float64]:
    """``|x̃* − x*|`` over ``runs`` draws for ``task = (problem, q, eps, runs)``, with ``p = q/2``."""
    problem, q, eps, runs = task
    return np.array([np.linalg.norm(private_optimum(problem, eps, q, q / 2, rng) - problem.x_star)
                     for _ in range(runs)])  # fmt: skip


def linearised_rms(problem: Problem, eps: float, q: float, p: float | None = None) -> float:
    """Small-noise RMS of ``x̃* − x*`` (interior optimum, projection inactive)."""
    p = q / 2 if p is None else p
    scales = laplace_scales(problem.basis.K, gamma(eps, q, p), p)
    _, grads, _ = problem.basis.tables(problem.x_star if problem.dim == 2 else problem.x_star[0])
    g = grads[0].reshape(problem.basis.K, problem.dim)  # ∇e_k(x*)
    shifts = np.linalg.solve(problem.hessian, g.T).T  # H⁻¹∇e_k
    return float(np.sqrt(problem.n_agents * np.sum(2 * scales**2 * np.sum(shifts**2, axis=1))))
