"""Paper 003, §2, audited: randomized response on an agent's signal and Laplace noise on its
log-likelihood ratio (Δ = 2 log(p/(1 − p))), each measured exhaustively over the two values of a signal."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from dpnet.audit import MechanismAudit
from dpnet.chapters.privacy_audit._common import (
    AUDIT_SECONDS,
    AuditTask,
    ItemAudit,
    row_confidence,
    run_audits,
)
from dpnet.mechanisms import laplace_scale, rr_flip_probability
from dpnet.params import Cost, Parameters
from dpnet.reference import privacy_audit as ref

__all__ = ["DATA", "ITEM", "cost", "llr", "sec2_audit"]

ITEM = "p003-sec2-audit"
#: No data set: the release is a function of one binary signal, whose two values are the whole domain.
DATA = "none: both values of one binary signal"


def cost(values: Mapping[str, Any]) -> Cost:
    """Two one-coordinate sampling audits of ``draws`` draws per input: ``4·draws`` draws at
    ``AUDIT_SECONDS`` each, holding 32 bytes per draw."""
    return Cost(seconds=4 * AUDIT_SECONDS * values["draws"], peak=32.0 * values["draws"])


def llr(signal: np.ndarray, p: float) -> np.ndarray:
    """The log-likelihood ratio of binary signals between the states of accuracy ``p`` and ``1 − p``:
    ``±log(p/(1 − p))``."""
    return (2 * np.asarray(signal, dtype=float) - 1) * math.log(p / (1 - p))


def sec2_audit(P: Parameters) -> ItemAudit:
    """Both releases of §2 at the run's ``p`` and ``eps``: the Laplace release of the log-likelihood ratio
    (stated Δ = 2 log(p/(1 − p)), scale Δ/ε) and randomized response (flip probability 1/(1 + e^ε)), each
    against every pair of signal values, then audited by sampling (stream ``p003-sec2-audit/audit``)."""
    stated = 2 * math.log(P.p / (1 - P.p))
    values = llr(np.array([0, 1]), P.p)
    measured = float(np.max(np.abs(values[:, None] - values[None, :])))
    scale = laplace_scale(stated, P.eps)
    flip = float(rr_flip_probability(P.eps))
    laws = np.array([[1 - flip, flip], [flip, 1 - flip]])  # P[report | signal]: rows signal 0, 1
    exact = float(np.max(np.log(laws[:, None, :] / laws[None, :, :])))
    confidence = row_confidence(P)
    tasks = [
        AuditTask("p003-sec2-laplace", "shift", ((measured,), (scale,)), P.draws, confidence),
        AuditTask("p003-sec2-rr", "discrete", (tuple(laws[0]), tuple(laws[1]), ((0,), (1,))), P.draws,
                  confidence),
    ]  # fmt: skip
    audited = run_audits(P, ITEM, tasks)
    adjacency = "one agent's signal changed (the paper's)"
    rows = (
        MechanismAudit(
            "p003-sec2-laplace", "003", "§2", "Laplace on the log-likelihood ratio", adjacency, stated, scale,
            P.eps, measured, "exhaustive over both signal values", measured / scale,
            audited["p003-sec2-laplace"].epsilon_lower, confidence, P.draws, data=DATA,
        ),
        MechanismAudit(
            "p003-sec2-rr", "003", "§2", "randomized response on the signal", adjacency, 1.0, math.nan, P.eps,
            1.0, "exact output law of both signal values", exact, audited["p003-sec2-rr"].epsilon_lower,
            confidence, P.draws, data=DATA,
        ),
    )  # fmt: skip
    return ItemAudit(ITEM, rows, {"llr_delta": measured}, {ITEM: ref.sec2_checks(rows, measured, P.p)})
