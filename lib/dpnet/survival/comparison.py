r"""Fig 6 of paper 003: how far each private algorithm lands from its own non-private twin.

On the ACTG 175 ddI/ZDV cohort split over ``n`` centres (the authors' round robin) with
``Θ = {0, θ₁}``, :func:`tvd_comparison` runs, for one budget ε, ``R`` independent replications of

- **GM, AM, two-threshold** (Algs 1–2) with the authors' code ``K`` and ``T``
  (:func:`~dpnet.survival.studies.code_schedule`); their non-private twin is Alg 4 at the same ``T`` (for the
  two-threshold rule, the frequency with which each state leads a round);
- **OL** (Alg 3) on the cohort streamed in periods (:func:`~dpnet.survival.streams.period_loglik`), noise
  ``Lap(Δ|Θ|/ε)`` per centre, state and period; twin: Alg 5;
- **first-order** DP diffusion (§14.4, :mod:`dpnet.inference.first_order`) for ``T`` steps (the MLE's
  ``T``), from ``θ_{i,0} ~ U(−B_θ, B_θ)`` shared with its non-private twin, reporting the belief
  ``expit(Λ_i(θ_{i,T}) − Λ_i(0))`` on ``θ₁`` (the paper's p-value statistic turned into a belief; note
  ``note-ti-first-order``).

The metric is the total variation distance between the private and the non-private beliefs at the last
iteration, averaged over the centres: one number per replication and algorithm.

Two variants (:data:`VARIANTS`):

- ``"paper"``: eq. (3)'s likelihood, noise ``ΔK|Θ|/ε``, Alg 3's terminal belief ``softmax(ψ_T)``, and
  the first-order update as §14.4 writes it (per-centre clip ``2B_θB_x``, noise ``2B_xB_θTη/ε``);
- ``"as_published"``: the authors' notebook (note ``note-ti-fig6-variant``): its likelihood, twice the MLE
  noise, the OL "belief" ``softmax(ψ_T/T)`` of the time-averaged ratio, and its first-order baseline
  (gradients of all centres clipped jointly in L1 norm to ``B_θB_x``, noise ``B_xB_θTη/ε``, a ridge
  term ``0.1 · n_i · θ`` in each centre's gradient). The notebook's score orders tied times by sort
  position; both variants use eq. (3)'s Breslow score, which differs only at ties.

The published figure also added one ``U(0, 0.05)`` jitter to every curve and averaged the two-threshold
TVD over all iterations (note ``note-ti-fig6-jitter``); neither is done here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.inference import (
    PrivateMLEResult,
    am_beliefs,
    dp_diffusion,
    first_order_clip,
    first_order_noise_scale,
    gm_log_beliefs,
    laplace_noise,
    noise_scale,
    online_beliefs,
    online_log_ratios,
    round_counts,
    scaled_log_ratios,
    total_variation,
)
from dpnet.params import choice, integer, real
from dpnet.survival.binary import binary_cox, centre_cox
from dpnet.survival.centres import centre_loglik, cohort_centres
from dpnet.survival.cox import cox_sensitivity
from dpnet.survival.streams import period_loglik
from dpnet.survival.studies import code_schedule

__all__ = [
    "ALGORITHMS",
    "AS_PUBLISHED_RIDGE",
    "FIRST_ORDER_READINGS",
    "VARIANTS",
    "ComparisonTask",
    "error_ratio",
    "paired_means",
    "ratio_summary",
    "tvd_comparison",
    "tvd_records",
]

#: The algorithms of Fig 6, in its panel order.
ALGORITHMS: tuple[str, ...] = ("GM", "AM", "two-threshold", "OL", "first-order")
#: The paper's mathematics, and the authors' notebook.
VARIANTS: tuple[str, ...] = ("paper", "as_published")
#: The ridge coefficient of the notebook's first-order gradients (multiplied by the centre's size).
AS_PUBLISHED_RIDGE = 0.1
#: Further distances of the first-order method, recorded for the paper's variant only (note
#: ``note-ti-fig6-ground-truth``): to the belief its update reports at the pooled maximum-likelihood estimate
#: ``θ̂`` (its own ground truth), to the maximum-likelihood state of ``Θ`` (belief 1 there: the MLE
#: algorithms' ground truth), and to its twin with twice the paper's noise (the scale that clipping alone
#: makes ε-DP, :func:`~dpnet.inference.first_order.clipped_step_sensitivity`).
FIRST_ORDER_READINGS: tuple[str, ...] = (
    "first-order to θ̂",
    "first-order to MLE state",
    "first-order, 2× noise",
)


@dataclass(frozen=True, eq=False)
class ComparisonTask:
    """One point of Fig 6: a cohort, a number of centres, a budget and a variant.

    Attributes
    ----------
    x, time, event, row_index
        The two-arm cohort (``x = 1`` treated) and its original row numbers (the round-robin split).
    n_centres, eps, variant
        Centres on a complete graph, privacy budget ε, ``"paper"`` or ``"as_published"``.
    theta_alt
        The alternative ``θ₁`` (``Θ = {0, θ₁}``); also ``B_θ`` of the sensitivity ``Δ = 2|θ₁|``.
    alpha, rho
        ``α = 1 − β`` and ϱ of the authors' ``K``, ``T`` formulas.
    period_length
        OL period, in the cohort's time unit.
    lr, b_theta
        The first-order method's learning rate and parameter bound ``B_θ``.
    n_reps
        Replications ``R``.
    """

    x: NDArray[np.float64]
    time: NDArray[np.float64]
    event: NDArray[np.float64]
    row_index: NDArray[np.int64]
    n_centres: int
    eps: float
    variant: Literal["paper", "as_published"]
    theta_alt: float
    alpha: float
    rho: float
    period_length: float
    lr: float
    b_theta: float
    n_reps: int


def tvd_comparison(task: ComparisonTask, rng: np.random.Generator) -> dict[str, Any]:
    """Run one :class:`ComparisonTask`: per-replication TVDs of every algorithm of :data:`ALGORITHMS`.

    Returns ``{"K", "T", "periods", "tvd", "first_order_drift", "first_order_error"}`` with
    ``tvd[algorithm]`` of shape ``(n_reps,)`` for every algorithm of :data:`ALGORITHMS` and, for the
    paper's variant, of :data:`FIRST_ORDER_READINGS` (drawn after the others, so that they leave the
    others' draws unchanged). For the non-private first-order twin, ``first_order_drift`` is
    the mean ``|θ_{i,T} − θ̄_0|`` (``θ̄_0`` the centres' average start, where consensus alone would take
    them: the drift is what the gradient steps added) and ``first_order_error`` the mean ``|θ_{i,T} − θ̂|``
    from the pooled maximum-likelihood estimate.
    """
    variant = choice(*VARIANTS)("variant", task.variant)
    n = integer(ge=2)("n_centres", task.n_centres)
    eps = real(gt=0.0)("eps", task.eps)
    R = integer(ge=1)("n_reps", task.n_reps)
    published = variant == "as_published"
    likelihood = "as_published" if published else "paper"
    A = networks.dense_weights("complete", n)
    a_star = networks.spectral_constants(A).a_star
    centres = cohort_centres(task.row_index, n)
    states = np.array([0.0, task.theta_alt])
    delta = cox_sensitivity(abs(task.theta_alt))
    table = centre_loglik(task.x, task.time, task.event, centres, states, variant=likelihood)
    sched = code_schedule(table, a_star=a_star, delta=delta, eps=eps, alpha=task.alpha, rho=task.rho,
                          convention="authors_code" if published else "paper")  # fmt: skip
    T = sched.T
    tvd: dict[str, NDArray[np.float64]] = {}

    # GM, AM, two-threshold against Alg 4
    mc = laplace_noise(rng, sched.noise_scale, n_reps=R, K=sched.K, n_agents=n, n_states=2)
    run = PrivateMLEResult(scaled=scaled_log_ratios(table, A, T, mc), T=T, noise_scale=sched.noise_scale)
    twin = scaled_log_ratios(table, A, T)[None]  # one noiseless round
    tvd["GM"] = _mean_tv(np.exp(gm_log_beliefs(run.scaled, T)), np.exp(gm_log_beliefs(twin, T)))
    tvd["AM"] = _mean_tv(am_beliefs(run.scaled, T), am_beliefs(twin, T))
    tvd["two-threshold"] = _mean_tv(round_counts(run.scaled, T, 0.0), round_counts(twin, T, 0.0))

    # OL against Alg 5
    stream = period_loglik(task.x, task.time, task.event, centres, states, period_length=task.period_length,
                           variant=likelihood)  # fmt: skip
    ol_noise = laplace_noise(
        rng, noise_scale(delta, 2, eps), n_reps=R, K=stream.shape[0], n_agents=n, n_states=2
    )
    kind = "time_average" if published else "terminal"
    tvd["OL"] = _mean_tv(online_beliefs(online_log_ratios(stream, A, ol_noise), kind=kind),
                         online_beliefs(online_log_ratios(stream, A), kind=kind))  # fmt: skip

    # first-order DP diffusion against its noiseless twin
    models = centre_cox(task.x, task.time, task.event, centres, variant=likelihood)
    sizes = np.bincount(centres, minlength=n).astype(float)
    ridge = AS_PUBLISHED_RIDGE * sizes if published else np.zeros(n)

    def gradient(theta: NDArray[np.float64]) -> NDArray[np.float64]:
        return models.score(theta) - ridge * theta

    convention = "authors_code" if published else "paper"
    clip = first_order_clip(task.b_theta, convention=convention)
    b = first_order_noise_scale(task.b_theta, 1.0, T=T, lr=task.lr, eps=eps, convention=convention)
    theta0 = rng.uniform(-task.b_theta, task.b_theta, size=(R, n))
    common = dict(T=T, lr=task.lr, clip=clip, convention=convention)
    private = dp_diffusion(gradient, A, theta0, noise_scale=b, rng=rng, **common)
    clean = dp_diffusion(gradient, A, theta0, noise_scale=0.0, rng=None, **common)
    null = models.loglik(np.zeros(n))
    belief_private = special.expit(models.loglik(private) - null)
    belief_clean = special.expit(models.loglik(clean) - null)
    tvd["first-order"] = np.abs(belief_private - belief_clean).mean(axis=-1)  # two states: TV = |Δ belief|
    theta_hat = binary_cox(task.x, task.time, task.event).lrt()[0]  # the pooled MLE (eq. 3)
    if not published:  # the other readings of "ground truth", and the noise clipping alone justifies
        truth = special.expit(models.loglik(np.full(n, theta_hat)) - null)
        mle_state = float(table[:, 1].sum() > table[:, 0].sum())  # the pooled MLE's state: 1 for θ₁
        tvd["first-order to θ̂"] = np.abs(belief_private - truth).mean(axis=-1)
        tvd["first-order to MLE state"] = np.abs(belief_private - mle_state).mean(axis=-1)
        doubled = dp_diffusion(gradient, A, theta0, noise_scale=2 * b, rng=rng, **common)
        belief_doubled = special.expit(models.loglik(doubled) - null)
        tvd["first-order, 2× noise"] = np.abs(belief_doubled - belief_clean).mean(axis=-1)
    return {
        "K": sched.K, "T": T, "periods": int(stream.shape[0]), "tvd": tvd,
        "first_order_drift": float(np.abs(clean - theta0.mean(axis=-1, keepdims=True)).mean()),
        "first_order_error": float(np.abs(clean - theta_hat).mean()),
    }  # fmt: skip


def tvd_records(tasks: Sequence[ComparisonTask], outputs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per task and algorithm (with the first-order readings of :data:`FIRST_ORDER_READINGS`
    where the task has them): variant, algorithm, n, eps, mean, sd and standard error ``se`` of the
    per-replication TVDs, with the task's ``K`` and ``T``."""
    rows = []
    for task, out in zip(tasks, outputs, strict=True):
        for algorithm in (*ALGORITHMS, *(k for k in FIRST_ORDER_READINGS if k in out["tvd"])):
            v = np.asarray(out["tvd"][algorithm], dtype=float)
            sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
            rows.append({
                "variant": task.variant, "algorithm": algorithm, "n": task.n_centres, "eps": task.eps,
                "mean": float(v.mean()), "sd": sd, "se": sd / math.sqrt(v.size), "K": out["K"], "T": out["T"],
            })  # fmt: skip
    return rows


