"""Paper 003, §3–4 and §12, audited: Laplace noise on the centres' Cox log partial likelihoods, one noise
per state θ ∈ Θ, calibrated to §12's Δ = 2B_θB_x. Every single-patient neighbour of every centre is
measured (:func:`dpnet.survival.cox.neighbour_changes`, every kind of §12's "added, removed, or
modified"), on ACTG 175 (ddI against ZDV) and on the cancer cohort with the top-10 % TMB indicator, and
every patient of the online stream of §4.3 (:func:`dpnet.survival.streams.patient_changes`).

Two rows per cohort, side by side:

* **the lemma** (``audits = "lemma"``): §12 states that each state's log-likelihood ``log ℓ(θ)`` moves by
  at most Δ. The row measures that per-state vector, and the ε its publication with the paper's noise
  would buy. Paper 003 never publishes it.
* **the release** (``audits = "release"``): what the agents exchange is the normalised belief
  ``ν = σ/Σσ``, ``σ(θ) = e^{d(θ)}γ(θ)`` (§3, the algorithms' initialisation; §4.3 likewise). With two
  states it is one number, ``r + d₁ − d₀``, ``r = log ℓ(θ₁) − log ℓ(0)``: the term of order ``log N``
  common to both states cancels. Its privacy loss is ``|Δr|/b``
  (:func:`dpnet.audit.laplace_difference_audit`); the lemma would bound ``|Δr|`` by ``2Δ``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpnet import survival as sv
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
from dpnet.survival.cox import NEIGHBOURS, cox_sensitivity, neighbour_changes
from dpnet.survival.streams import patient_changes

__all__ = ["CENTRES", "DATA", "ITEM", "STREAM_CHANGES", "THETA_ACTG", "THETA_TMB", "cost", "sec12_audit"]

ITEM = "p003-sec12-audit"
#: The split of both cohorts (Chapter 3's: five centres, round robin) and the states Θ = {0, θ₁}.
CENTRES = 5
THETA_ACTG = -math.log(2.0)
THETA_TMB = math.log(0.15)
#: The provenance of each cohort's rows: both are real data sets (Chapters 3–5).
DATA = {
    "actg": "real: ACTG 175, ddI vs ZDV, 5 centres",
    "tmb": "real: MSK-IMPACT immunotherapy cohort, 5 centres",
    "stream": "real: ACTG 175, ddI vs ZDV, streamed",
}
#: The neighbours of the online stream (a new time or an added patient would change a period's cohort).
STREAM_CHANGES = ("remove", "treatment", "event")
#: Measured on one core of this machine: every kind of neighbour of one ACTG centre, 0.3 s; of one cancer
#: centre, 0.5 s; the stream, 0.2 s.
_SECONDS = {"actg": 0.3, "tmb": 0.5, "stream": 0.2}


def cost(values: Mapping[str, Any]) -> Cost:
    """The neighbours of both cohorts' centres and the stream (2.2 s), three two-coordinate sampling audits
    of the lemma (``12·draws`` draws) and three of the beliefs' difference (``12·draws`` draws)."""
    seconds = CENTRES * (_SECONDS["actg"] + _SECONDS["tmb"]) + _SECONDS["stream"]
    return Cost(seconds=seconds + 24 * AUDIT_SECONDS * values["draws"], peak=64.0 * values["draws"] + 2**24)


def _worst(changes: list[NDArray[np.float64]]) -> tuple[float, NDArray[np.float64], int]:
    """The largest |change| at any state, the change vector of the neighbour with the largest Σ_θ |change|,
    and the number of neighbours."""
    stacked = np.concatenate(changes)
    worst = stacked[int(np.argmax(np.abs(stacked).sum(axis=1)))]
    return float(np.abs(stacked).max()), worst, len(stacked)


def _ratio(changes: list[NDArray[np.float64]]) -> float:
    """The largest change of ``r = log ℓ(θ₁) − log ℓ(θ₀)`` over the neighbours: what moves the beliefs."""
    return float(max(np.abs(c[:, 1] - c[:, 0]).max() for c in changes))


def _cohort_changes(x: Any, time: Any, event: Any, centres: NDArray, states: NDArray) -> dict[str, list]:
    out: dict[str, list] = {kind: [] for kind in NEIGHBOURS}
    for i in range(CENTRES):
        m = centres == i
        for kind in NEIGHBOURS:
            out[kind].append(neighbour_changes(x[m], time[m], event[m], states, change=kind))
    return out


