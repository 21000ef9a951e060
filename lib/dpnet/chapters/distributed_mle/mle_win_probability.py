"""The book's figure ``mle-win-probability``: the per-round win probability at zero gap.

The probability that the maximum-likelihood state wins a round when the gap vanishes, against ``|Θ|``,
and the probability that it never wins in K rounds (AM's Type II error at zero gap), counted with up to
ten times the chapter's replications (stream ``win-floor``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    Record,
    _chunk_bytes,
    _gap_table,
    _keyed_sweep,
    _record,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.mechanisms import clopper_pearson
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, guarantee_line, panel_row, plain_log, plot_error_rates
from dpnet.results import Check, Deviation

__all__ = ["FLOOR_ROUNDS", "WinFloor", "cost", "win_floor"]

#: Rounds per replication of the zero-gap win-probability count over ``|Θ|``.
FLOOR_ROUNDS = 10
#: Bytes the count keeps per replication and state: its beliefs and sets, and their concatenation.
_KEPT_BYTES = 80.0


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the win-probability count (:func:`win_floor`).

    It runs ``R′ = max(R, min(10 R, 4·10⁷/d))`` replications of ``d = n·(10·Σ_{m≤max(6,|Θ|)} m +
    |Θ|·ΣK_grid)`` draws (``K_grid``: the never-wins curve's rounds), about ``|K_grid| + 5`` tasks, with
    ``10·(max(6, |Θ|) − 1) + ΣK_grid`` rounds; it holds a chunk of ``min(R′, 1000)·max(K_grid)·n·|Θ|``
    draws at a time and keeps ``80·R′·max(6, |Θ|)`` bytes (at R = 200 000, K = 1 it kept 304 bytes a
    replication, ``|Θ|`` = 4).
    """
    n, m, R, beta = values["n_agents"], values["n_states"], values["replications"], values["beta"]
    K_paper = inf.to_int_ceil(inf.rounds_am(m, 1, beta), minimum=1)
    K_am = inf.to_int_ceil(inf.rounds_am(m, 1, beta, corrected=True), minimum=1)
    K_grid = _never_rounds(K_paper, K_am)  # the win-probability count's rounds, as in win_floor
    d = n * (FLOOR_ROUNDS * sum(range(2, max(6, m) + 1)) + m * sum(K_grid))
    floor_reps = max(R, min(10 * R, 4e7 / d))
    floor_rounds = FLOOR_ROUNDS * (max(6, m) - 1) + sum(K_grid)
    return Cost(
        seconds=_sweep_seconds(
            floor_reps * d, floor_reps * (len(K_grid) + 5), floor_rounds * math.ceil(floor_reps / _CHUNK)
        ),
        peak=_chunk_bytes(floor_reps, K_grid[-1], n, m),
        kept=_KEPT_BYTES * floor_reps * max(6, m),
    )