def error_ratio(baseline: ArrayLike, ours: ArrayLike, *, confidence: float = 0.95) -> dict[str, float]:
    """How many times larger the baseline's mean TVD is than ours, with a two-sided confidence interval.

    Returns ``{"ratio", "low", "high"}``: the ratio of the means (``inf`` when our TVD is 0 in every
    replication) and ``baseline mean / (upper, lower)`` confidence limit of our mean. Our mean's limits
    are Clopper–Pearson's Beta quantiles at the summed TVD ``s = Σ_r TVD_r`` of ``R`` replications,
    ``B⁻¹(α/2; s, R − s + 1)`` and ``B⁻¹(1 − α/2; s + 1, R − s)``: exact for 0/1 values and conservative
    for values in ``[0, 1]``. So ``R`` zeros give ``low = baseline / (1 − (α/2)^{1/R})`` and
    ``high = inf``. The baseline's mean, over the same number of runs and far from 0, is taken as exact.
    """
    b, o = np.asarray(baseline, dtype=float), np.asarray(ours, dtype=float)
    if b.ndim != 1 or o.ndim != 1 or o.size < 1 or b.size < 1:
        raise ParameterError("baseline and ours must be non-empty 1-D arrays of per-replication TVDs")
    if np.any((o < 0) | (o > 1)):
        raise ParameterError("ours must hold total variation distances in [0, 1]")
    tail = (1.0 - real(gt=0.0, lt=1.0)("confidence", confidence)) / 2
    R, total = o.size, float(o.sum())
    upper = float(stats.beta.ppf(1 - tail, total + 1, R - total)) if total < R else 1.0
    lower = float(stats.beta.ppf(tail, total, R - total + 1)) if total > 0 else 0.0
    mean_b = float(b.mean())
    with np.errstate(divide="ignore"):
        return {
            "ratio": float(np.divide(mean_b, total / R)),
            "low": mean_b / upper,
            "high": float(np.divide(mean_b, lower)),
        }


