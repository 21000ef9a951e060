"""Paper 004, the book's experiment E7: record-level sensitivity, what one record changes in the
logistic objective, and both methods calibrated to protect one record."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation._common import (
    MESSAGE_EPS,
    MESSAGE_ITERATIONS,
    message_bytes,
    run_2d_bytes,
    run_2d_seconds,
)
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.functional_perturbation.p004_e3 import Tradeoff
    from dpnet.chapters.functional_perturbation.p004_e6 import MessagePerturbation

__all__ = [
    "E7_AUDIT_DRAWS",
    "E7_AUDIT_EPS",
    "RECORD_DEGREES",
    "RECORD_EPS",
    "RecordLevel",
    "cost",
    "record_level",
]

#: The record-level budgets compared, and the degrees at which the sensitivity is computed.
RECORD_EPS = (10.0, 100.0, 1000.0, 10_000.0)
RECORD_DEGREES = (14, 18)
#: The audit of one record: the function-level budget (q = 2) and releases per input.
E7_AUDIT_EPS, E7_AUDIT_DRAWS = 1.0, 20_000

#: Measured seconds of one message-perturbation run of the 2-D problem at every budget (see :func:`cost`).
_MESSAGE_RUN_SECONDS = 0.5


def cost(values: Mapping[str, Any]) -> Cost:
    """E7: its 2-D functional runs, ``runs_2d`` at each of the 4 budgets of ``RECORD_EPS``, each
    ``10⁻⁷·n·K₂³`` seconds (calibration: ``dpnet.chapters.functional_perturbation._common``), and its
    tuned messages, ``0.5·message_runs`` seconds; it holds the larger of a 2-D run's basis,
    ``2200·K₂²`` bytes, and the message schedules run side by side, ``2²⁴ + 6200·n·message_runs``.

    The sensitivities at degrees 14 and 18 do not depend on the parameters: they are part of the
    chapter's fixed seconds. Calibrated on this 2-core machine, one core: E7's 64 schedules took 3.1
    to 4.2 s at 5 message runs.
    """
    seconds = len(RECORD_EPS) * values["runs_2d"] * run_2d_seconds(values)
    seconds += _MESSAGE_RUN_SECONDS * values["message_runs"]
    return Cost(seconds=seconds, peak=max(run_2d_bytes(values), message_bytes(values)))


@dataclass(frozen=True)
class RecordLevel:
    """E7: what one record changes in the logistic objective, and both methods calibrated to one record."""

    degree: int
    sensitivity: Mapping[int, Mapping[str, float]]  # by degree, q = 2
    sensitivity_q15: Mapping[str, float]
    table: pd.DataFrame  # record-level ε, both methods' errors
    nominal_ratio: Mapping[float, float]  # message / functional error at nominal ε (1-D, q = 2)
    audited: float  # the audited lower bound on one record's log-ratio at function-level ε = E7_AUDIT_EPS
    audit_cap: float  # the largest lower bound an audit of E7_AUDIT_DRAWS draws per input can show
    record_audited: float  # the same audit at the record-level calibration ε = E7_AUDIT_EPS / sup‖h‖_Vq
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E7 that a run could leave.
    paper_setting = True
    #: E7 records no deviation.
    deviations = ()

    @property
    def sensitivity_table(self) -> pd.DataFrame:
        """The record-level sensitivities by degree."""
        return pd.DataFrame([
            {"degree M": M, "sup ‖h‖_Vq, q = 2": s["vq"], "sup Σ|Δ_k|/b_k at ε = 1": s["loss"],
             "sup ‖h‖_L2": s["l2"], "sup |∇h| on X": s["gradient"]}
            for M, s in self.sensitivity.items()
        ])  # fmt: skip

    @property
    def nominal_range(self) -> tuple[float, float]:
        """The smallest and largest error ratio at nominal ε (``nan`` when E3 and E6 share no ε at q = 2)."""
        ratios = list(self.nominal_ratio.values())
        return (min(ratios), max(ratios)) if ratios else (math.nan, math.nan)

    @property
    def record_range(self) -> tuple[float, float]:
        """The smallest and largest error ratio at record-level ε."""
        return float(self.record_ratio.min()), float(self.record_ratio.max())

    @property
    def record_ratio(self) -> NDArray[np.float64]:
        """Message over functional perturbation's error at each record-level ε."""
        return (self.table["message perturbation (best)"] / self.table["functional perturbation"]).to_numpy()

    @property
    def record_rows(self) -> list[dict[str, Any]]:
        """``message_perturbation`` rows of the record-level comparison."""
        return [{"schedule": "best geometric, record-level (logistic)", "eps": float(e), "error": float(v),
                 "privacy_loss": float(e)}
                for e, v in zip(self.table["record-level ε"], self.table["message perturbation (best)"],
                                strict=True)]  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The error ratios of the two comparisons, and the audited log-ratio of one record."""
        return {"nominal_ratio": {f"{e:g}": r for e, r in self.nominal_ratio.items()},
                "record_ratio": self.record_ratio, "record_audit": self.audited,
                "record_level_audit": self.record_audited}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The sensitivities and the record-level comparison."""
        return {"fp-record-sensitivity": self.sensitivity_table, "fp-record-level": self.table}

    def figure(self) -> Figure:
        """Both methods' errors against the record-level ε."""
        t = self.table
        fig, (ax,) = panel_row(1, width=5.4, height=3.8)
        ax.loglog(t["record-level ε"], t["functional perturbation"], "o-",
                  label="functional perturbation, q = 2, ε = ε_record / sup‖h‖$_{V_q}$")  # fmt: skip
        ax.loglog(t["record-level ε"], t["message perturbation (best)"], "s-",
                  label="message perturbation, Δ = sup|∇h|, best schedule")  # fmt: skip
        ax.set(
            xlabel="record-level ε",
            ylabel="mean $|x - x^*|$",
            title="Logistic regression, one record protected",
        )
        ax.legend(fontsize=SMALL)
        return fig


