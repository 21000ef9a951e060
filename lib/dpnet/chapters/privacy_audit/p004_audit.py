"""Paper 004, audited: functional perturbation at the truncation K of Chapter 8 (the coefficients'
privacy loss per unit of the V_q norm), and the message-perturbation baseline, two rows side by side:

* **the accountant** (``audits = "lemma"``): one agent's gradient changes by at most ``Δ = 2ū`` over X,
  so message ``k + 1`` moves by at most ``s_k Δ``;
* **the release** (``audits = "release"``): the message is ``ξ = x(k+1) + η`` with ``x(k+1) =
  proj_X(z − s_k∇f(z))``. Given the same past messages (adaptive composition), one agent's function
  changed within S moves it by ``|proj_X(z − s_k∇f(z)) − proj_X(z − s_k∇f′(z))|``, whose supremum over
  every received average ``z ∈ ℝ`` is :func:`state_gap`.

The gradients themselves do differ by more than Δ at the averages the scheme reaches outside X
(:func:`gradient_gap`, :func:`unprojected_reach`): Δ, a supremum over X, is not the quantity that bounds
the release; the projection is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet import funcpert as fp
from dpnet.audit import MechanismAudit
from dpnet.chapters.privacy_audit._common import (
    AUDIT_SECONDS,
    AuditTask,
    ItemAudit,
    row_confidence,
    run_audits,
)
from dpnet.params import Cost, Parameters
from dpnet.reference import privacy_audit as ref

__all__ = [
    "DATA",
    "ITEM",
    "MESSAGES",
    "SCHEDULE",
    "Q",
    "cost",
    "gradient_gap",
    "p004_audit",
    "state_gap",
    "unprojected_reach",
]

ITEM = "p004-audit"
#: The functional mechanism audited: q = 2, p = q/2 (Chapter 8's E2), at the run's ``basis_order``.
Q = 2.0
#: The baseline's geometric schedule (c, ρ_s, ρ_η) of Chapter 8's accountant panel, and the messages
#: audited (the loss of the later ones is below 10⁻⁷ of the total).
SCHEDULE, MESSAGES = (0.1, 0.9, 0.95), 300
#: The provenance of the rows: Chapter 8's quadratics are synthetic, drawn from ``data_seed``; the
#: accountant's and the release's bounds are suprema over the whole set S.
DATA = "synthetic: Chapter 8's quadratics; bounds over all of S"
#: The received averages over which :func:`state_gap` takes its supremum: a grid of ``[−Z_RANGE, Z_RANGE]``
#: (beyond it the projected states of two functions coincide or differ by less; the breakpoints of the
#: piecewise-linear gap are added to the grid).
Z_RANGE, Z_POINTS = 100.0, 20001
#: Measured on one core: the unprojected runs, 2·10⁻⁶ s per run, agent and message.
_RUN_SECONDS = 2e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """The unprojected runs and three sampling audits: one of ``basis_order`` coordinates and two of
    ``MESSAGES`` (``2·vector_draws·(K + 2·MESSAGES)`` draws), holding the statistics and a block of draws."""
    runs = _RUN_SECONDS * values["message_runs"] * values["n_agents"] * MESSAGES
    draws = 2 * values["vector_draws"] * (values["basis_order"] + 2 * MESSAGES)
    return Cost(seconds=runs + AUDIT_SECONDS * draws, peak=32.0 * values["vector_draws"] + 2**25)


def gradient_gap(z: ArrayLike, alpha: float, beta: float, u_bar: float) -> NDArray[np.float64]:
    """The largest ``|∇f(z) − ∇f′(z)|`` over two quadratics ``f = a(x − θ)²/2`` of the set S on D = [−1, 1]
    (curvature ``a ∈ [α, β]``, ``|∇f| ≤ ū`` on D), at points ``z``.

    ``θ ∈ [1 − ū/a, ū/a − 1]``, and ``∇f(z) = a(z − θ)`` is largest at ``θ = 1 − ū/a``, where it is
    ``ū + a(z − 1)``, and least at ``θ = ū/a − 1``, ``a(z + 1) − ū``; so the gap is
    ``2ū + max_a a(|z| − 1) − min_a a(|z| + 1)``: ``2ū − 2α`` on D, growing like ``(β − α)|z|`` outside."""
    r = np.abs(np.asarray(z, dtype=float))
    return 2 * u_bar + np.where(r > 1, beta, alpha) * (r - 1) - alpha * (r + 1)


def state_gap(
    steps: ArrayLike, alpha: float, beta: float, u_bar: float, lower: float = -1.0, upper: float = 1.0
) -> NDArray[np.float64]:
    """Per step ``s``, the largest ``|proj_X(z − s∇f(z)) − proj_X(z − s∇f′(z))|`` over every ``z ∈ ℝ`` and
    every two quadratics ``f = a(x − θ)²/2`` of S (``a ∈ [α, β]``, ``θ ∈ [1 − ū/a, ū/a − 1]``), ``X =
    [lower, upper]``.

    ``g = z − s·a(z − θ)`` is linear in θ and in ``a``: its largest value is ``z + sū − s·a(z + 1)``
    (least ``a`` when ``z > −1``) and its least ``z − sū − s·a(z − 1)`` (least ``a`` when ``z < 1``).
    The projection is monotone, so the largest gap
    at ``z`` is ``proj(max g) − proj(min g)``; it is piecewise linear in ``z``, and the supremum is taken
    over a grid of ``[−Z_RANGE, Z_RANGE]`` with every breakpoint added.
    """
    s = np.atleast_1d(np.asarray(steps, dtype=float))[:, None]
    z = np.linspace(-Z_RANGE, Z_RANGE, Z_POINTS)
    breaks = [np.array([-1.0, 1.0])]
    for a in (alpha, beta):  # where either extreme crosses a face of X, per step
        for c in (lower, upper):
            breaks += [((c - s * (u_bar - a)) / (1 - s * a)).ravel(),
                       ((c + s * (u_bar - a)) / (1 - s * a)).ravel()]  # fmt: skip
    z = np.unique(np.concatenate([z, *breaks]))[None, :]
    hi = z + s * u_bar - s * np.where(z > -1, alpha, beta) * (z + 1)
    lo = z - s * u_bar - s * np.where(z < 1, alpha, beta) * (z - 1)
    return (np.clip(hi, lower, upper) - np.clip(lo, lower, upper)).max(axis=1)


def unprojected_reach(
    problem: fp.Problem, W: NDArray, steps: NDArray, scales: NDArray, runs: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Run the baseline as the slides outline it, ``x ← proj_X(z − s_k∇f(z))`` with ``z = Σ_j w_ij ξ_j``
    not projected, ``runs`` times, and return per message the largest ``|z|`` over runs and agents."""
    x = np.zeros((runs, problem.n_agents, 1))
    reach = np.zeros(len(steps))
    for k, step in enumerate(steps):
        z = W @ (x + rng.laplace(0.0, scales[k], x.shape))
        reach[k] = np.abs(z).max()
        x = np.clip(z - step * problem.gradients(z), problem.lower, problem.upper)
    return reach


