"""The book's table ``gm_every_round``: Theorem 4.1's GM bound under the reading of its proof.

The proof of Theorem 4.1's GM bound (paper 003 §9.2, paper 000 App. A) keeps a state only if the state
wins every one of the K rounds. That estimator can be computed from the K one-hot rounds of the
``T → ∞`` oracle (the two-threshold set with ``τ¹ = 1``), but it is not Alg 1's geometric mean (eq. (13)),
whose limit keeps the leader of the round-averaged noisy log-likelihood. This module runs the proof's
estimator with the paper's ``K_GM = ⌈|Θ*| log(|Θ̄|/α)⌉`` at zero gap (``|Θ*| = 1``, Laplace scale 1,
stream ``gm-every-round``) for ``|Θ|`` = 2, 3, 4 and the chapter's ``|Θ|``, in two configurations:

* *all tied*: every state level with θ* (θ* ahead by ``GAP_FLOOR``); a false state wins
  a round with probability ``1/|Θ|``, and the Type I error is exactly ``(|Θ| − 1)/|Θ|^K``;
* *one tied*: one false state level with θ*, the others :data:`FAR` noise scales behind; the tied
  state wins a round with probability 1/2 and the Type I error is ``2^{−K}`` (the others never win).

Only one state can win every round, so the events are disjoint and the exact values are sums. Its
records are the cases of the ``gm-type1-every-round`` checks of Theorem 4.1 and paper 000's Theorem 3.1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    GAP_FLOOR,
    Record,
    _chunk_bytes,
    _keyed_sweep,
    _record,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["FACTOR", "FAR", "EveryRound", "cost", "every_round", "every_round_exact"]

#: Multiple of the chapter's replications: the excess over α at ``|Θ| = 3`` is about one point.
FACTOR = 5
#: How far behind θ* the untied false states are, in noise scales: they never win a round.
FAR = 1000.0
#: The configurations: name → whether the other false states are tied too.
CONFIGURATIONS = {"all tied": True, "one tied": False}


def _states(n_states: int) -> list[int]:
    """The ``|Θ|`` of the table: 2, 3, 4 and the chapter's."""
    return sorted({2, 3, 4, n_states})


def _rounds(n_states: int, alpha: float) -> int:
    """The paper's ``K_GM`` for ``|Θ*| = 1``."""
    return inf.to_int_ceil(inf.rounds_gm(n_states, 1, alpha), minimum=1)