def record_level(
    P: Parameters, setup: Setup, functional: Tradeoff, messages: MessagePerturbation
) -> RecordLevel:
    """E7 (streams ``p004-e7/functional``, ``p004-e7/messages``, ``p004-e7/audit`` and
    ``p004-e7/record-audit``): sensitivities at the run's degree and at ``RECORD_DEGREES``, the audit of the
    worst pair of records at function-level ε = ``E7_AUDIT_EPS`` and at the record-level calibration
    ε = ``E7_AUDIT_EPS``/sup‖h‖_Vq, both methods at the record-level ε of ``RECORD_EPS``, and the nominal
    comparison of E6 (a) as error ratios."""
    logit, M = setup.logistic, setup.logistic.basis.M
    sens = {
        m: fp.record_sensitivities(fp.Basis2D(logit.basis.R, m), 2.0) for m in sorted({M, *RECORD_DEGREES})
    }
    sens_q15 = fp.record_sensitivities(logit.basis, 1.5)
    scales = fp.laplace_scales(logit.basis.K, fp.gamma(E7_AUDIT_EPS, 2.0, 1.0), 1.0)
    audit = fp.likelihood_ratio_audit(
        fp.worst_record_difference(logit.basis, 2.0), scales, E7_AUDIT_DRAWS, P.rng("p004-e7/audit")
    )
    audited, cap = audit.log_ratio(ref.AUDIT_ALPHA), audit.cap(ref.AUDIT_ALPHA)
    # the same record at the record-level calibration ε = E7_AUDIT_EPS / sup‖h‖_Vq (the slides' guarantee)
    record_scales = fp.laplace_scales(logit.basis.K, fp.gamma(E7_AUDIT_EPS / sens[M]["vq"], 2.0, 1.0), 1.0)
    record_audit = fp.likelihood_ratio_audit(
        fp.worst_record_difference(logit.basis, 2.0), record_scales, E7_AUDIT_DRAWS,
        P.rng("p004-e7/record-audit"),
    ).log_ratio(ref.AUDIT_ALPHA)  # fmt: skip
    rng = P.rng("p004-e7/functional")  # one generator through the budgets, in order
    functional_errors = [
        float(np.mean(fp.tradeoff_errors((logit, 2.0, float(e / sens[M]["vq"]), P.runs_2d), rng)))
        for e in RECORD_EPS
    ]
    rows = fp.tuned_message_errors(
        logit,
        setup.W,
        np.array(RECORD_EPS),
        sens[M]["gradient"],
        P.rng("p004-e7/messages"),
        runs=P.message_runs,
        iterations=MESSAGE_ITERATIONS,
    )
    best = pd.DataFrame(rows).groupby("eps")["error"].min()
    table = pd.DataFrame({
        "record-level ε": np.array(RECORD_EPS), "functional perturbation": functional_errors,
        "message perturbation (best)": best.loc[list(RECORD_EPS)].to_numpy(),
    })  # fmt: skip
    at = functional.table.set_index(["q", "eps"])["mean_error"]
    nominal = messages.best.set_index("eps")["error"]
    ratio = {e: float(nominal.loc[e] / at.loc[(2.0, e)]) for e in MESSAGE_EPS[:-1] if (2.0, e) in at.index}
    checks = {"p004-e7": ref.record_loss_checks(audited, E7_AUDIT_EPS, record_audit, E7_AUDIT_EPS)}
    return RecordLevel(M, sens, sens_q15, table, ratio, audited, cap, record_audit, checks)
