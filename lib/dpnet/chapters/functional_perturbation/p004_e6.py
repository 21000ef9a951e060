"""Paper 004, the book's experiment E6: message perturbation, the baseline that perturbs a distributed
algorithm's messages (noise-free floors, a tuned grid of geometric schedules, two accountants) and the
impossibility result measured on adjacent inputs."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation._common import MESSAGE_EPS, MESSAGE_ITERATIONS, message_bytes
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_rows
from dpnet.reference import funcpert as ref
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.functional_perturbation.p004_e3 import Tradeoff

__all__ = [
    "ACCOUNTANT_LABELS",
    "ADJACENT_SHIFT",
    "FLOOR_ITERATIONS",
    "IMPOSSIBILITY_MESSAGES",
    "IMPOSSIBILITY_RADIUS",
    "MessagePerturbation",
    "cost",
    "message_perturbation",
]

#: The noise-free runs' iterations, the shift of agent 0's θ that makes the adjacent problem, and the
#: event radius of the impossibility demonstration (note-fp-message-accountant, note-fp-impossibility);
#: the message scheme's iterations and the budgets of the tuned baseline are ``MESSAGE_ITERATIONS`` and
#: ``MESSAGE_EPS``, which E7 shares.
FLOOR_ITERATIONS, ADJACENT_SHIFT = 3000, 0.8
IMPOSSIBILITY_MESSAGES, IMPOSSIBILITY_RADIUS = 100, 0.03
ACCOUNTANT_LABELS = {
    "geometric": "geometric (c, ρ_s, ρ_η) = (0.1, 0.9, 0.95), ε = 1",
    "convergent": "convergent $s_k ∝ k^{−0.7}$, $b_k ∝ 1/k$",
}

#: Measured costs on this 2-core machine (one core), see :func:`cost`.
_AGENT_SECONDS = 0.45  # the noise-free floors and the tuning, per agent
_MESSAGE_RUN_SECONDS = 0.14  # one message-perturbation run at every budget (1-D)
_IMPOSSIBILITY_SECONDS = 3.3e-5  # one run of the impossibility demonstration, per agent
_IMPOSSIBILITY_BYTES = 4900  # the same run's messages and log-ratios, per agent


def cost(values: Mapping[str, Any]) -> Cost:
    """E6: ``0.45·n + 0.14·message_runs + 3.3·10⁻⁵·n·impossibility_runs`` seconds (``n = n_agents``),
    holding the larger of the impossibility demonstration, ``4900·n·impossibility_runs`` bytes, and the
    message schedules run side by side, ``2²⁴ + 6200·n·message_runs``.

    Calibrated on this 2-core machine, one core: E6 took 8.3 s and 47 MiB at the earlier quick defaults
    (20 message runs), 11.3 s and 0.46 GiB at 10 000 impossibility runs, 16.5 s and 0.18 GiB at n = 40.
    Since the schedules of the tuned baseline run side by side, its 80 schedules took 0.85 s at 5
    message runs and 7.0 s at 50.
    """
    n, imp, messages = values["n_agents"], values["impossibility_runs"], values["message_runs"]
    seconds = _AGENT_SECONDS * n + _MESSAGE_RUN_SECONDS * messages + _IMPOSSIBILITY_SECONDS * n * imp
    return Cost(seconds=seconds, peak=max(float(_IMPOSSIBILITY_BYTES * n * imp), message_bytes(values)))


@dataclass(frozen=True)
class MessagePerturbation:
    """E6: the message-perturbing baseline (noise-free floors, a tuned grid of geometric schedules, two
    accountants) and the impossibility result measured on adjacent inputs."""

    x_star: NDArray[np.float64]  # the agents' optimum
    shifted: fp.Problem
    floors: Mapping[str, float]
    predictions: Mapping[str, float]  # the consensus prediction of the floors of Σ s_k = 1
    tuned: pd.DataFrame
    accountants: Mapping[str, NDArray[np.float64]]
    impossibility: Mapping[str, NDArray[np.float64]]
    impossibility_runs: int
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E6 that a run could leave.
    paper_setting = True

    @property
    def best(self) -> pd.DataFrame:
        """The best schedule of the grid at each ε, chosen after the fact."""
        return self.tuned.loc[self.tuned.groupby("eps")["error"].idxmin()].sort_values("eps")

    @property
    def schedules(self) -> int:
        """How many schedules the grid has."""
        return len(self.tuned.groupby(["c", "rho_s", "rho_eta"]))

    def log_ratio(self, K: int) -> float:
        """The 95 % lower confidence bound on the log-ratio at message ``K``."""
        return float(self.impossibility["log_ratio_lower"][K - 1])

    def hits_adjacent(self, K: int) -> int:
        """How many of the runs under the adjacent input land in the event at message ``K``."""
        return int(self.impossibility["hits_I_prime"][K - 1])

    @property
    def log_ratio_cap(self) -> float:
        """The largest lower bound ``R`` runs can show: every run under I in the event, none under I′."""
        R = self.impossibility_runs
        return float(fp.log_ratio_lower_bound(R, R, 0, R, ref.IMPOSSIBILITY_ALPHA))

    @property
    def travel(self) -> str:
        """The floor of Σ s_k = 1 that the consensus prediction is checked on: the problem whose optimum
        lies farther from the start ``x(0) = 0`` (``floor-short`` or ``floor-shifted``)."""
        return max(("floor-short", "floor-shifted"), key=lambda k: abs(self.start_distance[k]))

    @property
    def start_distance(self) -> dict[str, float]:
        """``|x(0) − x*|`` of the two problems the schedule with Σ s_k = 1 runs on."""
        return {
            "floor-short": abs(float(self.x_star[0])),
            "floor-shifted": abs(float(self.shifted.x_star[0])),
        }

    @property
    def floor_ratio(self) -> float:
        """The floor over its consensus prediction, on the problem :attr:`travel` names."""
        return self.floors[self.travel] / self.predictions[self.travel]

    @property
    def best_rows(self) -> list[dict[str, Any]]:
        """``message_perturbation`` rows of the 1-D problem, one per ε."""
        return [
            {"schedule": f"geometric c={r.c:g}, ρ_s={r.rho_s:g}, ρ_η={r.rho_eta:.4g}",
             "eps": r.eps if math.isfinite(r.eps) else "inf", "error": r.error,
             "privacy_loss": r.eps if math.isfinite(r.eps) else "inf"}
            for r in self.best.itertuples()
        ]  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The accountants' last values and the floors' consensus predictions (the floors are glued by the
        chapter)."""
        return {"accountant_final": {k: float(v[-1]) for k, v in self.accountants.items()},
                "floor_prediction": dict(self.predictions)}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every schedule of the grid at every ε."""
        return {"fp-message-perturbation-grid": self.tuned}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The baseline's accountant and constants are the book's derivation."""
        title = "The message-perturbation baseline's accountant and constants are derived by the book"
        return (("p004-e6", title, "note-fp-message-accountant"),)

    def figure(self, functional: Tradeoff) -> Figure:
        """(a) both methods at their nominal ε (functional perturbation from E3, q = 2); (b) the
        accountants; (c) the impossibility, measured."""
        fig, (top, bottom) = panel_rows([2, 1], heights=[3.6, 2.8])
        axes = [*top, *bottom]
        fp_q2 = functional.table[functional.table["q"] == 2.0]
        best = self.best
        finite = best[np.isfinite(best["eps"])]
        axes[0].loglog(fp_q2["eps"], fp_q2["mean_error"], "o-", label="functional perturbation, q = 2")
        axes[0].loglog(
            finite["eps"], finite["error"], "s-", label=f"message perturbation, best of {self.schedules}"
        )
        axes[0].axhline(float(best[~np.isfinite(best["eps"])]["error"].iloc[0]), color="C1", ls=":",
                        label="message perturbation, no noise")  # fmt: skip
        axes[0].set(
            xlabel="nominal ε (each method's own adjacency)", ylabel="mean error", title="(a) 1-D quadratics"
        )
        axes[0].legend(fontsize=SMALL)
        for name, loss in self.accountants.items():
            axes[1].loglog(np.arange(1, loss.size + 1), loss, label=ACCOUNTANT_LABELS[name])
        axes[1].set(xlabel="messages K", ylabel="privacy-loss bound $L_K$", title="(b) accountants")
        axes[1].legend(fontsize=SMALL)
        imp = self.impossibility
        axes[2].plot(imp["K"], imp["p_I"], label="$P_I(O)$")
        axes[2].plot(imp["K"], imp["p_I_prime"], label="$P_{I'}(O)$")
        twin = axes[2].twinx()
        twin.plot(imp["K"], imp["log_ratio_lower"], "k--")
        twin.axhline(self.log_ratio_cap, color="grey", ls=":", lw=1)
        axes[2].plot([], [], "k--", label="log-ratio, 95 % lower bound")
        axes[2].plot([], [], color="grey", ls=":", label=f"the most {self.impossibility_runs} runs can show")
        twin.set_ylabel("$\\log(P_I / P_{I'})$, lower bound")
        axes[2].set(xlabel="message K", ylabel="probability", title="(c) a convergent scheme leaks")
        axes[2].legend(fontsize=SMALL, loc="center right")
        return fig


