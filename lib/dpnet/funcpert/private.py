"""Algorithm 1 end to end: perturb, truncate, project, minimise (the slides' Algorithm 1), and its accuracy.

Every agent perturbs its truncated coefficients once with the functional Laplace mechanism, projects
them onto the public set S, and the sum of the projected functions is minimised over X. The error
``|x̃* − x*|`` is measured against the exact optimum. ``linearised_rms`` is the small-noise prediction
``RMS ≈ (Σ_i Σ_k 2 b_k² |H⁻¹∇e_k(x*)|²)^{1/2}`` (note-fp-linearised: derived, slope −1 in ε).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError
from dpnet.funcpert.mechanism import gamma, laplace_scales, perturbation
from dpnet.funcpert.problems import Problem, quadratic_with_order
from dpnet.funcpert.regular import moved_by_projection, project, worst_point
from dpnet.funcpert.solve import poly_argmin

__all__ = [
    "linearised_rms",
    "private_functions",
    "private_optimum",
    "projection_activity",
    "tradeoff_errors",
    "truncation_errors",
]


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


def projection_activity(
    problem: Problem, q: float, eps: float, runs: int, rng: np.random.Generator, *, end_width: float = 0.1
) -> dict[str, NDArray]:
    """Algorithm 1 on ``runs`` draws (``p = q/2``, the draws of :func:`tradeoff_errors`), recording where the
    projection onto S acts (1-D problems).

    Returns
    -------
    dict
        ``error``: ``|x̃* − x*|`` per run, ``(runs,)``; ``moved``: whether the projection moves each agent's
        perturbed function, ``(runs, n)``; ``at_end``: whether that function's largest violation of S lies
        within ``end_width`` of an end of D (where the high Legendre functions curve most), ``(runs, n)``.
    """
    if problem.dim != 1:
        raise ParameterError("projection_activity is for 1-D problems")
    lo, hi = problem.basis.lo, problem.basis.hi
    error, moved, at_end = (
        np.empty(runs),
        np.empty((runs, problem.n_agents), bool),
        np.empty((runs, problem.n_agents), bool),
    )
    for r in range(runs):
        noisy = problem.coefficients + perturbation(problem.basis.K, eps, q, q / 2, rng, problem.n_agents)
        moved[r] = moved_by_projection(noisy, problem.S)
        x = worst_point(noisy, problem.S)
        at_end[r] = np.minimum(x - lo, hi - x) <= end_width
        tilde = np.array([project(c, problem.S) for c in noisy])
        x_tilde = poly_argmin(problem.basis, tilde.sum(axis=0), problem.lower, problem.upper)
        error[r] = float(np.linalg.norm(x_tilde - problem.x_star))
    return {"error": error, "moved": moved, "at_end": at_end}


def linearised_rms(problem: Problem, eps: float, q: float, p: float | None = None) -> float:
    """Small-noise RMS of ``x̃* − x*`` (interior optimum, projection inactive)."""
    p = q / 2 if p is None else p
    scales = laplace_scales(problem.basis.K, gamma(eps, q, p), p)
    _, grads, _ = problem.basis.tables(problem.x_star if problem.dim == 2 else problem.x_star[0])
    g = grads[0].reshape(problem.basis.K, problem.dim)  # ∇e_k(x*)
    shifts = np.linalg.solve(problem.hessian, g.T).T  # H⁻¹∇e_k
    return float(np.sqrt(problem.n_agents * np.sum(2 * scales**2 * np.sum(shifts**2, axis=1))))


def truncation_errors(
    problem: Problem, orders: tuple[int, ...], eps: float, q: float, runs: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """``|x̃* − x*|`` of Algorithm 1 on the 1-D quadratics smoothed at each truncation ``K`` of ``orders``.

    Every run draws the agents' noise once, ``max(orders)`` coefficients each with ``p = q/2``, and keeps
    its first ``K`` for each ``K``: the scales ``b_k = γ/k^p`` do not depend on ``K``, so the runs at
    different ``K`` share their noise (common random numbers) and differ only by where the smoothing
    step truncates it. Returns ``(runs, len(orders))``.
    """
    problems = [quadratic_with_order(problem, K) for K in orders]
    top = max(orders)
    out = np.empty((runs, len(orders)))
    for r in range(runs):
        eta = perturbation(top, eps, q, q / 2, rng, problem.n_agents)
        for j, (prob, K) in enumerate(zip(problems, orders, strict=True)):
            tilde = np.array([project(c, prob.S) for c in prob.coefficients + eta[:, :K]])
            x = poly_argmin(prob.basis, tilde.sum(axis=0), prob.lower, prob.upper)
            out[r, j] = float(np.linalg.norm(x - prob.x_star))
    return out
