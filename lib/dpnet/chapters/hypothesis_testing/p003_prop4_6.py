"""Paper 003, Proposition 4.6: the private distributed test is ε-DP and has Type I error at most α.

Its size is measured with the §5 tests
(:func:`~dpnet.chapters.hypothesis_testing.p003_sec5_tests.private_tests` records the size checks under
this item). This module measures what its privacy rests on: §12's
sensitivity ``Δ = 2B_θB_x`` of a centre's Cox log-likelihood, against what one patient really does to it
(:func:`sensitivity`) for every kind of neighbour of §12's "added, removed, or modified", on these
centres and on the worst-case data set of a change of treatment, and the ε that the noise calibrated to
``Δ`` then buys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dpnet.chapters.hypothesis_testing._common import THETA1
from dpnet.chapters.hypothesis_testing.p003_fig3 import Cohorts
from dpnet.params import Cost, Parameters
from dpnet.reference import clinical
from dpnet.results import Check
from dpnet.survival.cox import (
    NEIGHBOURS,
    cox_sensitivity,
    neighbour_changes,
    treatment_worst_case,
)

__all__ = ["CHANGES", "Sensitivity", "cost", "sensitivity"]

#: The neighbours measured (:data:`~dpnet.survival.cox.NEIGHBOURS`), as the tables name them.
CHANGES = {
    "remove": "remove one patient",
    "add": "add one patient",
    "treatment": "change one patient's treatment",
    "event": "change one patient's event indicator",
    "time": "change one patient's time",
    "modify": "replace one patient's record",
}
#: The worst-case data set's row of the table.
WORST = "change one patient's treatment, worst-case data set"

#: Measured cost on this 2-core machine (one core): one centre's neighbours, every kind, 227 patients.
_CENTRE_SECONDS = 0.3


def cost(values: Mapping[str, Any]) -> Cost:
    """Time of :func:`sensitivity`: ``0.3·n`` seconds for ``n = n_centers`` centres (each kind an array of
    changes of at most ``4·N·(2U + 1)`` rows for ``N`` patients and ``U`` distinct times, 6 MiB for an
    ACTG centre: counted in the chapter's fixed memory). Calibrated on this 2-core machine, one core,
    under load: 1.5 s at the defaults."""
    return Cost(seconds=_CENTRE_SECONDS * values["n_centers"])


@dataclass(frozen=True, eq=False)
class Sensitivity:
    """§12's sensitivity against the largest change one patient makes to a centre's log-likelihood, ACTG
    ddI against ZDV, Θ = {0, −log 2}.

    Attributes
    ----------
    largest
        Per kind of neighbour (:data:`CHANGES`), shape ``(n, |Θ|)``: each centre's largest
        ``|log ℓ_i(S′|θ) − log ℓ_i(S|θ)|`` over its neighbours, at each state.
    summed
        Per kind, shape ``(n,)``: each centre's largest ``Σ_θ |change|`` over its neighbours, the privacy
        loss the Laplace noise of all states must cover.
    worst
        The change of one treatment at each state on the worst-case data set
        (:func:`~dpnet.survival.cox.treatment_worst_case`) of ``worst_patients`` patients, the size of the
        largest centre.
    patients
        Patients per centre.
    delta, eps, n_states
        §12's Δ, the run's budget ε and ``|Θ|``.
    """

    largest: Mapping[str, np.ndarray]
    summed: Mapping[str, np.ndarray]
    worst: np.ndarray
    worst_patients: int
    patients: np.ndarray
    delta: float
    eps: float
    n_states: int
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...]
    #: The checks are of a published claim, made for any parameters.
    paper_setting = True

    def loss(self, summed: float) -> float:
        """The ε that the noise calibrated to Δ costs a neighbour that moves the states' log-likelihoods
        by ``summed = Σ_θ |c_θ|``: ``ε · summed / (|Θ| Δ)``.

        The noise has scale ``b = ΔK|Θ|/ε`` on each of the ``K|Θ|`` releases of a centre, so a neighbour
        that moves state θ's log-likelihood by ``c_θ`` has a privacy loss of ``K Σ_θ |c_θ| / b``.
        """
        return float(self.eps * summed / (self.n_states * self.delta))

    def bought(self, kind: str) -> float:
        """The ε that the noise guarantees against the worst neighbour of ``kind`` on these centres; for
        ``"worst"``, against the change of treatment on the worst-case data set."""
        if kind == "worst":
            return self.loss(float(np.abs(self.worst).sum()))
        return self.loss(float(self.summed[kind].max()))

    @property
    def table(self) -> pd.DataFrame:
        """Per kind of neighbour: the largest change at each state over the centres (and the centre where
        the largest sum over states occurs), and the ε the noise buys against it; last, the worst-case
        data set of a change of treatment."""
        rows = []
        for kind, label in CHANGES.items():
            zero, alt = self.largest[kind].max(axis=0)
            rows.append({
                "neighbour": label, "data": f"centre {int(np.argmax(self.summed[kind]))}",
                "largest change of log ℓ(0)": zero, "largest change of log ℓ(−log 2)": alt,
                "in units of Δ": max(zero, alt) / self.delta, "ε bought": self.bought(kind),
            })  # fmt: skip
        zero, alt = np.abs(self.worst)
        rows.append({
            "neighbour": WORST, "data": f"{self.worst_patients} patients",
            "largest change of log ℓ(0)": zero, "largest change of log ℓ(−log 2)": alt,
            "in units of Δ": max(zero, alt) / self.delta, "ε bought": self.bought("worst"),
        })  # fmt: skip
        return pd.DataFrame(rows)

    def metrics(self) -> dict[str, Any]:
        """The changes and the ε bought, under their metrics.json names."""
        out: dict[str, Any] = {
            "sensitivity_delta": self.delta,
            "sensitivity_patients": self.patients.tolist(),
            "sensitivity_worst_patients": self.worst_patients,
            "sensitivity_worst_alt": float(abs(self.worst[1])),
            "sensitivity_worst_ratio": float(np.abs(self.worst).max() / self.delta),
            "eps_bought_worst": self.bought("worst"),
        }
        for kind in CHANGES:
            out[f"sensitivity_{kind}_zero"] = float(self.largest[kind][:, 0].max())
            out[f"sensitivity_{kind}_alt"] = float(self.largest[kind][:, 1].max())
            out[f"sensitivity_{kind}_ratio"] = float(self.largest[kind].max() / self.delta)
            out[f"sensitivity_{kind}_by_centre"] = self.largest[kind].tolist()
            out[f"eps_bought_{kind}"] = self.bought(kind)
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"ht-sensitivity": self.table}


def sensitivity(P: Parameters, data: Cohorts) -> Sensitivity:
    """Every neighbour of every kind of every centre of the chapter's split: how far it moves the centre's
    log partial likelihood (eq. 3) at 0 and −log 2 (:func:`~dpnet.survival.cox.neighbour_changes`); and
    the change of one treatment on the worst-case data set of the largest centre's size."""
    d, labels, states = data.ddi, data.ddi_centres, np.array([0.0, THETA1])
    largest: dict[str, list[np.ndarray]] = {kind: [] for kind in NEIGHBOURS}
    summed: dict[str, list[float]] = {kind: [] for kind in NEIGHBOURS}
    for i in range(P.n_centers):
        m = labels == i
        for kind in NEIGHBOURS:
            change = np.abs(neighbour_changes(d.x[m], d.time[m], d.event[m], states, change=kind))
            largest[kind].append(change.max(axis=0) if len(change) else np.zeros(len(states)))
            summed[kind].append(float(change.sum(axis=1).max()) if len(change) else 0.0)
    patients = np.bincount(labels, minlength=P.n_centers)
    n_worst = max(int(patients.max()), 2)
    case = treatment_worst_case(n_worst, THETA1)
    worst = neighbour_changes(case.x, case.time, case.event, states, change="treatment")[case.patient]
    delta = cox_sensitivity(abs(THETA1))
    arrays = {kind: np.array(v) for kind, v in largest.items()}
    checks = clinical.sensitivity_checks(
        {kind: arrays[kind].ravel() for kind in NEIGHBOURS}, delta, worst=float(np.abs(worst).max()),
        worst_patients=n_worst, eps_worst=P.eps * float(np.abs(worst).sum()) / (len(states) * delta),
        eps=P.eps,
    )  # fmt: skip
    return Sensitivity(
        arrays, {kind: np.array(v) for kind, v in summed.items()}, worst, n_worst, patients, delta, P.eps,
        len(states), {"p003-prop4-6": checks}, (("p003-prop4-6", *clinical.PROP46_DEVIATIONS[1]),),
    )  # fmt: skip
