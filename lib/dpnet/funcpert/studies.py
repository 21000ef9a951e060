"""The chapter's studies that are more than one call: the DP error-rate region, the impossibility
demonstration, the tuned message-perturbation baseline and the record-level sensitivities (the book's
experiments E0, E6 and E7)."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from dpnet.errors import ParameterError
from dpnet.funcpert.audit import log_ratio_lower_bound
from dpnet.funcpert.basis import Basis2D
from dpnet.funcpert.mechanism import gamma, laplace_scales, vq_norm
from dpnet.funcpert.message import geometric_b0, geometric_schedule, run_message_batch, run_messages
from dpnet.funcpert.problems import Problem

__all__ = [
    "consensus_floor",
    "error_rate_floor",
    "impossibility_curve",
    "min_miss_probability",
    "noise_free_floor",
    "record_sensitivities",
    "tuned_message_errors",
    "worst_record_difference",
]


def min_miss_probability(p_fa: NDArray, eps: float) -> NDArray[np.float64]:
    """Smallest miss probability an ε-DP test can have at false-alarm rate ``p_FA`` (Geng–Viswanath):
    ``p_MD ≥ max(0, 1 − e^ε p_FA, e^{−ε}(1 − p_FA))``."""
    p = np.asarray(p_fa, dtype=float)
    return np.maximum.reduce([np.zeros_like(p), 1 - np.exp(eps) * p, np.exp(-eps) * (1 - p)])


def error_rate_floor(eps: float, grid: int = 200_001) -> float:
    """``min over the allowed region of max(p_FA, p_MD)``, numerically (``1/(1 + e^ε)`` in closed form)."""
    p = np.linspace(0.0, 1.0, grid)
    return float(np.min(np.maximum(p, min_miss_probability(p, eps))))


def impossibility_curve(
    problem: Problem, shifted: Problem, W: NDArray, steps: NDArray, scales: NDArray,
    radius: float, runs: int, rng: np.random.Generator, *, alpha: float = 0.05,
) -> dict[str, NDArray[np.float64]]:  # fmt: skip
    """``P_I(O)`` and ``P_I'(O)`` against the message index ``K``, and a lower confidence bound on their
    log-ratio.

    ``O = {|mean_j ξ_j(K) − x*_I| < radius}``: the messages of a convergent message-perturbing scheme
    concentrate at ``x*_I`` under ``I`` and at ``x*_{I'}`` under the adjacent ``I'``, so the ratio of their
    probabilities grows without bound (note-fp-impossibility). ``log_ratio_lower`` bounds
    ``log(P_I/P_I')`` from below with probability ``1 − alpha`` at each ``K``
    (:func:`~dpnet.funcpert.audit.log_ratio_lower_bound`); with ``R`` runs it cannot exceed about
    ``log(R/log(2/alpha))``, whatever the true ratio.
    """
    hits = []
    for prob in (problem, shifted):
        _, messages = run_messages(prob.gradients, W, prob.lower, prob.upper, steps, scales, rng, runs)
        centre = messages.mean(axis=2)  # (K, runs, d)
        hits.append(np.sum(np.linalg.norm(centre - problem.x_star, axis=-1) < radius, axis=1))
    h_i, h_j = hits
    return {"K": np.arange(1, steps.size + 1), "p_I": h_i / runs, "p_I_prime": h_j / runs,
            "hits_I": h_i, "hits_I_prime": h_j,
            "log_ratio_lower": log_ratio_lower_bound(h_i, runs, h_j, runs, alpha)}  # fmt: skip


def noise_free_floor(
    problem: Problem, W: NDArray, c: float, rho_s: float, rng: np.random.Generator, *, iterations: int = 3000
) -> float:
    """``|x̄(K) − x*|`` of the message scheme with steps ``c ρ_s^k`` and no noise, from ``x(0) = 0``.

    The steps sum to ``c/(1 − ρ_s)``, so the iteration stops short of the optimum: this is its floor
    (1-D problems). ``rng`` is not drawn from (there is no noise); it is passed on to
    :func:`~dpnet.funcpert.message.run_messages`.
    """
    steps, scales = geometric_schedule(iterations, c, rho_s, (1 + rho_s) / 2, 0.0)
    states, _ = run_messages(problem.gradients, W, problem.lower, problem.upper, steps, scales, rng, 1)
    return float(np.abs(states[-1].mean() - problem.x_star[0]))


def consensus_floor(problem: Problem, c: float, rho_s: float, *, iterations: int = 3000) -> float:
    """The noise-free floor :func:`noise_free_floor` predicts while the agents agree (1-D quadratics).

    With every state equal to the network average ``x̄``, the average takes the gradient step of the mean
    quadratic, ``x̄ ← x̄ − s_k ā (x̄ − x*)`` with ``ā`` the agents' mean curvature, so from ``x(0) = 0`` it stops
    at ``|x*| Π_k (1 − s_k ā)`` (note-fp-message-floor). The agents' disagreement adds a residual of the
    order of the floor of a schedule with a large step sum, which the prediction leaves out.
    """
    if problem.name != "quadratic":
        raise ParameterError("consensus_floor needs a problem made by quadratic_problem")
    steps = c * rho_s ** np.arange(iterations, dtype=float)
    return float(abs(problem.x_star[0]) * np.prod(1 - steps * float(np.mean(problem.data["a"]))))


def tuned_message_errors(
    problem: Problem, W: NDArray, eps_values: NDArray, sensitivity: float, rng: np.random.Generator,
    *, runs: int, iterations: int, cs: tuple[float, ...] = (0.01, 0.05, 0.1, 0.5),
    rho_s_values: tuple[float, ...] = (0.9, 0.99),
) -> list[dict[str, float]]:  # fmt: skip
    """Mean final error ``|x̄(K) − x*|`` of every geometric schedule of the book's grid, at every ε.

    ``ρ_η`` takes the two values a third and two thirds of the way from ``ρ_s`` to 1; ``b₀`` gives total
    loss ε (``inf``: no noise). One record per (schedule, ε). The schedules run side by side
    (:func:`~dpnet.funcpert.message.run_message_batch`): the numbers of running them one after another.
    """
    grid, schedules = [], []
    d = problem.dim
    for c, rho_s in itertools.product(cs, rho_s_values):
        for rho_eta in (rho_s + (1 - rho_s) / 3, rho_s + 2 * (1 - rho_s) / 3):
            for eps in eps_values:
                b0 = 0.0 if np.isinf(eps) else geometric_b0(eps, c, rho_s, rho_eta, sensitivity, d)
                grid.append((c, rho_s, rho_eta, float(eps)))
                schedules.append(geometric_schedule(iterations, c, rho_s, rho_eta, b0))
    steps, scales = (np.array(part) for part in zip(*schedules, strict=True))
    final = run_message_batch(problem.gradients, W, problem.lower, problem.upper, steps, scales, rng, runs)
    rows = []
    for (c, rho_s, rho_eta, eps), states in zip(grid, final, strict=True):
        err = np.linalg.norm(states.mean(axis=1) - problem.x_star, axis=-1)
        rows.append({"c": c, "rho_s": rho_s, "rho_eta": rho_eta, "eps": eps, "error": float(err.mean())})
    return rows


def record_sensitivities(basis: Basis2D, q: float, lam: float = 0.1, grid: int = 5) -> dict[str, float]:
    """Largest change of one record's loss over pairs of records ``(a, b)``, ``a`` on a ``grid × grid``
    lattice of ``[0, 1]²`` and ``b = ±1`` (the ``λ`` term cancels).

    Returns ``vq``, the largest ``‖h‖_{V_q}`` (a function-level ε is a record-level ``ε·vq`` by the
    definition); ``loss``, the largest exact privacy loss ``Σ_k |Δ_k|/b_k`` of the released coefficients
    at function-level ε = 1 with ``p = q/2`` (at most ``vq``, by Cauchy–Schwarz); ``l2``, the largest L²
    norm; and ``gradient``, the largest gradient difference over the box (Huang's record-level Δ, on a
    41 × 41 grid).

    The differences of the records' coefficients and the gradient gap depend on the basis and the lattice
    only, not on ``q``: they are computed once per ``(basis, grid)`` and kept (a few bases at most).
    """
    diff = _record_differences(basis, int(grid))
    scales = laplace_scales(basis.K, gamma(1.0, q, q / 2), q / 2)
    loss = np.sum(np.abs(diff) / scales, axis=1)
    return {"vq": float(np.max(vq_norm(diff, q))), "loss": float(np.max(loss)),
            "l2": float(np.max(np.linalg.norm(diff, axis=1))),
            "gradient": _record_gradient_gap(float(basis.R), int(grid))}  # fmt: skip


def worst_record_difference(basis: Basis2D, q: float, grid: int = 5) -> NDArray[np.float64]:
    """The coefficients ``Δ`` of ``ℓ(·; a, b) − ℓ(·; a', b')`` for the pair of lattice records whose
    exact privacy loss ``Σ_k |Δ_k|/b_k`` (``p = q/2``) is the largest: the record an audit tests (E7)."""
    diff = _record_differences(basis, int(grid))
    scales = laplace_scales(basis.K, gamma(1.0, q, q / 2), q / 2)
    return diff[int(np.argmax(np.sum(np.abs(diff) / scales, axis=1)))].copy()


def _records(grid: int) -> list[tuple[NDArray[np.float64], float]]:
    axis = np.linspace(0.0, 1.0, grid)
    return [(np.array([u, v]), b) for u in axis for v in axis for b in (-1.0, 1.0)]


@lru_cache(maxsize=8)
def _record_differences(basis: Basis2D, grid: int) -> NDArray[np.float64]:
    # coefficients of ℓ(·; a, b) − ℓ(·; a', b') for every pair of records (read-only: shared)
    records = _records(grid)
    coeffs = np.array(
        [basis.project(lambda x, a=a, b=b: np.logaddexp(0.0, -b * (x @ a))) for a, b in records]
    )
    i, j = np.triu_indices(len(records), 1)
    diff = coeffs[i] - coeffs[j]
    diff.setflags(write=False)
    return diff


@lru_cache(maxsize=8)
def _record_gradient_gap(R: float, grid: int) -> float:
    records = _records(grid)
    i, j = np.triu_indices(len(records), 1)
    box = np.linspace(-R, R, 41)
    pts = np.array([(u, v) for u in box for v in box])
    grads = np.array(
        [(-b / (1 + np.exp(b * (pts @ a))))[:, None] * a for a, b in records]
    )  # (records, pts, 2)
    return max(float(np.max(np.linalg.norm(grads[k] - grads[m], axis=-1))) for k, m in zip(i, j, strict=True))