@dataclass(frozen=True)
class WinFloor:
    """The probability that the MLE state wins a round when the gap vanishes, and that it never wins.

    Attributes
    ----------
    n_states, beta, rounds
        The chapter's ``|Θ|``, β and Theorem 4.1's AM rounds (``"AM, paper"``, ``"AM, corrected"``).
    states
        The ``|Θ|`` of the win-probability count.
    win, lo, hi
        Per ``|Θ|``: the fraction of rounds won, and its 95 % Clopper–Pearson interval.
    n_rounds
        Rounds behind each fraction (replications × ``FLOOR_ROUNDS``).
    factor, replications
        The multiple of the chapter's replications used, and the replications per point.
    never
        Per K of the grid: AM's record at zero gap with the chapter's ``|Θ|`` (its Type II error is the
        probability that θ* never wins).
    """

    n_states: int
    beta: float
    rounds: Mapping[str, int]
    states: tuple[int, ...]
    win: NDArray[np.float64]
    lo: NDArray[np.float64]
    hi: NDArray[np.float64]
    n_rounds: int
    factor: int
    replications: int
    never: list[Record]

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def rows(self) -> list[Record]:
        """The zero-gap records of AM."""
        return list(self.never)

    @property
    def Ks(self) -> list[int]:
        """The rounds of the never-wins curve."""
        return [r["K"] for r in self.never]

    def at(self, K: int) -> Record:
        """AM's zero-gap record with ``K`` rounds."""
        return next(r for r in self.never if r["K"] == K)

    def exact_never(self, K: int) -> float:
        """``(1 − 1/|Θ|)^K``: the probability that θ* never wins in K rounds when the gap vanishes."""
        return (1 - 1 / self.n_states) ** K

    def win_at(self, n_states: int) -> tuple[float, float, float]:
        """The fraction of rounds won with ``n_states`` states, and its interval."""
        j = self.states.index(n_states)
        return float(self.win[j]), float(self.lo[j]), float(self.hi[j])

    def metrics(self) -> dict[str, Any]:
        """The win probabilities, under their metrics.json name."""
        return {
            "win_probability": {
                "n_states": self.states, "rate": self.win, "lo": self.lo, "hi": self.hi,
                "rounds": self.n_rounds,
                "paper_floor": [1 / (m - 1) for m in self.states],
            }
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the figure shows the counts, and ``error_rates`` holds AM's zero-gap records."""
        return {}

    def figure(self) -> Figure:
        """Left: the win probability against ``|Θ|``; right: the probability that θ* never wins, against K."""
        M, ms = self.n_states, np.array(self.states)
        fig, ax = panel_row(2, height=3.4)
        ax[0].errorbar(
            ms,
            self.win,
            yerr=[self.win - self.lo, self.hi - self.win],
            fmt="o",
            color="C0",
            capsize=3,
            label="simulated, gap → 0",
        )
        ax[0].plot(ms, 1 / ms, color="C0", lw=1, label="1/|Θ| (exchangeable)")
        ax[0].plot(ms, 1 / (ms - 1), color="0.2", ls="--", lw=1, label="1/(|Θ| − 1) (the proofs)")
        ax[0].set(xlabel="states |Θ|", ylabel="P[θ* wins a round]", xticks=list(self.states))
        ax[0].legend()
        plot_error_rates(
            ax[1], np.array(self.Ks), self.never, "type2", label="simulated", color="C1", ls="none"
        )
        Kd = np.arange(1, self.Ks[-1] + 1)
        ax[1].plot(Kd, (1 - 1 / M) ** Kd, color="C1", lw=1, label="(1 − 1/|Θ|)^K")
        ax[1].plot(
            Kd, (1 - 1 / (M - 1)) ** Kd, color="0.2", ls="--", lw=1, label="(1 − 1/(|Θ| − 1))^K (the proofs)"
        )
        guarantee_line(ax[1], 1 - self.beta, "1 − β", ls="-.")
        for name, ls in (("AM, paper", ":"), ("AM, corrected", "-")):
            ax[1].axvline(
                self.rounds[name], color="0.5", lw=1, ls=ls, label=f"{name} K = {self.rounds[name]}"
            )
        ax[1].set(xlabel="rounds K", ylabel="P[θ* never wins]", yscale="log")
        plain_log(ax[1].yaxis)
        ax[1].legend(fontsize=SMALL)
        return fig  # fmt: skip


def _never_rounds(paper: int, corrected: int) -> list[int]:
    """The rounds K of the never-wins curve: 14 points from 1 to ``max(16, corrected + 2)`` on a log
    scale, and AM's paper and corrected K (``paper ≤ corrected``)."""
    top = max(16, corrected + 2)
    return sorted({*np.unique(np.round(np.geomspace(1, top, 14)).astype(int)).tolist(), paper, corrected})


def win_floor(P: Parameters, inst: Instance, rounds: Mapping[str, int]) -> WinFloor:
    """Count wins at zero gap (stream ``win-floor``; task ``(0, ``|Θ|``)`` per ``|Θ|``, ``(1, K)`` per K).

    Uses up to ten times the chapter's replications, at most about 4·10⁷ Laplace draws in all;
    ``rounds`` are the AM round counts of
    :class:`~dpnet.chapters.distributed_mle.mle_errors_vs_gap.GapSweep`.
    """
    n, M, R = P.n_agents, P.n_states, P.replications
    states = tuple(range(2, max(6, M) + 1))
    K_grid = _never_rounds(rounds["AM, paper"], rounds["AM, corrected"])
    draws_per_rep = n * (FLOOR_ROUNDS * sum(states) + M * sum(K_grid))
    factor = int(max(1, min(10, 4e7 // (R * draws_per_rep))))
    opts = {"weights": inst.weights, "delta": 1.0, "reps": factor * R}
    tasks = {(0, m): _task(_gap_table(n, m, 0.0), FLOOR_ROUNDS * m, FLOOR_ROUNDS, **opts) for m in states}
    tasks |= {(1, K): _task(_gap_table(n, M, 0.0), K * M, K, **opts) for K in K_grid}
    out = _keyed_sweep(tasks, P.stream("win-floor"), "win probability")
    win = np.array([out[(0, m)]["am_belief_mle"] for m in states])  # fraction of rounds won
    n_rounds = factor * R * FLOOR_ROUNDS
    lo, hi = clopper_pearson(np.round(win * n_rounds).astype(int), n_rounds, 0.975)
    never = [
        _record(out[(1, K)], "floor", f"AM at zero gap, |Θ| = {M}", "am", gap=0.0, theorem="4.1")
        for K in K_grid
    ]
    return WinFloor(M, P.beta, rounds, states, win, lo, hi, n_rounds, factor, factor * R, never)  # fmt: skip
