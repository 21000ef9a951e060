"""What the items of Chapter 2 share: the error-rate record and its Monte Carlo tasks, the gap tables,
the threshold ϱ of the authors' code, the verdict on a theorem (:class:`Verdict`, with the cases its
checks read from the sweeps' records), and the measured costs of the Monte Carlo sweeps.

The four sweeps (:mod:`~dpnet.chapters.distributed_mle.mle_errors_vs_eps`,
:mod:`~dpnet.chapters.distributed_mle.mle_errors_vs_k`,
:mod:`~dpnet.chapters.distributed_mle.mle_errors_vs_gap` and
:mod:`~dpnet.chapters.distributed_mle.mle_win_probability`) run :func:`dpnet.inference.error_rate_task`
through :func:`_keyed_sweep`, and write one :data:`Record` per point (:func:`_record`); so does the
small table of Theorem 4.1's proof's GM estimator
(:mod:`~dpnet.chapters.distributed_mle.mle_gm_every_round`), with the same cost model.

Their costs share one model, calibrated on this 2-core machine, one core (``DPNET_JOBS=1``), by least
squares on the four sweeps' measured time: 3.7 s at the quick defaults (2.1·10⁷ bounded draws,
1.1·10⁵ task replications), 22.7 s at R = 4000 (1.3·10⁸, 6.6·10⁵) and 38.3 s at n = 20, |Θ| = 8,
R = 1000 (3.7·10⁸, 1.3·10⁵). A task of ``R`` replications and ``K`` rounds draws ``R·K·n·|Θ|`` Laplace
variables, ``1000`` replications at a time (:data:`_CHUNK`), and holds a chunk's noise and
log-ratios, about 5 float64 arrays (:data:`_CHUNK_BYTES` a draw). Its seconds are
:data:`_DRAW_SECONDS` a draw, :data:`_REPLICATION_SECONDS` a replication (its beliefs, sets and counts)
and :data:`_ROUND_SECONDS` a round per chunk of 1000 replications (its per-round passes), which
dominate when π is small (:func:`_sweep_seconds`). The rounds of a task are bounded by
:func:`_round_bounds`; the bounds exceed the schedules' K by up to 1.5 ×, which the draw cost absorbs.
At π = 0.01 (K_f = 20 472), R = 20, two ε and two gaps, the ε sweep took 52.5 s and peaked at 0.44 GiB
(8.2·10⁴ task rounds: 6·10⁻⁴ s a round), the gap sweep 31.8 s (3.5·10⁻⁴ s a round).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.inference.rounds import rounds_thres_hoeffding, win_probabilities_corrected
from dpnet.mechanisms import clopper_pearson
from dpnet.reference import complexity
from dpnet.results import Check, Deviation
from dpnet.sweep import Stream, sweep

#: The log-belief threshold ϱ of the published ACTG runs, which the authors' code schedule uses.
CODE_RHO = complexity.ACTG_SETTING["rho"]
#: A gap of 0 in the gap sweep means this many noise scales, so that Θ* has one state.
GAP_FLOOR = 1e-6

#: Two-sided level of the intervals with which the book's checks compare a rate with an exact value
#: (wider than the figures' 95 %, so that the many comparisons of a run do not fail by chance).
CONSISTENCY = 0.999

#: One row of an error-rate table (:func:`_record`).
Record = dict[str, Any]
#: The largest K the gap sweep simulates for the corrected two-threshold rule (its K grows like 1/π²).
CORRECTED_K_MAX = 1000

#: Measured costs on this 2-core machine (one core, DPNET_JOBS=1), see the module's docstring.
_DRAW_SECONDS = 1e-7  # one Laplace draw of one agent, state, round and replication (as bounded below)
_REPLICATION_SECONDS = 1.4e-5  # one replication of one task: its beliefs, sets and counts
_ROUND_SECONDS = 5e-4  # one round of one task, per chunk of 1000 replications (its per-round passes)
_CHUNK = 1000  # replications simulated at once (inf.ErrorRateTask.chunk)
_CHUNK_BYTES = 44.0  # bytes held per draw of a chunk: its noise and log-ratios, about 5 float64 arrays


def _span(x: NDArray[np.float64], fmt: str = ".3f") -> str:
    """A value shared by every agent (at the precision of ``fmt``), or the range across agents."""
    lo, hi = format(float(np.min(x)), fmt), format(float(np.max(x)), fmt)
    return lo if lo == hi else f"{lo}–{hi}"


def _gap_table(n_agents: int, n_states: int, gap: float) -> NDArray[np.float64]:
    """Log-likelihoods whose one MLE state leads by ``gap`` noise scales when b = 1 (0: :data:`GAP_FLOOR`)."""
    return inf.gap_loglik(n_agents, n_states, max(gap, GAP_FLOOR))


# ------------------------------------------------------------------------------------------------
# Monte Carlo error rates
# ------------------------------------------------------------------------------------------------


def _task(
    loglik: NDArray[np.float64],
    eps: float,
    K: int,
    T: int | None = None,
    *,
    weights: NDArray[np.float64],
    delta: float,
    reps: int,
    rho: tuple[float, float] | None = None,
    freq: tuple[float, float] | None = None,
    thresholds_only: bool = False,
) -> inf.ErrorRateTask:
    """One error-rate point: log-belief thresholds ϱ (AM, GM) if given, else the oracle's τ = 1/K;
    ``thresholds_only``: the two-threshold sets of ``freq`` alone (same draws, no AM or GM)."""
    return inf.ErrorRateTask(
        loglik=loglik, eps=eps, K=K, T=T, delta=delta, n_reps=reps,
        tau_am=None if rho is not None else 1.0 / K, rho_am=None if rho is None else rho[0],
        tau_gm=None if rho is not None else 1.0 / K, rho_gm=None if rho is None else rho[1], weights=weights,
        freq_1=None if freq is None else freq[0], freq_2=None if freq is None else freq[1],
        thresholds_only=thresholds_only,
    )  # fmt: skip


def _keyed_sweep(
    tasks: Mapping[tuple[int, ...], inf.ErrorRateTask], stream: Stream, desc: str
) -> dict[tuple[int, ...], dict[str, float]]:
    """Run error-rate tasks, task ``key`` drawing from ``stream.child(*key)``; results keyed by ``key``."""
    key_of = {task: key for key, task in tasks.items()}
    out = sweep(inf.error_rate_task, list(key_of), stream, key=key_of.__getitem__, desc=desc)
    return {key_of[task]: result for task, result in out.items()}


def _record(out: Mapping[str, float], sweep_name: str, algorithm: str, est: str, **extra: Any) -> Record:
    """One row of the error-rate table: algorithm, ε, K, T and the rates of ``est`` with their intervals."""
    rec: Record = {
        "sweep": sweep_name, "algorithm": algorithm, "eps": out["eps"], "K": int(out["K"]),
        "T": None if math.isinf(out["T"]) else int(out["T"]), "noise_scale": out["noise_scale"],
        "n_reps": int(out["n_reps"]), **extra,
    }  # fmt: skip
    for kind in ("type1", "type2", "exact"):
        for suffix in ("", "_lo", "_hi"):
            rec[kind + suffix] = out[f"{est}_{kind}{suffix}"]
    return rec


def _consistent(record: Record, kind: str, value: float) -> bool:
    """Whether the rate ``kind`` of ``record`` is consistent with ``value`` at level :data:`CONSISTENCY`."""
    n = int(record["n_reps"])
    lo, hi = clopper_pearson(round(record[kind] * n), n, 1 - (1 - CONSISTENCY) / 2)
    return bool(lo <= value <= hi)


def _fails(records: Sequence[Record], kind: str, target: float) -> int:
    """How many rates exceed ``target`` beyond Monte Carlo error (interval entirely above it)."""
    return sum(inf.exceeds_target(r, kind, target) for r in records)


def _cases(records: Sequence[Record], kind: str, where: str) -> list[complexity.Rate]:
    """The rates ``kind`` of ``records`` as the cases of a bound check: ``where`` names the sweep, and
    each case its ε (``sweep == "epsilon"``) or its gap, and its K."""
    out = []
    for r in records:
        at = f"gap {r['gap']:g}" if "gap" in r else f"ε = {r['eps']:g}"
        out.append(
            (f"{where}, {at}, K = {r['K']}", float(r[kind]), float(r[f"{kind}_lo"]), float(r[f"{kind}_hi"]))
        )
    return out


@dataclass(frozen=True)
class Verdict:
    """The checks of a theorem of the papers against the chapter's Monte Carlo sweeps, keyed by item.

    Attributes
    ----------
    checks
        Item key → its checks: one per statement of the theorem (each error it bounds), the headline
        check that joins them, and the book's own checks of what the chapter says about them.
    """

    checks: Mapping[str, list[Check]]

    #: The theorems hold for any data and budget: every run tests them, whatever its parameters.
    paper_setting: ClassVar[bool] = True
    deviations: ClassVar[tuple[Deviation, ...]] = ()

    def check(self, name: str) -> Check:
        """The check ``name`` (of the verdict's one item)."""
        [checks] = self.checks.values()
        return next(c for c in checks if c.name == name)

    def metrics(self) -> dict[str, Any]:
        """None: the checks are the verdict's record (``reproduction`` in metrics.json)."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None."""
        return {}


def verdict_table(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """One row per check of ``verdicts``: its item, its name, whose claim it tests (the paper's, or the
    book's own statement about the run), its verdict (✓, ✗, – for undecided) and, for a bound, how many
    of its cases break it."""
    marks = {True: "✓", False: "✗", None: "–"}
    rows = []
    for verdict in verdicts:
        for item, checks in verdict.checks.items():
            for c in checks:
                head = c.detail.split(":")[0] if " cases" in c.detail.split(":")[0] else ""
                rows.append({"item": item, "check": c.name,
                             "whose claim": "the paper's" if c.against == "paper" else "the book's",
                             "verdict": marks[c.passed], "cases": head})  # fmt: skip
    return pd.DataFrame(rows)


def _corrected_rounds(values: Mapping[str, Any]) -> int:
    """The K of the corrected two-threshold rule
    (:func:`~dpnet.inference.schedules.schedule_thm43_corrected`), or 0 when it exceeds
    :data:`CORRECTED_K_MAX` and the gap sweep does not simulate it."""
    m, alpha, beta, pi = values["n_states"], values["alpha"], values["beta"], values["pi"]
    k1, k2 = rounds_thres_hoeffding(m, 1, alpha, beta, pi, pi, *win_probabilities_corrected(m, 1))
    K = inf.to_int_ceil(max(k1, k2), minimum=1)
    return K if K <= CORRECTED_K_MAX else 0


# ------------------------------------------------------------------------------------------------
# The sweeps' cost model
# ------------------------------------------------------------------------------------------------


def _round_bounds(values: Mapping[str, Any]) -> tuple[int, int]:
    """Bounds ``(K_r, K_f)`` on the rounds of the ε and gap sweeps' tasks.

    ``K_r = max(⌈|Θ| log(1/(1−β))⌉, ⌈2 log((|Θ|−1)/α)⌉)`` (Thms 4.1–4.2, corrected) and, for the
    frequency-threshold rules of Thm 4.3 and Cor 4.4, ``K_f = ⌈log(|Θ|/min(α, 1−β))/(2π²)⌉`` (π → 0
    makes it explode).
    """
    m, alpha, beta, pi = values["n_states"], values["alpha"], values["beta"], values["pi"]
    K_am = inf.to_int_ceil(inf.rounds_am(m, 1, beta, corrected=True), minimum=1)
    K_r = max(K_am, math.ceil(2 * math.log((m - 1) / alpha)), 1)
    K_f = max(math.ceil(math.log(m / min(alpha, 1 - beta)) / (2 * pi**2)), 1)
    return K_r, K_f


def _sweep_seconds(draws: float, replications: float, rounds: float) -> float:
    """Seconds of a sweep: its Laplace draws, its task replications, and its task rounds per chunk."""
    return _DRAW_SECONDS * draws + _REPLICATION_SECONDS * replications + _ROUND_SECONDS * rounds


def _chunk_bytes(replications: float, K: int, n: int, m: int) -> float:
    """Bytes a task of ``replications`` and ``K`` rounds holds while it runs: one chunk's draws."""
    return _CHUNK_BYTES * (min(replications, _CHUNK) * K) * n * m
