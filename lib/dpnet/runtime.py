r"""Timing the private distributed test against a homomorphic-encryption baseline (paper 003 §14.3).

Both methods ask, on the same centres, whether a binary covariate changes the hazard:

- **DP** (:func:`time_dp_test`): each centre computes its log-likelihood of the two states and adds
  Laplace noise for ``K`` rounds (*local*); the centres then run ``K`` rounds of ``T`` belief exchanges,
  literally, one iteration at a time, and aggregate by GM into the test statistic ``S_i``
  (*communication*: Alg 1 and the §4.2 statistic). The *simple* test (the authors' runtime notebook)
  uses the Cox partial log-likelihood at ``Θ = {0, θ₁}``; the *composite* test (``θ = 0`` against
  ``θ ≠ 0``, the test §14.3 describes) each centre's ridge-penalised GLRT with ``|θ| ≤ B_θ``
  (:func:`~dpnet.survival.treatments.bounded_glrt`), a local Cox fit. ``K`` and ``T`` come from the
  authors' code formulas with the settings of their runtime study (:data:`RUNTIME_SETTING`).
- **HE** (:func:`time_he_test`): each centre counts its patients at risk and its events by covariate
  on a public time grid and encrypts the counts under CKKS (*local*); an aggregator adds the
  ciphertexts (*communication*, including (de)serialisation of every message); the key holder decrypts
  the pooled counts and computes the exact pooled likelihood-ratio test, the composite test's
  centralised counterpart (*decryption*). Key generation is *setup*. See :mod:`dpnet.encrypted`.

Times are wall-clock seconds (:func:`time.perf_counter`) of a sequential simulation in one process,
pinned to one CPU core while it runs where the operating system allows it (:func:`one_core`). *Total* is
the sum of the phases: the work of all centres together. A centre's own share of the local phase is
*local per centre* (local / n). Unlike the chapters' statistics, timings are measurements: they vary
from run to run and from machine to machine.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from dpnet import encrypted, networks
from dpnet.inference import gm_test_statistic, iterate_log_beliefs, laplace_noise
from dpnet.params import choice, integer, real
from dpnet.survival.binary import counts_likelihood, risk_set_counts
from dpnet.survival.centres import _labels
from dpnet.survival.cox import check_cohort, cox_partial_loglik, cox_sensitivity
from dpnet.survival.studies import code_schedule
from dpnet.survival.treatments import bounded_glrt

__all__ = [
    "DP_TESTS",
    "METHODS",
    "PHASES",
    "RUNTIME_SETTING",
    "RuntimeTask",
    "Timing",
    "one_core",
    "resample_rows",
    "runtime_task",
    "speedups",
    "time_dp_test",
    "time_he_test",
]

#: The DP tests :func:`time_dp_test` times: against one alternative, or against ``θ ≠ 0``.
DP_TESTS: tuple[str, ...] = ("simple", "composite")
DPTest = Literal["simple", "composite"]

#: The phases recorded for each method (the DP test has no setup or decryption: 0 s).
PHASES: tuple[str, ...] = ("setup", "local", "communication", "decryption", "total", "local per centre")
#: The authors' runtime study (their notebook; note ``note-ti-runtime``): ε = 0.1, α = 1 − β = 0.1, ϱ = 0.01.
RUNTIME_SETTING: dict[str, float] = {"eps": 0.1, "alpha": 0.1, "rho": 0.01}


@dataclass(frozen=True)
class Timing:
    """Seconds per phase of one run of a method, and what the run concluded.

    Attributes
    ----------
    seconds
        Phase name (:data:`PHASES`) → seconds.
    result
        What the method computed: for DP, ``K``, ``T`` and the centres' mean statistic ``S``; for HE,
        the pooled ``θ̂``, likelihood-ratio statistic and p-value, and the bytes sent.
    """

    seconds: dict[str, float]
    result: dict[str, float]


@contextlib.contextmanager
def one_core() -> Iterator[None]:
    """Pin this process to one CPU core while the block runs (Linux), then restore its affinity."""
    get = getattr(os, "sched_getaffinity", None)
    put = getattr(os, "sched_setaffinity", None)
    if get is None or put is None:
        yield
        return
    before = get(0)
    put(0, {min(before)})
    try:
        yield
    finally:
        put(0, before)


def resample_rows(n_source: int, rows: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """Row numbers of a cohort of ``rows`` patients resampled with replacement from ``n_source``."""
    n_source = integer(ge=1)("n_source", n_source)
    return rng.integers(0, n_source, size=integer(ge=1)("rows", rows))


def _phases(setup: float, local: float, communication: float, decryption: float, n: int) -> dict[str, float]:
    total = setup + local + communication + decryption
    return {"setup": setup, "local": local, "communication": communication, "decryption": decryption,
            "total": total, "local per centre": local / n}  # fmt: skip


def time_dp_test(
    x: ArrayLike,
    time_: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    *,
    theta_alt: float,
    rng: np.random.Generator,
    test: DPTest = "simple",
    penalizer: float = 0.0,
    eps: float = RUNTIME_SETTING["eps"],
    alpha: float = RUNTIME_SETTING["alpha"],
    rho: float = RUNTIME_SETTING["rho"],
) -> Timing:
    """Time the private test of ``θ = 0`` on a complete network of the given centres: against ``θ₁``
    (``test="simple"``) or against ``θ ≠ 0`` with ``|θ| ≤ |θ₁|`` (``"composite"``).

    *local*: every centre's log-likelihoods of the two states, the partial log-likelihood at
    ``{0, θ₁}`` (eq. 3; simple) or ``0`` and its GLRT ``max_{|θ|≤|θ₁|}[Λ(θ) − cθ²] − Λ(0)`` with ridge
    ``penalizer`` (composite, :func:`~dpnet.survival.treatments.bounded_glrt`), plus its ``K × 2``
    Laplace draws of scale ``ΔK|Θ|/ε`` (``Δ = 2|θ₁|``, binary covariate); *communication*: ``K`` rounds of
    ``T`` iterations of eq. (12) in log space (:func:`~dpnet.inference.trajectories.iterate_log_beliefs`)
    and the GM statistic. ``K`` and ``T`` depend on the centres' likelihoods, so they are computed
    between the two phases (untimed) by :func:`~dpnet.survival.studies.code_schedule` with the paper's
    noise ``ΔK|Θ|/ε``.
    """
    xs, ts, ev = check_cohort(x, time_, event)
    labels, n = _labels(centres, len(xs))
    theta_alt = real()("theta_alt", theta_alt)
    test = choice(*DP_TESTS)("test", test)
    states = np.array([0.0, theta_alt])
    delta = cox_sensitivity(abs(theta_alt))
    A = networks.dense_weights("complete", n)
    a_star = networks.spectral_constants(A).a_star
    masks = [labels == i for i in range(n)]
    start = time.perf_counter()
    if test == "simple":
        table = np.stack([cox_partial_loglik(xs[m], ts[m], ev[m], states) for m in masks])
    else:
        glrt = [bounded_glrt(xs[m], ts[m], ev[m], penalizer=penalizer, b_theta=abs(theta_alt)) for m in masks]
        table = np.stack([[0.0, g.value] for g in glrt])
    schedule_start = time.perf_counter()
    sched = code_schedule(
        table, a_star=a_star, delta=delta, eps=eps, alpha=alpha, rho=rho, convention="paper"
    )
    schedule_end = time.perf_counter()
    noise = laplace_noise(rng, sched.noise_scale, n_reps=1, K=sched.K, n_agents=n, n_states=2)[0]
    local = (schedule_start - start) + (time.perf_counter() - schedule_end)
    start = time.perf_counter()
    log_beliefs = iterate_log_beliefs(table, A, sched.T, noise)[-1]  # (K, n, |Θ|)
    statistic = gm_test_statistic(np.ldexp(log_beliefs, -sched.T))  # ψ̄ = log ν / 2^T: S_i of Prop 4.6
    communication = time.perf_counter() - start
    return Timing(
        seconds=_phases(0.0, local, communication, 0.0, n),
        result={"K": sched.K, "T": sched.T, "statistic": float(statistic.mean())},
    )


def time_he_test(
    x: ArrayLike,
    time_: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    *,
    grid: ArrayLike,
    keys: encrypted.CKKSKeys | None = None,
) -> Timing:
    """Time the CKKS baseline: encrypted risk-set counts, aggregated, decrypted, exact pooled LRT.

    ``grid`` is the public time grid (it must hold every event time). *setup*: key generation (skipped,
    0 s, when ``keys`` are given) and every party loading the public context; *local*: each centre's
    counts (:func:`~dpnet.survival.binary.risk_set_counts`) and their encryption; *communication*: the
    aggregator deserialising and adding all ciphertexts; *decryption*: the key holder decrypting and
    fitting the pooled Cox model (:meth:`~dpnet.survival.binary.BinaryCox.lrt`).
    """
    xs, ts, ev = check_cohort(x, time_, event)
    labels, n = _labels(centres, len(xs))
    g = np.asarray(grid, dtype=float)
    start = time.perf_counter()
    keys = keys or encrypted.ckks_keys()
    public = keys.public_context()
    setup = time.perf_counter() - start
    start = time.perf_counter()
    messages = []
    for i in range(n):
        m = labels == i
        counts = risk_set_counts(xs[m], ts[m], ev[m], g)
        messages.append(encrypted.encrypt_vector(public, counts.ravel(), keys.slots))
    local = time.perf_counter() - start
    start = time.perf_counter()
    total = encrypted.aggregate(public, messages)
    communication = time.perf_counter() - start
    start = time.perf_counter()
    pooled = encrypted.decrypt_vector(keys, total, g.size * 4).reshape(g.size, 4)
    theta_hat, lrt = counts_likelihood(pooled).lrt()
    decryption = time.perf_counter() - start
    sent = float(sum(len(c) for msg in messages for c in msg))
    return Timing(
        seconds=_phases(setup, local, communication, decryption, n),
        result={"theta_hat": theta_hat, "lrt": lrt, "p": float(stats.chi2.sf(lrt, 1)), "bytes": sent,
                "max_count_error": float(np.abs(pooled - np.rint(pooled)).max()) if pooled.size else 0.0},
    )  # fmt: skip


#: The methods of the runtime study, as recorded: the DP test against one alternative (the authors'
#: runtime notebook), the CKKS baseline, and the composite DP test (θ ≠ 0, the test §14.3 describes).
METHODS: tuple[str, ...] = (
    "DP (belief propagation)",
    "HE (CKKS aggregation)",
    "DP composite (belief propagation)",
)


@dataclass(frozen=True, eq=False)
class RuntimeTask:
    """One cohort size of the runtime study: ``rows`` patients resampled with replacement, split over each
    number of centres in ``n_values`` (round robin), timed ``repeats`` times per method: the simple DP
    test always, the CKKS baseline with ``with_he``, the composite DP test (ridge ``penalizer``) with
    ``with_composite``."""

    x: NDArray[np.float64]
    time: NDArray[np.float64]
    event: NDArray[np.float64]
    rows: int
    n_values: tuple[int, ...]
    repeats: int
    theta_alt: float
    with_he: bool
    with_composite: bool = False
    penalizer: float = 0.0


def runtime_task(task: RuntimeTask, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Time both methods on one resampled cohort for every number of centres (run sequentially, pinned
    to one core): records ``{method, n, rows, phase, seconds}`` (the median over the repeats) and, under
    ``"result"``, what the last repeat of each method computed."""
    idx = resample_rows(len(task.x), task.rows, rng)
    # the composite test draws from a generator of its own, so that adding it changes no other draw
    composite_rng = rng.spawn(1)[0] if task.with_composite else None
    x, t, e = task.x[idx], task.time[idx], task.event[idx]
    grid = np.unique(t[e == 1])  # the public time grid: the event times of the study
    records: list[dict[str, Any]] = []
    for n in task.n_values:
        centres = np.arange(task.rows) % n
        runs: dict[str, list[Timing]] = {m: [] for m in METHODS}
        with one_core():
            for _ in range(integer(ge=1)("repeats", task.repeats)):
                runs[METHODS[0]].append(time_dp_test(x, t, e, centres, theta_alt=task.theta_alt, rng=rng))
                if task.with_he:
                    runs[METHODS[1]].append(time_he_test(x, t, e, centres, grid=grid))
                if composite_rng is not None:
                    composite = time_dp_test(x, t, e, centres, theta_alt=task.theta_alt, rng=composite_rng,
                                             test="composite", penalizer=task.penalizer)  # fmt: skip
                    runs[METHODS[2]].append(composite)
        for method, timings in runs.items():
            if not timings:
                continue
            for phase in PHASES:
                seconds = float(np.median([tm.seconds[phase] for tm in timings]))
                record = {"method": method, "n": n, "rows": task.rows, "phase": phase, "seconds": seconds}
                records.append({**record, "result": timings[-1].result})
    return records


def speedups(
    records: Sequence[Mapping[str, Any]],
    phase: str = "total",
    *,
    dp: str = METHODS[0],
    without_setup: bool = False,
) -> dict[tuple[int, int], float]:
    """HE time over the time of DP method ``dp`` (:data:`METHODS`) in one phase, for every ``(n, rows)``
    timed with both; with ``without_setup``, HE's time less its setup (key generation)."""
    seconds = {(r["method"], r["n"], r["rows"], r["phase"]): r["seconds"] for r in records}
    he = METHODS[1]
    out = {}
    for method, n, rows, ph in seconds:
        if (
            method != dp
            or ph != phase
            or (he, n, rows, phase) not in seconds
            or seconds[(dp, n, rows, ph)] <= 0
        ):
            continue
        setup = seconds.get((he, n, rows, "setup"), 0.0) if without_setup else 0.0
        out[(n, rows)] = (seconds[(he, n, rows, phase)] - setup) / seconds[(dp, n, rows, ph)]
    return out