def _cases(n_states: int) -> list[tuple[int, str]]:
    """(``|Θ|``, configuration) of the table; with two states the two configurations coincide."""
    return [(m, c) for m in _states(n_states) for c in CONFIGURATIONS if m > 2 or c == "all tied"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the table: one task of ``5R`` replications per case (at most 7), each
    ``K ≤ ⌈log(|Θ̄|/α)⌉`` rounds of ``n·|Θ|`` draws."""
    n, R, alpha = values["n_agents"], FACTOR * values["replications"], values["alpha"]
    cases = _cases(values["n_states"])
    draws = sum(R * _rounds(m, alpha) * n * m for m, _ in cases)
    rounds = sum(_rounds(m, alpha) for m, _ in cases) * math.ceil(R / _CHUNK)
    top = max(_rounds(m, alpha) for m, _ in cases)
    return Cost(
        seconds=_sweep_seconds(draws, R * len(cases), rounds),
        peak=_chunk_bytes(R, top, n, max(m for m, _ in cases)),
    )


def every_round_exact(n_states: int, K: int, configuration: str) -> float:
    """The exact Type I error of the proof's estimator at zero gap: ``(|Θ| − 1)/|Θ|^K`` when every
    state is tied, ``2^{−K}`` when one false state is tied with θ* and the others never win."""
    if configuration not in CONFIGURATIONS:
        raise ValueError(f"configuration must be one of {sorted(CONFIGURATIONS)} (got {configuration!r})")
    if CONFIGURATIONS[configuration] or n_states == 2:
        return (n_states - 1) / n_states**K
    return 0.5**K


def _table(n_agents: int, n_states: int, configuration: str) -> NDArray[np.float64]:
    """Log-likelihoods with θ* (state 0) level with one false state, or with all of them."""
    table = np.zeros((n_agents, n_states))
    table[:, 0] = GAP_FLOOR / n_agents
    if not CONFIGURATIONS[configuration]:
        table[:, 2:] = -FAR / n_agents
    return table


@dataclass(frozen=True)
class EveryRound:
    """The Type I error of the estimator Theorem 4.1's proof bounds: a state kept only if it wins
    every round (``T → ∞``, zero gap, ``|Θ*| = 1``, the paper's ``K_GM``).

    Attributes
    ----------
    alpha
        The target α.
    records
        One per case: the error-rate record of the estimator (its ``type1`` with the 95 % interval),
        with its ``n_states``, ``configuration`` and exact value ``type1_exact``.
    replications
        Replications per case (:data:`FACTOR` times the chapter's).
    """

    alpha: float
    records: list[Record]
    replications: int

    #: The book's own experiment: the theorems' checks read its records.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def rows(self) -> list[Record]:
        """Every record."""
        return list(self.records)

    @property
    def table(self) -> pd.DataFrame:
        """Per case: ``|Θ|``, the configuration, K, the simulated Type I error, its 95 % interval and the
        exact value."""
        return pd.DataFrame(
            [
                {
                    "|Θ|": r["n_states"], "configuration": r["configuration"], "K": r["K"],
                    "simulated Type I": r["type1"],
                    "95 % interval": f"{r['type1_lo']:.4f}–{r['type1_hi']:.4f}", "exact": r["type1_exact"],
                    "above α": "yes" if r["type1_exact"] > self.alpha else "no",
                }
                for r in self.records
            ]
        )  # fmt: skip

    def at(self, n_states: int, configuration: str = "one tied") -> Record:
        """The record of ``n_states`` states in ``configuration`` (two states: the one configuration)."""
        want = "all tied" if n_states == 2 else configuration
        return next(r for r in self.records if r["n_states"] == n_states and r["configuration"] == want)

    def failing_states(self) -> list[int]:
        """The ``|Θ|`` whose exact Type I error exceeds α in some configuration."""
        return sorted({r["n_states"] for r in self.records if r["type1_exact"] > self.alpha})

    def metrics(self) -> dict[str, Any]:
        """None of its own: its records go to ``error_rates``."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table, written to ``tables/``."""
        return {"gm_every_round": self.table}


def every_round(P: Parameters, inst: Instance) -> EveryRound:
    """Run the proof's GM estimator in every case (stream ``gm-every-round``, task ``(|Θ|, c)``, ``c`` the
    configuration's position in ``CONFIGURATIONS``); ``ε = K|Θ|`` and ``Δ = 1`` make the Laplace
    scale 1. The instance lends only its number of agents (the oracle needs no weights)."""
    n, reps = inst.n, FACTOR * P.replications
    names = list(CONFIGURATIONS)
    tasks = {}
    for m, config in _cases(P.n_states):
        K = _rounds(m, P.alpha)
        tasks[(m, names.index(config))] = _task(
            _table(n, m, config), K * m, K, weights=inst.weights, delta=1.0, reps=reps, freq=(1.0, 1.0),
            thresholds_only=True,
        )  # fmt: skip
    out = _keyed_sweep(tasks, P.stream("gm-every-round"), "GM, every round")
    records = []
    for (m, c), res in out.items():
        config = names[c]
        K = int(res["K"])
        records.append(
            _record(
                res, "every-round", f"won every round (Thm 4.1's proof), |Θ| = {m}, {config}", "thres1",
                gap=0.0, theorem="4.1", n_states=m, configuration=config,
                type1_exact=every_round_exact(m, K, config),
            )
        )  # fmt: skip
    records.sort(key=lambda r: (r["n_states"], names.index(r["configuration"])))
    return EveryRound(P.alpha, records, reps)