def sec12_audit(P: Parameters) -> ItemAudit:
    """Six rows at the run's ``eps`` (noise of scale ``b = |Θ|Δ/ε`` on each state's log-likelihood): for
    ACTG 175's centres, the cancer cohort's centres (exhaustive over every neighbour of every kind) and
    the ACTG stream of ``period_days`` (every patient removed or changed), the lemma's per-state vector and
    the released belief; each audited by sampling on its worst neighbour (stream ``p003-sec12-audit/audit``)
    at the row's share of the family-wise confidence."""
    ddi = sv.arm_cohort(sv.load_actg175(), "ddI")
    actg_centres = sv.cohort_centres(ddi.index.to_numpy(), CENTRES)
    tmb = sv.tmb_cohort(sv.load_samstein2019(), "top10")
    tmb_centres = sv.cohort_centres(tmb.index.to_numpy(), CENTRES)
    states = {"actg": np.array([0.0, THETA_ACTG]), "tmb": np.array([0.0, THETA_TMB])}
    changes = {
        "actg": _cohort_changes(ddi.x, ddi.time, ddi.event, actg_centres, states["actg"]),
        "tmb": _cohort_changes(tmb.x, tmb.time, tmb.event, tmb_centres, states["tmb"]),
    }
    stream = [
        patient_changes(ddi.x, ddi.time, ddi.event, actg_centres, states["actg"], period_length=P.period_days,
                        change=kind)
        for kind in STREAM_CHANGES
    ]  # fmt: skip
    every_change = {
        "actg": [c for kind in NEIGHBOURS for c in changes["actg"][kind]],
        "tmb": [c for kind in NEIGHBOURS for c in changes["tmb"][kind]],
        "stream": stream,
    }
    measured = {k: _worst(v) for k, v in every_change.items()}
    ratio = {k: _ratio(v) for k, v in every_change.items()}
    stated = {"actg": cox_sensitivity(abs(THETA_ACTG)), "tmb": cox_sensitivity(abs(THETA_TMB))}
    stated["stream"] = stated["actg"]
    scale = {k: 2 * d / P.eps for k, d in stated.items()}
    confidence = row_confidence(P)
    keys = ("actg", "tmb", "stream")
    tasks = [
        AuditTask(f"p003-sec12-{k}", "shift", (tuple(map(float, measured[k][1])), (scale[k],) * 2), P.draws,
                  confidence)
        for k in keys
    ] + [
        AuditTask(f"p003-sec12-{k}-beliefs", "difference", (ratio[k], scale[k]), P.draws, confidence)
        for k in keys
    ]  # fmt: skip
    audited = run_audits(P, ITEM, tasks)
    labels = {
        "actg": ("§3–4, §12", "ACTG 175 centres", "one patient added, removed or modified (§12)"),
        "tmb": ("§12", "cancer cohort (top-10 % TMB) centres",
                "one patient added, removed or modified (§12)"),
        "stream": ("§4.3", f"ACTG 175 stream ({P.period_days:g} days)",
                   "one patient removed or its treatment or event changed"),
    }  # fmt: skip
    rows = []
    for k in keys:
        section, what, adjacency = labels[k]
        rows.append(MechanismAudit(
            f"p003-sec12-{k}", "003", section, f"§12 lemma: each state's log-likelihood, {what}", adjacency,
            stated[k], scale[k], P.eps, measured[k][0], f"exhaustive over {measured[k][2]:,} neighbours",
            float(np.abs(measured[k][1]).sum() / scale[k]), audited[f"p003-sec12-{k}"].epsilon_lower,
            confidence, P.draws, audits="lemma", data=DATA[k],
        ))  # fmt: skip
    for k in keys:
        section, what, adjacency = labels[k]
        rows.append(MechanismAudit(
            f"p003-sec12-{k}-beliefs", "003", section,
            f"released beliefs: log ℓ(θ₁) − log ℓ(0) + d₁ − d₀, {what}", adjacency, 2 * stated[k], scale[k],
            P.eps, ratio[k], f"exhaustive over {measured[k][2]:,} neighbours", ratio[k] / scale[k],
            audited[f"p003-sec12-{k}-beliefs"].epsilon_lower, confidence, P.draws, audits="release",
            data=DATA[k],
        ))  # fmt: skip
    removed = np.abs(changes["actg"]["remove"][1]).max(axis=0)
    patients = int(np.sum(actg_centres == 1))
    add_remove = [_ratio([changes["actg"]["remove"][i], changes["actg"]["add"][i]]) for i in range(CENTRES)]
    tmb_add_remove = _ratio(changes["tmb"]["remove"] + changes["tmb"]["add"])
    extra = {
        "centre1_patients": float(patients), "centre1_zero": float(removed[0]),
        "centre1_alt": float(removed[1]),
        "centre1_eps": float(np.abs(changes["actg"]["remove"][1]).sum(axis=1).max() / scale["actg"]),
        "actg_remove_alt": float(max(np.abs(c).max(axis=0)[1] for c in changes["actg"]["remove"])),
        **{f"actg_{kind}": float(max(np.abs(c).max() for c in changes["actg"][kind])) for kind in NEIGHBOURS},
        **{f"actg_ratio_add_remove_{i}": v for i, v in enumerate(add_remove)},
        "actg_ratio_add_remove": max(add_remove), "tmb_ratio_add_remove": tmb_add_remove,
        "actg_ratio_treatment": _ratio(changes["actg"]["treatment"]),
    }  # fmt: skip
    lemma = [r for r in rows if r.audits == "lemma"]
    beliefs = [r for r in rows if r.audits == "release"]
    checks = ref.sec12_checks(
        lemma,
        beliefs,
        (patients, extra["centre1_zero"], extra["centre1_alt"]),
        (max(add_remove), tmb_add_remove),
    )
    return ItemAudit(ITEM, tuple(rows), extra, {ITEM: checks})
