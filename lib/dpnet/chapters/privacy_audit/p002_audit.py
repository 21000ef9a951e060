"""Paper 002, audited: the released bits of Pairwise-Preference, MaxSense and Multi-MaxSense, whose
output law is enumerated exactly on a small instance (:func:`dpnet.recommender.privacy.release_probabilities`:
every query, every bit, every user datum of ``w`` rated items among ``N``)."""

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
from dpnet.params import Cost, Parameters
from dpnet.recommender import privacy
from dpnet.reference import privacy_audit as ref

__all__ = ["DATA", "INSTANCE", "ITEM", "SCHEMES", "cost", "p002_audit"]

ITEM = "p002-audit"
#: The enumerated instance: N items, w rated per user, θ = 1 (Chapter 7's E0), and Multi-MaxSense's bits.
INSTANCE = {"n_items": 5, "w": 2, "theta": 1.0, "bits": 2}
#: The provenance of the rows: a toy instance, every user datum of it enumerated (no data set).
DATA = f"toy instance: N = {INSTANCE['n_items']} items, w = {INSTANCE['w']} rated, every datum"
SCHEMES = {
    "pairwise": "Pairwise-Preference bit",
    "maxsense": "MaxSense bit",
    "multi-maxsense": f"Multi-MaxSense bits (Q = {INSTANCE['bits']}, ε/Q each)",
}
#: Measured on one core: the three enumerations, 0.3 s.
_SECONDS = 0.3


def cost(values: Mapping[str, Any]) -> Cost:
    """The enumerations and three discrete sampling audits (``6·draws`` draws)."""
    return Cost(seconds=_SECONDS + 6 * AUDIT_SECONDS * values["draws"], peak=48.0 * values["draws"])


def p002_audit(P: Parameters) -> ItemAudit:
    """Each scheme at the run's ``eps``: the exact worst log-ratio of the release over every two user data
    (ratings and rated items, as the paper protects both), and a sampling audit of the worst pair on the
    release of the worst ratio and its complement (stream ``p002-audit/audit``)."""
    n, w, theta, bits = INSTANCE["n_items"], INSTANCE["w"], INSTANCE["theta"], INSTANCE["bits"]
    tasks, exact, count = [], {}, {}
    confidence = row_confidence(P)
    for scheme in SCHEMES:
        n_bits = bits if scheme == "multi-maxsense" else 1
        probs, _ = privacy.release_probabilities(scheme, n, w, P.eps, theta=theta, n_bits=n_bits)
        high, low = probs.max(axis=1), probs.min(axis=1)
        with np.errstate(divide="ignore"):
            ratio = np.where(high > 0, np.log(high) - np.log(low), -np.inf)
        y = int(np.argmax(ratio))
        x, x2 = int(np.argmax(probs[y])), int(np.argmin(probs[y]))
        exact[scheme], count[scheme] = float(ratio[y]), probs.shape
        p, q = probs[:, x] / probs[:, x].sum(), probs[:, x2] / probs[:, x2].sum()
        rest = tuple(k for k in range(probs.shape[0]) if k != y)
        tasks.append(AuditTask(f"p002-{scheme}", "discrete", (tuple(p), tuple(q), ((y,), rest)), P.draws,
                               confidence))  # fmt: skip
    audited = run_audits(P, ITEM, tasks)
    rows = tuple(
        MechanismAudit(
            f"p002-{scheme}", "002", "Def. 2.1, §3–4", label,
            "any two data of one user (rated items and ratings)",
            math.nan, math.nan, P.eps, math.nan,
            f"exact law: {count[scheme][0]} releases × {count[scheme][1]} data", exact[scheme],
            audited[f"p002-{scheme}"].epsilon_lower, confidence, P.draws, data=DATA,
        )
        for scheme, label in SCHEMES.items()
    )  # fmt: skip
    return ItemAudit(ITEM, rows, {"n_items": float(n), "w": float(w)}, {ITEM: ref.p002_checks(rows)})