def _mean_tv(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """Total variation per replication and agent, averaged over the agents: shape ``(R,)``."""
    return np.asarray(total_variation(p, q)).mean(axis=-1)


def paired_means(
    records: Sequence[Mapping[str, Any]], variant: str, *, algorithms: Sequence[str], baseline: str
) -> list[dict[str, Any]]:
    """Each algorithm's mean TVD beside the baseline's at the same point, in the records of
    :func:`tvd_records` for one variant.

    Returns one ``{"algorithm", "n", "eps", "mean", "baseline"}`` per record of an algorithm in
    ``algorithms`` whose point also has a record of ``baseline`` (an empty list when there is none).
    """
    mean = {(r["algorithm"], r["n"], r["eps"]): r["mean"] for r in records if r["variant"] == variant}
    return [
        {"algorithm": a, "n": n, "eps": e, "mean": m, "baseline": mean[(baseline, n, e)]}
        for (a, n, e), m in mean.items()
        if a in algorithms and (baseline, n, e) in mean
    ]


def ratio_summary(ratios: Sequence[Mapping[str, Any]], *, claim: float) -> dict[str, Any]:
    """The extremes of :func:`error_ratio` records (keys ``n``, ``eps``, ``ratio``, ``low``, ``high``):
    the smallest ratio, the largest finite one (``None`` if every ratio is infinite), the point whose
    lower confidence limit is largest, and whether ``claim`` lies below some point's upper limit."""
    if not ratios:
        raise ParameterError("ratio_summary needs at least one record")
    finite = [r for r in ratios if math.isfinite(r["ratio"])]
    return {
        "smallest": min(ratios, key=lambda r: r["ratio"]),
        "largest estimate": max(finite, key=lambda r: r["ratio"]) if finite else None,
        "largest assured": max(ratios, key=lambda r: r["low"]),
        "claim not excluded": any(r["high"] >= claim for r in ratios),
    }