def p004_audit(P: Parameters) -> ItemAudit:
    """Three rows at the run's ``eps``: the functional mechanism (the extremal shift, one V_q unit, at
    ``basis_order`` coefficients); the baseline's accountant (gradients over X); and the baseline's
    release, the change of the released state over every received average (:func:`state_gap`). Beside them,
    the gradients' gap at the averages ``message_runs`` runs reach (Chapter 8's quadratics, from
    ``data_seed``). Audited by sampling (stream ``p004-audit/audit``; the runs draw from
    ``p004-audit/runs``)."""
    K, p = P.basis_order, Q / 2
    gam = fp.gamma(P.eps, Q, p)
    scales = fp.laplace_scales(K, gam, p)
    shift = fp.extremal_shift(K, Q, p)
    shift = shift / fp.vq_norm(shift, Q)
    functional = float(fp.privacy_loss(shift, scales))
    quad = fp.quadratic_problem(P.n_agents, K, np.random.default_rng(P.data_seed))
    W = fp.lazy_metropolis(fp.chorded_ring(P.n_agents))
    S = quad.S
    stated = 2 * S.u_bar
    c, rho_s, rho_eta = SCHEDULE
    steps, noise = fp.geometric_schedule(
        MESSAGES, c, rho_s, rho_eta, fp.geometric_b0(P.eps, c, rho_s, rho_eta, stated)
    )
    on_x = float(gradient_gap(np.linspace(-1, 1, 2001), S.alpha, S.beta, S.u_bar).max())
    moved = state_gap(steps, S.alpha, S.beta, S.u_bar)
    reach = unprojected_reach(quad, W, steps, noise, P.message_runs, P.rng("p004-audit/runs"))
    gaps = gradient_gap(reach, S.alpha, S.beta, S.u_bar)
    confidence = row_confidence(P)
    tasks = [
        AuditTask("p004-functional", "shift", (tuple(shift), tuple(scales)), P.vector_draws, confidence),
        AuditTask("p004-message-x", "shift", (tuple(steps * on_x), tuple(noise[1:])), P.vector_draws,
                  confidence),
        AuditTask("p004-message-state", "shift", (tuple(moved), tuple(noise[1:])), P.vector_draws,
                  confidence),
    ]  # fmt: skip
    audited = run_audits(P, ITEM, tasks)
    adjacency = "one agent's function changed within S"
    rows = (
        MechanismAudit(
            "p004-functional", "004", "Theorem (functional Laplace)",
            f"functional perturbation, K = {K}, q = 2",
            "one agent's function, per unit of the V_2 norm", 1.0, gam, P.eps, 1.0,
            "extremal shift at K (attains the bound)", functional, audited["p004-functional"].epsilon_lower,
            confidence, P.vector_draws, data="none: a supremum over the V_2 unit ball",
        ),
        MechanismAudit(
            "p004-message-x", "004", "message perturbation (baseline)",
            "accountant: gradients over X, message moved by s_k·Δ", adjacency, stated, float(noise[0]), P.eps,
            on_x, "closed form over S's quadratics on X", float(np.sum(steps * on_x / noise[1:])),
            audited["p004-message-x"].epsilon_lower, confidence, P.vector_draws, audits="lemma", data=DATA,
        ),
        MechanismAudit(
            "p004-message-state", "004", "message perturbation (baseline)",
            "released messages: x(k+1) = proj_X(z − s_k∇f(z)) + noise", adjacency, stated * float(steps[0]),
            float(noise[0]), P.eps, float(moved.max()),
            f"sup over z ∈ [−{Z_RANGE:g}, {Z_RANGE:g}] and S, {MESSAGES} messages",
            float(np.sum(moved / noise[1:])), audited["p004-message-state"].epsilon_lower, confidence,
            P.vector_draws, data=DATA,
        ),
    )  # fmt: skip
    extra = {
        "reach": float(reach.max()), "reach_first": float(reach[0]), "on_x": on_x, "stated": stated,
        "functional_share": functional / P.eps, "gap_reached": float(gaps.max()),
        "state_ratio": float((moved / steps).max()), "state_first": float(moved[0]),
        "gap_shift_first": float(steps[0] * gaps[0]), "diameter": float(quad.upper.max() - quad.lower.min()),
    }  # fmt: skip
    checks = ref.p004_checks([rows[0]], rows[1], rows[2], float(gaps.max()))
    return ItemAudit(ITEM, rows, extra, {ITEM: checks})