def message_perturbation(P: Parameters, setup: Setup) -> MessagePerturbation:
    """E6 (streams ``p004-e6/…``): noise-free floors, the tuned baseline at the ε of ``MESSAGE_EPS``,
    the accountants, and the impossibility demonstration on the problem with agent 0's θ shifted."""
    quad, W = setup.quadratic, setup.W
    shifted = fp.shifted_quadratic(quad, 0, ADJACENT_SHIFT)
    floors = {
        name: fp.noise_free_floor(problem, W, 0.1, rho, P.rng(f"p004-e6/{name}"), iterations=FLOOR_ITERATIONS)
        for name, problem, rho in (("floor-short", quad, 0.9), ("floor-long", quad, 0.99),
                                   ("floor-shifted", shifted, 0.9))
    }  # fmt: skip
    predictions = {name: fp.consensus_floor(problem, 0.1, 0.9, iterations=FLOOR_ITERATIONS)
                   for name, problem in (("floor-short", quad), ("floor-shifted", shifted))}  # fmt: skip
    delta = 2 * quad.S.u_bar  # Δ = 2ū: the largest change of one agent's gradient in S
    tuned = fp.tuned_message_errors(
        quad, W, np.array(MESSAGE_EPS), delta, P.rng("p004-e6/tuned"), runs=P.message_runs,
        iterations=MESSAGE_ITERATIONS,
    )  # fmt: skip
    b0 = fp.geometric_b0(1.0, 0.1, 0.9, 0.95, delta)
    accountants = {
        "geometric": fp.privacy_loss_bound(*fp.geometric_schedule(5000, 0.1, 0.9, 0.95, b0), delta),
        "convergent": fp.privacy_loss_bound(*fp.convergent_schedule(10_000), delta),
    }
    steps, scales = fp.convergent_schedule(IMPOSSIBILITY_MESSAGES)
    imp = fp.impossibility_curve(quad, shifted, W, steps, scales, IMPOSSIBILITY_RADIUS, P.impossibility_runs,
                                 P.rng("p004-e6/impossibility"), alpha=ref.IMPOSSIBILITY_ALPHA)  # fmt: skip
    result = MessagePerturbation(
        quad.x_star,
        shifted,
        floors,
        predictions,
        pd.DataFrame(tuned),
        accountants,
        imp,
        P.impossibility_runs,
        {},
    )
    checks = ref.impossibility_checks(result.log_ratio(10), result.log_ratio(100))
    checks += ref.huang_floor_checks(result.floor_ratio, floors["floor-long"])
    return dataclasses.replace(result, checks={"p004-e6": checks})
