"""What several items of Chapter 8 share: the cell of a trade-off sweep (E3, E4), the message
scheme's iterations and budgets (E6, E7), and the measured costs of a 2-D run and of the message
schedules run side by side (E4, E6, E7)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpnet import funcpert as fp

__all__ = [
    "MESSAGE_EPS",
    "MESSAGE_ITERATIONS",
    "ErrorTask",
    "cell_errors",
    "error_row",
    "message_bytes",
    "run_2d_bytes",
    "run_2d_seconds",
]

#: E6, E7: the message scheme's iterations, and the budgets of E6's tuned baseline (whose finite ones
#: E7 compares at nominal ε) (note-fp-message-accountant).
MESSAGE_ITERATIONS = 1500
MESSAGE_EPS = (1.0, 10.0, 100.0, 1000.0, math.inf)

#: Measured costs on this 2-core machine (one core). One 2-D logistic run (E4, E7) takes
#: ``10⁻⁷·n·K₂³`` seconds, about cubic in K₂ (the projection's quadratic programme): 0.16 s at
#: n = 10, M = 10, 0.57 s at n = 40, 0.99 s at M = 14 and 6.7 s at M = 18, averaged over the budgets
#: of E4 and E7. It holds its basis on its grid, ``2200·K₂²`` bytes.
_RUN_2D_SECONDS = 1e-7  # per n·K₂³
_RUN_2D_BYTES = 2200.0  # per K₂²
#: The message schedules run side by side (E6's tuned baseline, E7's record-level one): a block of
#: noise, and the states per run and agent.
_MESSAGE_BYTES = (2**24, 6200)


def run_2d_seconds(values: Mapping[str, Any]) -> float:
    """Seconds of one 2-D logistic run at the run's ``n_agents`` and ``degree_2d``."""
    M = values["degree_2d"]
    K2 = (M + 1) * (M + 2) // 2
    return _RUN_2D_SECONDS * values["n_agents"] * K2**3


def run_2d_bytes(values: Mapping[str, Any]) -> float:
    """Bytes a 2-D logistic run holds: its basis on its grid."""
    M = values["degree_2d"]
    K2 = (M + 1) * (M + 2) // 2
    return _RUN_2D_BYTES * K2**2


def message_bytes(values: Mapping[str, Any]) -> float:
    """Bytes the message schedules hold while they run side by side (the states of E7's 64 schedules)."""
    return float(_MESSAGE_BYTES[0] + _MESSAGE_BYTES[1] * values["n_agents"] * values["message_runs"])


@dataclass(frozen=True)
class ErrorTask:
    """One cell of a trade-off sweep: ``runs`` draws of Algorithm 1 on ``problem`` at (q, ε), p = q/2."""

    q: float
    eps: float
    runs: int
    problem: fp.Problem = field(compare=False, repr=False)


def cell_errors(task: ErrorTask, rng: np.random.Generator) -> NDArray[np.float64]:
    """The errors ``|x̃* − x*|`` of one cell (the sweep's task function)."""
    return fp.tradeoff_errors((task.problem, task.q, task.eps, task.runs), rng)


def error_row(problem: fp.Problem, q: float, eps: float, err: NDArray[np.float64]) -> dict[str, Any]:
    """The row of a trade-off table: the problem, (q, ε), the mean and the RMS error."""
    return {"problem": problem.name, "q": q, "eps": eps, "mean_error": float(err.mean()),
            "rms_error": float(np.sqrt(np.mean(err**2)))}  # fmt: skip
